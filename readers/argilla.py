"""Argilla 2.x exported records (``dataset.records.to_json(path)``, or the ``records.json``
of ``dataset.to_disk(folder)``): a JSON list of records, each with its ``id``, ``fields`` and
``responses``, a question's name → a list of ``{value, user_id, status}``, one per user.

Each submitted response is a judgement of the record by ``user_id`` (draft and discarded ones
are none; a response without a status, as Argilla 2.x's ``to_json`` and ``to_disk`` write
every response, is read as submitted, with a warning counting them): a label question's
value as it is, a multi-label question's list as a set, a rating as a number. The flattened
records of ``to_list(flatten=True)`` (``QUESTION.responses``, ``QUESTION.responses.users``
and ``QUESTION.responses.status``) are read too. ``label`` names the question when the records
answer several.

>>> from pathlib import Path
>>> read_judgements(Path("docs/formats/table/argilla/records.json"))
ReliabilityData(3 coders × 4 items, 3 labels, 1 missing)
"""

from __future__ import annotations

import warnings
from os import PathLike
from pathlib import Path
from typing import Any

from ..model.data import ReliabilityData
from ..model.errors import InputError, listing, quote
from ._platforms import json_file, judgements, shaped, starts_with

__all__ = ["contents", "read_judgements", "sniff"]


def _file(path: Path) -> Path:
    return path / "records.json" if path.is_dir() else path


def sniff(path: str | PathLike) -> bool:
    """A ``.json`` list of records with ``responses`` (or ``.responses`` keys) and
    ``user_id``s, or a folder holding such a ``records.json``."""
    text = starts_with(_file(Path(path)), "[", (".json",))
    return bool(text) and ('"responses"' in text or '.responses"' in text) and \
        ('"user_id"' in text or '.responses.users"' in text)


def _responses(rec: dict) -> dict[str, list[tuple[str, Any, Any]]]:
    """Question → (user, value, status) of each of a record's responses."""
    out: dict[str, list[tuple[str, Any, Any]]] = {}
    nested = rec.get("responses")
    if isinstance(nested, dict):
        for q, answers in nested.items():
            for a in answers or []:
                out.setdefault(q, []).append((str(a.get("user_id")), a.get("value"),
                                              a.get("status")))
        return out
    for key, values in rec.items():
        if key.endswith(".responses") and isinstance(values, list):
            users = rec.get(f"{key}.users") or []
            status = rec.get(f"{key}.status") or [None] * len(values)
            out[key[:-len(".responses")]] = [
                (str(u), v, st) for u, v, st in zip(users, values, status, strict=False)]
    return out


def _answers(source: Path) -> tuple[dict[str, list[tuple[str, str, Any]]], dict[str, int]]:
    """Question → (user, record, value) of the submitted responses of a records file, and
    question → how many of its responses have no status (read as submitted)."""
    records = json_file(source)
    if not isinstance(records, list):
        raise InputError("not Argilla records: a JSON list expected", source)
    found: dict[str, list[tuple[str, str, Any]]] = {}
    unknown: dict[str, int] = {}
    for n, rec in enumerate(records, 1):
        with shaped(source, f"record {n}"):
            if not isinstance(rec, dict):
                raise InputError(f"record {n} is not an object", source)
            rid = str(rec.get("id", n))
            for q, answers in _responses(rec).items():
                taken = [(u, rid, v) for u, v, st in answers if st in (None, "submitted")]
                if taken:
                    found.setdefault(q, []).extend(taken)
                unknown[q] = unknown.get(q, 0) + sum(st is None for _, _, st in answers)
    return found, unknown


def contents(path: Path) -> dict[str, list[str]]:
    """What Argilla records hold, for ``report FOLDER``: ``judgements``, the questions with
    submitted responses of labels or ratings (a span or ranking question is none), in the
    order found; nothing when there are none.

    >>> contents(Path("docs/formats/table/argilla/records.json"))
    {'judgements': ['sentiment']}
    """
    questions = [q for q, rows in _answers(_file(Path(path)))[0].items()
                 if not any(_structured(v) for _, _, v in rows)]
    return {"judgements": questions} if questions else {}


def _structured(value: Any) -> bool:
    """A span or ranking response (objects), not a label, labels or a rating."""
    return isinstance(value, dict) or \
        isinstance(value, list) and bool(value) and isinstance(value[0], dict)


def read_judgements(path: Path, *, label: str | None = None) -> ReliabilityData:
    """The judgements of one question of Argilla records: coders are the users, items the
    records (see the module docstring)."""
    source = _file(path)
    found, unknown = _answers(source)
    if not found:
        raise InputError("no submitted responses", source)
    if label is None or label == "label" and "label" not in found:
        if len(found) > 1:
            raise InputError(f"the records answer several questions ({listing(found)}): "
                             "name one with label=NAME", source)
        label = next(iter(found))
    if label not in found:
        raise InputError(f"no question {quote(label)}; the records answer "
                         f"{listing(found)}", source)
    rows = found[label]
    if any(_structured(v) for _, _, v in rows):
        raise InputError(f"question {quote(label)} is a span or ranking question, not "
                         "labels", source)
    if unknown.get(label):
        warnings.warn(f"{source}: {unknown[label]} response(s) to {quote(label)} without a "
                      "status (Argilla 2.x's to_json leaves it out): read as submitted, "
                      "though some may be drafts or discarded", stacklevel=2)
    return judgements(rows, source)
