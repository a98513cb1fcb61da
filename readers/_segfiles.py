"""File discovery and text checks shared by the segmentation readers: one folder (or a
mapping entry) per annotator, files found recursively by suffix."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path

PathsArg = str | PathLike | Iterable[str | PathLike] | Mapping[str, str | PathLike]


def expand(path: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """A file, or the files below a folder with one of ``suffixes``, sorted."""
    if path.is_dir():
        return sorted(f for f in path.rglob("*") if f.suffix.lower() in suffixes)
    return [path]


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
