"""What the tree readers (rs3, .dis) share: one file per annotator and document, read one by one,
a bad file either an error or left out with a warning."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from pathlib import Path

from ..model.errors import InputError
from ..model.rst import RSTTree
from . import Option, _paths
from ._paths import PathsArg
from ._segfiles import check_annotators

ON_ERROR = Option("on_error", "RST trees: a file that is no tree (two roots, a cycle, a parent "
                  "that does not exist …) is an error, or is left out with a one-line warning "
                  "(default: error)", choices=("error", "skip"))


def read_files(paths: PathsArg, annotators: Iterable[str] | None, suffixes: tuple[str, ...],
               read_tree: Callable[[Path, str, str], RSTTree],
               document: Callable[[Path], str], on_error: str) -> list[RSTTree]:
    """``read_tree(path, annotator, document)`` of every file (annotator = its folder, unless
    ``paths`` maps annotator names to paths). ``on_error="skip"``: a file that raises
    :class:`InputError` is left out with a ``UserWarning`` whose text is the one-line error,
    so that the other documents are still compared."""
    if on_error not in ("error", "skip"):
        raise InputError(f"on_error must be 'error' or 'skip', got {on_error!r}")
    keep = None if annotators is None else set(annotators)
    found: set[str] = set()
    seen: dict[tuple[str, str], Path] = {}
    out: list[RSTTree] = []
    for annotator, path in _paths.annotator_files(paths, suffixes):
        found.add(annotator)
        if keep is not None and annotator not in keep:
            continue
        doc = document(path)
        if (annotator, doc) in seen:
            raise InputError(f"annotator {annotator!r} has document {doc!r} twice (also "
                             f"{seen[annotator, doc]})", path)
        seen[annotator, doc] = path
        try:
            out.append(read_tree(path, annotator, doc))
        except InputError as e:
            if on_error == "error":
                raise
            warnings.warn(str(e), UserWarning, stacklevel=4)
    check_annotators(keep, found, paths)
    return out


__all__ = ["ON_ERROR", "read_files"]
