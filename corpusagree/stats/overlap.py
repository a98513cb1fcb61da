"""Precision, recall and F1 of two annotators' sets of things (constituents, relations) from
counts: the reference's, the other's, and the shared ones (one column or several)."""

from __future__ import annotations

import numpy as np


def prf(counts: np.ndarray) -> np.ndarray:
    """rows × measures × (precision, recall, F1) from rows of counts (the reference's, the
    other's, then shared counts, one column per measure); nan where a denominator is 0. Also
    for summed counts (micro) and bootstrap replicates (rows of weighted sums).

    Examples
    --------
    >>> prf(np.array([[4, 2, 2], [0, 0, 0]])).tolist()[0]
    [[1.0, 0.5, 0.6666666666666666]]
    """
    counts = np.asarray(counts, float)
    ref, oth, shared = counts[:, :1], counts[:, 1:2], counts[:, 2:]
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(oth > 0, shared / oth, np.nan)
        r = np.where(ref > 0, shared / ref, np.nan)
        f = np.where(ref + oth > 0, 2 * shared / (ref + oth), np.nan)
    return np.stack([p, r, f], axis=2)


__all__ = ["prf"]
