"""Moonstone (Kazantseva & Szpakowicz 2012): agreement on topical segmentation of 20 chapters.

Reads all 20 chapters from the positions CSVs (``segmentations/chN.csv``) and from
``moonstone_segeval_masses.json``, checks that both give the same segmentations and the same
figures, then prints the corpus-level boundary α (nominal), unit-set α/β per set distance with
95 % bootstrap intervals clustered by chapter, and the leave-one-coder-out table.

Coders: the column names ``an1 … anK`` are local to each chapter (corpus README), so by default
(``--coders local``) every chapter's coders are distinct people and everyone else is missing
data there. ``--coders group`` instead assumes column k of a chapter is the k-th listed member
of the group that annotated it (``annot_to_group.csv``, ``group_to_chapter.csv``; the column
counts match the group sizes, but the release does not say so); ``--coders named`` takes the
names as they are.

Usage: python benchmarks/moonstone.py [--corpus DIR] [--coders local|group|named]
       [--resamples N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from corpusagree.analyses import segments
from corpusagree.analyses.base import plain
from corpusagree.readers import positions, segeval
from corpusagree.report.json import clean
from corpusagree.stats.inference import Bootstrap

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "moonstone_kazantseva2012"


def group_members(corpus: Path) -> dict[str, list[str]]:
    """Chapter → annotator ids of the group that segmented it, in listed order."""
    with open(corpus / "annot_to_group.csv", encoding="utf-8") as f:
        groups: dict[str, list[str]] = {}
        for row in csv.DictReader(f):
            if row["group"].strip():
                groups.setdefault(row["group"].strip(), []).append(row["annotator"].strip())
    chapters = {}
    with open(corpus / "group_to_chapter.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            for key in ("ch1", "ch2", "ch3", "ch4"):
                chapters.setdefault(f"ch{row[key].strip()}", []).append(row["group"].strip())
    # The corpus README: group 1's list says chapter 9 where the data say chapter 11
    # (chapter 9 is also group 3's).
    chapters["ch9"].remove("1")
    chapters["ch11"] = ["1"]
    return {ch: groups[g[0]] for ch, g in chapters.items()}


def rename(segs, how: str, corpus: Path):
    if how == "named":
        return segs
    if how == "local":
        return segments.rename_local(segs)
    members = group_members(corpus)
    out = []
    for s in segs:
        k = int(s.annotator.removeprefix("an")) - 1
        ids = members[s.document]
        if k >= len(ids):
            sys.exit(f"{s.document}: column {s.annotator} but its group has {len(ids)} members")
        out.append(replace(s, annotator=f"annotator{ids[k]}"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--coders", choices=["local", "group", "named"], default="local")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"{args.corpus}: not found")

    t0 = time.perf_counter()
    from_csv = positions.read(args.corpus / "segmentations")
    t_csv = time.perf_counter() - t0
    from_json = segeval.read(args.corpus / "moonstone_segeval_masses.json")
    masses = {(s.document, s.annotator): s.masses for s in from_csv}
    same_masses = masses == {(s.document, s.annotator): s.masses for s in from_json}

    settings = Bootstrap(args.resamples, 0.95, seed=args.seed)
    t0 = time.perf_counter()
    out = segments.analyse(rename(from_csv, args.coders, args.corpus), bootstrap=settings)
    t_score = time.perf_counter() - t0
    again = segments.analyse(rename(from_json, args.coders, args.corpus), bootstrap=settings)
    figures = [clean(plain([r.boundaries, r.unit_sets])) for r in (out, again)]
    same_figures = json.dumps(figures[0]) == json.dumps(figures[1])

    loo = clean(out.leave_one_out.to_dict())
    summary = {
        "chapters": out.data["documents"], "paragraphs": out.data["units"],
        "segmentations": out.data["segmentations"], "coders": len(out.data["coders"]),
        "coder_identity": args.coders, "csv_equals_json": same_masses and same_figures,
        "read_csv_seconds": round(t_csv, 3), "score_seconds": round(t_score, 3),
        "coefficients": [{"symbol": e.result.symbol, "distance": e.result.distance,
                          "value": e.value} |
                         ({"low": e.interval.low, "high": e.interval.high,
                           "clustered": e.interval.clustered, "clusters": e.interval.units}
                          if e.interval is not None else {})
                         for e in out.boundaries + out.unit_sets
                         if e.id in ("alpha", "beta", "multi_kappa", "pi")],
        "leave_one_out": loo,
        "pairwise_means": {segments.METRICS[k][0]: v
                           for k, v in out.pairwise.means.mean.items()},
    }
    if args.json:
        print(json.dumps(clean(plain(summary)), indent=2, ensure_ascii=False))
        return
    print(f"Moonstone: {summary['chapters']} chapters, {summary['paragraphs']} paragraphs, "
          f"{summary['segmentations']} segmentations, {summary['coders']} coders "
          f"({args.coders}); positions CSV = segeval JSON: {summary['csv_equals_json']}")
    print(f"read CSVs {t_csv:.2f} s, score (with {args.resamples} clustered resamples) "
          f"{t_score:.2f} s")
    print("\ncoefficient  distance     value    95% CI (bootstrap, chapters as clusters)")
    for r in summary["coefficients"]:
        ci = f"[{r['low']:.3f}, {r['high']:.3f}]" if "low" in r else ""
        print(f"{r['symbol']:<12} {r['distance']:<11} {r['value']:7.3f}   {ci}")
    means = ", ".join(f"{k} {v:.3f}" for k, v in summary["pairwise_means"].items())
    print(f"\npairwise means over (chapter, coder pair): {means}")
    print(f"\nleave one coder out (all coders: boundary α {loo['all_boundary_alpha']:.3f}, "
          f"unit-set α {loo['distance']} {loo['all_unit_alpha']:.3f}); largest gains first")
    print(f"{'coder':<14} {'boundary α':>11} {'change':>8} {'unit α':>8} {'change':>8}")
    rows = sorted(loo["rows"], key=lambda r: -r["unit_change"])
    for r in rows[:15]:
        print(f"{r['coder']:<14} {r['boundary_alpha']:11.4f} {r['boundary_change']:+8.4f} "
              f"{r['unit_alpha']:8.4f} {r['unit_change']:+8.4f}")
    if len(rows) > 15:
        print(f"… {len(rows) - 15} more (--json)")
    odd = loo["odd_one_out"]
    print(f"odd one out: {odd['coder']} (unit-set α {odd['change']:+.4f} without them); "
          f"by boundary α: {loo['odd_one_out_boundaries']['coder']} "
          f"({loo['odd_one_out_boundaries']['change']:+.4f})")


if __name__ == "__main__":
    main()
