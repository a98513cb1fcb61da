"""The judgements of reliability data as flat arrays, one entry per judgement, which every
model of the annotators works on: ``item[m]``, ``annotator[m]`` and ``label[m]`` of judgement
m, each coded 0 … n − 1 over the items, annotators and labels that have judgements.

Items nobody judged, annotators who judged nothing and labels nobody gave are left out of the
models (crowd-kit, which takes a table of judgements, never sees them either) and mapped back
as missing (label None, posteriors and skill nan) in the results.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sparse

from ...model.data import ReliabilityData
from ...model.errors import InputError


@dataclass(frozen=True, eq=False)
class Annotations:
    """Judgements as arrays (see the module docstring) with the maps back to ``data``:
    ``items[i]``, ``annotators[a]`` and ``labels[k]`` are the data's item index, coder index
    and label code of model item i, annotator a and label k."""

    data: ReliabilityData
    item: np.ndarray
    annotator: np.ndarray
    label: np.ndarray
    items: np.ndarray
    annotators: np.ndarray
    labels: np.ndarray

    @classmethod
    def from_data(cls, data: ReliabilityData, *, min_annotators: int = 2) -> Annotations:
        """The judgements of ``data`` (plain labels; at least ``min_annotators`` annotators
        with judgements).

        Raises
        ------
        InputError
            Set-valued labels, no judgement, or fewer annotators than ``min_annotators``.
        """
        if data.is_set:
            raise InputError("models of the annotators need one plain label per judgement, "
                             "not sets of labels")
        flat = judged_cells(data.codes)  # coder-major: coder 0's judgements first
        if not len(flat):
            raise InputError("no judgement to model: every cell is missing")
        code = data.codes.ravel()[flat]
        coder, item = np.divmod(flat, data.n_items)
        annotators, annotator = _compact(coder, data.n_coders)
        if len(annotators) < min_annotators:
            who = ", ".join(map(str, _names(data.coders, annotators)))
            raise InputError(f"models of the annotators need judgements from at least "
                             f"{min_annotators} annotators; these data have "
                             f"{len(annotators)} ({who})")
        items, item_ix = _compact(item, data.n_items)
        labels, label_ix = _compact(code, data.n_labels)
        return cls(data, item_ix, annotator, label_ix, items, annotators, labels)

    # ---- sizes ----------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of judgements."""
        return len(self.label)

    @property
    def n_items(self) -> int:
        return len(self.items)

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    @property
    def n_labels(self) -> int:
        return len(self.labels)

    @property
    def label_names(self) -> list:
        return [self.data.labels[k] for k in self.labels.tolist()]

    # ---- counts -----------------------------------------------------------------------------
    @cached_property
    def votes(self) -> np.ndarray:
        """items × labels: how many judgements gave item i label k."""
        K = self.n_labels
        return np.bincount(self.item * K + self.label,
                           minlength=self.n_items * K).reshape(self.n_items, K).astype(float)

    @cached_property
    def per_item(self) -> np.ndarray:
        """Judgements per item."""
        return np.bincount(self.item, minlength=self.n_items).astype(float)

    @cached_property
    def per_annotator(self) -> np.ndarray:
        """Judgements per annotator."""
        return np.bincount(self.annotator, minlength=self.n_annotators).astype(float)

    @cached_property
    def votes_by_annotator(self) -> np.ndarray:
        """annotators × labels: how often annotator a gave label k."""
        K = self.n_labels
        return np.bincount(self.annotator * K + self.label,
                           minlength=self.n_annotators * K).reshape(-1, K).astype(float)

    @cached_property
    def incidence(self) -> sparse.csr_matrix:
        """(annotators · labels) × items, 1 where annotator a gave item i label k (row
        a·K + k): ``incidence @ T`` sums an items × labels table over each annotator's
        judgements of each label (the M-step of Dawid–Skene), ``incidence.T @ E`` sums a
        table over (annotator, label) rows over each item's judgements (its E-step)."""
        K = self.n_labels
        return sparse.csr_matrix((np.ones(self.n), (self.annotator * K + self.label,
                                                    self.item)),
                                 shape=(self.n_annotators * K, self.n_items))

    @cached_property
    def incidence_t(self) -> sparse.csr_matrix:
        """The transpose of :attr:`incidence`, in CSR form (one row per item)."""
        return self.incidence.T.tocsr()

    @property
    def given(self) -> np.ndarray:
        """annotators × labels: True where the annotator gave the label at least once."""
        return self.votes_by_annotator > 0


#: cells of the codes scanned at once for judgements (a block's mask stays in cache)
SCAN_CHUNK = 1 << 20


def judged_cells(codes: np.ndarray) -> np.ndarray:
    """Flat indices of the cells of ``codes`` that hold a judgement (≥ 0), in order: found
    block by block of whole rows, so no mask of the whole array is made (on 1,000 coders ×
    100,000 items it would be 100 MB, and the scan several times slower)."""
    flat = codes.ravel()
    step = max(SCAN_CHUNK // max(codes.shape[1], 1), 1) * max(codes.shape[1], 1)
    parts = [np.flatnonzero(flat[start:start + step] >= 0) + start
             for start in range(0, len(flat), step)]
    return np.concatenate(parts) if parts else np.zeros(0, np.intp)


def _compact(values: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct values in order, each value's rank among them), by counting."""
    present = np.bincount(values, minlength=size) > 0
    rank = np.cumsum(present) - 1
    return np.flatnonzero(present), rank[values].astype(np.intp)


def _names(names, idx) -> list:
    return [names[i] for i in np.asarray(idx).tolist()]


def first_argmax(table: np.ndarray) -> np.ndarray:
    """The column of each row's largest value, the first (smallest label) on a tie, as
    crowd-kit's ``idxmax`` over labels in sorted order."""
    return np.argmax(table, axis=1)
