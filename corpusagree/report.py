"""Rendering only: rich tables for the terminal and plain dicts for ``--json``."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.table import Table

from .coefficients import Result


def fmt(x: float | None, places: int = 4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:.{places}f}"


def console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def results_table(results: Sequence[Result], title: str, caption: str | None = None) -> Table:
    """One row per coefficient: value, observed and expected disagreement, items, coders."""
    t = Table(title=title, caption=caption, title_justify="left", caption_justify="left")
    for name, kw in (("coefficient", {}), ("distance", {}), ("value", {"justify": "right"}),
                     ("Do", {"justify": "right"}), ("De", {"justify": "right"}),
                     ("items", {"justify": "right"}), ("coders", {"justify": "right"})):
        t.add_column(name, **kw)
    for r in results:
        t.add_row(r.coefficient, r.distance, fmt(r.value), fmt(r.observed), fmt(r.expected),
                  str(r.items), str(r.coders))
    return t


def matrix_table(title: str, names: Sequence, matrix, places: int = 3) -> Table:
    """A square (coder × coder) matrix."""
    t = Table(title=title, title_justify="left")
    t.add_column("")
    for n in names:
        t.add_column(str(n), justify="right")
    for n, row in zip(names, matrix, strict=True):
        t.add_row(str(n), *(fmt(float(x), places) for x in row))
    return t


def rows_table(title: str, header: Sequence[str], rows: Iterable[Sequence]) -> Table:
    t = Table(title=title, title_justify="left")
    for h in header:
        t.add_column(h)
    for row in rows:
        t.add_row(*(fmt(x) if isinstance(x, float) else str(x) for x in row))
    return t


def _clean(o):
    if isinstance(o, float) and (math.isnan(o) or math.isinf(o)):
        return None
    if isinstance(o, dict):
        return {str(k): _clean(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_clean(v) for v in o]
    if hasattr(o, "item") and callable(o.item):  # numpy scalars
        return _clean(o.item())
    return o


def print_json(payload: dict) -> None:
    """JSON on stdout; nan becomes null."""
    json.dump(_clean(payload), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
