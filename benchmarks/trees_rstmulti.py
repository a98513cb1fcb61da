"""RST tree agreement on RSTmulti (Hewett 2025): 2 annotators × 130 documents, timed step by step.

Reads both annotators' rs3 folders (``../shared/corpora/rstmulti_hewett2025/data/1`` and
``/2``), pairs the documents (122 with the same EDUs, 8 compared by boundaries only, 3 with one
annotator), lower-cases the relation labels, binarises, and computes RST-Parseval and Parseval
counts, Iruskieta et al.'s comparison (one assignment per document) and its Cohen's κ per
document and pooled. Prints each step's time, the corpus figures, and, with ``--rsttace``
(RST-Tace importable, e.g. in a side environment), RST-Tace's time for the same comparisons in
this process and the ratio.

Usage: python benchmarks/trees_rstmulti.py [--data DIR] [--repeat 3] [--rsttace] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np

from corpusagree.convert.trees import pair_trees
from corpusagree.readers import rs3
from corpusagree.stats.trees import iruskieta as ir
from corpusagree.stats.trees.binarize import binarize
from corpusagree.stats.trees.labels import relabel
from corpusagree.stats.trees.nodes import nodes
from corpusagree.stats.trees.parseval import MEASURES, constituents, count

DATA = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "rstmulti_hewett2025" / "data"


def run(data: Path) -> dict:
    times: dict[str, float] = {}
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trees = rs3.read_trees([data / "1", data / "2"], on_error="skip")
    times["read"] = time.perf_counter() - t
    t = time.perf_counter()
    p = pair_trees(trees)
    lowered, _ = relabel(p.trees, "lower")
    n = nodes([binarize(x) for x in lowered])
    times["pair_binarise"] = time.perf_counter() - t
    figures = {}
    t = time.perf_counter()
    for variant in ("rst_parseval", "parseval"):
        c = count(constituents(n, variant), p.reference, p.other)
        figures[variant] = {"micro_f1": dict(zip(MEASURES, c.scores()[:, 2].round(4).tolist(),
                                                 strict=True)),
                            "macro_f1": dict(zip(MEASURES, np.nanmean(c.per_pair()[:, :, 2], 0)
                                                 .round(4).tolist(), strict=True))}
    times["parseval"] = time.perf_counter() - t
    t = time.perf_counter()
    comp = ir.compare(ir.relations(n), p.reference, p.other)
    times["iruskieta"] = time.perf_counter() - t
    t = time.perf_counter()
    per_doc = ir.kappas(comp)
    pooled = ir.kappas(comp, np.ones((1, len(p.reference))))
    times["kappa"] = time.perf_counter() - t
    figures["iruskieta"] = {
        "ratio_micro": dict(zip(ir.FACTORS, comp.ratios().round(4).tolist(), strict=True)),
        "kappa_macro": dict(zip(ir.FACTORS, np.nanmean(per_doc, 0).round(4).tolist(),
                                strict=True)),
        "kappa_micro": dict(zip(ir.FACTORS, pooled[0].round(4).tolist(), strict=True))}
    times["total"] = sum(times.values())
    return {"pairs": int(len(p.reference)), "boundaries_only": len(p.different),
            "not_compared": len(p.problems), "seconds": times, "figures": figures}


def rsttace_time(data: Path) -> float:
    from rsttace.core import TableComparer, TableGenerator
    from rsttace.input.parser import RstTreeParser
    t = time.perf_counter()
    for one in sorted((data / "1").glob("*.rs3")):
        two = data / "2" / one.name
        if not two.exists():
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                TableComparer().run(TableGenerator().run(RstTreeParser(str(one)).read()),
                                    TableGenerator().run(RstTreeParser(str(two)).read()))
        except Exception:  # noqa: BLE001 - RST-Tace's refusal of a file
            pass
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rsttace", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    runs = [run(args.data) for _ in range(args.repeat)]
    best = min(runs, key=lambda r: r["seconds"]["total"])
    if args.rsttace:
        best["rsttace_seconds"] = min(rsttace_time(args.data) for _ in range(args.repeat))
        best["ratio_rsttace_to_iruskieta"] = best["rsttace_seconds"] / (
            best["seconds"]["read"] + best["seconds"]["pair_binarise"]
            + best["seconds"]["iruskieta"] + best["seconds"]["kappa"])
    if args.json:
        print(json.dumps(best, indent=1))
        return
    print(f"RSTmulti: {best['pairs']} pairs compared by Parseval, {best['boundaries_only']} by "
          f"boundaries only, {best['not_compared']} not compared (best of {args.repeat})")
    for step, s in best["seconds"].items():
        print(f"  {step:<14} {s:8.3f} s")
    for name, fig in best["figures"].items():
        for kind, values in fig.items():
            print(f"  {name} {kind}: " + ", ".join(f"{k} {v:.4f}" for k, v in values.items()))
    if args.rsttace:
        print(f"  RST-Tace, same comparisons: {best['rsttace_seconds']:.3f} s "
              f"({best['ratio_rsttace_to_iruskieta']:.1f}x ours with reading)")


if __name__ == "__main__":
    main()
