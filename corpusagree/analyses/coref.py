"""``corpusagree coref``: agreement on coreference chains, overall and per document.

The coreference annotations of several annotators (MMAX2, brat, CoNLL-2012, CorefUD,
INCEpTION XMI, WebAnno TSV, ezCoref) are aligned mention by mention and turned into reliability
data by :mod:`corpusagree.convert.coref` (Artstein & Poesio 2005, §4.1), then measured as

* α, α′, β and the bias B over chains (or chain prefixes) as set labels, per set distance
  (Passonneau 2004: Passonneau's distance, Jaccard, Dice, MASI), and Krippendorff & Craggs's
  (2016) multi-valued α (mvα) of the same sets;
* κ (multi-κ for more than two annotators), α and β with the antecedent as a nominal label;
* MUC, B³, CEAF-e, CEAF-m, BLANC and LEA recall, precision and F1 and the CoNLL-2012 average
  for every annotator pair, micro-averaged over the documents both annotated as the CoNLL
  reference scorer does (Pradhan et al. 2014: numerators and denominators summed over the
  documents); each annotator is scored on every mention they marked (the reference scorer's key
  and response mentions), the first annotator given being the key; with figures per document,
  also every document's figures and their macro means over the documents where a score is
  defined;
* the alignment itself (aligned, unmatched and merged mentions per annotator);
* optionally bootstrap intervals clustered by document, figures per document, and diagnostics
  (pairwise and leave-one-out α, the most-disputed mentions with each annotator's chain written
  out as mention texts).

>>> from corpusagree.analyses import coref
>>> corpus = coref.read("sample_corpora/coref/brat")
>>> corpus
<Corpus coref (brat): 3 annotators, 5 documents, 161 mentions>
>>> report = coref.analyse(corpus)
>>> round(report.scores.all_pairs["muc"]["f1"], 4)   # micro-averaged, as the CoNLL scorer
0.9342
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from .. import readers
from ..convert import coref as conv
from ..model.corpus import CorefAnnotation, Corpus
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.params import Param, checked
from ..model.progress import Progress, Stages
from ..readers import discover
from ..report.document import Report
from ..report.json import closed_object, extends, nullable
from ..report.tables import Column, Plot, Record, Records, Table, WithTables, optional, spread
from ..stats import coefficients as coef
from ..stats import corefscores
from ..stats import distances as dist
from ..stats.inference import Bootstrap, resampling
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
    title,
)
from .diagnose import Diagnostics, diagnose
from .jobs import Part, complete

__all__ = ["CARD", "SCHEMA", "BY_LINK", "CHAIN_COEFFICIENTS", "CONLL", "DISTANCES", "JOB", "MACRO",
           "MENTIONS", "MICRO", "PARAMS", "SCORES", "SCORE_NAMES", "SET_DISTANCES",
           "CorefDiagnostics", "CorefReport", "CorefScores", "DisputedMention",
           "DocumentAgreement", "DocumentPairScores", "PairScores", "analyse", "as_corpus",
           "corpus_of", "read"]

#: the distances between sets (chains), and the ones reported by default
SET_DISTANCES = dist.SET_NAMES
DISTANCES = ("passonneau", "jaccard", "dice", "masi")
#: coefficients over chain labels, per distance
CHAIN_COEFFICIENTS = ("alpha", "alpha_prime", "beta", "bias")
SCORES = corefscores.METRICS
SCORE_NAMES = {m: spec.name for m, spec in corefscores.SPECS.items()}
#: the scores undefined without a link (the others: without a mention), and the CoNLL average
BY_LINK = " and ".join(s.name for s in corefscores.SPECS.values() if s.undefined == "link")
CONLL = f"({' + '.join(SCORE_NAMES[m] for m in corefscores.CONLL)}) / 3"
#: how the main figures are averaged, and on which mentions
MICRO = ("micro average, as the CoNLL reference scorer: recall and precision sum their "
         "numerators and denominators over the documents the pair shares; key = the first "
         "annotator of the pair")
MENTIONS = ("each annotator is scored on every mention they marked (the reference scorer's key "
            "and response mentions), not only on the mentions both marked; a mention one "
            "annotator put in several chains counts as scorer.pl v8.01 counts a repeated mention")
MACRO = ("macro average: each document's figure averaged over the documents where it is "
         f"defined ({BY_LINK}: a link on either side; the others: a mention), never counting "
         "an undefined figure as 0")
# ---- reading -----------------------------------------------------------------------------------
def read(paths: str | PathLike | Sequence[str | PathLike], *, input_format: str = "auto",
         annotators: Sequence[str] | None = None, **reader_options) -> Corpus[list]:
    """The coreference annotations of the annotators' files or folders.

    Parameters
    ----------
    paths : path or list of paths
        One file or folder per annotator, or a folder of annotator folders (brat, MMAX2, XMI,
        WebAnno TSV), or ezCoref passage files; the first path is the key of the coreference
        scores, as in ``scorer.pl KEY RESPONSE``.
    input_format : str
        A coreference format (``mmax2``, ``brat``, ``conll``, ``corefud``, ``xmi``,
        ``webanno_tsv``, ``ezcoref``) or ``auto`` to recognise it.
    annotators : list of str, optional
        The annotators' names, one per annotator found (default: from the paths).
    **reader_options
        The format's own options (``levels`` for MMAX2, ``coref_types`` for brat, ``layers``
        for XMI and WebAnno TSV, ``clusters`` for ezCoref); the job's defaults are MMAX2
        ``levels=["coref"]`` and ezCoref ``clusters="last"``.

    Returns
    -------
    Corpus
        ``data``: one :class:`~corpusagree.model.corpus.CorefAnnotation` per annotator and
        document, in the order of the paths (the annotators of one path in natural order).

    Raises
    ------
    InputError
        A path that does not exist, a format not recognised, bad input in a file (named with
        its line), an option the format does not take.

    Examples
    --------
    >>> from corpusagree.analyses import coref
    >>> corpus = coref.read(["sample_corpora/coref/conll2012/ann1.v4_gold_conll",
    ...                      "sample_corpora/coref/conll2012/ann2.v4_gold_conll"])
    >>> corpus.format, corpus.annotators
    ('conll', ['ann1', 'ann2'])
    """
    return corpora.read_mentions(paths, input_format, annotators, job="coref",
                                 **reader_options)


corpus_of = corpora.mentions_of


def as_corpus(annotations: Corpus | Sequence[CorefAnnotation], job: str = "coref"
              ) -> Corpus[list]:
    """A corpus of the coref (or markables) job, from what :func:`analyse` was given.

    A :class:`~corpusagree.model.corpus.Corpus` of the job as it is, or coreference annotations
    made into one: :func:`analyse` calls this first, so that it takes either what :func:`read`
    returns or coreference annotations made in Python.

    Parameters
    ----------
    annotations : Corpus or sequence of CorefAnnotation
        A corpus of the job, or annotations (one per annotator and document).
    job : str, default "coref"
        The job the corpus is for (``markables`` reads the same annotations).

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        For anything else (the message says what the job takes).

    Examples
    --------
    >>> from corpusagree.analyses import coref
    >>> corpus = coref.read("sample_corpora/coref/brat")
    >>> coref.as_corpus(corpus.data)
    <Corpus coref (python): 3 annotators, 5 documents, 161 mentions>
    >>> coref.as_corpus("a path")
    Traceback (most recent call last):
    ...
    TypeError: coref.analyse takes the Corpus that ... not str
    """
    return corpora.as_corpus(annotations, job,
                             {CorefAnnotation: partial(corpora.mentions_of, job=job)},
                             ("mentions",))


# ---- the report --------------------------------------------------------------------------------
@dataclass
class PairScores(Record):
    """The scores of one (key, response) pair: a row of :attr:`CorefScores.pairs` (micro) and
    of :attr:`CorefScores.macro`.

    Attributes
    ----------
    key : str
        The annotator read as the key.
    response : str
        The annotator read as the response.
    documents : int
        The documents both annotated.
    figures : dict
        Each metric → its ``recall``, ``precision`` and ``f1`` (in the macro rows with the
        ``documents`` where it is defined), and ``conll`` → the CoNLL average; its keys are
        the row's own.
    """

    key: str
    response: str
    documents: int
    figures: dict[str, Any] = spread()


@dataclass
class DocumentPairScores(Record):
    """The scores of one (key, response) pair in one document: a row of
    :attr:`CorefScores.documents`.

    Attributes
    ----------
    document : str
        The document.
    key : str
        The annotator read as the key.
    response : str
        The annotator read as the response.
    figures : dict
        Each metric → its ``recall``, ``precision`` and ``f1`` (nan where undefined), and
        ``conll`` → the CoNLL average; its keys are the row's own.
    """

    document: str
    key: str
    response: str
    figures: dict[str, Any] = spread()


@dataclass
class DocumentAgreement(Record):
    """α and β of one document's chains, α of its antecedents and its scores: a row of
    :attr:`CorefReport.by_document`.

    Attributes
    ----------
    document : str
        The document.
    annotators : int
        The annotators who annotated it.
    items : int
        Its mentions (the aligned items).
    alpha, beta : dict or None
        Distance → α (β) of its chains' labels under that distance, nan where undefined;
        None (and left out of the JSON) when the chains have no labels of their own.
    alpha_antecedent : float
        α (nominal) of its antecedents, nan where undefined.
    f1 : dict
        Each metric → its F1 averaged over the document's annotator pairs where defined; its
        keys are the row's own.
    """

    document: str
    annotators: int
    items: int
    alpha: dict[str, float] | None = optional()
    beta: dict[str, float] | None = optional()
    alpha_antecedent: float = float("nan")
    f1: dict[str, float] = spread()


@dataclass
class DisputedMention(Record):
    """A mention whose chain the annotators disagree on most: a row of
    :attr:`CorefDiagnostics.disputed`.

    Attributes
    ----------
    item : str
        The mention (the aligned item).
    document : str
        Its document.
    mention : str
        Its text.
    context : dict or None
        The text ``before``, the ``span`` and the text ``after`` it, None without a text.
    disagreement : float
        The mean pairwise distance of its labels (Artstein & Poesio 2008, §5.1).
    share : float
        Its share of the observed disagreement behind α.
    labels : dict
        Annotator → its chain (or antecedent) written out as mention texts.
    """

    item: str
    document: str
    mention: str
    context: dict | None
    disagreement: float
    share: float
    labels: dict[str, str]


@dataclass(repr=False)
class CorefScores:
    """The coreference scores of every annotator pair (Pradhan et al. 2014).

    Attributes
    ----------
    metrics : tuple of str
        The metrics scored: ``muc``, ``b_cubed``, ``ceaf_e``, ``ceaf_m``, ``blanc``, ``lea``.
    pairs : Records of PairScores
        One row per (key, response) pair: the ``documents`` they share, each metric's
        ``recall``, ``precision`` and ``f1`` micro-averaged over those documents as the
        reference scorer averages a corpus, and ``conll`` = (MUC + B³ + CEAF-e F1) / 3.
    all_pairs : dict
        The same over the summed counts of every pair.
    macro : Records of PairScores or None
        With figures per document: the rows of ``pairs``, each figure averaged over the
        documents where it is defined, with their number.
    macro_all : dict or None
        The mean over every (document, pair).
    documents : Records of DocumentPairScores or None
        The figures of every (document, pair), nan where undefined.
    table : DocumentPairs
        The counts behind the figures.

    References
    ----------
    .. [1] Pradhan, S. et al. (2014). Scoring coreference partitions of predicted mentions: a
       reference implementation. ACL.

    Examples
    --------
    >>> from corpusagree.analyses import coref
    >>> scores = coref.analyse(coref.read("sample_corpora/coref/brat")).scores
    >>> round(scores.all_pairs["muc"]["f1"], 4), round(scores.all_pairs["conll"], 4)
    (0.9342, 0.9216)
    """

    metrics: tuple[str, ...]
    pairs: Records[PairScores]
    all_pairs: dict
    macro: Records[PairScores] | None
    macro_all: dict | None
    documents: Records[DocumentPairScores] | None
    table: corefscores.DocumentPairs

    def __repr__(self) -> str:
        return "CorefScores(micro: " + ", ".join(
            f"{m}={self.all_pairs[m]['f1']:.4g}" for m in self.metrics) + ")"

    def to_dict(self) -> dict:
        """The scores as plain data (the ``scores`` part of the report's JSON)."""
        macro = None if self.macro is None else {"pairs": self.macro, "all_pairs": self.macro_all}
        return {"averaging": "micro", "metrics": list(self.metrics), "pairs": self.pairs,
                "all_pairs": self.all_pairs, "macro": macro, "documents": self.documents}

    def to_frame(self, averaging: str = "micro"):
        """The scores as a pandas DataFrame, one row per pair and metric.

        Parameters
        ----------
        averaging : {"micro", "macro", "document"}
            ``micro``: the micro-averaged pairs and an ``all`` row (``pairs``,
            ``all_pairs``); ``macro``: their means over the documents (``macro``,
            ``macro_all``); ``document``: every document's figures (``documents``).
            ``macro`` and ``document`` need figures per document.

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        ValueError
            For another ``averaging``, or ``macro`` or ``document`` without figures per
            document (``by_document=True``).
        """
        import pandas as pd

        if averaging == "micro":
            rows, every = self.pairs, self.all_pairs
        elif averaging in ("macro", "document") and self.macro is not None:
            rows, every = (self.macro, self.macro_all) if averaging == "macro" else \
                (self.documents, None)
        else:
            raise ValueError(f"averaging {averaging!r}: micro, or macro and document with "
                             "figures per document (by_document=True)")
        blocks = list(rows) + ([{"key": "all", "response": "all", **every}] if every else [])
        return pd.DataFrame([
            {**{k: r[k] for k in ("document", "key", "response") if k in r}, "metric": m,
             **{k: r[m][k] for k in ("recall", "precision", "f1")}}
            for r in blocks for m in self.metrics])


@dataclass(repr=False)
class CorefDiagnostics(WithTables):
    """Why agreement on chains is low.

    Attributes
    ----------
    diagnostics : Diagnostics
        The diagnostics of the chain (or antecedent) labels under one distance
        (:func:`~corpusagree.analyses.diagnose.diagnose`): pairwise and leave-one-out α, the
        costliest items …
    disputed : Records of DisputedMention
        The most-disputed mentions with each annotator's chain written out as mention texts,
        and the mention in its sentence.
    mentions : dict
        The words of the items the tables name.

    Examples
    --------
    >>> from corpusagree.analyses import coref
    >>> report = coref.analyse(coref.read("sample_corpora/coref/brat"), diagnostics=3)
    >>> report.diagnostics.disputed[0]["mention"]
    'she'
    """

    diagnostics: Diagnostics
    disputed: Records[DisputedMention]
    mentions: dict[str, str]

    def __repr__(self) -> str:
        return (f"CorefDiagnostics({self.diagnostics.symbol} ({self.diagnostics.distance}), "
                f"{len(self.disputed)} disputed mentions)")

    def to_dict(self) -> dict:
        """The diagnostics as plain data (the ``diagnostics`` part of the report's JSON)."""
        return {**self.diagnostics.to_dict(), "disputed": self.disputed}

    def _tables(self) -> list[Table]:
        """The diagnostics' tables, with mentions shown by their words."""
        out = []
        for t in self.diagnostics.tables.values():
            if t.id == "worst_items":
                t = self._disputed()
            elif t.id in ("per_category", "value_disagreement"):
                t = Table(t.id, t.title, [t.columns[0], Column("mention", "mention"),
                                          *t.columns[1:]],
                          [[r[0], self.mentions.get(str(r[0]), ""), *r[1:]] for r in t.rows],
                          t.notes)
            out.append(t)
        return out

    def _disputed(self) -> Table:
        return Table("disputed", f"Most-disputed mentions ({self.diagnostics.distance}): "
                     "disagr. = mean pairwise distance, share = part of α's Do; each "
                     "annotator's label as mention texts",
                     [Column("document", "document"), Column("mention", "mention"),
                      Column("disagreement", "disagr.", "float"),
                      Column("share", "share", "share"), Column("labels", "labels"),
                      Column("context", "context", "context", optional=True)],
                     [[r["document"], r["mention"], r["disagreement"], r["share"],
                       "\n".join(f"{c}: {t}" for c, t in r["labels"].items()),
                       None if r["context"] is None else tuple(r["context"].values())]
                      for r in self.disputed])


@dataclass(repr=False, kw_only=True)
class CorefReport(Report):
    """Agreement on coreference chains (see the module docstring).

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
    documents, annotators : list of str
    items : int
        Aligned mentions (the items of the chain coefficients).
    alignment : AlignmentReport
        How the mentions were aligned: per annotator, aligned, unmatched and merged mentions.
    coefficients : Records
        α, α′, β and B per distance on the chain labels, each an :class:`Estimate` (empty with
        ``label="antecedent"``).
    antecedent : Records
        κ or multi-κ, α and β on the antecedent labels.
    scores : CorefScores
        MUC, B³, CEAF-e, CEAF-m, BLANC, LEA and the CoNLL average of every pair.
    by_document : Records of DocumentAgreement or None
        Every document's figures, with ``by_document=True``.
    diagnostics : CorefDiagnostics or None
        With ``diagnostics=N``.

    Examples
    --------
    >>> from corpusagree.analyses import coref
    >>> report = coref.analyse(coref.read("sample_corpora/coref/brat"))
    >>> list(report.tables)
    ['alignment', 'coefficients', 'antecedent', 'scores']
    >>> alpha = report.coefficients[0]
    >>> alpha.id, alpha.result.distance, round(alpha.value, 4)
    ('alpha', 'passonneau', 0.9215)
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    format: str | None
    documents: list[str]
    annotators: list[str]
    items: int
    alignment: conv.AlignmentReport
    coefficients: Records[Estimate]
    antecedent: Records[Estimate]
    scores: CorefScores
    by_document: Records[DocumentAgreement] | None
    diagnostics: CorefDiagnostics | None
    notes: list[str]
    job = "coref"

    def body(self) -> dict:
        return {"format": self.format, "documents": self.documents,
                "annotators": self.annotators, "items": self.items,
                "alignment": self.alignment, "coefficients": self.coefficients,
                "antecedent": self.antecedent, "scores": self.scores,
                "by_document": self.by_document, "diagnostics": self.diagnostics}

    def summary(self) -> str:
        o = self.options
        where = title(self.inputs, "coreference") + (f" ({self.format})" if self.format else "")
        out = (f"{where}: {len(self.documents)} documents, {len(self.annotators)} annotators, "
               f"{self.items} mentions ({o['match']} match, unmarked = {o['unmarked']}, "
               f"singletons {o['singletons']}); label = {o['label']}")
        if self.bootstrap is not None:
            out += ("; intervals clustered by document" if self.bootstrap.cluster is not False
                    else "; intervals resample mentions")
        return out

    def headline(self) -> Estimate | None:
        return first_alpha(self.coefficients)

    def plots(self) -> list[Plot]:
        """The bootstrap distribution of α and the CoNLL F1 (micro) of every annotator pair
        as a matrix (symmetric: swapping key and response swaps recall and precision)."""
        out = super().plots()
        if self.scores is None or not self.scores.pairs:
            return out
        names = list(self.annotators)
        at = {a: i for i, a in enumerate(names)}
        m = np.full((len(names), len(names)), np.nan)
        for r in self.scores.pairs:
            m[at[r["key"]], at[r["response"]]] = m[at[r["response"]], at[r["key"]]] = r["conll"]
        return out + [Plot("pairwise_conll", f"CoNLL F1 = {CONLL}, micro-averaged over the "
                           "documents, annotator × annotator", "heatmap",
                           {"rows": names, "columns": names, "values": m.tolist(),
                            "label": "CoNLL F1", "marked": odd_one_out(names, m)})]

    def _tables(self) -> list[Table]:
        o = self.options
        out = [self._alignment_table()]
        if self.coefficients:
            out.append(estimate_table(
                "coefficients", f"Chains as set labels (label = {o['label']}; Passonneau 2004, "
                "Artstein & Poesio 2005, §4.1)", self.coefficients))
        out.append(estimate_table("antecedent", "Antecedent as a nominal label (Artstein & "
                                  "Poesio 2005, §4.1)", self.antecedent))
        out.append(self._scores_table())
        if self.scores.macro is not None:
            out += [self._macro_table(), self._document_scores_table()]
        if self.by_document is not None:
            out.append(self._document_table())
        if self.diagnostics is not None:
            out += list(self.diagnostics.tables.values())
        return out

    def _alignment_table(self) -> Table:
        o = self.options
        extra = [(k, h) for k, h, on in (("dropped_singletons", "dropped", o["singletons"] ==
                                          "drop"), ("no_head", "no head", o["match"] == "head"))
                 if on]
        cols = [Column("annotator", "annotator"), Column("documents", "docs", "int"),
                Column("mentions", "mentions", "int"), Column("items", "items", "int"),
                Column("aligned", "aligned", "int"), Column("unmatched", "unmatched", "int"),
                Column("merged", "merged", "int")] + \
            [Column(k, h, "int") for k, h in extra] + \
            [Column("several_chains", "in >1 chain", "int", optional=True)]
        rows = [[a] + [c[col.key] for col in cols[1:]]
                for a, c in self.alignment.per_annotator.items()]
        return Table("alignment", f"Alignment of mentions ({o['match']} match): items marked, "
                     "aligned with another annotator's or not", cols, rows)

    def _scores_table(self) -> Table:
        sc = self.scores
        cols = [Column("key", "key"), Column("response", "response"),
                Column("documents", "docs", "int"), Column("id", "id", hidden=True),
                Column("metric", "score"),
                Column("recall", "recall", "float"), Column("precision", "precision", "float"),
                Column("f1", "F1", "float")]
        rows = []
        blocks = [(p["key"], p["response"], p) for p in sc.pairs]
        if len(sc.pairs) > 1:
            blocks.append(("all", "all", sc.all_pairs))
        for key, response, p in blocks:
            rows += [[key, response, p["documents"], m, SCORE_NAMES[m], p[m]["recall"],
                      p[m]["precision"], p[m]["f1"]] for m in sc.metrics]
            rows.append([key, response, p["documents"], "conll", "CoNLL", None, None,
                         p["conll"]])
        return Table("scores", "Coreference scores, micro-averaged over the documents as the "
                     "CoNLL reference scorer (Pradhan et al. 2014)", cols, rows,
                     [MICRO, MENTIONS, f"CoNLL = {CONLL} of the F1 (Pradhan et al. "
                      "2012); BLANC as the reference scorer (Luo et al. 2014): a key with no "
                      "link scores 0; 'all': the counts of every pair summed, docs = their "
                      "(document, pair)s; --by-document: figures per document and their macro "
                      "means"])

    def _f1_columns(self, optional_conll: bool = False) -> list[Column]:
        return [Column(m, SCORE_NAMES[m], "float") for m in self.scores.metrics] + \
            [Column("conll", "CoNLL", "float", optional=optional_conll)]

    def _f1s(self, row: dict) -> list[float]:
        return [row[m]["f1"] for m in self.scores.metrics] + [row["conll"]]

    def _macro_table(self) -> Table:
        sc = self.scores
        cols = [Column("key", "key"), Column("response", "response"),
                Column("documents", "docs", "int")] + self._f1_columns()
        rows = [[p["key"], p["response"], p["documents"], *self._f1s(p)] for p in sc.macro]
        rows.append(["all", "all", sc.macro_all["documents"], *self._f1s(sc.macro_all)])
        return Table("scores_macro", "Coreference scores, F1 averaged over the documents "
                     "(macro)", cols, rows,
                     [MACRO, "'all': the mean over every (document, pair), docs = their "
                      "number; recall and precision are in the JSON output"])

    def _document_scores_table(self) -> Table:
        cols = [Column("document", "document"), Column("key", "key"),
                Column("response", "response")] + self._f1_columns(optional_conll=True)
        rows = [[r["document"], r["key"], r["response"], *self._f1s(r)]
                for r in self.scores.documents]
        return Table("scores_by_document", "Coreference scores by document, F1", cols, rows,
                     [f"— : undefined on the document ({BY_LINK}: no link on either side; "
                      "the reference scorer prints 0); recall and precision are in the JSON "
                      "output"])

    def _document_table(self) -> Table:
        dists = self.options["distances"] if self.coefficients else []
        cols = [Column("document", "document"), Column("annotators", "annot.", "int"),
                Column("items", "items", "int")] + \
            [Column(f"alpha_{d}", f"α {d}", "float") for d in dists] + \
            [Column("alpha_antecedent", "α antecedent", "float"),
             Column("muc", "MUC", "float"), Column("b_cubed", "B³", "float")]
        rows = [[r["document"], r["annotators"], r["items"], *(r["alpha"][d] for d in dists),
                 r["alpha_antecedent"], r["muc"], r["b_cubed"]] for r in self.by_document]
        return Table("by_document", "By document: α per distance, α on antecedents, mean "
                     "pairwise F1", cols, rows, ["F1: the mean over the document's pairs where "
                                                 "defined"])


# ---- the analysis ------------------------------------------------------------------------------
#: the keywords of :func:`analyse`, which it checks first (the command line's types and
#: choices are made from the same table)
PARAMS = (
    *KEYWORDS,
    Param("match", str, choices=tuple(conv.MATCHES)),
    Param("unmarked", str, choices=tuple(conv.UNMARKED)),
    Param("label", str, choices=tuple(conv.LABELS)),
    Param("singletons", str, choices=tuple(conv.SINGLETONS)),
)


@checked(*PARAMS, where="coref.analyse()")
def analyse(corpus: Corpus | Sequence[CorefAnnotation], *,
            distance: str | Sequence[str] = DISTANCES, match: str = "exact",
            unmarked: str = "missing", label: str = "chain", singletons: str = "keep",
            bootstrap: Bootstrap | None = None, by_document: bool = False,
            diagnostics: int | None = None, progress: Progress | None = None) -> CorefReport:
    """Everything the job reports on a coreference corpus (see the module docstring).

    Parameters
    ----------
    corpus : Corpus or list of CorefAnnotation
        What :func:`read` returned, or annotations made in Python.
    distance : str or list of str
        The set distances of the chain coefficients (Passonneau 2004: ``passonneau``,
        ``jaccard``, ``dice``, ``masi``; default all four).
    match : {"exact", "head", "overlap"}
        How mentions are aligned across annotators: exact span, head token, maximal overlap.
    unmarked : {"missing", "singleton"}
        A mention an annotator did not mark is missing, or a singleton of theirs.
    label : {"chain", "prefix", "antecedent"}
        A mention's label: its chain, the chain up to it, or its antecedent (nominal only;
        Artstein & Poesio 2005, §4.1).
    singletons : {"keep", "drop"}
        Drop one-member chains first.
    bootstrap : Bootstrap, optional
        Intervals, resampling documents (mentions with one document, or ``cluster=False``).
    by_document : bool
        Every document's figures and their macro means.
    diagnostics : int, optional
        Pairwise and leave-one-out α and the N most-disputed mentions.
    progress : callable, optional
        ``progress(done, total)`` over the bootstraps and the scores.

    Returns
    -------
    CorefReport

    Raises
    ------
    InputError
        A distance that is not a set distance; no mention marked by two annotators.

    Examples
    --------
    >>> from corpusagree.analyses import coref
    >>> report = coref.analyse(coref.read("sample_corpora/coref/mmax2"), distance="jaccard")
    >>> report.tables["coefficients"].to_frame()[["id", "distance", "value"]].round(4).head(2)
                id distance   value
    0        alpha  jaccard  0.9166
    1  alpha_prime  jaccard  0.9178
    """
    corpus = as_corpus(corpus)
    distances = _set_distances(distance)
    al = conv.align(corpus.data, match=match, singletons=singletons)
    chains = None if label == "antecedent" else conv.to_data(al, label, unmarked)
    ante = conv.to_data(al, "antecedent", unmarked)
    _check_comparable(al, ante, match, ", ".join(corpus.inputs) or None)
    notes = list(corpus.notes) + al.report.notes()
    settings = resampling(bootstrap, al.item_doc, notes, items="mentions")
    stage = Stages(progress, [settings.n_resamples if settings else 0] *
                   (1 + (chains is not None)) + [len(al.documents)])
    coefficients, antecedent = _coefficients(chains, ante, distances, settings, stage, notes)
    table = corefscores.document_pairs(al.clusters(), al.doc_items, al.annotated, SCORES,
                                       stage.next())
    figures = table.figures() if by_document else None
    scores = _scores(table, al.annotators, al.documents, figures)
    notes += _undefined_scores(table, len(al.annotators))
    documents = _by_document(al, chains, ante, distances, table, figures) if by_document \
        else None
    diag = None
    if diagnostics is not None:
        data, d = (chains, distances[0]) if chains is not None else (ante, "nominal")
        diag = _diagnostics(al, data, d, diagnostics)
        notes += diag.diagnostics.notes
    notes += _option_notes(label, unmarked)
    options = {"distances": distances, "match": match, "unmarked": unmarked, "label": label,
               "singletons": singletons, "by_document": by_document,
               "diagnostics": diagnostics, "reader_options": dict(corpus.reader_options)}
    return CorefReport(
        inputs=list(corpus.inputs), options=options, bootstrap=settings,
        format=corpus.format, documents=list(al.documents), annotators=list(al.annotators),
        items=al.n_items, alignment=al.report, coefficients=coefficients,
        antecedent=antecedent, scores=scores, by_document=documents, diagnostics=diag,
        notes=list(dict.fromkeys(notes)),
    )


def _set_distances(distance: str | Sequence[str]) -> list[str]:
    """The distances asked for, each a set distance (else an error naming the choices)."""
    distances = [distance] if isinstance(distance, str) else list(distance)
    for d in distances:
        if d not in SET_DISTANCES:
            raise InputError(f"distance {d!r} is not a set distance; choose from "
                             f"{', '.join(SET_DISTANCES)}")
    return distances


def _check_comparable(al: conv.Alignment, ante: ReliabilityData, match: str,
                      where: str | None) -> None:
    """An error when no mention is marked by two or more annotators: nothing to compare."""
    if not ((ante.codes >= 0).sum(0) >= 2).any():
        if not al.n_items:
            raise InputError("no mention in any annotation: nothing to compare", where)
        raise InputError(f"none of the {al.n_items} mentions is marked by two or more "
                         f"annotators ({match} match): nothing to compare", where)


def _coefficients(chains: ReliabilityData | None, ante: ReliabilityData,
                  distances: Sequence[str], settings: Bootstrap | None, stage: Stages,
                  notes: list[str]) -> tuple[Records, Records]:
    """The coefficients of the chains' labels (none when the label is the antecedent) under
    each distance, and the nominal ones of the antecedents."""
    coefficients = Records()
    if chains is not None:
        coefficients = estimates(chains, [(c, d) for d in distances for c in CHAIN_COEFFICIENTS]
                                 + coef.set_specs(chains, notes), settings, progress=stage.next(),
                                 notes=notes)
    n_coders = int(((ante.codes >= 0).sum(1) > 0).sum())
    antecedent = estimates(ante, [(for_coders("kappa", n_coders), "nominal"),
                                  ("alpha", "nominal"), ("beta", "nominal")],
                           settings, progress=stage.next(), notes=notes)
    return coefficients, antecedent


def _option_notes(label: str, unmarked: str) -> list[str]:
    """What the label and unmarked options change in the report."""
    notes = []
    if label == "antecedent":
        notes.append("label antecedent: the set distances do not apply; only the nominal "
                     "antecedent table is reported")
    if unmarked == "singleton":
        notes.append("unmarked mentions are singletons for the coefficients; the coreference "
                     "scores compare the mentions each annotator marked")
    return notes


def _figures(metrics: Sequence[str], rpf: np.ndarray, defined: np.ndarray | None = None
             ) -> dict:
    """Recall, precision and F1 of each score (metrics × 3; with ``defined``, the number of
    documents behind each figure), and the CoNLL average."""
    out: dict = {}
    for j, m in enumerate(metrics):
        out[m] = dict(zip(("recall", "precision", "f1"), map(float, rpf[j]), strict=True))
        if defined is not None:
            out[m]["documents"] = int(defined[j])
    out["conll"] = float(np.mean([out[m]["f1"] for m in corefscores.CONLL]))
    return out


def _scores(table: corefscores.DocumentPairs, annotators: Sequence[str],
            documents: Sequence[str], figures: np.ndarray | None) -> CorefScores:
    """Micro-averaged figures per pair and over all pairs; with the ``figures`` of every
    (document, pair) (:meth:`~corpusagree.stats.corefscores.DocumentPairs.figures`), those
    and their macro means."""
    metrics = table.metrics
    key, response, inv = table.pair_index(len(annotators))
    n_docs = np.bincount(inv, minlength=len(key))
    pairs = Records(PairScores(annotators[a], annotators[b], int(n),
                               _figures(metrics, table.micro(inv == k)))
                    for k, (a, b, n) in enumerate(zip(key, response, n_docs, strict=True)))
    all_pairs = {"pairs": len(key), "documents": len(table), **_figures(metrics, table.micro())}
    if figures is None:
        return CorefScores(metrics, pairs, all_pairs, None, None, None, table)
    means, counts = corefscores.macro(figures, inv, len(key))
    macro = Records(PairScores(p.key, p.response, p.documents, _figures(metrics, m, c[:, 2]))
                    for p, m, c in zip(pairs, means, counts, strict=True))
    mean_all, count_all = corefscores.macro(figures, np.zeros(len(table), np.int64), 1)
    macro_all = {"pairs": len(key), "documents": len(table),
                 **_figures(metrics, mean_all[0], count_all[0, :, 2])}
    rows = Records(DocumentPairScores(documents[d], annotators[a], annotators[b],
                                      _figures(metrics, f))
                   for d, a, b, f in zip(table.doc, table.key, table.response, figures,
                                         strict=True))
    return CorefScores(metrics, pairs, all_pairs, macro, macro_all, rows, table)


def _undefined_scores(table: corefscores.DocumentPairs, n_annotators: int) -> list[str]:
    """A note per score that measures nothing for some pair over the whole corpus (MUC and
    BLANC: no link on either side in any document), which is printed as 0, as the reference
    scorer prints it."""
    _, _, inv = table.pair_index(n_annotators)
    n_pairs = int(inv.max()) + 1 if len(inv) else 0
    out = []
    for m in table.metrics:
        sums = np.zeros((n_pairs, corefscores.WIDTH[m]))
        np.add.at(sums, inv, table.of(m))
        n = int((~corefscores.defined(m, sums)).sum())
        if n:
            out.append(f"{SCORE_NAMES[m]}: nothing to score for {n} of {n_pairs} pair(s) (no "
                       f"{corefscores.SPECS[m].undefined} on either side in any document): "
                       "shown as 0, as the reference scorer prints it")
    return out


def _by_document(al: conv.Alignment, chains: ReliabilityData | None, ante: ReliabilityData,
                 distances: Sequence[str], table: corefscores.DocumentPairs,
                 figures: np.ndarray) -> Records[DocumentAgreement]:
    """Per document: α and β per distance on its chains, α on its antecedents, and each score's
    F1 averaged over its annotator pairs where defined."""
    f1 = corefscores.macro(figures[:, :, 2], table.doc, len(al.documents))[0]
    out: Records[DocumentAgreement] = Records()
    for d, name in enumerate(al.documents):
        mask = al.item_doc == d
        row = DocumentAgreement(name, int(al.annotated[:, d].sum()), int(mask.sum()))
        if chains is not None:
            sub = chains.subset(items=mask, compact=True)
            row.alpha = {x: _value(coef.alpha, sub, x) for x in distances}
            row.beta = {x: _value(coef.beta, sub, x) for x in distances}
        row.alpha_antecedent = _value(coef.alpha, ante.subset(items=mask, compact=True),
                                      "nominal")
        row.f1 = {s: float(f1[d, j]) for j, s in enumerate(table.metrics)}
        out.append(row)
    return out


def _value(fn, data: ReliabilityData, distance: str) -> float:
    """A coefficient's value, nan when it is undefined on these data."""
    r = quiet(fn, data, distance)
    return r if isinstance(r, float) else r.value


