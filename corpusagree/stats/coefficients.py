"""The coefficients of Artstein & Poesio's family as functions of reliability data.

Each function evaluates one entry of :data:`corpusagree.stats.spec.COEFFICIENTS` on the
sufficient statistics of :class:`~corpusagree.stats.kernel.Kernel` (one kernel per data and
distance, cached, so a table of every coefficient costs one pass). Every coefficient is
1 − Do/De (Artstein & Poesio 2005, §2.5), equivalently (A_o − A_e)/(1 − A_e) with the nominal
distance.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field

import numpy as np

from ..model.data import ReliabilityData
from ..model.records import frame
from . import distances as dist
from . import mvalpha as mv
from . import spec as sp
from .inference import Bootstrap, Interval, analytic, bootstrap
from .kernel import Kernel, kernel, shared_item_pairs  # noqa: F401  (kernel: re-exported)
from .ratios import chance_corrected


class DegenerateWarning(RuntimeWarning):
    """The coefficient is undefined for these data (expected disagreement is zero)."""


@dataclass(repr=False)
class Result:
    """A coefficient's value with the quantities it was computed from.

    ``observed`` and ``expected`` are the disagreements Do and De; for unweighted coefficients
    A_o = 1 − Do and A_e = 1 − De. ``float(result)`` is the value. ``id`` is the ASCII name
    (``alpha``, ``multi_kappa`` …), ``symbol`` the display name (``α``, ``multi-κ`` …).
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
        return 1.0 - self.observed

    @property
    def A_e(self) -> float:
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
                            progress=None, population: float = float("inf")) -> Interval:
        """A confidence interval for this coefficient.

        ``method="bootstrap"`` resamples items, or clusters (``data.groups``, by default when
        the data have groups; ``cluster=False`` for items), reproducibly for a given ``seed``;
        ``interval`` is ``"percentile"`` or ``"bca"``. ``method="analytic"``: Gwet's (2014)
        variance, conditional on the coders, for AC1/AC2, Brennan–Prediger (S), Conger's κ,
        Fleiss's κ (α′) and Krippendorff's α, with the finite-population correction
        1 − n/``population`` (items sampled from a population of that size; infinite by
        default); Cohen κ's asymptotic interval (two coders); multi-π's SE under H0.
        ``progress`` is called with (replicates done, replicates in all)."""
        if self._kernel is None:
            raise ValueError("this result was not computed from reliability data")
        if method == "analytic":
            return analytic(self._kernel.data, self.id, level, distance=self._kernel.distance,
                            population=population)
        if method != "bootstrap":
            raise ValueError("method must be 'bootstrap' or 'analytic'")
        settings = Bootstrap(n_resamples, level, interval, cluster, seed)
        return bootstrap(self._kernel.data, [(self.id, self._kernel.distance)], settings,
                         progress=progress)[0]

    def to_dict(self) -> dict:
        """The result as plain data (scalars of ``details`` included)."""
        out = {k: getattr(self, k) for k in ("id", "symbol", "distance", "value", "observed",
                                             "expected", "items", "coders", "pairable_values",
                                             "definition")}
        out.update({k: v for k, v in self.details.items() if np.isscalar(v)})
        return out

    as_dict = to_dict

    def to_frame(self):
        """The result as a one-row pandas DataFrame (pandas is optional)."""
        return frame([self])


class Results(list):
    """Several coefficients (a list of :class:`Result`), as :func:`table` returns them, with
    ``to_frame()``, ``to_dict()`` and ``get(id, distance=None)``.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
    ...                                          ("B", 2, "x"), ("A", 3, "y"), ("B", 3, "y")])
    >>> rows = ca.table(data)
    >>> round(rows.get("kappa").value, 4)
    0.4
    """

    def get(self, id: str, distance: str | None = None) -> Result:
        """The result of coefficient ``id`` (under ``distance`` when several are listed)."""
        for r in self:
            if r.id == id and (distance is None or r.distance == distance):
                return r
        raise KeyError(f"no {id}" + ("" if distance is None else f" under {distance}")
                       + f"; listed: {', '.join(f'{r.id} ({r.distance})' for r in self)}")

    def to_dict(self) -> list[dict]:
        """Each result's :meth:`Result.to_dict`."""
        return [r.to_dict() for r in self]

    def to_frame(self):
        """One row per result (pandas is optional)."""
        return frame(self)


