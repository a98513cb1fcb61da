"""What readers emit: plain dataclasses, no statistics and no format details.

Coordinates: mention fragments are ``(start, end)`` token indices into ``Document.tokens``,
0-based and end-exclusive; a discontinuous mention has several fragments. Readers of
character-offset formats map offsets to tokens and keep the offsets in ``Mention.attrs``.
Segmentations are segment *masses* (sizes in units, in order), as in segeval.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["KINDS", "Chain", "CorefAnnotation", "Corpus", "Document", "Link", "Mention",
           "Segmentation", "SenseTag", "merged_fragments", "natural_key", "shown_option"]

T = TypeVar("T")


@dataclass
class Document:
    """A text as a sequence of tokens; ``sentence_starts`` are token indices."""

    id: str
    tokens: list[str]
    sentence_starts: list[int] = field(default_factory=list)
    text: str | None = None
    source: str = ""


@dataclass(frozen=True)
class Mention:
    """A markable: one or more token fragments (discontinuous spans allowed)."""

    id: str
    fragments: tuple[tuple[int, int], ...]
    head: int | None = None
    attrs: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def span(self) -> tuple[tuple[int, int], ...]:
        """The exact-span key used to align mentions across annotators."""
        return tuple(sorted(self.fragments))

    @property
    def tokens(self) -> frozenset[int]:
        return frozenset(t for s, e in self.fragments for t in range(s, e))


def merged_fragments(frags: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Fragments ``(start, end)`` sorted, overlapping and adjacent ones merged: the normal form
    of a mention's fragments.

    >>> merged_fragments([(5, 7), (0, 2), (2, 3), (6, 9)])
    ((0, 3), (5, 9))
    """
    merged: list[tuple[int, int]] = []
    for s, e in sorted(frags):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return tuple(merged)


@dataclass
class Chain:
    """A coreference chain: a set of mention ids (one annotator's partition cell)."""

    id: str
    members: list[str]


@dataclass
class Link:
    """A directed pointer from an anaphor to its antecedent (or another relation)."""

    source: str
    target: str
    type: str = "coref"
    attrs: dict = field(default_factory=dict)


@dataclass
class CorefAnnotation:
    """One annotator's coreference annotation of one document."""

    document: Document
    annotator: str
    mentions: dict[str, Mention]
    chains: list[Chain] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    source: str = ""


@dataclass
class Segmentation:
    """One annotator's segmentation of one document, as segment masses (units per segment).

    ``boundary_types`` (optional) has one entry per internal boundary, in order. ``tokens``
    (optional): the units' text, where the format has it (one list shared by the annotators
    of a document).
    """

    document: str
    annotator: str
    masses: tuple[int, ...]
    unit: str = "unit"
    boundary_types: tuple[str, ...] | None = None
    source: str = ""
    tokens: Sequence[str] | None = field(default=None, compare=False, repr=False)

    @property
    def boundaries(self) -> tuple[int, ...]:
        """Positions (in units, 1..n-1) after which a segment ends, excluding the text end."""
        out, pos = [], 0
        for m in self.masses[:-1]:
            pos += m
            out.append(pos)
        return tuple(out)


@dataclass(frozen=True)
class SenseTag:
    """One annotator's sense tag(s) for one instance (several senses allowed); ``context``:
    the words before the instance, the instance's own words and the words after it, where the
    format has the text (a sentence in Raganato's XML, Senseval's ``<context>``, WSbest's
    uses); ``pos``: the instance's part of speech where the format gives it apart from the
    lemma (WordNet's letters n, v, a, r; Raganato's XML)."""

    item: str
    annotator: str
    senses: frozenset[str]
    lemma: str | None = None
    document: str | None = None
    source: str = ""
    line: int | None = None
    context: tuple[str, str, str] | None = None
    pos: str | None = None

    @property
    def lexeme(self) -> str | None:
        """The lemma with its part of speech, ``english.a`` (the lemma alone without one): the
        group of an item when items are grouped by lemma.

        >>> SenseTag("i1", "A", frozenset({"s"}), "english", pos="a").lexeme
        'english.a'
        """
        if self.lemma is None or self.pos is None:
            return self.lemma
        return f"{self.lemma}.{self.pos}"


