"""Reliability data from columns: tables read by pyarrow, labels encoded without a Python call
per row or per cell.

A long table (one judgement per row: coder, item, label, optionally a group such as the
document) is three or four columns; each is dictionary-encoded by Arrow (codes in the order of
first appearance, as :meth:`~corpusagree.model.data.ReliabilityData.from_triples` numbers
coders and items), set labels are split and their values encoded once per distinct cell, and
the codes land in the coders × items matrix with one scatter. CSV and TSV are read by
pyarrow's multi-threaded reader; Parquet, Arrow IPC (Feather) and JSON Lines by theirs.

The text path keeps the messages of :mod:`corpusagree.model.io`: whatever its checks would
report (a ragged row, a quote, a duplicate judgement, a non-number, an item in two groups,
invalid UTF-8 …) makes :func:`read_long_csv` and :func:`read_wide_csv` return None, and the
caller reads the file the per-cell way, which names the file and line. Every check here is a
vectorised test over whole columns, so valid input never pays for it.
"""

from __future__ import annotations

import codecs
import csv
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import io
from .errors import InputError, listing, quote

#: file name endings of the columnar formats (the rest are CSV/TSV text)
FORMATS = {".parquet": "parquet", ".pq": "parquet", ".arrow": "arrow", ".feather": "arrow",
           ".ipc": "arrow", ".jsonl": "jsonl", ".ndjson": "jsonl"}

#: the longest field Python's csv module accepts (longer ones are its error)
FIELD_LIMIT = 131_072
#: the most columns a CSV header may have for pyarrow to read the file: its reader costs about
#: 1 KB a column (a 20 MB header line of 2.6 million columns aborted with std::bad_alloc under
#: 3 GB, fuzz case 1-03374); past it the per-cell reader reads the file (or says what is wrong)
ARROW_COLUMNS = 1 << 16


def file_format(path) -> str | None:
    """``parquet``, ``arrow`` or ``jsonl`` from a file name's ending, else None (text)."""
    return FORMATS.get(os.path.splitext(str(path))[1].lower())


#: a missing judgement's code
MISSING = -1


@dataclass
class SetTable:
    """Set labels as read: a CSR table of the distinct cells (rows may repeat a set)."""

    indptr: np.ndarray
    elements: np.ndarray
    names: list


@dataclass
class Encoded:
    """The parts of reliability data as the columns give them (see
    :meth:`corpusagree.model.data.ReliabilityData.from_arrow`, which builds it): codes
    (coders × items), the labels (sorted values, or a :class:`SetTable` the codes index),
    coders and items, each item's group and the group names, the declared categories."""

    codes: np.ndarray
    labels: list | SetTable
    coders: list
    items: list
    groups: np.ndarray | None
    group_names: list | None
    categories: list | None


@dataclass
class Problem(Exception):
    """What the columnar checks found wrong; :func:`encode`'s callers turn it into an
    InputError (from Arrow data) or into a read the per-cell way (from text, whose messages
    name the line)."""

    message: str

    def __str__(self) -> str:
        return self.message


# ---- columns --------------------------------------------------------------------------------
def _pa():
    import pyarrow as pa
    import pyarrow.compute as pc
    return pa, pc


def _chunked(column):
    pa, _ = _pa()
    return column if isinstance(column, pa.ChunkedArray) else pa.chunked_array([column])


def _numpy(column, dtype) -> np.ndarray:
    """An Arrow column of numbers (no nulls) as one numpy array."""
    column = _chunked(column)
    if column.num_chunks == 1:
        return np.asarray(column.chunk(0).to_numpy(zero_copy_only=False), dtype)
    return np.concatenate([np.asarray(c.to_numpy(zero_copy_only=False), dtype)
                           for c in column.chunks]) if column.num_chunks else np.zeros(0, dtype)


def first_codes(column) -> tuple[np.ndarray, list]:
    """(codes, values): each value's index among the distinct values in the order of their
    first appearance (Arrow's hash table keeps that order); a null is code −1."""
    pa, pc = _pa()
    column = _chunked(column)
    enc = pc.dictionary_encode(column, null_encoding="mask")
    if enc.num_chunks == 0:
        return np.zeros(0, np.int64), pa.array([], type=column.type)
    values = enc.chunk(0).dictionary
    codes = _numpy(pc.fill_null(pa.chunked_array([c.indices for c in enc.chunks]), -1),
                   np.int64)
    return codes, values


def _strip(column):
    """Cells without surrounding white space (Python's ``str.strip``: the same characters)."""
    _, pc = _pa()
    return pc.utf8_trim_whitespace(column)


