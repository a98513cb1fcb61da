"""The best alignment (Mathet, Widlöcher & Métivier 2015, §4.3 and §5.1): candidate unitary
alignments, pruned as in §5.1.1 and found by a sort-and-sweep over the units' positions, and
the exact set-partitioning integer program over them (HiGHS through
:func:`scipy.optimize.milp`, zero gap, on the components where the LP relaxation is not
already integral)."""

from __future__ import annotations

import numpy as np
from scipy.sparse import csc_array

from ...model.errors import InputError
from .dissimilarity import Dissimilarity
from .solver import FRACTIONAL, branch_and_bound, components, solve

#: the most candidate unitary alignments of one document (α = 0 ignores positions, so every
#: tuple of units of close categories is a candidate)
MAX_CANDIDATES = 5_000_000


# ---- candidate unitary alignments ------------------------------------------------------------
def _expand(first: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(owner, position) of every position in the ranges [first[k], last[k])."""
    counts = np.maximum(last - first, 0)
    owner = np.repeat(np.arange(len(first)), counts)
    starts = np.repeat(first - (np.cumsum(counts) - counts), counts)
    return owner, np.arange(int(counts.sum())) + starts


def _overlapping(lo_a, hi_a, lo_b, hi_b) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j) whose intervals [lo_a[i], hi_a[i]] and [lo_b[j], hi_b[j]] meet, by sort and
    sweep: either b's left end lies in a's interval, or a's left end lies inside b's."""
    ob = np.argsort(lo_b, kind="stable")
    sb = lo_b[ob]
    i1, k1 = _expand(np.searchsorted(sb, lo_a, "left"), np.searchsorted(sb, hi_a, "right"))
    oa = np.argsort(lo_a, kind="stable")
    sa = lo_a[oa]
    j2, k2 = _expand(np.searchsorted(sa, lo_b, "right"), np.searchsorted(sa, hi_b, "right"))
    return np.concatenate([i1, oa[k2]]), np.concatenate([ob[k1], j2])


def _bound(k, n: int, de: float):
    """The largest sum of unit-pair dissimilarities a unitary alignment of k units may have:
    its disorder [Σd + (C(n,2) − C(k,2))Δ∅] / C(n,2) must not exceed kΔ∅ (§5.1.1)."""
    pairs = n * (n - 1) / 2
    return ((k - 1) * pairs + k * (k - 1) / 2) * de


def _first_unit(T: np.ndarray) -> np.ndarray:
    """The first unit of each row of candidate tuples (−1 = ∅)."""
    return T[np.arange(len(T)), np.argmax(T >= 0, axis=1)]


def _ranks(lo: np.ndarray, hi: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """lo and hi as integer ranks in the order (document, value): equal values of a document
    share a rank, and every rank of a document lies below those of the next, so intervals of
    different documents never meet."""
    vals, docs = np.concatenate([lo, hi]), np.concatenate([doc, doc])
    order = np.lexsort((vals, docs))
    v, d = vals[order], docs[order]
    rank = np.empty(len(vals), np.int64)
    rank[order] = np.cumsum(np.r_[True, (v[1:] != v[:-1]) | (d[1:] != d[:-1])])
    return rank[:len(lo)], rank[len(lo):]


def candidates(annot: np.ndarray, s: np.ndarray, e: np.ndarray, cat: np.ndarray, n: int,
               dis: Dissimilarity, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Candidate unitary alignments (rows of unit indices, -1 = ∅, one column per annotator)
    and their disorders, of documents of n annotators each (``doc``: each unit's document;
    units pair only within their document). Built annotator by annotator from partial tuples,
    each extended only with units paired to its first unit; a partial tuple whose pair sum
    already exceeds what any completion may have is dropped."""
    de = dis.delta_empty
    members = [np.flatnonzero(annot == a) for a in range(n)]
    partners = _partners(members, s, e, cat, dis, doc)
    T = np.full((0, n), -1, np.int64)
    S = np.zeros(0)
    for b in range(n):
        if len(T):
            T, S = _extend(T, S, b, partners[b], s, e, cat, dis)
            _check_candidates(T, doc, dis)
        single = np.full((len(members[b]), n), -1, np.int64)
        single[:, b] = members[b]
        T, S = np.concatenate([T, single]), np.concatenate([S, np.zeros(len(single))])
        k = (T >= 0).sum(1)
        keep = S <= _bound(k + (n - 1 - b), n, de)
        T, S = T[keep], S[keep]
    k = (T >= 0).sum(1)
    keep = S <= _bound(k, n, de)
    T, S, k = T[keep], S[keep], k[keep]
    keep = _undominated(T, k, s, e, cat, dis)
    T, S, k = T[keep], S[keep], k[keep]
    pairs = n * (n - 1) / 2
    return T, (S + (pairs - k * (k - 1) / 2) * de) / pairs


def _partners(members: list[np.ndarray], s, e, cat, dis: Dissimilarity, doc: np.ndarray
              ) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each annotator b, a CSR (indptr, units) from any unit of an annotator before b to
    its candidate units of b: those whose dissimilarity may fit a unitary alignment, found by
    a sweep over intervals around the units' midpoints."""
    n, N = len(members), len(s)
    de = dis.delta_empty
    top = _bound(n, n, de)
    mid, length = (s + e) / 2, e - s
    # |s_u − s_v| + |e_u − e_v| ≥ 2|m_u − m_v|, so d_pos ≤ top/α bounds |m_u − m_v|
    half = np.sqrt(top / (dis.alpha * de)) / 2 if dis.alpha > 0 else np.inf
    lo, hi = _ranks(mid - half * length, mid + half * length, doc)
    out = []
    for b in range(n):
        src, dst = [], []
        for a in range(b):
            ua, ub = members[a], members[b]
            i, j = _overlapping(lo[ua], hi[ua], lo[ub], hi[ub])
            i, j = ua[i], ub[j]
            keep = dis(s, e, cat, i, j) <= top
            src.append(i[keep])
            dst.append(j[keep])
        src_all = np.concatenate(src) if src else np.zeros(0, np.int64)
        dst_all = np.concatenate(dst) if dst else np.zeros(0, np.int64)
        order = np.argsort(src_all, kind="stable")
        indptr = np.zeros(N + 1, np.int64)
        np.cumsum(np.bincount(src_all, minlength=N), out=indptr[1:])
        out.append((indptr, dst_all[order]))
    return out


def _extend(T: np.ndarray, S: np.ndarray, b: int, partners: tuple[np.ndarray, np.ndarray],
            s, e, cat, dis: Dissimilarity) -> tuple[np.ndarray, np.ndarray]:
    """The partial tuples T (with their pair sums S) and each of them extended by a unit of
    annotator b paired with its first unit, when the extension may still fit (§5.1.1)."""
    n = T.shape[1]
    anchor = _first_unit(T)
    indptr, dst = partners
    row, pos = _expand(indptr[anchor], indptr[anchor + 1])
    w = dst[pos]
    add = np.zeros(len(row))
    for a in range(b):
        u = T[row, a]
        on = u >= 0
        add[on] += dis(s, e, cat, u[on], w[on])
    k_new = (T[row] >= 0).sum(1) + 1
    S_new = S[row] + add
    ok = S_new <= _bound(k_new + (n - 1 - b), n, dis.delta_empty)
    ext = T[row[ok]]
    ext[:, b] = w[ok]
    return np.concatenate([T, ext]), np.concatenate([S, S_new[ok]])


def _check_candidates(T: np.ndarray, doc: np.ndarray, dis: Dissimilarity) -> None:
    """An InputError when a document has more than :data:`MAX_CANDIDATES` candidates."""
    if len(T) <= MAX_CANDIDATES:
        return
    per_doc = np.bincount(doc[_first_unit(T)])
    if per_doc.max() > MAX_CANDIDATES:
        units = int((doc == per_doc.argmax()).sum())
        raise InputError(f"more than {MAX_CANDIDATES:,} candidate unitary alignments in a "
                         f"document of {units} units (α = {dis.alpha:g}); a larger α lets "
                         "positions rule out more")


def _undominated(T: np.ndarray, k: np.ndarray, s, e, cat, dis: Dissimilarity) -> np.ndarray:
    """The rows of T that no split dominates (exact): dropping unit u from a unitary
    alignment (and leaving it unaligned) is strictly cheaper when Σ_v d(u, v) >
    (C(n,2) + k − 1)·Δ∅."""
    n = T.shape[1]
    rows = np.zeros((len(T), n))
    for a in range(n):
        for b in range(a + 1, n):
            on = (T[:, a] >= 0) & (T[:, b] >= 0)
            d = dis(s, e, cat, T[on, a], T[on, b])
            rows[on, a] += d
            rows[on, b] += d
    return rows.max(1, initial=0.0) <= (n * (n - 1) / 2 + k - 1) * dis.delta_empty


#: the ways :func:`partition` solves its program (:mod:`.solver`)
METHODS = ("highs", "branch")


def partition(T: np.ndarray, cost: np.ndarray, n_units: int, method: str = "highs"
              ) -> np.ndarray:
    """The rows of T (candidate unitary alignments over units 0…n_units−1) that cover every unit
    exactly once at the least total cost: a set-partitioning integer program, solved exactly.

    Units that no multi-unit candidate touches stay alone, outside the program. The program's
    LP relaxation is solved first (HiGHS dual simplex); it separates over the connected
    components of the units (linked by shared candidates), so where it is integral on a
    component it is that component's optimum, and only the components where it is fractional
    are solved as integer programs: by HiGHS's integer solver (zero gap) with ``method
    "highs"``, by branch and bound on the relaxation with ``"branch"`` (:mod:`.solver`, several
    times faster). Both give the least cost; where several alignments share it, ``"highs"``
    picks the one :func:`scipy.optimize.milp` picks."""
    multi = (T >= 0).sum(1) > 1
    touched = np.zeros(n_units, bool)
    touched[T[multi][T[multi] >= 0]] = True
    inside = multi | touched[T.max(1)]
    rows = np.flatnonzero(inside)
    lone = np.flatnonzero(~inside)
    if not len(rows):
        return lone
    col, slot = np.nonzero(T[rows] >= 0)
    ids = (np.cumsum(touched) - 1)[T[rows][col, slot]]
    A = csc_array((np.ones(len(ids)), (ids, col)), shape=(int(touched.sum()), len(rows)))
    c = cost[rows]
    if method == "branch":
        x = branch_and_bound(c, A)
    else:
        x = solve(c, A)
        fractional = np.abs(x - np.round(x)) > FRACTIONAL
        if fractional.any():
            label = components(A)
            hard = np.isin(label, label[fractional])
            sub = A[:, hard]
            keep = np.asarray(sub.sum(1)).ravel() > 0
            x = x.copy()
            x[hard] = solve(c[hard], csc_array(sub[keep]), integer=True)
    return np.sort(np.concatenate([lone, rows[x > 0.5]]))


def candidates_by_document(documents: list[tuple], dis: Dissimilarity
                            ) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`candidates` of each document ``(annotator, start, end, category, n)``, in its
    local unit indices: documents with the same number of annotators are searched together
    (their units concatenated), which gives each document the rows, in the same order, that
    a search of it alone gives."""
    out: list = [None] * len(documents)
    groups: dict[int, list[int]] = {}
    for k, doc in enumerate(documents):
        groups.setdefault(doc[4], []).append(k)
    for n, ks in groups.items():
        sizes = np.array([len(documents[k][1]) for k in ks], np.int64)
        offset = np.r_[0, np.cumsum(sizes)]
        a, s, e, cat = (np.concatenate([documents[k][f] for k in ks]) for f in range(4))
        doc = np.repeat(np.arange(len(ks)), sizes)
        T, cost = candidates(a, s, e, cat, n, dis, doc)
        owner = doc[_first_unit(T)]
        order = np.argsort(owner, kind="stable")
        bounds = np.searchsorted(owner[order], np.arange(len(ks) + 1))
        for g, k in enumerate(ks):
            rows = order[bounds[g]:bounds[g + 1]]
            out[k] = (np.where(T[rows] >= 0, T[rows] - offset[g], -1), cost[rows])
    return out


def align(documents: list[tuple], dis: Dissimilarity, method: str = "highs"
          ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The best alignment of each document ``(annotator, start, end, category, n)`` in local
    arrays: (unitary alignments as rows of local unit indices, -1 = ∅; their disorders). One
    integer program for all documents (their units are disjoint), so that a corpus of many
    small documents costs one solver call."""
    cands = candidates_by_document(documents, dis)
    sizes = np.array([len(doc[1]) for doc in documents], np.int64)
    offset = np.r_[0, np.cumsum(sizes)]
    width = max(T.shape[1] for T, _ in cands)
    T = np.full((sum(len(x) for x, _ in cands), width), -1, np.int64)
    row = 0
    for (Td, _), off in zip(cands, offset[:-1], strict=True):
        T[row:row + len(Td), :Td.shape[1]] = np.where(Td >= 0, Td + off, -1)
        row += len(Td)
    chosen = partition(T, np.concatenate([c for _, c in cands]), int(offset[-1]), method)
    bounds = np.r_[0, np.cumsum([len(x) for x, _ in cands])]
    out = []
    for (Td, cost), lo, hi in zip(cands, bounds[:-1], bounds[1:], strict=True):
        mine = chosen[(chosen >= lo) & (chosen < hi)] - lo
        out.append((Td[mine], cost[mine]))
    return out


__all__ = ["MAX_CANDIDATES", "align", "candidates", "candidates_by_document", "partition"]
