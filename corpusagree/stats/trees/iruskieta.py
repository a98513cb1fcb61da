"""Iruskieta, da Cunha & Taboada's (2015) qualitative comparison of RST trees, as RST-Tace
(Wan et al. 2019) computes it.

Each tree is a table of relations, one per internal node of its binary tree: a mononuclear
relation's **constituent** (C) is its satellite and its **attachment point** (A) its nucleus; a
multinuclear relation of k nuclei is k − 1 relations, nucleus i (C) against nuclei i+1…k
(A), which is each node of the right-branching chain. The **central subconstituent** (CS) of a
relation is the nucleus of its satellite when the satellite is a mononuclear span, else the
satellite itself; of a multinuclear relation, the same of each nucleus from i to k. Each
relation also has its **nuclearity** (``multi``; ``right``: the satellite precedes the
nucleus; ``left``) and its **relation** name.

The relations of two trees are paired by an optimal assignment
(``scipy.optimize.linear_sum_assignment``) of RST-Tace's matching distance: 0 same CS, 1 same C
and same A, 2 C and A swapped, 3 (multinuclear) some CS element shared, 4 no match. Over the
assigned pairs, a factor's **agreement ratio** is its matches over (matched pairs + 2 ×
unmatched pairs), an unmatched pair counting as two relations without a partner; C matches
with the same span and the same nuclear status, A with the same span, nuclearity with the same
type, CS where the distance is 0 (RST-Tace reports no CS ratio; it is given here as the
proportion of exact CS matches). **Cohen's κ** of a factor is over one item per matched pair
and two per unmatched one (each relation against ``None``), with the spans written
``first-last`` (1-based) as labels — RST-Tace's κ of C ignores the nuclear status its ratio
checks; both are kept as RST-Tace has them.

Where RST-Tace reads an rs3 file differently: it refuses a node with two satellites and makes
the satellite of a satellite a sister of both; here both are constituents as rstWeb draws them
(:mod:`corpusagree.model.rst`), which changes C and CS only for those satellites. RST-Tace's CS
looks one group down, so a nucleus wrapped in a span group without satellites of its own (a
unary span, which these trees do not have) counts whole; here the CS is the nucleus however
the file wraps it. On RSTmulti's 122 comparable documents the figures equal RST-Tace's on the
114 without such a wrapper, and on all 122 with RST-Tace's CS looking through wrappers
(``tests/data/trees/make_rsttace_fixtures.py``).

References
----------
Iruskieta, M., da Cunha, I. & Taboada, M. (2015). A qualitative comparison method for
rhetorical structures: identifying different discourse structures in multilingual corpora.
*Language Resources and Evaluation* 49(2), 263-309.
Wan, S., Kutschbach, T., Lüdeling, A. & Stede, M. (2019). RST-Tace: a tool for automatic
comparison and evaluation of RST trees. *DISRPT workshop*, 88-96.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linear_sum_assignment

from ...model.data import ReliabilityData
from ..groups import group_values
from .nodes import NUCLEUS, SATELLITE, Nodes

#: the factors compared, in the order of :attr:`Comparison.matches`
FACTORS = ("central_subconstituent", "constituent", "attachment_point", "nuclearity",
           "relation")
#: RST-Tace's matching distances
SAME_CS, SAME_C_AND_A, SWAPPED_C_AND_A, SOME_CS, NO_MATCH = range(5)
NUCLEARITY = ("multi", "right", "left")
#: the largest relations × relations table of a tree pair assigned whole, as RST-Tace does
#: (which of several optimal assignments it finds decides some factors' matches); a larger
#: pair is assigned per connected component of its candidate pairs (:func:`assign`), in
#: memory linear in the trees (4·10^6 cells: 32 MB; about 2,000 EDUs a tree)
WHOLE_TABLE = 4_000_000


@dataclass(frozen=True)
class Relations:
    """The relations of every tree: ``tree``, ``name`` (a label index), ``multi``, the spans of
    C (``c_start``, ``c_end``) and A, the nuclearity type (an index into :data:`NUCLEARITY`),
    and the CS: relation r's elements are spans ``cs_start[j]``, ``cs_end[j]`` for j in
    ``cs_ptr[r]:cs_ptr[r+1]``. Tree ``t``'s relations are rows ``ptr[t]:ptr[t+1]``, in
    RST-Tace's order (mononuclear before multinuclear, each by the first CS element)."""

    tree: np.ndarray
    ptr: np.ndarray
    name: np.ndarray
    multi: np.ndarray
    c_start: np.ndarray
    c_end: np.ndarray
    a_start: np.ndarray
    a_end: np.ndarray
    nuclearity: np.ndarray
    cs_ptr: np.ndarray
    cs_start: np.ndarray
    cs_end: np.ndarray
    labels: tuple[str, ...]


