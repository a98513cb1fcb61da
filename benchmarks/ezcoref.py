"""ezCoref (Gupta et al. 2023, Findings of EACL): crowd coreference, 264 passages × 5 workers.

The one public multi-annotator coreference release (``../shared/corpora/ezcoref_gupta2023``),
read with the ezCoref reader (last cluster id of each mention, the worker's final choice),
aligned by exact span (the mentions are pre-identified, so every worker marks the same ones) and
scored as ``corpusagree coref`` does:

* α and β over full chains per set distance (Passonneau, Jaccard, Dice, MASI; Artstein &
  Poesio 2005, §4.1), each with a 95 % bootstrap interval clustered by passage (the workers
  differ from passage to passage, so coders are the 33 workers with missing data elsewhere);
* κ with the antecedent as a nominal label (multi-κ), for comparison;
* MUC, B³, CEAF-e, CEAF-m, BLANC and LEA (Pradhan et al. 2014) over every (passage, worker
  pair): micro-averaged as the CoNLL reference scorer averages a corpus (the counts of every
  (passage, pair) summed), and macro-averaged (the mean of the (passage, pair)s where the score
  is defined: MUC and BLANC need a link on either side), with the CoNLL average of each;
* wall time of each stage and in total (target: under a minute).

Usage: python benchmarks/ezcoref.py [--limit N] [--resamples R] [--seed S] [--json] [PATH]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np

from corpusagree.analyses import coref
from corpusagree.convert import coref as conv
from corpusagree.stats import coefficients as co
from corpusagree.stats import corefscores, inference

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ezcoref_gupta2023" \
    / "annotations"
RPF = ("recall", "precision", "f1")


def run(path: Path = DEFAULT, limit: int | None = None, n_resamples: int = 1000, seed: int = 0,
        clusters: str = "last") -> dict:
    """Every figure and time of the benchmark; ``limit`` keeps the first N passage files."""
    times: dict[str, float] = {}
    start = t = time.perf_counter()
    files = sorted(Path(path).rglob("*.json"))[:limit]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        anns = coref.read(files, input_format="ezcoref", clusters=clusters).data
    times["read"], t = time.perf_counter() - t, time.perf_counter()
    al = conv.align(anns)
    data = conv.to_data(al)
    ante = conv.to_data(al, "antecedent")
    times["convert"], t = time.perf_counter() - t, time.perf_counter()
    rows = [{"distance": d, "alpha": co.alpha(data, d).value, "beta": co.beta(data, d).value}
            for d in coref.DISTANCES]
    kappa = co.multi_kappa(ante).value
    times["coefficients"], t = time.perf_counter() - t, time.perf_counter()
    specs = [(c, d) for d in coref.DISTANCES for c in ("alpha", "beta")]
    intervals = inference.bootstrap(data, specs, inference.Bootstrap(
        n_resamples, cluster=True, seed=seed))
    for row, (ia, ib) in zip(rows, zip(intervals[::2], intervals[1::2], strict=True),
                             strict=True):
        row["alpha_ci"], row["beta_ci"] = [ia.low, ia.high], [ib.low, ib.high]
        row["dropped_resamples"] = ia.dropped + ib.dropped
    times["intervals"], t = time.perf_counter() - t, time.perf_counter()
    table = corefscores.document_pairs(al.clusters(), al.doc_items, al.annotated)
    micro = table.micro()
    macro, n = corefscores.macro(table.figures(), np.zeros(len(table), np.int64), 1)
    scores = {m: {"micro": dict(zip(RPF, map(float, micro[j]), strict=True)),
                  "macro": {**dict(zip(RPF, map(float, macro[0, j]), strict=True)),
                            "pairs": int(n[0, j, 2])}}
              for j, m in enumerate(table.metrics)}
    conll = {avg: float(np.mean([scores[m][avg]["f1"] for m in corefscores.CONLL]))
             for avg in ("micro", "macro")}
    times["scores"] = time.perf_counter() - t
    times["total"] = time.perf_counter() - start
    return {"passages": len(al.documents), "submissions": len(anns),
            "annotators": len(al.annotators),
            "workers": len({a.split("#")[0] for a in al.annotators}),
            "mentions": al.n_items, "cluster_ids": clusters,
            "reader_warnings": [str(w.message) for w in caught],
            "resamples": n_resamples, "seed": seed, "coefficients": rows,
            "antecedent_multi_kappa": kappa, "pairs": len(table), "scores": scores,
            "conll": conll, "seconds": times}


def render(out: dict) -> None:
    print(f"ezCoref: {out['passages']} passages, {out['submissions']} submissions by "
          f"{out['workers']} workers ({out['annotators']} annotators: a worker's repeated "
          f"submission counts as another), {out['mentions']} mentions (cluster ids: "
          f"{out['cluster_ids']}); 95 % intervals clustered by passage, "
          f"{out['resamples']} resamples")
    print(f"  {'distance':<11} {'α':>6}  {'α 95% CI':<16}  {'β':>6}  {'β 95% CI':<16}")
    for r in out["coefficients"]:
        print(f"  {r['distance']:<11} {r['alpha']:6.4f}  [{r['alpha_ci'][0]:.4f}, "
              f"{r['alpha_ci'][1]:.4f}]  {r['beta']:6.4f}  [{r['beta_ci'][0]:.4f}, "
              f"{r['beta_ci'][1]:.4f}]")
    print(f"antecedent as a nominal label: multi-κ = {out['antecedent_multi_kappa']:.4f}")
    print(f"coreference scores over {out['pairs']} (passage, worker pair)s: micro (counts "
          "summed, as the reference scorer) and macro (mean where defined)")
    print(f"  {'score':<7} {'micro R':>7} {'micro P':>7} {'micro F1':>8}  {'macro F1':>8} "
          f"{'pairs':>6}")
    for m, sc in out["scores"].items():
        mi, ma = sc["micro"], sc["macro"]
        print(f"  {coref.SCORE_NAMES[m]:<7} {mi['recall']:7.4f} {mi['precision']:7.4f} "
              f"{mi['f1']:8.4f}  {ma['f1']:8.4f} {ma['pairs']:6d}")
    print(f"  {'CoNLL':<7} {'':>7} {'':>7} {out['conll']['micro']:8.4f}  "
          f"{out['conll']['macro']:8.4f}")
    print("seconds: " + ", ".join(f"{k} {v:.2f}" for k, v in out["seconds"].items()))
    for w in out["reader_warnings"]:
        print(f"note: {w}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("path", nargs="?", type=Path, default=DEFAULT,
                   help="the ezCoref annotations folder")
    p.add_argument("--limit", type=int, help="only the first N passage files")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (1000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (0)")
    p.add_argument("--clusters", choices=("all", "last"), default="last",
                   help="ezCoref cluster ids kept per mention (default: last)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    args = p.parse_args(argv)
    out = run(args.path, args.limit, args.resamples, args.seed, args.clusters)
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        render(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
