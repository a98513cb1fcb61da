"""Position bias of a judge shown each pair of options in both orders.

A pairwise judgement shows two options, one first and one second, and the judge names the one
it prefers (or a tie). Shown the same pair in both orders, a judge without position bias names
the same option both times; a judge that names the option shown first both times (or the one
shown second both times) changed its preference with the order. Per judge:

* the flip rate: the share of pairs seen in both orders whose preferred option changed;
* how the flips split: to the option shown first both times, to the one shown second both
  times, or to or from a tie;
* McNemar's test on the 2 × 2 table of the preferred option in the two orders: its discordant
  cells are the flips to the first and to the second position, so under no position bias they
  are equally likely (McNemar 1947; exact binomial below :data:`EXACT_BELOW` flips, as
  ``statsmodels.stats.contingency_tables.mcnemar`` with ``exact=True``; otherwise χ² with
  Edwards's continuity correction). Zheng et al. (2023, §4.1) measure LLM judges'
  consistency under swapped positions this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import bdtr, chdtrc

__all__ = ["EXACT_BELOW", "PositionBias", "position_bias"]

#: McNemar's exact binomial test below this many flips (to first + to second); χ² above
EXACT_BELOW = 25


@dataclass(frozen=True)
class PositionBias:
    """One judge's consistency under swapped order.

    Attributes
    ----------
    judge : str
        The judge (coder).
    pairs : int
        Pairs it judged in both orders.
    flips : int
        Pairs whose preferred option changed with the order.
    flip_rate : float
        flips / pairs (nan without pairs).
    to_first, to_second : int
        Flips to the option shown first both times, and to the one shown second.
    with_tie : int
        Flips to or from a tie (not in the test).
    statistic : float
        McNemar's χ² (continuity corrected), or the smaller discordant count for the exact
        test.
    p_value : float
        Two-sided (1 without flips to a position, as statsmodels).
    method : str
        "exact binomial" or "McNemar χ² (continuity corrected)".
    """

    judge: str
    pairs: int
    flips: int
    flip_rate: float
    to_first: int
    to_second: int
    with_tie: int
    statistic: float
    p_value: float
    method: str

    def to_dict(self) -> dict:
        """The judge's row as plain data."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def mcnemar(b: np.ndarray, c: np.ndarray, exact_below: int = EXACT_BELOW
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """McNemar's test of the discordant counts b and c (arrays, one test per entry).

    Returns (statistic, p-value, exact?): the exact two-sided binomial test (statistic
    min(b, c)) where b + c < ``exact_below``, else χ² = (|b − c| − 1)² / (b + c) on one degree
    of freedom (Edwards 1948).

    Examples
    --------
    >>> s, p, exact = mcnemar(np.array([9, 30]), np.array([2, 12]))
    >>> print([round(float(x), 4) for x in p], exact.tolist())
    [0.0654, 0.0087] [True, False]
    """
    b, c = np.asarray(b, float), np.asarray(c, float)
    n = b + c
    exact = n < exact_below
    k = np.minimum(b, c)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_exact = np.minimum(1.0, 2 * bdtr(k.astype(np.int64), n.astype(np.int64), 0.5))
        chi2 = (np.abs(b - c) - 1) ** 2 / n
        p_chi2 = chdtrc(1, chi2)
    stat = np.where(exact, k, chi2)
    p = np.where(n == 0, 1.0, np.where(exact, p_exact, p_chi2))  # no flip: no evidence
    return stat, p, exact


