"""``corpusagree spans``: did the annotators mark the same stretches of text?

Spans of every span reader (brat, INCEpTION XMI, WebAnno TSV, MMAX2 markables, CoNLL-2012 and
CorefUD mentions) and the segments of every segmentation reader become a continuum of units
(:mod:`corpusagree.convert.continuum`), measured without pre-set units by

* Krippendorff's unitizing α: the 1995/2004 uα per category and overall, and the 2016 family
  uα, ``|u|α`` (unitizing only), cuα (coding given unitizing) and (k)uα per category with its
  coverage (Krippendorff 1995, 2004; Krippendorff, Mathet, Bouvry & Widlöcher 2016);
* Mathet, Widlöcher & Métivier's γ (2015) with γ-cat and γ-k (Mathet 2017), on the exact best
  alignment, whose summary per annotator pair (matched, unmatched, split units) and costliest
  unitary alignments (with their text) say where the annotators part;
* position-only agreement beside position-and-category agreement: the same measures with every
  category merged into one;
* NER-style agreement (``ner``): per annotator pair, micro and macro over the pairs, per type
  and over the types, the four modes of SemEval-2013 Task 9.1 (strict, exact, partial,
  ent_type) with the counts and precision, recall and F1 of ``nervaluate``
  (:mod:`corpusagree.stats.nerscores`), F1 intervals by a bootstrap over documents, token κ
  and α on all tokens and on the tokens either annotator marked (Brandsen et al. 2020), and
  the first disagreements by document and offset.

>>> from corpusagree.analyses import spans
>>> corpus = spans.read("sample_corpora/coref/brat")
>>> corpus
<Corpus spans (brat): 3 annotators, 5 documents, 166 units>
>>> report = spans.analyse(corpus, n_samples=30)
>>> report.to_frame("gamma")[["measure", "category", "value"]].round(4).head(2)
  measure category   value
0       γ      all  0.9389
1   γ-cat      all  0.9143
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from os import PathLike
from pathlib import Path

import numpy as np

from .. import readers
from ..convert.continuum import UNITS, from_annotations, from_segmentations
from ..model.continuum import Continuum
from ..model.corpus import CorefAnnotation, Corpus, Segmentation
from ..model.errors import InputError, quote
from ..model.io import excerpt
from ..model.params import WORKERS, Param, checked
from ..model.progress import Progress, Stages
from ..readers import _paths, discover
from ..report.document import Report
from ..report.json import closed_object, extends, nullable
from ..report.tables import Column, Plot, Record, Records, Table, bootstrap_plot
from ..stats import gamma as gm
from ..stats import unitizing as ua
from ..stats.inference import FEW_CLUSTERS, Bootstrap, Interval
from . import corpora
from .base import (
    KEYWORDS,
    interval_dict,
    several,
    title,
)
from .jobs import Part, complete, listed
from .ner import PARAMS as ner_params
from .ner import (
    TEXT,
    NerDisagreement,
    NerPart,
    NerScores,
    TokenAgreement,
    ner_part,
    ner_tables,
    unit_text,
)

MEASURES = ("alpha_u", "gamma", "ner")
#: the tasks whose readers give spans, in the order a format is looked for (its registration's)
TASKS = listed()["spans"].tasks
#: the corpus-wide uα variants reported, in order
OVERALL = ("u", "|u|", "cu", "1995")
#: the most units of one document drawn on its continuum, and the most documents drawn
PLOT_UNITS = 400
PLOT_DOCUMENTS = 8
#: a uα's id in reports → its symbol
SYMBOLS = {ua.IDS[v]: s for v, s in ua.VARIANTS.items()}


# ---- reading ----------------------------------------------------------------------------------
def read(paths: str | PathLike | Sequence[str | PathLike], *, input_format: str = "auto",
         annotators: Sequence[str] | None = None, unit: str = "token",
         category: str | None = None, **reader_options) -> Corpus[Continuum]:
    """The continuum of units of span annotations or segmentations.

    Parameters
    ----------
    paths : path or list of paths
        Span annotations in any coreference format (brat, XMI, WebAnno TSV, MMAX2,
        CoNLL-2012, CorefUD, ezCoref), or segmentations in any segmentation format.
    input_format : str
        The format, or ``auto`` to recognise it.
    annotators : list of str, optional
        The annotators' names (span formats) or the coders to keep (segmentations).
    unit : {"token", "char"}
        Positions in tokens, or in characters where the format keeps character offsets (brat,
        XMI, WebAnno TSV); segmentations are on their own units.
    category : str, optional
        The attribute that gives a unit's category (default: the entity type where the
        format has one).
    **reader_options
        The format's own options: MMAX2 reads every level unless ``levels`` says which, XMI
        and WebAnno TSV the coreference layers, else the one span layer, unless ``layers``
        says which.

    Returns
    -------
    Corpus
        ``data``: the :class:`~corpusagree.model.continuum.Continuum`; ``texts``: each
        document's tokens or text, to show the units that cost most.

    Examples
    --------
    >>> from corpusagree.analyses import spans
    >>> spans.read("sample_corpora/segments/segments.json")
    <Corpus spans (segeval): 3 annotators, 3 documents, 31 units>
    """
    plist = _paths.as_list(paths)
    if not plist:
        raise InputError("no input files")
    for p in plist:
        _paths.check(p)
    task = _task(plist, input_format)
    if task == "timeline":      # TextGrid, ELAN, RTTM: a continuum in seconds
        _span_formats_only(unit, category, "time-aligned files are in seconds, their "
                           "labels the categories")
        fmt, parts = readers.read(task, plist, input_format, annotators, job="spans",
                                  **reader_options)
        c = Continuum.join(parts)
        return corpora.corpus_of(c, job="spans", fmt=fmt, annotators=c.annotators,
                                 documents=c.documents, inputs=[str(p) for p in plist],
                                 size=f"{len(c):,} units", kind="continua",
                                 reader_options=readers.get(task, fmt).options_for(
                                     "spans", reader_options))
    if task == "coref":
        fmt = readers.resolve(task, plist, input_format)
        annotations = corpora.mentions_in(plist, fmt, annotators, job="spans", spans=True,
                                          **reader_options).data
        options = readers.get(task, fmt).options_for("spans", reader_options)
    else:
        _span_formats_only(unit, category, "segmentations are on their own units")
        fmt, annotations = readers.read(task, plist, input_format, annotators, job="spans",
                                        **reader_options)
        options = readers.get(task, fmt).options_for("spans", reader_options)
    return corpus_of(annotations, fmt, [str(p) for p in plist], unit, category, options)


def corpus_of(annotations: Sequence[CorefAnnotation] | Sequence[Segmentation],
              fmt: str = "python", inputs: Sequence[str] = (), unit: str = "token",
              category: str | None = None, reader_options: dict | None = None
              ) -> Corpus[Continuum]:
    """The corpus of the spans job of span annotations or segmentations: their continuum
    (:func:`continuum`), their texts (:func:`texts`) and the continuum's notes."""
    c, notes = continuum(annotations, unit, category)
    options = dict(reader_options or {})
    if category is not None:
        options["category"] = category
    return Corpus("spans", fmt, c, list(c.annotators), list(c.documents), list(inputs),
                  notes, options, texts(annotations, unit), f"{len(c):,} units")


