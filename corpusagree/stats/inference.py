"""Confidence intervals: the bootstrap over items or clusters of items, and analytic SEs.

The bootstrap is vectorised across replicates. Every quantity a coefficient needs is a sum over
items, so it is aggregated once per resampling unit (an item, or a cluster such as a document)
into per-unit sufficient statistics: Do numerators and denominators, and sparse unit × label
count matrices (pooled pairable values for α, item-weighted values for α′/π, one per coder for
β/κ). A replicate is a weight vector w over units (how often each unit was drawn), and its
statistics are ``w @ stats``; De follows from the distance's ``cross``. Resampling units with
replacement is exactly equivalent to recomputing the coefficient on the resampled data.

The distance is bound once, to the full data: the ordinal metric's ranks (which depend on the
pooled values) are held fixed across replicates, as in Hayes & Krippendorff's (2007) bootstrap
of α, which also keeps the observed metric.

Intervals: percentile, and BCa (Efron 1987) with the acceleration from a jackknife over units
(over 1,000 random blocks of units when there are more). Krippendorff's q = P(coef < α_min) is
the share of replicates below α_min. Mentions inside one document are not independent, so the
bootstrap is clustered by ``data.groups`` whenever the data have groups.

Analytic standard errors: Cohen's κ (Fleiss, Cohen & Everitt 1969; also under H0: κ = 0), and
Fleiss' multi-π under H0 (Fleiss, Nee & Landis 1979).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.stats import norm

from ..model.data import ReliabilityData
from ..report import LazyProgress
from .coefficients import Engine, engine

#: weights entries (replicates × units) materialised at once
WEIGHTS_PER_CHUNK = 4_000_000
#: with at most this many resampling units, β's De is a quadratic form in the unit weights
#: (units × units matrices) instead of per-coder label distributions per replicate
QUADRATIC_MAX_UNITS = 3000
#: α_min values for Krippendorff's q
Q_THRESHOLDS = (0.667, 0.8)

#: coefficient → (Do kind, De kind)
FAMILY = {
    "alpha": ("alpha", "alpha"), "alpha_prime": ("ap", "ap"), "pi": ("ap", "ap"),
    "beta": ("ap", "beta"), "kappa": ("ap", "beta"), "multi_kappa": ("ap", "beta"),
    "kappa_w": ("ap", "beta"), "S": ("ap", "S"), "percent_agreement": ("ap", None),
    "bias": (None, "bias"),
}
NOMINAL_ONLY = {"pi", "kappa", "multi_kappa", "S", "percent_agreement"}


@dataclass
class Interval:
    """A confidence interval for one coefficient, with what it was computed from."""

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
    distribution: np.ndarray | None = field(default=None, repr=False)
    q: dict = field(default_factory=dict)
    se: float | None = None
    dropped: int = 0

    def as_dict(self) -> dict:
        out = {k: getattr(self, k) for k in ("coefficient", "distance", "estimate", "low", "high",
                                             "level", "method", "clustered", "units",
                                             "n_resamples", "se", "dropped")}
        out["q"] = {str(k): v for k, v in self.q.items()}
        return out


# ---- per-unit sufficient statistics ----------------------------------------------------------
class _UnitStats:
    """Sums over the items of each unit of everything a coefficient needs (all additive)."""

    def __init__(self, e: Engine, unit_of: np.ndarray, n_units: int) -> None:
        self.e, self.unit_of, self.U = e, unit_of, n_units
        data = e.data
        self.L = data.n_labels
        pairable = e.pairable
        n_i = e.n_i.astype(float)
        dis = np.where(pairable, e.disagr_i, 0.0)
        vec = np.stack([dis, pairable.astype(float), dis * n_i, np.where(pairable, n_i, 0.0),
                        (e.n_i > 0).astype(float)], 1)
        #: (U × 5): Σ disagr, #pairable, Σ n·disagr, Σ n (pairable), #items judged
        self.vectors = self._by_unit(vec)
        self._cache: dict = {}

    def _by_unit(self, per_item: np.ndarray) -> np.ndarray:
        return np.stack([np.bincount(self.unit_of, weights=col, minlength=self.U)
                         for col in per_item.T], 1)

    def _counts(self, codes: np.ndarray, weight: np.ndarray | None) -> sp.csr_matrix:
        """Unit × label matrix: Σ over judgements (code ≥ 0) of weight, by unit."""
        C, N = codes.shape
        valid = codes >= 0
        units = np.broadcast_to(self.unit_of, codes.shape)[valid]
        w = np.ones(units.shape) if weight is None else np.broadcast_to(weight, codes.shape)[valid]
        m = sp.csr_matrix((w, (units, codes[valid])), shape=(self.U, self.L))
        m.sum_duplicates()
        return m

    def beta_quadratic(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(Q, n_cu) with De_β(w) = wᵀQw / (N(w)² − Σ_c n_c(w)²), or None when there are too
        many units. With F_c(w) = wᵀM_c the coder's counts and F = Σ_c F_c,
        De_β = (FᵀDF − Σ_c F_cᵀDF_c) / (N² − Σ n_c²), so Q = M D Mᵀ − Σ_c M_c D M_cᵀ."""
        metric = self.e.metric
        if self.U > QUADRATIC_MAX_UNITS or not metric.exact_gram:
            return None
        if "quadratic" not in self._cache:
            coders = self.matrix("coders")
            total = sum(coders[1:], coders[0])
            Q = metric.gram(total, total)
            for m in coders:
                Q -= metric.gram(m, m)
            n_cu = np.stack([np.asarray(m.sum(1)).ravel() for m in coders], 1)
            self._cache["quadratic"] = (Q, n_cu)
        return self._cache["quadratic"]

    def matrix(self, kind: str):
        if kind not in self._cache:
            e, codes = self.e, self.e.data.codes
            if kind == "alpha":
                self._cache[kind] = self._counts(np.where(e.pairable, codes, -1), None)
            elif kind == "ap":
                self._cache[kind] = self._counts(codes, 1.0 / np.maximum(e.n_i, 1))
            else:  # per coder, coders with a judgement
                active = np.flatnonzero(e.valid.sum(1) > 0)
                self._cache[kind] = [self._counts(codes[[c]], None) for c in active]
        return self._cache[kind]


