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
  ``layer``, the span features by name, ``text``). A relation is written on the first row of
  its target with the source's row and ``[source_target]`` span numbers (0: the unnumbered span
  of that row) and becomes ``Link(source, target, <relation layer>, {"relation": label})``.
  Chains are the connected components of the relations whose label does not start with
  ``bridge`` (GUM's bridging is not identity).
* A plain span layer (``#T_SP=...ner.type.NamedEntity|identifier|value``), named in
  ``layers=`` or, with ``spans=True``, the one span layer of a file without a coreference
  layer: every span is a mention as above, and a singleton chain.

Sub-token rows (``1-3.1``) count as their token. Tokens are the token column; a sentence
starts where the sentence number changes. Every mention keeps its ``char_offsets`` (column 2,
UTF-16 units as Java counts, as code points); the document's text is each sentence's
``#Text=`` lines at its first token's offset (its tokens where the lengths disagree), spaces
between.

Annotator and document as for XMI: ``annotation/<doc>/<user>.tsv`` in an INCEpTION export,
else the directory name and the file stem; ``annotators`` overrides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from ..model.chains import chains_from_links, check_same_tokens
from ..model.corpus import Chain, CorefAnnotation, Document, Link, Mention
from ..model.errors import InputError, quote
from ..model.io import excerpt, read_text
from ..model.relations import RelationAnnotation
from . import _paths, register
from .brat import utf16_to_codepoints
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
    """A WebAnno TSV 3 file, or a directory with one below it."""
    p = Path(path)
    if p.is_dir():
        return any(f.is_file() and _is_tsv(f) for f in p.rglob("*.tsv"))
    return p.is_file() and _is_tsv(p)


def _is_tsv(p: Path) -> bool:
    try:
        with open(p, encoding="utf-8-sig") as f:
            return f.read(len(_FORMAT)) == _FORMAT
    except (OSError, UnicodeDecodeError):
        return False


def _is_tsv_file(p: Path) -> bool:
    return p.name.endswith(".tsv") and _is_tsv(p)


@register("coref", "webanno_tsv", layout="each", sniff=sniff,
          summary="WebAnno TSV 3 files (INCEpTION, WebAnno) with chain layers, a coreference "
          "relation layer or span layers: files or folders", options=(LAYERS,),
          span_layers=True)
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         layers: Sequence[str] | None = None, spans: bool = False) -> list[CorefAnnotation]:
    """Read WebAnno TSV 3 files (or directories searched recursively for ``*.tsv``).
    ``layers``: the layers to read by type name or short name (``Coreference``,
    ``NamedEntity``); default the coreference layers, with ``spans`` else the one span
    layer."""
    out: list[CorefAnnotation] = []
    seen: dict[tuple[str, str], Path] = {}
    choice = LayerChoice()
    for given, files, _ in _paths.annotator_sources(paths, annotators, _is_tsv_file,
                                                    layout="each",
                                                    empty="no WebAnno TSV 3 files below"):
        for f in files:
            layout_annotator, doc_id = _paths.inception_names(f)
            annotator = given if given is not None else layout_annotator
            ann = _read_file(f, annotator, doc_id, None if layers is None else set(layers),
                             spans, choice)
            key = (annotator, ann.document.id)
            if key in seen:
                raise InputError(f"annotator {quote(annotator)} has document {quote(key[1])} "
                                 f"twice (also "
                                 f"in {seen[key]})", f)
            seen[key] = f
            out.append(ann)
    choice.settle(len(out))
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

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1].removesuffix("Link")

    def col(self, feature: str) -> int:
        return self.column + self.features.index(feature)

    def named(self, wanted: set[str]) -> bool:
        local = self.name.rsplit(".", 1)[-1]
        return bool(wanted & {self.name, local, self.short, self.short + "Chain"})


@dataclass
class _Mention:
    tokens: list[int] = field(default_factory=list)
    chars: list[tuple[int, int, int]] = field(default_factory=list)  # (token, begin, end)
    type: str | None = None
    relation: str | None = None
    attrs: dict = field(default_factory=dict)

    def add(self, token: int, chars: tuple[int, int]) -> None:
        """A row of ``token`` at code-point offsets ``chars`` carries this mention."""
        if not self.tokens or self.tokens[-1] != token:
            self.tokens.append(token)
        self.chars.append((token, *chars))


def _value(item: str) -> str:
    """A stacked cell item without its ``[n]``."""
    m = _TYPE.fullmatch(item)
    return m[1] if m else item


