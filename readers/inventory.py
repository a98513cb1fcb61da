"""Sense inventories (groupings of senses) as plain ``(child, parent)`` edges.

Key scheme: every sense, group and WordNet node is one string, namespaced by the lemma so that
keys are unique across lemmas. The lemma is written ``base.pos`` (OntoNotes ``call-v`` becomes
``call.v``):

* OntoNotes sense ``n``          -> ``call.v.<n>``       e.g. ``call.v.1``
* OntoNotes ``group`` g          -> ``call.v.G<g>``      e.g. ``call.v.G1``
* WordNet sense number k (``<wn>``) -> ``call.v.WN<k>``  e.g. ``call.v.WN19``

The OntoNotes ``.sense`` reader tags with the same ``call.v.<n>`` keys. A TSV inventory whose
header starts with ``lemma`` gets the same ``<lemma>.<id>`` prefixing; without it, its keys are
taken verbatim (use this for globally unique keys such as WordNet sense keys).
The graph (a DAG: a sense may have several parents) is built by ``corpusagree.senses``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import pairwise
from os import PathLike
from pathlib import Path

from ..model.errors import InputError, Problems, quote
from ._paths import as_list
from ._sensefiles import numbered_lines
from ._xml import local, parse

Edge = tuple[str, str]
_POS_SUFFIXES = {"n", "v", "j", "a", "r"}


@lru_cache(maxsize=1 << 16)  # a corpus has few lemmas, each read on many lines
def lemma_key(lemma: str) -> str:
    """``call-v``, ``call.v`` or `` call-v `` -> ``call.v`` (last whitespace token kept)."""
    tokens = lemma.split()
    token = tokens[-1] if tokens else ""
    base, dash, pos = token.rpartition("-")
    return f"{base}.{pos}" if dash and base and pos in _POS_SUFFIXES else token


def sense_key(lemma: str, sense: str) -> str:
    """The key of sense ``sense`` of ``lemma``: ``call.v.1``."""
    return f"{lemma_key(lemma)}.{sense}"


def group_key(lemma: str, group: str) -> str:
    """The key of OntoNotes group ``group`` of ``lemma``: ``call.v.G1``."""
    return f"{lemma_key(lemma)}.G{group}"


def wordnet_key(lemma: str, number: str) -> str:
    """The key of WordNet sense number ``number`` of ``lemma``: ``call.v.WN1``."""
    return f"{lemma_key(lemma)}.WN{number}"


def _unique(edges: Iterable[Edge]) -> list[Edge]:
    return list(dict.fromkeys(edges))


def _read_xml_file(path: Path) -> list[Edge]:
    root = parse(path).getroot()
    if local(root.tag) != "inventory":
        raise InputError(f"expected an <inventory> root, found <{local(root.tag)}>", path,
                         root.sourceline)
    lemma = lemma_key(root.get("lemma") or "")
    if not lemma:
        raise InputError("<inventory> has no lemma", path, root.sourceline)
    pos = lemma.rpartition(".")[2] if "." in lemma else ""
    kinds: dict[str, str] = {}
    first_line: dict[str, int] = {}
    edges: list[Edge] = []

    def node(key: str, kind: str, line: int | None) -> str:
        if kinds.setdefault(key, kind) != kind:
            raise InputError(f"{kind} key {quote(key)} clashes with a {kinds[key]} key", path, line)
        return key

    for sense in root:
        if local(sense.tag) != "sense":
            continue
        n = (sense.get("n") or "").strip()
        if not n:
            raise InputError("<sense> without n", path, sense.sourceline)
        if n in first_line:
            raise InputError(f"duplicate sense n={quote(n)} (first at line {first_line[n]})", path,
                             sense.sourceline)
        first_line[n] = sense.sourceline
        child = node(sense_key(lemma, n), "sense", sense.sourceline)
        for wn in sense.iter():
            if local(wn.tag) != "wn":
                continue
            wn_lemma = lemma_key(wn.get("lemma") or "") or lemma
            if pos and "." not in wn_lemma:
                wn_lemma = f"{wn_lemma}.{pos}"
            for k in (wn.text or "").split(","):
                if k.strip():
                    edges.append((node(wordnet_key(wn_lemma, k.strip()), "WordNet",
                                       wn.sourceline), child))
        group = (sense.get("group") or "").strip()
        if group:
            edges.append((child, node(group_key(lemma, group), "group", sense.sourceline)))
    return edges


def read_xml(paths: str | PathLike | Iterable[str | PathLike]) -> list[Edge]:
    """Edges of one or more OntoNotes inventory files (``<inventory lemma="call-v">``):
    WordNet sense -> OntoNotes sense (from ``<mappings><wn>``) and sense -> group."""
    edges: list[Edge] = []
    problems = Problems()
    for path in as_list(paths):
        with problems.collect():
            edges += _read_xml_file(path)
    problems.check()
    return _unique(edges)


def read_tsv(path: str | PathLike) -> list[Edge]:
    """Edges of a TSV inventory: rows ``sense<TAB>group[<TAB>supergroup...]``, each field the
    parent of the one before. Optional header: ``sense<TAB>group...`` (keys verbatim) or
    ``lemma<TAB>sense<TAB>group...`` (keys prefixed ``<lemma>.``). Blank and ``#`` lines skipped.
    """
    edges: list[Edge] = []
    header_seen = with_lemma = False
    for n, text in numbered_lines(path):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in text.rstrip("\t ").split("\t")]
        if not header_seen:
            header_seen = True
            if fields[0].lower() in ("sense", "lemma"):
                with_lemma = fields[0].lower() == "lemma"
                continue
        chain = fields[1:] if with_lemma else fields
        if len(chain) < 2 or not all(chain) or (with_lemma and not fields[0]):
            raise InputError("expected " + ("a lemma, " if with_lemma else "")
                             + "a sense and at least one group, tab separated, none empty",
                             path, n)
        keys = [sense_key(fields[0], x) for x in chain] if with_lemma else chain
        for child, parent in pairwise(keys):
            if child == parent:
                raise InputError(f"{quote(child)} is its own group", path, n)
            edges.append((child, parent))
    return _unique(edges)


def read(path: str | PathLike) -> list[Edge]:
    """Edges of an inventory file: OntoNotes XML (``.xml``) or TSV (anything else)."""
    return read_xml(path) if Path(path).suffix.lower() == ".xml" else read_tsv(path)


__all__ = ["Edge", "group_key", "lemma_key", "read", "read_tsv", "read_xml", "sense_key",
           "wordnet_key"]
