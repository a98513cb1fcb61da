"""γ (Mathet et al. 2015) against pygamma-agreement 0.5.9 on one long document, side by side.

The continuum: 3 annotators around a reference of 500 units (``gamma_fixtures.simulate``: about
1,500 units on ~12,000 characters); α = β = Δ∅ = 1, nominal categories, the statistical sampler
and a precision of 0.02 for both (pygamma's ``precision_level``, numpy's global RNG seeded).
Printed: the best alignment's time and disorder for both and their difference; γ's time, value,
expected disorder and number of samples for both, our 95% sampling interval and how far
pygamma's expected disorder lies from ours in standard errors; the speed-ups. pygamma's numba
functions are compiled on a small continuum first, outside the timings.

Run with the Python that has pygamma-agreement (it is not a corpusagree dependency)::

    python -m venv pg && pg/bin/pip install pygamma-agreement==0.5.9 -e .
    pg/bin/python benchmarks/gamma_pygamma.py [--units 500] [--annotators 3]
        [--sampler statistical|shuffle] [--seed 0] [--json]

pygamma's γ takes minutes (one best alignment per sampled continuum); ``--no-pygamma-gamma``
times only its best alignment. Times are wall clock with the CPU time of the process beside
them (``time.process_time``, over all threads): on a shared machine the wall clock counts the
other users' load, and our γ aligns its sampled continua on ``--workers`` threads (default
one per core), so its CPU time is the sum over them. The speed-ups are printed for both.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import time
from pathlib import Path

import numpy as np

from corpusagree.model.continuum import Continuum
from corpusagree.stats import gamma as G

HERE = Path(__file__).resolve().parent

_spec = importlib.util.spec_from_file_location("gamma_fixtures", HERE / "gamma_fixtures.py")
fx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fx)


def timed(fn, repeat: int = 1):
    """(result, best wall time, its CPU time over every thread) in seconds over ``repeat``
    runs."""
    best, cpu, out = np.inf, np.inf, None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall = time.perf_counter() - t0
        if wall < best:
            best, cpu = wall, time.process_time() - c0
    return out, best, cpu


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--units", type=int, default=500)
    p.add_argument("--annotators", type=int, default=3)
    p.add_argument("--sampler", choices=G.SAMPLERS, default="statistical")
    p.add_argument("--precision", type=float, default=0.02)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--no-pygamma-gamma", action="store_true")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    logging.disable(logging.WARNING)  # pygamma warns on every alignment that CBC is absent
    units, end = fx.simulate(args.annotators, args.units, args.seed)
    c = Continuum.from_units(units, 0, end)
    out: dict = {"units": len(c), "annotators": args.annotators, "length": end,
                 "sampler": args.sampler, "precision": args.precision, "seed": args.seed,
                 "workers": G.measure._workers(args.workers), "load": os.getloadavg()[0]}

    ours, t_ours, cpu_ours = timed(lambda: G.best_alignment(c), repeat=3)
    g, tg_ours, cpug_ours = timed(lambda: G.gamma(c, sampler=args.sampler,
                                                  precision=args.precision, seed=args.seed,
                                                  workers=args.workers), repeat=3)
    ci = g.confidence_interval()
    out["ours"] = {"best_alignment_s": t_ours, "best_alignment_cpu_s": cpu_ours,
                   "disorder": ours.disorder, "unitary_alignments": len(ours),
                   "gamma_s": tg_ours, "gamma_cpu_s": cpug_ours, "gamma": g.value,
                   "expected": g.expected_disorder, "n_samples": g.n_samples,
                   "interval": [ci.low, ci.high], "se": ci.se}

    with fx.c_stdout_silenced():
        pygamma_runs(args, units, end, g, ci, out)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    report(args, end, out)


def pygamma_runs(args, units, end, g, ci, out: dict) -> None:
    """pygamma's best alignment and γ on the same continuum, into ``out``."""
    from pygamma_agreement import ShuffleContinuumSampler, StatisticalContinuumSampler

    ours = out["ours"]
    small, small_end = fx.simulate(args.annotators, 5, 1)
    warm = fx.pygamma_continuum(small, 0.0, small_end)
    _, t_compile, _ = timed(lambda: warm.get_best_alignment(fx.dissimilarity(1, 1, 1)))
    pg = fx.pygamma_continuum(units, 0.0, end)
    dis = fx.dissimilarity(1.0, 1.0, 1.0)
    theirs, t_theirs, cpu_theirs = timed(lambda: pg.get_best_alignment(dis))
    out["pygamma"] = {"compile_s": t_compile, "best_alignment_s": t_theirs,
                      "best_alignment_cpu_s": cpu_theirs,
                      "disorder": float(theirs.disorder),
                      "unitary_alignments": len(theirs.unitary_alignments)}
    out["disorder_difference"] = abs(ours["disorder"] - float(theirs.disorder))
    out["best_alignment_speedup"] = t_theirs / ours["best_alignment_s"]
    out["best_alignment_cpu_speedup"] = cpu_theirs / ours["best_alignment_cpu_s"]
    if not args.no_pygamma_gamma:
        np.random.seed(args.seed)
        smp = StatisticalContinuumSampler() if args.sampler == "statistical" else \
            ShuffleContinuumSampler()
        res, tg_theirs, cpug_theirs = timed(
            lambda: pg.compute_gamma(dis, precision_level=args.precision, sampler=smp))
        chance = np.array([a.disorder for a in res.chance_alignments], float)
        se = float(chance.std(ddof=1) / np.sqrt(len(chance)))
        out["pygamma"].update({"gamma_s": tg_theirs, "gamma_cpu_s": cpug_theirs,
                               "gamma": float(res.gamma),
                               "expected": float(res.expected_disorder),
                               "n_samples": res.n_samples, "se": se})
        out["gamma_speedup"] = tg_theirs / ours["gamma_s"]
        out["gamma_cpu_speedup"] = cpug_theirs / ours["gamma_cpu_s"]
        out["expected_z"] = (float(res.expected_disorder) - g.expected_disorder) / \
            float(np.hypot(ci.se, se))
        out["pygamma_gamma_in_interval"] = bool(ci.low <= res.gamma <= ci.high)


