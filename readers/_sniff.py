"""What format sniffers look at: the beginning of a file, or of the first matching file in a
folder."""

from __future__ import annotations

from os import PathLike
from pathlib import Path


def head(path: str | PathLike, suffixes: tuple[str, ...], size: int = 1 << 20) -> str | None:
    """The first ``size`` characters of ``path``, or of the first file below it whose name ends
    with one of ``suffixes``; None when there is no such file or it cannot be read."""
    p = Path(path)
    if p.is_dir():
        p = next((f for f in sorted(p.rglob("*")) if f.name.endswith(suffixes)), None)
        if p is None:
            return None
    try:
        with open(p, encoding="utf-8", errors="replace") as fh:
            return fh.read(size)
    except OSError:
        return None
