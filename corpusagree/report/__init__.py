"""Renderers: reports of :mod:`corpusagree.analyses` to the terminal, JSON, CSV, Markdown and
HTML.

A renderer never computes: it writes what a report's ``to_dict()``, ``tables`` and ``plots()``
hold. Importing this package registers the renderers that the reports' own ``to_json``,
``to_csv``, ``to_html`` and ``_repr_html_`` call (:func:`corpusagree.analyses.base.
register_renderer`); ``corpusagree`` imports it, so they are there for every user. The
renderers themselves are imported when first used (the terminal one needs rich, the HTML page
matplotlib). :func:`schema` is the JSON Schema of the report document.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from ..analyses.base import Report, register_renderer
from .json import schema

FORMATS = ("text", "json", "csv", "md")


def render(reports: Sequence[Report], output_format: str, stream: TextIO, *,
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


def _json(reports: Sequence[Report]) -> str:
    from . import json

    return json.dumps(reports)


def _csv_files(reports: Sequence[Report], folder: Path) -> list[Path]:
    from . import csv

    return csv.write_files(reports, folder)


def _html(reports: Sequence[Report]) -> str:
    from . import html

    return html.dumps(reports)


def _html_fragment(report: Report) -> str:
    from . import html

    return html.fragment(report)


for _name, _fn in (("json", _json), ("csv_files", _csv_files), ("html", _html),
                   ("html_fragment", _html_fragment)):
    register_renderer(_name, _fn)

__all__ = ["FORMATS", "render", "schema"]
