"""``corpusagree ratings``: agreement on numeric scores (people's, a model's).

Reads the ``table`` job's long and wide files with numeric labels and reports the intraclass
correlations of Shrout & Fleiss (1979) as ``psych::ICC`` prints them, with the form that fits
the design marked and why (McGraw & Wong 1996: are the coders a sample or the only ones, is
it consistency or absolute agreement, one coder's score or the mean), read on Koo & Li's
(2016) bands as a convention; Lin's concordance correlation and Bland & Altman's limits of
agreement per coder pair, or of each coder against a ``reference`` (one coder, or the mean of
a group); Kendall's W; Krippendorff's α under the interval and ratio distances; the chosen
ICC without each coder in turn; and, with a bootstrap, intervals of the ICCs clustered by the
group column (documents) when there is one.

>>> from corpusagree.analyses import ratings
>>> report = ratings.analyse(ratings.read("sample_corpora/ratings/essays.csv"))
>>> report.chosen["form"], round(report.chosen["value"], 3)
('ICC(A,1)', 0.76)
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

import numpy as np

from ..model.corpus import Corpus
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.params import Param, checked
from ..model.progress import Progress
from ..readers import discover
from ..report.document import Report
from ..report.json import closed_object, nullable
from ..report.tables import Column, Plot, Record, Records, Table
from ..stats import distances as dist
from ..stats import interpret, runs
from ..stats.concordance import bland_altman, ccc
from ..stats.icc import icc, icc_bootstrap, icc_table
from ..stats.inference import Bootstrap, resampling
from ..stats.kendall import kendall_w
from ..stats.scores import Scores, as_scores, listwise_note
from . import corpora
from .base import KEYWORDS, Estimate, by_run_table, estimate_table, estimates, retest_table
from .jobs import Part, complete

__all__ = ["CARD", "SCHEMA", "JOB", "PARAMS", "CoderLeftOut", "CoderRetest", "DisputedScores",
           "GroupICC", "IccForm", "PairAgreement", "RatingsReport", "Repeated", "RunICC",
           "analyse", "read"]


def read(paths: str | PathLike | Sequence[str | PathLike], *, input_format: str = "auto",
         annotators: Sequence[str] | None = None, coder: str = "coder", item: str = "item",
         label: str = "label", group: str | None = None, delimiter: str | None = None,
         run: str | None = None) -> Corpus[ReliabilityData]:
    """Numeric scores from a long table (columns ``coder``, ``item``, ``label`` — the score —
    and an optional ``group`` column such as the document) or a wide coder × item table.

    The parameters are those of :func:`corpusagree.analyses.table.read`; the labels are
    always read as numbers (a cell that is not one is an InputError naming the file, the line
    and the value). ``run``: the column of repeated runs (the same coder scoring the same
    items again, a model judge run several times): the corpus's data are then
    :class:`Repeated`, whose ``means`` (each coder's mean over their runs) the agreement
    between coders is measured on.

    Parameters
    ----------
    paths : path, or a list of one path
        A CSV/TSV file; ``-`` reads standard input.
    input_format : {"auto", "long", "wide"}
        The layout (``auto``: from the header).
    annotators : list of str, optional
        Keep only these coders, in this order.
    coder, item, label, group : str
        The columns of the long layout (``label``: the score; ``group``: e.g. the document).
    delimiter : str, optional
        The field separator, one character.
    run : str, optional
        The column of repeated runs.

    Returns
    -------
    Corpus

    Examples
    --------
    >>> from corpusagree.analyses import ratings
    >>> ratings.read("sample_corpora/ratings/essays.csv", group="document")
    <Corpus ratings (long): 4 annotators, 10 documents, 318 judgements>
    """
    if run is None:
        return corpora.read_judgements(paths, job="ratings", input_format=input_format,
                                       annotators=annotators, coder=coder, item=item,
                                       label=label, group=group, delimiter=delimiter,
                                       numeric=True)
    name, runs, groups, options = corpora.read_runs(
        paths, job="ratings", run=run, input_format=input_format, annotators=annotators,
        coder=coder, item=item, label=label, group=group, delimiter=delimiter, numeric=True)
    options.pop("numeric")  # ratings.read reads numbers always
    rep = Repeated.of(runs, groups)
    corpus = corpora.judgements_of(rep.means, "long", [name], options, "ratings")
    corpus.data = rep
    return corpus


@dataclass(repr=False)
class Repeated:
    """Scores with repeated runs: coders × runs × items, NaN where a coder gave no score in
    a run.

    Attributes
    ----------
    values : numpy.ndarray
        Shape (coders, runs, items).
    coders, runs, items : list of str
    means : ReliabilityData
        Each coder's mean score of each item over their runs.
    groups : dict or None
        item → group (document).

    Examples
    --------
    >>> rep = Repeated.of({"1": [("a", "x", 1), ("a", "y", 2)], "2": [("a", "x", 2)]})
    >>> rep.values.shape, rep.means.n_items
    ((1, 2, 2), 2)
    """

    values: np.ndarray
    coders: list
    runs: list
    items: list
    means: ReliabilityData
    groups: dict | None = None

    @classmethod
    def of(cls, runs: dict, groups: dict | None = None) -> Repeated:
        """From run → (coder, item, score) triples.

        Parameters
        ----------
        runs : dict
            Each run's (coder, item, score) triples.
        groups : dict, optional
            The item → group map.

        Returns
        -------
        Repeated
        """
        coders = list(dict.fromkeys(c for ts in runs.values() for c, _, _ in ts))
        items = list(dict.fromkeys(i for ts in runs.values() for _, i, _ in ts))
        ci, ii = {c: k for k, c in enumerate(coders)}, {i: k for k, i in enumerate(items)}
        values = np.full((len(coders), len(runs), len(items)), np.nan)
        for r, ts in enumerate(runs.values()):
            if ts:
                c, i, v = zip(*ts, strict=True)
                values[[ci[x] for x in c], r, [ii[x] for x in i]] = np.asarray(v, float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            mean = np.nanmean(values, axis=1)
        c, i = np.nonzero(~np.isnan(mean))
        means = ReliabilityData.from_triples(
            [(coders[a], items[b], float(mean[a, b])) for a, b in zip(c, i, strict=True)],
            groups=groups)
        return cls(values, coders, [str(r) for r in runs], items, means, groups)


#: McGraw & Wong's (1996) questions, answer → what it says about the design
WHY = {"oneway": "each item has its own coders (one-way model)",
       "random": "the coders are a sample of the coders who could have scored (two-way "
                 "random)",
       "fixed": "the coders are the only ones of interest (two-way mixed)",
       "agreement": "absolute agreement: a coder who scores higher throughout counts",
       "consistency": "consistency: a coder's constant offset does not count",
       "single": "the reliability of one coder's score",
       "average": "the reliability of the mean of the coders' scores"}


def _chosen_row(coders: str, type: str, unit: str) -> str:
    """psych's name (ICC1 … ICC3k) of the Shrout & Fleiss row the design asks for."""
    if coders == "oneway":
        name = "ICC1"
    elif type == "agreement":
        name = "ICC2"  # absolute agreement: the same estimate for random and fixed coders
    else:
        name = "ICC3"
    return name + ("k" if unit == "average" else "")


@dataclass(frozen=True)
class IccForm(Record):
    """One of Shrout & Fleiss's six ICCs in ``psych::ICC``'s columns
    (:meth:`corpusagree.stats.icc.IccTable.to_dict`): a row of :attr:`RatingsReport.icc`.

    Attributes
    ----------
    type : str
        psych's name: ``ICC1``, ``ICC2``, ``ICC3``, ``ICC1k``, ``ICC2k`` or ``ICC3k``.
    ICC : float
        The ICC, nan where undefined.
    F, df1, df2, p : float
        The F test of ICC = 0.
    lower, upper : float
        The F-based confidence interval (psych's convention).
    form : str
        McGraw & Wong's (1996) name, ``ICC(A,1)`` …
    shrout_fleiss : str
        Shrout & Fleiss's (1979) name, ``ICC(2,1)`` …
    chosen : bool
        The form of the design (``coders``, ``type``, ``unit``).
    boot_low, boot_high : float or None
        The bootstrap interval over items (or groups), None without a bootstrap.
    """

    type: str
    ICC: float
    F: float
    df1: float
    df2: float
    p: float
    lower: float
    upper: float
    form: str
    shrout_fleiss: str
    chosen: bool
    boot_low: float | None = None
    boot_high: float | None = None


@dataclass
class PairAgreement(Record):
    """Lin's concordance and Bland & Altman's limits of agreement of two coders (x − y) on
    the items both scored: a row of :attr:`RatingsReport.pairs`.

    Attributes
    ----------
    x, y : str
        The coders (x the reference, when there is one).
    ccc, ccc_low, ccc_high : float
        ρ_c and its z-transform interval (Lin 1989).
    pearson : float
        Pearson's r.
    bias, sd : float
        The mean and the standard deviation of the differences x − y.
    lower, upper : float
        The limits of agreement.
    bias_low, bias_high : float
        The bias's confidence interval.
    slope, slope_p : float
        The regression of the difference on the pair's mean, and its p value.
    items, left_out : int
        Items both scored, and items only one of the two scored.
    notes : list of str
        What a reader must know, each prefixed with ``x − y``.
    """

    x: str
    y: str
    ccc: float
    ccc_low: float
    ccc_high: float
    pearson: float
    bias: float
    sd: float
    lower: float
    upper: float
    bias_low: float
    bias_high: float
    slope: float
    slope_p: float
    items: int
    left_out: int
    notes: list[str]


@dataclass
class CoderLeftOut(Record):
    """The chosen ICC without one coder: a row of :attr:`RatingsReport.leave_one_out`.

    Attributes
    ----------
    coder : str
        The coder left out.
    value : float
        The ICC of the others, nan where undefined.
    change : float
        Its difference from the ICC of every coder (positive: the coder lowers it).
    """

    coder: str
    value: float
    change: float


@dataclass
class DisputedScores(Record):
    """An item whose scores spread most: a row of :attr:`RatingsReport.disputed`.

    Attributes
    ----------
    item : str
        The item.
    sd : float
        The standard deviation of its scores.
    low, high : float
        Its lowest and highest score.
    scores : int
        The scores it got.
    """

    item: str
    sd: float
    low: float
    high: float
    scores: int


@dataclass
class CoderRetest(Record):
    """One coder's test–retest ICC(A,1) over its runs: a row of :attr:`RatingsReport.retest`.

    Attributes
    ----------
    coder : str
        The coder.
    runs : int
        Its runs.
    items : int
        The items every one of its runs scored.
    value : float
        ICC(A,1) of its runs as raters, nan with fewer than two items.
    low, high : float
        Its F-based confidence interval (McGraw & Wong 1996, Tables 7 and 8).
    changed : float
        The share of those items whose score changed between runs.
    """

    coder: str
    runs: int
    items: int
    value: float
    low: float
    high: float
    changed: float


@dataclass
class RunICC(Record):
    """The chosen ICC of the coders in one run: a row of :attr:`RatingsReport.by_run`.

    Attributes
    ----------
    run : str
        The run.
    items : int
        The items every coder of the run scored.
    value : float
        The chosen ICC, nan where undefined.
    low, high : float
        Its confidence interval.
    """

    run: str
    items: int
    value: float
    low: float
    high: float


@dataclass
class GroupICC(Record):
    """The chosen ICC of one group's (a document's) items: a row of
    :attr:`RatingsReport.by_group`.

    Attributes
    ----------
    group : str
        The group (document).
    items : int
        Its items.
    value : float
        The chosen ICC of its items scored by every coder, nan where undefined (fewer than
        two such items).
    """

    group: str
    items: int
    value: float


@dataclass(repr=False, kw_only=True)
class RatingsReport(Report):
    """Agreement on numeric scores (see the module docstring).

    Attributes
    ----------
    coders, items, judgements, missing : int
        The size of the data.
    groups : int or None
        The groups (documents), when the data have a group column.
    icc : Records of IccForm
        The six Shrout & Fleiss rows (psych's columns), the chosen one marked.
    chosen : dict
        The ICC of the design (McGraw & Wong's form, in ``convention``), why, and its reading
        on Koo & Li's bands.
    pairs : Records of PairAgreement
        CCC and Bland–Altman per coder pair (or against the reference).
    kendall : dict
        Kendall's W with χ², df and p.
    coefficients : Records
        Krippendorff's α (interval, ratio) as :class:`Estimate` s.
    leave_one_out : Records of CoderLeftOut
        The chosen ICC without each coder.
    inputs : list of str
        The paths read.
    options : dict
        The options of the analysis and of the reader, as the JSON records them.
    bootstrap : Bootstrap or None
        The bootstrap settings, None without intervals.
    notes : list of str
        What a reader of the report must know.
    by_group : Records of GroupICC or None
        With ``by_document``: the chosen ICC of each group's items.
    disputed : Records of DisputedScores or None
        With ``diagnostics=N``: the N items whose scores spread most.
    retest : Records of CoderRetest or None
        With repeated runs: each coder's test–retest ICC(A,1) over their runs.
    by_run : Records of RunICC or None
        With repeated runs: the chosen ICC between coders in each run.
    points : list
        Each pair's scores on the items both scored, for the plots.

    Examples
    --------
    >>> from corpusagree.analyses import ratings
    >>> report = ratings.analyse(ratings.read("sample_corpora/ratings/essays.csv"))
    >>> report.coders, report.chosen["form"] is not None
    (4, True)
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    notes: list[str]
    coders: int
    items: int
    judgements: int
    missing: int
    groups: int | None
    icc: Records[IccForm]
    chosen: dict
    pairs: Records[PairAgreement]
    kendall: dict
    coefficients: Records[Estimate]
    leave_one_out: Records[CoderLeftOut]
    #: with ``by_document``: the chosen ICC of each group's items (None otherwise)
    by_group: Records[GroupICC] | None = None
    #: with ``diagnostics=N``: the N items whose scores spread most (None otherwise)
    disputed: Records[DisputedScores] | None = None
    #: with repeated runs: each coder's test–retest ICC(A,1) over their runs (None otherwise)
    retest: Records[CoderRetest] | None = None
    #: with repeated runs: the chosen ICC between coders in each run (None otherwise)
    by_run: Records[RunICC] | None = None
    #: each pair's scores on the items both scored (x, y), for the plots
    points: list = field(default_factory=list)
    job = "ratings"

    def body(self) -> dict:
        return {"data": {"coders": self.coders, "items": self.items,
                         "judgements": self.judgements, "missing": self.missing,
                         "groups": self.groups},
                "icc": self.icc, "chosen": self.chosen, "pairs": self.pairs,
                "kendall": self.kendall, "coefficients": self.coefficients,
                "leave_one_out": self.leave_one_out, "by_group": self.by_group,
                "disputed": self.disputed, "retest": self.retest, "by_run": self.by_run}

    def summary(self) -> str:
        where = ", ".join(self.inputs) or "data"
        groups = "" if self.groups is None else f" in {self.groups} groups"
        return (f"{where}: {self.coders} coders × {self.items} items{groups}, "
                f"{self.missing} missing scores")

    def _tables(self) -> list[Table]:
        out = [self._icc_table(), self._pairs_table(), self._kendall_table(),
               estimate_table("coefficients", "Krippendorff's α of the scores",
                              self.coefficients)]
        if self.leave_one_out:
            out.append(self._leave_one_out_table())
        if self.by_group is not None:
            out.append(self._by_group_table())
        if self.retest is not None:
            out.append(self._retest_table())
        if self.by_run is not None:
            out.append(self._by_run_table())
        if self.disputed is not None:
            out.append(self._disputed_table())
        return out

    def _icc_table(self) -> Table:
        c = self.chosen
        iv = "bootstrap interval" if any(r.get("boot_low") is not None for r in self.icc) \
            else None
        cols = [Column("type", "ICC"), Column("form", "form"), Column("mark", ""),
                Column("value", "value", "float", 3), Column("interval", "F interval",
                                                             "interval", 3),
                Column("f", "F", "float", 2, optional=True),
                Column("df1", "df1", "float", 0, optional=True),
                Column("df2", "df2", "float", 1, optional=True),
                Column("p", "p", "magnitude", 2, optional=True)]
        if iv:
            cols.append(Column("boot", iv, "interval", 3))
        rows = [[r["type"], r["form"], "◀ design" if r["chosen"] else "", r["ICC"],
                 (r["lower"], r["upper"]), r["F"], r["df1"], r["df2"], r["p"]]
                + ([(r["boot_low"], r["boot_high"])] if iv else []) for r in self.icc]
        reading = c["reading"] or "undefined"
        return Table("icc", "Intraclass correlations (Shrout & Fleiss 1979; psych's "
                     "convention)", cols, rows,
                     [f"design: {c['form']} = {c['value']:.3f}, F interval "
                      f"[{c['low']:.3f}, {c['high']:.3f}] ({c['convention']} convention): "
                      f"{c['why']}",
                      f"reading: {reading}; on the interval: {c['interval_reading']}",
                      "Koo & Li ask that the band be read off the interval; bands are a "
                      "convention, not a verdict"])

    def _pairs_table(self) -> Table:
        return Table("pairs", "Concordance (Lin 1989) and limits of agreement (Bland & "
                     "Altman 1999), x − y", [
                         Column("x", "x"), Column("y", "y"),
                         Column("ccc", "CCC", "float", 3),
                         Column("ccc_interval", "CCC interval", "interval", 3),
                         Column("pearson", "r", "float", 3, optional=True),
                         Column("bias", "bias", "float", 3),
                         Column("limits", "limits of agreement", "interval", 3),
                         Column("items", "items", "int", optional=True)],
                     [[r["x"], r["y"], r["ccc"], (r["ccc_low"], r["ccc_high"]),
                       r["pearson"], r["bias"], (r["lower"], r["upper"]), r["items"]]
                      for r in self.pairs],
                     sorted({n for r in self.pairs for n in r["notes"]}))

    def _kendall_table(self) -> Table:
        k = self.kendall
        return Table("kendall", "Kendall's W (ranks of the items by each coder)", [
            Column("w", "W", "float", 3), Column("chi2", "χ²", "float", 2),
            Column("df", "df", "int"), Column("p", "p", "magnitude", 2),
            Column("items", "items", "int")],
            [[k["value"], k["chi2"], k["df"], k["p_value"], k["items"]]], list(k["notes"]))

    def _leave_one_out_table(self) -> Table:
        return Table("leave_one_out", f"{self.chosen['form']} without each coder", [
            Column("coder", "left out"), Column("value", "value", "float", 3),
            Column("change", "change", "float", 3)],
            [[r["coder"], r["value"], r["change"]] for r in self.leave_one_out])

    def _by_group_table(self) -> Table:
        form = self.chosen["form"]
        return Table("by_group", f"{form} per group", [
            Column("group", "group"), Column("items", "items", "int"),
            Column("value", form, "float", 3)],
            [[r["group"], r["items"], r["value"]] for r in self.by_group],
            ["nan: undefined in the group (fewer than 2 complete items, or constant "
             "scores)"] if any(math.isnan(r["value"]) for r in self.by_group) else [])

    def _retest_table(self) -> Table:
        return retest_table(
            "Each coder with itself across runs (test–retest ICC(A,1))", self.retest,
            [(Column("value", "ICC(A,1)", "float", 3), lambda r: r["value"]),
             (Column("interval", "F interval", "interval", 3),
              lambda r: (r["low"], r["high"]))], "score")

    def _by_run_table(self) -> Table:
        form = self.chosen["form"]
        return by_run_table(
            f"{form} between coders in each run", self.by_run,
            [(Column("value", form, "float", 3), lambda r: r["value"]),
             (Column("interval", "F interval", "interval", 3),
              lambda r: (r["low"], r["high"]))])

    def _disputed_table(self) -> Table:
        return Table("disputed", "Items whose scores spread most", [
            Column("item", "item"), Column("sd", "SD", "float", 2),
            Column("low", "lowest", "float", 2), Column("high", "highest", "float", 2),
            Column("scores", "scores", "int")],
            [[r["item"], r["sd"], r["low"], r["high"], r["scores"]]
             for r in self.disputed])

    def plots(self) -> list[Plot]:
        out = []
        for r, (x, y) in zip(self.pairs, self.points, strict=True):
            key = f"{r['x']}_{r['y']}"
            out.append(Plot(f"bland_altman_{key}", f"Bland–Altman: {r['x']} − {r['y']}",
                            "bland_altman", {"x": x, "y": y, "bias": r["bias"],
                                             "lower": r["lower"], "upper": r["upper"],
                                             "names": (r["x"], r["y"])}))
            out.append(Plot(f"scatter_{key}", f"{r['y']} against {r['x']}", "scatter",
                            {"x": x, "y": y, "names": (r["x"], r["y"])}))
        return out


#: the keywords of :func:`analyse`
PARAMS = (
    *KEYWORDS,
    Param("coders", str, choices=("random", "fixed", "oneway")),
    Param("type", str, choices=("agreement", "consistency")),
    Param("unit", str, choices=("single", "average")),
    Param("convention", str, choices=("irr", "psych")),
    Param("reference", str, none=True),
    Param("confidence", float, low=0, high=1, closed="neither"),
)


@checked(*PARAMS, where="ratings.analyse()")
def analyse(corpus: Corpus | ReliabilityData, *, coders: str = "random",
            type: str = "agreement", unit: str = "single", convention: str = "irr",
            reference: str | None = None, confidence: float = 0.95,
            bootstrap: Bootstrap | None = None, by_document: bool = False,
            diagnostics: int | None = None, progress: Progress | None = None
            ) -> RatingsReport:
    """Agreement on numeric scores: the ICC forms, CCC, Bland–Altman, Kendall's W, α.

    Parameters
    ----------
    corpus : Corpus or ReliabilityData
        What :func:`read` returned, or reliability data with numeric labels.
    coders : {"random", "fixed", "oneway"}
        McGraw & Wong's first question: the coders are a sample (``random``, the default),
        the only ones of interest (``fixed``), or each item has its own (``oneway``).
    type : {"agreement", "consistency"}
        Absolute agreement (default) or consistency.
    unit : {"single", "average"}
        One coder's score (default) or the mean of the coders'.
    convention : {"irr", "psych"}
        The F test and interval of the chosen form (:func:`corpusagree.icc`).
    reference : str, optional
        CCC and Bland–Altman of each other coder against this coder, or against the mean of
        a group given as comma-separated coders (``ann,bob,cat``); default: every pair.
    confidence : float
        The coverage of the F, z and t intervals.
    bootstrap : Bootstrap, optional
        Bootstrap intervals of the ICCs and of α, clustered by the groups (documents).
    by_document : bool
        The chosen ICC of each group's (document's) items as well.
    diagnostics : int, optional
        The N items whose scores spread most (their standard deviation across coders).
    progress : callable, optional
        ``progress(done, total)`` as the bootstrap advances.

    Returns
    -------
    RatingsReport

    Raises
    ------
    InputError
        A score that is not a number, one coder, an item scored once, an unknown reference.

    References
    ----------
    .. [1] McGraw, K. O. and Wong, S. P. (1996). Forming inferences about some intraclass
       correlation coefficients. Psychological Methods 1(1), 30–46; Figure 1 (the questions).
    .. [2] Koo, T. K. and Li, M. Y. (2016). A guideline of selecting and reporting intraclass
       correlation coefficients for reliability research. J. Chiropr. Med. 15(2), 155–163.

    Examples
    --------
    >>> from corpusagree.analyses import ratings
    >>> corpus = ratings.read("sample_corpora/ratings/essays.csv")
    >>> report = ratings.analyse(corpus, reference="ann,bob,cat")
    >>> [(r["x"], r["y"]) for r in report.pairs]
    [('mean(ann,bob,cat)', 'model')]
    """
    corpus = _as_corpus(corpus)
    repeated = corpus.data if isinstance(corpus.data, Repeated) else None
    data = corpus.data if repeated is None else repeated.means
    notes = list(corpus.notes)
    with _located(", ".join(corpus.inputs) or None):
        scores = as_scores(data, "ratings")
        keep, complete = _complete(scores, notes)
        model = "oneway" if coders == "oneway" else "twoway"
        row = _chosen_row(coders, type, unit)
        icc_rows, chosen_icc, w = _icc_forms(complete.values, model, type, unit, convention,
                                             confidence, row, notes)
        groups = None if data.groups is None else data.groups[keep]
        settings = resampling(bootstrap, groups, notes, cluster="group")
        if settings is not None:
            icc_rows = _icc_intervals(complete.values, icc_rows, settings, groups, progress)
        chosen = _chosen(chosen_icc, coders, type, unit, row)
        pairs, points = _pairs(scores, reference, confidence)
        alphas = _alphas(data, settings, notes)
        loo = _leave_one_out(complete.values, scores.coders, model, type, unit,
                             chosen_icc.value)
        if not loo:
            notes.append("leave-one-coder-out needs 3 coders or more")
        by_group = None if not by_document or data.group_names is None else \
            _by_group(complete.values, groups, data.group_names, model, type, unit)
        disputed = None if diagnostics is None else _disputed(scores, diagnostics)
        retest = by_run = None
        if repeated is not None:
            notes.append("between coders: each coder's mean over their runs")
            retest, by_run = _runs(repeated, model, type, unit, confidence, notes)
    options = {"coders": coders, "type": type, "unit": unit, "convention": convention,
               "reference": reference, "confidence": confidence,
               "by_document": by_document, "diagnostics": diagnostics,
               "reader_options": dict(corpus.reader_options)}
    return RatingsReport(
        inputs=list(corpus.inputs), options=options, bootstrap=settings, notes=notes,
        coders=data.n_coders, items=data.n_items,
        judgements=int((data.codes >= 0).sum()), missing=int((data.codes < 0).sum()),
        groups=None if data.group_names is None else len(data.group_names),
        icc=icc_rows, chosen=chosen, pairs=pairs, kendall=w.to_dict(), coefficients=alphas,
        leave_one_out=loo, by_group=by_group, disputed=disputed, retest=retest,
        by_run=by_run, points=points)


@contextmanager
def _located(source: str | None) -> Iterator[None]:
    """A ``ValueError`` of the statistics as an :class:`InputError` naming the input (an
    :class:`InputError` without a file gets ``source``)."""
    try:
        yield
    except ValueError as e:
        if isinstance(e, InputError):
            if e.path is None and source is not None:
                raise InputError(e.message, source) from None
            raise
        raise InputError(str(e), source) from None


def _complete(scores: Scores, notes: list[str]) -> tuple[np.ndarray, Scores]:
    """The items every coder scored (the ICC and W need them; a note says how many are left
    out), as a mask and as scores; an error when fewer than two are left."""
    keep = ~np.isnan(scores.values).any(axis=0)
    complete = Scores(scores.values[:, keep], scores.coders,
                      [scores.items[i] for i in np.flatnonzero(keep)])
    if complete.values.shape[1] < 2:
        raise InputError(f"ratings: {int(keep.sum())} of {keep.size} items are scored by "
                         "every coder; the ICC needs 2 or more")
    note = listwise_note(int((~keep).sum()), keep.size)
    if note:
        notes.append(f"ICC, Kendall's W: {note}")
    return keep, complete


def _icc_forms(values: np.ndarray, model: str, type: str, unit: str, convention: str,
               confidence: float, row: str, notes: list[str]):
    """Every ICC form (rows of the table, the chosen one marked), the chosen form's result
    under ``convention`` and Kendall's W, of complete scores."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = icc_table(values, confidence=confidence)
        chosen_icc = icc(values, model=model, type=type, unit=unit, confidence=confidence,
                         convention=convention)
        w = kendall_w(values)
    notes += [n for n in table.notes if n not in notes]
    icc_rows = Records(IccForm(**d, form=r.form, shrout_fleiss=r.shrout_fleiss, chosen=t == row)
                       for t, r, d in zip(table.types, table.rows, table.to_dict(), strict=True))
    return icc_rows, chosen_icc, w


