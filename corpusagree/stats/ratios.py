"""The two divisions every coefficient makes, written once.

* :func:`divide`: a ratio that has no value where its denominator is 0 (a count, a length or
  a disagreement: the denominators here are never negative), vectorised, without numpy's
  warnings;
* :func:`chance_corrected`: ``1 − Do/De`` (Artstein & Poesio 2005, §2.5; Krippendorff 2011;
  Mathet et al. 2015, §4), undefined where there is no expected disagreement.
"""

from __future__ import annotations

import numpy as np


def divide(num, den, fill: float = np.nan, where=None) -> np.ndarray:
    """``num / den`` where ``den > 0``, ``fill`` elsewhere (nan by default; the CoNLL scorer
    takes x/0 as 0).

    Parameters
    ----------
    num, den : array_like
        Broadcast against each other.
    fill : float
        The value where ``den`` is 0 (or nan).
    where : array of bool, optional
        Where ``den > 0``, when the caller has that mask already (no new one is made).

    Returns
    -------
    numpy.ndarray
        Floats, of the broadcast shape.

    Examples
    --------
    >>> divide([1, 2, 0], [2, 0, 0]).tolist()
    [0.5, nan, nan]
    >>> divide([1, 2], [4, 0], fill=0.0).tolist()
    [0.25, 0.0]
    """
    num, den = np.asarray(num), np.asarray(den)  # integer counts divide without a float copy
    out = np.full(np.broadcast_shapes(num.shape, den.shape), fill, dtype=float)
    return np.divide(num, den, out=out, where=den > 0 if where is None else where)


def chance_corrected(observed, expected) -> np.ndarray:
    """``1 − observed/expected``: the chance-corrected agreement of an observed and an
    expected disagreement (Artstein & Poesio 2005, §2.5); nan where the expected disagreement
    is 0 (chance could not disagree: the coefficient is undefined) or either is nan.

    Examples
    --------
    >>> chance_corrected([0.1, 0.0, 0.2], [0.4, 0.0, np.nan]).tolist()
    [0.75, nan, nan]
    """
    return 1.0 - divide(observed, expected)


__all__ = ["chance_corrected", "divide"]
