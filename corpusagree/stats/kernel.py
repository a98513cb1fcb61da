"""Sufficient statistics of agreement: everything a coefficient needs, as sums over items.

Observed disagreement is a mean of per-item values, and every expected disagreement is a
quadratic form in label counts, so each coefficient of Artstein & Poesio's family (2005,
§2.5–2.7, §5.1) and Krippendorff's α (2011) follows from a few sums over items
(:class:`SufficientStats`). They are computed for a batch of *views* of the data at once:

* :class:`Kernel`: the data as they are (one view), with the per-item arrays cached;
* :class:`UnitWeights`: bootstrap replicates, each a weight vector over resampling units
  (items, or clusters such as documents) — the sums of a replicate are ``w @`` per-unit sums,
  exactly the sums of the resampled data;
* :class:`CoderMasks`: coder subsets (pairwise, leave-one-out), each a boolean mask over coders.

The formulas that turn the sums into Do and De are written once, in
:meth:`SufficientStats.observed` and :meth:`SufficientStats.expected`; which coefficient takes
which is the table of :mod:`corpusagree.stats.spec`. A distance is bound once, to the full data
(:meth:`~corpusagree.stats.distances.Distance.bind`): the ordinal metric's ranks stay those of the
observed data in every view, as in Hayes & Krippendorff's (2007) bootstrap of α.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from ..model.data import ReliabilityData, count_codes
from . import distances as dist
from . import mvalpha as mv
from .ratios import chance_corrected, divide

#: judgement pairs evaluated at once when computing Do (bounds memory on large corpora)
PAIRS_PER_CHUNK = 250_000
#: array cells (views × items, or pairs × items) handled at once
CELLS = 4_000_000
#: label-count cells (coder subsets × labels) accumulated at once
LABEL_CELLS = 8_000_000
#: per-pair item distances kept for reuse when coder subsets need several batches
PAIR_CACHE = 20_000_000
#: with at most this many resampling units, β's De is a quadratic form in the unit weights
QUADRATIC_MAX_UNITS = 3000

EXPECTED_KINDS = ("pooled", "single", "individual", "uniform", "gwet", "conger")


@dataclass
class SufficientStats:
    """Sums over the items of each of B views (arrays of length B).

    Observed: ``sum_dis`` = Σ disagr_i and ``n_pairable`` over items with ≥ 2 judgements,
    ``sum_ndis`` = Σ n_i disagr_i and ``n_values`` = Σ n_i over them, ``n_judged`` items with a
    judgement. Expected, in count units (a quadratic form ``cross(F, G)`` = Σ F_a G_b d(a, b)):
    ``pooled_cross`` = cross(n_k, n_k) over pooled pairable values, ``pooled_n`` their number;
    ``single_cross`` = cross(m_k, m_k) with m_k = Σ_i n_ik/n_i; ``coder_cross`` =
    Σ_{c≠d} cross(F_c, F_d) and ``coder_norm`` = Σ_{c≠d} n_c n_d with F_c coder c's label
    counts; ``categories``: q, the labels used (or declared), and ``category_cross`` = Σ_kl d_kl
    over those q categories (cross(1, 1): no q × q array for set labels); ``single_sq`` =
    Σ_k m_k²; ``conger_cross`` = Σ_{c≠d} cross(P_c, P_d) with P_c = F_c/n_c coder c's label
    distribution, over ``conger_r`` coders with a judgement; ``value_counts`` n_v and
    ``size_counts`` n_s (views × values, views × sizes): the pairable judgements whose set holds
    value v, and those that are sets of s values (set labels: mvα). A field is None when no
    coefficient asked needed it.
    """

    sum_dis: np.ndarray
    n_pairable: np.ndarray
    sum_ndis: np.ndarray
    n_values: np.ndarray
    n_judged: np.ndarray
    categories: np.ndarray | None = None
    pooled_cross: np.ndarray | None = None
    pooled_n: np.ndarray | None = None
    single_cross: np.ndarray | None = None
    coder_cross: np.ndarray | None = None
    coder_norm: np.ndarray | None = None
    category_cross: np.ndarray | None = None
    single_sq: np.ndarray | None = None
    conger_cross: np.ndarray | None = None
    conger_r: np.ndarray | None = None
    value_counts: np.ndarray | None = None
    size_counts: np.ndarray | None = None

    def observed(self, kind: str) -> np.ndarray:
        """Do: ``"pairs"`` (A&P 2005, §5.1) or ``"values"`` (Krippendorff 2011)."""
        if kind == "pairs":
            return divide(self.sum_dis, self.n_pairable)
        if kind == "values":
            return divide(self.sum_ndis, self.n_values)
        raise ValueError(f"unknown observed disagreement {kind!r}")

    def expected(self, kind: str, categories=None) -> np.ndarray:
        """De of a kind (see :mod:`corpusagree.stats.spec`); nan where undefined.

        pooled: cross(n_k, n_k) / (n(n − 1)) (Krippendorff 2011); single: cross(P̂, P̂) with
        P̂(k) = m_k / i (A&P 2005, §5.1); individual: Σ_{m≠n} P̂(c_m)P̂(c_n) cross(P̂(·|c_m),
        P̂(·|c_n)) / (1 − Σ P̂(c)²) (A&P 2005, §5.1), in counts Σ_{c≠d} cross(F_c, F_d) /
        Σ_{c≠d} n_c n_d; uniform: 1 − T_w/q² with T_w = Σ_kl w_kl = q² − Σ_kl d_kl over the q
        categories (Brennan & Prediger 1981; nominal: 1 − 1/q, Bennett et al. 1954); gwet:
        1 − p_e, p_e = T_w/(q(q − 1)) Σ_k π_k(1 − π_k) with π_k = P̂(k) of ``single`` (Gwet 2008,
        2014); conger: the mean over ordered pairs of distinct coders of cross(P̂(·|c_m),
        P̂(·|c_n)), each coder's distribution over all its judgements (Conger 1980; irrCAC's
        p_e = Σ_kl w_kl (p̄_k p̄_l − s²_kl/r)); multivalued: mvα's, over pairs of sets of the
        values used, weighted by the values' frequencies (Krippendorff & Craggs 2016, §4;
        :mod:`corpusagree.stats.mvalpha`)."""
        if kind == "pooled":
            n = self.pooled_n
            return divide(self.pooled_cross, n * (n - 1))
        if kind == "single":
            return divide(self.single_cross, self.n_judged ** 2)
        if kind == "individual":
            return divide(self.coder_cross, self.coder_norm)
        if kind in ("uniform", "gwet"):
            q = np.broadcast_to(np.asarray(
                self.categories if categories is None else categories, float),
                self.n_judged.shape)
            d_sum = q * (q - 1) if self.category_cross is None else self.category_cross
            t_w = q * q - d_sum  # Σ_kl w_kl, w = 1 − d
            if kind == "uniform":
                return 1.0 - divide(t_w, q * q)
            pe = divide(t_w, q * (q - 1)) * (1.0 - divide(self.single_sq, self.n_judged ** 2))
            return np.where((q >= 2) & (self.n_judged > 0), 1.0 - pe, np.nan)
        if kind == "conger":
            r = self.conger_r
            return divide(self.conger_cross, r * (r - 1))
        if kind == "multivalued":
            with np.errstate(invalid="ignore", divide="ignore"):
                return mv.expected_disagreement(self.value_counts, self.size_counts)
        raise ValueError(f"unknown expected disagreement {kind!r}")


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


def judgements_per_item(valid: np.ndarray) -> np.ndarray:
    """n_i, the judgements of each item, from the rows × items mask of valid judgements: a sum
    over rows in small integers (the rows of a chunk of items added at once), as int32."""
    R = valid.shape[0]
    acc = np.int8 if R <= np.iinfo(np.int8).max else np.int32
    return valid.view(np.int8).sum(0, dtype=acc).astype(np.int32)


def zero_diagonal(metric: dist.Metric, n_labels: int) -> bool:
    """Whether d(k, k) = 0 for every label k, so that sums of d may skip the pairs of equal
    labels (true of Krippendorff's metrics and the set distances; a weight matrix may say
    otherwise)."""
    k = np.arange(n_labels)
    return not np.any(metric.pair(k, k))


def label_counts(codes: np.ndarray, n_labels: int) -> np.ndarray:
    """Judgements per row (coder) and label: rows × labels (missing judgements, code −1, are
    counted in a column of their own and dropped: no mask over the array)."""
    R = codes.shape[0]
    offset = np.arange(R, dtype=np.intp)[:, None] * (n_labels + 1) + 1
    return count_codes(codes, offset, R * (n_labels + 1)).reshape(R, n_labels + 1)[:, 1:]


def counts_by_n(codes: np.ndarray, n_i: np.ndarray, n_labels: int) -> np.ndarray | None:
    """Judgements counted by the number of judgements n_i of their item (row n) and label:
    (max n_i + 1) × labels, one integer count over the codes from which Krippendorff's n_k
    (rows n ≥ 2) and the per-item weighted counts Σ_i n_ik/n_i (row n divided by n) follow.
    None when that table would be larger than the codes (many coders and many labels)."""
    r = int(n_i.max(initial=0))
    size = (r + 1) * (n_labels + 1)
    if size > codes.size + 2**20:
        return None
    offset = (np.arange(r + 1) * (n_labels + 1) + 1)[n_i]  # a missing judgement: column 0
    return count_codes(codes, offset, size).reshape(r + 1, n_labels + 1)[:, 1:]


def _conger_terms(metric: dist.Metric, F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Σ_{c≠d} cross(P_c, P_d), coders with a judgement) of coders' label counts F
    (coders × … × L), P_c = F_c / n_c: Conger's (1980) unweighted mean over coder pairs."""
    n_c = F.sum(-1, keepdims=True)
    P = divide(F, n_c, 0.0)
    if hasattr(metric, "between") and len(F) == 2:  # two identified raters, in their order
        return 2 * metric.between(P[0], P[1]), (n_c[..., 0] > 0).sum(0)
    total = P.sum(0)
    return metric.cross(total, total) - metric.cross(P, P).sum(0), (n_c[..., 0] > 0).sum(0)


