"""Sense inventories as a networkx DiGraph, and extended senses (Artstein & Poesio 2005, §4.4).

An edge sense → group says the sense belongs to the group (groups may have super-groups).
The extended sense es(s) is the sense plus its ancestors up to ``depth`` levels, so that with a
set distance (Passonneau by default) WN1 vs WN3 under one group is a partial disagreement:
es(WN1) = {WN1, LABEL}, es(WN3) = {WN3, LABEL} → d = 2/3; WN1 vs LABEL → d = 1/3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # networkx is imported where a graph is made or walked
    import networkx as nx


class SenseInventory:
    """Senses and their groups as a DAG: sense → group (→ super-group …).

    An edge sense → group says the sense belongs to the group. The extended sense es(s) is the
    sense plus its ancestors up to a depth, so that under a set distance (Passonneau by default)
    two senses of one group disagree only in part: es(WN1) = {WN1, LABEL}, es(WN3) = {WN3, LABEL}
    → d = 2/3 (Artstein & Poesio 2005, §4.4). Senses asked for that are not in the inventory are
    counted in ``unknown``.

    Parameters
    ----------
    graph : networkx.DiGraph
        Edges child → parent.

    Raises
    ------
    ValueError
        When the graph has a cycle (named).

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta), §4.4.

    Examples
    --------
    >>> from corpusagree.senses import SenseInventory
    >>> inv = SenseInventory.from_mapping({"WN1": "LABEL", "WN3": "LABEL", "WN19": "SEE"})
    >>> inv
    SenseInventory(3 senses, 2 groups)
    >>> sorted(inv.extend("WN1")), sorted(inv.group("WN19"))
    (['LABEL', 'WN1'], ['SEE'])
    """

    def __init__(self, graph: nx.DiGraph) -> None:
        import networkx as nx

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
        """From (child, parent) pairs, e.g. (sense, group) and (group, super-group).

        Parameters
        ----------
        edges : iterable of (str, str)
            (child, parent) pairs: a sense and its group, a group and its super-group.

        Returns
        -------
        SenseInventory

        Raises
        ------
        ValueError
            When the edges make a cycle.

        Examples
        --------
        >>> from corpusagree.senses import SenseInventory
        >>> inv = SenseInventory.from_edges([("WN1", "LABEL"), ("LABEL", "NOUN")])
        >>> sorted(inv.extend("WN1")), sorted(inv.extend("WN1", depth=1))
        (['LABEL', 'NOUN', 'WN1'], ['LABEL', 'WN1'])
        """
        import networkx as nx

        return cls(nx.DiGraph(list(edges)))

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, str | Iterable[str]]) -> SenseInventory:
        """From sense → group (or several groups); chain mappings for more levels.

        Parameters
        ----------
        mapping : mapping of str to str or iterable of str
            Each sense (or group) to its group, or to several groups.

        Returns
        -------
        SenseInventory

        Raises
        ------
        ValueError
            When the mapping makes a cycle.
        """
        import networkx as nx

        g = nx.DiGraph()
        for child, parents in mapping.items():
            g.add_node(child)
            for p in [parents] if isinstance(parents, str) else parents:
                g.add_edge(child, p)
        return cls(g)

    def __contains__(self, sense: str) -> bool:
        return sense in self.graph

    def group(self, sense: str, level: int = 1) -> frozenset:
        """The groups exactly ``level`` steps above a sense.

        Parameters
        ----------
        sense : str
            The sense.
        level : int, default 1
            Steps up (0: the sense itself).

        Returns
        -------
        frozenset
            The groups; the sense itself for an unknown sense (then counted in ``unknown``), or
            where the inventory stops below ``level``.
        """
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
        """es(s): the sense plus its ancestors up to ``depth`` levels.

        Parameters
        ----------
        sense : str
            The sense.
        depth : int, optional
            Levels of ancestors (all when None).

        Returns
        -------
        frozenset
            The extended sense; the sense alone when unknown (then counted in ``unknown``).
        """
        import networkx as nx

        if sense not in self.graph:
            self.unknown[sense] += 1
            return frozenset([sense])
        if depth is None:
            return frozenset(nx.descendants(self.graph, sense)) | {sense}
        reach = nx.single_source_shortest_path_length(self.graph, sense, cutoff=depth)
        return frozenset(reach)

    def extend_set(self, senses: Iterable[str], depth: int | None = None) -> frozenset:
        """The union of the extended senses of several senses (multi-sense tags).

        Parameters
        ----------
        senses : iterable of str
            The senses of one tag.
        depth : int, optional
            Levels of ancestors (all when None).

        Returns
        -------
        frozenset
        """
        out: set = set()
        for s in senses:
            out |= self.extend(s, depth)
        return frozenset(out)


__all__ = ["SenseInventory"]
