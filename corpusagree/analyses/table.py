"""``corpusagree table``: every coefficient of a reliability-data file.

Reliability data are a long CSV/TSV table (one judgement per row) or a wide coder × item table.
The report holds every applicable coefficient of Artstein & Poesio's family (2005) — the
unweighted family, then the family under the chosen distance — with bootstrap intervals
(clustered by the group column, e.g. documents, when there is one) and, on request, the
diagnostics that say why agreement is low.

>>> from corpusagree.analyses import table
>>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
>>> list(report.tables)
['coefficients']
>>> report.to_frame("coefficients")[["id", "value"]].round(4).head(2)
                  id   value
0  percent_agreement  0.5880
1                  S  0.4506
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import numpy as np

from ..model import io
from ..model.corpus import Corpus
from ..model.data import ReliabilityData
from ..model.errors import InputError, quote
from ..model.params import checked
from ..model.progress import Progress
from ..readers import discover
from ..readers import table as table_reader
from ..report.document import Report
from ..report.json import closed_object, nullable
from ..report.tables import Column, Record, Records, Table
from ..stats import distances as dist
from ..stats import runs
from ..stats.coefficients import compute, table_specs
from ..stats.inference import Bootstrap, resampling
from ..stats.position import PositionBias, first_shown, position_bias
from . import corpora
from .base import (
    KEYWORDS,
    Estimate,
    by_run_table,
    estimate_table,
    estimates,
    first_alpha,
    quiet,
    retest_table,
)
from .diagnose import Diagnostics, diagnose
from .jobs import Part, complete

__all__ = ["CARD", "SCHEMA", "FORMATS", "JOB", "NUMERIC", "PARAMS", "CoderRetest", "GroupAlpha",
           "JudgePosition", "OrderAgreement", "RepeatedLabels", "RunAgreement", "TableReport",
           "analyse", "as_corpus", "distance_from", "numeric_labels", "read"]

#: distances whose labels are numbers
NUMERIC = corpora.NUMERIC


#: the layouts of a reliability-data file (``input_format``)
FORMATS = table_reader.LAYOUTS


def read(paths: str | PathLike | Sequence[str | PathLike], *, input_format: str = "auto",
         annotators: Sequence[str] | None = None, coder: str = "coder", item: str = "item",
         label: str = "label", group: str | None = None, delimiter: str | None = None,
         set_sep: str | None = None, numeric: bool = False,
         categories: Sequence | None = None, swap: str | None = None,
         run: str | None = None) -> Corpus[ReliabilityData]:
    """Reliability data from a long table (one judgement per row: columns ``coder``,
    ``item``, ``label`` and an optional ``group`` column such as the document) or a wide
    coder × item table.

    Parameters
    ----------
    paths : path, or a list of one path
        A CSV/TSV file; ``-`` reads standard input.
    input_format : {"auto", "long", "wide"}
        ``auto``: long when the header has the coder, item and label columns, wide when its
        first cell is the coder column.
    annotators : list of str, optional
        Keep only these coders, in this order.
    coder, item, label, group : str
        The columns of the long layout (``group``: e.g. the document, which the bootstrap
        resamples).
    delimiter : str, optional
        The field separator, one character (default: tab, comma or semicolon, from the header).
    set_sep : str, optional
        Cells are sets of labels separated by it (e.g. ``|``), for the set distances.
    numeric : bool
        Parse labels (and ``categories``) as numbers, for the interval, ordinal and ratio
        distances.
    categories : list, optional
        The declared category set (for S, and the irrCAC family).
    swap : str, optional
        Pairwise judgements shown in both orders: the column of the order shown (two
        values, e.g. ``AB``/``BA``; the option shown first is the part before ``|``, ``,``
        or ``>``, else the first character: :func:`corpusagree.stats.position.first_shown`).
        Each row is one judgement: ``item`` the pair, ``coder`` the judge, ``label`` the
        option preferred (``A``/``B``, or ``tie``). An item is then the pair in one order,
        grouped by its pair (unless ``group`` is given); :func:`analyse` adds each judge's
        position bias and agreement in each order.
    run : str, optional
        The column of repeated runs (long layout): the same coder labelling the same items
        again, a model judge run several times. The corpus's data are then
        :class:`RepeatedLabels`; :func:`analyse` measures each coder against itself across
        its runs, the coders with each other in each run, and the coders on each coder's
        majority label.

    Returns
    -------
    Corpus
        ``data`` is the :class:`~corpusagree.model.data.ReliabilityData`, or
        :class:`RepeatedLabels` with ``run``.

    Raises
    ------
    InputError
        A malformed file, a missing column, a duplicate judgement, a label outside
        ``categories``, an unknown annotator; with ``run``: a missing run column, a run column
        with one value or without a repeated judgement, an empty run cell.

    Examples
    --------
    >>> from corpusagree.analyses import table
    >>> corpus = table.read("sample_corpora/table/dialogue_acts.csv", group="document")
    >>> corpus
    <Corpus table (long): 4 annotators, 6 documents, 278 judgements>
    """
    if run is not None:
        if swap is not None:
            raise InputError(f"run={quote(run)} and swap={quote(swap)} cannot be combined",
                             io.display(corpora.one_path(paths, "table")))
        name, runs, groups, options = corpora.read_runs(
            paths, job="table", run=run, input_format=input_format, annotators=annotators,
            coder=coder, item=item, label=label, group=group, delimiter=delimiter,
            numeric=numeric, set_sep=set_sep)
        if numeric and categories is not None:
            categories = io.parse_numbers(categories, "categories")
        try:
            rep = RepeatedLabels.of(runs, groups, categories, name)
        except ValueError as e:  # a label outside the declared categories
            if isinstance(e, InputError):
                raise
            raise InputError(str(e), name) from None
        corpus = corpora.judgements_of(rep.majority, "long", [name], options, "table")
        corpus.data = rep
        return corpus
    return corpora.read_judgements(paths, job="table", input_format=input_format,
                                   annotators=annotators, coder=coder, item=item, label=label,
                                   group=group, delimiter=delimiter, set_sep=set_sep,
                                   numeric=numeric, categories=categories, swap=swap)


@dataclass(repr=False)
class RepeatedLabels:
    """Labels with repeated runs: each (coder, run) that judged is a column of ``data``.

    Attributes
    ----------
    data : ReliabilityData
        One row per (coder, run) pair (its ``coders`` are the pairs), the labels shared.
    coders, runs : list of str
        The coders and the runs, in the order they first appear.
    column : numpy.ndarray
        Coders × runs: the row of ``data`` of a coder's run, −1 where it did not judge in it.
    majority : ReliabilityData
        Each coder's most frequent label of each item over its runs (a tie: missing).
    ties : int
        The (coder, item) judgements left missing by a tie of the majority.

    Examples
    --------
    >>> rep = RepeatedLabels.of({"1": [("a", "x", "A"), ("a", "y", "B")],
    ...                          "2": [("a", "x", "A"), ("a", "y", "A")],
    ...                          "3": [("a", "x", "B")]})
    >>> rep.column.tolist(), rep.majority.codes.tolist(), rep.ties
    ([[0, 1, 2]], [[0, -1]], 1)
    """

    data: ReliabilityData
    coders: list
    runs: list
    column: np.ndarray
    majority: ReliabilityData
    ties: int

    @classmethod
    def of(cls, runs: dict, groups: dict | None = None, categories: Sequence | None = None,
           source: str | None = None) -> RepeatedLabels:
        """From run → (coder, item, label) triples.

        Parameters
        ----------
        runs : dict
            Each run's (coder, item, label) triples.
        groups : dict, optional
            The item → group map.
        categories : list, optional
            The declared categories.
        source : str, optional
            The file, named in errors.

        Returns
        -------
        RepeatedLabels
        """
        data = ReliabilityData.from_triples(
            [((c, r), i, v) for r, ts in runs.items() for c, i, v in ts], groups=groups,
            categories=categories, source=source)
        coders = list(dict.fromkeys(c for c, _ in data.coders))
        names = [str(r) for r in runs]
        ci, ri = {c: k for k, c in enumerate(coders)}, {r: k for k, r in enumerate(names)}
        of_coder = np.array([ci[c] for c, _ in data.coders], dtype=np.int64)
        column = np.full((len(coders), len(names)), -1, dtype=np.int64)
        column[of_coder, [ri[str(r)] for _, r in data.coders]] = np.arange(data.n_coders)
        codes, ties = _majority(data.codes, of_coder, len(coders))
        majority = ReliabilityData(codes, data.labels, coders, list(data.items), data.groups,
                                   data.group_names, data.categories)
        return cls(data, coders, names, column, majority, ties)

    def present(self) -> np.ndarray:
        """Coders × runs × items: where a coder gave a label in a run."""
        out = np.zeros((*self.column.shape, self.data.n_items), bool)
        c, r = np.nonzero(self.column >= 0)
        out[c, r] = self.data.codes[self.column[c, r]] >= 0
        return out


def _majority(codes: np.ndarray, of_coder: np.ndarray, n_coders: int
              ) -> tuple[np.ndarray, int]:
    """Each coder's most frequent code of each item over the rows of its runs (−1 where none,
    or where two codes tie), and how many ties: the counts of the (coder, item, code) triples
    present, never a coders × items × labels array."""
    n_items, n_codes = codes.shape[1], int(codes.max(initial=-1)) + 1
    row, item = np.nonzero(codes >= 0)
    keys, counts = np.unique((of_coder[row] * n_items + item) * n_codes + codes[row, item],
                             return_counts=True)
    cell, code = keys // max(n_codes, 1), keys % max(n_codes, 1)
    order = np.lexsort((-counts, cell))
    cell, code, counts = cell[order], code[order], counts[order]
    first = np.r_[True, cell[1:] != cell[:-1]]
    tie = first & np.r_[(cell[1:] == cell[:-1]) & (counts[1:] == counts[:-1]), False]
    out = np.full(n_coders * n_items, -1, dtype=np.int32)
    won = first & ~tie
    out[cell[won]] = code[won]
    return out.reshape(n_coders, n_items), int(tie.sum())


def as_corpus(data: Corpus | ReliabilityData) -> Corpus[ReliabilityData]:
    """A corpus of the table job, from what :func:`analyse` was given.

    A :class:`~corpusagree.model.corpus.Corpus` of the job as it is, or reliability data made
    into one: :func:`analyse` calls this first, so that it takes either what :func:`read`
    returns or reliability data made in Python.

    Parameters
    ----------
    data : Corpus or ReliabilityData
        A corpus of the table job, or reliability data made in Python (or
        :class:`RepeatedLabels`, labels with repeated runs).

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        For anything else (the message says what the job takes).

    Examples
    --------
    >>> import corpusagree as ca
    >>> from corpusagree.analyses import table
    >>> data = ca.ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
    ...                                          ("B", 2, "x")])
    >>> table.as_corpus(data)
    <Corpus table (python): 2 annotators, 4 judgements>
    """
    return corpora.as_corpus(data, "table", {ReliabilityData: corpora.judgements_of,
                                             RepeatedLabels: _repeated_corpus}, JOB.kinds)


def _repeated_corpus(rep: RepeatedLabels) -> Corpus:
    corpus = corpora.judgements_of(rep.majority, job="table")
    corpus.data = rep
    return corpus


def _reliability_data(corpus) -> ReliabilityData:
    """The data between coders (each coder's majority label, with repeated runs)."""
    data = as_corpus(corpus).data
    return data.majority if isinstance(data, RepeatedLabels) else data


def distance_from(name: str = "nominal", weights: str | PathLike | None = None
                  ) -> dist.Distance:
    """The distance of a name, or the weight matrix of a file (rows ``a,b,distance`` or a
    square matrix with a header row); a malformed weight file is an InputError naming it."""
    if weights is None:
        return dist.get(name)
    matrix, labels = io.read_weights(weights)
    try:
        return dist.Matrix(matrix) if labels is None else dist.Matrix(matrix, labels)
    except ValueError as e:
        raise InputError(str(e), io.display(weights)) from None


numeric_labels = corpora.numeric_labels


@dataclass
class GroupAlpha(Record):
    """α of one group's items (a document's): a row of :attr:`TableReport.by_group`.

    Attributes
    ----------
    group : str
        The group (document).
    items : int
        Its items.
    alpha : float
        α of its items under the report's first distance, nan where undefined.
    """

    group: str
    items: int
    alpha: float


@dataclass
class CoderRetest(Record):
    """One coder with itself across its runs: a row of :attr:`TableReport.retest`.

    Attributes
    ----------
    coder : str
        The coder.
    runs : int
        Its runs.
    items : int
        The items every one of its runs labelled.
    alpha, kappa, percent_agreement : float
        α, κ (Cohen's for two runs, Fleiss's for more) and raw agreement between its runs,
        nan where undefined.
    changed : float
        The share of those items whose label changed between runs.
    """

    coder: str
    runs: int
    items: int
    alpha: float
    kappa: float
    percent_agreement: float
    changed: float


@dataclass
class RunAgreement(Record):
    """The coders with each other in one run: a row of :attr:`TableReport.by_run`.

    Attributes
    ----------
    run : str
        The run.
    items : int
        Its items with two judgements or more.
    alpha, kappa, percent_agreement : float
        α, κ (Cohen's for two coders, Fleiss's for more) and raw agreement, nan where
        undefined.
    """

    run: str
    items: int
    alpha: float
    kappa: float
    percent_agreement: float


@dataclass
class OrderAgreement(Record):
    """The judges with each other on the pairs shown in one order: a row of
    :attr:`TableReport.by_order`.

    Attributes
    ----------
    order : str
        The order shown (a value of the swap column).
    items : int
        The items shown in it.
    alpha, kappa, percent_agreement : float
        α, κ (Cohen's for two judges, Fleiss's for more) and raw agreement, nan where
        undefined.
    """

    order: str
    items: int
    alpha: float
    kappa: float
    percent_agreement: float


@dataclass(frozen=True)
class JudgePosition(Record, PositionBias):
    """One judge's consistency under swapped order (the fields of
    :class:`corpusagree.stats.position.PositionBias`): a row of :attr:`TableReport.position`.

    Attributes
    ----------
    judge : str
        The judge (coder).
    pairs, flips : int
        Pairs it judged in both orders, and those whose preferred option changed.
    flip_rate : float
        flips / pairs.
    to_first, to_second, with_tie : int
        Flips to the option shown first both times, to the one shown second, to or from a
        tie.
    statistic, p_value : float
        McNemar's test of to_first against to_second (Edwards 1948).
    method : str
        The exact binomial test or McNemar's χ².
    """


@dataclass(repr=False, kw_only=True)
class TableReport(Report):
    """Every applicable coefficient of one reliability-data set (see the module docstring).

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
    coders, items, labels, judgements, missing : int
        The size of the data.
    groups : int or None
        The groups (documents), when the data have a group column.
    coefficients : Records
        Every coefficient as an :class:`Estimate` (its interval with a bootstrap).
    diagnostics : Diagnostics or None
        With ``diagnostics=N``.
    by_group : Records of GroupAlpha or None
        α per group, with ``by_document=True``.
    position : Records of JudgePosition or None
        Read with a swap column: each judge's position bias.
    by_order : Records of OrderAgreement or None
        Read with a swap column: agreement among the judges in each order shown.
    retest : Records of CoderRetest or None
        Read with a run column: each coder with two runs or more against itself (α, κ,
        percent agreement between its runs, and the share of items whose label changed).
    by_run : Records of RunAgreement or None
        Read with a run column: α, κ and percent agreement between the coders in each run.

    Examples
    --------
    >>> from corpusagree.analyses import table
    >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"),
    ...                        diagnostics=3)
    >>> report.coders, report.items, report.missing, report.diagnostics.raises_most
    (4, 72, 10, 'dan')
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    coders: int
    items: int
    labels: int
    judgements: int
    missing: int
    groups: int | None
    coefficients: Records[Estimate]
    diagnostics: Diagnostics | None
    notes: list[str]
    #: with the diagnostics of data in groups: α of each group (None otherwise)
    by_group: Records[GroupAlpha] | None = None
    #: read with a swap column: each judge's position bias (None otherwise)
    position: Records[JudgePosition] | None = None
    #: read with a swap column: agreement among the judges in each order shown
    by_order: Records[OrderAgreement] | None = None
    #: read with a run column: each coder with itself across its runs (None otherwise)
    retest: Records[CoderRetest] | None = None
    #: read with a run column: agreement between the coders in each run (None otherwise)
    by_run: Records[RunAgreement] | None = None
    job = "table"

    def body(self) -> dict:
        return {"data": {"coders": self.coders, "items": self.items, "labels": self.labels,
                         "judgements": self.judgements, "missing": self.missing,
                         "groups": self.groups},
                "coefficients": self.coefficients, "diagnostics": self.diagnostics,
                "by_group": self.by_group, "position": self.position,
                "by_order": self.by_order, "retest": self.retest, "by_run": self.by_run}

    def summary(self) -> str:
        where = ", ".join(self.inputs) or "data"
        groups = "" if self.groups is None else f" in {self.groups} groups"
        return (f"{where}: {self.coders} coders × {self.items} items{groups}, {self.labels} "
                f"labels, {self.missing} missing judgements")

    def headline(self) -> Estimate | None:
        return first_alpha(self.coefficients)

    def _tables(self) -> list[Table]:
        out = [estimate_table("coefficients", "Coefficients", self.coefficients)]
        if self.diagnostics is not None:
            out += list(self.diagnostics.tables.values())
        if self.by_group is not None:
            d = self.options["distance"]
            out.append(Table("by_group", f"α ({d}) per group", [
                Column("group", "group"), Column("items", "items", "int"),
                Column("alpha", f"α ({d})", "float")],
                [[r["group"], r["items"], r["alpha"]] for r in self.by_group],
                ["nan: α undefined in the group (one coder, or one value)"]
                if any(math.isnan(r["alpha"]) for r in self.by_group) else []))
        if self.position is not None:
            out.append(Table("position_bias", "Position bias of each judge (order swapped)", [
                Column("judge", "judge"), Column("pairs", "pairs", "int"),
                Column("flips", "flips", "int"), Column("flip_rate", "flip rate", "share"),
                Column("to_first", "to 1st", "int"),
                Column("to_second", "to 2nd", "int"),
                Column("with_tie", "tie", "int"),
                Column("p_value", "McNemar p", "float"), Column("method", "test", "text",
                                                                optional=True)],
                [[r["judge"], r["pairs"], r["flips"], r["flip_rate"], r["to_first"],
                  r["to_second"], r["with_tie"], r["p_value"], r["method"]]
                 for r in self.position],
                ["pairs: judged in both orders; flips: the preferred option changed with the "
                 "order; McNemar's test of flips to the first- against the second-shown "
                 "option (exact binomial below 25 flips)"]))
            out.append(Table("by_order", "Agreement among the judges in each order shown", [
                Column("order", "order"), Column("items", "pairs", "int"),
                Column("percent_agreement", "raw agreement", "float"),
                Column("kappa", "κ", "float"), Column("alpha", "α", "float")],
                [[r["order"], r["items"], r["percent_agreement"], r["kappa"], r["alpha"]]
                 for r in self.by_order],
                ["κ: Cohen's for two judges, Fleiss's for more (nan: undefined)"]))
        d = self.options["distance"]
        d = d[0] if isinstance(d, list) else d
        if self.retest is not None:
            out.append(retest_table(f"Each coder with itself across runs (α ({d}), κ, "
                                    "raw agreement)", self.retest, _run_measures(d),
                                    "label"))
            out[-1].notes.append(_KAPPA_NOTE)
        if self.by_run is not None:
            out.append(by_run_table(f"Agreement between the coders in each run (α ({d}), "
                                    "κ, raw agreement)", self.by_run, _run_measures(d)))
            out[-1].notes.append(_KAPPA_NOTE)
        return out


_KAPPA_NOTE = "κ: Cohen's for two runs or coders, Fleiss's for more (nan: undefined)"


def _run_measures(d: str) -> list:
    """The columns of the tables of repeated runs."""
    return [(Column("alpha", f"α ({d})", "float"), lambda r: r["alpha"]),
            (Column("kappa", "κ", "float"), lambda r: r["kappa"]),
            (Column("percent_agreement", "raw agreement", "float"),
             lambda r: r["percent_agreement"])]


#: the keywords of :func:`analyse`, which it checks first (the command line's types and
#: choices are made from the same table)
PARAMS = (
    *KEYWORDS,
)


def _distances(distance, weights) -> list:
    """The distances to report: the weights' matrix, or each distance named or given."""
    if weights is not None:
        return [distance_from(weights=weights)]
    return [d if isinstance(d, dist.Distance) else dist.get(d)
            for d in (distance if isinstance(distance, (list, tuple)) else [distance])]


def _run_tables(repeated: RepeatedLabels, d, notes: list[str]) -> tuple:
    """The retest and by-run rows of a judge's runs, with the note on the majority."""
    notes.append("between coders: each coder's majority label over its runs"
                 + ("" if not repeated.ties else
                    f" ({repeated.ties} ties of a coder's runs on an item left missing)"))
    return _runs(repeated, d, notes)


@checked(*PARAMS, where="table.analyse()")
def analyse(corpus: Corpus | ReliabilityData, *,
            distance: str | dist.Distance | Sequence = "nominal",
            weights: str | PathLike | None = None, categories: Sequence | None = None,
            bootstrap: Bootstrap | None = None, by_document: bool = False,
            diagnostics: int | None = None, reference=None,
            progress: Progress | None = None) -> TableReport:
    """Every applicable coefficient of the data: the unweighted family, then the family under
    each distance (Artstein & Poesio 2005; Gwet 2014).

    Parameters
    ----------
    corpus : Corpus or ReliabilityData
        What :func:`read` returned, or reliability data made in Python.
    distance : str, Distance or list
        The distance(s) of the weighted family (:mod:`corpusagree.distances`); a list gives
        the weighted family under each.
    weights : path, optional
        A weight-matrix file (rows ``a,b,distance``, or a square matrix with a header row),
        used instead of ``distance``.
    categories : list, optional
        The declared category set (default: the one the corpus was read with).
    bootstrap : Bootstrap, optional
        Intervals, clustered by the data's groups (documents) when there are two or more.
    by_document : bool
        α per group (document) as well.
    diagnostics : int, optional
        The diagnostics, listing the N costliest items (and each coder against a
        ``reference`` coder).
    reference : str, optional
        With ``diagnostics``: a coder of the data (as ``data.coders`` names it) to measure
        each other coder against (Carletta's expert variant; an unknown coder is an
        InputError); unused without ``diagnostics``.
    progress : callable, optional
        ``progress(done, total)`` as the bootstrap advances.

    Returns
    -------
    TableReport

    Raises
    ------
    InputError
        A coefficient cannot be computed on these data (named with the input).

    Examples
    --------
    >>> import corpusagree as ca
    >>> from corpusagree.analyses import table
    >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv",
    ...                                   group="document"), bootstrap=ca.Bootstrap(seed=1))
    >>> frame = report.tables["coefficients"].to_frame().set_index("id")
    >>> round(float(frame.loc["alpha", "value"]), 4)
    0.4193
    """
    corpus = as_corpus(corpus)
    repeated = corpus.data if isinstance(corpus.data, RepeatedLabels) else None
    data = corpus.data if repeated is None else repeated.majority
    distances = _distances(distance, weights)
    categories = categories if categories is not None else data.categories
    source = ", ".join(corpus.inputs) or None
    notes = list(corpus.notes)
    position = by_order = None
    if corpus.reader_options.get("swap"):  # first: a mistake in the orders stops it all
        position, by_order = _swapped(data, distances[0], source)
    settings = resampling(bootstrap, data.groups, notes, cluster="group")
    try:
        specs = list(dict.fromkeys(s for j, d in enumerate(distances)  # a note said once
                                   for s in table_specs(data, d, None if j else notes)))
        rows = estimates(data, specs, settings, progress=progress, notes=notes,
                         categories=categories)
        d = distances[0]
        diag = None if diagnostics is None else diagnose(data, d, n_items=diagnostics,
                                                         reference=reference)
        by_group = _by_group(data, d) if (by_document or diag is not None) and \
            data.group_names is not None else None
        retest, by_run = (None, None) if repeated is None else _run_tables(repeated, d, notes)
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), source) from None
    options = {"distance": distances[0].name if len(distances) == 1
               else [x.name for x in distances],
               "categories": list(categories) if categories else None,
               "by_document": by_document, "diagnostics": diagnostics,
               "reference": reference, "reader_options": dict(corpus.reader_options)}
    return TableReport(
        inputs=list(corpus.inputs),
        options=options,
        bootstrap=settings,
        coders=data.n_coders,
        items=data.n_items,
        labels=data.n_labels,
        judgements=int((data.codes >= 0).sum()),
        missing=int((data.codes < 0).sum()),
        groups=None if data.group_names is None else len(data.group_names),
        coefficients=rows,
        diagnostics=diag,
        notes=notes + ([] if diag is None else diag.notes),
        by_group=by_group,
        position=position,
        by_order=by_order,
        retest=retest,
        by_run=by_run,
    )


