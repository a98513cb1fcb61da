"""Reports as JSON: one document per report, a list for several; nan and infinities as null.

The layout of a document is described by a JSON Schema (draft 2020-12): its shared part is
shipped beside this module, ``report.schema.json`` (:func:`shared_schema`); each job's part is
its module's ``SCHEMA``; :func:`corpusagree.schema` gives the whole, ``corpusagree schema``
prints it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources

from .tables import Document

__all__ = ["SCHEMA_FILE", "clean", "closed_object", "dumps", "extends", "nullable",
           "shared_schema"]

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


def shared_schema() -> dict:
    """The part of the report document's JSON Schema (draft 2020-12) that no job owns, as the
    file :data:`SCHEMA_FILE` holds it: the envelope, the shared definitions and the study
    commands' entries (``job_compare``, ``job_plan``). :func:`corpusagree.schema` adds each
    job's part (its module's ``SCHEMA``), the ``job`` enum and the dispatch.

    Returns
    -------
    dict
        A fresh copy.

    Examples
    --------
    >>> from corpusagree.report.json import shared_schema
    >>> s = shared_schema()
    >>> s["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    >>> s["$defs"]["coefficient"]["required"][:4]
    ['id', 'symbol', 'distance', 'value']
    """
    return json.loads(_schema_text())


def closed_object(description: str | None = None, /, **properties: dict) -> dict:
    """The JSON Schema of an object with exactly these ``properties``, each required (the
    common shape of a job's parts in its ``SCHEMA``).

    Parameters
    ----------
    description : str, optional
        What the object is (positional, so that a property may be called ``description``).
    **properties : dict
        Each property's schema, in the order of the document's keys.

    Returns
    -------
    dict

    Examples
    --------
    >>> closed_object("A coder's rate.", coder={"$ref": "#/$defs/name"})
    ... # doctest: +NORMALIZE_WHITESPACE
    {'description': "A coder's rate.", 'type': 'object', 'required': ['coder'],
     'properties': {'coder': {'$ref': '#/$defs/name'}}, 'additionalProperties': False}
    """
    out: dict = {} if description is None else {"description": description}
    return {**out, "type": "object", "required": list(properties), "properties": properties,
            "additionalProperties": False}


def extends(ref: str, description: str | None = None, /, **properties: dict) -> dict:
    """The JSON Schema of the object ``ref`` points to with these ``properties`` added, each
    required, and no others (``unevaluatedProperties: false``: a row per document that adds
    its pair's names to the shared ``document_row``).

    Parameters
    ----------
    ref : str
        The definition extended (``"#/$defs/document_row"``).
    description : str, optional
    **properties : dict
        The properties added, in the order of the document's keys.

    Returns
    -------
    dict

    Examples
    --------
    >>> extends("#/$defs/document_row", coder={"$ref": "#/$defs/name"})
    ... # doctest: +NORMALIZE_WHITESPACE
    {'$ref': '#/$defs/document_row', 'required': ['coder'],
     'properties': {'coder': {'$ref': '#/$defs/name'}}, 'unevaluatedProperties': False}
    """
    out: dict = {} if description is None else {"description": description}
    return {**out, "$ref": ref, "required": list(properties), "properties": properties,
            "unevaluatedProperties": False}


def nullable(schema: dict, description: str | None = None) -> dict:
    """``schema`` or null (a part a report leaves out without an option).

    Parameters
    ----------
    schema : dict
        The schema of the part when present.
    description : str, optional

    Returns
    -------
    dict

    Examples
    --------
    >>> nullable({"$ref": "#/$defs/interval"})
    {'oneOf': [{'type': 'null'}, {'$ref': '#/$defs/interval'}]}
    """
    out: dict = {} if description is None else {"description": description}
    return {**out, "oneOf": [{"type": "null"}, schema]}
