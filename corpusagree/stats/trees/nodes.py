"""The nodes of many RST trees as flat arrays: what every tree measure starts from.

Relation labels become integer codes shared by all trees, nodes of tree ``t`` are rows
``ptr[t]:ptr[t+1]`` (leaves first, as in :class:`~corpusagree.model.rst.RSTTree`), and each
node's two children (in a binary tree) are found by one sort, so no measure loops over nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...model.rst import RSTTree

#: nuclearity codes
NUCLEUS, SATELLITE, ROOT = 0, 1, 2
_NUC = {"N": NUCLEUS, "S": SATELLITE, "": ROOT}


@dataclass(frozen=True)
class Nodes:
    """Every node of ``trees``: ``tree``, ``parent`` (a row index, -1 at a root), ``start``,
    ``end`` (EDU indices, end exclusive), ``nuclearity`` (:data:`NUCLEUS`, :data:`SATELLITE`,
    :data:`ROOT`), ``relation`` (an index into ``labels``; -1 at a root), ``leaf`` and
    ``inserted`` (by a binarisation). ``first``/``second``: the children of each node in text
    order (-1 where it has fewer; a node with more than two has ``second`` = its last child,
    and ``binary`` is False)."""

    tree: np.ndarray
    ptr: np.ndarray
    parent: np.ndarray
    start: np.ndarray
    end: np.ndarray
    nuclearity: np.ndarray
    relation: np.ndarray
    leaf: np.ndarray
    inserted: np.ndarray
    first: np.ndarray
    second: np.ndarray
    binary: bool
    labels: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.tree)


def nodes(trees: Sequence[RSTTree]) -> Nodes:
    """The nodes of ``trees`` as arrays (see :class:`Nodes`).

    Examples
    --------
    >>> from corpusagree.model.rst import RSTTree
    >>> t = RSTTree("d", "a", ("A", "B"), (2, 2, -1), (0, 1, 0), (1, 2, 2), ("N", "S", ""),
    ...             ("span", "cause", ""))
    >>> n = nodes([t, t])
    >>> n.ptr.tolist(), n.parent.tolist(), n.labels
    ([0, 3, 6], [2, 2, -1, 5, 5, -1], ('cause', 'span'))
    >>> n.first.tolist(), n.second.tolist()
    ([-1, -1, 0, -1, -1, 3], [-1, -1, 1, -1, -1, 4])
    """
    sizes = np.array([t.n_nodes for t in trees], np.int64)
    ptr = np.concatenate([[0], np.cumsum(sizes)])
    tree = np.repeat(np.arange(len(trees)), sizes)
    parent = np.fromiter((p for t in trees for p in t.parent), np.int64, int(ptr[-1]))
    parent = np.where(parent >= 0, parent + ptr[tree], -1)
    start = np.fromiter((s for t in trees for s in t.start), np.int64, int(ptr[-1]))
    end = np.fromiter((e for t in trees for e in t.end), np.int64, int(ptr[-1]))
    nuc = np.fromiter((_NUC[x] for t in trees for x in t.nuclearity), np.int8, int(ptr[-1]))
    names = [r for t in trees for r in t.relation]
    labels, rel = np.unique(np.array(names, dtype=object), return_inverse=True) \
        if names else (np.array([], object), np.zeros(0, np.int64))
    rel = rel.reshape(-1).astype(np.int64)
    labels = [str(x) for x in labels]
    if "" in labels:  # the root's empty label is no relation
        empty = labels.index("")
        rel = np.where(rel == empty, -1, rel - (rel > empty))
        labels.pop(empty)
    leaf = np.concatenate([np.arange(t.n_nodes) < t.n_edus for t in trees]) if trees \
        else np.zeros(0, bool)
    inserted = np.concatenate([np.asarray(t.inserted or (False,) * t.n_nodes, bool)
                               for t in trees]) if trees else np.zeros(0, bool)
    first, second, binary = _children(parent, start)
    return Nodes(tree, ptr, parent, start, end, nuc, rel, leaf, inserted, first, second,
                 binary, tuple(labels))


def _children(parent: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """(first child, last child, every node with at most two children) of every node."""
    n = len(parent)
    first = np.full(n, -1, np.int64)
    second = np.full(n, -1, np.int64)
    kids = np.flatnonzero(parent >= 0)
    order = kids[np.lexsort((start[kids], parent[kids]))]
    p = parent[order]
    head = np.r_[True, p[1:] != p[:-1]] if len(p) else np.zeros(0, bool)
    tail = np.r_[p[1:] != p[:-1], True] if len(p) else np.zeros(0, bool)
    first[p[head]] = order[head]
    second[p[tail & ~head]] = order[tail & ~head]
    counts = np.bincount(p, minlength=n)
    return first, second, bool((counts <= 2).all())


__all__ = ["NUCLEUS", "ROOT", "SATELLITE", "Nodes", "nodes"]