def _alphas(data: ReliabilityData, settings: Bootstrap | None, notes: list[str]) -> Records:
    """α under the interval distance, and under the ratio one when every score is positive
    (else a note)."""
    positive = (np.asarray(data.labels, float) > 0).all()
    alphas = estimates(data, [("alpha", dist.get("interval")), ("alpha", dist.get("ratio"))]
                       if positive else [("alpha", dist.get("interval"))], settings, notes=notes)
    if not positive:
        notes.append("α (ratio) left out: it needs positive scores")
    return alphas


def _as_corpus(data: Corpus | ReliabilityData) -> Corpus[ReliabilityData]:
    return corpora.as_corpus(data, "ratings",
                             {ReliabilityData: lambda d: corpora.judgements_of(
                                 d, job="ratings"), Repeated: _repeated_corpus}, JOB.kinds)


def _repeated_corpus(rep: Repeated) -> Corpus:
    corpus = corpora.judgements_of(rep.means, job="ratings")
    corpus.data = rep
    return corpus


def _chosen(r, coders: str, type: str, unit: str, row: str) -> dict:
    """The form the design asks for, why, and its reading on Koo & Li's bands."""
    why = [WHY[coders]] + ([] if coders == "oneway" else [WHY[type]]) + [WHY[unit]]
    if coders == "fixed" and type == "agreement":
        why.append("Shrout & Fleiss have no fixed-coder form of absolute agreement: its "
                   "value is ICC2's")
    reading = interpret.interpret(r.value, interpret.KOO_LI)
    return {"form": r.form, "row": row, "value": r.value, "low": r.interval.low,
            "high": r.interval.high, "f": r.f, "df1": r.df1, "df2": r.df2,
            "p_value": r.p_value, "convention": r.convention, "why": "; ".join(why),
            "reading": None if reading is None else str(reading),
            "interval_reading": "undefined" if math.isnan(r.value) else
            interpret.interpret_interval(r.interval.low, r.interval.high, interpret.KOO_LI)}


