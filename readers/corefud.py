"""CorefUD reader: CoNLL-U with ``Entity=`` in MISC (Nedoluzhko et al. 2022).

``Entity=`` concatenates opening ``(e1-person-1``, closing ``e1)`` and one-word ``(e2-place-1)``
chunks; the fields of an opening chunk follow ``# global.Entity`` (default
``eid-etype-head-other``). The entity id is the field ``eid``, else the first field whatever it
is called (GUM names it ``GRP``: ``GRP-etype-infstat-salience-centering-minspan-link-identity``);
a field ``head`` gives the mention's head, the others land in ``attrs`` under their names.
Discontinuous mentions mark their parts ``e3[1/2]`` … ``e3[2/2]``. ``# newdoc id = …`` starts
a document; multiword-token lines (``1-2``) are skipped. Empty nodes
(``5.1``) are not tokens: a bracket opened on one starts at the next word, a bracket closed on one
ends after the previous word, and a mention lying on empty nodes only is dropped (with a
warning). ``SplitAnte`` and ``Bridge`` are not read. ``attrs["order"]`` is the mention's place
in the order of the reference scorer, as for CoNLL-2012 (:mod:`corpusagree.readers.conll2012`).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from ..model.chains import check_documents
from ..model.corpus import CorefAnnotation, Document, merged_fragments
from ..model.errors import InputError, Problems, quote
from ..model.io import excerpt, read_text
from . import _paths, register
from .conll2012 import PathArg, build_annotation

_SUFFIXES = (".conllu",)
_CHUNK = re.compile(r"\((?P<open>[^()]+)(?P<single>\))?|(?P<close>[^()]+)\)")
_EID = re.compile(r"(?P<eid>[^\[\]-]+)(?:\[(?P<k>\d{1,9})/(?P<n>\d{1,9})\])?")
_DEFAULT_FIELDS = ("eid", "etype", "head", "other")


def sniff(path: str | PathLike) -> bool:
    """True for a ``.conllu`` file (or a directory holding one) with ``Entity=`` annotations."""
    text = _paths.head(path, _SUFFIXES)
    return text is not None and "Entity=" in text and any(
        len(x.split("\t")) == 10 for x in text.splitlines()[:200])


@register("coref", "corefud", layout="path", sniff=sniff,
          summary="CorefUD .conllu files (CoNLL-U with Entity= in MISC; Nedoluzhko et al. "
          "2022): one file or folder per annotator")
def read(paths: PathArg, annotators: Sequence[str] | None = None) -> list[CorefAnnotation]:
    """Read CorefUD ``.conllu`` files: one file or directory per annotator; one
    CorefAnnotation per (annotator, ``newdoc``)."""
    out: list[CorefAnnotation] = []
    dropped = 0
    problems = Problems()
    for name, files, _ in _paths.annotator_sources(paths, annotators, _SUFFIXES):
        for f in files:
            parser = _Parser(f, problems)
            with problems.collect():
                for doc, mentions in parser.documents():
                    out.append(build_annotation(doc, name, mentions, str(f)))
            dropped += parser.dropped
    problems.check()
    if dropped:
        warnings.warn(f"{dropped} mention(s) lying on empty nodes only were dropped",
                      stacklevel=2)
    check_documents(out)
    return out


class _Parser:
    """One file: documents, sentences, bracket stacks per entity (and per part)."""

    def __init__(self, path: Path, problems: Problems) -> None:
        self.path = path
        self.fields = _DEFAULT_FIELDS
        self.dropped = 0
        self.problems = problems
        self.broken = False  # the document being read has a problem: skip to the next

    def documents(self):
        """Yield ``(Document, [(entity, fragments, head, attrs)])`` per ``newdoc``; a document
        with a problem is skipped after its first (kept in the problems)."""
        self._new_doc(self.path.name.split(".")[0])
        n_docs = 0
        for lineno, line in enumerate(read_text(self.path).split("\n"), 1):
            try:
                if line.startswith("#"):
                    key, _, value = line[1:].partition("=")
                    key = key.strip()
                    if key == "newdoc id" or line[1:].strip() == "newdoc":
                        done = None
                        if (self.tokens or self.mentions) and not self.broken:
                            try:
                                done = self._finish()
                            except InputError as e:
                                self.problems.add(e)
                        if done is not None:
                            yield done
                        n_docs += 1
                        self._new_doc(value.strip()
                                      or f"{self.path.name.split('.')[0]}-{n_docs}")
                    elif key == "global.Entity":
                        self.fields = tuple(f.strip() for f in value.split("-"))
                        if not all(self.fields):
                            raise InputError(f"global.Entity {quote(value.strip())} has an "
                                             "empty field", self.path, lineno)
                elif self.broken:
                    continue
                elif not line.strip():
                    self.sentence_open = False
                else:
                    self._token(line.split("\t"), lineno)
            except InputError as e:
                self.problems.add(e)
                self.broken = True
        if (self.tokens or self.mentions or self.open) and not self.broken:
            yield self._finish()

    def _new_doc(self, doc_id: str) -> None:
        self.doc_id = doc_id
        self.broken = False
        self.tokens: list[str] = []
        self.starts: list[int] = []
        self.sentence_open = False
        self.open: dict[str, list[tuple[int, int, dict]]] = {}   # eid[k/n] -> [(start, line, f)]
        self.parts: dict[str, list] = {}     # eid -> [fragments, n, head, fields, line]
        self.mentions: list = []

    def _token(self, cols: list[str], lineno: int) -> None:
        if len(cols) != 10:
            raise InputError(f"{len(cols)} tab-separated columns, CoNLL-U needs 10",
                             self.path, lineno)
        tid = cols[0]
        if not re.fullmatch(r"\d+(-\d+|\.\d+)?", tid):
            raise InputError(f"bad token id {quote(tid)}", self.path, lineno)
        if "-" in tid:
            return
        empty = "." in tid
        if not empty:
            if not self.sentence_open:
                self.starts.append(len(self.tokens))
                self.sentence_open = True
            self.tokens.append(cols[1])
        entity = next((x[7:] for x in cols[9].split("|") if x.startswith("Entity=")), None)
        if entity:
            self._chunks(entity, lineno, empty)

    def _chunks(self, value: str, lineno: int, empty: bool) -> None:
        pos = len(self.tokens)          # an empty node sits before the next word
        here = pos if empty else pos - 1  # index of this word
        at = k = 0
        while at < len(value) and (m := _CHUNK.match(value, at)) is not None:
            at = m.end()
            k += 1
            if m["open"] is not None:
                eid, f = self._fields(m["open"], lineno)
                start = pos if empty else here
                f["order"] = (start, 0 if m["single"] else 1, k)
                if m["single"]:
                    self._close(eid, start, pos, f, lineno)
                else:
                    self.open.setdefault(eid, []).append((start, lineno, f))
            else:
                key = m["close"]
                stack = self.open.get(key)
                if not stack:
                    raise InputError(f"closing bracket {excerpt(key + ')')} with no open mention",
                                     self.path, lineno)
                start, _, f = stack.pop()
                self._close(key, start, pos, f, lineno)
        if at != len(value):
            raise InputError(f"malformed Entity value {excerpt(value)}", self.path, lineno)

    def _fields(self, chunk: str, lineno: int) -> tuple[str, dict]:
        """The entity id (field ``eid``, else the first) and the other fields by name."""
        vals = chunk.split("-", len(self.fields) - 1)
        f = dict(zip(self.fields, vals, strict=False))  # trailing fields may be absent
        eid = f.pop("eid" if "eid" in self.fields else self.fields[0], "")
        if not _EID.fullmatch(eid):
            raise InputError(f"malformed entity chunk {excerpt('(' + chunk)}", self.path, lineno)
        return eid, f

    def _close(self, key: str, start: int, end: int, f: dict, lineno: int) -> None:
        m = _EID.fullmatch(key)
        if m is None:
            raise InputError(f"malformed entity id {excerpt(key)}", self.path, lineno)
        eid = m["eid"]
        if m["k"] is None:
            self._emit(eid, [(start, end)], f, f, lineno)
            return
        k, n = int(m["k"]), int(m["n"])
        if k == 1:
            if eid in self.parts:
                raise InputError(f"part [1/{n}] of entity {excerpt(eid)} while an earlier "
                                 "discontinuous mention of it is unfinished", self.path, lineno)
            self.parts[eid] = [[], n, f, lineno]
        elif eid not in self.parts or len(self.parts[eid][0]) != k - 1:
            raise InputError(f"part [{k}/{n}] of entity {excerpt(eid)} out of order", self.path,
                             lineno)
        frags, _, first, _ = self.parts[eid]
        frags.append((start, end))
        if k == n:
            del self.parts[eid]
            self._emit(eid, frags, first, f, lineno)

    def _emit(self, eid: str, frags: list, first: dict, last: dict, lineno: int) -> None:
        frags = [(s, e) for s, e in frags if e > s]
        if not frags:
            self.dropped += 1
            return
        head = None
        for f in (last, first):
            head = _nth_token(frags, f.get("head", ""))
            if head is not None:
                break
        attrs = {k: v for k, v in first.items() if k != "head" and v not in ("", "_")}
        self.mentions.append((eid, tuple(frags), head, attrs))

    def _finish(self) -> tuple[Document, list]:
        for key, stack in self.open.items():
            if stack:
                raise InputError(f"mention {excerpt(key)} opened here is never closed in "
                                 f"document {quote(self.doc_id)}", self.path, stack[0][1])
        for eid, (_, n, _, line) in self.parts.items():
            raise InputError(f"discontinuous mention of entity {excerpt(eid)} begun here has "
                             f"fewer than {n} parts", self.path, line)
        return Document(self.doc_id, self.tokens, self.starts, source=str(self.path)), \
            self.mentions


def _nth_token(frags: list[tuple[int, int]], head: str) -> int | None:
    """The token index of the 1-based ``head``-th token of the fragments' union, or None."""
    if not head.isdigit() or len(head) > 18:
        return None
    k = int(head) - 1
    covered = 0
    for s, e in merged_fragments(frags):
        if 0 <= k - covered < e - s:
            return s + k - covered
        covered += e - s
    return None


__all__ = ["read", "sniff"]
