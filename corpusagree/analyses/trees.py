"""``corpusagree trees``: agreement on RST trees (rs3/rs4, RST-DT ``.dis``).

Documents are paired by name across annotators. A pair whose EDUs are the same texts (after
whitespace normalisation) is compared constituent by constituent:

* **RST-Parseval** (Marcu 2000) and **Parseval** (Morey, Muller & Asher 2017): precision,
  recall and F1 of shared spans (S), with nuclearity (N), relation (R) and both (F), the first
  annotator of a pair as the reference; micro (summed counts) and macro (mean of the
  documents' F1), with bootstrap intervals of the micro F1 resampling documents
  (:mod:`corpusagree.stats.trees.parseval`);
* **Iruskieta et al.'s (2015) comparison** as RST-Tace computes it (Wan et al. 2019):
  agreement ratios of central subconstituent, constituent, attachment point, nuclearity and
  relation, and Cohen's κ per document (macro: their mean) and pooled (micro)
  (:mod:`corpusagree.stats.trees.iruskieta`);
* a confusion table of the relations given to the constituents both trees have, and the two
  trees of the most disputed document side by side.

Pairs whose EDUs differ but whose text is the same are listed in a note and compared by where
they put the EDU boundaries (the segments job's boundary coefficients, in characters);
documents only one annotator has, and pairs whose texts differ, are listed as not compared; a
file that is no tree is named in a note and left out. Conventions, each from its source:
``binarize`` (multinuclear nodes as right-branching chains, nuclei with several satellites
nearest first: :mod:`corpusagree.stats.trees.binarize`; RST-Parseval may also count the n-ary
trees, while Parseval's labels and Iruskieta's relations are read off binary trees), and
``relation_labels`` (as written, lower-cased as RST-Tace does, the RST-DT's 18 classes, or a
mapping: :mod:`corpusagree.stats.trees.labels`).

>>> from corpusagree.analyses import trees
>>> corpus = trees.read("sample_corpora/trees/rs3")
>>> report = trees.analyse(corpus)
>>> list(report.tables)[:2]
['parseval', 'iruskieta']
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import numpy as np

from .. import readers
from ..convert import segments as conv_segments
from ..convert.trees import TreePairs, pair_trees
from ..model.corpus import Corpus
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.params import Param, checked
from ..model.progress import Progress, Stages
from ..model.rst import RSTTree
from ..readers import _paths, discover
from ..report.document import Report
from ..report.json import closed_object, extends, nullable
from ..report.tables import Column, Plot, Record, Records, Table, bootstrap_plot, spread
from ..stats.coefficients import DegenerateWarning
from ..stats.inference import Bootstrap, Interval, resampling
from ..stats.inference import bootstrap as engine_bootstrap
from ..stats.ratios import nanmean
from ..stats.sums import sum_intervals
from ..stats.trees import iruskieta as ir
from ..stats.trees.binarize import binarize as binarise
from ..stats.trees.confusion import confusion
from ..stats.trees.labels import relabel
from ..stats.trees.nodes import nodes
from ..stats.trees.parseval import MEASURES, constituents, count, prf
from . import corpora
from .base import BOUNDARY_COEFFICIENTS, KEYWORDS, coefficient_rows, estimate_table, interval_dict
from .jobs import Part, complete

__all__ = ["CARD", "SCHEMA", "CONFUSED", "FACTOR_NAMES", "JOB", "PARAMS", "VARIANTS",
           "ConfusedRelations", "DocumentScores", "FactorAgreement", "NotCompared",
           "ParsevalScore", "TreesReport", "analyse", "as_corpus", "corpus_of", "read"]

#: the Parseval variants, as their tables name them
VARIANTS = {"rst_parseval": "RST-Parseval", "parseval": "Parseval"}
FACTOR_NAMES = {"central_subconstituent": "central subconstituent",
                "constituent": "constituent", "attachment_point": "attachment point",
                "nuclearity": "nuclearity", "relation": "relation"}
#: the confused relation pairs listed
CONFUSED = 20


def read(paths: str | PathLike | Sequence[str | PathLike], *, input_format: str = "auto",
         annotators: Sequence[str] | None = None, **reader_options) -> Corpus[list]:
    """RST trees from rs3/rs4 or ``.dis`` files, one folder per annotator.

    Parameters
    ----------
    paths : path or list of paths
        The annotators' folders (or a folder of them).
    input_format : str
        ``rs3``, ``dis`` or ``auto``.
    annotators : list of str, optional
        Keep only these annotators.
    **reader_options
        ``on_error``: ``"skip"`` (the default here: a file that is no tree is left out and
        named in a note) or ``"error"``.

    Returns
    -------
    Corpus
        ``data``: one :class:`~corpusagree.model.rst.RSTTree` per readable file.

    Examples
    --------
    >>> from corpusagree.analyses import trees
    >>> trees.read("sample_corpora/trees/rs3")
    <Corpus trees (rs3): 2 annotators, 3 documents, 6 trees>
    """
    plist = _paths.as_list(paths)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        fmt, found = corpora.read("trees", plist, input_format, annotators, job="trees",
                                  **reader_options)
    notes = [f"{_LEFT_OUT}{w.message}" for w in caught
             if issubclass(w.category, UserWarning)]
    corpus = corpus_of(found, fmt, [str(p) for p in plist],
                       readers.get("trees", fmt).options_for("trees", reader_options))
    corpus.notes += notes
    return corpus


#: how a note names a file left out as no tree (and the error when nothing is left to compare)
_LEFT_OUT = "not a tree, left out: "


def corpus_of(trees: Sequence[RSTTree], fmt: str = "python", inputs: Sequence[str] = (),
              reader_options: dict | None = None) -> Corpus[list]:
    """A corpus of RST trees (what :func:`read` returns)."""
    found = list(trees)
    return corpora.corpus_of(found, job="trees", fmt=fmt,
                             annotators=dict.fromkeys(t.annotator for t in found),
                             documents=dict.fromkeys(t.document for t in found), inputs=inputs,
                             reader_options=reader_options, size=f"{len(found):,} trees",
                             kind="trees")


def as_corpus(trees: Corpus | Sequence[RSTTree]) -> Corpus[list]:
    """A corpus of the trees job, from what :func:`analyse` was given.

    A :class:`~corpusagree.model.corpus.Corpus` of the job as it is, or RST trees made into one:
    :func:`analyse` calls this first, so that it takes either what :func:`read` returns or RST
    trees made in Python.

    Parameters
    ----------
    trees : Corpus or sequence of RSTTree
        A corpus of the trees job, or RST trees made in Python.

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        For anything else (the message says what the job takes).

    Examples
    --------
    >>> from corpusagree.analyses import trees
    >>> corpus = trees.read("sample_corpora/trees/rs3")
    >>> trees.as_corpus(corpus.data)
    <Corpus trees (python): 2 annotators, 3 documents, 6 trees>
    """
    return corpora.as_corpus(trees, "trees", {RSTTree: corpus_of}, JOB.kinds)


@dataclass
class ParsevalScore(Record):
    """One Parseval measure of one annotator pair: a row of :attr:`TreesReport.parseval`.

    Attributes
    ----------
    variant : str
        ``rst_parseval`` or ``parseval`` (:data:`VARIANTS`).
    reference : str
        The annotator read as the reference.
    other : str
        The annotator compared with it.
    measure : str
        ``span``, ``nuclearity``, ``relation`` or ``full``.
    precision, recall, f1 : float
        Micro-averaged over the documents both annotated, nan where undefined.
    interval : dict or None
        The bootstrap interval of ``f1`` over documents, None without one.
    f1_macro : float
        F1 averaged over those documents where defined.
    documents : int
        The documents both annotated.
    """

    variant: str
    reference: str
    other: str
    measure: str
    precision: float
    recall: float
    f1: float
    interval: dict | None
    f1_macro: float
    documents: int


@dataclass
class FactorAgreement(Record):
    """Iruskieta et al.'s agreement on one factor for one annotator pair: a row of
    :attr:`TreesReport.iruskieta`.

    Attributes
    ----------
    reference : str
        The annotator read as the reference.
    other : str
        The annotator compared with it.
    factor : str
        The factor compared (:data:`FACTOR_NAMES`).
    ratio : float
        The agreement ratio on it (its matches over the relations compared), pooled over the
        documents.
    interval : dict or None
        The bootstrap interval of ``ratio``, None without one.
    ratio_macro : float
        ``ratio`` averaged over the documents where defined.
    kappa : float
        κ of the factor's labels, pooled over the documents.
    kappa_interval : dict or None
        Its bootstrap interval (one annotator pair only), None without one.
    kappa_macro : float
        κ averaged over the documents where defined.
    matched, unmatched : int
        The relations of the two trees assigned to each other with a partner, and without
        one, summed over the documents.
    """

    reference: str
    other: str
    factor: str
    ratio: float
    interval: dict | None
    ratio_macro: float
    kappa: float
    kappa_interval: dict | None
    kappa_macro: float
    matched: int
    unmatched: int


@dataclass
class NotCompared(Record):
    """A document whose trees are not compared by Parseval: a row of
    :attr:`TreesReport.not_compared`.

    Attributes
    ----------
    document : str
        The document.
    annotators : str
        Its annotators, comma separated.
    reason : str
        Why: different EDUs (compared by boundaries only), or what is wrong with a tree.
    """

    document: str
    annotators: str
    reason: str


@dataclass
class ConfusedRelations(Record):
    """A pair of relations given to the same constituent: a row of
    :attr:`TreesReport.confused`.

    Attributes
    ----------
    reference : str
        The relation in the reference's tree.
    other : str
        The relation in the other's.
    count : int
        The shared constituents with both.
    share : float
        Their share of the shared constituents, nan without any.
    """

    reference: str
    other: str
    count: int
    share: float


@dataclass
class DocumentScores(Record):
    """One document pair's F1 and Iruskieta's ratios: a row of :attr:`TreesReport.by_document`.

    Attributes
    ----------
    document : str
        The document.
    reference : str
        The annotator read as the reference.
    other : str
        The annotator compared with it.
    scores : dict
        ``{variant}_{measure}`` (F1 of RST-Parseval and Parseval: span, nuclearity, relation,
        full), ``ratio_{factor}`` and ``kappa_{factor}`` (Iruskieta et al.) → the value, nan
        where undefined; its keys are the row's own.
    """

    document: str
    reference: str
    other: str
    scores: dict[str, float] = spread()


@dataclass(repr=False, kw_only=True)
class TreesReport(Report):
    """Agreement between RST tree annotators (see the module docstring).

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
        Documents, annotators, the pairs compared by Parseval, by boundaries only, not compared,
        and the conventions used (``relation_labels``, ``binarize``).
    parseval : Records of ParsevalScore
        RST-Parseval and Parseval precision, recall and F1 of span, nuclearity, relation and
        full, per annotator pair (micro, with the macro F1 and the documents).
    iruskieta : Records of FactorAgreement
        Iruskieta et al.'s agreement ratios and κ per annotator pair.
    confused : Records of ConfusedRelations
        The relation pairs given most often to the same constituent.
    confusion : dict
        The relation × relation confusion table over shared constituents.
    disputed : dict or None
        The two trees of the most disputed document, side by side.
    not_compared : Records of NotCompared
        Documents only one annotator has, and pairs whose texts differ.
    boundaries : Table or None
        The boundary coefficients of the pairs whose EDUs differ.
    by_document : Records of DocumentScores or None
        Each document pair's F1 and ratios, with ``by_document=True``.
    f1_interval : Interval or None
        The bootstrap interval of the headline F1.

    Examples
    --------
    >>> from corpusagree.analyses import trees
    >>> report = trees.analyse(trees.read("sample_corpora/trees/rs3"))
    >>> report.data["pairs"], report.data["boundaries_only"]
    (2, 1)
    >>> [(r["variant"], round(r["f1"], 4)) for r in report.parseval if r["measure"] == "full"]
    [('rst_parseval', 0.5833), ('parseval', 0.5)]
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    notes: list[str]
    format: str | None
    data: dict
    parseval: Records[ParsevalScore]
    iruskieta: Records[FactorAgreement]
    confused: Records[ConfusedRelations]
    confusion: dict
    disputed: dict | None
    not_compared: Records[NotCompared]
    boundaries: Table | None
    by_document: Records[DocumentScores] | None
    #: the bootstrap interval of the first pair's Parseval full F1 (micro), with --ci
    f1_interval: Interval | None = None
    job = "trees"

    def body(self) -> dict:
        return {"format": self.format, "data": self.data, "parseval": self.parseval,
                "iruskieta": self.iruskieta, "confused": self.confused,
                "disputed": self.disputed, "not_compared": self.not_compared,
                "boundaries": None if self.boundaries is None else self.boundaries.records(),
                "by_document": self.by_document}

    def summary(self) -> str:
        d = self.data
        where = ", ".join(self.inputs) or "trees"
        fmt = f" ({self.format})" if self.format else ""
        return (f"{where}{fmt}: {d['documents']} documents, {len(d['annotators'])} annotators; "
                f"{d['pairs']} pairs compared by Parseval, {d['boundaries_only']} by "
                f"boundaries only, {d['not_compared']} documents not compared")

    def _tables(self) -> list[Table]:
        iv = Column("interval", "95% CI", "interval", 3, optional=True)
        pair_cols = [Column("reference", "reference"), Column("other", "other")]
        out = [Table("parseval", "RST-Parseval (Marcu 2000) and Parseval (Morey et al. 2017): "
                     "constituents shared, the first annotator as the reference (micro: summed "
                     "counts; macro: the mean of the documents' F1)",
                     [Column("variant", "variant"), *pair_cols, Column("measure", "measure"),
                      Column("precision", "P", "float", 3), Column("recall", "R", "float", 3),
                      Column("f1", "F1", "float", 3), iv,
                      Column("f1_macro", "F1 macro", "float", 3),
                      Column("documents", "docs", "int", optional=True)],
                     [[VARIANTS[r["variant"]], r["reference"], r["other"], r["measure"],
                       r["precision"], r["recall"], r["f1"], _iv(r["interval"]), r["f1_macro"],
                       r["documents"]] for r in self.parseval]),
               Table("iruskieta", "Iruskieta et al. (2015) as RST-Tace computes it: matches / "
                     "(matched pairs + 2 × unmatched); Cohen's κ with None for a relation "
                     "without a partner",
                     [*pair_cols, Column("factor", "factor"),
                      Column("ratio", "ratio", "float", 3), iv,
                      Column("ratio_macro", "ratio macro", "float", 3),
                      Column("kappa", "κ", "float", 3), Column("kappa_interval", "κ 95% CI",
                                                               "interval", 3, optional=True),
                      Column("kappa_macro", "κ macro", "float", 3)],
                     [[r["reference"], r["other"], FACTOR_NAMES[r["factor"]], r["ratio"],
                       _iv(r["interval"]), r["ratio_macro"], r["kappa"],
                       _iv(r["kappa_interval"]), r["kappa_macro"]] for r in self.iruskieta])]
        out.append(Table("confused", "Relations swapped: the relation pairs given most often to "
                         "the same constituent (share of the constituents both trees have)",
                         [Column("reference_relation", "reference"),
                          Column("other_relation", "other"), Column("count", "count", "int"),
                          Column("share", "share", "share")],
                         [[r["reference"], r["other"], r["count"], r["share"]]
                          for r in self.confused]))
        if self.disputed is not None:
            d = self.disputed
            rows = [[a, b] for a, b in zip(*_padded(d["outlines"]), strict=True)]
            out.append(Table("disputed", f"The most disputed document, {d['document']} "
                             f"(Parseval full F1 {d['f1']:.3f}): the trees side by side",
                             [Column("reference_tree", d["reference"], "outline"),
                              Column("other_tree", d["other"], "outline")], rows))
        if self.boundaries is not None:
            out.append(self.boundaries)
        if self.not_compared:
            out.append(Table("not_compared", "Documents not compared constituent by "
                             "constituent", [Column("document", "document"),
                                             Column("annotators", "annotators"),
                                             Column("reason", "reason")],
                             [[r["document"], r["annotators"], r["reason"]]
                              for r in self.not_compared]))
        if self.by_document is not None:
            keys = [k for k in self.by_document[0] if k not in ("document", "reference",
                                                                 "other")] \
                if self.by_document else []
            out.append(Table("by_document", "By document: F1 and agreement ratios",
                             [Column("document", "document"), *pair_cols]
                             + [Column(k, k.replace("_", " "), "float", 3) for k in keys],
                             [[r["document"], r["reference"], r["other"], *(r[k] for k in keys)]
                              for r in self.by_document]))
        return out

    def plots(self) -> list[Plot]:
        out = [self._headline_plot()] if self.parseval else []
        iv = self.f1_interval
        if iv is not None and iv.distribution is not None:
            out.append(bootstrap_plot("F1", "Parseval, full", iv.estimate, iv))
        c = self.confusion
        if not c or not c["labels"]:
            return out
        return out + [Plot("relation_confusion", "Relations given to the same constituent "
                     "(rows: reference, columns: other)", "confusion",
                     {"rows": c["labels"], "columns": c["labels"], "values": c["counts"],
                      "label": "constituents", "vmin": 0.0})]


    def _headline_plot(self) -> Plot:
        """The headline: the F1 of RST-Parseval and Parseval (micro, with their intervals), the
        full measure of the first annotator pair on top; the page's summary opens with it."""
        rows = [r for m in ("full", "span") for r in self.parseval if r["measure"] == m]
        several = len({(r["reference"], r["other"]) for r in rows}) > 1
        rows = rows[::-1]  # the bars are drawn from the bottom
        labels = [f"{VARIANTS[r['variant']]} {r['measure']}"
                  + (f" ({r['reference']}, {r['other']})" if several else "") for r in rows]
        ivs = [r["interval"] or {} for r in rows]
        return Plot("parseval", "Constituents shared: RST-Parseval and Parseval F1 (micro)",
                    "bars", {"labels": labels, "values": [r["f1"] for r in rows],
                             "low": [i.get("low") for i in ivs],
                             "high": [i.get("high") for i in ivs], "label": "F1"},
                    ["The report's main measure (the trees' boundary coefficients are "
                     "secondary: they cover only the documents whose EDUs differ)."])