def _icc_intervals(values: np.ndarray, rows: Records[IccForm], settings: Bootstrap,
                   groups: np.ndarray | None, progress: Progress | None) -> Records[IccForm]:
    """The six ICCs with their bootstrap intervals: the items (or their groups) drawn with
    replacement, the ICCs refitted on each replicate (:func:`~corpusagree.stats.icc.
    icc_bootstrap`)."""
    clustered = bool(settings.cluster is not False and groups is not None
                     and len(np.unique(groups)) > 1)
    unit_of = groups if clustered else np.arange(values.shape[1])
    ivs = icc_bootstrap(values, unit_of, settings, clustered=clustered, progress=progress)
    return Records(dataclasses.replace(r, boot_low=iv.low, boot_high=iv.high)
                   for r, iv in zip(rows, ivs, strict=True))


def _reference(scores: Scores, reference: str) -> tuple[str, np.ndarray, list[int]]:
    """The reference's name, its scores, and the indices of the coders compared with it."""
    group = [c.strip() for c in reference.split(",") if c.strip()]
    names = [str(c) for c in scores.coders]
    lost = [c for c in group if c not in names]
    if lost:
        raise InputError(f"reference coder{'s' * (len(lost) > 1)} not found: "
                         f"{', '.join(lost)}; the coders are {', '.join(names)}")
    idx = [names.index(c) for c in group]
    others = [i for i in range(len(names)) if i not in idx]
    if not others:
        raise InputError("the reference holds every coder: nothing is left to compare")
    if len(idx) == 1:
        return names[idx[0]], scores.values[idx[0]], others
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an item none of the group scored
        mean = np.nanmean(scores.values[idx], axis=0)
    return f"mean({','.join(group)})", mean, others


