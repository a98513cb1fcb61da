"""Reports as JSON: one document per report, a list for several; nan and infinities as null.

The layout of a document is described by a JSON Schema (draft 2020-12) shipped beside this
module, ``report.schema.json``: :func:`schema` returns it, ``corpusagree schema`` prints it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources

from .tables import Document

__all__ = ["SCHEMA_FILE", "clean", "dumps", "schema"]

#: the JSON Schema of a report document, package data of :mod:`corpusagree.report`
SCHEMA_FILE = "report.schema.json"


def clean(o):
    """A copy with nan/inf as None (JSON has no nan)."""
    if isinstance(o, float) and (math.isnan(o) or math.isinf(o)):
        return None
    if isinstance(o, dict):
        return {k: clean(v) for k, v in o.items()}
    if isinstance(o, list):
        return [clean(v) for v in o]
    return o


def dumps(reports: Document | Sequence[Document], *, ascii: bool = False,
          many: bool = False) -> str:
    """One report as a JSON object, several (or one, with ``many``) as a JSON list."""
    if not isinstance(reports, Sequence):  # one report
        reports = [reports]
    payload = [r.to_dict() for r in reports]
    return json.dumps(clean(payload if many or len(payload) != 1 else payload[0]), indent=2,
                      ensure_ascii=ascii) + "\n"


@cache
def _schema_text() -> str:
    return resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def schema() -> dict:
    """The JSON Schema (draft 2020-12) of the report document that ``to_json()`` and
    ``--json`` write: one report, or the list ``corpusagree report --json`` writes.

    Every document has the envelope ``corpusagree`` (the version), ``schema`` (1), ``job``,
    ``inputs``, ``options``, ``bootstrap`` and ``notes``; the parts of each job are the
    definition ``$defs/job_<job>``, selected by ``job`` (the file holds a job's entry once:
    the enum of ``job`` and the ``allOf`` that selects each entry are made from them here).
    Shared definitions: a coefficient
    (``$defs/coefficient``, its ``id`` one of :data:`corpusagree.COEFFICIENTS`), an interval,
    a coder × coder matrix, the diagnostics, rows per document. Undefined numbers are null.

    Returns
    -------
    dict
        A fresh copy (changing it changes nothing here); give it to any draft 2020-12
        validator, e.g. ``jsonschema.Draft202012Validator(schema()).validate(document)``.

    Examples
    --------
    >>> from corpusagree.report import schema
    >>> s = schema()
    >>> s["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    >>> s["$defs"]["report"]["properties"]["job"]["enum"][:3]
    ['table', 'annotators', 'coref']
    >>> s["$defs"]["coefficient"]["required"][:4]
    ['id', 'symbol', 'distance', 'value']
    """
    out = json.loads(_schema_text())
    report = out["$defs"]["report"]
    jobs = [k.removeprefix("job_") for k in out["$defs"] if k.startswith("job_")]
    report["properties"]["job"]["enum"] = jobs
    report["allOf"] = [{"if": {"properties": {"job": {"const": job}}},
                        "then": {"$ref": f"#/$defs/job_{job}"}} for job in jobs]
    return out
