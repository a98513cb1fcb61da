"""Annotations → a :class:`~corpusagree.model.continuum.Continuum` of units.

* Spans (every coreference reader's mentions: brat, INCEpTION XMI and WebAnno TSV chain or
  span layers, MMAX2 markables of any level, CoNLL-2012 and CorefUD mentions): one unit per
  mention, positioned in
  tokens (``unit="token"``) or characters (``unit="char"``, where the format keeps character
  offsets: brat, XMI, WebAnno TSV); a discontinuous mention gives one unit per fragment (the
  units unitizing α and γ compare are contiguous), which is counted in the notes. The category is
  a mention attribute (``category``), by default the first of the entity type (CorefUD
  ``etype``, XMI and WebAnno TSV ``referenceType``, brat's ``EntityType`` attribute, GUM's
  ``entity``), the span's type (brat's, MMAX2's ``type``) or a span layer's ``value``
  (INCEpTION's NamedEntity) that the mentions have, else ``mention``.
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
from ..model.errors import InputError, quote
from ..model.params import Items, Param, checked
from .segments import SegmentLayout

UNITS = ("token", "char")
#: mention attributes tried in turn for the category when none is named
CATEGORY_ATTRIBUTES = ("etype", "referenceType", "EntityType", "type")
#: then, for mentions of an INCEpTION layer (XMI, WebAnno TSV: attribute ``layer``), span
#: features: GUM's ``entity``, NamedEntity's ``value`` (CoNLL-2012's ``entity`` is a chain id)
LAYER_CATEGORY_FEATURES = ("entity", "value")
#: the category of a mention without one
NO_CATEGORY = "mention"
#: the category of a segment
SEGMENT = "segment"


def _category(attrs: dict, name: str | None) -> str | None:
    """The mention's value of attribute ``name`` (brat keeps its attributes under
    ``attributes``), or of the first of :data:`CATEGORY_ATTRIBUTES` (and
    :data:`LAYER_CATEGORY_FEATURES`) when ``name`` is None."""
    keys = CATEGORY_ATTRIBUTES + (LAYER_CATEGORY_FEATURES if "layer" in attrs else ())
    for key in ([name] if name else keys):
        for where in (attrs, attrs.get("attributes") or {}):
            if where.get(key) not in (None, ""):
                return str(where[key])
    return None


@checked(Param("annotations", Items), Param("unit", str, choices=UNITS),
         Param("category", str, none=True))
def from_annotations(annotations: Sequence[CorefAnnotation], unit: str = "token",
                     category: str | None = None) -> tuple[Continuum, list[str]]:
    """The continuum of every mention of coreference or span annotations.

    Each mention becomes a unit ``(annotator, start, end, category)`` of its document, in tokens
    or characters; a discontinuous mention becomes one unit per fragment.

    Parameters
    ----------
    annotations : sequence of CorefAnnotation
        What a coreference or span reader gives (``corpus.data`` of
        :func:`corpusagree.analyses.coref.read` or :func:`corpusagree.analyses.spans.read`).
    unit : {"token", "char"}, default "token"
        Positions in tokens, or in characters (formats that keep character offsets: brat, XMI,
        WebAnno TSV).
    category : str, optional
        The mention attribute that gives the category (default: the format's entity type where
        it has one, else ``mention``).

    Returns
    -------
    (Continuum, list of str)
        The continuum, and notes on what the conversion did (discontinuous mentions split,
        mentions without a category).

    Raises
    ------
    TypeError, ValueError
        For a keyword of the wrong type or an unknown unit, named in the message.
    InputError
        For no annotations, or character positions asked of a format without
        them.

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> from corpusagree.analyses import coref
    >>> corpus = coref.read("sample_corpora/coref/brat")
    >>> c, notes = u.from_annotations(corpus.data, "char")
    >>> c
    Continuum(166 units by 3 annotators in 5 documents, 6 categories, unit char)
    >>> notes
    ['5 discontinuous mention(s) split into one unit per fragment']
    """
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
                raise InputError("this format gives token positions only: use unit='token'",
                                 ann.source or ann.document.source or None)
            bounds[d, 1] = max(bounds[d, 1], len(ann.document.text))
        else:
            bounds[d, 1] = max(bounds[d, 1], len(ann.document.tokens))
        for m in ann.mentions.values():
            spans = m.attrs.get("char_offsets") if unit == "char" else m.fragments
            if spans is None:
                raise InputError(f"mention {quote(m.id)} has no character offsets: use "
                                 "unit='token'",
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


@checked(Param("segmentations", Items))
def from_segmentations(segmentations: Sequence[Segmentation]) -> Continuum:
    """The continuum of every segment of segmentations.

    Each segmentation's segments are adjacent units of the category ``segment`` covering its
    document (validated as the ``segments`` job validates them).

    Parameters
    ----------
    segmentations : sequence of Segmentation
        What a segmentation reader gives (``corpus.data`` of
        :func:`corpusagree.analyses.segments.read`).

    Returns
    -------
    Continuum

    Raises
    ------
    InputError
        When the segmentations of one document do not cover the same length.

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> from corpusagree.analyses import segments
    >>> c = u.from_segmentations(segments.read("sample_corpora/segments/segments.json").data)
    >>> c, round(u.alpha_u(c, variant="1995").value, 4)
    (Continuum(31 units by 3 annotators in 3 documents, 1 categories, unit unit), 0.6737)
    """
    lay = SegmentLayout.from_segmentations(segmentations)
    counts = np.diff(lay.ptr)
    of = np.repeat(np.arange(lay.n_segmentations), counts)
    stop = np.cumsum(lay.masses)
    ends = stop - np.repeat(stop[lay.ptr[:-1]] - lay.masses[lay.ptr[:-1]], counts)
    units = {s.unit for s in segmentations}
    lengths = lay.lengths.astype(float)
    return Continuum(list(lay.coders), [SEGMENT], list(lay.documents),
                     np.stack([np.zeros_like(lengths), lengths], 1), lay.coded(),
                     lay.doc[of], lay.coder[of], (ends - lay.masses).astype(float),
                     ends.astype(float), np.zeros(len(of), np.int64),
                     units.pop() if len(units) == 1 else "unit")


__all__ = ["CATEGORY_ATTRIBUTES", "LAYER_CATEGORY_FEATURES", "NO_CATEGORY", "SEGMENT", "UNITS",
           "from_annotations", "from_segmentations"]
