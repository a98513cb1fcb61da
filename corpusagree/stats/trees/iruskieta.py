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
    ``j`` (columns), vectorised."""
    x = np.arange(r.ptr[i], r.ptr[i + 1])
    y = np.arange(r.ptr[j], r.ptr[j + 1])
    width = int(max(r.cs_end.max(initial=0), r.c_end.max(initial=0))) + 1
    cs_x, cs_y = _incidence(r, x, width), _incidence(r, y, width)
    shared = (cs_x @ cs_y.T).toarray()
    size_x, size_y = np.diff(r.cs_ptr)[x], np.diff(r.cs_ptr)[y]
    all_cs = (shared == size_x[:, None]) & (shared == size_y[None, :])
    no_cs = shared == 0

    def same(s1, e1, s2, e2):
        return (s1[x][:, None] == s2[y][None, :]) & (e1[x][:, None] == e2[y][None, :])

    cc_aa = same(r.c_start, r.c_end, r.c_start, r.c_end) & \
        same(r.a_start, r.a_end, r.a_start, r.a_end)
    swapped = same(r.c_start, r.c_end, r.a_start, r.a_end) & \
        same(r.a_start, r.a_end, r.c_start, r.c_end)
    both_mono = ~r.multi[x][:, None] & ~r.multi[y][None, :]
    return np.select([all_cs, cc_aa, swapped, both_mono | no_cs],
                     [SAME_CS, SAME_C_AND_A, SWAPPED_C_AND_A, NO_MATCH], SOME_CS)


def _incidence(r: Relations, rows: np.ndarray, width: int) -> sp.csr_matrix:
    """relations × spans 0/1 matrix of the CS elements of ``rows``."""
    sizes = np.diff(r.cs_ptr)[rows]
    j = np.concatenate([np.arange(r.cs_ptr[k], r.cs_ptr[k + 1]) for k in rows]) \
        if len(rows) else np.zeros(0, np.int64)
    keys = r.cs_start[j] * width + r.cs_end[j]
    m = sp.csr_matrix((np.ones(len(j)), (np.repeat(np.arange(len(rows)), sizes), keys)),
                      shape=(len(rows), width * width))
    m.data[:] = 1.0
    return m


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
        d = distances(r, reference[k], other[k])
        if not d.size:
            continue
        x, y = linear_sum_assignment(d)
        rows_x.append(x + r.ptr[reference[k]])
        rows_y.append(y + r.ptr[other[k]])
        dist.append(d[x, y])
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
