"""Plumbing shared by the segmentation readers (their files are found by :mod:`._paths`): text
decoding, unit-sequence checks, and the coder-mapping file of corpora whose coder names are
local to each document (Kazantseva & Szpakowicz 2012's Moonstone)."""

from __future__ import annotations

import csv
import io
from os import PathLike

from ..model.errors import InputError, listing, quote
from ..model.io import read_text

#: the header of a coder-mapping file
CODER_MAP_COLUMNS = ("document", "coder", "person")


def first_difference(a: list[str], b: list[str]) -> int | None:
    """Index of the first unit where two unit sequences differ (None if identical)."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def check_annotators(keep: set | None, found: set, paths=None) -> None:
    """The annotators asked for (``--annotators``: the segmentation formats keep those) must
    all have been found; the error lists those there are, and where."""
    if keep is not None and keep - found:
        listed = [paths] if isinstance(paths, (str, PathLike)) else list(paths or ())
        where = f" in {', '.join(map(str, listed))}" if listed else ""
        raise InputError(f"annotators=[...]: {', '.join(sorted(keep - found))} not found{where}; "
                         f"the annotators there are {listing(sorted(found)) or 'none'}")


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
                        raise InputError(f"document {quote(key[0])}, coder {quote(key[1])} is "
                                         f"mapped "
                                         f"twice (first at line {lines[key]})", path, line)
                    out[key], lines[key] = cells[2], line
            line = reader.line_num + 1
    except csv.Error as e:
        raise InputError(f"malformed CSV: {e}", path, line) from None
    if not out:
        raise InputError("empty coder map: expected rows document,coder,person", path)
    return out


__all__ = ["CODER_MAP_COLUMNS", "check_annotators", "first_difference", "read_coder_map"]