def as_corpus(corpus: Corpus | Continuum | Sequence) -> Corpus[Continuum]:
    """A corpus of the spans job, from what :func:`analyse` was given.

    A :class:`~corpusagree.model.corpus.Corpus` of the job as it is, or a continuum, span
    annotations or segmentations made into one: :func:`analyse` calls this first, so that it
    takes either what :func:`read` returns or a continuum, span annotations or segmentations
    made in Python.

    Parameters
    ----------
    corpus : Corpus, Continuum, or sequence of CorefAnnotation or Segmentation
        A corpus of the spans job or of mentions or segmentations (made into continua), or a
        continuum, span annotations or segmentations made in Python.

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        For anything else (the message says what the job takes).

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> from corpusagree.analyses import spans
    >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER")], end=60)
    >>> spans.as_corpus(c)
    <Corpus spans (python): 2 annotators, 1 document, 2 units>
    """
    if isinstance(corpus, Corpus) and corpus.kind in ("mentions", "segmentations"):
        return corpus_of(corpus.data, corpus.format, corpus.inputs,
                         reader_options=corpus.reader_options)
    return corpora.as_corpus(corpus, "spans", {Continuum: _of_continuum,
                                               CorefAnnotation: corpus_of,
                                               Segmentation: corpus_of}, JOB.kinds)


def _of_continuum(c: Continuum) -> Corpus[Continuum]:
    return corpora.corpus_of(c, job="spans", annotators=c.annotators, documents=c.documents,
                             size=f"{len(c):,} units", kind="continua")


def _span_formats_only(unit: str, category: str | None, why: str) -> None:
    """An InputError when ``unit`` or ``category``, which apply to span formats only, is
    given for files that are not (``why``)."""
    given = ([f"unit={quote(unit)}"] if unit != "token" else []) + \
        ([f"category={quote(category)}"] if category is not None else [])
    if given:
        raise InputError(f"{' and '.join(given)}: only for span formats; {why}")


def _task(paths: list[Path], input_format: str) -> str:
    if input_format != "auto":
        for task in TASKS:
            if input_format in readers.readers(task):
                return task
        known = [f for t in TASKS for f in readers.readers(t)]
        raise InputError(f"unknown span format {input_format!r}; known: {', '.join(known)}")
    errors = []
    for task in TASKS:
        try:
            readers.resolve(task, paths, "auto")
            return task
        except InputError as e:
            errors.append(e)
    # a task that recognises some of the paths: its error names the one it does not
    for task, error in zip(TASKS, errors, strict=True):
        if len(paths) > 1 and any(_recognises(task, p) for p in paths):
            raise error
    raise corpora.other_jobs_error(paths, TASKS) or InputError(
        "cannot tell the format of these spans; pass input_format=NAME",
        paths[0] if len(paths) == 1 else None)


def _recognises(task: str, path: Path) -> bool:
    try:
        readers.detect(task, path)
    except InputError:
        return False
    return True


def continuum(corpus: Sequence[CorefAnnotation] | Sequence[Segmentation], unit: str = "token",
              category: str | None = None) -> tuple[Continuum, list[str]]:
    """The continuum of a corpus (see :mod:`corpusagree.convert.continuum`) and its notes;
    segmentations are on their own units (``unit`` and ``category`` do not apply)."""
    if corpus and isinstance(corpus[0], Segmentation):
        return from_segmentations(corpus), [
            "the segments tile each text with one category: the 2016 uα family and γ-cat have "
            "no categories to compare, uα (1995) compares where the segments lie; "
            "the segments job gives agreement on boundaries, B, Pk and WindowDiff"]
    return from_annotations(corpus, unit, category)


def texts(corpus: Sequence[CorefAnnotation] | Sequence[Segmentation], unit: str = "token"
          ) -> dict[str, str | Sequence[str]]:
    """Each document's tokens (``unit="token"``) or text (``"char"``), to show the units that
    cost most; a segmentation's units where its format has their text."""
    out: dict[str, str | Sequence[str]] = {}
    for a in corpus:
        if isinstance(a, Segmentation):
            doc, text = a.document, a.tokens
        else:
            doc = a.document.id
            text = a.document.tokens if unit == "token" else a.document.text
        if text is not None and doc not in out:
            out[doc] = text
    return out


# ---- the report ------------------------------------------------------------------------------
@dataclass(repr=False)
class PairSummary:
    """How two annotators' units meet in the best alignment, over the documents both annotated.

    Attributes
    ----------
    a, b : str
        The annotators.
    matched : int
        Unitary alignments holding a unit of each.
    only_a, only_b : int
        Units of one aligned with nothing of the other.
    split_a, split_b : int
        Units of one that the other split (two or more disjoint units of the other meet it,
        none covers it).
    """

    a: str
    b: str
    matched: int
    only_a: int
    only_b: int
    split_a: int
    split_b: int

    def to_dict(self) -> dict:
        """The pair's counts as plain data."""
        return {k: getattr(self, k) for k in ("a", "b", "matched", "only_a", "only_b",
                                             "split_a", "split_b")}


