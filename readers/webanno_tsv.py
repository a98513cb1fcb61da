"""WebAnno TSV 3.x reader for coreference and spans, the other INCEpTION export.

The header (``#T_SP=``, ``#T_CH=``, ``#T_RL=``) fixes the feature columns after the three
token columns, in declaration order. Coreference is read from chain layers, or, in a file
without one, from a coreference relation layer (``layers=`` names which, as for XMI):

* A chain layer (``#T_CH=<Name>Link|...``) has a ``referenceType`` cell ``TYPE[chain]`` and a
  ``referenceRelation`` cell ``REL->chain-link``, stacked with ``|``; a mention is one (layer,
  chain, link) and spans the tokens that carry it. Mention ids are ``"<layer>:<chain>-<link>"``
  (layer ``Coreference`` for DKPro's ``CoreferenceLink``); ``attrs``: ``layer``,
  ``referenceType``, ``text``. Chains follow the link numbers; ``Link(source=<link k+1>,
  target=<link k>, attrs={"relation": <label of link k>})`` as in the XMI reader.
* A relation layer whose name says coreference (``Coref``, ``Coreference``, ``Anaphor…``) over
  a span layer, as GUM exports it (``#T_RL=webanno.custom.Coref|type|BT_webanno.custom.Referent``):
  every span of that span layer is a mention (id ``"<span layer>:<n>"`` for a span written
  ``value[n]``, ``"<span layer>:<row>"`` for a one-token span without a number; ``attrs``:
  ``layer``, the span features by name, None where the span has no value, ``text``). A
  relation is written on the first row of its target with the source's row and
  ``[source_target]`` span numbers (0: the unnumbered span of that row) and becomes
  ``Link(source, target, <relation layer>, {"relation": label})``. Chains are the connected
  components of the relations whose label does not start with ``bridge`` (GUM's bridging is not
  identity).
* A plain span layer (``#T_SP=...ner.type.NamedEntity|identifier|value``), named in
  ``layers=`` or, with ``spans=True``, the one span layer of a file without a coreference
  layer: every span is a mention as above, and a singleton chain.

Stacked spans: each feature column lists the values of the spans of its row, ``value[n]``
joined by ``|``; a span is every ``[n]`` of any column, with the values its number carries (GUM
writes ``abstract[1]|abstract[2]`` beside ``Old_English[2]``: span 1 has no value there, as
INCEpTION reads it), and ``*`` is a span without a value. Values without a number are the
row's one-token spans, matched across the columns by their place.

Tokens are the text at the token rows' offsets (the token column where the text has no
characters there) and sentences start where the sentence number changes; every
mention is a character span (column 2, UTF-16 units as Java counts, as code points), so a
sub-token row (``1-3.1``) is a mention of its own characters: the tokens of a document are cut
at every boundary of every annotator's mentions (:func:`corpusagree.readers._text.anchor`).
The document's text is each sentence's ``#Text=`` lines at its first token's offset (its
tokens where the lengths disagree), spaces between. Columns past those the header declares are
ignored, with a warning, when they hold nothing but ``_`` (GUM's ``GUM_textbook_grit``), and an
error naming them otherwise. Every problem of a read is reported at once.

Annotator and document as for XMI: ``annotation/<doc>/<user>.tsv`` in an INCEpTION export,
else the directory name and the file stem; a zip (an INCEpTION or WebAnno project export, or
one folder per annotator) is read member by member (:mod:`corpusagree.readers._zips`);
``annotators`` overrides.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from os import PathLike
from pathlib import Path

from ..model.chains import chains_from_links, check_same_tokens
from ..model.corpus import Chain, CorefAnnotation, Link
from ..model.errors import InputError, Problems, clip, quote
from ..model.io import as_text, excerpt, read_bytes
from ..model.relations import RelationAnnotation
from . import _paths, _zips, register
from ._text import Spans, Tokens, anchored, utf16_to_codepoints
from .xmi import LAYERS, LayerChoice, no_layer

_TYPE = re.compile(r"(.*)\[(\d+)\]")
_REL = re.compile(r"(.*)->(\d+)-(\d+)")
_ROW = re.compile(r"(\d+)-(\d+)(?:\.\d+)?")
_SOURCE = re.compile(r"(\d+-\d+(?:\.\d+)?)(?:\[(\d+)_(\d+)\])?")
_STACK = re.compile(r"(?<!\\)\|")
_ESCAPED = re.compile(r"\\([\\\[\]|_>;*-])")
_FORMAT = "#FORMAT=WebAnno TSV 3"
#: a document's text may be this many times longer than its file (whitespace the file omits)
MAX_TEXT_FACTOR = 10
_COREF_NAME = re.compile(r"coref|anaphor", re.IGNORECASE)
_OFFSETS = re.compile(r"(\d+)-(\d+)")


def sniff(path: str | PathLike) -> bool:
    """A WebAnno TSV 3 file, a zip holding one, or a directory with either below it."""
    p = Path(path)
    if p.is_dir():
        return any(f.is_file() and _is_tsv(f) for f in p.rglob("*.tsv")) or any(
            _zip_of_tsv(f) for f in p.rglob("*.zip"))
    return p.is_file() and (_is_tsv(p) or _zip_of_tsv(p))


def _is_tsv(p: Path) -> bool:
    try:
        with open(p, encoding="utf-8-sig") as f:
            return f.read(len(_FORMAT)) == _FORMAT
    except (OSError, UnicodeDecodeError):
        return False


def _zip_of_tsv(p: Path) -> bool:
    """A zip with a ``.tsv`` member, or a zip member (one level down), by name."""
    if p.suffix != ".zip" or not _zips.is_zip(p):
        return False

    return _zips.has_member(p, ".tsv")


def _accept(p: Path) -> bool:
    return (p.name.endswith(".tsv") and _is_tsv(p)) or _zip_of_tsv(p)


@dataclass
class _Source:
    """One TSV file to read: a file, or a member of a zip (``data`` given)."""

    name: str
    annotator: str
    document: str
    data: bytes | None = None

    def text(self) -> str:
        return as_text(read_bytes(self.name) if self.data is None else self.data, self.name)


def _sources(path: Path, given: str | None) -> Iterator[_Source]:
    if path.suffix != ".zip":
        annotator, document = _paths.inception_names(path)
        yield _Source(str(path), given or annotator, document)
        return
    found = 0
    for m in _zips.members(path, ".tsv"):
        if m.data.lstrip(b"\xef\xbb\xbf").startswith(_FORMAT.encode()):
            found += 1
            yield _Source(m.name, given or m.annotator, m.document, m.data)
    if not found:
        raise InputError("no WebAnno TSV 3 file in this zip", path)


@register("coref", "webanno_tsv", layout="each", sniff=sniff,
          summary="WebAnno TSV 3 files (INCEpTION, WebAnno) with chain layers, a coreference "
          "relation layer or span layers: files, folders or export zips", options=(LAYERS,),
          span_layers=True)
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         layers: Sequence[str] | None = None, spans: bool = False) -> list[CorefAnnotation]:
    """Read WebAnno TSV 3 files (or directories searched recursively for ``*.tsv``, or zips).
    ``layers``: the layers to read by type name or short name (``Coreference``,
    ``NamedEntity``); default the coreference layers, with ``spans`` else the one span
    layer."""
    problems = Problems()
    choice = LayerChoice()
    files = _read_files(paths, annotators, problems, lambda src: _read_file(
        src, None if layers is None else set(layers), spans, choice, problems))
    choice.settle(len(files))
    if choice.surplus:
        more = len(choice.surplus) - 1
        warnings.warn(choice.surplus[0] + (f" (and in {more} other file(s))" if more else ""),
                      stacklevel=2)
    out = _annotations(files, problems)
    problems.check()
    check_same_tokens(out)
    return out


@dataclass
class _Layer:
    """One ``#T_..=`` header line: its kind (``SP``, ``CH``, ``RL``), type name, features and
    first column."""

    kind: str
    name: str
    features: list[str]
    column: int

    @cached_property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1].removesuffix("Link")

    @cached_property
    def width(self) -> int:
        return max(1, len(self.features))

    def col(self, feature: str) -> int:
        return self.column + self.features.index(feature)

    def named(self, wanted: set[str]) -> bool:
        local = self.name.rsplit(".", 1)[-1]
        return bool(wanted & {self.name, local, self.short, self.short + "Chain"})


@dataclass
class _Mention:
    chars: list[tuple[int, int, int]] = field(default_factory=list)  # (token, begin, end)
    type: str | None = None
    relation: str | None = None
    attrs: dict = field(default_factory=dict)

    def add(self, token: int, chars: tuple[int, int]) -> None:
        """A row of ``token`` at code-point offsets ``chars`` carries this mention."""
        self.chars.append((token, *chars))

    def runs(self) -> tuple[tuple[tuple[int, int], ...], list[tuple[int, int]]]:
        """Its token fragments and its character fragments: one of each per run of
        consecutive tokens of its rows, from the run's first token (character) to its last."""
        tokens: list[tuple[int, int]] = []
        chars: list[tuple[int, int]] = []
        last = -2
        for token, b, e in sorted(self.chars):
            if token == last + 1 or token == last:
                first, end = chars[-1]
                chars[-1] = (first if first < b else b, end if end > e else e)
                if token != last:
                    tokens[-1] = (tokens[-1][0], token + 1)
            else:
                tokens.append((token, token + 1))
                chars.append((b, e))
            last = token
        return tuple(tokens), chars


