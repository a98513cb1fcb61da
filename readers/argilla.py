"""Argilla 2.x exported records (``dataset.records.to_json(path)``, or the ``records.json``
of ``dataset.to_disk(folder)``): a JSON list of records, each with its ``id``, ``fields`` and
``responses``, a question's name → a list of ``{value, user_id, status}``, one per user.

Each submitted response is a judgement of the record by ``user_id`` (draft and discarded ones
are none): a label question's value as it is, a multi-label question's list as a set, a rating
as a number. The flattened records of ``to_list(flatten=True)`` (``QUESTION.responses`` and
``QUESTION.responses.users``) are read too. ``label`` names the question when the records
answer several.

>>> from pathlib import Path
>>> read_judgements(Path("docs/formats/table/argilla/records.json"))
ReliabilityData(3 coders × 4 items, 3 labels, 1 missing)
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any

from ..model.data import ReliabilityData
from ..model.errors import InputError, quote
from ._platforms import json_file, judgements, shaped, starts_with

__all__ = ["read_judgements", "sniff"]


def _file(path: Path) -> Path:
    return path / "records.json" if path.is_dir() else path


def sniff(path: str | PathLike) -> bool:
    """A ``.json`` list of records with ``responses`` (or ``.responses`` keys) and
    ``user_id``s, or a folder holding such a ``records.json``."""
    text = starts_with(_file(Path(path)), "[", (".json",))
    return bool(text) and ('"responses"' in text or '.responses"' in text) and \
        ('"user_id"' in text or '.responses.users"' in text)


def _responses(rec: dict) -> dict[str, list[tuple[str, Any]]]:
    """Question → (user, value) of a record's submitted responses."""
    out: dict[str, list[tuple[str, Any]]] = {}
    nested = rec.get("responses")
    if isinstance(nested, dict):
        for q, answers in nested.items():
            for a in answers or []:
                if a.get("status", "submitted") == "submitted":
                    out.setdefault(q, []).append((str(a.get("user_id")), a.get("value")))
        return out
    for key, values in rec.items():
        if key.endswith(".responses") and isinstance(values, list):
            users = rec.get(f"{key}.users") or []
            status = rec.get(f"{key}.status") or ["submitted"] * len(values)
            out[key[:-len(".responses")]] = [
                (str(u), v) for u, v, s in zip(users, values, status, strict=False)
                if s == "submitted"]
    return out


def read_judgements(path: Path, *, label: str | None = None) -> ReliabilityData:
    """The judgements of one question of Argilla records: coders are the users, items the
    records (see the module docstring)."""
    source = _file(path)
    records = json_file(source)
    if not isinstance(records, list):
        raise InputError("not Argilla records: a JSON list expected", source)
    found: dict[str, list[tuple[str, str, Any]]] = {}
    for n, rec in enumerate(records, 1):
        with shaped(source, f"record {n}"):
            if not isinstance(rec, dict):
                raise InputError(f"record {n} is not an object", source)
            rid = str(rec.get("id", n))
            for q, answers in _responses(rec).items():
                found.setdefault(q, []).extend((u, rid, v) for u, v in answers)
    if not found:
        raise InputError("no submitted responses", source)
    if label is None or label == "label" and "label" not in found:
        if len(found) > 1:
            raise InputError(f"the records answer several questions ({', '.join(found)}): "
                             "name one with label=NAME", source)
        label = next(iter(found))
    if label not in found:
        raise InputError(f"no question {quote(label)}; the records answer "
                         f"{', '.join(found)}", source)
    rows = found[label]
    if any(isinstance(v, dict) or isinstance(v, list) and v and isinstance(v[0], dict)
           for _, _, v in rows):
        raise InputError(f"question {quote(label)} is a span or ranking question, not "
                         "labels", source)
    return judgements(rows, source)
