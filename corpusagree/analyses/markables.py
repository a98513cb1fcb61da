"""``corpusagree markables``: agreement on MMAX2 markables, per markable level.

MMAX2 (Müller & Strube 2006) stores markables on levels (e.g. PotTS: ``sentiment``,
``source``, ``target``, …), each markable with attributes. Per level, two questions:

* **Where are the markables?** Token agreement: nominal α, κ (multi-κ for more than two
  annotators) and A_o on whether each token is inside a markable of the level (Artstein &
  Poesio 2008, §2.3–2.4; Krippendorff 2011); and pairwise span F1 on markables aligned one to
  one (Hripcsak & Rothschild 2005).
* **What did they say about the same markable?** Attribute agreement: nominal α, κ and A_o
  on the values of each markable attribute (e.g. ``polarity``) over the aligned markables;
  for set-valued attributes (``set_sep``: a value lists several, e.g. ``joy|anger``), also
  Krippendorff & Craggs's (2016) multi-valued α (mvα).
* **NER-style agreement** (``ner``, on by default as in the ``spans`` job): per level, the
  spans job's NER part (:mod:`corpusagree.analyses.ner`) on the level's markables: per
  annotator pair, micro and macro over the pairs, per type and over the types, the four
  modes of SemEval-2013 Task 9.1 (strict, exact, partial, ent_type) with ``nervaluate``'s
  counts and precision, recall and F1, F1 intervals over documents, token κ and α on all
  tokens and on the tokens either annotator marked, and the first disagreements. A
  markable's type is the attribute ``category`` (default: ``type`` where the markables have
  one, as the spans job reads MMAX2); markables without one are of one type, ``mention``,
  where strict = exact and ent_type counts every overlap as correct (position-only
  agreement) and token κ on the marked tokens is at most 0 (no marked token is ``O`` for
  both: with ``a`` tokens both marked and ``b``, ``c`` marked by one, p_o − p_e = −2bc/n²),
  so that κ on all tokens is the one to read. A discontinuous markable is one span per
  fragment (as in the spans job).

Markables are aligned by exact span (default) or by maximal token overlap, within a document
and a level (:mod:`corpusagree.convert.markables`). Intervals are bootstrapped over documents
(the tokens and markables of one document are not independent) or over items.

>>> from corpusagree.analyses import markables
>>> report = markables.analyse(markables.read("sample_corpora/coref/mmax2"))
>>> report.to_frame("token_agreement")[["level", "id", "value"]].round(4).head(2)
   level           id   value
0  coref        alpha  0.9699
1  coref  multi_kappa  0.9699
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from os import PathLike
from pathlib import Path

import numpy as np

from .. import readers
from ..convert.align import MATCHES
from ..convert.continuum import from_annotations
from ..convert.markables import (
    Markables,
    align,
    attribute_data,
    collect,
    nominal_attributes,
    token_data,
)
from ..model.chains import check_documents
from ..model.corpus import CorefAnnotation, Corpus
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.params import Param, checked
from ..model.progress import Progress, Stages
from ..readers import _paths, discover
from ..readers.mmax2 import projects
from ..report.document import Report
from ..report.json import closed_object, extends, nullable
from ..report.tables import Column, Record, Records, Table
from ..stats.coefficients import DegenerateWarning, alpha, set_specs
from ..stats.inference import Bootstrap, resampling
from ..stats.spans import SpanF1, span_f1
from ..stats.spec import for_coders
from . import corpora
from .base import (
    KEYWORDS,
    Estimate,
    estimate_table,
    estimates,
    first_alpha,
    odd_one_out,
    quiet,
    several,
)
from .diagnose import Diagnostics, diagnose
from .jobs import Part, complete
from .ner import PARAMS as ner_params
from .ner import NerPart, ner_part, ner_tables

__all__ = ["CARD", "SCHEMA", "JOB", "PARAMS", "SENTENCE", "Agreement", "AttributeAgreement",
           "DocumentAlpha", "LevelAgreement", "LevelDiagnostics", "MarkablesReport", "PairwiseF1",
           "analyse", "read"]

#: the level left out by default: MMAX2's sentence markables hold no annotation
SENTENCE = "sentence"


# ---- reading -----------------------------------------------------------------------------------
def read(paths: str | PathLike | Sequence[str | PathLike], *, input_format: str = "auto",
         annotators: Sequence[str] | None = None, progress: Progress | None = None,
         levels: Sequence[str] | None = None, common_paths: str | PathLike | None = None
         ) -> Corpus[list]:
    """Every markable of MMAX2 projects, read document by document.

    Parameters
    ----------
    paths : path or list of paths
        One project folder per annotator, ``.mmax`` files, or a folder of annotator folders
        over shared base data.
    input_format : {"auto", "mmax2"}
        MMAX2 is the one format with markable levels.
    annotators : list of str, optional
        The annotators' names, one per project folder found (default: the folder names).
    progress : callable, optional
        ``progress(documents done, documents)``.
    levels : list of str, optional
        The markable levels to read (default: every declared level).
    common_paths : path, optional
        A ``common_paths.xml`` shared by every project (default: the one beside each
        ``.mmax``, else a shared ``global_common_paths.xml`` above it).

    Returns
    -------
    Corpus
        ``data``: one :class:`~corpusagree.model.corpus.CorefAnnotation` per annotator and
        document, with the markables of every level read.

    Examples
    --------
    >>> from corpusagree.analyses import markables
    >>> markables.read("sample_corpora/coref/mmax2")
    <Corpus markables (mmax2): 3 annotators, 5 documents, 206 markables>
    """
    if input_format not in ("auto", "mmax2"):
        raise InputError(f"markables are read from MMAX2 projects, not {input_format!r}")
    plist = _paths.as_list(paths)
    by_doc: dict[str, list[tuple[str, Path]]] = {}
    for annotator, f in projects(plist, annotators):
        by_doc.setdefault(f.stem, []).append((annotator, f))
    out: list[CorefAnnotation] = []
    for done, pairs in enumerate(by_doc.values(), 1):
        out += readers.read("coref", [f for _, f in pairs], "mmax2", [a for a, _ in pairs],
                            job="markables", levels=levels, common_paths=common_paths)[1]
        if progress is not None:
            progress(done, len(by_doc))
    check_documents(out)
    options = {k: v for k, v in (("levels", levels), ("common_paths", common_paths))
               if v is not None}
    return corpora.mentions_of(out, "mmax2", plist, options, "markables", noun="markables")

# ---- the report --------------------------------------------------------------------------------
@dataclass(repr=False)
class Agreement:
    """Nominal α, κ (multi-κ for more than two annotators) and A_o on the items two or more
    annotators judged.

    Attributes
    ----------
    coefficients : Records
        Each an :class:`Estimate`, with its interval when asked.
    note : str or None
        Why there are no coefficients, when no item was judged twice.
    """

    coefficients: Records[Estimate]
    note: str | None = None

    def __repr__(self) -> str:
        return f"Agreement({', '.join(f'{e.id}={e.value:.4g}' for e in self.coefficients)})"

    def get(self, id: str) -> Estimate | None:
        """The coefficient of id ``id``.

        Parameters
        ----------
        id : str
            ``alpha``, ``kappa``, ``multi_kappa`` or ``percent_agreement``.

        Returns
        -------
        Estimate

        Raises
        ------
        KeyError
            When there is no such coefficient.
        """
        return next((e for e in self.coefficients if e.id == id), None)

    def to_dict(self) -> dict:
        """The coefficients (or the note) as plain data."""
        return {"coefficients": self.coefficients, "note": self.note}


@dataclass(repr=False)
class PairwiseF1:
    """Span F1 of every pair of annotators on one level (Hripcsak & Rothschild 2005).

    Attributes
    ----------
    annotators : list of str
    scores : SpanF1
        Matches, precision, recall and F1 of every pair.
    """

    annotators: list[str]
    scores: SpanF1

    def __repr__(self) -> str:
        return f"PairwiseF1(mean={self.mean:.4g})"

    @property
    def mean(self) -> float:
        """The mean F1 over the annotator pairs."""
        return self.scores.mean

    def pairs(self) -> Records:
        """One row per pair (a, b): F1, markables matched, markables of a and of b in the
        documents both annotated."""
        s, names = self.scores, self.annotators
        return Records({"a": names[i], "b": names[j], "f1": float(s.f1[i, j]),
                        "matched": int(s.matched[i, j]), "markables_a": int(s.n[i, j]),
                        "markables_b": int(s.n[j, i])} for i, j in s.pairs())

    def to_dict(self) -> dict:
        """The pairs and the mean F1 as plain data."""
        return {"mean": self.mean, "pairs": self.pairs()}


@dataclass(repr=False)
class AttributeAgreement:
    """Agreement on one attribute of a level's aligned markables.

    Attributes
    ----------
    attribute : str
    values : dict
        ``values[label][annotator]``: how often the annotator gave the label (on aligned and
        unaligned markables).
    judgements : int
        Attribute values in all.
    items : int
        Aligned markables with the attribute from two or more annotators.
    agreement : Agreement
    """

    attribute: str
    values: dict[str, dict[str, int]]
    judgements: int
    items: int
    agreement: Agreement

    def __repr__(self) -> str:
        return f"AttributeAgreement({self.attribute!r}, {self.agreement!r})"

    def to_dict(self) -> dict:
        """The attribute's agreement as plain data."""
        return {"attribute": self.attribute, "values": self.values,
                "judgements": self.judgements, "items": self.items, **self.agreement.to_dict()}


