"""CoNLL named-entity columns: one token a line, its tag in the last column (CoNLL-2002/2003).

A line is ``token … tag`` (whitespace-separated columns; the token first, the tag last); a
blank line ends a sentence, a ``-DOCSTART-`` line a document, and a line starting with ``#``
whose last column is no tag is a comment. Tags are ``O`` or ``X-TYPE`` with prefix

* ``B``/``I`` (BIO, IOB2: every entity starts with ``B-``),
* ``B``/``I`` read as IOB1 (an ``I-`` after ``O`` or after another type starts an entity;
  ``B-`` only separates two adjacent entities of one type),
* ``B``/``I``/``E``/``S`` (BIOES; BILOU's ``L``/``U`` are ``E``/``S``).

``scheme="auto"`` reads all three (an ``I-`` after ``O`` starts an entity, as IOB1 does);
``scheme="iob2"`` refuses such an ``I-`` (an InputError naming file and line, the rest of the
file still checked). An entity never crosses a sentence.

One file or folder per annotator. The documents of a file are numbered by their
``-DOCSTART-`` lines (``1``, ``2`` …; a file without one is one document); in a folder, the
files' paths (without their ending) name them, so the annotators' folders must hold the same
file names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

import numpy as np

from ..model.chains import check_documents
from ..model.corpus import Chain, CorefAnnotation, Document, Mention
from ..model.errors import InputError, Problems, quote
from ..model.io import read_text
from . import Option, _paths, register

PathArg = str | PathLike | Sequence[str | PathLike]

_SUFFIXES = (".conll", ".bio", ".iob", ".iob2", ".bioes", ".ner", ".tsv", ".txt")
_TAG = re.compile(r"O|[BIESLU]-\S+")
#: the schemes of ``--scheme``
SCHEMES = ("auto", "iob2", "iob1", "bioes")
_PREFIX = {"O": 0, "B": 1, "I": 2, "E": 3, "S": 4, "L": 3, "U": 4}
_O, _B, _I, _E, _S = range(5)
#: the most lines a sniffer looks at
_SNIFF_LINES = 200


def sniff(path: str | PathLike) -> bool:
    """True for a file (or a folder holding one) whose token lines end in a NER tag, with at
    least one ``B-``/``I-``/``E-``/``S-`` tag, and whose first line is no CoNLL-2012 or
    CoNLL-U header."""
    text = _paths.head(path, _SUFFIXES, 1 << 16)
    if not text:
        return False
    lines = text.splitlines()[:_SNIFF_LINES]
    if len(text) >= 1 << 16 and len(lines) > 1:
        lines = lines[:-1]                   # the last may be cut short
    seen = entity = False
    for line in lines:
        f = line.split()
        if not f or f[0] == "-DOCSTART-":
            continue
        if line.startswith("#"):
            if line.startswith("#begin document"):
                return False
            if len(f) < 2 or not _TAG.fullmatch(f[-1]):
                continue
        if len(f) < 2 or len(f) >= 10 or not _TAG.fullmatch(f[-1]):
            return False
        seen = True
        entity = entity or f[-1] != "O"
    return seen and entity


@register("coref", "conll_ner", layout="path", sniff=sniff, span_layers=True, spans_only=True,
          options=[Option("scheme", "CoNLL NER: the tagging scheme (auto: BIO, IOB1 or "
                          "BIOES; iob2: an I- after O is an error)", choices=SCHEMES)],
          summary="CoNLL NER columns (token … tag; BIO/IOB2, IOB1, BIOES): one file or folder "
          "per annotator")
def read(paths: PathArg, annotators: Sequence[str] | None = None, scheme: str = "auto",
         spans: bool = True) -> list[CorefAnnotation]:
    """Read CoNLL NER files: one file or folder per annotator; one CorefAnnotation per
    (annotator, document), each entity a mention of its own with attribute ``type``."""
    if scheme not in SCHEMES:
        raise InputError(f"unknown scheme {quote(scheme)}; known: {', '.join(SCHEMES)}")
    plist = _paths.as_list(paths)
    out: list[CorefAnnotation] = []
    problems = Problems()
    sources = _paths.annotator_sources(plist, annotators, _SUFFIXES)
    for path, (name, files, root) in zip(plist, sources, strict=True):
        for f in files:
            prefix = "" if Path(path).is_file() else \
                str(f.relative_to(root).with_suffix("")) + "/"
            with problems.collect():
                out += [_annotation(doc, name, entities, str(f))
                        for doc, entities in _parse(f, scheme, prefix, problems)]
    problems.check()
    check_documents(out)
    return out


def _annotation(doc: Document, annotator: str, entities: _Entities, source: str
                ) -> CorefAnnotation:
    """The annotation of one document: mentions ``m1, m2 …`` in span order (as
    :func:`~corpusagree.readers.conll2012.build_annotation` numbers them; the entities come
    in that order already), each its own chain."""
    first, starts, ends, types = entities
    mentions, chains = {}, []
    for i, (s, e, t) in enumerate(zip(starts, ends, types, strict=True)):
        mid, eid = f"m{i + 1}", f"e{first + i}"
        mentions[mid] = Mention(mid, ((s, e),), None, {"entity": eid, "type": t})
        chains.append(Chain(eid, [mid]))
    return CorefAnnotation(doc, annotator, mentions, chains, source=source)


#: the characters ``str.split()`` splits at (Python's whitespace), by code point of the BMP
#: (there is none beyond)
_SPACE = np.array([chr(c).isspace() for c in range(0x10000)], bool)
_DOCSTART = np.frombuffer(b"-DOCSTART-", np.uint8)
#: a tag's prefix letter (code point) -> its code; -1: no prefix
_PREFIX_OF = np.full(128, -1, np.int64)
for _k, _v in _PREFIX.items():
    _PREFIX_OF[ord(_k)] = _v


class _Units:
    """A text as an array of its code points, of the narrowest type that holds them (one
    byte each for Latin-1, two for the BMP, else four); ``strings`` gives the text between
    offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        try:
            self.units = np.frombuffer(text.encode("latin-1"), np.uint8)
        except UnicodeEncodeError:
            data = text.encode("utf-16-le")
            self.units = np.frombuffer(data, np.uint16) if len(data) == 2 * len(text) else \
                np.frombuffer(text.encode("utf-32-le"), np.uint32)

    def space(self, start: int, end: int) -> np.ndarray:
        """Whether each unit from ``start`` to ``end`` is whitespace."""
        u = self.units[start:end]
        return _SPACE[u] if u.dtype != np.uint32 else _SPACE[np.minimum(u, len(_SPACE) - 1)]

    def strings(self, starts: np.ndarray, ends: np.ndarray) -> list[str]:
        """The text from each of ``starts`` to each of ``ends``."""
        text = self.text
        return [text[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]


def _char(cp: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The code points at ``at`` (0 past the end)."""
    return np.where(at < len(cp), cp[np.minimum(at, len(cp) - 1)], 0) if len(cp) else \
        np.zeros(len(at), np.int64)


#: the code points :func:`_fields` looks at in one step (its arrays stay in the cache)
_CHUNK = 1 << 20


def _fields(units: _Units, starts: np.ndarray, ends: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per line ``starts[i]``–``ends[i]`` of ``units`` (lines in order, one after the other):
    its number of fields (``str.split()``'s), the start and end of its first field and of
    its last (0 where it has none). The lines are taken in chunks of about :data:`_CHUNK`
    code points."""
    n = len(starts)
    width = np.zeros(n, np.int64)
    found = np.zeros((4, n), np.int64)
    cuts = np.searchsorted(starts, np.arange(0, len(units.units) + _CHUNK, _CHUNK))
    for lo, hi in zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True):
        if lo == hi:
            continue
        a, b = int(starts[lo]), int(ends[hi - 1])
        word = np.zeros(b - a + 2, np.int8)  # 1 where a field is, 0 around it
        word[1:-1] = ~units.space(a, b)
        step = np.diff(word)
        begin, end = np.flatnonzero(step == 1) + a, np.flatnonzero(step == -1) + a
        k0, k1 = np.searchsorted(begin, starts[lo:hi]), np.searchsorted(begin, ends[lo:hi])
        width[lo:hi] = k1 - k0
        if len(begin):
            some = k1 > k0
            first, last = np.where(some, k0, 0), np.where(some, k1 - 1, 0)
            found[:, lo:hi] = begin[first], end[first], begin[last], end[last]
    return width, *found


#: the longest strings :func:`_coded` hashes (longer ones are compared as strings)
_HASHED = 64


def _coded(units: _Units, starts: np.ndarray, ends: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The distinct strings from each of ``starts`` to each of ``ends`` (offsets of
    ``units``), sorted, and each one's index among them. Over arrays: a hash of each string's
    units picks a first string of each value, and every string is compared with its first,
    unit by unit; strings longer than :data:`_HASHED` units (or all, if two of one hash
    differ) are compared as Python strings."""
    length = ends - starts
    code = np.zeros(len(starts), np.int64)
    found: dict[str, int] = {}
    short = length <= _HASHED
    got = _by_hash(units.units, starts[short], length[short]) if short.any() else None
    if got is not None:
        sel = np.flatnonzero(short)
        first, code[sel] = got
        found = {v: k for k, v in enumerate(units.strings(starts[sel[first]],
                                                          ends[sel[first]]))}
    else:
        short[:] = False
    rest = np.flatnonzero(~short)
    for i, v in zip(rest.tolist(), units.strings(starts[rest], ends[rest]), strict=True):
        code[i] = found.setdefault(v, len(found))
    values = list(found)
    order = sorted(range(len(values)), key=values.__getitem__)
    rank = np.empty(len(values), np.int64)
    rank[order] = np.arange(len(values))
    return [values[k] for k in order], rank[code]


def _by_hash(cp: np.ndarray, starts: np.ndarray, length: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray] | None:
    """``(first, inverse)``: the first of each distinct string of code points
    ``cp[starts[i]:starts[i] + length[i]]`` and each string's index among those firsts; None
    when two strings of one hash differ."""
    longest = int(length.max())
    h = length.astype(np.uint64)
    with np.errstate(over="ignore"):
        for j in range(longest):  # FNV-style: one step per code point of the longest
            h = h * np.uint64(0x100000001B3) + \
                _char(cp, starts + j).astype(np.uint64) * (length > j)
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    rep = starts[first][inverse]
    same = length == length[first][inverse]
    for j in range(longest):
        same &= (length <= j) | (_char(cp, starts + j) == _char(cp, rep + j))
    return (first, inverse) if same.all() else None


#: a document's entities: the number of the first (in its file), their first tokens, their
#: ends and their types
_Entities = tuple[int, list[int], list[int], list[str]]


def parse(path: Path, scheme: str = "auto", prefix: str = "",
          problems: Problems | None = None) -> list[tuple[Document, list]]:
    """The documents of one file, each with its entities ``(id, ((start, end),), None,
    {"type": TYPE})`` in tokens of its document.

    The file is read as an array of code points: its lines, their fields (as ``str.split()``
    splits them), the first field (the token) and the last (the tag) of each are found by
    array operations, and the tags are decoded over arrays: an entity starts at a tag
    ``B``/``S``, or at ``I``/``E`` after ``O``, after another type, after ``E``/``S`` or at a
    sentence's start, and ends before the next start, ``O`` or sentence end. No Python step
    is taken per line, but to make each token's string.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "a.conll"
    >>> _ = f.write_text("Ada B-PER\\nLovelace I-PER\\nwrote O\\nin O\\nLondon I-LOC\\n")
    >>> [(m[1], m[3]["type"]) for m in parse(f)[0][1]]
    [(((0, 2),), 'PER'), (((4, 5),), 'LOC')]
    """
    return [(doc, [(f"e{first + i}", ((s, e),), None, {"type": t})
                   for i, (s, e, t) in enumerate(zip(starts, ends, types, strict=True))])
            for doc, (first, starts, ends, types) in _parse(path, scheme, prefix, problems)]


def _iob2_errors(units: _Units, path: Path, wrong: np.ndarray, at: np.ndarray,
                 tags: tuple[np.ndarray, np.ndarray], boundary: np.ndarray,
                 problems: Problems | None) -> bool:
    """Whether tokens ``wrong`` (an ``I-`` that starts an entity) are there: each of the
    first 50 is a problem (raised at once without ``problems``)."""
    t_start, t_end = tags
    for k in wrong[:50].tolist():
        tag, before = units.strings(t_start[at[[k, k - 1]]], t_end[at[[k, k - 1]]])
        error = InputError(f"{quote(tag)} after "
                           f"{'a sentence break' if boundary[k] else quote(before)}"
                           ": an I- tag starts no entity under scheme='iob2' (read it "
                           "as IOB1 with scheme='auto')", path, int(at[k]) + 1)
        if problems is None:
            raise error
        problems.add(error)
    return len(wrong) > 0


def _parse(path: Path, scheme: str, prefix: str, problems: Problems | None
           ) -> list[tuple[Document, _Entities]]:
    """:func:`parse`'s documents, their entities as lists."""
    units = _Units(read_text(path))
    cp = units.units
    breaks = np.flatnonzero(cp == 10)
    line_start = np.concatenate([[0], breaks + 1])
    line_end = np.concatenate([breaks, [len(cp)]])
    n = len(line_start)
    width, f_start, f_end, t_start, t_end = _fields(units, line_start, line_end)
    f_len, t_len = f_end - f_start, t_end - t_start
    docstart = np.zeros(n, bool)
    maybe = np.flatnonzero((width > 0) & (f_len == len(_DOCSTART)))
    docstart[maybe] = (cp[f_start[maybe, None] + np.arange(len(_DOCSTART))] ==
                       _DOCSTART).all(axis=1)
    # a tag: O, or a prefix letter, "-" and a type (the last field has no whitespace)
    t0, t1 = _char(cp, t_start), _char(cp, t_start + 1)
    pre_line = np.where((width > 0) & (t0 < 128), _PREFIX_OF[np.minimum(t0, 127)], -1)
    valid = (width > 0) & (((t_len == 1) & (t0 == ord("O"))) |
                           ((t_len >= 3) & (pre_line > 0) & (t1 == ord("-"))))
    comment = (width > 0) & (_char(cp, f_start) == ord("#")) & (~valid | (width < 2))
    token = (width > 0) & ~docstart & ~comment
    bad = np.flatnonzero(token & ((width < 2) | ~valid))
    if len(bad):
        k = int(bad[0])
        what = "one column: expected token … tag" if width[k] < 2 else \
            f"{quote(units.strings(t_start[k:k + 1], t_end[k:k + 1])[0])} is no NER tag (O, " \
            "or B-, I-, E-, S- and a type)"
        raise InputError(what, path, k + 1)
    at = np.flatnonzero(token)                      # line index of each token
    typed = at[t_len[at] > 1]
    types, type_code = _coded(units, t_start[typed] + 2, t_end[typed])
    type_of_line = np.full(n, -1, np.int64)
    type_of_line[typed] = type_code
    pre = np.where(t_len[at] == 1, _O, pre_line[at])
    typ = type_of_line[at]
    # a token starts a sentence after a blank, -DOCSTART- or comment line, or at the top
    boundary = np.ones(len(at), bool)
    boundary[1:] = at[1:] - at[:-1] > 1
    prev_pre = np.concatenate([[_O], pre[:-1]])
    prev_typ = np.concatenate([[-1], typ[:-1]])
    entity = pre != _O
    after = boundary | (prev_pre == _O) | (prev_typ != typ)
    start = entity & ((pre == _B) | (pre == _S) | after | (prev_pre == _E) | (prev_pre == _S))
    if scheme == "iob2" and _iob2_errors(units, path, np.flatnonzero(entity & (pre == _I) & after),
                                         at, (t_start, t_end), boundary, problems):
        return []
    # documents: split at -DOCSTART- lines
    doc_of_line = np.cumsum(docstart)
    doc = doc_of_line[at]
    starts_doc = np.flatnonzero(docstart)
    n_docs = int(doc_of_line[-1]) + 1 if n else 1
    has_tokens = np.bincount(doc, minlength=n_docs) > 0
    first_token = np.searchsorted(doc, np.arange(n_docs + 1))
    # entities: each runs from its start over the entity tokens that follow it
    idx = np.flatnonzero(entity)
    member = (np.cumsum(start) - 1)[idx]           # the entity of each entity token
    s_tok = idx[start[idx]]
    e_tok = idx[np.searchsorted(member, np.arange(len(s_tok)), side="right") - 1] + 1
    ent_doc = doc[s_tok]
    out = []
    label = [types[t] for t in typ[s_tok].tolist()]
    cuts = np.searchsorted(ent_doc, np.arange(n_docs + 1)).tolist()
    words = units.strings(f_start[at], f_end[at])
    sentence_starts = np.flatnonzero(boundary)
    s_cuts = np.searchsorted(sentence_starts, first_token).tolist()
    sentence_starts = (sentence_starts - first_token[doc[sentence_starts]]).tolist()
    local_s = (s_tok - first_token[ent_doc]).tolist()
    local_e = (e_tok - first_token[ent_doc]).tolist()
    numbered = len(starts_doc) > 0
    source = str(path)
    k = 0
    for d in np.flatnonzero(has_tokens).tolist():   # one Document per document of the file
        k += 1
        lo, hi = int(first_token[d]), int(first_token[d + 1])
        ident = f"{prefix}{k}" if numbered else (prefix.rstrip("/") or "document")
        j, m = cuts[d], cuts[d + 1]
        out.append((Document(ident, words[lo:hi], sentence_starts[s_cuts[d]:s_cuts[d + 1]],
                             source=source), (j, local_s[j:m], local_e[j:m], label[j:m])))
    return out


__all__ = ["SCHEMES", "parse", "read", "sniff"]
