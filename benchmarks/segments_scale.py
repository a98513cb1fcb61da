"""Segmentation agreement at scale: generated documents × 5 coders × 200 units.

Every document has a reference segmentation (about 12 segments); each coder keeps a reference
boundary with probability .85, moves a kept one by ±1-2 units with probability .3 and adds a
spurious boundary at 1 % of the other gaps. The corpus is written as segeval JSON to a temporary
folder, read back with ``readers.segeval`` (timed), converted (boundaries, unit sets) and scored:
boundary α/π/multi-κ, unit-set α and β with Dice; the pairwise segeval metrics (a Python loop
over documents and coder pairs) are timed on the first 1,000 documents.

Scaling: unit-set α with Dice (conversion included) at 1k, 3k and 10k documents, with the
log-log slope of time against documents between consecutive sizes (1 = linear; every step is a
linear pass or a sort, but from ~1M judgements up the arrays leave the CPU caches, which costs
a constant factor once). The read time at each size is printed too.

Usage: python benchmarks/segments_scale.py [--docs 10000] [--coders 5] [--units 200]
       [--sizes 1000,3000,10000] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from pathlib import Path

import numpy as np

import corpusagree as ca
from corpusagree.convert import segments as conv
from corpusagree.readers import segeval
from corpusagree.report.json import clean
from corpusagree.stats import segmetrics


def generate(docs: int, coders: int, units: int, seed: int = 0) -> dict:
    """segeval ``items``: document → coder → masses."""
    rng = np.random.default_rng(seed)
    gaps = units - 1
    ref = rng.random((docs, gaps)) < 11 / gaps
    keep = ref[:, None, :] & (rng.random((docs, coders, gaps)) < 0.85)
    shift = rng.integers(-2, 3, (docs, coders, gaps)) * (rng.random((docs, coders, gaps)) < 0.3)
    d, c, g = np.nonzero(keep)
    moved = np.clip(g + shift[d, c, g], 0, gaps - 1)
    marks = rng.random((docs, coders, gaps)) < 0.01
    marks[d, c, moved] = True
    items = {}
    for i in range(docs):
        items[f"doc{i}"] = {}
        for j in range(coders):
            edges = np.concatenate([[0], np.flatnonzero(marks[i, j]) + 1, [units]])
            items[f"doc{i}"][f"coder{j}"] = np.diff(edges).tolist()
    return items


def timed(fn):
    t = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t


def write(items: dict, folder: Path, name: str) -> Path:
    path = folder / f"{name}.json"
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"segmentation_type": "linear", "items": items}, f)
    return path


def unit_alpha(segs) -> float:
    return float(ca.alpha(conv.unit_sets(segs), "dice"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--coders", type=int, default=5)
    ap.add_argument("--units", type=int, default=200)
    ap.add_argument("--sizes", default="1000,3000,10000",
                    help="document counts for the scaling of unit-set α (comma separated)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    items, t_gen = timed(lambda: generate(args.docs, args.coders, args.units))
    out: dict = {"documents": args.docs, "coders": args.coders, "units_per_document": args.units,
                 "generate_seconds": t_gen}
    with tempfile.TemporaryDirectory() as tmp:
        path = write(items, Path(tmp), "corpus")
        out["json_bytes"] = path.stat().st_size
        segs, out["read_seconds"] = timed(lambda: segeval.read(path))
        lay, t_layout = timed(lambda: conv.layout(segs))
        bdata, t_b = timed(lambda: conv.boundaries(lay))
        udata, t_u = timed(lambda: conv.unit_sets(lay))
        out["convert_seconds"] = {"layout": t_layout, "boundaries": t_b, "unit_sets": t_u}
        out["judgements"] = int((udata.codes >= 0).sum())
        out["segments"] = udata.n_labels
        scores = {}
        for name, fn, data, d in (("boundary α", ca.alpha, bdata, "nominal"),
                                  ("boundary multi-π", lambda x, _: ca.pi(x), bdata, None),
                                  ("boundary multi-κ", lambda x, _: ca.multi_kappa(x), bdata,
                                   None),
                                  ("unit-set α dice", ca.alpha, udata, "dice"),
                                  ("unit-set β dice", ca.beta, udata, "dice")):
            value, t = timed(lambda fn=fn, data=data, d=d: float(fn(data, d)))
            scores[name] = {"value": value, "seconds": t}
        out["scores"] = scores
        m = min(1000, args.docs)
        some = {d: items[d] for d in list(items)[:m]}
        _, t_pairs = timed(lambda: segmetrics.pairwise_means(some, lay.coders))
        out["pairwise_metrics"] = {"documents": m, "seconds": t_pairs,
                                   "milliseconds_per_document": 1e3 * t_pairs / m}

        sizes = [n for n in map(int, args.sizes.split(",")) if n <= args.docs]
        scaling = []
        names = list(items)
        for n in sizes:
            if n == args.docs:  # the whole corpus, read above
                sub_segs, t_read = segs, out["read_seconds"]
            else:
                sub = write({k: items[k] for k in names[:n]}, Path(tmp), f"d{n}")
                sub_segs, t_read = timed(lambda sub=sub: segeval.read(sub))
            best = min(timed(lambda s=sub_segs: unit_alpha(s))[1] for _ in range(3))
            scaling.append({"documents": n, "read_seconds": t_read,
                            "unit_alpha_dice_seconds": best,
                            "microseconds_per_document": 1e6 * best / n})
        out["scaling"] = scaling
        for a, b in zip(scaling, scaling[1:], strict=False):
            span = math.log(b["documents"] / a["documents"])
            b["slope_unit_alpha"] = math.log(b["unit_alpha_dice_seconds"] /
                                             a["unit_alpha_dice_seconds"]) / span
            b["slope_read"] = math.log(b["read_seconds"] / a["read_seconds"]) / span

    if args.json:
        print(json.dumps(clean(out), indent=2, ensure_ascii=False))
        return
    print(f"{args.docs} documents × {args.coders} coders × {args.units} units: "
          f"{out['judgements']:,} unit judgements, {out['segments']:,} distinct segments, "
          f"segeval JSON {out['json_bytes'] / 1e6:.1f} MB")
    print(f"read (readers.segeval) {out['read_seconds']:.2f} s; convert: layout "
          f"{t_layout:.2f} s, boundaries {t_b:.2f} s, unit sets {t_u:.2f} s")
    for name, s in scores.items():
        print(f"  {name:<18} {s['value']:.4f}   {s['seconds']:.2f} s")
    pm = out["pairwise_metrics"]
    print(f"  pairwise B, S, Pk, WindowDiff (all coder pairs) on {pm['documents']} documents: "
          f"{pm['seconds']:.2f} s ({pm['milliseconds_per_document']:.1f} ms per document)")
    print("\nunit-set α with Dice, conversion included (best of 3), and reading; log-log "
          "slopes against the previous size (1 = linear):")
    print(f"{'documents':>10} {'α dice (s)':>11} {'µs/document':>12} {'slope':>6} "
          f"{'read (s)':>9} {'slope':>6}")
    for row in scaling:
        slopes = [f"{row[k]:6.2f}" if k in row else " " * 6
                  for k in ("slope_unit_alpha", "slope_read")]
        print(f"{row['documents']:>10} {row['unit_alpha_dice_seconds']:>11.2f} "
              f"{row['microseconds_per_document']:>12.0f} {slopes[0]} "
              f"{row['read_seconds']:>9.2f} {slopes[1]}")

if __name__ == "__main__":
    main()
