"""Diagnostics: who, which category and which items make agreement low (issue 4, part 3).

* :func:`pairwise` and :func:`leave_one_out`: any coefficient on every coder pair, or without
  each coder — Krippendorff's "odd-man-out" analysis that Carletta (1996 §4, seed 001) points
  to. Both come from one pass over the per-item pair distances that computes Do and the De
  sufficient statistics of every coder subset at once (no loop over items or coder pairs).
* :func:`coincidence`: Krippendorff's (2011) coincidence matrix o_ck; :func:`per_category`:
  his category-specific α (category k against all others).
* :func:`worst_items`: items ranked by what they cost in Do, with every coder's label.
* :func:`coder_distributions` and :func:`bias_by_category`: each coder's P̂(k|c) and bias B
  split by category (Artstein & Poesio, seed 003 §3 and appendix A).
* :func:`two_coder_report`: Di Eugenio & Glass's (2004, seed 000) reporting set — κ (Cohen),
  κ (Siegel & Castellan), 2A_o − 1 and Byrt, Bishop & Carlin's (1993) prevalence and bias
  indices.
* :func:`expert`: Carletta's (1996 §4) variant, each naive coder against a reference coder.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..model.data import ReliabilityData
from . import distances as dist
from .coefficients import COEFFICIENTS, engine

#: array cells (pairs × items) handled at once; bounds memory
CELLS = 4_000_000
#: label-count cells (subsets × labels) accumulated at once
LABEL_CELLS = 8_000_000
#: per-pair item distances kept for reuse when subsets need several batches (pairs × items)
PAIR_CACHE = 20_000_000

#: coefficients that need exactly two coders in every subset
TWO_CODER = {"kappa", "kappa_w"}


# ---- every coder subset at once ------------------------------------------------------------
@dataclass
class SubsetStats:
    """Do and the De variants of the engine for S coder subsets (arrays of length S)."""

    Do: np.ndarray
    Do_alpha: np.ndarray
    De_alpha: np.ndarray
    De_alpha_prime: np.ndarray
    De_beta: np.ndarray
    items: np.ndarray
    coders: np.ndarray
    categories: np.ndarray


def _div(a, b) -> np.ndarray:
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.divide(a, b, out=np.full(np.broadcast(a, b).shape, np.nan), where=b != 0)


def subset_stats(data: ReliabilityData, subsets: np.ndarray, distance=None) -> SubsetStats:
    """The engine's sufficient statistics for each coder subset (rows of a boolean S × C mask),
    equal to ``engine(data.subset(coders=...), distance)``'s but computed together.

    Per-item pair distances d(c_r, c_s) are summed into each subset's per-item Do sums by a
    (subsets × pairs) matrix product; the pooled (α), item-weighted (α′) and per-coder (β)
    label counts are bincounts weighted by each subset's pairable/1 ÷ n_i masks. Subsets are
    processed in batches so that batch × labels stays below :data:`LABEL_CELLS`; the pair
    distances are then computed once and reused (up to :data:`PAIR_CACHE` cells). The distance
    must not depend on the value counts (i.e. not ordinal; see :func:`_subset_values`).
    """
    K = np.asarray(subsets, bool)
    codes = data.codes
    C, N = codes.shape
    L = data.n_labels
    metric = engine(data, distance).metric
    valid = codes >= 0
    rows = np.broadcast_to(np.arange(C)[:, None], codes.shape)[valid]
    F = np.bincount(rows * L + codes[valid], minlength=C * L).reshape(C, L).astype(float)
    n_c = F.sum(1)
    f = F / np.where(n_c > 0, n_c, 1)[:, None]
    self_c = metric.cross(f, f)
    r, s = np.triu_indices(C, 1)
    out = {k: np.full(len(K), np.nan) for k in
           ("Do", "Do_alpha", "De_alpha", "De_alpha_prime", "De_beta")}
    items = np.zeros(len(K), np.int64)
    bsize = max(1, LABEL_CELLS // max(L, 1))
    cached = None
    if len(K) > bsize and len(r) * N <= PAIR_CACHE:
        cached = np.empty((len(r), N))
        step = max(1, CELLS // max(len(r), 1))
        for i0 in range(0, N, step):
            a, b = codes[r, i0:i0 + step], codes[s, i0:i0 + step]
            cached[:, i0:i0 + step] = metric.pair(a, b) * ((a >= 0) & (b >= 0))
    for b0 in range(0, len(K), bsize):
        Kb = K[b0:b0 + bsize]
        B = len(Kb)
        Kf = Kb.astype(float)
        Kp = Kb[:, r] & Kb[:, s]
        used = np.flatnonzero(Kp.any(0))
        pr, ps, Kp = r[used], s[used], Kp[:, used].astype(float)
        sum_dis, sum_ndis = np.zeros(B), np.zeros(B)
        n_pair, n_vals, n_any = np.zeros(B), np.zeros(B), np.zeros(B)
        nk, pk = np.zeros(B * L), np.zeros(B * L)
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
            dis = np.divide(2 * isum, nS * (nS - 1), out=np.zeros_like(nS), where=pairable)
            sum_dis += dis.sum(1)
            sum_ndis += (nS * dis).sum(1)
            n_pair += pairable.sum(1)
            n_vals += np.where(pairable, nS, 0).sum(1)
            n_any += (nS > 0).sum(1)
            inv = np.divide(1.0, nS, out=np.zeros_like(nS), where=nS > 0)
            for c in range(C):  # a few coders; each step is vectorised over items and subsets
                sub = np.flatnonzero(Kb[:, c])
                vc = v[c]
                if not sub.size or not vc.any():
                    continue
                idx = (sub[:, None] * L + codes[c, sl][vc]).ravel()
                nk += np.bincount(idx, pairable[sub][:, vc].ravel(), minlength=B * L)
                pk += np.bincount(idx, inv[sub][:, vc].ravel(), minlength=B * L)
        nk, pk = nk.reshape(B, L), pk.reshape(B, L) / np.maximum(n_any, 1)[:, None]
        n = nk.sum(1)
        w = Kf * n_c
        p = w / np.maximum(w.sum(1), 1)[:, None]
        g = p @ f
        sp2 = (p ** 2).sum(1)
        n_coders = (Kb & (n_c > 0)).sum(1)
        sel = slice(b0, b0 + B)
        out["Do"][sel] = _div(sum_dis, n_pair)
        out["Do_alpha"][sel] = _div(sum_ndis, n_vals)
        out["De_alpha"][sel] = _div(metric.cross(nk, nk), n * (n - 1))
        out["De_alpha_prime"][sel] = np.where(n_any > 0, metric.cross(pk, pk), np.nan)
        out["De_beta"][sel] = np.where(n_coders >= 2, _div(metric.cross(g, g) - (p ** 2) @ self_c,
                                                           1 - sp2), np.nan)
        items[sel] = n_pair
    n_coders = (K & (n_c > 0)).sum(1)
    categories = ((K.astype(float) @ (F > 0)) > 0).sum(1)
    return SubsetStats(**out, items=items, coders=n_coders, categories=categories)


def _pair_shared(A: np.ndarray, B: np.ndarray, metric, L: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row by row, Cohen-style Do, De and item count of two coders on the items both coded:
    Do = mean d(a, b), De = Σ_jl P̂(j|a)P̂(l|b) d_jl with both distributions over those items."""
    both = (A >= 0) & (B >= 0)
    shared = both.sum(1)
    P = A.shape[0]
    pair_of = np.broadcast_to(np.arange(P)[:, None], A.shape)[both]
    a, b = A[both], B[both]
    do = _div(np.bincount(pair_of, metric.pair(a, b), minlength=P), shared)
    FA = np.bincount(pair_of * L + a, minlength=P * L).reshape(P, L)
    FB = np.bincount(pair_of * L + b, minlength=P * L).reshape(P, L)
    n = np.maximum(shared, 1)[:, None]
    de = np.where(shared > 0, metric.cross(FA / n, FB / n), np.nan)
    return do, de, shared


