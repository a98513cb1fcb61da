"""doccano's JSONL export: one example per line, one file per user (``admin.jsonl``,
``alice.jsonl`` …, the file's name the annotator) unless the project is collaborative.

* sequence labelling: ``label`` a list of ``[start, end, label]`` character offsets into
  ``text`` → the ``spans`` job;
* relation extraction: ``entities`` (``id``, ``start_offset``, ``end_offset``, ``label``)
  and ``relations`` (``from_id``, ``to_id``, ``type``) → the ``spans`` and ``relations`` jobs;
* text classification: ``label`` a list of label names → one judgement of the example (a set
  where some example has several) for the ``table`` job.

The example is its ``id`` (else its line number). A span ending before it starts or outside
the text is an error naming the file and line; the rest of the file is read.

>>> from pathlib import Path
>>> anns = read([Path("docs/formats/coref/doccano/alice.jsonl"),
...              Path("docs/formats/coref/doccano/bob.jsonl")])
>>> [a.annotator for a in anns][:2]
['alice', 'alice']
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

from ..model.corpus import CorefAnnotation, Link
from ..model.data import ReliabilityData
from ..model.errors import InputError, Problems, quote
from ..model.relations import RelationAnnotation
from . import _paths, register
from ._platforms import (
    SpanRecord,
    first_record,
    jsonl,
    judgements,
    relation_annotations,
    shaped,
    span_annotations,
)
from ._text import DEFAULT_LANG, LANG, check_lang

__all__ = ["contents", "read", "read_judgements", "read_relations", "sniff"]

SUFFIXES = (".jsonl",)


def sniff(path: str | PathLike) -> bool:
    """A ``.jsonl`` file (or a folder of them) whose first line is an object with ``text``
    and ``label`` or ``entities``, and none of Prodigy's hashes."""
    obj = first_record(Path(path), SUFFIXES)
    return obj is not None and "text" in obj and \
        ("label" in obj or "entities" in obj) and "_input_hash" not in obj


def _examples(paths: Sequence[str | PathLike], problems: Problems
              ) -> list[tuple[Path, int, dict]]:
    return [(f, n, obj) for f in _paths.all_files(paths, SUFFIXES)
            for n, obj in jsonl(f, problems)]


def _records(paths: Sequence[str | PathLike], problems: Problems) -> list[SpanRecord]:
    out = []
    for f in _paths.all_files(paths, SUFFIXES):
        stem, source, n = f.stem, str(f), None
        with shaped(f, line=n) as place:  # a record of another shape: its line
            for n, obj in jsonl(f, problems):
                place.line = n
                text = obj.get("text")
                if not isinstance(text, str):
                    problems.add(InputError("no text", f, n))
                    continue
                labels = obj.get("label")
                found = [(str(k), s[0], s[1], str(s[2]), n)
                         if type(s) is list and len(s) == 3 else None
                         for k, s in enumerate(labels)] if isinstance(labels, list) else []
                rec = SpanRecord(str(obj.get("id", n)), text, stem, source,
                                 [] if None in found else found, line=n)
                if None in found:
                    _labels(rec, labels, problems)
                for k, e in enumerate(obj.get("entities") or []):
                    rec.spans.append((str(e.get("id", k)), e.get("start_offset"),
                                      e.get("end_offset"), str(e.get("label")), n))
                for k, r in enumerate(obj.get("relations") or []):
                    rec.relations.append(Link(str(r.get("from_id")), str(r.get("to_id")),
                                              str(r.get("type")),
                                              {"id": r.get("id", k), "where": n}))
                out.append(rec)
    return out


def _labels(rec: SpanRecord, labels: list, problems: Problems) -> None:
    """The ``label`` triples of a sequence-labelling record as its spans, where some is
    not a list of three: those are named."""
    n = rec.line
    for k, s in enumerate(labels):
        if isinstance(s, (list, tuple)) and len(s) == 3:
            rec.spans.append((str(k), s[0], s[1], str(s[2]), n))
        elif isinstance(s, (list, tuple)):
            problems.add(InputError(
                f"label {k}: {quote(s)} is not [start, end, label]", rec.source, n))
        else:
            problems.add(InputError("labels of the whole text (a text-classification "
                                    "export): the table job reads them", rec.source, n))
            break


@register("coref", "doccano", sniff=sniff, span_layers=True, spans_only=True, layout="each",
          summary="doccano JSONL export (sequence labelling, relation extraction): one file "
          "per user", options=(LANG,))
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         lang: str = DEFAULT_LANG, spans: bool = True) -> list[CorefAnnotation]:
    """The spans of doccano exports (see the module docstring); ``annotators`` renames the
    files' annotators, one name per file."""
    check_lang(lang)
    problems = Problems()
    records = _records(paths, problems)
    _rename(records, paths, annotators)
    out = span_annotations(records, problems, lang)
    problems.check()
    return out


def _rename(records: list[SpanRecord], paths: Sequence[str | PathLike],
            annotators: Sequence[str] | None) -> None:
    if annotators is None:
        return
    files = [str(f) for f in _paths.all_files(paths, SUFFIXES)]
    if len(annotators) != len(files):
        raise InputError(f"{len(annotators)} annotator name(s) for {len(files)} file(s)")
    names = dict(zip(files, annotators, strict=True))
    for r in records:
        r.annotator = names[r.source]


@register("relations", "doccano", sniff=sniff, layout="each",
          summary="doccano JSONL relation-extraction export: one file per user")
def read_relations(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None
                   ) -> list[RelationAnnotation]:
    """The ``relations`` of doccano exports between their ``entities``."""
    problems = Problems()
    records = _records(paths, problems)
    _rename(records, paths, annotators)
    out = relation_annotations(records, problems)
    problems.check()
    return out


def contents(path: Path) -> dict[str, list[str]]:
    """What doccano examples hold, for ``report FOLDER``: ``spans`` (``label`` triples or
    ``entities``) and ``judgements`` (``label`` a list of names, or ``cats``), each with no
    name; a kind they do not hold is left out. A line that is not JSON is left to the
    readers.

    >>> contents(Path("docs/formats/table/doccano/ann1.jsonl"))
    {'judgements': []}
    """
    found: dict[str, list[str]] = {}
    for _, _, obj in _examples([path], Problems()):
        labels = obj.get("label", obj.get("cats"))
        if obj.get("entities") or isinstance(labels, list) and \
                any(isinstance(v, list) for v in labels):
            found["spans"] = []
        if isinstance(labels, dict) or isinstance(labels, list) and labels and \
                not any(isinstance(v, (list, dict)) for v in labels):
            found["judgements"] = []
    return found


def read_judgements(path: Path) -> ReliabilityData:
    """The text-classification labels of doccano exports in ``path`` (a file, or a folder
    of one file per user): coders are the files, items the examples."""
    problems = Problems()
    rows: list[tuple[str, str, Any]] = []
    for f, n, obj in _examples([path], problems):
        with shaped(f, line=n):
            labels = obj.get("label", obj.get("cats"))
            if isinstance(labels, dict):  # cats: {label: true/false}
                labels = [k for k, v in labels.items() if v]
            if not isinstance(labels, list) or any(isinstance(v, (list, dict)) for v in labels):
                problems.add(InputError("label is not a list of label names (a sequence "
                                        "labelling export? use the spans job)", f, n))
                continue
            rows.append((f.stem, str(obj.get("id", n)), [str(v) for v in labels]))
    problems.check()
    if not any(len(v) > 1 for _, _, v in rows):
        rows = [(c, i, v[0] if v else None) for c, i, v in rows]
    return judgements(rows, path)
