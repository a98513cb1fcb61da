"""Confidence intervals: the bootstrap over items or clusters of items, and analytic SEs.

The bootstrap is vectorised across replicates. Every quantity a coefficient needs is a sum over
items (:mod:`corpusagree.stats.kernel`), aggregated once per resampling unit (an item, or a
cluster such as a document); a replicate is a weight vector w over units (how often each unit
was drawn) and its sums are ``w @`` the per-unit sums, so resampling units with replacement is
exactly recomputing the coefficient on the resampled data. The distance stays bound to the full
data, as in Hayes & Krippendorff's (2007) bootstrap of α. Where the coders too are a sample,
the jackknife over coders (and over coders and units) widens the interval by the coders'
variance component (Gwet 2008).

Intervals: percentile, and BCa (Efron 1987) with the acceleration from a jackknife over units
(over 1,000 random blocks of units when there are more). Krippendorff's q = P(coef < α_min) is
the share of replicates below α_min. Items inside one document are not independent, so the
bootstrap is clustered by ``data.groups`` whenever the data have groups.

Analytic standard errors: Cohen's κ (Fleiss, Cohen & Everitt 1969; also under H0: κ = 0),
Fleiss's multi-π under H0 (Fleiss, Nee & Landis 1979), and Gwet's (2008; 2014, ch. 5)
linearised variances, conditional on the coders, for AC1/AC2, Brennan–Prediger, Conger's κ,
Fleiss's κ (α′) and Krippendorff's α, as the irrCAC packages compute them, vectorised over items.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sparse
from scipy.special import ndtr, ndtri, stdtrit  # scipy.stats' norm and t, without its import

from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.params import Param, check
from ..model.progress import Progress
from . import mvalpha as mv
from . import spec as sp
from .distances import Distance, Metric
from .kernel import Kernel, UnitWeights, kernel, label_counts

#: weights entries (replicates × units) materialised at once
WEIGHTS_PER_CHUNK = 4_000_000
#: α_min values for Krippendorff's q
Q_THRESHOLDS = (0.667, 0.8)
#: the interval methods of :class:`Bootstrap` (``interval=``)
INTERVALS = ("percentile", "bca", "jackknife")
#: what an interval's sampling reaches over (:attr:`Bootstrap.over`): the resampling units
#: (documents or items), the coders, or both universes (Gwet 2008)
OVER = ("units", "coders", "both")

#: a clustered interval over fewer clusters than this is rough (a note says so)
FEW_CLUSTERS = 10


@dataclass(frozen=True)
class Bootstrap:
    """How to bootstrap: the settings every job's ``analyse`` takes as ``bootstrap=``.

    Parameters
    ----------
    n_resamples : int, default 1000
        Bootstrap replicates (at least 2).
    level : float, default 0.95
        The coverage of the intervals.
    interval : {"percentile", "bca", "jackknife"}
        Percentile intervals, bias-corrected and accelerated ones (Efron 1987, the
        acceleration from a jackknife over the resampling units), or the jackknife: the
        estimate ± t(U − 1) times the jackknife standard error over the resampling units
        (leave one document out; Hinkley 1977; Hughes 2022, §4, who finds it covers better
        than the bootstrap in small studies). The jackknife draws no replicates
        (``n_resamples`` and ``seed`` are not used).
    cluster : bool, optional
        True: resample the data's groups (documents, lemmas), False: resample items, None
        (default): groups when there are two or more, else items with a note. Items of one
        document are not independent, so resampling them alone gives intervals too narrow.
    seed : int, optional, default 0
        The random seed: an int gives the same interval on every run; None a fresh one.
    over : {"units", "coders", "both"}, default "units"
        The universe the interval speaks of. ``units``: the documents (or items) were
        sampled and the coders are fixed, as in every interval above. ``coders``: the
        coders were sampled from a population of coders (crowd workers, a pool of
        annotators, runs of a model) and the units are fixed; ``both``: both were sampled
        (Gwet 2008). With ``interval="jackknife"`` only: the jackknife leaves one coder out
        at a time, SE²_coders = (C − 1)/C Σ (θ₍₋c₎ − θ̄)², and ``both`` adds the two
        variances, SE² = SE²_units + SE²_coders (Gwet 2008, §3: the components add for large
        samples), with Satterthwaite's degrees of freedom for the t interval. A bootstrap
        that draws coders with replacement pairs a coder's copies with each other, whose
        perfect agreement biases every replicate upwards; it is not offered.

    Raises
    ------
    ValueError
        For a level outside (0, 1), fewer than two resamples, an unknown interval method, or
        ``over`` other than ``units`` with another interval than the jackknife.

    References
    ----------
    .. [1] Hayes, A. F. and Krippendorff, K. (2007). Answering the call for a standard
       reliability measure for coding data. Communication Methods and Measures 1(1).
    .. [2] Efron, B. (1987). Better bootstrap confidence intervals. Journal of the American
       Statistical Association 82(397).
    .. [3] Gwet, K. L. (2008). Variance estimation of nominal-scale inter-rater reliability
       with random selection of raters. Psychometrika 73(3), 407–430.

    Examples
    --------
    >>> import corpusagree as ca
    >>> from corpusagree.analyses import table
    >>> corpus = table.read("sample_corpora/table/dialogue_acts.csv", group="document")
    >>> report = table.analyse(corpus, bootstrap=ca.Bootstrap(n_resamples=200, seed=1))
    >>> iv = report.coefficients[0].interval
    >>> iv.clustered, iv.units, iv.n_resamples
    (True, 6, 200)
    """

    n_resamples: int = 1000
    level: float = 0.95
    interval: str = "percentile"
    cluster: bool | None = None
    seed: int | None = 0
    over: str = "units"

    #: what each setting accepts (the command line's --resamples, --ci, --interval, --seed,
    #: --over)
    PARAMS = (Param("n_resamples", int, low=2), Param("level", float, low=0, high=1,
                                                      closed="neither"),
              Param("interval", str, choices=INTERVALS), Param("cluster", bool, none=True),
              Param("seed", int, low=0, none=True), Param("over", str, choices=OVER))

    def __post_init__(self) -> None:
        check(self.PARAMS, vars(self), "Bootstrap()")
        if self.over != "units" and self.interval != "jackknife":
            raise ValueError(f"over={self.over!r} needs interval='jackknife': a bootstrap "
                             "that draws coders with replacement pairs a coder's copies with "
                             "each other (perfect agreement), which biases it upwards")

    def as_dict(self) -> dict:
        """The settings as plain data (the ``bootstrap`` part of a report's JSON)."""
        out = {"n_resamples": self.n_resamples, "level": self.level,
               "interval": self.interval, "cluster": self.cluster, "seed": self.seed}
        return out if self.over == "units" else {**out, "over": self.over}


@dataclass(repr=False)
class Interval:
    """A confidence interval for one coefficient, with what it was computed from.

    Attributes
    ----------
    coefficient, distance : str
        The coefficient's id and the distance.
    estimate : float
        The coefficient on the data.
    low, high : float
        The interval's bounds.
    level : float
        Its coverage.
    method : str
        How it was made (``bootstrap percentile``, ``bootstrap bca``, or the analytic method
        with its citation).
    clustered : bool
        Whether the bootstrap resampled clusters (documents) rather than items.
    units : int
        The resampling units (clusters or items).
    n_resamples : int
        Bootstrap replicates (0 for analytic intervals).
    seed : int or None
        The random seed.
    distribution : numpy.ndarray or None
        The replicates' values (bootstrap).
    q : dict
        Krippendorff's q: the share of replicates below each of .667 and .8.
    se : float or None
        The standard error (analytic intervals; the replicates' standard deviation otherwise).
    dropped : int
        Replicates that gave no value (De = 0), left out.
    note : str or None
        A caution: clipped to [−1, 1], or not containing the estimate.

    See Also
    --------
    Result.confidence_interval, Bootstrap

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency([[46, 6, 0], [0, 32, 0], [0, 6, 10]])
    >>> iv = ca.alpha(data).confidence_interval(n_resamples=500, seed=1)
    >>> round(iv.low, 4), round(iv.high, 4), round(iv.q[0.8], 2)
    (0.6932, 0.9006, 0.47)
    """

    coefficient: str
    distance: str
    estimate: float
    low: float
    high: float
    level: float
    method: str
    clustered: bool = False
    units: int = 0
    n_resamples: int = 0
    seed: int | None = None
    distribution: np.ndarray | None = None
    q: dict = field(default_factory=dict)
    se: float | None = None
    dropped: int = 0
    note: str | None = None

    def __repr__(self) -> str:
        return (f"Interval({self.coefficient}={self.estimate:.4g}, {self.level:.0%} "
                f"[{self.low:.4g}, {self.high:.4g}], {self.method})")

    def as_dict(self) -> dict:
        """The interval as plain data (without the distribution); ``q`` keyed by strings."""
        out = {k: getattr(self, k) for k in ("coefficient", "distance", "estimate", "low", "high",
                                             "level", "method", "clustered", "units",
                                             "n_resamples", "seed", "se", "dropped", "note")}
        out["q"] = {str(k): v for k, v in self.q.items()}
        return out


def resampling(settings: Bootstrap | None, groups: np.ndarray | None, notes: list[str], *,
               cluster: str = "document", items: str = "items") -> Bootstrap | None:
    """The bootstrap settings for data whose items lie in ``groups`` (one id per item; None
    when the data have none), the one policy of every job: resample the groups when the
    settings cluster (``cluster`` None or True) and there are two or more, with a note when
    there are fewer than :data:`FEW_CLUSTERS` (the interval is rough); else resample the
    items, with a note. ``cluster`` and ``items`` name the groups and the items in the notes.

    Examples
    --------
    >>> notes = []
    >>> resampling(Bootstrap(), np.zeros(5, int), notes).cluster
    False
    >>> notes
    ['one document only: the bootstrap resamples items']
    """
    if settings is None or settings.cluster is False:
        return settings
    n = 0 if groups is None else len(np.unique(groups))
    if n < 2:
        if settings.cluster is None and groups is None:
            return settings  # nothing to cluster by: items, as the settings say
        notes.append(f"one {cluster} only: the bootstrap resamples {items}" if n else
                     f"the {items} have no {cluster}: the bootstrap resamples {items}")
        return dataclasses.replace(settings, cluster=False)
    if n < FEW_CLUSTERS:
        notes.append(f"only {n} {cluster}s: intervals clustered by {cluster} are rough")
    return settings


# ---- resampling -----------------------------------------------------------------------------
def replicate_weights(n_units: int, n_resamples: int, seed=None,
                      chunk: int | None = None) -> Iterator[np.ndarray]:
    """Chunks of bootstrap weights (r × n_units): how often each unit is drawn, with
    replacement, n_units draws per replicate. Deterministic for a given seed."""
    rng = np.random.default_rng(seed)
    r = chunk or max(1, min(n_resamples, WEIGHTS_PER_CHUNK // max(n_units, 1)))
    done = 0
    while done < n_resamples:
        k = min(r, n_resamples - done)
        draws = rng.integers(0, n_units, size=(k, n_units), dtype=np.int64)
        draws += (np.arange(k) * n_units)[:, None]
        yield np.bincount(draws.ravel(), minlength=k * n_units).reshape(k, n_units) \
            .astype(float)
        done += k


def _units(data: ReliabilityData, cluster: bool | None) -> tuple[np.ndarray, int, bool]:
    """(unit of each item, number of units, clustered?)."""
    if cluster is None:
        cluster = data.groups is not None
    if not cluster:
        return np.arange(data.n_items), data.n_items, False
    if data.groups is None:
        raise ValueError("cluster=True but the data have no groups (documents)")
    uniq, unit_of = np.unique(data.groups, return_inverse=True)
    return unit_of, len(uniq), True


class _Target:
    """One (coefficient, distance) to resample: its table entry and per-unit sums."""

    def __init__(self, data: ReliabilityData, coefficient: str, distance,
                 units: dict, unit_of: np.ndarray, U: int) -> None:
        self.coef = sp.get(coefficient)
        if not self.coef.resamplable:
            raise ValueError(f"no bootstrap for {coefficient!r}; available: "
                             f"{', '.join(c for c, e in sp.COEFFICIENTS.items() if e.resamplable)}")
        k = kernel(data, sp.distance_for(self.coef, data, distance))
        if not self.coef.weighted and k.distance.weighted and self.coef.distance is None:
            raise ValueError(f"{coefficient} is unweighted: use the nominal distance")
        self.kernel = k
        if id(k) not in units:
            units[id(k)] = UnitWeights(k, unit_of, U)
        self.units = units[id(k)]
        self.kinds = sp.expected_kinds(self.coef)

    def values(self, W: np.ndarray) -> np.ndarray:
        return sp.evaluate(self.coef, self.units.stats(W, self.kinds))

    def over_budget(self, views: int) -> str | None:
        """Why ``views`` evaluations would cost too much (mvα over long sets of many values:
        :data:`~corpusagree.stats.mvalpha.RESAMPLE_BUDGET`), or None."""
        if "multivalued" not in self.kinds:
            return None
        st = self.kernel.stats({"multivalued"})
        return mv.over_budget(st.value_counts, st.size_counts, views, mv.RESAMPLE_BUDGET)


def bootstrap(data: ReliabilityData, specs: Sequence[tuple[str, object]],
              settings: Bootstrap = Bootstrap(), progress: Progress | None = None
              ) -> list[Interval]:
    """Bootstrap intervals for several (coefficient id, distance) pairs, all on the same
    replicates. ``progress(done, total)`` is called after each chunk of replicates (at most
    :func:`progress_chunk` replicates, so a bar moves at least every 5 %)."""
    unit_of, U, clustered = _units(data, settings.cluster)
    if U < 2:
        raise ValueError("the bootstrap needs at least two resampling units")
    units: dict = {}
    targets = [_Target(data, c, d, units, unit_of, U) for c, d in specs]
    if settings.over != "units":
        return [_over_coders(t, data, settings, clustered, U) for t in targets]
    if settings.interval == "jackknife":
        return [jackknife_interval(t.coef.id, t.kernel.distance.name,
                                   float(t.values(np.ones((1, U)))[0]), _jackknife(t, U),
                                   settings, clustered=clustered, units=U) for t in targets]
    dists: list[list[np.ndarray]] = [[] for _ in targets]
    n = settings.n_resamples
    jackknife = min(U, 1000) if settings.interval == "bca" else 0
    skipped = [t.over_budget(n + jackknife) for t in targets]
    # a chunk of r replicates materialises r × U weights and r × L label counts
    chunk = min(progress_chunk(n), WEIGHTS_PER_CHUNK // max(U, data.n_labels))
    done = 0
    for W in replicate_weights(U, n, settings.seed, max(1, chunk)):
        for j, t in enumerate(targets):
            if skipped[j] is None:
                dists[j].append(t.values(W))
        done += len(W)
        if progress is not None:
            progress(done, n)
    return [interval(t.coef.id, t.kernel.distance.name,
                     float(t.values(np.ones((1, U)))[0]), np.concatenate(d), settings,
                     lambda t=t: _jackknife(t, U), clustered=clustered, units=U,
                     shifted=BIAS_SHIFT if t.coef.value == "bias" else SHIFT)
            if why is None else
            _left_out(t, settings, clustered, U, f"no interval: {why} over {n} resamples")
            for t, d, why in zip(targets, dists, skipped, strict=True)]


def _left_out(t: _Target, settings: Bootstrap, clustered: bool, U: int, note: str
              ) -> Interval:
    """The interval of a target not resampled: the estimate, no bounds, and why."""
    return Interval(t.coef.id, t.kernel.distance.name, float(t.values(np.ones((1, U)))[0]),
                    float("nan"), float("nan"), settings.level, METHODS[settings.interval],
                    clustered, U, settings.n_resamples, settings.seed, None, {}, None, 0, note)


#: why an estimate can lie outside its bootstrap interval (the note that says so)
SHIFT = ("the bootstrap distribution is shifted (a biased or bounded statistic); the BCa "
         "interval (interval='bca') corrects a moderate shift")
BIAS_SHIFT = ("B is a variance between the coders' label distributions, bounded below by 0, "
              "and resampling adds variance to it, so its bootstrap distribution is shifted "
              "upwards; read the interval's upper end as a bound on B")
#: the interval method of each :attr:`Bootstrap.interval`, as an :class:`Interval` records it
METHODS = {"percentile": "bootstrap percentile", "bca": "bootstrap BCa",
           "jackknife": "jackknife"}


def _jackknife_variance(values: np.ndarray) -> tuple[float, int, int]:
    """(the jackknife variance (B − 1)/B Σ (θ₍ᵦ₎ − θ̄)² over the B defined leave-one-out
    values (nan for fewer than two), B, how many were undefined)."""
    ok = values[~np.isnan(values)]
    B = len(ok)
    var = (B - 1) / B * float(((ok - ok.mean()) ** 2).sum()) if B >= 2 else float("nan")
    return var, B, int(len(values) - B)


def jackknife_interval(coefficient: str, distance: str, estimate: float, values: np.ndarray,
                       settings: Bootstrap, *, clustered: bool, units: int) -> Interval:
    """The jackknife interval of ``estimate`` from its leave-one-unit-out ``values``.

    The jackknife standard error over the B values (one per unit left out, or per block of
    units when there are many), SE² = (B − 1)/B Σ (θ₍ᵦ₎ − θ̄)² (Hinkley 1977; Hughes 2022,
    §4), and the interval estimate ± t(B − 1) SE, clipped to the coefficient's range [−1, 1]
    only in the note. A unit whose removal leaves the coefficient undefined is left out of
    the sum (counted in ``dropped``).

    Parameters
    ----------
    coefficient, distance : str
        What the interval is of.
    estimate : float
        The estimate on all the data.
    values : array
        The leave-one-unit-out estimates.
    settings : Bootstrap
        Its ``level``.
    clustered, units
        Whether the units were clusters (documents), and how many.

    Returns
    -------
    Interval
        ``method`` "jackknife", ``n_resamples`` 0, ``se`` the jackknife standard error, no
        ``q`` (Krippendorff's q is a share of bootstrap replicates).

    References
    ----------
    Hinkley, D. V. (1977). Jackknifing in unbalanced situations. *Technometrics* 19(3).
    Hughes, J. (2022). Toward improved inference for Krippendorff's Alpha agreement
    coefficient. arXiv:2210.13265, §4.

    Examples
    --------
    >>> iv = jackknife_interval("alpha", "nominal", 0.5, np.array([0.4, 0.5, 0.6]),
    ...                         Bootstrap(interval="jackknife"), clustered=True, units=3)
    >>> round(iv.se, 4), round(iv.low, 3), round(iv.high, 3)
    (0.1155, 0.003, 0.997)
    """
    values = np.asarray(values, float)
    var, B, dropped = _jackknife_variance(values)
    if B < 2:
        return Interval(coefficient, distance, estimate, float("nan"), float("nan"),
                        settings.level, METHODS["jackknife"], clustered, units, 0, None,
                        None, {}, None, dropped,
                        "no interval: the jackknife needs two or more units that leave the "
                        "coefficient defined")
    se = float(np.sqrt(var))
    half = float(stdtrit(B - 1, 1 - (1 - settings.level) / 2)) * se
    return Interval(coefficient, distance, estimate, estimate - half, estimate + half,
                    settings.level, METHODS["jackknife"], clustered, units, 0, None, values,
                    {}, se, dropped, None)


def coders_jackknife_interval(coefficient: str, distance: str, estimate: float,
                              coders: np.ndarray, settings: Bootstrap,
                              units: np.ndarray | None = None, *, clustered: bool = False
                              ) -> Interval:
    """The jackknife interval of ``estimate`` over the coders (``units`` None) or over the
    coders and the units (Gwet 2008): ``coders`` are the leave-one-coder-out estimates,
    ``units`` the leave-one-unit-out ones.

    SE²_coders = (C − 1)/C Σ (θ₍₋c₎ − θ̄)² over the C coders whose removal leaves the
    coefficient defined; with units, SE² = SE²_units + SE²_coders, the two variance
    components of a study whose units and coders are both samples (Gwet 2008, §3), and the
    t interval's degrees of freedom are Satterthwaite's (1946),
    SE⁴ / (SE⁴_units / (U − 1) + SE⁴_coders / (C − 1)).

    Parameters
    ----------
    coefficient, distance : str
        What the interval is of.
    estimate : float
        The estimate on all the data.
    coders : array
        The leave-one-coder-out estimates.
    settings : Bootstrap
        Its ``level`` and ``over``.
    units : array, optional
        The leave-one-unit-out estimates (``over="both"``).
    clustered : bool
        Whether the units are clusters (documents).

    Returns
    -------
    Interval
        ``method`` "jackknife over coders" or "jackknife over coders and documents" (or
        "items"), ``units`` the coders (and units) left out in turn, ``se``.

    References
    ----------
    Gwet, K. L. (2008). Variance estimation of nominal-scale inter-rater reliability with
    random selection of raters. *Psychometrika* 73(3), §3.
    Satterthwaite, F. E. (1946). An approximate distribution of estimates of variance
    components. *Biometrics Bulletin* 2(6).

    Examples
    --------
    >>> iv = coders_jackknife_interval("alpha", "nominal", 0.5, np.array([0.4, 0.5, 0.6]),
    ...                                Bootstrap(interval="jackknife", over="coders"))
    >>> round(iv.se, 4), iv.method
    (0.1155, 'jackknife over coders')
    """
    var_c, C, dropped = _jackknife_variance(np.asarray(coders, float))
    method, n, df = "jackknife over coders", len(coders), C - 1
    var = var_c
    if units is not None:
        var_u, U, dropped_u = _jackknife_variance(np.asarray(units, float))
        var, dropped, n = var_u + var_c, dropped + dropped_u, n + len(units)
        method += f" and {'documents' if clustered else 'items'}"
        df = var ** 2 / (var_u ** 2 / max(U - 1, 1) + var_c ** 2 / max(C - 1, 1)) \
            if var > 0 else min(U, C) - 1
    if not np.isfinite(var) or df < 1:
        return Interval(coefficient, distance, estimate, float("nan"), float("nan"),
                        settings.level, method, clustered, n, 0, None, None, {}, None,
                        dropped, "no interval: the jackknife needs two or more coders (and "
                        "units) that leave the coefficient defined")
    se = float(np.sqrt(var))
    half = float(stdtrit(df, 1 - (1 - settings.level) / 2)) * se
    return Interval(coefficient, distance, estimate, estimate - half, estimate + half,
                    settings.level, method, clustered, n, 0, None, None, {}, se, dropped,
                    None)


class _Held(Distance):
    """A distance whose metric stays the one bound to the whole data: leaving a coder out
    changes no rank of the ordinal metric, as resampling units changes none (Hayes &
    Krippendorff 2007). Good for the whole data's label table (a subset of its coders)."""

    def __init__(self, distance: Distance, metric: Metric) -> None:
        self.name, self.weighted = distance.name, distance.weighted
        self.for_sets, self.bounded = distance.for_sets, distance.bounded
        self._metric = metric

    def bind(self, data: ReliabilityData, value_counts: np.ndarray) -> Metric:
        return self._metric


def _over_coders(t: _Target, data: ReliabilityData, settings: Bootstrap, clustered: bool,
                 U: int) -> Interval:
    """The interval of one target over the coders (and units): the coefficient recomputed
    without each coder, the distance still bound to the whole data."""
    C = data.n_coders
    if C < 3:
        raise InputError(f"the jackknife over coders needs three or more coders (the data "
                         f"have {C}): without one of two coders there is no agreement left")
    ones = np.ones((1, U))
    held = _Held(t.kernel.distance, t.kernel.metric)
    left_out = np.array([float(_Target(data.subset(coders=[k for k in range(C) if k != c]),
                                       t.coef.id, held, {}, t.units.unit_of,
                                       U).values(ones)[0]) for c in range(C)])
    return coders_jackknife_interval(
        t.coef.id, t.kernel.distance.name, float(t.values(ones)[0]), left_out, settings,
        _jackknife(t, U) if settings.over == "both" else None, clustered=clustered)


def progress_chunk(n_resamples: int, share: float = 0.05) -> int:
    """The most replicates computed between two progress reports: ``share`` of them (at
    least one), so that a bar advances in steps of at most 5 %.

    Examples
    --------
    >>> progress_chunk(1000), progress_chunk(10)
    (50, 1)
    """
    return max(1, int(n_resamples * share))


def interval(coefficient: str, distance: str, estimate: float, distribution: np.ndarray,
             settings: Bootstrap, jackknife: Callable[[], np.ndarray], *, clustered: bool,
             units: int, shifted: str = SHIFT) -> Interval:
    """The interval of a bootstrap ``distribution`` of ``estimate`` by the method the
    ``settings`` name: percentile, or BCa (Efron 1987) with the acceleration from the
    ``jackknife`` values (leave-one-unit-out estimates, called only for BCa). Every job's
    bootstrap ends here, so the method recorded is the method computed.

    Parameters
    ----------
    coefficient, distance : str
        What the interval is of (ids, as reports name them).
    estimate : float
        The estimate on the data as they are.
    distribution : array
        One value per replicate (nan where a replicate leaves the coefficient undefined).
    settings : Bootstrap
        Level, method, number of replicates and seed.
    jackknife : callable
        Returns the leave-one-unit-out estimates (for BCa's acceleration).
    clustered, units
        Whether the units resampled were clusters (documents), and how many.
    shifted : str
        Why the estimate may lie outside its interval (the note when it does).

    Returns
    -------
    Interval
        With ``q`` (Krippendorff's q: the share of replicates below each of
        :data:`Q_THRESHOLDS`), the bootstrap standard error and the replicates dropped.

    References
    ----------
    Efron (1987), "Better bootstrap confidence intervals", JASA 82: 171–185; Hayes &
    Krippendorff (2007), "Answering the call for a standard reliability measure", §4.

    Examples
    --------
    >>> iv = interval("alpha", "nominal", 0.5, np.linspace(0.3, 0.7, 101), Bootstrap(),
    ...               lambda: np.zeros(3), clustered=False, units=3)
    >>> iv.method, round(iv.low, 3), round(iv.high, 3)
    ('bootstrap percentile', 0.31, 0.69)
    """
    if settings.interval == "jackknife":
        return jackknife_interval(coefficient, distance, estimate, jackknife(), settings,
                                  clustered=clustered, units=units)
    ok = distribution[~np.isnan(distribution)]
    a = (1 - settings.level) / 2
    if settings.interval == "bca" and len(ok):
        lo_q, hi_q = _bca_quantiles(ok, estimate, jackknife(), a)
    else:
        lo_q, hi_q = a, 1 - a
    method = METHODS[settings.interval]
    low, high = (float(x) for x in np.quantile(ok, [lo_q, hi_q])) if len(ok) else (np.nan,) * 2
    note = None
    if len(ok) and not low <= estimate <= high:
        where = "below" if estimate < low else "above"
        note = (f"the estimate {estimate:.4g} lies {where} its {method.split()[-1]} interval: "
                + shifted)
    return Interval(coefficient, distance, estimate, low, high, settings.level, method,
                    clustered, units, settings.n_resamples, settings.seed, distribution,
                    {x: float((ok < x).mean()) if len(ok) else float("nan")
                     for x in Q_THRESHOLDS},
                    float(ok.std(ddof=1)) if len(ok) > 1 else None,
                    int(len(distribution) - len(ok)), note)


def refit_bootstrap(statistic: Callable[[np.ndarray], np.ndarray], unit_of: np.ndarray,
                    settings: Bootstrap, names: Sequence[tuple[str, str]], *,
                    clustered: bool, progress: Progress | None = None, max_blocks: int = 1000
                    ) -> list[Interval]:
    """Bootstrap intervals of statistics that are recomputed on every replicate (a model
    fitted again to the resampled items), the replicates drawn as :func:`bootstrap` draws
    them.

    Parameters
    ----------
    statistic : callable
        ``statistic(weights)``: the statistics (one per entry of ``names``) of the data with
        item i counted ``weights[i]`` times (its unit's draws in the replicate).
    unit_of : ndarray
        The resampling unit of each item (``np.arange(n_items)``: the items themselves; a
        document id per item: clusters).
    settings : Bootstrap
        Replicates, level, interval method (BCa's acceleration comes from a jackknife of
        refits, one per unit or per one of ``max_blocks`` blocks of units) and seed.
    names : list of (str, str)
        What each statistic is: the ``coefficient`` and ``distance`` of its Interval.
    clustered : bool
        Whether the units are clusters of items (documents), for the intervals' captions.
    progress : callable, optional
        ``progress(done, total)`` after each replicate.

    Returns
    -------
    list of Interval
        One per statistic; nan values of a replicate (a statistic it cannot give) are left
        out of that statistic's interval and counted in ``dropped``.

    Examples
    --------
    >>> x = np.arange(20.0)
    >>> mean = lambda w: np.array([w @ x / w.sum()])
    >>> iv, = refit_bootstrap(mean, np.arange(20), Bootstrap(200, seed=1), [("mean", "")],
    ...                       clustered=False)
    >>> iv.estimate, iv.low < 9.5 < iv.high, iv.method
    (9.5, True, 'bootstrap percentile')
    """
    if settings.over != "units":
        raise InputError(f"over={settings.over!r}: the jackknife over coders is for the "
                         "agreement coefficients; this statistic is resampled over units only")
    unit_of = np.asarray(unit_of)
    uniq, unit_of = np.unique(unit_of, return_inverse=True)
    U = len(uniq)
    if U < 2:
        raise ValueError("the bootstrap needs at least two resampling units")
    theta = np.asarray(statistic(np.ones(len(unit_of))), float)
    n = 0 if settings.interval == "jackknife" else settings.n_resamples
    dist = np.empty((n, len(theta)))
    done = 0
    for W in replicate_weights(U, n, settings.seed):
        for w in W:
            dist[done] = statistic(w[unit_of])
            done += 1
            if progress is not None:
                progress(done, n)
    jack: list[np.ndarray] = []

    def jackknife() -> np.ndarray:
        if not jack:  # refits leaving out one unit (or one block of units) each
            block = np.arange(U) if U <= max_blocks else \
                np.random.default_rng(0).permutation(U) % max_blocks
            of_item = block[unit_of]
            jack.append(np.array([statistic((of_item != b).astype(float))
                                  for b in range(int(block.max()) + 1)]))
        return jack[0]

    return [interval(c, d, float(theta[k]), dist[:, k], settings,
                     lambda k=k: jackknife()[:, k], clustered=clustered, units=U)
            for k, (c, d) in enumerate(names)]


def _jackknife(t: _Target, U: int, max_blocks: int = 1000) -> np.ndarray:
    """Leave-one-unit-out values (delete-a-block over ``max_blocks`` random blocks of units
    when there are more units), for the BCa acceleration. Units are first summed into their
    blocks, so each left-out block is one row of a blocks × blocks weight matrix."""
    if U <= max_blocks:
        units, B = t.units, U
    else:
        block = np.random.default_rng(0).permutation(U) % max_blocks
        units, B = UnitWeights(t.kernel, block[t.units.unit_of], max_blocks), max_blocks
    vals = []
    step = max(1, WEIGHTS_PER_CHUNK // B)
    for s in range(0, B, step):
        W = np.ones((min(B, s + step) - s, B))
        W[np.arange(len(W)), np.arange(s, s + len(W))] = 0.0
        vals.append(sp.evaluate(t.coef, units.stats(W, t.kinds)))
    return np.concatenate(vals)


def _bca_quantiles(dist: np.ndarray, theta: float, jack: np.ndarray, a_: float
                   ) -> tuple[float, float]:
    """Efron's (1987) bias-corrected and accelerated quantile levels."""
    prop = ((dist < theta).sum() + 0.5 * (dist == theta).sum()) / len(dist)
    z0 = ndtri(np.clip(prop, 1e-10, 1 - 1e-10))
    jack = jack[~np.isnan(jack)]
    d = jack.mean() - jack
    denom = 6 * (d ** 2).sum() ** 1.5
    acc = (d ** 3).sum() / denom if denom > 0 else 0.0
    levels = [float(ndtr(z0 + (z0 + z) / (1 - acc * (z0 + z))))
              for z in (ndtri(a_), ndtri(1 - a_))]
    return levels[0], levels[1]


# ---- analytic standard errors ---------------------------------------------------------------
def _two_coder_table(data: ReliabilityData) -> np.ndarray:
    active = np.flatnonzero((data.codes >= 0).sum(1) > 0)
    if len(active) != 2:
        raise ValueError("the analytic κ interval is for exactly two coders")
    a, b = data.codes[active[0]], data.codes[active[1]]
    both = (a >= 0) & (b >= 0)
    L = data.n_labels
    return np.bincount(a[both] * L + b[both], minlength=L * L).reshape(L, L).astype(float)


def kappa_se(data: ReliabilityData) -> tuple[float, float, float]:
    """(κ, SE, SE under H0: κ = 0) for two coders on the items both judged (Fleiss, Cohen &
    Everitt 1969; the asymptotic variances statsmodels' ``cohens_kappa`` reports)."""
    t = _two_coder_table(data)
    n = t.sum()
    p = t / n
    r, c = p.sum(1), p.sum(0)
    po, pe = np.trace(p), float(r @ c)
    k = (po - pe) / (1 - pe)
    diag = np.diag(p)
    term_a = (diag * (1 - (r + c) * (1 - k)) ** 2).sum()
    off = p * (c[:, None] + r[None, :]) ** 2
    np.fill_diagonal(off, 0)
    term_b = (1 - k) ** 2 * off.sum()
    term_c = (k - pe * (1 - k)) ** 2
    var = (term_a + term_b - term_c) / ((1 - pe) ** 2 * n)
    var0 = (pe + pe ** 2 - (r * c * (r + c)).sum()) / ((1 - pe) ** 2 * n)
    return float(k), float(np.sqrt(var)), float(np.sqrt(var0))


def fleiss_se0(data: ReliabilityData) -> tuple[float, float]:
    """(multi-π, SE under H0) with a constant number m of judgements per item (Fleiss, Nee &
    Landis 1979): var0 = 2 / (N m (m − 1)) · [(Σ p q)² − Σ p q (q − p)] / (Σ p q)²."""
    n_i = (data.codes >= 0).sum(0)
    used = n_i > 0
    m = np.unique(n_i[used])
    if len(m) != 1 or m[0] < 2:
        raise ValueError("the analytic multi-π SE needs the same number (≥ 2) of judgements "
                         "for every item; use the bootstrap")
    m = int(m[0])
    N = int(used.sum())
    p = label_counts(data.codes[:, used], data.n_labels).sum(0) / (N * m)
    q = 1 - p
    pq = (p * q).sum()
    var0 = 2 / (N * m * (m - 1)) * (pq ** 2 - (p * q * (q - p)).sum()) / pq ** 2
    pi = sp.evaluate(sp.COEFFICIENTS["pi"], kernel(data, None).stats({"single"}))[0]
    return float(pi), float(np.sqrt(var0))


#: coefficients with Gwet's (2014) analytic variance
GWET_SE = ("gwet_ac1", "gwet_ac2", "brennan_prediger", "S", "conger_kappa", "alpha_prime",
           "alpha")


def _per_item(k: Kernel, values: np.ndarray) -> np.ndarray:
    """Σ over each item's judgements of ``values[label]`` (one lookup: a missing judgement,
    code −1, reads the 0 appended to the table)."""
    return np.append(values, 0.0)[k.data.codes].sum(0)


def _d_against(metric: Metric, P: np.ndarray) -> np.ndarray:
    """Σ_l d(k, l) P[g, l] for every label k and row g of P (L × G), without an L × L array."""
    P = np.atleast_2d(P)
    eye = sparse.identity(P.shape[1], format="csr")
    return np.asarray(metric.gram(eye, P))


def gwet_variance(k: Kernel, coefficient: str, population: float = float("inf")
                  ) -> tuple[float, float, int]:
    """(value, SE, items) of a coefficient by Gwet's linearisation (2008; 2014, ch. 5), as the
    irrCAC packages compute it: with κ_i = (n/n₂)(p_a|i − p_e·[r_i ≥ 2])/(1 − p_e) and
    κ*_i = κ_i − 2(1 − κ)(p_e|i − p_e)/(1 − p_e), var = (1 − f)/(n(n − 1)) Σ_i (κ*_i − κ)²
    over the n items with a judgement (n₂ with two or more), f = n/``population``; p_e|i is
    each coefficient's chance agreement of item i (Brennan–Prediger: p_e). Krippendorff's α
    has its own per-item terms (Gwet 2014, §5.5; irrCAC's ``krippendorff``). Conditional on
    the coders; every sum is over items at once."""
    if coefficient == "alpha":
        return _alpha_variance(k, population)
    c = sp.get(coefficient)
    judged = k.n_i > 0
    n = float(judged.sum())
    if n == len(judged):  # every item judged: no copies
        judged = slice(None)
    n_i = k.n_i[judged].astype(float)
    pair = k.pairable[judged]
    n2 = float(pair.sum())
    pa_i = 1.0 - np.where(pair, k.disagr_i[judged], 1.0)
    f = n / population
    st = k.stats(sp.expected_kinds(c))
    if c.expected in ("uniform", "gwet"):
        q, t = k.category_terms()
        st = dataclasses.replace(st, categories=np.array([float(q)]),
                                 category_cross=np.array([t]))
    value = float(sp.evaluate(c, st)[0])
    pe = 1.0 - float(st.expected(c.expected)[0])
    if c.expected == "uniform":
        pe_i = np.full(len(n_i), pe)
    elif c.expected == "gwet":
        pi = k.item_weighted / n
        t_w = float(st.categories[0]) ** 2 - float(st.category_cross[0])
        scale = t_w / (st.categories[0] * (st.categories[0] - 1))
        pe_i = scale * (1.0 - _per_item(k, pi)[judged] / n_i)
    elif c.expected == "single":  # Fleiss: p_e|i = Σ_k r_ik (Wπ)_k / r_i
        d_pi = _d_against(k.metric, k.item_weighted / n)[:, 0]
        pe_i = 1.0 - _per_item(k, d_pi)[judged] / n_i
    elif c.expected == "conger":
        pe_i = _conger_pe_i(k, n)[judged]
    else:
        raise ValueError(f"no Gwet variance for {coefficient!r}")
    kap_i = (n / n2) * (pa_i - pe * pair) / (1 - pe)
    kap_x = kap_i - 2 * (1 - value) * (pe_i - pe) / (1 - pe)
    var = (1 - f) / (n * (n - 1)) * ((kap_x - value) ** 2).sum()
    return value, float(np.sqrt(max(var, 0.0))), int(n)


def _conger_pe_i(k: Kernel, n: float) -> np.ndarray:
    """Conger's p_e|i (irrCAC's λ_ig): with a_g = Σ_{h≠g} p_h and W = 1 − D,
    λ_ig = (n/n_g)[ε_ig (W a_g)(x_ig) − (ε_ig − n_g/n) a_gᵀ W p_g], p_e|i = Σ_g λ_ig/(r(r−1)).
    Σ_g λ_ig = Σ_g H[x_ig, g] + Σ_g a_gᵀ W p_g with H[x, g] = (n/n_g)((W a_g)(x) − a_gᵀ W p_g)
    (0 for a missing judgement): one lookup in an L × r table per judgement."""
    active = k.valid.any(1)
    codes = k.data.codes if active.all() else k.data.codes[active]
    F = k.n_ck
    n_g = F.sum(1)
    P = F / n_g[:, None]
    r = len(P)
    A = P.sum(0) - P  # a_g
    # irrCAC takes w[k][l] with l rater g's category, k the others': W acts transposed
    # (the same for symmetric weights)
    metric = k.metric.transposed()
    awp = (r - 1) - metric.cross(P, A)  # a_gᵀ W p_g
    # L × r, (Wᵀ a_g)(x) = r − 1 − (Dᵀ a_g)(x)
    H = (n / n_g) * ((r - 1) - _d_against(metric, A) - awp)
    # coder g's column of H, a 0 first for a missing judgement (code −1): one flat lookup
    table = np.hstack([np.zeros((r, 1)), H.T]).ravel()
    width = np.int32 if table.size < 2**31 else np.int64
    lam = table[codes + (np.arange(r, dtype=width)[:, None] * (H.shape[0] + 1) + 1)
                ].sum(0) + awp.sum()
    return lam / (r * (r - 1))


def _alpha_variance(k: Kernel, population: float) -> tuple[float, float, int]:
    """Krippendorff's α by Gwet's (2014) linearisation, as irrCAC's ``krippendorff``: over the
    n items with ≥ 2 values (r̄ their mean number of values), p_a|i = p_a,i r_i/r̄ −
    p_a (r_i − r̄)/r̄, p_e|i = Σ_k r_ik (Wπ)_k/r̄ − p_e (r_i − r̄)/r̄, centred at
    α′ = (p′_a − p_e)/(1 − p_e) with p′_a = 1 − Do."""
    p = k.pairable
    r_i = k.n_i[p].astype(float)
    n = float(p.sum())
    rbar = r_i.mean()
    N = r_i.sum()
    st = k.stats(("pooled",))
    value = float(sp.evaluate(sp.get("alpha"), st)[0])
    pa_prime = 1.0 - float(st.observed("values")[0])
    pi = k.n_k / N
    pe = 1.0 - float(k.metric.cross(k.n_k, k.n_k)) / N ** 2
    pa = (1 - 1 / N) * pa_prime + 1 / N
    pa_item = 1.0 - k.disagr_i[p]
    pa_i = pa_item * r_i / rbar - pa * (r_i - rbar) / rbar
    kap_i = (pa_i - pe) / (1 - pe)
    d_pi = _d_against(k.metric, pi)[:, 0]
    wpi = _per_item(k, d_pi)[p]
    pe_i = (r_i - wpi) / rbar - pe * (r_i - rbar) / rbar
    alpha_prime = (pa_prime - pe) / (1 - pe)
    kap_x = kap_i - 2 * (1 - alpha_prime) * (pe_i - pe) / (1 - pe)
    var = (1 - n / population) / (n * (n - 1)) * ((kap_x - alpha_prime) ** 2).sum()
    return value, float(np.sqrt(max(var, 0.0))), int(n)


def analytic(data: ReliabilityData, coefficient: str, level: float = 0.95, *, distance=None,
             population: float = float("inf")) -> Interval:
    """Interval from the analytic SE: Gwet's (2014) variance for the coefficients of
    :data:`GWET_SE` (Student's t with n − 1 degrees of freedom, as irrCAC; the upper end
    clipped at 1); κ with two coders (normal, clipped to κ's range [−1, 1], with a note when it
    reaches past it); multi-π gives only a test SE under H0, so its interval is centred at 0:
    a test, not an estimate."""
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, not {level}")
    if coefficient in GWET_SE:
        k = kernel(data, distance if sp.get(coefficient).weighted else None)
        value, se, n = gwet_variance(k, coefficient, population)
        tq = float(stdtrit(max(n - 1, 1), (1 + level) / 2))
        low, high = value - tq * se, value + tq * se
        note = None
        if high > 1:
            note = f"the t interval reaches {high:.4g}, past 1; clipped at 1"
            high = 1.0
        return Interval(coefficient, k.distance.name, value, low, high, level,
                        "analytic (Gwet 2014)", units=n, se=se, note=note)
    z = float(ndtri((1 + level) / 2))
    if coefficient == "kappa":
        k, se, _ = kappa_se(data)
        low, high = k - z * se, k + z * se
        note = None
        if low < -1 or high > 1:
            note = (f"the normal approximation gives [{low:.4g}, {high:.4g}], past κ's range; "
                    "clipped to [−1, 1] (few items: prefer the bootstrap)")
            low, high = max(low, -1.0), min(high, 1.0)
        return Interval("kappa", "nominal", k, low, high, level,
                        "analytic (Fleiss, Cohen & Everitt 1969)", se=se,
                        units=int(_two_coder_table(data).sum()), note=note)
    if coefficient == "pi":
        k, se0 = fleiss_se0(data)
        return Interval("pi", "nominal", k, -z * se0, z * se0, level,
                        "analytic under H0: π = 0 (Fleiss, Nee & Landis 1979)", se=se0)
    raise ValueError("analytic intervals exist for 'kappa' (two coders), 'pi' (under H0) and "
                     f"{', '.join(map(repr, GWET_SE))} (Gwet 2014); use method='bootstrap'")


__all__ = ["BIAS_SHIFT", "FEW_CLUSTERS", "GWET_SE", "INTERVALS", "METHODS", "OVER",
           "Q_THRESHOLDS", "SHIFT", "WEIGHTS_PER_CHUNK", "Bootstrap", "Interval", "analytic",
           "bootstrap", "coders_jackknife_interval", "fleiss_se0", "gwet_variance", "interval",
           "kappa_se", "progress_chunk", "refit_bootstrap", "replicate_weights", "resampling"]
