"""Diagnostics: who, which category and which items make agreement low .

* :func:`pairwise` and :func:`leave_one_out`: any coefficient on every coder pair, or without
  each coder — Krippendorff's "odd-man-out" analysis that Carletta (1996, §4) points
  to. Both come from one pass over the per-item pair distances that computes Do and the De
  sufficient statistics of every coder subset at once (no loop over items or coder pairs).
* :func:`coincidence`: Krippendorff's (2011) coincidence matrix o_ck; :func:`per_category`:
  his category-specific α (category k against all others).
* :func:`value_disagreement`: each value's share of mvα's observed disagreement on set labels
  (Krippendorff & Craggs 2016).
* :func:`confused_pairs`: the largest off-diagonal cells o_ck within each group of items (the
  most confused senses of each lemma).
* :func:`worst_items`: items ranked by what they cost in Do, with every coder's label.
* :func:`coder_distributions` and :func:`bias_by_category`: each coder's P̂(k|c) and bias B
  split by category (Artstein & Poesio 2005, §3 and appendix A).
* :func:`two_coder_report`: Di Eugenio & Glass's (2004) reporting set — κ (Cohen),
  κ (Siegel & Castellan), 2A_o − 1 and Byrt, Bishop & Carlin's (1993) prevalence and bias
  indices.
* :func:`expert`: Carletta's (1996 §4) variant, each naive coder against a reference coder.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..model.data import ReliabilityData, ranges
from ..model.records import CoderMatrix
from . import distances as dist
from . import mvalpha, spec
from .coefficients import compute
from .kernel import (
    PAIRS_PER_CHUNK,
    CoderMasks,
    item_pairs,
    kernel,
    label_counts,
    shared_item_pairs,
)
from .ratios import chance_corrected, divide

# ---- every coder subset at once ------------------------------------------------------------
#: coefficients that need exactly two coders in every subset
TWO_CODER = {c.id for c in spec.COEFFICIENTS.values() if c.two_coders}



def subset_values(data: ReliabilityData, subsets: np.ndarray, coefficient: str = "alpha",
                  distance="nominal") -> tuple[np.ndarray, np.ndarray]:
    """(values, pairable items) of ``coefficient`` on each coder subset (rows of a boolean
    S × C mask), equal to the coefficient of ``data.subset(coders=...)``; nan where undefined.

    Unweighted coefficients use the nominal distance. The ordinal distance depends on each
    subset's pooled values, so it is recomputed per subset (one kernel per subset); other
    distances go through :class:`~corpusagree.stats.kernel.CoderMasks` in one pass."""
    c = spec.get(coefficient)
    d = dist.get(spec.distance_for(c, data, distance) if c.weighted or c.distance else None)
    K = np.asarray(subsets, bool)
    if isinstance(d, dist.Ordinal):
        return _loop_values(data, K, c, d)
    masks = CoderMasks(data, kernel(data, d).metric)
    st = masks.stats(K, spec.expected_kinds(c))
    if c.value == "pairs_mean":
        v = _light(data, K, d)
    else:
        if data.categories is not None and st.category_cross is not None:
            q, t = kernel(data, d).category_terms()
            st.categories, st.category_cross = np.full(len(K), float(q)), np.full(len(K), t)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            v = spec.evaluate(c, st)
    if c.two_coders:
        v = np.where((K & (masks.n_c > 0)).sum(1) == 2, v, np.nan)
    return v, st.n_pairable.astype(np.int64)


def _light(data: ReliabilityData, K: np.ndarray, d: dist.Distance) -> np.ndarray:
    """Light's κ of each subset: the mean over its coder pairs of the pair's shared-item κ."""
    r, s = np.triu_indices(data.n_coders, 1)
    do, de, _ = shared_item_pairs(data.codes[r], data.codes[s], kernel(data, d).metric,
                                  data.n_labels)
    kap = chance_corrected(do, de)
    inside = (K[:, r] & K[:, s]) & ~np.isnan(kap)
    return divide(inside @ np.nan_to_num(kap), inside.sum(1))


def _loop_values(data, K, c: spec.Coefficient, d) -> tuple[np.ndarray, np.ndarray]:
    """One kernel per subset (each a vectorised call), for value-dependent distances."""
    vals, items = np.full(len(K), np.nan), np.zeros(len(K), np.int64)
    for j, row in enumerate(K):
        sub = data.subset(coders=np.flatnonzero(row))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = compute(c.id, sub, d if c.weighted else None)
        except ValueError:
            continue
        vals[j], items[j] = res.value, res.items
    return vals, items


def _pair_masks(C: int) -> np.ndarray:
    r, s = np.triu_indices(C, 1)
    K = np.zeros((len(r), C), bool)
    K[np.arange(len(r)), r] = K[np.arange(len(r)), s] = True
    return K


def _check_loo(C: int, coefficient: str) -> None:
    if C < 3:
        raise ValueError("leave-one-coder-out needs at least three coders")
    if coefficient in TWO_CODER and C != 3:
        raise ValueError(f"{coefficient} is defined for exactly two coders, so leaving one out "
                         f"of {C} is undefined; use multi_kappa or beta")


def _matrix(coders: Sequence, vals: np.ndarray) -> CoderMatrix:
    C = len(coders)
    r, s = np.triu_indices(C, 1)
    M = np.full((C, C), np.nan)
    M[r, s] = M[s, r] = vals
    return CoderMatrix(coders, M)


def _loo_rows(data: ReliabilityData, vals: np.ndarray, items: np.ndarray, whole: float
              ) -> list[dict]:
    return [{"coder": data.coders[c], "value": float(vals[c]), "change": float(vals[c] - whole),
             "items": int(items[c])} for c in range(data.n_coders)]


def pairwise(data: ReliabilityData, coefficient: str = "alpha", distance="nominal"
             ) -> tuple[list, CoderMatrix]:
    """(coders, C × C :class:`~corpusagree.model.records.CoderMatrix`) of ``coefficient`` on
    every coder pair, each on
    ``data.subset(coders=[a, b])`` (all items; missing judgements allowed); nan on the diagonal
    and where a pair has no shared item or no expected disagreement."""
    vals, _ = subset_values(data, _pair_masks(data.n_coders), coefficient, distance)
    return list(data.coders), _matrix(data.coders, vals)


def leave_one_out(data: ReliabilityData, coefficient: str = "alpha", distance="nominal"
                  ) -> list[dict]:
    """For each coder: the coefficient without that coder (``value``), its ``change`` from the
    value with all coders (nan for κ and κw, undefined on three coders), and the pairable
    ``items`` left. Needs at least three coders."""
    C = data.n_coders
    _check_loo(C, coefficient)
    K = np.vstack([~np.eye(C, dtype=bool), np.ones((1, C), bool)])
    vals, items = subset_values(data, K, coefficient, distance)
    return _loo_rows(data, vals, items, vals[-1])


def pairwise_and_leave_one_out(data: ReliabilityData, coefficient: str = "alpha",
                               distance="nominal"
                               ) -> tuple[list, CoderMatrix, list[dict] | None]:
    """:func:`pairwise` and :func:`leave_one_out` from one pass over the items (the leave-one-out
    rows are None with fewer than three coders)."""
    C = data.n_coders
    pairs = _pair_masks(C)
    loo = C >= 3 and not (coefficient in TWO_CODER and C != 3)
    K = np.vstack([pairs, ~np.eye(C, dtype=bool), np.ones((1, C), bool)]) if loo else pairs
    vals, items = subset_values(data, K, coefficient, distance)
    P = len(pairs)
    rows = _loo_rows(data, vals[P:P + C], items[P:P + C], vals[-1]) if loo else None
    return list(data.coders), _matrix(data.coders, vals[:P]), rows


# ---- coincidences and categories ------------------------------------------------------------
def _pairable_counts(data: ReliabilityData) -> tuple[sp.csr_matrix, np.ndarray]:
    """(items × labels counts n_uk over items with ≥ 2 values, values per item m_u)."""
    codes = data.codes
    valid = codes >= 0
    m = valid.sum(0)
    keep = valid & (m >= 2)[None, :]
    items = np.broadcast_to(np.arange(codes.shape[1])[None, :], codes.shape)[keep]
    J = sp.csr_matrix((np.ones(len(items)), (items, codes[keep])),
                      shape=(codes.shape[1], data.n_labels))
    J.sum_duplicates()
    return J, m


def coincidence(data: ReliabilityData, sparse: bool | None = None
                ) -> tuple[list, np.ndarray | sp.csr_matrix]:
    """Krippendorff's coincidence matrix o_ck = Σ_u (number of c–k pairs of values in unit u
    from different coders) / (m_u − 1) over units with m_u ≥ 2 values (Krippendorff 2011).

    Rows sum to n_c, the pairable values of each label, and the total is the number of
    pairable values. Computed as Jᵀ W J − diag(Jᵀ w) with J the sparse unit × label counts and
    w = 1/(m_u − 1); sparse (scipy CSR) for set labels or when ``sparse``, else dense. The
    label list is ``data.labels`` (a :class:`SetLabels` for set labels).
    """
    J, m = _pairable_counts(data)
    w = np.where(m >= 2, 1.0 / np.maximum(m - 1, 1), 0.0)
    o = (J.T @ sp.diags(w) @ J - sp.diags(np.asarray(J.T @ w).ravel())).tocsr()
    o.eliminate_zeros()
    if sparse is None:
        sparse = data.is_set
    return data.labels, o if sparse else o.toarray()


def confused_pairs(data: ReliabilityData, groups: np.ndarray, group_names: Sequence,
                   n: int = 5, name: Callable[[int], str] | None = None) -> list[dict]:
    """The ``n`` most confused label pairs of each group of items (e.g. of each lemma): the
    off-diagonal cells o_ck of Krippendorff's (2011) coincidence matrix over the group's items
    (Σ_u number of judgement pairs {c, k} in unit u / (m_u − 1)), computed sparsely over the
    pairs that occur.

    ``groups[i]`` indexes ``group_names``; ``name(code)`` names a label (default ``str``), and
    labels are ranked by name so that ties and the order of ``a`` and ``b`` do not depend on
    the input's order. Rows ``group``, ``a``, ``b``, ``pairs`` (judgement pairs behind the
    cell), ``coincidences`` (o_ck) and ``share`` (of the group's Σ_{c<k} o_ck), groups in
    order, most confused first within a group.
    """
    if name is None:
        def name(code: int) -> str:
            return str(data.labels[code])
    n_i = (data.codes >= 0).sum(0)
    step = max(1, PAIRS_PER_CHUNK // max(1, data.n_coders * (data.n_coders - 1) // 2))
    keys, weights = [], []
    for start in range(0, data.n_items, step):
        a, b, both = item_pairs(data.codes[:, start:start + step])
        off = both & (a != b)
        item = np.broadcast_to(np.arange(start, start + a.shape[1]), a.shape)[off]
        lo, hi = np.minimum(a, b)[off], np.maximum(a, b)[off]
        keys.append(np.stack([groups[item], lo, hi], 1))
        weights.append(1.0 / (n_i[item] - 1))
    k = np.concatenate(keys) if keys else np.zeros((0, 3), np.int64)
    w = np.concatenate(weights) if weights else np.zeros(0)
    if not len(k):
        return []
    used = np.unique(k[:, 1:])
    names = np.array([name(c) for c in used.tolist()], dtype=object)
    rank = np.empty(data.n_labels, np.int64)
    rank[used] = np.argsort(np.argsort(names, kind="stable"), kind="stable")
    lo, hi = np.minimum(rank[k[:, 1]], rank[k[:, 2]]), np.maximum(rank[k[:, 1]], rank[k[:, 2]])
    cells, inv = np.unique(np.stack([k[:, 0], lo, hi], 1), axis=0, return_inverse=True)
    inv = inv.ravel()
    o = np.bincount(inv, weights=w)
    pairs = np.bincount(inv)
    group_total = np.bincount(cells[:, 0], weights=o, minlength=len(group_names))
    order = np.lexsort((cells[:, 2], cells[:, 1], -np.round(o, 12), cells[:, 0]))
    nth = np.arange(len(order)) - np.searchsorted(cells[order, 0], cells[order, 0])
    by_rank = names[np.argsort(names, kind="stable")]
    return [{"group": group_names[g], "a": by_rank[x], "b": by_rank[y], "pairs": int(pairs[j]),
             "coincidences": float(o[j]), "share": float(o[j] / group_total[g])}
            for j in order[nth < n].tolist() for g, x, y in [cells[j].tolist()]]


def category_stats(data: ReliabilityData, by: str | None = None) -> dict:
    """Arrays behind :func:`per_category`, over every label (``by="label"``) or set element
    (``by="element"``): ``names``, ``alpha``, ``values`` (n_k), ``agreeing`` (o_kk); categories
    with no pairable value have n_k = 0 and α = nan."""
    if by is None:
        by = "element" if data.is_set else "label"
    if by not in ("label", "element"):
        raise ValueError(f"by must be 'label' or 'element', not {by!r}")
    if by == "element" and not data.is_set:
        raise ValueError("by='element' needs set-valued labels")
    J, m = _pairable_counts(data)
    if by == "element":
        lab = data.labels
        n_elem = int(lab.elements.max(initial=-1)) + 1
        M = sp.csr_matrix((np.ones(len(lab.elements)), lab.elements, lab.indptr),
                          shape=(len(lab), n_elem))
        J = (J @ M).tocsr()
        names = lab.element_names if lab.element_names is not None else range(n_elem)
    else:
        names = data.labels
    J = J.tocoo()
    w = 1.0 / np.maximum(m - 1, 1)
    n_k = np.bincount(J.col, J.data, minlength=J.shape[1])
    o_kk = np.bincount(J.col, J.data * (J.data - 1) * w[J.row], minlength=J.shape[1])
    n = float(m[m >= 2].sum())
    return {"by": by, "names": names, "values": n_k, "agreeing": o_kk,
            "alpha": 1 - (n - 1) * divide(n_k - o_kk, n_k * (n - n_k))}


def per_category(data: ReliabilityData, by: str | None = None, n: int | None = None
                 ) -> list[dict]:
    """Krippendorff's category-specific α: nominal α of the binary variable "the value is k"
    against "it is not", from the coincidence matrix collapsed to 2 × 2:
    α_k = 1 − (n − 1)(n_k − o_kk) / (n_k (n − n_k)), n pairable values, n_k those that are k.

    ``by="label"`` (default for plain labels) takes each label as k. ``by="element"`` (default
    for set labels) takes each set element e and the binary variable "the set contains e": for
    extended senses, agreement on one sense; for chains of mention ids, agreement on which items
    share a chain with mention e. nan where every value is k (no variation). Rows
    ``category``, ``alpha``, ``values`` (n_k), ``agreeing`` (o_kk), ``disagreeing``
    (n_k − o_kk) for categories with values, in label / element order; with ``n``, only the n
    categories with the most disagreeing values (what they cost in Do), most first.
    """
    return category_rows(category_stats(data, by), n)


def category_rows(st: dict, n: int | None = None) -> list[dict]:
    """:func:`per_category`'s rows from :func:`category_stats`' arrays."""
    n_k, o_kk, alpha, names = st["values"], st["agreeing"], st["alpha"], st["names"]
    return [{"category": names[k], "alpha": float(alpha[k]), "values": float(n_k[k]),
             "agreeing": float(o_kk[k]), "disagreeing": float(n_k[k] - o_kk[k])}
            for k in _top(np.flatnonzero(n_k > 0), n_k - o_kk, n)]


@dataclass
class ValueDisagreement:
    """Each value's part of mvα's observed disagreement (see :func:`value_disagreement`).

    ``observed`` is D_o, ``pairable_values`` the judgements in units with ≥ 2 of them, and
    ``rows`` one dict per value: ``value``, ``judgements`` (pairable judgements whose set holds
    it, n_v), ``contribution`` (its part of D_o; the parts of all values sum to D_o),
    ``share`` (contribution / D_o) and ``alpha`` (Krippendorff's category-specific α of "the
    set holds the value"), the largest contribution first.
    """

    observed: float
    pairable_values: int
    rows: list[dict]

    def to_dict(self) -> dict:
        return {"observed": self.observed, "pairable_values": self.pairable_values,
                "rows": [dict(r) for r in self.rows]}


def value_disagreement(data: ReliabilityData, n: int | None = None) -> ValueDisagreement:
    """Which values make mvα's observed disagreement: D_o split exactly over the values.

    mvα's difference between two sets is δ(C, K) = |C △ K| / (|C| + |K|) (Krippendorff &
    Craggs 2016, §3), so each value in the symmetric difference of a pair carries
    1 / (|C| + |K|) of it, and D_o = Σ_v D_o(v) with
    D_o(v) = (1/n) Σ_{C,K} o_CK [v ∈ C △ K] / (|C| + |K|) over Krippendorff's coincidences
    o_CK of the sets (n pairable judgements). A disagreement between the empty set and a set K
    falls on K's values. Computed over the coinciding pairs of distinct sets and their values,
    vectorised (no loop over units or pairs).

    Parameters
    ----------
    data : ReliabilityData
        Set-valued reliability data.
    n : int, optional
        Keep only the ``n`` values with the largest contributions.

    Returns
    -------
    ValueDisagreement
        D_o and one row per value that occurs in a pairable judgement.

    Raises
    ------
    ValueError
        Labels that are not sets; no unit with two judgements.

    References
    ----------
    Krippendorff, K., & Craggs, R. (2016). The reliability of multi-valued coding of data.
    Communication Methods and Measures, 10(4), 181–198, §3.

    Examples
    --------
    >>> import corpusagree as ca
    >>> from corpusagree.stats.diagnostics import value_disagreement
    >>> data = ca.ReliabilityData.from_triples([
    ...     ("A", 1, {"x", "y"}), ("B", 1, {"x"}), ("A", 2, {"z"}), ("B", 2, {"z"})])
    >>> r = value_disagreement(data)
    >>> r.observed, [(row["value"], row["contribution"]) for row in r.rows]
    (0.16666666666666666, [('y', 0.16666666666666666), ('x', 0.0), ('z', 0.0)])
    """
    if not data.is_set:
        raise ValueError(mvalpha.NEEDS_SETS)
    labels = data.labels
    _, o = coincidence(data, sparse=True)
    o = o.tocoo()
    total = float(o.sum())
    if total == 0:
        raise ValueError("no item has two or more judgements, so agreement is undefined")
    sizes = labels.sizes
    off = o.row != o.col
    C, K = o.row[off].astype(np.int64), o.col[off].astype(np.int64)
    # Σ over ordered pairs (C, K) of o_CK [v ∈ C \ K] / (|C| + |K|), twice: the pairs (K, C)
    # carry K \ C
    weight = 2.0 * o.data[off] / (total * (sizes[C] + sizes[K]))
    pair = np.repeat(np.arange(len(C)), sizes[C])
    values = labels.elements[ranges(labels.indptr[C], sizes[C])]
    n_elem = int(labels.elements.max(initial=-1)) + 1
    row_of = np.repeat(np.arange(len(labels)), sizes)
    keys = row_of * n_elem + labels.elements  # sorted: rows in order, values sorted in a row
    q = K[pair] * n_elem + values
    found = keys[np.minimum(np.searchsorted(keys, q), max(len(keys) - 1, 0))] == q
    part = np.bincount(values[~found], weight[pair][~found], minlength=n_elem)
    st = category_stats(data, by="element")
    observed = float(part.sum())
    names = labels.element_names if labels.element_names is not None else range(n_elem)
    used = np.flatnonzero(st["values"] > 0)
    keep = _top(used, part, n) if n is not None else used[np.lexsort((used, -part[used]))]
    return ValueDisagreement(observed, int(round(total)), [
        {"value": names[v], "judgements": int(st["values"][v]), "contribution": float(part[v]),
         "share": float(part[v] / observed) if observed > 0 else float("nan"),
         "alpha": float(st["alpha"][v])} for v in keep.tolist()])


def _top(keys: np.ndarray, score: np.ndarray, n: int | None) -> np.ndarray:
    """All ``keys`` in order, or the ``n`` with the highest ``score`` (ties: key order)."""
    if n is None:
        return keys
    return keys[np.lexsort((keys, -score[keys]))[:n]]


# ---- items ----------------------------------------------------------------------------------
def worst_items(data: ReliabilityData, distance="nominal", n: int = 10) -> list[dict]:
    """The ``n`` items that cost most in Do, with every coder's label (None = missing).

    ``disagreement`` is disagr_i, the mean pairwise distance on the item (A&P §5.1);
    ``cost`` is its share of Krippendorff's Do, n_i·disagr_i / Σ_j n_j (the costs sum to α's
    Do; with no missing data they are disagr_i / items, A&P's Do). Ranked by cost, then
    disagreement, then item order.
    """
    e = kernel(data, distance)
    do_alpha = float(e.stats(()).observed("values")[0])
    idx = np.flatnonzero(e.pairable)
    n_i = e.n_i[idx].astype(float)
    dis = e.disagr_i[idx]
    cost = n_i * dis / n_i.sum()
    top = idx[np.lexsort((idx, -dis, -cost))[:n]]
    pos = np.searchsorted(idx, top)
    out = []
    for t, p in zip(top, pos, strict=True):
        out.append({"item": data.items[t],
                    "group": None if data.groups is None else
                    (data.group_names[data.groups[t]] if data.group_names else
                     int(data.groups[t])),
                    "disagreement": float(dis[p]), "cost": float(cost[p]),
                    "share": float(cost[p] / do_alpha) if do_alpha > 0 else float("nan"),
                    "labels": {c: data.label(int(k))
                               for c, k in zip(data.coders, data.codes[:, t], strict=True)}})
    return out


# ---- coders and bias ------------------------------------------------------------------------
def coder_distributions(data: ReliabilityData) -> dict:
    """Each coder's label counts and P̂(k|c) = n_ck / n_c (coders × labels; nan rows for coders
    without judgements); ``labels`` is ``data.labels``."""
    counts = label_counts(data.codes, data.n_labels)
    return {"coders": list(data.coders), "labels": data.labels, "counts": counts,
            "proportions": divide(counts, counts.sum(1, keepdims=True))}


def bias_by_category(data: ReliabilityData, n: int | None = None) -> dict:
    """Bias B split by category (Artstein & Poesio 2005, §3, appendix A):
    B = Σ_k σ²_{P̂(k|c)} / (c − 1), the variance of P̂(k|c) = n_ck / n_c over the c coders
    weighted equally.

    Rows: ``category``, pooled ``P`` = P̂(k), each coder's P̂(k|c) (``by_coder``), ``B`` =
    σ²_k / (c − 1) and its ``share`` of B; ``delta`` = A_e^π's k term − A_e^κ's k term as the
    engine computes them (P̂(k)² − (g_k² − Σ_c p_c² P̂(k|c)²) / (1 − Σ_c p_c²), p_c the coder's
    share of judgements, g_k = Σ_c p_c P̂(k|c)), whose sum ``B_engine`` is
    ``coefficients.bias(data)`` (nominal). The two agree when no judgement is missing; with
    missing judgements the engine's P̂(k) and coder weights differ from appendix A's and a delta
    may be negative. Rows in label order; with ``n``, the n categories with the largest B_k.
    """
    e = kernel(data, None)
    coders = [data.coders[c] for c in np.flatnonzero(e.valid.sum(1) > 0)]
    if len(coders) < 2:
        raise ValueError("bias needs judgements from at least two coders")
    F = e.n_ck
    n_c = F.sum(1)
    f = F / n_c[:, None]
    p = n_c / n_c.sum()
    g = p @ f
    P_k = e.item_weighted / (e.n_i > 0).sum()
    delta = P_k ** 2 - (g ** 2 - (p ** 2) @ f ** 2) / (1 - (p ** 2).sum())
    b_k = f.var(0) / (len(coders) - 1)
    total = float(b_k.sum())
    used = _top(np.flatnonzero(F.sum(0) > 0), b_k, n)
    return {"B": total, "B_engine": float(delta.sum()), "coders": coders, "rows": [
        {"category": data.labels[k], "P": float(P_k[k]), "B": float(b_k[k]),
         "share": float(b_k[k] / total) if total else float("nan"), "delta": float(delta[k]),
         "by_coder": dict(zip(coders, f[:, k].tolist(), strict=True))} for k in used]}


# ---- two coders; expert ---------------------------------------------------------------------
def two_coder_report(data: ReliabilityData) -> dict:
    """Di Eugenio & Glass's (2004) reporting set for two coders, on the contingency
    table of the items both coded (rows = first coder, columns = second):

    ``kappa_cohen`` (P(E) from each coder's distribution), ``kappa_sc`` (Siegel & Castellan:
    one pooled distribution, = π), ``pabak`` = 2A_o − 1, and Byrt, Bishop & Carlin's (1993)
    indices: for two categories ``prevalence`` = (n_11 − n_22)/N and ``bias_index`` =
    (n_12 − n_21)/N (then κ = (PABAK − PI² + BI²)/(1 − PI² + BI²)); for every category k
    against the rest, ``per_category`` PI_k = (n_kk − n_¬k¬k)/N and BI_k = (n_k· − n_·k)/N,
    which reduce to the two above for the first of two categories.
    """
    e = kernel(data, None)
    who = np.flatnonzero(e.valid.sum(1) > 0)
    if len(who) != 2:
        raise ValueError(f"the two-coder report needs exactly two coders with judgements, "
                         f"not {len(who)}")
    a, b = data.codes[who[0]], data.codes[who[1]]
    both = (a >= 0) & (b >= 0)
    N = int(both.sum())
    if not N:
        raise ValueError("the two coders share no item")
    used = np.unique(np.concatenate([a[both], b[both]]))
    L = len(used)
    ia, ib = np.searchsorted(used, a[both]), np.searchsorted(used, b[both])
    T = np.bincount(ia * L + ib, minlength=L * L).reshape(L, L)
    pa, pb = T.sum(1) / N, T.sum(0) / N
    A_o = float(np.trace(T)) / N
    Ae_co, Ae_sc = float(pa @ pb), float((((pa + pb) / 2) ** 2).sum())
    diag = np.diag(T)
    per = [{"category": data.labels[k], "prevalence": float((diag[j] - (N - T[j].sum() -
                                                              T[:, j].sum() + diag[j])) / N),
            "bias_index": float((T[j].sum() - T[:, j].sum()) / N)}
           for j, k in enumerate(used)]
    out = {"coders": [data.coders[c] for c in who], "labels": [data.labels[k] for k in used],
           "table": T, "items": N, "A_o": A_o,
           "A_e_cohen": Ae_co, "kappa_cohen": float(chance_corrected(1 - A_o, 1 - Ae_co)),
           "A_e_sc": Ae_sc, "kappa_sc": float(chance_corrected(1 - A_o, 1 - Ae_sc)),
           "pabak": 2 * A_o - 1, "per_category": per,
           "prevalence": per[0]["prevalence"] if L == 2 else None,
           "bias_index": per[0]["bias_index"] if L == 2 else None}
    return out


def expert(data: ReliabilityData, reference, distance="nominal") -> dict:
    """Carletta's (1996, §4) expert variant: each naive coder against a reference.

    For naive coder n, on the items both n and the reference coded: P(A) (here Do = mean
    d(n, ref)) is their observed agreement, and P(E) (De = Σ_jl P̂(j|n) P̂(l|ref) d_jl) the
    agreement expected by chance from the naive coder's and the reference's label distributions
    on those items (Cohen's chance model, per pair); value = 1 − Do/De (κ when nominal).
    ``pooled``: Do and De summed over every naive–reference judgement pair, i.e. each pair
    weighted by its shared items: Do = Σ_n N_n Do_n / Σ N_n, De = Σ_n N_n De_n / Σ N_n.
    """
    if reference not in data.coders:
        raise ValueError(f"unknown reference coder {reference!r}; coders are {data.coders}")
    ref = data.coders.index(reference)
    naive = np.array([c for c in range(data.n_coders) if c != ref], np.int64)
    if not naive.size:
        raise ValueError("no naive coder besides the reference")
    d = dist.get(distance)
    A = data.codes[naive]
    B = np.broadcast_to(data.codes[ref], A.shape)
    do, de, shared = shared_item_pairs(A, B, kernel(data, d).metric, data.n_labels)
    rows = [{"coder": data.coders[c], "items": int(n), "observed": float(o),
             "expected": float(x), "value": float(v)}
            for c, n, o, x, v in zip(naive, shared, do, de, chance_corrected(do, de), strict=True)]
    ok = shared > 0
    tot = shared[ok].sum()
    p_do = float((do[ok] * shared[ok]).sum() / tot) if tot else float("nan")
    p_de = float((de[ok] * shared[ok]).sum() / tot) if tot else float("nan")
    return {"reference": reference, "distance": d.name, "coders": rows,
            "pooled": {"items": int(tot), "observed": p_do, "expected": p_de,
                       "value": float(chance_corrected(np.array(p_do), np.array(p_de)))}}


__all__ = ["TWO_CODER", "ValueDisagreement", "bias_by_category", "category_rows", "category_stats",
           "coder_distributions", "coincidence", "confused_pairs", "expert", "leave_one_out",
           "pairwise", "pairwise_and_leave_one_out", "per_category", "subset_values",
           "two_coder_report", "value_disagreement", "worst_items"]
