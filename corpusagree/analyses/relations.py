"""``corpusagree relations``: agreement on relations between annotated spans (brat ``R`` lines,
INCEpTION/WebAnno relation layers in XMI or WebAnno TSV, DISRPT ``.rels``).

Relations are aligned by their endpoints, matched as mentions are (``match="exact"``: the
same tokens; ``"overlap"``: the best one-to-one overlap; :mod:`corpusagree.convert.relations`);
then

* **detection**: precision, recall and F1 of each annotator pair (the first as the reference),
  micro (summed over documents, with a bootstrap interval resampling documents) and macro;
* **labels**: Cohen's κ (multi-κ for more annotators) and Krippendorff's α of the relation
  label over the aligned relations, through the coefficient engine with the same intervals
  (items one annotator lacks are missing values: α uses every item two annotators labelled);
* the label pairs given most often to the same relation.

>>> from corpusagree.analyses import relations
>>> report = relations.analyse(relations.read(["tests/data/relations/brat/a",
...                                            "tests/data/relations/brat/b"]))
>>> [round(r["f1"], 3) for r in report.detection]
[0.571]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import numpy as np

from .. import readers
from ..convert.align import MATCHES
from ..convert.relations import relation_items
from ..model.corpus import Corpus
from ..model.errors import InputError
from ..model.params import Param, checked
from ..model.progress import Progress, Stages
from ..model.relations import RelationAnnotation
from ..readers import _paths, discover
from ..report.document import Report
from ..report.json import closed_object, extends, nullable
from ..report.tables import Column, Record, Records, Table
from ..stats.inference import Bootstrap, resampling
from ..stats.overlap import prf
from ..stats.ratios import nanmean
from ..stats.relations import detection as detect
from ..stats.spec import for_coders
from ..stats.sums import sum_intervals
from . import corpora
from .base import KEYWORDS, Estimate, estimate_table, estimates, first_alpha, interval_dict
from .jobs import Part, complete

__all__ = ["CARD", "SCHEMA", "CONFUSED", "JOB", "PARAMS", "ConfusedLabels", "Detection",
           "DocumentDetection", "RelationsReport", "analyse", "as_corpus", "corpus_of", "read"]

#: the label pairs listed
CONFUSED = 20


def read(paths: str | PathLike | Sequence[str | PathLike], *, input_format: str = "auto",
         annotators: Sequence[str] | None = None, **reader_options) -> Corpus[list]:
    """Relations from brat, XMI, WebAnno TSV or DISRPT ``.rels`` files.

    Parameters
    ----------
    paths : path or list of paths
        One folder per annotator (brat, DISRPT), or files or folders whose files name their
        annotators (XMI, WebAnno TSV).
    input_format : str
        ``brat``, ``webanno_tsv``, ``xmi``, ``disrpt`` or ``auto`` to recognise it.
    annotators : list of str, optional
        The annotators' names, one per annotator found (default: from the paths).
    **reader_options
        The format's own options (``layers`` for XMI and WebAnno TSV: the relation layer).

    Returns
    -------
    Corpus
        ``data``: one ``RelationAnnotation`` per annotator and document.

    Raises
    ------
    InputError
        A path that does not exist, a format not recognised, bad input in a file (named with
        its line).

    Examples
    --------
    >>> from corpusagree.analyses import relations
    >>> relations.read(["tests/data/relations/webanno/a", "tests/data/relations/webanno/b"])
    <Corpus relations (webanno_tsv): 2 annotators, 1 document, 7 relations>
    """
    plist = _paths.as_list(paths)
    fmt, anns = corpora.read("relations", plist, input_format, annotators, job="relations",
                             **reader_options)
    return corpus_of(anns, fmt, [str(p) for p in plist],
                     readers.get("relations", fmt).options_for("relations", reader_options))


def corpus_of(annotations: Sequence[RelationAnnotation], fmt: str = "python",
              inputs: Sequence[str] = (), reader_options: dict | None = None) -> Corpus[list]:
    anns = list(annotations)
    n = sum(len(a.relations) for a in anns)
    return corpora.corpus_of(anns, job="relations", fmt=fmt,
                             annotators=dict.fromkeys(a.annotator for a in anns),
                             documents=dict.fromkeys(a.document.id for a in anns),
                             inputs=inputs, reader_options=reader_options,
                             size=f"{n:,} relations", kind="relations")


def as_corpus(x: Corpus | Sequence[RelationAnnotation]) -> Corpus[list]:
    """A corpus of the relations job, from what :func:`analyse` was given.

    A :class:`~corpusagree.model.corpus.Corpus` of the job as it is, or relation annotations
    made into one: :func:`analyse` calls this first, so that it takes either what :func:`read`
    returns or relation annotations made in Python.

    Parameters
    ----------
    x : Corpus or sequence of RelationAnnotation
        A corpus of the relations job, or relation annotations made in Python.

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        For anything else (the message says what the job takes).

    Examples
    --------
    >>> from corpusagree.analyses import relations
    >>> corpus = relations.read(["tests/data/relations/brat/a", "tests/data/relations/brat/b"])
    >>> relations.as_corpus(corpus.data)
    <Corpus relations (python): 2 annotators, 1 document, 7 relations>
    """
    return corpora.as_corpus(x, "relations", {RelationAnnotation: corpus_of}, JOB.kinds)


@dataclass
class Detection(Record):
    """How well two annotators find the same relations: a row of
    :attr:`RelationsReport.detection`.

    Attributes
    ----------
    reference : str
        The annotator read as the reference.
    other : str
        The annotator compared with it.
    precision, recall, f1 : float
        Micro-averaged over the documents both annotated, nan where undefined.
    interval : dict or None
        The bootstrap interval of ``f1`` over documents, None without one.
    f1_macro : float
        F1 averaged over those documents where defined.
    shared : int
        The relations both gave.
    documents : int
        The documents both annotated.
    """

    reference: str
    other: str
    precision: float
    recall: float
    f1: float
    interval: dict | None
    f1_macro: float
    shared: int
    documents: int


@dataclass
class DocumentDetection(Record):
    """Detection F1 of one annotator pair in one document: a row of
    :attr:`RelationsReport.by_document`.

    Attributes
    ----------
    document : str
        The document.
    reference : str
        The annotator read as the reference.
    other : str
        The annotator compared with it.
    f1 : float
        F1 of finding the reference's relations, nan where undefined.
    shared : int
        The relations both gave.
    """

    document: str
    reference: str
    other: str
    f1: float
    shared: int


@dataclass
class ConfusedLabels(Record):
    """A pair of labels given to the same relation: a row of :attr:`RelationsReport.confused`.

    Attributes
    ----------
    label_a, label_b : str
        The two labels.
    count : int
        How often the relation got both.
    """

    label_a: str
    label_b: str
    count: int


@dataclass(repr=False, kw_only=True)
class RelationsReport(Report):
    """Agreement on relations between spans (see the module docstring).

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
    data : dict
        Documents, annotators, relations and the aligned items.
    detection : Records of Detection
        Precision, recall and F1 of finding the same relations, per annotator pair (micro,
        with the macro F1, the relations shared and the documents).
    labels : Records
        κ (multi-κ) and α of the relation labels over the aligned relations, each an
        :class:`Estimate`.
    confused : Records of ConfusedLabels
        The label pairs given most often to the same relation.
    by_document : Records of DocumentDetection or None
        Detection F1 per document and annotator pair, with ``by_document=True``.

    Examples
    --------
    >>> from corpusagree.analyses import relations
    >>> report = relations.analyse(relations.read(["tests/data/relations/brat/a",
    ...                                            "tests/data/relations/brat/b"]))
    >>> d = report.detection[0]
    >>> d["reference"], d["other"], round(d["precision"], 4), round(d["recall"], 4)
    ('a', 'b', 0.6667, 0.5)
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    notes: list[str]
    format: str | None
    data: dict
    detection: Records[Detection]
    labels: Records[Estimate]
    confused: Records[ConfusedLabels]
    by_document: Records[DocumentDetection] | None
    job = "relations"

    def body(self) -> dict:
        return {"format": self.format, "data": self.data, "detection": self.detection,
                "labels": self.labels, "confused": self.confused,
                "by_document": self.by_document}

    def summary(self) -> str:
        d = self.data
        where = ", ".join(self.inputs) or "relations"
        return (f"{where} ({self.format}): {d['documents']} documents, "
                f"{len(d['annotators'])} annotators, {d['relations']} relations, "
                f"{d['items']} aligned ({self.options['match']} endpoints)")

    def headline(self):
        return first_alpha(self.labels)

    def _tables(self) -> list[Table]:
        out = [Table("detection", "Relations found by both (endpoints aligned; the first "
                     "annotator as the reference; micro: summed over documents)",
                     [Column("reference", "reference"), Column("other", "other"),
                      Column("precision", "P", "float", 3), Column("recall", "R", "float", 3),
                      Column("f1", "F1", "float", 3),
                      Column("interval", "95% CI", "interval", 3, optional=True),
                      Column("f1_macro", "F1 macro", "float", 3),
                      Column("shared", "shared", "int"), Column("documents", "docs", "int")],
                     [[r["reference"], r["other"], r["precision"], r["recall"], r["f1"],
                       None if r["interval"] is None else (r["interval"]["low"],
                                                           r["interval"]["high"]),
                       r["f1_macro"], r["shared"], r["documents"]] for r in self.detection]),
               estimate_table("labels", "Relation labels on the relations two or more "
                              "annotators share", self.labels)]
        out.append(Table("confused", "Labels given to the same relation: the most frequent "
                         "different pairs", [Column("label_a", "label"),
                                             Column("label_b", "other label"),
                                             Column("count", "count", "int")],
                         [[r["label_a"], r["label_b"], r["count"]] for r in self.confused]))
        if self.by_document is not None:
            out.append(Table("by_document", "Detection by document",
                             [Column("document", "document"), Column("reference", "reference"),
                              Column("other", "other"), Column("f1", "F1", "float", 3),
                              Column("shared", "shared", "int")],
                             [[r["document"], r["reference"], r["other"], r["f1"], r["shared"]]
                              for r in self.by_document]))
        return out