@dataclass
class AlphaU(Record):
    """One coefficient of the unitizing α family with its interval: a row of
    :attr:`SpansReport.alpha_u` (:meth:`corpusagree.unitizing.UnitizingAlpha.to_dict`).

    Attributes
    ----------
    id, symbol : str
        Its ASCII id (``alpha_u``, ``alpha_cu`` …) and its symbol (uα, cuα …).
    variant : str
        ``1995``, ``u``, ``|u|``, ``cu`` or ``k``.
    category : str or None
        The category measured (1995 and k), None for all.
    value : float
        The coefficient, nan where undefined.
    observed, expected : float
        Its observed and expected disagreement.
    coverage : float or None
        (k)uα only: the share of the category's length that meets other coders' units.
    reason : str or None
        Why ``value`` is nan.
    documents : int
        The documents with at least two annotators.
    interval : dict or None
        Its bootstrap interval over documents, None without one.
    """

    id: str
    symbol: str
    variant: str
    category: str | None
    value: float
    observed: float
    expected: float
    coverage: float | None
    reason: str | None
    documents: int
    interval: dict | None = None


@dataclass
class CostlyAlignment(Record):
    """A unitary alignment of γ that costs much: a row of :attr:`SpansReport.costliest`.

    Attributes
    ----------
    document : str
        Its document.
    disorder : float
        Its disorder (Mathet et al. 2015).
    units : list
        Each annotator's unit in it (``start``, ``end``, ``category`` and its ``text`` when
        the text is known), None where the annotator has none.
    """

    document: str
    disorder: float
    units: list[dict | None]


@dataclass
class DocumentUnitizing(Record):
    """uα and γ of one document: a row of :attr:`SpansReport.documents`.

    Attributes
    ----------
    document : str
        The document.
    units : int
        Its units (every annotator's).
    alpha_u : float
        Krippendorff's uα of its units, nan where undefined.
    gamma : float
        Mathet et al.'s γ of its units, nan where undefined or not computed.
    """

    document: str
    units: int
    alpha_u: float
    gamma: float


