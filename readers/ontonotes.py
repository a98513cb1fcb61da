"""OntoNotes ``.sense`` files: ``doc_id sentence word lemma-pos senses [adjudicated]``.

``senses`` is one agreed sense or ``a1,a2`` (the two annotators' senses); a sixth field is the
adjudicated sense. ``?`` or ``-1`` is an unknown sense (no tag), ``&&`` joins several senses,
4-field lines are pointers and are skipped. Item = ``doc:sentence:word``, document = doc id,
lemma = ``call.v`` and senses ``call.v.1`` (the key scheme of :mod:`readers.inventory`).
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from ..model.corpus import SenseTag
from ..model.errors import InputError, Problems, quote
from . import Option, _paths, register
from ._sensefiles import numbered_lines
from .inventory import lemma_key, sense_key

_UNKNOWN = {"?", "-1"}


def _senses(value: str, lemma: str, path: str | PathLike, line: int) -> frozenset[str] | None:
    if value in _UNKNOWN:
        return None
    parts = value.split("&&")
    if not all(parts):
        raise InputError(f"empty sense in {quote(value)}", path, line)
    return frozenset(sense_key(lemma, p) for p in parts)


def read(path: str | PathLike, annotators: Sequence[str] = ("a1", "a2"),
         adjudicator: str | None = None, agreed: bool = True) -> list[SenseTag]:
    """SenseTags of a ``.sense`` file for the two ``annotators`` (and ``adjudicator`` if named).

    A single sense without a comma was agreed by both annotators: with ``agreed`` (default) it
    becomes both annotators' tag, otherwise the line gives no annotator tags.
    """
    if len(annotators) != 2:
        raise InputError(f"annotators: expected 2 names, got {len(annotators)}")
    tags: list[SenseTag] = []
    first: dict[str, int] = {}
    problems = Problems()
    for n, text in numbered_lines(path):
        with problems.collect():
            _line(text, n, path, annotators, adjudicator, agreed, first, tags)
    problems.check()
    return tags


def _line(text: str, n: int, path: str | PathLike, annotators: Sequence[str],
          adjudicator: str | None, agreed: bool, first: dict[str, int],
          tags: list[SenseTag]) -> None:
    """The tags of one line of a ``.sense`` file, added to ``tags``."""
    fields = text.split()
    if not fields or len(fields) == 4:
        return
    if len(fields) not in (5, 6):
        raise InputError(f"expected 4 to 6 fields, found {len(fields)}", path, n)
    doc, sent, word, lemma = fields[:4]
    if not (sent.isdigit() and word.isdigit()):
        raise InputError("sentence and word indices must be integers", path, n)
    item = f"{doc}:{sent}:{word}"
    if item in first:
        raise InputError(f"duplicate token {quote(item)} (first at line {first[item]})", path,
                         n)
    first[item] = n
    values = fields[4].split(",")
    if len(values) > 2:
        raise InputError(f"expected a1,a2 senses, found {quote(fields[4])}", path, n)
    pair = values * 2 if len(values) == 1 else values
    judged = list(zip(annotators, pair, strict=True)) if agreed or len(values) == 2 else []
    if len(fields) == 6 and adjudicator is not None:
        judged.append((adjudicator, fields[5]))
    for name, value in judged:
        senses = _senses(value, lemma, path, n)
        if senses is not None:
            tags.append(SenseTag(item, name, senses, lemma_key(lemma), doc, str(path), n))


def sniff(path: str | PathLike) -> bool:
    """True for a ``.sense`` file, or a file whose first line looks like one."""
    if Path(path).suffix == ".sense":
        return True
    try:
        with Path(path).open("rb") as f:
            first = f.readline(4096).decode("utf-8", "replace").split()
    except OSError:
        return False
    return (4 <= len(first) <= 6 and first[1].isdigit() and first[2].isdigit()
            and lemma_key(first[3]) != first[3])


@register("senses", "ontonotes", layout="file", sniff=sniff,
          summary="OntoNotes .sense files (two annotators' senses and the adjudicated one): "
          "files or folders of them",
          options=(Option("adjudicator", "OntoNotes: also read the adjudicated sense (the sixth "
                          "field) as this annotator's tag", metavar="NAME"),))
def read_paths(paths: Sequence[Path], annotators: Sequence[str] | None = None,
               adjudicator: str | None = None) -> list[SenseTag]:
    """:func:`read` on every file of ``paths`` (the visible files of a folder); ``annotators``
    names the two annotators (default ``a1``, ``a2``)."""
    names = annotators or ("a1", "a2")
    tags: list[SenseTag] = []
    for f in _paths.all_files(paths, _paths.visible, recursive=False):
        tags += read(f, names, adjudicator)
    return tags


__all__ = ["read", "read_paths", "sniff"]
