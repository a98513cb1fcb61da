"""Where the readers find their files: path expansion and the annotator layouts of the formats.

``accept`` is everywhere either a tuple of name endings (``(".ann",)``, ``("_conll", ".conll")``;
compared case-insensitively) or a predicate on a file path. A folder is searched recursively
unless ``recursive=False``; files come sorted by path. Messages name the path.
"""

from __future__ import annotations

import os
import stat
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import NamedTuple

from ..model.corpus import natural_key
from ..model.errors import InputError, clip, quote

PathArg = str | PathLike
#: one path, several, or (segmentation readers) annotator name -> path
PathsArg = PathArg | Iterable[PathArg] | Mapping[str, PathArg]
Accept = tuple[str, ...] | Callable[[Path], bool]

_MISSING = "no such file or directory"


def check(path: Path) -> Path:
    """``path`` if it is a file or a folder; InputError when it does not exist or is something
    else (a device such as /dev/zero, a pipe: nothing a reader can read to its end)."""
    if not path.exists():
        raise InputError(_MISSING, path)
    if not (path.is_file() or path.is_dir()):
        raise InputError("not a regular file or folder", path)
    return path


class Source(NamedTuple):
    """The files of one annotator (or of one path, when the reader names annotators per file).

    ``root`` is the folder the files were found in (a file's own folder): document ids of
    formats that keep documents in subfolders are paths relative to it.
    """

    annotator: str | None
    files: list[Path]
    root: Path


def as_list(paths: PathArg | Iterable[PathArg]) -> list[Path]:
    """One path or several, as a list of ``Path``."""
    if isinstance(paths, (str, PathLike)):
        return [Path(paths)]
    return [Path(p) for p in paths]


def matches(path: Path, accept: Accept) -> bool:
    """True when the file name ends with one of the endings, or the predicate accepts it."""
    if callable(accept):
        return bool(accept(path))
    return path.name.lower().endswith(tuple(s.lower() for s in accept))


def visible(path: Path) -> bool:
    """Accepts every file whose name does not start with a dot."""
    return not path.name.startswith(".")


def subfolders(folder: PathArg) -> list[Path]:
    """The visible sub-folders of a folder, in natural order of their names (``ann2`` before
    ``ann10``); none for a file."""
    p = Path(folder)
    if not p.is_dir():
        return []
    return sorted((d for d in p.iterdir() if d.is_dir() and not d.name.startswith(".")),
                  key=lambda d: natural_key(d.name))


def files(path: PathArg, accept: Accept, *, recursive: bool = True) -> list[Path]:
    """A folder's accepted files (below it, or directly in it), sorted; anything else is itself
    (existence is not checked: see :func:`all_files`).

    An entry that is no regular file where one could be read — a pipe, a device, a socket, a
    link to one of these or to nothing — is skipped with a warning naming it (:func:`special`),
    and so is a folder named like the files read (``x.ann/``) where folders are not searched
    (it is named where they are); never in silence."""
    p = Path(path)
    if not p.is_dir():
        return [p]
    found = p.rglob("*") if recursive else p.iterdir()
    out, folders = [], []
    for f in found:
        if f.is_file():
            if matches(f, accept):
                out.append(f)
            continue
        if f.name.startswith("."):
            continue
        if f.is_dir():
            folders.append(f)  # said when it is named like the files read
        elif callable(accept) or matches(f, accept):
            warnings.warn(f"{f}: skipped: {special(f)}", stacklevel=2)
    kinds = {"".join(f.suffixes) for f in out} - {""}
    for d in folders:
        if "".join(d.suffixes) in kinds or (not callable(accept) and matches(d, accept)):
            warnings.warn(f"{d}: a folder named like the files read (searched as a folder)"
                          if recursive else f"{d}: skipped: {special(d)}", stacklevel=2)
    return sorted(out, key=_parts)


def _parts(path: Path) -> tuple[str, ...]:
    """The order of :class:`~pathlib.Path` (by parts), without its comparison operator's
    Python-level cost per comparison (a third of listing 145,000 files)."""
    return path.parts