def _label(text: str) -> str | None:
    text = _ESCAPED.sub(r"\1", text)
    return None if text == "*" else text


_Row = tuple[int, list[str], int, tuple[int, int]]  # (line, cells, token, code-point offsets)


def _read_file(path: Path, annotator: str, doc_id: str, wanted: set[str] | None,
               spans: bool, choice: LayerChoice, relations: bool = False) -> CorefAnnotation:
    content = read_text(path)
    # the text is rebuilt at the offsets: an offset past what this file's text could span
    # (its #Text= lines and tokens, with room for whitespace between them) is refused
    limit = MAX_TEXT_FACTOR * len(content) + 65536
    lines = content.split("\n")
    if not lines[0].startswith(_FORMAT):
        raise InputError(f"not a WebAnno TSV 3 file (no {_FORMAT} header)", path, 1)
    width = 3
    layers: list[_Layer] = []
    tokens: list[str] = []
    at: list[tuple[int, int]] = []  # each token's UTF-16 offsets
    row_token: dict[str, int] = {}
    sentences: list[int] = []
    sentence = None
    said: list[str] = []  # the #Text= lines above the next sentence
    texts: dict[int, str] = {}  # a sentence's first token -> its #Text=
    found: list[tuple[int, list[str], int, int, int]] = []  # (line, cells, token, begin, end)
    for n, line in enumerate(lines, 1):
        if line.startswith(("#T_SP=", "#T_CH=", "#T_RL=")):
            name, *features = line[6:].split("|")
            layers.append(_Layer(line[3:5], name, features, width))
            if line.startswith("#T_CH=") and not {"referenceType", "referenceRelation"} \
                    <= set(features):
                raise InputError("chain layer without referenceType and referenceRelation",
                                 path, n)
            width += max(1, len(features))
            continue
        if line.startswith("#Text="):
            said.append(line[6:])
            continue
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) == width + 1 and cells[-1] == "":
            cells.pop()  # WebAnno writes a trailing tab
        row = _ROW.fullmatch(cells[0])
        if row is None or len(cells) != width:
            raise InputError(f"expected a token row of {width} tab-separated columns", path, n)
        offsets = _OFFSETS.fullmatch(cells[1])
        if offsets is None or int(offsets[1]) > int(offsets[2]):
            raise InputError(f"expected character offsets BEGIN-END, got {excerpt(cells[1])}",
                             path, n)
        begin, end = int(offsets[1]), int(offsets[2])
        if end > limit:
            raise InputError(f"offset {end:,} lies past any text this file of {len(content):,} "
                             "characters can hold", path, n)
        if "." not in cells[0]:
            if row[1] != sentence:
                sentences.append(len(tokens))
                sentence = row[1]
                if said:
                    texts[len(tokens)] = "\n".join(said)
            row_token[cells[0]] = len(tokens)
            tokens.append(_ESCAPED.sub(r"\1", cells[2]))
            at.append((begin, end))
        said = []
        token = row_token.get(f"{row[1]}-{row[2]}")
        if token is None:
            raise InputError(f"sub-token {cells[0]} before its token", path, n)
        found.append((n, cells, token, begin, end))
    text = _document_text(tokens, at, sentences, texts)
    table = utf16_to_codepoints(text)
    rows: list[_Row] = []
    for n, cells, token, begin, end in found:
        b, e = table.get(begin), table.get(end)
        if b is None or e is None:
            raise InputError(f"offsets {cells[1]} split a character of the text", path, n)
        rows.append((n, cells, token, (b, e)))
    doc = Document(doc_id, tokens, sentences, text=text, source=str(path))
    chains, relations, plain = (([], _relation_layers(layers, wanted, path), []) if relations
                                else _choose(layers, wanted, spans, path, choice))
    if chains:
        mentions, chain_list, links = _chain_annotation(
            tokens, _chain_mentions(chains, rows, path))
    elif relations:
        mentions, chain_list, links = _relation_annotation(
            path, tokens, rows, relations, {lay.name: lay for lay in layers if lay.kind == "SP"})
    else:
        mentions, chain_list, links = {}, [], []
    for lay in plain:
        spans_of: dict[str, _Mention] = {}
        for n, cells, token, chars in rows:
            _span_cells(lay, cells, token, chars, spans_of, path, n)
        for mid, m in sorted(spans_of.items(), key=lambda kv: (_fragments(kv[1].tokens), kv[0])):
            if mid not in mentions:
                mentions[mid] = _mention(mid, m, tokens, m.attrs)
                chain_list.append(Chain(mid, [mid]))
    return CorefAnnotation(doc, annotator, mentions, chain_list, links, source=str(path))


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
        return [], [], []
    raise error


