"""DISRPT segmentation files (``.tok`` and ``.conllu``): 10 tab-separated CoNLL-U columns.

A token starts an EDU when its MISC column contains ``BeginSeg=Yes`` (2019-2023 releases) or
``Seg=B-seg`` (2025); the first token of a document always does. Documents start at
``# newdoc id = X`` (or ``# newdoc_id = X``); tokens before any such comment belong to a document
named after the file. Multiword-token ranges (``3-4``) and empty nodes (``5.1``) are skipped.
Masses are EDU sizes in tokens.

One file per annotator: the annotator is the name of the folder holding the file, unless
``paths`` maps annotator names to files or folders. Every annotator of a document must have the
same word forms, else :class:`InputError` names the file and the first differing token.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from os import PathLike
from pathlib import Path

from ..model.corpus import Segmentation
from ..model.errors import InputError
from . import _paths, register
from ._paths import PathsArg
from ._segfiles import check_annotators, first_difference

SUFFIXES = (".tok", ".conllu")
BEGIN_LABELS = ("BeginSeg=Yes", "Seg=B-seg")
_NEWDOC = re.compile(r"#\s*newdoc[ _]id\s*=\s*(.*\S)")


def _files(paths: PathsArg) -> list[tuple[str, Path]]:
    return _paths.annotator_files(paths, SUFFIXES)


class _Doc:
    """Word forms and EDU masses of one document in one file."""

    def __init__(self, name: str, line: int) -> None:
        self.name, self.line = name, line
        self.forms: list[str] = []
        self.masses: list[int] = []

    def add(self, form: str, begins: bool) -> None:
        if begins or not self.masses:
            self.masses.append(0)
        self.masses[-1] += 1
        self.forms.append(form)


def _parse(path: Path) -> list[_Doc]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror}", path) from None
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text ({e.reason} at byte {e.start})", path) from None
    docs = [_Doc(path.stem, 1)]
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            m = _NEWDOC.match(line)
            if m:
                docs.append(_Doc(m.group(1), lineno))
            continue
        if not line.strip():
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(f"expected 10 tab-separated columns, found {len(cols)}",
                             path, lineno)
        if "-" in cols[0] or "." in cols[0]:
            continue
        if not cols[0].isdigit():
            raise InputError(f"token id {cols[0]!r} is not an integer", path, lineno)
        docs[-1].add(cols[1], any(label in cols[9] for label in BEGIN_LABELS))
    return [d for d in docs if d.forms]


def sniff(path: str | PathLike) -> bool:
    """True for a .tok/.conllu file or a folder holding some."""
    return _paths.has_files(path, SUFFIXES)


@register("segments", "disrpt", sniff=sniff,
          summary="DISRPT .tok/.conllu files (BeginSeg=Yes or Seg=B-seg in MISC): one folder "
          "per annotator")
def read(paths: PathsArg, annotators: Iterable[str] | None = None) -> list[Segmentation]:
    """Segmentations from DISRPT files or folders of them (one annotator per folder).

    ``annotators`` keeps only those annotators.
    """
    keep = None if annotators is None else set(annotators)
    found: set[str] = set()
    first: dict[str, tuple[Path, _Doc]] = {}
    seen: set[tuple[str, str]] = set()
    out: list[Segmentation] = []
    for annotator, path in _files(paths):
        if keep is not None and annotator not in keep:
            continue
        found.add(annotator)
        for doc in _parse(path):
            if (doc.name, annotator) in seen:
                raise InputError(f"annotator {annotator!r} has document {doc.name!r} twice",
                                 path, doc.line)
            seen.add((doc.name, annotator))
            ref_path, ref = first.setdefault(doc.name, (path, doc))
            i = first_difference(ref.forms, doc.forms)
            if i is not None:
                here = doc.forms[i] if i < len(doc.forms) else "end of document"
                there = ref.forms[i] if i < len(ref.forms) else "end of document"
                raise InputError(f"document {doc.name!r}: token {i + 1} is {here!r} here but "
                                 f"{there!r} in {ref_path} (annotators must segment the same "
                                 "tokens)", path, doc.line)
            out.append(Segmentation(doc.name, annotator, tuple(doc.masses), unit="token",
                                    source=str(path)))
    check_annotators(keep, found)
    return out