def _diagnostics(al: conv.Alignment, data: ReliabilityData, distance: str, n: int
                 ) -> CorefDiagnostics:
    """:func:`diagnose` on the labels, and the ``n`` most-disputed mentions with every
    annotator's label written out as mention texts."""
    diag = diagnose(data, distance, n_items=n)
    index = {name: i for i, name in enumerate(al.items)}

    def words(items: list[int]) -> str:
        """Mentions by their words, or by their token positions where the document's words
        are placeholders (ezCoref's '_')."""
        if set(al.tokens[al.item_doc[items[0]]]) - {"_"}:
            return " | ".join(al.text(i) for i in items)
        return "tokens " + " | ".join(" … ".join(f"{s + 1}–{e}" if e - s > 1 else str(e)
                                                 for s, e in al.item_fragments[i])
                                      for i in items)

    def text(label) -> str:
        if isinstance(label, list):                 # a chain: its mentions in text order
            return words(sorted(index[x] for x in label))
        return label if label == conv.NO_ANTECEDENT else words([index[label]])

    disputed = Records(DisputedMention(
        w["item"], w["group"], words([index[w["item"]]]), _context(al, index[w["item"]]),
        w["disagreement"], w["share"],
        {c: text(x) for c, x in w["labels"].items() if x is not None})
        for w in diag.worst_items)
    named = [r["category"] for r in diag.per_category["rows"]] + \
        [r["value"] for r in (diag.value_disagreement or {}).get("rows", [])]
    return CorefDiagnostics(diag, disputed, {x: words([index[x]]) for x in named
                                             if x in index})


