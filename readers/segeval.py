"""segeval files: JSON v1.1 (``{"items": {doc: {coder: [masses]}}, "segmentation_type": "linear"}``)
and the TSV of masses (header ``Coder<TAB>Masses``, then one coder per row; the document is the
file name without extension, as segeval names it).

Every coder of a document must cover the same number of units; errors name the file, the line
and, for structural problems, the key path (``items/doc/coder``). A mass is a number, so a few
bytes can claim any length: a file whose segmentations cover more units in all than
:func:`unit_limit` allows for its size is refused, before anything is allocated per unit.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Iterable
from os import PathLike
from pathlib import Path

from ..model.corpus import Segmentation
from ..model.errors import InputError, Problems, quote
from ..model.io import as_text, read_bytes
from . import Option, _paths, register
from ._segfiles import check_annotators

JSON_SUFFIXES = (".json", ".jsn")
TSV_SUFFIXES = (".tsv",)
#: units (summed over every segmentation of a file) that any file may cover
MIN_UNIT_LIMIT = 1_000_000
#: and units per byte of the file beyond that: a mass written in a few digits may stand for
#: thousands of units, not for millions
UNITS_PER_BYTE = 1_000


def _files(paths: str | PathLike | Iterable[str | PathLike]) -> list[Path]:
    return _paths.all_files(paths, JSON_SUFFIXES + TSV_SUFFIXES)


def unit_limit(size: int) -> int:
    """The units a file of ``size`` bytes may cover, summed over its segmentations (what the
    agreement computation allocates: one judgement per unit and coder)."""
    return max(MIN_UNIT_LIMIT, UNITS_PER_BYTE * size)


def _find_key(text: str, key: str, pos: int) -> int:
    """Offset of ``"key":`` (as ``json.dumps`` writes the key) at or after ``pos``, or -1."""
    quoted = json.dumps(key, ensure_ascii=False)
    at = text.find(quoted, pos)
    while at >= 0:
        end = at + len(quoted)
        while end < len(text) and text[end] in " \t\r\n":
            end += 1
        if text.startswith(":", end):
            return at
        at = text.find(quoted, at + 1)
    return -1


def _key_line(text: str, keys: Iterable[str]) -> int | None:
    """Line of the last key of a key path, found in document order; None if not found."""
    pos = 0
    for key in keys:
        pos = _find_key(text, key, pos)
        if pos < 0:
            return None
    return text.count("\n", 0, pos) + 1


def _mass_list(value: object, line: tuple[str, str, str], path: Path) -> tuple[int, ...]:
    """The masses of a JSON list of positive integers; ``line``: ``(text, document, coder)``,
    where it is, for a message."""
    if type(value) is list and value and set(map(type, value)) == {int} and min(value) > 0:
        return tuple(value)
    _, doc, coder = line
    raise InputError(f"items/{doc}/{coder}: expected a non-empty list of positive integer "
                     f"masses, got {reprlib.repr(value)}", path, _at(line))


def _read_json(path: Path) -> tuple[list[tuple], int]:
    """The rows ``(document, coder, masses, line)`` of a segeval JSON file (a line is found
    only when a message needs it) and the file's size in bytes."""
    data = read_bytes(path)
    text = as_text(data, path)
    size = len(data)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"malformed JSON: {e.msg} (column {e.colno})", path, e.lineno) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", path) from None
    except ValueError as e:  # an integer of more than 4300 digits
        raise InputError(f"malformed JSON: {e}".split(";")[0], path) from None
    if not isinstance(data, dict):
        raise InputError("expected a JSON object at the top level", path, 1)
    if "segmentation_type" not in data:
        raise InputError("missing top-level key 'segmentation_type' (segeval needs 'linear')",
                         path, 1)
    if data["segmentation_type"] != "linear":
        raise InputError(f"segmentation_type: expected 'linear', got "
                         f"{json.dumps(data['segmentation_type'])}",
                         path, _key_line(text, ["segmentation_type"]))
    if "items" not in data:
        found = ", ".join(repr(k) for k in data)
        raise InputError("missing top-level key 'items' (document -> coder -> masses); "
                         f"top-level keys found: {found}", path, 1)
    items = data["items"]
    if not isinstance(items, dict):
        raise InputError("items: expected an object mapping document -> coder -> masses",
                         path, _key_line(text, ["items"]))
    out = []
    for doc, coders in items.items():
        if not isinstance(coders, dict):
            raise InputError(f"items/{doc}: expected an object mapping coder -> masses",
                             path, _key_line(text, ["items", doc]))
        for coder, masses in coders.items():
            # the line of the key is found only for a message (a pass over the text)
            line = (text, doc, coder)
            out.append((doc, coder, _mass_list(masses, line, path), line))
    return out, size