def _in_order(found: dict[str, _Mention]) -> list[tuple[str, _Mention, list[tuple[int, int]]]]:
    """The mentions found, (id, mention, character fragments), sorted by their token
    fragments, then id."""
    ranked = [(m.runs(), mid, m) for mid, m in found.items()]
    ranked.sort(key=lambda r: (r[0][0], r[1]))
    return [(mid, m, frags) for (_, frags), mid, m in ranked]


def _label(text: str) -> str | None:
    """A cell item's value, unescaped; None for ``*`` and ``_`` (no value)."""
    if text in ("*", "_"):
        return None
    return _ESCAPED.sub(r"\1", text) if "\\" in text else text


_Row = tuple[int, list[str], int, tuple[int, int]]  # (line, cells, token, code-point offsets)


@dataclass
class _File:
    """One TSV file read: its document and annotator, text, tokens (before they are cut at
    the mentions' boundaries), mentions as character spans, chains and links."""

    name: str
    annotator: str
    doc_id: str
    text: str
    tokens: Tokens
    mentions: Spans
    chains: list[Chain]
    links: list[Link]


def _read_files(paths: Sequence[str | PathLike], annotators: Sequence[str] | None,
                problems: Problems, read_one: Callable[[_Source], _File]) -> list[_File]:
    """Every file (or export zip member) of every annotator, each read by ``read_one``; an
    annotator with the same document twice is a problem. Raises every problem found."""
    files: list[_File] = []
    seen: dict[tuple[str, str], str] = {}
    for given, found, _ in _paths.annotator_sources(paths, annotators, _accept, layout="each",
                                                    empty="no WebAnno TSV 3 files below"):
        for f in found:
            with problems.collect():
                for src in _sources(f, given):
                    with problems.collect():
                        parsed = read_one(src)
                        key = (src.annotator, parsed.doc_id)
                        if key in seen:
                            raise InputError(f"annotator {quote(src.annotator)} has document "
                                             f"{quote(key[1])} twice (also in {seen[key]})",
                                             src.name)
                        seen[key] = src.name
                        files.append(parsed)
    problems.check()
    return files


