"""Snow et al. (2008) word-sense disambiguation by Mechanical Turk workers: agreement with
bootstrap intervals, checked against two peers.

177 occurrences of *president* (three OntoNotes senses), 10 judgements each from 34 workers
(``../shared/corpora/snow2008_mturk/wsd.standardized.tsv``). The data are sparse (each worker
saw some items), so κ is Davies & Fleiss' multi-κ with A&P's missing-data weights and Light's κ
(mean pairwise Cohen κ); π is multi-π (Fleiss' κ: every item has 10 judgements, so it equals
statsmodels' ``fleiss_kappa``); α is Krippendorff's (equal to the ``krippendorff`` package).
Intervals: bootstrap over items (the file gives no documents or lemmas to cluster on); Light's
κ, which the vectorised bootstrap does not cover, is resampled in a plain loop.

Usage: python benchmarks/snow2008_wsd.py [--path TSV] [--resamples N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np

from corpusagree.analyses import senses
from corpusagree.convert.senses import convert
from corpusagree.report.json import clean
from corpusagree.stats import coefficients as coef
from corpusagree.stats import inference

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
DEFAULT = CORPORA / "snow2008_mturk" / "wsd.standardized.tsv"


def measure(path: Path, resamples: int = 1000, seed: int = 0) -> dict:
    """Every figure the script prints, as a dict."""
    t0 = time.perf_counter()
    tags = senses.read(path).data
    t1 = time.perf_counter()
    data = convert(tags, "fine", cluster="item").data
    t2 = time.perf_counter()
    results = {"multi_kappa": coef.multi_kappa(data), "pi": coef.pi(data),
               "alpha": coef.alpha(data), "percent_agreement": coef.percent_agreement(data)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", coef.DegenerateWarning)
        light = coef.light_kappa(data)
    t3 = time.perf_counter()
    intervals = inference.bootstrap(data, [(k, "nominal") for k in results],
                                    inference.Bootstrap(resamples, cluster=False, seed=seed))
    t4 = time.perf_counter()
    light_low, light_high = light_kappa_interval(data, resamples, seed)
    t5 = time.perf_counter()
    out = {"file": str(path), "tags": len(tags), "items": data.n_items,
           "annotators": data.n_coders,
           "judgements_per_item": sorted(set(((data.codes >= 0).sum(0)).tolist())),
           "coefficients": {k: {"name": r.symbol, "value": r.value, "observed": r.observed,
                                "expected": r.expected, "low": i.low, "high": i.high,
                                "level": i.level, "resamples": i.n_resamples}
                            for (k, r), i in zip(results.items(), intervals, strict=True)},
           "light_kappa": {"value": light.value, "pairs": light.details["pairs"],
                           "low": light_low, "high": light_high,
                           "warnings": [str(w.message) for w in caught]},
           "seconds": {"read": t1 - t0, "convert": t2 - t1, "coefficients": t3 - t2,
                       "bootstrap": t4 - t3, "light_kappa_bootstrap": t5 - t4}}
    out["peers"] = peers(data)
    return out


def light_kappa_interval(data, resamples: int, seed: int, level: float = 0.95
                         ) -> tuple[float, float]:
    """Percentile bootstrap over items for Light's κ, which the vectorised bootstrap of
    :mod:`corpusagree.inference` does not cover: one light_kappa per resample."""
    rng = np.random.default_rng(seed)
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", coef.DegenerateWarning)
        for _ in range(resamples):
            idx = rng.integers(0, data.n_items, data.n_items)
            values.append(coef.light_kappa(data.subset(items=idx)).value)
    v = np.array(values)
    v = v[~np.isnan(v)]
    lo, hi = np.quantile(v, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def peers(data) -> dict:
    """α from the ``krippendorff`` package and Fleiss' κ from statsmodels, when installed."""
    out = {}
    try:
        import krippendorff
        m = np.where(data.codes >= 0, data.codes, np.nan).astype(float)
        out["krippendorff_alpha"] = float(krippendorff.alpha(reliability_data=m,
                                                             level_of_measurement="nominal"))
    except ImportError:
        pass
    try:
        from statsmodels.stats.inter_rater import fleiss_kappa
        valid = data.codes >= 0
        counts = np.zeros((data.n_items, data.n_labels))
        np.add.at(counts, (np.nonzero(valid)[1], data.codes[valid]), 1)
        out["statsmodels_fleiss_kappa"] = float(fleiss_kappa(counts, method="fleiss"))
    except ImportError:
        pass
    return out


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
    print(f"Snow et al. 2008 WSD: {out['tags']} judgements, {out['items']} items × "
          f"{out['judgements_per_item']} judgements, {out['annotators']} workers")
    for c in out["coefficients"].values():
        print(f"  {c['name']:<18} {c['value']:.5f}  95% CI [{c['low']:.4f}, {c['high']:.4f}]"
              f"  (Do {c['observed']:.5f}, De {c['expected']:.5f})")
    lk = out["light_kappa"]
    print(f"  {'light κ':<18} {lk['value']:.5f}  95% CI [{lk['low']:.4f}, {lk['high']:.4f}]"
          f"  (mean Cohen κ over {lk['pairs']} worker pairs with shared items)")
    for w in out["light_kappa"]["warnings"]:
        print(f"    ({w})")
    for k, v in out["peers"].items():
        print(f"  peer {k}: {v:.5f}")
    s = out["seconds"]
    print(f"  time: read {s['read']:.3f} s, convert {s['convert']:.3f} s, coefficients "
          f"{s['coefficients']:.3f} s, bootstrap ({args.resamples} resamples) of four "
          f"coefficients {s['bootstrap']:.3f} s, light κ bootstrap (loop) "
          f"{s['light_kappa_bootstrap']:.3f} s")


if __name__ == "__main__":
    main()
