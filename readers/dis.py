"""RST Discourse Treebank ``.dis`` files: one bracketed constituency tree per document.

A node is ``( Root|Nucleus|Satellite (span FIRST LAST) | (leaf N) (rel2par RELATION)
[(text _!EDU TEXT_!)] CHILDREN... )`` (Carlson, Marcu & Okurowski 2003). EDU leaves carry
``leaf`` numbers 1, 2, … in text order and their ``text``; internal nodes ``span`` and their
children. Each node's ``rel2par`` is its relation to its parent (``span`` for the nucleus of a
mononuclear relation), the labels :class:`corpusagree.model.rst.RSTTree` keeps. Other
attributes (``prom``, ``schema`` in some tools' output) are skipped.

One file per annotator and document: the document is the file name without extension (and
without a second ``.out`` as in RST-DT's ``wsj_0600.out.dis``), the annotator the folder.

References
----------
Carlson, L., Marcu, D. & Okurowski, M. E. (2003). Building a discourse-tagged corpus in the
framework of Rhetorical Structure Theory. In *Current and New Directions in Discourse and
Dialogue*, 85-112.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from os import PathLike
from pathlib import Path

from ..model.errors import InputError
from ..model.io import excerpt, read_text
from ..model.rst import RSTTree, from_brackets
from . import _paths, register
from ._paths import PathsArg
from ._trees import ON_ERROR, read_files

SUFFIXES = (".dis",)
_TOKEN = re.compile(r"_!.*?_!|\(|\)|[^\s()]+", re.DOTALL)
_ROLES = {"Root": "", "Nucleus": "N", "Satellite": "S"}


def sniff(path: str | PathLike) -> bool:
    """True for a .dis file or a folder holding some."""
    return _paths.has_files(path, SUFFIXES)


def document_name(path: Path) -> str:
    """``wsj_0600.out.dis`` -> ``wsj_0600``; ``x.dis`` -> ``x``."""
    return path.stem.removesuffix(".out")


def parse(text: str, path: str | PathLike = "<string>") -> tuple:
    """The bracketing as nested ``(nuclearity, relation, text, line, children)`` tuples (the
    input of :func:`corpusagree.model.rst.from_brackets`).

    Examples
    --------
    >>> parse("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!A_!) )"
    ...       " ( Satellite (leaf 2) (rel2par elaboration) (text _!B_!) ) )")[4][1][:3]
    ('S', 'elaboration', 'B')
    """
    lines = [m.end() for m in re.finditer("\n", text)]
    tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(text)]

    def line(pos: int) -> int:
        return bisect_right(lines, pos) + 1

    def fail(message: str, pos: int) -> InputError:
        return InputError(message, path, line(pos))

    stack: list[dict] = []
    root = None
    leaves = 0
    i = 0
    while i < len(tokens):
        tok, pos = tokens[i]
        if tok == "(":
            head = tokens[i + 1][0] if i + 1 < len(tokens) else ""
            if head in _ROLES:
                if root is not None and not stack:
                    raise fail("text after the end of the tree", pos)
                node = {"nuc": _ROLES[head], "rel": "", "text": None, "line": line(pos),
                        "kids": [], "leaf": None, "span": None, "pos": pos}
                if stack:
                    stack[-1]["kids"].append(node)
                elif head != "Root":
                    raise fail(f"the tree starts with {head}, not Root", pos)
                else:
                    root = node
                stack.append(node)
                i += 2
                continue
            if not stack:
                raise fail(f"expected ( Root, found ( {excerpt(head)}", pos)
            close = i + 1
            while close < len(tokens) and tokens[close][0] != ")":
                if tokens[close][0] == "(":
                    raise fail(f"unexpected ( inside ({excerpt(head)} ...)", tokens[close][1])
                close += 1
            args = [t for t, _ in tokens[i + 2:close]]
            _attribute(stack[-1], head, args, fail, pos)
            i = close + 1
            continue
        if tok == ")":
            if not stack:
                raise fail("unbalanced )", pos)
            node = stack.pop()
            if node["leaf"] is not None:
                leaves += 1
                if node["kids"]:
                    raise fail(f"leaf {node['leaf']} has children", node["pos"])
                if node["leaf"] != leaves:
                    raise fail(f"leaf {node['leaf']} where leaf {leaves} was expected (leaves are "
                               "numbered 1, 2, ... in text order)", node["pos"])
            elif not node["kids"]:
                raise fail("a node with neither (leaf N) nor children", node["pos"])
            i += 1
            continue
        raise fail(f"unexpected {excerpt(tok)}", pos)
    if stack:
        raise InputError(f"{len(stack)} unclosed bracket(s) at the end", path, line(len(text)))
    if root is None:
        raise InputError("no ( Root ...) tree", path, 1)
    return _tuples(root)


def _attribute(node: dict, head: str, args: list[str], fail, pos: int) -> None:
    if head == "leaf":
        if len(args) != 1 or not args[0].isdigit():
            raise fail(f"expected (leaf N), found (leaf {excerpt(' '.join(args))})", pos)
        node["leaf"] = int(args[0])
    elif head == "rel2par":
        if len(args) != 1:
            raise fail(f"expected (rel2par RELATION), found (rel2par "
                       f"{excerpt(' '.join(args))})", pos)
        node["rel"] = args[0]
    elif head == "text":
        raw = " ".join(args)
        if raw.startswith("_!") and raw.endswith("_!") and len(raw) >= 4:
            raw = raw[2:-2]
        node["text"] = " ".join(raw.split())


def _tuples(root: dict) -> tuple:
    """The nested dicts as tuples, without recursion."""
    done: dict[int, tuple] = {}
    order, stack = [], [root]
    while stack:
        n = stack.pop()
        order.append(n)
        stack.extend(n["kids"])
    for n in reversed(order):
        done[id(n)] = (n["nuc"], n["rel"], n["text"], n["line"],
                       [done[id(k)] for k in n["kids"]])
    return done[id(root)]


def read_tree(path: str | PathLike, annotator: str, document: str | None = None) -> RSTTree:
    """The RST tree of one ``.dis`` file."""
    path = Path(path)
    tree = parse(read_text(path), path)
    return from_brackets(tree, document=document or document_name(path), annotator=annotator,
                         path=str(path))


@register("trees", "dis", sniff=sniff,
          summary="RST Discourse Treebank .dis bracketed trees: one folder per annotator",
          options=(ON_ERROR,), defaults={"trees": {"on_error": "skip"}})
def read_trees(paths: PathsArg, annotators: Iterable[str] | None = None,
               on_error: str = "error") -> list[RSTTree]:
    """RST trees from ``.dis`` files or folders of them (one annotator per folder).
    ``on_error="skip"``: a file that is no tree is left out with a one-line warning."""
    return read_files(paths, annotators, SUFFIXES, read_tree, document_name, on_error)


__all__ = ["SUFFIXES", "document_name", "parse", "read_tree", "read_trees", "sniff"]
