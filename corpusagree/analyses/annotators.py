"""``corpusagree annotators``: who can be trusted — models of the annotators side by side, and
the alternative annotator test for model annotators.

The input is the ``table`` job's: reliability data (a long or wide CSV/TSV table). The
annotators are fitted by each model of :mod:`corpusagree.annotators` (majority vote, Wawa,
Dawid–Skene, one-coin, GLAD, MACE); the report gives each annotator's reliability under every
model (with bootstrap intervals, clustered by document when the data have documents), the
agreement of the models' labels with each other and with a gold standard (a column of the
table, or a coder), and for each candidate (a model annotator such as an LLM, a coder of the
table left out of the models) the alternative annotator test (Calderon, Reichart & Dror 2025)
with its pairwise and leave-one-out α against the humans.

>>> from corpusagree.analyses import annotators
>>> report = annotators.analyse(annotators.read("sample_corpora/table/dialogue_acts.csv"))
>>> list(report.tables)
['models', 'reliability', 'agreement', 'labels', 'confusion']
>>> report.to_frame("reliability")[["annotator", "dawid_skene"]].round(3).head(2)
  annotator  dawid_skene
0       ann        0.844
1       bob        0.729
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from ..model import io
from ..model.corpus import Corpus
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.params import Param, checked
from ..model.progress import Progress, Stages
from ..model.records import CoderMatrix
from ..readers import discover
from ..report.document import Report
from ..report.json import closed_object, nullable
from ..report.tables import (
    Column,
    Plot,
    Record,
    Records,
    Table,
    bootstrap_caption,
    optional,
    spread,
)
from ..stats import distances as dist
from ..stats.annotators import alt_test as alt
from ..stats.annotators.annotations import Annotations
from ..stats.annotators.dawid_skene import dawid_skene, one_coin
from ..stats.annotators.glad import glad
from ..stats.annotators.mace import mace
from ..stats.annotators.result import AnnotatorModel
from ..stats.annotators.vote import majority_vote, wawa
from ..stats.coefficients import compute
from ..stats.diagnostics import pairwise_and_leave_one_out
from ..stats.inference import Bootstrap, Interval, refit_bootstrap, resampling
from . import corpora
from .base import (
    KEYWORDS,
    quiet,
    several,
)
from .jobs import Part, complete

__all__ = ["CARD", "SCHEMA", "CONFUSION", "JOB", "MODELS", "NUMERIC_SCORINGS", "PARAMS",
           "REPLICATE_GLAD_TOL", "REPORT_MODELS", "WARM", "WORST", "AnnotatorsReport", "Candidate",
           "DisputedItem", "DocumentAgreement", "ItemLabels", "ModelFit", "analyse", "as_corpus",
           "label_keys", "read"]

#: the models, by id, in the order the report shows them: name, short name (a column
#: header), the fit
MODELS = {"majority_vote": ("majority vote", "MV", majority_vote),
          "wawa": ("Wawa", "Wawa", wawa), "dawid_skene": ("Dawid–Skene", "DS", dawid_skene),
          "one_coin": ("one-coin", "1-coin", one_coin), "glad": ("GLAD", "GLAD", glad),
          "mace": ("MACE", "MACE", mace)}
#: models whose bootstrap replicates start from the fit on all data (their fits iterate long)
WARM = ("glad", "mace")
#: GLAD's tolerance in a bootstrap replicate: skills within about 1e-4 of the optimum, far
#: inside any interval (the fit on all data goes to the limit of double precision)
REPLICATE_GLAD_TOL = 1e-3
#: the models whose confusion matrices the report draws, first found first
CONFUSION = ("dawid_skene", "mace", "one_coin")
#: confusion matrices drawn: the annotators the model trusts least
WORST = 3
#: scorings of the alt-test that need numeric labels
NUMERIC_SCORINGS = {"neg_rmse", *corpora.NUMERIC}


def read(paths: str | PathLike | Sequence[str | PathLike], *, input_format: str = "auto",
         annotators: Sequence[str] | None = None, coder: str = "coder", item: str = "item",
         label: str = "label", group: str | None = None, delimiter: str | None = None,
         numeric: bool = False, categories: Sequence | None = None,
         gold: str | None = None) -> Corpus[ReliabilityData]:
    """Reliability data as the ``table`` job reads them, with an optional gold standard.

    The options are those of :func:`corpusagree.analyses.table.read`.

    Parameters
    ----------
    paths : path, or a list of one path
        A CSV/TSV file; ``-`` reads standard input (not with a gold column).
    input_format : {"auto", "long", "wide"}
        The table's layout, as :func:`corpusagree.analyses.table.read` tells them apart.
    annotators : list of str, optional
        Keep only these coders, in this order (keep the gold coder and the candidates among
        them).
    coder, item, label : str
        The columns of the long layout.
    group : str, optional
        The group column of the long layout (e.g. the document).
    delimiter : str, optional
        The field separator, one character (default: tab, comma or semicolon, from the header).
    numeric : bool
        Parse labels (and ``categories``) as numbers, for the numeric scorings and distances.
    categories : list, optional
        The declared category set.
    gold : str, optional
        The gold standard: a coder of the table, or else a column of a long table holding
        each item's gold label (its rows must agree). A column becomes a coder of that name,
        which :func:`analyse` leaves out of the models and scores them against.

    Returns
    -------
    Corpus
        ``data`` is the :class:`~corpusagree.model.data.ReliabilityData`;
        ``reader_options["gold"]`` names the gold coder.

    Raises
    ------
    InputError
        As the table job; a gold that is neither a coder nor a column, a gold column read
        from standard input (the file is read twice) or from a wide table, an item whose rows
        give two gold labels.

    Examples
    --------
    >>> from corpusagree.analyses import annotators
    >>> annotators.read("sample_corpora/table/dialogue_acts.csv", gold="dan")
    <Corpus annotators (long): 4 annotators, 278 judgements>
    """
    corpus = corpora.read_judgements(paths, job="annotators", input_format=input_format,
                                     annotators=annotators, coder=coder, item=item,
                                     label=label, group=group, delimiter=delimiter,
                                     numeric=numeric, categories=categories)
    options = dict(corpus.reader_options)
    data = corpus.data
    if gold is not None:
        data = _with_gold(data, gold, corpus, item, delimiter, numeric)
        options["gold"] = gold
    return dataclasses.replace(corpus, data=data, annotators=[str(c) for c in data.coders],
                               reader_options=options)


def _with_gold(data: ReliabilityData, gold: str, corpus: Corpus, item: str,
               delimiter: str | None, numeric: bool) -> ReliabilityData:
    """``data`` with the gold column of the file as a coder named ``gold`` (``data`` itself
    when ``gold`` is a coder)."""
    path = corpora.one_path(corpus.inputs, "annotators")
    if gold in data.coders:
        return data
    if corpus.format != "long":
        raise InputError(f"gold={gold!r}: no such coder (a wide table has no gold column); "
                         f"the coders are {', '.join(map(str, data.coders))}",
                         io.display(path))
    if str(path) == "-":
        raise InputError("gold=COLUMN reads the table twice: give a file, not standard "
                         "input (or a gold coder)")
    columns = io.table_header(path, delimiter)
    if gold not in columns:
        raise InputError(f"gold={gold!r} is neither a coder ({', '.join(map(str, data.coders))})"
                         f" nor a column ({', '.join(columns)})", io.display(path))
    values = io.item_values(path, gold, item=item, delimiter=delimiter, numeric=numeric)
    labels = list(data.labels)
    extra = sorted({v for v in values.values() if v not in set(labels)}, key=str)
    if extra:  # gold labels no annotator gave: the label table grows
        labels = labels + extra
    index = {v: k for k, v in enumerate(labels)}
    row = np.array([index[values[it]] if it in values else -1 for it in data.items],
                   np.int32)
    return ReliabilityData(np.vstack([data.codes, row[None]]), labels,
                           list(data.coders) + [gold], data.items, data.groups,
                           data.group_names, data.categories)


def as_corpus(data: Corpus | ReliabilityData) -> Corpus[ReliabilityData]:
    """A corpus of the annotators job, from what :func:`analyse` was given.

    A :class:`~corpusagree.model.corpus.Corpus` of this job or of the ``table`` job (the same
    input), or reliability data made into one: :func:`analyse` calls this first, so that it takes
    either what :func:`read` returns or reliability data made in Python.

    Parameters
    ----------
    data : Corpus or ReliabilityData
        A corpus of this job or of the ``table`` job, or reliability data made in Python.

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        For anything else (the message says what the job takes).

    Examples
    --------
    >>> from corpusagree.analyses import annotators, table
    >>> data = table.read("sample_corpora/table/dialogue_acts.csv", group="document").data
    >>> annotators.as_corpus(data)
    <Corpus annotators (python): 4 annotators, 6 documents, 278 judgements>
    """
    corpus = corpora.as_corpus(data, "annotators", {ReliabilityData: _judgements},
                               JOB.kinds)
    return corpus if corpus.job == "annotators" else dataclasses.replace(corpus,
                                                                          job="annotators")


def _judgements(data: ReliabilityData) -> Corpus[ReliabilityData]:
    return corpora.judgements_of(data, job="annotators")


# ---- the report ----------------------------------------------------------------------------
@dataclass(repr=False)
class ModelFit:
    """One model's fit in the report.

    Attributes
    ----------
    id : str
        The model (``majority_vote``, ``wawa``, ``dawid_skene``, ``one_coin``, ``glad``,
        ``mace``).
    result : AnnotatorModel
        The fitted model.
    gold_accuracy : float or None
        Its labels' accuracy against the gold (None without one).
    intervals : list of Interval or None
        Each annotator's bootstrap interval (None without a bootstrap).
    """

    id: str
    result: AnnotatorModel
    gold_accuracy: float | None = None
    intervals: list[Interval | None] | None = None

    @property
    def name(self) -> str:
        """The model's name as reports print it (``Dawid–Skene`` …)."""
        return MODELS[self.id][0]

    @property
    def short(self) -> str:
        """The model's short name, for narrow tables (``DS`` …)."""
        return MODELS[self.id][1]

    def to_dict(self) -> dict:
        """The fit as plain data (the model's settings, iterations, convergence)."""
        r = self.result
        return {"id": self.id, "name": self.name, "short": self.short,
                "skill_measure": r.skill_measure,
                "iterations": r.iterations, "converged": r.converged,
                "log_likelihood": r.log_likelihood, "gold_accuracy": self.gold_accuracy,
                "settings": {k: v for k, v in r.settings.items()
                             if k not in ("objective", "restart_log_likelihoods")}}


