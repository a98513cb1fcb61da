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
import secrets
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..model import io
from ..model.corpus import CorefAnnotation, Document, Link, Mention
from ..model.data import ReliabilityData
from ..model.errors import InputError, Problems, quote
from ..model.relations import RelationAnnotation
from . import _paths
from ._text import DEFAULT_LANG, Tokens, split, tokenize

__all__ = ["SEPARATOR", "Joined", "Place", "SpanRecord", "head", "joined", "json_file", "jsonl",
           "judgements", "relation_annotations", "shaped", "span_annotations", "starts_with",
           "tokenized"]

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
    regular file is refused before it is opened (a pipe nobody writes to would wait).

    The lines are parsed in one call when they can be (:func:`_parsed_at_once`); a file where
    that fails is read line by line, which names each line's problem."""
    io.regular(path)
    with open(path, "rb") as fh:
        data = fh.read()
    found = _parsed_at_once(data)
    if found is not None:
        yield from found
        return
    for n, raw in enumerate(data.split(b"\n"), 1):
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


#: ASCII whitespace, what ``bytes.strip`` strips: a line of only these is blank
_BLANK = " \t\n\r\x0b\x0c"


def _parsed_at_once(data: bytes) -> list[tuple[int, dict]] | None:
    """``(line number, object)`` of every line of JSON Lines ``data`` parsed by one
    ``json.loads`` (the lines as one array: a call per line costs twice as much), or None
    when some line is not UTF-8, not JSON or not an object.

    The lines are joined by a string of 128 random bits, which must come back between every
    two values and nowhere else: a line that is not one JSON value by itself (``[1``, then
    ``2], [3]``) shifts them, and no line can hold a string it cannot know. Empty lines are
    left out (a line of spaces makes the call fail: the file is then read line by line)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    end = len(text)
    if not lines[-1].strip(_BLANK):  # what follows the last newline
        end -= len(lines.pop())
    if not lines:
        return []
    if text.find("\n\n", 0, end) >= 0 or text.find("\n\r\n", 0, end) >= 0 or \
            not lines[0].strip(_BLANK):  # empty lines: left out
        numbers = [n for n, line in enumerate(lines, 1) if line.strip(_BLANK)]
        lines = [lines[n - 1] for n in numbers]
        if not lines:
            return []
    else:
        numbers = range(1, len(lines) + 1)
    mark = secrets.token_hex(16)
    try:
        values = json.loads("[" + f',"{mark}",'.join(lines) + "]")
    except (json.JSONDecodeError, RecursionError):
        return None
    objects = values[::2]
    if len(values) != 2 * len(lines) - 1 or values[1::2].count(mark) != len(lines) - 1 \
            or set(map(type, objects)) != {dict}:
        return None
    return list(zip(numbers, objects, strict=True))


@dataclass
class Place:
    """Where a reader is in a file (:func:`shaped`): a record's name, a line."""

    where: str = ""
    line: int | None = None


@contextmanager
def shaped(path: Path | str, where: str = "", line: int | None = None) -> Iterator[Place]:
    """A record of another shape than the format's (a list where an object belongs, a
    number where a list does …) is an InputError naming the file and the line or record,
    not a traceback. The :class:`Place` yielded may be moved on, line by line, so that one
    block covers a file."""
    place = Place(where, line)
    try:
        yield place
    except InputError:
        raise
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as e:
        prefix = f"{place.where}: " if place.where else ""
        raise InputError(f"{prefix}not the structure this format has ({type(e).__name__}: "
                         f"{quote(str(e))})", path, place.line) from None


@dataclass(slots=True)
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


def _inside(starts: list, ends: list, lengths: np.ndarray) -> np.ndarray:
    """Whether each span ``starts[k]``–``ends[k]`` has whole-number offsets (no bool) and is
    inside its text of ``lengths[k]`` characters, not empty."""
    if not set(map(type, starts)) | set(map(type, ends)) <= {int}:
        return np.array([type(s) is int and type(e) is int and 0 <= s < e <= n
                         for s, e, n in zip(starts, ends, lengths.tolist(), strict=True)], bool)
    try:
        s = np.fromiter(starts, np.int64, len(starts))
        e = np.fromiter(ends, np.int64, len(ends))
    except OverflowError:  # past 64 bits: outside any text
        s = np.array([min(max(x, -1), 1 << 62) for x in starts], np.int64)
        e = np.array([min(max(x, -1), 1 << 62) for x in ends], np.int64)
    return (s >= 0) & (s < e) & (e <= lengths)


