"""Typed parts: every list of rows of a job's report (:class:`Records`) declares the type of
its rows (``Records[Row]``), and its rows are of that type; a :class:`Record` reads as the
dict it replaces (``row["key"]``, ``row.get``, ``dict(row)``) and as a dataclass
(``row.key``), and writes the same JSON."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import sys
import typing
from dataclasses import dataclass

import pytest

import corpusagree
from corpusagree.analyses import jobs
from corpusagree.model.records import frame, plain
from corpusagree.report.tables import Record, Records, optional, spread

from support import ROOT


@dataclass
class _Row(Record):
    document: str
    alpha: float
    gold: float | None = optional()
    scores: dict = spread()
    items: int = 0


def test_mapping_access_is_attribute_access():
    row = _Row("d1", 0.5, scores={"muc": 0.25, "b3": 0.75}, items=3)
    assert list(row) == ["document", "alpha", "muc", "b3", "items"]
    assert dict(row) == row.to_dict() == {"document": "d1", "alpha": 0.5, "muc": 0.25,
                                          "b3": 0.75, "items": 3}
    for key in ("document", "alpha", "items"):
        assert row[key] == getattr(row, key) == row.get(key)
    assert row["muc"] == row.scores["muc"] and len(row) == 5
    assert "gold" not in row and row.get("gold", "absent") == "absent" and row.gold is None
    with pytest.raises(KeyError):
        row["gold"]
    with pytest.raises(KeyError):
        row["nope"]
    row.gold = 0.9  # an optional key appears once it has a value
    assert list(row)[2] == "gold" and row["gold"] == 0.9 == row.gold
    assert plain([row]) == [dict(row)]


def test_a_record_is_the_dict_it_replaces_in_a_frame():
    pytest.importorskip("pandas")
    rows = [_Row("d1", 0.5, scores={"muc": 0.25}), _Row("d2", 0.7, scores={"muc": 0.5})]
    assert frame(Records(rows)).equals(frame([dict(r) for r in rows]))
    assert Records(rows).to_frame().columns.tolist() == ["document", "alpha", "muc", "items"]


# ---- every job's parts are of their declared types --------------------------------------------
def paths(example) -> list[str]:
    """The paths of a command line (what comes before its first option)."""
    out = []
    for arg in example:
        if arg.startswith("-"):
            break
        out.append(str(ROOT / arg))
    return out


#: the reader's options a job needs for its parts per document (groups of a table)
READ = {"table": {"group": "document"}, "annotators": {"group": "document"},
        "ratings": {"group": "document"}}


def _hints(cls: type) -> dict:
    """The type hints of a class's fields that resolve (some name TYPE_CHECKING imports)."""
    out = {}
    for klass in reversed(cls.__mro__):
        env = vars(sys.modules[klass.__module__])
        for name, hint in vars(klass).get("__annotations__", {}).items():
            try:
                out[name] = eval(hint, env) if isinstance(hint, str) else hint
            except (NameError, TypeError):
                continue
    return out


def row_type(hint) -> type | None:
    """``Row`` of ``Records[Row]`` or ``Records[Row] | None``; None for a bare Records."""
    for h in (hint, *typing.get_args(hint)):
        if typing.get_origin(h) is Records:
            return typing.get_args(h)[0]
    return None


def parts(obj, seen: set[int] | None = None):
    """(Class.field, declared row type, rows) of every Records of a report, its parts and
    theirs."""
    seen = set() if seen is None else seen
    if id(obj) in seen or not dataclasses.is_dataclass(obj) or isinstance(obj, Record):
        return
    seen.add(id(obj))
    hints = _hints(type(obj))
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name, None)
        if isinstance(value, Records):
            yield f"{type(obj).__name__}.{f.name}", row_type(hints.get(f.name)), value
        values = value.values() if isinstance(value, dict) else \
            value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            yield from parts(v, seen)


@pytest.fixture(scope="module", params=list(jobs.registered()))
def report(request):
    job = jobs.get(request.param)
    module = jobs.module(request.param)
    corpus = module.read(paths(job.example), **READ.get(request.param, {}))
    return module.analyse(corpus, by_document=True, diagnostics=5)


def test_every_part_is_of_its_declared_type(report):
    found = list(parts(report))
    assert found, "a report without lists of rows"
    for name, kind, rows in found:
        assert kind is not None, f"{name}: declare its rows, Records[Row]"
        wrong = {type(r).__name__ for r in rows if not isinstance(r, kind)}
        assert not wrong, f"{name}: rows of {wrong}, not {kind.__name__}"
        if isinstance(kind, type) and issubclass(kind, Record):
            assert dataclasses.is_dataclass(kind) and kind.__doc__, name
            for r in rows:
                assert dict(r) == r.to_dict() and \
                    all(r[k] is getattr(r, k) for k in r if k in kind.__dataclass_fields__)


def _bare(hint) -> bool:
    """Is an annotation a bare ``Records`` (or ``Records | None``), no type of rows?"""
    if isinstance(hint, str):
        return re.search(r"\bRecords\b(?!\[)", hint) is not None
    return hint is Records or Records in typing.get_args(hint)


def test_every_records_field_declares_its_rows():
    """Every field of every dataclass of the package that holds a :class:`Records` says the
    type of its rows, also the parts the reports above leave empty or None."""
    bare, declared = [], 0
    for found in pkgutil.walk_packages(corpusagree.__path__, "corpusagree."):
        if found.name.endswith("__main__"):
            continue
        module = importlib.import_module(found.name)
        for cls in vars(module).values():
            if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)
                    and cls.__module__ == module.__name__):
                continue
            for name, hint in vars(cls).get("__annotations__", {}).items():
                if _bare(hint):
                    bare.append(f"{module.__name__}.{cls.__name__}.{name}")
                declared += "Records[" in str(hint)
    assert not bare, f"declare their rows, Records[Row]: {bare}"
    assert declared > 50  # it reads the reports' fields (60 of them)


def test_a_bare_records_field_is_found():
    assert _bare("Records") and _bare("Records | None") and _bare(Records)
    assert not _bare("Records[CoderRate]") and not _bare("Records[Row] | None")
    assert not _bare(Records[_Row]) and not _bare("list[dict]")
