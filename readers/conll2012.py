"""CoNLL-2012 ``*_conll`` coreference reader (Pradhan et al. 2012).

Each ``#begin document (name); part NNN`` … ``#end document`` block is one document with id
``name_NNN``. Tokens come from column 4 (Word); the last column holds the coreference brackets
``(12``, ``12)``, ``(12)``, ``|``-joined, or ``-``. Brackets are matched per entity id, last
opened first closed, as the reference scorer does; mentions may cross sentences.

One file or directory per annotator. This module also holds ``build_annotation``, which the
other token-based coreference readers share.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from os import PathLike
from pathlib import Path

from ..model.chains import check_documents
from ..model.corpus import Chain, CorefAnnotation, Document, Mention
from ..model.errors import InputError
from . import _paths, register

PathArg = str | PathLike | Sequence[str | PathLike]

_BEGIN = re.compile(r"#begin document\s*\(?(?P<name>.*?)\)?\s*(?:;\s*part\s+(?P<part>\S+))?\s*$")
_PART = re.compile(r"\((?P<single>[^()|]+)\)|\((?P<open>[^()|]+)|(?P<close>[^()|]+)\)")
_SUFFIXES = ("_conll", ".conll")


# ---- helpers shared by the token-based coreference readers -------------------------------------

def build_annotation(doc: Document, annotator: str,
                     mentions: Iterable[tuple[str, tuple[tuple[int, int], ...], int | None, dict]],
                     source: str) -> CorefAnnotation:
    """A CorefAnnotation from ``(entity, fragments, head, attrs)`` tuples.

    Mention ids are ``m1, m2, …`` in span order (then entity), so equal annotations get equal
    ids whatever the format; chain ids are the file's entity ids, ordered by first mention.
    """
    rows = sorted(mentions, key=lambda m: (tuple(sorted(m[1])), m[0]))
    ments: dict[str, Mention] = {}
    chains: dict[str, Chain] = {}
    for i, (eid, frags, head, attrs) in enumerate(rows, 1):
        mid = f"m{i}"
        ments[mid] = Mention(mid, tuple(sorted(frags)), head, {"entity": eid, **attrs})
        chains.setdefault(eid, Chain(eid, [])).members.append(mid)
    return CorefAnnotation(doc, annotator, ments, list(chains.values()), source=source)


# ---- CoNLL-2012 ---------------------------------------------------------------------------------

def sniff(path: str | PathLike) -> bool:
    """True for a file (or a directory holding one) whose first line is ``#begin document``."""
    text = _paths.head(path, _SUFFIXES)
    first = next((line for line in (text or "").splitlines() if line.strip()), "")
    return first.startswith("#begin document")


@register("coref", "conll", sniff=sniff,
          summary="CoNLL-2012 *_conll files (Pradhan et al. 2012): one file or folder per "
          "annotator")
def read(paths: PathArg, annotators: Sequence[str] | None = None) -> list[CorefAnnotation]:
    """Read ``*_conll`` files: one file or directory per annotator; one CorefAnnotation per
    (annotator, document part)."""
    out: list[CorefAnnotation] = []
    for name, files, _ in _paths.annotator_sources(paths, annotators, _SUFFIXES):
        for f in files:
            for doc, mentions in _parse(f):
                out.append(build_annotation(doc, name, mentions, str(f)))
    check_documents(out)
    return out


def _parse(path: Path):
    """Yield ``(Document, [(entity, fragments, head, attrs)])`` for each document part."""
    doc = None
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.rstrip("\n").rstrip("\r")
            if line.startswith("#begin document"):
                if doc is not None:
                    raise InputError(f"#begin document inside document {doc.id!r} "
                                     f"(missing #end document)", path, lineno)
                m = _BEGIN.match(line)
                name, part = m["name"].strip(), m["part"]
                doc = _DocBuilder(f"{name}_{part}" if part else name, path)
            elif line.startswith("#end document"):
                if doc is None:
                    raise InputError("#end document without #begin document", path, lineno)
                yield doc.finish()
                doc = None
            elif line.startswith("#"):
                continue
            elif not line.strip():
                if doc is not None:
                    doc.end_sentence()
            elif doc is None:
                raise InputError("token line outside #begin document … #end document",
                                 path, lineno)
            else:
                doc.token(line.split(), lineno)
    if doc is not None:
        raise InputError(f"document {doc.id!r} has no #end document", path, lineno)


class _DocBuilder:
    """Accumulates the tokens, sentences and bracket stacks of one document part."""

    def __init__(self, doc_id: str, path: Path) -> None:
        self.id, self.path = doc_id, path
        self.tokens: list[str] = []
        self.starts: list[int] = []
        self.ncols: tuple[int, int] | None = None  # (columns, line) of the sentence's first row
        self.open: dict[str, list[tuple[int, int]]] = {}  # entity -> stack of (start, line)
        self.mentions: list[tuple[str, tuple[tuple[int, int], ...], None, dict]] = []

    def end_sentence(self) -> None:
        self.ncols = None

    def token(self, cols: list[str], lineno: int) -> None:
        if self.ncols is None:
            if len(cols) < 5:
                raise InputError(f"{len(cols)} columns; CoNLL-2012 needs at least 5 "
                                 "(document, part, word number, word, …, coreference)",
                                 self.path, lineno)
            self.ncols = (len(cols), lineno)
            self.starts.append(len(self.tokens))
        elif len(cols) != self.ncols[0]:
            raise InputError(f"{len(cols)} columns, but {self.ncols[0]} on line {self.ncols[1]} "
                             "of the same sentence", self.path, lineno)
        expected = len(self.tokens) - self.starts[-1]
        if cols[2] != str(expected):
            raise InputError(f"word number {cols[2]!r}, expected {expected}", self.path, lineno)
        pos = len(self.tokens)
        self.tokens.append(cols[3])
        if cols[-1] not in ("-", "_"):
            self._brackets(cols[-1], pos, lineno)

    def _brackets(self, cell: str, pos: int, lineno: int) -> None:
        for part in cell.split("|"):
            m = _PART.fullmatch(part)
            if m is None:
                raise InputError(f"malformed coreference part {part!r} in {cell!r}",
                                 self.path, lineno)
            if m["single"]:
                self.mentions.append((m["single"], ((pos, pos + 1),), None, {}))
            elif m["open"]:
                self.open.setdefault(m["open"], []).append((pos, lineno))
            else:
                stack = self.open.get(m["close"])
                if not stack:
                    raise InputError(f"closing bracket {part!r} with no open mention of "
                                     f"entity {m['close']!r}", self.path, lineno)
                start, _ = stack.pop()
                self.mentions.append((m["close"], ((start, pos + 1),), None, {}))

    def finish(self) -> tuple[Document, list]:
        for eid, stack in self.open.items():
            if stack:
                raise InputError(f"mention of entity {eid!r} opened here is never closed "
                                 f"in document {self.id!r}", self.path, stack[0][1])
        doc = Document(self.id, self.tokens, self.starts, source=str(self.path))
        return doc, self.mentions
