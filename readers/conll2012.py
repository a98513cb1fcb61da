"""CoNLL-2012 ``*_conll`` coreference reader (Pradhan et al. 2012).

Each ``#begin document (name); part NNN`` … ``#end document`` block is one document with id
``name_NNN`` (``name`` when the line names no part). Tokens come from column 4 (Word); the last
column holds the coreference brackets ``(12``, ``12)``, ``(12)``, ``|``-joined or written one
after the other (``(1)0)`` is ``(1)|0)``, as the reference scorer reads it), or ``-``. Brackets
are matched per entity id, last opened first closed, as the reference scorer does; mentions may
cross sentences. Columns are separated by whitespace, or by tabs when a row has one: then an
empty last column means no mention (LitBank writes it so), and a last column empty on every row
of a document is a trailing tab, the coreference column being the one before. Each mention's
``attrs["order"]`` is ``(token, 0 for a one-token bracket (N) or 1 for an opening one, place in
the cell)``: the reference scorer numbers entities in that order (one-token brackets of a row
before opening ones, left to right), which decides which copy of a repeated response mention it
keeps (:meth:`corpusagree.convert.coref.Alignment.clusters`).

One file or directory per annotator. This module also holds ``build_annotation``, which the
other token-based coreference readers share, and ``read_text``, the decoding every text-based
coreference reader uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from os import PathLike
from pathlib import Path

from ..model.chains import check_documents
from ..model.corpus import Chain, CorefAnnotation, Document, Mention
from ..model.errors import InputError, Problems, quote
from ..model.io import excerpt, read_text
from . import _paths, register

PathArg = str | PathLike | Sequence[str | PathLike]

_PART = re.compile(r"part\s+(\S+)")
_BRACKET = re.compile(r"\((?P<open>[^()|]+)(?P<single>\))?|(?P<close>[^()|]+)\)|\|")
_SUFFIXES = ("_conll", ".conll")


# ---- helpers shared by the text-based coreference readers --------------------------------------

def build_annotation(doc: Document, annotator: str,
                     mentions: Iterable[tuple[str, tuple[tuple[int, int], ...], int | None, dict]],
                     source: str) -> CorefAnnotation:
    """A CorefAnnotation from ``(entity, fragments, head, attrs)`` tuples.

    Mention ids are ``m1, m2, …`` in span order (then the order of their opening brackets,
    ``attrs["order"]``, else entity), so equal annotations get equal ids whatever the format;
    chain ids are the file's entity ids, ordered by first mention.
    """
    rows = sorted(mentions, key=lambda m: (tuple(sorted(m[1])), m[3].get("order", ()), m[0]))
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
    return first.lstrip("\ufeff").startswith("#begin document")


@register("coref", "conll", layout="path", sniff=sniff,
          summary="CoNLL-2012 *_conll files (Pradhan et al. 2012): one file or folder per "
          "annotator")
def read(paths: PathArg, annotators: Sequence[str] | None = None) -> list[CorefAnnotation]:
    """Read ``*_conll`` files: one file or directory per annotator; one CorefAnnotation per
    (annotator, document part)."""
    out: list[CorefAnnotation] = []
    problems = Problems()
    for name, files, _ in _paths.annotator_sources(paths, annotators, _SUFFIXES):
        for f in files:
            with problems.collect():
                for doc, mentions in _parse(f, problems):
                    out.append(build_annotation(doc, name, mentions, str(f)))
    problems.check()
    check_documents(out)
    return out


def _parse(path: Path, problems: Problems):
    """Yield ``(Document, [(entity, fragments, head, attrs)])`` for each document part; a
    document with a problem is skipped after its first (kept in ``problems``), the file's
    other documents are read."""
    doc = None
    broken = False  # the document being read has a problem: skip to its end
    lineno = 0
    for lineno, line in enumerate(read_text(path).removesuffix("\n").split("\n"), 1):
        try:
            if line.startswith("#begin document"):
                if doc is not None and not broken:
                    raise InputError(f"#begin document inside document {quote(doc.id)} "
                                     f"(missing #end document)", path, lineno)
                doc, broken = _DocBuilder(_document_id(line, path, lineno), path), False
            elif line.startswith("#end document"):
                if doc is None:
                    raise InputError("#end document without #begin document", path, lineno)
                if not broken:
                    yield doc.finish()
                doc, broken = None, False
            elif line.startswith("#") or broken:
                continue
            elif not line.strip():
                if doc is not None:
                    doc.end_sentence()
            elif doc is None:
                raise InputError("token line outside #begin document … #end document",
                                 path, lineno)
            else:
                cells = [c.strip() for c in line.split("\t")] if "\t" in line else line.split()
                doc.token(cells, lineno)
        except InputError as e:
            problems.add(e)
            broken = doc is not None
    if doc is not None and not broken:
        raise InputError(f"document {quote(doc.id)} has no #end document", path, lineno)


def _document_id(line: str, path: Path, lineno: int) -> str:
    """``name_part`` of ``#begin document (name); part NNN``; ``name`` without a part."""
    rest = line[len("#begin document"):].strip()
    name, semicolon, tail = rest.rpartition(";")
    m = _PART.fullmatch(tail.strip())
    if not semicolon or not (m or not tail.strip()):
        name, m = rest, None
    name, part = name.strip(), m and m[1]
    if name.startswith("(") and name.endswith(")"):
        name = name[1:-1].strip()
    if not name:
        raise InputError("#begin document names no document", path, lineno)
    return f"{name}_{part}" if part else name