def _wsum(W: np.ndarray, m: sp.csr_matrix) -> np.ndarray:
    """W (r × U) times a sparse U × L matrix → dense r × L."""
    return np.asarray((m.T @ W.T).T)


def _rowdot_q(W: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """wᵀQw for every row w of W."""
    return np.einsum("ru,ru->r", W @ Q, W)


def _coefficient_values(stats: _UnitStats, W: np.ndarray, key: str, categories: int
                        ) -> np.ndarray:
    """The coefficient for each row of weights W (r × U)."""
    metric = stats.e.metric
    do_kind, de_kind = FAMILY[key]
    v = W @ stats.vectors  # r × 5
    with np.errstate(invalid="ignore", divide="ignore"):
        do = v[:, 0] / v[:, 1] if do_kind == "ap" else v[:, 2] / v[:, 3]
        de_ap = de_beta = None
        if de_kind == "alpha":
            nk = _wsum(W, stats.matrix("alpha"))
            n = nk.sum(1)
            de = metric.cross(nk, nk) / (n * (n - 1))
        if de_kind in ("ap", "bias"):
            pk = _wsum(W, stats.matrix("ap")) / v[:, 4:5]
            de = de_ap = metric.cross(pk, pk)
        quad = stats.beta_quadratic() if de_kind in ("beta", "bias") else None
        if quad is not None:
            Q, n_cu = quad
            nc = W @ n_cu
            de = de_beta = _rowdot_q(W, Q) / (nc.sum(1) ** 2 - (nc ** 2).sum(1))
        elif de_kind in ("beta", "bias"):
            F = np.stack([_wsum(W, m) for m in stats.matrix("coders")])  # C × r × L
            n_c = F.sum(2)
            # a coder none of whose items was drawn has no distribution: weight 0, as if absent
            f = np.divide(F, n_c[:, :, None], out=np.zeros_like(F), where=n_c[:, :, None] > 0)
            p = n_c / n_c.sum(0)
            g = np.einsum("cr,crl->rl", p, f)
            self_terms = metric.cross(f, f)  # C × r
            de = de_beta = (metric.cross(g, g) - (p ** 2 * self_terms).sum(0)) / \
                (1 - (p ** 2).sum(0))
        if de_kind == "S":
            de = np.full(len(W), 1 - 1 / categories)
        if de_kind == "bias":
            return de_beta - de_ap
        if de_kind is None:
            return 1 - do
        return np.where(de > 0, 1 - do / de, np.nan)


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


def _units(data: ReliabilityData, cluster) -> tuple[np.ndarray, int, bool]:
    """(unit of each item, number of units, clustered?) from the ``cluster`` argument."""
    if cluster is None:
        cluster = data.groups is not None
    if cluster is False:
        return np.arange(data.n_items), data.n_items, False
    groups = data.groups if cluster is True else np.asarray(cluster)
    if groups is None:
        raise ValueError("cluster=True but the data have no groups (documents)")
    if groups.shape != (data.n_items,):
        raise ValueError("cluster must give one group per item")
    uniq, unit_of = np.unique(groups, return_inverse=True)
    return unit_of, len(uniq), True


def _check(key: str, e: Engine) -> None:
    if key not in FAMILY:
        raise ValueError(f"no bootstrap for {key!r}; available: {', '.join(FAMILY)}")
    if key in NOMINAL_ONLY and e.distance.weighted:
        raise ValueError(f"{key} is unweighted: use the nominal distance")


def bootstrap_many(data: ReliabilityData, specs: Sequence[tuple[str, object]], *,
                   n_resamples: int = 1000, level: float = 0.95, cluster=None,
                   interval: str = "percentile", seed=None, progress: bool = False
                   ) -> list[Interval]:
    """Bootstrap intervals for several (coefficient, distance) pairs on the same resamples."""
    if interval not in ("percentile", "bca"):
        raise ValueError("interval must be 'percentile' or 'bca'")
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1")
    unit_of, U, clustered = _units(data, cluster)
    if U < 2:
        raise ValueError("the bootstrap needs at least two resampling units")
    engines = [engine(data, d) for _, d in specs]
    for (key, _), e in zip(specs, engines, strict=True):
        _check(key, e)
    stats = {id(e): _UnitStats(e, unit_of, U) for e in engines}
    cats = [engines[0].categories() if key == "S" else 0 for key, _ in specs]
    dists = [[] for _ in specs]
    bar = LazyProgress("resampling", n_resamples, enabled=progress)
    done = 0
    try:
        # a chunk of r replicates materialises r × U weights and r × L distributions
        chunk = max(1, min(n_resamples, WEIGHTS_PER_CHUNK // max(U, data.n_labels)))
        for W in replicate_weights(U, n_resamples, seed, chunk):
            for j, ((key, _), e) in enumerate(zip(specs, engines, strict=True)):
                dists[j].append(_coefficient_values(stats[id(e)], W, key, cats[j]))
            done += len(W)
            bar.advance(done)
    finally:
        bar.close()
    out = []
    ones = np.ones((1, U))
    for j, ((key, _), e) in enumerate(zip(specs, engines, strict=True)):
        st = stats[id(e)]
        theta = float(_coefficient_values(st, ones, key, cats[j])[0])
        dist = np.concatenate(dists[j])
        ok = dist[~np.isnan(dist)]
        alpha_ = (1 - level) / 2
        if interval == "bca" and len(ok):
            lo_q, hi_q = _bca_quantiles(ok, theta, _jackknife(st, key, cats[j], U), alpha_)
            method = "bootstrap BCa"
        else:
            lo_q, hi_q = alpha_, 1 - alpha_
            method = "bootstrap percentile"
        low, high = (np.quantile(ok, [lo_q, hi_q]) if len(ok) else (np.nan, np.nan))
        out.append(Interval(key, e.distance.name, theta, float(low), float(high), level,
                            method, clustered, U, n_resamples, dist,
                            {t: float((ok < t).mean()) if len(ok) else float("nan")
                             for t in Q_THRESHOLDS},
                            float(ok.std(ddof=1)) if len(ok) > 1 else None,
                            int(len(dist) - len(ok))))
    return out


def bootstrap(data: ReliabilityData, coefficient: str = "alpha", distance="nominal", **kw
              ) -> Interval:
    """Bootstrap interval of one coefficient; see :func:`bootstrap_many` for the options."""
    return bootstrap_many(data, [(coefficient, distance)], **kw)[0]


def _jackknife(stats: _UnitStats, key: str, categories: int, U: int,
               max_blocks: int = 1000) -> np.ndarray:
    """Leave-one-unit-out values (delete-a-block over ``max_blocks`` random blocks of units
    when there are more units), for the BCa acceleration."""
    if U <= max_blocks:
        block = np.arange(U)
        B = U
    else:
        block = np.random.default_rng(0).permutation(U) % max_blocks
        B = max_blocks
    vals = []
    step = max(1, WEIGHTS_PER_CHUNK // U)
    for s in range(0, B, step):
        b = np.arange(s, min(B, s + step))
        W = (block[None, :] != b[:, None]).astype(float)
        vals.append(_coefficient_values(stats, W, key, categories))
    return np.concatenate(vals)


def _bca_quantiles(dist: np.ndarray, theta: float, jack: np.ndarray, a_: float
                   ) -> tuple[float, float]:
    """Efron's bias-corrected and accelerated quantile levels."""
    prop = ((dist < theta).sum() + 0.5 * (dist == theta).sum()) / len(dist)
    z0 = norm.ppf(np.clip(prop, 1e-10, 1 - 1e-10))
    jack = jack[~np.isnan(jack)]
    d = jack.mean() - jack
    denom = 6 * (d ** 2).sum() ** 1.5
    acc = (d ** 3).sum() / denom if denom > 0 else 0.0
    levels = []
    for z in (norm.ppf(a_), norm.ppf(1 - a_)):
        levels.append(float(norm.cdf(z0 + (z0 + z) / (1 - acc * (z0 + z)))))
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
    codes = data.codes[:, used]
    p = np.bincount(codes[codes >= 0], minlength=data.n_labels) / (N * m)
    q = 1 - p
    pq = (p * q).sum()
    var0 = 2 / (N * m * (m - 1)) * (pq ** 2 - (p * q * (q - p)).sum()) / pq ** 2
    from .coefficients import pi

    return float(pi(data)), float(np.sqrt(var0))


def analytic(data: ReliabilityData, coefficient: str, level: float = 0.95) -> Interval:
    """Normal-approximation interval from the analytic SE (κ with two coders; multi-π gives
    only a test SE under H0, so its interval is centred at 0: a test, not an estimate)."""
    z = norm.ppf((1 + level) / 2)
    if coefficient == "kappa":
        k, se, se0 = kappa_se(data)
        return Interval("kappa", "nominal", k, k - z * se, k + z * se, level,
                        "analytic (Fleiss, Cohen & Everitt 1969)", se=se,
                        units=int(_two_coder_table(data).sum()))
    if coefficient == "pi":
        k, se0 = fleiss_se0(data)
        return Interval("pi", "nominal", k, -z * se0, z * se0, level,
                        "analytic under H0: π = 0 (Fleiss, Nee & Landis 1979)", se=se0)
    raise ValueError("analytic intervals exist for 'kappa' (two coders) and 'pi' (under H0); "
                     "use method='bootstrap'")
