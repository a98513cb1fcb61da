"""MMAX2 markables → reliability data, per markable level (Müller & Strube 2006).

Two questions, per markable level:

* **Where are the markables?** :func:`token_data`: the tokens of every document are the items;
  a token's label is 1 when the annotator put it inside a markable of the level, else 0 (a
  document the annotator did not annotate is missing). Nominal α, κ and A_o on these data are
  token-level span agreement (Artstein & Poesio 2008, §2.3–2.4; Krippendorff 2011).
* **What did they say about the same markable?** :func:`attribute_data`: markables are aligned
  across annotators (:func:`align`); each aligned markable is an item and an annotator's value
  of a nominal attribute (e.g. PotTS ``polarity``) is the label; an annotator without a
  markable there, or without the attribute, is missing.

Alignment is :func:`corpusagree.convert.align.align` with one group per (document, level), so
markables never match across documents or levels; ``exact`` pairs identical token sets (the
k-th of several identical markables with the k-th), ``overlap`` maximises the summed Dice
overlap (Kuhn–Munkres).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..model.corpus import CorefAnnotation
from ..model.data import ReliabilityData
from .align import MATCHES, Spans
from .align import align as align_spans

#: attributes that are MMAX2 bookkeeping, not annotation
RESERVED = {"level", "id", "span", "mmax_level"}
#: values of pointers and set ids: ``empty``, ``[level:]markable_N[;...]``, ``set_N``
_LINKISH = re.compile(r"(([^:;\s]+:)?markable_\w+(;([^:;\s]+:)?markable_\w+)*|set_\w+|empty|)",
                      re.IGNORECASE)


@dataclass
class Markables:
    """Every markable of a corpus as flat arrays (one entry per markable, fragments in CSR).

    ``annotated[a, d]``: annotator ``a`` has a file for document ``d``. ``attrs[m]`` is the
    markable's attribute dict (MMAX2 attribute names).
    """

    annotators: list[str]
    documents: list[str]
    n_tokens: np.ndarray
    annotated: np.ndarray
    levels: list[str]
    annotator: np.ndarray
    document: np.ndarray
    level: np.ndarray
    frag_ptr: np.ndarray
    frag_start: np.ndarray
    frag_end: np.ndarray
    attrs: list[dict] = field(repr=False)

    @property
    def token_offsets(self) -> np.ndarray:
        """Start of each document in the concatenation of all documents' tokens."""
        return np.concatenate([[0], np.cumsum(self.n_tokens)]).astype(np.int64)

    def spans(self) -> Spans:
        """The markables as spans of the aligner, one group per (document, level)."""
        return Spans(self.annotator, self.document * max(len(self.levels), 1) + self.level,
                     self.frag_ptr, self.frag_start, self.frag_end)

    def tokens(self) -> tuple[np.ndarray, np.ndarray]:
        """(markable, corpus-global token index) for every token of every markable."""
        markable, tok = self.spans().tokens()
        return markable, tok + self.token_offsets[self.document[markable]]

    def per_annotator(self, select: np.ndarray) -> np.ndarray:
        """Markables per annotator among ``select`` (a mask over markables)."""
        return np.bincount(self.annotator[select], minlength=len(self.annotators))

    def per_document(self, select: np.ndarray) -> np.ndarray:
        """Annotators × documents: markables among ``select`` (a mask over markables)."""
        C, D = len(self.annotators), len(self.documents)
        return np.bincount(self.annotator[select] * D + self.document[select],
                           minlength=C * D).reshape(C, D)


def collect(annotations: Sequence[CorefAnnotation], levels: Sequence[str] | None = None
            ) -> Markables:
    """Flatten annotations into :class:`Markables`; ``levels`` keeps those levels in that order
    (default: every level present, in their declared order). A mention's level is
    ``attrs["level"]`` (``"markable"`` when a reader sets none)."""
    import networkx as nx  # imported where used (not by a job's --help)

    annotators = list(dict.fromkeys(a.annotator for a in annotations))
    documents = list(dict.fromkeys(a.document.id for a in annotations))
    a_ix = {n: i for i, n in enumerate(annotators)}
    d_ix = {n: i for i, n in enumerate(documents)}
    n_tokens = np.zeros(len(documents), np.int64)
    annotated = np.zeros((len(annotators), len(documents)), bool)
    ann, doc, lev, nfrag, starts, ends, attrs = [], [], [], [], [], [], []
    order = nx.DiGraph()  # level a before level b in some annotation: the declared order
    for a in annotations:
        d = d_ix[a.document.id]
        n_tokens[d] = len(a.document.tokens)
        annotated[a_ix[a.annotator], d] = True
        ms = list(a.mentions.values())
        ann.append(np.full(len(ms), a_ix[a.annotator]))
        doc.append(np.full(len(ms), d))
        lev += [m.attrs.get("level", "markable") for m in ms]
        nfrag += [len(m.fragments) for m in ms]
        starts += [s for m in ms for s, _ in m.fragments]
        ends += [e for m in ms for _, e in m.fragments]
        attrs += [m.attrs for m in ms]
        nx.add_path(order, dict.fromkeys(lev[len(lev) - len(ms):]))
    first = {v: i for i, v in enumerate(dict.fromkeys(lev))}
    try:
        present = list(nx.lexicographical_topological_sort(order, key=first.__getitem__))
    except nx.NetworkXUnfeasible:
        present = list(first)
    wanted = present if levels is None else list(levels)
    lev_ix = {n: i for i, n in enumerate(wanted)}
    level = np.array([lev_ix.get(v, -1) for v in lev], np.int64)
    keep = level >= 0
    counts = np.array(nfrag, np.int64)
    frag_keep = np.repeat(keep, counts)
    return Markables(
        annotators, documents, n_tokens, annotated, wanted,
        np.concatenate(ann or [np.zeros(0)]).astype(np.int64)[keep],
        np.concatenate(doc or [np.zeros(0)]).astype(np.int64)[keep], level[keep],
        np.concatenate([[0], np.cumsum(counts[keep])]).astype(np.int64),
        np.array(starts, np.int64)[frag_keep], np.array(ends, np.int64)[frag_keep],
        [x for x, k in zip(attrs, keep, strict=True) if k])


