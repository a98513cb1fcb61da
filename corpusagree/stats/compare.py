"""Is A better than B: the difference of one coefficient between two studies, with its
interval, how many documents a study needs for an interval of a given width, and how many
for a model to pass the alternative annotator test.

Both rest on the engine's resampling (:mod:`corpusagree.stats.inference`): every coefficient is
a function of per-document sums, so a replicate is a weight vector over documents.

* Paired studies code the same documents (guidelines v1 and v2 on one sample, a model with
  people against people alone): one weight vector over the documents serves both, so the
  documents are resampled jointly and the difference keeps their correlation.
* Independent studies (two labs, two samples) are resampled each on its own.

With a ``margin`` m the two one-sided tests (TOST; Schuirmann 1987) decide equivalence — the
1 − 2α interval of the difference lies inside (−m, m) — and non-inferiority of A — its lower
bound lies above −m (Walker & Nowacki 2011).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.special import stdtr, stdtrit

from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.progress import Progress
from .inference import (
    METHODS,
    Bootstrap,
    Interval,
    _jackknife,
    _Target,
    interval,
    jackknife_interval,
    progress_chunk,
    replicate_weights,
)

__all__ = ["Comparison", "alt_test_by_documents", "compare", "width_by_documents"]


@dataclass(repr=False)
class Comparison:
    """One coefficient in two studies, and their difference A − B.

    Attributes
    ----------
    coefficient, distance : str
        What was compared.
    a, b : float
        The coefficient in each study.
    difference : float
        a − b.
    interval : Interval
        The interval of the difference (its ``level``), by the settings' method.
    p_value : float
        Two-sided, for H0: no difference.
    paired : bool
        Whether the documents were resampled jointly.
    units : int
        The resampling units (the shared documents when paired; A's and B's together when
        independent).
    margin : float or None
        The equivalence margin.
    equivalent, noninferior : bool or None
        The TOST decisions at α = 1 − level, with a margin.
    tost_interval : tuple of float or None
        The 1 − 2α interval the decisions read.
    notes : list of str
        How the comparison was made (paired or not, and why).
    """

    coefficient: str
    distance: str
    a: float
    b: float
    difference: float
    interval: Interval
    p_value: float
    paired: bool
    units: int
    margin: float | None = None
    equivalent: bool | None = None
    noninferior: bool | None = None
    tost_interval: tuple[float, float] | None = None
    notes: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        iv = self.interval
        return (f"Comparison({self.coefficient}: {self.a:.4g} − {self.b:.4g} = "
                f"{self.difference:.4g}, {iv.level:.0%} [{iv.low:.4g}, {iv.high:.4g}], "
                f"p = {self.p_value:.3g}, {'paired' if self.paired else 'independent'})")

    def to_dict(self) -> dict:
        """The comparison as plain data (for JSON)."""
        return {"coefficient": self.coefficient, "distance": self.distance, "a": self.a,
                "b": self.b, "difference": self.difference,
                "interval": self.interval.as_dict(), "p_value": self.p_value,
                "paired": self.paired, "units": self.units, "margin": self.margin,
                "equivalent": self.equivalent, "noninferior": self.noninferior,
                "tost_interval": None if self.tost_interval is None
                else list(self.tost_interval), "notes": list(self.notes)}


def _unit_names(data: ReliabilityData, by_group: bool) -> list:
    if by_group:
        return [data.group_names[g] for g in range(len(data.group_names))]
    return list(data.items)


def _unit_of(data: ReliabilityData, by_group: bool, index: dict) -> np.ndarray:
    """The index in ``index`` (name → unit) of each item's unit."""
    if by_group:
        names = np.array([index[n] for n in data.group_names], dtype=np.int64)
        return names[data.groups]
    return np.array([index[n] for n in data.items], dtype=np.int64)


