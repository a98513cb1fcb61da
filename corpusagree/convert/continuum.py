"""Annotations → a :class:`~corpusagree.model.continuum.Continuum` of units.

* Spans (every coreference reader's mentions: brat, INCEpTION XMI, WebAnno TSV, MMAX2
  markables of any level, CoNLL-2012 and CorefUD mentions): one unit per mention, positioned in
  tokens (``unit="token"``) or characters (``unit="char"``, where the format keeps character
  offsets: brat, XMI, WebAnno TSV); a discontinuous mention gives one unit per fragment (the
  units unitizing α and γ compare are contiguous), which is counted in the notes. The category is
  a mention attribute (``category``), by default the first of the entity type (CorefUD
  ``etype``, XMI ``referenceType``) or the span's type (brat's, MMAX2's ``type``) that the
  mentions have, else ``mention``.
* Segmentations (every segmentation reader): each segment is a unit of category ``segment`` on
  the continuum of the document's units (Krippendorff 1995 treats segmentation as unitizing
  without gaps).

An annotator who annotated a document but marked nothing in it still counts there (all gaps).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..model.continuum import Continuum
from ..model.corpus import CorefAnnotation, Segmentation, natural_key
from ..model.errors import InputError

UNITS = ("token", "char")
#: mention attributes tried in turn for the category when none is named
CATEGORY_ATTRIBUTES = ("etype", "referenceType", "type")
#: the category of a mention without one
NO_CATEGORY = "mention"
#: the category of a segment
SEGMENT = "segment"


def _category(attrs: dict, name: str | None) -> str | None:
    """The mention's value of attribute ``name`` (brat keeps its attributes under
    ``attributes``), or of the first of :data:`CATEGORY_ATTRIBUTES` when ``name`` is None."""
    for key in ([name] if name else CATEGORY_ATTRIBUTES):
        for where in (attrs, attrs.get("attributes") or {}):
            if where.get(key) not in (None, ""):
                return str(where[key])
    return None


def from_annotations(annotations: Sequence[CorefAnnotation], unit: str = "token",
                     category: str | None = None) -> tuple[Continuum, list[str]]:
    """The continuum of every mention of ``annotations`` (see the module docstring), and notes
    on what the conversion did (discontinuous mentions split, mentions without a category)."""
    if unit not in UNITS:
        raise InputError(f"unit must be one of {', '.join(UNITS)}, not {unit!r}")
    if not annotations:
        raise InputError("no annotations to put on a continuum")
    documents = sorted({a.document.id for a in annotations}, key=natural_key)
    annotators = sorted({a.annotator for a in annotations}, key=natural_key)
    d_ix = {d: i for i, d in enumerate(documents)}
    a_ix = {a: i for i, a in enumerate(annotators)}
    bounds = np.zeros((len(documents), 2))
    annotated = np.zeros((len(annotators), len(documents)), bool)
    rows: list[tuple[int, int, int, int, str]] = []
    split = uncategorised = 0
    for ann in annotations:
        d, a = d_ix[ann.document.id], a_ix[ann.annotator]
        annotated[a, d] = True
        if unit == "char":
            if ann.document.text is None:
                raise InputError("this format gives token positions only: use --unit token",
                                 ann.source or ann.document.source or None)
            bounds[d, 1] = max(bounds[d, 1], len(ann.document.text))
        else:
            bounds[d, 1] = max(bounds[d, 1], len(ann.document.tokens))
        for m in ann.mentions.values():
            spans = m.attrs.get("char_offsets") if unit == "char" else m.fragments
            if spans is None:
                raise InputError(f"mention {m.id!r} has no character offsets: use --unit token",
                                 ann.source or None)
            cat = _category(m.attrs, category)
            if cat is None:
                uncategorised += 1
                cat = NO_CATEGORY
            split += len(spans) > 1
            rows += [(d, a, int(s), int(e), cat) for s, e in spans if e > s]
    categories = sorted({r[4] for r in rows}, key=natural_key)
    c_ix = {c: i for i, c in enumerate(categories)}
    arr = np.array([r[:4] for r in rows], np.int64).reshape(-1, 4)
    notes = []
    if split:
        notes.append(f"{split} discontinuous mention(s) split into one unit per fragment")
    if category is not None and uncategorised:
        notes.append(f"{uncategorised} mention(s) without attribute {category!r}: category "
                     f"{NO_CATEGORY!r}")
    return Continuum(annotators, categories, documents, bounds, annotated, arr[:, 0], arr[:, 1],
                     arr[:, 2], arr[:, 3], np.array([c_ix[r[4]] for r in rows], np.int64),
                     unit), notes


def from_segmentations(segmentations: Sequence[Segmentation]) -> Continuum:
    """The continuum of every segment: each segmentation's segments are adjacent units of
    category ``segment`` covering its document's units."""
    if not segmentations:
        raise InputError("no segmentations to put on a continuum")
    documents = sorted({s.document for s in segmentations}, key=natural_key)
    annotators = sorted({s.annotator for s in segmentations}, key=natural_key)
    d_ix = {d: i for i, d in enumerate(documents)}
    a_ix = {a: i for i, a in enumerate(annotators)}
    length = np.zeros(len(documents))
    annotated = np.zeros((len(annotators), len(documents)), bool)
    doc, who, starts, ends = [], [], [], []
    for s in segmentations:
        d, a = d_ix[s.document], a_ix[s.annotator]
        masses = np.asarray(s.masses, np.int64)
        total = int(masses.sum())
        if length[d] and length[d] != total:
            raise InputError(f"document {s.document!r}: annotator {s.annotator!r} segments "
                             f"{total} units, another annotator {int(length[d])}",
                             s.source or None)
        length[d] = total
        annotated[a, d] = True
        stop = np.cumsum(masses)
        doc.append(np.full(len(masses), d))
        who.append(np.full(len(masses), a))
        starts.append(stop - masses)
        ends.append(stop)
    units = {s.unit for s in segmentations}
    return Continuum(annotators, [SEGMENT], documents, np.stack([np.zeros_like(length), length],
                                                                1),
                     annotated, np.concatenate(doc), np.concatenate(who),
                     np.concatenate(starts), np.concatenate(ends),
                     np.zeros(sum(len(x) for x in doc), np.int64),
                     units.pop() if len(units) == 1 else "unit")