@dataclass(repr=False, kw_only=True)
class SpansReport(Report):
    """Unitizing agreement of one continuum (see the module docstring).

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
        The format read.
    continuum : Continuum
        The units measured.
    alpha_u : Records of AlphaU
        The unitizing α family overall and per category, one row each.
    gamma : Gamma or None
        γ with γ-cat and γ-k, when measured.
    gamma_positions : Gamma or None
        γ with every category merged (position-only agreement).
    pairs : Records
        One :class:`PairSummary` per annotator pair.
    costliest : Records of CostlyAlignment
        The unitary alignments that cost most, with their text (``diagnostics=N``).
    documents : Records of DocumentUnitizing or None
        uα and γ per document, with ``by_document=True``.
    alpha_interval : Interval or None
        uα's bootstrap interval over documents.
    ner : Records of NerScores
        The four modes' counts and scores, with ``measures`` holding ``ner``.
    ner_tokens : Records of TokenAgreement
        Token κ and α per pair, on all tokens and on the tokens either marked.
    disagreements : Records of NerDisagreement
        The first strict disagreements by document and offset.

    Examples
    --------
    >>> from corpusagree.analyses import spans
    >>> report = spans.analyse(spans.read("sample_corpora/coref/brat"), measures=["gamma"],
    ...                        n_samples=30)
    >>> report.gamma
    Gamma(0.9389: observed 0.0917, expected 1.501 from 30 statistical samples)
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    format: str | None
    continuum: Continuum
    alpha_u: Records[AlphaU]
    gamma: gm.Gamma | None
    gamma_positions: gm.Gamma | None
    pairs: Records[PairSummary]
    costliest: Records[CostlyAlignment]
    documents: Records[DocumentUnitizing] | None
    notes: list[str]
    #: the interval of the first overall uα that has one (its bootstrap distribution is drawn)
    alpha_interval: Interval | None = None
    ner: Records[NerScores] = field(default_factory=Records)
    ner_tokens: Records[TokenAgreement] = field(default_factory=Records)
    disagreements: Records[NerDisagreement] = field(default_factory=Records)
    job = "spans"

    def summary(self) -> str:
        c = self.continuum
        where = title(self.inputs, "spans")
        fmt = f" ({self.format})" if self.format else ""
        return (f"{where}{fmt}: {_count(len(c), 'unit')} by "
                f"{_count(len(c.annotators), 'annotator')} in "
                f"{_count(len(c.documents), 'document')}, "
                f"{_count(len(c.categories), 'category', 'categories')}, positions in {c.unit}s")

    def body(self) -> dict:
        c = self.continuum
        return {"format": self.format,
                "data": {"units": len(c), "unit": c.unit, "annotators": list(c.annotators),
                         "documents": list(c.documents), "categories": list(c.categories),
                         "units_per_annotator": dict(zip(c.annotators, np.bincount(
                             c.annotator, minlength=len(c.annotators)).tolist(), strict=True))},
                "alpha_u": self.alpha_u,
                "gamma": None if self.gamma is None else self.gamma.to_dict(),
                "gamma_positions": None if self.gamma_positions is None else
                self.gamma_positions.to_dict(alignment=False),
                "pairs": self.pairs, "costliest": self.costliest,
                "by_document": self.documents, "ner": self.ner,
                "ner_tokens": self.ner_tokens, "disagreements": self.disagreements}

    def plots(self) -> list[Plot]:
        """The bootstrap distribution of the first uα, and the continuum of the
        :data:`PLOT_DOCUMENTS` least-agreed documents (least γ by document, else most
        disorder) with each annotator's units and the best alignment, at most
        :data:`PLOT_UNITS` units a document."""
        iv = self.alpha_interval
        out = [] if iv is None or iv.distribution is None else [
            bootstrap_plot(SYMBOLS[iv.coefficient], "over documents", iv.estimate, iv)]
        g = self.gamma
        if g is None or not len(self.continuum):
            return out
        c, al = self.continuum, g.alignment
        gammas = {d.document: d.value for d in g.documents}
        documents = []
        for doc in _plot_documents(c, g)[:PLOT_DOCUMENTS]:
            sel = np.flatnonzero(c.doc == doc)[:PLOT_UNITS]
            at = {u: k for k, u in enumerate(sel.tolist())}  # a unit's index in the plot
            begin, end = c.bounds[doc]
            if len(sel):
                end = min(end, float(c.end[sel].max()))
            name = c.documents[doc]
            gamma = f"γ = {gammas[name]:.4f}, " if name in gammas else ""
            shown = "" if len(sel) == int((c.doc == doc).sum()) else \
                f"; its first {len(sel)} units"
            documents.append({
                "document": name,
                "units": [(int(c.annotator[u]), float(c.start[u]), float(c.end[u]),
                           c.categories[c.category[u]]) for u in sel],
                "links": [tuple(at[u] for u in row if u in at)
                          for row in al.tuples[al.document == doc].tolist()],
                "begin": float(begin), "end": float(end),
                "note": f"{gamma}disorder = {float(al.document_disorders[doc]):.4f}{shown}"})
        order = "least γ first" if gammas else "most disorder first"
        return out + [Plot("continuum", "Each annotator's units and the best alignment, in the "
                           f"least-agreed documents ({order})", "continuum",
                           {"annotators": list(c.annotators), "unit": c.unit,
                            "documents": documents},
                           [f"α = {al.alpha:g}, β = {al.beta:g}, Δ∅ = {al.delta_empty:g}"])]

    def _tables(self) -> list[Table]:
        out = []
        if self.alpha_u:
            out.append(self._alpha_u_table())
        if self.gamma is not None:
            out.append(self._gamma_table())
        if self.pairs:
            out.append(self._pairs_table())
        if self.costliest:
            out.append(self._costliest_table())
        out += ner_tables([((), NerPart(self.ner, self.ner_tokens, self.disagreements))])
        if self.documents:
            out.append(Table(
                "by_document", "By document",
                [Column("document", "document"), Column("units", "units", "int"),
                 Column("alpha_u", "uα", "float"), Column("gamma", "γ", "float")],
                [[r["document"], r["units"], r["alpha_u"], r["gamma"]]
                 for r in self.documents]))
        return out

    def _alpha_u_table(self) -> Table:
        ivs = [r.get("interval") for r in self.alpha_u if r.get("interval")]
        cols = [Column("measure", "measure"), Column("category", "category"),
                Column("value", "value", "float")]
        if ivs:
            cols.append(Column("interval", f"{ivs[0]['level']:.0%} CI", "interval"))
        cols += [Column("observed", "Do", "magnitude", 3, optional=True),
                 Column("expected", "De", "magnitude", 3, optional=True)]
        covered = any(r["coverage"] is not None and r["value"] == r["value"]
                      for r in self.alpha_u)
        if covered:
            cols.append(Column("coverage", "coverage", "float", 3, optional=True))
        rows = []
        # an undefined measure is a line of the notes (what, and why), not a row of "—"
        for r in (r for r in self.alpha_u if not (r["reason"] and r["value"] != r["value"])):
            line = [ua.VARIANTS[r["variant"]], r["category"] or "all", r["value"]]
            if ivs:
                iv = r.get("interval")
                line.append(None if iv is None else (iv["low"], iv["high"]))
            rows.append(line + [r["observed"], r["expected"]]
                        + ([r["coverage"]] if covered else []))
        why: dict[str, list[str]] = {}
        for r in self.alpha_u:
            if r["reason"]:
                why.setdefault(r["reason"], []).append(
                    f"{ua.VARIANTS[r['variant']]} {r['category'] or 'all'}")
        notes = [f"{', '.join(names)} undefined: {reason}" for reason, names in why.items()]
        notes.append("Krippendorff 1995, 2004 (uα per category, overall 1 − ΣDo/ΣDe); "
                     "Krippendorff, Mathet, Bouvry & Widlöcher 2016 (uα, |u|α, cuα, (k)uα; "
                     "coverage: the share of the category's length that meets other "
                     "coders' units); |u|α is position-only agreement")
        return Table("alpha_u", "Unitizing α", cols, rows, notes)

    def _gamma_table(self) -> Table:
        g = self.gamma
        rows = [["γ", "all", g.value, g.observed_disorder, g.expected_disorder],
                ["γ-cat", "all", g.gamma_cat, *g.cat_disorders]]
        rows += [["γ-k", k, v, *g.k_disorders[k]] for k, v in g.gamma_ks.items()]
        if self.gamma_positions is not None:
            p = self.gamma_positions
            rows.append(["γ (positions only)", "all", p.value, p.observed_disorder,
                         p.expected_disorder])
        ci = g.confidence_interval()
        return Table(
            "gamma", "γ (Mathet, Widlöcher & Métivier 2015) on the best alignment",
            [Column("measure", "measure"), Column("category", "category"),
             Column("value", "value", "float"), Column("observed", "Do", "float"),
             Column("expected", "De", "float")], rows,
            [f"α = {g.alignment.alpha:g}, β = {g.alignment.beta:g}, Δ∅ = "
             f"{g.alignment.delta_empty:g}, categories {g.alignment.category_distance}; "
             f"expected disorder from {g.n_samples} {g.sampler} samples, seed {g.seed}; "
             f"γ {ci.level:.0%} interval [{ci.low:.4f}, {ci.high:.4f}] (sampling of De)",
             "γ-cat, γ-k: Mathet 2017"] + _undefined_gamma_cat(g) + list(g.notes))

    def _pairs_table(self) -> Table:
        return Table(
            "pairs", "The best alignment by annotator pair",
            [Column("a", "a"), Column("b", "b"), Column("matched", "matched", "int"),
             Column("only_a", "only a", "int"), Column("only_b", "only b", "int"),
             Column("split_a", "a split", "int"), Column("split_b", "b split", "int")],
            [[p.a, p.b, p.matched, p.only_a, p.only_b, p.split_a, p.split_b]
             for p in self.pairs],
            ["matched: unitary alignments with a unit of each; only a: a's units aligned "
             "with nothing of b; a split: a's units that b marked as two or more disjoint "
             "units (and no unit of b covers)"])

    def _costliest_table(self) -> Table:
        names = list(self.continuum.annotators)
        return Table(
            "costliest", "Unitary alignments that cost most (disorder), each annotator's "
            "unit", [Column("document", "document"), Column("disorder", "disorder", "float")]
            + [Column(a, a) for a in names],
            [[r["document"], r["disorder"], *(unit_text(u) for u in r["units"])]
             for r in self.costliest])


def _plot_documents(c: Continuum, g: gm.Gamma) -> list[int]:
    """The documents in the order they are drawn: by γ, least first (ties: in their order),
    then the others by disorder, most first."""
    per = sorted((d.value, c.documents.index(d.document)) for d in g.documents
                 if np.isfinite(d.value))
    first = [k for _, k in per]
    seen = set(first)
    rest = np.argsort(-np.asarray(g.alignment.document_disorders, dtype=float), kind="stable")
    return first + [int(k) for k in rest.tolist() if k not in seen]


def _undefined_gamma_cat(g: gm.Gamma) -> list[str]:
    names = (["γ-cat"] if np.isnan(g.gamma_cat) else []) + [
        f"γ-k {k}" for k, v in g.gamma_ks.items() if np.isnan(v)]
    if not names:
        return []
    return [f"{', '.join(names)} undefined: no expected categorical disorder (one category, "
            "or no two aligned units of it): categories cannot disagree by chance"]


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


# ---- the analysis ----------------------------------------------------------------------------
#: the keywords of :func:`analyse`, which it checks first (the command line's types and
#: choices are made from the same table)
PARAMS = (
    *KEYWORDS,
    several("measures"),
    Param("alpha", float, low=0),
    Param("beta", float, low=0),
    Param("delta_empty", float, low=0, closed="neither"),
    Param("sampler", str, choices=tuple(gm.SAMPLERS)),
    Param("precision", float, low=0, closed="neither", none=True),
    Param("n_samples", int, low=1, none=True),
    Param("seed", int, low=0, none=True),
    WORKERS,
    *ner_params,
)


@checked(*PARAMS, where="spans.analyse()")
def analyse(corpus: Corpus | Continuum | Sequence, *, measures: Sequence[str] = MEASURES,
            by_document: bool = False, alpha: float = 1, beta: float = 1,
            delta_empty: float = 1, category_distance="nominal", sampler: str = "statistical",
            precision: float | None = 0.02, n_samples: int | None = None,
            seed: int | None = 0, bootstrap: Bootstrap | None = None,
            diagnostics: int | None = None, min_overlap: float = 1.0,
            disagreements: int = 20, progress: Progress | None = None,
            workers: int | None = None) -> SpansReport:
    """Unitizing α family and γ of a continuum (see the module docstring).

    Parameters
    ----------
    corpus : Corpus, Continuum, or span annotations or segmentations
        What :func:`read` returned, a continuum made in Python, or annotations.
    measures : list of str
        A subset of ``alpha_u``, ``gamma``, ``ner``.
    by_document : bool
        uα and γ per document.
    alpha, beta : float
        γ's weights of the positional and categorial dissimilarities (Mathet, Widlöcher &
        Métivier 2015) — the parameters of :func:`corpusagree.stats.gamma.gamma`, as the
        following ones.
    delta_empty : float
        Δ∅, the cost of a unit aligned with nothing.
    category_distance : str, mapping, tuple or Distance
        The distance between categories.
    sampler : {"statistical", "shuffle"}
        How the continua of γ's expected disorder are sampled.
    precision : float, optional
        Unless ``n_samples`` is given, sample until D_e's 95% interval is this narrow
        (relative half-width), with at most 1,000 samples.
    n_samples : int, optional
        A fixed number of sampled continua.
    seed : int, optional
        The seed of the samples.
    bootstrap : Bootstrap, optional
        uα intervals over documents (two or more).
    diagnostics : int, optional
        The N unitary alignments that cost most, with the units' text.
    min_overlap : float
        NER modes: the share (per cent, 1–100) of a span the other annotator's span must
        cover to overlap it (nervaluate's ``min_overlap_percentage``).
    disagreements : int
        NER modes: how many strict disagreements are listed, first by document and offset.
    progress : callable, optional
        ``progress(done, total)`` as the work advances.
    workers : int, optional
        How many threads align γ's sampled continua (default: one per core this process may
        use); the figures are the same whatever the number.

    Returns
    -------
    SpansReport

    Raises
    ------
    InputError
        An unknown measure, bad γ parameters, fewer than two annotators.

    Examples
    --------
    >>> from corpusagree.analyses import spans
    >>> report = spans.analyse(spans.read("sample_corpora/segments/segments.json"),
    ...                        measures=["alpha_u"])
    >>> row = report.alpha_u[3]
    >>> row["symbol"], round(row["value"], 4)
    ('uα (1995)', 0.6737)
    """
    corpus = as_corpus(corpus)
    c = corpus.data
    texts = corpus.texts
    where = ", ".join(map(str, corpus.inputs)) or None
    _check_measures(c, measures, where)
    notes = list(corpus.notes)
    with_alpha, with_gamma = "alpha_u" in measures, "gamma" in measures
    planned = n_samples or gm.FIRST_BATCH  # the precision rule may ask for more
    stage = Stages(progress, [
        _alpha_intervals(c, bootstrap) * bootstrap.n_resamples if with_alpha and bootstrap
        else 0, planned if with_gamma else 0,
        planned if with_gamma and len(c.categories) > 1 else 0])
    alpha_progress, gamma_progress, positions_progress = (stage.next() for _ in range(3))
    alpha_rows, alpha_iv = _alpha_rows(c, bootstrap, notes, alpha_progress) if with_alpha \
        else (Records(), None)
    g = gp = None
    if with_gamma:
        g, gp = _gammas(c, dict(alpha=alpha, beta=beta, delta_empty=delta_empty,
                                sampler=sampler, precision=precision, n_samples=n_samples,
                                seed=seed, workers=workers), category_distance,
                        bootstrap, notes, where, gamma_progress, positions_progress)
    ner = ner_part(c, min_overlap=min_overlap, bootstrap=bootstrap,
                   disagreements=disagreements, texts=texts or {}, notes=notes) \
        if "ner" in measures else NerPart()
    pairs = Records(_pairs(c, g.alignment)) if g is not None else Records()
    costliest = Records(_costliest(g.alignment, diagnostics, texts or {})) \
        if g is not None and diagnostics else Records()
    documents = Records(_by_document(c, g)) if by_document else None
    options = {"measures": list(measures), "by_document": by_document, "alpha": alpha,
               "beta": beta, "delta_empty": delta_empty,
               "category_distance": category_distance if isinstance(category_distance, str)
               else "matrix", "sampler": sampler, "precision": precision,
               "n_samples": n_samples, "seed": seed, "diagnostics": diagnostics,
               "min_overlap": min_overlap, "disagreements": disagreements,
               "unit": c.unit, "reader_options": dict(corpus.reader_options)}
    return SpansReport(
        inputs=[str(p) for p in corpus.inputs], options=options, bootstrap=bootstrap,
        format=corpus.format, continuum=c, alpha_u=alpha_rows, gamma=g, gamma_positions=gp,
        pairs=pairs, costliest=costliest, documents=documents,
        notes=list(dict.fromkeys(notes)), alpha_interval=alpha_iv, ner=ner.rows,
        ner_tokens=ner.tokens, disagreements=ner.disagreements,
    )


def _check_measures(c: Continuum, measures: Sequence[str], where: str | None) -> None:
    """An error for an unknown measure, or for fewer than two annotators."""
    unknown = [m for m in measures if m not in MEASURES]
    if unknown:
        raise InputError(f"unknown measure(s) {', '.join(unknown)}; known: {', '.join(MEASURES)}")
    if len(c.annotators) < 2:
        raise InputError(f"agreement needs two or more annotators; found {len(c.annotators)} "
                         f"({', '.join(c.annotators)})", where)


def _gammas(c: Continuum, kw: dict, category_distance, bootstrap: Bootstrap | None,
            notes: list[str], where: str | None, progress: Progress | None,
            positions_progress: Progress | None) -> tuple[gm.Gamma, gm.Gamma | None]:
    """γ, and γ of the positions only when there are two or more categories (``kw``: the
    alignment's and the sampler's keywords); a bootstrap's note says it is not γ's."""
    try:
        g = gm.gamma(c, category_distance=category_distance, progress=progress, **kw)
    except InputError as e:  # no document to align: said of the inputs, as above
        if e.path:
            raise
        raise InputError(e.message, where) from None
    gp = None
    if len(c.categories) > 1:
        gp = gm.gamma(_positions_only(c), progress=positions_progress, **kw)
    if bootstrap is not None:
        notes.append("γ: its interval is the sampling error of its expected disorder "
                     "over the sampled continua (Mathet et al. 2015, §5.3), not a "
                     f"bootstrap: the bootstrap's {bootstrap.interval} intervals are uα's")
    return g, gp


def _positions_only(c: Continuum) -> Continuum:
    """The continuum with every category merged into one (position-only agreement)."""
    return replace(c, categories=["any"], category=np.zeros(len(c), np.int64))


def _alpha_row(c: Continuum, variant: str, category: str | None,
               bootstrap: Bootstrap | None, notes: list[str], progress: Progress | None
               ) -> tuple[AlphaU, Interval | None]:
    try:
        r = ua.alpha_u(c, variant=variant, category=category)
    except InputError as e:
        return AlphaU(ua.IDS[variant], ua.VARIANTS[variant], variant, category,
                      float("nan"), float("nan"), float("nan"), None, e.message,
                      len(c.documents)), None
    iv = None
    if bootstrap is not None and len(c.documents) >= 2:
        try:
            iv = r.confidence_interval(bootstrap.level, bootstrap.n_resamples, bootstrap.seed,
                                       bootstrap.interval, progress)
        except InputError as e:
            notes.append(f"{r.symbol}: no interval: {e.message}")
    if progress is not None:
        progress(bootstrap.n_resamples if bootstrap is not None else 0)
    return AlphaU(**r.to_dict(), interval=interval_dict(iv)), iv


def _alpha_rows(c: Continuum, bootstrap: Bootstrap | None, notes: list[str],
                progress: Progress | None = None) -> tuple[Records[AlphaU], Interval | None]:
    """The uα rows (overall, then per category) and the first overall interval;
    ``progress`` counts the replicates of every row's bootstrap."""
    rows = Stages(progress, [bootstrap.n_resamples if bootstrap is not None else 0]
                  * _alpha_intervals(c, bootstrap))
    overall = [_alpha_row(c, v, None, bootstrap, notes, rows.next()) for v in OVERALL]
    first = next((iv for _, iv in overall if iv is not None and iv.estimate == iv.estimate),
                 None)
    out = [row for row, _ in overall]
    for cat in c.categories:
        out += [_alpha_row(c, "1995", cat, bootstrap, notes, rows.next())[0],
                _alpha_row(c, "k", cat, bootstrap, notes, rows.next())[0]]
    if bootstrap is not None and len(c.documents) < 2:
        notes.append("one document: uα has no interval (the bootstrap resamples documents)")
    elif bootstrap is not None and len(c.documents) < FEW_CLUSTERS:
        notes.append(f"only {len(c.documents)} documents: uα's intervals, over documents, are "
                     "rough")
    return Records(out), first


