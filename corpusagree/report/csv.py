"""Report tables as CSV, in two shapes that pandas and spreadsheets read as they are.

* :func:`tidy`: every table of every report as one long table ``table,row,column,value`` (one
  cell per line; ``row`` counts from 0 within the table; with several reports the table is
  ``job/id``, numbered ``job-2/id`` when a job has several reports) — what ``--format csv``
  writes to a stream;
* :func:`write_files`: one file per table, ``<table id>.csv``, the column keys as its header
  row (intervals as ``…_low``/``…_high``) — what ``--output FOLDER/`` and
  ``Report.to_csv(folder)`` write.

A report's notes (what it left out and why, what a figure means …), which the other formats
print, are a table ``notes`` in both shapes, ``table,note`` (``table`` empty for a note of the
whole report, else the id of the table it belongs to); it is there when the report has notes.

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
from .write import write_text

__all__ = ["TIDY", "file_name", "notes", "table_csv", "table_names", "tidy", "write_files"]

#: the header of the tidy table
TIDY = ("table", "row", "column", "value")
#: the name of a report's table of notes, and its columns
NOTES, NOTE_COLUMNS = "notes", ("table", "note")


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
    return [[f"{prefix}{t}" for t in r.tables]
            for r, prefix in zip(reports, _prefixes(reports, qualified), strict=True)]


def _prefixes(reports: Sequence[Document], qualified: bool = False) -> list[str]:
    """What :func:`table_names` puts before each report's table ids (``""`` or ``job/``)."""
    if len(reports) == 1 and not qualified:
        return [""]
    many = Counter(r.job for r in reports)
    seen: Counter = Counter()
    out = []
    for r in reports:
        seen[r.job] += 1
        out.append((r.job if many[r.job] == 1 else f"{r.job}-{seen[r.job]}") + "/")
    return out


def notes(report: Document) -> list[dict]:
    """The report's notes as rows ``{"table": …, "note": …}``: its own (table empty), then
    each table's (its id)."""
    rows = [{"table": "", "note": n} for n in report.notes]
    for tid, t in report.tables.items():
        rows += [{"table": tid, "note": n} for n in t.notes]
    return rows


def notes_csv(rows: list[dict]) -> str:
    """Rows of :func:`notes` as CSV with the header ``table,note``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(NOTE_COLUMNS)
    w.writerows((r["table"], r["note"]) for r in rows)
    return out.getvalue()


def file_name(name: str) -> str:
    """The CSV file of a table named by :func:`table_names` (``/`` as ``.``)."""
    return name.replace("/", ".") + ".csv"


def tidy(reports: Sequence[Document]) -> str:
    """Every table of ``reports`` as one tidy CSV table ``table,row,column,value``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(TIDY)
    for r, names, prefix in zip(reports, table_names(reports), _prefixes(reports), strict=True):
        for name, t in zip(names, r.tables.values(), strict=True):
            for n, rec in enumerate(t.records()):
                w.writerows((name, n, k, _value(v)) for k, v in rec.items())
        for n, rec in enumerate(notes(r)):
            w.writerows((prefix + NOTES, n, k, v) for k, v in rec.items())
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
    for r, names, prefix in zip(reports, table_names(reports), _prefixes(reports), strict=True):
        files = [(name, table_csv(t)) for name, t in zip(names, r.tables.values(), strict=True)]
        if rows := notes(r):
            files.append((prefix + NOTES, notes_csv(rows)))
        for name, text in files:
            written.append(write_text(folder / file_name(name), text))
    return written