def _read_file(src: _Source, wanted: set[str] | None, spans: bool, choice: LayerChoice,
               problems: Problems, relations: bool = False) -> _File:
    path = src.name
    before = len(problems)
    read = _token_rows(src.text(), path, problems)
    if read.surplus[0]:
        choice.surplus.append(f"{path}: {read.surplus[0]:,} row(s) have up to "
                              f"{read.surplus[1]} column(s) more than the header declares "
                              f"({read.width}), holding nothing but '_': ignored")
    if len(problems) > before:
        return _File(path, src.annotator, src.document, "", Tokens([], [], [], []), Spans(),
                     [], [])
    text = _document_text(read)
    rows, starts, ends = _code_points(text, read, path, problems)
    # a token is the text at its offsets, as INCEpTION reads it (OntoGUM has a token cell left
    # empty where the #Text= line has the character)
    tokens = [text[b:e] or t for t, b, e in zip(read.tokens, starts, ends, strict=True)]
    layers, sentences = read.layers, read.sentences
    chains, relations, plain = (([], _relation_layers(layers, wanted, path), []) if relations
                                else _choose(layers, wanted, spans, path, choice))
    mentions = Spans()
    if chains:
        chain_list, links = _chain_annotation(text, mentions,
                                              _chain_mentions(chains, rows, path, problems))
    elif relations:
        chain_list, links = _relation_annotation(
            path, text, rows, relations, {lay.name: lay for lay in layers if lay.kind == "SP"},
            mentions, problems)
    else:
        chain_list, links = [], []
    for lay in plain:
        spans_of: dict[str, _Mention] = {}
        seen = _Cells()
        for n, cells, token, chars in rows:
            try:
                _span_cells(lay, cells, token, chars, spans_of, path, n, seen)
            except InputError as e:
                problems.add(e)
        for mid, m, frags in _in_order(spans_of):
            if mid not in mentions.ids:
                _add(mentions, mid, frags, text, m.attrs)
                chain_list.append(Chain(mid, [mid]))
    return _File(path, src.annotator, src.document, text,
                 Tokens(tokens, starts, ends, sentences), mentions, chain_list, links)


