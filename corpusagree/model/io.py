"""Reliability data and weight matrices from CSV/TSV text: parsing only, with errors that name
the file and line. ``-`` as a path reads standard input.

Long tables have one judgement per row (coder, item, label, optionally a group such as the
document); wide tables one row per coder and one column per item (Krippendorff's layout). Empty
cells and the usual missing-value spellings are missing judgements.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from os import PathLike

from .errors import InputError, listing, quote

#: cells read as a missing judgement
MISSING_CELLS = {"", "NA", "N/A", "NaN", "nan", ".", "*"}

Path_ = str | PathLike


def display(path: Path_) -> str:
    """How error messages name a path (``<stdin>`` for ``-``)."""
    return "<stdin>" if str(path) == "-" else str(path)


def read_text(path: Path_, encoding: str | None = None) -> str:
    """The text of a file (``-``: standard input) in ``encoding`` (default UTF-8; a UTF-8 byte
    order mark is dropped), with universal newlines (CRLF and CR are one newline); an
    InputError says where decoding failed. A device or pipe is refused before reading."""
    name = display(path)
    if str(path) == "-":
        data = _stdin()
    else:
        data = read_bytes(path)
    return as_text(data, name, encoding)


#: standard input once read, with the stream it came from: a second reading of ``-`` in the
#: same run (``--html`` analyses for the page and for the terminal) gets the same bytes
_STDIN: list = [None, b""]


def _stdin() -> bytes:
    if _STDIN[0] is not sys.stdin:
        _STDIN[:] = [sys.stdin, sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer")
                     else sys.stdin.read().encode("utf-8")]
    return _STDIN[1]


def as_text(data: bytes, name: Path_ | None, encoding: str | None = None) -> str:
    """``data`` decoded as :func:`read_text` decodes a file (a zip member, say), ``name`` in
    its messages."""
    return decode(data, name, encoding).replace("\r\n", "\n").replace("\r", "\n")


def regular(path: Path_) -> bool:
    """Whether a regular file (or a link to one) is at ``path``, asked without opening it:
    True if so, False when nothing is there; an InputError naming the path when something
    else is (a folder, a pipe, a device, a socket, a link to nothing) or the file system
    refuses the name (too long, say). Every file a reader opens passes here first, so that
    nothing is read as empty or waited on for ever (a pipe nobody writes to).

    >>> regular("pyproject.toml"), regular("no/such/file")
    (True, False)
    >>> regular("corpusagree")
    Traceback (most recent call last):
    ...
    corpusagree.model.errors.InputError: corpusagree: a folder where a file is expected
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        if os.path.islink(path):
            raise InputError(f"a link to nothing ({os.readlink(path)[:80]})", path) from None
        return False
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror or e}", path) from None
    except ValueError:  # a NUL in the name
        raise InputError("cannot read file: a NUL character in its name", path) from None
    if stat.S_ISREG(mode):
        return True
    if stat.S_ISDIR(mode):
        raise InputError("a folder where a file is expected", path)
    raise InputError("not a regular file", path)


def read_bytes(path: Path_) -> bytes:
    """The bytes of a file; anything but a regular file (a folder, /dev/zero, a FIFO nobody
    writes to) is refused by :func:`regular` before anything reads from it, and a file that
    cannot be read is an InputError."""
    regular(path)
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror or e}", path) from None


def decode(data: bytes, path: Path_ | None, encoding: str | None = None) -> str:
    """``data`` decoded from ``encoding`` (default UTF-8, without a byte order mark), or an
    InputError ``file:line: not UTF-8 (byte 0xe9 at column 17); save the file as UTF-8``."""
    try:
        codec = codecs.lookup(encoding or "utf-8").name
    except LookupError:
        raise InputError(f"unknown encoding {quote(encoding)}") from None
    if codec == "utf-8":
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8):]
        elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            raise InputError("not UTF-8 but UTF-16 (it starts with a UTF-16 byte order mark); "
                             "save the file as UTF-8", path, 1)
    try:
        return data.decode(codec)
    except UnicodeDecodeError as e:
        if codec == "utf-8":
            raise not_utf8(e, path) from None
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - data.rfind(b"\n", 0, e.start)
        raise InputError(f"not {encoding} (byte 0x{data[e.start]:02x} at byte column {column})",
                         path, line) from None


