"""α nominal at corpus scale, against the `krippendorff` package in the same process.

1. 1,000,000 items × 5 coders × 10 categories, 5 % missing: best-of-5 wall time (the two
   run in turn, round by round), then peak
   traced memory (tracemalloc, which numpy reports to) of ours (conversion to ReliabilityData
   included) and of krippendorff.alpha; prints both ratios. Beside them, in CPU time
   (``time.process_time``, best of ``--repeat`` rounds, the two run in turn round by round so
   that both see the same load): the floor, one count (``np.bincount``) over the codes
   (coders × items of int32, −1 missing), and ours over it; then where ours goes, step by
   step (coding the float matrix, the kernel's counts, the pairs of judgements, Do's sums).
2. 100,000 items × 5 coders × 200 categories: krippendorff allocates items × values² (here
   100,000 × 200² × 8 bytes = 32 GB) and is not run; ours is timed.

krippendorff is optional: without it, ours is timed beside the floor alone.

Usage: python benchmarks/bench_alpha.py [--items N] [--repeat N] [--json]
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


def cpu_in_turn(fns: dict, repeat: int) -> dict:
    """The best CPU time of each function over ``repeat`` rounds, the functions run in turn
    round by round (the same load for each)."""
    times: dict = {k: [] for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            t = time.process_time()
            fn()
            times[k].append(time.process_time() - t)
    return {k: min(v) for k, v in times.items()}


def ours(m: np.ndarray) -> float:
    return float(ca.alpha(ca.ReliabilityData.from_matrix(m)))


def steps(m: np.ndarray, repeat: int) -> dict:
    """Where ours goes: the CPU time of each step, best of ``repeat`` runs of the sequence."""
    from corpusagree.stats.kernel import Kernel

    times: dict = {}
    for _ in range(repeat):
        t0 = time.process_time()
        data = ca.ReliabilityData.from_matrix(m)
        t1 = time.process_time()
        k = Kernel(data)
        t2 = time.process_time()
        _ = k.item_sum
        t3 = time.process_time()
        k.stats(("pooled",))
        t4 = time.process_time()
        for name, t in (("coding", t1 - t0), ("kernel_counts", t2 - t1),
                        ("pairs", t3 - t2), ("sums", t4 - t3)):
            times[name] = min(times.get(name, t), t)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    try:
        import krippendorff
    except ImportError:
        krippendorff = None

    out = {}
    m = make(args.items, 5, 10, 0.05)
    fns = [lambda: ours(m)]
    if krippendorff is not None:
        fns.append(lambda: krippendorff.alpha(reliability_data=m,
                                              level_of_measurement="nominal"))
    measured = measure(fns)
    a, t_ours, mem_ours, cold_ours = measured[0]
    r = out["nominal_1"] = {"items": args.items, "coders": 5, "categories": 10, "alpha": a,
                            "ours_s": t_ours, "ours_first_s": cold_ours,
                            "ours_peak_mb": mem_ours / 2**20}
    if krippendorff is not None:
        b, t_kr, mem_kr, cold_kr = measured[1]
        assert abs(a - b) < 1e-9, (a, b)
        r.update({"krippendorff_s": t_kr, "speedup": t_kr / t_ours,
                  "krippendorff_first_s": cold_kr, "speedup_first_run": cold_kr / cold_ours,
                  "krippendorff_peak_mb": mem_kr / 2**20, "memory_ratio": mem_ours / mem_kr})
    codes = ca.ReliabilityData.from_matrix(m).codes
    best = cpu_in_turn({"bincount": lambda: np.bincount((codes + 1).ravel(), minlength=12),
                        "ours": lambda: ours(m)}, args.repeat)
    r.update({"ours_cpu_s": best["ours"], "bincount_cpu_s": best["bincount"],
              "over_bincount": best["ours"] / best["bincount"],
              "steps_cpu_s": steps(m, args.repeat)})
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
    same = ", equal to krippendorff" if "krippendorff_s" in r else ""
    print(f"α nominal, {r['items']:,} items × 5 coders × 10 categories, 5 % missing "
          f"(α = {r['alpha']:.6f}{same})")
    print(f"  corpusagree   {r['ours_s']:7.3f} s   peak {r['ours_peak_mb']:8.1f} MB")
    if "krippendorff_s" in r:
        print(f"  krippendorff  {r['krippendorff_s']:7.3f} s   peak "
              f"{r['krippendorff_peak_mb']:8.1f} MB")
        print(f"  first runs: corpusagree {r['ours_first_s']:.3f} s, krippendorff "
              f"{r['krippendorff_first_s']:.3f} s ({r['speedup_first_run']:.1f}×)")
        print(f"  speed-up (best of 5) {r['speedup']:.1f}×, memory {r['memory_ratio']:.3f} of "
              f"krippendorff's (1/{1 / r['memory_ratio']:.0f})")
    else:
        print("  krippendorff not installed: not run")
    print(f"  CPU (best of {args.repeat}, in turn): corpusagree {r['ours_cpu_s'] * 1e3:.1f} ms, "
          f"one np.bincount")
    print(f"  over the codes {r['bincount_cpu_s'] * 1e3:.1f} ms ({r['over_bincount']:.1f}×)")
    st = r["steps_cpu_s"]
    print("  steps: " + ", ".join(f"{k.replace('_', ' ')} {v * 1e3:.1f} ms"
                                  for k, v in st.items()))
    r = out["nominal_200"]
    print(f"α nominal, {r['items']:,} items × 5 coders × 200 categories: corpusagree "
          f"{r['ours_s']:.3f} s, peak {r['ours_peak_mb']:.1f} MB; krippendorff not run (would "
          f"allocate items × values² = {r['krippendorff_would_allocate_gb']:.0f} GB)")


if __name__ == "__main__":
    main()
