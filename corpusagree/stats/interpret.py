"""Conventional readings of agreement values: where a value falls on a published scale.

Two scales, each named with its source so that a reading is always *a convention*, never a
verdict on an annotation:

* **Krippendorff** (1980, p. 147; relayed by Carletta 1996, p. 252): values ≥ .800 "good
  reliability", .667–.800 "tentative conclusions", below .667 discounted.
* **Landis & Koch** (1977), as printed in Artstein & Poesio's Table 8 (2005, §5.2):
  < 0 poor, 0.00–0.20 slight, 0.21–0.40 fair, 0.41–0.60 moderate, 0.61–0.80 substantial,
  0.81–1.00 almost perfect (Landis & Koch's word; Artstein & Poesio's table shortens it to
  "perfect"). A value between the
  printed ranges (e.g. .205) belongs to the higher band: bands are (low, high].

Caveat (Artstein & Poesio 2005, §5.2): deciding what counts as an acceptable level of
agreement "is little more than a black art". Landis & Koch's scale comes from medical
diagnosis; Krippendorff's thresholds were stated for α, not κ, and he made them depend on what
the data are to be used for; Artstein & Poesio found substantial but imperfect agreement giving
values around .7 and doubt "that a single cutoff point is appropriate for all tasks"; and with
weighted coefficients the value depends greatly on the distance metric chosen. Cohen (1960):
"to know merely that κ is beyond chance is trivial". Read a band as a position on a scale, and
report the interval around the value: an interval that straddles a threshold (see
:func:`interpret_interval`) says the data cannot place the value on either side of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: values are compared after rounding to this many decimals, so that a computed .8 that is
#: .7999999999999999 in floating point reads as .8
DECIMALS = 12


@dataclass(frozen=True)
class Band:
    """A band of a scale from ``low`` to ``high``, each end closed or open."""

    low: float
    high: float
    label: str
    closed_low: bool = False
    closed_high: bool = True

    def __contains__(self, v: float) -> bool:
        above = self.low <= v if self.closed_low else self.low < v
        below = v <= self.high if self.closed_high else v < self.high
        return above and below

    @property
    def span(self) -> str:
        lo = "−∞" if math.isinf(self.low) else f"{self.low:.3g}"
        hi = "+∞" if math.isinf(self.high) else f"{self.high:.3g}"
        return f"{'[' if self.closed_low else '('}{lo}, {hi}{']' if self.closed_high else ')'}"


@dataclass(frozen=True)
class Scale:
    """A published convention: its name, citation and bands (covering the real line)."""

    name: str
    source: str
    bands: tuple[Band, ...]

    def band(self, value: float) -> Band:
        v = round(float(value), DECIMALS)
        return next(b for b in self.bands if v in b)


KRIPPENDORFF = Scale("krippendorff", "Krippendorff 1980, p. 147", (
    Band(-math.inf, 0.667, "below .667: discounted", True, False),
    Band(0.667, 0.800, ".667–.800: tentative conclusions", True, False),
    Band(0.800, math.inf, "≥ .800: good reliability", True, False),
))

LANDIS_KOCH = Scale("landis_koch", "Landis & Koch 1977 (A&P Table 8)", (
    Band(-math.inf, 0.0, "poor", True, False),
    Band(0.0, 0.20, "slight", True, True),
    Band(0.20, 0.40, "fair"),
    Band(0.40, 0.60, "moderate"),
    Band(0.60, 0.80, "substantial"),
    Band(0.80, math.inf, "almost perfect"),
))

SCALES: dict[str, Scale] = {s.name: s for s in (KRIPPENDORFF, LANDIS_KOCH)}

#: Koo & Li's (2016, p. 158) reading of an intraclass correlation: below .5 poor, .5–.75
#: moderate, .75–.9 good, above .9 excellent. They ask that it be read off the 95% interval,
#: not the value alone (:func:`interpret_interval`). For ICCs only, so not in :data:`SCALES`
#: (which every α is read on).
KOO_LI = Scale("koo_li", "Koo & Li 2016, p. 158", (
    Band(-math.inf, 0.5, "poor", True, False),
    Band(0.5, 0.75, "moderate", True, False),
    Band(0.75, 0.90, "good", True, True),
    Band(0.90, math.inf, "excellent", False, False),
))


@dataclass(frozen=True)
class Reading:
    """Where a value falls on one scale; ``str()`` names the scale as a convention."""

    value: float
    scale: str
    label: str
    band: str
    source: str

    def __str__(self) -> str:
        return f"{self.label} (convention of {self.source})"

    def as_dict(self) -> dict:
        return {"value": self.value, "scale": self.scale, "label": self.label,
                "band": self.band, "convention": self.source}


def _scale(scale: str | Scale) -> Scale:
    if isinstance(scale, Scale):
        return scale
    try:
        return SCALES[scale]
    except KeyError:
        raise ValueError(f"unknown scale {scale!r}; known: {', '.join(SCALES)}") from None


def interpret(value: float, scale: str | Scale = "krippendorff") -> Reading | None:
    """The band of ``value`` on a conventional scale; None for an undefined (nan) value."""
    s = _scale(scale)
    if value is None or math.isnan(float(value)):
        return None
    b = s.band(value)
    return Reading(float(value), s.name, b.label, b.span, s.source)


def readings(value: float) -> dict[str, Reading | None]:
    """The value's reading on every scale, by scale name."""
    return {name: interpret(value, name) for name in SCALES}


def interpret_interval(low: float, high: float, scale: str | Scale = "krippendorff") -> str:
    """Which bands an interval [low, high] touches: one band, or the range it straddles."""
    s = _scale(scale)
    if any(x is None or math.isnan(float(x)) for x in (low, high)):
        return "undefined"
    lo, hi = s.band(min(low, high)), s.band(max(low, high))
    if lo == hi:
        return f"within {lo.label} (convention of {s.source})"
    return f"straddles {lo.label} … {hi.label} (convention of {s.source})"


def short(value: float) -> str:
    """A compact reading on both scales for table cells, Krippendorff's band then Landis &
    Koch's label, e.g. ``≥ .800 · almost perfect`` (see :data:`SHORT_LEGEND`)."""
    r = readings(value)
    if r["krippendorff"] is None:
        return "—"
    return f"{r['krippendorff'].label.split(':')[0]} · {r['landis_koch'].label}"


#: the caveat of the module docstring in two sentences, for reports that draw the scales
CAVEAT = ("Deciding what counts as acceptable agreement \"is little more than a black art\" "
          "and a single cutoff may not suit every task (Artstein & Poesio 2005, §5.2); "
          "Landis & Koch's scale comes from medical diagnosis, Krippendorff stated his "
          "thresholds for α and made them depend on the use of the data. Read a band as a "
          "position on a scale, with the interval around the value.")

#: what :func:`short` readings mean, for the line under a table
SHORT_LEGEND = ("reading: Krippendorff's band (.667/.800) · Landis & Koch's label (1977); "
                "conventions, not verdicts (Artstein & Poesio 2005, §5.2)")


__all__ = ["CAVEAT", "DECIMALS", "KOO_LI", "KRIPPENDORFF", "LANDIS_KOCH", "SCALES",
           "SHORT_LEGEND", "Band", "Reading", "Scale", "interpret", "interpret_interval",
           "readings", "short"]