@dataclass(repr=False)
class Candidate:
    """A model annotator against the humans.

    Attributes
    ----------
    name : str
        The candidate coder.
    test : AltTest
        Its alternative annotator test (Calderon, Reichart & Dror 2025).
    pairwise : dict
        α of the candidate with each human.
    alpha_with, alpha_humans : float
        α of the humans with and without the candidate.
    human_pairwise : float
        The mean pairwise α of the humans.
    gold_accuracy : float or None
        The candidate's accuracy against the gold (None without one).
    """

    name: str
    test: alt.AltTest
    pairwise: dict
    alpha_with: float
    alpha_humans: float
    human_pairwise: float
    gold_accuracy: float | None = None

    def to_dict(self) -> dict:
        """The candidate's test and α as plain data."""
        return {"candidate": self.name, "alt_test": self.test.to_dict(),
                "alpha": {"with_candidate": self.alpha_with, "humans": self.alpha_humans,
                          "pairwise": self.pairwise, "human_pairwise_mean": self.human_pairwise},
                "gold_accuracy": self.gold_accuracy}


@dataclass
class ItemLabels(Record):
    """One item's label from each model (the gold's, the candidates'): a row of
    :attr:`AnnotatorsReport.item_labels`.

    Attributes
    ----------
    item : str
        The item.
    labels : dict
        Model (gold, candidate) id → its label, None where it gives none; its keys are the
        row's own (:func:`label_keys`).
    """

    item: str
    labels: dict[str, Any] = spread()


@dataclass
class DocumentAgreement(Record):
    """One document's α of the humans and each model's accuracy against the gold: a row of
    :attr:`AnnotatorsReport.by_document`.

    Attributes
    ----------
    document : str
        The document (group).
    items : int
        Its items.
    alpha : float
        α of the humans on its items, nan where undefined.
    gold_accuracy : dict or None
        Model id → the share of its items with a gold label where the model's label equals
        it (nan without any); None (and left out of the JSON) without a gold.
    """

    document: str
    items: int
    alpha: float
    gold_accuracy: dict[str, float] | None = optional()


@dataclass
class DisputedItem(Record):
    """An item the main model is least sure of: a row of :attr:`AnnotatorsReport.disputed`.

    Attributes
    ----------
    item : str
        The item.
    confidence : float
        The main model's posterior of its label.
    votes : str
        The humans' labels with their counts (``A ×3, B ×1``).
    labels : dict
        Model (gold, candidate) id → its label, as :class:`ItemLabels` has them.
    """

    item: str
    confidence: float
    votes: str
    labels: dict[str, Any] = spread()