def _design(a: ReliabilityData, b: ReliabilityData, paired: bool | None, notes: list[str]
            ) -> tuple[bool, bool, list, list]:
    """(paired?, by documents?, A's unit names, B's unit names)."""
    by_group = a.group_names is not None and b.group_names is not None
    what = "documents" if by_group else "items"
    ua, ub = _unit_names(a, by_group), _unit_names(b, by_group)
    shared = set(ua) & set(ub)
    if paired is None:
        paired = bool(shared) and set(ua) == set(ub)
        if shared and not paired:
            notes.append(f"A and B share {len(shared)} of their {len(set(ua) | set(ub))} "
                         f"{what}, not all: compared as independent studies "
                         f"(paired=True resamples the {what} jointly)")
    elif paired and not shared:
        raise ValueError(f"paired=True, but A and B share no {what}")
    if paired:
        only = len(set(ua) ^ set(ub))
        notes.append(f"paired: the {len(set(ua) | set(ub))} {what} resampled jointly"
                     + (f" ({only} coded in one study only)" if only else ""))
    else:
        notes.append(f"independent: A's {len(ua)} and B's {len(ub)} {what} resampled "
                     "each on its own")
    return paired, by_group, ua, ub


def compare(a: ReliabilityData, b: ReliabilityData, coefficient: str = "alpha", *,
            distance="nominal", paired: bool | None = None,
            bootstrap: Bootstrap | None = None, margin: float | None = None,
            progress: Progress | None = None) -> Comparison:
    """The difference A − B of one coefficient between two studies, with its interval.

    Parameters
    ----------
    a, b : ReliabilityData
        The two studies (documents as ``groups``; without groups, items are the units).
    coefficient : str, default "alpha"
        A coefficient id of :data:`corpusagree.COEFFICIENTS` with a bootstrap.
    distance : str or Distance, default "nominal"
        The distance (weighted coefficients).
    paired : bool, optional
        Resample the documents jointly. None (default): paired when both studies have the
        same documents (or items), independent otherwise; the notes say which.
    bootstrap : Bootstrap, optional
        Replicates, level, seed and method: percentile, BCa, or the jackknife (the
        difference's jackknife standard error; for independent studies the two studies'
        jackknife variances add). Default ``Bootstrap()``.
    margin : float, optional
        An equivalence margin in (0, 1) for the two one-sided tests.
    progress : callable, optional
        ``progress(done, total)`` as the replicates advance.

    Returns
    -------
    Comparison

    Raises
    ------
    ValueError
        An unknown coefficient or one without a bootstrap, a margin outside (0, 1), a study
        with fewer than two units, ``paired=True`` for studies with nothing in common.

    References
    ----------
    Efron, B. and Tibshirani, R. (1993). *An Introduction to the Bootstrap*, §16 (two-sample
    problems). Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure
    and the power approach for assessing the equivalence of average bioavailability.
    *J. Pharmacokinetics and Biopharmaceutics* 15(6). Walker, E. and Nowacki, A. S. (2011).
    Understanding equivalence and noninferiority testing. *J. Gen. Intern. Med.* 26(2).

    Examples
    --------
    >>> import corpusagree as ca
    >>> rng = np.random.default_rng(1)
    >>> truth = rng.integers(0, 3, 200)
    >>> def study(noise):
    ...     codes = np.where(rng.random((3, 200)) < noise, rng.integers(0, 3, (3, 200)), truth)
    ...     return ca.ReliabilityData(codes, labels=[0, 1, 2], groups=np.arange(200) // 10)
    >>> c = compare(study(0.1), study(0.4), bootstrap=ca.Bootstrap(500, seed=1))
    >>> c.paired, c.difference > 0, c.interval.low > 0
    (True, True, True)
    """
    settings = bootstrap or Bootstrap()
    if not isinstance(settings, Bootstrap):
        raise TypeError(f"bootstrap must be a Bootstrap, not {settings!r}")
    if settings.over != "units":
        raise ValueError(f"over={settings.over!r}: a comparison resamples documents (or "
                         "items); the jackknife over coders is for one study's interval")
    for name, x in (("a", a), ("b", b)):
        if not isinstance(x, ReliabilityData):
            raise TypeError(f"{name} must be ReliabilityData, not {type(x).__name__}")
    if margin is not None and (isinstance(margin, bool) or
                               not isinstance(margin, (int, float)) or not 0 < margin < 1):
        raise ValueError(f"margin must be a number in (0, 1), not {margin!r}")
    notes: list[str] = []
    paired, by_group, ua, ub = _design(a, b, paired, notes)
    if paired:
        names = list(dict.fromkeys(ua + ub))
        index = {n: i for i, n in enumerate(names)}
        Ua = Ub = len(names)
        of_a, of_b = _unit_of(a, by_group, index), _unit_of(b, by_group, index)
    else:
        Ua, Ub = len(ua), len(ub)
        of_a = _unit_of(a, by_group, {n: i for i, n in enumerate(ua)})
        of_b = _unit_of(b, by_group, {n: i for i, n in enumerate(ub)})
    if min(Ua, Ub) < 2:
        raise ValueError("each study needs at least two resampling units (documents or items)")
    ta = _Target(a, coefficient, distance, {}, of_a, Ua)
    tb = _Target(b, coefficient, distance, {}, of_b, Ub)
    est_a = float(ta.values(np.ones((1, Ua)))[0])
    est_b = float(tb.values(np.ones((1, Ub)))[0])
    diff = est_a - est_b
    units = Ua if paired else Ua + Ub
    name, dname = ta.coef.id, ta.kernel.distance.name

    if settings.interval == "jackknife":
        if paired:
            jack = _jackknife(ta, Ua) - _jackknife(tb, Ub)
            iv = jackknife_interval(name, dname, diff, jack, settings, clustered=by_group,
                                    units=units)
            tost = jackknife_interval(name, dname, diff, jack, _tost(settings),
                                      clustered=by_group, units=units)
        else:
            iv, tost = _independent_jackknife(ta, tb, Ua, Ub, diff, settings, by_group)
        p = _t_p(diff, iv.se, iv.units - 1 if paired else min(Ua, Ub) - 1)
    else:
        dist = _difference_replicates(ta, tb, Ua, Ub, paired, settings, progress)

        def jackknife() -> np.ndarray:
            if paired:
                return _jackknife(ta, Ua) - _jackknife(tb, Ub)
            return np.concatenate([_jackknife(ta, Ua) - est_b, est_a - _jackknife(tb, Ub)])

        iv = interval(name, dname, diff, dist, settings, jackknife, clustered=by_group,
                      units=units)
        tost_iv = interval(name, dname, diff, dist, _tost(settings), jackknife,
                           clustered=by_group, units=units)
        tost = tost_iv
        ok = dist[~np.isnan(dist)]
        R = len(ok)
        p = float(min(1.0, 2 * min((np.sum(ok <= 0) + 1) / (R + 1),
                                   (np.sum(ok >= 0) + 1) / (R + 1)))) if R else float("nan")
    out = Comparison(name, dname, est_a, est_b, diff, iv, p, paired, units, margin,
                     notes=notes)
    if margin is not None:
        lo, hi = tost.low, tost.high
        out.tost_interval = (lo, hi)
        out.equivalent = bool(-margin < lo and hi < margin)
        out.noninferior = bool(lo > -margin)
    return out