def _pairs(scores: Scores, reference: str | None, confidence: float
           ) -> tuple[Records[PairAgreement], list]:
    """CCC and Bland–Altman of every pair, or of each coder against the reference, and the
    pairs' scores (for the plots)."""
    names = [str(c) for c in scores.coders]
    if reference is None:
        pairs = [(names[a], scores.values[a], names[b], scores.values[b])
                 for a in range(len(names)) for b in range(a + 1, len(names))]
    else:
        ref, values, others = _reference(scores, reference)
        pairs = [(ref, values, names[b], scores.values[b]) for b in others]
    out, points = Records(), []
    for x, vx, y, vy in pairs:
        both = ~(np.isnan(vx) | np.isnan(vy))
        either = int((~(np.isnan(vx) & np.isnan(vy))).sum())
        two = {x: vx[both], y: vy[both]}  # the items both scored
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            c = ccc(two, confidence=confidence)
            ba = bland_altman(two, confidence=confidence)
        out.append(PairAgreement(
            x, y, c.value, c.interval.low, c.interval.high, c.pearson, ba.bias, ba.sd,
            ba.lower, ba.upper, ba.bias_interval.low, ba.bias_interval.high, ba.slope,
            ba.slope_p, c.items, either - c.items,
            [f"{x} − {y}: {n}" for n in dict.fromkeys(c.notes + ba.notes)]))
        points.append((vx[both].tolist(), vy[both].tolist()))
    return out, points