@dataclass(repr=False, kw_only=True)
class AnnotatorsReport(Report):
    """Models of the annotators side by side and the candidates' alt-tests (see the module
    docstring).

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
    annotators : list of str
        The human annotators the models are fitted to.
    items, judgements : int
        The size of the data.
    labels : list
        The labels.
    groups : int or None
        The groups (documents) the bootstrap resamples.
    gold : str or None
        The gold column or coder, when given.
    models : list of ModelFit
        Every model fitted (:meth:`model` finds one by id).
    agreement : CoderMatrix
        How often the models' labels (the gold's, the candidates') agree with each other.
    candidates : list of Candidate
        Each candidate's alt-test and α.
    item_labels : Records of ItemLabels
        Per item, each model's label.
    annotator_gold : list of float or None
        Per annotator, the share of judgements equal to the gold label.
    by_document : Records of DocumentAgreement or None
        Per document, α of the humans and each model's gold accuracy, with ``by_document``.
    disputed : Records of DisputedItem or None
        The items the main model is least sure of, with ``diagnostics``.

    Examples
    --------
    >>> from corpusagree.analyses import annotators
    >>> corpus = annotators.read("sample_corpora/table/dialogue_acts.csv", group="document")
    >>> report = annotators.analyse(corpus, candidates=["dan"])
    >>> report.model("dawid_skene").name, report.candidates[0].test.passed
    ('Dawid–Skene', False)
    >>> list(report.tables)[:3]
    ['models', 'reliability', 'agreement']
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    annotators: list[str]
    items: int
    labels: list
    judgements: int
    groups: int | None
    gold: str | None
    models: list[ModelFit]
    agreement: CoderMatrix
    candidates: list[Candidate]
    #: per item: its name and each model's label (the gold's, the candidates')
    item_labels: Records[ItemLabels]
    #: per annotator: the share of judgements equal to the gold label (None without gold)
    annotator_gold: list[float] | None
    #: per document: items, α of the humans, each model's accuracy against the gold
    by_document: Records[DocumentAgreement] | None = None
    #: the items the main model is least sure of (``diagnostics``)
    disputed: Records[DisputedItem] | None = None
    notes: list[str] = field(default_factory=list)
    job = "annotators"

    # ---- views ----
    def model(self, id: str) -> ModelFit:
        """The fit of the model ``id`` (``dawid_skene`` …).

        Parameters
        ----------
        id : str
            A model id of ``models`` (``majority_vote``, ``dawid_skene`` …).

        Returns
        -------
        ModelFit

        Raises
        ------
        KeyError
            For a model not fitted.
        """
        for m in self.models:
            if m.id == id:
                return m
        raise KeyError(f"no model {id!r}; the models are {', '.join(m.id for m in self.models)}")

    def _reliability_rows(self) -> list[dict]:
        first = self.models[0].result
        out = []
        for a, name in enumerate(first.annotators):
            row = {"annotator": name, "judgements": int(first.judgements[a])}
            if self.annotator_gold is not None:
                row["gold_accuracy"] = self.annotator_gold[a]
            for m in self.models:
                row[m.id] = float(m.result.skill_values[a])
                if m.intervals is not None:
                    iv = m.intervals[a]
                    row[f"{m.id}_interval"] = None if iv is None else (iv.low, iv.high)
            out.append(row)
        return out

    def body(self) -> dict:
        return {"data": {"annotators": self.annotators, "items": self.items,
                         "labels": self.labels, "judgements": self.judgements,
                         "groups": self.groups, "gold": self.gold},
                "models": self.models,
                "reliability": [{k: (list(v) if isinstance(v, tuple) else v)
                                 for k, v in r.items()} for r in self._reliability_rows()],
                "agreement": self.agreement, "candidates": self.candidates,
                "labels": self.item_labels, "confusion": self._confusion_dict(),
                "by_document": self.by_document, "disputed": self.disputed}

    def summary(self) -> str:
        where = ", ".join(self.inputs) or "data"
        gold = "" if self.gold is None else f", gold {self.gold}"
        cands = "" if not self.candidates else \
            f", candidates {', '.join(c.name for c in self.candidates)}"
        return (f"{where}: {len(self.annotators)} annotators × {self.items} items, "
                f"{len(self.models)} models{gold}{cands}")

    # ---- tables ----
    def _tables(self) -> list[Table]:
        out = [self._models_table(), self._reliability_table(), self._agreement_table()]
        if self.candidates:
            out += [self._alt_table(), self._alt_humans_table()]
        if self.by_document is not None:
            out.append(self._by_document_table())
        if self.disputed is not None:
            out.append(self._disputed_table())
        out.append(self._labels_table())
        conf = self._confusion_model()
        if conf is not None:
            out.append(self._confusion_table(conf))
        return out

    def _models_table(self) -> Table:
        cols = [Column("model", "model"), Column("short", "short"),
                Column("iterations", "iterations", "int"),
                Column("converged", "converged"),
                Column("log_likelihood", "log L", "magnitude", 6),
                Column("skill", "skill", optional=True)]
        if self.gold is not None:
            cols.insert(2, Column("gold_accuracy", f"accuracy vs {self.gold}", "float"))
        rows = []
        for m in self.models:
            r = m.result
            row = [m.name, m.short, r.iterations, "yes" if r.converged else "no",
                   r.log_likelihood, r.skill_measure]
            if self.gold is not None:
                row.insert(2, m.gold_accuracy)
            rows.append(row)
        return Table("models", "Models of the annotators", cols, rows, [
            "log L: log P(judgements | fitted model), none for the votes; skill: what the "
            "model calls an annotator's reliability (the next table)"])

    def _reliability_table(self) -> Table:
        cols = [Column("annotator", "annotator"), Column("judgements", "judged", "int")]
        if self.gold is not None:
            cols.append(Column("gold_accuracy", f"vs {self.gold}", "float", 3))
        main = self._main().id
        for m in self.models:
            cols.append(Column(m.id, m.short, "float", 3))
            if m.intervals is not None:  # the main model's interval stays on a terminal
                cols.append(Column(f"{m.id}_interval", f"{m.short} CI", "interval",
                                   optional=m.id != main))
        rows = [list(r.values()) for r in self._reliability_rows()]
        notes = ["; ".join(f"{m.short}: {m.result.skill_measure}" for m in self.models)]
        if self.gold is not None:
            notes.append(f"vs {self.gold}: the share of the annotator's judgements equal to "
                         "the gold label")
        ivs = [iv for m in self.models for iv in (m.intervals or []) if iv is not None]
        if ivs:
            notes.append(_refits_caption(ivs))
        return Table("reliability", "Reliability of each annotator", cols, rows, notes)

    def _agreement_table(self) -> Table:
        names = self.agreement.names
        cols = [Column("model", "labels of")] + [Column(_ascii(k), n, "float", 3)
                                                  for k, n in zip(self._label_keys(), names,
                                                                  strict=True)]
        rows = [[n] + [None if math.isnan(v) else float(v) for v in self.agreement.values[i]]
                for i, n in enumerate(names)]
        return Table("agreement", "Agreement of the labels (share of items)", cols, rows,
                     ["the share of the items both label where their labels are equal"],
                     matrix=True)

    def _alt_table(self) -> Table:
        cols = [Column("candidate", "candidate"), Column("winning_rate", "ω", "float", 3),
                Column("advantage_probability", "ρ", "float", 3),
                Column("passed", "passed"), Column("humans", "humans", "int"),
                Column("alpha_with", "α with it", "float", 3),
                Column("alpha_humans", "α humans", "float", 3),
                Column("pairwise", "α vs humans", "float", 3, optional=True),
                Column("human_pairwise", "α humans pairs", "float", 3, optional=True)]
        rows = [[c.name, c.test.winning_rate, c.test.advantage_probability,
                 "yes" if c.test.passed else "no", len(c.test.humans), c.alpha_with,
                 c.alpha_humans, _mean(c.pairwise.values()), c.human_pairwise]
                for c in self.candidates]
        if self.gold is not None:
            cols.insert(5, Column("gold_accuracy", f"vs {self.gold}", "float", 3))
            for row, c in zip(rows, self.candidates, strict=True):
                row.insert(5, c.gold_accuracy)
        t = self.candidates[0].test
        return Table("alt_test", "Alternative annotator test", cols, rows, [
            f"ε = {t.epsilon}, FDR {t.fdr} (Benjamini–Yekutieli), scoring {t.scoring}: ω is "
            "the share of humans the candidate beats, passed when ω ≥ 0.5; ρ the probability "
            "that it aligns with the other humans at least as well as a human (Calderon, "
            "Reichart & Dror 2025)",
            f"α ({self.options['distance']}): of the humans with and without the candidate; "
            "α vs humans: the mean of its pairwise α with each human; α humans pairs: the "
            "mean pairwise α of the humans"])

    def _alt_humans_table(self) -> Table:
        cols = [Column("candidate", "candidate"), Column("human", "human"),
                Column("items", "items", "int"), Column("candidate_advantage", "ρ_f", "float",
                                                       3),
                Column("human_advantage", "ρ_h", "float", 3),
                Column("test", "test"), Column("p_value", "p", "magnitude", 3),
                Column("p_adjusted", "p (BY)", "magnitude", 3), Column("win", "wins"),
                Column("alpha", "α pair", "float", 3, optional=True)]
        rows = []
        for c in self.candidates:
            for h in c.test.humans:
                rows.append([c.name, h, c.test.items[h], c.test.candidate_advantage[h],
                             c.test.human_advantage[h], c.test.tests[h], c.test.p_values[h],
                             c.test.p_adjusted[h], "yes" if c.test.wins[h] else "no",
                             c.pairwise.get(str(h))])
            for h, why in c.test.skipped.items():
                rows.append([c.name, h, None, None, None, None, None, None, f"skipped: {why}",
                             c.pairwise.get(str(h))])
        fdr = self.candidates[0].test.fdr if self.candidates else 0.05
        return Table("alt_test_humans", "Alternative annotator test: each human", cols, rows,
                     ["ρ_f: P(the candidate aligns at least as well as the human), ρ_h: "
                      "the reverse; p: one-sided test of ρ_h − ρ_f ≥ ε, the paired t-test "
                      "(t), or Wilcoxon's signed-rank test for a human of fewer than 30 items "
                      f"(wilcoxon); p (BY): p adjusted by Benjamini–Yekutieli; wins: p (BY) ≤ "
                      f"{fdr:g}, the false discovery rate"])

    def _by_document_table(self) -> Table:
        d = self.options["distance"]
        cols = [Column("document", "document"), Column("items", "items", "int"),
                Column("alpha", f"α ({d})", "float", 3)]
        if self.gold is not None:
            cols += [Column(m.id, m.short, "float", 3) for m in self.models]
        rows = [[r["document"], r["items"], r["alpha"]] +
                ([r["gold_accuracy"][m.id] for m in self.models] if self.gold is not None
                 else []) for r in self.by_document]
        notes = ["α of the humans on the document's items"]
        if self.gold is not None:
            notes.append(f"model columns: the share of the document's items with a gold label "
                         f"({self.gold}) where the model's label equals it")
        return Table("by_document", "By document", cols, rows, notes)

    def _label_keys(self) -> list[str]:
        return label_keys([m.id for m in self.models], self.gold,
                          [c.name for c in self.candidates])

    def _label_columns(self) -> list[Column]:
        return [Column(_ascii(k), n, "label")
                for k, n in zip(self._label_keys(), self.agreement.names, strict=True)]

    def _disputed_table(self) -> Table:
        main = self._main()
        keys = ["item", "confidence", "votes"] + self._label_keys()
        cols = [Column("item", "item"),
                Column("confidence", f"P ({main.short})", "float", 3),
                Column("votes", "votes")] + self._label_columns()
        return Table("disputed", f"The items {main.name} is least sure of", cols,
                     [[r[k] for k in keys] for r in self.disputed],
                     [f"P: {main.name}'s posterior of its label; votes: the humans' labels "
                      "with their counts"])

    def _labels_table(self) -> Table:
        keys = ["item"] + self._label_keys()
        cols = [Column("item", "item")] + self._label_columns()
        return Table("labels", "The label of each item", cols,
                     [[r[k] for k in keys] for r in self.item_labels],
                     ["each model's most probable label (ties: the smallest label)"],
                     terminal=False)

    def _confusion_model(self) -> ModelFit | None:
        return next((m for i in CONFUSION for m in self.models if m.id == i), None)

    def _confusion_dict(self) -> dict | None:
        m = self._confusion_model()
        if m is None:
            return None
        r = m.result
        return {"model": m.id, "labels": r.label_names,
                "annotators": {str(a): r.confusion_values[i]
                               for i, a in enumerate(r.annotators)
                               if not np.isnan(r.confusion_values[i]).all()}}

    def _confusion_table(self, m: ModelFit) -> Table:
        r = m.result
        rows = [[a, t, g, float(r.confusion_values[i, j, k])]
                for i, a in enumerate(r.annotators)
                if not np.isnan(r.confusion_values[i]).all()
                for j, t in enumerate(r.label_names) for k, g in enumerate(r.label_names)]
        return Table("confusion", f"Confusion matrices ({m.name})", [
            Column("annotator", "annotator"), Column("true", "true label", "label"),
            Column("given", "given label", "label"),
            Column("probability", "P(given | true)", "float")], rows, terminal=False)

    def _main(self) -> ModelFit:
        """The model the report draws: Dawid–Skene when fitted, else the first."""
        return next((x for x in self.models if x.id == "dawid_skene"), self.models[0])

    # ---- plots ----
    def plots(self) -> list[Plot]:
        out = []
        m = self._main()
        r = m.result
        ok = [a for a in range(len(r.annotators)) if math.isfinite(r.skill_values[a])]
        order = sorted(ok, key=lambda a: r.skill_values[a])
        ivs = m.intervals
        out.append(Plot("reliability", f"Reliability of each annotator: {m.name}", "bars", {
            "labels": [str(r.annotators[a]) for a in order],
            "values": [float(r.skill_values[a]) for a in order],
            "low": [None if not ivs or ivs[a] is None else ivs[a].low for a in order],
            "high": [None if not ivs or ivs[a] is None else ivs[a].high for a in order],
            "label": r.skill_measure},
            [_refits_caption([i for i in ivs if i is not None])] if ivs else []))
        c = self._confusion_model()
        if c is not None:
            rc = c.result
            ok = [a for a in range(len(rc.annotators)) if math.isfinite(rc.skill_values[a])]
            for a in sorted(ok, key=lambda a: rc.skill_values[a])[:WORST]:
                names = [str(v) for v in rc.label_names]
                out.append(Plot(f"confusion-{a}", f"{rc.annotators[a]}: confusion matrix "
                                f"({c.name}, rows the true label, columns the given one; "
                                f"skill {rc.skill_values[a]:.3f})", "confusion", {
                                    "rows": names, "columns": names,
                                    "values": rc.confusion_values[a].tolist(), "vmin": 0.0,
                                    "vmax": 1.0, "label": "P(given | true)"}))
        return out


def _ascii(name: str) -> str:
    """A column key for a name (the tables' keys are ASCII)."""
    key = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "_-") else "_"
                  for ch in str(name))
    return key or "_"