def excerpt(text: str | None, limit: int = 40) -> str:
    """:func:`~corpusagree.model.errors.quote` of ``text`` cut to ``limit`` characters, for
    messages on one line; ``end of text`` for None (past the last unit)."""
    return "end of text" if text is None else quote(text, limit)


def not_utf8(error: UnicodeDecodeError, path: Path_ | None) -> InputError:
    """The one-line error for text that is not UTF-8: where decoding failed, and what to do."""
    prefix = bytes(error.object[:error.start])
    start = prefix.rfind(b"\n") + 1
    column = len(prefix[start:].decode("utf-8-sig", "replace")) + 1
    return InputError(f"not UTF-8 (byte 0x{error.object[error.start]:02x} at column {column}); "
                      "save the file as UTF-8", path, prefix.count(b"\n") + 1)


def check_delimiter(delimiter: str | None) -> str | None:
    """``delimiter`` if it is None (sniffed) or one character, else an InputError naming it
    (the csv module takes nothing else).

    >>> check_delimiter(";")
    ';'
    >>> check_delimiter("ab")
    Traceback (most recent call last):
    ...
    corpusagree.model.errors.InputError: the delimiter must be one character, not 'ab'
    """
    if delimiter is not None and (not isinstance(delimiter, str) or len(delimiter) != 1):
        raise InputError(f"the delimiter must be one character, not {delimiter!r}")
    return delimiter


def read_table(path: Path_, delimiter: str | None = None) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of a CSV/TSV file; the delimiter is sniffed from the first line
    (tab, comma or semicolon) when not given."""
    text = read_text(path)
    if delimiter is None:
        first = text.split("\n", 1)[0]
        delimiter = "\t" if "\t" in first else ("," if "," in first else
                                                (";" if ";" in first else ","))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for row in reader:
            yield reader.line_num, row
    except csv.Error as e:
        raise InputError(f"bad CSV: {e}", display(path), reader.line_num) from None


def as_number(v: float) -> float | int:
    """An int when the value is integral (so labels 1 and 1.0 are one label)."""
    v = float(v)
    return int(v) if v.is_integer() else v


def parse_number(raw: str, path: Path_ | None, lineno: int | None) -> float | int:
    """A finite number, or InputError naming the cell's file and line."""
    try:
        v = float(raw)
    except ValueError:
        raise InputError(f"{quote(raw)} is not a number", path, lineno) from None
    if not math.isfinite(v):
        raise InputError(f"{quote(raw)} is not a finite number", path, lineno)
    return as_number(v)


def parse_numbers(values: Iterable, keyword: str) -> list[float | int]:
    """Each of ``values`` (a keyword's list, ``categories=[1, 2]``) as a finite number; an
    InputError naming the keyword and the first value that is not one.

    >>> parse_numbers(["1", 2.5], "categories")
    [1, 2.5]
    """
    out = []
    for v in values:
        x = float(str(v)) if is_number_text(str(v)) else math.nan
        if not math.isfinite(x):
            raise InputError(f"{keyword}=[...] holds {quote(v)}, not a finite number")
        out.append(as_number(x))
    return out


def is_number_text(s: str) -> bool:
    """Whether a cell reads as a number."""
    try:
        float(s)
    except ValueError:
        return False
    return True


def parse_cell(raw: str, set_sep: str | None, numeric: bool, path: Path_, lineno: int):
    """A label: None when missing, a frozenset with ``set_sep``, a number when ``numeric``."""
    if raw in MISSING_CELLS:
        return None
    if set_sep is not None:
        parts = [p.strip() for p in raw.split(set_sep)]
        if numeric:
            parts = [parse_number(p, path, lineno) for p in parts]
        return frozenset(p for p in parts if p != "")
    return parse_number(raw, path, lineno) if numeric else raw