def analyse_dask(paths: str | PathLike | Sequence[str | PathLike], *,
                 distance: str | dist.Distance = "nominal", categories: Sequence | None = None,
                 bootstrap: Bootstrap | None = None, scheduler: str | None = None,
                 **reader) -> TableReport:
    """Every coefficient of the α/β and Gwet families of long tables past one machine: files
    (a glob such as ``'logs/*.parquet'``) read by Dask, coefficients from per-partition
    sufficient statistics (:mod:`corpusagree.stats.frames`), on Dask's local scheduler or
    the distributed one at ``scheduler``. ``reader``: the columns and options of
    :func:`read`. The diagnostics need the data in memory.

    Examples
    --------
    >>> from corpusagree.analyses import table
    >>> report = table.analyse_dask("sample_corpora/table/dialogue_acts.csv")
    >>> round(float(report.to_frame("coefficients").set_index("id").loc["alpha", "value"]), 4)
    0.4193
    """
    from ..stats import frames
    source = ", ".join(map(str, paths)) if isinstance(paths, (list, tuple)) else str(paths)
    try:
        with frames.scheduler(scheduler):
            data = frames.read(paths, categories=categories, **reader)
            found = data.results(distance, categories=categories, bootstrap=bootstrap)
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), source) from None
    d = dist.get(distance)
    size = data.size
    options = {"distance": d.name, "categories": list(categories) if categories else None,
               "by_document": False, "diagnostics": None, "reference": None,
               "reader_options": {"engine": "dask", **{k: v for k, v in reader.items()
                                                        if v not in (None, False)}}}
    notes = ["computed by the dask engine from per-partition sums (the diagnostics need the "
             "data in memory)"]
    return TableReport(inputs=[source], options=options, bootstrap=bootstrap,
                       coders=size["coders"], items=size["items"], labels=size["labels"],
                       judgements=size["judgements"], missing=size["missing"],
                       groups=size["groups"],
                       coefficients=Records(Estimate(r, iv) for r, iv in found),
                       diagnostics=None, notes=notes)


