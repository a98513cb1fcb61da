"""Praat TextGrid files (long and short text formats), for the ``spans`` job in seconds.

A file is one document (its name without ``.TextGrid``); each interval tier is an
annotator's (its name, or the group of ``--tier-pattern``), each interval with a non-empty
text a unit of that category on ``[xmin, xmax)``. Point tiers (``TextTier``) are left out,
with a note. An interval tier whose intervals overlap is an InputError naming file and line;
an overlap of at most :data:`TOLERANCE` (rounding: the files of forced aligners have an
interval end at 1372.6225001 and the next start at 1372.6225) starts the interval where the
one before ends. The file is read as one stream of values (quoted texts, numbers,
``<exists>``): the long format's ``name =`` labels and ``[n]:`` headings are skipped, so both
formats read alike, and so does the short format of older Praat versions, which has no
``Object class =`` (``File type = "ooTextFile short"`` then ``"TextGrid"``) (Boersma &
Weenink, Praat's TextGrid file formats).
"""

from __future__ import annotations

import bisect
import re
import warnings
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from ..model.continuum import Continuum
from ..model.errors import InputError, Problems, quote
from ..model.io import read_text
from . import Option, _paths, register
from ._timeline import TIER_PATTERN_HELP, annotator_of, check_found, continuum, documents

PathArg = str | PathLike | Sequence[str | PathLike]
_SUFFIXES = (".TextGrid", ".textgrid", ".textGrid")
#: seconds an interval may start before the one before it ends, as rounding (1 µs)
TOLERANCE = 1e-6
#: the file types of a TextGrid text file (``ooTextFile short``: older Praat's short format)
FILE_TYPES = ("ooTextFile", "ooTextFile short")
_VALUE = re.compile(r'"((?:[^"]|"")*)"|(?<![\w\[.])(-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)(?![\w\]])'
                    r'|(<exists>)|(<absent>)|\[\d*\]')


def sniff(path: str | PathLike) -> bool:
    """True for a file (or a folder holding one) that starts as a TextGrid does."""
    head = _paths.head(path, _SUFFIXES, 512)
    return bool(head) and '"ooTextFile' in head[:200] and '"TextGrid"' in head[:300]


@register("timeline", "textgrid", sniff=sniff, layout="each",
          options=[Option("tier_pattern", TIER_PATTERN_HELP, metavar="REGEX")],
          summary="Praat TextGrid (long or short text format): interval tiers per annotator")
def read(paths: PathArg, annotators: Sequence[str] | None = None,
         tier_pattern: str | None = None) -> list[Continuum]:
    """The continuum in seconds of TextGrid files (see the module docstring)."""
    rows: list = []
    bounds: dict = {}
    annotated: dict = {}
    problems = Problems()
    points = 0
    for doc, f in documents(paths, _SUFFIXES):
        with problems.collect():
            b, tiers, skipped = parse(f)
            points += skipped
            bounds[doc] = b
            annotated[doc] = set()
            for name, intervals in tiers:
                who = annotator_of(name, tier_pattern)
                if who is None:
                    continue
                if who in annotated[doc]:
                    raise InputError(f"two tiers of annotator {quote(who)}", f)
                annotated[doc].add(who)
                rows += [(doc, who, s, e, t) for s, e, t in intervals]
    problems.check()
    if points:
        warnings.warn(f"{points} point tier(s) left out: the spans job measures intervals",
                      stacklevel=2)
    check_found(annotated, "interval tier", tier_pattern, paths)
    return [continuum(rows, bounds, annotated, annotators)]


def parse(path: Path) -> tuple[tuple[float, float], list[tuple[str, list]], int]:
    """``((xmin, xmax), [(tier name, [(start, end, text)])], point tiers)`` of one file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "a.TextGrid"
    >>> _ = f.write_text('File type = "ooTextFile"\\nObject class = "TextGrid"\\n\\n0\\n2\\n'
    ...                  '<exists>\\n1\\n"IntervalTier"\\n"ann1"\\n0\\n2\\n2\\n0\\n1.5\\n"a"\\n'
    ...                  '1.5\\n2\\n""\\n')
    >>> parse(f)
    ((0.0, 2.0), [('ann1', [(0.0, 1.5, 'a')])], 0)
    """
    text = read_text(path)
    lines = [m.start() for m in re.finditer("\n", text)]
    values = []
    for m in _VALUE.finditer(text):
        if m[1] is not None:
            values.append((m[1].replace('""', '"'), m.start()))
        elif m[2] is not None:
            values.append((float(m[2]), m.start()))
        elif m[3] or m[4]:
            values.append((m[3] or m[4], m.start()))
    pos = 0

    def line(at: int) -> int:
        return bisect.bisect_left(lines, at) + 1

    def take(kind):
        nonlocal pos
        if pos >= len(values):
            raise InputError(f"the file ends where {kind} was expected", path,
                             len(lines) + 1)
        v, at = values[pos]
        pos += 1
        if (kind == "a number") != isinstance(v, float):
            raise InputError(f"{quote(str(v))} where {kind} was expected", path, line(at))
        return v, at

    if len(values) < 2 or values[0][0] not in FILE_TYPES or values[1][0] != "TextGrid":
        raise InputError("not a TextGrid text file (File type = \"ooTextFile\", Object class "
                         "= \"TextGrid\")", path, 1)
    pos = 2
    xmin, _ = take("a number")
    xmax, _ = take("a number")
    if pos < len(values) and values[pos][0] in ("<exists>", "<absent>"):
        pos += 1
    size, _ = take("a number")
    tiers, points = [], 0
    for _ in range(int(size)):
        cls, at = take("a tier class")
        name, _ = take("a tier name")
        take("a number")
        take("a number")
        n, _ = take("a number")
        if cls == "TextTier":
            for _ in range(int(n)):
                take("a number")
                take("a mark")
            points += 1
            continue
        if cls != "IntervalTier":
            raise InputError(f"unknown tier class {quote(cls)}", path, line(at))
        intervals, last_end = [], float("-inf")
        for _ in range(int(n)):
            s, at = take("a number")
            e, _ = take("a number")
            t, _ = take("an interval text")
            if last_end - TOLERANCE <= s < last_end:
                s = last_end
            if s < last_end:
                raise InputError(f"tier {quote(name)}: the interval [{s:g}, {e:g}) overlaps "
                                 f"the one before, which ends at {last_end:g}", path, line(at))
            if e < s:
                raise InputError(f"tier {quote(name)}: the interval ends ({e:g}) before it "
                                 f"starts ({s:g})", path, line(at))
            last_end = e
            if t.strip() and e > s:
                intervals.append((s, e, t.strip()))
        tiers.append((name, intervals))
    return (xmin, xmax), tiers, points


__all__ = ["FILE_TYPES", "TOLERANCE", "parse", "read", "sniff"]
