"""Paths and generators shared by the tests (``pythonpath = ["tests"]``: ``from support
import ...``); ``conftest.py`` offers them as fixtures too.

The real corpora live outside the repository, in ``../shared/corpora`` beside the checkout or
wherever ``CORPUSAGREE_CORPORA`` points; tests that need them skip when they are absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_corpora"
DATA = ROOT / "tests" / "data"
CORPORA = Path(os.environ.get("CORPUSAGREE_CORPORA", ROOT.parent / "shared" / "corpora"))



# ---- random reliability data -------------------------------------------------------------------
def random_matrix(seed: int, coders: int = 4, items: int = 30, p_missing: float = 0.3,
                   labels: int = 4, agreement: float = 0.5) -> np.ndarray:
    """coders × items float matrix of labels 0..labels-1 (NaN = missing), each item with at
    least two judgements; labels follow a per-item truth with probability ``agreement``."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, labels, items)
    m = np.where(rng.random((coders, items)) < agreement, truth,
                 rng.integers(0, labels, (coders, items))).astype(float)
    m[rng.random((coders, items)) < p_missing] = np.nan
    for i in range(items):
        present = np.flatnonzero(~np.isnan(m[:, i]))
        if len(present) < 2:
            keep = rng.choice(coders, 2, replace=False)
            m[keep, i] = truth[i]
    return m


def random_sets(seed: int, coders: int = 3, items: int = 25, p_missing: float = 0.25,
                 universe: int = 7) -> list[tuple]:
    """(coder, item, frozenset) triples of random sets over ``universe`` elements."""
    rng = np.random.default_rng(seed)
    out = []
    for c in range(coders):
        for i in range(items):
            if rng.random() < p_missing:
                continue
            k = int(rng.integers(0, 4))
            out.append((c, i, frozenset(rng.choice(universe, size=k, replace=False).tolist())))
    return out
