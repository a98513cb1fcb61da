"""Units on a continuum: what annotators marked where, before any unit is fixed.

A unit is ``(annotator, start, end, category)`` with ``start < end`` inside its document's
continuum ``[begin, end)`` (characters or tokens). Krippendorff's unitizing α (1995, 2004;
Krippendorff, Mathet, Bouvry & Widlöcher 2016) and Mathet, Widlöcher & Métivier's γ (2015) are
measured on it. All units of a corpus are flat arrays (one entry per unit), documents and
annotators and categories are codes into name lists, and ``annotated[a, d]`` says whether
annotator ``a`` annotated document ``d`` at all (an annotator who marked nothing in a document
they annotated contributes only gaps there).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .errors import InputError, quote


@dataclass(repr=False)
class Continuum:
    """Every unit of a corpus, ``(annotator, start, end, category)``, on its document's continuum.

    A unit lies inside its document's continuum ``[begin, end)``, counted in characters or
    tokens; the units are flat arrays (one entry per unit), and documents, annotators and
    categories are codes into name lists. ``annotated[a, d]`` says whether annotator ``a``
    annotated document ``d`` at all: one who annotated it but marked nothing contributes only
    gaps there. Build one with :meth:`from_units` (one document), :meth:`join` (several), or from
    annotation files with :func:`from_annotations` and :func:`from_segmentations`.

    Parameters
    ----------
    annotators, categories, documents : list of str
        The names the codes index.
    bounds : numpy.ndarray
        (begin, end) of each document.
    annotated : numpy.ndarray
        Annotators × documents, bool.
    doc, annotator, start, end, category : numpy.ndarray
        One entry per unit.
    unit : str, default "char"
        What positions count (``char``, ``token``, or a segmentation's unit).

    Raises
    ------
    InputError
        For a unit that ends before it starts or lies outside its document's continuum.
    ValueError
        For arrays of different lengths or shapes.

    See Also
    --------
    alpha_u, gamma, best_alignment

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
    ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
    ...                            begin=0, end=60)
    >>> c
    Continuum(4 units by 2 annotators in 1 documents, 2 categories, unit char)
    >>> c.units()[1]
    ('document', 'ann2', 1.0, 5.0, 'PER')
    """

    annotators: list[str]
    categories: list[str]
    documents: list[str]
    bounds: np.ndarray
    annotated: np.ndarray
    doc: np.ndarray
    annotator: np.ndarray
    start: np.ndarray
    end: np.ndarray
    category: np.ndarray
    unit: str = "char"

    def __post_init__(self) -> None:
        self.bounds = np.asarray(self.bounds, float).reshape(-1, 2)
        self.annotated = np.asarray(self.annotated, bool)
        for name in ("doc", "annotator", "category"):
            setattr(self, name, np.asarray(getattr(self, name), np.int64))
        self.start = np.asarray(self.start, float)
        self.end = np.asarray(self.end, float)
        n = len(self.start)
        if not (len(self.doc) == len(self.annotator) == len(self.end) == len(self.category) == n):
            raise ValueError("the unit arrays must have one entry per unit")
        if self.annotated.shape != (len(self.annotators), len(self.documents)):
            raise ValueError("annotated must be annotators × documents")
        if len(self.bounds) != len(self.documents):
            raise ValueError("bounds must give (begin, end) per document")
        bad = np.flatnonzero(~(self.start < self.end))
        if len(bad):
            u = int(bad[0])
            raise InputError(f"unit {self._describe(u)} ends before it starts")
        outside = np.flatnonzero((self.start < self.bounds[self.doc, 0])
                                 | (self.end > self.bounds[self.doc, 1]))
        if len(outside):
            u = int(outside[0])
            b, e = self.bounds[self.doc[u]]
            raise InputError(f"unit {self._describe(u)} lies outside the continuum "
                             f"[{b:g}, {e:g}) of document {quote(self.documents[self.doc[u]])}")
        if n and not self.annotated[self.annotator, self.doc].all():
            raise ValueError("a unit's annotator must have annotated its document")

    def _describe(self, u: int) -> str:
        return (f"({self.annotators[self.annotator[u]]!r}, {self.start[u]:g}, {self.end[u]:g}, "
                f"{self.categories[self.category[u]]!r})")

    def __len__(self) -> int:
        return len(self.start)

    def __repr__(self) -> str:
        return (f"Continuum({len(self)} units by {len(self.annotators)} annotators in "
                f"{len(self.documents)} documents, {len(self.categories)} categories, "
                f"unit {self.unit})")

    # ---- constructors ------------------------------------------------------------------------
    @classmethod
    def from_units(cls, units: Iterable[tuple], begin: float = 0, end: float | None = None, *,
                   annotators: Sequence[str] | None = None,
                   categories: Sequence[str] | None = None, document: str = "document",
                   unit: str = "char") -> Continuum:
        """One document's continuum from ``(annotator, start, end, category)`` tuples.

        Parameters
        ----------
        units : iterable of (annotator, start, end, category)
            The units, ``start < end``.
        begin : float, default 0
            Where the continuum begins.
        end : float, optional
            Where it ends (default: the last unit's end).
        annotators : sequence of str, optional
            Every annotator, also those who marked nothing (default: those with units, in order of
            first appearance).
        categories : sequence of str, optional
            The category order (default: sorted).
        document : str, default "document"
            The document's name.
        unit : str, default "char"
            What positions count.

        Returns
        -------
        Continuum

        Raises
        ------
        InputError
            For a tuple of another length, an annotator or category not among those given, or a
            unit outside ``[begin, end)``.

        Examples
        --------
        >>> from corpusagree import unitizing as u
        >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
        ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
        ...                            begin=0, end=60)
        >>> c.annotators, c.categories, c.length.tolist()
        (['ann1', 'ann2'], ['LOC', 'PER'], [60.0])
        """
        rows = list(units)
        for n, r in enumerate(rows):
            if len(r) != 4:
                raise InputError(f"unit {n} has {len(r)} fields, expected (annotator, start, "
                                 "end, category)")
        names = list(annotators) if annotators is not None else \
            list(dict.fromkeys(str(r[0]) for r in rows))
        a_ix = {a: i for i, a in enumerate(names)}
        unknown = [r[0] for r in rows if str(r[0]) not in a_ix]
        if unknown:
            raise InputError(f"annotator {quote(unknown[0])} is not among the annotators given")
        cats = list(categories) if categories is not None else \
            sorted({str(r[3]) for r in rows})
        c_ix = {c: i for i, c in enumerate(cats)}
        missing = [r[3] for r in rows if str(r[3]) not in c_ix]
        if missing:
            raise InputError(f"category {quote(missing[0])} is not among the categories given")
        start = np.array([float(r[1]) for r in rows])
        stop = np.array([float(r[2]) for r in rows])
        if end is None:
            end = float(stop.max()) if len(stop) else float(begin)
        return cls(names, cats, [document], np.array([[begin, end]], float),
                   np.ones((len(names), 1), bool), np.zeros(len(rows), np.int64),
                   np.array([a_ix[str(r[0])] for r in rows], np.int64), start, stop,
                   np.array([c_ix[str(r[3])] for r in rows], np.int64), unit)

    @classmethod
    def join(cls, parts: Sequence[Continuum]) -> Continuum:
        """One corpus from several documents' continua.

        Annotators and categories are merged by name; documents keep their names, which must differ.

        Parameters
        ----------
        parts : sequence of Continuum
            Continua measured in the same unit.

        Returns
        -------
        Continuum

        Raises
        ------
        InputError
            For no continuum, continua in different units, or a document in two of them.

        Examples
        --------
        >>> from corpusagree import unitizing as u
        >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
        ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
        ...                            begin=0, end=60)
        >>> d = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 0, 5, "PER")], end=20,
        ...                            document="d2")
        >>> u.Continuum.join([c, d]).documents
        ['document', 'd2']
        """
        if not parts:
            raise InputError("no continuum to join")
        units = {p.unit for p in parts}
        if len(units) > 1:
            raise InputError(f"continua measured in different units: {sorted(units)}")
        names = list(dict.fromkeys(a for p in parts for a in p.annotators))
        cats = list(dict.fromkeys(c for p in parts for c in p.categories))
        docs = [d for p in parts for d in p.documents]
        if len(set(docs)) != len(docs):
            dup = next(d for d in docs if docs.count(d) > 1)
            raise InputError(f"document {quote(dup)} appears in two continua")
        a_ix = {a: i for i, a in enumerate(names)}
        c_ix = {c: i for i, c in enumerate(cats)}
        annotated = np.zeros((len(names), len(docs)), bool)
        arrays: dict[str, list] = {k: [] for k in ("doc", "annotator", "start", "end",
                                                  "category")}
        offset = 0
        for p in parts:
            amap = np.array([a_ix[a] for a in p.annotators], np.int64)
            cmap = np.array([c_ix[c] for c in p.categories], np.int64)
            annotated[np.ix_(amap, offset + np.arange(len(p.documents)))] = p.annotated
            arrays["doc"].append(p.doc + offset)
            arrays["annotator"].append(amap[p.annotator] if len(p) else p.annotator)
            arrays["start"].append(p.start)
            arrays["end"].append(p.end)
            arrays["category"].append(cmap[p.category] if len(p) else p.category)
            offset += len(p.documents)
        return cls(names, cats, docs, np.concatenate([p.bounds for p in parts]), annotated,
                   **{k: np.concatenate(v) for k, v in arrays.items()}, unit=parts[0].unit)

    # ---- views -------------------------------------------------------------------------------
    def document(self, d: int | str) -> Continuum:
        """The continuum of one document.

        Parameters
        ----------
        d : int or str
            The document's index or name.

        Returns
        -------
        Continuum

        Raises
        ------
        InputError
            For an unknown name.
        """
        if isinstance(d, str):
            try:
                d = self.documents.index(d)
            except ValueError:
                raise InputError(f"no document {quote(d)}; the documents are "
                                 f"{', '.join(self.documents)}") from None
        on = self.doc == d
        return Continuum(self.annotators, self.categories, [self.documents[d]],
                         self.bounds[[d]], self.annotated[:, [d]], np.zeros(int(on.sum())),
                         self.annotator[on], self.start[on], self.end[on], self.category[on],
                         self.unit)

    @property
    def length(self) -> np.ndarray:
        """Each document's continuum length, end − begin."""
        return self.bounds[:, 1] - self.bounds[:, 0]

    def units(self) -> list[tuple]:
        """``(document, annotator, start, end, category)`` of every unit, as names.

        Returns
        -------
        list of tuple
        """
        return [(self.documents[d], self.annotators[a], s, e, self.categories[c])
                for d, a, s, e, c in zip(self.doc.tolist(), self.annotator.tolist(),
                                         self.start.tolist(), self.end.tolist(),
                                         self.category.tolist(), strict=True)]


__all__ = ["Continuum"]
