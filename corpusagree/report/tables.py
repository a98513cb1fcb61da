"""The table model of a report: what the renderers draw, as data.

A report gives its content as :class:`Table` s (rows of raw values under :class:`Column` s,
no formatting) and :class:`Plot` s (a drawing's data); every list of rows is a
:class:`Records` with ``to_frame()`` for pandas users. The renderers of this package read
them and never compute; the analyses above make them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from ..model.records import frame
from ..stats import interpret
from ..stats.inference import Interval

__all__ = ["THRESHOLDS", "Column", "Document", "Plot", "Record", "Records", "Table", "Tables",
           "WithTables", "bootstrap_caption", "bootstrap_plot", "optional", "spread"]

#: Krippendorff's thresholds .667 and .800 (Krippendorff 1980, p. 147), which the pictures of
#: a chance-corrected coefficient mark (:attr:`Table.thresholds`)
THRESHOLDS = tuple(b.low for b in interpret.KRIPPENDORFF.bands if math.isfinite(b.low))


def optional(default: Any = None) -> Any:
    """A field of a :class:`Record` left out of its keys (and of the JSON) while None.

    For a key a row has only in some reports (a model's accuracy against a gold label when
    there is one), as the JSON Schema has it: absent, not null.
    """
    return field(default=default, metadata={"optional": True})


def spread() -> Any:
    """A field of a :class:`Record` (a dict, str → value) whose items are the row's own keys.

    For keys named by the data (one per coreference score, one per coder), which the JSON
    writes beside the row's fixed keys, in the field's place.
    """
    return field(default_factory=dict, metadata={"spread": True})


class Record:
    """The base of a report's typed parts (rows): a dataclass read as a mapping too.

    A subclass is a dataclass whose fields are the row's keys, in the order of its JSON
    object: ``row.document`` and ``row["document"]`` are one value; ``dict(row)``,
    ``row.get(…)``, ``key in row``, ``row.keys()`` and iterating over its keys work as on the
    dict the row once was, and :meth:`to_dict` is what the JSON, the CSV and
    ``Records.to_frame`` read. A field made with :func:`optional` is left out while None; one
    made with :func:`spread` gives its items as keys.

    Not a :class:`collections.abc.Mapping`: its ``items`` and ``values`` would shadow fields
    of those names (a row's ``items``, the count); ``row.to_dict().items()`` gives the pairs.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> from corpusagree.report.tables import Record, optional
    >>> @dataclass
    ... class Doc(Record):
    ...     document: str
    ...     alpha: float
    ...     gold: float | None = optional()
    >>> row = Doc("d1", 0.5)
    >>> row.alpha == row["alpha"], dict(row), "gold" in row
    (True, {'document': 'd1', 'alpha': 0.5}, False)
    """

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """The row as a dict, in the order of its fields (optional ones left out while None,
        spread ones spread).

        Returns
        -------
        dict
        """
        out: dict[str, Any] = {}
        for f in _fields(type(self)).values():
            v = getattr(self, f.name)
            if f.metadata.get("spread"):
                out.update(v)
            elif v is not None or not f.metadata.get("optional"):
                out[f.name] = v
        return out

    def __getitem__(self, key: str) -> Any:
        f = _fields(type(self)).get(key)
        if f is not None and not f.metadata.get("spread"):
            v = getattr(self, key)
            if v is not None or not f.metadata.get("optional"):
                return v
            raise KeyError(key)
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())

    def __contains__(self, key: object) -> bool:
        return key in self.to_dict()

    def keys(self) -> Iterable[str]:
        """The row's keys, as its JSON object has them (what ``dict(row)`` reads).

        Returns
        -------
        KeysView of str
        """
        return self.to_dict().keys()

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, ``default`` when the row has no such key.

        Parameters
        ----------
        key : str
            A key of the row (a field's name, or a key of a spread field).
        default : object, optional
            What to give when the row has no ``key`` (an optional field while None).

        Returns
        -------
        object
        """
        try:
            return self[key]
        except KeyError:
            return default


def _fields(cls: type) -> dict[str, dataclasses.Field]:
    """A :class:`Record` class's fields by name (kept on the class)."""
    found = cls.__dict__.get("_record_fields")
    if found is None:
        found = {f.name: f for f in dataclasses.fields(cls)}
        cls._record_fields = found
    return found


R = TypeVar("R")


class Records(list, Generic[R]):
    """A list of report rows (:class:`Record` s, other dataclasses with ``to_dict``, or dicts)
    that pandas can take; ``Records[Row]`` declares the type of its rows.

    Parameters
    ----------
    iterable : iterable of dict or dataclass, optional
        The rows (none by default), as for :class:`list`.

    Examples
    --------
    >>> from corpusagree.report.tables import Records
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
    >>> from corpusagree.report.tables import Column
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
        The columns, in the order of each row's values.
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
    >>> from corpusagree.report.tables import Column, Table
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

    Parameters
    ----------
    tables : iterable of Table
        The tables, in order; two with one id are a ValueError.

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
        """The tables by id, in order (see :class:`Tables`), built once (by ``_tables()``)
        the first time they are asked for: the renderers and ``to_frame`` ask often."""
        built = self.__dict__.get("_built_tables")
        if built is None:
            built = Tables(self._tables())
            object.__setattr__(self, "_built_tables", built)
        return built

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


@dataclass
class Plot:
    """A picture of part of a report, as data.

    Parameters
    ----------
    id : str
        Unique within the report.
    title : str
        The title people read.
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


def bootstrap_plot(symbol: str, what: str, value: float, iv: Interval) -> Plot:
    """The bootstrap distribution of a coefficient's ``value`` with its interval ``iv``."""
    return Plot("bootstrap", f"Bootstrap distribution of {symbol} ({what})", "bootstrap",
                {"distribution": iv.distribution, "estimate": value, "low": iv.low,
                 "high": iv.high, "label": symbol}, [bootstrap_caption(iv)])


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


class Document(Protocol):
    """What a renderer reads of a report (:class:`corpusagree.report.document.Report`):
    its ``job``, ``inputs``, ``options``, ``bootstrap`` and ``notes``, its ``tables``,
    ``to_dict()``, ``summary()``, ``headline()`` and ``plots()``."""

    job: str
    inputs: list[str]
    options: dict
    bootstrap: Any
    notes: list[str]

    @property
    def tables(self) -> Tables: ...

    def to_dict(self) -> dict: ...

    def summary(self) -> str: ...

    def headline(self) -> Any: ...

    def plots(self) -> list[Plot]: ...