def _document_text(tokens: list[str], at: list[tuple[int, int]], sentences: list[int],
                   texts: dict[int, str]) -> str:
    """The text: each sentence's ``#Text=`` at its first token's UTF-16 offset where it spans
    its tokens' offsets exactly, else its tokens at theirs; spaces elsewhere."""
    units = bytearray(" ".encode("utf-16-le") * max((e for _, e in at), default=0))

    def put(begin: int, end: int, part: str) -> bool:
        data = part.encode("utf-16-le", "surrogatepass")
        if len(data) != 2 * (end - begin):
            return False
        units[2 * begin:2 * end] = data
        return True

    bounds = [*sentences, len(tokens)]
    for s, e in zip(bounds, bounds[1:], strict=False):
        if not put(at[s][0], at[e - 1][1], texts.get(s, "")):
            for t in range(s, e):
                put(*at[t], tokens[t])
    return units.decode("utf-16-le", "replace")


# ---- chain layers -------------------------------------------------------------------------------

def _chain_mentions(layers: list[_Layer], rows: list[_Row],
                    path: Path) -> dict[tuple[str, int, int], _Mention]:
    """(layer, chain, link) -> the tokens carrying that link, its type and relation."""
    mentions: dict[tuple[str, int, int], _Mention] = {}
    for n, cells, token, chars in rows:
        for lay in layers:
            tcell, rcell = cells[lay.col("referenceType")], cells[lay.col("referenceRelation")]
            if tcell == "_" and rcell == "_":
                continue
            types, rels = _STACK.split(tcell), _STACK.split(rcell)
            if len(types) != len(rels):
                raise InputError(f"{lay.short}: {len(types)} referenceType values but "
                                 f"{len(rels)} referenceRelation values", path, n)
            for t, r in zip(types, rels, strict=True):
                tm, rm = _TYPE.fullmatch(t), _REL.fullmatch(r)
                if tm is None or rm is None or tm[2] != rm[2]:
                    raise InputError(f"{lay.short}: expected TYPE[chain] and REL->chain-link, "
                                     f"got {excerpt(t)} and {excerpt(r)}", path, n)
                m = mentions.setdefault((lay.short, int(rm[2]), int(rm[3])), _Mention())
                m.add(token, chars)
                m.type, m.relation = _label(tm[1]), _label(rm[1])
    return mentions


def _fragments(tokens: list[int]) -> tuple[tuple[int, int], ...]:
    frags: list[tuple[int, int]] = []
    for t in sorted(set(tokens)):
        if frags and frags[-1][1] == t:
            frags[-1] = (frags[-1][0], t + 1)
        else:
            frags.append((t, t + 1))
    return tuple(frags)


def _mention(mid: str, m: _Mention, tokens: list[str], attrs: dict) -> Mention:
    """The mention of the rows ``m`` gathered: ``attrs``, its words as ``text`` and the
    code-point offsets of each fragment as ``char_offsets``."""
    frags = _fragments(m.tokens)
    chars = tuple((min(b for t, b, _ in m.chars if s <= t < e),
                   max(x for t, _, x in m.chars if s <= t < e)) for s, e in frags)
    return Mention(mid, frags, attrs={**attrs, "text": " ".join(" ".join(tokens[s:e])
                                                               for s, e in frags),
                                      "char_offsets": chars})


_Found = tuple[dict[str, Mention], list[Chain], list[Link]]


def _chain_annotation(tokens: list[str], found: dict[tuple[str, int, int], _Mention]
                      ) -> _Found:
    mentions: dict[str, Mention] = {}
    members: dict[tuple[str, int], list[tuple[int, str, str | None]]] = {}
    for (short, chain, link), m in sorted(found.items()):
        mid = f"{short}:{chain}-{link}"
        mentions[mid] = _mention(mid, m, tokens, {"layer": short, "referenceType": m.type})
        members.setdefault((short, chain), []).append((link, mid, m.relation))
    chains, links = [], []
    for (short, chain), items in members.items():
        chains.append(Chain(f"{short}:{chain}", [mid for _, mid, _ in items]))
        links += [Link(b[1], a[1], short, {"relation": a[2]})
                  for a, b in zip(items, items[1:], strict=False)]
    return mentions, chains, links


# ---- a coreference relation layer over a span layer (GUM) ---------------------------------------