def _tost(settings: Bootstrap) -> Bootstrap:
    """The settings of the TOST interval: level 1 − 2α for α = 1 − level."""
    return dataclasses.replace(settings, level=1 - 2 * (1 - settings.level))


def _t_p(diff: float, se: float | None, df: int) -> float:
    if se is None or not np.isfinite(se) or se == 0 or df < 1:
        return float("nan")
    return float(2 * stdtr(df, -abs(diff) / se))


def _difference_replicates(ta: _Target, tb: _Target, Ua: int, Ub: int, paired: bool,
                           settings: Bootstrap, progress: Progress | None) -> np.ndarray:
    """A − B on each replicate: one weight vector for both when paired, one each else."""
    n = settings.n_resamples
    chunk = progress_chunk(n)
    out = []
    seq = np.random.SeedSequence(settings.seed)
    sa, sb = (seq, seq) if paired else tuple(seq.spawn(2))
    wa = replicate_weights(Ua, n, sa, chunk)
    wb = wa if paired else replicate_weights(Ub, n, sb, chunk)
    done = 0
    for Wa in wa:
        Wb = Wa if paired else next(wb)
        out.append(ta.values(Wa) - tb.values(Wb))
        done += len(Wa)
        if progress is not None:
            progress(done, n)
    return np.concatenate(out)