def _alpha_intervals(c: Continuum, bootstrap: Bootstrap | None) -> int:
    """How many uα rows are bootstrapped: the overall ones, then two per category."""
    if bootstrap is None or len(c.documents) < 2:
        return 0
    return len(OVERALL) + 2 * len(c.categories)


def _split(c: Continuum, a: int, b: int) -> np.ndarray:
    """For each unit of annotator a: did b split it — two or more of b's units overlap it (meet
    it in more than a point), two of them are disjoint, and none covers it? (Nested mentions
    of b inside one covering mention are no split.) A sweep over b's units sorted by start,
    with the documents laid end to end: no pair loop."""
    ia, ib = np.flatnonzero(c.annotator == a), np.flatnonzero(c.annotator == b)
    if not len(ia) or not len(ib):
        return np.zeros(len(ia), bool)
    shift = c.doc * 2 * (float(c.end.max() - c.start.min()) + 1)
    sa, ea = c.start[ia] + shift[ia], c.end[ia] + shift[ia]
    order = np.argsort(c.start[ib] + shift[ib], kind="stable")
    sb, eb = (c.start[ib] + shift[ib])[order], (c.end[ib] + shift[ib])[order]
    lo = np.searchsorted(sb, sa - (eb - sb).max(), "left")
    hi = np.searchsorted(sb, ea, "left")                     # b's start < a's end
    n = np.maximum(hi - lo, 0)
    u = np.repeat(np.arange(len(ia)), n)
    j = lo[u] + np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    meet = eb[j] > sa[u]
    u, j = u[meet], j[meet]
    count = np.bincount(u, minlength=len(ia))
    first_end = np.full(len(ia), np.inf)
    np.minimum.at(first_end, u, eb[j])
    last_start = np.full(len(ia), -np.inf)
    np.maximum.at(last_start, u, sb[j])
    covered = np.bincount(u, (sb[j] <= sa[u]) & (eb[j] >= ea[u]), len(ia)) > 0
    return (count >= 2) & ~covered & (last_start >= first_end)


