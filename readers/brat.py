"""brat standoff reader (Stenetorp et al. 2012): ``NAME.txt`` + ``NAME.ann``, one directory
per annotator.

Every ``T`` line is a mention (``attrs``: ``type``, ``text``, ``char_offsets`` as sorted
code-point ``(start, end)`` pairs, plus ``attributes``/``normalizations``/``notes`` from ``A``,
``N`` and ``#`` lines). The ``.txt`` is tokenised with a blank spaCy pipeline (+ sentencizer,
no model download) and each character fragment becomes the token range it overlaps.

Chains are the connected components of ``*`` groups and ``R`` relations whose type is
in ``coref_types`` (case-insensitive); every other mention is a singleton. ``R`` relations
become ``Link(source=<anaphor>, target=<antecedent>)``: the first argument is the anaphor unless
its role starts with "antecedent". Other ``*`` groups become links from the first member,
events (``E``) links from the trigger to each argument, so nothing is dropped.

A read whose ``.ann`` files are all empty is an InputError: there is nothing to compare.

Offsets: the ``.txt`` (UTF-8) is read with newline translation, so CRLF counts as one
character as in brat; when a span's text does not match and the text has characters beyond
U+FFFF, the offsets are retried as UTF-16 units (``attrs["offset_units"] = "utf-16"``).

The text helpers (``tokenize``, ``token_fragments``, ``utf16_to_codepoints``) also serve the
XMI reader.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from os import PathLike
from pathlib import Path

from ..model.chains import chains_from_links, check_same_tokens
from ..model.corpus import CorefAnnotation, Document, Link, Mention
from ..model.errors import InputError, quote
from ..model.io import excerpt, read_text
from ..model.relations import RelationAnnotation
from . import Option, _paths, register

DEFAULT_COREF_TYPES = ("Coreference", "Coref", "Anaphora", "Equiv")
_ID = re.compile(r"([A-Za-z]+|#)\d+\S*")
_OFFSET = re.compile(r"[0-9]{1,18}")


@dataclass(frozen=True)
class Tokens:
    """A tokenised text: token strings with code-point offsets, sentence start indices."""

    words: list[str]
    starts: Sequence[int]
    ends: Sequence[int]
    sentence_starts: list[int]


@lru_cache(maxsize=1)
def _nlp():
    import spacy  # imported on first use: loading spaCy takes a while
    from spacy.pipeline import Sentencizer

    return spacy.blank("en"), frozenset(Sentencizer.default_punct_chars)


def tokenize(text: str) -> Tokens:
    """Blank-spaCy tokens of ``text`` without whitespace tokens; sentences as spaCy's
    rule-based sentencizer splits them, starting at their first non-space token.

    Texts of any length, in memory linear in the text: spaCy's ``max_length`` guard (meant for
    parsers and NER; the blank tokenizer keeps no model) is raised, the text is tokenised in
    pieces of about :data:`PIECE` characters cut before a word (a spaCy ``Doc`` takes some 120
    bytes a token) with the sentencizer's rule run across the cuts, offsets are kept in
    arrays and equal token strings shared."""
    nlp, punct = _nlp()
    words: list[str] = []
    starts, ends = array("q"), array("q")
    sents: list[int] = []
    shared: dict[str, str] = {}
    first = True
    pending = True  # the next non-space token starts a sentence
    period = False  # a sentence-final mark since the last sentence start
    for offset, piece in _pieces(text):
        nlp.max_length = max(nlp.max_length, len(piece) + 1)
        for tok in nlp(piece):
            final = tok.text in punct
            new = period and not tok.is_punct and not final  # spaCy's Sentencizer.predict
            if new:
                period = False
            elif final:
                period = True
            pending = pending or first or new
            first = False
            if tok.is_space:
                continue
            if pending:
                sents.append(len(words))
                pending = False
            words.append(shared.setdefault(tok.text, tok.text))
            starts.append(offset + tok.idx)
            ends.append(offset + tok.idx + len(tok.text))
    return Tokens(words, starts, ends, sents)


#: characters spaCy tokenises at once (see :func:`tokenize`)
PIECE = 100_000
_CUT = re.compile(r"\s(?=[^\W_])")


def _pieces(text: str) -> Iterator[tuple[int, str]]:
    """``(offset, piece)``: ``text`` cut after a whitespace character before a letter or digit,
    every ``PIECE`` characters or so (no token spans such a cut)."""
    start = 0
    while start < len(text):
        cut = _CUT.search(text, start + PIECE) if len(text) - start > PIECE else None
        end = cut.end() if cut else len(text)
        yield start, text[start:end]
        start = end


def token_fragments(tokens: Tokens,
                    spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...] | None:
    """Token fragments (sorted, adjacent merged) of character spans: each span becomes the
    tokens it overlaps. ``None`` when some span covers no token."""
    frags = []
    for s, e in spans:
        i = bisect_right(tokens.ends, s)
        j = bisect_left(tokens.starts, e)
        if i >= j:
            return None
        frags.append((i, j))
    merged: list[tuple[int, int]] = []
    for s, e in sorted(frags):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return tuple(merged)


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


class Utf16Offsets:
    """UTF-16 code-unit offsets of a text as code-point offsets (brat writes the former for
    characters beyond U+FFFF, brat#1115; so do UIMA CASes): ``get(unit, default)`` gives the
    code point at that offset, ``default`` inside a surrogate pair or outside the text. Memory
    is linear in the characters beyond U+FFFF, not in the text."""

    def __init__(self, text: str) -> None:
        self.length = len(text)
        # the code-unit offset of each character beyond U+FFFF (each takes two units)
        self.units = [m.start() + k for k, m in enumerate(_ASTRAL.finditer(text))]

    def get(self, unit: int, default: int | None = None) -> int | None:
        k = bisect_left(self.units, unit)  # wide characters starting before ``unit``
        if k and self.units[k - 1] + 1 == unit:
            return default
        return unit - k if 0 <= unit - k <= self.length else default


def utf16_to_codepoints(text: str) -> Utf16Offsets:
    """The code-point offset of every UTF-16 code-unit offset of ``text``
    (:class:`Utf16Offsets`)."""
    return Utf16Offsets(text)


def sniff(path: str | PathLike) -> bool:
    """An ``.ann`` file, or a directory with ``.ann`` files in it or in its subdirectories."""
    return _paths.has_files(path, (".ann",))


@register("coref", "brat", sniff=sniff,
          summary="brat standoff .ann + .txt files: one folder per annotator, or a folder of "
          "annotator folders",
          options=(Option("coref_types", "brat: relation and equivalence types that make "
                          "chains (default: Coreference, Coref, Anaphora, Equiv)",
                          multiple=True, metavar="TYPE"),))
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         coref_types: Iterable[str] = DEFAULT_COREF_TYPES) -> list[CorefAnnotation]:
    """Read brat annotations; see the module docstring.

    ``paths``: annotator directories (``.ann`` files directly inside, searched recursively;
    document id = path relative to it, without suffix), ``.ann`` files (annotator = parent
    directory), or a directory whose subdirectories are annotator directories.
    ``annotators``: one id per path. ``coref_types``: ``R``/``*`` types that make chains.
    """
    types = frozenset(t.casefold() for t in coref_types)
    files = _files(paths, annotators)
    out = [_read_document(ann, doc_id, annotator, types) for annotator, doc_id, ann in files]
    if all(not a.mentions and not a.links for a in out):
        raise InputError(f"no annotations: all {len(out)} .ann file(s) are empty",
                         _paths.as_list(paths)[0])
    check_same_tokens(out)
    return out


def _files(paths: Sequence[str | PathLike],
           annotators: Sequence[str] | None) -> list[tuple[str, str, Path]]:
    """(annotator, document id, .ann file) triples."""
    sources = _paths.annotator_sources(
        paths, annotators, (".ann",), layout="folder", reject="not a brat annotation file (.ann)",
        empty="no .ann files here or in subdirectories")
    return [(name, f.relative_to(root).with_suffix("").as_posix(), f)
            for name, files, root in sources for f in files]


def _read_text(path: Path) -> str:
    """The ``.txt`` with newline translation: CRLF is one character, as brat counts it."""
    if not path.is_file():
        raise InputError("no .txt file for this .ann file", path)
    return read_text(path)


class _Parser:
    """The lines of one ``.ann`` file; references are resolved in :meth:`finish`, so
    lines may come in any order."""

    def __init__(self, path: Path, text: str, tokens: Tokens, types: frozenset[str]) -> None:
        self.path, self.text, self.tokens, self.types = path, text, tokens, types
        self.lines: dict[str, int] = {}
        self.attrs: dict[str, dict] = {}  # id -> the attrs dict of its mention or link(s)
        self.mentions: dict[str, Mention] = {}
        self.links: list[Link] = []
        self.groups: list[list[str]] = []
        self.refs: list[tuple[str, int]] = []
        self.coref: list[tuple[int, list[str]]] = []
        self.notes: list[tuple[int, str, str, object]] = []  # (line, target, key, value)
        self.utf16: Utf16Offsets | None = None  # built on the first span given in UTF-16

    def fail(self, message: str, line: int) -> InputError:
        return InputError(message, self.path, line)

    def define(self, ident: str, line: int, attrs: dict) -> None:
        if ident in self.lines:
            raise self.fail(f"duplicate id {quote(ident)} (first on line {self.lines[ident]})",
                            line)
        self.lines[ident] = line
        self.attrs[ident] = attrs

    def line(self, raw: str, n: int) -> None:
        fields = raw.split("\t", 2)
        ident = fields[0]
        if ident != "*" and not _ID.fullmatch(ident):
            raise self.fail(f"not a brat annotation line: {excerpt(raw)}", n)
        if len(fields) < 2 or not fields[1].strip():
            raise self.fail(f"{ident}: missing annotation after the tab", n)
        payload = fields[1].split()
        tail = fields[2] if len(fields) > 2 else None
        kind = ident[0]
        if kind == "T":
            self.textbound(ident, payload, tail, n)
        elif kind == "R":
            self.relation(ident, payload, n)
        elif kind == "*":
            self.equivalence(payload, n)
        elif kind == "E":
            self.event(ident, payload, n)
        elif kind in "AM":
            if len(payload) not in (2, 3):
                raise self.fail(f"{ident}: expected 'TYPE ID [VALUE]'", n)
            self.define(ident, n, {})
            value = payload[2] if len(payload) == 3 else True
            self.notes.append((n, payload[1], "attributes", (payload[0], value)))
        elif kind in "N#":
            if len(payload) < 2:
                raise self.fail(f"{ident}: expected 'TYPE ID ...'", n)
            self.define(ident, n, {})
            key = "normalizations" if kind == "N" else "notes"
            self.notes.append((n, payload[1], key, (payload[0], *payload[2:], tail or "")))
        else:
            raise self.fail(f"unknown annotation kind {excerpt(ident)}", n)

    def textbound(self, ident: str, payload: list[str], text: str | None, n: int) -> None:
        spans = _offsets(" ".join(payload[1:]))
        if not payload[1:] or spans is None:
            raise self.fail(f"{ident}: expected 'TYPE START END[;START END]*', got "
                            f"{excerpt(' '.join(payload))}", n)
        attrs = {"type": payload[0], "text": text}
        if not self.matches(spans, text):
            wide = self.from_utf16(spans)
            if wide is None or not self.matches(wide, text):
                raise self.mismatch(ident, spans, text, n)
            spans, attrs["offset_units"] = wide, "utf-16"
        frags = token_fragments(self.tokens, spans)
        if frags is None:
            raise self.fail(f"{ident}: span {_fmt(spans)} covers no token", n)
        attrs["char_offsets"] = tuple(sorted(spans))
        self.define(ident, n, attrs)
        self.mentions[ident] = Mention(ident, frags, attrs=attrs)

    def matches(self, spans: list[tuple[int, int]], text: str | None) -> bool:
        ok = all(0 <= s <= e <= len(self.text) for s, e in spans)
        return ok and (text is None or " ".join(self.text[s:e] for s, e in spans) == text)

    def from_utf16(self, spans: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
        """The spans read as UTF-16 offsets (brat#1115), if the text has astral characters."""
        if self.utf16 is None:
            self.utf16 = utf16_to_codepoints(self.text)
        if not self.utf16.units:
            return None
        wide = [(self.utf16.get(s), self.utf16.get(e)) for s, e in spans]
        return None if any(s is None or e is None for s, e in wide) else wide

    def mismatch(self, ident: str, spans: list[tuple[int, int]], text: str | None,
                 n: int) -> InputError:
        bad = [(s, e) for s, e in spans if not 0 <= s <= e <= len(self.text)]
        if bad:
            return self.fail(f"{ident}: offsets {_fmt(bad)} outside the text "
                             f"({len(self.text)} characters)", n)
        found = " ".join(self.text[s:e] for s, e in spans)
        return self.fail(f"{ident}: text {excerpt(text)} does not match the .txt at "
                         f"{_fmt(spans)}: {excerpt(found)}", n)

    def relation(self, ident: str, payload: list[str], n: int) -> None:
        args = [a.partition(":") for a in payload[1:]]
        if len(args) != 2 or any(not sep or not ref for _, sep, ref in args):
            raise self.fail(f"{ident}: expected 'TYPE ROLE:ID ROLE:ID'", n)
        (r1, _, a1), (r2, _, a2) = args
        if r1.casefold().startswith("antecedent"):
            (r1, a1), (r2, a2) = (r2, a2), (r1, a1)
        link = Link(a1, a2, payload[0], {"id": ident, "roles": (r1, r2)})
        self.define(ident, n, link.attrs)
        self.links.append(link)
        self.refs += [(a1, n), (a2, n)]
        if payload[0].casefold() in self.types:
            self.coref.append((n, [a1, a2]))

    def equivalence(self, payload: list[str], n: int) -> None:
        if len(payload) < 3:
            raise self.fail("*: expected 'TYPE ID ID [ID ...]'", n)
        members = payload[1:]
        self.refs += [(m, n) for m in members]
        if payload[0].casefold() in self.types:
            self.groups.append(members)
            self.coref.append((n, members))
        else:
            self.links += [Link(members[0], m, payload[0], {"equivalence": True})
                           for m in members[1:]]

    def event(self, ident: str, payload: list[str], n: int) -> None:
        etype, sep, trigger = payload[0].partition(":")
        args = [a.partition(":") for a in payload[1:]]
        if not sep or any(not s or not r for _, s, r in args):
            raise self.fail(f"{ident}: expected 'TYPE:TRIGGER [ROLE:ID]*'", n)
        attrs = {"event": ident, "trigger": trigger}
        self.define(ident, n, attrs)
        self.refs += [(trigger, n)] + [(r, n) for _, _, r in args]
        self.links += [Link(trigger, ref, f"{etype}:{role}", attrs) for role, _, ref in args]

    def finish(self) -> list:
        """Check references, attach A/N/# lines, and return the chains."""
        for ref, n in self.refs:
            if ref not in self.lines:
                raise self.fail(f"reference to undefined annotation {quote(ref)}", n)
        for n, ref, key, value in self.notes:
            if ref not in self.attrs:
                raise self.fail(f"reference to undefined annotation {quote(ref)}", n)
            if key == "attributes":
                self.attrs[ref].setdefault(key, {})[value[0]] = value[1]
            else:
                self.attrs[ref].setdefault(key, []).append(value)
        for n, members in self.coref:
            for m in members:
                if m not in self.mentions:
                    raise self.fail(f"coreference over {quote(m)}, which is not a text-bound "
                                    "annotation (T)", n)
        identity = [k for k in self.links if k.type.casefold() in self.types]
        return chains_from_links(list(self.mentions), identity, self.groups)


def _offsets(spec: str) -> list[tuple[int, int]] | None:
    out = []
    for frag in spec.split(";"):
        parts = frag.split()
        if len(parts) != 2 or not all(_OFFSET.fullmatch(p) for p in parts):
            return None
        out.append((int(parts[0]), int(parts[1])))
    return out


def _fmt(spans: list[tuple[int, int]]) -> str:
    return ";".join(f"{s} {e}" for s, e in spans)


def _read_document(ann: Path, doc_id: str, annotator: str,
                   types: frozenset[str]) -> CorefAnnotation:
    txt = ann.with_suffix(".txt")
    text = _read_text(txt)
    tokens = tokenize(text)
    parser = _Parser(ann, text, tokens, types)
    for n, raw in enumerate(read_text(ann).split("\n"), 1):
        if raw.strip():
            parser.line(raw, n)
    chains = parser.finish()
    doc = Document(doc_id, tokens.words, tokens.sentence_starts, text=text, source=str(txt))
    return CorefAnnotation(doc, annotator, parser.mentions, chains, parser.links,
                           source=str(ann))


# ---- relations between spans (the relations job) ------------------------------------------------
@register("relations", "brat", sniff=sniff,
          summary="brat standoff .ann + .txt files, R lines between T spans: one folder per "
          "annotator")
def read_relations(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None
                   ) -> list[RelationAnnotation]:
    """The ``R`` lines of brat annotations as relations between their ``T`` spans: the label
    is the relation type, the source the first argument (``Arg1``), unless a role names the
    antecedent, as :func:`read` reads them; ``attrs`` keep the id and roles. Files, folders
    and annotators as :func:`read`."""
    out = []
    for ann in read(paths, annotators, coref_types=()):
        rels = [k for k in ann.links if "roles" in k.attrs]
        for k in rels:
            for end in (k.source, k.target):
                if end not in ann.mentions:
                    raise InputError(f"relation {k.attrs['id']} points to {end}, which is not "
                                     "a text-bound annotation (T)", ann.source)
        out.append(RelationAnnotation(ann.document, ann.annotator, ann.mentions, rels,
                                      ann.source))
    return out