#: the keywords of :func:`analyse`, which it checks first (the command line's types and
#: choices are made from the same table)
PARAMS = (
    *KEYWORDS,
    Param("match", str, choices=tuple(MATCHES)),
    Param("directed", bool),
)


@checked(*PARAMS, where="relations.analyse()")
def analyse(corpus: Corpus | Sequence[RelationAnnotation], *, match: str = "exact",
            directed: bool = True, bootstrap: Bootstrap | None = None,
            by_document: bool = False, diagnostics: int | None = None,
            progress: Progress | None = None) -> RelationsReport:
    """Every figure of the module docstring.

    Parameters
    ----------
    corpus : Corpus or list of RelationAnnotation
        What :func:`read` returned, or relation annotations made in Python.
    match : {"exact", "overlap"}
        How endpoints align (as ``--match`` for mentions).
    directed : bool
        A relation from x to y differs from one from y to x (default); False: the same.
    bootstrap : Bootstrap, optional
        Intervals resampling documents (items when there is one document, with a note).
    by_document : bool
        Detection F1 per document and annotator pair.
    diagnostics : int, optional
        The N label pairs given most often to the same relation (default 20).
    progress : callable, optional
        ``progress(done, total)`` over the bootstraps.

    Returns
    -------
    RelationsReport

    Raises
    ------
    InputError
        An unknown ``match``; no relation at all.

    Examples
    --------
    >>> from corpusagree.analyses import relations
    >>> corpus = relations.read(["tests/data/relations/brat/a", "tests/data/relations/brat/b"])
    >>> report = relations.analyse(corpus, match="overlap")
    >>> report.data["relations"], report.labels[0].id
    (7, 'kappa')
    """
    corpus = as_corpus(corpus)
    items = relation_items(corpus.data, match, directed)
    data = items.data
    if not data.n_items:
        raise InputError("no relation in any file: nothing to compare",
                         ", ".join(corpus.inputs) or None)
    _check_shared(items, match, ", ".join(corpus.inputs) or None)
    notes = list(corpus.notes)
    settings = resampling(bootstrap, data.groups, notes, items="relations")
    stage = Stages(progress, [settings.n_resamples if settings else 0])
    n_coders = int(((data.codes >= 0).sum(1) > 0).sum())
    labels = estimates(data, [(for_coders("kappa", max(n_coders, 2)), "nominal"),
                              ("alpha", "nominal")], settings, progress=stage.next(),
                       notes=notes)
    det = detect(data, items.annotated)
    rows: Records[Detection] = Records()
    for a, b in sorted(set(zip(det.reference.tolist(), det.other.tolist(), strict=True))):
        mine = (det.reference == a) & (det.other == b)
        micro = det.scores(mine)
        iv = None
        if settings is not None and mine.sum() >= 2:
            (iv,) = sum_intervals(["f1"], lambda s: prf(s)[:, :, 2], det.counts[mine]
                                  .astype(float), settings)
        sums = det.counts[mine].sum(axis=0)
        rows.append(Detection(items.annotators[a], items.annotators[b], float(micro[0]),
                              float(micro[1]), float(micro[2]), interval_dict(iv),
                              nanmean(det.per_row()[mine, 2]), int(sums[2]), int(mine.sum())))
    confused = _confused(data, diagnostics or CONFUSED)
    by_doc = None
    if by_document:
        f = det.per_row()[:, 2]
        by_doc = Records(DocumentDetection(items.documents[d], items.annotators[a],
                                           items.annotators[b], float(f[k]),
                                           int(det.counts[k, 2]))
                         for k, (d, a, b) in enumerate(zip(det.document, det.reference,
                                                           det.other, strict=True)))
    summary = {"documents": len(items.documents), "annotators": list(items.annotators),
               "relations": int((data.codes >= 0).sum()), "items": int(data.n_items)}
    options = {"match": match, "directed": directed, "by_document": by_document,
               "diagnostics": diagnostics, "reader_options": dict(corpus.reader_options)}
    return RelationsReport(
        inputs=list(corpus.inputs),
        options=options,
        bootstrap=settings,
        notes=list(dict.fromkeys(notes)),
        format=corpus.format,
        data=summary,
        detection=rows,
        labels=labels,
        confused=confused,
        by_document=by_doc,
    )