def special(path: Path) -> str:
    """What a path that is no regular file is, for a message: ``a pipe (FIFO)``, ``a link to
    /dev/zero (a character device)``, ``a folder`` …"""
    kinds = ((stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISDIR, "a folder where a file is expected"))
    try:
        mode = path.stat().st_mode
    except OSError:
        return "a link to nothing" if path.is_symlink() else "unreadable"
    kind = next((text for test, text in kinds if test(mode)), "no regular file")
    if path.is_symlink():
        return f"a link to {clip(os.readlink(path))} ({kind})"
    return kind


def all_files(paths: PathArg | Iterable[PathArg], accept: Accept, *,
              recursive: bool = True) -> list[Path]:
    """Every file named and every accepted file of the folders named, in order; a path that
    does not exist is an InputError."""
    out: list[Path] = []
    for p in as_list(paths):
        out += files(check(p), accept, recursive=recursive)
    return out


def has_files(path: PathArg, accept: Accept) -> bool:
    """True for an accepted file, or a folder with one below it (what suffix sniffers ask)."""
    p = Path(path)
    if p.is_dir():
        return any(f.is_file() and matches(f, accept) for f in p.rglob("*"))
    return p.is_file() and matches(p, accept)


def head(path: PathArg, accept: Accept, size: int = 1 << 20) -> str | None:
    """The first ``size`` characters of a file, or of the first accepted file below a folder;
    None when there is no such file or it cannot be read."""
    p = Path(path)
    if p.is_dir():
        found = files(p, accept)
        if not found:
            return None
        p = found[0]
    if not p.is_file():
        return None
    try:
        with open(p, encoding="utf-8", errors="replace") as fh:
            return fh.read(size)
    except OSError:
        return None


def inception_names(path: Path, stem: str | None = None) -> tuple[str, str]:
    """``(annotator, document)`` of an export file: ``annotation/<document>/<user>.<ext>`` in an
    INCEpTION/WebAnno project export, else ``<annotator folder>/<document>.<ext>``. ``stem``
    replaces the file's stem (a member of a zip file)."""
    stem = path.stem if stem is None else stem
    if path.resolve().parent.parent.name == "annotation":
        return stem, path.parent.name
    return path.parent.name, stem


def _stem(name: str, accept: Accept) -> str:
    if not callable(accept):
        for s in accept:
            if name.endswith(s):
                name = name[: -len(s)]
    return name.split(".")[0] or name


def annotator_sources(paths: PathsArg, annotators: Sequence[str] | None, accept: Accept, *,
                      layout: str = "path", recursive: bool = True, empty: str | None = None,
                      reject: str | None = None, folder: str = "annotator") -> list[Source]:
    """The annotators' files, for the layouts the formats use (every path must exist):

    * ``"path"``: each path (a file, or a folder of accepted files) is one annotator, named by
      ``annotators`` or by the path (the folder name, or the file name without its ending);
      a name given twice is an error (CoNLL-2012, CorefUD).
    * ``"folder"``: each path is an accepted file (annotator: its folder), a folder holding
      accepted files directly (annotator: the folder), or a folder of such annotator folders
      (annotator: each subfolder); ``annotators`` names the paths of the first two kinds
      (brat, MMAX2).
    * ``"each"``: each path (a file, or a folder of accepted files) gives one Source whose
      annotator is the given name or None: the reader names annotators per file (XMI,
      WebAnno TSV, ezCoref).
    * ``"parent"``: one Source per file, the annotator being the given name or the name of the
      file's folder (one file per document; segmentation readers). A mapping ``paths`` gives
      the names as its keys.

    ``empty``: message for a folder without accepted files (default: ``"no file ending in
    X here"``; with layout ``"each"`` and ``"parent"`` no error unless given). ``reject``:
    message for a named file that is not accepted (default: files are taken as they are).
    ``folder``: what the annotator folders of layout ``"folder"`` are called in messages.
    """
    if isinstance(paths, Mapping):
        annotators, paths = [str(k) for k in paths], list(paths.values())
    plist = as_list(paths)
    if annotators is not None and len(annotators) != len(plist) and layout != "folder":
        raise InputError(f"annotators=[...] gives {len(annotators)} names for {len(plist)} "
                         f"paths ({', '.join(map(str, plist))}): give one name per path")
    if empty is None and layout in ("path", "folder") and not callable(accept):
        empty = f"no file ending in {' or '.join(accept)} here"
    out: list[Source] = []
    for i, p in enumerate(plist):
        check(p)
        if p.is_file() and reject is not None and not matches(p, accept):
            raise InputError(reject, p)
        if layout == "folder":
            out += _folder_layout(p, accept, recursive, empty)
            continue
        given = None if annotators is None else annotators[i]
        found = files(p, accept, recursive=recursive)
        if not found and empty is not None:
            raise InputError(empty, p)
        root = p if p.is_dir() else p.parent
        if layout == "parent":
            out += [Source(given or f.parent.name, [f], f.parent) for f in found]
        elif layout == "each":
            out.append(Source(given, found, root))
        elif layout == "path":
            name = given if given is not None else (p.name if p.is_dir() else _stem(p.name, accept))
            if given is not None and name in (s.annotator for s in out):
                raise InputError(f"annotator name {quote(name)} given twice", p)
            out.append(Source(name, found, p))
        else:
            raise ValueError(f"unknown layout {layout!r}")
    if layout == "folder" and annotators is not None:
        if len(annotators) != len(out):
            raise InputError(f"annotators=[...] gives {len(annotators)} names for the "
                             f"{len(out)} {folder}s found ({', '.join(s.annotator for s in out)})"
                             f" in {', '.join(map(str, plist))}: give one name for each")
        return [s._replace(annotator=name) for s, name in zip(out, annotators, strict=True)]
    if annotators is None and layout in ("path", "folder"):
        out = distinguish(out)
    return out


