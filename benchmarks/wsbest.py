"""Erk et al. (2013) WSbest: α over sets of WordNet senses, plain and extended by an automatic
grouping (WordNet lexicographer files), side by side, with bootstrap intervals.

8 annotators × 260 sentences (``../shared/corpora/erk2013_wsbest_wssim/wsbest/``): for each
sentence an annotator marked every sense that fits, so a judgement is a set of senses. Schemes:

* ``multi``: the set of senses;
* ``extended (lexfile)``: every sense plus its lexicographer-file group, per lemma
  (``order%2:30:00::`` → ``order%2:30``; A&P 2005 §4.4 extended senses with an automatic
  grouping), so two different senses filed under the same lexicographer file overlap;
* ``extended (lexfile, shared)``: the same with the group shared by all lemmas (``2:30``);
* ``fine``: nominal over the sets, for reference.

α with MASI and Jaccard (and nominal for ``fine``); intervals clustered by lemma. The MASI α of
the plain sets is checked against NLTK's ``AnnotationTask(distance=masi_distance).alpha()``.

Usage: python benchmarks/wsbest.py [--path judgments.tsv] [--resamples N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from corpusagree.analyses import senses
from corpusagree.convert.senses import SenseTable, lexfile_inventory, to_reliability
from corpusagree.report.json import clean
from corpusagree.stats import coefficients as coef
from corpusagree.stats import inference

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
DEFAULT = CORPORA / "erk2013_wsbest_wssim" / "wsbest" / "judgments.tsv"
DISTANCES = ("masi", "jaccard")


def schemes(table: SenseTable) -> list[tuple[str, str, object]]:
    """(row name, scheme, inventory) of each row of the comparison."""
    return [("fine (nominal)", "fine", None), ("multi", "multi", None),
            ("extended (lexfile)", "extended", lexfile_inventory(table.sense_names)),
            ("extended (lexfile, shared)", "extended",
             lexfile_inventory(table.sense_names, per_lemma=False))]


def measure(path: Path, resamples: int = 1000, seed: int = 0, nltk_check: bool = True
            ) -> dict:
    """Every figure the script prints, as a dict."""
    t0 = time.perf_counter()
    tags = senses.read(path).data
    table = SenseTable.from_tags(tags)
    t1 = time.perf_counter()
    rows = []
    for name, scheme, inv in schemes(table):
        for d in ("nominal",) if scheme == "fine" else DISTANCES:
            sd = to_reliability(table, scheme, inv, distance=d, cluster="lemma")
            res = coef.alpha(sd.data, sd.distance)
            i = inference.bootstrap(sd.data, [("alpha", sd.distance)],
                                    inference.Bootstrap(resamples, seed=seed))[0]
            rows.append({"scheme": name, "distance": d, "alpha": res.value,
                         "observed": res.observed, "expected": res.expected, "low": i.low,
                         "high": i.high, "clusters": i.units, "labels": sd.data.n_labels,
                         "unknown": sum(sd.unknown.values())})
    t2 = time.perf_counter()
    sizes = (table.indptr[1:] - table.indptr[:-1]).tolist()
    out = {"file": str(path), "tags": table.n_tags, "items": len(table.items),
           "annotators": len(table.coders), "lemmas": len(set(table.item_lemma)),
           "senses": len(table.sense_names),
           "tag_sizes": {str(k): sizes.count(k) for k in sorted(set(sizes))},
           "rows": rows, "seconds": {"read": t1 - t0, "alpha_and_bootstrap": t2 - t1}}
    if nltk_check:
        out["peers"] = peers(tags)
    return out


def peers(tags) -> dict:
    """NLTK's MASI α over the plain sense sets, when NLTK is installed."""
    try:
        from nltk.metrics.agreement import AnnotationTask
        from nltk.metrics.distance import masi_distance
    except ImportError:
        return {}
    t = time.perf_counter()
    task = AnnotationTask([(x.annotator, x.item, x.senses) for x in tags],
                          distance=masi_distance)
    return {"nltk_masi_alpha": task.alpha(), "nltk_seconds": time.perf_counter() - t}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--path", type=Path, default=DEFAULT)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.path.exists():
        raise SystemExit(f"{args.path}: absent (the shared corpora are not in this checkout)")
    out = measure(args.path, args.resamples, args.seed)
    if args.json:
        print(json.dumps(clean(out), indent=2, ensure_ascii=False))
        return
    print(f"WSbest (Erk et al. 2013): {out['tags']} judgements, {out['annotators']} annotators "
          f"× {out['items']} sentences, {out['lemmas']} lemmas, {out['senses']} senses; "
          f"senses per judgement {out['tag_sizes']}")
    print(f"α with 95% bootstrap intervals clustered by lemma ({args.resamples} resamples)")
    by = {(r["scheme"], r["distance"]): r for r in out["rows"]}
    names = list(dict.fromkeys(r["scheme"] for r in out["rows"]))
    print(f"  {'scheme':<28}" + "".join(f"{d:>28}" for d in ("nominal",) + DISTANCES))
    for n in names:
        cells = []
        for d in ("nominal",) + DISTANCES:
            r = by.get((n, d))
            cells.append(f"{r['alpha']:.4f} [{r['low']:.3f}, {r['high']:.3f}]" if r else "")
        print(f"  {n:<28}" + "".join(f"{c:>28}" for c in cells))
    if "nltk_masi_alpha" in out.get("peers", {}):
        print(f"  peer NLTK MASI α over the plain sets: {out['peers']['nltk_masi_alpha']:.6f} "
              f"(ours {by['multi', 'masi']['alpha']:.6f}; NLTK took "
              f"{out['peers']['nltk_seconds']:.3f} s)")
    print(f"  time: read {out['seconds']['read']:.3f} s, all α and bootstraps "
          f"{out['seconds']['alpha_and_bootstrap']:.3f} s")


if __name__ == "__main__":
    main()
