"""MMAX2 reader (Müller & Strube 2006): ``.mmax`` projects, ``common_paths.xml``, base data, levels.

``read`` returns one :class:`CorefAnnotation` per (annotator, document) holding **every
markable of every selected level** (all declared levels by default), so the same call serves
coreference (pass ``levels=["coref"]``) and per-level markable agreement (group the mentions by
``attrs["level"]``). Mention ids are ``"<level>:<markable id>"`` because MMAX2 ids are only
unique within a level; ``attrs`` keeps ``level``, the original ``id`` and ``span`` and every
markable attribute under its original name.

* Spans: ``word_1,word_3..word_5``; a range is expanded by base-data *order* and
  cross-checked against MMAX2's numeric expansion (ids missing from the base data are skipped
  silently, other differences warn). Fragments are sorted and adjacent ones merged. A markable
  naming a word id the base data lacks is skipped, with one warning for the whole read (the
  Potsdam Commentary Corpus has such markables), and so are pointers to it.
* Base data may repeat a word id (real projects do): every ``<word>`` is a token, and a
  warning names the first repeated id and how many there are; a span that starts or ends on a
  repeated id is an error, since it could mean either word.
* ``common_paths.xml``: the one named by ``common_paths``, else the one beside the ``.mmax``
  file (as MMAX2 does), else a ``global_common_paths.xml`` shared by a collection, found in a
  folder above the project or in a subfolder of one (MMAX2-Showcase keeps it in
  ``<collection>/common_files/``); its paths are relative to the ``.mmax`` file.
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
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

import numpy as np
from lxml import etree

from ..model.chains import chains_from_links, check_same_tokens
from ..model.corpus import CorefAnnotation, Document, Link, Mention, merged_fragments
from ..model.errors import InputError, Problems, quote
from ..model.io import excerpt, regular
from . import Option, _paths, register
from ._xml import local, parse

DEFAULT_SET_ATTRIBUTES = ("coref_set", "coref_class", "member", "set")
DEFAULT_IDENTITY_POINTERS = ("antecedent", "anaphor_antecedent", "single_phrase_antecedent",
                             "ref", "anaphref")
_POINTER = re.compile(r"([^:;\s]+:)?markable_\w+(;([^:;\s]+:)?markable_\w+)*")
_NUMBERED = re.compile(r"(.+)_(\d{1,18})")
_RESERVED = {"id", "span", "mmax_level"}
GLOBAL_COMMON_PATHS = "global_common_paths.xml"
#: how many folders above a project a shared global_common_paths.xml is looked for
_COMMON_PATHS_UP = 3


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
          options=(Option("levels", "MMAX2: markable level(s) holding the chains (coref job "
                          "default: coref)",
                          multiple=True, metavar="LEVEL", aliases=("--level",)),
                   Option("common_paths", "MMAX2: a common_paths.xml shared by all projects "
                          "(default: the one beside each .mmax file, else a "
                          "global_common_paths.xml above it)", type=Path, metavar="FILE")),
          # the coref job reads the chains of the coref level; spans every level
          defaults={"coref": {"levels": ["coref"]}})
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
    projects (default: the one next to each ``.mmax``, else a ``global_common_paths.xml``
    above it). ``sentence_level``: the level whose
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
    notes = _Notes()
    problems = Problems()
    for annotator, mmax in projects(paths, annotators):
        with problems.collect():
            cp = Path(common_paths) if common_paths is not None else cache.find_common(mmax)
            ann = _read_project(mmax, annotator, cache.common(cp), cache, opts, notes)
            key = (annotator, ann.document.id)
            if key in seen:
                raise InputError(f"annotator {quote(annotator)} has document "
                                 f"{quote(ann.document.id)} twice "
                                 f"(also in {seen[key]})", mmax)
            seen[key] = str(mmax)
            out.append(ann)
    problems.check()
    notes.warn()
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


@dataclass
class _Notes:
    """What one read warns about, once: markables skipped for word ids missing from the base
    data and pointers to them dropped, ranges MMAX2 would expand otherwise (``file:line: …``)."""

    skipped: list[str] = field(default_factory=list)
    links: int = 0
    ranges: list[str] = field(default_factory=list)

    def warn(self) -> None:
        if self.skipped:
            dropped = f", {self.links} pointer(s) to them dropped" if self.links else ""
            warnings.warn(f"{self.skipped[0]}; {len(self.skipped)} markable(s) naming word ids "
                          f"missing from the base data skipped{dropped}", stacklevel=3)
        if self.ranges:
            warnings.warn(f"{self.ranges[0]} covers other words numerically (as MMAX2 expands "
                          f"it) than in base-data order; base-data order used for it and "
                          f"{len(self.ranges) - 1} other range(s)", stacklevel=3)


class _UnknownWord(Exception):
    """A span names a word id the base data lacks: the markable is skipped."""


class _Words:
    """Base data: the tokens, word id -> first position, the ids given more than once, and
    where MMAX2's numeric range expansion lands (it expands ``word_3..word_7`` to the ids
    ``word_3`` … ``word_7``)."""

    def __init__(self, doc: Document, ids: list[str], index: dict[str, int],
                 repeated: dict[str, int]) -> None:
        self.doc, self.index, self.repeated = doc, index, repeated
        numbered = [(m[1], int(m[2]), pos) for pos, wid in enumerate(ids)
                    if (m := _NUMBERED.fullmatch(wid))]
        keys = sorted(numbered)
        # the common case: one prefix, numbers increasing with the position: both expansions agree
        self.agree = len(keys) == len(ids) and len({p for p, _, _ in keys}) <= 1 and all(
            a[1] < b[1] and a[2] < b[2] for a, b in zip(keys, keys[1:], strict=False))
        self._keys = [(p, n) for p, n, _ in keys]
        self._ranks: _RangeMinMax | None = None
        if not self.agree:
            rank = np.full(len(ids), -1, np.int64)
            rank[[pos for _, _, pos in keys]] = np.arange(len(keys))
            self._ranks = _RangeMinMax(rank)

    def numeric_differs(self, first: str, last: str, a: int, b: int) -> bool:
        """Whether the words numbered from ``first`` to ``last`` are not exactly the positions
        ``a`` to ``b``: O(log n) per range (the numeric ranks of the words in base-data order
        must be exactly the ranks of the numbers ``first`` … ``last``)."""
        m, n = _NUMBERED.fullmatch(first), _NUMBERED.fullmatch(last)
        if self.agree or not (m and n and m[1] == n[1]):
            return False
        lo = bisect_left(self._keys, (m[1], int(m[2])))
        hi = bisect_right(self._keys, (n[1], int(n[2])))
        if hi - lo != b - a + 1:
            return True
        least, most = self._ranks.query(a, b + 1)
        return least < lo or most >= hi


class _RangeMinMax:
    """Minimum and maximum of an integer array over any range in O(log n): a segment tree in
    linear memory."""

    def __init__(self, values: np.ndarray) -> None:
        self.size = size = 1 << max(0, (len(values) - 1).bit_length())
        self.low = np.full(2 * size, np.iinfo(np.int64).max, np.int64)
        self.high = np.full(2 * size, -1, np.int64)
        self.low[size:size + len(values)] = self.high[size:size + len(values)] = values
        for level in range(size.bit_length() - 1, 0, -1):
            parents = slice(1 << (level - 1), 1 << level)
            kids = slice(1 << level, 2 << level)
            self.low[parents] = np.minimum(self.low[kids][0::2], self.low[kids][1::2])
            self.high[parents] = np.maximum(self.high[kids][0::2], self.high[kids][1::2])

    def query(self, start: int, stop: int) -> tuple[int, int]:
        """(min, max) over ``values[start:stop]``."""
        lo, hi = start + self.size, stop + self.size
        least, most = np.iinfo(np.int64).max, -1
        while lo < hi:
            if lo & 1:
                least, most = min(least, self.low[lo]), max(most, self.high[lo])
                lo += 1
            if hi & 1:
                hi -= 1
                least, most = min(least, self.low[hi]), max(most, self.high[hi])
            lo, hi = lo >> 1, hi >> 1
        return int(least), int(most)


class _Cache:
    """Parsed files shared between projects (common paths, base data, schemes)."""

    def __init__(self) -> None:
        self._common: dict[Path, _CommonPaths] = {}
        self._found: dict[Path, Path] = {}
        self._docs: dict[Path, _Words] = {}
        self._schemes: dict[Path, dict[str, str]] = {}

    def common(self, path: Path) -> _CommonPaths:
        if path not in self._common:
            self._common[path] = _read_common_paths(path)
        return self._common[path]

    def find_common(self, mmax: Path) -> Path:
        """The ``common_paths.xml`` beside ``mmax``, else the nearest shared
        ``global_common_paths.xml`` in a folder above it or in a subfolder of one."""
        if mmax.parent not in self._found:
            self._found[mmax.parent] = _find_common_paths(mmax)
        return self._found[mmax.parent]

    def document(self, path: Path) -> _Words:
        if path not in self._docs:
            self._docs[path] = _read_words(path)
        return self._docs[path]

    def scheme(self, path: Path, source: Path) -> dict[str, str]:
        if path not in self._schemes:
            self._schemes[path] = _read_scheme(path) if _is_file(path, source) else {}
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


def _is_file(path: Path, source: Path) -> bool:
    """Whether the file ``path`` is there (:func:`~corpusagree.model.io.regular`: a folder,
    a pipe or a link to a device in its place is an InputError naming it, never an absent,
    empty level); an InputError from ``source`` (the file naming ``path``) when the name
    cannot be a file (e.g. longer than the file system allows)."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        pass
    except OSError as e:
        raise InputError(f"cannot use the file name {quote(path.name, 60)}: {e.strerror}",
                         source) from None
    return regular(path)