@dataclass
class _TokenRows:
    """A file as written: its layers, its tokens with their UTF-16 offsets, its sentences (their
    first tokens) with their ``#Text=`` lines, and its token and sub-token rows."""

    layers: list[_Layer] = field(default_factory=list)
    width: int = 3  # the columns a row has: 3, then each layer's
    tokens: list[str] = field(default_factory=list)
    begins: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    sentences: list[int] = field(default_factory=list)
    texts: dict[int, str] = field(default_factory=dict)
    rows: list[_Row] = field(default_factory=list)  # offsets in UTF-16 code units
    subtokens: list[int] = field(default_factory=list)  # places in ``rows`` of sub-token rows
    surplus: list[int] = field(default_factory=lambda: [0, 0])  # see _cells


def _token_rows(content: str, path: str, problems: Problems) -> _TokenRows:
    """The header and rows of a file's ``content``; a bad row is added to ``problems``, a bad
    header raised."""
    # the text is rebuilt at the offsets: an offset past what this file's text could span
    # (its #Text= lines and tokens, with room for whitespace between them) is refused
    limit = MAX_TEXT_FACTOR * len(content) + 65536
    lines = content.split("\n")
    if not lines[0].startswith(_FORMAT):
        raise InputError(f"not a WebAnno TSV 3 file (no {_FORMAT} header)", path, 1)
    read = _TokenRows()
    layers, tokens, begins, ends = read.layers, read.tokens, read.begins, read.ends
    sentences, texts, rows = read.sentences, read.texts, read.rows
    row_token: dict[str, int] = {}
    sentence = None
    said: list[str] = []  # the #Text= lines above the next sentence
    for n, line in enumerate(lines, 1):
        if not line:
            continue
        if line[0] == "#":
            if line.startswith(("#T_SP=", "#T_CH=", "#T_RL=")):
                name, *features = line[6:].split("|")
                layers.append(_Layer(line[3:5], name, features, read.width))
                if line.startswith("#T_CH=") and not {"referenceType", "referenceRelation"} \
                        <= set(features):
                    raise InputError("chain layer without referenceType and "
                                     "referenceRelation", path, n)
                read.width += max(1, len(features))
            elif line.startswith("#Text="):
                said.append(line[6:])
            continue
        if line.isspace():
            continue
        try:
            cells = line.split("\t")
            width = read.width
            if len(cells) == width + 1 and not cells[-1]:
                cells.pop()  # WebAnno writes a trailing tab
            if len(cells) != width or not _ROW.fullmatch(cells[0]):
                cells = _cells(line, width, read.surplus, path, n)
            first, dash, last = cells[1].partition("-")
            if not (dash and first.isdigit() and last.isdigit() and first.isascii()
                    and last.isascii()) or (begin := int(first)) > (end := int(last)):
                raise InputError(f"expected character offsets BEGIN-END, got "
                                 f"{excerpt(cells[1])}", path, n)
            if end > limit:
                raise InputError(f"offset {end:,} lies past any text this file of "
                                 f"{len(content):,} characters can hold", path, n)
            row = cells[0]
            if "." not in row:
                number = row.partition("-")[0]
                if number != sentence:
                    sentences.append(len(tokens))
                    sentence = number
                    if said:
                        texts[len(tokens)] = "\n".join(said)
                token = row_token[row] = len(tokens)
                word = cells[2]
                tokens.append(_ESCAPED.sub(r"\1", word) if "\\" in word else word)
                begins.append(begin)
                ends.append(end)
            else:
                token = row_token.get(row.partition(".")[0])
                if token is None:
                    raise InputError(f"sub-token {clip(row)} before its token", path, n)
                read.subtokens.append(len(rows))
            if said:
                said = []
            rows.append((n, cells, token, (begin, end)))
        except InputError as e:
            problems.add(e)
    return read


