"""What the readers of time-aligned annotation share (TextGrid, ELAN, RTTM): the tiers an
option picks as annotators, and the continuum in seconds of their intervals."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from ..model.continuum import Continuum
from ..model.errors import InputError, listing, quote
from . import _paths

__all__ = ["TIER_PATTERN_HELP", "annotator_of", "check_found", "continuum", "documents"]

#: the option every time-aligned reader but RTTM takes
TIER_PATTERN_HELP = ("TextGrid, ELAN: a regular expression the annotators' tiers match; its "
                     "group 'annotator' (or its first group) names the annotator (default: "
                     "every interval tier, named by its name)")


def annotator_of(tier: str, pattern: str | None) -> str | None:
    """The annotator a tier belongs to under ``pattern`` (None: the tier is not read)."""
    if pattern is None:
        return tier
    try:
        m = re.search(pattern, tier)
    except re.error as e:
        raise InputError(f"tier_pattern={quote(pattern)} is no regular expression: {e}") \
            from None
    if m is None:
        return None
    if "annotator" in m.re.groupindex:
        return m["annotator"]
    return m[1] if m.re.groups else tier


def documents(paths, suffixes: Sequence[str]) -> Iterator[tuple[str, Path]]:
    """``(document, file)`` of each file of ``paths`` (one file per document, named by its
    path under its folder without the suffix); a document read twice is an InputError."""
    seen: set[str] = set()
    for source in _paths.annotator_sources(paths, None, suffixes, layout="each"):
        for f in source.files:
            doc = str(f.relative_to(source.root).with_suffix(""))
            if doc in seen:
                raise InputError(f"document {quote(doc)} read twice", f)
            seen.add(doc)
            yield doc, f


def check_found(annotated: dict[str, set[str]], what: str, tier_pattern: str | None,
                paths) -> None:
    """An InputError when no file had a tier taken as an annotator's (``what``: the kind of
    tier the reader reads)."""
    if not any(annotated.values()):
        raise InputError(f"no {what} found" + (
            f" matching tier_pattern={quote(tier_pattern)}" if tier_pattern else ""),
            _paths.as_list(paths)[0])


def continuum(rows: Sequence[tuple[str, str, float, float, str]],
              bounds: dict[str, tuple[float, float]], annotated: dict[str, set[str]],
              annotators: Sequence[str] | None = None) -> Continuum:
    """The continuum in seconds of ``(document, annotator, start, end, label)`` rows, each
    document on ``bounds[document]``, ``annotated[document]`` the annotators of it (also
    those who marked nothing there); ``annotators`` orders (and renames, when their number
    is that of the annotators found) the annotators."""
    found = list(dict.fromkeys(a for d in bounds for a in sorted(annotated[d])))
    rename = {}
    if annotators is not None:
        if len(annotators) != len(found):
            raise InputError(f"annotators=[...] gives {len(annotators)} names for "
                             f"{len(found)} annotators ({listing(found)})")
        rename = dict(zip(found, annotators, strict=True))
    names = [rename.get(a, a) for a in found]
    docs = list(bounds)
    a_ix = {a: i for i, a in enumerate(found)}
    d_ix = {d: i for i, d in enumerate(docs)}
    cats = sorted({r[4] for r in rows})
    c_ix = {c: i for i, c in enumerate(cats)}
    table = np.zeros((len(found), len(docs)), bool)
    for d, who in annotated.items():
        table[[a_ix[a] for a in who], d_ix[d]] = True
    n = len(rows)
    return Continuum(names, cats, docs, np.array([bounds[d] for d in docs], float).reshape(-1, 2),
                     table, np.fromiter((d_ix[r[0]] for r in rows), np.int64, n),
                     np.fromiter((a_ix[r[1]] for r in rows), np.int64, n),
                     np.fromiter((r[2] for r in rows), float, n),
                     np.fromiter((r[3] for r in rows), float, n),
                     np.fromiter((c_ix[r[4]] for r in rows), np.int64, n), "second")
