"""ELAN ``.eaf`` files, for the ``spans`` job in seconds.

A file is one document (its name without ``.eaf``); each tier is an annotator's (its
``TIER_ID``, or the group of ``--tier-pattern``), each time-aligned annotation
(``ALIGNABLE_ANNOTATION``) with a value a unit of that category between its two time slots
(milliseconds in the file, seconds here). Symbolic annotations (``REF_ANNOTATION``) have no
times of their own and are left out, with a note; a time slot without a value is an
InputError. Parsed without entities, DTDs or network (Brugman & Russel 2004; ELAN's EAF
schema 3.0).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from os import PathLike

from ..model.continuum import Continuum
from ..model.errors import InputError, Problems, quote
from . import Option, _paths, _xml, register
from ._timeline import TIER_PATTERN_HELP, annotator_of, check_found, continuum, documents

PathArg = str | PathLike | Sequence[str | PathLike]
_SUFFIXES = (".eaf",)


def sniff(path: str | PathLike) -> bool:
    """True for an ``.eaf`` file (or a folder holding one) with an ``ANNOTATION_DOCUMENT``."""
    head = _paths.head(path, _SUFFIXES, 2048)
    return bool(head) and "<ANNOTATION_DOCUMENT" in head


@register("timeline", "elan", sniff=sniff, layout="each",
          options=[Option("tier_pattern", TIER_PATTERN_HELP, metavar="REGEX")],
          summary="ELAN .eaf: time-aligned tiers per annotator")
def read(paths: PathArg, annotators: Sequence[str] | None = None,
         tier_pattern: str | None = None) -> list[Continuum]:
    """The continuum in seconds of ELAN files (see the module docstring)."""
    rows: list = []
    bounds: dict = {}
    annotated: dict = {}
    problems = Problems()
    symbolic = 0
    for doc, f in documents(paths, _SUFFIXES):
        with problems.collect():
            root = _xml.parse(f).getroot()
            slots = {}
            for ts in root.iter("TIME_SLOT"):
                v = ts.get("TIME_VALUE")
                slots[ts.get("TIME_SLOT_ID")] = None if v is None else int(v) / 1000
            end = max([v for v in slots.values() if v is not None], default=0.0)
            annotated[doc] = set()
            for tier in root.iter("TIER"):
                who = annotator_of(tier.get("TIER_ID", ""), tier_pattern)
                if who is None:
                    continue
                annotated[doc].add(who)
                for a in tier.iter("ALIGNABLE_ANNOTATION"):
                    s = slots.get(a.get("TIME_SLOT_REF1"))
                    e = slots.get(a.get("TIME_SLOT_REF2"))
                    if s is None or e is None:
                        raise InputError(f"annotation {quote(a.get('ANNOTATION_ID'))} "
                                         "of tier " f"{quote(tier.get('TIER_ID'))}: a time "
                                         "slot without a time value", f, a.sourceline)
                    value = (a.findtext("ANNOTATION_VALUE") or "").strip()
                    if value and e > s:
                        rows.append((doc, who, s, e, value))
                symbolic += sum(1 for _ in tier.iter("REF_ANNOTATION"))
            bounds[doc] = (0.0, end)
    problems.check()
    if symbolic:
        warnings.warn(f"{symbolic} symbolic annotation(s) (REF_ANNOTATION) left out: they "
                      "have no times of their own", stacklevel=2)
    check_found(annotated, "tier", tier_pattern, paths)
    return [continuum(rows, bounds, annotated, annotators)]


__all__ = ["read", "sniff"]
