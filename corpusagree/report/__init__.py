"""The report layer: the table model of a report and its renderers (terminal, JSON, CSV,
Markdown, HTML).

:mod:`corpusagree.report.tables` is what a report gives as data (:class:`Table` s of
:class:`Column` s, :class:`Plot` s, :class:`Records`); :mod:`corpusagree.report.document` the
base of every job's report, whose ``to_json``, ``to_csv``, ``to_html`` and ``_repr_html_``
import their renderer where they run. A renderer never computes: it writes what a report's
``to_dict()``, ``tables`` and ``plots()`` hold. The renderers themselves are imported when
first used (the terminal one needs rich, the HTML page matplotlib). The shared part of the JSON
Schema of the report document is :func:`corpusagree.report.json.shared_schema`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from .tables import Document

__all__ = ["FORMATS", "render"]

FORMATS = ("text", "json", "csv", "md")


def render(reports: Sequence[Document], output_format: str, stream: TextIO, *,
           many: bool = False) -> None:
    """Write ``reports`` on ``stream`` as ``output_format`` (text, json, csv, md). JSON is one
    object for one report, or a list when ``many`` (the ``report`` job); CSV is one tidy table
    (:func:`corpusagree.report.csv.tidy`)."""
    from . import csv, json, markdown, terminal

    if output_format == "text":
        terminal.write(reports, stream)
    elif output_format == "json":
        stream.write(json.dumps(reports, ascii=not terminal.can_encode(stream), many=many))
    elif output_format == "csv":
        stream.write(csv.tidy(reports))
    elif output_format == "md":
        stream.write(markdown.dumps(reports))
    else:
        raise ValueError(f"unknown output format {output_format!r}; known: {', '.join(FORMATS)}")