def _mean(values) -> float:
    v = np.array([x for x in values if x is not None], float)
    v = v[np.isfinite(v)]
    return float(v.mean()) if len(v) else float("nan")


def _refits_caption(ivs: Sequence[Interval]) -> str:
    return (f"{ivs[0].level:.0%} {bootstrap_caption(ivs)}; each replicate fits the models "
            "again (GLAD and MACE from their fit on all the data)")


# ---- the analysis ---------------------------------------------------------------------------
#: the keywords of :func:`analyse`, which it checks first (the command line's types and
#: choices are made from the same table)
PARAMS = (
    *KEYWORDS,
    several("models", none=True),
    Param("gold", str, none=True),
    several("candidates"),
    Param("epsilon", float, low=0),
    Param("fdr", float, low=0, high=1, closed="neither"),
    Param("seed", int, low=0, none=True),
)


@checked(*PARAMS, where="annotators.analyse()")
def analyse(corpus: Corpus | ReliabilityData, *, models: Sequence[str] | None = None,
            gold: str | None = None, candidates: Sequence[str] = (), epsilon: float = 0.2,
            fdr: float = 0.05, scoring: str | dist.Distance = "accuracy",
            distance: str | dist.Distance = "nominal", seed: int | None = 0,
            bootstrap: Bootstrap | None = None, by_document: bool = False,
            diagnostics: int | None = None, progress: Progress | None = None
            ) -> AnnotatorsReport:
    """Models of the annotators side by side, and the alt-test of each candidate.

    Parameters
    ----------
    corpus : Corpus or ReliabilityData
        What :func:`read` (or the table job's ``read``) returned, or reliability data.
    models : list of str, optional
        Model ids (``majority_vote``, ``wawa``, ``dawid_skene``, ``one_coin``, ``glad``,
        ``mace``); default all.
    gold : str, optional
        The gold coder (default: the one :func:`read` was given); left out of the models,
        which are scored against it.
    candidates : list of str
        Coders to test as replacements of the humans (left out of the models).
    epsilon, fdr : float
        The alt-test's margin ε (0.2) and false discovery rate (0.05) —
        :func:`corpusagree.annotators.alt_test`.
    scoring : str or Distance
        The alt-test's alignment scoring: ``"accuracy"``, ``"neg_rmse"`` or a distance.
    distance : str or Distance
        The distance of the candidates' α (nominal).
    seed : int, optional
        The seed of MACE's random restarts.
    bootstrap : Bootstrap, optional
        Intervals of every annotator's skill under every model: each replicate resamples
        the documents (the items when there are fewer than two) and fits the models again,
        GLAD and MACE from their fit on all the data (MACE's 50 iterations without random
        restarts; GLAD to a gradient of 1e-3 per judgement). A replicate without an
        annotator's judgements gives no value for that annotator.
    by_document : bool
        Per document (the group column): its items, α of the humans and, with a gold, each
        model's accuracy against it.
    diagnostics : int, optional
        The N items the main model (Dawid–Skene when fitted) is least sure of, with the
        humans' votes and every model's label.
    progress : callable, optional
        ``progress(done, total)`` over the fits and replicates.

    Returns
    -------
    AnnotatorsReport

    Raises
    ------
    InputError
        An unknown model, gold or candidate; fewer than two annotators left to model; an
        alt-test the data cannot support (too few humans or items).

    Examples
    --------
    >>> from corpusagree.analyses import annotators
    >>> report = annotators.analyse(annotators.read(
    ...     "sample_corpora/table/dialogue_acts.csv", gold="ann"), candidates=["dan"],
    ...     models=["majority_vote", "dawid_skene"], epsilon=0.2)
    >>> round(report.model("dawid_skene").gold_accuracy, 3), report.candidates[0].test.passed
    (0.681, True)
    """
    corpus = as_corpus(corpus)
    data = corpus.data
    notes = list(corpus.notes)
    ids = _model_ids(models)
    gold = gold if gold is not None else corpus.reader_options.get("gold")
    source = ", ".join(corpus.inputs) or None
    coders = list(data.coders)
    cands = list(dict.fromkeys(str(c) for c in candidates))
    _check_coders(coders, gold, cands, source)
    index = {str(c): k for k, c in enumerate(coders)}
    out_of_models = set(cands) | ({gold} if gold is not None else set())
    humans = [k for k, c in enumerate(coders) if str(c) not in out_of_models]
    human_data, ann = _humans(data, humans, bool(out_of_models), source)
    settings = resampling(bootstrap, human_data.groups, notes, cluster="document")
    stages = Stages(progress, [len(ids), settings.n_resamples if settings else 0, len(cands)])
    fits = _fit(ann, ids, seed, stages.next())
    gold_codes = None if gold is None else data.codes[index[gold]]
    model_fits = [ModelFit(i, fits[i], _gold_accuracy(ann, fits[i], gold_codes)) for i in ids]
    if settings is not None:
        _intervals(ann, model_fits, seed, settings, stages.next())
    else:
        stages.skip()
    notes += _left_out_notes(gold, cands)
    report_candidates = _candidates(data, humans, cands, epsilon, fdr, scoring, distance,
                                    gold_codes, stages.next(), source)
    agreement, item_labels = _labels(data, ann, model_fits, gold, gold_codes,
                                     [index[c] for c in cands])
    options = {"models": ids, "gold": gold, "candidates": cands, "epsilon": epsilon,
               "fdr": fdr, "scoring": scoring if isinstance(scoring, str) else scoring.name,
               "distance": distance if isinstance(distance, str) else distance.name,
               "seed": seed, "reader_options": dict(corpus.reader_options)}
    options.update(by_document=by_document, diagnostics=diagnostics)
    docs = None
    if by_document:
        if human_data.group_names is None:
            notes.append("no documents (a group column): nothing to report by document")
        else:
            docs = _by_document(human_data, ann, model_fits, gold_codes, distance)
    disputed = None if diagnostics is None else \
        _disputed(human_data, ann, model_fits, item_labels, diagnostics)
    return AnnotatorsReport(
        inputs=list(corpus.inputs), options=options, bootstrap=settings,
        annotators=[str(human_data.coders[a]) for a in ann.annotators], items=ann.n_items,
        labels=list(ann.label_names), judgements=ann.n,
        groups=None if human_data.group_names is None else len(human_data.group_names),
        gold=gold, models=model_fits, agreement=agreement, candidates=report_candidates,
        item_labels=item_labels, annotator_gold=_annotator_gold(human_data, gold_codes),
        by_document=docs, disputed=disputed, notes=notes,
    )