def _find_common_paths(mmax: Path) -> Path:
    """``common_paths.xml`` beside ``mmax`` (where MMAX2 looks), else the one
    ``global_common_paths.xml`` in the nearest of the ``_COMMON_PATHS_UP`` folders above it or
    in a subfolder of one (MMAX2-Showcase: ``<collection>/common_files/``)."""
    beside = mmax.parent / "common_paths.xml"
    if regular(beside):
        return beside
    for folder in [mmax.parent, *mmax.parent.parents][:_COMMON_PATHS_UP + 1]:
        try:
            candidates = [folder, *sorted(d for d in folder.iterdir() if d.is_dir())]
            found = [d / GLOBAL_COMMON_PATHS for d in candidates
                     if regular(d / GLOBAL_COMMON_PATHS)]
        except OSError:  # a folder we may not list
            continue
        if len(found) > 1:
            raise InputError(f"no common_paths.xml beside it and several {GLOBAL_COMMON_PATHS} "
                             f"above it ({found[0]}, {found[1]}); pass common_paths=FILE",
                             mmax)
        if found:
            return found[0]
    raise InputError(f"no common_paths.xml beside it and no {GLOBAL_COMMON_PATHS} above it; "
                     "pass common_paths=FILE", mmax)


def _read_common_paths(path: Path) -> _CommonPaths:
    """``common_paths.xml``: folders and the declared levels."""
    if not regular(path):
        raise InputError("no such common paths file", path)
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
                raise InputError(f"level {quote(level)} declared twice", path, el.sourceline)
            levels[level] = (_text(el), el.get("schemefile", ""))
    return _CommonPaths(path, folders["basedata_path"], folders["scheme_path"],
                        folders["markable_path"], levels)


