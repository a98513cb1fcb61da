"""brat standoff reader (Stenetorp et al. 2012): ``NAME.txt`` + ``NAME.ann``, one directory
per annotator.

Every ``T`` line is a mention (``attrs``: ``type``, ``text``, ``char_offsets`` as sorted
code-point ``(start, end)`` pairs, plus ``attributes``/``normalizations``/``notes`` from ``A``,
``N`` and ``#`` lines). Mentions are character spans: the ``.txt`` is tokenised with spaCy's
blank pipeline of ``lang`` (no model download) and its tokens are cut at every start and end of
every annotator's spans of the document (:func:`corpusagree.readers._text.anchor`), so no two
distinct spans become one mention; each character fragment becomes the tokens it covers.

Chains (``chains_from``):

* ``"relations"``: the connected components of ``*`` groups and ``R`` relations whose type is
  in ``coref_types`` (case-insensitive); every other mention is a singleton. ``R`` relations
  become ``Link(source=<anaphor>, target=<antecedent>)``: the first argument is the anaphor
  unless its role starts with "antecedent". Other ``*`` groups become links from the first
  member, events (``E``) links from the trigger to each argument, so nothing is dropped.
* ``"type"``: the chain is written in the ``T`` type, ``NAME-<chain>`` (LitBank, Bamman et al.
  2020: ``T382	Chancery-0 13 21	Chancery``): the ``T`` lines of such types are the mentions,
  chained by the number after the last ``-``; ``T`` lines of other types (LitBank's entity
  layer, ``PROP_PER`` …) are no mentions.
* default: ``"type"`` when no ``.ann`` file of the read has a coreference relation or group and
  some ``T`` types are of that form (with a warning that says so), else ``"relations"``.

A read whose ``.ann`` files are all empty is an InputError: there is nothing to compare. Every
problem of a read is reported at once (each line of each file, up to
:data:`corpusagree.model.errors.LIMIT`).

Offsets: the ``.txt`` (UTF-8) is read with newline translation, so CRLF counts as one
character as in brat; when a span's text does not match and the text has characters beyond
U+FFFF, the offsets are retried as UTF-16 units (``attrs["offset_units"] = "utf-16"``).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from ..model.chains import chains_from_links, check_same_tokens
from ..model.corpus import Chain, CorefAnnotation, Document, Link
from ..model.errors import InputError, Problems, clip, quote
from ..model.io import excerpt, read_text, regular
from ..model.relations import RelationAnnotation
from . import Option, _paths, register
from ._text import (
    DEFAULT_LANG,
    LANG,
    PIECE,  # noqa: F401  (the tokenizer's piece size, here since brat first had it)
    Spans,
    Tokens,
    Utf16Offsets,
    anchor,
    check_lang,
    token_fragments,
    tokenize,
    utf16_to_codepoints,
)

__all__ = ["read", "sniff", "tokenize", "token_fragments", "utf16_to_codepoints", "Tokens",
           "Utf16Offsets", "DEFAULT_COREF_TYPES", "CHAINS_FROM"]

DEFAULT_COREF_TYPES = ("Coreference", "Coref", "Anaphora", "Equiv")
#: where chains are read from (see the module docstring)
CHAINS_FROM = ("relations", "type")
_ID = re.compile(r"([A-Za-z]+|#)\d+\S*")
_OFFSET = re.compile(r"[0-9]{1,18}")
_SIMPLE = re.compile(r"(\S+) ([0-9]{1,18}) ([0-9]{1,18})")
#: a T type that names its chain: NAME-<chain number> (LitBank)
_CHAIN_TYPE = re.compile(r"(.+)-([0-9]{1,18})")


def sniff(path: str | PathLike) -> bool:
    """An ``.ann`` file, or a directory with ``.ann`` files in it or in its subdirectories."""
    return _paths.has_files(path, (".ann",))


@register("coref", "brat", sniff=sniff,
          summary="brat standoff .ann + .txt files: one folder per annotator, or a folder of "
          "annotator folders",
          options=(Option("coref_types", "brat: relation and equivalence types that make "
                          "chains (default: Coreference, Coref, Anaphora, Equiv)",
                          multiple=True, metavar="TYPE"),
                   Option("chains_from", "brat: read chains from coreference relations and "
                          "groups, or from T types NAME-<chain> as LitBank writes them "
                          "(default: type when no file has a coreference relation and some "
                          "T types are of that form)", choices=CHAINS_FROM),
                   LANG))
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         coref_types: Iterable[str] = DEFAULT_COREF_TYPES, chains_from: str | None = None,
         lang: str = DEFAULT_LANG) -> list[CorefAnnotation]:
    """Read brat annotations; see the module docstring.

    ``paths``: annotator directories (``.ann`` files directly inside, searched recursively;
    document id = path relative to it, without suffix), ``.ann`` files (annotator = parent
    directory), or a directory whose subdirectories are annotator directories.
    ``annotators``: one id per path. ``coref_types``: ``R``/``*`` types that make chains.
    ``chains_from``: "relations", "type" or None (decide from the files). ``lang``: the
    language of spaCy's blank tokenizer.
    """
    if chains_from is not None and chains_from not in CHAINS_FROM:
        raise InputError(f"chains_from={quote(chains_from)}: not one of "
                         f"{', '.join(CHAINS_FROM)}")
    check_lang(lang)
    types = frozenset(t.casefold() for t in coref_types)
    problems = Problems()
    parsed: list[_Parser] = []
    for annotator, doc_id, ann in _files(paths, annotators):
        with problems.collect():
            parsed.append(_parse(ann, doc_id, annotator, types, problems))
    mode = chains_from or _chains_mode(parsed)
    if mode == "type" and parsed and not any(p.chain_typed for p in parsed):
        raise InputError("chains_from='type': no T type of these files is NAME-<number>",
                         _paths.as_list(paths)[0])
    for p in parsed:
        with problems.collect():
            p.finish(mode, problems)
    problems.check()
    out = _annotations(parsed, lang, problems)
    problems.check()
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


def _parse(ann: Path, doc_id: str, annotator: str, types: frozenset[str],
           problems: Problems) -> _Parser:
    """The lines of one ``.ann`` file, each problem of a line kept in ``problems``."""
    txt = ann.with_suffix(".txt")
    if not regular(txt):
        raise InputError("no .txt file for this .ann file", txt)
    parser = _Parser(ann, doc_id, annotator, read_text(txt), types)
    line = parser.line
    for n, raw in enumerate(read_text(ann).split("\n"), 1):
        if raw and not raw.isspace():
            try:
                line(raw, n)
            except InputError as e:
                problems.add(e)
    return parser


def _chains_mode(parsed: list[_Parser]) -> str:
    """``"type"`` when no file has a coreference relation or group and some T types name a
    chain (LitBank), with a warning saying so; else ``"relations"``."""
    if any(p.coref for p in parsed):
        return "relations"
    chained = sum(p.chain_typed for p in parsed)
    if not chained:
        return "relations"
    other = sum(len(p.mentions.ids) for p in parsed) - chained
    kinds = sorted({t for p in parsed for t in p.other_types})
    warnings.warn(
        f"no .ann file has a coreference relation or group: chains read from the T types "
        f"NAME-<chain> of {chained:,} mention(s), as LitBank writes them"
        + (f"; {other:,} T line(s) of other types ({', '.join(kinds[:4])}"
           f"{', …' if len(kinds) > 4 else ''}) are no mentions" if other else "")
        + " (chains_from='relations' reads every T line, without chains)", stacklevel=3)
    return "type"


@dataclass
class _Parser:
    """The lines of one ``.ann`` file; references are resolved in :meth:`finish`, so
    lines may come in any order."""

    path: Path
    doc_id: str
    annotator: str
    text: str
    types: frozenset[str]
    lines: dict[str, int] = field(default_factory=dict)
    attrs: dict[str, dict] = field(default_factory=dict)  # id -> attrs of its mention, link
    mentions: Spans = field(default_factory=Spans)
    links: list[Link] = field(default_factory=list)
    groups: list[list[str]] = field(default_factory=list)
    refs: list[tuple[str, int]] = field(default_factory=list)
    coref: list[tuple[int, list[str]]] = field(default_factory=list)
    notes: list[tuple[int, str, str, object]] = field(default_factory=list)
    chains: list[Chain] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)  # ids of T lines with an error
    chain_typed: int = 0  # T lines whose type is NAME-<chain>
    other_types: set[str] = field(default_factory=set)
    utf16: Utf16Offsets | None = None  # built on the first span given in UTF-16

    def fail(self, message: str, line: int) -> InputError:
        return InputError(message, self.path, line)

    def define(self, ident: str, line: int, attrs: dict) -> None:
        if ident in self.lines:
            raise self.fail(f"duplicate id {quote(ident)} (first on line {self.lines[ident]})",
                            line)
        self.lines[ident] = line
        self.attrs[ident] = attrs

    def line(self, raw: str, n: int) -> None:
        ident, _, rest = raw.partition("\t")
        kind = ident[:1]
        if kind == "A" and _ID.fullmatch(ident):  # the common case, at once
            payload = rest.split()
            if len(payload) in (2, 3) and "\t" not in rest.rstrip():
                self.define(ident, n, {})
                self.notes.append((n, payload[1], "attributes",
                                   (payload[0], payload[2] if len(payload) == 3 else True)))
                return
        if kind == "T" and _ID.fullmatch(ident):
            payload, _, text = rest.partition("\t")
            try:
                self.textbound(ident, payload, text if _ else None, n)
            except InputError:
                self.broken.add(ident)  # its error is enough: references to it are not
                raise
            return
        fields = raw.split("\t", 2)
        if ident != "*" and not _ID.fullmatch(ident):
            raise self.fail(f"not a brat annotation line: {excerpt(raw)}", n)
        if len(fields) < 2 or not fields[1].strip():
            raise self.fail(f"{clip(ident)}: missing annotation after the tab", n)
        payload = fields[1].split()
        tail = fields[2] if len(fields) > 2 else None
        kind = ident[0]
        if kind == "R":
            self.relation(ident, payload, n)
        elif kind == "*":
            self.equivalence(payload, n)
        elif kind == "E":
            self.event(ident, payload, n)
        elif kind in "AM":
            if len(payload) not in (2, 3):
                raise self.fail(f"{clip(ident)}: expected 'TYPE ID [VALUE]'", n)
            self.define(ident, n, {})
            value = payload[2] if len(payload) == 3 else True
            self.notes.append((n, payload[1], "attributes", (payload[0], value)))
        elif kind in "N#":
            if len(payload) < 2:
                raise self.fail(f"{clip(ident)}: expected 'TYPE ID ...'", n)
            self.define(ident, n, {})
            key = "normalizations" if kind == "N" else "notes"
            self.notes.append((n, payload[1], key, (payload[0], *payload[2:], tail or "")))
        else:
            raise self.fail(f"unknown annotation kind {clip(ident)}", n)

    def textbound(self, ident: str, payload: str, text: str | None, n: int) -> None:
        if not payload.strip():
            raise self.fail(f"{clip(ident)}: missing annotation after the tab", n)
        simple = _SIMPLE.fullmatch(payload)
        if simple is not None:
            kind, spans = simple[1], [(int(simple[2]), int(simple[3]))]
        else:
            kind, _, spec = payload.strip().partition(" ")
            spans = _offsets(spec)
            if not kind or spans is None:
                raise self.fail(f"{clip(ident)}: expected 'TYPE START END[;START END]*', "
                                f"got {excerpt(payload)}", n)
        attrs = {"type": kind, "text": text}
        if not self.matches(spans, text):
            wide = self.from_utf16(spans)
            if wide is None or not self.matches(wide, text):
                raise self.mismatch(ident, spans, text, n)
            spans, attrs["offset_units"] = wide, "utf-16"
        if ident in self.lines:
            self.define(ident, n, attrs)  # the error
        self.lines[ident] = n
        self.attrs[ident] = attrs
        m = self.mentions
        m.ids.append(ident)
        m.spans.append((spans[0],) if len(spans) == 1 else tuple(sorted(spans)))
        m.attrs.append(attrs)
        m.lines.append(n)
        if kind[-1:].isdigit() and _CHAIN_TYPE.fullmatch(kind):
            self.chain_typed += 1
        else:
            self.other_types.add(kind)

    def matches(self, spans: list[tuple[int, int]], text: str | None) -> bool:
        if len(spans) == 1:
            s, e = spans[0]
            return 0 <= s <= e <= len(self.text) and (text is None or self.text[s:e] == text)
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
            return self.fail(f"{clip(ident)}: offsets {clip(_fmt(bad))} outside the text "
                             f"({len(self.text)} characters)", n)
        found = " ".join(self.text[s:e] for s, e in spans)
        return self.fail(f"{clip(ident)}: text {excerpt(text)} does not match the .txt at "
                         f"{clip(_fmt(spans))}: {excerpt(found)}", n)

    def relation(self, ident: str, payload: list[str], n: int) -> None:
        args = [a.partition(":") for a in payload[1:]]
        if len(args) != 2 or any(not sep or not ref for _, sep, ref in args):
            raise self.fail(f"{clip(ident)}: expected 'TYPE ROLE:ID ROLE:ID'", n)
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
            raise self.fail(f"{clip(ident)}: expected 'TYPE:TRIGGER [ROLE:ID]*'", n)
        attrs = {"event": ident, "trigger": trigger}
        self.define(ident, n, attrs)
        self.refs += [(trigger, n)] + [(r, n) for _, _, r in args]
        self.links += [Link(trigger, ref, f"{etype}:{role}", attrs) for role, _, ref in args]

    def finish(self, mode: str, problems: Problems) -> None:
        """Check references (each undefined one a problem), attach A/N/# lines, make the
        chains of ``mode``."""
        for ref, n in self.refs:
            if ref not in self.lines and ref not in self.broken:
                problems.add(self.fail(f"reference to undefined annotation {quote(ref)}", n))
        for n, ref, key, value in self.notes:
            if ref in self.broken:
                continue
            if ref not in self.attrs:
                problems.add(self.fail(f"reference to undefined annotation {quote(ref)}", n))
            elif key == "attributes":
                self.attrs[ref].setdefault(key, {})[value[0]] = value[1]
            else:
                self.attrs[ref].setdefault(key, []).append(value)
        known = set(self.mentions.ids)
        for n, members in self.coref:
            for m in members:
                if m in self.lines and m not in known:
                    problems.add(self.fail(f"coreference over {quote(m)}, which is not a "
                                           "text-bound annotation (T)", n))
        if mode == "type":
            self.chains = self._type_chains()
            return
        identity = [k for k in self.links if k.type.casefold() in self.types
                    and k.source in known and k.target in known]
        groups = [g for g in self.groups if all(m in known for m in g)]
        self.chains = chains_from_links(self.mentions.ids, identity, groups)

    def _type_chains(self) -> list[Chain]:
        """The mentions of T types NAME-<chain>, chained by number; the others dropped."""
        keep = Spans()
        by_chain: dict[str, list[str]] = {}
        for mid, spans, attrs, line in zip(self.mentions.ids, self.mentions.spans,
                                           self.mentions.attrs, self.mentions.lines,
                                           strict=True):
            m = _CHAIN_TYPE.fullmatch(attrs["type"])
            if m is None:
                continue
            attrs["chain"] = m[2]
            keep.add(mid, spans, attrs, line)
            by_chain.setdefault(m[2], []).append(mid)
        self.mentions = keep
        self.links = [k for k in self.links if k.source in self.attrs and k.target in self.attrs
                      and _CHAIN_TYPE.fullmatch(self.attrs[k.source].get("type", "")) and
                      _CHAIN_TYPE.fullmatch(self.attrs[k.target].get("type", ""))]
        return [Chain(number, members) for number, members in by_chain.items()]


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


def _annotations(parsed: list[_Parser], lang: str, problems: Problems
                 ) -> list[CorefAnnotation]:
    """The annotations of the parsed files, in their order: the files of one document and
    text share its tokens, cut at every boundary of their spans."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, p in enumerate(parsed):
        groups.setdefault((p.doc_id, p.text), []).append(i)
    out: list[CorefAnnotation | None] = [None] * len(parsed)
    for (doc_id, text), members in groups.items():
        tokens, mentions, empty = anchor(text, tokenize(text, lang),
                                         [parsed[i].mentions for i in members])
        for a, k in empty:
            p = parsed[members[a]]
            problems.add(p.fail(f"{clip(p.mentions.ids[k])}: span "
                                f"{clip(_fmt(p.mentions.spans[k]))} covers no token "
                                "(whitespace only)", p.mentions.lines[k]))
        for i, found in zip(members, mentions, strict=True):
            p = parsed[i]
            doc = Document(doc_id, tokens.words, tokens.sentence_starts, text=text,
                           source=str(p.path.with_suffix(".txt")))
            out[i] = CorefAnnotation(doc, p.annotator, found, p.chains, p.links,
                                     source=str(p.path))
    return [a for a in out if a is not None]


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
    for ann in read(paths, annotators, coref_types=(), chains_from="relations"):
        rels = [k for k in ann.links if "roles" in k.attrs]
        for k in rels:
            for end in (k.source, k.target):
                if end not in ann.mentions:
                    raise InputError(f"relation {k.attrs['id']} points to {end}, which is not "
                                     "a text-bound annotation (T)", ann.source)
        out.append(RelationAnnotation(ann.document, ann.annotator, ann.mentions, rels,
                                      ann.source))
    return out
