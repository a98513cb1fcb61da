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


@register("coref", "conll_ner", layout="path", sniff=sniff, span_layers=True,
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
                for doc, mentions in parse(f, scheme, prefix, problems):
                    out.append(_annotation(doc, name, mentions, str(f)))
    problems.check()
    check_documents(out)
    return out


def _annotation(doc: Document, annotator: str, mentions: list, source: str
                ) -> CorefAnnotation:
    """The annotation of one document: mentions ``m1, m2 …`` in span order (as
    :func:`~corpusagree.readers.conll2012.build_annotation` numbers them; the entities come
    in that order already), each its own chain."""
    ments = {f"m{i}": Mention(f"m{i}", frags, None, {"entity": eid, **attrs})
             for i, (eid, frags, _, attrs) in enumerate(mentions, 1)}
    chains = [Chain(m.attrs["entity"], [mid]) for mid, m in ments.items()]
    return CorefAnnotation(doc, annotator, ments, chains, source=source)


def parse(path: Path, scheme: str = "auto", prefix: str = "",
          problems: Problems | None = None) -> list[tuple[Document, list]]:
    """The documents of one file, each with its entities ``(id, ((start, end),), None,
    {"type": TYPE})`` in tokens of its document.

    The tags are decoded over arrays: an entity starts at a tag ``B``/``S``, or at ``I``/``E``
    after ``O``, after another type, after ``E``/``S`` or at a sentence's start, and ends
    before the next start, ``O`` or sentence end.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "a.conll"
    >>> _ = f.write_text("Ada B-PER\\nLovelace I-PER\\nwrote O\\nin O\\nLondon I-LOC\\n")
    >>> [(m[1], m[3]["type"]) for m in parse(f)[0][1]]
    [(((0, 2),), 'PER'), (((4, 5),), 'LOC')]
    """
    lines = read_text(path).split("\n")
    fields = [line.split() for line in lines]
    n = len(lines)
    width = np.fromiter(map(len, fields), np.int64, n)
    first = [f[0] if f else "" for f in fields]
    last = [f[-1] if f else "" for f in fields]
    docstart = np.array(first, dtype=object) == "-DOCSTART-"
    comment = np.zeros(n, bool)
    comment[[i for i, x in enumerate(first) if x[:1] == "#"]] = True
    tags = list(dict.fromkeys(last))                  # each tag once, in order of use
    codes = {t: i for i, t in enumerate(tags)}
    tag_code = np.fromiter(map(codes.__getitem__, last), np.int64, n)
    valid = np.array([bool(_TAG.fullmatch(t)) for t in tags], bool)
    comment &= ~valid[tag_code] | (width < 2)
    token = (width > 0) & ~docstart & ~comment
    bad = np.flatnonzero(token & ((width < 2) | ~valid[tag_code]))
    if len(bad):
        k = int(bad[0])
        what = "one column: expected token … tag" if width[k] < 2 else \
            f"{quote(last[k])} is no NER tag (O, or B-, I-, E-, S- and a type)"
        raise InputError(what, path, k + 1)
    prefix_of = np.array([_PREFIX.get(t[:1], _O) for t in tags], np.int64)
    types = sorted({t[2:] for t, v in zip(tags, valid, strict=True) if v and t != "O"})
    type_of = np.array([types.index(t[2:]) if v and t != "O" else -1
                        for t, v in zip(tags, valid, strict=True)], np.int64)
    at = np.flatnonzero(token)                      # line index of each token
    pre, typ = prefix_of[tag_code[at]], type_of[tag_code[at]]
    # a token starts a sentence after a blank, -DOCSTART- or comment line, or at the top
    boundary = np.ones(len(at), bool)
    boundary[1:] = at[1:] - at[:-1] > 1
    prev_pre = np.concatenate([[_O], pre[:-1]])
    prev_typ = np.concatenate([[-1], typ[:-1]])
    entity = pre != _O
    after = boundary | (prev_pre == _O) | (prev_typ != typ)
    start = entity & ((pre == _B) | (pre == _S) | after | (prev_pre == _E) | (prev_pre == _S))
    if scheme == "iob2":
        wrong = np.flatnonzero(entity & (pre == _I) & after)
        for k in wrong[:50].tolist():
            error = InputError(f"{quote(last[at[k]])} after "
                               f"{'a sentence break' if boundary[k] else quote(last[at[k - 1]])}"
                               ": an I- tag starts no entity under --scheme iob2 (read it "
                               "as IOB1 with --scheme auto)", path, int(at[k]) + 1)
            if problems is None:
                raise error
            problems.add(error)
        if len(wrong):
            return []
    # documents: split at -DOCSTART- lines
    doc_of_line = np.cumsum(docstart)
    doc = doc_of_line[at]
    starts_doc = np.flatnonzero(docstart)
    n_docs = int(doc_of_line[-1]) + 1 if n else 1
    has_tokens = np.bincount(doc, minlength=n_docs) > 0
    first_token = np.searchsorted(doc, np.arange(n_docs + 1))
    ent = np.cumsum(start) - 1
    idx = np.flatnonzero(entity)
    s_tok = idx[start[idx]]
    e_tok = np.zeros(len(s_tok), np.int64)
    np.maximum.at(e_tok, ent[idx], idx + 1)
    ent_doc = doc[s_tok]
    out = []
    label = [types[t] for t in typ[s_tok].tolist()]
    cuts = np.searchsorted(ent_doc, np.arange(n_docs + 1))
    numbered = len(starts_doc) > 0
    k = 0
    for d in np.flatnonzero(has_tokens).tolist():   # one Document per document of the file
        k += 1
        lo = int(first_token[d])
        hi = int(first_token[d + 1])
        words = [first[i] for i in at[lo:hi].tolist()]
        sentences = (np.flatnonzero(boundary[lo:hi])).tolist()
        ident = f"{prefix}{k}" if numbered else (prefix.rstrip("/") or "document")
        mentions = [(f"e{j}", ((s, e),), None, {"type": label[j]})
                    for j, s, e in zip(range(cuts[d], cuts[d + 1]),
                                       (s_tok[cuts[d]:cuts[d + 1]] - lo).tolist(),
                                       (e_tok[cuts[d]:cuts[d + 1]] - lo).tolist(), strict=True)]
        out.append((Document(ident, words, sentences, source=str(path)), mentions))
    return out


__all__ = ["SCHEMES", "parse", "read", "sniff"]
