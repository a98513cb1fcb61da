"""Reports as Markdown: a heading per report, a pipe table per table, notes as paragraphs."""

from __future__ import annotations

from collections.abc import Sequence

from . import text
from .tables import Document

__all__ = ["dumps"]


def _esc(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def dumps(reports: Sequence[Document]) -> str:
    lines: list[str] = []
    for r in reports:
        lines += [f"## {_esc(r.summary())}", ""]
        for t in (t.shown() for t in r.tables.values() if t.terminal):
            lines += [f"### {_esc(t.title)}", ""]
            lines.append("| " + " | ".join(_esc(c.header) for c in t.columns) + " |")
            lines.append("|" + "|".join("---:" if text.right_aligned(c) else "---"
                                        for c in t.columns) + "|")
            for row in t.rows:
                lines.append("| " + " | ".join(_esc(text.cell(v, c))
                                               for v, c in zip(row, t.columns, strict=True))
                             + " |")
            lines.append("")
            lines += [f"*{_esc(n)}*" for n in t.notes] + ([""] if t.notes else [])
        lines += [f"Note: {_esc(n)}" for n in r.notes] + ([""] if r.notes else [])
    return "\n".join(lines)
