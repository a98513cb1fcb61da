"""RTTM (Rich Transcription Time Marked) files, for the ``spans`` job in seconds.

Each ``SPEAKER file channel onset duration <NA> <NA> name <NA> <NA>`` line is a unit
``[onset, onset + duration)`` of category ``name`` in document ``file`` (NIST RT-09
evaluation plan, appendix A); other line types are left out. One file or folder per
annotator; a document's continuum runs from 0 to the last end any annotator marked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from os import PathLike

from ..model.continuum import Continuum
from ..model.errors import InputError, Problems, quote
from ..model.io import read_text
from . import _paths, register
from ._timeline import continuum

PathArg = str | PathLike | Sequence[str | PathLike]
_SUFFIXES = (".rttm",)
#: the line types of RTTM
TYPES = ("SPEAKER", "SPKR-INFO", "SEGMENT", "LEXEME", "NON-LEX", "NON-SPEECH", "FILLER",
         "IP", "EDIT", "SU", "CB", "A/P", "NOSCORE", "NO_RT_METADATA")


def sniff(path: str | PathLike) -> bool:
    """True for a ``.rttm`` file (or a folder holding one) whose first line is of an RTTM
    type with ten or more fields."""
    head = _paths.head(path, _SUFFIXES, 4096)
    first = next((x for x in (head or "").splitlines() if x.strip()), "").split()
    return len(first) >= 9 and first[0] in TYPES


@register("timeline", "rttm", sniff=sniff, layout="path",
          summary="RTTM SPEAKER lines: one file or folder per annotator")
def read(paths: PathArg, annotators: Sequence[str] | None = None) -> list[Continuum]:
    """The continuum in seconds of RTTM files (see the module docstring)."""
    rows: list = []
    ends: dict[str, float] = {}
    annotated: dict[str, set] = {}
    problems = Problems()
    for name, files, _ in _paths.annotator_sources(paths, annotators, _SUFFIXES):
        for f in files:
            for k, line in enumerate(read_text(f).split("\n"), 1):
                fields = line.split()
                if not fields or fields[0] != "SPEAKER":
                    if fields and fields[0] not in TYPES and not fields[0].startswith(";"):
                        problems.add(InputError(
                            f"unknown RTTM line type {quote(fields[0])}", f, k))
                    continue
                with problems.collect():
                    if len(fields) < 8:
                        raise InputError("a SPEAKER line has 9 or 10 fields", f, k)
                    try:
                        onset, duration = float(fields[3]), float(fields[4])
                    except ValueError:
                        raise InputError(f"onset {quote(fields[3])} and duration "
                                         f"{quote(fields[4])} must be numbers", f, k) from None
                    if not (math.isfinite(onset) and math.isfinite(duration)):
                        raise InputError(f"onset {quote(fields[3])} and duration "
                                         f"{quote(fields[4])} must be finite", f, k)
                    if duration < 0 or onset < 0:
                        raise InputError("a negative onset or duration", f, k)
                    if duration > 0 and not onset + duration > onset:
                        raise InputError(f"duration {quote(fields[4])} is lost in the "
                                         f"precision of onset {quote(fields[3])}", f, k)
                    doc = fields[1]
                    annotated.setdefault(doc, set()).add(name)
                    ends[doc] = max(ends.get(doc, 0.0), onset + duration)
                    if duration > 0:
                        rows.append((doc, name, onset, onset + duration, fields[7]))
    problems.check()
    if not rows:
        raise InputError("no SPEAKER line found", _paths.as_list(paths)[0])
    everyone = {r[1] for r in rows}
    for doc in annotated:     # every annotator of the corpus annotated each file id
        annotated[doc] = everyone | annotated[doc]
    return [continuum(rows, {d: (0.0, e) for d, e in ends.items()}, annotated)]


__all__ = ["TYPES", "read", "sniff"]
