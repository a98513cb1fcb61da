"""Segmentations → ReliabilityData, vectorised over segment masses (no loop over units).

Two ways to turn linear segmentations into coders × items data:

* :func:`boundaries` — every *potential* boundary (the gap after unit p, p = 1 … n−1) is an
  item labelled ``"yes"`` or ``"no"`` (or with the boundary's type); the nominal κ, π, α of
  Passonneau & Litman (1993) and Carletta (1996).
* :func:`unit_sets` — every unit is an item labelled by the *set of units in its segment*, so
  that a set distance (Dice, Jaccard, Passonneau, MASI) gives partial credit to segments that
  mostly agree (Artstein & Poesio 2005, §4.4). Each segment is one row of a CSR set
  table shared by all its units; identical segments of different coders are one row.

Documents are item groups (for document-clustered intervals); a coder who did not segment a
document has missing judgements there. Documents and coders are in natural order (ch2 < ch10).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from ..model.corpus import Segmentation, natural_key
from ..model.data import MISSING, ReliabilityData, ranges
from ..model.errors import InputError, quote

#: label of a potential boundary where the coder put none
NO = "no"
#: label of a boundary (untyped)
YES = "yes"


class Positions(Sequence):
    """Item names ``(document, p)`` (p 1-based) of a concatenation of per-document ranges,
    computed on access so that millions of items cost no Python objects."""

    def __init__(self, documents: Sequence[str], sizes: np.ndarray) -> None:
        self.documents = list(documents)
        self.starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)

    def __len__(self) -> int:
        return int(self.starts[-1])

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = int(i)
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        d = int(np.searchsorted(self.starts, i, side="right")) - 1
        return self.documents[d], i - int(self.starts[d]) + 1

    def __iter__(self):
        d = np.repeat(np.arange(len(self.documents)), np.diff(self.starts))
        p = np.arange(len(self)) - self.starts[d] + 1
        return zip(map(self.documents.__getitem__, d.tolist()), p.tolist(), strict=True)

    def __repr__(self) -> str:
        return f"<{len(self)} positions in {len(self.documents)} documents>"


@dataclass(frozen=True)
class SegmentLayout:
    """All segmentations as flat arrays: segmentation s is coder ``coder[s]`` on document
    ``doc[s]`` with masses ``masses[ptr[s]:ptr[s+1]]``; ``lengths[d]`` units in document d."""

    documents: list[str]
    coders: list[str]
    lengths: np.ndarray
    doc: np.ndarray
    coder: np.ndarray
    masses: np.ndarray
    ptr: np.ndarray
    types: list | None

    @classmethod
    def from_segmentations(cls, segs: Iterable[Segmentation]) -> SegmentLayout:
        """Validate and flatten: one segmentation per (document, coder), positive masses, the
        same number of units for every coder of a document (else :class:`InputError`)."""
        segs = list(segs)
        if not segs:
            raise InputError("no segmentations to compare")
        documents = sorted({s.document for s in segs}, key=natural_key)
        coders = sorted({s.annotator for s in segs}, key=natural_key)
        d_ix = {d: i for i, d in enumerate(documents)}
        c_ix = {c: i for i, c in enumerate(coders)}
        doc = np.fromiter((d_ix[s.document] for s in segs), np.int64, len(segs))
        coder = np.fromiter((c_ix[s.annotator] for s in segs), np.int64, len(segs))
        order = np.lexsort((coder, doc))  # input order must not change a single bit
        segs = [segs[i] for i in order]
        doc, coder = doc[order], coder[order]
        counts = np.fromiter((len(s.masses) for s in segs), np.int64, len(segs))
        masses = np.fromiter(chain.from_iterable(s.masses for s in segs), np.int64,
                             int(counts.sum()))
        ptr = np.concatenate([[0], np.cumsum(counts)])
        _check_unique(segs, doc, coder, len(coders))
        bad = np.flatnonzero(counts == 0)
        if not len(bad) and (masses <= 0).any():
            bad = np.searchsorted(ptr, np.flatnonzero(masses <= 0), side="right") - 1
        if len(bad):
            s = segs[int(bad[0])]
            raise InputError(f"document {quote(s.document)}, coder {quote(s.annotator)}: segment "
                             f"masses "
                             f"must be positive, got {list(s.masses)}", s.source)
        totals = np.add.reduceat(masses, ptr[:-1])
        first = np.searchsorted(doc, np.arange(len(documents)))  # doc is sorted
        lengths = totals[first]  # the first segmentation of a document sets its size
        wrong = np.flatnonzero(totals != lengths[doc])
        if len(wrong):
            s = segs[int(wrong[0])]
            ref = segs[int(first[doc[wrong[0]]])]
            raise InputError(f"document {quote(s.document)}: coder {quote(s.annotator)} segments "
                             f"{int(totals[wrong[0]])} units but coder {quote(ref.annotator)} "
                             f"segments {int(lengths[doc[wrong[0]]])}", s.source)
        return cls(documents, coders, lengths, doc, coder, masses, ptr, _types(segs, counts))

    @property
    def n_segmentations(self) -> int:
        return len(self.doc)

    def coded(self) -> np.ndarray:
        """Boolean coders × documents: who segmented what."""
        out = np.zeros((len(self.coders), len(self.documents)), bool)
        out[self.coder, self.doc] = True
        return out

    def boundary_items(self) -> tuple[np.ndarray, np.ndarray]:
        """Per internal boundary of every segmentation, in order: (segmentation, item index
        among all potential boundaries; the gap after unit p of document d is item
        ``Σ_{e<d} (n_e − 1) + p − 1``)."""
        counts = np.diff(self.ptr)
        seg_of = np.repeat(np.arange(self.n_segmentations), counts)
        within = np.cumsum(self.masses) - np.repeat(
            np.concatenate([[0], np.cumsum(self.masses)])[self.ptr[:-1]], counts)
        internal = np.ones(len(self.masses), bool)
        internal[self.ptr[1:] - 1] = False
        seg_of, within = seg_of[internal], within[internal]
        gap_start = np.concatenate([[0], np.cumsum(self.lengths - 1)])[:-1]
        return seg_of, gap_start[self.doc[seg_of]] + within - 1


def _check_unique(segs: list[Segmentation], doc: np.ndarray, coder: np.ndarray,
                  n_coders: int) -> None:
    key = doc * n_coders + coder
    _, first, counts = np.unique(key, return_index=True, return_counts=True)
    if (counts > 1).any():
        k = np.flatnonzero(counts > 1)[0]
        dup = np.flatnonzero(key == key[first[k]])
        a, b = segs[int(dup[0])], segs[int(dup[1])]
        raise InputError(f"document {quote(b.document)} segmented twice by coder "
                         f"{quote(b.annotator)} "
                         f"(also in {a.source or 'an earlier input'})", b.source)


def _types(segs: list[Segmentation], counts: np.ndarray) -> list | None:
    """Boundary types of all internal boundaries in order, if every segmentation has them."""
    typed = [s.boundary_types is not None for s in segs]
    if not any(typed):
        return None
    if not all(typed):
        s = segs[typed.index(False)]
        raise InputError(f"document {quote(s.document)}, coder {quote(s.annotator)} has no "
                         f"boundary "
                         "types while other segmentations do", s.source)
    for s, n in zip(segs, counts, strict=True):
        if len(s.boundary_types) != n - 1:
            raise InputError(f"document {quote(s.document)}, coder {quote(s.annotator)}: "
                             f"{len(s.boundary_types)} boundary types for {n - 1} boundaries",
                             s.source)
    return list(chain.from_iterable(s.boundary_types for s in segs))


def layout(segs: Iterable[Segmentation] | SegmentLayout) -> SegmentLayout:
    """A :class:`SegmentLayout` (passed through if already one)."""
    return segs if isinstance(segs, SegmentLayout) else SegmentLayout.from_segmentations(segs)


def boundaries(segs: Iterable[Segmentation] | SegmentLayout, *, types: bool = False
               ) -> ReliabilityData:
    """Potential boundaries as items (the gap after unit p of each document, p = 1 … n−1),
    labelled ``"yes"``/``"no"``; with ``types`` the boundary's type instead of ``"yes"``
    (every segmentation must then carry ``boundary_types``): Passonneau & Litman's (1993)
    two-category treatment that Carletta's (1996) κ is computed on."""
    lay = layout(segs)
    gaps = np.maximum(lay.lengths - 1, 0)
    n_items = int(gaps.sum())
    if n_items == 0:
        raise InputError("no potential boundaries: every document is a single unit")
    if types and lay.types is None:
        raise InputError("these segmentations have no boundary types")
    gap_start = np.concatenate([[0], np.cumsum(gaps)])[:-1]
    codes = np.full((len(lay.coders), n_items), MISSING, np.int32)
    per_seg = gaps[lay.doc]
    codes[np.repeat(lay.coder, per_seg), ranges(gap_start[lay.doc], per_seg)] = 0
    seg_of, item = lay.boundary_items()
    if types:
        names = sorted(set(lay.types), key=natural_key)
        if NO in names:
            raise InputError(f"a boundary type is called {quote(NO)}, the label of 'no boundary'")
        labels = [NO, *names]
        pos = {t: i + 1 for i, t in enumerate(names)}
        values = np.fromiter((pos[t] for t in lay.types), np.int32, len(lay.types))
    else:
        labels, values = [NO, YES], 1
    codes[lay.coder[seg_of], item] = values
    return ReliabilityData(codes, labels, list(lay.coders), Positions(lay.documents, gaps),
                           np.repeat(np.arange(len(lay.documents)), gaps), list(lay.documents))


