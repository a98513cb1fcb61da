"""Relation labels as compared: as written, lower-cased, or mapped to classes.

Annotators of one project write the same relation in different cases (``Elaboration`` beside
``elaboration``; RST-Tace lower-cases every name, Wan et al. 2019), and evaluations on the
RST-DT map its 78 relation names to 18 classes (Carlson, Marcu & Okurowski 2003, Table 2;
Morey et al. 2017 evaluate on these: ``"rstdt18"``). A mapping file (two columns, relation and
class) is read by :func:`corpusagree.readers.relation_map.read_mapping`. A mapping is applied
to every relation label of every tree before any comparison; ``span``, the nucleus of a
mononuclear relation, is never mapped.

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

#: the named conventions; a mapping (label -> class) is the fourth
CONVENTIONS = ("as-written", "lower", "rstdt18")

#: the RST-DT's relations by class (Carlson, Marcu & Okurowski 2003, Table 2: 78 relations in
#: 16 classes, with Same-Unit and Textual-Organization the 18 labels parsers are evaluated on)
RSTDT_CLASSES = {
    "Attribution": ("attribution", "attribution-negative"),
    "Background": ("background", "circumstance"),
    "Cause": ("cause", "result", "consequence"),
    "Comparison": ("comparison", "preference", "analogy", "proportion"),
    "Condition": ("condition", "hypothetical", "contingency", "otherwise"),
    "Contrast": ("contrast", "concession", "antithesis"),
    "Elaboration": ("elaboration-additional", "elaboration-general-specific",
                    "elaboration-part-whole", "elaboration-process-step",
                    "elaboration-object-attribute", "elaboration-set-member", "example",
                    "definition"),
    "Enablement": ("purpose", "enablement"),
    "Evaluation": ("evaluation", "interpretation", "conclusion", "comment"),
    "Explanation": ("evidence", "explanation-argumentative", "reason"),
    "Joint": ("list", "disjunction"),
    "Manner-Means": ("manner", "means"),
    "Topic-Comment": ("problem-solution", "question-answer", "statement-response",
                      "topic-comment", "comment-topic", "rhetorical-question"),
    "Summary": ("summary", "restatement"),
    "Temporal": ("temporal-before", "temporal-after", "temporal-same-time", "sequence",
                 "inverted-sequence"),
    "Topic-Change": ("topic-shift", "topic-drift"),
    "Same-Unit": ("same-unit",),
    "Textual-Organization": ("textualorganization",),
}
_RSTDT = {rel: cls for cls, rels in RSTDT_CLASSES.items() for rel in rels}


def rstdt_class(label: str) -> str | None:
    """The RST-DT class of a relation as the RST-DT writes it: case aside, without the
    embedded-relation ``-e`` and the ``-n``/``-s`` of relations whose nucleus side is marked
    (``Elaboration-additional-e``, ``Consequence-n``); None when it is no RST-DT relation.

    Examples
    --------
    >>> rstdt_class("elaboration-additional-e"), rstdt_class("Consequence-N"), rstdt_class("x")
    ('Elaboration', 'Cause', None)
    """
    name = label.lower()
    for cut in ("", "-e"):
        base = name.removesuffix(cut)
        for side in ("", "-n", "-s"):
            found = _RSTDT.get(base.removesuffix(side) if side else base)
            if found is not None:
                return found
    return None


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
        convert = str.lower if mapping == "lower" else rstdt_class
    else:
        table = {str(k).lower(): str(v) for k, v in mapping.items()}
        convert = None
    names = sorted({r for t in trees for r in t.relation if r and r != SPAN})
    new: dict[str, str] = {}
    unmapped = []
    for name in names:
        if convert is not None:
            new[name] = convert(name) or name.lower()
            if new[name] != convert(name):
                unmapped.append(name)
        elif name.lower() in table:
            new[name] = table[name.lower()]
        else:
            new[name] = name.lower()
            unmapped.append(name)
    out = [dataclasses.replace(t, relation=tuple(new.get(r, r) for r in t.relation))
           for t in trees]
    return out, unmapped


__all__ = ["CONVENTIONS", "RSTDT_CLASSES", "relabel", "rstdt_class"]