def _code_points(text: str, read: _TokenRows, path: str, problems: Problems
                 ) -> tuple[list[_Row], list[int], list[int]]:
    """The rows and the tokens' starts and ends with code-point offsets into ``text``: the
    offsets as written where the text has no character beyond U+FFFF (and no sub-token row
    ends past it), else converted; a row whose offsets split a character is a problem."""
    table = utf16_to_codepoints(text)
    if table.narrow and all(read.rows[k][3][1] <= len(text) for k in read.subtokens):
        return read.rows, read.begins, read.ends
    rows: list[_Row] = []
    last = max(read.ends, default=0)
    for n, cells, token, (begin, end) in read.rows:
        b, e = table.get(begin), table.get(end)
        if b is None or e is None:
            why = f"end past the last token ({last})" if end > last else \
                "split a character of the text"
            problems.add(InputError(f"offsets {clip(cells[1])} {why}", path, n))
            continue
        rows.append((n, cells, token, (b, e)))
    return rows, [table.get(b, 0) for b in read.begins], [table.get(e, 0) for e in read.ends]


def _cells(line: str, width: int, surplus: list[int], path: str, n: int) -> list[str]:
    """The cells of a token row, ``width`` of them: WebAnno's trailing tab dropped, and
    columns past those the header declares when they hold nothing but ``_`` (counted in
    ``surplus``: rows, most columns)."""
    cells = line.split("\t")
    if len(cells) > width and cells[-1] == "":
        cells.pop()  # WebAnno writes a trailing tab
    if len(cells) > width:
        extra = cells[width:]
        full = [k for k, c in enumerate(extra, width + 1) if c not in ("_", "")]
        if full:
            raise InputError(f"{len(cells)} columns where the header declares {width}: column "
                             f"{full[0]} holds {excerpt(extra[full[0] - width - 1])}", path, n)
        surplus[0] += 1
        surplus[1] = max(surplus[1], len(extra))
        cells = cells[:width]
    if _ROW.fullmatch(cells[0]) is None or len(cells) != width:
        raise InputError(f"expected a token row of {width} tab-separated columns", path, n)
    return cells


def _choose(layers: list[_Layer], wanted: set[str] | None, spans: bool, path: Path,
            choice: LayerChoice) -> tuple[list[_Layer], list[_Layer], list[_Layer]]:
    """The chain layers, coreference relation layers and plain span layers to read (see
    :func:`read`); none is an error naming the layers found, but for named layers, which a
    file may lack (its annotator marked nothing there), and for the spans job's one span
    layer, which a file declaring no layer lacks: those errors go to ``choice``, which settles
    them after every file."""
    span_layers = {lay.name: lay for lay in layers if lay.kind == "SP"}
    chains = [lay for lay in layers if lay.kind == "CH"]
    relations = [lay for lay in layers if lay.kind == "RL" and _COREF_NAME.search(lay.short)
                 and lay.features and lay.features[-1].startswith("BT_")
                 and lay.features[-1][3:] in span_layers]
    if wanted is not None:
        chains = [lay for lay in chains if lay.named(wanted)]
        relations = [lay for lay in relations if lay.named(wanted)]
        plain = [lay for lay in span_layers.values() if lay.named(wanted)]
        if not (chains or relations or plain):
            kinds = {"CH": "chain", "SP": "span", "RL": "relation"}
            listing = ", ".join(f"{lay.short} ({kinds[lay.kind]})" for lay in layers)
            choice.missing.append(InputError(f"no layer {', '.join(sorted(wanted))}; layers "
                                             f"found: {listing or 'none'}", path))
        return chains, relations, plain
    if chains or relations:
        return chains, relations, []
    if spans and len(span_layers) == 1:
        (only,) = span_layers.values()
        choice.read_plain(only.short, str(path))
        return [], [], [only]
    error = InputError(no_layer("no coreference layer: no chain layer (#T_CH=) and no "
                                "coreference relation layer (#T_RL= named Coref or "
                                "Coreference) declared", spans,
                                [lay.short for lay in span_layers.values()]), path)
    if spans and not layers:
        choice.unmarked.append(error)
    else:
        choice.nothing(error)
    return [], [], []


