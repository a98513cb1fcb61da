"""The table of coefficients at scale, the statistics alone: set labels, in memory.

10⁶ items × 5 coders (``--items``), each judgement a set of 1–3 values out of 20 (labels like
``e3|e17``), 70 % of the judgements copying the item's true set, 5 % missing. The
ReliabilityData are built in memory (no file is read), then every coefficient of ``table``
(``corpusagree.analyses.table.analyse``: the unweighted family, the family under the set
distance, mvα) is computed; the CPU time (``time.process_time``, best of ``--repeat``) is printed
beside a floor: one count (``np.bincount``) over the codes.

Usage: python benchmarks/table_stats_scale.py [--items N] [--distance jaccard] [--repeat N]
       [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import time

import numpy as np

import corpusagree as ca
from corpusagree.analyses import table


def make(items: int, coders: int = 5, values: int = 20, missing: float = 0.05,
         seed: int = 0) -> ca.ReliabilityData:
    """Reliability data of set labels: sets of 1–3 of ``values`` values, 70 % of the judgements
    the item's true set, the others drawn at random, ``missing`` of them missing."""
    rng = np.random.default_rng(seed)
    sets = [c for size in (1, 2, 3) for c in itertools.combinations(range(values), size)]
    truth = rng.integers(0, len(sets), items)
    codes = np.where(rng.random((coders, items)) < 0.7, truth,
                     rng.integers(0, len(sets), (coders, items)))
    codes[rng.random((coders, items)) < missing] = -1
    used, codes = np.unique(codes, return_inverse=True)
    codes = codes.reshape(coders, items) - (used[0] == -1)
    rows = [sets[u] for u in used[used >= 0]]
    indptr = np.concatenate([[0], np.cumsum([len(r) for r in rows])])
    labels = ca.SetLabels(indptr, np.concatenate(rows), [f"e{v}" for v in range(values)])
    return ca.ReliabilityData(codes, labels)


def cpu(fn, repeat: int) -> tuple[object, float]:
    """(value, best CPU time of ``repeat`` runs)."""
    times, value = [], None
    for _ in range(repeat):
        t = time.process_time()
        value = fn()
        times.append(time.process_time() - t)
    return value, min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--distance", default="jaccard")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    data = make(args.items)

    def fresh():  # the kernels are cached on the data: each run starts from a copy
        return ca.ReliabilityData(data.codes.copy(), data.labels)

    _, floor = cpu(lambda: np.bincount((data.codes + 1).ravel()), args.repeat * 3)
    report, t_table = cpu(lambda: table.analyse(fresh(), distance=args.distance), args.repeat)
    rows = report.tables["coefficients"].to_frame()
    out = {"items": args.items, "coders": 5, "labels": data.n_labels,
           "distance": args.distance, "coefficients": len(rows), "table_cpu_s": t_table,
           "bincount_cpu_s": floor, "ratio": t_table / floor}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"table of {out['coefficients']} coefficients, {args.items:,} items × 5 coders, "
          f"{data.n_labels} set labels, distance {args.distance}")
    print(f"  corpusagree (statistics)  {t_table:7.3f} s of CPU (best of {args.repeat})")
    print(f"  np.bincount over codes    {floor:7.3f} s ({t_table / floor:.0f}×)")


if __name__ == "__main__":
    main()
