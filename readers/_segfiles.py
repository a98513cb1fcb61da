"""Plumbing shared by the segmentation readers (their files are found by :mod:`._paths`): text
decoding, unit-sequence checks, and the coder-mapping file of corpora whose coder names are
local to each document (Kazantseva & Szpakowicz 2012's Moonstone)."""

from __future__ import annotations

import codecs
import csv
import io
from os import PathLike
from pathlib import Path

from ..model.errors import InputError
from ..model.io import not_utf8

#: the header of a coder-mapping file
CODER_MAP_COLUMNS = ("document", "coder", "person")


def read_text(path: str | PathLike, encoding: str | None = None) -> str:
    """The text of a file in ``encoding`` (default UTF-8; a UTF-8 byte order mark is dropped);
    an InputError says where decoding failed (``file:line: not UTF-8 (byte 0xe9 at column
    17); save the file as UTF-8``)."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror or e}", path) from None
    try:
        codec = codecs.lookup(encoding or "utf-8").name
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None
    utf8 = codec == "utf-8"
    try:
        return data.decode("utf-8-sig" if utf8 else codec)
    except UnicodeDecodeError as e:
        if utf8:
            raise not_utf8(e, str(path)) from None
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - data.rfind(b"\n", 0, e.start)
        raise InputError(f"not {encoding} (byte 0x{data[e.start]:02x} at byte column {column})",
                         path, line) from None


def shown(unit: str | None, limit: int = 40) -> str:
    """A unit for a one-line message: its repr, cut to ``limit`` characters with ``…``, or
    ``end of text`` for None (past the last unit)."""
    if unit is None:
        return "end of text"
    text = repr(unit[:limit + 1])
    return text if len(unit) <= limit else text[:-2] + "…" + text[-1]


def first_difference(a: list[str], b: list[str]) -> int | None:
    """Index of the first unit where two unit sequences differ (None if identical)."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def check_annotators(keep: set | None, found: set) -> None:
    """The annotators asked for must all have been found."""
    if keep is not None and keep - found:
        raise InputError(f"annotators not found: {', '.join(sorted(keep - found))}")


def read_coder_map(path: str | PathLike) -> dict[tuple[str, str], str]:
    """A coder-mapping file: CSV (or TSV) with the header ``document,coder,person``, one row
    per coder of a document saying which person that coder is — for corpora whose coder names
    are local to each document (Moonstone's ``an1 … an6`` are different people in different
    chapters; Kazantseva & Szpakowicz 2012). Returns ``(document, coder) -> person``."""
    text = read_text(path)
    first = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t" if "\t" in first else ",")
    out: dict[tuple[str, str], str] = {}
    lines: dict[tuple[str, str], int] = {}
    header: list[str] | None = None
    line = 1
    try:
        for record in reader:
            cells = [c.strip() for c in record]
            if any(cells):
                if header is None:
                    header = [c.lower() for c in cells]
                    if tuple(header) != CODER_MAP_COLUMNS:
                        raise InputError(f"a coder map needs the header "
                                         f"{','.join(CODER_MAP_COLUMNS)}; found "
                                         f"{','.join(cells)}", path, line)
                elif len(cells) != 3 or not all(cells):
                    raise InputError("expected three non-empty cells: document, coder, person",
                                     path, line)
                else:
                    key = (cells[0], cells[1])
                    if key in out:
                        raise InputError(f"document {key[0]!r}, coder {key[1]!r} is mapped "
                                         f"twice (first at line {lines[key]})", path, line)
                    out[key], lines[key] = cells[2], line
            line = reader.line_num + 1
    except csv.Error as e:
        raise InputError(f"malformed CSV: {e}", path, line) from None
    if not out:
        raise InputError("empty coder map: expected rows document,coder,person", path)
    return out
