"""RST ``.rs3`` / ``.rs4`` files (RSTTool, rstWeb): EDUs are the ``<segment>`` elements.

One file per annotator and document: the document is the file name without extension, the
annotator the name of the folder holding the file (RSTmulti: ``data/1/X.rs3`` vs
``data/2/X.rs3``), unless ``paths`` maps annotator names to files or folders. Masses are the
EDU sizes in XML (= document) order, counted in whitespace tokens (``unit="token"``, default) or
in non-whitespace characters (``unit="char"``, robust to annotators who spaced the text
differently). The relation tree is read by the ``trees`` reader, :func:`read_trees`.

All annotators of a document must have the same unit sequence (tokens, or characters). A
document where they differ raises :class:`InputError` naming both files and the first differing
unit; with ``on_mismatch="skip"`` it is left out with a :class:`UserWarning` instead.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from os import PathLike
from pathlib import Path

from ..model.corpus import Segmentation
from ..model.errors import InputError, Problems, quote
from ..model.io import excerpt
from ..model.rst import RS3Element, RSTTree, from_rs3
from . import Option, _paths, _xml, register
from ._paths import PathsArg
from ._segfiles import check_annotators, first_difference
from ._trees import ON_ERROR, read_files

SUFFIXES = (".rs3", ".rs4")


def _files(paths: PathsArg) -> list[tuple[str, Path]]:
    return _paths.annotator_files(paths, SUFFIXES)


def _edus(path: Path, unit: str) -> tuple[list[str], tuple[int, ...]]:
    """The unit sequence of a file and its EDU masses."""
    root = _xml.parse(path).getroot()
    if _xml.local(root.tag) != "rst":
        raise InputError(f"expected an <rst> root element, found <{_xml.local(root.tag)}>",
                         path, root.sourceline)
    units: list[str] = []
    masses = []
    for seg in root.iter():
        if _xml.local(seg.tag) != "segment":
            continue
        tokens = "".join(seg.itertext()).split()
        edu = tokens if unit == "token" else list("".join(tokens))
        if not edu:
            raise InputError(f"segment id={quote(seg.get('id'))} is empty", path, seg.sourceline)
        units.extend(edu)
        masses.append(len(edu))
    if not masses:
        raise InputError("no <segment> elements", path)
    return units, tuple(masses)


def sniff(path: str | PathLike) -> bool:
    """True for an .rs3/.rs4 file or a folder holding some."""
    return _paths.has_files(path, SUFFIXES)


@register("segments", "rs3", sniff=sniff,
          summary="RST .rs3/.rs4 files (RSTTool, rstWeb), EDUs as segments: one folder per "
          "annotator",
          options=(Option("unit", "RST: count EDUs in whitespace tokens or in non-space "
                          "characters (default: token)", choices=("token", "char")),
                   Option("on_mismatch", "RST: a document whose annotators' texts differ is an "
                          "error or is skipped with a warning (default: error)",
                          choices=("error", "skip"))))
def read(paths: PathsArg, annotators: Iterable[str] | None = None, unit: str = "token",
         on_mismatch: str = "error") -> list[Segmentation]:
    """Segmentations from rs3 files or folders of them (one annotator per folder).

    ``annotators`` keeps only those annotators; ``on_mismatch`` is ``"error"`` or ``"skip"``.
    """
    if unit not in ("token", "char"):
        raise InputError(f"unit must be 'token' or 'char', got {quote(unit)}")
    if on_mismatch not in ("error", "skip"):
        raise InputError(f"on_mismatch must be 'error' or 'skip', got {quote(on_mismatch)}")
    keep = None if annotators is None else set(annotators)
    found: set[str] = set()
    docs: dict[str, list[tuple[str, Path, list[str], tuple[int, ...]]]] = {}
    problems = Problems()
    for annotator, path in _files(paths):
        found.add(annotator)
        if keep is not None and annotator not in keep:
            continue
        doc = path.stem
        with problems.collect():
            for other, other_path, _, _ in docs.get(doc, []):
                if other == annotator:
                    raise InputError(f"annotator {quote(annotator)} has document {quote(doc)} "
                                     f"twice (also {other_path})", path)
            docs.setdefault(doc, []).append((annotator, path, *_edus(path, unit)))
    problems.check()
    out: list[Segmentation] = []
    for doc, versions in docs.items():
        _, ref_path, ref_units, _ = versions[0]
        bad = next(((p, u, i) for _, p, u, _ in versions[1:]
                    if (i := first_difference(ref_units, u)) is not None), None)
        if bad is not None:
            path, units, i = bad
            here = excerpt(units[i] if i < len(units) else None)
            there = excerpt(ref_units[i] if i < len(ref_units) else None)
            msg = (f"document {quote(doc)}: {unit} {i + 1} is {here} here but {there} in "
                   f"{ref_path} (annotators must segment the same text)")
            if on_mismatch == "error":
                raise InputError(msg, path)
            warnings.warn(f"{path}: {msg}; document skipped", UserWarning, stacklevel=2)
            continue
        words = ref_units if unit == "token" else None  # characters are no words to show
        out.extend(Segmentation(doc, a, m, unit=unit, source=str(p), tokens=words)
                   for a, p, _, m in versions)
    check_annotators(keep, found, paths)
    return out


# ---- the relation tree ------------------------------------------------------------------------
def read_tree(path: str | PathLike, annotator: str, document: str | None = None) -> RSTTree:
    """The RST tree of one rs3/rs4 file (:func:`corpusagree.model.rst.from_rs3`).

    EDU texts are the segments' text with whitespace runs made one space. Relation names are
    kept as written; the header's ``<rel name type>`` entries say which are multinuclear.
    Secondary edges and signals (rs4) are not read.

    Raises
    ------
    InputError
        naming the file and the element: not an rs3 file, an empty segment, relations that
        form no tree.
    """
    path = Path(path)
    root = _xml.parse(path).getroot()
    if _xml.local(root.tag) != "rst":
        raise InputError(f"expected an <rst> root element, found <{_xml.local(root.tag)}>",
                         path, root.sourceline)
    relations: dict[str, str] = {}
    elements: list[RS3Element] = []
    edus: list[str] = []
    for el in root.iter():
        tag = _xml.local(el.tag) if isinstance(el.tag, str) else ""
        if tag == "rel" and el.get("name") is not None:
            relations.setdefault(el.get("name"), el.get("type") or "rst")
        elif tag in ("segment", "group"):
            ident = el.get("id")
            if ident is None:
                raise InputError(f"<{tag}> without an id", path, el.sourceline)
            kind = "segment" if tag == "segment" else (el.get("type") or "")
            if tag == "group" and kind not in ("span", "multinuc"):
                raise InputError(f"group id={ident}: type={kind!r} (expected span or multinuc)",
                                 path, el.sourceline)
            if tag == "segment":
                text = " ".join("".join(el.itertext()).split())
                if not text:
                    raise InputError(f"segment id={ident} is empty", path, el.sourceline)
                edus.append(text)
            elements.append(RS3Element(ident, kind, el.get("parent") or None,
                                       el.get("relname") or None, el.sourceline))
    if not edus:
        raise InputError("no <segment> elements", path)
    return from_rs3(elements, relations, document=document or path.stem, annotator=annotator,
                    edus=edus, path=str(path))


@register("trees", "rs3", sniff=sniff,
          summary="RST .rs3/.rs4 files (RSTTool, rstWeb): one folder per annotator",
          options=(ON_ERROR,), defaults={"trees": {"on_error": "skip"}})
def read_trees(paths: PathsArg, annotators: Iterable[str] | None = None,
               on_error: str = "error") -> list[RSTTree]:
    """RST trees from rs3/rs4 files or folders of them (one annotator per folder, the document
    the file name without extension, as :func:`read`). ``on_error="skip"``: a file that is no
    tree is left out with a one-line warning, so that the other documents are still compared.
    """
    return read_files(paths, annotators, SUFFIXES, read_tree, lambda p: p.stem, on_error)


__all__ = ["SUFFIXES", "read", "read_tree", "read_trees", "sniff"]
