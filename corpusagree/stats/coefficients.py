"""Observed and expected disagreement, and every coefficient of the Artstein & Poesio family.

Every coefficient is 1 − Do/De (seed 003 §2.5), equivalently (A_o − A_e)/(1 − A_e) with the
nominal distance. One :class:`Engine` per (data, distance) computes Do and the De variants
once; the named functions are thin views of it.

* Do (A&P, seed 003 §5.1): mean over items with ≥ 2 judgements of the mean pairwise distance.
* Do (Krippendorff α): the same per-item values weighted by the item's number of values
  (seed 004, D_o = Σ_u |u|/|V| D(u)). Both agree when no judgement is missing.
* De:
  - α (Krippendorff): mean distance over all pairs of pooled pairable values, n(n − 1);
  - α′ (A&P §2.5, §5.1): one distribution P̂(k) = (1/i) Σ_i n_ik / n_i, with replacement;
  - β (A&P §2.7, §5.1): per-coder P̂(k|c) = n_ck / n_c, coder pairs weighted by
    P̂(c_m)P̂(c_n); with g = Σ p_c f_c, De = (gᵀDg − Σ p_c² f_cᵀDf_c) / (1 − Σ p_c²);
  - S (Bennett et al. 1954): uniform over the declared (else observed) categories.
* π = nominal α′ (multi-π, Fleiss; Siegel & Castellan's K); κ = nominal β for two coders,
  multi-κ (Davies & Fleiss) for more; κw = β for two coders; bias B = De^β − De^α′.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..model.data import ReliabilityData
from . import distances as dist

#: judgement pairs evaluated at once when computing Do (bounds memory on large corpora)
PAIRS_PER_CHUNK = 250_000


class DegenerateWarning(RuntimeWarning):
    """The coefficient is undefined for these data (expected disagreement is zero)."""


@dataclass
class Result:
    """A coefficient value with the quantities it was computed from.

    ``observed`` and ``expected`` are disagreements (Do, De); for unweighted coefficients
    ``A_o = 1 − Do`` and ``A_e = 1 − De``. ``float(result)`` is the value.
    """

    coefficient: str
    value: float
    observed: float
    expected: float
    distance: str
    items: int
    coders: int
    pairable_values: int
    definition: str
    details: dict = field(default_factory=dict, repr=False)
    #: (engine, coefficient key) the result came from, for confidence_interval()
    source: tuple | None = field(default=None, repr=False, compare=False)

    def __float__(self) -> float:
        return float(self.value)

    def confidence_interval(self, level: float = 0.95, method: str = "bootstrap", *,
                            n_resamples: int = 1000, cluster=None, seed=None,
                            interval: str = "percentile", progress: bool = False):
        """An :class:`~corpusagree.inference.Interval` for this coefficient.

        ``method="bootstrap"`` resamples items, or clusters (``data.groups`` by default when
        the data have groups; ``cluster=False`` for items); ``interval`` is ``"percentile"``
        or ``"bca"``. ``method="analytic"`` gives Cohen κ's asymptotic interval (two coders)
        or multi-π's SE under H0."""
        from . import inference

        if self.source is None:
            raise ValueError("this result was not computed by the engine")
        e, key = self.source
        if method == "analytic":
            return inference.analytic(e.data, key, level)
        if method != "bootstrap":
            raise ValueError("method must be 'bootstrap' or 'analytic'")
        return inference.bootstrap(e.data, key, e.distance, n_resamples=n_resamples,
                                   level=level, cluster=cluster, seed=seed, interval=interval,
                                   progress=progress)

    @property
    def A_o(self) -> float:
        return 1.0 - self.observed

    @property
    def A_e(self) -> float:
        return 1.0 - self.expected

    def as_dict(self) -> dict:
        out = {k: getattr(self, k) for k in ("coefficient", "value", "observed", "expected",
                                             "distance", "items", "coders", "pairable_values",
                                             "definition")}
        out.update({k: v for k, v in self.details.items() if np.isscalar(v)})
        return out