def _pairs(c: Continuum, alignment: gm.Alignment) -> list[PairSummary]:
    T, doc = alignment.tuples, alignment.document
    out = []
    for a in range(len(c.annotators)):
        for b in range(a + 1, len(c.annotators)):
            both = c.annotated[a, doc] & c.annotated[b, doc]
            ta, tb = T[both, a] >= 0, T[both, b] >= 0
            shared = c.annotated[a, c.doc] & c.annotated[b, c.doc]
            split_a = _split(c, a, b)[shared[c.annotator == a]]
            split_b = _split(c, b, a)[shared[c.annotator == b]]
            out.append(PairSummary(c.annotators[a], c.annotators[b], int((ta & tb).sum()),
                                   int((ta & ~tb).sum()), int((~ta & tb).sum()),
                                   int(split_a.sum()), int(split_b.sum())))
    return out


def _costliest(alignment: gm.Alignment, n: int, texts: Mapping) -> list[CostlyAlignment]:
    c = alignment.continuum
    order = np.argsort(-alignment.disorders, kind="stable")[:n]
    rows = []
    for i in order.tolist():
        d = int(alignment.document[i])
        text = texts.get(c.documents[d])
        units = []
        for u in alignment.tuples[i].tolist():
            if u < 0:
                units.append(None)
                continue
            s, e = int(c.start[u]), int(c.end[u])
            shown = None
            if text is not None:
                piece = text[s:e] if isinstance(text, str) else " ".join(text[s:e])
                shown = excerpt(piece, TEXT).strip("'\"")
            units.append({"start": float(c.start[u]), "end": float(c.end[u]),
                          "category": c.categories[c.category[u]], "text": shown})
        rows.append(CostlyAlignment(c.documents[d], float(alignment.disorders[i]), units))
    return rows