def relations(n: Nodes) -> Relations:
    """The relation tables of binary trees (module docstring).

    Raises
    ------
    ValueError
        when the trees are not binary.
    """
    if not n.binary:
        raise ValueError("Iruskieta et al.'s comparison reads relations off binary trees: "
                         "binarise them first")
    node = np.flatnonzero(~n.leaf & (n.first >= 0))
    a, b = n.first[node], n.second[node]
    multi = (n.nuclearity[a] == NUCLEUS) & (n.nuclearity[b] == NUCLEUS)
    sat_first = n.nuclearity[a] == SATELLITE
    sat = np.where(sat_first, a, b)
    nuc = np.where(sat_first, b, a)
    c = np.where(multi, a, sat)
    att = np.where(multi, b, nuc)
    kind = np.where(multi, 0, np.where(sat_first, 1, 2))
    name = np.where(multi, n.relation[a], n.relation[sat])
    # the central subconstituent of one node: the nucleus of a mononuclear span, else itself
    mono_span = ~n.leaf & (n.first >= 0) & (
        (n.nuclearity[np.maximum(n.first, 0)] == SATELLITE)
        | (n.nuclearity[np.maximum(n.second, 0)] == SATELLITE))
    head = np.where(mono_span, np.where(n.nuclearity[np.maximum(n.first, 0)] == NUCLEUS,
                                        n.first, n.second), np.arange(len(n)))
    # a multinuclear relation's CS: each nucleus from its left child along the inserted chain
    chain_next = np.where(n.inserted[b] & multi, b, -1)
    next_of = np.full(len(n), -1, np.int64)
    next_of[node] = chain_next
    cs_lists = []
    for k in range(len(node)):  # the chain is walked without recursion
        if not multi[k]:
            cs_lists.append([head[sat[k]]])
            continue
        items, at = [head[a[k]]], node[k]
        while next_of[at] >= 0:
            at = next_of[at]
            items.append(head[n.first[at]])
        items.append(head[n.second[at]])
        cs_lists.append(items)
    sizes = np.array([len(x) for x in cs_lists], np.int64)
    flat = np.array([x for lst in cs_lists for x in lst], np.int64)
    first_cs = flat[np.r_[0, np.cumsum(sizes)[:-1]]] if len(flat) else flat
    last_cs = flat[np.cumsum(sizes) - 1] if len(flat) else flat
    # RST-Tace's order: mononuclear first, each by 0.99999·min + 0.00001·max of its CS (1-based)
    key = 0.99999 * (n.start[first_cs] + 1) + 0.00001 * n.end[last_cs]
    order = np.lexsort((key, multi, n.tree[node]))
    starts = np.r_[0, np.cumsum(sizes)][:-1]
    cs_rows = np.concatenate([flat[starts[k]:starts[k] + sizes[k]] for k in order]) \
        if len(order) else flat
    tree = n.tree[node][order]
    ptr = np.searchsorted(tree, np.arange(len(n.ptr)))
    return Relations(tree, ptr, name[order], multi[order], n.start[c][order], n.end[c][order],
                     n.start[att][order], n.end[att][order], kind[order],
                     np.r_[0, np.cumsum(sizes[order])], n.start[cs_rows], n.end[cs_rows],
                     n.labels)


def distances(r: Relations, i: int, j: int) -> np.ndarray:
    """RST-Tace's matching distance between every relation of tree ``i`` (rows) and of tree
    ``j`` (columns), as a dense array (for small trees and tests: :func:`compare` works on
    :func:`candidates`, whose memory is linear in the trees)."""
    nx, ny = r.ptr[i + 1] - r.ptr[i], r.ptr[j + 1] - r.ptr[j]
    out = np.full((nx, ny), NO_MATCH, np.int64)
    x, y, d = candidates(r, i, j)
    out[x, y] = d
    return out


