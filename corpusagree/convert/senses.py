"""Sense tags → ReliabilityData under a sense-grouping scheme (Artstein & Poesio 2005, §4.4).

Fine-grained sense tagging gives low agreement; groupings of senses (Palmer et al. 2007) raise
it.
The same tags are converted under each scheme, so their agreement can be compared side by side:

* ``fine``: nominal over the senses as tagged. A tag with several senses is one label, the set
  (it agrees only with the same set).
* ``coarse``: each sense replaced by its group(s) in an inventory, nominal. ``level=None``
  (default) takes the top groups (the roots above the sense), so tags given at different levels
  of the inventory (a WordNet sense, or the sense that groups it) meet; ``level=k`` takes the
  groups exactly k steps up (:meth:`SenseInventory.group`).
* ``extended``: es(s), the sense plus its groups up to ``depth`` levels (all by default), a set
  label compared with a set distance (Passonneau by default): es(WN1) = {WN1, LABEL} and
  es(WN3) = {WN3, LABEL} are at distance 2/3, WN1 and LABEL at 1/3 (A&P's *call* example).
  A tag with several senses is the union of their extended senses.
* ``multi``: the set of senses of each tag with a set distance, without extension.

A sense missing from the inventory stays itself (es(s) = {s}) and is counted, never an error.
Items are grouped (for clustered intervals) by lemma, document, or not at all. The scheme's
distance is kept as a name (nominal, or a set distance such as Passonneau's): which distance a
scheme may take is the analysis's check (:mod:`corpusagree.analyses.senses`).
Labels are CSR sets built with :meth:`ReliabilityData.from_sets` (no frozenset per tag), or
plain labels when a nominal scheme gives every tag exactly one sense or group.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..model.corpus import SenseTag
from ..model.data import MISSING, ReliabilityData, SetLabels, ranges
from ..model.errors import InputError, quote
from ..model.senses import SenseInventory

#: scheme → default distance
SCHEMES = {"fine": "nominal", "coarse": "nominal", "extended": "passonneau", "multi": "passonneau"}
#: schemes that need an inventory
WITH_INVENTORY = ("coarse", "extended")
#: schemes whose labels are sets compared with a set distance
SET_SCHEMES = ("extended", "multi")
CLUSTERS = ("lemma", "document", "item")


def _lemma_names(lexemes: list[str | None], pos: list[tuple[str | None, str | None]]
                 ) -> list[str | None]:
    """Each item's lemma group: its lemma, with its part of speech (``english.a``) where the
    lemma comes with several (items of ``english.n`` and ``english.a`` are two groups)."""
    kinds: dict[str | None, set] = {}
    for (lemma, _), lexeme in zip(pos, lexemes, strict=True):
        kinds.setdefault(lemma, set()).add(lexeme)
    return [lexeme if len(kinds[lemma]) > 1 else lemma
            for (lemma, _), lexeme in zip(pos, lexemes, strict=True)]


@dataclass
class SenseTable:
    """Sense tags as integer arrays: tag t is ``coder_of[t]`` on ``item_of[t]`` with senses
    ``sense_names[senses[indptr[t]:indptr[t + 1]]]``; per item its lemma and document."""

    coders: list[str]
    items: list[str]
    coder_of: np.ndarray
    item_of: np.ndarray
    indptr: np.ndarray
    senses: np.ndarray
    sense_names: list[str]
    item_lemma: list[str | None]
    item_document: list[str | None]

    @classmethod
    def from_tags(cls, tags: Iterable[SenseTag]) -> SenseTable:
        """Intern the tags (one pass); a second tag of an annotator on an item, or an item
        given two lemmas or documents, is an :class:`InputError` at the offending tag."""
        coder_ix: dict[str, int] = {}
        item_ix: dict[str, int] = {}
        sense_ix: dict[str, int] = {}
        first: dict[tuple[int, int], SenseTag] = {}
        lemma: list[str | None] = []
        pos: list[tuple[str | None, str | None]] = []  # each item's lemma and part of speech
        document: list[str | None] = []
        coder_of, item_of, sizes, flat = [], [], [], []
        for t in tags:
            c = coder_ix.setdefault(t.annotator, len(coder_ix))
            i = item_ix.setdefault(t.item, len(item_ix))
            if i == len(lemma):
                lemma.append(t.lexeme)
                pos.append((t.lemma, t.pos))
                document.append(t.document)
            if (c, i) in first:
                was = first[c, i]
                raise InputError(f"annotator {quote(t.annotator)} tags item {quote(t.item)} "
                                 f"twice (first "
                                 f"at {was.source}:{was.line})", t.source or None, t.line)
            first[c, i] = t
            for what, seen, value in (("lemma", lemma, t.lexeme), ("document", document,
                                                                    t.document)):
                if value is not None and seen[i] is None:
                    seen[i] = value
                elif value is not None and seen[i] != value:
                    raise InputError(f"item {quote(t.item)} has {what} {quote(value)} here and "
                                     f"{quote(seen[i])} elsewhere", t.source or None, t.line)
            if not t.senses:
                raise InputError(f"empty sense set for item {quote(t.item)}", t.source or None,
                                 t.line)
            coder_of.append(c)
            item_of.append(i)
            sizes.append(len(t.senses))
            flat += [sense_ix.setdefault(s, len(sense_ix)) for s in sorted(t.senses)]
        if not coder_of:
            raise InputError("no sense tags in the input")
        return cls(list(coder_ix), list(item_ix), np.array(coder_of, np.int64),
                   np.array(item_of, np.int64), np.concatenate([[0], np.cumsum(sizes)]),
                   np.array(flat, np.int64), list(sense_ix), _lemma_names(lemma, pos),
                   document)

    @property
    def n_tags(self) -> int:
        return len(self.coder_of)

    @property
    def multi_sense(self) -> int:
        """Tags with more than one sense."""
        return int((np.diff(self.indptr) > 1).sum())

    def occurrences(self) -> np.ndarray:
        """How often each sense is tagged."""
        return np.bincount(self.senses, minlength=len(self.sense_names))

    def item_groups(self, cluster: str) -> tuple[np.ndarray | None, list | None, int]:
        """Group index per item and group names for ``cluster`` (lemma, document, item), and
        the number of items lacking that attribute (grouped together as ``"(none)"``).
        None when no item has the attribute, or for ``item``."""
        if cluster not in CLUSTERS:
            raise InputError(f"cluster must be one of {', '.join(CLUSTERS)}, not {quote(cluster)}")
        if cluster == "item":
            return None, None, 0
        values = self.item_lemma if cluster == "lemma" else self.item_document
        absent = sum(v is None for v in values)
        if absent == len(values):
            return None, None, absent
        names, g = np.unique(np.array(["(none)" if v is None else v for v in values],
                                      dtype=object), return_inverse=True)
        return g.astype(np.int64), [str(n) for n in names], absent


@dataclass
class SenseData:
    """The reliability data of one scheme, with what the conversion could not map."""

    data: ReliabilityData
    scheme: str
    #: the name of the scheme's distance
    distance: str
    inventory: str | None = None
    #: senses not in the inventory → how often they were tagged
    unknown: Counter = field(default_factory=Counter)
    #: items without the clustering attribute (lemma/document), grouped as "(none)"
    ungrouped: int = 0
    #: the scheme's parameters: ``level`` (coarse; "top" or k), ``depth`` (extended)
    options: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return scheme_name(self.scheme, self.inventory)


def scheme_name(scheme: str, inventory: str | None = None) -> str:
    """A scheme's display name: ``fine``, or ``extended [inventory]`` with an inventory."""
    return scheme if inventory is None else f"{scheme} [{inventory}]"