def span_annotations(records: Sequence[SpanRecord], problems: Problems,
                     lang: str = DEFAULT_LANG) -> list[CorefAnnotation]:
    """Span annotations of ``records``, one a record: a span outside its text, empty or
    reversed is a problem, named with its file and line or record, and left out; the records
    of one text share its tokens, cut at every boundary of their spans (as
    :func:`corpusagree.readers._text.anchor` cuts them).

    Every text is tokenised in one call (:func:`joined`), every token cut and every span
    found among the tokens by array operations over the whole read: a Python step remains
    per record and per span only, to build their objects."""
    groups: dict[tuple[str, str], int] = {}
    group_of = [groups.setdefault((r.document, r.text), len(groups)) for r in records]
    flat = [s for r in records for s in r.spans]
    owner = np.repeat(np.arange(len(records)), [len(r.spans) for r in records])
    mids, starts, ends, labels, places = map(list, zip(*flat, strict=True)) if flat else \
        ([], [], [], [], [])
    texts = [r.text for r in records]
    lengths = np.fromiter(map(len, texts), np.int64, len(records))[owner]
    kept = _inside(starts, ends, lengths)
    for k in np.flatnonzero(~kept).tolist():  # the spans to name (or a bool offset)
        r, start, end = records[owner[k]], starts[k], ends[k]
        prefix, line = _where(places[k])
        if not (isinstance(start, int) and isinstance(end, int)):
            problems.add(InputError(f"{prefix}span {quote(mids[k])}: offsets {quote(start)}, "
                                    f"{quote(end)} are not whole numbers", r.source, line))
        elif end < start:
            problems.add(InputError(f"{prefix}span {quote(mids[k])} ends ({end}) before it "
                                    f"starts ({start})", r.source, line))
        elif start < 0 or end > len(r.text):
            problems.add(InputError(f"{prefix}span {quote(mids[k])} ({start}–{end}) points "
                                    f"outside the text of {r.document!r} ({len(r.text)} "
                                    "characters)", r.source, line))
        elif end > start:  # True is 1
            starts[k], ends[k], kept[k] = int(start), int(end), True
    keep = np.flatnonzero(kept)
    if len(keep) < len(flat):
        owner = owner[keep]
        mids, starts, ends, labels, places = ([x[k] for k in keep.tolist()] for x in (
            mids, starts, ends, labels, places))
    whole = joined([text for _, text in groups], lang)
    group = np.asarray(group_of, np.int64)
    span_group = group[owner]
    begin = whole.offsets[span_group] + np.asarray(starts, np.int64)
    finish = whole.offsets[span_group] + np.asarray(ends, np.int64)
    tokens = split(whole.tokens, whole.text, np.concatenate([begin, finish]))
    t_starts = np.asarray(tokens.starts, np.int64)
    # each text's tokens, each span's tokens (those ending after its start and starting
    # before its end), each text's sentences
    lo = np.searchsorted(t_starts, whole.offsets)
    hi = np.searchsorted(t_starts, whole.offsets + whole.lengths)
    first = np.searchsorted(np.asarray(tokens.ends, np.int64), begin, side="right")
    last = np.searchsorted(t_starts, finish, side="left")
    sents = np.asarray(tokens.sentence_starts, np.int64)
    s_lo, s_hi = np.searchsorted(sents, lo).tolist(), np.searchsorted(sents, hi).tolist()
    local = (sents - lo[np.searchsorted(lo, sents, side="right") - 1]).tolist() \
        if len(sents) else []
    words = tokens.words
    bounds = list(zip(lo.tolist(), hi.tolist(), strict=True))
    shared = [(words[i:j], local[s_lo[g]:s_hi[g]]) for g, (i, j) in enumerate(bounds)]
    empty = np.flatnonzero(first >= last)
    for k in sorted(empty.tolist(), key=lambda k: (group_of[owner[k]], k)):
        r = records[owner[k]]
        problems.add(InputError(f"span {quote(mids[k])} covers no token (whitespace only)",
                                r.source, _where(places[k])[1]))
    if len(empty):
        keep = np.flatnonzero(first < last)
        owner, first, last, span_group = owner[keep], first[keep], last[keep], span_group[keep]
        mids, starts, ends, labels = ([x[k] for k in keep.tolist()] for x in (
            mids, starts, ends, labels))
    found: list[dict[str, Mention]] = [{} for _ in records]
    for i, mid, start, end, label, a, b in zip(
            owner.tolist(), mids, starts, ends, labels, (first - lo[span_group]).tolist(),
            (last - lo[span_group]).tolist(), strict=True):
        found[i][mid] = Mention(mid, ((a, b),), None, {
            "label": label, "type": label, "text": texts[i][start:end],
            "char_offsets": ((start, end),)})
    out = []
    for r, g, mentions in zip(records, group_of, found, strict=True):
        doc = Document(r.document, *shared[g], text=r.text, source=r.source)
        out.append(CorefAnnotation(doc, r.annotator, mentions, source=r.source))
    return out