def _ratio(do, de) -> np.ndarray:
    return 1.0 - _div(do, np.where(de > 0, de, 0))


def check_coefficient(coefficient: str) -> bool:
    """Whether the coefficient takes a distance; ValueError naming the known ones."""
    if coefficient not in COEFFICIENTS:
        raise ValueError(f"unknown coefficient {coefficient!r}; known: {', '.join(COEFFICIENTS)}")
    return COEFFICIENTS[coefficient][1]


def _subset_values(data: ReliabilityData, subsets: np.ndarray, coefficient: str,
                   distance) -> tuple[np.ndarray, np.ndarray]:
    """(values, pairable items) of ``coefficient`` on each coder subset; nan where undefined.

    Unweighted coefficients use the nominal distance. The ordinal distance depends on each
    subset's pooled values, so it is recomputed per subset (one engine per subset)."""
    d = dist.get(distance) if check_coefficient(coefficient) else dist.get(None)
    K = np.asarray(subsets, bool)
    if isinstance(d, dist.Ordinal):
        return _loop_values(data, K, coefficient, d)
    st = subset_stats(data, K, d)
    declared = len(data.categories) if data.categories is not None else None
    k = np.full(len(K), declared, float) if declared else st.categories.astype(float)
    values = {
        "percent_agreement": lambda: 1 - st.Do,
        "S": lambda: 1 - _div(st.Do, np.where(k > 1, 1 - 1 / np.maximum(k, 1), 0)),
        "pi": lambda: _ratio(st.Do, st.De_alpha_prime),
        "kappa": lambda: _ratio(st.Do, st.De_beta),
        "multi_kappa": lambda: _ratio(st.Do, st.De_beta),
        "kappa_w": lambda: _ratio(st.Do, st.De_beta),
        "alpha": lambda: _ratio(st.Do_alpha, st.De_alpha),
        "alpha_prime": lambda: _ratio(st.Do, st.De_alpha_prime),
        "beta": lambda: _ratio(st.Do, st.De_beta),
        "bias": lambda: st.De_beta - st.De_alpha_prime,
        "light_kappa": lambda: _light(data, K, d),
    }
    v = values[coefficient]()
    if coefficient in TWO_CODER:
        v = np.where(st.coders == 2, v, np.nan)
    return v, st.items