def _iv(iv: dict | None):
    return None if iv is None else (iv["low"], iv["high"])


def _padded(outlines: list[list[str]]) -> list[list[str]]:
    n = max(len(x) for x in outlines)
    return [x + [""] * (n - len(x)) for x in outlines]


#: the keywords of :func:`analyse`, which it checks first (the command line's types and
#: choices are made from the same table)
PARAMS = (
    *KEYWORDS,
    Param("binarize", bool),
)


@checked(*PARAMS, where="trees.analyse()")
def analyse(corpus: Corpus | Sequence[RSTTree], *, bootstrap: Bootstrap | None = None,
            by_document: bool = False, diagnostics: int | None = None,
            progress: Progress | None = None, binarize: bool = True,
            relation_labels: str | Mapping[str, str] = "as-written") -> TreesReport:
    """Every figure of the module docstring for a corpus of RST trees.

    Parameters
    ----------
    corpus : Corpus or list of RSTTree
        What :func:`read` returned, or trees made in Python.
    bootstrap : Bootstrap, optional
        Intervals of the micro F1, ratios and κ resampling documents.
    by_document : bool
        Each document pair's F1 and ratios.
    diagnostics : int, optional
        The N most confused relation pairs (default 20).
    progress : callable, optional
        ``progress(done, total)``.
    binarize : bool
        RST-Parseval on binarised trees (default, as Morey et al. 2017) or on the trees as
        annotated (Marcu 2000 counted n-ary RST-DT trees); Parseval and Iruskieta's relations
        always read binary trees.
    relation_labels : str or mapping
        ``"as-written"``, ``"lower"``, ``"rstdt18"`` or a mapping label -> class.

    Returns
    -------
    TreesReport

    Raises
    ------
    InputError
        No document that two annotators have.

    Examples
    --------
    >>> import corpusagree as ca
    >>> from corpusagree.analyses import trees
    >>> report = trees.analyse(trees.read("sample_corpora/trees/rs3"),
    ...                        bootstrap=ca.Bootstrap(n_resamples=200, seed=1))
    >>> [(r["variant"], r["measure"], round(r["f1"], 4)) for r in report.parseval][:2]
    [('rst_parseval', 'span', 0.8333), ('rst_parseval', 'nuclearity', 0.6667)]
    """
    corpus = as_corpus(corpus)
    notes: list[str] = list(corpus.notes)
    p = pair_trees(corpus.data, corpus.annotators)
    for e in p.problems:
        notes.append(str(e))
    _check_pairs(p, corpus)
    trees, unmapped = relabel(p.trees, relation_labels)
    if unmapped:
        notes.append(f"relations the mapping does not list, kept lower-cased: "
                     f"{', '.join(unmapped)}")
    binary = nodes([binarise(t) for t in trees])
    flat = binary if binarize else nodes(trees)
    settings = resampling(bootstrap, p.pair_document, notes, items="document pairs")
    n_boot = settings.n_resamples if settings else 0
    stage = Stages(progress, [len(p.reference), n_boot, n_boot])
    pair_of, names = _annotator_pairs(p)
    counts = {v: count(constituents(flat if v == "rst_parseval" else binary, v), p.reference,
                       p.other) for v in VARIANTS}
    comp = ir.compare(ir.relations(binary), p.reference, p.other)
    step = stage.next()
    if step is not None:
        step(len(p.reference), len(p.reference))
    parseval, f1_interval = _parseval_rows(counts, p, pair_of, names, settings, stage.next())
    iruskieta = _iruskieta_rows(comp, p, pair_of, names, settings, stage.next(), notes)
    cons = constituents(binary, "parseval")
    matrix = confusion(cons, p.reference, p.other)
    confused = _confused(matrix, cons.labels, diagnostics or CONFUSED)
    disputed = _disputed(counts["parseval"], p, trees)
    not_compared = Records(_not_compared(p, corpus))
    boundaries = _boundaries(p, corpus, settings, notes)
    if p.different:
        notes.append(f"{len(p.different)} document(s) with different EDUs, compared by their "
                     f"boundaries only: {', '.join(p.different)}")
    data = {"documents": len({t.document for t in corpus.data}),
            "annotators": list(p.annotators), "pairs": int(len(p.reference)),
            "boundaries_only": len(p.different), "not_compared": len(p.problems),
            "relation_labels": relation_labels if isinstance(relation_labels, str)
            else "mapping", "binarize": binarize}
    options = {"by_document": by_document, "diagnostics": diagnostics, "binarize": binarize,
               "relation_labels": data["relation_labels"],
               "reader_options": dict(corpus.reader_options)}
    return TreesReport(
        inputs=list(corpus.inputs), options=options, bootstrap=settings,
        notes=list(dict.fromkeys(notes)), format=corpus.format, data=data,
        parseval=parseval, iruskieta=iruskieta, confused=confused,
        confusion={"labels": list(cons.labels), "counts": matrix.tolist()},
        disputed=disputed, not_compared=not_compared, boundaries=boundaries,
        by_document=_by_document(counts, comp, p) if by_document else None,
        f1_interval=f1_interval,
    )