def _model_ids(models: Sequence[str] | None) -> list[str]:
    """The models asked for, each once (default: all); an error naming an unknown one."""
    ids = list(MODELS) if models is None else list(dict.fromkeys(models))
    unknown = [m for m in ids if m not in MODELS]
    if unknown or not ids:
        raise InputError(f"unknown model(s) {', '.join(unknown) or '(none)'}; the models are "
                         f"{', '.join(MODELS)}")
    return ids


def _check_coders(coders: Sequence, gold: str | None, cands: Sequence[str],
                  source: str | None) -> None:
    """An error, said of the inputs, for a gold coder or a candidate the data lack, or a
    gold coder that is also a candidate."""
    for what, names in (("gold coder", [gold] if gold is not None else []),
                        ("candidate", cands)):
        for n in names:
            try:
                alt.coder_index([str(c) for c in coders], n, what)
            except InputError as e:
                raise InputError(e.message, source) from None
    if gold is not None and gold in cands:
        raise InputError(f"{gold!r} is the gold standard and a candidate", source)


def _humans(data: ReliabilityData, humans: list[int], left_out: bool, source: str | None
            ) -> tuple[ReliabilityData, Annotations]:
    """The data of the annotators the models fit (``left_out``: a gold coder or candidates
    were set aside), and their annotations; an error when fewer than two of them judged."""
    human_data = data.subset(coders=humans)
    judged = (human_data.codes >= 0).any(axis=1)  # the humans with judgements
    if left_out and not human_data.is_set and judged.any() and judged.sum() < 2:
        left = ", ".join(str(c) for c in human_data.coders) or "none"
        raise InputError("models of the annotators need judgements from at least 2 "
                         f"annotators besides the gold and the candidates; left: {left}",
                         source)
    try:
        return human_data, Annotations.from_data(human_data)
    except InputError as e:
        raise InputError(e.message, source) from None