def _light(data: ReliabilityData, K: np.ndarray, d: dist.Distance) -> np.ndarray:
    """Light's κ of each subset: the mean over its coder pairs of the pair's shared-item κ."""
    r, s = np.triu_indices(data.n_coders, 1)
    do, de, _ = _pair_shared(data.codes[r], data.codes[s], engine(data, d).metric,
                             data.n_labels)
    kap = _ratio(do, de)
    inside = (K[:, r] & K[:, s]) & ~np.isnan(kap)
    return _div(inside @ np.nan_to_num(kap), inside.sum(1))


def _loop_values(data, K, coefficient, d) -> tuple[np.ndarray, np.ndarray]:
    """One engine per subset (each a vectorised call), for value-dependent distances."""
    fn, weighted = COEFFICIENTS[coefficient]
    vals, items = np.full(len(K), np.nan), np.zeros(len(K), np.int64)
    for j, row in enumerate(K):
        sub = data.subset(coders=np.flatnonzero(row))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = fn(sub, d) if weighted else fn(sub)
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


def _matrix(C: int, vals: np.ndarray) -> np.ndarray:
    r, s = np.triu_indices(C, 1)
    M = np.full((C, C), np.nan)
    M[r, s] = M[s, r] = vals
    return M


def _loo_rows(data: ReliabilityData, vals: np.ndarray, items: np.ndarray, whole: float
              ) -> list[dict]:
    return [{"coder": data.coders[c], "value": float(vals[c]), "change": float(vals[c] - whole),
             "items": int(items[c])} for c in range(data.n_coders)]