def _check_shared(items, match: str, where: str | None) -> None:
    """One line naming the problem when no relation is labelled by two annotators: one
    annotator, annotators with no document in common, or no relation in common."""
    names, docs = list(items.annotators), list(items.documents)
    if len(names) < 2:
        raise InputError(f"only one annotator ({names[0]!r}, {_n(len(docs), 'document')}): "
                         "relations compares two or more annotators of the same documents",
                         where)
    shared = items.annotated.sum(0) >= 2
    if not shared.any():
        has = "; ".join(f"{a!r} has {', '.join(repr(docs[d]) for d in np.flatnonzero(row)[:3])}"
                        f"{' …' if row.sum() > 3 else ''}"
                        for a, row in zip(names[:3], items.annotated[:3], strict=True))
        raise InputError(f"no document annotated by two or more of the {len(names)} "
                         f"annotators ({has}{' …' if len(names) > 3 else ''}): nothing to "
                         "compare (documents are matched by name)", where)
    if not ((items.data.codes >= 0).sum(0) >= 2).any():
        raise InputError(f"none of the {items.data.n_items} relations is marked by two or "
                         f"more annotators ({match} match of the endpoints): no label to "
                         "compare", where)


def _n(k: int, word: str) -> str:
    return f"{k:,} {word}{'' if k == 1 else 's'}"