def candidates(r: Relations, i: int, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(x, y, d)``: every pair of relation ``x`` of tree ``i`` and relation ``y`` of tree
    ``j`` (indices within each tree) whose matching distance ``d`` is below ``NO_MATCH``; all
    other pairs are ``NO_MATCH``. Such a pair shares a CS element, or has the same C and A, or
    C and A swapped, so the pairs are found by joining on those keys (sparse products of
    one-hot tables): memory linear in the relations, their CS elements and these pairs,
    never relations × relations."""
    x = np.arange(r.ptr[i], r.ptr[i + 1])
    y = np.arange(r.ptr[j], r.ptr[j + 1])
    nx, ny = len(x), len(y)
    if not nx or not ny:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    cs_x, cs_y = _elements(r, x), _elements(r, y)
    ids = np.unique(np.concatenate([cs_x[1], cs_y[1]]), axis=0, return_inverse=True)[1]
    ids = ids.reshape(-1)
    inc_x = _one_hot(cs_x[0], ids[:len(cs_x[1])], nx, int(ids.max()) + 1)
    inc_y = _one_hot(cs_y[0], ids[len(cs_x[1]):], ny, int(ids.max()) + 1)
    shared = (inc_x @ inc_y.T).tocsr()
    ca_x = np.stack([r.c_start[x], r.c_end[x], r.a_start[x], r.a_end[x]], axis=1)
    ca_y = np.stack([r.c_start[y], r.c_end[y], r.a_start[y], r.a_end[y]], axis=1)
    ac_y = ca_y[:, [2, 3, 0, 1]]
    keys = np.unique(np.concatenate([ca_x, ca_y, ac_y]), axis=0, return_inverse=True)[1]
    keys = keys.reshape(-1)
    kx, ky, ks = keys[:nx], keys[nx:nx + ny], keys[nx + ny:]
    width = int(keys.max()) + 1
    ex = _one_hot(np.arange(nx), kx, nx, width)
    pairs = [shared.tocoo(), (ex @ _one_hot(np.arange(ny), ky, ny, width).T).tocoo(),
             (ex @ _one_hot(np.arange(ny), ks, ny, width).T).tocoo()]
    flat = np.unique(np.concatenate([p.row.astype(np.int64) * ny + p.col for p in pairs]))
    px, py = np.divmod(flat, ny)
    n_shared = np.asarray(shared[px, py]).reshape(-1) if len(flat) else np.zeros(0)
    size = np.diff(r.cs_ptr)
    all_cs = (n_shared == size[x][px]) & (n_shared == size[y][py])
    both_mono = ~r.multi[x][px] & ~r.multi[y][py]
    d = np.select([all_cs, kx[px] == ky[py], kx[px] == ks[py], both_mono | (n_shared == 0)],
                  [SAME_CS, SAME_C_AND_A, SWAPPED_C_AND_A, NO_MATCH], SOME_CS)
    keep = d != NO_MATCH
    return px[keep], py[keep], d[keep].astype(np.int64)


def _elements(r: Relations, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row within ``rows``, (start, end)) of every CS element of the relations ``rows``."""
    sizes = np.diff(r.cs_ptr)[rows]
    first = r.cs_ptr[rows]
    offset = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    j = np.repeat(first, sizes) + offset
    return (np.repeat(np.arange(len(rows)), sizes),
            np.stack([r.cs_start[j], r.cs_end[j]], axis=1))


def _one_hot(rows: np.ndarray, cols: np.ndarray, n: int, width: int) -> sp.csr_matrix:
    """n × width 0/1 matrix with ones at (rows, cols) (a repeated cell is one)."""
    m = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, width))
    m.sum_duplicates()
    m.data[:] = 1.0
    return m


