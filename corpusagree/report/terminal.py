"""Reports on the terminal: rich tables that follow the terminal's width.

On a terminal the width is the terminal's; redirected, it is ``COLUMNS`` or 80, so output in a
pipe or a file fits 80 columns. Numbers never wrap; text cells and headers wrap instead of being
cut, but a row's labels (the text columns before its first number) wrap only when no optional
column is left to make room, and then rows are set apart by a blank line so that a wrapped
label never reads as a row of its own. A table short of width first abbreviates its conventional
reading (``K · L&K``), then leaves out its other optional columns (Do, De …), the reading
last. When the stream cannot encode Unicode (e.g. a cp1252 console) tables are drawn in ASCII
and every string is spelled in ASCII.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table as RichTable

from . import text
from .tables import Document, Table

__all__ = ["ASCII_HEAD", "DEFAULT_WIDTH", "MAX_TEXT", "PAD", "TEXT_FLOOR", "TEXT_MAX", "TEXT_MIN",
           "Terminal", "can_encode", "width_of", "write"]

#: width of redirected output when COLUMNS is not set
DEFAULT_WIDTH = 80
#: text columns wrap between words, and inside words longer than this
TEXT_MIN = 14
#: the widest a text column is drawn; longer text wraps
TEXT_MAX = 40
#: the narrowest a text column is squeezed to before a table is split into blocks
TEXT_FLOOR = 6
#: padding around a column's cells
PAD = 2


def can_encode(stream: TextIO, sample: str = "α—┃") -> bool:
    """Whether ``stream`` can write Unicode (box drawing and Greek letters)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"  # StringIO: no encoding
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def width_of(stream: TextIO) -> int | None:
    """The terminal's width (None: rich asks the terminal), else ``COLUMNS`` or 80."""
    if stream.isatty():
        return None
    try:
        return max(int(os.environ.get("COLUMNS", DEFAULT_WIDTH)), 40)
    except ValueError:
        return DEFAULT_WIDTH


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """Let the command line end quietly (rich would exit with status 1)."""
        raise BrokenPipeError


#: the most characters of one cell, title or note the terminal shows (a 20 MB label would
#: take the table layout minutes)
MAX_TEXT = 1000
#: rich's SIMPLE_HEAD drawn with ASCII characters
ASCII_HEAD = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)


