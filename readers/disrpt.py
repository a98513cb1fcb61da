"""DISRPT segmentation files (``.tok``, ``.conllu``; ``.conll`` in 2019): 10 tab-separated
CoNLL-U columns, the segmentation in the MISC column (Zeldes et al. 2019; Braud et al. 2023).

A token starts an EDU when its MISC column holds ``BeginSeg=Yes`` (2019-2021 releases),
``Seg=B-seg`` (2023-2025; GUM's own export writes ``Seg=B-Seg``: labels are compared
case-insensitively, key by key, so ``MSeg=…`` is not ``Seg=…``); ``Seg=O``, ``Seg=I-seg`` or no
label continue it. The first token of a document always starts one. A document with no
segment-begin label at all is read as one segment, with a warning. Connective files (PDTB-style
corpora, ``*.pdtb.*``: ``Seg=B-Conn``/``Seg=I-Conn``, ``Conn=B-conn``/``Conn=I-conn``/``Conn=O``)
mark connective spans, not a segmentation, and are an error.

Documents start at ``# newdoc id = X`` (or ``# newdoc_id = X``); tokens before any such comment
belong to a document named after the file. Multiword-token ranges (``3-4``) and empty nodes
(``5.1``) are skipped. Masses are EDU sizes in tokens.

One file per annotator: the annotator is the name of the folder holding the file, unless
``paths`` maps annotator names to files or folders. Every annotator of a document must have the
same word forms, else :class:`InputError` names the file and the first differing token.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from os import PathLike
from pathlib import Path

from ..model.corpus import Document, Link, Mention, Segmentation
from ..model.errors import InputError, Problems, clip, quote
from ..model.io import excerpt, read_text
from ..model.relations import RelationAnnotation
from . import _paths, register
from ._paths import PathsArg
from ._segfiles import check_annotators, first_difference

SUFFIXES = (".tok", ".conllu", ".conll")
#: MISC labels (key, value), lower case, that start a segment
BEGIN = {("beginseg", "yes"), ("seg", "b-seg")}
#: MISC labels that continue one
INSIDE = {("seg", "o"), ("seg", "i-seg")}
#: MISC labels of connective spans (PDTB-style corpora)
CONNECTIVE = {("seg", "b-conn"), ("seg", "i-conn"), ("conn", "b-conn"), ("conn", "i-conn"),
              ("conn", "o")}
_NEWDOC = re.compile(r"#\s*newdoc[ _]id\s*=\s*(.*\S)")
_LABEL = re.compile(r"(?:^|\|)(?:BeginSeg|Seg|Conn)=", re.IGNORECASE)


def _files(paths: PathsArg) -> list[tuple[str, Path]]:
    return _paths.annotator_files(paths, SUFFIXES)


class _Doc:
    """Word forms and EDU masses of one document in one file."""

    def __init__(self, name: str, line: int) -> None:
        self.name, self.line = name, line
        self.forms: list[str] = []
        self.masses: list[int] = []
        self.labelled = False
        self.broken = False  # a line of it has a problem: the document is not read

    def add(self, form: str, begins: bool) -> None:
        if begins or not self.masses:
            self.masses.append(0)
        self.masses[-1] += 1
        self.forms.append(form)
        self.labelled = self.labelled or begins


class _NotSegmentation(InputError):
    """A connective label: the file is no segmentation (an error of the whole file)."""


def _begins(misc: str, path: Path, line: int) -> bool:
    """Whether a token's MISC column starts a segment; a connective label or an unknown value
    of a segmentation key is an InputError."""
    begins = False
    for part in misc.split("|"):
        key, eq, value = part.partition("=")
        pair = (key.strip().lower(), value.strip().lower())
        if not eq or pair[0] not in ("beginseg", "seg", "conn"):
            continue
        if pair in CONNECTIVE:
            raise _NotSegmentation(f"{clip(part)} marks a discourse connective: this is a DISRPT "
                                   "connective file (PDTB-style), whose spans are not a "
                                   "segmentation; give the EDU segmentation files (BeginSeg=Yes "
                                   "or Seg=B-seg)", path, line)
        if pair in BEGIN:
            begins = True
        elif pair not in INSIDE:
            raise InputError(f"unknown segment label {quote(part)} (known: BeginSeg=Yes, "
                             f"Seg=B-seg, "
                             "Seg=I-seg, Seg=O)", path, line)
    return begins


def _parse(path: Path, problems: Problems) -> list[_Doc]:
    """The documents of a file; each line with a problem is one (its document not read)."""
    text = read_text(path)
    docs = [_Doc(path.stem, 1)]
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            m = _NEWDOC.match(line)
            if m:
                docs.append(_Doc(m.group(1), lineno))
            continue
        if not line.strip():
            continue
        try:
            cols = line.split("\t")
            if len(cols) != 10:
                raise InputError(f"expected 10 tab-separated columns, found {len(cols)}",
                                 path, lineno)
            if "-" in cols[0] or "." in cols[0]:
                continue
            if not cols[0].isdigit():
                raise InputError(f"token id {quote(cols[0])} is not an integer", path, lineno)
            docs[-1].add(cols[1], _begins(cols[9], path, lineno))
        except _NotSegmentation:
            raise
        except InputError as e:
            problems.add(e)
            docs[-1].broken = True
    docs = [d for d in docs if d.forms and not d.broken]
    unlabelled = [d for d in docs if not d.labelled]
    if unlabelled and ".pdtb" in path.name.lower():
        raise InputError("no segment label (BeginSeg=Yes, Seg=B-seg): a DISRPT .pdtb file marks "
                         "discourse connectives, not a segmentation; give the EDU segmentation "
                         "files", path)
    if unlabelled:
        some = ", ".join(quote(d.name) for d in unlabelled[:3])
        warnings.warn(f"{path}: {len(unlabelled)} of {len(docs)} document(s) ({some}"
                      f"{', …' if len(unlabelled) > 3 else ''}) have no segment-begin label "
                      "(BeginSeg=Yes or Seg=B-seg in the MISC column); each was read as one "
                      "segment", UserWarning, stacklevel=3)
    return docs


def sniff(path: str | PathLike) -> bool:
    """True for a .tok file, a .conllu/.conll file whose head has a DISRPT label in its last
    column (``BeginSeg=``, ``Seg=``, ``Conn=``), or a folder whose first such file is one."""
    head = _paths.head(path, SUFFIXES)
    if head is None:
        return False
    p = Path(path)
    first = p if p.is_file() else _paths.files(p, SUFFIXES)[0]
    if first.name.lower().endswith(".tok"):
        return True
    return any(len(cols := line.split("\t")) == 10 and _LABEL.search(cols[9])
               for line in head.splitlines()[:2000])


@register("segments", "disrpt", sniff=sniff,
          summary="DISRPT .tok/.conllu/.conll files (BeginSeg=Yes or Seg=B-seg in MISC; Zeldes "
          "et al. 2019): one folder per annotator")
def read(paths: PathsArg, annotators: Iterable[str] | None = None) -> list[Segmentation]:
    """Segmentations from DISRPT files or folders of them (one annotator per folder).

    ``annotators`` keeps only those annotators.
    """
    keep = None if annotators is None else set(annotators)
    found: set[str] = set()
    first: dict[str, tuple[Path, _Doc]] = {}
    seen: set[tuple[str, str]] = set()
    out: list[Segmentation] = []
    problems = Problems()
    for annotator, path in _files(paths):
        found.add(annotator)
        if keep is not None and annotator not in keep:
            continue
        docs: list[_Doc] = []
        with problems.collect():
            docs = _parse(path, problems)
        for doc in docs:
            with problems.collect():
                if (doc.name, annotator) in seen:
                    raise InputError(f"annotator {quote(annotator)} has document "
                                     f"{quote(doc.name)} twice", path, doc.line)
                seen.add((doc.name, annotator))
                ref_path, ref = first.setdefault(doc.name, (path, doc))
                i = first_difference(ref.forms, doc.forms)
                if i is not None:
                    here = excerpt(doc.forms[i] if i < len(doc.forms) else None)
                    there = excerpt(ref.forms[i] if i < len(ref.forms) else None)
                    raise InputError(f"document {quote(doc.name)}: token {i + 1} is {here} here "
                                     f"but {there} in {ref_path} (annotators must segment the "
                                     "same tokens)", path, doc.line)
                out.append(Segmentation(doc.name, annotator, tuple(doc.masses), unit="token",
                                        source=str(path), tokens=ref.forms))
    problems.check()
    check_annotators(keep, found, paths)
    return out


# ---- relation files (the relations job) ---------------------------------------------------------
RELS = (".rels",)
_RANGE = re.compile(r"\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*")


def sniff_rels(path: str | PathLike) -> bool:
    """True for a DISRPT ``.rels`` file or a folder holding some."""
    return _paths.has_files(path, RELS)


#: the largest token number a .rels range may name (beyond it: a damaged file)
MAX_TOKEN = 2**31 - 1


def _fragments(spec: str, path: Path, line: int) -> tuple[tuple[int, int], ...]:
    """``1-5,8`` (1-based, inclusive) -> ((0, 5), (7, 8))."""
    if not _RANGE.fullmatch(spec):
        raise InputError(f"expected token ranges such as 1-5,8-10, got {excerpt(spec)}", path,
                         line)
    out = []
    for part in spec.split(","):
        first, _, last = part.partition("-")
        a, b = int(first), int(last or first)
        if a < 1 or b < a:
            raise InputError(f"token range {part!r} is empty or starts before token 1", path,
                             line)
        if b > MAX_TOKEN:
            raise InputError(f"token range {excerpt(part)} goes past token {MAX_TOKEN:,} "
                             "(no document has so many tokens)", path, line)
        out.append((a - 1, b))
    return tuple(sorted(out))


@register("relations", "disrpt", sniff=sniff_rels,
          summary="DISRPT .rels files (relations between units, Zeldes et al. 2019): one "
          "folder per annotator")
def read_relations(paths: PathsArg, annotators: Iterable[str] | None = None
                   ) -> list[RelationAnnotation]:
    """Relations from DISRPT ``.rels`` files: a header row naming the columns (``doc``,
    ``unit1_toks``, ``unit2_toks``, ``dir``, ``label``; ``orig_label`` since 2021), then one
    relation per row between two units given as 1-based token ranges of the document. The
    source is the unit ``dir`` points from (``1>2``: unit 1; ``1<2``: unit 2); the label is
    the ``label`` column, ``attrs`` keep ``orig_label`` and the line. One file per annotator
    (the folder's name); the spans' ids are their token ranges."""
    keep = None if annotators is None else set(annotators)
    found: set[str] = set()
    docs: dict[tuple[str, str], RelationAnnotation] = {}
    for annotator, path in _paths.annotator_files(paths, RELS):
        found.add(annotator)
        if keep is not None and annotator not in keep:
            continue
        rows = read_text(path).split("\n")
        header = rows[0].lstrip("\ufeff").split("\t")
        need = ("doc", "unit1_toks", "unit2_toks", "dir", "label")
        missing = [c for c in need if c not in header]
        if missing:
            raise InputError(f"not a DISRPT .rels header: no column {', '.join(missing)}",
                             path, 1)
        col = {c: header.index(c) for c in header}
        for n, row in enumerate(rows[1:], 2):
            if not row.strip():
                continue
            cells = row.split("\t")
            if len(cells) != len(header):
                raise InputError(f"expected {len(header)} tab-separated columns, found "
                                 f"{len(cells)}", path, n)
            doc = cells[col["doc"]]
            ann = docs.get((annotator, doc))
            if ann is None:
                ann = docs[annotator, doc] = RelationAnnotation(
                    Document(doc, [], source=str(path)), annotator, {}, [], str(path))
            ends = []
            for key in ("unit1_toks", "unit2_toks"):
                spec = cells[col[key]]
                if spec not in ann.spans:
                    ann.spans[spec] = Mention(spec, _fragments(spec, path, n))
                ends.append(spec)
            if cells[col["dir"]] == "1<2":
                ends.reverse()
            attrs = {"line": n, "dir": cells[col["dir"]]}
            if "orig_label" in col:
                attrs["orig_label"] = cells[col["orig_label"]]
            ann.relations.append(Link(ends[0], ends[1], cells[col["label"]], attrs))
    check_annotators(keep, found, paths)
    return list(docs.values())


__all__ = ["BEGIN", "CONNECTIVE", "INSIDE", "RELS", "SUFFIXES", "read", "read_relations", "sniff",
           "sniff_rels"]