def _by_group(data: ReliabilityData, d: dist.Distance) -> Records[GroupAlpha]:
    """α of each group's items (nan where undefined), as the jobs on documents give it."""
    out: Records[GroupAlpha] = Records()
    for g, name in enumerate(data.group_names):
        mask = data.groups == g
        r = quiet(compute, "alpha", data.subset(items=mask, compact=True), d)
        out.append(GroupAlpha(name, int(mask.sum()), r if isinstance(r, float) else r.value))
    return out


def _agreement(part: ReliabilityData, d: dist.Distance) -> dict:
    """α under ``d``, κ (Cohen's for two coders, Fleiss's — multi-π — for more) and percent
    agreement (nan where undefined)."""
    kappa = "kappa" if part.n_coders == 2 else "pi"
    found = {k: quiet(compute, c, part, d if c == "alpha" else None)
             for k, c in (("alpha", "alpha"), ("kappa", kappa),
                          ("percent_agreement", "percent_agreement"))}
    return {k: v if isinstance(v, float) else v.value for k, v in found.items()}


def _runs(rep: RepeatedLabels, d: dist.Distance, notes: list[str]
          ) -> tuple[Records[CoderRetest], Records[RunAgreement]]:
    """Each coder with itself across its runs (on the items all of them labelled), and the
    coders with each other in each run (:mod:`corpusagree.stats.runs`)."""
    present = rep.present()
    retest: Records[CoderRetest] = Records()
    for w in runs.within(present):
        name = rep.coders[w.coder]
        if w.uneven:
            notes.append(runs.uneven_note(name, "agreement across runs", "labelled"))
        part = rep.data.subset(coders=rep.column[w.coder, w.runs], items=w.items)
        retest.append(CoderRetest(str(name), len(w.runs), part.n_items, **_agreement(part, d),
                                  changed=runs.changed(part.codes)))
    by_run: Records[RunAgreement] = Records()
    for run, take in zip(rep.runs, runs.members(present.any(axis=2)), strict=True):
        who = np.flatnonzero(take >= 0)
        part = rep.data.subset(coders=rep.column[who, take[who]])
        part = part.subset(items=(part.codes >= 0).sum(axis=0) >= 2)  # pairable items
        by_run.append(RunAgreement(run, part.n_items, **_agreement(part, d)))
    return retest, by_run