def _left_out_notes(gold: str | None, cands: Sequence[str]) -> list[str]:
    """Notes naming the gold coder and the candidates, left out of the models."""
    notes = []
    if gold is not None:
        notes.append(f"{gold}: the gold standard, left out of the models")
    if cands:
        notes.append(f"{', '.join(cands)}: {'candidates' if len(cands) > 1 else 'a candidate'}"
                     ", left out of the models")
    return notes


def _fit(ann: Annotations, ids: Sequence[str], seed: int | None, progress: Progress | None,
         start: dict | None = None) -> dict[str, AnnotatorModel]:
    """Each model fitted to ``ann`` (GLAD and MACE from ``start``'s fits when given)."""
    out = {}
    for n, i in enumerate(ids):
        fn = MODELS[i][2]
        kw: dict = {}
        if i == "mace":
            kw["seed"] = seed
        if start is not None and i in WARM:
            kw["start"] = start[i]
            if i == "glad":
                kw["tol"] = REPLICATE_GLAD_TOL
        out[i] = fn(ann, **kw)
        if progress is not None:
            progress(n + 1, len(ids))
    return out


def _intervals(ann: Annotations, fits: list[ModelFit], seed: int | None, settings: Bootstrap,
               progress: Progress | None) -> None:
    """Every annotator's skill under every model, refitted on each replicate."""
    start = {m.id: m.result for m in fits}
    ids = [m.id for m in fits]
    A = len(fits[0].result.annotators)

    def skills(weights: np.ndarray) -> np.ndarray:
        refit = _fit(ann.reweighted(weights), ids, seed, None, start)
        return np.concatenate([refit[i].skill_values for i in ids])

    data = ann.data
    clustered = settings.cluster is not False and data.groups is not None
    unit_of = data.groups if clustered else np.arange(data.n_items)
    names = [(i, str(a)) for i in ids for a in fits[0].result.annotators]
    found = refit_bootstrap(skills, unit_of, settings, names, clustered=clustered,
                            progress=progress)
    for k, m in enumerate(fits):
        m.intervals = found[k * A:(k + 1) * A]


def _gold_accuracy(ann: Annotations, fit: AnnotatorModel, gold: np.ndarray | None
                   ) -> float | None:
    """The share of the items with a gold label and a model label where the two agree."""
    if gold is None:
        return None
    data_codes = np.where(fit.codes >= 0, ann.labels[np.maximum(fit.codes, 0)], -1)
    both = (gold >= 0) & (data_codes >= 0)
    return float((data_codes[both] == gold[both]).mean()) if both.any() else float("nan")


def _annotator_gold(data: ReliabilityData, gold: np.ndarray | None) -> list | None:
    """Per coder of ``data``, the share of their judgements (of items with a gold label)
    equal to the gold label."""
    if gold is None:
        return None
    judged = (data.codes >= 0) & (gold >= 0)[None, :]
    hits = (data.codes == gold[None, :]) & judged
    n = judged.sum(1)
    return [float(h / k) if k else float("nan") for h, k in zip(hits.sum(1), n, strict=True)]


def label_keys(model_ids: Sequence[str], gold: str | None, candidates: Sequence[str]
               ) -> list[str]:
    """The keys of an item's labels in the report: the model ids, ``gold``, the candidates'
    names (``candidate_<name>`` where a name is taken)."""
    keys = list(model_ids) + (["gold"] if gold is not None else [])
    return keys + [c if c not in keys and c != "item" else f"candidate_{c}"
                   for c in candidates]


