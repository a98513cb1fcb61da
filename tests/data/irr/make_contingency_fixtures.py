"""irrCAC's functions on a two-rater contingency table with asymmetric weights, kept as fixtures
(``irrcac_contingency.json`` beside this script).

irrCAC's ``table.CAC`` applies a q × q weight matrix as ``w[k][l]`` to an item that rater 1 (the
table's rows) put in category k and rater 2 (its columns) in l; corpusagree's
``ReliabilityData.from_contingency`` follows it. Run in a side environment with irrCAC installed
(``pip install irrCAC``), never in the project's:

    python tests/data/irr/make_contingency_fixtures.py

Cases: Gwet's ``cont4x4diagnosis`` (irrCAC's datasets) and random square tables of 3–6
categories, each with a random asymmetric matrix of agreement weights (1 on the diagonal, values
in [0, 1]); per case, each table function's coefficient, p_a and p_e.
"""

import json
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd
from irrCAC.datasets import table_cont4x4diagnosis
from irrCAC.table import CAC

#: irrCAC's table functions, by the name of ours
FUNCTIONS = {"kappa": "cohen", "pi": "scott", "gwet_ac2": "gwet", "brennan_prediger": "bp",
             "alpha": "krippendorff", "percent_agreement": "pa2"}


def weights(q: int, rng) -> np.ndarray:
    w = np.round(rng.random((q, q)), 3)
    w[rng.random((q, q)) < 0.3] = 0.0
    np.fill_diagonal(w, 1.0)
    return w


def case(table: np.ndarray, w: np.ndarray, name: str) -> dict:
    cac = CAC(pd.DataFrame(table), weights=w, digits=15)
    out = {}
    for ours, theirs in FUNCTIONS.items():
        est = getattr(cac, theirs)()["est"]
        out[ours] = {k: float(est[k]) for k in ("coefficient_value", "pa", "pe")}
    return {"name": name, "table": table.tolist(), "weights": w.tolist(), "irrcac": out}


def main() -> dict:
    rng = np.random.default_rng(34)
    diag = table_cont4x4diagnosis().to_numpy(dtype=int)
    cases = [case(diag, weights(4, rng), f"cont4x4diagnosis, weights {k}") for k in range(3)]
    for k in range(6):
        q = int(rng.integers(3, 7))
        t = rng.integers(0, 12, (q, q)) + np.diag(rng.integers(5, 30, q))
        cases.append(case(t, weights(q, rng), f"random {k}"))
    return {"irrcac": version("irrCAC"), "cases": cases}


if __name__ == "__main__":
    target = Path(__file__).with_name("irrcac_contingency.json")
    target.write_text(json.dumps(main(), indent=1) + "\n", encoding="utf-8")
    print(target)
