"""Spans of several annotators matched into items: the one aligner of mentions and markables.

Annotators are taken in turn; each one's spans are matched one to one to the items made so far
(each item represented by the span that started it), within a group (a document, or a document
and markable level: spans of different groups never match); unmatched spans start new items.

* ``exact``: identical token sets (discontinuous spans included);
* ``overlap``: Kuhn–Munkres maximising the summed Dice overlap of tokens, any overlap counts
  (the assignment runs only on connected groups of spans that overlap ambiguously).

``duplicates="separate"`` keeps an annotator's identical spans apart (the k-th pairs with the
k-th identical item); ``"merge"`` makes them one judgement on one item, and counts them. The
work is vectorised over spans and tokens: intersections come from one sparse product per
annotator.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linear_sum_assignment
from scipy.sparse.csgraph import connected_components

from ..model.data import canonical_sets, ranges

MATCHES = ("exact", "overlap")


@dataclass
class Spans:
    """Spans as flat arrays: span s is annotator ``annotator[s]``'s in group ``group[s]``
    and covers the tokens ``frag_start[f]:frag_end[f]`` of its fragments
    ``f in frag_ptr[s]:frag_ptr[s+1]`` (token indices within the group's text)."""

    annotator: np.ndarray
    group: np.ndarray
    frag_ptr: np.ndarray
    frag_start: np.ndarray
    frag_end: np.ndarray

    def __len__(self) -> int:
        return len(self.annotator)

    def tokens(self) -> tuple[np.ndarray, np.ndarray]:
        """(span, token) for every token of every span."""
        lengths = self.frag_end - self.frag_start
        frag_of = np.repeat(np.arange(len(self.frag_start)), lengths)
        span_of_frag = np.repeat(np.arange(len(self)), np.diff(self.frag_ptr))
        return span_of_frag[frag_of], ranges(self.frag_start, lengths)

    def incidence(self) -> sp.csr_matrix:
        """spans × (group, token) 0/1 matrix."""
        span, tok = self.tokens()
        width = int(self.frag_end.max(initial=0)) + 1
        n_groups = int(self.group.max(initial=0)) + 1
        M = sp.csr_matrix((np.ones(len(tok)), (span, self.group[span] * width + tok)),
                          shape=(len(self), n_groups * width))
        M.data[:] = 1.0  # a token in two fragments of one span counts once
        return M


@dataclass
class Alignment:
    """``item[s]``: the item of span s; ``first[i]``: the span that started item i (items are
    numbered in the order they were started); ``merged[a]``: spans of annotator a that fell on
    an item it already had (``duplicates="merge"``)."""

    item: np.ndarray
    first: np.ndarray
    merged: np.ndarray


def align(spans: Spans, n_annotators: int, match: str = "exact",
          duplicates: str = "separate") -> Alignment:
    """Match the spans of every annotator into items (see the module docstring)."""
    if match not in MATCHES:
        raise ValueError(f"match must be one of {', '.join(MATCHES)}, not {match!r}")
    if duplicates not in ("separate", "merge"):
        raise ValueError(f"duplicates must be 'separate' or 'merge', not {duplicates!r}")
    M = spans.incidence()
    size = np.diff(M.indptr)
    item = np.full(len(spans), -1, np.int64)
    first = np.zeros(0, np.int64)  # the span that started each item
    merged = np.zeros(n_annotators, np.int64)
    for a in range(n_annotators):
        mine = np.flatnonzero(spans.annotator == a)
        if not len(mine):
            continue
        rep_of = np.arange(len(mine))
        if duplicates == "merge":
            rep_of = _identical(M[mine])
            merged[a] = len(mine) - len(np.unique(rep_of))
        lead = mine[np.unique(rep_of)]
        if len(first):
            inter = (M[first] @ M[lead].T).tocoo()
            r, x, shared = inter.row, inter.col, inter.data
            if match == "exact":
                ok = (shared == size[first][r]) & (shared == size[lead][x])
                r, x, score = r[ok], x[ok], shared[ok]
            else:
                score = 2 * shared / (size[first][r] + size[lead][x])
            r, x = _one_to_one(r, x, score, match == "exact")
            item[lead[x]] = r
        new = lead[item[lead] < 0]
        item[new] = len(first) + np.arange(len(new))
        first = np.concatenate([first, new])
        item[mine] = item[mine[rep_of]]
    return Alignment(item, first, merged)


def _identical(M: sp.csr_matrix) -> np.ndarray:
    """For each row, the first row with the same (group, token) set."""
    M = M.tocsr()
    _, _, row_map = canonical_sets(M.indptr, M.indices)
    first = np.full(int(row_map.max(initial=-1)) + 1, len(row_map), np.int64)
    np.minimum.at(first, row_map, np.arange(len(row_map)))
    return first[row_map]


def _one_to_one(rows: np.ndarray, cols: np.ndarray, score: np.ndarray, exact: bool
                ) -> tuple[np.ndarray, np.ndarray]:
    """A one-to-one matching of the entries (row, col, score > 0) of a sparse score matrix.

    Entries are split into connected components; a component with one row and one column is
    its own pair. Otherwise, for ``exact`` (every component is complete: identical spans) the
    k-th row is paired with the k-th column; for overlap, Kuhn–Munkres maximises the summed
    score within the component."""
    if not len(rows):
        return rows, cols
    ur, ri = np.unique(rows, return_inverse=True)
    uc, ci = np.unique(cols, return_inverse=True)
    nr = len(ur)
    graph = sp.coo_matrix((np.ones(len(ri)), (ri, nr + ci)), shape=(nr + len(uc),) * 2)
    _, comp = connected_components(graph, directed=False)
    n_r = np.bincount(comp[:nr], minlength=comp.max() + 1)
    n_c = np.bincount(comp[nr:], minlength=comp.max() + 1)
    ce = comp[ri]
    simple = (n_r[ce] == 1) & (n_c[ce] == 1)
    out_r, out_c = [ri[simple]], [ci[simple]]
    if exact:
        pair = ~simple & (_rank_within(comp[:nr])[ri] == _rank_within(comp[nr:])[ci])
        out_r.append(ri[pair])
        out_c.append(ci[pair])
    else:
        amb = np.flatnonzero(~simple)
        amb = amb[np.argsort(ce[amb], kind="stable")]
        for e in np.split(amb, np.flatnonzero(np.diff(ce[amb])) + 1) if len(amb) else []:
            br, bri = np.unique(ri[e], return_inverse=True)
            bc, bci = np.unique(ci[e], return_inverse=True)
            block = np.zeros((len(br), len(bc)))
            block[bri, bci] = score[e]
            r, c = linear_sum_assignment(block, maximize=True)
            ok = block[r, c] > 0
            out_r.append(br[r[ok]])
            out_c.append(bc[c[ok]])
    return ur[np.concatenate(out_r)], uc[np.concatenate(out_c)]


def _rank_within(group: np.ndarray) -> np.ndarray:
    """0, 1, 2 … by position among the entries of the same group."""
    order = np.argsort(group, kind="stable")
    g = group[order]
    start = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    rank = np.empty(len(group), np.int64)
    rank[order] = np.arange(len(group)) - np.repeat(start, np.diff(np.r_[start, len(g)]))
    return rank


__all__ = ["MATCHES", "Alignment", "Spans", "align"]