def _by_document(c: Continuum, g: gm.Gamma | None) -> list[DocumentUnitizing]:
    gammas = {x.document: x.value for x in g.documents} if g is not None and g.documents \
        else ({c.documents[0]: g.value} if g is not None else {})
    rows = []
    for d, name in enumerate(c.documents):
        one = c.document(d)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                value = ua.alpha_u(one, variant="u").value
            except InputError:
                value = float("nan")
        rows.append(DocumentUnitizing(name, len(one), value, gammas.get(name, float("nan"))))
    return rows


__all__ = ["CARD", "SCHEMA", "MEASURES", "UNITS", "AlphaU", "CostlyAlignment", "DocumentUnitizing",
           "SpansReport", "analyse", "as_corpus", "continuum",
           "corpus_of", "read", "texts"]


# ---- the registration ------------------------------------------------------------------------
def _mention_parts(folder: Path) -> Iterator[Part]:
    """The mentions of a sub-folder of coreference annotations, as spans."""
    found = discover.span_inputs(folder)
    if found is not None:
        yield Part(found, {"by_document": True, "diagnostics": 5})


def _timeline_parts(folder: Path) -> Iterator[Part]:
    """The time-aligned annotations of a sub-folder (ELAN, TextGrid, RTTM)."""
    found = discover.timeline_inputs(folder)
    if found is not None:
        yield Part(found, {"by_document": True, "diagnostics": 5})