def _leave_one_out(values: np.ndarray, coders: Sequence, model: str, type: str, unit: str,
                   full: float) -> Records[CoderLeftOut]:
    """The chosen ICC without each coder in turn (3 coders or more)."""
    out: Records[CoderLeftOut] = Records()
    if values.shape[0] < 3:
        return out
    for j, name in enumerate(coders):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = icc(np.delete(values, j, axis=0), model=model, type=type, unit=unit).value
        out.append(CoderLeftOut(str(name), v, v - full))
    return out


def _runs(rep: Repeated, model: str, type: str, unit: str, confidence: float,
          notes: list[str]) -> tuple[Records[CoderRetest], Records[RunICC]]:
    """Each coder with itself across runs, and the coders with each other in each run."""
    scored = ~np.isnan(rep.values)  # coders × runs × items
    retest: Records[CoderRetest] = Records()
    for w in runs.within(scored):
        name = rep.coders[w.coder]
        if w.uneven:
            notes.append(runs.uneven_note(name, "test–retest ICC", "scored"))
        v = rep.values[w.coder][np.ix_(w.runs, w.items)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = icc(v, confidence=confidence) if v.shape[1] >= 2 else None
        retest.append(CoderRetest(str(name), len(w.runs), v.shape[1],
                                  math.nan if r is None else r.value,
                                  math.nan if r is None else r.interval.low,
                                  math.nan if r is None else r.interval.high, runs.changed(v)))
    by_run: Records[RunICC] = Records()
    for run, take in zip(rep.runs, runs.members(scored.any(axis=2)), strict=True):
        who = np.flatnonzero(take >= 0)
        v = rep.values[who, take[who]]
        keep = ~np.isnan(v).any(axis=0)
        value = low = high = math.nan
        if len(who) >= 2 and keep.sum() >= 2:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = icc(v[:, keep], model=model, type=type, unit=unit,
                          confidence=confidence)
            value, low, high = res.value, res.interval.low, res.interval.high
        by_run.append(RunICC(run, int(keep.sum()), value, low, high))
    return retest, by_run


def _by_group(values: np.ndarray, groups: np.ndarray, names: Sequence, model: str, type: str,
              unit: str) -> Records[GroupICC]:
    """The chosen ICC of each group's complete items (nan where undefined)."""
    out: Records[GroupICC] = Records()
    for g, name in enumerate(names):
        mask = groups == g
        v = math.nan
        if mask.sum() >= 2:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                v = icc(values[:, mask], model=model, type=type, unit=unit).value
        out.append(GroupICC(str(name), int(mask.sum()), v))
    return out


def _disputed(scores: Scores, n: int) -> Records[DisputedScores]:
    """The ``n`` items whose scores have the largest standard deviation across coders."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sd = np.nanstd(scores.values, axis=0, ddof=1)
    order = np.argsort(-sd, kind="stable")[:n]
    return Records(DisputedScores(str(scores.items[i]), float(sd[i]),
                                  float(np.nanmin(scores.values[:, i])),
                                  float(np.nanmax(scores.values[:, i])),
                                  int(scores.rated[:, i].sum())) for i in order)


# ---- the registration ------------------------------------------------------------------------
def _folder_parts(folder: Path) -> Iterator[Part]:
    """Every reliability-data file of a sub-folder whose labels are all numbers."""
    for f in discover.table_files(folder):
        found = discover.table_inputs(f)
        if found.reader_options.get("numeric"):  # ratings.read reads numbers always
            options = {k: v for k, v in found.reader_options.items() if k != "numeric"}
            yield Part(dataclasses.replace(found, reader_options=options))


def _judgement_parts(folder: Path) -> Iterator[Part]:
    """The numeric judgements of the platforms' exports in a sub-folder (Label Studio's
    rating and number controls, Argilla's rating questions, a dataset's numeric column)."""
    for found in discover.judgement_inputs(folder)[0]:
        if found.analysis.get("distance") == "interval":
            yield Part(found)


#: this job's part of the JSON Schema of the report document, ``$defs/job_ratings`` of
#: :func:`corpusagree.schema`: the keys of :meth:`RatingsReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": (
        "`corpusagree ratings`: agreement on numeric scores (ICC, CCC, Bland–Altman, Kendall's "
        "W, α)."
    ),
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": [
        "data", "icc", "chosen", "pairs", "kendall", "coefficients", "leave_one_out", "by_group",
        "disputed", "retest", "by_run",
    ],
    "properties": {
        "options": closed_object(
            coders={
                "description": (
                    "McGraw & Wong's first question: the coders a sample (random), the only ones "
                    "(fixed), or each item its own (oneway)."
                ),
                "enum": ["random", "fixed", "oneway"],
            },
            type={"enum": ["agreement", "consistency"]},
            unit={"enum": ["single", "average"]},
            convention={
                "description": "The F test and interval of the chosen form: R's irr or psych.",
                "enum": ["irr", "psych"],
            },
            reference={
                "description": (
                    "The reference coder, or a comma-separated group whose mean is the "
                    "reference, or null (every pair)."
                ),
                "type": ["string", "null"],
            },
            confidence={"type": "number"},
            by_document={"type": "boolean"},
            diagnostics={"$ref": "#/$defs/diagnostics_option"},
            reader_options={"$ref": "#/$defs/reader_options"},
        ),
        "data": closed_object(
            coders={"$ref": "#/$defs/count"},
            items={"$ref": "#/$defs/count"},
            judgements={"$ref": "#/$defs/count"},
            missing={"$ref": "#/$defs/count"},
            groups=nullable({"$ref": "#/$defs/count"}),
        ),
        "icc": {
            "description": (
                "Shrout & Fleiss's six rows as psych::ICC prints them; `chosen` marks the "
                "design's; boot_low/boot_high the bootstrap interval (null without one)."
            ),
            "type": "array",
            "items": closed_object(
                type={"enum": ["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"]},
                ICC={"$ref": "#/$defs/real"},
                F={"$ref": "#/$defs/real"},
                df1={"$ref": "#/$defs/real"},
                df2={"$ref": "#/$defs/real"},
                p={"$ref": "#/$defs/real"},
                lower={"$ref": "#/$defs/real"},
                upper={"$ref": "#/$defs/real"},
                form={"type": "string"},
                shrout_fleiss={"type": ["string", "null"]},
                chosen={"type": "boolean"},
                boot_low={"$ref": "#/$defs/real"},
                boot_high={"$ref": "#/$defs/real"},
            ),
        },
        "chosen": closed_object(
            (
                "The ICC the design asks for (McGraw & Wong's form, in the convention), why, and "
                "its reading on Koo & Li's (2016) bands."
            ),
            form={"type": "string"},
            row={"type": "string"},
            value={"$ref": "#/$defs/real"},
            low={"$ref": "#/$defs/real"},
            high={"$ref": "#/$defs/real"},
            f={"$ref": "#/$defs/real"},
            df1={"$ref": "#/$defs/real"},
            df2={"$ref": "#/$defs/real"},
            p_value={"$ref": "#/$defs/real"},
            convention={"enum": ["irr", "psych"]},
            why={"type": "string"},
            reading={"type": ["string", "null"]},
            interval_reading={"type": "string"},
        ),
        "pairs": {
            "description": (
                "Lin's CCC and Bland & Altman's limits (x − y) per coder pair, or of each coder "
                "against the reference."
            ),
            "type": "array",
            "items": closed_object(
                x={"type": "string"},
                y={"type": "string"},
                ccc={"$ref": "#/$defs/real"},
                ccc_low={"$ref": "#/$defs/real"},
                ccc_high={"$ref": "#/$defs/real"},
                pearson={"$ref": "#/$defs/real"},
                bias={"$ref": "#/$defs/real"},
                sd={"$ref": "#/$defs/real"},
                lower={"$ref": "#/$defs/real"},
                upper={"$ref": "#/$defs/real"},
                bias_low={"$ref": "#/$defs/real"},
                bias_high={"$ref": "#/$defs/real"},
                slope={"$ref": "#/$defs/real"},
                slope_p={"$ref": "#/$defs/real"},
                items={"$ref": "#/$defs/count"},
                left_out={"$ref": "#/$defs/count"},
                notes={"$ref": "#/$defs/notes"},
            ),
        },
        "kendall": closed_object(
            "Kendall's W with Friedman's χ², df and p (as irr::kendall).",
            value={"$ref": "#/$defs/real"},
            chi2={"$ref": "#/$defs/real"},
            df={"$ref": "#/$defs/count"},
            p_value={"$ref": "#/$defs/real"},
            correct_ties={"type": "boolean"},
            ties={"type": "boolean"},
            items={"$ref": "#/$defs/count"},
            coders={"$ref": "#/$defs/count"},
            left_out={"$ref": "#/$defs/count"},
            notes={"$ref": "#/$defs/notes"},
        ),
        "coefficients": {
            "description": (
                "Krippendorff's α under the interval and (positive scores) ratio distances."
            ),
            "$ref": "#/$defs/coefficients",
        },
        "leave_one_out": {
            "description": (
                "The chosen ICC without each coder (3 coders or more; empty otherwise)."
            ),
            "type": "array",
            "items": closed_object(
                coder={"type": "string"},
                value={"$ref": "#/$defs/real"},
                change={"$ref": "#/$defs/real"},
            ),
        },
        "by_group": nullable(
            {
                "type": "array",
                "items": closed_object(
                    group={"type": "string"},
                    items={"$ref": "#/$defs/count"},
                    value={"$ref": "#/$defs/real"},
                ),
            },
            description="The chosen ICC of each group (with groups and --by-document), or null.",
        ),
        "disputed": nullable(
            {
                "type": "array",
                "items": closed_object(
                    item={"type": "string"},
                    sd={"$ref": "#/$defs/real"},
                    low={"$ref": "#/$defs/real"},
                    high={"$ref": "#/$defs/real"},
                    scores={"$ref": "#/$defs/count"},
                ),
            },
            description="With --diagnostics N: the N items whose scores spread most, or null.",
        ),
        "retest": nullable(
            {
                "type": "array",
                "items": closed_object(
                    coder={"type": "string"},
                    runs={"$ref": "#/$defs/count"},
                    items={"$ref": "#/$defs/count"},
                    value={"$ref": "#/$defs/real"},
                    low={"$ref": "#/$defs/real"},
                    high={"$ref": "#/$defs/real"},
                    changed={"$ref": "#/$defs/real"},
                ),
            },
            description=(
                "With --run: each coder with two runs or more against itself (test–retest "
                "ICC(A,1) and the share of items whose score changed), or null."
            ),
        ),
        "by_run": nullable(
            {
                "type": "array",
                "items": closed_object(
                    run={"type": "string"},
                    items={"$ref": "#/$defs/count"},
                    value={"$ref": "#/$defs/real"},
                    low={"$ref": "#/$defs/real"},
                    high={"$ref": "#/$defs/real"},
                ),
            },
            description=(
                "With --run: the chosen ICC between coders in each run (a coder with one run "
                "takes part in every run with it), or null."
            ),
        ),
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "ratings", "kinds": ("judgements",), "tasks": ("table",),
        "help": "ICC, CCC, Bland–Altman and Kendall's W of numeric scores (CSV/TSV)",
        "order": 85, "example": ("sample_corpora/ratings/essays.csv", "--group", "document")}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS,
               folder={"table": _folder_parts, "judgements": _judgement_parts})