def _read_tsv(path: Path, problems: Problems
              ) -> tuple[list[tuple[str, str, tuple[int, ...], int | None]], int]:
    """The rows of a TSV of masses, each bad line a problem; and the file's size in bytes."""
    doc = path.stem or path.name
    data = read_bytes(path)
    out = []
    for lineno, line in enumerate(as_text(data, path).split("\n"), 1):
        coder, _, rest = line.partition("\t")
        # most rows: masses in ASCII digits (of at most 18), single tabs, no spaces
        cells = rest.split("\t")
        if lineno > 1 and rest.isascii() and "".join(cells).isdigit() and \
                min(map(len, cells)) > 0 and max(map(len, cells)) < 19:
            masses = tuple(map(int, cells))
            coder = coder.strip()
        else:
            cells = [c.strip() for c in line.split("\t")]
            if lineno == 1 or not any(cells):
                continue
            coder = cells[0]
            masses = tuple(int(c) if c.isascii() and c.isdigit() and len(c) < 19 else 0
                           for c in cells[1:])
        if not masses or min(masses) <= 0:
            problems.add(InputError("expected a coder name then positive integer masses, "
                                    "tab-separated", path, lineno))
            continue
        out.append((doc, coder, masses, lineno))
    return out, len(data)


def _at(line: int | tuple | None) -> int | None:
    """A row's line: a number, or found when asked, ``(text, document, coder)`` (JSON)."""
    if isinstance(line, tuple):
        text, doc, coder = line
        return _key_line(text, ["items", doc, coder])
    return line


def _check_size(rows: list[tuple], path: Path, size: int) -> None:
    """Refuse a file of ``size`` bytes whose segmentations cover more units than
    :func:`unit_limit` allows."""
    limit = unit_limit(size)
    total = 0
    for doc, coder, masses, line in rows:
        total += sum(masses)
        if total > limit:
            raise InputError(f"document {quote(doc)}, coder {quote(coder)}: the segmentations so "
                             f"far cover {total:,} units, more than a file of {size:,} bytes "
                             f"may describe ({limit:,}: one judgement is computed per unit and "
                             "coder); a mass counts units (e.g. sentences, tokens): check the "
                             "masses", path, _at(line))


def sniff(path: str | PathLike) -> bool:
    """True for a segeval JSON object or a ``Coder<TAB>Masses`` TSV, or a folder whose first
    .json/.tsv file is one."""
    path = Path(path)
    if path.is_dir():
        return any(sniff(f) for f in _paths.files(path, JSON_SUFFIXES + TSV_SUFFIXES)[:1])
    if not path.is_file():
        return False
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            head = f.read(65536)
    except OSError:
        return False
    if head.lstrip().startswith("{"):
        return '"segmentation_type"' in head or '"items"' in head
    first = head.split("\n", 1)[0].rstrip("\r").lower().split("\t")
    return first[:2] == ["coder", "masses"]


@register("segments", "segeval", layout="file", sniff=sniff,
          summary="segeval JSON (items/document/coder/masses) or TSV of masses (Fournier 2013)",
          options=(Option("unit", "what the segment masses count (segeval, positions: a name; "
                          "RST: token|char; plain text: word|sentence)"),))
def read(paths: str | PathLike | Iterable[str | PathLike], annotators: Iterable[str] | None = None,
         unit: str = "unit") -> list[Segmentation]:
    """Segmentations from segeval JSON or TSV files (directories are searched for both).

    ``annotators`` keeps only those coders; ``unit`` names what the masses count.
    """
    keep = None if annotators is None else set(annotators)
    out: list[Segmentation] = []
    seen: dict[tuple[str, str], str] = {}
    found: set[str] = set()
    problems = Problems()
    for path in _files(paths):
        rows = None
        with problems.collect():
            found_rows, size = (_read_tsv(path, problems) if path.suffix.lower()
                                in TSV_SUFFIXES else _read_json(path))
            _check_size(found_rows, path, size)
            rows = found_rows
        if rows is None:
            continue
        totals: dict[str, tuple[str, int]] = {}
        source = str(path)
        for doc, coder, masses, line in rows:
            found.add(coder)
            if keep is not None and coder not in keep:
                continue
            if (doc, coder) in seen:
                problems.add(InputError(f"document {quote(doc)}, coder {quote(coder)} already "
                                        f"read from {seen[doc, coder]}", path, _at(line)))
                continue
            seen[doc, coder] = source
            total = sum(masses)
            first = totals.setdefault(doc, (coder, total))
            if first[1] != total:
                problems.add(InputError(f"document {quote(doc)}: coder {quote(coder)} covers "
                                        f"{total} units but coder {quote(first[0])} covers "
                                        f"{first[1]}", path, _at(line)))
                continue
            out.append(Segmentation(doc, coder, masses, unit, None, source))
    problems.check()
    check_annotators(keep, found, paths)
    return out


__all__ = ["JSON_SUFFIXES", "MIN_UNIT_LIMIT", "TSV_SUFFIXES", "UNITS_PER_BYTE", "read", "sniff",
           "unit_limit"]
