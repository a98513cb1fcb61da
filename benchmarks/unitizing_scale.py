"""Krippendorff's unitizing α at scale: generated documents × annotators × units.

Every document has a reference unitizing (units of 2–12 atoms, 3–10 atoms apart, four
categories); each annotator keeps a reference unit with probability .9, moves each of its
boundaries by up to 2 atoms with probability .3, gives it another category with probability .1,
and adds a spurious unit in 2 % of the gaps. ``--units`` is the number of reference units per
document; each annotator marks about 91 % as many. The continuum is built straight from the
arrays (no reader) and every variant is timed on it: "1995" overall and for one category,
"u", "|u|", "cu" and "k" for one category (best of three runs).

Scaling: uα ("u") and the 1995 overall uα at each ``--sizes`` number of units per annotator
and document, with the log-log slope of time against units between consecutive sizes
(1 = linear: the sweep visits each unit and each overlapping pair once).

Usage: python benchmarks/unitizing_scale.py [--docs 10] [--annotators 5] [--units 10000]
       [--sizes 1000,10000,100000] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from corpusagree.model.continuum import Continuum
from corpusagree.report.json import clean
from corpusagree.stats.unitizing import alpha_u

CATEGORIES = ["PER", "LOC", "ORG", "MISC"]


def generate(docs: int, annotators: int, units: int, seed: int = 0) -> Continuum:
    """A corpus of ``docs`` documents, each with ``annotators`` annotators unitizing about
    ``units`` reference units."""
    rng = np.random.default_rng(seed)
    columns: dict[str, list] = {k: [] for k in ("doc", "annotator", "start", "end", "category")}
    bounds = []
    for d in range(docs):
        gap = rng.integers(3, 11, units)
        size = rng.integers(2, 13, units)
        start = np.cumsum(gap + np.concatenate([[0], size[:-1]]))
        end = start + size
        cat = rng.integers(0, len(CATEGORIES), units)
        length = float(end[-1] + 10)
        bounds.append((0.0, length))
        for a in range(annotators):
            keep = rng.random(units) < 0.9
            move = (rng.random((2, units)) < 0.3) * rng.integers(-2, 3, (2, units))
            s = np.clip(start + move[0], 0, None)
            e = np.maximum(end + move[1], s + 1)
            # reference units are ≥ 3 atoms apart and a boundary moves ≤ 2: where two moved
            # units would touch across a gap of 3, the end is cut back to the next start
            e = np.minimum(e, np.concatenate([s[1:], [length]]))
            ok = keep & (e > s)
            k = np.where(rng.random(units) < 0.1, rng.integers(0, len(CATEGORIES), units), cat)
            # a spurious unit of one atom 3 atoms after a reference unit, in gaps of ≥ 6
            room = np.concatenate([start[1:], [length]]) - end >= 6
            extra = room & (rng.random(units) < 0.02)
            es = end[extra] + 3
            s_all = np.concatenate([s[ok], es])
            e_all = np.concatenate([e[ok], es + 1])
            k_all = np.concatenate([k[ok], rng.integers(0, len(CATEGORIES), len(es))])
            order = np.argsort(s_all, kind="stable")
            columns["doc"].append(np.full(len(order), d))
            columns["annotator"].append(np.full(len(order), a))
            columns["start"].append(s_all[order].astype(float))
            columns["end"].append(e_all[order].astype(float))
            columns["category"].append(k_all[order])
    return Continuum([f"annotator{a}" for a in range(annotators)], CATEGORIES,
                     [f"doc{d}" for d in range(docs)], np.array(bounds),
                     np.ones((annotators, docs), bool),
                     **{k: np.concatenate(v) for k, v in columns.items()}, unit="token")


def best_of(fn, runs: int = 3) -> tuple[object, float]:
    out, best = None, math.inf
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return out, best


VARIANTS = (("1995", "1995", None), ("1995 PER", "1995", "PER"), ("u", "u", None),
            ("|u|", "|u|", None), ("cu", "cu", None), ("k", "k", "PER"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=10)
    ap.add_argument("--annotators", type=int, default=5)
    ap.add_argument("--units", type=int, default=10_000,
                    help="reference units per document (each annotator marks about as many)")
    ap.add_argument("--sizes", default="1000,10000,100000",
                    help="units per annotator and document for the scaling (comma separated)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    t = time.perf_counter()
    c = generate(args.docs, args.annotators, args.units)
    out: dict = {"documents": args.docs, "annotators": args.annotators,
                 "units_per_document": args.units, "units": len(c),
                 "generate_seconds": time.perf_counter() - t, "variants": {}}
    for label, variant, category in VARIANTS:
        r, sec = best_of(lambda v=variant, k=category: alpha_u(c, v, k))
        out["variants"][label] = {"value": r.value, "observed": r.observed,
                                  "expected": r.expected, "coverage": r.coverage,
                                  "seconds": sec}
    r = alpha_u(c, "u")
    if args.docs >= 2:
        iv, sec = best_of(lambda: r.confidence_interval(n_resamples=1000), runs=1)
        out["bootstrap"] = {"low": iv.low, "high": iv.high, "n_resamples": 1000,
                            "seconds": sec}

    scaling = []
    for n in map(int, args.sizes.split(",")):
        cs = generate(args.docs, args.annotators, n, seed=1)
        _, t_u = best_of(lambda cs=cs: alpha_u(cs, "u"))
        _, t_95 = best_of(lambda cs=cs: alpha_u(cs, "1995"))
        scaling.append({"units_per_annotator": n, "units": len(cs), "u_seconds": t_u,
                        "1995_seconds": t_95,
                        "microseconds_per_unit": 1e6 * t_u / len(cs)})
    for a, b in zip(scaling, scaling[1:], strict=False):
        span = math.log(b["units"] / a["units"])
        b["slope"] = math.log(b["u_seconds"] / a["u_seconds"]) / span
        b["slope_1995"] = math.log(b["1995_seconds"] / a["1995_seconds"]) / span
    out["scaling"] = scaling

    if args.json:
        print(json.dumps(clean(out), indent=2, ensure_ascii=False))
        return
    print(f"{args.docs} documents × {args.annotators} annotators × {args.units:,} units: "
          f"{len(c):,} units in all (generated in {out['generate_seconds']:.2f} s)")
    for label, row in out["variants"].items():
        cov = "" if row["coverage"] is None else f"coverage {row['coverage']:.3f}"
        print(f"  {label:9} {row['value']:.4f}  {cov:15} {row['seconds']:.3f} s")
    if "bootstrap" in out:
        b = out["bootstrap"]
        print(f"  bootstrap of uα over documents (1,000 replicates): [{b['low']:.4f}, "
              f"{b['high']:.4f}] in {b['seconds']:.3f} s")
    print("scaling (uα and the 1995 overall uα, best of three):")
    for row in scaling:
        slope = f"  slope {row['slope']:.2f} / {row['slope_1995']:.2f}" if "slope" in row else ""
        print(f"  {row['units_per_annotator']:>7,} units per annotator ({row['units']:,} in all): "
              f"{row['u_seconds']:.3f} s / {row['1995_seconds']:.3f} s{slope}")


if __name__ == "__main__":
    main()
