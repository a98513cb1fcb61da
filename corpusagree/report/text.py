"""How a renderer writes one value of a report table (shared by the terminal and Markdown).

Floats with the column's decimals, intervals as ``[low, high]``, shares as percentages, set
labels as ``{a, b, …}``; an undefined value (None, nan) as a dash. In ASCII mode every string
is spelled in ASCII (α → alpha, — → -), for consoles that cannot encode Unicode.
"""

from __future__ import annotations

import math
import unicodedata

from .tables import Column

__all__ = ["ASCII", "MAX_SET_ELEMENTS", "ascii_text", "cell", "label", "number", "right_aligned"]

#: set labels in table cells show at most this many elements (JSON and CSV have them all)
MAX_SET_ELEMENTS = 8

ASCII = {
    "α": "alpha", "β": "beta", "κ": "kappa", "π": "pi", "σ": "sigma", "Σ": "sum",
    "′": "'", "—": "-", "–": "-", "−": "-", "…": "...", "×": "x", "·": "/", "≥": ">=",
    "≤": "<=", "≠": "!=", "→": "->", "³": "3", "²": "2", "P̂": "P^", "±": "+/-",
}


def ascii_text(s: str) -> str:
    """``s`` spelled in ASCII: known symbols by name, other letters without their accents."""
    if s.isascii():
        return s
    for a, b in ASCII.items():
        s = s.replace(a, b)
    s = unicodedata.normalize("NFKD", s)
    return "".join(ch if ord(ch) < 128 else "?" for ch in s if not unicodedata.combining(ch))


def number(x: float | int | None, places: int = 4) -> str:
    """A number with ``places`` decimals; a dash for None and nan."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    if abs(x) < 0.5 * 10 ** -places:
        x = 0.0  # no "-0.0000"
    return f"{x:.{places}f}"


def label(x) -> str:
    """A label: a set as ``{a, b, …}`` (at most :data:`MAX_SET_ELEMENTS` elements), missing
    as ``·``."""
    if x is None:
        return "·"
    if isinstance(x, (list, tuple, frozenset, set)):
        items = sorted(map(str, x)) if isinstance(x, (frozenset, set)) else [str(v) for v in x]
        more = len(items) - MAX_SET_ELEMENTS
        return "{" + ", ".join(items[:MAX_SET_ELEMENTS]) + (f", … +{more}" if more > 0
                                                             else "") + "}"
    return str(x)


def cell(value, column: Column) -> str:
    """One table cell as text."""
    kind = column.kind
    if kind == "float":
        return number(value, column.places)
    if kind == "magnitude":
        return "—" if value is None or value != value else f"{value:.{column.places}g}"
    if kind == "int":
        return "—" if value is None else str(int(value))
    if kind == "interval":
        if value is None:
            return "—"
        return f"[{number(value[0], column.places)}, {number(value[1], column.places)}]"
    if kind == "share":
        return "—" if value is None or value != value else f"{100 * value:.3g} %"
    if kind == "label":
        return label(value)
    if kind == "context":
        return "—" if value is None else " ".join(x for x in (value[0], f"«{value[1]}»",
                                                             value[2]) if x)
    if value is None:
        return "—"
    if isinstance(value, float):
        return number(value, column.places)
    return str(value)


#: the words of a short reading (:func:`corpusagree.stats.interpret.short`) and their
#: abbreviations, for a terminal short of width: Krippendorff's band, then Landis & Koch's label
READING_ABBREVIATIONS = (("below .667", "<.667"), (".667–.800", ".667–.8"), ("≥ .800", "≥.8"),
                         (" · ", " "), ("moderate", "moder."), ("substantial", "subst."),
                         ("almost perfect", "alm. perf."))


def abbreviated_reading(text: str) -> str:
    """A short reading in at most 14 characters, e.g. ``≥ .800 · almost perfect`` as
    ``≥.8 alm. perf.``; anything else as it is.

    >>> abbreviated_reading(".667–.800 · substantial"), abbreviated_reading("—")
    ('.667–.8 subst.', '—')
    """
    for long, short in READING_ABBREVIATIONS:
        text = text.replace(long, short)
    return text


def right_aligned(column: Column) -> bool:
    return column.kind in ("float", "magnitude", "int", "interval", "share")
