"""Relations of several annotators matched by their endpoints.

The endpoints (spans) of every annotator's relations are aligned as mentions are
(:func:`corpusagree.convert.align.align`: identical tokens, or the best overlap); two
relations of different annotators are the same item when their sources are one aligned item
and their targets another (``directed=False``: the two endpoints in either order). An
annotator's k-th relation between two items pairs with the others' k-th. Each relation then
gives its label to its item, so the items form reliability data (annotators × items, a missing
value where an annotator has no such relation): detection is whether an annotator has the
item, label agreement is over the items two or more have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..model.corpus import natural_key
from ..model.data import ReliabilityData
from ..model.errors import InputError, clip
from ..model.relations import RelationAnnotation
from .align import Spans, align


@dataclass
class RelationItems:
    """Aligned relations: ``data`` holds each annotator's label of each item (-1: no such
    relation), ``data.groups`` the document of each item; ``annotated[a, d]``: annotator ``a``
    has document ``d`` (items of a document an annotator did not annotate are not absent
    relations but missing documents)."""

    data: ReliabilityData
    annotators: list[str]
    documents: list[str]
    annotated: np.ndarray


def relation_items(annotations: Sequence[RelationAnnotation], match: str = "exact",
                   directed: bool = True) -> RelationItems:
    """Align the relations of ``annotations`` (see the module docstring).

    Examples
    --------
    >>> from corpusagree.model.corpus import Document, Link, Mention
    >>> def ann(who, label):
    ...     spans = {"x": Mention("x", ((0, 2),)), "y": Mention("y", ((3, 4),))}
    ...     return RelationAnnotation(Document("d", []), who, spans, [Link("x", "y", label)])
    >>> items = relation_items([ann("a", "cause"), ann("b", "result")])
    >>> items.data.codes.tolist(), items.data.labels
    ([[0], [1]], ['cause', 'result'])
    """
    annotators = list(dict.fromkeys(a.annotator for a in annotations))
    documents = sorted({a.document.id for a in annotations}, key=natural_key)
    a_ix = {a: i for i, a in enumerate(annotators)}
    d_ix = {d: i for i, d in enumerate(documents)}
    annotated = np.zeros((len(annotators), len(documents)), bool)
    span_ann, span_doc, ptr, starts, ends = [], [], [0], [], []
    rel_ann, rel_doc, rel_src, rel_tgt, rel_label = [], [], [], [], []
    for ann in annotations:
        a, d = a_ix[ann.annotator], d_ix[ann.document.id]
        annotated[a, d] = True
        _check_ends(ann)
        used = list(dict.fromkeys(e for k in ann.relations for e in (k.source, k.target)))
        index = {}
        for sid in used:
            index[sid] = len(span_ann)
            span_ann.append(a)
            span_doc.append(d)
            for s, e in ann.spans[sid].fragments:
                starts.append(s)
                ends.append(e)
            ptr.append(len(starts))
        for k in ann.relations:
            rel_ann.append(a)
            rel_doc.append(d)
            rel_src.append(index[k.source])
            rel_tgt.append(index[k.target])
            rel_label.append(str(k.type))
    spans = Spans(np.array(span_ann, np.int64), np.array(span_doc, np.int64),
                  np.array(ptr, np.int64), np.array(starts, np.int64), np.array(ends, np.int64))
    item = align(spans, len(annotators), match).item if len(spans) else np.zeros(0, np.int64)
    src, tgt = item[np.array(rel_src, np.int64)], item[np.array(rel_tgt, np.int64)]
    if not directed:
        src, tgt = np.minimum(src, tgt), np.maximum(src, tgt)
    ann_, doc_ = np.array(rel_ann, np.int64), np.array(rel_doc, np.int64)
    key = np.stack([doc_, src, tgt, ann_], axis=1)
    order = np.lexsort(key.T[::-1])
    k = key[order]
    new = np.r_[True, (k[1:] != k[:-1]).any(axis=1)] if len(k) else np.zeros(0, bool)
    start = np.flatnonzero(new)
    occurrence = np.empty(len(k), np.int64)
    occurrence[order] = np.arange(len(k)) - np.repeat(start, np.diff(np.r_[start, len(k)]))
    uniq, item_of = np.unique(np.stack([doc_, src, tgt, occurrence], axis=1), axis=0,
                              return_inverse=True)
    labels, codes_of = np.unique(np.array(rel_label, object).astype(str), return_inverse=True) \
        if rel_label else (np.array([], str), np.zeros(0, np.int64))
    codes = np.full((len(annotators), len(uniq)), -1, np.int32)
    codes[ann_, item_of.reshape(-1)] = codes_of.reshape(-1)
    data = ReliabilityData(codes, [str(x) for x in labels], annotators,
                           groups=uniq[:, 0] if len(uniq) else np.zeros(0, np.int64),
                           group_names=documents)
    return RelationItems(data, annotators, documents, annotated)


def _check_ends(ann: RelationAnnotation) -> None:
    """InputError naming the file and line of the first relation whose source or target is
    no span of the annotation (an XMI ``Governor="0"``, the ``cas:NULL`` element)."""
    for k in ann.relations:
        for end, sid in (("source", k.source), ("target", k.target)):
            if sid not in ann.spans:
                what = f"relation {clip(str(k.attrs['id']))}" if k.attrs.get("id") else \
                    "a relation"
                raise InputError(f"{what}: its {end} {clip(str(sid))} is no span annotation",
                                 ann.source or None, k.attrs.get("line"))


__all__ = ["RelationItems", "relation_items"]