def report(args, end: float, out: dict) -> None:
    o, t = out["ours"], out["pygamma"]
    print(f"continuum: {out['units']} units by {args.annotators} annotators on [0, {end:g}), "
          f"α = β = Δ∅ = 1, nominal, {args.sampler} sampler, precision {args.precision}")
    print("times are wall clock (CPU over all threads in parentheses)")
    print(f"our γ on {out['workers']} worker thread(s); load average {out['load']:.1f}")
    print(f"best alignment   ours {o['best_alignment_s']:8.3f} s "
          f"({o['best_alignment_cpu_s']:.3f})  disorder {o['disorder']:.7f} "
          f"({o['unitary_alignments']} unitary alignments)")
    print(f"                 pygamma {t['best_alignment_s']:5.1f} s "
          f"({t['best_alignment_cpu_s']:.1f})  disorder {t['disorder']:.7f} "
          f"({t['unitary_alignments']}; numba compile "
          f"{t['compile_s']:.1f} s excluded)")
    print(f"                 speed-up {out['best_alignment_speedup']:.0f}× "
          f"({out['best_alignment_cpu_speedup']:.0f}× in CPU), |Δ disorder| = "
          f"{out['disorder_difference']:.2e}")
    print(f"γ                ours {o['gamma_s']:8.3f} s ({o['gamma_cpu_s']:.2f})  γ = "
          f"{o['gamma']:.4f} (D_e "
          f"{o['expected']:.4f}, {o['n_samples']} samples, 95% [{o['interval'][0]:.4f}, "
          f"{o['interval'][1]:.4f}])")
    if "gamma" in t:
        print(f"                 pygamma {t['gamma_s']:5.1f} s ({t['gamma_cpu_s']:.0f})  γ = "
              f"{t['gamma']:.4f} (D_e "
              f"{t['expected']:.4f}, {t['n_samples']} samples)")
        print(f"                 speed-up {out['gamma_speedup']:.0f}× "
              f"({out['gamma_cpu_speedup']:.0f}× in CPU)")
        print(f"                 pygamma's D_e is "
              f"{out['expected_z']:+.2f} standard errors from ours; its γ "
              f"{'lies' if out['pygamma_gamma_in_interval'] else 'does NOT lie'} in our "
              f"interval")


if __name__ == "__main__":
    main()