def _missing(column, cells: bool):
    """Boolean column of missing labels: null, NaN, and with ``cells`` the spellings of
    :data:`corpusagree.model.io.MISSING_CELLS`."""
    pa, pc = _pa()
    t = column.type
    miss = pc.is_null(column, nan_is_null=pa.types.is_floating(t))
    if cells and (pa.types.is_string(t) or pa.types.is_large_string(t)):
        miss = pc.or_(miss, pc.is_in(column, value_set=pa.array(sorted(io.MISSING_CELLS))))
    return pc.fill_null(miss, True)


#: a number as Python's float() and Arrow's parser both read it (other spellings: per cell)
NUMBER = r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"


def _numbers(column) -> np.ndarray:
    """The values of a column of numbers or of number text as floats (Problem for a cell that
    is not a finite number)."""
    pa, pc = _pa()
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        if pc.all(pc.match_substring_regex(column, NUMBER)).as_py() is False:
            raise Problem("a label is not a number")
        column = pc.cast(column, pa.float64())
    elif not (pa.types.is_integer(column.type) or pa.types.is_floating(column.type)
              or pa.types.is_boolean(column.type)):
        raise Problem(f"labels of type {column.type} are not numbers")
    v = _numpy(pc.cast(column, pa.float64()), np.float64)
    if not np.isfinite(v).all():
        raise Problem("a label is not a finite number")
    return v


def _number_codes(v: np.ndarray) -> tuple[np.ndarray, list]:
    """Codes and sorted distinct values (ints where integral, so 1 and 1.0 are one label)."""
    uniq, inv = np.unique(v, return_inverse=True)
    return inv.astype(np.int64), [io.as_number(x) for x in uniq.tolist()]


# ---- the encoder ----------------------------------------------------------------------------
def encode(coder, item, label, group=None, *, set_sep: str | None = None,
           numeric: bool = False, categories: Sequence | None = None,
           missing_cells: bool = False):
    """Reliability data from Arrow columns of one judgement per row, as
    :meth:`~corpusagree.model.data.ReliabilityData.from_triples` makes them from the same rows:
    coders and items numbered by first appearance, plain labels sorted, set labels (``set_sep``
    over text, or list columns) as a CSR table of distinct sets in order of first appearance.

    ``missing_cells``: text cells spelled as :data:`~corpusagree.model.io.MISSING_CELLS` are
    missing (as in files); null and NaN always are. Raises :class:`Problem` for a duplicate
    judgement, an item in two groups, a label that is not a number under ``numeric``.
    """
    pa, pc = _pa()
    c_codes, c_names = first_codes(coder)
    i_codes, i_names = first_codes(item)
    if (c_codes < 0).any() or (i_codes < 0).any():
        raise Problem("a judgement without its coder or item")
    C, N = len(c_names), len(i_names)
    if len(c_codes) == 0:
        raise Problem("no judgements")
    key = c_codes * N + i_codes
    seen = np.full(C * N, -1, np.int64)
    rows = np.arange(len(key))
    seen[key] = rows  # the last row of each (coder, item) wins
    if not np.array_equal(seen[key], rows):
        dup = int(np.flatnonzero(seen[key] != rows)[0])
        raise Problem(f"duplicate judgement by coder {quote(c_names[int(c_codes[dup])].as_py())}"
                      f" on item {quote(i_names[int(i_codes[dup])].as_py())} (rows {dup + 1} "
                      f"and {int(seen[key[dup]]) + 1})")
    del seen
    first_row = np.empty(N, np.int64)
    first_row[i_codes[::-1]] = rows[::-1]  # the first row of each item
    g = gnames = None
    if group is not None:
        g_codes, g_values = first_codes(group)
        if (g_codes < 0).any():
            raise Problem("a judgement without its group")
        g_item = g_codes[first_row]
        bad = g_codes != g_item[i_codes]
        if bad.any():
            r = int(np.flatnonzero(bad)[0])
            raise Problem(f"item {quote(i_names[int(i_codes[r])].as_py())} is in group "
                          f"{quote(g_values[int(g_item[i_codes[r]])].as_py())} and "
                          f"{quote(g_values[int(g_codes[r])].as_py())}")
        # groups numbered by first appearance over the items (from_triples' order)
        used, first = np.unique(g_item, return_index=True)
        order = used[np.argsort(first, kind="stable")]
        rank = np.empty(len(g_values), np.int64)
        rank[order] = np.arange(len(order))
        g = rank[g_item]
        gnames = g_values.take(pa.array(order)).to_pylist()
    lab = _chunked(label)
    miss = _numpy(_missing(lab, missing_cells), bool)
    present = ~miss
    if not present.any():
        raise Problem("no labels")
    keep = pa.array(present)
    lab = lab.filter(keep)
    codes = np.full((C, N), MISSING, np.int32)
    is_list = pa.types.is_list(lab.type) or pa.types.is_large_list(lab.type)
    if set_sep is not None or is_list:
        l_codes, labels = _set_codes(lab, set_sep, numeric)
    elif numeric:
        l_codes, labels = _number_codes(_numbers(lab))
    elif pa.types.is_integer(lab.type) or pa.types.is_floating(lab.type):
        uniq, inv = np.unique(_numpy(lab, None), return_inverse=True)  # as Python's values
        l_codes, labels = inv.astype(np.int64), uniq.tolist()
    else:
        if not (pa.types.is_string(lab.type) or pa.types.is_large_string(lab.type)):
            lab = pc.cast(lab, pa.string())
        l_codes, values = first_codes(lab)
        order = _numpy(pc.array_sort_indices(values), np.int64)
        rank = np.empty(len(order), np.int64)
        rank[order] = np.arange(len(order))
        l_codes = rank[l_codes]
        labels = values.take(pa.array(order)).to_pylist()
    codes[c_codes[present], i_codes[present]] = l_codes
    return Encoded(codes, labels, c_names.to_pylist(), i_names.to_pylist(), g, gnames,
                   list(categories) if categories is not None else None)