#: what a corpus can hold (:attr:`Corpus.kind`): the kinds of corpus a job accepts
KINDS = ("judgements", "mentions", "segmentations", "trees", "sense tags", "relations",
         "continua")
#: the kind of corpus each job's ``read`` gives, for a corpus made without one
_KIND_OF_JOB = {"table": "judgements", "annotators": "judgements", "coref": "mentions",
                "markables": "mentions", "segments": "segmentations", "trees": "trees",
                "senses": "sense tags", "relations": "relations", "spans": "continua"}


def natural_key(name: str) -> tuple:
    """Sort key that orders digit runs numerically: ``doc2`` before ``doc10``."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.split(r"(\d+)", str(name)) if p)


@dataclass(repr=False)
class Corpus(Generic[T]):
    """What every job's ``read`` returns: one study's annotations, typed, with where they came
    from. ``analyse(corpus)`` of the same job takes it as it is.

    Parameters
    ----------
    job : str
        The job that read it (``table``, ``coref``, ``segments``, ``senses``, ``markables``,
        ``spans`` …).
    format : str
        The reader's format name (``brat``, ``conll``, ``long`` …).
    data : object
        The annotations as the job's analysis takes them: a
        :class:`~corpusagree.model.data.ReliabilityData` (``table``), a list of
        :class:`CorefAnnotation` (``coref``, ``markables``), of :class:`Segmentation`
        (``segments``), of :class:`SenseTag` (``senses``), or a continuum of units
        (``spans``).
    annotators, documents : list of str
        Who annotated, and what (in reading order).
    inputs : list of str
        The paths read.
    notes : list of str
        What the reader wants a user to know (carried into the report).
    reader_options : dict
        The reader options the corpus was read with (recorded in the report).
    texts : mapping, optional
        Each document's text or tokens, where the job shows the annotated words.
    size : str
        What the corpus holds, in words (``"56 mentions"``), for its repr.
    kind : str
        What the data are, one of :data:`KINDS` (``mentions``, ``segmentations`` …), whichever
        job read them; by default the kind the job's ``read`` gives.

    Examples
    --------
    >>> c = Corpus("table", "long", data=None, annotators=["ann", "bob"], documents=[],
    ...            size="6 judgements")
    >>> c
    <Corpus table (long): 2 annotators, 6 judgements>
    """

    job: str
    format: str
    data: T
    annotators: list[str]
    documents: list[str]
    inputs: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    reader_options: dict = field(default_factory=dict)
    texts: Mapping[str, str | Sequence[str]] | None = None
    size: str = ""
    kind: str = ""

    def __post_init__(self) -> None:
        if not self.kind:
            self.kind = _KIND_OF_JOB.get(self.job, "")
        if self.kind not in KINDS:
            raise ValueError(f"kind={self.kind!r}: a corpus holds one of {', '.join(KINDS)}")
        self.reader_options = {k: shown_option(v) for k, v in self.reader_options.items()
                               if v is not None}

    def __repr__(self) -> str:
        parts = [f"{len(self.annotators)} annotator{'' if len(self.annotators) == 1 else 's'}"]
        if self.documents:
            n = len(self.documents)
            parts.append(f"{n} document{'' if n == 1 else 's'}")
        if self.size:
            parts.append(self.size)
        return f"<Corpus {self.job} ({self.format}): {', '.join(parts)}>"


def shown_option(value):
    """A reader option's value as a report records it (JSON-ready): numbers and booleans as
    they are, sequences as lists of strings, anything else (paths …) as a string."""
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [str(x) for x in value]
    return str(value)