def _independent_jackknife(ta: _Target, tb: _Target, Ua: int, Ub: int, diff: float,
                           settings: Bootstrap, by_group: bool) -> tuple[Interval, Interval]:
    """The jackknife interval of A − B for independent studies: the variances add, the t
    quantile on the smaller study's degrees of freedom."""
    ja, jb = (jackknife_interval("", "", 0.0, j, settings, clustered=by_group, units=u)
              for j, u in ((_jackknife(ta, Ua), Ua), (_jackknife(tb, Ub), Ub)))
    se = float(np.hypot(ja.se or np.nan, jb.se or np.nan))
    df = min(Ua, Ub) - 1

    def make(level: float) -> Interval:
        half = float(stdtrit(df, 1 - (1 - level) / 2)) * se
        return Interval(ta.coef.id, ta.kernel.distance.name, diff, diff - half, diff + half,
                        level, METHODS["jackknife"], by_group, Ua + Ub, 0, None, None, {}, se,
                        ja.dropped + jb.dropped, None)

    return make(settings.level), make(1 - 2 * (1 - settings.level))


def width_by_documents(data: ReliabilityData, documents: Sequence[int], coefficient: str = "alpha",
                       *, distance="nominal", level: float = 0.95, n_resamples: int = 1000,
                       seed: int | None = 0, progress: Progress | None = None) -> list[dict]:
    """How wide the interval of a study of n documents would be, simulated on a pilot.

    Each simulated study draws n of the pilot's documents with replacement (its clustering
    kept: a document comes whole) and computes the coefficient; the central ``level`` share
    of those values is the interval a study of n documents can expect (a parametric-free
    power analysis by resampling; Efron & Tibshirani 1993, §25).

    Parameters
    ----------
    data : ReliabilityData
        The pilot study, documents as ``groups`` (items when it has none).
    documents : list of int
        The study sizes to simulate.
    coefficient, distance
        What is estimated.
    level : float, default 0.95
        The interval's coverage.
    n_resamples : int, default 1000
        Simulated studies per size.
    seed : int, optional
        The random seed.
    progress : callable, optional
        ``progress(done, total)`` over the sizes.

    Returns
    -------
    list of dict
        ``{"documents": n, "low", "high", "width", "mean"}`` per size.

    Examples
    --------
    >>> import corpusagree as ca
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 3, 100)
    >>> codes = np.where(rng.random((3, 100)) < 0.3, rng.integers(0, 3, (3, 100)), truth)
    >>> pilot = ca.ReliabilityData(codes, labels=[0, 1, 2], groups=np.arange(100) // 10)
    >>> rows = width_by_documents(pilot, [10, 40], n_resamples=300)
    >>> rows[0]["width"] > rows[1]["width"]
    True
    """
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, not {level!r}")
    sizes = [int(n) for n in documents]
    if not sizes or min(sizes) < 2:
        raise ValueError(f"documents must be study sizes ≥ 2, not {list(documents)!r}")
    by_group = data.group_names is not None
    names = _unit_names(data, by_group)
    U = len(names)
    if U < 2:
        raise ValueError("the pilot needs at least two documents (or items)")
    of = _unit_of(data, by_group, {n: i for i, n in enumerate(names)})
    t = _Target(data, coefficient, distance, {}, of, U)
    rng = np.random.default_rng(seed)
    a = (1 - level) / 2
    out = []
    for j, n in enumerate(sizes):
        draws = rng.integers(0, U, size=(n_resamples, n))
        W = np.zeros((n_resamples, U))
        np.add.at(W, (np.repeat(np.arange(n_resamples), n), draws.ravel()), 1.0)
        v = t.values(W)
        v = v[~np.isnan(v)]
        lo, hi = (float(x) for x in np.quantile(v, [a, 1 - a])) if len(v) else (np.nan,) * 2
        out.append({"documents": n, "low": lo, "high": hi, "width": hi - lo,
                    "mean": float(v.mean()) if len(v) else float("nan")})
        if progress is not None:
            progress(j + 1, len(sizes))
    return out


def _mean(values: list) -> float:
    """The mean of the finite values (nan for none)."""
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    return float(v.mean()) if len(v) else float("nan")


def _items_of(data: ReliabilityData, by_group: bool) -> tuple[np.ndarray, np.ndarray]:
    """(items ordered by unit, where each unit's items start in that order: U + 1 offsets)."""
    of = _unit_of(data, by_group, {n: i for i, n in enumerate(_unit_names(data, by_group))})
    order = np.argsort(of, kind="stable")
    return order, np.searchsorted(of[order], np.arange(of.max() + 2))


