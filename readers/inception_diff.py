"""INCEpTION's agreement diff as JSON (the agreement page's export of a span layer or a span
feature, INCEpTION PR #5334): a list of ``{doc, user, begin, end, label}``, one per span of
each annotator, character offsets into the document.

The export holds no text. With ``texts`` (a folder holding each document's text under its
``doc`` name) the spans are cut into tokens as brat's are; without it, each character is a
position, the document as long as its last span ends, and ``--unit char`` is refused (only
positions, no text, are known). A span ending before it starts, or a record without a field,
is an error naming the record; the rest of the file is read.

>>> from pathlib import Path
>>> anns = read([Path("docs/formats/coref/inception_diff/diff.json")])
>>> sorted({a.annotator for a in anns}), len(anns[0].document.tokens)
(['ann1', 'ann2', 'ann3'], 42)
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from ..model.corpus import CorefAnnotation, Document, Mention
from ..model.errors import InputError, Problems, quote
from . import Option, _paths, register
from ._platforms import SpanRecord, json_file, shaped, span_annotations, starts_with
from ._text import DEFAULT_LANG, LANG, check_lang

__all__ = ["FIELDS", "MAX_POSITIONS", "read", "sniff"]

#: the fields of every record
FIELDS = ("doc", "user", "begin", "end", "label")
#: the longest document read without its text, one position per character (a longer one is
#: a damaged offset far likelier than a real text of more than 10⁷ characters)
MAX_POSITIONS = 10_000_000


def sniff(path: str | PathLike) -> bool:
    """A ``.json`` list whose first object has ``doc``, ``user``, ``begin`` and ``end``."""
    text = starts_with(Path(path), "[", (".json",))
    first = text.partition("}")[0]
    return bool(text) and all(f'"{k}"' in first for k in FIELDS[:4])


@register("coref", "inception_diff", sniff=sniff, span_layers=True, spans_only=True, layout="each",
          summary="INCEpTION's agreement diff as JSON: [{doc, user, begin, end, label}]",
          options=(Option("texts", "INCEpTION diff: the folder of the documents' texts, "
                          "named as their doc", metavar="DIR"), LANG))
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         texts: str | None = None, lang: str = DEFAULT_LANG, spans: bool = True
         ) -> list[CorefAnnotation]:
    """The spans of INCEpTION agreement-diff exports (see the module docstring)."""
    check_lang(lang)
    problems = Problems()
    found: dict[tuple[str, str], list] = {}
    for f in _paths.all_files(paths, (".json",)):
        records = json_file(f)
        if not isinstance(records, list):
            raise InputError("not an agreement diff: a JSON list expected", f)
        for n, r in enumerate(records, 1):
            with shaped(f, f"record {n}"):
                lost = [k for k in FIELDS[:4] if not isinstance(r, dict) or k not in r]
                if lost:
                    problems.add(InputError(f"record {n}: no {', '.join(lost)}", f))
                    continue
                found.setdefault((str(r["doc"]), str(r["user"])), []).append(
                    (str(n), r["begin"], r["end"], str(r.get("label") or "span"), f"record {n}",
                     f))
    problems.check()
    if annotators is not None:
        found = {k: v for k, v in found.items() if k[1] in annotators}
    if texts is not None:
        folder = Path(texts)
        records = []
        for (doc, user), spans in found.items():
            text_file = folder / doc
            if not text_file.is_file():
                raise InputError(f"no text of document {quote(doc)} in {folder}", text_file)
            records.append(SpanRecord(doc, text_file.read_text("utf-8"), user,
                                      str(spans[0][5]), [s[:5] for s in spans]))
        out = span_annotations(records, problems, lang)
        problems.check()
        return out
    return _positions(found, problems)


def _positions(found: dict[tuple[str, str], list], problems: Problems
               ) -> list[CorefAnnotation]:
    """Annotations whose tokens are the characters of each document, as long as its last
    span ends."""
    length: dict[str, int] = {}
    for (doc, _), spans in found.items():
        for _, _, e, _, where, f in spans:
            if not isinstance(e, int) or isinstance(e, bool):
                continue
            if e > MAX_POSITIONS:
                problems.add(InputError(f"{where}: a span ending at character {e:,} (more than "
                                        f"{MAX_POSITIONS:,} positions without the text): give "
                                        "the documents' texts with texts=DIR", f))
            else:
                length[doc] = max(length.get(doc, 0), e)
    problems.check()
    documents = {d: Document(d, [""] * n) for d, n in length.items()}
    out = []
    for (doc, user), spans in found.items():
        mentions = {}
        for mid, b, e, label, where, f in spans:
            if not (isinstance(b, int) and isinstance(e, int)) or b < 0:
                problems.add(InputError(f"{where}: offsets {quote(b)}, {quote(e)} are not "
                                        "whole numbers from 0", f))
            elif e < b:
                problems.add(InputError(f"{where}: span ends ({e}) before it starts ({b})",
                                        f))
            elif e > b:
                mentions[mid] = Mention(mid, ((b, e),), attrs={"label": label,
                                                               "type": label})
        if doc in documents:
            out.append(CorefAnnotation(documents[doc], user, mentions,
                                       source=str(spans[0][5])))
    problems.check()
    return out