def _relation_annotation(path: Path, tokens: list[str], rows: list[_Row],
                         relations: list[_Layer], spans: dict[str, _Layer]) -> _Found:
    found: dict[str, _Mention] = {}
    pending: list[tuple[int, _Layer, str, str, str, str | None]] = []
    bases = [spans[name] for name in dict.fromkeys(r.features[-1][3:] for r in relations)]
    for n, cells, token, chars in rows:
        for lay in bases:
            _span_cells(lay, cells, token, chars, found, path, n)
        for rel in relations:
            bt = cells[rel.column + len(rel.features) - 1]
            if bt == "_":
                continue
            labels = (_STACK.split(cells[rel.column]) if len(rel.features) > 1
                      else [None] * len(_STACK.split(bt)))
            sources = _STACK.split(bt)
            if len(labels) != len(sources):
                raise InputError(f"{rel.short}: {len(labels)} labels but {len(sources)} "
                                 "source addresses", path, n)
            span = spans[rel.features[-1][3:]]
            for label, source in zip(labels, sources, strict=True):
                m = _SOURCE.fullmatch(source)
                if m is None:
                    raise InputError(f"{rel.short}: expected a source ROW or ROW[source_target], "
                                     f"got {excerpt(source)}", path, n)
                src = f"{span.short}:{m[2] if m[2] not in (None, '0') else m[1]}"
                tgt = f"{span.short}:{m[3] if m[3] not in (None, '0') else cells[0]}"
                pending.append((n, rel, src, tgt, source, label and _label(label)))
    order = sorted(found, key=lambda k: (_fragments(found[k].tokens), k))
    mentions = {mid: _mention(mid, found[mid], tokens, found[mid].attrs) for mid in order}
    links = []
    for n, rel, src, tgt, source, label in pending:
        for end in (src, tgt):
            if end not in mentions:
                raise InputError(f"{rel.short} relation from {excerpt(source)}: no span "
                                 f"{end.partition(':')[2]} of {end.partition(':')[0]}", path, n)
        links.append(Link(src, tgt, rel.short, {"relation": label}))
    identity = [k for k in links if not (k.attrs["relation"] or "").startswith("bridge")]
    return mentions, chains_from_links(list(mentions), identity), links


def _span_cells(lay: _Layer, cells: list[str], token: int, chars: tuple[int, int],
                found: dict[str, _Mention], path: Path, n: int) -> None:
    """Add ``token`` (its row at ``chars``) to the spans of layer ``lay`` its row carries
    (``value[n]`` or ``value`` stacked with ``|``, the same spans in every feature column)."""
    columns = [_STACK.split(cells[lay.column + k]) for k in range(max(1, len(lay.features)))]
    if columns[0] == ["_"]:
        return
    if any(len(c) != len(columns[0]) for c in columns):
        raise InputError(f"{lay.short}: feature columns list different numbers of spans",
                         path, n)
    for k, item in enumerate(columns[0]):
        m = _TYPE.fullmatch(item)
        mid = f"{lay.short}:{m[2] if m else cells[0]}"
        mention = found.get(mid)
        if mention is None:
            values = {name: _label(_value(c[k])) for name, c in zip(lay.features, columns,
                                                                    strict=False)}
            mention = found[mid] = _Mention(attrs={"layer": lay.short, **values})
        mention.add(token, chars)


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
    out: list[RelationAnnotation] = []
    seen: dict[tuple[str, str], Path] = {}
    wanted = None if layers is None else set(layers)
    for given, files, _ in _paths.annotator_sources(paths, annotators, _is_tsv_file,
                                                    layout="each",
                                                    empty="no WebAnno TSV 3 files below"):
        for f in files:
            layout_annotator, doc_id = _paths.inception_names(f)
            annotator = given if given is not None else layout_annotator
            ann = _read_file(f, annotator, doc_id, wanted, False, LayerChoice(), relations=True)
            key = (annotator, ann.document.id)
            if key in seen:
                raise InputError(f"annotator {annotator!r} has document {key[1]!r} twice (also "
                                 f"in {seen[key]})", f)
            seen[key] = f
            rels = [Link(k.source, k.target, k.attrs["relation"] or k.type, {"layer": k.type})
                    for k in ann.links]
            out.append(RelationAnnotation(ann.document, annotator, ann.mentions, rels, str(f)))
    check_same_tokens(out)
    return out


def _relation_layers(layers: list[_Layer], wanted: set[str] | None, path: Path) -> list[_Layer]:
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