def _swapped(data: ReliabilityData, d: dist.Distance, source: str | None
             ) -> tuple[Records, Records]:
    """Each judge's position bias, and agreement on each order separately, of pairwise
    judgements read with a swap column (items named by :func:`corpusagree.model.io.swap_item`)."""
    pairs, orders = (np.asarray(x, dtype=object) for x in
                     zip(*(io.split_swap_item(i) for i in data.items), strict=True))
    c, i = np.nonzero(data.codes >= 0)
    labels = np.asarray([str(x) for x in data.labels], dtype=object)
    chosen = labels[data.codes[c, i]]
    try:
        rows = position_bias(np.asarray(data.coders, dtype=object)[c], pairs[i], chosen,
                             first_shown(orders[i]), orders[i], tie="tie")
    except ValueError as e:
        raise InputError(f"swap column: {e}", source) from None
    by_order: Records[OrderAgreement] = Records()
    for o in np.unique(orders.astype(str)):
        part = data.subset(items=orders.astype(str) == o, compact=True)
        by_order.append(OrderAgreement(str(o), part.n_items, **_agreement(part, d)))
    return Records(JudgePosition(**r.to_dict()) for r in rows), by_order


# ---- the registration ------------------------------------------------------------------------
def _folder_parts(folder: Path) -> Iterator[Part]:
    """Every reliability-data file of a sub-folder of a study folder, with the analysis options
    its files imply (a weight matrix beside it, numeric labels)."""
    for f in discover.table_files(folder):
        found = discover.table_inputs(f)
        yield Part(found, dict(found.analysis))


