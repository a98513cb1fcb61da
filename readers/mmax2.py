"""MMAX2 reader (Müller & Strube 2006): ``.mmax`` projects, ``common_paths.xml``, base data, levels.

``read`` returns one :class:`CorefAnnotation` per (annotator, document) holding **every
markable of every selected level** (all declared levels by default), so the same call serves
coreference (pass ``levels=["coref"]``) and per-level markable agreement (group the mentions by
``attrs["level"]``). Mention ids are ``"<level>:<markable id>"`` because MMAX2 ids are only
unique within a level; ``attrs`` keeps ``level``, the original ``id`` and ``span`` and every
markable attribute under its original name.

* Spans: ``word_1,word_3..word_5``; a range is expanded by base-data *order* and
  cross-checked against MMAX2's numeric expansion (ids missing from the base data are skipped
  silently, other differences warn). Fragments are sorted and adjacent ones merged.
* Chains: all markables of a level with the same value of a set attribute (scheme type
  ``markable_set`` or a name in ``set_attributes``) form a chain. On levels without set values,
  identity pointers (names in ``identity_pointers``) form chains instead, over the selected
  levels. Every markable in no set is a singleton chain.
* Links: every pointer (scheme type ``markable_pointer``, a name in ``pointer_attributes`` or
  ``identity_pointers``, or, for attributes the scheme does not declare, a value shaped like
  ``[level:]markable_N[;...]``) becomes ``Link(type=<attribute name>)`` with a level-qualified
  target, also when the target level is not selected.
* Annotators: one project directory each (annotator = directory name), or a directory of
  annotator directories over shared base data (``corpus/annotator-1``, ``corpus/basedata``).
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from ..model.chains import chains_from_links, check_same_tokens
from ..model.corpus import CorefAnnotation, Document, Link, Mention
from ..model.errors import InputError
from . import Option, _paths, register
from ._xml import local, parse

DEFAULT_SET_ATTRIBUTES = ("coref_set", "coref_class", "member", "set")
DEFAULT_IDENTITY_POINTERS = ("antecedent", "anaphor_antecedent", "single_phrase_antecedent",
                             "ref", "anaphref")
_POINTER = re.compile(r"([^:;\s]+:)?markable_\w+(;([^:;\s]+:)?markable_\w+)*")
_NUMBERED = re.compile(r"(.+)_(\d+)")
_RESERVED = {"id", "span", "mmax_level"}


def sniff(path: str | PathLike) -> bool:
    """A ``.mmax`` file, or a directory holding ``.mmax``/``common_paths.xml`` (or whose
    subdirectories do)."""
    p = Path(path)
    if p.is_file():
        return p.suffix == ".mmax"
    if not p.is_dir():
        return False
    dirs = [p, *(d for d in p.iterdir() if d.is_dir())]
    return any(any(d.glob("*.mmax")) or (d / "common_paths.xml").is_file() for d in dirs)


@register("coref", "mmax2", sniff=sniff,
          summary="MMAX2 projects (.mmax, common_paths.xml, base data, markable levels): one "
          "project folder per annotator, or a folder of annotator folders",
          options=(Option("levels", "MMAX2: markable level(s) holding the chains",
                          multiple=True, metavar="LEVEL"),
                   Option("common_paths", "MMAX2: a common_paths.xml shared by all projects "
                          "(default: the one beside each .mmax file)", type=Path,
                          metavar="FILE")))
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         levels: Sequence[str] | None = None,
         set_attributes: Iterable[str] = DEFAULT_SET_ATTRIBUTES,
         identity_pointers: Iterable[str] = DEFAULT_IDENTITY_POINTERS,
         pointer_attributes: Iterable[str] = (),
         common_paths: str | PathLike | None = None,
         sentence_level: str = "sentence") -> list[CorefAnnotation]:
    """Read MMAX2 projects; see the module docstring for what lands where.

    ``paths``: project directories, ``.mmax`` files, or directories of annotator directories.
    ``annotators``: one id per path (default: the directory name). ``levels``: level names to
    read (default all declared). ``common_paths``: a ``common_paths.xml`` shared by all
    projects (default: the one next to each ``.mmax``). ``sentence_level``: the level whose
    markables give ``Document.sentence_starts`` when declared. Attribute names compare
    case-insensitively.
    """
    opts = _Options(frozenset(a.lower() for a in set_attributes),
                    frozenset(a.lower() for a in identity_pointers),
                    frozenset(a.lower() for a in pointer_attributes),
                    None if levels is None else list(levels), sentence_level)
    cache = _Cache()
    out: list[CorefAnnotation] = []
    seen: dict[tuple[str, str], str] = {}
    for annotator, mmax in projects(paths, annotators):
        cp = Path(common_paths) if common_paths is not None else mmax.parent / "common_paths.xml"
        ann = _read_project(mmax, annotator, cache.common(cp), cache, opts)
        key = (annotator, ann.document.id)
        if key in seen:
            raise InputError(f"annotator {annotator!r} has document {ann.document.id!r} twice "
                             f"(also in {seen[key]})", mmax)
        seen[key] = str(mmax)
        out.append(ann)
    check_same_tokens(out)
    return out


@dataclass(frozen=True)
class _Options:
    sets: frozenset[str]
    identity: frozenset[str]
    pointers: frozenset[str]
    levels: list[str] | None
    sentence_level: str


@dataclass(frozen=True)
class _CommonPaths:
    path: Path
    basedata: str
    schemes: str
    markables: str
    levels: dict[str, tuple[str, str]]  # level name -> (file pattern, scheme file)


@dataclass
class _Markable:
    id: str
    span: str
    attrs: dict[str, str]
    line: int | None


class _Cache:
    """Parsed files shared between projects (common paths, base data, schemes)."""

    def __init__(self) -> None:
        self._common: dict[Path, _CommonPaths] = {}
        self._docs: dict[Path, tuple[Document, dict[str, int]]] = {}
        self._schemes: dict[Path, dict[str, str]] = {}

    def common(self, path: Path) -> _CommonPaths:
        if path not in self._common:
            self._common[path] = _read_common_paths(path)
        return self._common[path]

    def document(self, path: Path) -> tuple[Document, dict[str, int]]:
        if path not in self._docs:
            self._docs[path] = _read_words(path)
        return self._docs[path]

    def scheme(self, path: Path) -> dict[str, str]:
        if path not in self._schemes:
            self._schemes[path] = _read_scheme(path) if path.is_file() else {}
        return self._schemes[path]


def projects(paths: Sequence[str | PathLike],
             annotators: Sequence[str] | None = None) -> list[tuple[str, Path]]:
    """``(annotator, .mmax file)`` pairs, in path order then file-name order (for callers that
    read the projects document by document)."""
    sources = _paths.annotator_sources(
        paths, annotators, (".mmax",), layout="folder", recursive=False, folder="project",
        reject="not an MMAX2 project file (.mmax)",
        empty="no .mmax project files here or in subdirectories")
    return [(name, f) for name, files, _ in sources for f in files]

def _join(*parts: str | Path) -> Path:
    return Path(os.path.normpath(Path(*parts)))


def _text(el) -> str:
    return (el.text or "").strip().replace("\\", "/")


def _read_common_paths(path: Path) -> _CommonPaths:
    """``common_paths.xml``: folders and the declared levels."""
    if not path.is_file():
        raise InputError("no common_paths.xml (pass common_paths= to name one)", path)
    root = parse(path).getroot()
    folders = {"basedata_path": "", "scheme_path": "", "markable_path": ""}
    levels: dict[str, tuple[str, str]] = {}
    for el in root.iter():
        name = local(el.tag)
        if name in folders:
            folders[name] = _text(el)
        elif name == "level":
            level = el.get("name")
            if not level or not _text(el):
                raise InputError("<level> needs a name and a file pattern", path, el.sourceline)
            if level in levels:
                raise InputError(f"level {level!r} declared twice", path, el.sourceline)
            levels[level] = (_text(el), el.get("schemefile", ""))
    return _CommonPaths(path, folders["basedata_path"], folders["scheme_path"],
                        folders["markable_path"], levels)


def _read_words(path: Path) -> tuple[Document, dict[str, int]]:
    """Base data: the tokens, and word id -> token index."""
    root = parse(path).getroot()
    tokens: list[str] = []
    index: dict[str, int] = {}
    for el in root.iter():
        if local(el.tag) != "word":
            continue
        wid = el.get("id")
        if not wid:
            raise InputError("<word> without id", path, el.sourceline)
        if wid in index:
            raise InputError(f"duplicate word id {wid!r}", path, el.sourceline)
        index[wid] = len(tokens)
        tokens.append(el.text or "")
    doc_id = re.sub(r"[._]words$", "", path.name.removesuffix(".xml"))
    return Document(doc_id, tokens, source=str(path)), index


def _read_scheme(path: Path) -> dict[str, str]:
    """Scheme: lower-cased attribute name -> attribute type."""
    root = parse(path).getroot()
    return {el.get("name", "").lower(): el.get("type", "").lower()
            for el in root.iter() if local(el.tag) == "attribute"}


def _read_level(path: Path) -> dict[str, _Markable]:
    """One markable level file: markable id -> markable (missing file = empty level)."""
    if not path.is_file():
        return {}
    out: dict[str, _Markable] = {}
    for el in parse(path).getroot().iter():
        if local(el.tag) != "markable":
            continue
        mid, span = el.get("id"), el.get("span")
        if not mid or span is None:
            raise InputError("<markable> needs id and span attributes", path, el.sourceline)
        if mid in out:
            raise InputError(f"duplicate markable id {mid!r} (first on line {out[mid].line})",
                             path, el.sourceline)
        attrs = {local(k) or k: v for k, v in el.attrib.items()}
        out[mid] = _Markable(mid, span, attrs, el.sourceline)
    return out


def _span(spec: str, index: dict[str, int], path: Path,
          line: int | None) -> tuple[tuple[int, int], ...]:
    """Token fragments of a span value, sorted, adjacent ones merged."""
    frags = []
    for frag in spec.split(","):
        first, _, last = (s.strip() for s in frag.partition(".."))
        last = last or first
        for wid in (first, last):
            if wid not in index:
                raise InputError(f"span {spec!r}: unknown word id {wid!r}", path, line)
        a, b = index[first], index[last]
        if a > b:
            raise InputError(f"span {spec!r}: range {frag.strip()!r} runs backwards", path, line)
        _check_numeric(first, last, a, b, index, path, line)
        frags.append((a, b + 1))
    merged: list[tuple[int, int]] = []
    for s, e in sorted(frags):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return tuple(merged)


def _check_numeric(first: str, last: str, a: int, b: int, index: dict[str, int], path: Path,
                   line: int | None) -> None:
    """Warn when MMAX2's numeric range expansion covers other words than base-data order."""
    m, n = _NUMBERED.fullmatch(first), _NUMBERED.fullmatch(last)
    if not (m and n and m[1] == n[1]):
        return
    numeric = {index[w] for k in range(int(m[2]), int(n[2]) + 1)
               if (w := f"{m[1]}_{k}") in index}
    if numeric != set(range(a, b + 1)):
        warnings.warn(f"{path}:{line}: range {first}..{last} covers other words numerically "
                      "(as MMAX2 expands it) than in base-data order; base-data order used",
                      stacklevel=2)