def assign(nx: int, ny: int, x: np.ndarray, y: np.ndarray, d: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A minimum-cost assignment of min(nx, ny) pairs of an nx × ny distance table that is
    ``NO_MATCH`` except at the pairs ``(x, y)`` (distance ``d``): the optimal assignment
    (``scipy.optimize.linear_sum_assignment``) of each connected component of those pairs,
    then the rows left paired in order with the columns left, at ``NO_MATCH``. The same
    total as one assignment of the whole table (a pair across components costs
    ``NO_MATCH`` either way), without ever holding it: returns (rows, columns, distances),
    by row."""
    from scipy.sparse.csgraph import connected_components

    n = nx + ny
    graph = sp.csr_matrix((np.ones(len(x)), (x, nx + y)), shape=(n, n))
    _, comp = connected_components(graph, directed=False)
    cx = comp[x]
    edges = np.bincount(cx, minlength=n)
    rows_in = np.bincount(comp[:nx], minlength=n)
    cols_in = np.bincount(comp[nx:], minlength=n)
    single = (edges[cx] == 1) & (rows_in[cx] == 1) & (cols_in[cx] == 1)
    out_x, out_y, out_d = [x[single]], [y[single]], [d[single]]
    order = np.argsort(cx[~single], kind="stable")
    rest_x, rest_y, rest_d, rest_c = (a[~single][order] for a in (x, y, d, cx))
    bounds = np.flatnonzero(np.r_[True, rest_c[1:] != rest_c[:-1], True]) \
        if len(rest_c) else np.zeros(1, np.int64)
    for s, e in zip(bounds[:-1], bounds[1:], strict=True):  # components of several pairs
        ux, ix = np.unique(rest_x[s:e], return_inverse=True)
        uy, iy = np.unique(rest_y[s:e], return_inverse=True)
        table = np.full((len(ux), len(uy)), float(NO_MATCH))
        table[ix, iy] = rest_d[s:e]
        a, b = linear_sum_assignment(table)
        hit = table[a, b] < NO_MATCH
        out_x.append(ux[a[hit]])
        out_y.append(uy[b[hit]])
        out_d.append(table[a, b][hit].astype(np.int64))
    mx, my, md = (np.concatenate(v) for v in (out_x, out_y, out_d))
    free_x = np.setdiff1d(np.arange(nx), mx)
    free_y = np.setdiff1d(np.arange(ny), my)
    q = min(nx, ny) - len(mx)
    ax = np.concatenate([mx, free_x[:q]])
    ay = np.concatenate([my, free_y[:q]])
    ad = np.concatenate([md, np.full(q, NO_MATCH, np.int64)])
    order = np.argsort(ax, kind="stable")
    return ax[order], ay[order], ad[order]


@dataclass(frozen=True)
class Comparison:
    """Iruskieta et al.'s comparison of tree pairs: for pair ``k`` (reference tree
    ``reference[k]``, other ``other[k]``), ``matched[k]`` and ``unmatched[k]`` assigned pairs,
    and ``matches[k]`` per factor (:data:`FACTORS`). ``items``: the κ items of every factor,
    ``(pair, label of the reference, label of the other)`` with labels as strings, ``None`` for
    a relation without a partner."""

    reference: np.ndarray
    other: np.ndarray
    matched: np.ndarray
    unmatched: np.ndarray
    matches: np.ndarray
    items: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]

    @property
    def denominators(self) -> np.ndarray:
        return self.matched + 2 * self.unmatched

    def ratios(self, rows=None) -> np.ndarray:
        """factors: agreement ratios of the summed counts of ``rows`` (default all): micro."""
        sel = slice(None) if rows is None else rows
        den = self.denominators[sel].sum()
        return self.matches[sel].sum(axis=0) / den if den else np.full(len(FACTORS), np.nan)

    def per_pair(self) -> np.ndarray:
        """pairs × factors: each pair's agreement ratios (nan without relations)."""
        den = self.denominators[:, None].astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, self.matches / den, np.nan)


