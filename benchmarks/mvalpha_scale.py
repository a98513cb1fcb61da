"""Multi-valued α (Krippendorff & Craggs 2016) beside α with the Dice distance, at scale.

100,000 units × 5 coders, 30 values of skewed frequencies, each judgement a set of 0 to 5
values (a unit's true set with values dropped and added; 5 % of the judgements missing).
Both coefficients run on the same data in one process, each from a cold start (the kernel
cache of the data emptied), best of N rounds in turn: α (Dice) and mvα share their observed
disagreement and differ in the expected one, so the ratio is mvα's D_e over α's. Beside them,
mvα's expected disagreement alone (the generating polynomial over the 30 values), and mvα
after α on the same data (the kernel shared, as in a table of both).

There is no other implementation to run here: the R package mvalpha enumerates the pairs of
subsets (tests/data/mvalpha/ compares values with it on small data).

Usage: python benchmarks/mvalpha_scale.py [--units N] [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import corpusagree as ca
from corpusagree.model.data import MISSING
from corpusagree.stats.kernel import kernel
from corpusagree.stats.mvalpha import expected_disagreement

VALUES = 30
LARGEST = 5
CODERS = 5


def make(units: int, seed: int = 0) -> ca.ReliabilityData:
    """Set-valued reliability data built as a CSR set table (no frozenset per judgement)."""
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, VALUES + 1)  # Zipf-like value frequencies
    p /= p.sum()
    size = rng.integers(0, LARGEST + 1, units)
    # a unit's true set: its `size` values of smallest exponential keys / p (skewed, distinct)
    keys = rng.exponential(size=(units, VALUES)) / p
    rank = np.argsort(np.argsort(keys, axis=1), axis=1)
    truth = rank < size[:, None]
    J = CODERS * units
    keep = np.tile(truth, (CODERS, 1)) & (rng.random((J, VALUES)) < 0.8)
    added = rng.choice(VALUES, size=J, p=p)
    keep[np.arange(J), added] |= rng.random(J) < 0.25
    # cap at LARGEST values: drop the extra ones at random
    order = np.argsort(rng.random((J, VALUES)) - keep, axis=1)  # kept values first
    pos = np.argsort(order, axis=1)
    keep &= pos < LARGEST
    rows, elements = np.nonzero(keep)
    indptr = np.concatenate([[0], np.cumsum(keep.sum(1))])
    codes = np.arange(J).reshape(CODERS, units)
    codes = np.where(rng.random(codes.shape) < 0.05, MISSING, codes)
    return ca.ReliabilityData.from_sets(codes, indptr, elements,
                                        element_names=[f"v{k}" for k in range(VALUES)])


def cold(fn, data):
    """``fn(data)`` with the data's kernel cache emptied first (nothing reused)."""
    data.__dict__.pop("_kernels", None)
    return fn(data)


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


def measure(units: int = 100_000, repeat: int = 3) -> dict:
    data = make(units)
    k = kernel(data, "dice")
    st = k.stats({"multivalued"})
    n_v, n_s = st.value_counts, st.size_counts

    def both(d):
        return ca.alpha(d, "dice").value, ca.mv_alpha(d).value

    (al, t_alpha), (mv, t_mv), (de, t_de), (_, t_both) = best([
        lambda: cold(lambda d: ca.alpha(d, "dice"), data),
        lambda: cold(ca.mv_alpha, data),
        lambda: expected_disagreement(n_v, n_s),
        lambda: cold(both, data)], repeat)
    sizes = data.labels.sizes[data.codes[data.codes >= 0]]
    return {"units": units, "coders": CODERS, "values": VALUES, "largest_set": LARGEST,
            "judgements": int((data.codes >= 0).sum()), "distinct_sets": data.n_labels,
            "empty_sets": int((sizes == 0).sum()), "repeat": repeat,
            "alpha_dice": {"value": al.value, "observed": al.observed, "expected": al.expected,
                           "seconds": t_alpha},
            "mv_alpha": {"value": mv.value, "observed": mv.observed, "expected": mv.expected,
                         "seconds": t_mv},
            "mv_expected_seconds": t_de, "both_seconds": t_both,
            "ratio": t_mv / t_alpha}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--units", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = measure(args.units, args.repeat)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    a, m = out["alpha_dice"], out["mv_alpha"]
    print(f"{out['units']:,} units × {out['coders']} coders, {out['values']} values, sets of "
          f"0-{out['largest_set']} values")
    print(f"  {out['judgements']:,} judgements, {out['distinct_sets']:,} distinct sets, "
          f"{out['empty_sets']:,} empty; best of {out['repeat']}, cold kernel")
    print(f"  alpha (dice) = {a['value']:.6f}  Do {a['observed']:.6f}  De {a['expected']:.6f}"
          f"  {a['seconds']:.3f} s")
    print(f"  mv-alpha     = {m['value']:.6f}  Do {m['observed']:.6f}  De {m['expected']:.6f}"
          f"  {m['seconds']:.3f} s")
    print(f"  mv-alpha / alpha time: {out['ratio']:.2f}x (target <= 2)")
    print(f"  mv-alpha's De alone: {out['mv_expected_seconds'] * 1e3:.2f} ms; both in one "
          f"run: {out['both_seconds']:.3f} s")


if __name__ == "__main__":
    main()