class _DocBuilder:
    """Accumulates the tokens, sentences and coreference cells of one document part."""

    def __init__(self, doc_id: str, path: Path) -> None:
        self.id, self.path = doc_id, path
        self.tokens: list[str] = []
        self.starts: list[int] = []
        self.ncols: tuple[int, int] | None = None  # (columns, line) of the sentence's first row
        self.cells: list[tuple[int, str, str]] = []  # (line, last cell, the cell before it)

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
            raise InputError(f"word number {quote(cols[2])}, expected {expected}", self.path,
                             lineno)
        self.tokens.append(cols[3])
        self.cells.append((lineno, cols[-1], cols[-2]))

    def finish(self) -> tuple[Document, list]:
        """The document and its mentions: brackets matched per entity, last opened first
        closed."""
        trailing_tab = bool(self.cells) and not any(last for _, last, _ in self.cells)
        opened: dict[str, list[tuple[int, int]]] = {}  # entity -> stack of (start, line)
        mentions: list[tuple[str, tuple[tuple[int, int], ...], None, dict]] = []
        for pos, (lineno, last, before) in enumerate(self.cells):
            cell = before if trailing_tab else last
            if cell in ("", "-", "_"):
                continue
            at = k = 0
            while at < len(cell):
                k += 1
                m = _BRACKET.match(cell, at)
                if m is None:
                    raise InputError(f"malformed coreference part {excerpt(cell[at:])} in "
                                     f"{excerpt(cell)}",
                                     self.path, lineno)
                at = m.end()
                if m["open"] is not None and m["single"]:
                    mentions.append((m["open"], ((pos, pos + 1),), None,
                                     {"order": (pos, 0, k)}))
                elif m["open"] is not None:
                    opened.setdefault(m["open"], []).append((pos, lineno, k))
                elif m["close"] is not None:
                    stack = opened.get(m["close"])
                    if not stack:
                        raise InputError(f"closing bracket {excerpt(m[0])} with no open mention of "
                                         f"entity {excerpt(m['close'])}", self.path, lineno)
                    start, _, opening = stack.pop()
                    mentions.append((m["close"], ((start, pos + 1),), None,
                                     {"order": (start, 1, opening)}))
        for eid, stack in opened.items():
            if stack:
                raise InputError(f"mention of entity {excerpt(eid)} opened here is never closed "
                                 f"in document {quote(self.id)}", self.path, stack[0][1])
        doc = Document(self.id, self.tokens, self.starts, source=str(self.path))
        return doc, mentions


__all__ = ["PathArg", "build_annotation", "read", "sniff"]
