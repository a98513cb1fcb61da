"""What the readers of annotation platforms' exports share (Label Studio, Prodigy, doccano,
Argilla, INCEpTION's agreement diff): JSON and JSON Lines read with the line or record of
each problem, a cheap look at a file's first bytes for sniffing, character spans of a text
made into span annotations (:class:`corpusagree.model.corpus.CorefAnnotation` without
chains, their tokens cut at every span boundary as brat's are), relations between them, and
judgements made into reliability data.

>>> spans = [SpanRecord("d1", "Ada met Bob.", "ann", "x.json", [("1", 0, 3, "PER", 1)])]
>>> ann, = span_annotations(spans, Problems())
>>> ann.document.tokens, [m.attrs["label"] for m in ann.mentions.values()]
(['Ada', 'met', 'Bob', '.'], ['PER'])
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..model import io
from ..model.corpus import CorefAnnotation, Document, Link
from ..model.data import ReliabilityData
from ..model.errors import InputError, Problems, quote
from ..model.relations import RelationAnnotation
from . import _paths
from ._text import DEFAULT_LANG, Spans, Tokens, anchor, tokenize

__all__ = ["SEPARATOR", "SpanRecord", "head", "json_file", "jsonl", "judgements",
           "relation_annotations", "shaped", "span_annotations", "starts_with", "tokenized"]

#: bytes of a file a sniffer reads
HEAD = 1 << 16


def head(path: Path, size: int = HEAD) -> str:
    """The first ``size`` bytes of a regular file as text ('' for anything else)."""
    if not path.is_file():
        return ""
    with open(path, "rb") as fh:
        return fh.read(size).decode("utf-8", "replace").lstrip("\ufeff")


def starts_with(path: Path, first: str, suffixes: Sequence[str]) -> str:
    """The head of ``path`` when its name ends with one of ``suffixes`` and its first
    character other than whitespace is one of ``first`` (else '')."""
    if path.suffix.lower() not in suffixes:
        return ""
    text = head(path)
    stripped = text.lstrip()
    return text if stripped[:1] and stripped[0] in first else ""


def json_file(path: Path) -> Any:
    """A JSON file's value; malformed JSON is an InputError naming its line."""
    text = io.as_text(io.read_bytes(path), path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"not JSON: {e.msg} (column {e.colno})", path, e.lineno) from None
    except RecursionError:
        raise InputError("JSON nested too deeply to be an export", path) from None


def jsonl(path: Path, problems: Problems) -> Iterator[tuple[int, dict]]:
    """``(line number, object)`` of each line of a JSON Lines file; a line that is not a JSON
    object is a problem and the rest of the file is read. Each line is decoded as UTF-8 first
    (``json.loads`` of bytes would let an encoded surrogate through), and anything but a
    regular file is refused before it is opened (a pipe nobody writes to would wait)."""
    io.regular(path)
    with open(path, "rb") as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw.decode("utf-8-sig" if n == 1 else "utf-8"))
            except UnicodeDecodeError as e:
                problems.add(InputError(f"not UTF-8 (byte 0x{raw[e.start]:02x} at byte "
                                        f"column {e.start + 1}); save the file as UTF-8",
                                        path, n))
                continue
            except json.JSONDecodeError as e:
                problems.add(InputError(f"not JSON: {e.msg}", path, n))
                continue
            except RecursionError:
                problems.add(InputError("JSON nested too deeply to be a record", path, n))
                continue
            if not isinstance(obj, dict):
                problems.add(InputError(f"a JSON {type(obj).__name__}, not an object", path,
                                        n))
                continue
            yield n, obj


@contextmanager
def shaped(path: Path | str, where: str = "", line: int | None = None) -> Iterator[None]:
    """A record of another shape than the format's (a list where an object belongs, a
    number where a list does …) is an InputError naming the file and the line or record,
    not a traceback."""
    try:
        yield
    except InputError:
        raise
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as e:
        prefix = f"{where}: " if where else ""
        raise InputError(f"{prefix}not the structure this format has ({type(e).__name__}: "
                         f"{quote(str(e))})", path, line) from None


@dataclass
class SpanRecord:
    """One annotator's character spans of one text: ``spans`` are ``(id, start, end, label,
    where)``, ``where`` the line or record named in an error."""

    document: str
    text: str
    annotator: str
    source: str
    spans: list[tuple[str, int, int, str, Any]] = field(default_factory=list)
    relations: list[Link] = field(default_factory=list)
    line: int | None = None


def _where(where: Any) -> tuple[str, int | None]:
    """A record's place as (prefix of the message, line)."""
    return ("", where) if isinstance(where, int) else (f"{where}: ", None)


