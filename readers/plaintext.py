"""Plain-text segmentations: one UTF-8 file per annotator and document, segments separated by
blank lines or, with ``marker``, by lines matching a regular expression (e.g. Choi's
``=+``); blank lines then belong to segments.

The document is the file name without extension, the annotator the name of the folder holding
the file, unless ``paths`` maps annotator names to files or folders. Segments are tokenised with
spaCy (``spacy.blank(lang)`` plus the rule-based ``sentencizer``; no model download) and
measured in words (``unit="word"``, whitespace tokens excluded) or sentences
(``unit="sentence"``; each segment is split on its own, so a boundary inside a sentence shows up
as a different sentence sequence). All annotators of a document must produce the same unit
sequence, else :class:`InputError` names the file and the first differing unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.corpus import Segmentation
from ..model.errors import InputError
from . import Option, _paths, register
from ._paths import PathsArg
from ._segfiles import check_annotators, first_difference

if TYPE_CHECKING:
    from spacy.language import Language

SUFFIXES = (".txt",)


def _files(paths: PathsArg) -> list[tuple[str, Path]]:
    return _paths.annotator_files(paths, SUFFIXES)


@cache
def _nlp(lang: str) -> Language:
    import spacy  # imported on first use: loading spaCy takes a while

    nlp = spacy.blank(lang)
    nlp.add_pipe("sentencizer")
    return nlp


def _segments(text: str, marker: str | None) -> list[str]:
    """Segment texts of a file: blocks between blank lines, or between ``marker`` lines."""
    sep = None if marker is None else re.compile(marker)
    out: list[str] = []
    block: list[str] = []
    for line in [*text.splitlines(), None]:
        if line is None or (not line.strip() if sep is None else sep.fullmatch(line.strip())):
            if "".join(block).strip():
                out.append("\n".join(block).strip())
            block = []
        else:
            block.append(line)
    return out


def _units(texts: list[str], unit: str, lang: str) -> tuple[list[str], tuple[int, ...]]:
    """The unit sequence of a file and its segment masses."""
    units: list[str] = []
    masses = []
    for doc in _nlp(lang).pipe(texts):
        if unit == "word":
            seg = [t.text for t in doc if not t.is_space]
        else:
            seg = [s for s in (" ".join(t.text for t in sent if not t.is_space)
                               for sent in doc.sents) if s]
        if seg:
            units.extend(seg)
            masses.append(len(seg))
    return units, tuple(masses)


def sniff(path: str | PathLike) -> bool:
    """True for a .txt file or a folder holding some."""
    return _paths.has_files(path, SUFFIXES)


@register("segments", "text", sniff=sniff,
          summary="plain UTF-8 text, segments separated by blank lines or marker lines (Choi "
          "2000): one folder per annotator",
          options=(Option("unit", "plain text: count segments in words or sentences (spaCy; "
                          "default: word)", choices=("word", "sentence")),
                   Option("marker", "plain text: regular expression of segment separator "
                          "lines, e.g. '=+' (default: blank lines)", metavar="REGEX"),
                   Option("lang", "plain text: spaCy language code of the tokeniser "
                          "(default: en)"),
                   Option("encoding", "plain text: file encoding (default: UTF-8)")))
def read(paths: PathsArg, annotators: Iterable[str] | None = None, unit: str = "word",
         marker: str | None = None, lang: str = "en",
         encoding: str = "utf-8-sig") -> list[Segmentation]:
    """Segmentations from text files or folders of them (one annotator per folder).

    ``annotators`` keeps only those annotators; ``unit`` is ``"word"`` or ``"sentence"``.
    """
    if unit not in ("word", "sentence"):
        raise InputError(f"unit must be 'word' or 'sentence', got {unit!r}")
    try:
        _nlp(lang)
        re.compile(marker or "")
    except ImportError:
        raise InputError(f"spaCy has no language {lang!r}") from None
    except re.error as e:
        raise InputError(f"marker is not a valid regular expression: {e}") from None
    keep = None if annotators is None else set(annotators)
    found: set[str] = set()
    first: dict[str, tuple[Path, list[str]]] = {}
    seen: dict[tuple[str, str], Path] = {}
    out: list[Segmentation] = []
    for annotator, path in _files(paths):
        if keep is not None and annotator not in keep:
            continue
        found.add(annotator)
        doc = path.stem
        if (doc, annotator) in seen:
            raise InputError(f"annotator {annotator!r} has document {doc!r} twice (also "
                             f"{seen[doc, annotator]})", path)
        seen[doc, annotator] = path
        try:
            text = path.read_text(encoding=encoding)
        except OSError as e:
            raise InputError(f"cannot read file: {e.strerror}", path) from None
        except UnicodeDecodeError as e:
            raise InputError(f"not {encoding} text ({e.reason} at byte {e.start})", path) from None
        units, masses = _units(_segments(text, marker), unit, lang)
        if not masses:
            raise InputError("no text to segment", path)
        ref_path, ref = first.setdefault(doc, (path, units))
        i = first_difference(ref, units)
        if i is not None:
            here = units[i] if i < len(units) else "end of text"
            there = ref[i] if i < len(ref) else "end of text"
            raise InputError(f"document {doc!r}: {unit} {i + 1} is {here!r} here but {there!r} "
                             f"in {ref_path} (annotators must segment the same text)", path)
        out.append(Segmentation(doc, annotator, masses, unit=unit, source=str(path)))
    check_annotators(keep, found)
    return out