def _document_text(read: _TokenRows) -> str:
    """The text: each sentence's ``#Text=`` at its first token's UTF-16 offset where it spans
    its tokens' offsets exactly, else its tokens at theirs; spaces elsewhere."""
    begins, ends, tokens = read.begins, read.ends, read.tokens
    units = bytearray(" ".encode("utf-16-le") * max(ends, default=0))

    def put(begin: int, end: int, part: str) -> bool:
        data = part.encode("utf-16-le", "surrogatepass")
        if len(data) != 2 * (end - begin):
            return False
        units[2 * begin:2 * end] = data
        return True

    bounds = [*read.sentences, len(tokens)]
    for s, e in zip(bounds, bounds[1:], strict=False):
        if not put(begins[s], ends[e - 1], read.texts.get(s, "")):
            for t in range(s, e):
                put(begins[t], ends[t], tokens[t])
    return units.decode("utf-16-le", "replace")


# ---- chain layers -------------------------------------------------------------------------------

def _chain_mentions(layers: list[_Layer], rows: list[_Row], path: str,
                    problems: Problems) -> dict[tuple[str, int, int], _Mention]:
    """(layer, chain, link) -> the rows carrying that link, its type and relation."""
    mentions: dict[tuple[str, int, int], _Mention] = {}
    for n, cells, token, chars in rows:
        for lay in layers:
            tcell, rcell = cells[lay.col("referenceType")], cells[lay.col("referenceRelation")]
            if tcell == "_" and rcell == "_":
                continue
            rels = _STACK.split(rcell)
            types = [f"*[{m[2]}]" if (m := _REL.fullmatch(r)) else "_" for r in rels] \
                if tcell == "_" else _STACK.split(tcell)
            if len(types) != len(rels):
                problems.add(InputError(f"{lay.short}: {len(types)} referenceType values but "
                                        f"{len(rels)} referenceRelation values", path, n))
                continue
            for t, r in zip(types, rels, strict=True):
                tm, rm = _TYPE.fullmatch(t), _REL.fullmatch(r)
                if tm is None or rm is None or tm[2] != rm[2]:
                    problems.add(InputError(f"{lay.short}: expected TYPE[chain] and "
                                            f"REL->chain-link, got {excerpt(t)} and "
                                            f"{excerpt(r)}", path, n))
                    continue
                m = mentions.setdefault((lay.short, int(rm[2]), int(rm[3])), _Mention())
                m.add(token, chars)
                m.type, m.relation = _label(tm[1]), _label(rm[1])
    return mentions


def _add(mentions: Spans, mid: str, frags: list[tuple[int, int]], text: str,
         attrs: dict) -> None:
    """Mention ``mid`` at its character fragments ``frags``, with ``attrs`` and its characters
    as ``text``."""
    mentions.add(mid, frags, {**attrs, "text": " ".join(text[b:e] for b, e in frags)})


def _chain_annotation(text: str, mentions: Spans,
                      found: dict[tuple[str, int, int], _Mention]
                      ) -> tuple[list[Chain], list[Link]]:
    members: dict[tuple[str, int], list[tuple[int, str, str | None]]] = {}
    for (short, chain, link), m in sorted(found.items()):
        mid = f"{short}:{chain}-{link}"
        _add(mentions, mid, m.runs()[1], text, {"layer": short, "referenceType": m.type})
        members.setdefault((short, chain), []).append((link, mid, m.relation))
    chains, links = [], []
    for (short, chain), items in members.items():
        chains.append(Chain(f"{short}:{chain}", [mid for _, mid, _ in items]))
        links += [Link(b[1], a[1], short, {"relation": a[2]})
                  for a, b in zip(items, items[1:], strict=False)]
    return chains, links


# ---- a coreference relation layer over a span layer (GUM) ---------------------------------------

