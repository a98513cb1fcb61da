"""Prodigy's JSON Lines (``prodigy db-out``): one annotated example per line.

* ``spans`` (``ner.manual``, ``spans.manual``): ``start``, ``end`` character offsets into
  ``text`` and a ``label`` → the ``spans`` job; only examples answered ``accept`` hold spans
  (a rejected or ignored example annotates nothing);
* ``options`` with ``accept`` (``textcat.manual``, choice): the ids chosen → one judgement
  of the example for the ``table`` job (a set where some example has several);
* ``label`` with ``answer`` (binary ``textcat.teach``, ``mark``): ``accept`` or ``reject``
  of that label → a judgement of the item (example, label).

The example is ``_input_hash``; the annotator is ``_annotator_id`` (``dataset-name`` in
multi-user sessions), else ``_session_id``, else the file's name. ``ignore`` answers are no
judgement. A line that is not JSON is an error naming its line; the rest of the file is read.

>>> from pathlib import Path
>>> anns = read([Path("docs/formats/coref/prodigy/ner.jsonl")])
>>> sorted({a.annotator for a in anns})
['ner-alice', 'ner-bob', 'ner-carol']
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

from ..model.corpus import CorefAnnotation
from ..model.data import ReliabilityData
from ..model.errors import InputError, Problems, quote
from . import _paths, register
from ._platforms import SpanRecord, first_record, jsonl, judgements, shaped, span_annotations
from ._text import DEFAULT_LANG, LANG, check_lang

__all__ = ["contents", "read", "read_judgements", "sniff"]

SUFFIXES = (".jsonl", ".json", ".ndjson")


def sniff(path: str | PathLike) -> bool:
    """A JSON Lines file (or a folder of them) whose first line is an object with Prodigy's
    ``_input_hash`` and ``_task_hash``."""
    obj = first_record(Path(path), SUFFIXES)
    return obj is not None and "_input_hash" in obj and "_task_hash" in obj


def _annotator(obj: dict, path: Path) -> str:
    return str(obj.get("_annotator_id") or obj.get("_session_id") or path.stem)


def _examples(paths: Sequence[str | PathLike], problems: Problems
              ) -> list[tuple[Path, int, dict]]:
    return [(f, n, obj) for f in _paths.all_files(paths, SUFFIXES)
            for n, obj in jsonl(f, problems)]


@register("coref", "prodigy", sniff=sniff, span_layers=True, spans_only=True, layout="each",
          summary="Prodigy JSONL (db-out): accepted examples' spans, one annotator per "
          "_annotator_id or _session_id", options=(LANG,))
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         lang: str = DEFAULT_LANG, spans: bool = True) -> list[CorefAnnotation]:
    """The spans of Prodigy's accepted examples (see the module docstring)."""
    check_lang(lang)
    problems = Problems()
    records = []
    for f, n, obj in _examples(paths, problems):
        with shaped(f, line=n):
            if obj.get("answer", "accept") != "accept":
                continue
            text = obj.get("text")
            if not isinstance(text, str):
                problems.add(InputError("no text", f, n))
                continue
            rec = SpanRecord(str(obj.get("_input_hash", n)), text, _annotator(obj, f), str(f),
                             line=n)
            for k, s in enumerate(obj.get("spans") or []):
                rec.spans.append((str(k), s.get("start"), s.get("end"),
                                  str(s.get("label", "span")), n))
            records.append(rec)
    out = span_annotations(records, problems, lang)
    problems.check()
    if annotators is not None:
        out = [a for a in out if a.annotator in annotators]
    return out


def contents(path: Path) -> dict[str, list[str]]:
    """What Prodigy examples hold, for ``report FOLDER``: ``spans`` (an accepted example
    with spans) and ``judgements`` (an example with ``options``, or with a ``label`` and no
    ``spans``: a binary decision), each with no name (a file holds one question); a kind
    it does not hold is left out. A line that is not JSON is left to the readers.

    >>> contents(Path("docs/formats/table/prodigy/textcat.jsonl"))
    {'judgements': []}
    """
    found: dict[str, list[str]] = {}
    for _, _, obj in _examples([path], Problems()):
        if obj.get("spans") and obj.get("answer", "accept") == "accept":
            found["spans"] = []
        if "options" in obj or "label" in obj and "spans" not in obj:
            found["judgements"] = []
    return found


def read_judgements(path: Path) -> ReliabilityData:
    """The judgements of Prodigy's textcat or choice examples in ``path`` (a file or a
    folder of files): items are the examples (with the label, for binary decisions)."""
    problems = Problems()
    rows: list[tuple[str, str, Any]] = []
    several = False
    for f, n, obj in _examples([path], problems):
        with shaped(f, line=n):
            answer = obj.get("answer", "accept")
            if answer == "ignore":
                continue
            who, item = _annotator(obj, f), str(obj.get("_input_hash", f"{f.name}:{n}"))
            if "options" in obj:
                chosen = obj.get("accept")
                if answer != "accept" or not isinstance(chosen, list):
                    continue
                several |= len(chosen) > 1
                rows.append((who, item, [str(c) for c in chosen]))
            elif "label" in obj:
                if answer not in ("accept", "reject"):
                    problems.add(InputError(
                        f"answer {quote(answer)} is not accept, reject or ignore", f, n))
                    continue
                rows.append((who, f"{item}:{obj['label']}", answer))
            elif "spans" in obj:
                problems.add(InputError("spans of a text, no classification: the spans job "
                                        "reads them", f, n))
            else:
                problems.add(InputError("neither options with accept nor a label: not a "
                                        "classification example", f, n))
    problems.check()
    if not several:
        rows = [(c, i, (v[0] if v else None) if isinstance(v, list) else v)
                for c, i, v in rows]
    return judgements(rows, path)