def _header_and_rows(path: Path_, delimiter: str | None
                     ) -> tuple[str, list[str], list[tuple[int, list[str]]]]:
    """(name for messages, stripped header, every row with its line number) of a table."""
    name = display(path)
    rows = list(read_table(path, delimiter))
    if not rows:
        raise InputError("empty file", name)
    return name, [h.strip() for h in rows[0][1]], rows


def _body(rows: list[tuple[int, list[str]]], header: list[str], name: str
          ) -> Iterator[tuple[int, list[str]]]:
    """The non-blank rows after the header, each as wide as the header (else InputError)."""
    for lineno, row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise InputError(f"{len(row)} fields, the header has {len(header)}", name, lineno)
        yield lineno, row


def swap_item(pair: str, order: str) -> str:
    """The item of a pairwise judgement shown in one order (``--swap``): ``pair [order]``.

    >>> swap_item("q1", "BA"), split_swap_item("q1 [BA]")
    ('q1 [BA]', ('q1', 'BA'))
    """
    return f"{pair} [{order}]"


def split_swap_item(name: str) -> tuple[str, str]:
    """(pair, order) of an item made by :func:`swap_item`."""
    pair, _, order = str(name).rpartition(" [")
    return pair, order[:-1]


def read_long(path: Path_, *, coder: str = "coder", item: str = "item", label: str = "label",
              group: str | None = None, delimiter: str | None = None,
              set_sep: str | None = None, numeric: bool = False, run: str | None = None,
              swap: str | None = None) -> tuple[list[tuple], dict | None]:
    """(coder, item, label) triples of a long table and the item → group map (None without a
    group column); a duplicate judgement, a missing column or a ragged row is an InputError
    at its line. With a ``run`` column (repeated runs of the coders), (coder, item, label,
    run) quadruples, a judgement a duplicate only within its run. With a ``swap`` column (the
    order a pair was shown in), an item is the pair in one order (:func:`swap_item`), grouped
    by its pair unless ``group`` is given."""
    name, header, rows = _header_and_rows(path, delimiter)
    cols = {}
    for role, col in (("coder", coder), ("item", item), ("label", label)) + (
            (("group", group),) if group else ()) + ((("run", run),) if run else ()) + (
            (("swap", swap),) if swap else ()):
        if col not in header:
            raise InputError(f"no {role} column {quote(col)}; columns are "
                             f"[{listing(map(quote, header))}]", name,
                             rows[0][0])
        cols[role] = header.index(col)
    triples, groups = [], {}
    seen: dict = {}
    for lineno, row in _body(rows, header, name):
        c, i, raw = row[cols["coder"]].strip(), row[cols["item"]].strip(), \
            row[cols["label"]].strip()
        if "swap" in cols:
            if "group" not in cols:
                groups[swap_item(i, row[cols["swap"]].strip())] = i
            i = swap_item(i, row[cols["swap"]].strip())
        r = row[cols["run"]].strip() if run else None
        if r == "":
            raise InputError(f"empty run cell: with the run column {quote(run)} every row "
                             "names its run", name, lineno)
        if (c, i, r) in seen:
            where = "" if r is None else f" in run {quote(r)}"
            raise InputError(f"duplicate judgement by coder {quote(c)} on item {quote(i)}"
                             f"{where} (first on line {seen[(c, i, r)]})", name, lineno)
        seen[(c, i, r)] = lineno
        if "group" in cols:
            g = row[cols["group"]].strip()
            if groups.setdefault(i, g) != g:
                raise InputError(f"item {quote(i)} is in group {quote(groups[i])} and {quote(g)}",
                                 name, lineno)
        triples.append((c, i, parse_cell(raw, set_sep, numeric, name, lineno))
                       + ((r,) if run else ()))
    if not seen:
        raise InputError("no judgements in file", name)
    return triples, groups or None


def table_header(path: Path_, delimiter: str | None = None) -> list[str]:
    """The column names of a table's first row."""
    return _header_and_rows(path, delimiter)[1]