def _labels(data: ReliabilityData, ann: Annotations, fits: list[ModelFit], gold: str | None,
            gold_codes: np.ndarray | None, candidates: list[int]
            ) -> tuple[CoderMatrix, Records[ItemLabels]]:
    """(the agreement of the models' labels, the gold's and the candidates' (named by the
    models' short names and the coders' names), the labels of every item as records keyed
    by :func:`label_keys`)."""
    names, codes = [], []
    for m in fits:
        c = m.result.codes
        names.append(m.short)
        codes.append(np.where(c >= 0, ann.labels[np.maximum(c, 0)], -1))
    if gold_codes is not None:
        names.append(str(gold))
        codes.append(gold_codes)
    for k in candidates:
        names.append(str(data.coders[k]))
        codes.append(data.codes[k])
    keys = label_keys([m.id for m in fits], gold,
                      [str(data.coders[k]) for k in candidates])
    C = np.array(codes)
    n = len(names)
    M = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(n):
            both = (C[i] >= 0) & (C[j] >= 0)
            if both.any():
                M[i, j] = float((C[i][both] == C[j][both]).mean())
    labels = data.labels
    rows = Records(ItemLabels(it, dict(zip(keys, [labels[c] if c >= 0 else None
                                                  for c in C[:, i]], strict=True)))
                   for i, it in enumerate(data.items))
    return CoderMatrix(names, M), rows


def _by_document(data: ReliabilityData, ann: Annotations, fits: list[ModelFit],
                 gold: np.ndarray | None, distance) -> Records[DocumentAgreement]:
    """Per document: items, α of the humans, each model's accuracy against the gold."""
    out: Records[DocumentAgreement] = Records()
    codes = {m.id: np.where(m.result.codes >= 0, ann.labels[np.maximum(m.result.codes, 0)],
                            -1) for m in fits}
    for g, name in enumerate(data.group_names):
        mask = data.groups == g
        a = quiet(compute, "alpha", data.subset(items=mask, compact=True), distance)
        row = DocumentAgreement(name, int(mask.sum()), a if isinstance(a, float) else a.value)
        if gold is not None:
            both = {i: mask & (gold >= 0) & (c >= 0) for i, c in codes.items()}
            row.gold_accuracy = {i: float((codes[i][b] == gold[b]).mean()) if b.any()
                                 else float("nan") for i, b in both.items()}
        out.append(row)
    return out


def _disputed(data: ReliabilityData, ann: Annotations, fits: list[ModelFit],
              item_labels: Records[ItemLabels], n: int) -> Records[DisputedItem]:
    """The ``n`` items the main model's label is least probable on (ties: more distinct
    labels among the models first), with the humans' votes and every label."""
    main = next((m for m in fits if m.id == "dawid_skene"), fits[0]).result
    judged = np.flatnonzero(main.codes >= 0)
    conf = main.posterior[judged, main.codes[judged]]
    order = judged[np.argsort(conf, kind="stable")[:n]]
    out: Records[DisputedItem] = Records()
    for i in order.tolist():
        row = data.codes[:, i]
        votes = np.bincount(row[row >= 0], minlength=data.n_labels)
        text = ", ".join(f"{data.labels[k]} ×{int(votes[k])}"
                         for k in np.argsort(-votes, kind="stable") if votes[k])
        out.append(DisputedItem(data.items[i], float(main.posterior[i, main.codes[i]]), text,
                                dict(item_labels[i].labels)))
    return out


def _candidates(data: ReliabilityData, humans: list[int], cands: list[str], epsilon: float,
                fdr: float, scoring, distance, gold: np.ndarray | None,
                progress: Progress | None, source: str | None) -> list[Candidate]:
    """Each candidate's alt-test against the humans, and its α."""
    out = []
    coders = [str(c) for c in data.coders]
    for n, name in enumerate(cands):
        k = coders.index(name)
        sub = data.subset(coders=humans + [k])
        try:
            test = alt.alt_test(sub, sub.coders[-1], epsilon=epsilon, fdr=fdr,
                                scoring=scoring)
        except InputError as e:
            raise InputError(f"the alt-test of {name!r}: {e.message}", source) from None
        h = len(humans)
        _, pairs, loo = quiet(pairwise_and_leave_one_out, sub, "alpha", distance)
        P = np.asarray(pairs.values)
        pairwise = {str(sub.coders[j]): float(P[h, j]) for j in range(h)}
        r, s = np.triu_indices(h, 1)
        # leave the candidate out: α of the humans; its change is α with it less that
        humans_only = loo[h]["value"]
        with_all = humans_only - loo[h]["change"]
        acc = None
        if gold is not None:
            both = (gold >= 0) & (data.codes[k] >= 0)
            acc = float((gold[both] == data.codes[k][both]).mean()) if both.any() else \
                float("nan")
        out.append(Candidate(name, test, pairwise, with_all, humans_only, _mean(P[r, s]),
                             acc))
        if progress is not None:
            progress(n + 1, len(cands))
    return out


# ---- the registration ------------------------------------------------------------------------
def _folder_parts(folder: Path) -> Iterator[Part]:
    """Every reliability-data file of categories in a sub-folder of a study folder (the models
    of the annotators are models of categories: numeric marks are left to the table job;
    a table of repeated runs is left to the table job too),
    with the models that fit in seconds (:data:`REPORT_MODELS`; GLAD and MACE, slow under the
    bootstrap, are the job's own)."""
    for f in discover.table_files(folder):
        found = discover.table_inputs(f)
        if found.analysis.get("distance", "nominal") == "nominal" and \
                "run" not in found.reader_options:  # a model of repeated runs: not yet
            yield Part(found, {"models": list(REPORT_MODELS)})


#: the models ``report FOLDER`` fits (``corpusagree annotators`` fits every one)
REPORT_MODELS = ("majority_vote", "wawa", "dawid_skene", "one_coin")