def _read_words(path: Path) -> _Words:
    """Base data: every ``<word>`` is a token; a repeated id warns (naming the first)."""
    root = parse(path).getroot()
    tokens: list[str] = []
    ids: list[str] = []
    index: dict[str, int] = {}
    repeated: dict[str, int] = {}  # id -> times given
    first: tuple[str, int | None] | None = None
    for el in root.iter(etree.Element):
        if local(el.tag) != "word":
            continue
        wid = el.get("id")
        if not wid:
            raise InputError("<word> without id", path, el.sourceline)
        if wid in index:
            repeated[wid] = repeated.get(wid, 1) + 1
            first = first or (wid, el.sourceline)
        else:
            index[wid] = len(tokens)
        ids.append(wid)
        tokens.append(el.text or "")
    if first is not None:
        warnings.warn(f"{path}:{first[1]}: word id {excerpt(first[0])} given "
                      f"{repeated[first[0]]} times, the first of {len(repeated)} repeated word "
                      "id(s); every <word> is kept as a token, and spans may not start or end "
                      "on a repeated id", stacklevel=2)
    doc_id = re.sub(r"[._]words$", "", path.name.removesuffix(".xml"))
    return _Words(Document(doc_id, tokens, source=str(path)), ids, index, repeated)


def _read_scheme(path: Path) -> dict[str, str]:
    """Scheme: lower-cased attribute name -> attribute type."""
    root = parse(path).getroot()
    return {el.get("name", "").lower(): el.get("type", "").lower()
            for el in root.iter() if local(el.tag) == "attribute"}


def _read_level(path: Path, source: Path) -> dict[str, _Markable]:
    """One markable level file: markable id -> markable (missing file = empty level)."""
    if not _is_file(path, source):
        return {}
    out: dict[str, _Markable] = {}
    for el in parse(path).getroot().iter(etree.Element):
        if local(el.tag) != "markable":
            continue
        mid, span = el.get("id"), el.get("span")
        if not mid or span is None:
            raise InputError("<markable> needs id and span attributes", path, el.sourceline)
        if mid in out:
            raise InputError(f"duplicate markable id {quote(mid)} (first on line {out[mid].line})",
                             path, el.sourceline)
        attrs = {local(k) or k: v for k, v in el.attrib.items()}
        out[mid] = _Markable(mid, span, attrs, el.sourceline)
    return out


