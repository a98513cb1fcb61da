"""What every analysis returns: a typed report that knows nothing about terminals.

A report is a tree of dataclasses. ``to_dict()`` gives the stable JSON schema (the envelope
``{"corpusagree": version, "schema": 1, "job", "inputs", "options", "bootstrap", ...}``,
coefficients with an ASCII ``id`` and a display ``symbol``); ``tables()`` gives the report as
:class:`Table` objects (raw values, no formatting) that the renderers of
:mod:`corpusagree.report` draw for the terminal, CSV and Markdown; every list of rows is a
:class:`Records` with ``to_frame()`` for pandas users.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._version import __version__
from ..model.corpus import Corpus
from ..model.data import ReliabilityData
from ..model.records import frame, plain
from ..stats import interpret
from ..stats import spec as coefficient_table
from ..stats.coefficients import DegenerateWarning, Result, compute
from ..stats.inference import Bootstrap, Interval, bootstrap

#: version of the JSON layout; raised when a key is renamed or removed (with the ``schema``
#: const of the JSON Schema, corpusagree/report/report.schema.json)
SCHEMA = 1
#: Krippendorff's thresholds .667 and .800 (Krippendorff 1980, p. 147), which the pictures of
#: a chance-corrected coefficient mark (:attr:`Table.thresholds`)
THRESHOLDS = tuple(b.low for b in interpret.KRIPPENDORFF.bands if math.isfinite(b.low))


def expect(corpus: Any, job: str, kind: type | tuple[type, ...]) -> Corpus:
    """``corpus`` when it is a :class:`~corpusagree.model.corpus.Corpus` whose data are of
    ``kind`` (a list of ``kind`` objects, for annotations), else a TypeError saying what the
    job's ``analyse`` takes."""
    if isinstance(corpus, Corpus):
        data = corpus.data
        one = data[0] if isinstance(data, list) and data else data
        if isinstance(one, kind) or (isinstance(data, list) and not data):
            return corpus
        what = f"a {corpus.job} corpus of {type(one).__name__}"
    else:
        what = type(corpus).__name__
    names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
    raise TypeError(f"{job}.analyse takes the Corpus that corpusagree.analyses.{job}.read "
                    f"returns (or {names} made in Python), not {what}")


def corpus_from(x: Any, job: str, kind: type, make: Callable[[list], Corpus]) -> Corpus:
    """What a job's ``analyse`` takes, as its corpus: ``x`` itself when it is a corpus of
    ``kind`` objects, else annotations made into one by ``make(list)`` (a TypeError saying
    what ``analyse`` takes otherwise)."""
    if isinstance(x, Corpus):
        return expect(x, job, kind)
    items = list(x)
    if not all(isinstance(a, kind) for a in items):
        expect(items, job, kind)
    return make(items)


class Records(list):
    """A list of report rows (dataclasses with ``to_dict``, or dicts) that pandas can take.

    Examples
    --------
    >>> from corpusagree.analyses.base import Records
    >>> Records([{"coder": "ann", "interval": {"low": 0.1, "high": 0.9}}]).to_frame()
      coder  interval_low  interval_high
    0   ann           0.1            0.9
    """

    def to_frame(self):
        """A pandas DataFrame, one row per record; nested dicts become ``outer_inner`` columns.

        pandas is optional and imported here.

        Returns
        -------
        pandas.DataFrame
        """
        return frame(self)