def _context(al: conv.Alignment, item: int) -> dict | None:
    """The words around an item (:meth:`~corpusagree.convert.coref.Alignment.context`), or
    None when the document has no words (ezCoref's placeholder tokens)."""
    before, mention, after = al.context(item)
    if not set(f"{before} {mention} {after}".split()) - {"_", "…"}:
        return None
    return {"before": before, "mention": mention, "after": after}


# ---- the registration ------------------------------------------------------------------------
def _folder_parts(folder: Path) -> Iterator[Part]:
    """The coreference annotations of a sub-folder of a study folder, by document (not
    spans without chains, which the spans job takes)."""
    found = discover.coref_inputs(folder)
    if found is not None and not readers.get("coref", found.format).spans_only:
        yield Part(found, {"by_document": True})


def main_data(corpus: Corpus | Sequence[CorefAnnotation]) -> tuple[ReliabilityData, str]:
    """The data of the report's first α: chains of exactly aligned mentions (unmarked ones
    missing) under the first of :data:`DISTANCES`, the documents as groups."""
    al = conv.align(as_corpus(corpus).data)
    return conv.to_data(al, "chain", "missing"), DISTANCES[0]


#: this job's part of the JSON Schema of the report document, ``$defs/job_coref`` of
#: :func:`corpusagree.schema`: the keys of :meth:`CorefReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": "`corpusagree coref`: agreement on coreference chains.",
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": [
        "format", "documents", "annotators", "items", "alignment", "coefficients", "antecedent",
        "scores", "by_document", "diagnostics",
    ],
    "properties": {
        "options": closed_object(
            distances={"type": "array", "items": {"type": "string"}},
            match={"enum": ["exact", "head", "overlap"]},
            unmarked={"enum": ["missing", "singleton"]},
            label={"enum": ["chain", "prefix", "antecedent"]},
            singletons={"enum": ["keep", "drop"]},
            by_document={"type": "boolean"},
            diagnostics={"$ref": "#/$defs/diagnostics_option"},
            reader_options={"$ref": "#/$defs/reader_options"},
        ),
        "format": {"type": ["string", "null"]},
        "documents": {"$ref": "#/$defs/names"},
        "annotators": {"$ref": "#/$defs/names"},
        "items": {"description": "Aligned mentions.", "$ref": "#/$defs/count"},
        "alignment": closed_object(
            match={"enum": ["exact", "head", "overlap"]},
            singletons={"enum": ["keep", "drop"]},
            documents={"$ref": "#/$defs/count"},
            annotators={"$ref": "#/$defs/names"},
            items={"$ref": "#/$defs/count"},
            complete={
                "description": "Items marked by every annotator of their document.",
                "$ref": "#/$defs/count",
            },
            single={"description": "Items marked by one annotator only.", "$ref": "#/$defs/count"},
            per_annotator={
                "type": "object",
                "additionalProperties": {"$ref": "#/$defs/job_coref/$defs/alignment_counts"},
            },
        ),
        "coefficients": {
            "description": (
                "α, α′, β and B per distance on the chains (empty with label antecedent)."
            ),
            "$ref": "#/$defs/coefficients",
        },
        "antecedent": {
            "description": "κ or multi-κ, α and β on the antecedents.",
            "$ref": "#/$defs/coefficients",
        },
        "scores": closed_object(
            "The coreference scores of every annotator pair (Pradhan et al. 2014).",
            averaging={"const": "micro"},
            metrics={"type": "array", "items": {"$ref": "#/$defs/job_coref/$defs/metric"}},
            pairs={"type": "array", "items": {"$ref": "#/$defs/job_coref/$defs/pair_scores"}},
            all_pairs={"$ref": "#/$defs/job_coref/$defs/all_scores"},
            macro=nullable(
                closed_object(
                    pairs={
                        "type": "array",
                        "items": {"$ref": "#/$defs/job_coref/$defs/pair_macro_scores"},
                    },
                    all_pairs={"$ref": "#/$defs/job_coref/$defs/all_macro_scores"},
                ),
                description=(
                    "Means over the documents where defined (with --by-document), or null."
                ),
            ),
            documents=nullable(
                {"type": "array", "items": {"$ref": "#/$defs/job_coref/$defs/document_scores"}},
                description="Every (document, pair)'s scores (with --by-document), or null.",
            ),
        ),
        "by_document": nullable(
            {"type": "array", "items": {"$ref": "#/$defs/job_coref/$defs/by_document"}},
        ),
        "diagnostics": nullable(
            extends(
                "#/$defs/diagnostic_parts",
                disputed={"type": "array", "items": {"$ref": "#/$defs/job_coref/$defs/disputed"}},
            ),
        ),
    },
    "$defs": {
        "metric": {"enum": ["muc", "b_cubed", "ceaf_e", "ceaf_m", "blanc", "lea"]},
        "alignment_counts": closed_object(
            documents={"$ref": "#/$defs/count"},
            mentions={"$ref": "#/$defs/count"},
            repeated={"$ref": "#/$defs/count"},
            dropped_singletons={"$ref": "#/$defs/count"},
            unknown_members={"$ref": "#/$defs/count"},
            no_head={"$ref": "#/$defs/count"},
            merged={"$ref": "#/$defs/count"},
            several_chains={"$ref": "#/$defs/count"},
            items={"$ref": "#/$defs/count"},
            aligned={"$ref": "#/$defs/count"},
            unmatched={"$ref": "#/$defs/count"},
        ),
        "score": closed_object(
            recall={"$ref": "#/$defs/real"},
            precision={"$ref": "#/$defs/real"},
            f1={"$ref": "#/$defs/real"},
        ),
        "macro_score": closed_object(
            "A score averaged over the documents where it is defined, with their number.",
            recall={"$ref": "#/$defs/real"},
            precision={"$ref": "#/$defs/real"},
            f1={"$ref": "#/$defs/real"},
            documents={"$ref": "#/$defs/count"},
        ),
        "scores": {
            "description": "Each metric's recall, precision and F1, and the CoNLL average (open).",
            "type": "object",
            "required": ["muc", "b_cubed", "ceaf_e", "ceaf_m", "blanc", "lea", "conll"],
            "properties": {
                "muc": {"$ref": "#/$defs/job_coref/$defs/score"},
                "b_cubed": {"$ref": "#/$defs/job_coref/$defs/score"},
                "ceaf_e": {"$ref": "#/$defs/job_coref/$defs/score"},
                "ceaf_m": {"$ref": "#/$defs/job_coref/$defs/score"},
                "blanc": {"$ref": "#/$defs/job_coref/$defs/score"},
                "lea": {"$ref": "#/$defs/job_coref/$defs/score"},
                "conll": {"description": "(MUC + B³ + CEAF-e F1) / 3.", "$ref": "#/$defs/real"},
            },
        },
        "macro_scores": {
            "type": "object",
            "required": ["muc", "b_cubed", "ceaf_e", "ceaf_m", "blanc", "lea", "conll"],
            "properties": {
                "muc": {"$ref": "#/$defs/job_coref/$defs/macro_score"},
                "b_cubed": {"$ref": "#/$defs/job_coref/$defs/macro_score"},
                "ceaf_e": {"$ref": "#/$defs/job_coref/$defs/macro_score"},
                "ceaf_m": {"$ref": "#/$defs/job_coref/$defs/macro_score"},
                "blanc": {"$ref": "#/$defs/job_coref/$defs/macro_score"},
                "lea": {"$ref": "#/$defs/job_coref/$defs/macro_score"},
                "conll": {"$ref": "#/$defs/real"},
            },
        },
        "pair_scores": extends(
            "#/$defs/job_coref/$defs/scores",
            "One annotator pair (key = the first), micro-averaged over the documents they share.",
            key={"$ref": "#/$defs/name"},
            response={"$ref": "#/$defs/name"},
            documents={"$ref": "#/$defs/count"},
        ),
        "all_scores": extends(
            "#/$defs/job_coref/$defs/scores",
            "Every pair's counts summed.",
            pairs={"$ref": "#/$defs/count"},
            documents={"description": "(document, pair)s.", "$ref": "#/$defs/count"},
        ),
        "pair_macro_scores": extends(
            "#/$defs/job_coref/$defs/macro_scores",
            key={"$ref": "#/$defs/name"},
            response={"$ref": "#/$defs/name"},
            documents={"$ref": "#/$defs/count"},
        ),
        "all_macro_scores": extends(
            "#/$defs/job_coref/$defs/macro_scores",
            pairs={"$ref": "#/$defs/count"},
            documents={"$ref": "#/$defs/count"},
        ),
        "document_scores": extends(
            "#/$defs/job_coref/$defs/scores",
            document={"$ref": "#/$defs/name"},
            key={"$ref": "#/$defs/name"},
            response={"$ref": "#/$defs/name"},
        ),
        "by_document": {
            "description": (
                "α and β per distance (not with label antecedent), α on the antecedents, each "
                "score's F1 averaged over the document's pairs."
            ),
            "$ref": "#/$defs/document_row",
            "required": [
                "annotators", "items", "alpha_antecedent", "muc", "b_cubed", "ceaf_e", "ceaf_m",
                "blanc", "lea",
            ],
            "properties": {
                "annotators": {"$ref": "#/$defs/count"},
                "items": {"$ref": "#/$defs/count"},
                "alpha": {"$ref": "#/$defs/reals_by_name"},
                "beta": {"$ref": "#/$defs/reals_by_name"},
                "alpha_antecedent": {"$ref": "#/$defs/real"},
                "muc": {"$ref": "#/$defs/real"},
                "b_cubed": {"$ref": "#/$defs/real"},
                "ceaf_e": {"$ref": "#/$defs/real"},
                "ceaf_m": {"$ref": "#/$defs/real"},
                "blanc": {"$ref": "#/$defs/real"},
                "lea": {"$ref": "#/$defs/real"},
            },
            "unevaluatedProperties": False,
        },
        "disputed": closed_object(
            "A most-disputed mention, each annotator's label written out as mention texts.",
            item={"$ref": "#/$defs/name"},
            document=nullable({"$ref": "#/$defs/name"}),
            mention={"type": "string"},
            context=nullable(
                closed_object(
                    before={"type": "string"},
                    mention={"type": "string"},
                    after={"type": "string"},
                ),
                description="The words around the mention, or null where the document has none.",
            ),
            disagreement={"$ref": "#/$defs/real"},
            share={"$ref": "#/$defs/real"},
            labels={"type": "object", "additionalProperties": {"type": "string"}},
        ),
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "coref", "kinds": ("mentions",), "tasks": ("coref",),
        "help": "coreference agreement: α/β over chains, κ on antecedents, MUC/B³/...",
        "order": 30, "example": ("sample_corpora/coref/brat",)}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS, data=main_data,
               folder={"coref": _folder_parts})
