"""WebAnno TSV 3.x reader for chain layers, the other INCEpTION export.

The header (``#T_SP=``, ``#T_CH=``, ``#T_RL=``) fixes the feature columns after the three
token columns, in declaration order. A chain layer (``#T_CH=<Name>Link|...``) has a
``referenceType`` cell ``TYPE[chain]`` and a ``referenceRelation`` cell ``REL->chain-link``,
stacked with ``|``; a mention is one (layer, chain, link) and spans the tokens that carry it.
Mention ids are ``"<layer>:<chain>-<link>"`` (layer ``Coreference`` for DKPro's
``CoreferenceLink``); ``attrs``: ``layer``, ``referenceType``, ``text``. Chains follow the link
numbers; ``Link(source=<link k+1>, target=<link k>, attrs={"relation": <label of link k>})``
as in the XMI reader. Sub-token rows (``1-3.1``) count as their token. Tokens are the token
column; a sentence starts where the sentence number changes.

Annotator and document as for XMI: ``annotation/<doc>/<user>.tsv`` in an INCEpTION export,
else the directory name and the file stem; ``annotators`` overrides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from ..model.chains import check_same_tokens
from ..model.corpus import Chain, CorefAnnotation, Document, Link, Mention
from ..model.errors import InputError
from . import _paths, register

_TYPE = re.compile(r"(.*)\[(\d+)\]")
_REL = re.compile(r"(.*)->(\d+)-(\d+)")
_ROW = re.compile(r"(\d+)-(\d+)(?:\.\d+)?")
_STACK = re.compile(r"(?<!\\)\|")
_ESCAPED = re.compile(r"\\([\\\[\]|_>;*-])")


def sniff(path: str | PathLike) -> bool:
    """A WebAnno TSV 3 file, or a directory with one below it."""
    p = Path(path)
    if p.is_dir():
        return any(_is_tsv(f) for f in p.rglob("*.tsv"))
    return p.is_file() and _is_tsv(p)


def _is_tsv(p: Path) -> bool:
    try:
        with open(p, encoding="utf-8-sig") as f:
            return f.readline().startswith("#FORMAT=WebAnno TSV 3")
    except (OSError, UnicodeDecodeError):
        return False


def _is_tsv_file(p: Path) -> bool:
    return p.name.endswith(".tsv") and _is_tsv(p)


@register("coref", "webanno_tsv", sniff=sniff,
          summary="WebAnno TSV 3 files (INCEpTION, WebAnno) with chain layers: files or folders")
def read(paths: Sequence[str | PathLike],
         annotators: Sequence[str] | None = None) -> list[CorefAnnotation]:
    """Read WebAnno TSV 3 files (or directories searched recursively for ``*.tsv``)."""
    out: list[CorefAnnotation] = []
    seen: dict[tuple[str, str], Path] = {}
    for given, files, _ in _paths.annotator_sources(paths, annotators, _is_tsv_file,
                                                    layout="each",
                                                    empty="no WebAnno TSV 3 files below"):
        for f in files:
            layout_annotator, doc_id = _paths.inception_names(f)
            annotator = given if given is not None else layout_annotator
            ann = _read_file(f, annotator, doc_id)
            key = (annotator, ann.document.id)
            if key in seen:
                raise InputError(f"annotator {annotator!r} has document {key[1]!r} twice (also "
                                 f"in {seen[key]})", f)
            seen[key] = f
            out.append(ann)
    check_same_tokens(out)
    return out


@dataclass
class _Mention:
    tokens: list[int] = field(default_factory=list)
    type: str | None = None
    relation: str | None = None


def _label(text: str) -> str | None:
    text = _ESCAPED.sub(r"\1", text)
    return None if text == "*" else text


def _read_file(path: Path, annotator: str, doc_id: str) -> CorefAnnotation:
    try:
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read: {e}", path) from None
    if not lines[0].startswith("#FORMAT=WebAnno TSV 3"):
        raise InputError("not a WebAnno TSV 3 file (no #FORMAT=WebAnno TSV 3 header)", path, 1)
    width = 3
    chains: dict[str, tuple[int, int]] = {}  # layer -> (type column, relation column)
    tokens: list[str] = []
    row_token: dict[str, int] = {}
    sentences: list[int] = []
    sentence = None
    mentions: dict[tuple[str, int, int], _Mention] = {}
    for n, line in enumerate(lines, 1):
        if line.startswith(("#T_SP=", "#T_CH=", "#T_RL=")):
            name, *features = line[6:].split("|")
            if line.startswith("#T_CH="):
                short = name.rsplit(".", 1)[-1].removesuffix("Link")
                try:
                    chains[short] = (width + features.index("referenceType"),
                                     width + features.index("referenceRelation"))
                except ValueError:
                    raise InputError("chain layer without referenceType and referenceRelation",
                                     path, n) from None
            width += max(1, len(features))
            continue
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) == width + 1 and cells[-1] == "":
            cells.pop()  # WebAnno writes a trailing tab
        row = _ROW.fullmatch(cells[0])
        if row is None or len(cells) != width:
            raise InputError(f"expected a token row of {width} tab-separated columns", path, n)
        if "." not in cells[0]:
            if row[1] != sentence:
                sentences.append(len(tokens))
                sentence = row[1]
            row_token[cells[0]] = len(tokens)
            tokens.append(_ESCAPED.sub(r"\1", cells[2]))
        token = row_token.get(f"{row[1]}-{row[2]}")
        if token is None:
            raise InputError(f"sub-token {cells[0]} before its token", path, n)
        for short, (tcol, rcol) in chains.items():
            _chain_cells(short, cells[tcol], cells[rcol], token, mentions, path, n)
    if not chains:
        raise InputError("no coreference layer: no chain layer (#T_CH=) declared", path)
    return _annotation(path, annotator, doc_id, tokens, sentences, mentions)


def _chain_cells(short: str, tcell: str, rcell: str, token: int,
                 mentions: dict[tuple[str, int, int], _Mention], path: Path, n: int) -> None:
    """Add ``token`` to the mentions its chain cells name."""
    if tcell == "_" and rcell == "_":
        return
    types, rels = _STACK.split(tcell), _STACK.split(rcell)
    if len(types) != len(rels):
        raise InputError(f"{short}: {len(types)} referenceType values but {len(rels)} "
                         "referenceRelation values", path, n)
    for t, r in zip(types, rels, strict=True):
        tm, rm = _TYPE.fullmatch(t), _REL.fullmatch(r)
        if tm is None or rm is None or tm[2] != rm[2]:
            raise InputError(f"{short}: expected TYPE[chain] and REL->chain-link, got {t!r} "
                             f"and {r!r}", path, n)
        m = mentions.setdefault((short, int(rm[2]), int(rm[3])), _Mention())
        if not m.tokens or m.tokens[-1] != token:
            m.tokens.append(token)
        m.type, m.relation = _label(tm[1]), _label(rm[1])


def _annotation(path: Path, annotator: str, doc_id: str, tokens: list[str],
                sentences: list[int],
                found: dict[tuple[str, int, int], _Mention]) -> CorefAnnotation:
    mentions: dict[str, Mention] = {}
    members: dict[tuple[str, int], list[tuple[int, str, str | None]]] = {}
    for (short, chain, link), m in sorted(found.items()):
        frags: list[tuple[int, int]] = []
        for t in sorted(m.tokens):
            if frags and frags[-1][1] == t:
                frags[-1] = (frags[-1][0], t + 1)
            else:
                frags.append((t, t + 1))
        mid = f"{short}:{chain}-{link}"
        mentions[mid] = Mention(mid, tuple(frags), attrs={
            "layer": short, "referenceType": m.type,
            "text": " ".join(" ".join(tokens[s:e]) for s, e in frags)})
        members.setdefault((short, chain), []).append((link, mid, m.relation))
    chains, links = [], []
    for (short, chain), items in members.items():
        chains.append(Chain(f"{short}:{chain}", [mid for _, mid, _ in items]))
        links += [Link(b[1], a[1], short, {"relation": a[2]})
                  for a, b in zip(items, items[1:], strict=False)]
    doc = Document(doc_id, tokens, sentences, source=str(path))
    return CorefAnnotation(doc, annotator, mentions, chains, links, source=str(path))
