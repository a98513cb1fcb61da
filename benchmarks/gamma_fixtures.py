"""Fixtures for γ (``tests/data/gamma/``): pygamma-agreement's values on random continua and on
pygamma's own test continua, for ``tests/stats/test_gamma.py``.

Run with the Python that has pygamma-agreement 0.5.9 installed (it is not a corpusagree
dependency)::

    python -m venv pg && pg/bin/pip install pygamma-agreement==0.5.9 -e .
    pg/bin/python benchmarks/gamma_fixtures.py

Random continua (:func:`simulate`): a reference of units on an integer continuum (lengths 2–20,
gaps 0–14, four categories); each annotator misses a reference unit with probability .1, moves
each boundary by −2…2 with probability .4, relabels with probability .15, splits a unit in two
with probability .05 and adds a spurious unit per 20 reference units; an annotator's duplicate
units are dropped (pygamma keeps one unit per position and category).

Written files:

* ``random_continua.json``: per continuum its units, bounds and parameters, pygamma's best-
  alignment disorder, number of unitary alignments and γ-cat/γ-k observed disorders, and γ with
  each sampler (value, expected disorder, the sampled disorders), numpy's global RNG seeded
  before each call (pygamma's ``compute_gamma`` takes no seed).
* ``pygamma_values.json``: pygamma's best-alignment disorder on its own test continua (the
  CSV files of this folder) for the parameters its tests use.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "tests" / "data" / "gamma"
CATEGORIES = ("Adj", "Noun", "Prep", "Verb")


def simulate(n_annotators: int, n_units: int, seed: int = 0, n_categories: int = 4,
             p_miss: float = 0.1, p_move: float = 0.4, p_relabel: float = 0.15,
             p_split: float = 0.05, spurious: float = 0.05) -> tuple[list[tuple], float]:
    """``(units, end)``: units ``(annotator, start, end, category)`` of n annotators around a
    reference of n_units units on [0, end) (see the module docstring)."""
    rng = np.random.default_rng(seed)
    cats = CATEGORIES[:n_categories] if n_categories <= 4 else \
        tuple(f"c{k}" for k in range(n_categories))
    length = rng.integers(2, 21, n_units)
    gap = rng.integers(0, 15, n_units)
    start = np.cumsum(gap + np.r_[0, length[:-1]])
    end_ref = start + length
    cat_ref = rng.integers(0, len(cats), n_units)
    span = float(end_ref[-1] + 10)
    units: list[tuple] = []
    for a in range(n_annotators):
        name = f"annotator_{a + 1}"
        mine: set[tuple] = set()
        for s, e, c in zip(start.tolist(), end_ref.tolist(), cat_ref.tolist(), strict=True):
            if rng.random() < p_miss:
                continue
            if rng.random() < p_move:
                s += int(rng.integers(-2, 3))
            if rng.random() < p_move:
                e += int(rng.integers(-2, 3))
            s, e = max(s, 0), min(e, int(span))
            if e <= s:
                e = s + 1
            if rng.random() < p_relabel:
                c = int(rng.integers(0, len(cats)))
            if e - s >= 4 and rng.random() < p_split:
                cut = int(rng.integers(s + 1, e))
                mine.add((name, float(s), float(cut), cats[c]))
                mine.add((name, float(cut), float(e), cats[c]))
            else:
                mine.add((name, float(s), float(e), cats[c]))
        for _ in range(int(rng.poisson(spurious * n_units))):
            s = int(rng.integers(0, int(span) - 20))
            mine.add((name, float(s), float(s + rng.integers(2, 15)),
                      cats[int(rng.integers(0, len(cats)))]))
        units += sorted(mine, key=lambda u: (u[1], u[2], u[3]))
    return units, span


#: the random continua: (name, annotators, reference units, seed, alpha, beta, delta_empty,
#: options of simulate); "full" has every unit marked by every annotator (no ∅ in the best
#: alignment), where pygamma's γ-cat/γ-k disorders are the paper's
RANDOM = [
    ("r2x40", 2, 40, 1, 1.0, 1.0, 1.0, {}),
    ("r3x30", 3, 30, 2, 1.0, 1.0, 1.0, {}),
    ("r3x60_a3", 3, 60, 3, 3.0, 1.0, 1.0, {}),
    ("r4x20", 4, 20, 4, 1.0, 1.0, 1.0, {}),
    ("r3x40_de", 3, 40, 5, 2.0, 0.5, 0.5, {}),
    ("r2x80", 2, 80, 6, 1.0, 2.0, 1.0, {}),
    ("r3x30_full", 3, 30, 7, 1.0, 1.0, 1.0, {"p_miss": 0.0, "p_split": 0.0, "spurious": 0.0,
                                            "p_relabel": 0.3}),
]
#: pygamma's test continua and the parameters its tests use (alpha, beta, delta_empty)
OWN = [("AlexPaulSuzan", 3.0, 1.0, 1.0), ("AlexPaulSuzan", 1.0, 1.0, 1.0),
       ("3by100", 3.0, 1.0, 1.0), ("3by100", 1.0, 1.0, 1.0),
       ("example_figure10", 1.0, 1.0, 1.0), ("example_figure19", 1.0, 1.0, 1.0),
       ("annotation_dalton", 3.0, 1.0, 1.0), ("annotation_dalton", 1.0, 1.0, 0.5)]


@contextlib.contextmanager
def c_stdout_silenced():
    """GLPK (under pygamma) prints its log from C: send file descriptor 1 to /dev/null."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def pygamma_continuum(units: list[tuple], begin: float, end: float):
    """A pygamma Continuum of the units, its bounds set to [begin, end)."""
    from pyannote.core import Segment
    from pygamma_agreement import Continuum

    cont = Continuum()
    for a, s, e, c in units:
        cont.add(a, Segment(s, e), c)
    cont.bound_inf, cont.bound_sup = begin, end
    return cont


