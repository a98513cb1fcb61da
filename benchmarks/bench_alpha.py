"""α nominal at corpus scale, against the `krippendorff` package in the same process.

1. 1,000,000 items × 5 coders × 10 categories, 5 % missing: best-of-5 wall time (the two
   run in turn, round by round), then peak
   traced memory (tracemalloc, which numpy reports to) of ours (conversion to ReliabilityData
   included) and of krippendorff.alpha; prints both ratios. Beside them, in CPU time
   (``time.process_time``, best of ``--repeat``): the floor, one count (``np.bincount``) over
   the codes (coders × items of int32, −1 missing), and ours over it.
2. 100,000 items × 5 coders × 200 categories: krippendorff allocates items × values² (here
   100,000 × 200² × 8 bytes = 32 GB) and is not run; ours is timed.

Usage: python benchmarks/bench_alpha.py [--items N] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc

import numpy as np

import corpusagree as ca


def make(items: int, coders: int, k: int, missing: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, items)
    m = np.where(rng.random((coders, items)) < 0.7, truth, rng.integers(0, k, (coders, items)))
    m = m.astype(float)
    m[rng.random((coders, items)) < missing] = np.nan
    return m


def measure(fns, repeat: int = 5):
    """Runs the functions in turn, ``repeat`` rounds (so both see the same machine state):
    per function the value, best wall time, peak traced memory of one more run, first-run
    time."""
    times = [[] for _ in fns]
    values = [None] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            t = time.perf_counter()
            values[k] = fn()
            times[k].append(time.perf_counter() - t)
    out = []
    for k, fn in enumerate(fns):
        tracemalloc.start()
        fn()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        out.append((values[k], min(times[k]), peak, times[k][0]))
    return out


def cpu(fn, repeat: int) -> float:
    """The best CPU time of ``repeat`` runs (the other engineers' load counts less)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def ours(m: np.ndarray) -> float:
    return float(ca.alpha(ca.ReliabilityData.from_matrix(m)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    import krippendorff

    out = {}
    m = make(args.items, 5, 10, 0.05)
    (a, t_ours, mem_ours, cold_ours), (b, t_kr, mem_kr, cold_kr) = measure(
        [lambda: ours(m),
         lambda: krippendorff.alpha(reliability_data=m, level_of_measurement="nominal")])
    assert abs(a - b) < 1e-9, (a, b)
    out["nominal_1"] = {"items": args.items, "coders": 5, "categories": 10, "alpha": a,
                        "ours_s": t_ours, "krippendorff_s": t_kr, "speedup": t_kr / t_ours,
                        "ours_first_s": cold_ours, "krippendorff_first_s": cold_kr,
                        "speedup_first_run": cold_kr / cold_ours,
                        "ours_peak_mb": mem_ours / 2**20, "krippendorff_peak_mb": mem_kr / 2**20,
                        "memory_ratio": mem_ours / mem_kr}
    codes = ca.ReliabilityData.from_matrix(m).codes
    floor = cpu(lambda: np.bincount((codes + 1).ravel(), minlength=12), args.repeat)
    mine = cpu(lambda: ours(m), args.repeat)
    out["nominal_1"].update({"ours_cpu_s": mine, "bincount_cpu_s": floor,
                             "over_bincount": mine / floor})
    n2 = args.items // 10
    m2 = make(n2, 5, 200, 0.05, seed=1)
    ((a2, t2, mem2, _),) = measure([lambda: ours(m2)])
    out["nominal_200"] = {"items": n2, "coders": 5, "categories": 200, "alpha": a2,
                          "ours_s": t2, "ours_peak_mb": mem2 / 2**20,
                          "krippendorff_would_allocate_gb": n2 * 200 * 200 * 8 / 2**30}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    r = out["nominal_1"]
    print(f"α nominal, {r['items']:,} items × 5 coders × 10 categories, 5 % missing "
          f"(α = {r['alpha']:.6f}, equal to krippendorff)")
    for who, key in (("corpusagree ", "ours"), ("krippendorff", "krippendorff")):
        print(f"  {who}  {r[key + '_s']:7.3f} s   peak {r[key + '_peak_mb']:8.1f} MB")
    print(f"  first runs: corpusagree {r['ours_first_s']:.3f} s, krippendorff "
          f"{r['krippendorff_first_s']:.3f} s ({r['speedup_first_run']:.1f}×)")
    print(f"  speed-up (best of 5) {r['speedup']:.1f}×, memory {r['memory_ratio']:.3f} of "
          f"krippendorff's (1/{1 / r['memory_ratio']:.0f})")
    print(f"  CPU (best of {args.repeat}): corpusagree {r['ours_cpu_s'] * 1e3:.1f} ms, one "
          f"np.bincount over the codes {r['bincount_cpu_s'] * 1e3:.1f} ms "
          f"({r['over_bincount']:.1f}×)")
    r = out["nominal_200"]
    print(f"α nominal, {r['items']:,} items × 5 coders × 200 categories: corpusagree "
          f"{r['ours_s']:.3f} s, peak {r['ours_peak_mb']:.1f} MB; krippendorff not run (would "
          f"allocate items × values² = {r['krippendorff_would_allocate_gb']:.0f} GB)")


if __name__ == "__main__":
    main()