def _warn_undefined(name: str, why: str = "every judgement has the same label, or the "
                    "distance is 0 between all used labels") -> None:
    warnings.warn(f"{name}: expected disagreement is 0 ({why}), so the coefficient is "
                  "undefined; returning nan", DegenerateWarning, stacklevel=4)


def compute(coefficient: str, data: ReliabilityData, distance=None, categories=None) -> Result:
    """Any coefficient of :data:`~corpusagree.stats.spec.COEFFICIENTS` by id; unweighted ones
    take the nominal distance (another one is an error)."""
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
                  int(k.pairable.sum()), k.n_coders, int(k.n_i[k.pairable].sum()),
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
                      "they are left out of the mean", DegenerateWarning, stacklevel=3)
    value = float(np.nanmean(kappas)) if (~np.isnan(kappas)).any() else float("nan")
    return Result(c.id, c.symbol, value, float(do[keep].mean()), float(de[keep].mean()),
                  k.distance.name, int(k.pairable.sum()), k.n_coders,
                  int(k.n_i[k.pairable].sum()), c.definition, {"pairs": int(keep.sum())}, k)


def percent_agreement(data: ReliabilityData) -> Result:
    """Observed agreement A_o: mean proportion of agreeing judgement pairs per item
    (Artstein & Poesio 2005, §2.4, §5.1)."""
    return compute("percent_agreement", data)


def S(data: ReliabilityData, categories=None) -> Result:
    """Bennett et al.'s (1954) S: A_e = 1/k, k the declared categories (else those used)."""
    return compute("S", data, categories=categories)


def pi(data: ReliabilityData, weights=None, categories=None) -> Result:
    """Scott's (1955) π; with more than two coders multi-π (Fleiss 1971; Siegel & Castellan's
    K). ``weights`` (irrCAC's names, a q × q agreement-weight matrix over ``categories``, or
    any corpusagree distance): weighted π, which is α′ (Artstein & Poesio 2005, §2.5), the row
    ``alpha_prime``."""
    if weights is None:
        return compute("pi", _declare(data, categories))
    return _renamed(compute("alpha_prime", _declare(data, categories),
                            _weights(weights, data, categories)), "π_w")


def kappa(data: ReliabilityData) -> Result:
    """Cohen's (1960) κ for two coders (Artstein & Poesio 2005, §2.3); multi_kappa for more."""
    return compute("kappa", data)


def kappa_max(data: ReliabilityData) -> float:
    """The largest Cohen's κ the two coders' label distributions allow, (p_max − p_e)/(1 − p_e)
    with p_max = Σ_k min(p_1k, p_2k), on the items both coded (Cohen 1960; Sim & Wright 2005):
    how far κ could rise with these marginals."""
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


def multi_kappa(data: ReliabilityData) -> Result:
    """Davies & Fleiss's (1982) multi-κ: A_e from each coder's own distribution
    (Artstein & Poesio 2005, §2.4)."""
    return compute("multi_kappa", data)


def kappa_w(data: ReliabilityData, distance="interval") -> Result:
    """Cohen's (1968) weighted κ for two coders: β with two coders (Artstein & Poesio 2005,
    §2.5)."""
    return compute("kappa_w", data, distance)


def light_kappa(data: ReliabilityData, distance="nominal") -> Result:
    """Light's (1971) κ: the mean of Cohen's κ (κw under a distance) over coder pairs, each pair
    on the items both coded (what NLTK calls ``kappa``)."""
    return compute("light_kappa", data, distance)


def alpha(data: ReliabilityData, distance="nominal") -> Result:
    """Krippendorff's α: Do weighted by values per item, De over pooled pairable values
    (Krippendorff 2011)."""
    return compute("alpha", data, distance)


def mv_alpha(data: ReliabilityData, distance="nominal") -> Result:
    """Krippendorff & Craggs's (2016) multi-valued α (mvα) of set-valued labels.

    A coder's judgement of a unit is a set of values; the empty set ("none of these") is a
    value, distinct from a missing judgement. Only units with at least two judgements count.
    D_o is α's observed disagreement with δ(C, K) = 1 − 2|C∩K| / (|C| + |K|) between sets
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


def alpha_prime(data: ReliabilityData, distance="nominal") -> Result:
    """Artstein & Poesio's α′: one distribution for all coders (2005, §2.5, §5.1)."""
    return compute("alpha_prime", data, distance)