@dataclass(frozen=True)
class Column:
    """A column of a :class:`Table`: how a renderer writes its values.

    Parameters
    ----------
    key : str
        The column's ASCII key (CSV header, DataFrame column).
    header : str
        What people read above it.
    kind : str, default "text"
        ``text``, ``int``, ``float`` (``places`` decimals), ``magnitude`` (``places``
        significant digits, for quantities of any scale), ``interval`` ((low, high) pairs),
        ``share`` (a proportion written as a percentage), ``label`` (a label or a set),
        ``context`` ((before, span, after) text, the span to be highlighted).
    places : int, default 4
        Decimals or significant digits.
    optional : bool, default False
        A renderer short of width may leave the column out (and says so).
    hidden : bool, default False
        Only the data formats (CSV, data frames) carry it, e.g. a coefficient's ASCII id beside
        its symbol.

    Examples
    --------
    >>> from corpusagree.analyses.base import Column
    >>> Column("value", "value", "float", places=3)
    Column(key='value', header='value', kind='float', places=3, optional=False, hidden=False)
    """

    key: str
    header: str
    kind: str = "text"
    places: int = 4
    optional: bool = False
    hidden: bool = False


@dataclass
class Table:
    """One table of a report, as data: rows of raw values under :class:`Column` s.

    Renderers (terminal, CSV, Markdown, HTML) write it; ``to_frame()`` gives it to pandas.

    Parameters
    ----------
    id : str
        An ASCII id, unique within its report (``report.tables[id]``).
    title : str
        The title people read.
    columns : list of Column
    rows : list of list
        Raw values, one list per row, in the order of ``columns``.
    notes : list of str, optional
        What a reader must know to read it (printed under it).
    matrix : bool, default False
        A square coder × coder table whose first column names the rows.
    terminal : bool, default True
        False for a table that only the data formats carry (CSV, and JSON through
        ``to_dict``), such as coder × coder matrices of many coders.
    marked : tuple of str, optional
        Rows (and columns) to mark: the odd one out.
    thresholds : tuple of float, optional
        Values a picture of the table marks on its scale (:data:`THRESHOLDS` for a matrix of
        a chance-corrected coefficient).

    Examples
    --------
    >>> from corpusagree.analyses.base import Column, Table
    >>> t = Table("demo", "A demo", [Column("coder", "coder"), Column("value", "α", "float")],
    ...           [["ann", 0.8], ["bob", 0.7]])
    >>> t.records()
    [{'coder': 'ann', 'value': 0.8}, {'coder': 'bob', 'value': 0.7}]
    """

    id: str
    title: str
    columns: list[Column]
    rows: list[list]
    notes: list[str] = field(default_factory=list)
    matrix: bool = False
    terminal: bool = True
    marked: tuple[str, ...] = ()  #: rows (and columns) to mark: the odd one out
    thresholds: tuple[float, ...] = ()

    def records(self) -> list[dict]:
        """The rows as dicts keyed by column key.

        Intervals become ``key_low``/``key_high``, contexts
        ``key_before``/``key_span``/``key_after``.

        Returns
        -------
        list of dict
        """
        parts = {"interval": ("low", "high"), "context": ("before", "span", "after")}
        out = []
        for row in self.rows:
            rec: dict = {}
            for c, v in zip(self.columns, row, strict=True):
                if c.kind in parts:
                    names = parts[c.kind]
                    rec.update((f"{c.key}_{n}", x) for n, x in
                               zip(names, v if v is not None else (None,) * len(names),
                                   strict=True))
                else:
                    rec[c.key] = v
            out.append(rec)
        return out

    def to_frame(self):
        """The table as a pandas DataFrame (pandas is optional and imported here).

        Returns
        -------
        pandas.DataFrame
        """
        return Records(self.records()).to_frame()

    def shown(self) -> Table:
        """The table as people read it: without its hidden columns."""
        keep = [j for j, c in enumerate(self.columns) if not c.hidden]
        if len(keep) == len(self.columns):
            return self
        return dataclasses.replace(self, columns=[self.columns[j] for j in keep],
                                   rows=[[row[j] for j in keep] for row in self.rows])


