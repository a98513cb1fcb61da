"""ELAN ``.eaf`` files, for the ``spans`` job in seconds.

A file is one document (its name without ``.eaf``); each tier is an annotator's (its
``TIER_ID``, or the group of ``--tier-pattern``), each time-aligned annotation
(``ALIGNABLE_ANNOTATION``) with a value a unit of that category between its two time slots
(milliseconds in the file, seconds here). Parsed without entities, DTDs or network (Brugman &
Russel 2004; ELAN's EAF schema 3.0, Sloetjes's *ELAN Annotation Format* document, §2.3
``TIME_ORDER`` and §2.5 ``LINGUISTIC_TYPE``).

The tiers of each constraint of their linguistic type (``CONSTRAINTS``):

* none (an independent tier) and ``Included_In`` (time-aligned annotations inside a parent's
  interval, gaps allowed): each annotation between its own time slots;
* ``Time_Subdivision`` (a parent's interval cut into annotations without gaps): the
  annotations of one parent share their inner time slots, which ELAN writes without a
  ``TIME_VALUE`` until the user aligns them. ELAN shows such an unaligned boundary at an equal
  share of the interval between the nearest aligned slots of the chain (the parent's begin
  and end when none inside is aligned), and so are they read here: the chain of slots is
  followed from annotation to annotation (``TIME_SLOT_REF2`` of one is ``TIME_SLOT_REF1`` of
  the next), not the file's ``TIME_ORDER``, which interleaves the tiers' unaligned slots;
* ``Symbolic_Subdivision`` and ``Symbolic_Association`` (``REF_ANNOTATION`` s, no times of
  their own): not annotators' units in seconds. Read by default, such a tier is left out
  with a warning naming it; named by ``--tier-pattern``, it is an error naming file and tier.

An unaligned slot that no aligned one bounds in its chain is an error naming the file, the
tier and the annotation.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from ..model.continuum import Continuum
from ..model.errors import InputError, Problems, quote
from . import Option, _paths, _xml, register
from ._timeline import TIER_PATTERN_HELP, annotator_of, check_found, continuum, documents

PathArg = str | PathLike | Sequence[str | PathLike]
_SUFFIXES = (".eaf",)
#: the constraints of a tier whose annotations have no times of their own
SYMBOLIC = ("Symbolic_Subdivision", "Symbolic_Association")


def sniff(path: str | PathLike) -> bool:
    """True for an ``.eaf`` file (or a folder holding one) with an ``ANNOTATION_DOCUMENT``."""
    head = _paths.head(path, _SUFFIXES, 2048)
    return bool(head) and "<ANNOTATION_DOCUMENT" in head


def _chained(spans: list[tuple[str, str, object]], slots: dict[str, float | None],
             tier: str, f: Path) -> dict[str, float]:
    """The time of every slot of a tier's annotations ``(ref1, ref2, element)``: its value,
    else an equal share of the interval between the nearest aligned slots of its chain (see
    the module docstring); an unaligned slot without them is an InputError."""
    nxt = {r1: (r2, a) for r1, r2, a in spans}
    ends = {r2 for _, r2, _ in spans}
    times: dict[str, float] = {}
    starts = [r1 for r1, _, _ in spans if r1 not in ends]
    seen: set[str] = set()
    for first in starts + [r1 for r1, _, _ in spans]:  # then any chain that is a cycle
        if first in seen:
            continue
        chain, owner = [first], [nxt[first][1]]
        seen.add(first)
        while chain[-1] in nxt and nxt[chain[-1]][0] not in seen:
            r2, a = nxt[chain[-1]]
            chain.append(r2)
            owner.append(nxt[r2][1] if r2 in nxt else a)
            seen.add(r2)
        known = [k for k, s in enumerate(chain) if slots.get(s) is not None]
        for k, s in enumerate(chain):
            if slots.get(s) is not None:
                times[s] = slots[s]
                continue
            before = [i for i in known if i < k]
            after = [i for i in known if i > k]
            if not before or not after:
                a = owner[min(k, len(owner) - 1)]
                raise InputError(f"tier {quote(tier)}, annotation "
                                 f"{quote(a.get('ANNOTATION_ID'))}: time slot {quote(s)} "
                                 "without a time value, and no aligned slot "
                                 f"{'before' if not before else 'after'} it in its chain",
                                 f, a.sourceline)
            i, j = before[-1], after[0]
            times[s] = slots[chain[i]] + (slots[chain[j]] - slots[chain[i]]) * (k - i) / (j - i)
    return times


@register("timeline", "elan", sniff=sniff, layout="each",
          options=[Option("tier_pattern", TIER_PATTERN_HELP, metavar="REGEX")],
          summary="ELAN .eaf: time-aligned tiers per annotator (subdivided tiers' unaligned "
          "slots interpolated as ELAN shows them)")
def read(paths: PathArg, annotators: Sequence[str] | None = None,
         tier_pattern: str | None = None) -> list[Continuum]:
    """The continuum in seconds of ELAN files (see the module docstring).

    >>> c = read(["tests/data/timeline/pympi_sample_3.0.eaf"],
    ...          tier_pattern="^words-timesub$")[0]
    >>> [u[2:] for u in c.units()[10:15]]  # five words of 8–11 s, none aligned inside
    [(8.0, 8.6, 'The'), (8.6, 9.2, 'quick'), (9.2, 9.8, 'brown'), (9.8, 10.4, 'fox'),
     (10.4, 11.0, '003')]
    """
    rows: list = []
    bounds: dict = {}
    annotated: dict = {}
    problems = Problems()
    symbolic: list[str] = []
    for doc, f in documents(paths, _SUFFIXES):
        with problems.collect():
            root = _xml.parse(f).getroot()
            slots = {}
            for ts in root.iter("TIME_SLOT"):
                v = ts.get("TIME_VALUE")
                slots[ts.get("TIME_SLOT_ID")] = None if v is None else int(v) / 1000
            end = max([v for v in slots.values() if v is not None], default=0.0)
            constraint = {t.get("LINGUISTIC_TYPE_ID"): t.get("CONSTRAINTS")
                          for t in root.iter("LINGUISTIC_TYPE")}
            annotated[doc] = set()
            for tier in root.iter("TIER"):
                name = tier.get("TIER_ID", "")
                who = annotator_of(name, tier_pattern)
                if who is None:
                    continue
                kind = constraint.get(tier.get("LINGUISTIC_TYPE_REF"))
                if kind in SYMBOLIC or next(tier.iter("REF_ANNOTATION"), None) is not None:
                    what = kind or "REF_ANNOTATION"
                    if tier_pattern is not None:
                        raise InputError(f"tier {quote(name)} is {what} of "
                                         f"{quote(tier.get('PARENT_REF'))}: its annotations "
                                         "have no times of their own; choose time-aligned "
                                         "tiers with --tier-pattern", f, tier.sourceline)
                    symbolic.append(f"{name} ({f.name})")
                    continue
                annotated[doc].add(who)
                spans = [(a.get("TIME_SLOT_REF1"), a.get("TIME_SLOT_REF2"), a)
                         for a in tier.iter("ALIGNABLE_ANNOTATION")]
                for r1, r2, a in spans:
                    if r1 not in slots or r2 not in slots:
                        raise InputError(f"tier {quote(name)}, annotation "
                                         f"{quote(a.get('ANNOTATION_ID'))}: no time slot "
                                         f"{quote(r1 if r1 not in slots else r2)}",
                                         f, a.sourceline)
                times = _chained(spans, slots, name, f) \
                    if any(slots[s] is None for r1, r2, _ in spans for s in (r1, r2)) else slots
                for r1, r2, a in spans:
                    s, e = times[r1], times[r2]
                    value = (a.findtext("ANNOTATION_VALUE") or "").strip()
                    if value and e > s:
                        rows.append((doc, who, s, e, value))
            bounds[doc] = (0.0, end)
    problems.check()
    if symbolic:
        warnings.warn(f"symbolic tier(s) left out, their annotations have no times of their "
                      f"own: {', '.join(symbolic)}", stacklevel=2)
    check_found(annotated, "tier", tier_pattern, paths)
    return [continuum(rows, bounds, annotated, annotators)]


__all__ = ["SYMBOLIC", "read", "sniff"]