# not on sub-folders of segmentations: segments tile each text with one category, where
# the 2016 uα family and γ-cat have nothing to compare (the segments job reports on them)
#: this job's part of the JSON Schema of the report document, ``$defs/job_spans`` of
#: :func:`corpusagree.schema`: the keys of :meth:`SpansReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": "`corpusagree spans`: unitizing α family and γ of a continuum.",
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": [
        "format", "data", "alpha_u", "gamma", "gamma_positions", "pairs", "costliest",
        "by_document", "ner", "ner_tokens", "disagreements",
    ],
    "properties": {
        "options": {
            "type": "object",
            "required": [
                "measures", "by_document", "alpha", "beta", "delta_empty", "category_distance",
                "sampler", "precision", "n_samples", "seed", "diagnostics", "min_overlap",
                "disagreements", "unit", "reader_options",
            ],
            "properties": {
                "measures": {"type": "array", "items": {"enum": ["alpha_u", "gamma", "ner"]}},
                "min_overlap": {
                    "description": (
                        "NER modes: the share (per cent) of a span the other's span must cover "
                        "to overlap it."
                    ),
                    "type": "number",
                },
                "disagreements": {
                    "description": "NER modes: how many disagreements are listed.",
                    "$ref": "#/$defs/count",
                },
                "by_document": {"type": "boolean"},
                "alpha": {"type": "number"},
                "beta": {"type": "number"},
                "delta_empty": {"type": "number"},
                "category_distance": {
                    "description": "A distance's name, or matrix.",
                    "type": "string",
                },
                "sampler": {"type": "string"},
                "precision": {"type": ["number", "null"]},
                "n_samples": {"type": ["integer", "null"]},
                "seed": {"type": ["integer", "null"]},
                "diagnostics": {"$ref": "#/$defs/diagnostics_option"},
                "unit": {"type": "string"},
                "reader_options": {"$ref": "#/$defs/reader_options"},
            },
            "additionalProperties": False,
        },
        "format": {"type": ["string", "null"]},
        "data": closed_object(
            units={"$ref": "#/$defs/count"},
            unit={"type": "string"},
            annotators={"$ref": "#/$defs/names"},
            documents={"$ref": "#/$defs/names"},
            categories={"type": "array", "items": {"type": "string"}},
            units_per_annotator={"$ref": "#/$defs/counts_by_name"},
        ),
        "alpha_u": {"type": "array", "items": {"$ref": "#/$defs/job_spans/$defs/alpha_u"}},
        "gamma": nullable(
            {"$ref": "#/$defs/job_spans/$defs/gamma"},
            description="γ with its best alignment, or null.",
        ),
        "gamma_positions": nullable(
            {"$ref": "#/$defs/job_spans/$defs/gamma_positions"},
            description="γ with every category merged into one (several categories), or null.",
        ),
        "pairs": {
            "type": "array",
            "items": closed_object(
                a={"$ref": "#/$defs/name"},
                b={"$ref": "#/$defs/name"},
                matched={"$ref": "#/$defs/count"},
                only_a={"$ref": "#/$defs/count"},
                only_b={"$ref": "#/$defs/count"},
                split_a={"$ref": "#/$defs/count"},
                split_b={"$ref": "#/$defs/count"},
            ),
        },
        "costliest": {
            "description": "The unitary alignments that cost most (with --diagnostics).",
            "type": "array",
            "items": closed_object(
                document={"$ref": "#/$defs/name"},
                disorder={"$ref": "#/$defs/real"},
                units={
                    "description": "One per annotator; null: aligned with nothing.",
                    "type": "array",
                    "items": nullable(
                        closed_object(
                            start={"type": "number"},
                            end={"type": "number"},
                            category={"type": "string"},
                            text={"type": ["string", "null"]},
                        ),
                    ),
                },
            ),
        },
        "ner": {"$ref": "#/$defs/ner_rows"},
        "ner_tokens": {"$ref": "#/$defs/ner_tokens"},
        "disagreements": {"$ref": "#/$defs/ner_disagreements"},
        "by_document": nullable(
            {
                "type": "array",
                "items": extends(
                    "#/$defs/document_row",
                    units={"$ref": "#/$defs/count"},
                    alpha_u={"$ref": "#/$defs/real"},
                    gamma={"$ref": "#/$defs/real"},
                ),
            },
        ),
    },
    "$defs": {
        "alpha_u": closed_object(
            "One coefficient of the unitizing α family (Krippendorff 1995, 2004, 2016).",
            id={"enum": ["alpha_u_1995", "alpha_u", "alpha_u_binary", "alpha_cu", "alpha_ku"]},
            symbol={"type": "string"},
            variant={"enum": ["1995", "u", "|u|", "cu", "k"]},
            category={
                "description": "The category of a per-category row, else null.",
                "type": ["string", "null"],
            },
            value={"$ref": "#/$defs/real"},
            observed={"$ref": "#/$defs/real"},
            expected={"$ref": "#/$defs/real"},
            coverage={
                "description": (
                    "(k)uα only: the share of the category's length that meets valued units of "
                    "others."
                ),
                "$ref": "#/$defs/real",
            },
            reason={
                "description": "Why the value is null, else null.",
                "type": ["string", "null"],
            },
            documents={
                "description": "Documents with two or more annotators.",
                "$ref": "#/$defs/count",
            },
            interval=nullable({"$ref": "#/$defs/interval"}),
        ),
        "disorders": closed_object(
            observed={"$ref": "#/$defs/real"},
            expected={"$ref": "#/$defs/real"},
        ),
        "unit": closed_object(
            index={"$ref": "#/$defs/count"},
            start={"type": "number"},
            end={"type": "number"},
            category={"type": "string"},
        ),
        "alignment": closed_object(
            "The best alignment: who was matched with whom.",
            disorder={"$ref": "#/$defs/real"},
            alpha={"type": "number"},
            beta={"type": "number"},
            delta_empty={"type": "number"},
            category_distance={"type": "string"},
            annotators={"$ref": "#/$defs/names"},
            documents={
                "type": "array",
                "items": closed_object(
                    document={"$ref": "#/$defs/name"},
                    disorder={"$ref": "#/$defs/real"},
                ),
            },
            unitary_alignments={
                "type": "array",
                "items": closed_object(
                    document={"$ref": "#/$defs/name"},
                    disorder={"$ref": "#/$defs/real"},
                    units={
                        "description": "One per annotator; null: ∅.",
                        "type": "array",
                        "items": nullable({"$ref": "#/$defs/job_spans/$defs/unit"}),
                    },
                ),
            },
        ),
        "gamma_parts": {
            "description": (
                "γ (Mathet, Widlöcher & Métivier 2015), γ-cat and γ-k, and what they were "
                "computed from (open: closed by the three below)."
            ),
            "type": "object",
            "required": [
                "value", "observed_disorder", "expected_disorder", "n_samples", "sampler",
                "precision", "seed", "alpha", "beta", "delta_empty", "category_distance",
                "gamma_cat", "gamma_k", "cat_disorders", "k_disorders", "interval",
                "sample_disorders", "notes",
            ],
            "properties": {
                "value": {"$ref": "#/$defs/real"},
                "observed_disorder": {"$ref": "#/$defs/real"},
                "expected_disorder": {"$ref": "#/$defs/real"},
                "n_samples": {"$ref": "#/$defs/count"},
                "sampler": {"type": "string"},
                "precision": {"type": ["number", "null"]},
                "seed": {"type": ["integer", "null"]},
                "alpha": {"type": "number"},
                "beta": {"type": "number"},
                "delta_empty": {"type": "number"},
                "category_distance": {"type": "string"},
                "gamma_cat": {"$ref": "#/$defs/real"},
                "gamma_k": {"description": "γ-k per category.", "$ref": "#/$defs/reals_by_name"},
                "cat_disorders": {"$ref": "#/$defs/job_spans/$defs/disorders"},
                "k_disorders": {
                    "type": "object",
                    "additionalProperties": {"$ref": "#/$defs/job_spans/$defs/disorders"},
                },
                "interval": closed_object(
                    "From the sampling of the expected disorder.",
                    low={"$ref": "#/$defs/real"},
                    high={"$ref": "#/$defs/real"},
                    level={"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                    se={"$ref": "#/$defs/real"},
                    method={"type": "string"},
                ),
                "sample_disorders": {"type": "array", "items": {"$ref": "#/$defs/real"}},
                "notes": {"$ref": "#/$defs/notes"},
            },
        },
        "gamma": {
            "description": (
                "γ with its best alignment: over a corpus of several documents with each "
                "document's γ, of one document with its name."
            ),
            "$ref": "#/$defs/job_spans/$defs/gamma_parts",
            "required": ["alignment"],
            "properties": {
                "document": {"$ref": "#/$defs/name"},
                "alignment": {"$ref": "#/$defs/job_spans/$defs/alignment"},
                "documents": {
                    "type": "array",
                    "items": {"$ref": "#/$defs/job_spans/$defs/document_gamma"},
                },
            },
            "unevaluatedProperties": False,
        },
        "gamma_positions": {
            "description": "γ with every category merged into one (no alignment).",
            "$ref": "#/$defs/job_spans/$defs/gamma_parts",
            "properties": {
                "document": {"$ref": "#/$defs/name"},
                "documents": {
                    "type": "array",
                    "items": {"$ref": "#/$defs/job_spans/$defs/document_gamma"},
                },
            },
            "unevaluatedProperties": False,
        },
        "document_gamma": extends(
            "#/$defs/job_spans/$defs/gamma_parts",
            "One document's γ (its alignment is part of the corpus alignment).",
            document={"$ref": "#/$defs/name"},
        ),
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "spans", "kinds": ("continua", "mentions", "segmentations"),
        "tasks": ("coref", "segments", "timeline"),
        "help": "span agreement without pre-set units: unitizing α and γ", "order": 70,
        "example": ("sample_corpora/coref/xmi", "--samples", "5")}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS,
               folder={"coref": _mention_parts, "timeline": _timeline_parts})