def _coder_terms(metric: dist.Metric, F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Σ_{c≠d} cross(F_c, F_d), Σ_{c≠d} n_c n_d) of coders' label counts F (coders × … × L)."""
    total = F.sum(0)
    n_c = F.sum(-1)
    if hasattr(metric, "between") and len(F) == 2:  # two identified raters, in their order
        return 2 * metric.between(F[0], F[1]), n_c.sum(0) ** 2 - (n_c ** 2).sum(0)
    return (metric.cross(total, total) - metric.cross(F, F).sum(0),
            n_c.sum(0) ** 2 - (n_c ** 2).sum(0))


class Kernel:
    """The sufficient statistics of one (data, distance), per item and summed.

    Everything is vectorised over items, coders and labels; each part is computed when first
    needed and cached, so a table of every coefficient costs one pass over the items.
    """

    def __init__(self, data: ReliabilityData, distance=None) -> None:
        self.data = data
        self.distance = dist.get(distance)
        codes = data.codes
        self.valid = codes >= 0
        self.n_i = judgements_per_item(self.valid)
        self.pairable = self.n_i >= 2
        if not self.pairable.any():
            raise ValueError("no item has two or more judgements, so agreement is undefined")
        L = data.n_labels
        # every judgement (counted once, kept by the data), less those of items with a
        # single judgement
        lone = codes[:, np.flatnonzero(self.n_i == 1)]
        n_k = data.label_totals - count_codes(lone, 1, L + 1)[1:]
        #: Krippendorff's n_k: pooled values of pairable items
        self.n_k = n_k.astype(float)
        self.metric = self.distance.bind(data, self.n_k)
        self._stats: dict[str, SufficientStats] = {}

    @cached_property
    def n_coders(self) -> int:
        """Coders with at least one judgement."""
        return int(np.count_nonzero(self.valid.any(1)))

    @cached_property
    def item_sum(self) -> np.ndarray:
        """Σ over unordered judgement pairs of d, per item (items in chunks to bound memory).

        Under the nominal distance, the disagreeing pairs: C(n_i, 2) less the equal pairs,
        counted over every pair of rows (a missing judgement, −1, equals another missing one:
        the C(m_i, 2) pairs of the m_i missing judgements are taken off), in small integers
        and without first moving the judgements up."""
        codes = self.data.codes
        n = codes.shape[1]
        if not self.distance.weighted:
            R = codes.shape[0]
            r, s = np.triu_indices(R, 1)
            acc = np.int8 if len(r) <= np.iinfo(np.int8).max else np.int32
            k = np.arange(R + 1)
            pairs = (k * (k - 1) // 2 + (R - k) * (R - k - 1) // 2).astype(np.int32)
            # the codes compared in the smallest integers that hold them (less to move)
            L = self.data.n_labels
            small = np.int8 if L <= 2**7 else np.int16 if L <= 2**15 else np.int32
            out = np.empty(n, np.int32)  # C(n_i, 2) + C(m_i, 2) − equal pairs
            step = max(1, PAIRS_PER_CHUNK // max(len(r), 1))
            for start in range(0, n, step):
                part = codes[:, start:start + step].astype(small)
                o = out[start:start + step]
                np.take(pairs, self.n_i[start:start + step], out=o)
                o -= (part[r] == part[s]).sum(0, dtype=acc)
            return out
        c = max(int(self.n_i.max()), 2)
        step = max(1, PAIRS_PER_CHUNK // (c * (c - 1) // 2))
        out = np.empty(n)
        differing = zero_diagonal(self.metric, self.data.n_labels)
        for start in range(0, n, step):
            a, b, both = item_pairs(codes[:, start:start + step])
            if differing:  # d only where the labels differ, summed per item (column)
                both &= a != b
                rows, cols = np.nonzero(both)
                out[start:start + step] = np.bincount(
                    cols, self.metric.pair(a[rows, cols], b[rows, cols]), minlength=a.shape[1])
                continue
            # pair() sees -1 codes where a judgement is missing; its finite result is masked
            d = self.metric.pair(a, b)
            out[start:start + step] = ((d & both).sum(0, dtype=np.int32) if d.dtype == bool
                                       else (d * both).sum(0))
        return out

    @cached_property
    def disagr_i(self) -> np.ndarray:
        """Mean pairwise distance per item (nan where fewer than two judgements)."""
        pairs = self.n_i.astype(float)
        pairs *= pairs - 1  # n(n − 1), > 0 where two or more judgements
        return divide(2 * self.item_sum, pairs, where=self.pairable)

    @cached_property
    def item_weighted(self) -> np.ndarray:
        """m_k = Σ_i n_ik / n_i over items with a judgement (A&P 2005, §5.1, times i)."""
        codes = self.data.codes
        by_n = counts_by_n(codes, self.n_i, self.data.n_labels)
        if by_n is not None:  # one count by n_i; row n divided by n
            return (by_n[1:] / np.arange(1, len(by_n))[:, None]).sum(0)
        w = np.broadcast_to(1.0 / np.maximum(self.n_i, 1), codes.shape)
        # missing judgements (−1) go to bin 0, dropped
        return np.bincount((codes + 1).ravel(), weights=w.ravel(),
                           minlength=self.data.n_labels + 1)[1:]

    @cached_property
    def used(self) -> np.ndarray:
        """1.0 for each label some judgement uses, else 0.0."""
        return (self.item_weighted > 0).astype(float)

    @cached_property
    def margins(self) -> mv.SetMargins:
        """Value and size counts of set labels (mvα); ValueError for plain labels."""
        return mv.SetMargins(self.data.labels)

    @cached_property
    def n_ck(self) -> np.ndarray:
        """Judgements per coder and label, (coders with ≥ 1 judgement) × L."""
        F = label_counts(self.data.codes, self.data.n_labels)
        return F[F.sum(1) > 0].astype(float)

    def stats(self, kinds=EXPECTED_KINDS) -> SufficientStats:
        """The sums of the data (one view) with the expected-disagreement ``kinds`` asked."""
        if "base" not in self._stats:
            self._stats["base"] = self._base()
        st = self._stats["base"]
        m = self.metric
        if {"uniform", "gwet"} & set(kinds) and st.categories is None:
            used = self.used
            st.categories = np.array([used.sum()])
            st.category_cross = np.array([m.cross(used, used)])
        if "gwet" in kinds and st.single_sq is None:
            st.single_sq = np.array([(self.item_weighted ** 2).sum()])
        if "conger" in kinds and st.conger_cross is None:
            st.conger_cross, st.conger_r = _conger_terms(m, self.n_ck[:, None, :])
        if "pooled" in kinds and st.pooled_cross is None:
            st.pooled_cross = np.array([m.cross(self.n_k, self.n_k)])
            st.pooled_n = np.array([self.n_k.sum()])
        if "single" in kinds and st.single_cross is None:
            st.single_cross = np.array([m.cross(self.item_weighted, self.item_weighted)])
        if "individual" in kinds and st.coder_cross is None:
            cross, norm = _coder_terms(m, self.n_ck[:, None, :])
            st.coder_cross, st.coder_norm = cross, norm
        if "multivalued" in kinds and st.value_counts is None:
            st.value_counts, st.size_counts = self.margins(self.n_k[None, :])
        return st

    def _base(self) -> SufficientStats:
        """The sums of Do over the pairable items: Σ disagr_i, Σ n_i disagr_i and their
        counts (summed item by item, as a bootstrap replicate's per-unit sums are)."""
        p = self.pairable
        k = int(np.count_nonzero(p))
        every = k == len(p)  # then no copy of the pairable items is needed
        # disagr_i = 2 Σd / (n(n − 1)), in place (memory new to the process costs as much as
        # the arithmetic)
        n = (self.n_i if every else self.n_i[p]).astype(float)
        dis = np.multiply(self.item_sum if every else self.item_sum[p], 2.0)
        scratch = n - 1
        scratch *= n
        dis /= scratch
        sum_ndis = np.multiply(dis, n, out=scratch).sum()
        return SufficientStats(
            np.array([dis.sum()]), np.array([float(k)]), np.array([sum_ndis]),
            np.array([n.sum()]), np.array([float(np.count_nonzero(self.n_i))]))

    def categories(self, declared=None) -> int:
        """k for S: the declared categories (checked against the labels used), else the
        data's declared categories, else the labels used."""
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
        return int(self.stats(("uniform",)).categories[0])

    def category_terms(self, declared=None) -> tuple[int, float]:
        """(q, Σ_kl d_kl over the q categories) for Brennan–Prediger's and Gwet's chance
        agreement: the declared categories (``declared``, else ``data.categories``), else the
        labels used. Declared categories that no judgement uses are bound to the distance too
        (a label table of the categories), so their distances count."""
        q = self.categories(declared)
        cats = list(declared) if declared is not None else self.data.categories
        if not self.distance.weighted:
            return q, float(q * (q - 1))
        if cats is None:
            used = self.used
            return q, float(self.metric.cross(used, used))
        if self.data.is_set:
            raise ValueError("declared categories with a weighted distance need plain labels")
        labels = list(self.data.labels)
        table = ReliabilityData(np.full((1, len(cats)), -1), list(cats), categories=list(cats))
        ix = {v: i for i, v in enumerate(cats)}
        counts = np.zeros(len(cats))
        counts[[ix[v] for v in labels]] = self.n_k
        metric = self.distance.bind(table, counts)
        ones = np.ones(len(cats))
        return q, float(metric.cross(ones, ones))


def kernel(data: ReliabilityData | Kernel, distance=None) -> Kernel:
    """The cached Kernel of (data, distance); a Kernel passes through."""
    if isinstance(data, Kernel):
        return data
    d = dist.get(distance)
    cache = data.__dict__.setdefault("_kernels", {})  # the kernel keeps d alive: ids stay unique
    if id(d) not in cache:
        cache[id(d)] = Kernel(data, d)
    return cache[id(d)]


# ---- views: unit weights (the bootstrap) --------------------------------------------------------
def _wsum(W: np.ndarray, m: sp.csr_matrix) -> np.ndarray:
    """W (r × U) times a sparse U × L matrix → dense r × L."""
    return np.asarray((m.T @ W.T).T)


class UnitWeights:
    """Per-unit sums of a :class:`Kernel`'s items (``unit_of[i]`` = the unit of item i), so
    that the sums of any reweighting of units — a bootstrap replicate — are one product."""

    def __init__(self, k: Kernel, unit_of: np.ndarray, n_units: int) -> None:
        self.k, self.unit_of, self.U = k, unit_of, n_units
        self.L = k.data.n_labels
        n_i = k.n_i.astype(float)
        dis = np.where(k.pairable, k.disagr_i, 0.0)
        per_item = np.stack([dis, k.pairable.astype(float), dis * n_i,
                             np.where(k.pairable, n_i, 0.0), (k.n_i > 0).astype(float)], 1)
        self.vectors = np.stack([np.bincount(unit_of, weights=col, minlength=n_units)
                                 for col in per_item.T], 1)
        self.categories = float(k.categories())
        self.category_cross = k.category_terms()[1]
        self._cache: dict = {}

    def _counts(self, codes: np.ndarray, weight) -> sp.csr_matrix:
        """Unit × label matrix: Σ over judgements (code ≥ 0) of weight, by unit."""
        valid = codes >= 0
        units = np.broadcast_to(self.unit_of, codes.shape)[valid]
        w = np.ones(units.shape) if weight is None else np.broadcast_to(weight, codes.shape)[valid]
        m = sp.csr_matrix((w, (units, codes[valid])), shape=(self.U, self.L))
        m.sum_duplicates()
        return m

    def matrix(self, kind: str):
        """Unit × label counts: pooled pairable values, item-weighted values, or per coder."""
        if kind not in self._cache:
            k, codes = self.k, self.k.data.codes
            if kind == "pooled":
                self._cache[kind] = self._counts(np.where(k.pairable, codes, -1), None)
            elif kind == "single":
                self._cache[kind] = self._counts(codes, 1.0 / np.maximum(k.n_i, 1))
            else:  # per coder, coders with a judgement
                active = np.flatnonzero(k.valid.sum(1) > 0)
                self._cache[kind] = [self._counts(codes[[c]], None) for c in active]
        return self._cache[kind]

    def quadratic(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(Q, n_cu) with Σ_{c≠d} cross(F_c, F_d) = wᵀQw for F_c(w) = wᵀM_c, or None when there
        are too many units (or the metric's Gram matrix cancels): Q = M D Mᵀ − Σ_c M_c D M_cᵀ
        with M = Σ_c M_c."""
        metric = self.k.metric
        if self.U > QUADRATIC_MAX_UNITS or not metric.exact_gram:
            return None
        if "quadratic" not in self._cache:
            coders = self.matrix("individual")
            total = sum(coders[1:], coders[0])
            Q = metric.gram(total, total)
            for m in coders:
                Q -= metric.gram(m, m)
            n_cu = np.stack([np.asarray(m.sum(1)).ravel() for m in coders], 1)
            self._cache["quadratic"] = (Q, n_cu)
        return self._cache["quadratic"]

    def stats(self, W: np.ndarray, kinds=EXPECTED_KINDS) -> SufficientStats:
        """The sums of every row w of W (r × units): the data with unit u counted w_u times."""
        metric = self.k.metric
        v = W @ self.vectors
        st = SufficientStats(v[:, 0], v[:, 1], v[:, 2], v[:, 3], v[:, 4],
                             np.full(len(W), self.categories),
                             category_cross=np.full(len(W), self.category_cross))
        if {"pooled", "multivalued"} & set(kinds):
            nk = _wsum(W, self.matrix("pooled"))
            if "pooled" in kinds:
                st.pooled_cross, st.pooled_n = metric.cross(nk, nk), nk.sum(1)
            if "multivalued" in kinds:
                st.value_counts, st.size_counts = self.k.margins(nk)
        if {"single", "gwet"} & set(kinds):
            mk = _wsum(W, self.matrix("single"))
            st.single_cross = metric.cross(mk, mk)
            st.single_sq = (mk * mk).sum(1)
        if "conger" in kinds:
            F = np.stack([_wsum(W, m) for m in self.matrix("individual")])  # C × r × L
            st.conger_cross, st.conger_r = _conger_terms(metric, F)
        if "individual" in kinds:
            quad = self.quadratic()
            if quad is not None:
                Q, n_cu = quad
                nc = W @ n_cu
                st.coder_cross = np.einsum("ru,ru->r", W @ Q, W)
                st.coder_norm = nc.sum(1) ** 2 - (nc ** 2).sum(1)
            else:
                F = np.stack([_wsum(W, m) for m in self.matrix("individual")])  # C × r × L
                st.coder_cross, st.coder_norm = _coder_terms(metric, F)
        return st


# ---- views: coder masks (pairwise, leave-one-out) ---------------------------------------------
class CoderMasks:
    """The sums of coder subsets of one (data, distance), each a row of a boolean S × C mask,
    equal to those of ``Kernel(data.subset(coders=...))`` but computed together.

    Per-item pair distances d(c_r, c_s) are summed into each subset's per-item Do sums by a
    (subsets × pairs) matrix product; the pooled and item-weighted label counts are bincounts
    weighted by each subset's pairable and 1/n_i masks; a coder's label counts do not depend on
    the subset. Subsets go in batches so that batch × labels stays below :data:`LABEL_CELLS`.
    The distance must not depend on the value counts (not ordinal: its ranks would change with
    the subset).
    """

    def __init__(self, data: ReliabilityData, metric: dist.Metric) -> None:
        self.data, self.metric = data, metric
        self.F = label_counts(data.codes, data.n_labels).astype(float)
        self.n_c = self.F.sum(1)
        self._self_cross = None

    #: the per-item sums of Do, per subset
    SUMS = ("sum_dis", "n_pairable", "sum_ndis", "n_values", "n_judged")

    def stats(self, subsets: np.ndarray, kinds=EXPECTED_KINDS) -> SufficientStats:
        """The sums of each subset of coders (a row of ``subsets``, S × C booleans) with the
        expected-disagreement ``kinds`` asked, subsets taken in batches."""
        K = np.asarray(subsets, bool)
        metric, L = self.metric, self.data.n_labels
        out = {k: np.zeros(len(K)) for k in self.SUMS}
        if "pooled" in kinds:
            out["pooled_cross"], out["pooled_n"] = np.zeros(len(K)), np.zeros(len(K))
        if {"single", "gwet"} & set(kinds):
            out["single_cross"], out["single_sq"] = np.zeros(len(K)), np.zeros(len(K))
        margins = mv.SetMargins(self.data.labels) if "multivalued" in kinds else None
        counts: list = []
        bsize = max(1, LABEL_CELLS // max(L, 1))
        cached = self._pair_distances() if len(K) > bsize else None
        for b0 in range(0, len(K), bsize):
            Kb = K[b0:b0 + bsize]
            B = len(Kb)
            sums, nk, mk = self._batch(Kb, cached, kinds)
            sel = slice(b0, b0 + B)
            for k in self.SUMS:
                out[k][sel] = sums[k]
            nk = nk.reshape(B, L)
            if "pooled" in kinds:
                out["pooled_cross"][sel], out["pooled_n"][sel] = metric.cross(nk, nk), nk.sum(1)
            if margins is not None:
                counts.append(margins(nk))
            if {"single", "gwet"} & set(kinds):
                mk = mk.reshape(B, L)
                out["single_cross"][sel] = metric.cross(mk, mk)
                out["single_sq"][sel] = (mk * mk).sum(1)
        used = ((K.astype(float) @ (self.F > 0)) > 0).astype(float)
        st = SufficientStats(**out, categories=used.sum(1))
        if counts:
            st.value_counts = np.concatenate([c[0] for c in counts])
            st.size_counts = np.concatenate([c[1] for c in counts])
        if {"uniform", "gwet"} & set(kinds):
            st.category_cross = metric.cross(used, used)
        if "individual" in kinds:
            st.coder_cross, st.coder_norm = self._individual(K)
        if "conger" in kinds:
            st.conger_cross, st.conger_r = self._conger(K)
        return st

    def _pair_distances(self) -> np.ndarray | None:
        """d(c_r, c_s) of every pair of coders (r < s) on every item, 0 where either is
        missing (pairs × items), when that fits in :data:`PAIR_CACHE`: several batches of
        subsets then share it."""
        codes, metric = self.data.codes, self.metric
        C, N = codes.shape
        r, s = np.triu_indices(C, 1)
        if len(r) * N > PAIR_CACHE:
            return None
        cached = np.empty((len(r), N))
        step = max(1, CELLS // max(len(r), 1))
        for i0 in range(0, N, step):
            a, b = codes[r, i0:i0 + step], codes[s, i0:i0 + step]
            cached[:, i0:i0 + step] = metric.pair(a, b) * ((a >= 0) & (b >= 0))
        return cached

    def _batch(self, Kb: np.ndarray, cached: np.ndarray | None, kinds
               ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
        """One batch of subsets: the per-item sums of Do (:attr:`SUMS`), and, where ``kinds``
        needs them, the label counts of pairable judgements and the counts weighted by 1/n_i
        (subset-major, B·L), item chunk by item chunk."""
        codes, metric = self.data.codes, self.metric
        C, N = codes.shape
        L = self.data.n_labels
        valid = codes >= 0
        r, s = np.triu_indices(C, 1)
        B = len(Kb)
        Kf = Kb.astype(float)
        Kp = Kb[:, r] & Kb[:, s]
        used = np.flatnonzero(Kp.any(0))
        pr, ps, Kp = r[used], s[used], Kp[:, used].astype(float)
        sums = {k: np.zeros(B) for k in self.SUMS}
        nk, mk = np.zeros(B * L), np.zeros(B * L)
        counted = bool({"pooled", "single", "gwet", "multivalued"} & set(kinds))
        step = max(1, CELLS // max(len(pr), B, 1))
        for i0 in range(0, N, step):
            sl = slice(i0, i0 + step)
            v = valid[:, sl]
            nS = Kf @ v
            pairable = nS >= 2
            if cached is not None:
                isum = Kp @ cached[used, sl]
            elif len(pr):
                a, b = codes[pr, sl], codes[ps, sl]
                isum = Kp @ (metric.pair(a, b) * ((a >= 0) & (b >= 0)))
            else:
                isum = np.zeros_like(nS)
            dis = divide(2 * isum, nS * (nS - 1), 0.0)  # > 0 where pairable
            sums["sum_dis"] += dis.sum(1)
            sums["sum_ndis"] += (nS * dis).sum(1)
            sums["n_pairable"] += pairable.sum(1)
            sums["n_values"] += np.where(pairable, nS, 0).sum(1)
            sums["n_judged"] += (nS > 0).sum(1)
            if not counted:
                continue
            inv = divide(1.0, nS, 0.0)
            for c in range(C):  # a few coders; each step is vectorised over items and subsets
                sub = np.flatnonzero(Kb[:, c])
                vc = v[c]
                if not sub.size or not vc.any():
                    continue
                idx = (sub[:, None] * L + codes[c, sl][vc]).ravel()
                nk += np.bincount(idx, pairable[sub][:, vc].ravel(), minlength=B * L)
                mk += np.bincount(idx, inv[sub][:, vc].ravel(), minlength=B * L)
        return sums, nk, mk

    def _conger(self, K: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Conger's chance terms per subset: Σ_{c≠d ∈ S} cross(P_c, P_d), P_c coder c's label
        distribution, and the number of coders of S with judgements."""
        P = divide(self.F, self.n_c[:, None], 0.0)
        Kf = K.astype(float)
        total = Kf @ P
        return (self.metric.cross(total, total) - Kf @ self.metric.cross(P, P),
                Kf @ (self.n_c > 0))

    def _individual(self, K: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Σ_{c≠d ∈ S} cross(F_c, F_d) = cross(F_S, F_S) − Σ_{c∈S} cross(F_c, F_c) and
        Σ_{c≠d ∈ S} n_c n_d per subset S (coders' counts are computed once)."""
        if self._self_cross is None:
            self._self_cross = self.metric.cross(self.F, self.F)
        Kf = K.astype(float)
        bsize = max(1, LABEL_CELLS // max(self.data.n_labels, 1))
        cross = np.concatenate([
            self.metric.cross(Kf[b:b + bsize] @ self.F, Kf[b:b + bsize] @ self.F)
            for b in range(0, len(K), bsize)]) if len(K) else np.zeros(0)
        n = Kf @ self.n_c
        return cross - Kf @ self._self_cross, n ** 2 - Kf @ self.n_c ** 2


# ---- coder pairs on their shared items ---------------------------------------------------------
def shared_item_pairs(A: np.ndarray, B: np.ndarray, metric: dist.Metric, n_labels: int
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row by row, Cohen-style (Do, De, items) of two coders on the items both coded:
    Do = mean d(a, b), De = Σ_jl P̂(j|a)P̂(l|b) d_jl with both distributions over those items
    (Cohen 1960, 1968). Used by Light's κ and Carletta's expert variant.

    Items go in chunks (:data:`CELLS` cells of the rows at once): each row's labels on its
    shared items counted in one count over the chunk (a row's labels offset by the row), and
    d evaluated only on the pairs that differ when the distance is 0 between equal labels
    (the nominal distance: their number)."""
    P, N = A.shape
    L = n_labels
    shared = np.zeros(P, np.int64)
    dsum = np.zeros(P)
    F = np.zeros((2, P * (L + 1)), np.int64)
    offset = (np.arange(P, dtype=np.intp) * (L + 1) + 1)[:, None]
    nominal = isinstance(metric, dist.Nominal.metric_type)
    differing = nominal or zero_diagonal(metric, L)
    step = max(1, CELLS // max(P, 1))
    for start in range(0, N, step):
        a, b = A[:, start:start + step], B[:, start:start + step]
        both = (a >= 0) & (b >= 0)
        shared += both.sum(1)
        F[0] += count_codes(np.where(both, a, -1), offset, P * (L + 1))
        F[1] += count_codes(np.where(both, b, -1), offset, P * (L + 1))
        if differing:
            both &= a != b
        if nominal:
            dsum += both.sum(1)
        else:
            rows, cols = np.nonzero(both)
            dsum += np.bincount(rows, metric.pair(a[rows, cols], b[rows, cols]), minlength=P)
    FA, FB = (f.reshape(P, L + 1)[:, 1:] for f in F)
    do = divide(dsum, shared)
    n = np.maximum(shared, 1)[:, None]
    de = np.where(shared > 0, metric.cross(FA / n, FB / n), np.nan)
    return do, de, shared


#: 1 − Do/De (:func:`corpusagree.stats.ratios.chance_corrected`), by its former name here
ratio = chance_corrected


__all__ = ["CELLS", "EXPECTED_KINDS", "LABEL_CELLS", "PAIRS_PER_CHUNK", "PAIR_CACHE",
           "QUADRATIC_MAX_UNITS", "CoderMasks", "Kernel", "SufficientStats", "UnitWeights",
           "counts_by_n", "item_pairs", "kernel", "label_counts", "ratio", "shared_item_pairs"]
