"""Segment-position tables: every unit carries the 1-based number of the segment it belongs to.

Two layouts, one document per file (the document is the file name without extension):

* one column per coder (Kazantseva & Szpakowicz's Moonstone): header ``paragraph,an1,an2,...``,
  then one row per unit; the first header cell names the unit. A coder whose column is empty did
  not segment this document and is left out.
* one row per coder (segeval's legacy positions file): header ``Coder,Positions``, then
  ``coder,1,1,2,2,...``.

Comma- or tab-separated (guessed from the header); UTF-8, falling back to cp1252. Segment
numbers may skip values but must never decrease.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from itertools import groupby, zip_longest
from os import PathLike
from pathlib import Path

from ..model.corpus import Segmentation
from ..model.errors import InputError, Problems, quote
from ..model.io import as_text, check_delimiter, display, read_bytes, read_text
from . import Option, _paths, register
from ._segfiles import check_annotators

SUFFIXES = (".csv", ".tsv")


def _files(paths: str | PathLike | Iterable[str | PathLike]) -> list[Path]:
    return _paths.all_files(paths, SUFFIXES)


def _text(path: Path, encoding: str | None) -> str:
    """The file's text in ``encoding``, else UTF-8 (the error is UTF-8's when cp1252, the
    fallback, fails too)."""
    if encoding:
        return read_text(path, encoding)
    data = read_bytes(path)  # a file that cannot be read is not retried as cp1252
    try:
        return as_text(data, display(path))
    except InputError as utf8:  # the bytes are not UTF-8: the one error decoding gives
        try:
            return as_text(data, display(path), "cp1252")
        except InputError:
            raise InputError(utf8.message.replace(";", ", nor cp1252;", 1), utf8.path,
                             utf8.line) from None


def _rows(text: str, delimiter: str | None, path: Path | None = None
          ) -> list[tuple[int, list[str]]]:
    """Non-blank records with the line each starts on; a cell may be as long as the text."""
    first = text.split("\n", 1)[0]
    delim = delimiter or ("\t" if "\t" in first else ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    out, line = [], 1
    limit = csv.field_size_limit(max(csv.field_size_limit(), len(text) + 1))
    try:
        for record in reader:
            cells = list(map(str.strip, record))
            if any(cells):
                out.append((line, cells))
            line = reader.line_num + 1
    except csv.Error as e:
        raise InputError(f"malformed CSV: {e}", path, line) from None
    finally:
        csv.field_size_limit(limit)
    return out


def _masses(cells: Sequence[str], lines: Sequence[int], coder: str, path: Path
            ) -> tuple[int, ...]:
    """Masses from a coder's segment numbers (``lines``: each cell's line); checks integers and
    monotonicity. A segment's cells repeat its number: they are checked once per run of equal
    cells, at the run's first cell, where a cell by cell check would fail first."""
    masses: list[int] = []
    last = None
    at = 0  # the run's first cell
    for cell, run in groupby(cells):
        size = len(list(run))
        try:
            value = int(cell)
        except ValueError:
            raise InputError(f"coder {quote(coder)}: segment number {quote(cell)} is not an "
                             f"integer",
                             path, lines[at]) from None
        if last is not None and value < last:
            raise InputError(f"coder {quote(coder)}: segment {value} follows segment "
                             f"{last} (segment numbers must not decrease)", path, lines[at])
        if value == last:  # "1" then "01": one segment
            masses[-1] += size
        else:
            masses.append(size)
        last, at = value, at + size
    return tuple(masses)


