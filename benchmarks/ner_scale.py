"""NER-style agreement (SemEval-2013 Task 9.1's four modes) at scale, against nervaluate.

The corpus is ``unitizing_scale.generate``'s (reference units moved, retyped, dropped and
spurious ones added per annotator). Timed, best of ``--repeat`` runs, in CPU seconds:

* ours: :func:`corpusagree.stats.nerscores.ner_agreement`, every annotator pair matched in
  every mode, every type alone too, and token κ/α — what the ``spans`` and ``markables`` jobs
  compute before their rows;
* nervaluate: ``Evaluator(...).evaluate()`` of every pair on the same spans (its overall and
  per-type counts of the four modes), in the same process; its counts are checked equal to
  ours on the first pair;
* the bootstrap: the NER part's rows with F1 intervals from ``--resamples`` replicates over
  documents (:func:`corpusagree.analyses.ner.ner_part`), the matching included.

Usage: python benchmarks/ner_scale.py [--docs 20] [--annotators 3] [--units 500]
       [--resamples 1000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from unitizing_scale import generate  # the sibling script's corpus (run from benchmarks/)

from corpusagree.analyses.ner import ner_part
from corpusagree.stats import nerscores as ns
from corpusagree.stats.inference import Bootstrap


def cpu(fn, repeat: int) -> tuple[object, float]:
    """The value of ``fn()`` and its least CPU time over ``repeat`` runs."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return out, best


def entities(c, a: int) -> list[list[dict]]:
    """Annotator a's spans per document, as nervaluate's dicts (end inclusive), in the order
    the matching takes them (start, end, type)."""
    out = []
    for d in range(len(c.documents)):
        sel = np.flatnonzero((c.annotator == a) & (c.doc == d))
        sel = sel[np.lexsort((c.category[sel], c.end[sel], c.start[sel]))]
        out.append([{"label": c.categories[k], "start": int(s), "end": int(e) - 1}
                    for s, e, k in zip(c.start[sel], c.end[sel], c.category[sel], strict=True)])
    return out


def theirs(c) -> list[dict]:
    import nervaluate

    docs = [entities(c, a) for a in range(len(c.annotators))]
    return [nervaluate.Evaluator(docs[a], docs[b], tags=list(c.categories),
                                 loader="dict").evaluate()
            for a in range(len(docs)) for b in range(a + 1, len(docs))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--docs", type=int, default=20)
    p.add_argument("--annotators", type=int, default=3)
    p.add_argument("--units", type=int, default=500, help="reference units per document")
    p.add_argument("--resamples", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    c = generate(args.docs, args.annotators, args.units)
    r, t_ours = cpu(lambda: ns.ner_agreement(c), args.repeat)
    res, t_theirs = cpu(lambda: theirs(c), args.repeat)
    first = r.counts[0].sum(axis=0)
    for k, mode in enumerate(ns.MODES):
        m = res[0]["overall"][mode]
        assert first[k].tolist() == [m.correct, m.incorrect, m.partial, m.missed,
                                     m.spurious], mode
    boot = Bootstrap(args.resamples, seed=0)
    _, t_part = cpu(lambda: ner_part(c, min_overlap=1.0, bootstrap=boot, disagreements=20,
                                     texts={}, notes=[]), args.repeat)
    out = {"spans": len(c), "pairs": len(r.pairs), "documents": len(c.documents),
           "ours_s": t_ours, "nervaluate_s": t_theirs, "ratio": t_theirs / t_ours,
           "part_with_bootstrap_s": t_part, "resamples": args.resamples}
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['spans']:,} spans, {out['pairs']} pairs, {out['documents']} documents "
          f"(CPU s, best of {args.repeat})")
    print(f"  ours (4 modes, per type, token κ) {t_ours:8.3f}")
    print(f"  nervaluate (4 modes, per type)    {t_theirs:8.3f}   {out['ratio']:.1f}× ours")
    print(f"  NER part, {args.resamples} resamples     {t_part:8.3f}")


if __name__ == "__main__":
    main()