def _set_codes(lab, set_sep, numeric):
    """Codes of set labels into a CSR table (indptr, element ids, element names) of the
    distinct cells in order of first appearance, each split once (identical sets written
    differently are merged by :class:`Encoded`'s reader)."""
    pa, pc = _pa()
    if pa.types.is_list(lab.type) or pa.types.is_large_list(lab.type):
        cells = lab.combine_chunks()  # each row its own set; identical ones merged below
        cell_codes = np.arange(len(cells))
    else:
        cell_codes, cells = first_codes(lab)
    if set_sep is not None:
        if not (pa.types.is_string(cells.type) or pa.types.is_large_string(cells.type)):
            raise Problem("set labels split by a separator must be text")
        parts = pc.split_pattern(cells, set_sep)
    else:
        parts = cells
    lengths = _numpy(pc.fill_null(pc.list_value_length(parts), 0), np.int64)
    flat = pc.list_flatten(parts)
    row_of = np.repeat(np.arange(len(cells)), lengths)
    if pa.types.is_string(flat.type) or pa.types.is_large_string(flat.type):
        flat = _strip(flat)
        if numeric:
            if pc.any(pc.equal(flat, "")).as_py():
                raise Problem("an empty value in a set of numbers")
        else:
            filled = _numpy(pc.not_equal(flat, ""), bool)
            if not filled.all():
                flat, row_of = flat.filter(pa.array(filled)), row_of[filled]
    if pc.any(pc.is_null(flat)).as_py():
        raise Problem("a missing value in a set")
    if numeric or pa.types.is_integer(flat.type) or pa.types.is_floating(flat.type):
        e_codes, names = _number_codes(_numbers(flat))
    else:
        e_codes, values = first_codes(flat)
        names = values.to_pylist()
    indptr = np.concatenate([[0], np.cumsum(np.bincount(row_of, minlength=len(cells)))])
    return cell_codes, SetTable(indptr, e_codes, names)


# ---- files ----------------------------------------------------------------------------------
def _text_bytes(path) -> bytes | None:
    """The bytes of a CSV/TSV file the columnar reader can take as Python's csv module would
    (UTF-8 byte order mark dropped), or None: standard input, an empty first line, an empty
    file (the per-cell reader's cases)."""
    if str(path) == "-":
        return None
    data = io.read_bytes(path)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    if not data or data[:1] in (b"\n", b"\r"):
        return None
    return data


