"""Intraclass correlations at scale, against pingouin's ``intraclass_corr`` in the same process.

Issue 32's case: 100,000 items × 10 coders = 1,000,000 numeric scores (an item effect, a
coder offset and noise, rounded to a 1–10 scale). corpusagree computes the six forms with
their F tests and intervals (``ca.icc_table``, psych's convention, which pingouin follows)
from the coders × items array; pingouin from its long data frame (one row per score, which
it needs; building the frame is not timed). Best of N rounds, the two run in turn; their
values are checked equal. ``--reml`` also times the REML ICC on the same data with 20 %
of the scores missing (pingouin has no such estimate: it would drop the items).

``--bootstrap N`` times the bootstrap intervals of the six ICCs (``icc_bootstrap``, what
``corpusagree ratings --ci`` computes: N replicates of the items, percentile, then BCa with
its jackknife of 1,000 blocks) on the same data, once each, beside pingouin's point estimate
(its F intervals; pingouin has no bootstrap of the ICC) and beside the plain refit of a
replicate (its items repeated, ``icc_table`` on the copy) timed on ``--refit`` replicates.

Usage: python benchmarks/ratings_scale.py [--items N] [--coders K] [--pingouin-items N]
       [--repeat N] [--reml] [--bootstrap N] [--refit N] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from irr_scale import best  # the timing helper of the sibling scripts (run from benchmarks/)

import corpusagree as ca


def make(items: int, coders: int, seed: int = 0) -> np.ndarray:
    """coders × items scores on a 1–10 scale."""
    rng = np.random.default_rng(seed)
    y = rng.normal(5.5, 1.5, items)[None, :] + rng.normal(0, 0.5, coders)[:, None] \
        + rng.normal(0, 1, (coders, items))
    return np.clip(np.round(y), 1, 10)


def ours(y: np.ndarray) -> list[float]:
    return [r.value for r in ca.icc_table(y)]


def every_form(y: np.ndarray) -> list[float]:
    """The six distinct McGraw & Wong forms, one ``ca.icc`` call each (irr's convention; a
    call checks and reads the data anew)."""
    forms = [("oneway", "agreement", u) for u in ("single", "average")] + \
        [("twoway", t, u) for t in ("agreement", "consistency") for u in ("single", "average")]
    return [ca.icc(y, *f).value for f in forms]


def theirs(frame) -> list[float]:
    import pingouin as pg

    r = pg.intraclass_corr(frame, targets="item", raters="coder", ratings="score")
    return list(r["ICC"])


def bootstrap(y: np.ndarray, resamples: int, refit: int) -> dict:
    """The ICC bootstrap's times (percentile, BCa) and the plain refit's per replicate."""
    import warnings

    from corpusagree.stats.icc import icc_bootstrap
    from corpusagree.stats.inference import replicate_weights

    units = np.arange(y.shape[1])
    times = {}
    for method in ("percentile", "bca"):
        t = time.perf_counter()
        icc_bootstrap(y, units, ca.Bootstrap(resamples, seed=1, interval=method))
        times[method] = time.perf_counter() - t
    t = time.perf_counter()
    for W in replicate_weights(y.shape[1], refit, seed=1):
        for w in W:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ca.icc_table(np.repeat(y, w.astype(int), axis=1))
    return {"resamples": resamples, "percentile_s": times["percentile"],
            "bca_s": times["bca"], "per_replicate_ms": times["percentile"] / resamples * 1e3,
            "refit_ms": (time.perf_counter() - t) / refit * 1e3}


def long_frame(y: np.ndarray):
    import pandas as pd

    k, n = y.shape
    return pd.DataFrame({"item": np.tile(np.arange(n), k), "coder": np.repeat(np.arange(k), n),
                         "score": y.ravel()})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--coders", type=int, default=10)
    ap.add_argument("--pingouin-items", type=int, default=None,
                    help="run pingouin on the first N items only (default: all)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--reml", action="store_true")
    ap.add_argument("--bootstrap", type=int, default=0, metavar="N",
                    help="also time the ICC bootstrap with N replicates (e.g. 1000)")
    ap.add_argument("--refit", type=int, default=10, metavar="N",
                    help="replicates of the plain refit timed beside it")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    y = make(args.items, args.coders)
    ((table, t_table), (forms, t_forms)) = best([lambda: ours(y), lambda: every_form(y)],
                                                args.repeat)
    out = {"items": args.items, "coders": args.coders, "scores": y.size,
           "icc_table_s": t_table, "icc_ten_forms_s": t_forms, "icc": table}
    try:
        import pingouin  # noqa: F401
    except ImportError:
        out["pingouin"] = None
    else:
        n_pg = args.items if args.pingouin_items is None else min(args.pingouin_items,
                                                                   args.items)
        small = y[:, :n_pg]
        frame = long_frame(small)
        (a, t_ours), (b, t_pg) = best([lambda: ours(small), lambda: theirs(frame)],
                                      args.repeat)
        assert np.allclose(a, b, rtol=1e-9), (a, b)  # both in psych's order, ICC1 … ICC3k
        out["pingouin"] = {"items": n_pg, "ours_s": t_ours, "pingouin_s": t_pg,
                           "speedup": t_pg / t_ours}
    if args.reml:
        rng = np.random.default_rng(1)
        holes = y.copy()
        holes[rng.random(y.shape) < 0.2] = np.nan
        holes[:2, np.isnan(holes).sum(axis=0) > args.coders - 2] = 5.0  # 2 scores per item
        ((value, t_reml),) = best([lambda: ca.icc(holes, missing="reml").value], args.repeat)
        out["reml"] = {"missing": int(np.isnan(holes).sum()), "value": value, "s": t_reml}
    if args.bootstrap:
        out["bootstrap"] = bootstrap(y, args.bootstrap, args.refit)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.items:,} items × {args.coders} coders = {y.size:,} scores; best of "
          f"{args.repeat}")
    print(f"  icc_table (6 forms, F tests, intervals): {t_table:.3f} s")
    print(f"  icc, the 6 forms one call each:           {t_forms:.3f} s")
    pg = out["pingouin"]
    if pg is None:
        print("  pingouin: not installed")
    else:
        print(f"  at {pg['items']:,} items: corpusagree {pg['ours_s']:.3f} s, pingouin "
              f"{pg['pingouin_s']:.3f} s ({pg['speedup']:.0f}×, ICCs equal)")
    if args.reml:
        r = out["reml"]
        print(f"  REML ICC(A,1), {r['missing']:,} scores missing: {r['s']:.3f} s")
    if args.bootstrap:
        b = out["bootstrap"]
        print(f"  bootstrap of the 6 ICCs, {b['resamples']:,} replicates: percentile "
              f"{b['percentile_s']:.2f} s, BCa {b['bca_s']:.2f} s")
        print(f"    {b['per_replicate_ms']:.1f} ms a replicate; the plain refit "
              f"{b['refit_ms']:.1f} ms ({b['refit_ms'] / b['per_replicate_ms']:.1f}×)")
        if pg is not None:
            print(f"    percentile: {b['percentile_s'] / pg['pingouin_s']:.2f}× the time of "
                  f"pingouin's point estimate at {pg['items']:,} items")


if __name__ == "__main__":
    main()