def align(mk: Markables, match: str = "exact") -> np.ndarray:
    """The aligned markable (cluster) of every markable: a cluster holds at most one markable
    per annotator and never crosses levels or documents (see the module docstring)."""
    return align_spans(mk.spans(), len(mk.annotators), match).item


def token_data(mk: Markables, level: int) -> ReliabilityData:
    """Annotators × tokens, 1 inside a markable of ``level`` else 0, missing where the annotator
    has no file for the document; items grouped by document."""
    doc_of_token = np.repeat(np.arange(len(mk.documents)), mk.n_tokens)
    codes = np.where(mk.annotated[:, doc_of_token], 0, -1).astype(np.int32)
    markable, tok = mk.tokens()
    on = mk.level[markable] == level
    codes[mk.annotator[markable[on]], tok[on]] = 1
    return ReliabilityData(codes, [0, 1], list(mk.annotators), [], doc_of_token,
                           list(mk.documents))


def attribute_data(mk: Markables, cluster: np.ndarray, level: int, attribute: str,
                   set_sep: str | None = None) -> ReliabilityData:
    """Annotators × aligned markables of ``level``, label = the value of ``attribute`` (missing
    where the annotator has no markable in the cluster or it lacks the attribute); items are
    grouped by document and named ``document:first markable id``.

    With ``set_sep`` the attribute is set-valued: a value is the set of its parts split on
    ``set_sep`` (stripped; a value repeated in one markable counts once; an empty value is
    the empty set, "none of these", not a missing judgement)."""
    on = np.flatnonzero(mk.level == level)
    first_of, local = np.unique(cluster[on], return_index=True, return_inverse=True)[1:]
    values = np.array([mk.attrs[m].get(attribute) for m in on], dtype=object)
    has = np.not_equal(values, None)
    labels, inv = np.unique(values[has].astype(str), return_inverse=True)
    codes = np.full((len(mk.annotators), len(first_of)), -1, np.int32)
    codes[mk.annotator[on[has]], local[has]] = inv
    rep = on[first_of]
    items = [f"{mk.documents[d]}:{mk.attrs[m].get('id', m)}"
             for d, m in zip(mk.document[rep].tolist(), rep.tolist(), strict=True)]
    if set_sep is None:
        return ReliabilityData(codes, labels.tolist(), list(mk.annotators), items,
                               mk.document[rep], list(mk.documents))
    parts = [[x.strip() for x in str(v).split(set_sep) if x.strip()] for v in labels.tolist()]
    names, elements = np.unique(np.array([x for p in parts for x in p], dtype=object).astype(str),
                                return_inverse=True)
    indptr = np.concatenate([[0], np.cumsum([len(p) for p in parts])])
    return ReliabilityData.from_sets(codes, indptr, elements.ravel(), coders=mk.annotators,
                                     items=items, element_names=names.tolist(),
                                     groups=mk.document[rep], group_names=mk.documents)


def nominal_attributes(mk: Markables, level: int) -> list[str]:
    """Attributes of a level's markables that hold labels: not MMAX2 bookkeeping, not pointers
    or set ids (every value ``empty``, ``[level:]markable_N`` or ``set_N``)."""
    on = np.flatnonzero(mk.level == level)
    seen: dict[str, bool] = {}
    for m in on.tolist():
        for k, v in mk.attrs[m].items():
            if k not in RESERVED:
                seen[k] = seen.get(k, False) or not _LINKISH.fullmatch(str(v).strip())
    return [k for k, labelled in seen.items() if labelled]


__all__ = ["MATCHES", "RESERVED", "Markables", "align", "attribute_data", "collect",
           "nominal_attributes", "token_data"]
