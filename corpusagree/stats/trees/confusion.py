"""Which relations annotators swap: a confusion table of relation labels over the constituents
two annotators' trees share (the same span; Parseval's internal nodes, each labelled with the
relation of its satellite, or of its nuclei). The diagonal is Parseval's relation matches;
constituents only one tree has are not in the table (that is span disagreement)."""

from __future__ import annotations

import numpy as np

from ...model.data import ranges
from .parseval import Constituents


def confusion(c: Constituents, reference: np.ndarray, other: np.ndarray) -> np.ndarray:
    """labels × labels counts: ``[i, j]`` constituents the reference labels ``labels[i]`` and
    the other tree, with the same span, ``labels[j]``, summed over the pairs.

    Examples
    --------
    >>> from corpusagree.model.rst import RSTTree
    >>> from corpusagree.stats.trees.nodes import nodes
    >>> from corpusagree.stats.trees.parseval import constituents
    >>> t = lambda rel: RSTTree("d", "a", ("A", "B"), (2, 2, -1), (0, 1, 0), (1, 2, 2),
    ...                         ("N", "S", ""), ("span", rel, ""))
    >>> c = constituents(nodes([t("cause"), t("result")]), "parseval")
    >>> c.labels, confusion(c, [0], [1]).tolist()
    (('cause', 'result', 'span'), [[0, 1, 0], [0, 0, 0], [0, 0, 0]])
    """
    reference = np.asarray(reference, np.int64)
    other = np.asarray(other, np.int64)
    size = np.diff(c.ptr)
    rows_r = ranges(c.ptr[reference], size[reference])
    rows_o = ranges(c.ptr[other], size[other])
    pair = np.concatenate([np.repeat(np.arange(len(reference)), size[reference]),
                           np.repeat(np.arange(len(other)), size[other])])
    rows = np.concatenate([rows_r, rows_o])
    side = np.r_[np.zeros(len(rows_r), np.int64), np.ones(len(rows_o), np.int64)]
    L = len(c.labels)
    if not len(rows):
        return np.zeros((L, L), np.int64)
    keys = np.stack([pair, c.start[rows], c.end[rows], side], axis=1)
    order = np.lexsort(keys.T[::-1])
    k = keys[order]
    # a reference row followed by an other row with the same (pair, start, end)
    same = (k[1:, :3] == k[:-1, :3]).all(axis=1) & (k[:-1, 3] == 0) & (k[1:, 3] == 1)
    a, b = rows[order[:-1][same]], rows[order[1:][same]]
    ok = (c.relation[a] >= 0) & (c.relation[b] >= 0)
    cells = c.relation[a][ok] * L + c.relation[b][ok]
    return np.bincount(cells, minlength=L * L).reshape(L, L)


__all__ = ["confusion"]