def _sense_map(names: Sequence[str], scheme: str, inventory: SenseInventory | None,
               depth: int | None, level: int | None
               ) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray]:
    """CSR map sense id → element ids under a scheme (one entry per distinct sense), the
    element names, and the mask of senses found in the inventory."""
    import networkx as nx  # imported where used (not by a job's --help)

    if scheme in ("fine", "multi"):
        n = len(names)
        return np.arange(n + 1), np.arange(n), list(names), np.ones(n, bool)
    assert inventory is not None
    graph = inventory.graph
    known = np.array([s in graph for s in names], bool)
    if scheme == "coarse":
        def image(s: str) -> Iterable[str]:
            if level is not None:
                return inventory.group(s, level)
            up = nx.descendants(graph, s) | {s}
            return [g for g in up if graph.out_degree(g) == 0]
    else:
        def image(s: str) -> Iterable[str]:
            return inventory.extend(s, depth)
    elem_ix: dict[str, int] = {}
    indptr, flat = [0], []
    for s, k in zip(names, known, strict=True):
        out = sorted(image(s)) if k else [s]
        flat += [elem_ix.setdefault(e, len(elem_ix)) for e in out]
        indptr.append(len(flat))
    return np.array(indptr, np.int64), np.array(flat, np.int64), list(elem_ix), known


