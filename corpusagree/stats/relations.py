"""Agreement on relations between spans: how far annotators find the same relations (F1 of
detection, each annotator pair, each document) and how far they label them alike (any
coefficient of the engine on the aligned relations, :mod:`corpusagree.convert.relations`).

Detection follows the practice of span annotation (Hripcsak & Rothschild 2005): with no
"negative" relations to count, κ is undefined and F1 between two annotators, one taken as the
reference, is the agreement measure; it is symmetric. Micro scores sum the counts over
documents, macro scores average the documents' F1.

References
----------
Hripcsak, G. & Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
information retrieval. *JAMIA* 12(3), 296-298.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..model.data import ReliabilityData
from .overlap import prf

#: the columns of :attr:`Detection.counts`
COLUMNS = ("reference", "other", "shared")


@dataclass(frozen=True)
class Detection:
    """Relation detection counts: row ``k`` is document ``document[k]`` with annotator
    ``reference[k]`` against ``other[k]`` (both annotated it); ``counts[k]`` = (the reference's
    relations, the other's, those both have)."""

    document: np.ndarray
    reference: np.ndarray
    other: np.ndarray
    counts: np.ndarray

    def scores(self, rows=None) -> np.ndarray:
        """(precision, recall, F1) of the summed counts of ``rows`` (default all): micro."""
        c = self.counts if rows is None else self.counts[rows]
        return prf(c.sum(axis=0)[None])[0, 0]

    def per_row(self) -> np.ndarray:
        """rows × (precision, recall, F1)."""
        return prf(self.counts)[:, 0]


def detection(data: ReliabilityData, annotated: np.ndarray) -> Detection:
    """Detection counts of every annotator pair on every document both annotated, from
    aligned relations (``data.codes >= 0``: the annotator has the relation; ``data.groups``:
    the document of each item) — all pairs and documents at once.

    Examples
    --------
    >>> d = ReliabilityData(np.array([[0, 0, -1], [0, -1, 0]]), ["r"], groups=[0, 0, 0])
    >>> detection(d, np.ones((2, 1), bool)).counts.tolist()
    [[2, 2, 1]]
    """
    has = (data.codes >= 0).astype(np.int64)
    D = annotated.shape[1]
    groups = data.groups if data.groups is not None else np.zeros(data.n_items, np.int64)
    G = sp.csr_matrix((np.ones(len(groups)), (np.arange(len(groups)), groups)),
                      shape=(len(groups), D))
    per_doc = np.asarray(G.T @ has.T).T  # annotators × documents
    a, b = np.triu_indices(len(has), 1)
    shared = np.asarray(G.T @ (has[a] * has[b]).T).T  # pairs × documents
    both = annotated[a] & annotated[b]
    pair, doc = np.nonzero(both)
    counts = np.stack([per_doc[a[pair], doc], per_doc[b[pair], doc], shared[pair, doc]],
                      axis=1).astype(np.int64)
    return Detection(doc, a[pair], b[pair], counts.reshape(-1, 3))


__all__ = ["COLUMNS", "Detection", "detection"]
