"""The judgements of reliability data as flat arrays, one entry per judgement, which every
model of the annotators works on: ``item[m]``, ``annotator[m]`` and ``label[m]`` of judgement
m, each coded 0 … n − 1 over the items, annotators and labels that have judgements.

Items may carry weights (:meth:`Annotations.reweighted`): every sum over judgements or items
is then weighted, so a fit with whole-number weights is the fit on the data with each item
repeated that many times — a bootstrap replicate without copying the data.

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
from ...model.params import ArrayLike, Param

#: bytes one table of a model of the annotators may take (items × labels posteriors,
#: annotators × labels × labels confusion matrices); a fit that needs more is refused before
#: anything is allocated (a fit holds a few such tables at once)
TABLE_LIMIT = 1 << 29


@dataclass(frozen=True, eq=False)
class Annotations:
    """Judgements as arrays (see the module docstring) with the maps back to ``data``:
    ``items[i]``, ``annotators[a]`` and ``labels[k]`` are the data's item index, coder index
    and label code of model item i, annotator a and label k. ``item_weight`` (None: all 1)
    weighs each model item."""

    data: ReliabilityData
    item: np.ndarray
    annotator: np.ndarray
    label: np.ndarray
    items: np.ndarray
    annotators: np.ndarray
    labels: np.ndarray
    item_weight: np.ndarray | None = None

    @classmethod
    def of(cls, data: ReliabilityData | Annotations) -> Annotations:
        """``data`` itself when it is already judgements as arrays, else
        :meth:`from_data`."""
        return data if isinstance(data, Annotations) else \
            cls.from_data(ReliabilityData.coerce(data))

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

    def reweighted(self, weights: np.ndarray) -> Annotations:
        """The same judgements with the data's items weighted by ``weights`` (one number ≥ 0
        per item of the data, e.g. how often a bootstrap replicate draws it); the judgements
        of items of weight 0 are left out, the items, annotators and labels stay."""
        w = np.asarray(weights, dtype=float)[self.items]
        if self.item_weight is not None:
            w = w * self.item_weight
        keep = w[self.item] > 0
        return Annotations(self.data, self.item[keep], self.annotator[keep], self.label[keep],
                           self.items, self.annotators, self.labels, w)

    # ---- sizes ----------------------------------------------------------------------------
    def check_size(self, model: str, *, confusion: bool = False) -> None:
        """An InputError with the numbers when a table of the fit of ``model`` (items ×
        labels, and with ``confusion`` annotators × labels × labels) would take more than
        :data:`TABLE_LIMIT` bytes: every model holds a probability (or a vote share) of
        every label for every item, so many distinct labels cannot be modelled.

        >>> from corpusagree import ReliabilityData
        >>> data = ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "y")])
        >>> Annotations.of(data).check_size("dawid_skene", confusion=True)
        """
        K = self.n_labels
        tables = [(f"{self.n_items:,} items × {K:,} labels", self.n_items * K)]
        if confusion:
            tables.append((f"{self.n_annotators:,} annotators × {K:,} × {K:,} labels",
                           self.n_annotators * K * K))
        for what, cells in tables:
            if cells * 8 > TABLE_LIMIT:
                raise InputError(
                    f"{model}: a table of {what} would take {cells * 8 / (1 << 30):.2f} GiB "
                    f"(at most {TABLE_LIMIT / (1 << 30):.2f} GiB): merge rare labels, or "
                    "measure agreement with the table job")

    @property
    def n(self) -> int:
        """Number of judgements."""
        return len(self.label)

    @cached_property
    def weight(self) -> np.ndarray | None:
        """Each judgement's weight, its item's (None: all 1)."""
        return None if self.item_weight is None else self.item_weight[self.item]

    @property
    def total(self) -> float:
        """The judgements' total weight."""
        return float(self.n if self.weight is None else self.weight.sum())

    def item_sum(self, values: np.ndarray) -> np.ndarray:
        """Σ over items of ``values`` (one row per item), each weighted."""
        return values.sum(0) if self.item_weight is None else self.item_weight @ values

    def item_mean(self, values: np.ndarray) -> np.ndarray:
        """The weighted mean over items of ``values`` (one row per item)."""
        if self.item_weight is None:
            return values.mean(0)
        return self.item_weight @ values / self.item_weight.sum()

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
        return np.bincount(self.item * K + self.label, weights=self.weight,
                           minlength=self.n_items * K).reshape(self.n_items, K).astype(float)

    @cached_property
    def per_item(self) -> np.ndarray:
        """Judgements per item."""
        return np.bincount(self.item, weights=self.weight,
                           minlength=self.n_items).astype(float)

    @cached_property
    def per_annotator(self) -> np.ndarray:
        """Judgements per annotator."""
        return np.bincount(self.annotator, weights=self.weight,
                           minlength=self.n_annotators).astype(float)

    @cached_property
    def votes_by_annotator(self) -> np.ndarray:
        """annotators × labels: how often annotator a gave label k."""
        K = self.n_labels
        return np.bincount(self.annotator * K + self.label, weights=self.weight,
                           minlength=self.n_annotators * K).reshape(-1, K).astype(float)

    def annotator_mean(self, values: np.ndarray) -> np.ndarray:
        """Per annotator, the (weighted) mean of ``values`` (one per judgement); nan for an
        annotator without judgements."""
        w = values if self.weight is None else values * self.weight
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.bincount(self.annotator, weights=w, minlength=self.n_annotators) / \
                self.per_annotator

    @cached_property
    def incidence(self) -> sparse.csr_matrix:
        """(annotators · labels) × items, the item's weight (1) where annotator a gave item i
        label k (row a·K + k): ``incidence @ T`` sums an items × labels table over each
        annotator's judgements of each label, weighted (the M-step of Dawid–Skene)."""
        K = self.n_labels
        values = np.ones(self.n) if self.weight is None else self.weight
        return sparse.csr_matrix((values, (self.annotator * K + self.label, self.item)),
                                 shape=(self.n_annotators * K, self.n_items))

    @cached_property
    def incidence_t(self) -> sparse.csr_matrix:
        """items × (annotators · labels), 1 where annotator a gave item i label k:
        ``incidence_t @ E`` sums a table over (annotator, label) rows over each item's own
        judgements, unweighted (the E-step: an item's likelihood)."""
        if self.weight is None:
            return self.incidence.T.tocsr()
        K = self.n_labels
        return sparse.csr_matrix((np.ones(self.n), (self.item, self.annotator * K + self.label)),
                                 shape=(self.n_items, self.n_annotators * K))

    @property
    def given(self) -> np.ndarray:
        """annotators × labels: True where the annotator gave the label at least once."""
        return self.votes_by_annotator > 0


#: cells of the codes scanned at once for judgements (a block's mask stays in cache)
SCAN_CHUNK = 1 << 20


#: what the models of annotators take: reliability data, coders × items, or judgements as arrays
DATA = Param("data", (ReliabilityData, Annotations, ArrayLike),
             accepts="ReliabilityData, Annotations or a coders × items array-like")
#: iterations of a fit
N_ITER = Param("n_iter", int, low=0)
#: the change of the objective under which a fit stops
TOL = Param("tol", float, low=0)


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


__all__ = ["DATA", "N_ITER", "SCAN_CHUNK", "TOL", "Annotations", "first_argmax", "judged_cells"]
