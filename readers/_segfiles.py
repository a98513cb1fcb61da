"""File discovery and text checks shared by the segmentation readers: one folder (or a
mapping entry) per annotator, files found recursively by suffix."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path

from ..model.errors import InputError

PathsArg = str | PathLike | Iterable[str | PathLike] | Mapping[str, str | PathLike]


def expand(path: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """A file, or the files below a folder with one of ``suffixes``, sorted."""
    if path.is_dir():
        return sorted(f for f in path.rglob("*") if f.suffix.lower() in suffixes)
    return [path]


def files(paths: str | PathLike | Iterable[str | PathLike], suffixes: tuple[str, ...]
          ) -> list[Path]:
    """Every file named or found below the folders named, in order."""
    if isinstance(paths, (str, PathLike)):
        paths = [paths]
    return [f for p in paths for f in expand(Path(p), suffixes)]


def annotator_files(paths: PathsArg, suffixes: tuple[str, ...]) -> list[tuple[str, Path]]:
    """(annotator, file) pairs: the annotator is the mapping key, else the file's folder name."""
    if isinstance(paths, Mapping):
        return [(str(name), f) for name, p in paths.items() for f in expand(Path(p), suffixes)]
    if isinstance(paths, (str, PathLike)):
        paths = [paths]
    return [(f.parent.name, f) for p in paths for f in expand(Path(p), suffixes)]


def first_difference(a: list[str], b: list[str]) -> int | None:
    """Index of the first unit where two unit sequences differ (None if identical)."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def has_suffix(path: str | PathLike, suffixes: tuple[str, ...]) -> bool:
    """True for a file with one of ``suffixes``, or a folder holding one (the readers' sniff)."""
    path = Path(path)
    if path.is_dir():
        return any(f.suffix.lower() in suffixes for f in path.rglob("*"))
    return path.suffix.lower() in suffixes


def check_annotators(keep: set | None, found: set) -> None:
    """The annotators asked for must all have been found."""
    if keep is not None and keep - found:
        raise InputError(f"annotators not found: {', '.join(sorted(keep - found))}")
