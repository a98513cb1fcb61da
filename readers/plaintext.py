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
from collections.abc import Iterable, Iterator
from functools import cache
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.corpus import Segmentation
from ..model.errors import InputError, Problems, quote
from ..model.io import excerpt, read_text
from . import Option, _paths, register
from ._paths import PathsArg
from ._segfiles import check_annotators
from ._text import LANG, check_lang

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


#: characters handed to spaCy at once: its Doc costs some 100 bytes per token, so a long
#: segment is tokenised in pieces (and spaCy's ``max_length`` guard, E088, is never reached)
PIECE = 100_000
_SPACE = re.compile(r"\s")
_LAST_SPACE = re.compile(r".*(\s)", re.DOTALL)
_LAST_SENTENCE_END = re.compile(r".*[.!?][\"')\]]*(\s)", re.DOTALL)


def _pieces(text: str, unit: str) -> Iterator[tuple[str, bool]]:
    """``text`` in pieces of about :data:`PIECE` characters, each cut (in its second half) at
    the last whitespace — for sentences, preferably the last whitespace after ``.``, ``!`` or
    ``?`` — or, in a longer run without whitespace, at its end (at most ``10 × PIECE``
    characters on: only a run longer than that is cut inside); with each piece, whether it
    continues a sentence of the piece before (it was not cut after a sentence end). Tokens do
    not cross whitespace, so the words are those of the whole text."""
    start, continues = 0, False
    while len(text) - start > PIECE:
        window = text[start + PIECE // 2:start + PIECE]
        end = unit == "sentence" and _LAST_SENTENCE_END.match(window)
        last = end or _LAST_SPACE.match(window)
        if last:
            cut = start + PIECE // 2 + last.start(1)
        else:
            more = _SPACE.search(text, start + PIECE, start + 10 * PIECE)
            cut = more.start() if more else min(len(text), start + 10 * PIECE)
        yield text[start:cut], continues
        start, continues = cut, not end
    if start < len(text):
        yield text[start:], continues


def _units(texts: list[str], unit: str, lang: str) -> tuple[str, tuple[int, ...]]:
    """The unit sequence of a file (the units joined by newlines, which no unit holds: one
    string rather than a string per unit) and its segment masses."""
    out: list[str] = []
    counts = [0] * len(texts)
    pieces = ((piece, (k, continues)) for k, t in enumerate(texts)
              for piece, continues in _pieces(t, unit))
    nlp = _nlp(lang)
    for doc, (k, continues) in nlp.pipe(pieces, as_tuples=True,
                                        disable=["sentencizer"] if unit == "word" else []):
        if unit == "word":
            seg = [t.text for t in doc if not t.is_space]
        else:
            seg = [s for s in (" ".join(t.text for t in sent if not t.is_space)
                               for sent in doc.sents) if s]
            if continues and seg and counts[k]:  # the sentence goes on from the last piece
                out[-1] += " " + seg.pop(0)
        if seg:
            out.append("\n".join(seg))
            counts[k] += len(seg)
    return "\n".join(out), tuple(c for c in counts if c)


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b``, comparing slices in halves
    (time linear in the length)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # invariant: a[:lo] == b[:lo]; the longest common prefix is ≤ hi
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


#: characters past the first difference of two texts that are tokenised to name its unit
MARGIN = 1000
_WORD = re.compile(r"\S+")


def _prefix(texts: list[str], n: int, unit: str) -> list[str]:
    """The segment texts up to their first ``n`` non-whitespace characters, the word holding
    the last of them whole (tokens do not cross whitespace), or for sentences its segment
    whole (each segment is split into sentences on its own): their units are those of the
    whole text up to there."""
    out: list[str] = []
    for t in texts:
        k = len("".join(t.split()))
        if k < n or unit == "sentence":
            out.append(t)
            n -= k
            if n <= 0:
                break
            continue
        for m in _WORD.finditer(t):
            n -= len(m.group())
            if n <= 0:
                out.append(t[:m.end()])
                break
        break
    return out


def _first_difference(a: str, b: str) -> tuple[int, str | None, str | None] | None:
    """Where two newline-joined unit sequences first differ: (unit index, unit of ``a``, unit
    of ``b``; ``None`` past the last), or None when they are equal. Slices are compared
    in halves, in time linear in the length."""
    if a == b:
        return None
    lo = _common_prefix(a, b)
    longer = a if len(a) > len(b) else b
    if lo == min(len(a), len(b)) and longer[lo:lo + 1] == "\n":
        start = lo + 1  # one sequence ends where the other goes on with a unit
    else:
        start = a.rfind("\n", 0, lo) + 1

    def unit(s: str) -> str | None:
        if start >= len(s):
            return None
        end = s.find("\n", start)
        return s[start:] if end < 0 else s[start:end]

    return longer.count("\n", 0, start), unit(a), unit(b)


def _raise_difference(doc: str, unit: str, path: Path, units: str, ref_path: Path,
                      ref: str) -> None:
    """An error naming the first unit where the units of ``path`` differ from those of the
    document's first file, if they do."""
    diff = _first_difference(units, ref)
    if diff is None:
        return
    i, here, there = diff
    raise InputError(f"document {quote(doc)}: {unit} {i + 1} is {excerpt(here)} here but "
                     f"{excerpt(there)} in {ref_path} (annotators must segment the same "
                     "text)", path)


def _check_same(doc: str, unit: str, lang: str, path: Path, texts: list[str], ref_path: Path,
                ref_texts: list[str]) -> None:
    """Texts whose non-whitespace characters differ: the error, from their units up to just
    past the first difference (tokenising the whole texts gives the same)."""
    _raise_difference(doc, unit, path, _units(texts, unit, lang)[0], ref_path,
                      _units(ref_texts, unit, lang)[0])


def sniff(path: str | PathLike) -> bool:
    """True for a .txt file or a folder holding some."""
    return _paths.has_files(path, SUFFIXES)


@register("segments", "text", sniff=sniff, fallback=True,
          summary="plain UTF-8 text, segments separated by blank lines or marker lines (Choi "
          "2000): one folder per annotator",
          options=(Option("unit", "plain text: count segments in words or sentences (spaCy; "
                          "default: word)", choices=("word", "sentence")),
                   Option("marker", "plain text: regular expression of segment separator "
                          "lines, e.g. '=+' (default: blank lines)", metavar="REGEX"),
                   LANG,
                   Option("encoding", "plain text: file encoding (default: UTF-8)")))
def read(paths: PathsArg, annotators: Iterable[str] | None = None, unit: str = "word",
         marker: str | None = None, lang: str = "en",
         encoding: str | None = None) -> list[Segmentation]:
    """Segmentations from text files or folders of them (one annotator per folder).

    ``annotators`` keeps only those annotators; ``unit`` is ``"word"`` or ``"sentence"``.
    """
    if unit not in ("word", "sentence"):
        raise InputError(f"unit must be 'word' or 'sentence', got {quote(unit)}")
    check_lang(lang)
    try:
        re.compile(marker or "")
    except re.error as e:
        raise InputError(f"marker is not a valid regular expression: {e}") from None
    keep = None if annotators is None else set(annotators)
    found: set[str] = set()
    seen: dict[tuple[str, str], Path] = {}
    files: list[tuple[str, str, Path, list[str]]] = []
    # each document's first file, its segment texts and their non-whitespace characters:
    # files of a document whose characters differ are an error found before tokenising them
    first: dict[str, tuple[Path, list[str], str]] = {}
    problems = Problems()
    for annotator, path in _files(paths):
        found.add(annotator)
        if keep is not None and annotator not in keep:
            continue
        doc = path.stem
        with problems.collect():
            if (doc, annotator) in seen:
                raise InputError(f"annotator {quote(annotator)} has document {quote(doc)} twice "
                                 f"(also {seen[doc, annotator]})", path)
            seen[doc, annotator] = path
            texts = _segments(read_text(path, encoding), marker)
            chars = "".join("".join(texts).split())
            if not chars:
                raise InputError("no text to segment", path)
            ref_path, ref_texts, ref_chars = first.setdefault(doc, (path, texts, chars))
            if chars != ref_chars:
                n = _common_prefix(chars, ref_chars) + MARGIN
                _check_same(doc, unit, lang, path, _prefix(texts, n, unit), ref_path,
                            _prefix(ref_texts, n, unit))
            files.append((doc, annotator, path, texts))
    problems.check()
    refs: dict[str, tuple[Path, str]] = {}
    words: dict[str, list[str]] = {}  # each document's units, one list for its annotators
    out: list[Segmentation] = []
    for doc, annotator, path, texts in files:
        units, masses = _units(texts, unit, lang)
        ref_path, ref = refs.setdefault(doc, (path, units))
        _raise_difference(doc, unit, path, units, ref_path, ref)
        if doc not in words:
            words[doc] = ref.split("\n")
        out.append(Segmentation(doc, annotator, masses, unit=unit, source=str(path),
                                tokens=words[doc]))
    check_annotators(keep, found, paths)
    return out


__all__ = ["MARGIN", "PIECE", "SUFFIXES", "read", "sniff"]
