"""Relation labels as compared: as written, lower-cased, or mapped to classes.

Annotators of one project write the same relation in different cases (``Elaboration`` beside
``elaboration``; RST-Tace lower-cases every name, Wan et al. 2019), and evaluations on the
RST-DT map its 78 relation names to 18 classes (Carlson, Marcu & Okurowski 2003, Table 2;
Morey et al. 2017 evaluate on these). A mapping is applied to every relation label of every
tree before any comparison; ``span``, the nucleus of a mononuclear relation, is never mapped.

References
----------
Carlson, L., Marcu, D. & Okurowski, M. E. (2003). Building a discourse-tagged corpus in the
framework of Rhetorical Structure Theory. In *Current and New Directions in Discourse and
Dialogue*, 85-112.
Wan, S., Kutschbach, T., Lüdeling, A. & Stede, M. (2019). RST-Tace: a tool for automatic
comparison and evaluation of RST trees. *DISRPT workshop*, 88-96.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from ...model.rst import SPAN, RSTTree

#: the named conventions; a mapping (label -> class) is the third
CONVENTIONS = ("as-written", "lower")


def relabel(trees: Sequence[RSTTree], mapping: str | Mapping[str, str] = "as-written"
            ) -> tuple[list[RSTTree], list[str]]:
    """``(trees, unmapped)``: the trees with every relation label mapped, and the labels a
    mapping did not list (kept as written, lower-cased; a mapping's keys are compared
    lower-cased too).

    Examples
    --------
    >>> from corpusagree.model.rst import RSTTree
    >>> t = RSTTree("d", "a", ("A", "B"), (2, 2, -1), (0, 1, 0), (1, 2, 2), ("N", "S", ""),
    ...             ("span", "Elaboration", ""))
    >>> relabel([t], "lower")[0][0].relation
    ('span', 'elaboration', '')
    >>> trees, unmapped = relabel([t], {"elaboration": "Elaboration-class"})
    >>> trees[0].relation, unmapped
    (('span', 'Elaboration-class', ''), [])
    """
    if isinstance(mapping, str):
        if mapping not in CONVENTIONS:
            raise ValueError(f"relation labels: one of {', '.join(CONVENTIONS)} or a mapping, "
                             f"not {mapping!r}")
        if mapping == "as-written":
            return list(trees), []
        table: dict[str, str] = {}
        convert = str.lower
    else:
        table = {str(k).lower(): str(v) for k, v in mapping.items()}
        convert = None
    names = sorted({r for t in trees for r in t.relation if r and r != SPAN})
    new: dict[str, str] = {}
    unmapped = []
    for name in names:
        if convert is not None:
            new[name] = convert(name)
        elif name.lower() in table:
            new[name] = table[name.lower()]
        else:
            new[name] = name.lower()
            unmapped.append(name)
    out = [dataclasses.replace(t, relation=tuple(new.get(r, r) for r in t.relation))
           for t in trees]
    return out, unmapped
