"""Rendering only: rich tables for the terminal and plain dicts for ``--json``."""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.table import Table

from ..stats import interpret
from ..stats.coefficients import Result


def fmt(x: float | None, places: int = 4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:.{places}f}"


def console(stderr: bool = False) -> Console:
    """A console; when output is not a terminal, wide enough that tables do not wrap."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, highlight=False, soft_wrap=False,
                   width=None if stream.isatty() else 160)


def results_table(results: Sequence[Result], title: str, caption: str | None = None,
                  intervals: Sequence | None = None) -> Table:
    """One row per coefficient: value, observed and expected disagreement, items, coders, and
    (with ``intervals``, one per result or None) the interval and Krippendorff's q."""
    t = Table(title=title, caption=caption, title_justify="left", caption_justify="left")
    cols = [("coefficient", {}), ("distance", {}), ("value", {"justify": "right"})]
    if intervals is not None:
        level = next((iv.level for iv in intervals if iv is not None), 0.95)
        cols += [(f"{level:.0%} CI", {"justify": "right"}),
                 ("P(<.667)", {"justify": "right"})]
    cols += [("Do", {"justify": "right"}), ("De", {"justify": "right"}),
             ("items", {"justify": "right"}), ("coders", {"justify": "right"}),
             ("convention (not a verdict)", {})]
    for name, kw in cols:
        t.add_column(name, **kw)
    for k, r in enumerate(results):
        row = [r.symbol, r.distance, fmt(r.value)]
        if intervals is not None:
            iv = intervals[k]
            row += ["—", "—"] if iv is None else \
                [f"[{fmt(iv.low)}, {fmt(iv.high)}]",
                 "—" if iv.coefficient == "bias" else fmt(iv.q.get(0.667), 3)]
        conv = "" if r.id in ("bias", "percent_agreement") or r.value != r.value \
            else interpret.short(r.value)
        row += [fmt(r.observed), fmt(r.expected), str(r.items), str(r.coders), conv]
        t.add_row(*row)
    if intervals is not None:
        done = [iv for iv in intervals if iv is not None]
        if done:
            iv = done[0]
            t.caption = (f"{iv.method}, {iv.n_resamples} resamples of "
                         f"{iv.units} {'clusters' if iv.clustered else 'items'}")
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


class LazyProgress:
    """A transient progress bar on stderr that appears only once the work has taken more than
    ``delay`` seconds, and only when enabled (default: stderr is a terminal)."""

    def __init__(self, what: str, total: int, enabled: bool | None = None,
                 delay: float = 1.0) -> None:
        self.what, self.total, self.done = what, total, 0
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.delay, self.start = delay, time.perf_counter()
        self.bar = self.task = None

    def advance(self, done: int | None = None) -> None:
        """One more step done, or ``done`` steps in all."""
        self.done = self.done + 1 if done is None else done
        if self.bar is None and self.enabled and time.perf_counter() - self.start > self.delay:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            self.bar = Progress(self.what, BarColumn(), MofNCompleteColumn(),
                                TimeRemainingColumn(), console=console(stderr=True),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task("", total=self.total)
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()

    def __enter__(self) -> LazyProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
