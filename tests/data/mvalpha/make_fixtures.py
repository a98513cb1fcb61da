"""Make ``fixtures.json``: mvα by the R package mvalpha 0.6.0 on random multi-valued data.

R is not part of the test environment, so the values are computed once here and stored with
the data they were computed on; ``tests/stats/test_mvalpha.py`` compares corpusagree with them.

Side environment (Debian 12; CRAN is not needed)::

    apt-get install -y r-base-core r-cran-jsonlite r-cran-rcpp r-cran-rlang r-cran-stringr \\
        r-cran-rdpack r-cran-gmp r-cran-r6
    git clone https://github.com/cran/arrangements && git clone https://github.com/cran/mvalpha
    (cd mvalpha && git checkout e9eb8ce)   # "version 0.6.0"
    sed -i 's/ -lomp//' mvalpha/src/Makevars  # links with GNU OpenMP (fixed upstream later)
    mkdir -p /tmp/mvalpha-lib
    R CMD INSTALL -l /tmp/mvalpha-lib arrangements && R CMD INSTALL -l /tmp/mvalpha-lib mvalpha

then ``python tests/data/mvalpha/make_fixtures.py --r-libs /tmp/mvalpha-lib``.

The cases: random sets of 0 to 4 of 2 to 8 values (skewed value frequencies; empty sets;
missing judgements; units only one observer judged), one value per set (mvα = α nominal), a
case where every pairable judgement is one set (D_e = 0), one where two sets of two values
cannot be drawn (a value occurs once), and a pair of interval cases on the
same sets with the values 1, 2, 3 and 10, 20, 30: mvalpha's interval mvα differs between them,
which rescaling must not do (its D_o takes the ranks 1..V of the values, its D_e the values).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 20160923  # the paper's publication date


def random_case(rng: np.random.Generator, name: str) -> dict:
    """Units × observers cells: None (missing), [] (empty set) or sorted lists of values."""
    units = int(rng.integers(3, 41))
    observers = int(rng.integers(2, 6))
    n_values = int(rng.integers(2, 9))  # mvalpha 0.6.0 fails on one value (apply drops a dim)
    largest = int(rng.integers(1, 5))
    p_missing = float(rng.choice([0.0, 0.1, 0.3]))
    p_empty = float(rng.choice([0.0, 0.05, 0.2]))
    weights = rng.dirichlet(np.full(n_values, 0.7))
    values = [f"v{k}" for k in range(n_values)]
    cells = []
    for _ in range(units):
        truth = rng.choice(n_values, size=min(largest, n_values), replace=False, p=weights)
        row = []
        for _ in range(observers):
            if rng.random() < p_missing:
                row.append(None)
            elif rng.random() < p_empty:
                row.append([])
            else:
                k = int(rng.integers(1, min(largest, n_values) + 1))
                pool = truth if rng.random() < 0.6 else rng.choice(
                    n_values, size=min(largest, n_values), replace=False, p=weights)
                row.append(sorted(values[v] for v in pool[:k]))
        cells.append(row)
    return {"name": name, "type": "nominal", "cells": cells}


def cases() -> list[dict]:
    rng = np.random.default_rng(SEED)
    out = [random_case(rng, f"random_{n:02d}") for n in range(60)]
    single = random_case(rng, "single_values")
    single["cells"] = [[c if c is None else c[:1] for c in row] for row in single["cells"]]
    out.append(single)
    out.append({"name": "one_set", "type": "nominal",
                "cells": [[["a", "b"], ["a", "b"], None], [["a", "b"], ["a", "b"], ["a", "b"]],
                          [["c"], None, None]]})
    # b occurs once, so no two sets of 2 values can be drawn: that pair of sizes adds nothing
    out.append({"name": "no_pair_of_size_2", "type": "nominal",
                "cells": [[["a"], ["a", "b"]], [["a"], ["a"]], [["a"], []]]})
    shape = [[[1, 2], [2], None], [[1, 2, 3], [2], [2, 3]], [[], [1], [1]], [[3], [3], [1, 3]]]
    for scale in (1, 10):
        cells = [[c if c is None else [v * scale for v in c] for c in row] for row in shape]
        out.append({"name": f"interval_x{scale}", "type": "interval", "cells": cells})
        out.append({"name": f"nominal_x{scale}", "type": "nominal", "cells": cells})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--r-libs", required=True, help="R library holding mvalpha 0.6.0")
    ap.add_argument("--out", type=Path, default=HERE / "fixtures.json")
    args = ap.parse_args()
    data = cases()
    with tempfile.TemporaryDirectory() as tmp:
        given, got = Path(tmp) / "cases.json", Path(tmp) / "results.json"
        given.write_text(json.dumps(data))
        subprocess.run(["Rscript", str(HERE / "mvalpha_values.R"), str(given), str(got)],
                       check=True, env={**os.environ, "R_LIBS": args.r_libs})
        results = json.loads(got.read_text())
    by_name = {r["name"]: r for r in results["results"]}
    for case in data:
        r = by_name[case["name"]]
        case.update({k: r[k] for k in ("mvalpha", "mvDo", "mvDe", "error") if k in r})
    args.out.write_text(json.dumps({"made_by": "tests/data/mvalpha/make_fixtures.py",
                                    "R": results["R"], "mvalpha": results["mvalpha"],
                                    "seed": SEED, "cases": data}, indent=1) + "\n")
    print(f"{len(data)} cases -> {args.out}")


if __name__ == "__main__":
    main()
