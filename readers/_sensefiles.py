"""Plumbing shared by the word-sense readers: numbered lines, per-annotator key files.

A key file has one instance per line: some id fields (the instance id last), then one or more
senses, whitespace separated. Raganato keys have one id field, Senseval answer files two
(lexelt, instance).
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from ..model.corpus import SenseTag
from ..model.errors import InputError, Problems, listing, quote
from ..model.io import read_text
from . import _paths

PathArg = str | PathLike
_NEWLINE = re.compile(r"\r\n|\r|\n")


def numbered_lines(path: PathArg) -> list[tuple[int, str]]:
    """``(line number, text)`` for every line of a UTF-8 file (BOM dropped; a line ends at
    ``\\n``, ``\\r\\n`` or ``\\r``)."""
    lines = _NEWLINE.split(read_text(path))
    if lines and lines[-1] == "":
        lines.pop()
    return list(enumerate(lines, 1))


def data_and_keys(paths: Sequence[Path], fmt: str) -> tuple[Path, list[Path]]:
    """The data XML (the first path) and the key files (the other paths; the visible files of
    a folder); InputError when either is missing."""
    keys = _paths.all_files(paths[1:], _paths.visible, recursive=False)
    if not paths or not Path(paths[0]).is_file() or not keys:
        raise InputError(f"{fmt}: give the data XML file, then the annotators' key files "
                         "(or a folder of them)", paths[0] if paths else None)
    return Path(paths[0]), keys


def annotator_names(paths: Sequence[Path], annotators: Sequence[str] | None) -> list[str]:
    """Names for the key files: ``annotators`` if given, else the file names up to the first
    dot (``A.key.txt`` -> ``A``), else, when those clash, the parent folder names."""
    if annotators is not None:
        names = list(annotators)
        if len(names) != len(paths):
            raise InputError(f"annotators: {len(names)} names for {len(paths)} key files")
    else:
        names = [p.name.split(".", 1)[0] for p in paths]
        if len(set(names)) < len(names):
            names = [p.resolve().parent.name for p in paths]
    if len(set(names)) < len(names):
        raise InputError(f"annotators: names are not unique ({listing(names)}); "
                         "pass annotators=[...]")
    return names


@dataclass(frozen=True)
class Instance:
    """What a data file says of an instance: its lemma, document and context (the words
    before it, its own words, the words after it)."""

    lemma: str | None
    document: str | None
    context: tuple[str, str, str] | None = None
    pos: str | None = None


def instance_id(el, seen: Container[str], data_xml: PathArg) -> str:
    """The id of an ``<instance>`` element, new in ``seen``; else an InputError at its line."""
    iid = el.get("id")
    if not iid:
        raise InputError("<instance> without id", data_xml, el.sourceline)
    if iid in seen:
        raise InputError(f"duplicate instance id {quote(iid)}", data_xml, el.sourceline)
    return iid


@dataclass(frozen=True)
class KeyLine:
    """One line of a key file."""

    ids: tuple[str, ...]
    senses: tuple[str, ...]
    line: int


def read_key_file(path: PathArg, known: Container[str], n_ids: int = 1,
                  comment: str | None = None, problems: Problems | None = None
                  ) -> dict[str, KeyLine]:
    """Instance id -> its line; an unknown or repeated instance is an InputError at its line,
    kept in ``problems`` (every line read) or raised after the file."""
    mine = Problems() if problems is None else problems
    out: dict[str, KeyLine] = {}
    for n, text in numbered_lines(path):
        if comment is not None:
            text = text.split(comment, 1)[0]
        fields = text.split()
        if not fields:
            continue
        # an if per error, not mine.collect(): a context manager per line is a tenth of the
        # read
        if len(fields) <= n_ids:
            mine.add(InputError(f"expected {n_ids} id field(s) and at least one sense", path, n))
            continue
        inst = fields[n_ids - 1]
        if inst not in known:
            mine.add(InputError(f"instance {quote(inst)} is not in the data file", path, n))
        elif inst in out:
            mine.add(InputError(f"duplicate instance {quote(inst)} (first at line "
                                f"{out[inst].line})", path, n))
        else:
            out[inst] = KeyLine(tuple(fields[:n_ids]), tuple(fields[n_ids:]), n)
    if problems is None:
        mine.check()
    return out


def key_tags(path: PathArg, annotator: str, keys: dict[str, KeyLine],
             instances: dict[str, Instance]) -> list[SenseTag]:
    """SenseTags of one key file; ``instances`` maps instance id -> its :class:`Instance`."""
    return [SenseTag(inst, annotator, frozenset(k.senses), instances[inst].lemma,
                     instances[inst].document, str(path), k.line, instances[inst].context,
                     instances[inst].pos)
            for inst, k in keys.items()]


__all__ = ["Instance", "KeyLine", "PathArg", "annotator_names", "data_and_keys", "instance_id",
           "key_tags", "numbered_lines", "read_key_file"]
