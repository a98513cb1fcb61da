"""Senseval-2/3 lexical sample XML (``corpus/lexelt/instance``) with per-annotator answer files.

Answer lines are ``lexelt instance_id sense [sense ...]``; ``sense/weight`` loses its weight and
``!! comment`` is ignored, as in the Senseval scorer. Special tags (``U``, ``P``) stay senses.
The ``<answer>`` elements of the XML are ignored: they are an unattributed union of taggers.
The original pseudo-XML releases must be cleaned to well-formed XML first.
Item = instance id, lemma = lexelt ``item``, document = instance ``docsrc``.
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from ..model.corpus import SenseTag
from ..model.errors import InputError, Problems, quote
from . import _paths, register
from ._sensefiles import (
    Instance,
    KeyLine,
    annotator_names,
    data_and_keys,
    instance_id,
    key_tags,
    read_key_file,
)
from ._xml import local, parse


def instances(data_xml: str | PathLike) -> dict[str, Instance]:
    """Instance id -> its lexelt item, docsrc and ``<context>`` (split at its ``<head>``) of a
    lexical sample file."""
    root = parse(data_xml).getroot()
    if local(root.tag) != "corpus":
        raise InputError(f"expected a <corpus> root, found <{local(root.tag)}>", data_xml,
                         root.sourceline)
    lexelts = [el for el in root if local(el.tag) == "lexelt"]
    if not lexelts:
        raise InputError("no <lexelt> in <corpus>: not a lexical sample file", data_xml,
                         root.sourceline)
    out: dict[str, Instance] = {}
    for lexelt in lexelts:
        for el in lexelt:
            if local(el.tag) != "instance":
                continue
            out[instance_id(el, out, data_xml)] = Instance(lexelt.get("item"), el.get("docsrc"),
                                                           _context(el))
    return out


def _context(instance) -> tuple[str, str, str] | None:
    """The text of an instance's ``<context>`` before, in and after its ``<head>`` (a child of
    the context, as Senseval writes it); None without one."""
    # "{*}": the first child element of that local name in any namespace or none, as local()
    # compares names, found by lxml rather than a Python loop over the children
    context = instance.find("{*}context")
    if context is None:
        return None
    head = context.find("{*}head")
    if head is None:
        return None
    if len(context) == 1 and len(head) == 0:  # most contexts: text, then a head of text alone
        return tuple(" ".join(x.split()) for x in (context.text or "", head.text or "",
                                                    head.tail or ""))
    children = list(context)
    at = children.index(head)

    def text(nodes) -> str:  # comments, instructions and entity references add their tail
        return "".join(("".join(n.itertext()) if isinstance(n.tag, str) else "")
                       + (n.tail or "") for n in nodes)

    head = children[at]
    parts = ((context.text or "") + text(children[:at]), "".join(head.itertext()),
             (head.tail or "") + text(children[at + 1:]))
    return tuple(" ".join(x.split()) for x in parts)


def _unweighted(sense: str) -> str:
    base, slash, weight = sense.rpartition("/")
    if not slash:
        return sense
    try:
        float(weight)
    except ValueError:
        return sense
    return base


def read(data_xml: str | PathLike, answer_files: str | PathLike | Sequence[str | PathLike],
         annotators: Sequence[str] | None = None) -> list[SenseTag]:
    """One SenseTag per annotator and answered instance (annotators named as in Raganato)."""
    paths = _paths.as_list(answer_files)
    names = annotator_names(paths, annotators)
    known = instances(data_xml)
    tags: list[SenseTag] = []
    problems = Problems()
    for path, name in zip(paths, names, strict=True):
        with problems.collect():
            keys = read_key_file(path, known, n_ids=2, comment="!!", problems=problems)
            for inst, k in keys.items():
                if k.ids[0] != known[inst].lemma:
                    problems.add(InputError(f"instance {quote(inst)} belongs to lexelt "
                                            f"{quote(known[inst].lemma)}, not "
                                            f"{quote(k.ids[0])}", path, k.line))
                keys[inst] = KeyLine(k.ids, tuple(_unweighted(s) for s in k.senses), k.line)
            tags += key_tags(path, name, keys, known)
    problems.check()
    return tags


def sniff(path: str | PathLike) -> bool:
    """True for an XML file whose head has a ``<lexelt>``."""
    try:
        with Path(path).open("rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return b"<lexelt" in head


@register("senses", "senseval", layout="paired", sniff=sniff,
          summary="Senseval-2/3 lexical sample XML, then one answer file per annotator (or a "
          "folder of them)")
def read_paths(paths: Sequence[Path], annotators: Sequence[str] | None = None) -> list[SenseTag]:
    """:func:`read` with the data XML as the first path and the answer files (or folders of
    them) as the other paths."""
    data_xml, keys = data_and_keys(paths, "senseval")
    return read(data_xml, keys, annotators)


__all__ = ["instances", "read", "read_paths", "sniff"]
