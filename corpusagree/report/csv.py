"""Report tables as CSV, in two shapes that pandas and spreadsheets read as they are.

* :func:`tidy`: every table of every report as one long table ``table,row,column,value`` (one
  cell per line; ``row`` counts from 0 within the table; with several reports the table is
  ``job/id``, numbered ``job-2/id`` when a job has several reports) — what ``--format csv``
  writes to a stream;
* :func:`write_files`: one file per table, ``<table id>.csv``, the column keys as its header
  row (intervals as ``…_low``/``…_high``) — what ``--output FOLDER/`` and
  ``Report.to_csv(folder)`` write.

Values are written unformatted (full precision); undefined values are empty.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..model.errors import InputError
from .tables import Document, Table

__all__ = ["TIDY", "file_name", "table_csv", "table_names", "tidy", "write_files"]

#: the header of the tidy table
TIDY = ("table", "row", "column", "value")


def _value(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, (list, tuple, set, frozenset)):
        return "|".join(sorted(map(str, v)) if isinstance(v, (set, frozenset)) else map(str, v))
    return str(v)


def table_csv(t: Table) -> str:
    """One table as CSV: its column keys as the header row, a line per row."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    records = t.records()
    keys = list(records[0]) if records else [c.key for c in t.columns]
    w.writerow(keys)
    for rec in records:
        w.writerow([_value(rec[k]) for k in keys])
    return out.getvalue()


def table_names(reports: Sequence[Document], qualified: bool = False) -> list[list[str]]:
    """The name of each table of each report: its id for one report, ``job/id`` for several
    (``job-2/id`` for a job's second report) and, when ``qualified``, for one too."""
    if len(reports) == 1 and not qualified:
        return [list(reports[0].tables)]
    many = Counter(r.job for r in reports)
    seen: Counter = Counter()
    out = []
    for r in reports:
        seen[r.job] += 1
        prefix = r.job if many[r.job] == 1 else f"{r.job}-{seen[r.job]}"
        out.append([f"{prefix}/{t}" for t in r.tables])
    return out


def file_name(name: str) -> str:
    """The CSV file of a table named by :func:`table_names` (``/`` as ``.``)."""
    return name.replace("/", ".") + ".csv"


def tidy(reports: Sequence[Document]) -> str:
    """Every table of ``reports`` as one tidy CSV table ``table,row,column,value``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(TIDY)
    for r, names in zip(reports, table_names(reports), strict=True):
        for name, t in zip(names, r.tables.values(), strict=True):
            for n, rec in enumerate(t.records()):
                w.writerows((name, n, k, _value(v)) for k, v in rec.items())
    return out.getvalue()


def write_files(reports: Sequence[Document], folder: Path) -> list[Path]:
    """One CSV file per table of ``reports`` in ``folder`` (made when missing), named by
    :func:`table_names` (:func:`file_name`); the files written."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot make the folder: {e.strerror}", folder) from None
    if not folder.is_dir():
        raise InputError("not a folder", folder)
    written = []
    for r, names in zip(reports, table_names(reports), strict=True):
        for name, t in zip(names, r.tables.values(), strict=True):
            path = folder / file_name(name)
            try:
                path.write_text(table_csv(t), encoding="utf-8", newline="")
            except OSError as e:
                raise InputError(f"cannot write: {e.strerror}", path) from None
            written.append(path)
    return written