def _by_column(rows: list[tuple[int, list[str]]], path: Path) -> dict[str, tuple[int, ...]]:
    header = rows[0][1]
    coders = header[1:]
    if not coders:
        raise InputError("expected a unit column then one column per coder", path, rows[0][0])
    # lines and records apart, and the widest record, without a Python loop over the rows
    lines, records = zip(*rows[1:], strict=True) if len(rows) > 1 else ((), ())
    if records and max(map(len, records)) > len(header):
        line, cells = next((line, cells) for line, cells in rows[1:] if len(cells) > len(header))
        raise InputError(f"{len(cells)} cells but the header has {len(header)}", path, line)
    # the columns, a short row's missing cells empty (zip_longest pads them without copying
    # each row, which cost a third of a read); columns no row reaches are left out, as a coder
    # with no cells is skipped below
    columns = list(zip_longest(*records, fillvalue=""))
    out = {}
    for coder, cells in zip(coders, columns[1:], strict=False):
        if not any(cells):
            continue
        if not all(cells):
            raise InputError(f"coder {quote(coder)} has no segment number for this unit but has "
                             "some for others (leave the whole column empty to skip a document)",
                             path, lines[cells.index("")])
        out[coder] = _masses(cells, lines, coder, path)
    return out


def _by_row(rows: list[tuple[int, list[str]]], path: Path) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {}
    total = None
    for line, cells in rows[1:]:
        coder, numbers = cells[0], [c for c in cells[1:] if c]
        if not numbers:
            continue
        if total is not None and len(numbers) != total:
            raise InputError(f"coder {quote(coder)} has {len(numbers)} positions, earlier coders "
                             f"{total}", path, line)
        total = len(numbers)
        out[coder] = _masses(numbers, [line] * total, coder, path)
    return out


def sniff(path: str | PathLike) -> bool:
    """True for a .csv/.tsv whose second row is a unit label then integers (or empty cells),
    or a folder whose first such file is one."""
    path = Path(path)
    if path.is_dir():
        return any(sniff(f) for f in _paths.files(path, SUFFIXES)[:1])
    if path.suffix.lower() not in SUFFIXES or not path.is_file():
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("cp1252", errors="replace")
    except OSError:
        return False
    try:
        rows = _rows("\n".join(head.splitlines()[:2]), None)
    except InputError:
        return False
    if len(rows) < 2 or len(rows[0][1]) < 2:
        return False
    return all(c.isdigit() or not c for c in rows[1][1][1:])


@register("segments", "positions", layout="file", sniff=sniff,
          summary="segment-position tables (.csv/.tsv): a column per coder (Moonstone, "
          "Kazantseva & Szpakowicz 2012) or a row per coder (segeval positions)",
          options=(Option("unit", "positions: name of the unit a row stands for (default: the "
                          "first header cell, or 'unit')"),
                   Option("delimiter", "positions: field separator (default: tab if the header "
                          "has one, else comma)"),
                   Option("encoding", "positions, plain text: file encoding (positions default: "
                          "UTF-8, else cp1252)")))
def read(paths: str | PathLike | Iterable[str | PathLike], annotators: Iterable[str] | None = None,
         unit: str | None = None, delimiter: str | None = None,
         encoding: str | None = None) -> list[Segmentation]:
    """Segmentations from position tables (directories are searched for .csv/.tsv).

    ``annotators`` keeps only those coders. ``unit`` defaults to the first header cell of the
    column layout (``"paragraph"`` in Moonstone) or ``"unit"``.
    """
    check_delimiter(delimiter)
    keep = None if annotators is None else set(annotators)
    out: list[Segmentation] = []
    found: set[str] = set()
    problems = Problems()
    for path in _files(paths):
        with problems.collect():
            rows = _rows(_text(path, encoding), delimiter, path)
            if not rows:
                raise InputError("empty file", path)
            by_row = rows[0][1][0].lower() == "coder"
            coders = _by_row(rows, path) if by_row else _by_column(rows, path)
            name = unit or (rows[0][1][0] if not by_row and rows[0][1][0] else "unit")
            doc = path.stem or path.name
            found.update(coders)
            out.extend(Segmentation(doc, coder, masses, unit=name, source=str(path))
                       for coder, masses in coders.items() if keep is None or coder in keep)
    problems.check()
    check_annotators(keep, found, paths)
    return out


__all__ = ["SUFFIXES", "read", "sniff"]