def _check_pairs(p: TreePairs, corpus: Corpus) -> None:
    """An error when no document has trees of the same text from two annotators, with the
    first reason a pair was left out (and how many more there are)."""
    if not len(p.reference) and not p.segmentations:
        why = [n for n in corpus.notes if n.startswith(_LEFT_OUT)] + [str(e) for e in p.problems]
        raise InputError("no document with trees of the same text from two annotators: "
                         "nothing to compare" + (f" ({why[0]}" + (
                             f"; {len(why) - 1} more" if len(why) > 1 else "") + ")"
                             if why else ""), ", ".join(corpus.inputs) or None)


def _annotator_pairs(p: TreePairs) -> tuple[np.ndarray, list[tuple[str, str]]]:
    """The pair of annotators (reference, other) of each pair of trees, as an index into
    their names."""
    n = len(p.annotators)
    pair_key = p.annotator(p.reference) * max(n, 1) + p.annotator(p.other)
    pairs, pair_of = np.unique(pair_key, return_inverse=True)
    names = [(p.annotators[k // n], p.annotators[k % n]) for k in pairs]
    return pair_of.reshape(-1), names


def _parseval_rows(counts: dict, p: TreePairs, pair_of: np.ndarray, names: list,
                   settings: Bootstrap | None, progress
                   ) -> tuple[Records[ParsevalScore], Interval | None]:
    """The rows of the Parseval table, and the interval of the first pair's Parseval full
    F1 (the report's bootstrap plot)."""
    rows: Records[ParsevalScore] = Records()
    headline = None
    for k, (a, b) in enumerate(names):
        mine = pair_of == k
        for v, c in counts.items():
            micro = c.scores(mine)
            macro = nanmean(prf(c.counts[mine])[:, :, 2], axis=0) if mine.any() \
                else np.full(len(MEASURES), np.nan)
            ivs = _count_intervals(c.counts[mine], p.pair_document[mine], settings,
                                   lambda s: prf(s)[:, :, 2], [f"{v}_{m}" for m in MEASURES])
            if k == 0 and v == "parseval":
                headline = ivs[MEASURES.index("full")]
            for j, m in enumerate(MEASURES):
                rows.append(ParsevalScore(v, a, b, m, float(micro[j, 0]), float(micro[j, 1]),
                                          float(micro[j, 2]), interval_dict(ivs[j]),
                                          float(macro[j]), int(mine.sum())))
    if progress is not None and settings is not None:
        progress(settings.n_resamples, settings.n_resamples)
    return rows, headline


def _count_intervals(counts: np.ndarray, docs: np.ndarray, settings: Bootstrap | None,
                     statistic, names: list[str]) -> list[Interval | None]:
    """Intervals of ``statistic`` of summed counts, resampling documents (or pairs)."""
    if settings is None or len(counts) < 2:
        return [None] * len(names)
    if settings.cluster is not False:
        uniq, unit = np.unique(docs, return_inverse=True)
        sums = np.zeros((len(uniq), counts.shape[1]))
        np.add.at(sums, unit.reshape(-1), counts)
    else:
        sums = counts.astype(float)
    if len(sums) < 2:
        return [None] * len(names)
    return sum_intervals(names, statistic, sums, settings)


def _iruskieta_rows(comp: ir.Comparison, p: TreePairs, pair_of: np.ndarray, names: list,
                    settings: Bootstrap | None, progress, notes: list[str]
                    ) -> Records[FactorAgreement]:
    per_doc_ratio = comp.per_pair()
    per_doc_kappa = ir.kappas(comp)
    W = (pair_of[None, :] == np.arange(len(names))[:, None]).astype(float)
    pooled = ir.kappas(comp, W)
    rows: Records[FactorAgreement] = Records()
    table = np.column_stack([comp.matches, comp.denominators])
    F = len(ir.FACTORS)
    for k, (a, b) in enumerate(names):
        mine = pair_of == k
        ratios = comp.ratios(mine)
        ivs = _count_intervals(table[mine], p.pair_document[mine], settings,
                               lambda s: s[:, :F] / s[:, F:], list(ir.FACTORS))
        kivs = _kappa_intervals(comp, p, mine, settings) if len(names) == 1 else [None] * F
        for j, f in enumerate(ir.FACTORS):
            rows.append(FactorAgreement(a, b, f, float(ratios[j]), interval_dict(ivs[j]),
                                        nanmean(per_doc_ratio[mine, j]), float(pooled[k, j]),
                                        interval_dict(kivs[j]),
                                        nanmean(per_doc_kappa[mine, j]),
                                        int(comp.matched[mine].sum()),
                                        int(comp.unmatched[mine].sum())))
    if settings is not None and len(names) > 1:
        notes.append("κ intervals of Iruskieta's factors are given for one annotator pair only")
    if progress is not None and settings is not None:
        progress(settings.n_resamples, settings.n_resamples)
    return rows


def _kappa_intervals(comp: ir.Comparison, p: TreePairs, mine: np.ndarray,
                     settings: Bootstrap | None) -> list[Interval | None]:
    """Bootstrap intervals of the pooled κ of each factor through the coefficient engine,
    its items grouped by document."""
    if settings is None or mine.sum() < 2:
        return [None] * len(ir.FACTORS)
    out = []
    for f in ir.FACTORS:
        pair, x, y = comp.items[f]
        keep = mine[pair]
        if not keep.any():
            out.append(None)
            continue
        labels, codes = np.unique(np.concatenate([x[keep], y[keep]]).astype(str),
                                  return_inverse=True)
        data = ReliabilityData(codes.reshape(2, -1), list(labels),
                               groups=p.pair_document[pair[keep]])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            (iv,) = engine_bootstrap(data, [("kappa", "nominal")], settings)
        out.append(iv)
    return out


def _confused(matrix: np.ndarray, labels: Sequence[str], n: int) -> Records[ConfusedRelations]:
    total = matrix.sum()
    off = matrix.copy()
    np.fill_diagonal(off, 0)
    r, c = np.nonzero(off)
    order = np.argsort(-matrix[r, c], kind="stable")[:n]
    return Records(ConfusedRelations(labels[r[k]], labels[c[k]], int(matrix[r[k], c[k]]),
                                     float(matrix[r[k], c[k]] / total) if total
                                     else float("nan"))
                   for k in order)


def _disputed(c, p: TreePairs, trees: list[RSTTree]) -> dict | None:
    """The document pair with the lowest Parseval full F1 (ties: the lower span F1, the
    longer document)."""
    if not len(p.reference):
        return None
    f = np.nan_to_num(c.per_pair()[:, :, 2], nan=1.0)
    size = c.counts[:, 0]
    k = int(np.lexsort((-size, f[:, 0], f[:, 3]))[0])
    a, b = trees[p.reference[k]], trees[p.other[k]]
    return {"document": a.document, "reference": a.annotator, "other": b.annotator,
            "f1": float(f[k, 3]), "outlines": [a.outline(), b.outline()]}


def _not_compared(p: TreePairs, corpus: Corpus) -> list[NotCompared]:
    out = [NotCompared(d, ", ".join(t.annotator for t in p.trees if t.document == d),
                       "different EDUs: compared by boundaries only") for d in p.different]
    for doc, e in zip(p.problem_documents, p.problems, strict=True):
        who = ", ".join(t.annotator for t in corpus.data if t.document == doc)
        out.append(NotCompared(doc, who, e.message))
    return out


def _boundaries(p: TreePairs, corpus: Corpus, settings: Bootstrap | None,
                notes: list[str]) -> Table | None:
    """The boundary coefficients (those of the segments job) on the documents whose EDUs
    differ, on their potential boundaries (:func:`corpusagree.convert.segments.boundaries`)."""
    if not p.segmentations:
        return None
    data = conv_segments.boundaries(conv_segments.layout(p.segmentations))
    quiet_notes: list[str] = []  # the trees' own notes say how they were compared
    settings = resampling(settings if settings is None or len(p.different) > 1 else None,
                          data.groups, quiet_notes, items="items (potential boundaries, units)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)  # a coder alone; said by nan
        rows = coefficient_rows(data, BOUNDARY_COEFFICIENTS, ["nominal"], settings,
                                notes=quiet_notes)
    return estimate_table("boundaries", f"Boundaries of the {len(p.different)} document(s) "
                          "with different EDUs, in non-space characters (the segments job's "
                          "coefficients)", rows)


def _by_document(counts: dict, comp: ir.Comparison, p: TreePairs) -> Records[DocumentScores]:
    f = {v: c.per_pair()[:, :, 2] for v, c in counts.items()}
    ratios = comp.per_pair()
    kappa = ir.kappas(comp)
    rows: Records[DocumentScores] = Records()
    for k in range(len(p.reference)):
        row = DocumentScores(p.documents[p.pair_document[k]], p.trees[p.reference[k]].annotator,
                             p.trees[p.other[k]].annotator)
        for v in counts:
            row.scores.update({f"{v}_{m}": float(f[v][k, j]) for j, m in enumerate(MEASURES)})
        row.scores.update({f"ratio_{x}": float(ratios[k, j]) for j, x in enumerate(ir.FACTORS)})
        row.scores.update({f"kappa_{x}": float(kappa[k, j]) for j, x in enumerate(ir.FACTORS)})
        rows.append(row)
    return rows


# ---- the registration ------------------------------------------------------------------------
def _folder_parts(folder: Path) -> Iterator[Part]:
    """The RST trees of a sub-folder of segmentations (by document with diagnostics)."""
    found = discover.tree_inputs(folder)
    if found is not None:
        yield Part(found, detail={"by_document": True})


#: this job's part of the JSON Schema of the report document, ``$defs/job_trees`` of
#: :func:`corpusagree.schema`: the keys of :meth:`TreesReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": "`corpusagree trees`: agreement on RST trees.",
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": [
        "format", "data", "parseval", "iruskieta", "confused", "disputed", "not_compared",
        "boundaries", "by_document",
    ],
    "properties": {
        "options": closed_object(
            by_document={"type": "boolean"},
            diagnostics={"$ref": "#/$defs/diagnostics_option"},
            binarize={
                "description": "RST-Parseval on binarised trees, or on the trees as annotated.",
                "type": "boolean",
            },
            relation_labels={
                "description": (
                    "as-written, lower, rstdt18, or mapping (a mapping of the caller's)."
                ),
                "type": "string",
            },
            reader_options={"$ref": "#/$defs/reader_options"},
        ),
        "format": {"type": ["string", "null"]},
        "data": closed_object(
            documents={"$ref": "#/$defs/count"},
            annotators={"$ref": "#/$defs/names"},
            pairs={"description": "Document pairs compared by Parseval.", "$ref": "#/$defs/count"},
            boundaries_only={
                "description": "Documents with different EDUs, compared by their boundaries.",
                "$ref": "#/$defs/count",
            },
            not_compared={"$ref": "#/$defs/count"},
            relation_labels={"type": "string"},
            binarize={"type": "boolean"},
        ),
        "parseval": {
            "description": (
                "RST-Parseval and Parseval per annotator pair and measure (micro, with the "
                "interval of the micro F1; macro F1)."
            ),
            "type": "array",
            "items": closed_object(
                variant={"enum": ["rst_parseval", "parseval"]},
                reference={"$ref": "#/$defs/name"},
                other={"$ref": "#/$defs/name"},
                measure={"$ref": "#/$defs/job_trees/$defs/measure"},
                precision={"$ref": "#/$defs/real"},
                recall={"$ref": "#/$defs/real"},
                f1={"$ref": "#/$defs/real"},
                interval=nullable({"$ref": "#/$defs/interval"}),
                f1_macro={"$ref": "#/$defs/real"},
                documents={"$ref": "#/$defs/count"},
            ),
        },
        "iruskieta": {
            "description": (
                "Iruskieta et al.'s comparison per annotator pair and factor: ratios and Cohen's "
                "κ, pooled (micro) and per document (macro)."
            ),
            "type": "array",
            "items": closed_object(
                reference={"$ref": "#/$defs/name"},
                other={"$ref": "#/$defs/name"},
                factor={"$ref": "#/$defs/job_trees/$defs/factor"},
                ratio={"$ref": "#/$defs/real"},
                interval=nullable({"$ref": "#/$defs/interval"}),
                ratio_macro={"$ref": "#/$defs/real"},
                kappa={"$ref": "#/$defs/real"},
                kappa_interval=nullable({"$ref": "#/$defs/interval"}),
                kappa_macro={"$ref": "#/$defs/real"},
                matched={"$ref": "#/$defs/count"},
                unmatched={"$ref": "#/$defs/count"},
            ),
        },
        "confused": {
            "description": (
                "The relations given most often to the same constituent (reference's, other's)."
            ),
            "type": "array",
            "items": closed_object(
                reference={"type": "string"},
                other={"type": "string"},
                count={"$ref": "#/$defs/count"},
                share={"$ref": "#/$defs/real"},
            ),
        },
        "disputed": nullable(
            closed_object(
                document={"$ref": "#/$defs/name"},
                reference={"$ref": "#/$defs/name"},
                other={"$ref": "#/$defs/name"},
                f1={"$ref": "#/$defs/real"},
                outlines={
                    "type": "array",
                    "items": {"type": "array", "items": {"type": "string"}},
                    "minItems": 2,
                    "maxItems": 2,
                },
            ),
            description=(
                "The document pair of lowest Parseval full F1, both trees as outlines (indented "
                "lines), or null."
            ),
        ),
        "not_compared": {
            "type": "array",
            "items": extends(
                "#/$defs/document_row",
                annotators={"description": "Comma separated.", "type": "string"},
                reason={"type": "string"},
            ),
        },
        "boundaries": nullable(
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": [
                        "id", "coefficient", "distance", "value", "observed", "expected",
                        "reading",
                    ],
                    "properties": {
                        "id": {"$ref": "#/$defs/coefficient_id"},
                        "coefficient": {"description": "The symbol.", "type": "string"},
                        "distance": {"type": "string"},
                        "value": {"$ref": "#/$defs/real"},
                        "interval_low": {"$ref": "#/$defs/real"},
                        "interval_high": {"$ref": "#/$defs/real"},
                        "q": {
                            "description": (
                                "Krippendorff's q: P(coefficient < .667), the share of bootstrap "
                                "replicates below .667."
                            ),
                            "$ref": "#/$defs/real",
                        },
                        "observed": {"$ref": "#/$defs/real"},
                        "expected": {"$ref": "#/$defs/real"},
                        "reading": {
                            "description": "Krippendorff · Landis & Koch, short.",
                            "type": ["string", "null"],
                        },
                    },
                    "additionalProperties": False,
                },
            },
            description=(
                "The segments job's boundary coefficients on the documents whose EDUs differ, as "
                "the rows of its table, or null."
            ),
        ),
        "by_document": nullable(
            {
                "type": "array",
                "items": extends(
                    "#/$defs/document_row",
                    reference={"$ref": "#/$defs/name"},
                    other={"$ref": "#/$defs/name"},
                    rst_parseval_span={"$ref": "#/$defs/real"},
                    rst_parseval_nuclearity={"$ref": "#/$defs/real"},
                    rst_parseval_relation={"$ref": "#/$defs/real"},
                    rst_parseval_full={"$ref": "#/$defs/real"},
                    parseval_span={"$ref": "#/$defs/real"},
                    parseval_nuclearity={"$ref": "#/$defs/real"},
                    parseval_relation={"$ref": "#/$defs/real"},
                    parseval_full={"$ref": "#/$defs/real"},
                    ratio_central_subconstituent={"$ref": "#/$defs/real"},
                    ratio_constituent={"$ref": "#/$defs/real"},
                    ratio_attachment_point={"$ref": "#/$defs/real"},
                    ratio_nuclearity={"$ref": "#/$defs/real"},
                    ratio_relation={"$ref": "#/$defs/real"},
                    kappa_central_subconstituent={"$ref": "#/$defs/real"},
                    kappa_constituent={"$ref": "#/$defs/real"},
                    kappa_attachment_point={"$ref": "#/$defs/real"},
                    kappa_nuclearity={"$ref": "#/$defs/real"},
                    kappa_relation={"$ref": "#/$defs/real"},
                ),
            },
            description=(
                "Each document pair's F1 (both variants, every measure), ratios and κ, or null."
            ),
        ),
    },
    "$defs": {
        "measure": {"enum": ["span", "nuclearity", "relation", "full"]},
        "factor": {
            "enum": [
                "central_subconstituent", "constituent", "attachment_point", "nuclearity",
                "relation",
            ],
        },
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "trees", "kinds": ("trees",), "tasks": ("trees",),
        "help": "agreement on RST trees (rs3/rs4, .dis)", "order": 80,
        "example": ("sample_corpora/trees/rs3",)}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS, folder={"segments": _folder_parts})