class Tables(Mapping[str, "Table"]):
    """A report's tables by id (ASCII), in the order a reader meets them.

    Examples
    --------
    >>> t = Tables([Table("coefficients", "Coefficients", [Column("value", "value")], [[1.0]])])
    >>> list(t), t["coefficients"].title
    (['coefficients'], 'Coefficients')
    """

    def __init__(self, tables: Iterable[Table]) -> None:
        self._tables: dict[str, Table] = {}
        for t in tables:
            if t.id in self._tables:
                raise ValueError(f"two tables with the id {t.id!r}")
            self._tables[t.id] = t

    def __getitem__(self, key: str) -> Table:
        try:
            return self._tables[key]
        except KeyError:
            raise KeyError(f"no table {key!r}; the tables are {', '.join(self._tables)}") \
                from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def __repr__(self) -> str:
        return f"Tables({', '.join(self._tables)})"


class WithTables:
    """What has tables: ``.tables`` (a :class:`Tables` mapping, built by ``_tables()``) and
    ``to_frame(table_id)``, the table as a pandas DataFrame.
    """

    def _tables(self) -> list[Table]:
        raise NotImplementedError

    @property
    def tables(self) -> Tables:
        """The tables by id, in order (see :class:`Tables`)."""
        return Tables(self._tables())

    def to_frame(self, table_id: str | None = None):
        """One table as a pandas DataFrame (pandas is optional and imported here).

        Parameters
        ----------
        table_id : str, optional
            The table's id (``list(obj.tables)`` lists them); the first table when omitted.

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        KeyError
            For an unknown id (the message lists the ids).
        ValueError
            When there is no table.

        Examples
        --------
        >>> from corpusagree.analyses import table
        >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
        >>> report.to_frame("coefficients").loc[:1, ["id", "value"]].round(4)
                          id   value
        0  percent_agreement  0.5880
        1                  S  0.4506
        """
        tables = self.tables
        if table_id is None:
            if not tables:
                raise ValueError("there is no table")
            table_id = next(iter(tables))
        return tables[table_id].to_frame()


#: the renderers of :mod:`corpusagree.report`, which registers them when ``corpusagree`` is
#: imported (an analysis never imports a renderer): name -> function
RENDERERS: dict[str, Callable[..., Any]] = {}


def register_renderer(name: str, fn: Callable[..., Any]) -> None:
    """Make ``fn`` the renderer ``name`` that :class:`Report`'s ``to_*`` methods call:
    ``json(reports) -> str``, ``csv_files(reports, folder) -> list[Path]``,
    ``html(reports) -> str`` and ``html_fragment(report) -> str``."""
    RENDERERS[name] = fn


def _renderer(name: str) -> Callable[..., Any]:
    if name not in RENDERERS:  # only when corpusagree.report failed to import
        raise RuntimeError(f"no {name} renderer: import corpusagree.report")
    return RENDERERS[name]