def span_annotations(records: Sequence[SpanRecord], problems: Problems,
                     lang: str = DEFAULT_LANG) -> list[CorefAnnotation]:
    """Span annotations of ``records``: a span outside its text, empty or reversed is a
    problem, named with its file and line or record, and left out; the records of one text
    share its tokens (:func:`corpusagree.readers._text.anchor`)."""
    groups: dict[tuple[str, str], list[int]] = {}
    kept: list[Spans] = []
    for i, r in enumerate(records):
        spans = Spans()
        n = len(r.text)
        for mid, start, end, label, where in r.spans:
            prefix, line = _where(where)
            if not (isinstance(start, int) and isinstance(end, int)):
                problems.add(InputError(f"{prefix}span {quote(mid)}: offsets {quote(start)}, "
                                        f"{quote(end)} are not whole numbers", r.source, line))
            elif end < start:
                problems.add(InputError(f"{prefix}span {quote(mid)} ends ({end}) before it "
                                        f"starts ({start})", r.source, line))
            elif start < 0 or end > n:
                problems.add(InputError(f"{prefix}span {quote(mid)} ({start}–{end}) points "
                                        f"outside the text of {r.document!r} ({n} characters)",
                                        r.source, line))
            elif end > start:
                spans.add(mid, [(start, end)], {"label": label, "type": label,
                                                "text": r.text[start:end]}, line)
        kept.append(spans)
        groups.setdefault((r.document, r.text), []).append(i)
    out: list[CorefAnnotation | None] = [None] * len(records)
    bases = tokenized([text for _, text in groups], lang)
    for ((doc_id, text), members), base in zip(groups.items(), bases, strict=True):
        tokens, mentions, empty = anchor(text, base, [kept[i] for i in members])
        for a, k in empty:
            r = records[members[a]]
            problems.add(InputError(f"span {quote(kept[members[a]].ids[k])} covers no token "
                                    "(whitespace only)", r.source,
                                    kept[members[a]].lines[k]))
        for i, found in zip(members, mentions, strict=True):
            r = records[i]
            doc = Document(doc_id, tokens.words, tokens.sentence_starts, text=text,
                           source=r.source)
            out[i] = CorefAnnotation(doc, r.annotator, found, source=r.source)
    return [a for a in out if a is not None]


#: what separates the texts tokenised together (whitespace: no token spans it)
SEPARATOR = "\n\n"


def tokenized(texts: Sequence[str], lang: str = DEFAULT_LANG) -> list[Tokens]:
    """The tokens of each text (:func:`corpusagree.readers._text.tokenize`), tokenised
    together: spaCy's tokenizer splits at whitespace first, so the texts joined by
    whitespace give each text's own tokens, at a fraction of the cost of a call per text
    (the exports of platforms hold many short texts). Each text's first token starts a
    sentence.

    >>> [t.words for t in tokenized(["Ada met Bob.", "Hi"])]
    [['Ada', 'met', 'Bob', '.'], ['Hi']]
    """
    if not texts:
        return []
    whole = tokenize(SEPARATOR.join(texts), lang)
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    offsets = np.concatenate([[0], np.cumsum(lengths + len(SEPARATOR))[:-1]])
    starts, ends = np.asarray(whole.starts), np.asarray(whole.ends)
    lo = np.searchsorted(starts, offsets).tolist()
    hi = np.searchsorted(starts, offsets + lengths).tolist()
    sents = np.asarray(whole.sentence_starts, np.int64)
    s_lo = np.searchsorted(sents, lo).tolist()
    s_hi = np.searchsorted(sents, hi).tolist()
    out = []
    for k, off in enumerate(offsets.tolist()):
        i, j = lo[k], hi[k]
        first = (sents[s_lo[k]:s_hi[k]] - i).tolist()
        if j > i and (not first or first[0] != 0):
            first.insert(0, 0)
        out.append(Tokens(whole.words[i:j], starts[i:j] - off, ends[i:j] - off, first))
    return out


def relation_annotations(records: Sequence[SpanRecord], problems: Problems,
                         lang: str = DEFAULT_LANG) -> list[RelationAnnotation]:
    """Relations of ``records`` between their spans; a relation whose end is no span of its
    record is a problem."""
    out = []
    for r, ann in zip(records, span_annotations(records, problems, lang), strict=True):
        for k in r.relations:
            for end in (k.source, k.target):
                if end not in ann.mentions:
                    prefix, line = _where(k.attrs.get("where"))
                    problems.add(InputError(f"{prefix}relation {quote(k.attrs.get('id'))} "
                                            f"points to {quote(end)}, which is no span",
                                            r.source, line))
        out.append(RelationAnnotation(ann.document, ann.annotator, ann.mentions,
                                      [k for k in r.relations if k.source in ann.mentions
                                       and k.target in ann.mentions], r.source))
    return out


def judgements(triples: Iterable[tuple], source: Path | str,
               groups: dict | None = None) -> ReliabilityData:
    """Reliability data of ``(coder, item, label)`` triples (a list of labels is a set);
    none is an InputError."""
    found = [(c, i, frozenset(v) if isinstance(v, (list, tuple, set)) else v)
             for c, i, v in triples]
    if not found:
        raise InputError("no judgements found", source)
    return ReliabilityData.from_triples(found, groups=groups, source=str(source))


def first_record(path: Path, suffixes) -> dict | None:
    """The first line's object of a JSON Lines file with one of ``suffixes`` (of a folder's
    first such file), for a sniffer; None when there is none, or it is no JSON object (or
    nested past any record)."""
    path = Path(path)
    if path.is_dir():
        found = _paths.files(path, suffixes)
        return first_record(found[0], suffixes) if found else None
    if path.suffix.lower() not in suffixes:
        return None
    first = head(path).lstrip().partition("\n")[0]
    if not first.startswith("{"):
        return None
    try:
        obj = json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None