def compare(r: Relations, reference: np.ndarray, other: np.ndarray) -> Comparison:
    """Compare every tree pair (module docstring): one assignment per pair."""
    reference = np.asarray(reference, np.int64)
    other = np.asarray(other, np.int64)
    P = len(reference)
    matched = np.zeros(P, np.int64)
    unmatched = np.zeros(P, np.int64)
    matches = np.zeros((P, len(FACTORS)), np.int64)
    rows_x, rows_y, dist, pair = [], [], [], []
    for k in range(P):
        i, j = reference[k], other[k]
        nx, ny = r.ptr[i + 1] - r.ptr[i], r.ptr[j + 1] - r.ptr[j]
        if not nx or not ny:
            continue
        if nx * ny <= WHOLE_TABLE:  # ties broken as RST-Tace's assignment breaks them
            table = distances(r, i, j)
            x, y = linear_sum_assignment(table)
            d = table[x, y]
        else:
            x, y, d = assign(nx, ny, *candidates(r, i, j))
        rows_x.append(x + r.ptr[i])
        rows_y.append(y + r.ptr[j])
        dist.append(d)
        pair.append(np.full(len(x), k))
    if not dist:
        empty = {f: (np.zeros(0, np.int64), np.zeros(0, object), np.zeros(0, object))
                 for f in FACTORS}
        return Comparison(reference, other, matched, unmatched, matches, empty)
    x, y = np.concatenate(rows_x), np.concatenate(rows_y)
    d, pair = np.concatenate(dist), np.concatenate(pair)
    ok = d != NO_MATCH
    np.add.at(matched, pair[ok], 1)
    np.add.at(unmatched, pair[~ok], 1)
    labels = _labels(r)
    same = {
        "central_subconstituent": d == SAME_CS,
        "constituent": (r.c_start[x] == r.c_start[y]) & (r.c_end[x] == r.c_end[y])
        & (r.multi[x] == r.multi[y]),
        "attachment_point": (r.a_start[x] == r.a_start[y]) & (r.a_end[x] == r.a_end[y]),
        "nuclearity": r.nuclearity[x] == r.nuclearity[y],
        "relation": r.name[x] == r.name[y],
    }
    for j, f in enumerate(FACTORS):
        matches[:, j] = np.bincount(pair[ok & same[f]], minlength=P)
    items = {}
    for f in FACTORS:
        lab = labels[f]
        none = np.full(int((~ok).sum()), None, object)
        items[f] = (np.concatenate([pair[ok], pair[~ok], pair[~ok]]),
                    np.concatenate([lab[x[ok]], lab[x[~ok]], none]),
                    np.concatenate([lab[y[ok]], none, lab[y[~ok]]]))
    return Comparison(reference, other, matched, unmatched, matches, items)


def _labels(r: Relations) -> dict[str, np.ndarray]:
    """Each relation's label of every factor as RST-Tace writes it (spans ``first-last``,
    1-based)."""

    def spans(s, e):
        return np.array([f"{a + 1}-{b}" for a, b in zip(s.tolist(), e.tolist(), strict=True)],
                        object)

    cs = spans(r.cs_start, r.cs_end)
    return {
        "central_subconstituent": np.array([";".join(cs[r.cs_ptr[k]:r.cs_ptr[k + 1]])
                                            for k in range(len(r.name))], object),
        "constituent": spans(r.c_start, r.c_end),
        "attachment_point": spans(r.a_start, r.a_end),
        "nuclearity": np.array(NUCLEARITY, object)[r.nuclearity],
        "relation": np.array(r.labels + ("",), object)[r.name],
    }


def kappas(c: Comparison, weights: np.ndarray | None = None) -> np.ndarray:
    """Cohen's κ of every factor: pairs × factors (each pair's items), or with ``weights``
    (rows × pairs) of each weighted union of pairs' items (rows of ones over one annotator
    pair's documents: the pooled, micro κ). ``None`` is a label, as in RST-Tace."""
    P = len(c.reference)
    out = np.full((P if weights is None else len(weights), len(FACTORS)), np.nan)
    for j, f in enumerate(FACTORS):
        pair, x, y = c.items[f]
        if not len(pair):
            continue
        both = np.concatenate([x, y]).astype(str)  # None -> "None"
        labels, codes = np.unique(both, return_inverse=True)
        data = ReliabilityData(codes.reshape(2, -1), list(labels))
        out[:, j] = group_values(data, "kappa", pair, P, weights)
    return out


__all__ = ["FACTORS", "NO_MATCH", "NUCLEARITY", "SAME_CS", "SAME_C_AND_A", "SOME_CS",
           "SWAPPED_C_AND_A", "Comparison", "Relations", "compare", "distances", "kappas",
           "relations"]
