"""Span agreement without pre-set units on two real corpora: unitizing α and γ, timed.

* RSTmulti (Hewett 2025): the elementary discourse units of 134 texts (German news and
  commentary, English UN Security Council speeches) segmented by two annotators
  (``data/1/X.rs3`` vs ``data/2/X.rs3``; each folder holds 132 files, 4 documents have one
  annotator only), read as segmentations: one category, segments tile the text, positions in
  tokens.
* PotTS (Sidarenka 2016; the MMAX2 subset): two annotators' sentiment spans in 8 tweet files,
  level ``sentiment``, category = the markable's ``polarity``, positions in tokens; then the
  ``target`` and ``source`` levels with one category (position-only agreement).

For each: the uα family (Krippendorff 1995, 2004; Krippendorff et al. 2016; nan with the reason
where undefined) and γ (Mathet et al. 2015) with γ-cat, γ-k, the best alignment by annotator
pair, and the seconds to read and to measure.

Usage: python benchmarks/spans_real.py [--corpora DIR] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from corpusagree.analyses import spans
from corpusagree.report.json import clean

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def run(name: str, paths: list[Path], seed: int, **options) -> dict:
    category = options.pop("category", None)
    t0 = time.perf_counter()
    corpus = spans.read(paths, category=category, **options)
    fmt, c = corpus.format, corpus.data
    t1 = time.perf_counter()
    report = spans.analyse(corpus, seed=seed)
    t2 = time.perf_counter()
    d = report.to_dict()
    g = d["gamma"]
    return {"corpus": name, "format": fmt, "documents": len(c.documents),
            "annotators": list(c.annotators), "units": len(c),
            "categories": list(c.categories),
            "alpha_u": [{k: r[k] for k in ("symbol", "category", "value", "observed",
                                          "expected", "reason")} for r in d["alpha_u"]],
            "gamma": {k: g[k] for k in ("value", "observed_disorder", "expected_disorder",
                                        "gamma_cat", "gamma_k", "n_samples")},
            "gamma_positions": None if d["gamma_positions"] is None
            else d["gamma_positions"]["value"],
            "pairs": d["pairs"], "read_seconds": t1 - t0, "measure_seconds": t2 - t1}


def show(r: dict) -> None:
    print(f"\n{r['corpus']} ({r['format']}): {r['units']} units, {len(r['annotators'])} "
          f"annotators, {r['documents']} documents, categories "
          f"{', '.join(r['categories'])}")
    print(f"  read {r['read_seconds']:.2f} s, measured {r['measure_seconds']:.2f} s")
    for a in r["alpha_u"]:
        v = a["value"]
        shown = "undefined" if v is None or (isinstance(v, float) and math.isnan(v)) \
            else f"{v:.4f}"
        print(f"  {a['symbol']:<22} {a['category'] or 'all':<10} {shown}")
    g = r["gamma"]
    print(f"  γ {g['value']:.4f} (Do {g['observed_disorder']:.4f}, De "
          f"{g['expected_disorder']:.4f}, {g['n_samples']} samples); γ-cat "
          f"{g['gamma_cat'] if g['gamma_cat'] is None else round(g['gamma_cat'], 4)}")
    if r["gamma_positions"] is not None:
        print(f"  γ, positions only {r['gamma_positions']:.4f}")
    for p in r["pairs"]:
        print(f"  {p['a']} / {p['b']}: matched {p['matched']}, only {p['a']} {p['only_a']}, "
              f"only {p['b']} {p['only_b']}, split {p['split_a']} / {p['split_b']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=DEFAULT)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rst = args.corpora / "rstmulti_hewett2025" / "data"
    potts = args.corpora / "potts_mmax2_subset" / "corpus"
    if not rst.is_dir() or not potts.is_dir():
        print(f"corpora not found under {args.corpora}", file=sys.stderr)
        return 2
    annotators = [potts / "annotator-1", potts / "annotator-2"]
    results = [run("RSTmulti EDUs", [rst / "1", rst / "2"], args.seed),
               run("PotTS sentiment (polarity)", annotators, args.seed, levels=["sentiment"],
                   category="polarity"),
               run("PotTS target", annotators, args.seed, levels=["target"]),
               run("PotTS source", annotators, args.seed, levels=["source"])]
    if args.json:
        print(json.dumps(clean(results), indent=2, ensure_ascii=False))
    else:
        for r in results:
            show(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