#: this job's part of the JSON Schema of the report document, ``$defs/job_annotators`` of
#: :func:`corpusagree.schema`: the keys of :meth:`AnnotatorsReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": (
        "`corpusagree annotators`: models of the annotators side by side, and the alternative "
        "annotator test of the candidates."
    ),
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": [
        "data", "models", "reliability", "agreement", "candidates", "labels", "confusion",
        "by_document", "disputed",
    ],
    "properties": {
        "options": closed_object(
            models={"type": "array", "items": {"$ref": "#/$defs/job_annotators/$defs/model"}},
            gold={
                "description": "The gold standard's coder (or column), or null.",
                "type": ["string", "null"],
            },
            candidates={"type": "array", "items": {"type": "string"}},
            epsilon={"type": "number"},
            fdr={"type": "number"},
            scoring={"type": "string"},
            distance={"type": "string"},
            seed={"type": ["integer", "null"]},
            by_document={"type": "boolean"},
            diagnostics={"$ref": "#/$defs/diagnostics_option"},
            reader_options={"$ref": "#/$defs/reader_options"},
        ),
        "data": closed_object(
            annotators={
                "description": "The annotators modelled (not the gold, not the candidates).",
                "$ref": "#/$defs/names",
            },
            items={"$ref": "#/$defs/count"},
            labels={"type": "array", "items": {"$ref": "#/$defs/label"}},
            judgements={"$ref": "#/$defs/count"},
            groups=nullable({"$ref": "#/$defs/count"}),
            gold={"type": ["string", "null"]},
        ),
        "models": {
            "type": "array",
            "items": closed_object(
                id={"$ref": "#/$defs/job_annotators/$defs/model"},
                name={"type": "string"},
                short={"type": "string"},
                skill_measure={
                    "description": "What a reliability of the model is.",
                    "type": "string",
                },
                iterations={"$ref": "#/$defs/count"},
                converged={"type": "boolean"},
                log_likelihood={"$ref": "#/$defs/real"},
                gold_accuracy={
                    "description": "Its labels against the gold, or null without one.",
                    "$ref": "#/$defs/real",
                },
                settings={
                    "description": "The fit's settings (free-form: they differ by model).",
                    "type": "object",
                },
            ),
        },
        "reliability": {
            "description": (
                "Each annotator's reliability under each model (keyed by the model's id), with "
                "its interval (<id>_interval: [low, high]) when bootstrapped, and the share of "
                "judgements equal to the gold."
            ),
            "type": "array",
            "items": {
                "type": "object",
                "required": ["annotator", "judgements"],
                "properties": {
                    "annotator": {"$ref": "#/$defs/name"},
                    "judgements": {"$ref": "#/$defs/count"},
                    "gold_accuracy": {"$ref": "#/$defs/real"},
                },
                "patternProperties": {
                    "^(majority_vote|wawa|dawid_skene|one_coin|glad|mace)$": {
                        "$ref": "#/$defs/real",
                    },
                    "^(majority_vote|wawa|dawid_skene|one_coin|glad|mace)_interval$": nullable(
                        {
                            "type": "array",
                            "items": {"$ref": "#/$defs/real"},
                            "minItems": 2,
                            "maxItems": 2,
                        },
                    ),
                },
                "additionalProperties": False,
            },
        },
        "agreement": {
            "description": (
                "The share of items on which two of the models, the gold and the candidates give "
                "the same label (named by the models' short names and the coders' names)."
            ),
            "$ref": "#/$defs/coder_matrix",
        },
        "candidates": {
            "type": "array",
            "items": closed_object(
                candidate={"type": "string"},
                alt_test=closed_object(
                    "The alternative annotator test (Calderon, Reichart & Dror 2025).",
                    candidate={"type": "string"},
                    epsilon={"type": "number"},
                    fdr={"type": "number"},
                    scoring={"type": "string"},
                    winning_rate={"$ref": "#/$defs/real"},
                    advantage_probability={"$ref": "#/$defs/real"},
                    passed={"type": "boolean"},
                    humans={
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": [
                                "human", "items", "candidate_advantage", "human_advantage", "t",
                                "p_value", "win",
                            ],
                            "properties": {
                                "human": {"$ref": "#/$defs/name"},
                                "items": {"$ref": "#/$defs/count"},
                                "candidate_advantage": {"$ref": "#/$defs/real"},
                                "human_advantage": {"$ref": "#/$defs/real"},
                                "test": {
                                    "description": (
                                        "The test of the human's items: the paired t-test (t), "
                                        "or Wilcoxon's signed-rank test below min_items "
                                        "(wilcoxon)."
                                    ),
                                    "enum": ["t", "wilcoxon"],
                                },
                                "t": {
                                    "description": "The t statistic; null for Wilcoxon's test.",
                                    "$ref": "#/$defs/real",
                                },
                                "p_value": {"$ref": "#/$defs/real"},
                                "p_adjusted": {
                                    "description": (
                                        "The p-value adjusted by Benjamini–Yekutieli: the human "
                                        "is beaten (win) when it is at most fdr."
                                    ),
                                    "$ref": "#/$defs/real",
                                },
                                "win": {"type": "boolean"},
                            },
                            "additionalProperties": False,
                        },
                    },
                    skipped={
                        "type": "array",
                        "items": closed_object(
                            human={"$ref": "#/$defs/name"},
                            reason={"type": "string"},
                        ),
                    },
                ),
                alpha=closed_object(
                    with_candidate={"$ref": "#/$defs/real"},
                    humans={"$ref": "#/$defs/real"},
                    pairwise={
                        "description": "α of the candidate with each human.",
                        "$ref": "#/$defs/reals_by_name",
                    },
                    human_pairwise_mean={"$ref": "#/$defs/real"},
                ),
                gold_accuracy=nullable({"$ref": "#/$defs/real"}),
            ),
        },
        "labels": {
            "description": (
                "Every item's label under each model (keyed by its id), the gold's (gold) and "
                "each candidate's (its name)."
            ),
            "type": "array",
            "items": {"$ref": "#/$defs/job_annotators/$defs/item_labels"},
        },
        "confusion": nullable(
            closed_object(
                model={"$ref": "#/$defs/job_annotators/$defs/model"},
                labels={"type": "array", "items": {"$ref": "#/$defs/label"}},
                annotators={"type": "object", "additionalProperties": {"$ref": "#/$defs/matrix"}},
            ),
            description=(
                "One model's confusion matrix of each annotator, P(given | true), rows the true "
                "label; or null."
            ),
        ),
        "by_document": nullable(
            {
                "type": "array",
                "items": {
                    "$ref": "#/$defs/document_row",
                    "required": ["items", "alpha"],
                    "properties": {
                        "items": {"$ref": "#/$defs/count"},
                        "alpha": {"$ref": "#/$defs/real"},
                        "gold_accuracy": {"$ref": "#/$defs/reals_by_name"},
                    },
                    "unevaluatedProperties": False,
                },
            },
            description=(
                "Per document: items, α of the humans, each model's accuracy against the gold "
                "(with one); or null."
            ),
        ),
        "disputed": nullable(
            {
                "type": "array",
                "items": {
                    "$ref": "#/$defs/job_annotators/$defs/item_labels",
                    "required": ["confidence", "votes"],
                    "properties": {
                        "confidence": {"$ref": "#/$defs/real"},
                        "votes": {"description": "label ×count, …", "type": "string"},
                    },
                },
            },
            description=(
                "The items the main model is least sure of (with --diagnostics), with the "
                "humans' votes and every label; or null."
            ),
        ),
    },
    "$defs": {
        "model": {"enum": ["majority_vote", "wawa", "dawid_skene", "one_coin", "glad", "mace"]},
        "item_labels": {
            "type": "object",
            "required": ["item"],
            "properties": {"item": {"$ref": "#/$defs/name"}},
            "additionalProperties": {"$ref": "#/$defs/label"},
        },
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "annotators", "kinds": ("judgements",), "tasks": ("table",),
        "help": "who to trust: models of the annotators, the alt-test of a model", "order": 20,
        "example": ("sample_corpora/table/dialogue_acts.csv", "--group", "document")}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS, folder={"table": _folder_parts})
