"""Hugging Face datasets of per-annotator labels: a dataset saved to disk
(``Dataset.save_to_disk``: a folder with ``state.json`` and Arrow stream files), Parquet
files (``Dataset.to_parquet``, the Hub's ``refs/convert/parquet``), Arrow IPC files, or a
folder of Parquet files. Read with pyarrow; the ``datasets`` package is not needed.

One row per judgement: the columns ``coder``, ``item`` and ``label`` (and ``group``, such as
the document) are named by the options of the same names. A list-valued label column gives
set labels; a numeric one numbers (for the interval, ordinal and ratio distances). A missing
coder or item, or a coder judging an item twice, is an error naming the row.

>>> from pathlib import Path
>>> read_judgements(Path("docs/formats/table/hf/labels.parquet"), coder="annotator",
...                 item="id")
ReliabilityData(3 coders × 4 items, 2 labels, 1 missing)
"""

from __future__ import annotations

import json
from os import PathLike
from pathlib import Path

import numpy as np

from ..model import io
from ..model.data import MISSING, ReliabilityData
from ..model.errors import InputError, listing, quote
from ._platforms import judgements

__all__ = ["read_judgements", "sniff"]

#: the first bytes of each kind of file
MAGIC = {b"PAR1": "parquet", b"ARROW1": "arrow", b"\xff\xff\xff\xff": "stream"}


def _kind(path: Path) -> str | None:
    if not path.is_file() or path.suffix.lower() not in (".parquet", ".arrow", ".feather"):
        return None
    with open(path, "rb") as fh:
        first = fh.read(6)
    return next((k for m, k in MAGIC.items() if first.startswith(m)), None)


def _files(path: Path) -> list[Path]:
    """The data files of a dataset folder (``state.json``'s, else its Parquet and Arrow
    files) or the file itself."""
    if path.is_file():
        return [path]
    state = path / "state.json"
    if state.is_file():
        try:
            names = [f["filename"] for f in json.loads(state.read_text())["_data_files"]]
        except (ValueError, KeyError, TypeError) as e:
            raise InputError(f"not a saved dataset's state: {e}", state) from None
        return [path / n for n in names]
    if (path / "dataset_dict.json").is_file():
        splits = ", ".join(sorted(p.name for p in path.iterdir() if p.is_dir()))
        raise InputError(f"a dataset of several splits ({splits}): give one split's folder",
                         path)
    return sorted(p for p in path.iterdir() if _kind(p) is not None)


def sniff(path: str | PathLike) -> bool:
    """A Parquet or Arrow file (by its first bytes), a folder saved by ``save_to_disk``, or
    a folder of Parquet files."""
    path = Path(path)
    if path.is_dir():
        return (path / "state.json").is_file() and (path / "dataset_info.json").is_file() \
            or any(_kind(p) == "parquet" for p in path.iterdir())
    return _kind(path) is not None


def _table(path: Path, columns: list[str]):
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = []
    for f in _files(path):
        kind = _kind(f)
        try:
            if kind == "parquet":
                names = pq.read_schema(f).names
            else:
                reader = pa.ipc.open_stream(f) if kind == "stream" else pa.ipc.open_file(f)
                names = reader.schema.names
            lost = [c for c in columns if c not in names]
            if lost:
                raise InputError(f"no column(s) {', '.join(map(quote, lost))}; the columns "
                                 f"are {listing(names)} (name them with coder=NAME, "
                                 "item=NAME, label=NAME)", f)
            table = pq.read_table(f, columns=columns) if kind == "parquet" else \
                reader.read_all().select(columns)
            table.validate(full=True)  # text that is not UTF-8 is found here, not later
        except (pa.ArrowInvalid, OSError) as e:
            why = " ".join(str(e).split())  # pyarrow's messages run over several lines
            raise InputError(f"not a readable {kind} file: {why}", f) from None
        tables.append(table)
    if not tables:
        raise InputError("no Parquet or Arrow files", path)
    return pa.concat_tables(tables, promote_options="default")


def _codes(column) -> tuple[np.ndarray, list]:
    """First-appearance codes (−1 for null) and values of a column."""
    import pyarrow as pa

    enc = column.combine_chunks()
    if not pa.types.is_dictionary(enc.type):
        enc = enc.dictionary_encode()
    return enc.indices.fill_null(MISSING).to_numpy(zero_copy_only=False).astype(np.int64), \
        enc.dictionary.to_pylist()


def read_judgements(path: Path, *, coder: str = "coder", item: str = "item",
                    label: str = "label", group: str | None = None,
                    set_sep: str | None = None, numeric: bool = False,
                    categories=None) -> ReliabilityData:
    """The judgements of a dataset's rows (see the module docstring); with ``set_sep``,
    ``numeric`` or ``categories`` the table's columns are encoded as a Parquet table is
    (:func:`corpusagree.model.columnar.from_arrow`)."""
    import pyarrow as pa

    columns = list(dict.fromkeys([coder, item, label] + ([group] if group else [])))
    table = _table(path, columns)
    if set_sep is not None or numeric or categories is not None:
        return ReliabilityData.from_arrow(table, coder=coder, item=item, label=label,
                                          group=group, set_sep=set_sep, numeric=numeric,
                                          categories=categories, source=io.display(path))
    ltype = table.schema.field(label).type
    if pa.types.is_list(ltype) or pa.types.is_large_list(ltype) or group:
        rows = zip(table[coder].to_pylist(), table[item].to_pylist(),
                   table[label].to_pylist(), strict=True)
        groups = dict(zip(table[item].to_pylist(), table[group].to_pylist(), strict=True)) \
            if group else None
        return judgements(rows, path, groups)
    c, coders = _codes(table[coder])
    i, items = _codes(table[item])
    for name, codes in ((coder, c), (item, i)):
        if (codes < 0).any():
            row = int(np.flatnonzero(codes < 0)[0])
            raise InputError(f"row {row}: no {name}", path)
    labels_col = table[label].combine_chunks()
    values = labels_col.drop_null()
    if pa.types.is_floating(ltype):
        values = values.filter(pa.compute.invert(pa.compute.is_nan(values)))
    distinct = sorted(set(values.unique().to_pylist()))
    if not distinct:
        raise InputError("no judgements found", path)
    if pa.types.is_floating(ltype):
        distinct = [int(v) if float(v).is_integer() else v for v in distinct]
    index = pa.compute.index_in(labels_col, value_set=pa.array(
        distinct, type=ltype if not pa.types.is_floating(ltype) else pa.float64()))
    lab = index.fill_null(MISSING).to_numpy(zero_copy_only=False).astype(np.int32)
    key = c * len(items) + i
    order = np.argsort(key, kind="stable")
    dup = np.flatnonzero(key[order][1:] == key[order][:-1])
    if len(dup):
        a, b = sorted((int(order[dup[0]]), int(order[dup[0] + 1])))
        raise InputError(f"rows {a} and {b}: coder {quote(coders[c[a]])} judges item "
                         f"{quote(items[i[a]])} twice", path)
    codes = np.full((len(coders), len(items)), MISSING, np.int32)
    codes[c, i] = lab
    return ReliabilityData(codes, distinct, coders, items)