def position_bias(judge: Sequence, pair: Sequence, label: Sequence, first: Sequence,
                  order: Sequence, *, tie: object = None,
                  exact_below: int = EXACT_BELOW) -> list[PositionBias]:
    """Each judge's flips and McNemar's test under swapped order (see the module docstring).

    Parameters
    ----------
    judge, pair, label, first, order : sequences of equal length
        One row per judgement: the judge, the pair of options (the item), the option it
        preferred (by identity, e.g. ``A``/``B``, or the ``tie`` value), the option shown
        first, and the order shown (two values, e.g. ``AB``/``BA``).
    tie : optional
        The label of a tie (never counted as first or second).
    exact_below : int, default 25
        The exact binomial test below this many flips to a position.

    Returns
    -------
    list of PositionBias
        One per judge, in the order the judges first appear.

    Raises
    ------
    ValueError
        Sequences of different lengths, more than two orders, or a judge who judged a pair
        twice in the same order.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. *Psychometrika* 12(2). Zheng, L. et al. (2023). Judging
    LLM-as-a-judge with MT-Bench and Chatbot Arena. NeurIPS Datasets and Benchmarks, §4.1.

    Examples
    --------
    >>> rows = [("j1", 1, "A", "A", "AB"), ("j1", 1, "B", "B", "BA"),   # first both times
    ...         ("j1", 2, "A", "A", "AB"), ("j1", 2, "A", "B", "BA")]   # consistent
    >>> r, = position_bias(*zip(*rows, strict=True))
    >>> r.pairs, r.flips, r.to_first, r.to_second, r.flip_rate
    (2, 1, 1, 0, 0.5)
    """
    cols = [np.asarray(x, dtype=object) for x in (judge, pair, label, first, order)]
    if len({len(x) for x in cols}) != 1:
        raise ValueError("judge, pair, label, first and order must have the same length")
    judges, j = np.unique(cols[0].astype(str), return_inverse=True)
    _, p = np.unique(cols[1].astype(str), return_inverse=True)
    orders, o = np.unique(cols[4].astype(str), return_inverse=True)
    if len(orders) != 2:
        raise ValueError(f"the order column must have two values (the two orders shown), "
                         f"not {len(orders)}: {', '.join(map(str, orders[:5]))}")
    lab = cols[2].astype(str)
    _, code = np.unique(lab, return_inverse=True)
    is_tie = np.zeros(len(lab), bool) if tie is None else lab == str(tie)
    chose_first = (lab == cols[3].astype(str)) & ~is_tie
    n_pairs = p.max() + 1 if len(p) else 0
    key = j * n_pairs + p
    # one row per (judge, pair, order): a repeat is a mistake in the file
    slot = key * 2 + o
    if len(np.unique(slot)) != len(slot):
        raise ValueError("a judge judged the same pair twice in the same order")
    both = np.bincount(key, minlength=len(judges) * n_pairs) == 2
    keep = both[key]
    k, oo = key[keep], o[keep]
    idx = np.argsort(k * 2 + oo, kind="stable")       # rows of each pair: order 0, order 1
    r0, r1 = np.flatnonzero(keep)[idx[0::2]], np.flatnonzero(keep)[idx[1::2]]
    flip = code[r0] != code[r1]
    tied = is_tie[r0] | is_tie[r1]
    to_first = flip & ~tied & chose_first[r0] & chose_first[r1]
    to_second = flip & ~tied & ~chose_first[r0] & ~chose_first[r1]
    jj = j[r0]
    J = len(judges)
    count = np.bincount(jj, minlength=J)
    flips = np.bincount(jj, weights=flip, minlength=J).astype(int)
    b = np.bincount(jj, weights=to_first, minlength=J).astype(int)
    c = np.bincount(jj, weights=to_second, minlength=J).astype(int)
    t = np.bincount(jj, weights=flip & tied, minlength=J).astype(int)
    stat, pv, exact = mcnemar(b, c, exact_below)
    first_seen = np.unique(j, return_index=True)[1]
    return [PositionBias(str(judges[i]), int(count[i]), int(flips[i]),
                         float(flips[i] / count[i]) if count[i] else float("nan"),
                         int(b[i]), int(c[i]), int(t[i]), float(stat[i]), float(pv[i]),
                         "exact binomial" if exact[i] else "McNemar χ² (continuity corrected)")
            for i in np.argsort(first_seen, kind="stable")]