def to_reliability(table: SenseTable, scheme: str = "fine",
                   inventory: SenseInventory | None = None, *, depth: int | None = None,
                   level: int | None = None, distance: str | None = None,
                   cluster: str = "lemma", inventory_name: str | None = None) -> SenseData:
    """The tags of ``table`` as ReliabilityData under ``scheme`` (see the module docstring).

    ``distance`` names the distance that overrides the scheme's default (nominal, or
    Passonneau for set schemes); ``cluster`` sets ``data.groups`` to the items' lemmas
    (default), documents, or none.
    """
    if scheme not in SCHEMES:
        raise InputError(f"unknown scheme {quote(scheme)}; known: {', '.join(SCHEMES)}")
    if scheme in WITH_INVENTORY and inventory is None:
        raise InputError(f"the {scheme} scheme needs a sense inventory")
    m_ptr, m_elem, elem_names, known = _sense_map(table.sense_names, scheme, inventory, depth,
                                                  level)
    # tag t's elements: the concatenated images of its senses (from_sets merges duplicates)
    counts = np.diff(m_ptr)[table.senses]
    flat = m_elem[ranges(m_ptr[table.senses], counts)]
    per_tag = np.bincount(np.repeat(np.arange(table.n_tags), np.diff(table.indptr)),
                          weights=counts, minlength=table.n_tags).astype(np.int64)
    indptr = np.concatenate([[0], np.cumsum(per_tag)])
    codes = np.full((len(table.coders), len(table.items)), MISSING, np.int64)
    codes[table.coder_of, table.item_of] = np.arange(table.n_tags)
    groups, group_names, ungrouped = table.item_groups(cluster)
    if scheme not in SET_SCHEMES and (per_tag == 1).all():
        # one sense (or group) per tag: plain labels, in name order
        used, tag_label = np.unique(flat, return_inverse=True)
        names = np.array(elem_names, dtype=object)[used]
        order = np.argsort(names.astype(str), kind="stable")
        rank = np.empty(len(order), np.int64)
        rank[order] = np.arange(len(order))
        codes[table.coder_of, table.item_of] = rank[tag_label.ravel()]
        data = ReliabilityData(codes, names[order].tolist(), list(table.coders),
                               list(table.items), groups, group_names)
    else:
        data = ReliabilityData.from_sets(codes, indptr, flat, coders=table.coders,
                                         items=table.items, element_names=elem_names,
                                         groups=groups, group_names=group_names)
    occ = table.occurrences()
    unknown = Counter({table.sense_names[s]: int(occ[s]) for s in np.flatnonzero(~known)})
    options = {"coarse": {"level": "top" if level is None else level},
               "extended": {"depth": "all" if depth is None else depth}}.get(scheme, {})
    return SenseData(data, scheme, distance or SCHEMES[scheme],
                     inventory_name if scheme in WITH_INVENTORY else None, unknown, ungrouped,
                     options)


def convert(tags: Iterable[SenseTag], scheme: str = "fine",
            inventory: SenseInventory | None = None, **kwargs) -> SenseData:
    """Shortcut: :func:`to_reliability` of :meth:`SenseTable.from_tags`."""
    return to_reliability(SenseTable.from_tags(tags), scheme, inventory, **kwargs)


def lexfile_inventory(senses: Iterable[str], per_lemma: bool = True) -> SenseInventory:
    """An automatic grouping of WordNet sense keys by lexicographer file.

    ``order%2:30:00::`` → group ``order%2:30`` (``2:30`` with ``per_lemma=False``): the
    synset type and the lexicographer file number. Adjective satellites (type 5) are filed
    with adjectives (type 3), as in WordNet's lexicographer files. Keys that are not WordNet
    sense keys are left out (so they are counted as unknown).
    """
    edges = []
    for key in set(senses):
        lemma, pct, rest = key.partition("%")
        fields = rest.split(":")
        if not (lemma and pct and len(fields) == 5 and fields[0] in ("1", "2", "3", "4", "5")
                and fields[1].isdigit()):
            continue
        ss = "3" if fields[0] == "5" else fields[0]
        group = f"{ss}:{fields[1]}"
        edges.append((key, f"{lemma}%{group}" if per_lemma else group))
    return SenseInventory.from_edges(edges)


def label_text(labels: list | SetLabels, code: int) -> str:
    """A label for display: the sense itself, or ``a+b`` for a set of several."""
    label = labels[code]
    return "+".join(sorted(map(str, label))) if isinstance(label, frozenset) else str(label)


__all__ = ["CLUSTERS", "SCHEMES", "SET_SCHEMES", "WITH_INVENTORY", "SenseData", "SenseTable",
           "convert", "label_text", "lexfile_inventory", "scheme_name", "to_reliability"]