def _relation_annotation(path: str, text: str, rows: list[_Row], relations: list[_Layer],
                         spans: dict[str, _Layer], mentions: Spans, problems: Problems
                         ) -> tuple[list[Chain], list[Link]]:
    found: dict[str, _Mention] = {}
    pending: list[tuple[int, _Layer, str, str, str, str | None]] = []
    bases = [spans[name] for name in dict.fromkeys(r.features[-1][3:] for r in relations)]
    # each span layer with what its cells gave so far
    items = [(lay, _Cells()) for lay in bases]
    # each relation layer with its span layer and its source column, looked up once per file
    targets = [(rel, spans[rel.features[-1][3:]], rel.column + len(rel.features) - 1)
               for rel in relations]
    for n, cells, token, chars in rows:
        try:
            for lay, read in items:
                _span_cells(lay, cells, token, chars, found, path, n, read)
            for rel, span, column in targets:
                if cells[column] != "_":  # most rows start no relation
                    pending += _relations(rel, span, cells, path, n)
        except InputError as e:
            problems.add(e)
    for mid, m, frags in _in_order(found):
        _add(mentions, mid, frags, text, m.attrs)
    known = set(mentions.ids)
    links = []
    for n, rel, src, tgt, source, label in pending:
        missing = [end for end in (src, tgt) if end not in known]
        if missing:
            layer, _, number = missing[0].partition(":")
            problems.add(InputError(f"{rel.short} relation from {excerpt(source)}: no span "
                                    f"{clip(number)} of {layer}", path, n))
            continue
        links.append(Link(src, tgt, rel.short, {"relation": label}))
    identity = [k for k in links if not (k.attrs["relation"] or "").startswith("bridge")]
    return chains_from_links(mentions.ids, identity), links


def _relations(rel: _Layer, span: _Layer, cells: list[str], path: str, n: int
               ) -> list[tuple[int, _Layer, str, str, str, str | None]]:
    """The relations a row writes: (line, layer, source id, target id, address, label)."""
    bt = cells[rel.column + len(rel.features) - 1]
    if bt == "_":
        return []
    sources = _STACK.split(bt)
    label_cell = cells[rel.column] if len(rel.features) > 1 else "_"
    labels = [None] * len(sources) if label_cell == "_" else _STACK.split(label_cell)
    if len(labels) != len(sources):
        raise InputError(f"{rel.short}: {len(labels)} labels but {len(sources)} source "
                         "addresses", path, n)
    out = []
    for label, source in zip(labels, sources, strict=True):
        m = _SOURCE.fullmatch(source)
        if m is None:
            raise InputError(f"{rel.short}: expected a source ROW or ROW[source_target], got "
                             f"{excerpt(source)}", path, n)
        src = f"{span.short}:{m[2] if m[2] not in (None, '0') else m[1]}"
        tgt = f"{span.short}:{m[3] if m[3] not in (None, '0') else cells[0]}"
        out.append((n, rel, src, tgt, source, label and _label(label)))
    return out


#: a span cell's item read: (span id, its value) for ``value[n]``, None for a value without a
#: number
_Item = tuple[str, str | None] | None


@dataclass
class _Cells:
    """What :func:`_span_cells` keeps of one span layer's cells in one file: each cell item
    read so far (``items``; each GUM row stacks its own set of span numbers, so rows rarely
    repeat in a file, but a span's items repeat on each of its rows), and the layer's cells
    of the last row read with the spans they carry (``last``, ``spans``): inside a span the
    next row most often carries the same cells (half of GUM's rows with spans), and then
    only adds its token to those spans."""

    items: dict[str, _Item] = field(default_factory=dict)
    last: list[str] | None = None
    spans: list[_Mention] = field(default_factory=list)


def _span_cells(lay: _Layer, cells: list[str], token: int, chars: tuple[int, int],
                found: dict[str, _Mention], path: str, n: int, read: _Cells) -> None:
    """Add ``token`` (its row at ``chars``) to the spans of layer ``lay`` its row carries: every
    ``value[n]`` of any feature column is span n with that value; values without a number are
    the row's one-token spans, matched across the columns by their place (see the module
    docstring). ``read``: this layer's cells read so far in the file."""
    mine = cells[lay.column:lay.column + lay.width]
    if mine == read.last:  # the cells of the row before: the same spans, values already read
        entry = (token, *chars)
        for mention in read.spans:
            mention.chars.append(entry)
        return
    if mine.count("_") == len(mine):  # no span of this layer on this row: most rows
        return
    read.last = None  # set again once the row is read, if it has no one-token span
    names = lay.features or ["value"]
    numbered: list[tuple[str, str, str | None]] = []  # (span id, feature, value)
    plain: list[tuple[str, list[str]]] = []
    items = read.items
    for name, cell in zip(names, mine, strict=False):
        if cell == "_":
            continue
        loose = []
        for item in (_STACK.split(cell) if "\\" in cell else cell.split("|")):
            got = items.get(item, False)
            if got is False:
                got = items[item] = _span_item(lay.short, item)
            if got is None:
                loose.append(item)
            else:
                numbered.append((got[0], name, got[1]))
        if loose:
            plain.append((name, loose))
    if plain:
        numbered += _plain_spans(lay, cells[0], plain, path, n)
    entry = (token, *chars)
    spans = []
    for mid, name, value in numbered:
        mention = found.get(mid)
        if mention is None:  # every feature None, then what this row gives
            mention = found[mid] = _Mention([entry], attrs={"layer": lay.short,
                                                             **dict.fromkeys(lay.features)})
            spans.append(mention)
        elif mention.chars[-1] is not entry:  # its first item on this row
            mention.chars.append(entry)
            spans.append(mention)
        if mention.attrs.get(name) is None:
            mention.attrs[name] = value
    if not plain:  # a one-token span is the row's own: none repeats on the next row
        read.last, read.spans = mine, spans