def _drawn_items(order: np.ndarray, starts: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """The items of the drawn units, each unit whole and as often as it was drawn."""
    lengths = starts[drawn + 1] - starts[drawn]
    first = np.repeat(starts[drawn] - np.cumsum(lengths) + lengths, lengths)
    return order[first + np.arange(lengths.sum())]


def alt_test_by_documents(data: ReliabilityData, documents: Sequence[int], candidate="model",
                          humans: Sequence | None = None, *, epsilon: float = 0.2,
                          n_resamples: int = 200, seed: int | None = 0,
                          progress: Progress | None = None, **alt_options) -> list[dict]:
    """How often a study of n documents would let the candidate pass the alt-test, simulated on
    a pilot.

    Each simulated study draws n of the pilot's documents with replacement (a document comes
    whole, with every annotator's judgements) and runs the alternative annotator test of
    Calderon, Reichart & Dror (2025, §3) at ``epsilon``; the share of studies in which the
    candidate passes (winning rate ω ≥ 0.5) is the power of a study of that size, estimated
    by resampling (Efron & Tibshirani 1993, §25). A pilot in which the candidate fails has
    little power at any size: the rows say so rather than a number of documents.

    Parameters
    ----------
    data : ReliabilityData
        The pilot study with the candidate among the coders, documents as ``groups`` (items
        when it has none).
    documents : list of int
        The study sizes to simulate.
    candidate : hashable, default "model"
        The candidate annotator's coder name.
    humans : sequence, optional
        The human annotators' coder names (default: every other coder).
    epsilon : float, default 0.2
        The alt-test's cost–benefit margin ε.
    n_resamples : int, default 200
        Simulated studies per size.
    seed : int, optional
        The random seed.
    progress : callable, optional
        ``progress(done, total)`` over the sizes.
    **alt_options
        The other keywords of
        :func:`~corpusagree.stats.annotators.alt_test.alt_test` (``fdr``, ``scoring``,
        ``min_humans``, ``min_items``, ``small``).

    Returns
    -------
    list of dict
        ``{"documents": n, "items", "passed", "untestable", "winning_rate",
        "advantage_probability"}`` per size: the mean number of items of a simulated study,
        the share of studies in which the candidate passed, the share too thin to test (no
        item judged by the candidate and enough humans: they count as not passed), and the
        mean ω and ρ of the studies tested.

    Examples
    --------
    >>> import corpusagree as ca
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 3, 200)
    >>> codes = np.where(rng.random((4, 200)) < [[0.2], [0.4], [0.4], [0.4]],
    ...                  rng.integers(0, 3, (4, 200)), truth)
    >>> pilot = ca.ReliabilityData(codes, labels=[0, 1, 2],
    ...                            coders=["model", "ann", "bob", "cy"],
    ...                            groups=np.arange(200) // 10, group_names=list(range(20)))
    >>> rows = alt_test_by_documents(pilot, [2, 20], "model", n_resamples=100)
    >>> rows[0]["passed"] < rows[1]["passed"]
    True
    """
    from .annotators.alt_test import alt_test

    sizes = [int(n) for n in documents]
    if not sizes or min(sizes) < 2:
        raise ValueError(f"documents must be study sizes ≥ 2, not {list(documents)!r}")
    alt_test(data, candidate, humans, epsilon=epsilon, **alt_options)  # the pilot's own errors
    by_group = data.group_names is not None
    order, starts = _items_of(data, by_group)
    U = len(starts) - 1
    if U < 2:
        raise ValueError("the pilot needs at least two documents (or items)")
    rng = np.random.default_rng(seed)
    out = []
    for j, n in enumerate(sizes):
        tests = []
        items = untestable = 0
        for _ in range(n_resamples):  # one alt-test per simulated study (about 1 ms each)
            idx = _drawn_items(order, starts, rng.integers(0, U, n))
            items += len(idx)
            try:
                tests.append(alt_test(data.subset(items=idx), candidate, humans,
                                      epsilon=epsilon, **alt_options))
            except InputError:  # too few shared judgements to test: the study fails
                untestable += 1
        out.append({"documents": n, "items": items / n_resamples,
                    "passed": sum(t.passed for t in tests) / n_resamples,
                    "untestable": untestable / n_resamples,
                    "winning_rate": _mean([t.winning_rate for t in tests]),
                    "advantage_probability": _mean([t.advantage_probability for t in tests])})
        if progress is not None:
            progress(j + 1, len(sizes))
    return out