def _confused(data, n: int) -> Records[ConfusedLabels]:
    """The most frequent pairs of different labels on one relation (every annotator pair)."""
    a, b = np.triu_indices(data.n_coders, 1)
    x, y = data.codes[a], data.codes[b]
    both = (x >= 0) & (y >= 0) & (x != y)
    lo, hi = np.minimum(x[both], y[both]), np.maximum(x[both], y[both])
    L = max(data.n_labels, 1)
    counts = np.bincount(lo.astype(np.int64) * L + hi, minlength=L * L)
    top = np.argsort(-counts, kind="stable")[:n]
    return Records(ConfusedLabels(data.label(int(k // L)), data.label(int(k % L)),
                                  int(counts[k])) for k in top if counts[k])


# ---- the registration ------------------------------------------------------------------------
def _folder_parts(folder: Path) -> Iterator[Part]:
    """The relations of a sub-folder of a study (DISRPT ``.rels`` in annotator folders:
    :func:`corpusagree.readers.discover.relation_inputs`), by document with diagnostics."""
    found = discover.relation_inputs(folder)
    if found is not None:
        yield Part(found, detail={"by_document": True})


#: this job's part of the JSON Schema of the report document, ``$defs/job_relations`` of
#: :func:`corpusagree.schema`: the keys of :meth:`RelationsReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": "`corpusagree relations`: agreement on relations between spans.",
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": ["format", "data", "detection", "labels", "confused", "by_document"],
    "properties": {
        "options": closed_object(
            match={"enum": ["exact", "overlap"]},
            directed={"type": "boolean"},
            by_document={"type": "boolean"},
            diagnostics={"$ref": "#/$defs/diagnostics_option"},
            reader_options={"$ref": "#/$defs/reader_options"},
        ),
        "format": {"type": ["string", "null"]},
        "data": closed_object(
            documents={"$ref": "#/$defs/count"},
            annotators={"$ref": "#/$defs/names"},
            relations={"$ref": "#/$defs/count"},
            items={"description": "Relations aligned across annotators.", "$ref": "#/$defs/count"},
        ),
        "detection": {
            "description": (
                "Relations found by both, per annotator pair (the first as the reference): micro "
                "with the interval of its F1, and macro F1."
            ),
            "type": "array",
            "items": closed_object(
                reference={"$ref": "#/$defs/name"},
                other={"$ref": "#/$defs/name"},
                precision={"$ref": "#/$defs/real"},
                recall={"$ref": "#/$defs/real"},
                f1={"$ref": "#/$defs/real"},
                interval=nullable({"$ref": "#/$defs/interval"}),
                f1_macro={"$ref": "#/$defs/real"},
                shared={"$ref": "#/$defs/count"},
                documents={"$ref": "#/$defs/count"},
            ),
        },
        "labels": {
            "description": "κ (multi-κ) and α of the relation labels.",
            "$ref": "#/$defs/coefficients",
        },
        "confused": {
            "description": "The pairs of different labels given most often to the same relation.",
            "type": "array",
            "items": closed_object(
                label_a={"$ref": "#/$defs/label"},
                label_b={"$ref": "#/$defs/label"},
                count={"$ref": "#/$defs/count"},
            ),
        },
        "by_document": nullable(
            {
                "type": "array",
                "items": extends(
                    "#/$defs/document_row",
                    reference={"$ref": "#/$defs/name"},
                    other={"$ref": "#/$defs/name"},
                    f1={"$ref": "#/$defs/real"},
                    shared={"$ref": "#/$defs/count"},
                ),
            },
        ),
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "relations", "kinds": ("relations",), "tasks": ("relations",),
        "help": "agreement on relations between spans (brat, XMI, WebAnno TSV, DISRPT .rels)",
        "order": 90,
        "example": ("sample_corpora/relations/ann1", "sample_corpora/relations/ann2")}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS, folder={"relations": _folder_parts})