def unit_sets(segs: Iterable[Segmentation] | SegmentLayout) -> ReliabilityData:
    """Units as items, each labelled by the set of units of its segment (Artstein & Poesio
    2005, §4.4).

    Elements are global unit ids (named ``(document, unit)``, 1-based). A segment is a range
    of units, so identical segments of different coders (same first unit, same mass) are merged
    before the CSR table is built from the masses with cumsum/repeat: ``from_sets`` then only
    sees distinct segments."""
    lay = layout(segs)
    unit_start = np.concatenate([[0], np.cumsum(lay.lengths)])[:-1]
    per_seg = lay.lengths[lay.doc]
    counts = np.diff(lay.ptr)
    # first unit of every segment, as a global unit id
    first_unit = np.concatenate([[0], np.cumsum(lay.masses)])[:-1] + np.repeat(
        unit_start[lay.doc] - np.concatenate([[0], np.cumsum(per_seg)])[:-1], counts)
    key = first_unit * (int(lay.masses.max()) + 1) + lay.masses
    _, first, row = np.unique(key, return_index=True, return_inverse=True)
    sizes = lay.masses[first]
    codes = np.full((len(lay.coders), int(lay.lengths.sum())), MISSING, np.int32)
    codes[np.repeat(lay.coder, per_seg), ranges(unit_start[lay.doc], per_seg)] = \
        np.repeat(row.astype(np.int32), lay.masses)
    names = Positions(lay.documents, lay.lengths)
    data = ReliabilityData.from_sets(
        codes, np.concatenate([[0], np.cumsum(sizes)]), ranges(first_unit[first], sizes),
        coders=list(lay.coders),
        element_names=names, groups=np.repeat(np.arange(len(lay.documents)), lay.lengths),
        group_names=list(lay.documents))
    data.items = names  # from_sets would list() the names: keep them lazy
    return data


__all__ = ["NO", "YES", "Positions", "SegmentLayout", "boundaries", "layout",
           "unit_sets"]