def _span(spec: str, words: _Words, path: Path, line: int | None,
          notes: _Notes) -> tuple[tuple[int, int], ...]:
    """Token fragments of a span value, sorted, adjacent ones merged; ``_UnknownWord`` when it
    names a word id missing from the base data."""
    frags = []
    for frag in spec.split(","):
        first, _, last = (s.strip() for s in frag.partition(".."))
        last = last or first
        for wid in (first, last):
            if wid not in words.index:
                raise _UnknownWord(f"{path}:{line}: span {excerpt(spec)}: unknown word id "
                                   f"{excerpt(wid)}")
            if wid in words.repeated:
                raise InputError(f"span {excerpt(spec)}: word id {quote(wid)} is given "
                                 f"{words.repeated[wid]} times in {words.doc.source}, so the "
                                 "span could mean either word", path, line)
        a, b = words.index[first], words.index[last]
        if a > b:
            raise InputError(f"span {excerpt(spec)}: range {excerpt(frag.strip())} runs "
                             "backwards", path, line)
        if first != last and words.numeric_differs(first, last, a, b):
            notes.ranges.append(f"{path}:{line}: range {first[:60]}..{last[:60]}")
        frags.append((a, b + 1))
    return merged_fragments(frags)


def _read_project(mmax: Path, annotator: str, cp: _CommonPaths, cache: _Cache,
                  opts: _Options, notes: _Notes) -> CorefAnnotation:
    root = parse(mmax).getroot()
    words_name = next((_text(el) for el in root.iter(etree.Element)
                       if local(el.tag) == "words"), "")
    if not words_name:
        raise InputError("the project file names no <words> file", mmax)
    home = mmax.parent
    words = cache.document(_join(home, cp.basedata, words_name))
    if opts.levels is not None:
        unknown = [lv for lv in opts.levels if lv not in cp.levels]
        if unknown:
            raise InputError(f"level(s) {', '.join(unknown)} not declared; declared: "
                             f"{', '.join(cp.levels)}", cp.path)
    files = {lv: _join(home, cp.markables, pattern.replace("$", mmax.stem))
             for lv, (pattern, _) in cp.levels.items()}
    markables = {lv: _read_level(f, cp.path) for lv, f in files.items()}
    selected = list(cp.levels) if opts.levels is None else opts.levels
    spanned = [lv for lv in cp.levels if lv in selected or lv == opts.sentence_level]
    spans: dict[tuple[str, str], tuple[tuple[int, int], ...]] = {}
    for lv in spanned:
        for m in markables[lv].values():
            try:
                spans[lv, m.id] = _span(m.span, words, files[lv], m.line, notes)
            except _UnknownWord as e:
                notes.skipped.append(str(e))
    starts = sorted({spans[lv, m.id][0][0] for lv in markables if lv == opts.sentence_level
                     for m in markables[lv].values() if (lv, m.id) in spans})
    doc = Document(words.doc.id, words.doc.tokens, starts, source=words.doc.source)
    mentions: dict[str, Mention] = {}
    links: list[Link] = []
    groups: dict[tuple[str, str, str], list[str]] = {}
    for lv in selected:
        schemefile = cp.levels[lv][1]
        scheme = cache.scheme(_join(home, cp.schemes, schemefile), cp.path) if schemefile else {}
        for m in markables[lv].values():
            if (lv, m.id) not in spans:
                continue
            mid = f"{lv}:{m.id}"
            attrs = {k: v for k, v in m.attrs.items() if k not in _RESERVED}
            mentions[mid] = Mention(mid, spans[lv, m.id],
                                    attrs={"level": lv, "id": m.id, "span": m.span, **attrs})
            for name, value in attrs.items():
                kind = _kind(name, value, scheme, opts)
                if kind == "set" and value.strip().lower() not in ("", "empty"):
                    groups.setdefault((lv, name.lower(), value.strip()), []).append(mid)
                elif kind == "pointer":
                    for target in _targets(m, name, value, lv, markables, files[lv]):
                        level, _, tid = target.partition(":")
                        if level in spanned and (level, tid) not in spans:
                            notes.links += 1  # its markable was skipped
                        else:
                            links.append(Link(mid, target, name, {"level": lv}))
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
            raise InputError(f"markable {quote(m.id)}: {name}={quote(value)} points to "
                             f"undeclared level "
                             f"{quote(target_level)}", path, m.line)
        if tid not in markables[target_level]:
            raise InputError(f"markable {quote(m.id)}: {name}={quote(value)} points to undefined "
                             f"markable "
                             f"{quote(tid)} on level {quote(target_level)}", path, m.line)
        out.append(f"{target_level}:{tid}")
    return out


__all__ = ["DEFAULT_IDENTITY_POINTERS", "DEFAULT_SET_ATTRIBUTES", "GLOBAL_COMMON_PATHS",
           "projects", "read", "sniff"]
