"""Relation label mapping files: each line a relation label and the class it counts as,
separated by a tab (or, where no tab, by whitespace); ``#`` starts a comment. The RST-DT's
18 classes ship as the named mapping ``rstdt18``
(:data:`corpusagree.stats.trees.labels.RSTDT_CLASSES`)."""

from __future__ import annotations

from os import PathLike

from ..model.errors import InputError
from ..model.io import excerpt, read_text


def read_mapping(path: str | PathLike) -> dict[str, str]:
    """label -> class from a mapping file; a label given two different classes is an error.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "map.tsv"
    >>> _ = f.write_text("# relation\\tclass\\nreason\\tCause\\nresult Cause\\n")
    >>> read_mapping(f)
    {'reason': 'Cause', 'result': 'Cause'}
    """
    out: dict[str, str] = {}
    lines: dict[str, int] = {}
    for n, line in enumerate(read_text(path).splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split("\t") if "\t" in line else line.split()
        parts = [p.strip() for p in parts if p.strip()]
        if len(parts) != 2:
            raise InputError(f"expected a relation and its class, found {excerpt(line)}", path, n)
        label, cls = parts
        if out.get(label.lower(), cls) != cls:
            raise InputError(f"{label!r} is mapped to {out[label.lower()]!r} on line "
                             f"{lines[label.lower()]} and to {cls!r} here", path, n)
        out[label.lower()] = cls
        lines[label.lower()] = n
    if not out:
        raise InputError("no relation mapping in this file", path)
    return out


__all__ = ["read_mapping"]