def item_values(path: Path_, column: str, *, item: str = "item",
                delimiter: str | None = None, numeric: bool = False) -> dict:
    """item → its value in ``column`` of a long table (one judgement per row; an item's rows
    must agree, empty cells say nothing): a per-item column such as a gold label. A missing
    column, or an item with two values, is an InputError at its line."""
    name, header, rows = _header_and_rows(path, delimiter)
    for col in (item, column):
        if col not in header:
            raise InputError(f"no column {quote(col)}; columns are "
                             f"[{listing(map(quote, header))}]", name,
                             rows[0][0])
    i_col, v_col = header.index(item), header.index(column)
    values: dict = {}
    for lineno, row in _body(rows, header, name):
        v = parse_cell(row[v_col].strip(), None, numeric, name, lineno)
        if v is None:
            continue
        it = row[i_col].strip()
        if values.setdefault(it, v) != v:
            raise InputError(f"item {it!r} has {column} {values[it]!r} and {v!r}", name, lineno)
    return values


def read_wide(path: Path_, *, delimiter: str | None = None, set_sep: str | None = None,
              numeric: bool = False) -> list[tuple]:
    """(coder, item, label) triples of a wide table: header ``coder,item1,item2,...``, one row
    per coder."""
    name, header, rows = _header_and_rows(path, delimiter)
    if len(header) < 2:
        raise InputError("a wide table needs a coder column and at least one item column",
                         name, rows[0][0])
    items = header[1:]
    if len(set(items)) != len(items):
        dup = next(i for i in items if items.count(i) > 1)
        raise InputError(f"item {quote(dup)} appears twice in the header", name, rows[0][0])
    triples = []
    seen: dict = {}
    for lineno, row in _body(rows, header, name):
        coder = row[0].strip()
        if coder in seen:
            raise InputError(f"coder {quote(coder)} has two rows (first on line {seen[coder]})",
                             name, lineno)
        seen[coder] = lineno
        for it, raw in zip(items, row[1:], strict=True):
            triples.append((coder, it, parse_cell(raw.strip(), set_sep, numeric, name, lineno)))
    if not seen:
        raise InputError("no coder rows in file", name)
    return triples


def read_weights(path: Path_) -> tuple[dict | list[list[float]], Sequence | None]:
    """A weight file: rows ``a,b,distance`` → ({(a, b): d}, None), or a square matrix with a
    header row of labels (and each row starting with its label, in the same order) →
    (rows of distances, labels). A pair given twice or a ragged matrix is an InputError."""
    name = display(path)
    rows = [(n, [c.strip() for c in r]) for n, r in read_table(path, None) if any(r)]
    if not rows:
        raise InputError("empty weight file", name)
    square = rows[0][1][0] == "" and len(rows) == len(rows[0][1])
    if len(rows[0][1]) == 3 and not square:
        pairs: dict = {}
        for n, cells in rows:
            if len(cells) != 3:
                raise InputError(f"{len(cells)} fields, expected a,b,distance", name, n)
            a, b, d = cells
            if (a, b) in pairs or (b, a) in pairs and a != b:
                raise InputError(f"distance for ({a}, {b}) given twice", name, n)
            pairs[(a, b)] = parse_number(d, name, n)
        return pairs, None
    header = rows[0][1][1:]
    body = rows[1:]
    if len(body) != len(header):
        raise InputError(f"square weight matrix has {len(header)} columns and {len(body)} rows",
                         name, rows[0][0])
    matrix = []
    for r, (n, cells) in enumerate(body):
        if len(cells) != len(header) + 1:
            raise InputError(f"{len(cells)} fields, expected {len(header) + 1}", name, n)
        if cells[0] != header[r]:
            raise InputError(f"row label {quote(cells[0])} should be {quote(header[r])} (same "
                             f"order as "
                             "the header)", name, n)
        matrix.append([parse_number(c, name, n) for c in cells[1:]])
    return matrix, header


__all__ = ["MISSING_CELLS", "Path_", "as_number", "as_text", "decode", "display", "excerpt",
           "is_number_text", "item_values", "not_utf8", "parse_cell", "parse_number",
           "parse_numbers", "read_bytes", "read_long", "read_table", "read_text", "read_weights",
           "read_wide", "split_swap_item", "swap_item", "table_header"]
