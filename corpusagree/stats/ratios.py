"""The divisions every coefficient makes, written once.

* :func:`divide`: a ratio that has no value where its denominator is 0 (a count, a length or
  a disagreement: the denominators here are never negative), vectorised, without numpy's
  warnings;
* :func:`chance_corrected`: ``1 − Do/De`` (Artstein & Poesio 2005, §2.5; Krippendorff 2011;
  Mathet et al. 2015, §4), undefined where there is no expected disagreement;
* :func:`nanmean`: the mean of the defined values (a macro average over documents), nan
  where none is defined, without numpy's "Mean of empty slice" warning.
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


def nanmean(values, axis: int | None = None):
    """The mean of the values that are not nan (along ``axis``), nan where every value is nan
    or there is none: a macro average over documents whose coefficient may be undefined, as
    :func:`numpy.nanmean` computes it but without its warning (an undefined average is already
    null in the report, with a note).

    Parameters
    ----------
    values : array_like of float
    axis : int, optional
        The axis averaged over; None: all values (a float is returned).

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> nanmean([0.5, float("nan"), 1.0])
    0.75
    >>> nanmean([float("nan")]), nanmean([])
    (nan, nan)
    >>> nanmean([[1.0, float("nan")], [3.0, float("nan")]], axis=0).tolist()
    [2.0, nan]
    """
    v = np.asarray(values, float)
    defined = ~np.isnan(v)
    n = defined.sum(axis=axis)
    total = np.where(defined, v, 0.0).sum(axis=axis)
    out = divide(total, n)
    return float(out) if axis is None else out


__all__ = ["chance_corrected", "divide", "nanmean"]
