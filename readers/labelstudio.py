"""Label Studio's JSON export and JSON-MIN export.

The JSON export is a list of tasks, each with its ``data`` (the text under the name its
``to_name`` tag reads, ``text`` by default), its ``annotations`` and the model's
``predictions``; an annotation's ``result`` is a list of regions, each of a ``type``:

* ``labels``: a text span, ``value.start`` and ``value.end`` character offsets (as JavaScript
  counts them, UTF-16 code units, taken to code points here) and ``value.labels`` → the
  ``spans`` job;
* ``relation``: ``from_id`` → ``to_id`` between two regions, its ``labels`` (``direction``
  ``left`` swaps them) → the ``relations`` job;
* ``choices``, ``taxonomy`` (each path joined by ``/``), ``rating``, ``number`` → one
  judgement of the item (the task) for the ``table`` job: a control where some annotation
  chose several choices gives set labels, rating and number give numbers.

Each annotation's ``completed_by`` (a user id, or a user object whose ``email`` is used) is
its annotator; cancelled annotations (``was_cancelled``) are none. Predictions are read only
when ``predictions_as`` names them as an annotator. ``textarea`` regions are free text and
not compared; any other result type is an error naming it.

The JSON-MIN export has one record per annotation: the task's data keys, ``annotator``,
``annotation_id``, and a key per control: a span control's list of ``{start, end, labels}``,
a single choice as a string, several as ``{"choices": [...]}``, a rating as a number.

>>> from pathlib import Path
>>> read([Path("docs/formats/coref/labelstudio/export.json")])[0].annotator
'ann1@example.org'
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

from ..model.corpus import CorefAnnotation, Link
from ..model.data import ReliabilityData
from ..model.errors import InputError, Problems, listing, quote
from ..model.relations import RelationAnnotation
from . import Option, _paths, register
from ._platforms import (
    SpanRecord,
    json_file,
    judgements,
    relation_annotations,
    shaped,
    span_annotations,
    starts_with,
)
from ._text import DEFAULT_LANG, LANG, check_lang, utf16_to_codepoints

__all__ = ["CATEGORICAL", "KNOWN", "contents", "read", "read_judgements", "read_relations",
           "sniff"]

#: result types read as judgements, and the key of their value
CATEGORICAL = {"choices": "choices", "taxonomy": "taxonomy", "rating": "rating",
               "number": "number"}
#: every result type read (textarea: free text, not compared)
KNOWN = frozenset({*CATEGORICAL, "labels", "relation", "textarea"})
#: the keys of a JSON-MIN record that are no control
_MIN_KEYS = frozenset({"id", "annotator", "annotation_id", "created_at", "updated_at",
                       "lead_time", "agreement", "draft", "predictions"})

PREDICTIONS = Option("predictions_as", "Label Studio: read the predictions too, as this "
                     "annotator", metavar="NAME")


def sniff(path: str | PathLike) -> bool:
    """A ``.json`` file holding a list of Label Studio tasks (``annotations`` and their
    ``result``) or JSON-MIN records (``annotation_id`` and ``annotator``)."""
    text = starts_with(Path(path), "[", (".json",))
    return bool(text) and (('"annotations"' in text and '"result"' in text) or
                           ('"annotation_id"' in text and '"annotator"' in text))


def _tasks(path: Path) -> list[dict]:
    data = json_file(path)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(t, dict) for t in data):
        raise InputError("not a Label Studio export: a JSON list of tasks expected", path)
    return data


def _annotator(who: Any) -> str:
    if isinstance(who, dict):
        return str(who.get("email") or who.get("id"))
    return str(who)


def _text(data: dict, to_name: str | None) -> str | None:
    """The text of a task: under ``to_name``, else ``text``, else its one text value."""
    for key in (to_name, "text"):
        if key is not None and isinstance(data.get(key), str):
            return data[key]
    texts = [v for v in data.values() if isinstance(v, str)]
    return texts[0] if len(texts) == 1 else None


class _Export:
    """The annotations of one export file, as (task, annotator, regions) with their
    record; JSON and JSON-MIN alike."""

    def __init__(self, path: Path, predictions_as: str | None) -> None:
        self.path = path
        tasks = _tasks(path)
        self.minimal = bool(tasks) and "annotations" not in tasks[0] and \
            "annotator" in tasks[0]
        #: (record, task id, data, annotator, result list)
        self.rows: list[tuple[str, str, dict, str, list]] = []
        for n, task in enumerate(tasks, 1):
            with shaped(path, f"task {n}"):
                if self.minimal:
                    self.rows.append(self._minimal(n, task))
                    continue
                tid = str(task.get("id", n))
                data = task.get("data") or {}
                for a in task.get("annotations") or []:
                    if a.get("was_cancelled"):
                        continue
                    self.rows.append((f"task {n} (id {tid})", tid, data,
                                      _annotator(a.get("completed_by")), a.get("result") or []))
                if predictions_as is not None:
                    for p in task.get("predictions") or []:
                        self.rows.append((f"task {n} (id {tid}), prediction", tid, data,
                                          predictions_as, p.get("result") or []))

    def _minimal(self, n: int, rec: dict) -> tuple[str, str, dict, str, list]:
        """A JSON-MIN record as a JSON one: its controls as results. The text is ``text``,
        else the longest string; any other string is a single choice."""
        strings = [k for k, v in rec.items() if isinstance(v, str) and k not in _MIN_KEYS]
        text_key = "text" if "text" in strings else \
            max(strings, key=lambda k: len(rec[k]), default=None)
        data = {} if text_key is None else {text_key: rec[text_key]}
        result: list[dict] = []
        for key, value in rec.items():
            if key in _MIN_KEYS or key == text_key or isinstance(value, bool) or \
                    value is None:
                continue
            if isinstance(value, list) and all(isinstance(v, dict) for v in value):
                for k, v in enumerate(value):
                    result.append({"id": f"{key}-{k}", "type": "labels", "from_name": key,
                                   "to_name": text_key, "value": v})
            elif isinstance(value, dict) and ("choices" in value or "taxonomy" in value):
                kind = "choices" if "choices" in value else "taxonomy"
                result.append({"type": kind, "from_name": key, "value": value})
            elif isinstance(value, (int, float)):
                result.append({"type": "number", "from_name": key,
                               "value": {"number": value}})
            elif isinstance(value, str):
                result.append({"type": "choices", "from_name": key,
                               "value": {"choices": [value]}})
            else:
                result.append({"type": f"{type(value).__name__} value of {key}"})
        tid = str(rec.get("id", n))
        return (f"record {n} (id {tid})", tid, data, _annotator(rec.get("annotator")), result)

    def check_types(self, problems: Problems) -> None:
        """Every result type not read is a problem naming it."""
        for where, _, _, _, result in self.rows:
            with shaped(self.path, where):
                for r in result:
                    kind = r.get("type")
                    if kind not in KNOWN:
                        problems.add(InputError(f"{where}: result type {quote(kind)} is not read "
                                                f"(known: {', '.join(sorted(KNOWN))})", self.path))

    def spans(self) -> list[SpanRecord]:
        """The ``labels`` regions and relations of each annotation."""
        out = []
        for where, tid, data, who, result in self.rows:
            with shaped(self.path, where):
                regions = [r for r in result if r.get("type") == "labels"]
                rels = [r for r in result if r.get("type") == "relation"]
                to_name = regions[0].get("to_name") if regions else None
                text = _text(data, to_name)
                if text is None:
                    if regions:
                        raise InputError(f"{where}: no text in the task's data (keys: "
                                         f"{', '.join(map(str, data))})", self.path)
                    text = ""
                offsets = utf16_to_codepoints(text)
                rec = SpanRecord(tid, text, who, str(self.path))
                for k, r in enumerate(regions):
                    v = r.get("value") or {}
                    labels = v.get("labels") or v.get("hypertextlabels") or []
                    start, end = v.get("start"), v.get("end")
                    if not offsets.narrow and isinstance(start, int) and isinstance(end, int):
                        start, end = offsets.get(start, -1), offsets.get(end, 10 ** 18)
                    rid = str(r.get("id", k))
                    rec.spans.append((rid, start, end, "|".join(map(str, labels)) or "span",
                                      f"{where}, region {rid}"))
                for k, r in enumerate(rels):
                    src, dst = str(r.get("from_id")), str(r.get("to_id"))
                    if r.get("direction") == "left":
                        src, dst = dst, src
                    rec.relations.append(Link(src, dst, "|".join(r.get("labels") or []) or
                                              "relation", {"id": f"{k}", "where": where,
                                                           "direction": r.get("direction")}))
                out.append(rec)
        return out

    def triples(self, control: str | None) -> list[tuple[str, str, Any]]:
        """(annotator, task, value) of the categorical control ``control`` (the one there
        is when None)."""
        found: dict[str, list[tuple[str, str, Any, str]]] = {}
        for where, tid, _, who, result in self.rows:
            with shaped(self.path, where):
                for r in result:
                    key = CATEGORICAL.get(r.get("type"))
                    if key is None:
                        continue
                    value = (r.get("value") or {}).get(key)
                    if r.get("type") == "taxonomy":
                        value = ["/".join(map(str, p)) for p in value or []]
                    found.setdefault(str(r.get("from_name")), []).append((who, tid, value, where))
        if not found:
            raise InputError("no choices, taxonomy, rating or number results", self.path)
        if control is None or control == "label" and "label" not in found:
            if len(found) > 1:
                raise InputError(f"the export has several controls ({listing(found)}): "
                                 "name one with label=NAME", self.path)
            control = next(iter(found))
        if control not in found:
            raise InputError(f"no control {quote(control)}; the export has "
                             f"{listing(found)}", self.path)
        rows = found[control]
        several = any(isinstance(v, list) and len(v) > 1 for _, _, v, _ in rows)
        out = []
        for who, tid, value, _ in rows:
            if isinstance(value, list) and not several:
                value = value[0] if value else None
            out.append((who, tid, value))
        return out


def _exports(paths: Sequence[str | PathLike], predictions_as: str | None,
             problems: Problems) -> list[_Export]:
    files = _paths.all_files(paths, (".json",))
    out = []
    for f in files:
        with problems.collect():
            out.append(_Export(f, predictions_as))
    for e in out:
        e.check_types(problems)
    return out


def _kept(found: list, annotators: Sequence[str] | None, path: Any) -> list:
    if annotators is None:
        return found
    have = {a.annotator for a in found}
    lost = [a for a in annotators if a not in have]
    if lost:
        raise InputError(f"annotators not found: {', '.join(lost)}; the export has "
                         f"{', '.join(sorted(have))}", path)
    return [a for a in found if a.annotator in annotators]


@register("coref", "labelstudio", sniff=sniff, span_layers=True, spans_only=True, layout="each",
          summary="Label Studio JSON or JSON-MIN export: labels regions as spans, "
          "completed_by as the annotator",
          options=(PREDICTIONS, LANG))
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         predictions_as: str | None = None, lang: str = DEFAULT_LANG, spans: bool = True
         ) -> list[CorefAnnotation]:
    """The ``labels`` regions of Label Studio exports as span annotations (see the module
    docstring); ``annotators`` keeps those named."""
    check_lang(lang)
    problems = Problems()
    records = [r for e in _exports(paths, predictions_as, problems) for r in e.spans()]
    out = span_annotations(records, problems, lang)
    problems.check()
    return _kept(out, annotators, _paths.as_list(paths)[0])


@register("relations", "labelstudio", sniff=sniff, layout="each",
          summary="Label Studio JSON export: relation results between labels regions",
          options=(PREDICTIONS,))
def read_relations(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None,
                   *, predictions_as: str | None = None) -> list[RelationAnnotation]:
    """The ``relation`` results of Label Studio exports between their ``labels`` regions."""
    problems = Problems()
    records = [r for e in _exports(paths, predictions_as, problems) for r in e.spans()]
    out = relation_annotations(records, problems)
    problems.check()
    return _kept(out, annotators, _paths.as_list(paths)[0])


def contents(path: Path) -> dict[str, list[str]]:
    """What a Label Studio export holds, for ``report FOLDER``: ``spans`` (its ``labels``
    controls) and ``judgements`` (its ``choices``, ``taxonomy``, ``rating`` and ``number``
    controls), each kind with the names of its controls (``from_name``), in the order
    found; a kind it does not hold is left out.

    >>> contents(Path("docs/formats/table/labelstudio/export.json"))
    {'judgements': ['sentiment', 'quality']}
    """
    found: dict[str, dict[str, None]] = {}
    export = _Export(Path(path), None)
    for where, _, _, _, result in export.rows:
        with shaped(export.path, where):
            for r in result:
                kind = "spans" if r.get("type") == "labels" else \
                    "judgements" if r.get("type") in CATEGORICAL else None
                if kind is not None:
                    found.setdefault(kind, {})[str(r.get("from_name"))] = None
    return {k: list(v) for k, v in found.items()}


def read_judgements(path: Path, *, label: str | None = None,
                    predictions_as: str | None = None) -> ReliabilityData:
    """The judgements of one categorical control of a Label Studio export: coders are the
    annotators, items the tasks; ``label`` names the control (its ``from_name``) when the
    export has several."""
    problems = Problems()
    exports = _exports([path], predictions_as, problems)
    problems.check()
    return judgements(exports[0].triples(label), path)