class Report(WithTables):
    """Base of every job's report: the envelope of the JSON, the tables and the renderings.

    A report is a tree of dataclasses that knows nothing about terminals. Every report has
    ``.tables`` (id → :class:`Table`), :meth:`to_dict` (the JSON document), :meth:`to_json`,
    :meth:`to_frame`, :meth:`to_csv`, :meth:`to_html` and shows itself in Jupyter. A job's
    report class adds its own parts (coefficients, scores, diagnostics …) as attributes.

    Attributes
    ----------
    job : str
        The job (``table``, ``coref`` …).
    inputs : list of str
        The paths read.
    options : dict
        The options of the analysis (and the reader's), as the JSON records them.
    bootstrap : Bootstrap or None
        The bootstrap settings, None without intervals.
    notes : list of str
        What a reader of the report must know (a clustered bootstrap that fell back to items,
        undefined values and why …).

    Examples
    --------
    >>> from corpusagree.analyses import segments
    >>> report = segments.analyse(segments.read("sample_corpora/segments/segments.json"))
    >>> report.job, list(report.tables)[:3]
    ('segments', ['boundaries', 'unit_sets', 'pairwise_means'])
    >>> doc = report.to_dict()
    >>> doc["schema"], doc["job"], doc["inputs"]
    (1, 'segments', ['sample_corpora/segments/segments.json'])
    """

    job: str = ""
    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    notes: list[str]

    def body(self) -> dict:
        """The job's own part of :meth:`to_dict` (everything but the envelope).

        Returns
        -------
        dict
        """
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The report in the stable JSON layout (schema 1).

        The envelope ``{"corpusagree": version, "schema": 1, "job", "inputs", "options",
        "bootstrap", …, "notes"}`` around the job's own parts. Undefined values stay float nan here;
        the JSON renderer writes them as null.

        Returns
        -------
        dict
        """
        return plain({"corpusagree": __version__, "schema": SCHEMA, "job": self.job,
                      "inputs": list(self.inputs), "options": self.options,
                      "bootstrap": None if self.bootstrap is None else self.bootstrap.as_dict(),
                      **self.body(), "notes": list(self.notes)})

    def to_json(self) -> str:
        """The report as a JSON document (:meth:`to_dict`, undefined values as null).

        Returns
        -------
        str

        Examples
        --------
        >>> import json
        >>> from corpusagree.analyses import table
        >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
        >>> json.loads(report.to_json())["coefficients"][0]["id"]
        'percent_agreement'
        """
        return _renderer("json")([self])

    def to_csv(self, folder: str | os.PathLike) -> list[Path]:
        """Write every table as ``<folder>/<table id>.csv``.

        Parameters
        ----------
        folder : str or path-like
            Made when missing.

        Returns
        -------
        list of pathlib.Path
            The files written.

        Examples
        --------
        >>> import tempfile
        >>> from corpusagree.analyses import table
        >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
        >>> [p.name for p in report.to_csv(tempfile.mkdtemp())]  # the notes too
        ['coefficients.csv', 'notes.csv']
        """
        return _renderer("csv_files")([self], Path(folder))

    def to_html(self, path: str | os.PathLike | None = None) -> str:
        """The report as one self-contained HTML page with its plots (needs matplotlib).

        Parameters
        ----------
        path : str or path-like, optional
            Where to write the page.

        Returns
        -------
        str
            The page.
        """
        page = _renderer("html")([self])
        if path is not None:
            Path(path).write_text(page, encoding="utf-8")
        return page

    def _repr_html_(self) -> str:
        return _renderer("html_fragment")(self)

    def summary(self) -> str:
        """One line saying what was measured on what (the report's ``repr``)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.summary()})"

    def headline(self) -> Estimate | None:
        """The coefficient a reader looks at first (the first α), or None.

        Returns
        -------
        Estimate or None
        """
        return None

    def plots(self) -> list[Plot]:
        """Pictures of what the tables cannot show, as data the HTML renderer draws.

        By default the bootstrap distribution of :meth:`headline` when it has an interval; jobs add
        their own (heatmaps of coders, continua, confusion matrices).

        Returns
        -------
        list of Plot
        """
        e = self.headline()
        if e is None or e.interval is None or e.interval.distribution is None:
            return []
        return [bootstrap_plot(e.result.symbol, e.result.distance, e.value, e.interval)]


def bootstrap_plot(symbol: str, what: str, value: float, iv: Interval) -> Plot:
    """The bootstrap distribution of a coefficient's ``value`` with its interval ``iv``."""
    return Plot("bootstrap", f"Bootstrap distribution of {symbol} ({what})", "bootstrap",
                {"distribution": iv.distribution, "estimate": value, "low": iv.low,
                 "high": iv.high, "label": symbol}, [bootstrap_caption(iv)])


@dataclass
class Plot:
    """A picture of part of a report, as data.

    Parameters
    ----------
    id : str
        Unique within the report.
    title : str
    kind : str
        The drawing: ``bootstrap``, ``continuum``, ``heatmap`` of coders, ``confusion`` of
        labels, ``bars`` with intervals.
    data : dict
        The drawing's arguments.
    notes : list of str, optional
        Captions.
    """

    id: str
    title: str
    kind: str
    data: dict
    notes: list[str] = field(default_factory=list)


# ---- coefficients with intervals ---------------------------------------------------------------
@dataclass(repr=False)
class Estimate:
    """A coefficient's :class:`~corpusagree.Result` with its bootstrap interval and readings.

    Parameters
    ----------
    result : Result
    interval : Interval, optional
        None when no interval was asked for.

    Examples
    --------
    >>> import corpusagree as ca
    >>> from corpusagree.analyses import table
    >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
    >>> alpha = report.coefficients[5]
    >>> alpha.id, round(alpha.value, 4), alpha.conventions()["krippendorff"]["label"]
    ('alpha', 0.4193, 'below .667: discounted')
    """

    result: Result
    interval: Interval | None = None

    def __repr__(self) -> str:
        return f"Estimate({self.result!r}, interval={self.interval!r})"

    @property
    def id(self) -> str:
        """The coefficient's id."""
        return self.result.id

    @property
    def value(self) -> float:
        """The coefficient's value."""
        return self.result.value

    @property
    def chance_corrected(self) -> bool:
        """False for A_o and B, which are not read on the conventional scales."""
        return coefficient_table.get(self.id).chance_corrected

    def conventions(self) -> dict | None:
        """Where the value falls on Krippendorff's and Landis & Koch's scales.

        Conventions, not verdicts (Artstein & Poesio 2005, §5.2).

        Returns
        -------
        dict or None
            ``{"krippendorff": …, "landis_koch": …}``; None for A_o and B.
        """
        if not self.chance_corrected:
            return None
        return {k: r.as_dict() if r else None
                for k, r in interpret.readings(self.result.value).items()}

    def to_dict(self) -> dict:
        """The result, its interval and its readings, as the JSON writes a coefficient."""
        return {**self.result.as_dict(), "interval": interval_dict(self.interval),
                "conventions": self.conventions()}


def interval_dict(iv: Interval | None) -> dict | None:
    """An interval as JSON beneath its coefficient (which names the coefficient and distance)."""
    if iv is None:
        return None
    return {k: v for k, v in iv.as_dict().items() if k not in ("coefficient", "distance")}


def first_alpha(rows: Iterable[Estimate]) -> Estimate | None:
    """The first α (or α′) of ``rows``, else the first row, else None."""
    rows = list(rows)
    return next((e for e in rows if e.id.startswith("alpha")), rows[0] if rows else None)


def odd_one_out(names: Sequence[str], matrix: np.ndarray) -> tuple[str, ...]:
    """The name whose removal raises the mean over the other pairs of a symmetric matrix most
    (as a 1-tuple, for :attr:`Table.marked`); empty with fewer than three names, or when no
    removal raises the mean."""
    n = len(names)
    r, s = np.triu_indices(n, 1)
    vals = np.asarray(matrix, dtype=float)[r, s]
    ok = ~np.isnan(vals)
    best, odd = (vals[ok].mean() if ok.any() else np.nan), ()
    for a in range(n if n >= 3 else 0):
        rest = vals[(r != a) & (s != a) & ok]
        if rest.size and rest.mean() > best:
            best, odd = rest.mean(), (str(names[a]),)
    return odd


def quiet(fn: Callable, *args, **kwargs):
    """``fn(...)`` with DegenerateWarning silenced; nan when the coefficient is undefined for
    the data (ValueError: too few coders or judgements)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        try:
            return fn(*args, **kwargs)
        except ValueError:
            return float("nan")


def estimates(data: ReliabilityData, specs: Sequence[tuple[str, Any]],
              settings: Bootstrap | None = None, *, progress=None, notes: list[str] | None = None,
              categories=None) -> Records:
    """Every (coefficient id, distance) of ``specs`` on ``data``, with bootstrap intervals on
    the same replicates when ``settings`` is given (coefficients the bootstrap cannot resample,
    Light's κ, get none). Replicates that give no value are counted into ``notes``."""
    results = [compute(c, data, d if coefficient_table.get(c).weighted else None,
                       categories) for c, d in specs]
    intervals: list[Interval | None] = [None] * len(results)
    if settings is not None:
        which = [j for j, (c, _) in enumerate(specs) if coefficient_table.get(c).resamplable]
        found = bootstrap(data, [(specs[j][0], results[j]._kernel.distance) for j in which],
                          settings, progress=progress)
        for j, iv in zip(which, found, strict=True):
            intervals[j] = iv
            if notes is not None and iv.dropped:
                notes.append(f"{results[j].symbol} ({iv.distance}): {iv.dropped} of "
                             f"{iv.n_resamples} resamples gave no value and were left out of "
                             "its interval")
            if notes is not None and iv.note:
                notes.append(f"{results[j].symbol} ({iv.distance}): {iv.note}")
    return Records(Estimate(r, i) for r, i in zip(results, intervals, strict=True))


def estimate_table(id: str, title: str, rows: Iterable[Estimate], *,
                   lead: Sequence[tuple[Column, Callable[[Estimate], Any]]] = (),
                   notes: Sequence[str] = ()) -> Table:
    """A table of coefficients: optional leading columns, then coefficient, distance, value,
    the interval and Krippendorff's q = P(coefficient < .667) when there are intervals, Do,
    De and the conventional reading."""
    rows = list(rows)
    ivs = [e.interval for e in rows if e.interval is not None]
    cols = [c for c, _ in lead] + [Column("id", "id", hidden=True),
                                   Column("coefficient", "coefficient"),
                                   Column("distance", "distance"),
                                   Column("value", "value", "float")]
    if ivs:
        cols += [Column("interval", f"{ivs[0].level:.0%} CI", "interval"),
                 Column("q", "P(<.667)", "float", 3)]
    cols += [Column("observed", "Do", "float", optional=True),
             Column("expected", "De", "float", optional=True),
             Column("reading", "K · L&K", optional=True)]
    body = []
    for e in rows:
        r = e.result
        line = [f(e) for _, f in lead] + [r.id, r.symbol, r.distance, r.value]
        if ivs:
            iv = e.interval
            line += [None if iv is None else (iv.low, iv.high),
                     iv.q.get(0.667) if iv is not None and e.chance_corrected else None]
        line += [r.observed, r.expected,
                 interpret.short(r.value) if e.chance_corrected else None]
        body.append(line)
    out_notes = list(notes) + list(dict.fromkeys(
        n for e in rows if (n := coefficient_table.get(e.id).note))) + [interpret.SHORT_LEGEND]
    if ivs:
        out_notes.append(bootstrap_caption(ivs))
    return Table(id, title, cols, body, out_notes)


def bootstrap_caption(intervals: Interval | Sequence[Interval]) -> str:
    """How intervals were made, for the line under a table: method, replicates, resampling
    units (a range when the rows resample different numbers), seed."""
    ivs = [intervals] if isinstance(intervals, Interval) else list(intervals)
    iv = ivs[0]
    lo, hi = min(i.units for i in ivs), max(i.units for i in ivs)
    n = str(lo) if lo == hi else f"{lo}–{hi}"
    units = "clusters" if all(i.clustered for i in ivs) else \
        "items" if not any(i.clustered for i in ivs) else "clusters or items"
    return f"{iv.method}, {iv.n_resamples} resamples of {n} {units}, seed {iv.seed}"


def title(inputs: Sequence[str], default: str) -> str:
    """The one path, or the folder the paths share and how many they are."""
    if not inputs:
        return default
    if len(inputs) == 1:
        return str(inputs[0])
    common = Path(os.path.commonpath([Path(p).absolute() for p in inputs]))
    try:
        common = common.relative_to(Path.cwd())
    except ValueError:
        pass
    return f"{common}/ ({len(inputs)} paths)"