def _ratio(do: float, de: float, name: str) -> float:
    if de == 0:
        warnings.warn(f"{name}: expected disagreement is 0 (every judgement has the same label, "
                      "or the distance is 0 between all used labels), so the coefficient is "
                      "undefined; returning nan", DegenerateWarning, stacklevel=4)
        return float("nan")
    return 1.0 - do / de


def item_pairs(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Codes of every unordered pair of judgements within each item, as (P, N) arrays a, b
    plus the mask of pairs where both judgements exist. Columns with fewer judgements than
    coders are first compacted (valid codes moved up) so P stays C(m, 2), m = max n_i."""
    valid = codes >= 0
    m = int(valid.sum(0).max(initial=0))
    if m < codes.shape[0]:
        order = np.argsort(~valid, axis=0, kind="stable")[:m]
        codes = np.take_along_axis(codes, order, 0)
    r, s = np.triu_indices(codes.shape[0], 1)
    a, b = codes[r], codes[s]
    return a, b, (a >= 0) & (b >= 0)


class Engine:
    """Sufficient statistics of one (data, distance): per-item Do sums, label distributions.

    Everything is vectorised over items, coders and labels; De variants are computed lazily
    and cached, so a table of all coefficients costs one pass.
    """

    def __init__(self, data: ReliabilityData, distance=None) -> None:
        self.data = data
        self.distance = dist.get(distance)
        codes = data.codes
        self.valid = codes >= 0
        self.n_i = self.valid.sum(0)
        self.pairable = self.n_i >= 2
        if not self.pairable.any():
            raise ValueError("no item has two or more judgements, so agreement is undefined")
        L = data.n_labels
        pc = (codes if self.pairable.all() else np.where(self.pairable, codes, -1)).ravel() + 1
        #: Krippendorff's n_k: pooled values of pairable items
        self.n_k = np.bincount(pc, minlength=L + 1)[1:].astype(float)
        self.metric = self.distance.bind(data, self.n_k)

    # ---- observed ----------------------------------------------------------------------------
    @cached_property
    def item_sum(self) -> np.ndarray:
        """Σ over unordered judgement pairs of d, per item (items in chunks to bound memory)."""
        codes = self.data.codes
        n = codes.shape[1]
        c = max(int(self.n_i.max()), 2)
        step = max(1, PAIRS_PER_CHUNK // (c * (c - 1) // 2))
        out = np.empty(n)
        for start in range(0, n, step):
            a, b, both = item_pairs(codes[:, start:start + step])
            # pair() sees -1 codes where a judgement is missing; its finite result is masked
            d = self.metric.pair(a, b)
            out[start:start + step] = ((d & both).sum(0, dtype=np.int32) if d.dtype == bool
                                       else (d * both).sum(0))
        return out

    @cached_property
    def disagr_i(self) -> np.ndarray:
        """Mean pairwise distance per item (nan where fewer than two judgements)."""
        n = self.n_i.astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.pairable, 2 * self.item_sum / (n * (n - 1)), np.nan)

    @cached_property
    def Do(self) -> float:
        """A&P's Do: mean of disagr_i over items with ≥ 2 judgements (seed 003 §5.1)."""
        return float(self.disagr_i[self.pairable].mean())

    @cached_property
    def Do_alpha(self) -> float:
        """Krippendorff's Do: disagr_i weighted by n_i (seed 004)."""
        n = self.n_i[self.pairable].astype(float)
        return float((self.disagr_i[self.pairable] * n).sum() / n.sum())

    # ---- expected ----------------------------------------------------------------------------
    @cached_property
    def De_alpha(self) -> float:
        """Krippendorff: Σ n_k n_l d_kl / (n(n − 1)) over pooled pairable values."""
        n = self.n_k.sum()
        return float(self.metric.cross(self.n_k, self.n_k) / (n * (n - 1)))

    @cached_property
    def P_k(self) -> np.ndarray:
        """A&P §5.1: P̂(k) = (1/i) Σ_i n_ik / n_i over items with a judgement."""
        codes = self.data.codes
        w = np.broadcast_to(1.0 / np.maximum(self.n_i, 1), codes.shape)[self.valid]
        p = np.bincount(codes[self.valid], weights=w, minlength=self.data.n_labels)
        return p / (self.n_i > 0).sum()

    @cached_property
    def De_alpha_prime(self) -> float:
        return float(self.metric.cross(self.P_k, self.P_k))

    @cached_property
    def n_ck(self) -> np.ndarray:
        """Judgements per coder and label, (coders with ≥ 1 judgement) × L."""
        codes, L = self.data.codes, self.data.n_labels
        C = codes.shape[0]
        rows = np.broadcast_to(np.arange(C)[:, None], codes.shape)[self.valid]
        F = np.bincount(rows * L + codes[self.valid], minlength=C * L).reshape(C, L)
        return F[F.sum(1) > 0].astype(float)

    @cached_property
    def De_beta(self) -> float:
        """A&P §5.1: Σ_{m<n} P̂(c_m, c_n) Σ_jl P̂(j|c_m) P̂(l|c_n) d_jl, without a coder loop."""
        F = self.n_ck
        n_c = F.sum(1)
        if len(n_c) < 2:
            raise ValueError("β and κ need judgements from at least two coders")
        f = F / n_c[:, None]
        p = n_c / n_c.sum()
        g = p @ f
        self_terms = self.metric.cross(f, f)
        return float((self.metric.cross(g, g) - (p ** 2) @ self_terms) / (1 - (p ** 2).sum()))

    def categories(self, declared=None) -> int:
        if declared is not None:
            declared = list(declared)
            if not self.data.is_set:
                unknown = set(self.data.labels[k] for k in np.unique(
                    self.data.codes[self.valid])) - set(declared)
                if unknown:
                    raise ValueError(f"labels not among the declared categories: "
                                     f"{sorted(map(str, unknown))[:5]}")
            return len(declared)
        if self.data.categories is not None:
            return len(self.data.categories)
        return int((np.bincount(self.data.codes[self.valid], minlength=self.data.n_labels)
                    > 0).sum())

    # ---- results -----------------------------------------------------------------------------
    @property
    def n_coders(self) -> int:
        return int((self.valid.sum(1) > 0).sum())

    def result(self, key: str, name: str, do: float, de: float, definition: str,
               **details) -> Result:
        return Result(name, _ratio(do, de, name), do, de, self.distance.name,
                      int(self.pairable.sum()), self.n_coders,
                      int(self.n_i[self.pairable].sum()), definition, details, (self, key))


def engine(data: ReliabilityData | Engine, distance=None) -> Engine:
    """The cached Engine of (data, distance); an Engine passes through."""
    if isinstance(data, Engine):
        return data
    d = dist.get(distance)
    cache = data.__dict__.setdefault("_engines", {})  # the engine keeps d alive: ids stay unique
    if id(d) not in cache:
        cache[id(d)] = Engine(data, d)
    return cache[id(d)]


def _nominal(data, name: str) -> Engine:
    e = engine(data, None)
    if e.distance.weighted:
        raise ValueError(f"{name} is unweighted; use alpha/alpha_prime/beta for a distance")
    return e


def _two_coders(e: Engine, name: str) -> None:
    if e.n_coders != 2:
        raise ValueError(f"{name} is defined for exactly two coders and the data have "
                         f"{e.n_coders}; use multi_kappa (Davies & Fleiss), light_kappa "
                         "(mean pairwise Cohen κ) or beta for more coders")


def percent_agreement(data: ReliabilityData) -> Result:
    """Observed agreement A_o: mean proportion of agreeing judgement pairs per item (§2.4)."""
    e = _nominal(data, "percent_agreement")
    return Result("percent agreement", 1.0 - e.Do, e.Do, float("nan"), e.distance.name,
                  int(e.pairable.sum()), e.n_coders, int(e.n_i[e.pairable].sum()),
                  "A_o: mean over items with ≥ 2 judgements of the proportion of agreeing "
                  "pairs (A&P §2.4, §5.1)", source=(e, "percent_agreement"))


def S(data: ReliabilityData, categories=None) -> Result:
    """Bennett et al. (1954) S: A_e = 1/k, k the declared categories (else observed ones)."""
    e = _nominal(data, "S")
    k = e.categories(categories)
    declared = categories is not None or data.categories is not None
    return e.result("S", "S", e.Do, 1.0 - 1.0 / k,
                    f"S: A_e = 1/k with k = {k} {'declared' if declared else 'observed'} "
                    "categories (Bennett et al. 1954; A&P §2.3)", categories=k,
                    categories_declared=declared)


def pi(data: ReliabilityData) -> Result:
    """Scott's π; with more than two coders multi-π (Fleiss 1971; Siegel & Castellan's K)."""
    e = _nominal(data, "pi")
    name = "π" if e.n_coders == 2 else "multi-π"
    return e.result("pi", name, e.Do, e.De_alpha_prime,
                    "π: A_e = Σ_k P̂(k)², one distribution for all coders, "
                    "P̂(k) = (1/i) Σ_i n_ik/n_i (A&P §2.3, §2.4, §5.1)")


def multi_kappa(data: ReliabilityData) -> Result:
    """Davies & Fleiss (1982) multi-κ: A_e from each coder's own distribution (A&P §2.4)."""
    e = _nominal(data, "multi_kappa")
    return e.result("multi_kappa", "multi-κ", e.Do, e.De_beta,
                    "multi-κ: A_e = Σ_{m<n} P̂(c_m,c_n) Σ_k P̂(k|c_m)P̂(k|c_n) "
                    "(Davies & Fleiss 1982; A&P §2.4, §5.1)")


def kappa(data: ReliabilityData) -> Result:
    """Cohen's (1960) κ for two coders (A&P §2.3); see multi_kappa for more."""
    e = _nominal(data, "kappa")
    _two_coders(e, "kappa")
    return e.result("kappa", "κ", e.Do, e.De_beta,
                    "Cohen's κ: A_e = Σ_k P̂(k|c1)P̂(k|c2), P̂(k|c) = n_ck/n_c (A&P §2.3, §5.1)")


def kappa_w(data: ReliabilityData, distance="interval") -> Result:
    """Cohen's (1968) weighted κ for two coders: β with two coders (A&P §2.5)."""
    e = engine(data, distance)
    _two_coders(e, "kappa_w")
    return e.result("kappa_w", "κw", e.Do, e.De_beta,
                    "κw: De = Σ_jl P̂(j|c1)P̂(l|c2) d_jl (Cohen 1968; A&P §2.5)")


def alpha(data: ReliabilityData, distance="nominal") -> Result:
    """Krippendorff's α: Do weighted by values per item, De over pooled pairable values."""
    e = engine(data, distance)
    return e.result("alpha", "α", e.Do_alpha, e.De_alpha,
                    "Krippendorff's α: Do = Σ_i n_i disagr_i / Σ n_i, De = Σ n_k n_l d_kl / "
                    "(n(n−1)) over pairable values (Krippendorff 2011; seed 004)")


def alpha_prime(data: ReliabilityData, distance="nominal") -> Result:
    """A&P's α′: single distribution, with replacement (seed 003 §2.5, §5.1)."""
    e = engine(data, distance)
    return e.result("alpha_prime", "α′", e.Do, e.De_alpha_prime,
                    "α′: De = Σ_jl P̂(j)P̂(l) d_jl, P̂(k) = (1/i) Σ_i n_ik/n_i (A&P §2.5, §5.1)")


def beta(data: ReliabilityData, distance="nominal") -> Result:
    """A&P's β: α with individual coder distributions (seed 003 §2.7, §5.1)."""
    e = engine(data, distance)
    return e.result("beta", "β", e.Do, e.De_beta,
                    "β: De = Σ_{m<n} P̂(c_m,c_n) Σ_jl P̂(j|c_m)P̂(l|c_n) d_jl (A&P §2.7, §5.1)")


def bias(data: ReliabilityData, distance="nominal") -> Result:
    """Bias B = De^β − De^α′ (= A_e^π − A_e^κ with the nominal distance; seed 003 §3, app. A).

    Appendix B writes the weighted bias as D_e^α′ − D_e^β, the negative of appendix A's
    B = A_e^π − A_e^κ under the nominal distance (its own algebra shows this); we keep the sign
    of appendix A so that B ≥ 0 for nominal data and the two definitions agree.
    """
    e = engine(data, distance)
    b = e.De_beta - e.De_alpha_prime
    r = Result("bias B", b, float("nan"), float("nan"), e.distance.name, int(e.pairable.sum()),
               e.n_coders, int(e.n_i[e.pairable].sum()),
               "B = De^β − De^α′ (A&P §3 and appendices A, B; = A_e^π − A_e^κ when nominal)",
               {"De_alpha_prime": e.De_alpha_prime, "De_beta": e.De_beta}, (e, "bias"))
    return r


def light_kappa(data: ReliabilityData, distance="nominal") -> Result:
    """Light's (1971) κ: the mean of Cohen's κ (κw with a distance) over coder pairs, each pair
    on the items both coded (what NLTK calls ``kappa``)."""
    e = engine(data, distance)
    codes, L = e.data.codes[e.valid.sum(1) > 0], e.data.n_labels
    r, s = np.triu_indices(codes.shape[0], 1)
    A, B = codes[r], codes[s]
    both = (A >= 0) & (B >= 0)
    shared = both.sum(1)
    keep = shared > 0
    if not keep.any():
        raise ValueError("no two coders judged a common item")
    P = len(r)
    pair_of = np.broadcast_to(np.arange(P)[:, None], A.shape)[both]
    d = np.zeros(A.shape)
    d[both] = e.metric.pair(A[both], B[both])
    do = d.sum(1)[keep] / shared[keep]
    FA = np.bincount(pair_of * L + A[both], minlength=P * L).reshape(P, L)[keep] / \
        shared[keep, None]
    FB = np.bincount(pair_of * L + B[both], minlength=P * L).reshape(P, L)[keep] / \
        shared[keep, None]
    de = e.metric.cross(FA, FB)
    with np.errstate(invalid="ignore", divide="ignore"):
        kappas = np.where(de > 0, 1 - do / np.where(de > 0, de, 1), np.nan)
    if np.isnan(kappas).any():
        warnings.warn("light_kappa: some coder pairs have zero expected disagreement; "
                      "they are left out of the mean", DegenerateWarning, stacklevel=2)
    value = float(np.nanmean(kappas)) if (~np.isnan(kappas)).any() else float("nan")
    return Result("light κ", value, float(do.mean()), float(de.mean()), e.distance.name,
                  int(e.pairable.sum()), e.n_coders, int(e.n_i[e.pairable].sum()),
                  "Light's κ: mean over coder pairs of Cohen's κ (κw), each pair on the items "
                  "both coded (Light 1971; NLTK's AnnotationTask.kappa)",
                  {"pairs": int(keep.sum())})


#: every coefficient by name, with whether it takes a distance
COEFFICIENTS = {
    "percent_agreement": (percent_agreement, False), "S": (S, False), "pi": (pi, False),
    "kappa": (kappa, False), "multi_kappa": (multi_kappa, False),
    "light_kappa": (light_kappa, True), "kappa_w": (kappa_w, True), "alpha": (alpha, True),
    "alpha_prime": (alpha_prime, True), "beta": (beta, True), "bias": (bias, True),
}


def table(data: ReliabilityData, distance="nominal", categories=None) -> list[Result]:
    """Every applicable coefficient: the unweighted family, then the family under ``distance``
    (when it is not nominal). Two-coder coefficients appear only for two coders."""
    e = engine(data, None)
    two = e.n_coders == 2
    rows = [percent_agreement(data), S(data, categories), pi(data)]
    rows += [kappa(data)] if two else [multi_kappa(data)]
    rows += [light_kappa(data)] if not two else []
    rows += [alpha(data), alpha_prime(data), beta(data), bias(data)]
    d = dist.get(distance)
    if d.weighted:
        rows += [kappa_w(data, d)] if two else [light_kappa(data, d)]
        rows += [alpha(data, d), alpha_prime(data, d), beta(data, d), bias(data, d)]
    return rows
