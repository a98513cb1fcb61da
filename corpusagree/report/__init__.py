"""Renderers: reports of :mod:`corpusagree.analyses` to the terminal, JSON, CSV and Markdown.

A renderer never computes: it writes what a report's ``to_dict()`` and ``tables()`` hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from ..analyses.base import Report
from . import csv, json, markdown, terminal

FORMATS = ("text", "json", "csv", "md")


def render(reports: Sequence[Report], output_format: str, stream: TextIO, *,
           many: bool = False) -> None:
    """Write ``reports`` on ``stream`` as ``output_format`` (text, json, csv, md). JSON is one
    object for one report, or a list when ``many`` (the ``report`` job)."""
    if output_format == "text":
        terminal.write(reports, stream)
    elif output_format == "json":
        payload = reports if many or len(reports) != 1 else reports[0]
        stream.write(json.dumps(payload, ascii=not terminal.can_encode(stream)))
    elif output_format == "csv":
        stream.write(csv.dumps(reports))
    elif output_format == "md":
        stream.write(markdown.dumps(reports))
    else:
        raise ValueError(f"unknown output format {output_format!r}; known: {', '.join(FORMATS)}")


__all__ = ["FORMATS", "render"]
