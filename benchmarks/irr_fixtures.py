"""Reference values of the irrCAC package for the tests: ``tests/data/irr/irrcac_random.json``
(irrCAC's named weights) and ``tests/data/irr/irrcac_custom_weights.json`` (q × q agreement-weight
matrices, asymmetric, over categories in an order of their own, numeric and text labels).

irrcac (0.4.4) pins scipy 1.12, which would pull numpy below 2 into the test environment
(scorch and this package's other peers need numpy 2), so the test extra does not install it.
This script, run where irrcac is installed (``pip install --no-deps irrcac``), writes what it
computes on the random ratings of ``tests/stats/test_irr.py`` (units × raters, 1 … 5, missing
cells) for every weight scheme and coefficient: value, standard error, p_a and p_e; the tests
compare corpusagree with the file everywhere, and with irrcac itself where it is importable.

Usage: python benchmarks/irr_fixtures.py [--seeds 6] [--out tests/data/irr/irrcac_random.json]
    [--custom-out tests/data/irr/irrcac_custom_weights.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS = ("identity", "quadratic", "linear", "ordinal", "radical", "ratio", "circular",
           "bipolar")
METHODS = ("gwet", "conger", "fleiss", "bp", "krippendorff")
CATEGORIES = [1.0, 2.0, 3.0, 4.0, 5.0]


def random_ratings(seed: int) -> np.ndarray:
    """units × raters with 1 … 5 (some categories rare), missing cells and an empty unit."""
    rng = np.random.default_rng(seed)
    n, r = int(rng.integers(12, 40)), int(rng.integers(2, 6))
    truth = rng.choice(5, n, p=[0.5, 0.2, 0.15, 0.1, 0.05]) + 1
    m = np.where(rng.random((n, r)) < 0.6, truth[:, None], rng.integers(1, 6, (n, r)))
    m = m.astype(float)
    m[rng.random((n, r)) < 0.2] = np.nan
    m[0] = np.nan
    m[1] = 1.0  # every rater has a judgement
    return m


def reference(m: np.ndarray, kind: str) -> dict:
    import pandas as pd
    from irrCAC.raw import CAC

    cac = CAC(pd.DataFrame(m), weights=kind, categories=CATEGORIES, digits=12)
    out = {}
    for method in METHODS:
        est = getattr(cac, method)()["est"]
        out[method] = {k: float(est[k]) for k in ("coefficient_value", "se", "pa", "pe")}
    return out


#: the labels of the text-labelled custom-weight cases (1 … 5 of :func:`random_ratings`)
TEXT_LABELS = ("v", "w", "x", "y", "z")


def custom_case(seed: int) -> dict:
    """Random ratings (:func:`random_ratings`) with a random asymmetric agreement-weight matrix
    (w(k, k) = 1, the rest in [0, 1], some 0 and 1) over the categories in a random order;
    odd seeds label the categories with text."""
    m = random_ratings(seed)
    rng = np.random.default_rng(1000 + seed)
    W = np.round(rng.random((5, 5)), 3)
    W[rng.random((5, 5)) < 0.2] = 0.0
    W[rng.random((5, 5)) < 0.1] = 1.0
    np.fill_diagonal(W, 1.0)
    order = rng.permutation(5)
    if seed % 2:
        cats = [TEXT_LABELS[k] for k in order]
        ratings = [[None if np.isnan(x) else TEXT_LABELS[int(x) - 1] for x in row]
                   for row in m.tolist()]
    else:
        cats = [CATEGORIES[k] for k in order]
        ratings = [[None if np.isnan(x) else x for x in row] for row in m.tolist()]
    return {"seed": seed, "ratings": ratings, "categories": cats, "weights": W.tolist()}


def custom_reference(case: dict) -> dict:
    import pandas as pd
    from irrCAC.raw import CAC

    frame = pd.DataFrame([[np.nan if x is None else x for x in row] for row in case["ratings"]])
    cac = CAC(frame, weights=np.array(case["weights"]), categories=case["categories"],
              digits=12)
    out = {}
    for method in METHODS:
        est = getattr(cac, method)()["est"]
        out[method] = {k: float(est[k]) for k in ("coefficient_value", "se", "pa", "pe")}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "irr" /
                    "irrcac_random.json")
    ap.add_argument("--custom-out", type=Path, default=ROOT / "tests" / "data" / "irr" /
                    "irrcac_custom_weights.json")
    args = ap.parse_args()
    try:
        import irrCAC  # noqa: F401
    except ImportError:
        sys.exit("irrcac is not installed: pip install --no-deps irrcac")
    from importlib.metadata import version

    cases = []
    for seed in range(args.seeds):
        m = random_ratings(seed)
        cases.append({"seed": seed, "ratings": [[None if np.isnan(x) else x for x in row]
                                                for row in m.tolist()],
                      "weights": {kind: reference(m, kind) for kind in WEIGHTS}})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"irrcac": version("irrcac"), "categories": CATEGORIES,
                                    "cases": cases}, indent=1) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(cases)} rating tables × {len(WEIGHTS)} weights × {len(METHODS)} "
          f"coefficients (irrcac {version('irrcac')})")
    custom = [custom_case(seed) for seed in range(args.seeds)]
    for case in custom:
        case["irrcac"] = custom_reference(case)
    args.custom_out.write_text(json.dumps({"irrcac": version("irrcac"), "cases": custom},
                                          indent=1) + "\n", encoding="utf-8")
    print(f"{args.custom_out}: {len(custom)} rating tables with asymmetric weight matrices × "
          f"{len(METHODS)} coefficients")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
