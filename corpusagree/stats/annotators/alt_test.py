"""The alternative annotator test (Calderon, Reichart & Dror 2025): can a candidate annotator
(an LLM, a classifier) take the place of the human annotators?

For each human j, leave j out: on every item that j, the candidate and at least one other
human judged, score how well the candidate's label and j's label align with the remaining
humans' labels; the candidate wins the item if it aligns at least as well (W^f = 1), the human
if the human does (W^h = 1; a tie is a win for both). With d = W^h − W^f per item, a one-sided
paired t-test of H0: mean d ≥ ε against H1: mean d < ε, where ε is the cost–benefit margin
granted to the candidate (the paper suggests 0.2 for experts, 0.15 for skilled annotators, 0.1
for crowd workers). The Benjamini–Yekutieli procedure controls the false discovery rate over
the humans at ``fdr``. The winning rate ω is the share of humans whose null hypothesis is
rejected; the candidate passes when ω ≥ 0.5. The advantage probability ρ is the mean over
humans of P(W^f = 1), the probability that the candidate is as good as or better than a
random human (for comparing candidates).

Alignment: ``"accuracy"`` (the share of the remaining humans with the same label),
``"neg_rmse"`` (minus the root mean squared difference, numeric labels) or any distance of
:mod:`corpusagree.stats.distances` (minus the mean distance to the remaining humans). Both
sides of a comparison are scored against the same remaining humans, so the comparison is made
on sums of distances (equal scores up to 1e-9 relative rounding are ties). As in the paper
and its code, an item needs at least ``min_humans`` (2) human judgements and the candidate's.
The t-test needs ``min_items`` (30) such items of a human; for a human with fewer, the authors
recommend Wilcoxon's signed-rank test instead (Calderon et al. 2025, §4 and the FAQ of their
repository), which ``small="wilcoxon"`` (the default) does: the one-sided test of H0: the
median of d − ε ≥ 0, zeros dropped, ties given their mean rank, its p-value exact (the
distribution of the signed-rank statistic given the ranks, as ``scipy.stats.wilcoxon`` computes
it by enumeration when there are ties, or exactly when there are none). ``small="skip"``
leaves such humans out, as the authors' code does; the result lists them under ``skipped``.
The Benjamini–Yekutieli adjusted p-values (``p_adjusted``: a human wins when it is ≤ ``fdr``)
say how far each human is from the threshold.

References
----------
Calderon, N., Reichart, R. & Dror, R. (2025). The alternative annotator test for LLM-as-a-
judge: how to statistically justify replacing human annotators with LLMs. ACL 2025,
16051–16081 (§3, the procedure; §4, ε and the number of items).
Benjamini, Y. & Yekutieli, D. (2001). The control of the false discovery rate in multiple
testing under dependency. Annals of Statistics 29(4), 1165–1188.
Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin 1(6),
80–83.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb

import numpy as np
from scipy.special import stdtr  # Student's t distribution, without importing scipy.stats

from ...model.data import ReliabilityData, ranges
from ...model.errors import InputError
from ...model.params import ArrayLike, Function, Items, Param, checked
from .. import distances

SCORINGS = ("accuracy", "neg_rmse")
#: what ``alt_test`` does with a human of fewer than ``min_items`` items
SMALL = ("wilcoxon", "skip")
#: relative rounding under which two sums of distances are equal (a tie)
TIE = 1e-9


@dataclass(frozen=True, eq=False, repr=False)
class AltTest:
    """The alternative annotator test of one candidate against the humans.

    ``winning_rate`` ω, ``advantage_probability`` ρ and ``passed`` (ω ≥ 0.5) summarise it;
    per tested human: ``p_values``, ``p_adjusted`` (Benjamini–Yekutieli's adjusted p-values),
    ``wins`` (H0 rejected after Benjamini–Yekutieli: ``p_adjusted`` ≤ ``fdr``), ``tests``
    (``"t"``, or ``"wilcoxon"`` for a human of fewer than ``min_items`` items),
    ``candidate_advantage`` (P(W^f = 1)), ``human_advantage`` (P(W^h = 1)), ``t_statistics``
    (nan for Wilcoxon's test) and ``items``; ``skipped`` says which humans were left out and
    why.

    Attributes
    ----------
    candidate : object
        The candidate annotator's name.
    humans : list
        The humans' names.
    epsilon, fdr : float
        The cost-benefit margin ε and the false discovery rate of the test.
    scoring : str
        The name of the scoring function.
    winning_rate : float
        ω, the share of humans the candidate wins against.
    advantage_probability : float
        ρ, the mean probability that the candidate's judgement is as good as a human's.
    p_values, wins, candidate_advantage, human_advantage, t_statistics, items : dict
        Per tested human: the p-value, whether H0 was rejected, P(W^f = 1), P(W^h = 1), the
        t statistic and the items compared.
    skipped : dict
        The humans left out, each with the reason.
    p_adjusted : dict
        Per tested human, Benjamini–Yekutieli's adjusted p-value.
    tests : dict
        Per tested human, the test: ``"t"``, or ``"wilcoxon"`` below ``min_items`` items.

    Examples
    --------
    >>> from corpusagree import annotators as an
    >>> from corpusagree.analyses import table
    >>> data = table.read("sample_corpora/table/dialogue_acts.csv").data
    >>> test = an.alt_test(data, candidate="dan", epsilon=0.2)
    >>> test
    AltTest('dan' vs 3 humans, ε=0.2: ω=0.333, ρ=0.805, failed)
    >>> test.human_records()[0]["human"], test.human_records()[0]["items"]
    ('ann', 66)
    """

    candidate: object
    humans: list
    epsilon: float
    fdr: float
    scoring: str
    winning_rate: float
    advantage_probability: float
    p_values: dict
    wins: dict
    candidate_advantage: dict
    human_advantage: dict
    t_statistics: dict
    items: dict
    skipped: dict = field(default_factory=dict)
    p_adjusted: dict = field(default_factory=dict)
    tests: dict = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """Whether the candidate may replace the humans: ω ≥ 0.5."""
        return self.winning_rate >= 0.5

    def __repr__(self) -> str:
        return (f"AltTest({self.candidate!r} vs {len(self.humans)} humans, ε={self.epsilon}: "
                f"ω={self.winning_rate:.3g}, ρ={self.advantage_probability:.3g}, "
                f"{'passed' if self.passed else 'failed'})")

    def human_records(self) -> list[dict]:
        """One dict per tested human."""
        return [{"human": h, "items": self.items[h], "candidate_advantage":
                 self.candidate_advantage[h], "human_advantage": self.human_advantage[h],
                 "test": self.tests.get(h, "t"), "t": self.t_statistics[h],
                 "p_value": self.p_values[h], "p_adjusted": self.p_adjusted.get(h, float("nan")),
                 "win": self.wins[h]}
                for h in self.humans]

    def to_dict(self) -> dict:
        """The test as plain data (nan stays a float nan)."""
        return {"candidate": self.candidate, "epsilon": self.epsilon, "fdr": self.fdr,
                "scoring": self.scoring, "winning_rate": self.winning_rate,
                "advantage_probability": self.advantage_probability, "passed": self.passed,
                "humans": self.human_records(),
                "skipped": [{"human": h, "reason": r} for h, r in self.skipped.items()]}

    def to_frame(self):
        """One row per tested human (pandas is optional and imported here)."""
        import pandas as pd

        return pd.DataFrame(self.human_records())


#: the false discovery rate controlled
FDR = Param("fdr", float, low=0, high=1, closed="neither")


@checked(Param("p", ArrayLike), dataclasses.replace(FDR, name="q"))
def benjamini_yekutieli(p: np.ndarray, q: float) -> np.ndarray:
    """Which hypotheses the Benjamini–Yekutieli (2001) step-up procedure rejects.

    The k smallest p-values for the largest k with p_(k) ≤ k q / (m Σ_{i ≤ m} 1/i), which
    controls the false discovery rate at ``q`` under any dependence between the tests; a nan
    p-value is never rejected. The alt-test uses it across the humans (Calderon, Reichart & Dror
    2025).

    Parameters
    ----------
    p : numpy.ndarray
        The p-values.
    q : float
        The false discovery rate.

    Returns
    -------
    numpy.ndarray
        One bool per p-value: rejected.

    References
    ----------
    .. [1] Benjamini, Y. and Yekutieli, D. (2001). The control of the false discovery rate in
       multiple testing under dependency. Annals of Statistics 29(4).

    Examples
    --------
    >>> import numpy as np
    >>> from corpusagree import annotators as an
    >>> an.benjamini_yekutieli(np.array([0.001, 0.004, 0.03, 0.5]), 0.05).tolist()
    [True, True, False, False]
    """
    m = len(p)
    if m == 0:
        return np.zeros(0, bool)
    order = np.argsort(p, kind="stable")  # nan last
    thresholds = np.arange(1, m + 1) / m * q / np.sum(1.0 / np.arange(1, m + 1))
    below = np.flatnonzero(p[order] <= thresholds)
    out = np.zeros(m, bool)
    if len(below):
        out[order[:below[-1] + 1]] = True
    return out


@checked(Param("p", ArrayLike))
def by_adjusted(p: np.ndarray) -> np.ndarray:
    """Benjamini–Yekutieli adjusted p-values: the smallest false discovery rate at which
    :func:`benjamini_yekutieli` rejects each hypothesis (capped at 1; nan stays nan).

    ``benjamini_yekutieli(p, q)`` rejects exactly the hypotheses with ``by_adjusted(p) <= q``:
    p̃_(k) = min over j ≥ k of min(1, m Σ_{i ≤ m} 1/i · p_(j) / j).

    Parameters
    ----------
    p : numpy.ndarray
        The p-values.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the order of ``p``.

    References
    ----------
    Benjamini & Yekutieli (2001), Theorem 1.3; Yekutieli & Benjamini (1999) for adjusted
    p-values of step-up procedures.

    Examples
    --------
    >>> import numpy as np
    >>> from corpusagree import annotators as an
    >>> an.by_adjusted(np.array([0.001, 0.004, 0.03, 0.5])).round(4).tolist()
    [0.0083, 0.0167, 0.0833, 1.0]
    """
    p = np.asarray(p, float)
    out = np.full(len(p), np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(p)
    if not len(ok):
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    rank = np.arange(1, len(order) + 1)
    scaled = p[order] * m * np.sum(1.0 / np.arange(1, m + 1)) / rank
    out[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return out


def wilcoxon_less(x: np.ndarray, group: np.ndarray, n_groups: int) -> tuple[np.ndarray,
                                                                          np.ndarray]:
    """Wilcoxon's signed-rank test of H0: median ≥ 0 against H1: median < 0, one test per
    group of values ``x`` (``group`` its index, 0 … ``n_groups`` − 1).

    Zeros are dropped and tied absolute values get their mean rank (Wilcoxon 1945; Pratt's
    and the usual "wilcox" treatment of zeros: ``scipy.stats.wilcoxon``'s default). The
    p-value is exact given the ranks: the signed-rank statistic T+ is the sum over the groups
    of tied values of rank × a binomial(size, 1/2) count, whose distribution is the
    convolution of those few binomials (the alt-test's d − ε takes three values, so three).
    That is the distribution ``scipy.stats.wilcoxon`` enumerates by permutation when there
    are ties, and its exact one when there are none.

    Parameters
    ----------
    x : numpy.ndarray
        The values (differences from the hypothesised median).
    group : numpy.ndarray
        The test each value belongs to.
    n_groups : int
        The number of tests.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        T+ (the sum of the ranks of the positive values) and the p-value of each test; nan
        for a test without a non-zero value.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0.8, 0.8, -0.2, -1.2, -1.2, -0.2, -1.2])
    >>> t, p = wilcoxon_less(x, np.zeros(7, int), 1)
    >>> t.tolist(), p.round(4).tolist()
    ([7.0], [0.125])
    """
    keep = x != 0
    x, group = x[keep], group[keep]
    t_plus, p = np.full(n_groups, np.nan), np.full(n_groups, np.nan)
    if not len(x):
        return t_plus, p
    a = np.abs(x)
    # tie groups within a test: (test, |x|); their mean ranks from the counts below them
    keys, inverse, size = np.unique(np.stack([group, a]), axis=1, return_inverse=True,
                                    return_counts=True)
    inverse = inverse.ravel()
    tie_test = keys[0].astype(np.int64)
    below = np.cumsum(size) - size
    starts = np.searchsorted(tie_test, np.arange(n_groups))
    twice_rank = 2 * (below - below[np.minimum(starts[tie_test], len(below) - 1)]) + size + 1
    positive = np.bincount(inverse, weights=x > 0, minlength=len(size)).astype(np.int64)
    twice_t = np.bincount(tie_test, weights=twice_rank * positive, minlength=n_groups)
    has = np.bincount(tie_test, minlength=n_groups) > 0
    t_plus[has] = twice_t[has] / 2
    # the exact distribution of 2·T+ per test: a convolution over its (few) tie groups
    for k in np.flatnonzero(has):
        pmf = np.ones(1)
        for g in np.flatnonzero(tie_test == k):
            t, r = int(size[g]), int(twice_rank[g])
            step = np.zeros(t * r + 1)
            step[::r] = [comb(t, j) for j in range(t + 1)]
            pmf = np.convolve(pmf, step / 2.0 ** t)
        p[k] = min(1.0, pmf[:int(round(twice_t[k])) + 1].sum())
    return t_plus, p


def coder_index(coders: Sequence, name, what: str = "coder") -> int:
    """The index of ``name`` among ``coders``; an InputError listing (the first ten) coders
    when it is not there (``what`` names its role: candidate, human …)."""
    coders = list(coders)
    try:
        return coders.index(name)
    except ValueError:
        shown = ", ".join(map(repr, coders[:10]))
        more = "" if len(coders) <= 10 else f" … ({len(coders)} in all)"
        raise InputError(f"no {what} {name!r} among the annotators: {shown}{more}") from None


def _metric(data: ReliabilityData, scoring, rows: np.ndarray) -> tuple[str, object]:
    """(name, metric bound to the data) of a scoring."""
    if isinstance(scoring, str) and scoring == "accuracy":
        distance = distances.NAMED["nominal"]
    elif isinstance(scoring, str) and scoring == "neg_rmse":
        distance = distances.NAMED["interval"]
    else:
        distance = distances.get(scoring)
    codes = data.codes[rows]
    counts = np.bincount(codes[codes >= 0], minlength=data.n_labels)
    try:
        metric = distance.bind(data, counts)
    except (ValueError, TypeError) as e:
        raise InputError(f"scoring {scoring!r}: {e}") from None
    name = scoring if isinstance(scoring, str) and scoring in SCORINGS else distance.name
    return name, metric


@checked(Param("data", (ReliabilityData, ArrayLike),
               accepts="ReliabilityData or a coders × items array-like"),
         Param("candidate"), Param("humans", Items, none=True),
         Param("epsilon", float, low=0), FDR,
         Param("scoring", (str, distances.Distance, Function)),
         Param("min_humans", int, low=2), Param("min_items", int, low=2),
         Param("small", str, choices=SMALL))
def alt_test(data: ReliabilityData, candidate="model", humans: Sequence | None = None, *,
             epsilon: float = 0.2, fdr: float = 0.05,
             scoring: str | distances.Distance | Callable = "accuracy", min_humans: int = 2,
             min_items: int = 30, small: str = "wilcoxon") -> AltTest:
    """The alternative annotator test of Calderon, Reichart & Dror (2025) for one candidate.

    Parameters
    ----------
    data : ReliabilityData
        Coders × items with the candidate among the coders, missing judgements allowed.
    candidate : hashable
        The candidate annotator's coder name ("model").
    humans : sequence, optional
        The human annotators' coder names (default: every other coder).
    epsilon : float
        The cost–benefit margin ε ≥ 0 (0.2).
    fdr : float
        The false discovery rate q of the Benjamini–Yekutieli procedure (0.05).
    scoring : str, Distance or callable
        ``"accuracy"``, ``"neg_rmse"`` (numeric labels), or a distance (a name such as
        ``"ordinal"``, a :class:`~corpusagree.stats.distances.Distance`, or a callable
        d(a, b)) whose mean over the remaining humans is the misalignment.
    min_humans : int
        Human judgements an item needs to take part (2).
    min_items : int
        Items a human needs for the t-test (30).
    small : {"wilcoxon", "skip"}
        A human with fewer items: tested by Wilcoxon's signed-rank test (the authors'
        recommendation) or left out (their code's behaviour).

    Returns
    -------
    AltTest
        ``winning_rate`` ω, ``advantage_probability`` ρ, ``passed`` (ω ≥ 0.5), the humans'
        ``p_values`` and what was left out.

    Raises
    ------
    TypeError, ValueError
        A keyword of the wrong type or out of its range, named in the message.
    InputError
        An unknown candidate or human, fewer than two humans, no item judged by the candidate
        and ``min_humans`` humans, or no human with ``min_items`` such items; a scoring that
        does not suit the labels; with ``small="skip"``, no human with ``min_items`` items.

    References
    ----------
    Calderon, Reichart & Dror (2025), §3 (Eq. 1–4: the scores, the indicators, the test, ω
    and ρ), §4 and the FAQ of their repository (Wilcoxon's test below 30 items); Benjamini &
    Yekutieli (2001), Theorem 1.1; Wilcoxon (1945).

    Examples
    --------
    >>> import numpy as np
    >>> from corpusagree import ReliabilityData
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 3, 60)
    >>> noisy = lambda p: np.where(rng.random(60) < p, truth, rng.integers(0, 3, 60))
    >>> data = ReliabilityData.from_matrix([noisy(0.7), noisy(0.7), noisy(0.7), noisy(0.95)],
    ...                                    coders=["ann1", "ann2", "ann3", "model"])
    >>> r = alt_test(data, "model", epsilon=0.2)
    >>> r.winning_rate, round(r.advantage_probability, 3), r.passed
    (1.0, 0.983, True)
    """
    data = ReliabilityData.coerce(data)
    c = coder_index(data.coders, candidate, "candidate")
    hs = _humans(data, c, candidate, humans)
    names = [data.coders[k] for k in hs]
    scoring_name, metric = _metric(data, scoring, np.array(hs + [c]))
    H, y_c = data.codes[hs], data.codes[c]
    n_humans = (H >= 0).sum(0)
    valid = (y_c >= 0) & (n_humans >= min_humans)
    if not valid.any():
        raise InputError(f"no item is judged by the candidate {candidate!r} and at least "
                         f"{min_humans} humans (the candidate judged {int((y_c >= 0).sum())} "
                         f"items)")
    human, w_cand, w_human = _wins(metric, H, y_c, np.flatnonzero(valid), n_humans)
    diff = w_human.astype(float) - w_cand
    # per human: items, means, variances
    h = len(hs)
    n = np.bincount(human, minlength=h).astype(float)
    t_test = n >= min_items
    tested = t_test | ((n > 0) if small == "wilcoxon" else False)
    skipped = {names[k]: f"{int(n[k])} items judged with the candidate and another human "
               f"(fewer than {min_items})" for k in np.flatnonzero(~tested)}
    if not tested.any():
        raise InputError(f"no human judged {min_items} items together with the candidate "
                         f"{candidate!r} and another human (the most: {int(n.max())}); the "
                         f"t-test of the alt-test needs at least {min_items}")
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(human, weights=diff, minlength=h) / n
        var = (np.bincount(human, weights=(diff - mean[human]) ** 2, minlength=h)) / (n - 1)
        t = (mean - epsilon) / np.sqrt(var / n)
        p = stdtr(n - 1, t)
    t[~t_test] = np.nan
    if small == "wilcoxon" and (tested & ~t_test).any():
        p[~t_test] = wilcoxon_less(diff - epsilon, human, h)[1][~t_test]
    with np.errstate(invalid="ignore", divide="ignore"):
        rho_c = np.bincount(human, weights=w_cand, minlength=h) / n
        rho_h = np.bincount(human, weights=w_human, minlength=h) / n
    keep = np.flatnonzero(tested)
    wins = benjamini_yekutieli(p[keep], fdr)
    adjusted = by_adjusted(p[keep])
    kept = [names[k] for k in keep]

    def per(values) -> dict:
        return {names[k]: float(values[k]) for k in keep}

    return AltTest(candidate, kept, float(epsilon), float(fdr), scoring_name,
                   float(wins.mean()), float(rho_c[keep].mean()), per(p),
                   dict(zip(kept, wins.tolist(), strict=True)), per(rho_c), per(rho_h), per(t),
                   {names[k]: int(n[k]) for k in keep}, skipped,
                   dict(zip(kept, adjusted.tolist(), strict=True)),
                   {names[k]: "t" if t_test[k] else "wilcoxon" for k in keep})


def _humans(data: ReliabilityData, c: int, candidate, humans: Sequence | None
            ) -> list[int]:
    """The humans' rows (default: every coder but the candidate, row ``c``); an error for a
    human named twice or the candidate among them, or fewer than two humans."""
    if humans is None:
        hs = [k for k in range(data.n_coders) if k != c]
    else:
        hs = [coder_index(data.coders, h, "human") for h in humans]
        if c in hs:
            raise InputError(f"the candidate {candidate!r} is among the humans")
        if len(set(hs)) < len(hs):
            raise InputError("a human is named twice")
    if len(hs) < 2:
        raise InputError(f"the alt-test compares the candidate with each human against the "
                         f"other humans: it needs at least 2 humans, these data have "
                         f"{len(hs)} besides {candidate!r}")
    return hs


def _wins(metric, H: np.ndarray, y_c: np.ndarray, item_ix: np.ndarray, n_humans: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each human judgement of the items ``item_ix`` (``H``: humans × items of codes, ``y_c``
    the candidate's; ``metric``: the scoring bound to the data, its ``pair``): its human (row
    of ``H``), whether the candidate wins (its summed distance to the other humans' judgements
    of the item is at most the human's, ties within ``TIE`` counting for both) and whether
    the human wins."""
    # the human judgements of the valid items, grouped by item
    sub = H[:, item_ix]
    human, item = np.nonzero(sub.T >= 0)[::-1]  # item-major: an item's judgements together
    label = sub[human, item]
    n_i = n_humans[item_ix]
    start = np.concatenate([[0], np.cumsum(n_i)[:-1]])
    per_item = n_i[item]
    # every ordered pair of judgements of one item (self-pairs too: d(a, a) = 0)
    first = np.repeat(np.arange(len(label)), per_item)
    second = ranges(start[item], per_item)
    d_pairs = np.asarray(metric.pair(label[first], label[second]), float)
    s_human = np.bincount(first, weights=d_pairs, minlength=len(label))
    d_cand = np.asarray(metric.pair(y_c[item_ix][item], label), float)
    s_cand = np.bincount(item, weights=d_cand, minlength=len(item_ix))[item] - d_cand
    tie = np.abs(s_cand - s_human) <= TIE * (np.abs(s_cand) + np.abs(s_human))
    return human, (s_cand <= s_human) | tie, (s_human <= s_cand) | tie


__all__ = ["FDR", "SCORINGS", "SMALL", "TIE", "AltTest", "alt_test", "benjamini_yekutieli",
           "by_adjusted", "coder_index", "wilcoxon_less"]