def _read_project(mmax: Path, annotator: str, cp: _CommonPaths, cache: _Cache,
                  opts: _Options) -> CorefAnnotation:
    root = parse(mmax).getroot()
    words = next((_text(el) for el in root.iter() if local(el.tag) == "words"), "")
    if not words:
        raise InputError("the project file names no <words> file", mmax)
    home = mmax.parent
    words_doc, index = cache.document(_join(home, cp.basedata, words))
    if opts.levels is not None:
        unknown = [lv for lv in opts.levels if lv not in cp.levels]
        if unknown:
            raise InputError(f"level(s) {', '.join(unknown)} not declared; declared: "
                             f"{', '.join(cp.levels)}", cp.path)
    files = {lv: _join(home, cp.markables, pattern.replace("$", mmax.stem))
             for lv, (pattern, _) in cp.levels.items()}
    markables = {lv: _read_level(f) for lv, f in files.items()}
    starts = sorted({_span(m.span, index, files[lv], m.line)[0][0]
                     for lv in markables if lv == opts.sentence_level
                     for m in markables[lv].values()})
    doc = Document(words_doc.id, words_doc.tokens, starts, source=words_doc.source)
    mentions: dict[str, Mention] = {}
    links: list[Link] = []
    groups: dict[tuple[str, str, str], list[str]] = {}
    for lv in opts.levels if opts.levels is not None else cp.levels:
        schemefile = cp.levels[lv][1]
        scheme = cache.scheme(_join(home, cp.schemes, schemefile)) if schemefile else {}
        for m in markables[lv].values():
            mid = f"{lv}:{m.id}"
            attrs = {k: v for k, v in m.attrs.items() if k not in _RESERVED}
            mentions[mid] = Mention(mid, _span(m.span, index, files[lv], m.line),
                                    attrs={"level": lv, "id": m.id, "span": m.span, **attrs})
            for name, value in attrs.items():
                kind = _kind(name, value, scheme, opts)
                if kind == "set" and value.strip().lower() not in ("", "empty"):
                    groups.setdefault((lv, name.lower(), value.strip()), []).append(mid)
                elif kind == "pointer":
                    links += [Link(mid, target, name, {"level": lv})
                              for target in _targets(m, name, value, lv, markables, files[lv])]
    set_levels = {lv for lv, _, _ in groups}
    identity = [k for k in links if k.type.lower() in opts.identity
                and k.attrs["level"] not in set_levels and k.target in mentions]
    chains = chains_from_links(list(mentions), identity, groups.values())
    return CorefAnnotation(doc, annotator, mentions, chains, links, source=str(mmax))


def _kind(name: str, value: str, scheme: dict[str, str], opts: _Options) -> str | None:
    low = name.lower()
    declared = scheme.get(low)
    if declared == "markable_set" or low in opts.sets:
        return "set"
    if declared == "markable_pointer" or low in opts.pointers or low in opts.identity:
        return "pointer"
    if declared is None and _POINTER.fullmatch(value.strip()):
        return "pointer"
    return None


def _targets(m: _Markable, name: str, value: str, level: str,
             markables: dict[str, dict[str, _Markable]], path: Path) -> list[str]:
    """Level-qualified targets of a pointer value; ``empty`` means none."""
    value = value.strip()
    if value.lower() in ("", "empty"):
        return []
    out = []
    for target in value.split(";"):
        target_level, _, tid = target.strip().rpartition(":")
        target_level = target_level or level
        if target_level not in markables:
            raise InputError(f"markable {m.id!r}: {name}={value!r} points to undeclared level "
                             f"{target_level!r}", path, m.line)
        if tid not in markables[target_level]:
            raise InputError(f"markable {m.id!r}: {name}={value!r} points to undefined markable "
                             f"{tid!r} on level {target_level!r}", path, m.line)
        out.append(f"{target_level}:{tid}")
    return out
