"""Binary RST trees: n-ary nodes rewritten as nested binary ones.

Parseval counts depend on the branching, so the binarisation is a convention to state. Here,
as in educe's ``right_mixed`` binarisation that Morey, Muller & Asher (2017, §3) evaluate with:

* a multinuclear node with k > 2 nuclei becomes a right-branching chain
  ``N1 (N2 (… Nk))``; each inserted node is a Nucleus with the multinuclear relation (the
  first nucleus's);
* a nucleus with several satellites (``S N S``, and rs3's nuclei with more satellites) takes
  them from the nearest outwards, those on its left first: ``S1 S2 N S3`` becomes
  ``((S1 (S2 N)) S3)``; each inserted node is a Nucleus labelled ``span``. For ``S N S``
  this is educe's left-branching ``((S N) S)``.

The node that was n-ary keeps its own label; binary nodes and leaves are unchanged.

References
----------
Morey, M., Muller, P. & Asher, N. (2017). How much progress have we made on RST discourse
parsing? A replication study of recent results on the RST-DT. *EMNLP*, 1319-1324.
"""

from __future__ import annotations

import dataclasses

from ...model.errors import InputError
from ...model.rst import SPAN, RSTTree


def binarize(tree: RSTTree) -> RSTTree:
    """``tree`` with every node of more than two children made binary (module docstring);
    ``inserted`` marks the new nodes.

    Raises
    ------
    InputError
        for a node with several nuclei and satellites side by side (no RST reading has one;
        a ``.dis`` file may), naming its element.

    Examples
    --------
    >>> from corpusagree.model.rst import RSTTree
    >>> t = RSTTree("d", "a", ("A", "B", "C"), parent=(3, 3, 3, -1), start=(0, 1, 2, 0),
    ...             end=(1, 2, 3, 3), nuclearity=("N", "N", "N", ""),
    ...             relation=("list", "list", "list", ""))
    >>> b = binarize(t)
    >>> [(b.start[i], b.end[i], b.nuclearity[i], b.relation[i]) for i in range(3, 5)]
    [(0, 3, '', ''), (1, 3, 'N', 'list')]
    >>> b.children(3), b.children(4), b.inserted
    ([0, 4], [1, 2], (False, False, False, False, True))
    """
    kids: dict[int, list[int]] = {}
    for node in range(tree.n_nodes):
        if tree.parent[node] >= 0:
            kids.setdefault(tree.parent[node], []).append(node)
    if all(len(k) <= 2 for k in kids.values()):
        return dataclasses.replace(tree, inserted=(False,) * tree.n_nodes)
    parent, start, end = list(tree.parent), list(tree.start), list(tree.end)
    nuc, rel, element = list(tree.nuclearity), list(tree.relation), list(tree.element)
    inserted = [False] * tree.n_nodes

    def join(left: int, right: int, label: tuple[str, str], at: int) -> int:
        new = len(parent)
        parent.append(-1)
        start.append(start[left])
        end.append(end[right])
        nuc.append(label[0])
        rel.append(label[1])
        element.append(f"{tree.where(at)} (inserted)")
        inserted.append(True)
        parent[left] = parent[right] = new
        return new

    for node, children in kids.items():
        if len(children) <= 2:
            continue
        children.sort(key=start.__getitem__)
        nuclei = [k for k in children if nuc[k] == "N"]
        if len(nuclei) == len(children):  # multinuclear: a right-branching chain
            label = ("N", rel[children[0]])
            steps = [(k, True) for k in reversed(children[:-1])]
            core = children[-1]
        elif len(nuclei) == 1:  # a nucleus and its satellites, nearest first, left side first
            label = ("N", SPAN)
            i = children.index(nuclei[0])
            steps = [(k, True) for k in reversed(children[:i])] + \
                [(k, False) for k in children[i + 1:]]
            core = nuclei[0]
        else:
            raise InputError(f"{tree.where(node)}: {len(nuclei)} nuclei and "
                             f"{len(children) - len(nuclei)} satellites side by side cannot be "
                             "binarised", tree.source or None)
        for j, (k, on_left) in enumerate(steps):
            left, right = (k, core) if on_left else (core, k)
            if j == len(steps) - 1:  # the last step is the n-ary node itself
                parent[left] = parent[right] = node
            else:
                core = join(left, right, label, node)
    return dataclasses.replace(tree, parent=tuple(parent), start=tuple(start), end=tuple(end),
                               nuclearity=tuple(nuc), relation=tuple(rel),
                               element=tuple(element), inserted=tuple(inserted))


__all__ = ["binarize"]