def _plain_quotes(data: bytes, sep: str) -> bool:
    """Whether every quote of the text opens or closes a quoted field that Python's csv
    module and pyarrow read alike: ``"`` at a field's start, doubled quotes inside, ``"`` at
    its end, no line break inside (anything else goes the per-cell way). Checked over the
    positions of the quotes at once: between a closing and the next opening quote there is
    nothing (a doubled quote) or a delimiter or line break on both sides."""
    if b'"' not in data:
        return True
    arr = np.frombuffer(data, np.uint8)
    q = np.flatnonzero(arr == ord('"'))
    if len(q) % 2:
        return False
    ends = np.zeros(256, bool)
    ends[[ord(sep), ord("\n"), ord("\r")]] = True
    opening, closing = q[0::2], q[1::2]
    # outside: from a closing quote to the next opening one (and before the first, after the
    # last quote)
    before = opening[1:] - 1
    after = closing[:-1] + 1
    doubled = opening[1:] == closing[:-1] + 1
    ok = doubled | (ends[arr[after]] & ends[arr[before]])
    if not ok.all():
        return False
    if q[0] > 0 and not ends[arr[q[0] - 1]]:
        return False
    if q[-1] < len(arr) - 1 and not ends[arr[q[-1] + 1]]:
        return False
    # inside a field, from an opening to its closing quote: no line break
    breaks = np.flatnonzero((arr == ord("\n")) | (arr == ord("\r")))
    return bool(np.array_equal(np.searchsorted(breaks, opening),
                               np.searchsorted(breaks, closing)))


def _delimiter(first: str, delimiter: str | None) -> str:
    """:func:`corpusagree.model.io.read_table`'s delimiter: given, else sniffed."""
    if delimiter is not None:
        return delimiter
    return "\t" if "\t" in first else ("," if "," in first else (";" if ";" in first else ","))


def _csv_file(path, delimiter: str | None):
    """(header, table) of a CSV/TSV file pyarrow reads, or None when it needs the per-cell
    reader (:func:`_text_bytes`, :func:`_csv_columns`)."""
    data = _text_bytes(path)
    return None if data is None else _csv_columns(data, delimiter)


def _csv_columns(data: bytes, delimiter: str | None):
    """(stripped header, table of stripped text columns, blank-row-free) of CSV bytes, or None
    where the per-cell reader must decide (a ragged row, invalid UTF-8, a huge field)."""
    pa, pc = _pa()
    import pyarrow.csv as pcsv

    cut = [k for k in (data.find(b"\n"), data.find(b"\r")) if k >= 0]
    first = data[:min(cut)] if cut else data
    try:
        first_text = first.decode("utf-8")
    except UnicodeDecodeError:
        return None
    sep = _delimiter(first_text, delimiter)
    if not _plain_quotes(data, sep):
        return None
    try:
        header = [h.strip() for h in next(csv.reader([first_text], delimiter=sep))]
    except csv.Error:  # a field past csv's limit: the per-cell reader says where
        return None
    if not _utf8(data):  # pyarrow decodes a bad row for its handler and prints the failure
        return None
    if len(header) > ARROW_COLUMNS:  # pyarrow's builders cost ~1 KB a column, filled or not
        return None
    names = [f"c{k}" for k in range(len(header))]

    def invalid(row) -> str:  # a blank row of another width is skipped, as the csv path does
        try:
            cells = next(csv.reader([row.text or "x"], delimiter=sep), ["x"])
        except csv.Error:  # a field past csv's limit: the per-cell reader says where
            return "error"
        return "skip" if not any(c.strip() for c in cells) else "error"

    try:
        table = pcsv.read_csv(
            pa.BufferReader(data),
            read_options=pcsv.ReadOptions(column_names=names, skip_rows=1,
                                          block_size=1 << 24),
            parse_options=pcsv.ParseOptions(delimiter=sep, quote_char='"', double_quote=True,
                                            escape_char=False, newlines_in_values=False,
                                            ignore_empty_lines=True,
                                            invalid_row_handler=invalid),
            convert_options=pcsv.ConvertOptions(
                column_types={n: pa.string() for n in names}, strings_can_be_null=False,
                null_values=[], check_utf8=True))
    except (pa.ArrowInvalid, pa.ArrowException):
        return None
    for col in table.columns:
        if len(col) and pc.max(pc.binary_length(col)).as_py() > FIELD_LIMIT:
            return None
    table = pa.table([_strip(c) for c in table.columns], names=names)
    blank = None
    for col in table.columns:
        empty = pc.equal(col, "")
        blank = empty if blank is None else pc.and_(blank, empty)
    if blank is not None and pc.any(blank).as_py():
        table = table.filter(pc.invert(blank))
    return header, table


