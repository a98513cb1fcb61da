"""Parseval scores between two annotators' RST trees of the same EDUs.

Two labellings of a tree's constituents are in use (Morey, Muller & Asher 2017, §2):

* **RST-Parseval** (Marcu 2000, ch. 8): every node but the root, the EDU leaves included;
  each node's label is its own nuclearity and its relation to its parent (``span`` for the
  nucleus of a mononuclear relation).
* **Parseval** as for syntactic trees, which Morey et al. show to be the fairer measure: the
  internal nodes, the root included; each node's label is the nuclearity of its two children
  (``NS``, ``SN``, ``NN``) and the relation of its satellite (``NN``: of its left child). This
  labelling is defined on binary trees (:func:`~corpusagree.stats.trees.binarize.binarize`).

For each, four measures count the constituents the two trees share: with the same span
(**S**), span and nuclearity (**N**), span and relation (**R**), span, nuclearity and relation
(**F**, "full"). The first annotator of a pair is the reference: precision = shared / the
other's constituents, recall = shared / the reference's, F1 = 2 shared / (both). Micro scores
sum the counts over documents (Marcu's and Morey et al.'s corpus scores), macro scores average
each document's F1 (what DPLP reports; Morey et al., §3).

References
----------
Marcu, D. (2000). *The Theory and Practice of Discourse Parsing and Summarization*. MIT Press.
Morey, M., Muller, P. & Asher, N. (2017). How much progress have we made on RST discourse
parsing? A replication study of recent results on the RST-DT. *EMNLP*, 1319-1324.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...model.data import ranges
from ..overlap import prf
from .nodes import NUCLEUS, ROOT, SATELLITE, Nodes

VARIANTS = ("rst_parseval", "parseval")
MEASURES = ("span", "nuclearity", "relation", "full")
#: the columns of :attr:`Counts.counts`
COLUMNS = ("reference", "other", *MEASURES)
#: the nuclearity labels of each variant, by code
NUCLEARITY = {"rst_parseval": ("N", "S"), "parseval": ("NN", "NS", "SN")}


@dataclass(frozen=True)
class Constituents:
    """Labelled constituents of every tree: ``tree``, ``start``, ``end``, ``nuclearity``
    (an index into :data:`NUCLEARITY` of the variant), ``relation`` (into ``labels``);
    tree ``t``'s are rows ``ptr[t]:ptr[t+1]``."""

    variant: str
    tree: np.ndarray
    ptr: np.ndarray
    start: np.ndarray
    end: np.ndarray
    nuclearity: np.ndarray
    relation: np.ndarray
    labels: tuple[str, ...]


def constituents(n: Nodes, variant: str) -> Constituents:
    """The constituents that ``variant`` scores, with their labels (module docstring).

    Raises
    ------
    ValueError
        for ``"parseval"`` on trees that are not binary.
    """
    if variant == "rst_parseval":
        keep = n.nuclearity != ROOT
        nuc = (n.nuclearity == SATELLITE).astype(np.int64)
        rel = n.relation
    elif variant == "parseval":
        if not n.binary:
            raise ValueError("Parseval labels (NS, SN, NN) are defined on binary trees: "
                             "binarise them first")
        keep = ~n.leaf
        a, b = n.first, n.second
        nuc_a, nuc_b = n.nuclearity[a], n.nuclearity[b]
        nuc = np.where(nuc_a == nuc_b, 0, np.where(nuc_a == NUCLEUS, 1, 2))
        rel = np.where(nuc_b == SATELLITE, n.relation[b], n.relation[a])
    else:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    rows = np.flatnonzero(keep)
    ptr = np.searchsorted(rows, n.ptr)
    return Constituents(variant, n.tree[rows], ptr, n.start[rows], n.end[rows],
                        np.asarray(nuc)[rows], np.asarray(rel)[rows], n.labels)


@dataclass(frozen=True)
class Counts:
    """Parseval counts of tree pairs: row ``k`` compares tree ``other[k]`` with the reference
    tree ``reference[k]``; ``counts[k]`` = (the reference's constituents, the other's,
    shared spans, shared with nuclearity, with relation, with both) (:data:`COLUMNS`)."""

    variant: str
    reference: np.ndarray
    other: np.ndarray
    counts: np.ndarray

    def scores(self, rows=None) -> np.ndarray:
        """measures × (precision, recall, F1) of the summed counts of ``rows`` (a mask or
        indices, default all): the micro-averaged scores."""
        c = self.counts if rows is None else self.counts[rows]
        return prf(c.sum(axis=0)[None])[0]

    def per_pair(self) -> np.ndarray:
        """rows × measures × (precision, recall, F1)."""
        return prf(self.counts)


def count(c: Constituents, reference: np.ndarray, other: np.ndarray) -> Counts:
    """The counts of every pair (``reference[k]``, ``other[k]``) of tree indices.

    Constituents are matched as multisets (a span found twice in one tree and once in the
    other is shared once), all pairs at once.
    """
    reference = np.asarray(reference, np.int64)
    other = np.asarray(other, np.int64)
    n_pairs = len(reference)
    size = np.diff(c.ptr)
    rows_r = ranges(c.ptr[reference], size[reference])
    rows_o = ranges(c.ptr[other], size[other])
    pair = np.concatenate([np.repeat(np.arange(n_pairs), size[reference]),
                           np.repeat(np.arange(n_pairs), size[other])])
    rows = np.concatenate([rows_r, rows_o])
    side = np.r_[np.zeros(len(rows_r), bool), np.ones(len(rows_o), bool)]
    span = np.stack([pair, c.start[rows], c.end[rows]], axis=1)
    nuc, rel = c.nuclearity[rows][:, None], c.relation[rows][:, None]
    shared = [_shared(keys, side, pair, n_pairs)
              for keys in (span, np.hstack([span, nuc]), np.hstack([span, rel]),
                           np.hstack([span, nuc, rel]))]
    counts = np.column_stack([size[reference], size[other], *shared]).astype(np.int64)
    return Counts(c.variant, reference, other, counts)


def _shared(keys: np.ndarray, side: np.ndarray, pair: np.ndarray, n_pairs: int) -> np.ndarray:
    """Per pair, the multiset intersection size of the two sides' key rows."""
    if not len(keys):
        return np.zeros(n_pairs, np.int64)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    a = np.bincount(inv[~side], minlength=len(uniq))
    b = np.bincount(inv[side], minlength=len(uniq))
    return np.bincount(uniq[:, 0], weights=np.minimum(a, b), minlength=n_pairs).astype(np.int64)


__all__ = ["COLUMNS", "MEASURES", "NUCLEARITY", "VARIANTS", "Constituents", "Counts",
           "constituents", "count"]