def pairwise(data: ReliabilityData, coefficient: str = "alpha", distance="nominal"
             ) -> tuple[list, np.ndarray]:
    """(coders, C × C matrix) of ``coefficient`` on every coder pair, each on
    ``data.subset(coders=[a, b])`` (all items; missing judgements allowed); nan on the diagonal
    and where a pair has no shared item or no expected disagreement."""
    vals, _ = _subset_values(data, _pair_masks(data.n_coders), coefficient, distance)
    return list(data.coders), _matrix(data.n_coders, vals)


def leave_one_out(data: ReliabilityData, coefficient: str = "alpha", distance="nominal"
                  ) -> list[dict]:
    """For each coder: the coefficient without that coder (``value``), its ``change`` from the
    value with all coders (nan for κ and κw, undefined on three coders), and the pairable
    ``items`` left. Needs at least three coders."""
    C = data.n_coders
    _check_loo(C, coefficient)
    K = np.vstack([~np.eye(C, dtype=bool), np.ones((1, C), bool)])
    vals, items = _subset_values(data, K, coefficient, distance)
    return _loo_rows(data, vals, items, vals[-1])


def pairwise_and_leave_one_out(data: ReliabilityData, coefficient: str = "alpha",
                               distance="nominal") -> tuple[list, np.ndarray, list[dict] | None]:
    """:func:`pairwise` and :func:`leave_one_out` from one pass over the items (the leave-one-out
    rows are None with fewer than three coders)."""
    C = data.n_coders
    pairs = _pair_masks(C)
    loo = C >= 3 and not (coefficient in TWO_CODER and C != 3)
    K = np.vstack([pairs, ~np.eye(C, dtype=bool), np.ones((1, C), bool)]) if loo else pairs
    vals, items = _subset_values(data, K, coefficient, distance)
    P = len(pairs)
    rows = _loo_rows(data, vals[P:P + C], items[P:P + C], vals[-1]) if loo else None
    return list(data.coders), _matrix(C, vals[:P]), rows


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
            "alpha": 1 - (n - 1) * _div(n_k - o_kk, n_k * (n - n_k))}


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
    e = engine(data, distance)
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
                    "share": float(cost[p] / e.Do_alpha) if e.Do_alpha > 0 else float("nan"),
                    "labels": {c: data.label(int(k))
                               for c, k in zip(data.coders, data.codes[:, t], strict=True)}})
    return out


# ---- coders and bias ------------------------------------------------------------------------
def coder_distributions(data: ReliabilityData) -> dict:
    """Each coder's label counts and P̂(k|c) = n_ck / n_c (coders × labels; nan rows for coders
    without judgements); ``labels`` is ``data.labels``."""
    codes, L = data.codes, data.n_labels
    valid = codes >= 0
    rows = np.broadcast_to(np.arange(data.n_coders)[:, None], codes.shape)[valid]
    counts = np.bincount(rows * L + codes[valid], minlength=data.n_coders * L
                         ).reshape(data.n_coders, L)
    return {"coders": list(data.coders), "labels": data.labels, "counts": counts,
            "proportions": _div(counts, counts.sum(1, keepdims=True))}


