"""Kendall's coefficient of concordance W of m coders ranking n items.

Each coder's scores are ranked over the items (ties get their mean rank), all coders at once;
W is the variance of the items' rank sums relative to its maximum (Kendall & Babington Smith
1939), with the correction for ties of Kendall (1948, ch. 6), and Friedman's χ² = m(n − 1)W
with n − 1 df, as R ``irr::kendall``. Incomplete items are left out listwise, as irr does.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy.special import chdtrc

from ..model.params import Param, checked
from ..model.records import frame
from .coefficients import DegenerateWarning
from .scores import as_scores, listwise_note


@dataclass(repr=False)
class KendallResult:
    """Kendall's W with its χ² test.

    Attributes
    ----------
    value : float
        W (nan when undefined).
    chi2, df, p_value : float
        Friedman's χ² = m(n − 1)W, its degrees of freedom n − 1, and p.
    correct_ties : bool
        Whether the denominator was corrected for ties.
    ties : bool
        Whether any coder gave two items the same score.
    items, coders, left_out : int
        Items and coders W was computed on; items left out by listwise deletion.
    notes : list of str

    Examples
    --------
    >>> import corpusagree as ca
    >>> r = ca.kendall_w([[1, 2, 3, 4], [1, 3, 2, 4], [2, 1, 3, 4]])
    >>> round(r.value, 3), r.df, r.ties
    (0.778, 3, False)
    """

    value: float
    chi2: float
    df: int
    p_value: float
    correct_ties: bool
    ties: bool
    items: int
    coders: int
    left_out: int
    notes: list = field(default_factory=list)

    def __float__(self) -> float:
        return self.value

    def __repr__(self) -> str:
        return (f"KendallResult(W={self.value:.4g}, chi2({self.df})={self.chi2:.4g}, "
                f"p={self.p_value:.3g}, items={self.items}, coders={self.coders})")

    def to_dict(self) -> dict:
        """The result as plain data."""
        out = {k: getattr(self, k) for k in ("value", "chi2", "df", "p_value", "correct_ties",
                                             "ties", "items", "coders", "left_out")}
        out["notes"] = list(self.notes)
        return out

    def to_frame(self):
        """The result as a one-row pandas DataFrame (pandas is optional)."""
        return frame([self.to_dict()])


def _runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row sorted: (the sort order, the start of every run of equal values in the
    flattened sorted array, the runs' lengths); a run never crosses rows."""
    order = np.argsort(values, axis=1, kind="stable")
    s = np.take_along_axis(values, order, axis=1)
    new = np.ones(s.shape, bool)
    new[:, 1:] = s[:, 1:] != s[:, :-1]
    starts = np.flatnonzero(new.ravel())
    return order, starts, np.diff(np.append(starts, s.size))


def average_ranks(values: np.ndarray) -> np.ndarray:
    """The ranks 1 … n of each row's values, ties given their mean rank (all rows at once).

    Examples
    --------
    >>> average_ranks(np.array([[10., 30., 20., 20.], [1., 1., 1., 2.]]))
    array([[1. , 4. , 2.5, 2.5],
           [2. , 2. , 2. , 4. ]])
    """
    rows, n = values.shape
    order, starts, lengths = _runs(values)
    position = starts % n  # within its row, 0-based
    mean_rank = np.repeat(position + (lengths + 1) / 2, lengths)
    ranks = np.empty(values.shape)
    np.put_along_axis(ranks, order, mean_rank.reshape(rows, n), axis=1)
    return ranks


def tie_sum(values: np.ndarray) -> float:
    """Σ (t³ − t) over every run of t equal values within each row (Kendall's T).

    Examples
    --------
    >>> tie_sum(np.array([[1, 1, 2, 3], [5, 5, 5, 1]]))
    30.0
    """
    t = _runs(values)[2].astype(float)
    return float((t ** 3 - t).sum())


@checked(Param("correct_ties", bool))
def kendall_w(data, correct_ties: bool = True) -> KendallResult:
    """Kendall's coefficient of concordance W, with χ², df and p, as R ``irr::kendall``.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Numeric scores (coders × items, NaN or None missing); items a coder did not score
        are left out (listwise, with a note).
    correct_ties : bool, default True
        Correct the denominator for tied ranks (irr's ``correct=TRUE``).

    Returns
    -------
    KendallResult

    Raises
    ------
    InputError
        When a score is not a number, there is one coder, an item has fewer than two scores,
        or listwise deletion leaves fewer than two items.
    TypeError
        For a ``correct_ties`` that is not a bool.

    Warns
    -----
    DegenerateWarning
        When W is undefined (every coder gives every item the same score): nan, with a note.

    Notes
    -----
    With m coders, n items, R_i the rank sum of item i and T = Σ (t³ − t) over the coders' runs
    of t tied scores: W = 12 Σ (R_i − R̄)² / (m²(n³ − n) − mT) (Kendall 1948,
    ch. 6; T = 0 uncorrected); χ² = m(n − 1)W with n − 1 df (Friedman 1937).

    References
    ----------
    .. [1] Kendall, M. G. and Babington Smith, B. (1939). The problem of m rankings. Annals
       of Mathematical Statistics 10(3), 275–287.
    .. [2] Kendall, M. G. (1948). Rank Correlation Methods. Griffin; ch. 6.

    Examples
    --------
    >>> import corpusagree as ca
    >>> r = ca.kendall_w([[1, 2, 3, 4, 5], [2, 1, 3, 4, 5], [1, 3, 2, 5, 4]])
    >>> round(r.value, 4), round(r.chi2, 3), r.df, round(r.p_value, 4)
    (0.8444, 10.133, 4, 0.0382)
    """
    scores = as_scores(data, "kendall_w")
    complete, left_out = scores.complete("kendall_w")
    y = complete.values
    m, n = y.shape
    ranks = average_ranks(y)
    R = ranks.sum(axis=0)
    T = tie_sum(y)
    notes = []
    note = listwise_note(left_out, scores.values.shape[1])
    if note:
        notes.append(note)
    den = m * m * (n ** 3 - n) - (m * T if correct_ties else 0.0)
    ss = float(((R - R.mean()) ** 2).sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        w = float(12 * ss / den) if den > 0 else float("nan")
    if np.isnan(w):
        why = ("kendall_w is undefined: every coder gives every item the same score; "
               "returning nan")
        notes.append(why)
        warnings.warn(why, DegenerateWarning, stacklevel=2)
    elif T > 0 and not correct_ties:
        notes.append("tied scores, and W is not corrected for ties (correct_ties=False): it "
                     "may be too low")
    chi2 = m * (n - 1) * w
    return KendallResult(w, chi2, n - 1, float(chdtrc(n - 1, chi2)), correct_ties, T > 0,
                         n, m, left_out, notes)


__all__ = ["KendallResult", "average_ranks", "kendall_w", "tie_sum"]
