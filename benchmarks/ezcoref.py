"""ezCoref (Gupta et al. 2023, Findings of EACL): crowd coreference, 264 passages × 5 workers.

The one public multi-annotator coreference release (``../shared/corpora/ezcoref_gupta2023``),
read with the ezCoref reader (last cluster id of each mention, the worker's final choice),
aligned by exact span (the mentions are pre-identified, so every worker marks the same ones) and
scored as ``corpusagree coref`` does:

* α and β over full chains per set distance (Passonneau, Jaccard, Dice, MASI; Artstein &
  Poesio 2005, §4.1), each with a 95 % bootstrap interval clustered by passage (the workers
  differ from passage to passage, so coders are the 33 workers with missing data elsewhere);
* κ with the antecedent as a nominal label (multi-κ), for comparison;
* mean pairwise MUC and B³ F1 (Pradhan et al. 2014) over every (passage, worker pair);
* wall time of each stage and in total (target: under a minute).

Usage: python benchmarks/ezcoref.py [--limit N] [--resamples R] [--seed S] [--json] [PATH]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

from corpusagree.analyses import coref
from corpusagree.convert import coref as conv
from corpusagree.stats import coefficients as co
from corpusagree.stats import corefscores, inference

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "ezcoref_gupta2023" \
    / "annotations"


def run(path: Path = DEFAULT, limit: int | None = None, n_resamples: int = 1000, seed: int = 0,
        clusters: str = "last") -> dict:
    """Every figure and time of the benchmark; ``limit`` keeps the first N passage files."""
    times: dict[str, float] = {}
    start = t = time.perf_counter()
    files = sorted(Path(path).rglob("*.json"))[:limit]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, anns = coref.read(files, "ezcoref", clusters=clusters)
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
    scores = corefscores.document_pairs(al.clusters(), al.doc_items, al.annotated,
                                        ("muc", "b_cubed"))
    times["scores"] = time.perf_counter() - t
    times["total"] = time.perf_counter() - start
    return {"passages": len(al.documents), "submissions": len(anns),
            "annotators": len(al.annotators),
            "workers": len({a.split("#")[0] for a in al.annotators}),
            "mentions": al.n_items, "cluster_ids": clusters,
            "reader_warnings": [str(w.message) for w in caught],
            "resamples": n_resamples, "seed": seed, "coefficients": rows,
            "antecedent_multi_kappa": kappa, "pairs": len(scores),
            "mean_pairwise_f1": scores.mean(), "seconds": times}


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
    f1 = out["mean_pairwise_f1"]
    print(f"antecedent as a nominal label: multi-κ = {out['antecedent_multi_kappa']:.4f}")
    print(f"mean pairwise F1 over {out['pairs']} (passage, worker pair)s: "
          f"MUC {f1['muc']:.4f}, B³ {f1['b_cubed']:.4f}")
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
