"""RST trees of several annotators paired by document, and what can be compared how.

Trees are paired by document name. A pair whose EDUs are the same texts (after whitespace
normalisation) is compared constituent by constituent (Parseval, Iruskieta et al.'s
comparison); a pair whose EDUs differ but whose texts are the same, character for character
apart from whitespace, can only be compared by where the annotators put the EDU boundaries (the
segments job's measures), so its documents become :class:`Segmentation` objects in
non-whitespace characters; a pair whose texts differ is not compared, and a document only one
annotator has is not either. Each of the last three is said in one line naming the file (and
the segment where the texts part).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..model.corpus import Segmentation, natural_key
from ..model.errors import InputError
from ..model.io import excerpt
from ..model.rst import RSTTree


@dataclass
class TreePairs:
    """Trees paired for comparison.

    ``trees``: every tree read, in (document, annotator) order; ``reference``/``other``: tree
    indices of the pairs with identical EDUs, ``pair_document`` their document index (into
    ``documents``); ``segmentations``: every annotator's EDU segmentation of the documents
    some pair of which differs in EDUs but not in text; ``different``: those documents;
    ``problems``: one line for each document not compared at all (only one annotator, texts
    that differ)."""

    trees: list[RSTTree]
    annotators: list[str]
    documents: list[str]
    reference: np.ndarray
    other: np.ndarray
    pair_document: np.ndarray
    segmentations: list[Segmentation] = field(default_factory=list)
    different: list[str] = field(default_factory=list)
    problems: list[InputError] = field(default_factory=list)
    #: the document of each problem
    problem_documents: list[str] = field(default_factory=list)

    def annotator(self, tree: np.ndarray) -> np.ndarray:
        """The annotator index of each tree index."""
        names = {a: i for i, a in enumerate(self.annotators)}
        codes = np.array([names[t.annotator] for t in self.trees], np.int64)
        return codes[np.asarray(tree, np.int64)]


def pair_trees(trees: Sequence[RSTTree], annotators: Sequence[str] | None = None) -> TreePairs:
    """Pair ``trees`` by document (see the module docstring); annotators in the order given,
    else as first seen; documents in natural order.

    Examples
    --------
    >>> from corpusagree.model.rst import RSTTree
    >>> def tree(annotator, edus):
    ...     n = len(edus)
    ...     return RSTTree("d", annotator, edus, (n,) * n + (-1,), tuple(range(n)) + (0,),
    ...                    tuple(range(1, n + 1)) + (n,), ("N",) * n + ("",),
    ...                    ("list",) * n + ("",))
    >>> p = pair_trees([tree("a", ("A b", "c")), tree("b", ("A  b", "c")), tree("c", ("A", "b c"))])
    >>> p.reference.tolist(), p.other.tolist(), p.different
    ([0], [1], ['d'])
    >>> [s.masses for s in p.segmentations]
    [(2, 1), (2, 1), (1, 2)]
    """
    names = list(annotators) if annotators is not None else \
        list(dict.fromkeys(t.annotator for t in trees))
    order = {a: i for i, a in enumerate(names)}
    by_doc: dict[str, list[RSTTree]] = {}
    for t in trees:
        if t.annotator in order:
            by_doc.setdefault(t.document, []).append(t)
    documents = sorted(by_doc, key=natural_key)
    kept: list[RSTTree] = []
    ref, oth, doc_of = [], [], []
    out = TreePairs(kept, names, documents, np.zeros(0, np.int64), np.zeros(0, np.int64),
                    np.zeros(0, np.int64))
    for d, doc in enumerate(documents):
        versions = sorted(by_doc[doc], key=lambda t: order[t.annotator])
        if len(versions) == 1:
            out.problem_documents.append(doc)
            out.problems.append(InputError(
                f"document {doc!r}: only annotator {versions[0].annotator!r} has it; not "
                "compared", versions[0].source or None))
            continue
        texts = [_text(t) for t in versions]
        bad = [i for i in range(1, len(versions)) if texts[i] != texts[0]]
        if bad:
            out.problem_documents.append(doc)
            out.problems.append(_text_error(versions[0], versions[bad[0]]))
            continue
        base = len(kept)
        kept.extend(versions)
        split = False
        for i in range(len(versions)):
            for j in range(i + 1, len(versions)):
                if _edus(versions[i]) == _edus(versions[j]):
                    ref.append(base + i)
                    oth.append(base + j)
                    doc_of.append(d)
                else:
                    split = True
        if split:
            out.different.append(doc)
            out.segmentations.extend(_segmentation(t) for t in versions)
    out.reference = np.array(ref, np.int64)
    out.other = np.array(oth, np.int64)
    out.pair_document = np.array(doc_of, np.int64)
    return out


def _edus(t: RSTTree) -> tuple[str, ...]:
    return tuple(" ".join(e.split()) for e in t.edus)


def _text(t: RSTTree) -> str:
    return "".join("".join(e.split()) for e in t.edus)


def _segmentation(t: RSTTree) -> Segmentation:
    masses = tuple(len("".join(e.split())) for e in t.edus)
    return Segmentation(t.document, t.annotator, masses, unit="char", source=t.source)


def _text_error(first: RSTTree, other: RSTTree) -> InputError:
    """The one line saying where ``other``'s text parts from ``first``'s: its segment there."""
    a, b = _text(first), _text(other)
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    ends = np.cumsum([len("".join(e.split())) for e in other.edus])
    edu = int(np.searchsorted(ends, i, side="right")) if len(ends) else 0
    edu = min(edu, max(len(other.edus) - 1, 0))
    element = (f"segment id={other.edu_elements[edu]}" if other.edu_elements
               else f"EDU {edu + 1}")
    return InputError(f"{element}: the text differs from {first.source or first.annotator} "
                      f"(character {i + 1}: {excerpt(b[i:i + 20] or None)} here, "
                      f"{excerpt(a[i:i + 20] or None)} there); document {first.document!r} "
                      "not compared", other.source or None)


__all__ = ["TreePairs", "pair_trees"]