class Terminal:
    """Draws reports on one stream."""

    def __init__(self, stream: TextIO, width: int | None = None,
                 ascii: bool | None = None) -> None:
        self.ascii = not can_encode(stream) if ascii is None else ascii
        self.console = _Console(file=stream, width=width or width_of(stream), highlight=False,
                               soft_wrap=False, emoji=False, markup=False,
                               safe_box=True, legacy_windows=False)

    def s(self, value: str) -> str:
        """``value`` as the terminal shows it: at most :data:`MAX_TEXT` characters, in ASCII
        when the stream cannot encode Unicode."""
        if len(value) > MAX_TEXT:
            value = (f"{value[:MAX_TEXT]}… ({len(value):,} characters in all; the data "
                     "formats have them)")
        return text.ascii_text(value) if self.ascii else value

    def line(self, value: str = "") -> None:
        self.console.print(self.s(value), overflow="fold")

    def table(self, t: Table) -> None:
        """Draw one table within the console's width: a context column that does not fit and
        then optional columns are left out first (with a note), then text columns wrap
        between words, and a table still too wide is split into blocks of columns that each
        repeat the first one. Numbers never wrap."""
        self.line(t.title)
        cells = [[self.s(text.cell(v, c)) for v, c in zip(row, t.columns, strict=True)]
                 for row in t.rows]
        natural, least = self._widths(t, cells)
        # the first columns of text name the row: they keep their width while optional
        # columns can make room
        first_number = next((j for j, c in enumerate(t.columns) if text.right_aligned(c)),
                            len(t.columns))
        readings = [j for j, c in enumerate(t.columns) if c.key == "reading"]
        labels = set(range(first_number))
        whole = labels | set(readings)  # drawn whole while optional columns make room
        need = [natural[j] if j in whole else least[j] for j in range(len(t.columns))]
        # the sum of widths a table of these columns takes: padding between columns only
        room = self.console.width + PAD
        keep = list(range(len(t.columns)))
        left_out = []
        if readings and sum(natural[j] + PAD for j in keep) > room:
            for r in cells:
                for j in readings:
                    r[j] = text.abbreviated_reading(r[j])
            natural, least = self._widths(t, cells)
            need = [natural[j] if j in whole else least[j] for j in range(len(t.columns))]
        if sum(natural[j] + PAD for j in keep) > room:  # a context would squeeze the rest
            for j in [j for j in keep if t.columns[j].kind == "context"]:
                keep.remove(j)
                left_out.append(self.s(t.columns[j].header))
        dropped: list[int] = []
        while sum(need[j] + PAD for j in keep) > room:
            optional = [j for j in reversed(keep) if t.columns[j].optional]
            drop = next((j for j in optional if j not in readings), optional[0]
                        if optional else None)
            if drop is None:
                break
            keep.remove(drop)
            dropped.append(drop)
        for j in reversed(dropped[:-1]):  # one left out early may fit beside the rest
            if sum(need[k] + PAD for k in keep) + need[j] + PAD <= room:
                keep = sorted(keep + [j])
                dropped.remove(j)
        left_out += [self.s(t.columns[j].header) for j in dropped]
        for block in self._blocks(keep, least, room):
            width = self._plan(block, natural, least, room)
            self._draw(t, cells, block, width,
                       wrapped=any(width[j] < natural[j] for j in block if j in labels))
        for n in t.notes:
            self.line(n)
        if left_out:
            self.line(f"(left out for the width of the terminal: {', '.join(left_out)}; "
                      "widen it, or use --format md, csv or json)")
        self.line()

    def _widths(self, t: Table, cells: list[list[str]]) -> tuple[list[int], list[int]]:
        """Each column's natural width and the least it may be drawn in."""
        natural, least = [], []
        for j, c in enumerate(t.columns):
            column = [r[j] for r in cells]
            header = self.s(c.header)
            if text.right_aligned(c):
                w = max([len(header), *map(len, column)])
                natural.append(w)
                least.append(w)
            else:
                words = [len(w) for x in [header, *column] for w in x.split()]
                natural.append(min(max([len(header), *map(len, column)]), TEXT_MAX))
                least.append(min(max(min(max(words, default=0), TEXT_MIN), TEXT_FLOOR),
                                 natural[-1]))
        return natural, least

    @staticmethod
    def _plan(cols: list[int], natural: list[int], least: list[int], room: int) -> dict:
        """Width of each column of a block: natural widths when they fit, else the text
        columns share what is left above their least widths."""
        if sum(natural[j] + PAD for j in cols) <= room:
            return {j: natural[j] for j in cols}
        width = {j: least[j] for j in cols}
        spare = room - sum(w + PAD for w in width.values())
        grow = [j for j in cols if natural[j] > least[j]]
        while spare > 0 and grow:
            for j in list(grow):
                if spare <= 0:
                    break
                width[j] += 1
                spare -= 1
                if width[j] >= natural[j]:
                    grow.remove(j)
        return width

    @staticmethod
    def _blocks(keep: list[int], least: list[int], room: int) -> list[list[int]]:
        """Column blocks that fit ``room``, each starting with the first column."""
        first, rest = keep[0], keep[1:]
        blocks, current = [], [first]
        for j in rest:
            if len(current) > 1 and sum(least[k] + PAD for k in current + [j]) > room:
                blocks.append(current)
                current = [first]
            current.append(j)
        blocks.append(current)
        return blocks

    def _draw(self, t: Table, cells: list[list[str]], cols: list[int], width: dict,
              wrapped: bool = False) -> None:
        """Draw columns ``cols`` at ``width``; ``wrapped``: a label wraps, so rows are set
        apart by a blank line."""
        rt = RichTable(box=ASCII_HEAD if self.ascii else box.SIMPLE_HEAD, pad_edge=False,
                       padding=(0, 1), show_edge=False, collapse_padding=True,
                       show_lines=wrapped)
        for j in cols:
            c = t.columns[j]
            rt.add_column(self.s(c.header), justify="right" if text.right_aligned(c) else "left",
                          overflow="fold", min_width=width[j], max_width=width[j])
        for r in cells:
            rt.add_row(*(r[j] for j in cols))
        self.console.print(rt)

    def report(self, r: Document) -> None:
        self.line(r.summary())
        self.line()
        for t in (t.shown() for t in r.tables.values()):
            if t.terminal:
                self.table(t)
        for n in r.notes:
            self.line(f"note: {n}")


def write(reports: Sequence[Document], stream: TextIO, width: int | None = None) -> None:
    """Draw every report on ``stream``."""
    term = Terminal(stream, width)
    for n, r in enumerate(reports):
        if n:
            term.line()
        term.report(r)