@dataclass(repr=False)
class LevelAgreement:
    """Everything measured on one markable level.

    Attributes
    ----------
    level : str
    markables : dict
        Markables per annotator.
    aligned : int
        Aligned markables that two or more annotators marked.
    unaligned : int
        Markables nobody else marked.
    unaligned_by_annotator : dict
        Whose they are.
    token_agreement : Agreement
        α, κ and A_o on whether each token is inside a markable of the level.
    span_f1 : PairwiseF1
    attributes : Records
        One :class:`AttributeAgreement` per attribute.
    ner : NerPart
        NER-style agreement on the level's markables (empty with ``ner=False``).
    """

    level: str
    markables: dict[str, int]
    aligned: int
    unaligned: int
    unaligned_by_annotator: dict[str, int]
    token_agreement: Agreement
    span_f1: PairwiseF1
    attributes: Records[AttributeAgreement]
    ner: NerPart = field(default_factory=NerPart)

    def __repr__(self) -> str:
        return (f"LevelAgreement({self.level!r}, {sum(self.markables.values())} markables, "
                f"span F1 {self.span_f1.mean:.4g})")

    def to_dict(self) -> dict:
        """The level's figures as plain data (one entry of ``levels`` in the JSON)."""
        return {"level": self.level, "markables": self.markables, "aligned": self.aligned,
                "unaligned": self.unaligned,
                "unaligned_by_annotator": self.unaligned_by_annotator,
                "token_agreement": self.token_agreement, "span_f1": self.span_f1,
                "attributes": self.attributes, **self.ner.to_dict()}