def _judgement_parts(folder: Path) -> Iterator[Part]:
    """The judgements of every platform's export in a sub-folder (each control or question),
    with the interval distance when they are numbers."""
    for found in discover.judgement_inputs(folder)[0]:
        yield Part(found, dict(found.analysis))


#: this job's part of the JSON Schema of the report document, ``$defs/job_table`` of
#: :func:`corpusagree.schema`: the keys of :meth:`TableReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": "`corpusagree table`: every coefficient of a reliability-data file.",
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": [
        "data", "coefficients", "diagnostics", "by_group", "position", "by_order", "retest",
        "by_run",
    ],
    "properties": {
        "options": closed_object(
            distance={
                "description": "The distance, or the distances of a list.",
                "type": ["string", "array"],
                "items": {"type": "string"},
            },
            categories={
                "description": "The declared category set, or null.",
                "type": ["array", "null"],
                "items": {"$ref": "#/$defs/label"},
            },
            by_document={"type": "boolean"},
            diagnostics={"$ref": "#/$defs/diagnostics_option"},
            reference=nullable(
                {"$ref": "#/$defs/name"},
                description="The reference coder of the expert diagnostics, or null.",
            ),
            reader_options={"$ref": "#/$defs/reader_options"},
        ),
        "data": closed_object(
            coders={"$ref": "#/$defs/count"},
            items={"$ref": "#/$defs/count"},
            labels={"$ref": "#/$defs/count"},
            judgements={"$ref": "#/$defs/count"},
            missing={"$ref": "#/$defs/count"},
            groups=nullable(
                {"$ref": "#/$defs/count"},
                description="Groups (documents) of the --group column, or null.",
            ),
        ),
        "coefficients": {"$ref": "#/$defs/coefficients"},
        "diagnostics": nullable({"$ref": "#/$defs/diagnostics"}),
        "by_group": nullable(
            {
                "type": "array",
                "items": closed_object(
                    group={"$ref": "#/$defs/name"},
                    items={"$ref": "#/$defs/count"},
                    alpha={"$ref": "#/$defs/real"},
                ),
            },
            description=(
                "α of each group (with groups, and --by-document or --diagnostics), or null."
            ),
        ),
        "position": nullable(
            {
                "type": "array",
                "items": closed_object(
                    judge={"$ref": "#/$defs/name"},
                    pairs={"$ref": "#/$defs/count"},
                    flips={"$ref": "#/$defs/count"},
                    flip_rate={"$ref": "#/$defs/real"},
                    to_first={
                        "description": "Flips to the option shown first both times.",
                        "$ref": "#/$defs/count",
                    },
                    to_second={"$ref": "#/$defs/count"},
                    with_tie={"$ref": "#/$defs/count"},
                    statistic={"$ref": "#/$defs/real"},
                    p_value={
                        "description": "McNemar's test (exact binomial for few flips).",
                        "$ref": "#/$defs/real",
                    },
                    method={"type": "string"},
                ),
            },
            description=(
                "With a swap column (--swap): each judge's position bias under swapped order "
                "(corpusagree.stats.position), or null."
            ),
        ),
        "by_order": nullable(
            {
                "type": "array",
                "items": closed_object(
                    order={"type": "string"},
                    items={"$ref": "#/$defs/count"},
                    percent_agreement={"$ref": "#/$defs/real"},
                    kappa={"$ref": "#/$defs/real"},
                    alpha={"$ref": "#/$defs/real"},
                ),
            },
            description=(
                "With a swap column: agreement among the judges in each order shown (raw "
                "agreement, κ, α), or null."
            ),
        ),
        "retest": nullable(
            {
                "type": "array",
                "items": closed_object(
                    coder={"type": "string"},
                    runs={"$ref": "#/$defs/count"},
                    items={"$ref": "#/$defs/count"},
                    alpha={"$ref": "#/$defs/real"},
                    kappa={"$ref": "#/$defs/real"},
                    percent_agreement={"$ref": "#/$defs/real"},
                    changed={"$ref": "#/$defs/real"},
                ),
            },
            description=(
                "With a run column: each coder with two runs or more against itself, on the "
                "items all its runs labelled (α under the first distance, κ — Cohen's for two "
                "runs, Fleiss's for more — raw agreement, and the share of items whose label "
                "changed between two runs), or null."
            ),
        ),
        "by_run": nullable(
            {
                "type": "array",
                "items": closed_object(
                    run={"type": "string"},
                    items={"$ref": "#/$defs/count"},
                    alpha={"$ref": "#/$defs/real"},
                    kappa={"$ref": "#/$defs/real"},
                    percent_agreement={"$ref": "#/$defs/real"},
                ),
            },
            description=(
                "With a run column: α, κ and raw agreement between the coders in each run, on "
                "the items two or more of them labelled (a coder who labelled in one run takes "
                "part in every run with it), or null."
            ),
        ),
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "table", "kinds": ("judgements",), "tasks": ("table",),
        "help": "every coefficient of a reliability-data file (CSV/TSV)", "order": 10,
        "example": ("sample_corpora/table/dialogue_acts.csv", "--group", "document")}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS,
               folder={"table": _folder_parts, "judgements": _judgement_parts},
               data=lambda corpus: (_reliability_data(corpus), "nominal"))