def dissimilarity(alpha: float, beta: float, delta_empty: float):
    """pygamma's combined dissimilarity, its categorical part given explicitly: the default one
    is compiled with Δ∅ = 1 before the combined dissimilarity sets its Δ∅, so with Δ∅ ≠ 1
    pygamma 0.5.9 would not scale d_cat by Δ∅ (Mathet et al. 2015, §4) in the alignment."""
    from pygamma_agreement import AbsoluteCategoricalDissimilarity, CombinedCategoricalDissimilarity

    return CombinedCategoricalDissimilarity(
        alpha=alpha, beta=beta, delta_empty=delta_empty,
        cat_dissim=AbsoluteCategoricalDissimilarity(delta_empty=delta_empty))


def read_csv(path: Path) -> list[tuple]:
    """pygamma's CSV rows (annotator, category, start, end) as (annotator, start, end, cat)."""
    with open(path, newline="") as f:
        return [(a, float(s), float(e), c) for a, c, s, e in csv.reader(f)]


def gamma_values(cont, dis, sampler: str, seed: int, precision: float = 0.02) -> dict:
    from pygamma_agreement import ShuffleContinuumSampler, StatisticalContinuumSampler

    np.random.seed(seed)
    smp = StatisticalContinuumSampler() if sampler == "statistical" else \
        ShuffleContinuumSampler()
    res = cont.compute_gamma(dis, precision_level=precision, sampler=smp)
    chance = [float(a.disorder) for a in res.chance_alignments]
    return {"gamma": float(res.gamma), "observed": float(res.observed_disorder),
            "expected": float(res.expected_disorder), "n_samples": res.n_samples,
            "precision": precision, "seed": seed, "sample_disorders": chance}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args()
    import logging

    logging.disable(logging.WARNING)  # pygamma warns on every alignment that CBC is absent
    with c_stdout_silenced():
        out_random, own = run(args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    import pygamma_agreement

    meta = {"pygamma_agreement": getattr(pygamma_agreement, "__version__", "0.5.9")}
    (args.out / "random_continua.json").write_text(
        json.dumps({"generator": meta, "continua": out_random}, indent=1) + "\n")
    (args.out / "pygamma_values.json").write_text(
        json.dumps({"generator": meta, "continua": own}, indent=1) + "\n")


def run(folder: Path) -> tuple[dict, dict]:
    """pygamma's values on the random continua and on its own test continua."""
    out_random = {}
    for name, n, m, seed, alpha, beta, de, options in RANDOM:
        t0 = time.perf_counter()
        units, end = simulate(n, m, seed, **options)
        cont = pygamma_continuum(units, 0.0, end)
        dis = dissimilarity(alpha, beta, de)
        best = cont.get_best_alignment(dis)
        cats = sorted({u[3] for u in units})
        record = {
            "units": [list(u) for u in units], "begin": 0.0, "end": end, "annotators": n,
            "alpha": alpha, "beta": beta, "delta_empty": de,
            "best_disorder": float(best.disorder),
            "n_unitary_alignments": len(best.unitary_alignments),
            "partial": any(ua.nb_units < n for ua in best.unitary_alignments),
            "cat_disorder": float(best.gamma_k_disorder(dis, None)),
            "k_disorders": {k: float(best.gamma_k_disorder(dis, k)) for k in cats},
        }
        for sampler in ("statistical", "shuffle"):
            record[sampler] = gamma_values(cont, dis, sampler, seed)
        out_random[name] = record
        print(f"{name}: {len(units)} units, best disorder {record['best_disorder']:.6f}, "
              f"γ statistical {record['statistical']['gamma']:.4f} "
              f"({record['statistical']['n_samples']} samples), shuffle "
              f"{record['shuffle']['gamma']:.4f} ({record['shuffle']['n_samples']}), "
              f"{time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    own = {}
    for name, alpha, beta, de in OWN:
        units = read_csv(folder / f"{name}.csv")
        cont = pygamma_continuum(units, 0.0, max(u[2] for u in units))
        best = cont.get_best_alignment(dissimilarity(alpha, beta, de))
        own[f"{name}/{alpha:g}/{beta:g}/{de:g}"] = {
            "file": f"{name}.csv", "alpha": alpha, "beta": beta, "delta_empty": de,
            "best_disorder": float(best.disorder),
            "n_unitary_alignments": len(best.unitary_alignments)}
        print(f"{name} α={alpha:g} β={beta:g} Δ∅={de:g}: {float(best.disorder):.6f}",
              file=sys.stderr, flush=True)
    return out_random, own


if __name__ == "__main__":
    main()