def _span_item(short: str, item: str) -> _Item:
    """A span cell's item: ``value[n]`` read by its end, as _TYPE reads it (a regular
    expression costs more here)."""
    at = item.rfind("[") if item[-1:] == "]" else -1
    if at < 0 or not item[at + 1:-1].isdigit():
        return None
    return f"{short}:{item[at + 1:-1]}", _label(item[:at])


def _plain_spans(lay: _Layer, row: str, plain: list[tuple[str, list[str]]], path: str, n: int
                 ) -> list[tuple[str, str, str | None]]:
    """The row's one-token spans of the values without a number, (span id, feature, value),
    the j-th value of every column being span j's."""
    counts = {len(items) for _, items in plain}
    if len(counts) > 1:
        listing = ", ".join(f"{name} {len(items)}" for name, items in plain)
        raise InputError(f"{lay.short}: values without a span number in different numbers "
                         f"({listing}): cannot tell which belongs to which span", path, n)
    return [(f"{lay.short}:{row}" + (f"/{j + 1}" if j else ""), name, _label(items[j]))
            for j in range(max(counts)) for name, items in plain]


def _annotations(files: list[_File], problems: Problems) -> list[CorefAnnotation]:
    """The annotations of the files read, in their order (:func:`._text.anchored`)."""
    return anchored(files, problems, lambda f, k: InputError(
        f"mention {clip(f.mentions.ids[k])} covers no character of a token", f.name))


# ---- relation layers (the relations job) --------------------------------------------------------
@register("relations", "webanno_tsv", sniff=sniff,
          summary="WebAnno TSV 3 files (INCEpTION, WebAnno) with relation layers (#T_RL=) over "
          "span layers: files or folders", options=(LAYERS,), layout="each")
def read_relations(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None,
                   *, layers: Sequence[str] | None = None) -> list[RelationAnnotation]:
    """Relations of the relation layers (``#T_RL=Name|label|BT_SpanLayer``) between the spans
    of their span layers, as :func:`read` reads GUM's coreference relations (module
    docstring): the label is the relation's first feature (the layer's name when it has none),
    ``attrs["layer"]`` the layer. ``layers``: the relation layers to read (default all).
    Files, folders and annotators as :func:`read`."""
    problems = Problems()
    files = _read_files(paths, annotators, problems, lambda src: _read_file(
        src, None if layers is None else set(layers), False, LayerChoice(), problems,
        relations=True))
    out = []
    for ann in _annotations(files, problems):
        rels = [Link(k.source, k.target, k.attrs["relation"] or k.type, {"layer": k.type})
                for k in ann.links]
        out.append(RelationAnnotation(ann.document, ann.annotator, ann.mentions, rels,
                                      ann.source))
    problems.check()
    check_same_tokens(out)
    return out


def _relation_layers(layers: list[_Layer], wanted: set[str] | None, path: str) -> list[_Layer]:
    """The relation layers over a declared span layer (those named in ``wanted``); none is an
    error naming the layers found."""
    spans = {lay.name for lay in layers if lay.kind == "SP"}
    found = [lay for lay in layers if lay.kind == "RL" and lay.features
             and lay.features[-1].startswith("BT_") and lay.features[-1][3:] in spans]
    chosen = [lay for lay in found if wanted is None or lay.named(wanted)]
    if not chosen:
        listing = ", ".join(lay.short for lay in found) or "none"
        what = f"no relation layer {', '.join(sorted(wanted))}" if wanted else \
            "no relation layer (#T_RL=) over a span layer"
        raise InputError(f"{what}; relation layers found: {listing}", path)
    return chosen


__all__ = ["MAX_TEXT_FACTOR", "read", "read_relations", "sniff"]
