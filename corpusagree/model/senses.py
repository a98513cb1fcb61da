"""Sense inventories as a networkx DiGraph, and extended senses (Artstein & Poesio 2005, §4.4).

An edge sense → group says the sense belongs to the group (groups may have super-groups).
The extended sense es(s) is the sense plus its ancestors up to ``depth`` levels, so that with a
set distance (Passonneau by default) WN1 vs WN3 under one group is a partial disagreement:
es(WN1) = {WN1, LABEL}, es(WN3) = {WN3, LABEL} → d = 2/3; WN1 vs LABEL → d = 1/3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

import networkx as nx


class SenseInventory:
    """Sense → group (→ super-group …) edges as a DAG; unknown senses are counted."""

    def __init__(self, graph: nx.DiGraph) -> None:
        if not nx.is_directed_acyclic_graph(graph):
            cycle = nx.find_cycle(graph)
            raise ValueError("sense inventory has a cycle: " +
                             " → ".join(str(a) for a, _ in cycle) + f" → {cycle[0][0]}")
        self.graph = graph
        #: senses asked for that are not in the inventory, with counts
        self.unknown: Counter = Counter()

    def __repr__(self) -> str:
        g = self.graph
        groups = sum(1 for n in g if g.in_degree(n) > 0)
        return f"SenseInventory({g.number_of_nodes() - groups} senses, {groups} groups)"

    @classmethod
    def from_edges(cls, edges: Iterable[tuple[str, str]]) -> SenseInventory:
        """From (child, parent) pairs, e.g. (sense, group) and (group, super-group)."""
        return cls(nx.DiGraph(list(edges)))

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, str | Iterable[str]]) -> SenseInventory:
        """From sense → group (or several groups); chain mappings for more levels."""
        g = nx.DiGraph()
        for child, parents in mapping.items():
            g.add_node(child)
            for p in [parents] if isinstance(parents, str) else parents:
                g.add_edge(child, p)
        return cls(g)

    def __contains__(self, sense: str) -> bool:
        return sense in self.graph

    def group(self, sense: str, level: int = 1) -> frozenset:
        """The groups exactly ``level`` steps above a sense (itself for level 0 or unknown)."""
        if sense not in self.graph:
            self.unknown[sense] += 1
            return frozenset([sense])
        layer = {sense}
        for _ in range(level):
            nxt = {p for s in layer for p in self.graph.successors(s)}
            if not nxt:
                break
            layer = nxt
        return frozenset(layer)

    def extend(self, sense: str, depth: int | None = None) -> frozenset:
        """es(s): the sense plus its ancestors up to ``depth`` levels (all when None)."""
        if sense not in self.graph:
            self.unknown[sense] += 1
            return frozenset([sense])
        if depth is None:
            return frozenset(nx.descendants(self.graph, sense)) | {sense}
        reach = nx.single_source_shortest_path_length(self.graph, sense, cutoff=depth)
        return frozenset(reach)

    def extend_set(self, senses: Iterable[str], depth: int | None = None) -> frozenset:
        """The union of the extended senses of several senses (multi-sense tags)."""
        out: set = set()
        for s in senses:
            out |= self.extend(s, depth)
        return frozenset(out)