#: what separates the texts tokenised together (whitespace: no token spans it)
SEPARATOR = "\n\n"


@dataclass(frozen=True)
class Joined:
    """Texts tokenised together (:func:`joined`): ``text`` is the texts joined by
    :data:`SEPARATOR`, ``offsets`` and ``lengths`` where each is in it, ``tokens`` its
    tokens."""

    text: str
    tokens: Tokens
    offsets: np.ndarray
    lengths: np.ndarray


def joined(texts: Sequence[str], lang: str = DEFAULT_LANG) -> Joined:
    """The tokens of the texts joined by :data:`SEPARATOR`
    (:func:`corpusagree.readers._text.tokenize`): spaCy's tokenizer splits at whitespace
    first, so the texts joined by whitespace give each text's own tokens, at a fraction of
    the cost of a call per text (the exports of platforms hold many short texts). Each
    text's first token starts a sentence.

    >>> j = joined(["Ada met Bob.", "Hi"])
    >>> j.tokens.words, j.offsets.tolist(), j.tokens.sentence_starts
    (['Ada', 'met', 'Bob', '.', 'Hi'], [0, 14], [0, 4])
    """
    text = SEPARATOR.join(texts)
    whole = tokenize(text, lang)
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    offsets = np.cumsum(lengths + len(SEPARATOR)) - (lengths + len(SEPARATOR))
    starts = np.asarray(whole.starts, np.int64)
    lo = np.searchsorted(starts, offsets)
    hi = np.searchsorted(starts, offsets + lengths)
    begins = np.zeros(len(starts), bool)
    begins[whole.sentence_starts] = True
    begins[lo[hi > lo]] = True
    tokens = Tokens(whole.words, whole.starts, whole.ends, np.flatnonzero(begins).tolist())
    return Joined(text, tokens, offsets, lengths)


def tokenized(texts: Sequence[str], lang: str = DEFAULT_LANG) -> list[Tokens]:
    """The tokens of each text, tokenised together (:func:`joined`), each in offsets of its
    own text.

    >>> [t.words for t in tokenized(["Ada met Bob.", "Hi"])]
    [['Ada', 'met', 'Bob', '.'], ['Hi']]
    """
    if not texts:
        return []
    whole = joined(texts, lang)
    starts = np.asarray(whole.tokens.starts, np.int64)
    ends = np.asarray(whole.tokens.ends, np.int64)
    lo = np.searchsorted(starts, whole.offsets).tolist()
    hi = np.searchsorted(starts, whole.offsets + whole.lengths).tolist()
    sents = np.asarray(whole.tokens.sentence_starts, np.int64)
    s_lo = np.searchsorted(sents, lo).tolist()
    s_hi = np.searchsorted(sents, hi).tolist()
    return [Tokens(whole.tokens.words[i:j], starts[i:j] - off, ends[i:j] - off,
                   (sents[s_lo[k]:s_hi[k]] - i).tolist())
            for k, (i, j, off) in enumerate(zip(lo, hi, whole.offsets.tolist(), strict=True))]


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