def _utf8(data: bytes, chunk: int = 1 << 24) -> bool:
    """Whether ``data`` is UTF-8, read in chunks (ASCII at once, without a copy)."""
    if data.isascii():
        return True
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for k in range(0, len(data), chunk):
            decoder.decode(data[k:k + chunk])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def read_long_csv(path, *, coder: str = "coder", item: str = "item", label: str = "label",
                  group: str | None = None, delimiter: str | None = None,
                  set_sep: str | None = None, numeric: bool = False,
                  categories: Sequence | None = None):
    """The reliability data of a long CSV/TSV file read by pyarrow, or None when the file
    needs the per-cell reader (for its messages, or for what only Python's csv module reads:
    quoted fields, standard input)."""
    read = _csv_file(path, delimiter)
    if read is None:
        return None
    header, table = read
    cols = [coder, item, label] + ([group] if group else [])
    if any(c not in header for c in cols) or table.num_rows == 0:
        return None
    col = [table.column(header.index(c)) for c in cols]
    try:
        return encode(*col[:3], col[3] if group else None, set_sep=set_sep, numeric=numeric,
                      categories=categories, missing_cells=True)
    except Problem:
        return None


def read_wide_csv(path, *, delimiter: str | None = None, set_sep: str | None = None,
                  numeric: bool = False, categories: Sequence | None = None):
    """The reliability data of a wide CSV/TSV file (header ``coder,item1,...``, one row per
    coder) read by pyarrow, or None when the file needs the per-cell reader."""
    pa, pc = _pa()
    read = _csv_file(path, delimiter)
    if read is None:
        return None
    header, table = read
    items = header[1:]
    if not items or len(set(items)) != len(items) or table.num_rows == 0:
        return None
    coders = table.column(0)
    if pc.count_distinct(coders).as_py() != len(coders):
        return None
    r, k = table.num_rows, len(items)
    # the cells row by row (the order of the judgements of the per-cell reader)
    cells = pa.chunked_array([c for col in table.columns[1:] for c in col.chunks],
                             type=pa.string())
    order = (np.arange(k)[None, :] * r + np.arange(r)[:, None]).ravel()
    label = cells.take(pa.array(order))
    coder = coders.take(pa.array(np.repeat(np.arange(r), k)))
    item = pa.array(items).take(pa.array(np.tile(np.arange(k), r)))
    try:
        return encode(coder, item, label, set_sep=set_sep, numeric=numeric,
                      categories=categories, missing_cells=True)
    except Problem:
        return None


def read_arrow_file(path, fmt: str | None = None):
    """The table of a Parquet, Arrow IPC (Feather) or JSON Lines file (InputError naming the
    file when pyarrow cannot read it; a pipe or device is refused before it is opened)."""
    pa, _ = _pa()
    fmt = fmt or file_format(path)
    name = io.display(path)
    io.regular(path)
    if fmt not in ("parquet", "arrow", "jsonl"):
        raise InputError(f"unknown columnar format {fmt!r}", name)
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq
            table = pq.read_table(path)
        elif fmt == "arrow":
            import pyarrow.feather as feather
            table = feather.read_table(path)
        else:
            import pyarrow.json as pj
            table = pj.read_json(path)
        table.validate(full=True)  # text that is not UTF-8 (Parquet and Arrow keep it as is)
    except FileNotFoundError:
        raise InputError("cannot read file: No such file or directory", name) from None
    except (OSError, pa.ArrowException) as e:
        raise InputError(f"not a {fmt} file pyarrow reads: {str(e).splitlines()[0]}",
                         name) from None
    return table


def from_arrow(table, *, coder: str = "coder", item: str = "item", label: str = "label",
               group: str | None = None, set_sep: str | None = None, numeric: bool = False,
               categories: Sequence | None = None, missing_cells: bool = False,
               source: str | None = None):
    """Reliability data of a long Arrow table (see
    :meth:`~corpusagree.model.data.ReliabilityData.from_arrow`); a missing column, a duplicate
    judgement or an item in two groups is an InputError naming ``source``."""
    names = list(table.column_names)
    for role, col in (("coder", coder), ("item", item), ("label", label)) + (
            (("group", group),) if group else ()):
        if col not in names:
            raise InputError(f"no {role} column {quote(col)}; columns are "
                             f"[{listing(map(quote, names))}]",
                             source)
    try:
        return encode(table.column(coder), table.column(item), table.column(label),
                      table.column(group) if group else None, set_sep=set_sep,
                      numeric=numeric, categories=categories, missing_cells=missing_cells)
    except Problem as e:
        raise InputError(str(e), source) from None
    except ValueError as e:  # a label outside the declared categories
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), source) from None


__all__ = ["Encoded", "SetTable", "encode", "file_format", "from_arrow", "read_arrow_file",
           "read_long_csv", "read_wide_csv"]
