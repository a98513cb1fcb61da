"""Gwet's AC1 and Conger's κ at corpus scale, against the `irrcac` package in the same process.

The case of bench_alpha.py: 1,000,000 items × 5 coders × 10 categories, 5 % missing. Each
coefficient is timed with its analytic standard error (Gwet 2014), best of N rounds, the two
libraries run in turn round by round; corpusagree's time includes the conversion to
ReliabilityData. irrcac (pandas, with Python loops over categories) is run on ``--irrcac-items``
items (default: as many as ours); the ratio is reported at the size both ran, values and SEs
checked equal there. Beside them, a floor: numpy alone coding the matrix and counting its
values once (no coefficient), the least any implementation must do; irrcac's time over it
bounds the speed-up any AC1 could show against irrcac.

Usage: python benchmarks/irr_scale.py [--items N] [--irrcac-items N] [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import corpusagree as ca


def make(items: int, coders: int, k: int, missing: float, seed: int = 0) -> np.ndarray:
    """coders × items, categories 1 … k (NaN missing), as bench_alpha.py."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, items)
    m = np.where(rng.random((coders, items)) < 0.7, truth, rng.integers(0, k, (coders, items)))
    m = m.astype(float) + 1
    m[rng.random((coders, items)) < missing] = np.nan
    return m


def best(fns, repeat: int):
    """Runs the functions in turn, ``repeat`` rounds: per function (value, best time)."""
    times = [[] for _ in fns]
    values = [None] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            t = time.perf_counter()
            values[k] = fn()
            times[k].append(time.perf_counter() - t)
    return [(values[k], min(times[k])) for k in range(len(fns))]


def ours(m: np.ndarray, coefficient: str) -> tuple[float, float]:
    data = ca.ReliabilityData.from_matrix(m)
    r = ca.gwet_ac1(data) if coefficient == "gwet" else ca.conger_kappa(data)
    return r.value, r.confidence_interval(method="analytic").se


def floor(m: np.ndarray) -> np.ndarray:
    """Values coded and counted once (NaN → 0): what every coefficient must at least do."""
    missing = np.isnan(m)
    return np.bincount(np.where(missing, 0, m).astype(np.int32).ravel())


def theirs(frame, coefficient: str, cats: list) -> tuple[float, float]:
    from irrCAC.raw import CAC

    est = getattr(CAC(frame, categories=cats, digits=15), coefficient)()["est"]
    return float(est["coefficient_value"]), float(est["se"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--irrcac-items", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    import pandas as pd

    k = 10
    cats = [float(c) for c in range(1, k + 1)]
    m = make(args.items, 5, k, 0.05)
    n_irr = args.items if args.irrcac_items is None else min(args.irrcac_items, args.items)
    small = m[:, :n_irr]
    frame = pd.DataFrame(small.T)
    out = {}
    for coef, name in (("gwet", "AC1"), ("conger", "Conger κ")):
        ((big, t_big),) = best([lambda c=coef: ours(m, c)], args.repeat)
        (a, t_ours), (b, t_irr), (_, t_floor) = best(
            [lambda c=coef: ours(small, c), lambda c=coef: theirs(frame, c, cats),
             lambda: floor(small)], args.repeat)
        assert abs(a[0] - b[0]) < 1e-9 and abs(a[1] - b[1]) < 1e-9, (a, b)
        out[coef] = {"name": name, "items": args.items, "value": big[0], "se": big[1],
                     "ours_s": t_big, "irrcac_items": n_irr, "ours_at_irrcac_items_s": t_ours,
                     "irrcac_s": t_irr, "speedup": t_irr / t_ours, "floor_s": t_floor,
                     "floor_speedup": t_irr / t_floor}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.items:,} items × 5 coders × 10 categories, 5 % missing; value + analytic SE, "
          f"best of {args.repeat}")
    for r in out.values():
        print(f"  {r['name']:9} = {r['value']:.6f} (SE {r['se']:.6f}): corpusagree "
              f"{r['ours_s']:.3f} s at {r['items']:,} items")
        print(f"  {'':9}   at {r['irrcac_items']:,} items: corpusagree "
              f"{r['ours_at_irrcac_items_s']:.3f} s, irrcac {r['irrcac_s']:.3f} s "
              f"({r['speedup']:.0f}×, values and SEs equal)")
        print(f"  {'':9}   floor (numpy codes, counts once): {r['floor_s']:.3f} s "
              f"({r['floor_speedup']:.0f}× irrcac)")


if __name__ == "__main__":
    main()
