"""RST trees as constituency trees over EDUs.

An :class:`RSTTree` is one annotator's analysis of one document: leaves are the EDUs, every
internal node covers a contiguous run of them, and every node but the root carries its
nuclearity (``"N"``/``"S"``) and its relation to its parent constituent — the satellite's
relation name, ``"span"`` for the nucleus of a mononuclear relation, the relation name for each
nucleus of a multinuclear one (the labelling of the RST Discourse Treebank's ``rel2par``;
Carlson, Marcu & Okurowski 2003). Nodes are numbered leaves first (node ``i < n`` is EDU
``i``), internal nodes after; the tree is kept as parallel tuples so that statistics can turn
a corpus of trees into arrays at once.

rs3/rs4 files (RSTTool, rstWeb) give every ``<segment>`` and ``<group>`` a ``parent`` and a
``relname``; :func:`from_rs3` turns that dependency-like encoding into constituents as rstWeb
draws them (Zeldes 2016) and as RST-Tace reads them (Wan et al. 2019):

* ``relname="span"``: the element is the nucleus (head) of its parent, a ``span`` group;
* a multinuclear relation (``type="multinuc"`` in the header): the element is one nucleus of
  its parent, a ``multinuc`` group;
* a mononuclear relation (``type="rst"``): the element is a satellite and its parent the
  nucleus.

The constituent of an element is its own content (an EDU; a span group's nucleus constituent;
a multinuc group's nuclei side by side) with the satellites attached to it: when there are
satellites, a new node whose children are the content (``N``, ``span``) and each satellite's
constituent (``S``, its relation), in text order. A span group without satellites adds no node
(rstWeb's unary spans are not constituents). A nucleus with several satellites is one n-ary
node, as the RST-DT's ``S N S`` nodes; binarisation is the statistics' business.

References
----------
Carlson, L., Marcu, D. & Okurowski, M. E. (2003). Building a discourse-tagged corpus in the
framework of Rhetorical Structure Theory. In *Current and New Directions in Discourse and
Dialogue*, 85-112.
Wan, S., Kutschbach, T., Lüdeling, A. & Stede, M. (2019). RST-Tace: a tool for automatic
comparison and evaluation of RST trees. *DISRPT workshop*, 88-96.
Zeldes, A. (2016). rstWeb: a browser-based annotation interface for Rhetorical Structure
Theory and discourse relations. *NAACL-HLT demonstrations*, 1-5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import InputError

#: the relation label of a mononuclear relation's nucleus (RST-DT's ``rel2par span``)
SPAN = "span"


#: the deepest indentation of :meth:`RSTTree.outline` (deeper nodes say their depth)
OUTLINE_DEPTH = 40


@dataclass(frozen=True)
class RSTTree:
    """One annotator's RST constituency tree of one document.

    ``edus``: the EDU texts in order; node ``i < len(edus)`` is EDU ``i``. For every node:
    ``parent`` (-1 for the root), ``start``/``end`` (EDU indices, end exclusive),
    ``nuclearity`` (``"N"``, ``"S"``; ``""`` for the root), ``relation`` (``""`` for the root)
    and ``element``: where it came from (``"segment 4"``, ``"group 12"``, a ``.dis`` line),
    for messages. Children come in text order (see :meth:`children`).

    Examples
    --------
    >>> t = RSTTree("d", "a", ("Mary left,", "because she was tired."),
    ...             parent=(2, 2, -1), start=(0, 1, 0), end=(1, 2, 2),
    ...             nuclearity=("N", "S", ""), relation=("span", "cause", ""))
    >>> t.n_edus, t.root, t.children(2)
    (2, 2, [0, 1])
    """

    document: str
    annotator: str
    edus: tuple[str, ...]
    parent: tuple[int, ...]
    start: tuple[int, ...]
    end: tuple[int, ...]
    nuclearity: tuple[str, ...]
    relation: tuple[str, ...]
    element: tuple[str, ...] = ()
    source: str = ""
    #: element of each EDU in the file (rs3 segment ids), for messages
    edu_elements: tuple[str, ...] = field(default=(), compare=False)
    #: nodes a binarisation inserted (empty: none)
    inserted: tuple[bool, ...] = ()

    @property
    def n_edus(self) -> int:
        return len(self.edus)

    @property
    def n_nodes(self) -> int:
        return len(self.parent)

    @property
    def root(self) -> int:
        return self.parent.index(-1)

    def children(self, node: int) -> list[int]:
        """The children of ``node`` in text order."""
        kids = [i for i, p in enumerate(self.parent) if p == node]
        return sorted(kids, key=self.start.__getitem__)

    def is_inserted(self, node: int) -> bool:
        """Whether a binarisation inserted ``node``."""
        return bool(self.inserted) and self.inserted[node]

    def outline(self, width: int = 40) -> list[str]:
        """The tree as indented lines, one per node: nuclearity, relation and EDUs (with the
        first ``width`` characters of a leaf's text), depth first in text order; a node deeper
        than :data:`OUTLINE_DEPTH` is indented as deep as that, with its depth written out
        (so the outline of any tree is linear in its size).

        Examples
        --------
        >>> t = RSTTree("d", "a", ("Mary left,", "because she was tired."), (2, 2, -1),
        ...             (0, 1, 0), (1, 2, 2), ("N", "S", ""), ("span", "cause", ""))
        >>> for line in t.outline(12):
        ...     print(line)
        1-2
          N span 1 Mary left,
          S cause 2 because she…
        """
        kids: dict[int, list[int]] = {}
        for node, p in enumerate(self.parent):
            if p >= 0:
                kids.setdefault(p, []).append(node)
        out, stack = [], [(self.root, 0)]
        while stack:
            node, depth = stack.pop()
            label = " ".join(x for x in (self.nuclearity[node], self.relation[node]) if x)
            span = _edus(self.start[node], self.end[node])
            if node < self.n_edus:
                text = self.edus[node]
                span += " " + (text if len(text) <= width else text[:width - 1] + "…")
            indent = "  " * depth if depth <= OUTLINE_DEPTH else \
                "  " * OUTLINE_DEPTH + f"[depth {depth}] "
            out.append(indent + (f"{label} {span}" if label else span))
            stack.extend((k, depth + 1) for k in sorted(kids.get(node, []),
                                                        key=self.start.__getitem__,
                                                        reverse=True))
        return out

    def where(self, node: int) -> str:
        """The file element a node came from (for messages)."""
        return self.element[node] if node < len(self.element) else f"node {node}"


@dataclass
class _Builder:
    """Nodes of a tree under construction (see :func:`from_rs3`)."""

    parent: list[int] = field(default_factory=list)
    start: list[int] = field(default_factory=list)
    end: list[int] = field(default_factory=list)
    nuclearity: list[str] = field(default_factory=list)
    relation: list[str] = field(default_factory=list)
    element: list[str] = field(default_factory=list)

    def add(self, start: int, end: int, element: str) -> int:
        self.parent.append(-1)
        self.start.append(start)
        self.end.append(end)
        self.nuclearity.append("")
        self.relation.append("")
        self.element.append(element)
        return len(self.parent) - 1

    def join(self, kids: list[tuple[int, str, str]], element: str, path, line) -> int:
        """A new node over ``kids`` (node, nuclearity, relation), which must be contiguous."""
        kids = sorted(kids, key=lambda k: self.start[k[0]])
        for (a, _, _), (b, _, _) in zip(kids, kids[1:], strict=False):
            if self.end[a] != self.start[b]:
                raise InputError(f"{element}: its constituent is not contiguous (EDUs "
                                 f"{_edus(self.start[a], self.end[a])} and "
                                 f"{_edus(self.start[b], self.end[b])} with EDUs between them "
                                 "outside it)", path, line)
        node = self.add(self.start[kids[0][0]], self.end[kids[-1][0]], element)
        for k, nuc, rel in kids:
            self.parent[k], self.nuclearity[k], self.relation[k] = node, nuc, rel
        return node

    def tree(self, document: str, annotator: str, edus: Sequence[str], source: str,
             edu_elements: Sequence[str] = ()) -> RSTTree:
        return RSTTree(document, annotator, tuple(edus), tuple(self.parent), tuple(self.start),
                       tuple(self.end), tuple(self.nuclearity), tuple(self.relation),
                       tuple(self.element), source, tuple(edu_elements))


def _edus(start: int, end: int) -> str:
    return f"{start + 1}" if end == start + 1 else f"{start + 1}-{end}"


@dataclass(frozen=True)
class RS3Element:
    """One ``<segment>`` or ``<group>`` of an rs3 body: ``kind`` is ``"segment"`` or the group
    type (``"span"``, ``"multinuc"``); ``line`` its line in the file."""

    id: str
    kind: str
    parent: str | None
    relname: str | None
    line: int | None = None

    @property
    def name(self) -> str:
        what = "segment" if self.kind == "segment" else "group"
        return f"{what} id={self.id}"


def from_rs3(elements: Sequence[RS3Element], relations: dict[str, str], *, document: str,
             annotator: str, edus: Sequence[str], path: str = "") -> RSTTree:
    """The constituency tree of an rs3 body (see the module docstring).

    ``elements``: the body's segments (in document order: EDU ``i`` is the ``i``-th segment)
    and groups; ``relations``: relation name -> ``"rst"`` or ``"multinuc"`` from the header
    (a relname found there only in another case takes that entry's type).

    Raises
    ------
    InputError
        naming the file and the element, when the elements form no tree: a ``parent`` that
        does not exist, two roots, a cycle, an undeclared relation, a relation that does not
        fit its parent (a ``span`` child of a segment, a multinuclear relation under a span
        group), a group with nothing in it or a constituent with a gap.

    Examples
    --------
    >>> els = [RS3Element("1", "segment", "3", "span"),
    ...        RS3Element("2", "segment", "1", "cause"),
    ...        RS3Element("3", "span", None, None)]
    >>> t = from_rs3(els, {"cause": "rst"}, document="d", annotator="a", edus=["A", "B"])
    >>> [(t.start[i], t.end[i], t.nuclearity[i], t.relation[i]) for i in range(t.n_nodes)]
    [(0, 1, 'N', 'span'), (1, 2, 'S', 'cause'), (0, 2, '', '')]
    """
    by_id: dict[str, RS3Element] = {}
    for el in elements:
        if el.id in by_id:
            raise InputError(f"{el.name}: duplicate id (first on line {by_id[el.id].line})",
                             path, el.line)
        by_id[el.id] = el
    kids: dict[str, list[RS3Element]] = {}
    roots = []
    for el in elements:
        if el.parent is None:
            roots.append(el)
        elif el.parent not in by_id:
            raise InputError(f"{el.name}: parent={el.parent} does not exist", path, el.line)
        else:
            kids.setdefault(el.parent, []).append(el)
    order = _reachable(roots, by_id, kids, path)
    types = {**{k.lower(): v for k, v in relations.items()}, **relations}
    role = {el.id: _role(el, by_id, types, path) for el in elements if el.parent}
    segments = [el for el in elements if el.kind == "segment"]
    b = _Builder()
    leaf = {el.id: b.add(i, i + 1, el.name) for i, el in enumerate(segments)}
    constituent: dict[str, int] = {}
    for el in reversed(order):  # children before parents
        mine = kids.get(el.id, [])
        heads = [k for k in mine if role[k.id] == "span"]
        nuclei = [k for k in mine if role[k.id] == "multinuc"]
        satellites = [k for k in mine if role[k.id] == "rst"]
        if el.kind == "segment":
            content = leaf[el.id]
        elif el.kind == "span":
            if len(heads) != 1:
                raise InputError(f"{el.name}: a span group has one child with relname=\"span\" "
                                 f"(its nucleus), this one has {len(heads)}", path, el.line)
            content = constituent[heads[0].id]
        else:
            if not nuclei:
                raise InputError(f"{el.name}: a multinuc group without nuclei (children with "
                                 "a multinuclear relation)", path, el.line)
            content = (constituent[nuclei[0].id] if len(nuclei) == 1 else
                       b.join([(constituent[k.id], "N", k.relname or "") for k in nuclei],
                              el.name, path, el.line))
        if satellites:
            content = b.join([(content, "N", SPAN)]
                             + [(constituent[k.id], "S", k.relname or "") for k in satellites],
                             el.name, path, el.line)
        constituent[el.id] = content
    return b.tree(document, annotator, edus, path, [el.id for el in segments])


def _reachable(roots: list[RS3Element], by_id: dict[str, RS3Element],
               kids: dict[str, list[RS3Element]], path: str) -> list[RS3Element]:
    """The elements from the one root down, parents before children; two roots or an element
    the root does not reach (a cycle: every element has an existing parent) is an error."""
    if not by_id:
        raise InputError("no <segment> or <group> elements", path)
    if len(roots) > 1:
        first, second = roots[:2]
        raise InputError(f"{second.name} has no parent, like {first.name} (line {first.line}): "
                         f"two roots, the relations form no single tree ({len(roots)} elements "
                         "without a parent)", path, second.line)
    order = list(roots)
    for el in order:
        order.extend(kids.get(el.id, []))
    if len(order) < len(by_id):
        seen = {el.id for el in order}
        stray = next(el for el in by_id.values() if el.id not in seen)
        cycle, at = [], stray
        while at.id not in cycle:
            cycle.append(at.id)
            at = by_id[at.parent]  # type: ignore[index]
        loop = cycle[cycle.index(at.id):] + [at.id]
        raise InputError(f"{by_id[loop[0]].name}: the parent attributes form a cycle "
                         f"({' -> '.join(loop)})" + ("" if roots else "; no element is the root"),
                         path, by_id[loop[0]].line)
    return order


def _role(el: RS3Element, by_id: dict[str, RS3Element], relations: dict[str, str],
          path: str) -> str:
    """``"span"``, ``"multinuc"`` or ``"rst"``: what ``el`` is to its parent."""
    parent = by_id[el.parent]  # type: ignore[index]
    rel = el.relname
    if not rel:
        raise InputError(f"{el.name}: parent={el.parent} but no relname", path, el.line)
    kind = "span" if rel == SPAN else relations.get(rel, relations.get(rel.lower()))
    if kind is None:
        raise InputError(f"{el.name}: relname={rel!r} is not declared in the header's "
                         "<relations>", path, el.line)
    if kind == "span" and parent.kind != "span":
        raise InputError(f"{el.name}: relname=\"span\" under {parent.name}, which is not a span "
                         "group", path, el.line)
    if kind == "multinuc" and parent.kind != "multinuc":
        raise InputError(f"{el.name}: multinuclear relation {rel!r} under {parent.name}, "
                         "which is not a multinuc group", path, el.line)
    if kind not in ("span", "multinuc", "rst"):
        raise InputError(f"relation {rel!r} has type {kind!r} in the header (expected rst or "
                         "multinuc)", path, el.line)
    return kind


def from_brackets(node: tuple, *, document: str, annotator: str, path: str = "") -> RSTTree:
    """The tree of a parsed RST-DT ``.dis`` bracketing.

    ``node`` is ``(nuclearity, relation, text, line, children)``: ``"N"``/``"S"`` (``""`` at
    the root), the ``rel2par`` relation, the EDU text of a leaf (a node without children), the
    node's line in the file and its children in text order (the ``.dis`` reader builds it).
    Unary internal nodes are collapsed into their child, which takes their label.

    Examples
    --------
    >>> leaf = lambda nuc, rel, text: (nuc, rel, text, 1, [])
    >>> t = from_brackets(("", "", None, 1, [leaf("N", "span", "A"),
    ...                                      leaf("S", "elaboration", "B")]),
    ...                   document="d", annotator="a")
    >>> t.edus, t.relation
    (('A', 'B'), ('span', 'elaboration', ''))
    """
    b = _Builder()
    edus: list[str] = []
    leaves: list[tuple] = []
    stack = [node]
    while stack:  # leaves in text order, without recursion
        n = stack.pop()
        if n[4]:
            stack.extend(reversed(n[4]))
        else:
            leaves.append(n)
    for n in leaves:
        b.add(len(edus), len(edus) + 1, f"line {n[3]}")
        edus.append(n[2] or "")
    index = {id(n): i for i, n in enumerate(leaves)}
    post: list[tuple] = []
    stack = [node]
    while stack:
        n = stack.pop()
        post.append(n)
        stack.extend(n[4])
    for n in reversed(post):  # children before parents
        if not n[4]:
            continue
        parts = [(index[id(k)], k[0], k[1]) for k in n[4]]
        index[id(n)] = (parts[0][0] if len(parts) == 1 else
                        b.join(parts, f"line {n[3]}", path, n[3]))
        if len(parts) == 1:  # a unary node: its child takes its place and its label
            b.nuclearity[parts[0][0]], b.relation[parts[0][0]] = n[0], n[1]
    root = index[id(node)]
    b.nuclearity[root] = b.relation[root] = ""
    return b.tree(document, annotator, edus, path)


__all__ = ["SPAN", "RS3Element", "RSTTree", "from_brackets", "from_rs3"]