@dataclass(repr=False)
class LevelDiagnostics:
    """The diagnostics of one level's token agreement.

    Attributes
    ----------
    level : str
    diagnostics : Diagnostics
        (:func:`~corpusagree.analyses.diagnose.diagnose`)
    """

    level: str
    diagnostics: Diagnostics

    def __repr__(self) -> str:
        return f"LevelDiagnostics({self.level!r}, {self.diagnostics!r})"

    def to_dict(self) -> dict:
        """The level's diagnostics as plain data."""
        return {"level": self.level, **self.diagnostics.to_dict()}


@dataclass
class DocumentAlpha(Record):
    """Token α (nominal) of one level in one document: a row of
    :attr:`MarkablesReport.by_document`.

    Attributes
    ----------
    level : str
        The markable level.
    document : str
        The document.
    tokens : int
        Its tokens (the items).
    alpha : float
        α (nominal) of the tokens' labels, nan where undefined.
    """

    level: str
    document: str
    tokens: int
    alpha: float


@dataclass(repr=False, kw_only=True)
class MarkablesReport(Report):
    """Span and attribute agreement on the markables of each level (see the module docstring).

    Attributes
    ----------
    inputs : list of str
        The paths read.
    options : dict
        The options of the analysis and of the reader, as the JSON records them.
    bootstrap : Bootstrap or None
        The bootstrap settings, None without intervals.
    notes : list of str
        What a reader of the report must know.
    format : str or None
    annotators : list of str
    documents : int
    levels : Records
        One :class:`LevelAgreement` per level.
    by_document : Records of DocumentAlpha or None
        Token α per level and document, with ``by_document=True``.
    diagnostics : Records or None
        One :class:`LevelDiagnostics` per level, with ``diagnostics=N``.

    Examples
    --------
    >>> from corpusagree.analyses import markables
    >>> report = markables.analyse(markables.read("sample_corpora/coref/mmax2"))
    >>> coref_level = report.level("coref")
    >>> round(coref_level.token_agreement.get("alpha").value, 4), coref_level.aligned
    (0.9699, 54)
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    format: str | None
    annotators: list[str]
    documents: int
    levels: Records[LevelAgreement]
    notes: list[str]
    #: token α per level and document (with ``by_document``)
    by_document: Records[DocumentAlpha] | None = None
    #: per level, the diagnostics of the token agreement (with ``diagnostics``)
    diagnostics: Records[LevelDiagnostics] | None = None
    job = "markables"

    def level(self, name: str) -> LevelAgreement:
        """The agreement of one level.

        Parameters
        ----------
        name : str
            The markable level (``coref``, ``sentiment`` …), one of ``levels``.

        Returns
        -------
        LevelAgreement

        Raises
        ------
        KeyError
            For a level not measured.
        """
        found = next((lv for lv in self.levels if lv.level == name), None)
        if found is None:
            raise KeyError(name)
        return found

    def body(self) -> dict:
        return {"format": self.format, "annotators": self.annotators,
                "documents": self.documents, "levels": self.levels,
                "by_document": self.by_document, "diagnostics": self.diagnostics}

    def summary(self) -> str:
        where = ", ".join(self.inputs) or "markables"
        return (f"{where}: {len(self.levels)} markable level(s) ("
                f"{', '.join(lv.level for lv in self.levels)}) by {len(self.annotators)} "
                f"annotators ({', '.join(self.annotators)}) in {self.documents} documents; "
                f"{self.options['match']} match")

    def headline(self) -> Estimate | None:
        return first_alpha(e for lv in self.levels
                           for e in lv.token_agreement.coefficients)

    def _tables(self) -> list[Table]:
        match = self.options["match"]
        out = [Table("spans", f"Span agreement per level ({match} match)",
                     [Column("level", "level"), Column("markables", "markables"),
                      Column("aligned", "aligned", "int"),
                      Column("unaligned", "unaligned", "int"),
                      Column("span_f1", "span F1", "float", 3)],
                     [[lv.level, " / ".join(map(str, lv.markables.values())), lv.aligned,
                       lv.unaligned, lv.span_f1.mean] for lv in self.levels],
                     [f"markables: per annotator ({' / '.join(self.annotators)}); aligned: "
                      "markables marked by ≥ 2 annotators, unaligned: by one; span F1: "
                      f"markables paired one to one by {match} span, 2·matched / (n_a + n_b), "
                      "mean over annotator pairs (Hripcsak & Rothschild 2005)"])]
        level_of = {id(e): lv.level for lv in self.levels
                    for e in lv.token_agreement.coefficients}
        out.append(estimate_table(
            "token_agreement", "Token agreement: is each token inside a markable of the level?",
            [e for lv in self.levels for e in lv.token_agreement.coefficients],
            lead=[(Column("level", "level"), lambda e: level_of[id(e)])],
            notes=["items: the tokens of every document, label 1 inside a markable of the "
                   "level, else 0; a document an annotator lacks is missing (Artstein & Poesio "
                   "2008, §2.3–2.4)"] + [f"{lv.level}: {lv.token_agreement.note}"
                                          for lv in self.levels if lv.token_agreement.note]))
        if len(self.annotators) > 2:
            for lv in self.levels:
                out.append(Table(f"span_f1_{lv.level}", f"{lv.level}: pairwise span F1",
                                 [Column("annotator", "")] + [Column(a, a, "float", 3)
                                                              for a in self.annotators],
                                 [[a, *row] for a, row in zip(self.annotators,
                                                               lv.span_f1.scores.f1.tolist(),
                                                               strict=True)], matrix=True,
                                 marked=odd_one_out(self.annotators, lv.span_f1.scores.f1)))
        attrs = [(lv, a) for lv in self.levels for a in lv.attributes]
        if attrs:
            out.append(Table("attributes", "Attributes of the aligned markables",
                             [Column("level", "level"), Column("attribute", "attribute"),
                              Column("values", "values", "int"), Column("items", "items", "int"),
                              Column("judgements", "judgements", "int")],
                             [[lv.level, a.attribute, len(a.values), a.items, a.judgements]
                              for lv, a in attrs],
                             ["values: distinct values; items: aligned markables with the "
                              "attribute from ≥ 2 annotators; judgements: attribute values on "
                              "aligned and unaligned markables"]))
            where = {id(e): (lv.level, a.attribute) for lv, a in attrs
                     for e in a.agreement.coefficients}
            rows = [e for _, a in attrs for e in a.agreement.coefficients]
            out.append(estimate_table(
                "attribute_agreement", "Attribute agreement over aligned markables (nominal"
                + ("; values as sets, with mvα" if self.options.get("set_sep") else "") + ")",
                rows, lead=[(Column("level", "level"), lambda e: where[id(e)][0]),
                            (Column("attribute", "attribute"), lambda e: where[id(e)][1])],
                notes=[f"{lv.level} {a.attribute}: {a.agreement.note}" for lv, a in attrs
                       if a.agreement.note]))
        out += ner_tables([((lv.level,), lv.ner) for lv in self.levels],
                          [Column("level", "level")])
        if self.by_document is not None:
            out.append(Table("by_document", "Token α (nominal) per level and document",
                             [Column("level", "level"), Column("document", "document"),
                              Column("tokens", "tokens", "int"),
                              Column("alpha", "α", "float")],
                             [[r["level"], r["document"], r["tokens"], r["alpha"]]
                              for r in self.by_document],
                             ["nan: α undefined in the document (one annotator, or every "
                              "token on one side)"]))
        for ld in self.diagnostics or []:
            out += [dataclasses.replace(t, id=f"{ld.level}_{t.id}",
                                        title=f"{ld.level} tokens: {t.title}")
                    for t in ld.diagnostics.tables.values()
                    if t.id in ("pairwise", "leave_one_out", "worst_items")]
        return out


# ---- the analysis ------------------------------------------------------------------------------
#: the keywords of :func:`analyse`, which it checks first (the command line's types and
#: choices are made from the same table)
PARAMS = (
    *KEYWORDS,
    several("levels", none=True),
    several("attributes", none=True),
    Param("match", str, choices=tuple(MATCHES)),
    Param("set_sep", str, none=True),
    Param("ner", bool),
    Param("category", str, none=True),
    *ner_params,
)


@checked(*PARAMS, where="markables.analyse()")
def analyse(corpus: Corpus | Sequence[CorefAnnotation], *,
            levels: Sequence[str] | None = None, attributes: Sequence[str] | None = None,
            match: str = "exact", set_sep: str | None = None,
            bootstrap: Bootstrap | None = None, by_document: bool = False,
            diagnostics: int | None = None, ner: bool = True, category: str | None = None,
            min_overlap: float = 1.0, disagreements: int = 20,
            progress: Progress | None = None) -> MarkablesReport:
    """Span and attribute agreement per markable level (see the module docstring).

    Parameters
    ----------
    corpus : Corpus or list of CorefAnnotation
        What :func:`read` returned, or annotations made in Python.
    levels : list of str, optional
        Default: every level present but ``sentence``.
    attributes : list of str, optional
        Default: the attributes of each level that hold labels (not pointers or set ids).
    match : {"exact", "overlap"}
        How markables are aligned.
    set_sep : str, optional
        Attribute values are sets of values separated by it (e.g. ``|``; an empty value is
        the empty set); their agreement adds mvα (Krippendorff & Craggs 2016).
    bootstrap : Bootstrap, optional
        An interval for every coefficient (resampling documents, or items with
        ``cluster=False``).
    by_document : bool
        Token α of each level per document.
    diagnostics : int, optional
        Per level, the coder × coder and leave-one-out α on the tokens, and the N tokens
        that cost most.
    ner : bool
        NER-style agreement per level (the spans job's ``ner`` measure), with F1 intervals
        over documents when bootstrapping.
    category : str, optional
        NER modes: the markable attribute that gives a markable's type (default: ``type``
        where the markables have one, else one type, ``mention``).
    min_overlap : float
        NER modes: the share (per cent, 1–100) of a markable the other annotator's markable
        must cover to overlap it (nervaluate's ``min_overlap_percentage``).
    disagreements : int
        NER modes: how many strict disagreements are listed per level, first by document and
        offset.
    progress : callable, optional
        ``progress(done, total)`` over the replicates of every bootstrap.

    Returns
    -------
    MarkablesReport

    Raises
    ------
    InputError
        A level or attribute that no annotator has, no document annotated by two annotators.

    Examples
    --------
    >>> from corpusagree.analyses import markables
    >>> report = markables.analyse(markables.read("sample_corpora/coref/mmax2"), levels=["coref"])
    >>> [level.level for level in report.levels], list(report.tables)[:2]
    (['coref'], ['spans', 'token_agreement'])
    """
    corpus = corpora.as_corpus(
        corpus, "markables",
        {CorefAnnotation: partial(corpora.mentions_of, job="markables")},
        JOB.kinds)
    annotations = corpus.data
    options = {"levels": None if levels is None else list(levels),
               "attributes": None if attributes is None else list(attributes), "match": match,
               "set_sep": set_sep,
               "by_document": by_document, "diagnostics": diagnostics, "ner": ner,
               "category": category, "min_overlap": min_overlap,
               "disagreements": disagreements, "reader_options": dict(corpus.reader_options)}
    if levels is None:
        present = collect(annotations).levels
        levels = [lv for lv in present if lv != SENTENCE] or present
    mk = collect(annotations, levels)
    if len(mk.annotators) < 2:
        raise InputError(f"markable agreement needs two or more annotators; found "
                         f"{len(mk.annotators)} ({', '.join(mk.annotators)})")
    cluster = align(mk, match)
    plan = _plan(mk, cluster, attributes, set_sep)
    notes: list[str] = []
    families = [d for tokens, attrs in plan for d in [tokens, *(d for _, d in attrs)]]
    run = _Runner(bootstrap, progress, len(families))
    out = Records(_level_agreement(mk, cluster, li, tokens, attrs, run, notes, set_sep)
                  for li, (tokens, attrs) in enumerate(plan))
    if ner:
        for lv in out:
            lv.ner = _ner(annotations, lv.level, category, bootstrap, notes,
                          min_overlap=min_overlap, disagreements=disagreements)
    documents = _by_document(mk, plan) if by_document else None
    diag = None if diagnostics is None else Records(
        LevelDiagnostics(mk.levels[li], diagnose(tokens, "nominal", n_items=diagnostics,
                                                 group_label="document"))
        for li, (tokens, _) in enumerate(plan))
    return MarkablesReport(
        inputs=list(corpus.inputs), options=options, bootstrap=bootstrap,
        format=corpus.format, annotators=list(mk.annotators), documents=len(mk.documents),
        levels=out, notes=list(corpus.notes) + notes, by_document=documents,
        diagnostics=diag,
    )


def _plan(mk: Markables, cluster: np.ndarray, attributes: Sequence[str] | None,
          set_sep: str | None) -> list[tuple[ReliabilityData, list]]:
    """Per level: the token data and [(attribute, data)] of the attributes asked for (default:
    the level's nominal ones); an error naming an attribute asked for on no markable."""
    plan = []
    for li in range(len(mk.levels)):
        on = mk.level == li
        wanted = nominal_attributes(mk, li) if attributes is None else \
            [a for a in attributes if any(a in mk.attrs[m] for m in np.flatnonzero(on))]
        plan.append((token_data(mk, li), [(a, attribute_data(mk, cluster, li, a, set_sep))
                                          for a in wanted]))
    if attributes is not None:
        found = {a for _, attrs in plan for a, _ in attrs}
        lost = [a for a in attributes if a not in found]
        if lost:
            raise InputError(f"attribute(s) {', '.join(lost)} on no markable of level(s) "
                             f"{', '.join(mk.levels)}")
    return plan


def _level_agreement(mk: Markables, cluster: np.ndarray, li: int, tokens: ReliabilityData,
                     attrs: list, run: _Runner, notes: list[str], set_sep: str | None
                     ) -> LevelAgreement:
    """Everything measured on level ``li``: its markables, aligned and not, the agreement on
    its tokens, the pairwise F1 of its spans and the agreement on each attribute."""
    name = mk.levels[li]
    on = mk.level == li
    size = np.bincount(cluster[on], minlength=len(cluster))  # cluster ids < markables
    alone = on & (size[cluster] == 1)
    return LevelAgreement(
        name, _by_annotator(mk, mk.per_annotator(on)), int((size >= 2).sum()),
        int(alone.sum()), _by_annotator(mk, mk.per_annotator(alone)),
        run.agreement(tokens, f"{name} tokens", notes,
                      lambda v: f"every token is {'in' if v else 'out'}side a "
                      f"{name} markable"),
        PairwiseF1(list(mk.annotators), span_f1(mk.annotator[on], cluster[on],
                                                mk.per_document(on), mk.annotated)),
        Records(_attribute(mk, a, data, run.agreement(
            data, f"{name} {a}", notes,
            lambda v, a=a: f"every value of {a!r} is {_value_text(v, set_sep)!r}"), set_sep)
                for a, data in attrs))


def _ner(annotations: Sequence[CorefAnnotation], level: str, category: str | None,
         bootstrap: Bootstrap | None, notes: list[str], **options) -> NerPart:
    """The NER part of one level: its markables as the spans job puts mentions on a
    continuum (:func:`~corpusagree.convert.continuum.from_annotations`: one unit per
    fragment, the type from ``category``), its notes prefixed with the level."""
    on = [dataclasses.replace(a, mentions={k: m for k, m in a.mentions.items()
                                           if m.attrs.get("level", "markable") == level},
                              chains=[], links=[]) for a in annotations]
    c, found = from_annotations(on, "token", category)
    texts = {a.document.id: a.document.tokens for a in annotations}
    part = ner_part(c, bootstrap=bootstrap, texts=texts, notes=found, **options)
    if bootstrap is not None and bootstrap.cluster is False and part.rows:
        found.append("the NER F1 intervals resample documents (a document's spans are "
                     "matched together), not items")
    notes += [f"{level} NER: {x}" for x in found]
    return part


def _by_document(mk: Markables, plan: list) -> Records[DocumentAlpha]:
    """Token α (nominal) of each level in each document (nan where undefined)."""
    rows: Records[DocumentAlpha] = Records()
    for li, (tokens, _) in enumerate(plan):
        for d, name in enumerate(mk.documents):
            sub = tokens.subset(items=tokens.groups == d, compact=True)
            r = quiet(alpha, sub) if sub.n_items else float("nan")
            rows.append(DocumentAlpha(mk.levels[li], name, sub.n_items,
                                      r if isinstance(r, float) else r.value))
    return rows


def _pairable(data: ReliabilityData) -> np.ndarray:
    """Items with two or more judgements."""
    return (data.codes >= 0).sum(0) >= 2


class _Runner:
    """The coefficients of every family, with one progress count over all their bootstraps."""

    def __init__(self, bootstrap: Bootstrap | None, progress: Progress | None,
                 n_families: int) -> None:
        self.bootstrap = bootstrap
        self.stages = Stages(progress, [bootstrap.n_resamples if bootstrap else 0]
                             * n_families)

    def agreement(self, data: ReliabilityData, what: str, notes: list[str],
                  same: Callable[[object], str]) -> Agreement:
        """Nominal α, κ (multi-κ) and A_o on the items of ``data`` with two or more judgements
        (so that κ's per-annotator distributions count compared items only, as Cohen's κ
        does), with intervals when bootstrapping (documents, or items when the compared items
        lie in one document). An undefined coefficient gets a note and a warning saying why
        (``same(label)`` says that every judgement is ``label``)."""
        progress = self.stages.next()
        pairable = _pairable(data)
        if not pairable.any():
            return Agreement(Records(), "no item has two judgements")
        data = data.subset(items=pairable)
        found: list[str] = []
        settings = resampling(self.bootstrap, data.groups, found)
        if settings is not None and data.n_items < 2:
            found.append("no interval: fewer than two compared items to resample")
            settings = None
        n = int((data.codes >= 0).any(1).sum())
        specs = [("alpha", "nominal"), (for_coders("kappa", n), None),
                 ("percent_agreement", None)] + set_specs(data, found)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # undefined: nan; empty resamples
            rows = estimates(data, specs, settings, progress=progress, notes=found)
        notes += [f"{what}: {x}" for x in found]
        for e in rows:
            if np.isnan(e.value):
                why = _undefined(e, data, same)
                notes.append(f"{what}: {why}")
                warnings.warn(f"{what}: {why}", DegenerateWarning, stacklevel=2)
        return Agreement(rows)


def _undefined(e: Estimate, data: ReliabilityData, same: Callable[[object], str]) -> str:
    """Why a coefficient is undefined: its expected disagreement is 0 because every compared
    judgement has one label (Krippendorff 2011: no variation, no reliability to measure)."""
    used = np.unique(data.codes[data.codes >= 0])
    if len(used) == 1:
        return (f"{e.result.symbol} undefined: {same(data.labels[int(used[0])])} (no expected "
                "disagreement)")
    return f"{e.result.symbol} undefined: its expected disagreement is 0"


def _value_text(label, set_sep: str | None) -> str:
    """An attribute value as written: a set's values joined by ``set_sep`` (``{}`` for the
    empty set)."""
    if isinstance(label, frozenset):
        return set_sep.join(sorted(map(str, label))) if label else "{}"
    return str(label)


def _attribute(mk: Markables, attribute: str, data: ReliabilityData,
               agreement: Agreement, set_sep: str | None = None) -> AttributeAgreement:
    """How often each annotator gave each value, and the agreement on them."""
    valid = data.codes >= 0
    C, L = data.codes.shape[0], len(data.labels)
    rows = np.broadcast_to(np.arange(C)[:, None], data.codes.shape)[valid]
    n_ck = np.bincount(data.codes[valid] * C + rows, minlength=L * C).reshape(L, C)
    counts = {_value_text(data.labels[k], set_sep): _by_annotator(mk, n)
              for k, n in enumerate(n_ck)}
    return AttributeAgreement(attribute, counts, int(valid.sum()),
                              int((valid.sum(0) >= 2).sum()), agreement)


def _by_annotator(mk: Markables, counts: np.ndarray) -> dict[str, int]:
    return dict(zip(mk.annotators, counts.tolist(), strict=True))


# ---- the registration ------------------------------------------------------------------------
def _folder_parts(folder: Path) -> Iterator[Part]:
    """The MMAX2 projects of a sub-folder of a study folder."""
    found = discover.mmax2_projects(folder)
    if found is not None:
        yield Part(found)


#: this job's part of the JSON Schema of the report document, ``$defs/job_markables`` of
#: :func:`corpusagree.schema`: the keys of :meth:`MarkablesReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": (
        "`corpusagree markables`: span and attribute agreement per MMAX2 markable level."
    ),
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": ["format", "annotators", "documents", "levels", "by_document", "diagnostics"],
    "properties": {
        "options": {
            "type": "object",
            "required": [
                "levels", "attributes", "match", "set_sep", "by_document", "diagnostics", "ner",
                "category", "min_overlap", "disagreements", "reader_options",
            ],
            "properties": {
                "levels": {"type": ["array", "null"], "items": {"type": "string"}},
                "attributes": {"type": ["array", "null"], "items": {"type": "string"}},
                "match": {"enum": ["exact", "overlap"]},
                "set_sep": {
                    "description": (
                        "Attribute values are sets separated by it (with mvα), or null."
                    ),
                    "type": ["string", "null"],
                },
                "ner": {
                    "description": "Whether the NER-style agreement of each level was measured.",
                    "type": "boolean",
                },
                "category": {
                    "description": (
                        "NER modes: the markable attribute that gives a markable's type, or null "
                        "(type, else one type)."
                    ),
                    "type": ["string", "null"],
                },
                "min_overlap": {
                    "description": (
                        "NER modes: the share (per cent) of a markable the other's markable must "
                        "cover to overlap it."
                    ),
                    "type": "number",
                },
                "disagreements": {
                    "description": "NER modes: how many disagreements are listed per level.",
                    "$ref": "#/$defs/count",
                },
                "by_document": {"type": "boolean"},
                "diagnostics": {"$ref": "#/$defs/diagnostics_option"},
                "reader_options": {"$ref": "#/$defs/reader_options"},
            },
            "additionalProperties": False,
        },
        "format": {"type": ["string", "null"]},
        "annotators": {"$ref": "#/$defs/names"},
        "documents": {"$ref": "#/$defs/count"},
        "levels": {"type": "array", "items": {"$ref": "#/$defs/job_markables/$defs/level"}},
        "by_document": nullable(
            {
                "type": "array",
                "items": extends(
                    "#/$defs/document_row",
                    level={"type": "string"},
                    tokens={"$ref": "#/$defs/count"},
                    alpha={"$ref": "#/$defs/real"},
                ),
            },
            description="Token α per level and document (with --by-document), or null.",
        ),
        "diagnostics": nullable(
            {
                "type": "array",
                "items": extends("#/$defs/diagnostic_parts", level={"type": "string"}),
            },
            description="The diagnostics of each level's token agreement, or null.",
        ),
    },
    "$defs": {
        "agreement": {
            "description": (
                "Nominal α, κ (multi-κ) and A_o; no coefficients and a note when no item has two "
                "judgements (open: closed where used)."
            ),
            "type": "object",
            "required": ["coefficients", "note"],
            "properties": {
                "coefficients": {"$ref": "#/$defs/coefficients"},
                "note": {"type": ["string", "null"]},
            },
        },
        "level": {
            "type": "object",
            "required": [
                "level", "markables", "aligned", "unaligned", "unaligned_by_annotator",
                "token_agreement", "span_f1", "attributes", "ner", "ner_tokens", "disagreements",
            ],
            "properties": {
                "level": {"type": "string"},
                "markables": {"description": "Per annotator.", "$ref": "#/$defs/counts_by_name"},
                "aligned": {"$ref": "#/$defs/count"},
                "unaligned": {"$ref": "#/$defs/count"},
                "unaligned_by_annotator": {"$ref": "#/$defs/counts_by_name"},
                "token_agreement": {
                    "$ref": "#/$defs/job_markables/$defs/agreement",
                    "unevaluatedProperties": False,
                },
                "ner": {
                    "description": (
                        "NER-style agreement on the level's markables (empty without it)."
                    ),
                    "$ref": "#/$defs/ner_rows",
                },
                "ner_tokens": {"$ref": "#/$defs/ner_tokens"},
                "disagreements": {"$ref": "#/$defs/ner_disagreements"},
                "span_f1": closed_object(
                    mean={"$ref": "#/$defs/real"},
                    pairs={
                        "type": "array",
                        "items": closed_object(
                            a={"$ref": "#/$defs/name"},
                            b={"$ref": "#/$defs/name"},
                            f1={"$ref": "#/$defs/real"},
                            matched={"$ref": "#/$defs/count"},
                            markables_a={"$ref": "#/$defs/count"},
                            markables_b={"$ref": "#/$defs/count"},
                        ),
                    },
                ),
                "attributes": {
                    "type": "array",
                    "items": extends(
                        "#/$defs/job_markables/$defs/agreement",
                        attribute={"type": "string"},
                        values={
                            "description": (
                                "How often each annotator gave each value: value → annotator → "
                                "count."
                            ),
                            "type": "object",
                            "additionalProperties": {"$ref": "#/$defs/counts_by_name"},
                        },
                        judgements={"$ref": "#/$defs/count"},
                        items={"$ref": "#/$defs/count"},
                    ),
                },
            },
            "additionalProperties": False,
        },
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "markables", "kinds": ("mentions",), "tasks": ("coref",),
        "help": "MMAX2 markable agreement: spans per level, attribute values", "order": 40,
        "example": ("sample_corpora/coref/mmax2",)}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS, folder={"coref": _folder_parts})
