"""The coefficients of Artstein & Poesio's family as functions of reliability data.

Each function evaluates one entry of :data:`corpusagree.stats.spec.COEFFICIENTS` on the
sufficient statistics of :class:`~corpusagree.stats.kernel.Kernel` (one kernel per data and
distance, cached, so a table of every coefficient costs one pass). Every coefficient is
1 − Do/De (Artstein & Poesio 2005, §2.5), equivalently (A_o − A_e)/(1 − A_e) with the nominal
distance.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..model.data import ReliabilityData
from ..model.params import ArrayLike, Param, checked
from ..model.records import frame
from . import distances as dist
from . import mvalpha as mv
from . import spec as sp
from .inference import Bootstrap, Interval, analytic, bootstrap
from .kernel import Kernel, kernel, shared_item_pairs  # noqa: F401  (kernel: re-exported)
from .ratios import chance_corrected

#: what every coefficient takes as data
DataLike = ReliabilityData | npt.ArrayLike

# ---- the keywords every coefficient checks first --------------------------------------------
#: reliability data, or coders × items as the krippendorff package takes it
DATA = Param("data", (ReliabilityData, ArrayLike),
             accepts="ReliabilityData or a coders × items array-like")
#: a distance, as corpusagree.distances.get takes it
DISTANCE = dataclasses.replace(dist.SPEC, name="distance")
#: weights, as corpusagree.distances.weights takes them
WEIGHTS = dataclasses.replace(dist.WEIGHTS, name="weights")
#: the declared categories
CATEGORIES = dist.CATEGORIES
#: an id of COEFFICIENTS
COEFFICIENT = Param("coefficient", str, choices=tuple(sp.COEFFICIENTS))


def takes_data(*params: Param) -> Callable[[Callable], Callable]:
    """Decorate a function of reliability data: its keywords are checked (``data`` and
    ``params``), then ``data`` is converted once (:meth:`ReliabilityData.coerce`)."""
    def decorate(func: Callable) -> Callable:
        @functools.wraps(func)
        def converted(data, *args, **kwargs):
            return func(ReliabilityData.coerce(data), *args, **kwargs)

        return checked(DATA, *params)(converted)

    return decorate


class DegenerateWarning(RuntimeWarning):
    """The coefficient is undefined for these data (expected disagreement is zero).

    Raised as a warning, with the value nan: every judgement has the same label, or the
    distance is 0 between all the labels used, so 1 − Do/De is 0/0.

    Examples
    --------
    >>> import warnings
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x")])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = ca.alpha(data).value
    >>> value, caught[0].category.__name__
    (nan, 'DegenerateWarning')
    """


@dataclass(repr=False)
class Result:
    """A coefficient's value with the quantities it was computed from.

    ``observed`` and ``expected`` are the disagreements Do and De; for unweighted coefficients
    A_o = 1 − Do and A_e = 1 − De. ``float(result)`` is the value. ``id`` is the ASCII name
    (``alpha``, ``multi_kappa`` …), ``symbol`` the display name (``α``, ``multi-κ`` …).

    Attributes
    ----------
    id : str
        The coefficient's ASCII id in :data:`corpusagree.COEFFICIENTS`.
    symbol : str
        How reports write it (``α``, ``multi-π``, ``Fleiss κ`` …).
    value : float
        1 − Do/De (nan when undefined).
    observed, expected : float
        Do and De (nan where the coefficient has none, e.g. De of A_o).
    distance : str
        The name of the distance it was computed under.
    items, coders, pairable_values : int
        Items with at least two judgements, coders, and judgements on those items.
    definition : str
        The definition with its citation.
    details : dict
        Coefficient-specific quantities (the number of categories q of S and AC1, the two De of
        the bias B, the coder pairs of Light's κ).

    See Also
    --------
    corpusagree.table : every applicable coefficient at once, as :class:`Results`.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> r = ca.kappa(data)
    >>> round(r.value, 4), round(r.A_o, 2), round(r.A_e, 3)
    (0.8013, 0.88, 0.396)
    >>> r.symbol, r.items, r.coders
    ('κ', 100, 2)
    """

    id: str
    symbol: str
    value: float
    observed: float
    expected: float
    distance: str
    items: int
    coders: int
    pairable_values: int
    definition: str
    details: dict = field(default_factory=dict)
    _kernel: Kernel | None = field(default=None, compare=False)

    def __float__(self) -> float:
        return self.value

    def __repr__(self) -> str:
        return (f"Result({self.id}={self.value:.4g}, distance={self.distance!r}, "
                f"Do={self.observed:.4g}, De={self.expected:.4g}, items={self.items}, "
                f"coders={self.coders})")

    @property
    def A_o(self) -> float:
        """Observed agreement, 1 − Do (of unweighted coefficients: the share of agreeing
        judgement pairs).
        """
        return 1.0 - self.observed

    @property
    def A_e(self) -> float:
        """Expected (chance) agreement, 1 − De, under the coefficient's chance model."""
        return 1.0 - self.expected

    @property
    def p_a(self) -> float:
        """Gwet's (2014) percent agreement p_a: A_o = 1 − Do (with d = 1 − w)."""
        return self.A_o

    @property
    def p_e(self) -> float:
        """Gwet's (2014) percent chance agreement p_e: A_e = 1 − De (with d = 1 − w)."""
        return self.A_e

    def confidence_interval(self, level: float = 0.95, method: str = "bootstrap", *,
                            n_resamples: int = 1000, cluster: bool | None = None,
                            seed: int | None = 0, interval: str = "percentile",
                            over: str = "units", progress=None,
                            population: float = float("inf")) -> Interval:
        """A confidence interval for this coefficient.

        Parameters
        ----------
        level : float, default 0.95
            The interval's coverage.
        method : {"bootstrap", "analytic"}
            ``bootstrap`` resamples items, or clusters of items (``data.groups``, e.g. documents,
            by default when the data have groups), reproducibly for a given ``seed``.
            ``analytic``: Gwet's (2014) variance, conditional on the coders, for AC1/AC2,
            Brennan–Prediger (S), Conger's κ, Fleiss's κ (α′) and Krippendorff's α, with the
            finite-population correction 1 − n/``population``; Cohen κ's asymptotic interval
            (two coders, Fleiss, Cohen & Everitt 1969); multi-π's SE under H0 (Fleiss, Nee &
            Landis 1979).
        n_resamples : int, default 1000
            Bootstrap replicates.
        cluster : bool, optional
            True: resample the data's groups; False: resample items; None: groups when the data
            have them.
        seed : int, optional, default 0
            The random seed (None: a different interval on every run).
        interval : {"percentile", "bca", "jackknife"}
            The bootstrap interval: percentile, or bias-corrected and accelerated (Efron 1987);
            or the jackknife over the same units (leave one out, a t interval; Hughes 2022).
        over : {"units", "coders", "both"}, default "units"
            What was sampled: the units (the coders fixed), the coders, or both (the
            jackknife only; Gwet 2008; see :class:`~corpusagree.stats.inference.Bootstrap`).
        progress : callable, optional
            Called with (replicates done, replicates in all).
        population : float, default inf
            The size of the population the items were sampled from (analytic intervals).

        Returns
        -------
        Interval
            ``low``, ``high``, the bootstrap ``distribution`` and Krippendorff's ``q``
            (the share of replicates below .667 and .8), or the analytic ``se``.

        Raises
        ------
        ValueError
            For a result not computed from reliability data, an unknown method, or a coefficient
            with no interval of that method.

        References
        ----------
        .. [1] Hayes, A. F. and Krippendorff, K. (2007). Answering the call for a standard
           reliability measure for coding data. Communication Methods and Measures 1(1).
        .. [2] Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., ch. 5.

        Examples
        --------
        >>> import corpusagree as ca
        >>> data = ca.ReliabilityData.from_contingency([[46, 6, 0], [0, 32, 0], [0, 6, 10]])
        >>> iv = ca.alpha(data).confidence_interval(n_resamples=500, seed=1)
        >>> iv
        Interval(alpha=0.8005, 95% [0.6932, 0.9006], bootstrap percentile)
        >>> ca.kappa(data).confidence_interval(method="analytic")
        Interval(kappa=0.8013, 95% [0.6995, 0.9032], analytic (Fleiss, Cohen & Everitt 1969))
        """
        if self._kernel is None:
            raise ValueError("this result was not computed from reliability data")
        if method == "analytic":
            return analytic(self._kernel.data, self.id, level, distance=self._kernel.distance,
                            population=population)
        if method != "bootstrap":
            raise ValueError("method must be 'bootstrap' or 'analytic'")
        settings = Bootstrap(n_resamples, level, interval, cluster, seed, over)
        return bootstrap(self._kernel.data, [(self.id, self._kernel.distance)], settings,
                         progress=progress)[0]

    def to_dict(self) -> dict:
        """The result as plain data: id, symbol, distance, value, Do, De, counts,
        definition and the scalar ``details``.
        """
        out = {k: getattr(self, k) for k in ("id", "symbol", "distance", "value", "observed",
                                             "expected", "items", "coders", "pairable_values",
                                             "definition")}
        out.update({k: v for k, v in self.details.items() if np.isscalar(v)})
        return out

    as_dict = to_dict

    def to_frame(self):
        """The result as a one-row pandas DataFrame (pandas is optional and imported
        here).
        """
        return frame([self])


class Results(list):
    """Several coefficients (a list of :class:`Result`), as :func:`table` returns them.

    Parameters
    ----------
    iterable : iterable of Result, optional
        The coefficients.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
    ...                                          ("B", 2, "x"), ("A", 3, "y"), ("B", 3, "y")])
    >>> rows = ca.table(data)
    >>> round(rows.get("kappa").value, 4)
    0.4
    >>> [r.id for r in rows][:4]
    ['percent_agreement', 'S', 'pi', 'kappa']
    """

    def get(self, id: str, distance: str | None = None) -> Result:
        """The result of coefficient ``id``.

        Parameters
        ----------
        id : str
            A coefficient id (``alpha``, ``kappa`` …).
        distance : str, optional
            The distance's name, when the list holds the coefficient under several.

        Returns
        -------
        Result

        Raises
        ------
        KeyError
            When no result matches; the message lists those there are.
        """
        for r in self:
            if r.id == id and (distance is None or r.distance == distance):
                return r
        raise KeyError(f"no {id}" + ("" if distance is None else f" under {distance}")
                       + f"; listed: {', '.join(f'{r.id} ({r.distance})' for r in self)}")

    def to_dict(self) -> list[dict]:
        """Each result's :meth:`Result.to_dict`, in order."""
        return [r.to_dict() for r in self]

    def to_frame(self):
        """One row per result as a pandas DataFrame (pandas is optional)."""
        return frame(self)


def _caller() -> int:
    """The ``stacklevel`` of a warning that blames the first caller outside corpusagree (the
    user's line, however many checks and conversions lie between)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _warn_undefined(name: str, why: str = "every judgement has the same label, or the "
                    "distance is 0 between all used labels") -> None:
    warnings.warn(f"{name}: expected disagreement is 0 ({why}), so the coefficient is "
                  "undefined; returning nan", DegenerateWarning, stacklevel=_caller())


@checked(COEFFICIENT, DATA, DISTANCE, CATEGORIES)
def compute(coefficient: str, data: DataLike, distance=None, categories=None) -> Result:
    """Any coefficient of :data:`corpusagree.COEFFICIENTS` by its id.

    The named functions (:func:`alpha`, :func:`kappa` …) call this; the bootstrap and the
    reports do too, so every coefficient is computed the one way.

    Parameters
    ----------
    coefficient : str
        The id (``alpha``, ``alpha_prime``, ``beta``, ``pi``, ``kappa``, ``multi_kappa``,
        ``kappa_w``, ``light_kappa``, ``S``, ``percent_agreement``, ``bias``, ``gwet_ac1``,
        ``gwet_ac2``, ``brennan_prediger``, ``conger_kappa`` …; ``list(ca.COEFFICIENTS)``).
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    distance : optional
        The distance (:func:`corpusagree.distances.get`); nominal when omitted. Unweighted
        coefficients take only the nominal distance.
    categories : sequence, optional
        The declared categories, for the coefficients whose chance model counts them (S, AC1).

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Raises
    ------
    KeyError
        For an unknown id.
    ValueError
        For a distance an unweighted coefficient cannot take, a distance outside [0, 1] for
        AC2, a two-coder coefficient on other data, too few coders.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    table : every applicable coefficient at once.

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> round(ca.compute("beta", data).value, 4)
    0.8013
    """
    data = ReliabilityData.coerce(data)
    c = sp.get(coefficient)
    d = dist.get(sp.distance_for(c, data, distance))
    if not c.weighted and d.weighted and c.distance is None:
        raise ValueError(f"{c.id} is unweighted; use alpha/alpha_prime/beta for a distance")
    if c.bounded and not d.bounded:
        raise ValueError(f"{c.symbol} needs weights w = 1 − d in [0, 1], and the {d.name} "
                         "distance is not within [0, 1]; use irrCAC's weights (weights="
                         "'quadratic', 'linear', …) or a set distance")
    k = kernel(data, d)
    if c.two_coders and k.n_coders != 2:
        raise ValueError(f"{c.id} is defined for exactly two coders and the data have "
                         f"{k.n_coders}; use multi_kappa (Davies & Fleiss), light_kappa "
                         "(mean pairwise Cohen κ) or beta for more coders")
    if c.value == "pairs_mean":
        return _light(k, c)
    kinds = sp.expected_kinds(c)
    if "individual" in kinds and k.n_coders < 2:
        raise ValueError("β and κ need judgements from at least two coders")
    st = k.stats(kinds)
    details: dict = {}
    if c.expected in ("uniform", "gwet"):
        q, t = k.category_terms(categories)
        if categories is not None:  # declared on the data, so intervals see the same q
            k = kernel(dataclasses.replace(data, categories=list(categories)), d)
        st = dataclasses.replace(st, categories=np.array([float(q)]),
                                 category_cross=np.array([t]))
        details = {"categories": q,
                   "categories_declared": categories is not None or data.categories is not None}
    value = float(sp.evaluate(c, st)[0])
    do = float(st.observed(c.observed)[0]) if c.observed else float("nan")
    de = float(st.expected(c.expected)[0]) if c.expected else float("nan")
    if c.value == "ratio" and de == 0:
        if c.expected == "multivalued":
            _warn_undefined(c.symbol, "every pairable judgement is the same set of values")
        else:
            _warn_undefined(c.label(k.n_coders))
    if c.value == "bias":
        details = {"De_alpha_prime": float(st.expected("single")[0]),
                   "De_beta": float(st.expected("individual")[0])}
    return Result(c.id, c.label(k.n_coders), value, do, de, k.distance.name,
                  int(st.n_pairable[0]), k.n_coders, int(st.n_values[0]),
                  c.definition, details, k)


def _light(k: Kernel, c: sp.Coefficient) -> Result:
    """Light's κ: the mean of Cohen's κ (κw under a distance) over coder pairs, each pair on the
    items both coded."""
    codes = k.data.codes[k.valid.sum(1) > 0]
    r, s = np.triu_indices(codes.shape[0], 1)
    do, de, shared = shared_item_pairs(codes[r], codes[s], k.metric, k.data.n_labels)
    keep = shared > 0
    if not keep.any():
        raise ValueError("no two coders judged a common item")
    kappas = chance_corrected(do[keep], de[keep])
    if np.isnan(kappas).any():
        warnings.warn("light_kappa: some coder pairs have zero expected disagreement; "
                      "they are left out of the mean", DegenerateWarning, stacklevel=_caller())
    value = float(np.nanmean(kappas)) if (~np.isnan(kappas)).any() else float("nan")
    st = k.stats(())
    return Result(c.id, c.symbol, value, float(do[keep].mean()), float(de[keep].mean()),
                  k.distance.name, int(st.n_pairable[0]), k.n_coders,
                  int(st.n_values[0]), c.definition, {"pairs": int(keep.sum())}, k)


@takes_data()
def percent_agreement(data: DataLike) -> Result:
    """Observed agreement A_o: the mean share of agreeing judgement pairs per item.

    With missing judgements the mean is over the items with at least two judgements, each
    item's share over its own pairs (Artstein & Poesio 2005, §5.1). Not chance-corrected: it
    rises with a skewed label distribution, which is why the chance-corrected coefficients
    exist.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    See Also
    --------
    alpha, kappa : the chance-corrected coefficients.

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> ca.percent_agreement(data).value
    0.88
    """
    return compute("percent_agreement", data)


@takes_data(CATEGORIES)
def S(data: DataLike, categories=None) -> Result:
    """Bennett, Alpert & Goldstein's (1954) S: chance agreement 1/q over q categories.

    Every category is taken as equally likely by chance: A_e = 1/q, with q the declared
    categories (else the labels used). Also known as Brennan & Prediger's κ_n and Randolph's
    free-marginal κ (Artstein & Poesio 2005, §2.2).

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    categories : sequence, optional
        The q possible categories (default: the data's declared categories, else the labels
        used); a label outside them is an error.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    randolph_kappa, brennan_prediger : the same coefficient by other names.

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.
    .. [2] Bennett, E. M., Alpert, R. and Goldstein, A. C. (1954). Communications through limited
       response questioning. Public Opinion Quarterly 18(3).

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> round(ca.S(data).value, 4)
    0.82
    >>> round(ca.S(data, categories=['Stat', 'IReq', 'Chck', 'Other']).value, 4)
    0.84
    """
    return compute("S", data, categories=categories)


@takes_data(WEIGHTS, CATEGORIES)
def pi(data: DataLike, weights=None, categories=None) -> Result:
    """Scott's (1955) π, multi-π with more than two coders (Fleiss 1971).

    Chance agreement from one label distribution pooled over all coders: A_e = Σ_k P̂(k)²
    (Artstein & Poesio 2005, §2.2; multi-π, §2.4, which Siegel & Castellan call K and Fleiss
    1971 κ). With ``weights`` it is the weighted π, α′ (§2.5), listed as the row
    ``alpha_prime``.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    weights : str or distance, optional
        Weighted π (α′) under irrCAC's weights by name or any distance
        (:func:`corpusagree.distances.weights`).
    categories : sequence, optional
        The q possible categories, the order of a matrix of agreement weights.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    fleiss_kappa : the same with irrCAC's weights.
    alpha_prime : the same, weighted.
    kappa : one distribution per coder.

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.
    .. [2] Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale coding.
       Public Opinion Quarterly 19(3).
    .. [3] Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
       Bulletin 76(5).

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> r = ca.pi(data)
    >>> round(r.value, 4), round(r.A_e, 4)
    (0.7995, 0.4014)
    """
    if weights is None:
        return compute("pi", _declare(data, categories))
    return _renamed(compute("alpha_prime", _declare(data, categories),
                            _weights(weights, data, categories)), "π_w")


@takes_data()
def kappa(data: DataLike) -> Result:
    """Cohen's (1960) κ for two coders.

    Chance agreement from each coder's own label distribution: A_e = Σ_k P̂(k|c₁) P̂(k|c₂)
    (Artstein & Poesio 2005, §2.3). For more coders use :func:`multi_kappa` (Davies & Fleiss),
    :func:`conger_kappa` or :func:`light_kappa`; κ with a distance is :func:`kappa_w`.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Raises
    ------
    ValueError
        When the data do not have exactly two coders.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    pi : one pooled distribution.
    beta : κ's chance model with any distance and coders.
    kappa_max : the largest κ the marginals allow.

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.
    .. [2] Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
       Psychological Measurement 20(1).

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> r = ca.kappa(data)
    >>> round(r.value, 4), round(r.A_e, 3)
    (0.8013, 0.396)
    """
    return compute("kappa", data)


@takes_data()
def kappa_max(data: DataLike) -> float:
    """The largest Cohen's κ that the two coders' label distributions allow.

    κ_max = (p_max − p_e)/(1 − p_e) with p_max = Σ_k min(p₁ₖ, p₂ₖ), on the items both coded
    (Cohen 1960): how far κ could rise with these marginals. A κ far below κ_max with
    marginals that differ much says the coders use the categories differently.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.

    Returns
    -------
    float
        κ_max (nan when p_e = 1).

    Raises
    ------
    ValueError
        When the data do not have two coders, or no item was judged by both.

    See Also
    --------
    kappa

    References
    ----------
    .. [1] Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
       Psychological Measurement 20(1).
    .. [2] Sim, J. and Wright, C. C. (2005). The kappa statistic in reliability studies. Physical
       Therapy 85(3).

    Examples
    --------
    >>> import corpusagree as ca
    >>> pairs = ca.ReliabilityData.from_contingency([[10, 2], [3, 15]])
    >>> round(ca.kappa(pairs).value, 4), round(ca.kappa_max(pairs), 4)
    (0.6575, 0.9315)
    """
    codes = data.codes
    if codes.shape[0] != 2:
        raise ValueError(f"κ_max is defined for two coders; the data have {codes.shape[0]}")
    both = (codes >= 0).all(0)
    if not both.any():
        raise ValueError("no item judged by both coders")
    p = np.stack([np.bincount(c[both], minlength=data.n_labels) for c in codes]) / both.sum()
    p_e = float((p[0] * p[1]).sum())
    p_max = float(np.minimum(p[0], p[1]).sum())
    return float("nan") if p_e == 1 else (p_max - p_e) / (1 - p_e)


@takes_data()
def multi_kappa(data: DataLike) -> Result:
    """Davies & Fleiss's (1982) multi-κ: κ's chance model for any number of coders.

    Chance agreement averages, over coder pairs, the agreement of the two coders' own label
    distributions (Artstein & Poesio 2005, §2.4); with two coders it is Cohen's κ. This is β
    under the nominal distance.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    kappa, conger_kappa, beta

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.
    .. [2] Davies, M. and Fleiss, J. L. (1982). Measuring agreement for multinomial data.
       Biometrics 38(4).

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> round(ca.multi_kappa(data).value, 4)
    0.8013
    """
    return compute("multi_kappa", data)


@takes_data(DISTANCE)
def kappa_w(data: DataLike, distance="interval") -> Result:
    """Cohen's (1968) weighted κ for two coders.

    κ's chance model (each coder's own distribution) with a distance between labels; it is β
    with two coders (Artstein & Poesio 2005, §2.5, §2.7).

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    distance : str, Distance, mapping, array or callable, default "interval"
        The distance between labels (:func:`corpusagree.distances.get`): a name
        (``nominal``, ``ordinal``, ``interval``, ``ratio``, the set distances ``jaccard``,
        ``dice``, ``masi``, ``passonneau``), a :class:`~corpusagree.distances.Matrix`, a
        ``{(a, b): d}`` mapping, a square array with its labels or a function of two labels.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Raises
    ------
    ValueError
        When the data do not have exactly two coders.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    beta : the same for any number of coders.

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.
    .. [2] Cohen, J. (1968). Weighted kappa: nominal scale agreement with provision for scaled
       disagreement or partial credit. Psychological Bulletin 70(4).

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> w = ca.distances.Matrix({("Stat", "IReq"): 1, ("Stat", "Chck"): .5,
    ...                          ("IReq", "Chck"): .5})
    >>> round(ca.kappa_w(data, w).value, 4)
    0.8163
    """
    return compute("kappa_w", data, distance)


@takes_data(DISTANCE)
def light_kappa(data: DataLike, distance="nominal") -> Result:
    """Light's (1971) κ: the mean of Cohen's κ over the coder pairs.

    Each pair's κ (κw under a distance) on the items both coded, then their mean; what NLTK
    calls ``kappa``. Pairs with zero expected disagreement are left out of the mean, with a
    warning. It has no bootstrap interval.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    distance : str, Distance, mapping, array or callable, default "nominal"
        The distance between labels (:func:`corpusagree.distances.get`): a name
        (``nominal``, ``ordinal``, ``interval``, ``ratio``, the set distances ``jaccard``,
        ``dice``, ``masi``, ``passonneau``), a :class:`~corpusagree.distances.Matrix`, a
        ``{(a, b): d}`` mapping, a square array with its labels or a function of two labels.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Raises
    ------
    ValueError
        When no two coders judged a common item.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    multi_kappa, conger_kappa

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.
    .. [2] Light, R. J. (1971). Measures of response agreement for qualitative data. Psychological
       Bulletin 76(5).

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> round(ca.light_kappa(data).value, 4)
    0.8013
    """
    return compute("light_kappa", data, distance)


@takes_data(DISTANCE)
def alpha(data: DataLike, distance="nominal") -> Result:
    """Krippendorff's α with any distance and missing data.

    α = 1 − Do/De, Do the disagreement of the values within items, each item weighted by its
    number of pairable values, De the disagreement of all pairable values pooled, drawn without
    replacement (the n·(n − 1) pairs of Krippendorff 2011); chance is one distribution for all
    coders. Equal to the ``krippendorff`` package's alpha. α′ (:func:`alpha_prime`) is Artstein
    & Poesio's version with pairs drawn with replacement; β (:func:`beta`) gives each coder
    their own distribution.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    distance : str, Distance, mapping, array or callable, default "nominal"
        The distance between labels (:func:`corpusagree.distances.get`): a name
        (``nominal``, ``ordinal``, ``interval``, ``ratio``, the set distances ``jaccard``,
        ``dice``, ``masi``, ``passonneau``), a :class:`~corpusagree.distances.Matrix`, a
        ``{(a, b): d}`` mapping, a square array with its labels or a function of two labels.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Raises
    ------
    ValueError
        When the distance does not know a label (a weight matrix without it, a non-number under
        interval or ratio).

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    alpha_prime, beta, table

    References
    ----------
    .. [1] Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
       for Communication, University of Pennsylvania.
    .. [2] Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology, 2nd ed.,
       ch. 11. Sage.
    .. [3] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> round(ca.alpha(data).value, 4)
    0.8005
    >>> w = ca.distances.Matrix({("Stat", "IReq"): 1, ("Stat", "Chck"): .5,
    ...                          ("IReq", "Chck"): .5})
    >>> r = ca.alpha(data, w)
    >>> round(r.value, 4), round(r.expected, 4)
    (0.8156, 0.4879)
    """
    return compute("alpha", data, distance)


@takes_data(DISTANCE)
def mv_alpha(data: DataLike, distance="nominal") -> Result:
    """Krippendorff & Craggs's (2016) multi-valued α (mvα) of set-valued labels.

    A coder's judgement of a unit is a set of values; the empty set ("none of these") is a
    value, distinct from a missing judgement. Only units with at least two judgements count.
    D_o is α's observed disagreement with ``δ(C, K) = 1 − 2|C∩K| / (|C| + |K|)`` between sets
    (the Dice distance; 0 for two empty sets, 1 for the empty set against another); D_e
    pairs every set that could be formed from the values the coders used, sets of each size
    as often as the coders wrote them, each pair weighted by the product of its values'
    frequencies (§4; :mod:`corpusagree.stats.mvalpha`). mvα = 1 − D_o/D_e.

    Parameters
    ----------
    data : ReliabilityData
        Set-valued reliability data (``from_triples`` with frozensets, ``--set-sep``).
    distance : str, optional
        The level of measurement of the values: only ``"nominal"`` (the default) is offered.

    Returns
    -------
    Result
        ``value``, ``observed`` (D_o), ``expected`` (D_e), ``items`` (the pairable units);
        ``confidence_interval()`` bootstraps units, or documents when the data have groups.

    Raises
    ------
    ValueError
        Labels that are not sets; no unit with two judgements; an ordinal, interval or ratio
        level (the R package mvalpha's are inconsistent unless the values are exactly 1 … V).

    Warns
    -----
    DegenerateWarning
        When every pairable judgement is the same set (D_e = 0): the value is nan.

    Notes
    -----
    With one value per set, mvα is α nominal. α under the Dice distance has the same D_o; its
    D_e pairs the sets the coders wrote, each a category, where mvα's recombines their values
    (sizes as written, values as frequent as used). The two differ where the written sets are
    more, or less, alike than free recombinations of their values: a value in almost every
    set, or values that always come together, is chance agreement to α and agreement to mvα.

    References
    ----------
    Krippendorff, K., & Craggs, R. (2016). The reliability of multi-valued coding of data.
    Communication Methods and Measures, 10(4), 181–198, §3–4.

    Examples
    --------
    The paper's Table 3: 4 units, 3 observers, an empty set, missing judgements and a unit
    only one observer coded.

    >>> import corpusagree as ca
    >>> F, G, H = "F", "G", "H"
    >>> data = ca.ReliabilityData.from_triples([
    ...     (F, 1, {"b", "d"}), (G, 1, {"d"}),
    ...     (F, 2, {"a", "b", "d"}), (G, 2, {"b"}), (H, 2, {"b", "d"}),
    ...     (F, 3, set()), (G, 3, {"a"}), (H, 3, {"a"}),
    ...     (F, 4, {"a"})])
    >>> r = ca.mv_alpha(data)
    >>> round(r.value, 5), r.observed * 80, round(r.expected * 1760, 9), r.items
    (0.28659, 37.0, 1141.0, 3)
    """
    return compute("mv_alpha", data, distance)


@takes_data(DISTANCE)
def alpha_prime(data: DataLike, distance="nominal") -> Result:
    """Artstein & Poesio's α′: α with chance agreement from one pooled distribution.

    De = Σ_kl P̂(k) P̂(l) d(k, l), the pooled distribution P̂(k) = (1/i) Σ_i n_ik/n_i (Artstein
    & Poesio 2005, §2.5, §5.1): the weighted π, which irrCAC calls Fleiss's κ
    (:func:`fleiss_kappa`). It differs from Krippendorff's α only by α's sampling without
    replacement.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    distance : str, Distance, mapping, array or callable, default "nominal"
        The distance between labels (:func:`corpusagree.distances.get`): a name
        (``nominal``, ``ordinal``, ``interval``, ``ratio``, the set distances ``jaccard``,
        ``dice``, ``masi``, ``passonneau``), a :class:`~corpusagree.distances.Matrix`, a
        ``{(a, b): d}`` mapping, a square array with its labels or a function of two labels.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    alpha, beta, pi

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> w = ca.distances.Matrix({("Stat", "IReq"): 1, ("Stat", "Chck"): .5,
    ...                          ("IReq", "Chck"): .5})
    >>> round(ca.alpha_prime(data, w).value, 4)
    0.8146
    """
    return compute("alpha_prime", data, distance)


@takes_data(DISTANCE)
def beta(data: DataLike, distance="nominal") -> Result:
    """Artstein & Poesio's β: α with each coder's own label distribution.

    De averages, over coder pairs (weighted P̂(c_m) P̂(c_n)), the expected distance of the two
    coders' own distributions P̂(k|c) = n_ck/n_c (Artstein & Poesio 2005, §2.7, §5.1): κ's
    chance model with any distance and any number of coders (κw for two coders, multi-κ under
    the nominal distance).

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    distance : str, Distance, mapping, array or callable, default "nominal"
        The distance between labels (:func:`corpusagree.distances.get`): a name
        (``nominal``, ``ordinal``, ``interval``, ``ratio``, the set distances ``jaccard``,
        ``dice``, ``masi``, ``passonneau``), a :class:`~corpusagree.distances.Matrix`, a
        ``{(a, b): d}`` mapping, a square array with its labels or a function of two labels.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Raises
    ------
    ValueError
        When fewer than two coders judged anything.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    alpha_prime, bias, kappa_w

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.
    .. [2] Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
       Computational Linguistics 34(4), 555–596.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> w = ca.distances.Matrix({("Stat", "IReq"): 1, ("Stat", "Chck"): .5,
    ...                          ("IReq", "Chck"): .5})
    >>> r = ca.beta(data, w)
    >>> round(r.value, 4), round(r.expected, 2)
    (0.8163, 0.49)
    """
    return compute("beta", data, distance)


@takes_data(DISTANCE)
def bias(data: DataLike, distance="nominal") -> Result:
    """The coders' bias B = De^β − De^α′: how much their label distributions differ.

    Under the nominal distance B = A_e^π − A_e^κ (Artstein & Poesio 2005, §3, appendix A).
    Appendix B writes the weighted bias as D_e^α′ − D_e^β, the negative of appendix A's B =
    A_e^π − A_e^κ under the nominal distance (its own algebra shows this); we keep the sign of
    appendix A so that B ≥ 0 for nominal data and the two definitions agree. With missing data
    or a distance that is not conditionally negative definite B can be slightly negative.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    distance : str, Distance, mapping, array or callable, default "nominal"
        The distance between labels (:func:`corpusagree.distances.get`): a name
        (``nominal``, ``ordinal``, ``interval``, ``ratio``, the set distances ``jaccard``,
        ``dice``, ``masi``, ``passonneau``), a :class:`~corpusagree.distances.Matrix`, a
        ``{(a, b): d}`` mapping, a square array with its labels or a function of two labels.

    Returns
    -------
    Result
        ``value`` is B; ``details`` holds ``De_alpha_prime`` and ``De_beta``.

    See Also
    --------
    alpha_prime, beta

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> round(ca.bias(data).value, 4)       # .4014 − .396
    0.0054
    """
    return compute("bias", data, distance)


# ---- Gwet's (2014) family, with irrCAC's weights --------------------------------------------
def _declare(data: ReliabilityData, categories) -> ReliabilityData:
    """The data with ``categories`` declared (q, and the categories irrCAC's weights span)."""
    if categories is None:
        return data
    kernel(data, None).categories(categories)  # checks the labels are among them
    return dataclasses.replace(data, categories=list(categories))


def _weights(weights, data: ReliabilityData, categories) -> dist.Distance:
    """irrCAC's ``weights=`` as a distance d = 1 − w; a q × q matrix is over ``categories``,
    else the data's declared categories (:func:`corpusagree.stats.distances.weights`)."""
    return dist.weights(weights, data.categories if categories is None else categories)


def _renamed(result: Result, symbol: str) -> Result:
    return dataclasses.replace(result, symbol=symbol)


@takes_data(CATEGORIES)
def gwet_ac1(data: DataLike, categories=None) -> Result:
    """Gwet's AC1: chance agreement that shrinks when one category dominates.

    A_e = Σ_k π_k(1 − π_k)/(q − 1), π_k the pooled share of category k and q the number of
    categories, for any number of coders, with missing judgements as in Gwet (2014). Where π
    and κ fall with a skewed distribution despite high observed agreement (the 'kappa
    paradox'), AC1 stays near A_o. Values and standard errors equal irrCAC's.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    categories : sequence, optional
        The q possible categories (default: the data's declared categories, else the labels
        used); a label outside them is an error.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    See Also
    --------
    gwet_ac2 : AC1 with weights; pi, kappa

    References
    ----------
    .. [1] Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
       of high agreement. British Journal of Mathematical and Statistical Psychology 61(1).
    .. [2] Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics. Ch.
       4.

    Examples
    --------
    >>> import numpy as np
    >>> import corpusagree as ca
    >>> nan = np.nan
    >>> ratings = np.array([[1, 1, nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3],
    ...                     [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1],
    ...                     [2, 2, 2, 2], [nan, 5, 5, 5], [nan, nan, 1, 1], [nan, nan, 3, nan]])
    >>> data = ca.ReliabilityData.from_matrix(ratings.T)   # Gwet (2014): 12 units × 4 raters
    >>> r = ca.gwet_ac1(data)
    >>> round(r.value, 5), round(r.p_e, 5)
    (0.77544, 0.19032)
    >>> round(r.confidence_interval(method='analytic').se, 5)
    0.14295
    """
    return compute("gwet_ac1", _declare(data, categories))


@takes_data(WEIGHTS, CATEGORIES)
def gwet_ac2(data: DataLike, weights="quadratic", categories=None) -> Result:
    """Gwet's AC2: AC1 with weights between categories.

    AC1's chance model under a weight (1 − distance) within [0, 1] (Gwet 2014, ch. 4).

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    weights : str or distance, default "quadratic"
        One of irrCAC's weights by name (``identity``, ``quadratic``, ``linear``,
        ``ordinal``, ``radical``, ``ratio``, ``circular``, ``bipolar``), defined on the
        category values as irrCAC defines them, a q × q matrix of agreement weights in the
        order of ``categories`` (asymmetric ones as irrCAC applies them:
        :class:`~corpusagree.distances.AgreementWeights`), or any corpusagree distance
        (:func:`corpusagree.distances.weights`).
    categories : sequence, optional
        The q possible categories (default: the data's declared categories, else the labels
        used); a label outside them is an error.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Raises
    ------
    ValueError
        For a distance outside [0, 1] (use irrCAC's weights or a set distance).

    See Also
    --------
    gwet_ac1

    References
    ----------
    .. [1] Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics. Ch.
       4.

    Examples
    --------
    >>> import numpy as np
    >>> import corpusagree as ca
    >>> nan = np.nan
    >>> ratings = np.array([[1, 1, nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3],
    ...                     [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1],
    ...                     [2, 2, 2, 2], [nan, 5, 5, 5], [nan, nan, 1, 1], [nan, nan, 3, nan]])
    >>> data = ca.ReliabilityData.from_matrix(ratings.T)   # Gwet (2014): 12 units × 4 raters
    >>> round(ca.gwet_ac2(data, weights='bipolar').value, 5)
    0.90037
    >>> data = ca.ReliabilityData.from_matrix([["a", "a", "b", "c"], ["a", "b", "b", "c"]])
    >>> w = [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]       # a for b half agrees; b for a not
    >>> round(ca.gwet_ac2(data, w, categories=["a", "b", "c"]).value, 4)  # irrCAC: 0.696203
    0.6962
    """
    return compute("gwet_ac2", _declare(data, categories),
                   _weights(weights, data, categories))


@takes_data(WEIGHTS, CATEGORIES)
def brennan_prediger(data: DataLike, weights="identity", categories=None) -> Result:
    """Brennan & Prediger's (1981) coefficient, with weights.

    Chance agreement A_e = Σ_kl w_kl / q² over the q categories (Gwet 2014, ch. 4): every
    category equally likely; with identity weights it is S.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    weights : str or distance, default "identity"
        One of irrCAC's weights by name (``identity``, ``quadratic``, ``linear``,
        ``ordinal``, ``radical``, ``ratio``, ``circular``, ``bipolar``), defined on the
        category values as irrCAC defines them, a q × q matrix of agreement weights in the
        order of ``categories`` (asymmetric ones as irrCAC applies them:
        :class:`~corpusagree.distances.AgreementWeights`), or any corpusagree distance
        (:func:`corpusagree.distances.weights`).
    categories : sequence, optional
        The q possible categories (default: the data's declared categories, else the labels
        used); a label outside them is an error.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    S, randolph_kappa

    References
    ----------
    .. [1] Brennan, R. L. and Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
       alternatives. Educational and Psychological Measurement 41(3).
    .. [2] Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics. Ch.
       4.

    Examples
    --------
    >>> import numpy as np
    >>> import corpusagree as ca
    >>> nan = np.nan
    >>> ratings = np.array([[1, 1, nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3],
    ...                     [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1],
    ...                     [2, 2, 2, 2], [nan, 5, 5, 5], [nan, nan, 1, 1], [nan, nan, 3, nan]])
    >>> data = ca.ReliabilityData.from_matrix(ratings.T)   # Gwet (2014): 12 units × 4 raters
    >>> round(ca.brennan_prediger(data).value, 4) == round(ca.S(data).value, 4)
    True
    """
    return compute("brennan_prediger", _declare(data, categories),
                   _weights(weights, data, categories))


@takes_data(CATEGORIES)
def randolph_kappa(data: DataLike, categories=None) -> Result:
    """Randolph's (2005) free-marginal multirater κ: A_e = 1/q.

    Bennett et al.'s S under another name (the row ``S``): pass the q possible ``categories``,
    not only those used.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    categories : sequence, optional
        The q possible categories (default: the data's declared categories, else the labels
        used); a label outside them is an error.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    S, brennan_prediger

    References
    ----------
    .. [1] Randolph, J. J. (2005). Free-marginal multirater kappa: an alternative to Fleiss' fixed-
       marginal multirater kappa. Joensuu Learning and Instruction Symposium.

    Examples
    --------
    >>> import numpy as np
    >>> import corpusagree as ca
    >>> nan = np.nan
    >>> ratings = np.array([[1, 1, nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3],
    ...                     [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1],
    ...                     [2, 2, 2, 2], [nan, 5, 5, 5], [nan, nan, 1, 1], [nan, nan, 3, nan]])
    >>> data = ca.ReliabilityData.from_matrix(ratings.T)   # Gwet (2014): 12 units × 4 raters
    >>> r = ca.randolph_kappa(data, categories=range(1, 6))
    >>> r.symbol, round(r.value, 4)
    ('κ_free', 0.7727)
    """
    return _renamed(compute("S", _declare(data, categories)), "κ_free")


@takes_data(WEIGHTS, CATEGORIES)
def conger_kappa(data: DataLike, weights="identity", categories=None) -> Result:
    """Conger's (1980) κ for any number of coders.

    A_e is the mean over pairs of coders of Cohen's chance agreement, each coder's distribution
    over their own judgements (Gwet 2014, ch. 5); for two coders it is Cohen's κ (κw with
    weights).

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    weights : str or distance, default "identity"
        One of irrCAC's weights by name (``identity``, ``quadratic``, ``linear``,
        ``ordinal``, ``radical``, ``ratio``, ``circular``, ``bipolar``), defined on the
        category values as irrCAC defines them, a q × q matrix of agreement weights in the
        order of ``categories`` (asymmetric ones as irrCAC applies them:
        :class:`~corpusagree.distances.AgreementWeights`), or any corpusagree distance
        (:func:`corpusagree.distances.weights`).
    categories : sequence, optional
        The q possible categories (default: the data's declared categories, else the labels
        used); a label outside them is an error.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    multi_kappa, kappa, light_kappa

    References
    ----------
    .. [1] Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
       Psychological Bulletin 88(2).
    .. [2] Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics. Ch.
       5.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    >>> round(ca.conger_kappa(data).value, 4)     # two coders: Cohen's κ
    0.8013
    """
    return compute("conger_kappa", _declare(data, categories),
                   _weights(weights, data, categories))


@takes_data(WEIGHTS, CATEGORIES)
def fleiss_kappa(data: DataLike, weights="identity", categories=None) -> Result:
    """Fleiss's (1971) κ, with weights as in irrCAC.

    A_e = Σ_kl w_kl π_k π_l (Gwet 2014, ch. 5), which is Artstein & Poesio's α′ (the row
    ``alpha_prime``; multi-π when nominal).

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    weights : str or distance, default "identity"
        One of irrCAC's weights by name (``identity``, ``quadratic``, ``linear``,
        ``ordinal``, ``radical``, ``ratio``, ``circular``, ``bipolar``), defined on the
        category values as irrCAC defines them, a q × q matrix of agreement weights in the
        order of ``categories`` (asymmetric ones as irrCAC applies them:
        :class:`~corpusagree.distances.AgreementWeights`), or any corpusagree distance
        (:func:`corpusagree.distances.weights`).
    categories : sequence, optional
        The q possible categories (default: the data's declared categories, else the labels
        used); a label outside them is an error.

    Returns
    -------
    Result
        The value with Do (``observed``), De (``expected``), the items, coders and pairable
        values counted, and the definition; ``float(result)`` is the value and
        :meth:`Result.confidence_interval` gives its interval.

    Warns
    -----
    DegenerateWarning
        When De = 0 (one label only, or the distance is 0 between every used label): the
        value is nan, never a silent 1.

    See Also
    --------
    pi, alpha_prime

    References
    ----------
    .. [1] Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
       Bulletin 76(5).
    .. [2] Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics. Ch.
       5.

    Examples
    --------
    >>> import numpy as np
    >>> import corpusagree as ca
    >>> nan = np.nan
    >>> ratings = np.array([[1, 1, nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3],
    ...                     [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1],
    ...                     [2, 2, 2, 2], [nan, 5, 5, 5], [nan, nan, 1, 1], [nan, nan, 3, nan]])
    >>> data = ca.ReliabilityData.from_matrix(ratings.T)   # Gwet (2014): 12 units × 4 raters
    >>> round(ca.fleiss_kappa(data).value, 5)
    0.76117
    """
    return _renamed(compute("alpha_prime", _declare(data, categories),
                            _weights(weights, data, categories)),
                    "Fleiss κ")


def table_specs(data: ReliabilityData, distance="nominal", notes: list[str] | None = None
                ) -> list[tuple[str, dist.Distance]]:
    """(coefficient id, distance) of every applicable coefficient: the unweighted family, then
    the family under ``distance`` when it is not nominal, as listed in
    :data:`~corpusagree.stats.spec.COEFFICIENTS` (two-coder coefficients only for two coders;
    AC2 only under a distance within [0, 1]), then on set labels the rows of
    :func:`set_specs` (mvα; a row left out is said in ``notes``)."""
    n = kernel(data, None).n_coders
    d = dist.get(distance)
    specs = [(c.id, dist.get(None)) for c in sp.COEFFICIENTS.values() if c.listed("nominal", n)]
    if d.weighted:
        specs += [(c.id, d) for c in sp.COEFFICIENTS.values() if c.listed("weighted", n)
                  and (d.bounded or not c.bounded)]
    return specs + set_specs(data, notes)


def set_specs(data: ReliabilityData, notes: list[str] | None = None
              ) -> list[tuple[str, dist.Distance]]:
    """(coefficient id, distance) of the rows every table of set labels adds, whatever the
    job: the ``"sets"`` family of :data:`~corpusagree.stats.spec.COEFFICIENTS` (Krippendorff
    & Craggs's mvα, under its own distance); none for plain labels. mvα is left out, with a
    note in ``notes``, when its expected disagreement would cost more than
    :data:`~corpusagree.stats.mvalpha.POINT_BUDGET` (long sets over many values: chains of
    hundreds of mentions).

    Examples
    --------
    >>> import corpusagree as ca
    >>> sets = ca.ReliabilityData.from_triples([("A", 1, {"x"}), ("B", 1, {"x", "y"})])
    >>> [(c, d.name) for c, d in set_specs(sets)]
    [('mv_alpha', 'dice')]
    >>> set_specs(ca.ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "y")]))
    []
    """
    if not data.is_set:
        return []
    k = kernel(data, None)
    out = []
    for c in sp.COEFFICIENTS.values():
        if not c.listed("sets", k.n_coders):
            continue
        if c.expected == "multivalued":
            why = mv.over_budget(*k.margins(k.n_k[None]), 1, mv.POINT_BUDGET)
            if why is not None:
                if notes is not None:
                    notes.append(f"{c.symbol} left out: {why}; corpusagree.mv_alpha(data) "
                                 "computes it in Python")
                continue
        out.append((c.id, dist.get(c.distance)))
    return out


@takes_data(DISTANCE, CATEGORIES)
def table(data: DataLike, distance="nominal", categories=None) -> Results:
    """Every applicable coefficient of the data, in one pass.

    The unweighted family (A_o, S, π, κ or multi-κ, Light's κ, α, α′, β, B, AC1, Conger's κ …),
    then the family under ``distance`` when it is not nominal, as listed in
    :data:`corpusagree.COEFFICIENTS`: two-coder coefficients only for two coders, AC2 only
    under a distance within [0, 1]. The data are counted once; each coefficient reads the same
    sufficient statistics.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Coders × items of labels, missing judgements allowed: reliability data, or a
        coders × items array or nested list (NaN or None missing; numbers are values), as
        the ``krippendorff`` package takes it.
    distance : str, Distance, mapping, array or callable, default "nominal"
        The distance between labels (:func:`corpusagree.distances.get`): a name
        (``nominal``, ``ordinal``, ``interval``, ``ratio``, the set distances ``jaccard``,
        ``dice``, ``masi``, ``passonneau``), a :class:`~corpusagree.distances.Matrix`, a
        ``{(a, b): d}`` mapping, a square array with its labels or a function of two labels.
    categories : sequence, optional
        The categories, for S and AC1 (default: the data's declared categories, else the labels
        used); a label outside them is an error.

    Returns
    -------
    Results
        A list of :class:`Result` with ``get(id, distance)``, ``to_frame()`` and
        ``to_dict()``.

    See Also
    --------
    compute : one coefficient by id.
    corpusagree.analyses.table : the same with intervals and diagnostics, from a file.

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
       University of Essex.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_contingency(    # Artstein & Poesio 2005, §2.8, numbered
    ...     [[46, 6, 0], [0, 32, 0], [0, 6, 10]], [1, 2, 3])
    >>> rows = ca.table(data, "interval")
    >>> [r.id for r in rows if r.distance == "interval"]
    ['kappa_w', 'alpha', 'alpha_prime', 'beta', 'bias', 'brennan_prediger']
    >>> round(rows.get('alpha', 'interval').value, 4)
    0.8783
    """
    return Results(compute(c, data, d, categories) for c, d in table_specs(data, distance))


__all__ = ["CATEGORIES", "COEFFICIENT", "DATA", "DISTANCE", "S", "WEIGHTS", "DataLike",
           "DegenerateWarning", "Result", "Results", "alpha", "alpha_prime", "beta", "bias",
           "brennan_prediger", "compute", "conger_kappa", "fleiss_kappa", "gwet_ac1",
           "gwet_ac2", "kappa", "kappa_max", "kappa_w", "light_kappa", "multi_kappa", "mv_alpha",
           "percent_agreement", "pi", "randolph_kappa", "set_specs", "table", "table_specs",
           "takes_data"]