def bias_by_category(data: ReliabilityData, n: int | None = None) -> dict:
    """Bias B split by category (A&P seed 003 §3, appendix A): B = Σ_k σ²_{P̂(k|c)} / (c − 1),
    the variance of P̂(k|c) = n_ck / n_c over the c coders weighted equally.

    Rows: ``category``, pooled ``P`` = P̂(k), each coder's P̂(k|c) (``by_coder``), ``B`` =
    σ²_k / (c − 1) and its ``share`` of B; ``delta`` = A_e^π's k term − A_e^κ's k term as the
    engine computes them (P̂(k)² − (g_k² − Σ_c p_c² P̂(k|c)²) / (1 − Σ_c p_c²), p_c the coder's
    share of judgements, g_k = Σ_c p_c P̂(k|c)), whose sum ``B_engine`` is
    ``coefficients.bias(data)`` (nominal). The two agree when no judgement is missing; with
    missing judgements the engine's P̂(k) and coder weights differ from appendix A's and a delta
    may be negative. Rows in label order; with ``n``, the n categories with the largest B_k.
    """
    e = engine(data, None)
    coders = [data.coders[c] for c in np.flatnonzero(e.valid.sum(1) > 0)]
    if len(coders) < 2:
        raise ValueError("bias needs judgements from at least two coders")
    F = e.n_ck
    n_c = F.sum(1)
    f = F / n_c[:, None]
    p = n_c / n_c.sum()
    g = p @ f
    delta = e.P_k ** 2 - (g ** 2 - (p ** 2) @ f ** 2) / (1 - (p ** 2).sum())
    b_k = f.var(0) / (len(coders) - 1)
    total = float(b_k.sum())
    used = _top(np.flatnonzero(F.sum(0) > 0), b_k, n)
    return {"B": total, "B_engine": float(delta.sum()), "coders": coders, "rows": [
        {"category": data.labels[k], "P": float(e.P_k[k]), "B": float(b_k[k]),
         "share": float(b_k[k] / total) if total else float("nan"), "delta": float(delta[k]),
         "by_coder": dict(zip(coders, f[:, k].tolist(), strict=True))} for k in used]}


# ---- two coders; expert ---------------------------------------------------------------------
def two_coder_report(data: ReliabilityData) -> dict:
    """Di Eugenio & Glass's (2004, seed 000) reporting set for two coders, on the contingency
    table of the items both coded (rows = first coder, columns = second):

    ``kappa_cohen`` (P(E) from each coder's distribution), ``kappa_sc`` (Siegel & Castellan:
    one pooled distribution, = π), ``pabak`` = 2A_o − 1, and Byrt, Bishop & Carlin's (1993)
    indices: for two categories ``prevalence`` = (n_11 − n_22)/N and ``bias_index`` =
    (n_12 − n_21)/N (then κ = (PABAK − PI² + BI²)/(1 − PI² + BI²)); for every category k
    against the rest, ``per_category`` PI_k = (n_kk − n_¬k¬k)/N and BI_k = (n_k· − n_·k)/N,
    which reduce to the two above for the first of two categories.
    """
    e = engine(data, None)
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
           "A_e_cohen": Ae_co, "kappa_cohen": float(_ratio(1 - A_o, 1 - Ae_co)),
           "A_e_sc": Ae_sc, "kappa_sc": float(_ratio(1 - A_o, 1 - Ae_sc)),
           "pabak": 2 * A_o - 1, "per_category": per,
           "prevalence": per[0]["prevalence"] if L == 2 else None,
           "bias_index": per[0]["bias_index"] if L == 2 else None}
    return out


def expert(data: ReliabilityData, reference, distance="nominal") -> dict:
    """Carletta's (1996 §4, seed 001) expert variant: each naive coder against a reference.

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
    do, de, shared = _pair_shared(A, B, engine(data, d).metric, data.n_labels)
    rows = [{"coder": data.coders[c], "items": int(n), "observed": float(o),
             "expected": float(x), "value": float(v)}
            for c, n, o, x, v in zip(naive, shared, do, de, _ratio(do, de), strict=True)]
    ok = shared > 0
    tot = shared[ok].sum()
    p_do = float((do[ok] * shared[ok]).sum() / tot) if tot else float("nan")
    p_de = float((de[ok] * shared[ok]).sum() / tot) if tot else float("nan")
    return {"reference": reference, "distance": d.name, "coders": rows,
            "pooled": {"items": int(tot), "observed": p_do, "expected": p_de,
                       "value": float(_ratio(np.array(p_do), np.array(p_de)))}}