def distinguish(sources: list[Source]) -> list[Source]:
    """Sources named alike get the shortest path that tells them apart: ``key/x.conll`` and
    ``resp/x.conll`` become annotators ``key/x`` and ``resp/x``; the same path given twice
    becomes ``x`` and ``x (2)``. Names already distinct are kept."""
    names = [s.annotator for s in sources]
    if len(set(names)) == len(names):
        return sources
    parts = [s.root.resolve().parts[:-1] for s in sources]
    out = list(names)
    for name in set(names):
        group = [i for i, n in enumerate(names) if n == name]
        if len(group) < 2:
            continue
        for k in range(1, max(len(parts[i]) for i in group) + 1):
            longer = {i: "/".join([*parts[i][len(parts[i]) - k:], name]) for i in group}
            if len(set(longer.values())) == len(group):
                break
        seen: dict[str, int] = {}
        for i in group:
            seen[longer[i]] = seen.get(longer[i], 0) + 1
            out[i] = longer[i] if seen[longer[i]] == 1 else f"{longer[i]} ({seen[longer[i]]})"
        if all(sources[i].root.resolve() == sources[group[0]].root.resolve() for i in group):
            for n, i in enumerate(group):  # one path given several times
                out[i] = name if n == 0 else f"{name} ({n + 1})"
    return [s._replace(annotator=n) for s, n in zip(sources, out, strict=True)]


def annotator_files(paths: PathsArg, accept: Accept) -> list[tuple[str, Path]]:
    """``(annotator, file)`` pairs of layout ``"parent"``: the annotator is the mapping key,
    else the name of the file's folder."""
    return [(s.annotator, f) for s in annotator_sources(paths, None, accept, layout="parent")
            for f in s.files]


def _folder_layout(p: Path, accept: Accept, recursive: bool, empty: str) -> list[Source]:
    if p.is_file():
        return [Source(p.resolve().parent.name, [p], p.parent)]
    if any(f.is_file() and matches(f, accept) for f in p.iterdir()):
        return [Source(p.resolve().name, files(p, accept, recursive=recursive), p)]
    roots = [(d, found) for d in sorted(p.iterdir())
             if d.is_dir() and (found := files(d, accept, recursive=recursive))]
    if not roots:
        raise InputError(empty, p)
    return [Source(d.name, found, d) for d, found in roots]


__all__ = ["Accept", "PathArg", "PathsArg", "Source", "all_files", "annotator_files",
           "annotator_sources", "as_list", "check", "distinguish", "files", "has_files", "head",
           "inception_names", "matches", "special", "subfolders", "visible"]