def beta(data: ReliabilityData, distance="nominal") -> Result:
    """Artstein & Poesio's β: α with each coder's own distribution (2005, §2.7, §5.1)."""
    return compute("beta", data, distance)


def bias(data: ReliabilityData, distance="nominal") -> Result:
    """Bias B = De^β − De^α′ (= A_e^π − A_e^κ with the nominal distance; Artstein & Poesio
    2005, §3, appendix A).

    Appendix B writes the weighted bias as D_e^α′ − D_e^β, the negative of appendix A's
    B = A_e^π − A_e^κ under the nominal distance (its own algebra shows this); we keep the sign
    of appendix A so that B ≥ 0 for nominal data and the two definitions agree.
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


def gwet_ac1(data: ReliabilityData, categories=None) -> Result:
    """Gwet's AC1 (Gwet 2008, Br J Math Stat Psychol 61; Gwet 2014, Handbook of Inter-Rater
    Reliability, 4th ed., ch. 4): A_e = Σ_k π_k(1 − π_k)/(q − 1), any number of coders,
    missing judgements as in Gwet (2014). ``categories``: the q possible categories (default:
    the data's declared categories, else the labels used)."""
    return compute("gwet_ac1", _declare(data, categories))


def gwet_ac2(data: ReliabilityData, weights="quadratic", categories=None) -> Result:
    """Gwet's AC2 (Gwet 2014, ch. 4): AC1 with weights. ``weights``: one of irrCAC's names
    (identity, quadratic, linear, ordinal, radical, ratio, circular, bipolar; see
    :func:`corpusagree.stats.distances.weights`), a q × q matrix of agreement weights in the
    order of ``categories`` (asymmetric ones as irrCAC applies them:
    :class:`~corpusagree.stats.distances.AgreementWeights`) or any corpusagree distance.

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_matrix([["a", "a", "b", "c"], ["a", "b", "b", "c"]])
    >>> w = [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]       # a for b half agrees; b for a not
    >>> round(gwet_ac2(data, w, categories=["a", "b", "c"]).value, 4)  # irrCAC: 0.696203
    0.6962
    """
    return compute("gwet_ac2", _declare(data, categories), _weights(weights, data, categories))


def brennan_prediger(data: ReliabilityData, weights="identity", categories=None) -> Result:
    """Brennan & Prediger's (1981, Educ Psych Meas 41) coefficient with weights:
    A_e = Σ_kl w_kl / q² (Gwet 2014, ch. 4); with identity weights it is S."""
    return compute("brennan_prediger", _declare(data, categories),
                   _weights(weights, data, categories))


def randolph_kappa(data: ReliabilityData, categories=None) -> Result:
    """Randolph's (2005) free-marginal multirater κ: A_e = 1/q, i.e. Brennan–Prediger
    nominal, Bennett et al.'s S (the row ``S``; pass the q possible ``categories``)."""
    return _renamed(compute("S", _declare(data, categories)), "κ_free")


def conger_kappa(data: ReliabilityData, weights="identity", categories=None) -> Result:
    """Conger's (1980, Psych Bull 88) κ for any number of coders: A_e is the mean over pairs
    of coders of Cohen's chance agreement, each coder's distribution over its own judgements
    (Gwet 2014, ch. 5); for two coders it is Cohen's κ (κw with weights)."""
    return compute("conger_kappa", _declare(data, categories),
                   _weights(weights, data, categories))


def fleiss_kappa(data: ReliabilityData, weights="identity", categories=None) -> Result:
    """Fleiss's (1971) κ with weights as in irrCAC (Gwet 2014, ch. 5):
    A_e = Σ_kl w_kl π_k π_l, which is Artstein & Poesio's α′ (the row ``alpha_prime``;
    multi-π when nominal)."""
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


def table(data: ReliabilityData, distance="nominal", categories=None) -> Results:
    """Every applicable coefficient (see :func:`table_specs`), in one pass over the data, as
    :class:`Results` (a list with ``to_frame()``)."""
    return Results(compute(c, data, d, categories) for c, d in table_specs(data, distance))
