"""ezCoref crowd annotations (Gupta et al. 2023, Findings of EACL).

One JSON file per passage: a list of ``{"annotator_id": …, "annotations": {sent: {"tok,start,end":
[cluster ids]}}}``. Every token of a mention is listed under its own key with the mention's
sentence-relative ``start,end`` (end exclusive); mentions are built from the distinct
``(sent, start, end)``. Each passage is a document (id = file stem), each ``annotator_id`` an
annotator. A worker who submitted a passage more than once is one annotator of it: the first
submission is kept and the later ones left out, with a warning naming each (worker, passage),
so that no worker is ever compared with themself.

The files carry no words: tokens are ``"_"`` placeholders, and a sentence is as long as its
largest mention end over all annotators of the passage (sentences with no mention are empty).
Sentence indices and token positions are numbers in the file, not words of it: a passage
whose placeholders would outnumber :data:`MAX_PLACEHOLDERS_PER_BYTE` per byte of the file (plus
:data:`MAX_PLACEHOLDERS`) is refused, so memory stays linear in the file's size.

A mention may list several cluster ids. ``clusters="all"`` (the default, of every job: what the
format says) puts it in every such chain (so chains may overlap; a warning counts them);
``clusters="last"`` keeps the last id only. The ezCoref front end appends to the list on every
click and keeps only the last entity on screen, so the list may be an edit history whose last
id is the final choice; the released data do not say, and Gupta et al. (2023) describe
mentions that belong to several clusters.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Collection, Sequence
from os import PathLike
from pathlib import Path
from typing import Literal

from ..model.chains import check_documents
from ..model.corpus import Chain, CorefAnnotation, Document, Mention
from ..model.errors import InputError, Problems, quote
from ..model.io import decode, excerpt, read_bytes
from . import Option, _paths, register

PathArg = str | PathLike | Sequence[str | PathLike]

#: placeholder tokens and sentences a passage may have per byte of its file, and in any case
MAX_PLACEHOLDERS_PER_BYTE, MAX_PLACEHOLDERS = 16, 100_000


def sniff(path: str | PathLike) -> bool:
    """True for a JSON list file (or a directory holding one) with ezCoref submissions."""
    text = _paths.head(path, (".json",))
    return text is not None and text.lstrip("\ufeff \t\r\n").startswith("[") \
        and '"annotator_id"' in text and '"annotations"' in text


@register("coref", "ezcoref", layout="each", sniff=sniff,
          summary="ezCoref crowd annotations (Gupta et al. 2023): one JSON file per passage, "
          "every annotator in it; files or folders",
          options=(Option("clusters", "ezCoref: keep every cluster id a mention lists "
                          "(default), or only the last one (the last choice in the ezCoref "
                          "interface)", choices=("all", "last")),))
def read(paths: PathArg, annotators: Collection[str] | None = None, *,
         clusters: Literal["all", "last"] = "all") -> list[CorefAnnotation]:
    """Read ezCoref passage files (files, or directories searched recursively for ``*.json``);
    ``annotators`` keeps only those annotator ids (as strings)."""
    if clusters not in ("all", "last"):
        raise InputError(f"clusters must be 'all' or 'last', not {quote(clusters)}")
    files = _paths.all_files(paths, (".json",))
    out: list[CorefAnnotation] = []
    multi = 0
    repeats: list[str] = []
    problems = Problems()
    mids: list[str] = []
    for f in files:
        with problems.collect():
            anns, m, r = _read_passage(f, clusters, mids)
            multi += m
            repeats += r
            out.extend(a for a in anns if annotators is None or a.annotator in annotators)
    problems.check()
    if multi:
        how = "kept in every chain" if clusters == "all" else "kept in the last chain only"
        warnings.warn(f"ezCoref: {multi} mention annotation(s) carry several cluster ids ({how})",
                      stacklevel=2)
    if repeats:
        warnings.warn(f"ezCoref: {len(repeats)} repeated (annotator, passage) submission(s) "
                      f"left out, the first of each kept: {'; '.join(repeats)}", stacklevel=2)
    check_documents(out)
    return out


def _load(path: Path) -> tuple[object, int]:
    """The passage's JSON value and the file's size in bytes."""
    data = read_bytes(path)
    text = decode(data, path)
    try:
        return json.loads(text), len(data)
    except json.JSONDecodeError as e:
        raise InputError(f"malformed JSON: {e.msg}", path, e.lineno) from None
    except ValueError as e:  # an integer of more than 4300 digits
        raise InputError(f"malformed JSON: {str(e).partition(':')[0]}", path) from None
    except RecursionError:
        raise InputError("JSON nested too deeply to be an ezCoref passage", path) from None


def _read_passage(path: Path, mode: str,
                  mids: list[str]) -> tuple[list[CorefAnnotation], int, list[str]]:
    """The passage's annotations, its mentions with several cluster ids and its repeated
    submissions, left out (``worker W on passage P, submission i``); ``mids``: the mention ids
    "m1", "m2", … made so far in this read (the same ones serve every passage and annotator),
    grown as needed."""
    data, size = _load(path)
    if not isinstance(data, list):
        raise InputError("expected a JSON list of annotator submissions", path)
    limit = MAX_PLACEHOLDERS_PER_BYTE * size + MAX_PLACEHOLDERS
    # a mention (sent, start, end) is keyed by the one number (sent * limit + start) * limit +
    # end (all three are under limit), which sorts as the triple does: no tuple per mention,
    # and ints sort faster than tuples
    subs, lengths, repeated = _submissions(data, path, limit, size)
    n_sent = max(lengths, default=-1) + 1
    if n_sent + sum(lengths.values()) > limit:
        raise InputError(f"{n_sent} sentences and {sum(lengths.values())} tokens: a file of "
                         f"{size} bytes cannot hold so many", path)
    starts, pos = [], 0
    for s in range(n_sent):
        starts.append(pos)
        pos += lengths.get(s, 0)
    doc = Document(path.stem, ["_"] * pos, starts, source=str(path))
    out, multi = _annotations(subs, doc, starts, limit, mode, mids, path)
    return out, multi, repeated


def _submissions(data: list, path: Path, limit: int, size: int
                 ) -> tuple[list[tuple[str, dict[int, list]]], dict[int, int], list[str]]:
    """Each first submission of a worker: (worker, mention key → cluster ids); the length
    of each sentence (its last token marked); the repeated submissions, left out."""
    subs: list[tuple[str, dict[int, list]]] = []
    lengths: dict[int, int] = {}
    names: dict[str, int] = {}
    repeated: list[str] = []
    for i, sub in enumerate(data):
        if not isinstance(sub, dict) or "annotator_id" not in sub or "annotations" not in sub:
            raise InputError(f"submission {i}: needs 'annotator_id' and 'annotations'", path)
        if not isinstance(sub["annotations"], dict):
            raise InputError(f"submission {i}: 'annotations' must map sentence indices to "
                             f"mentions, not {type(sub['annotations']).__name__}", path)
        name = str(sub["annotator_id"])
        names[name] = names.get(name, 0) + 1
        if names[name] > 1:  # the same worker again: one annotator per worker and passage
            repeated.append(f"worker {name} on passage {path.stem}, submission {i + 1} of "
                            f"{len(data)}")
            continue
        spans: dict[int, list] = {}
        for sent, keys in sub["annotations"].items():
            s, longest = _sentence(i, sent, keys, spans, limit, size, path)
            if longest:
                lengths[s] = max(lengths.get(s, 0), longest)
        subs.append((name, spans))
    return subs, lengths, repeated


def _sentence(i: int, sent: str, keys, spans: dict[int, list], limit: int, size: int,
              path: Path) -> tuple[int | None, int]:
    """Add the mentions of sentence ``sent`` of submission ``i`` (``keys``: its
    "token,start,end" keys → cluster ids) to ``spans``; the sentence's index and the end of
    its last mention (0 with none). Per key of the passage: the hot loop of the read."""
    if not isinstance(keys, dict):
        raise InputError(f"submission {i}: sentence {excerpt(sent)} must map "
                         "'token,start,end' keys to cluster ids", path)
    # the sentence index once per sentence, not per key (None: its first key's error)
    try:
        s = int(sent)
    except ValueError:
        s = None
    longest = 0
    # a mention is listed once per token: the first key of each "start,end" of the
    # sentence is checked in full, the others only for what may differ (their token
    # and cluster ids), which halves the checks of a passage
    seen: dict[str, tuple[int, int, list]] = {}
    for key, ids in keys.items():
        first_tok, _, rest = key.partition(",")
        known = seen.get(rest)
        if known is not None:
            start, end, old = known
            try:
                tok = int(first_tok)
            except ValueError:
                raise InputError(_bad_key(i, sent, key), path) from None
            if not start <= tok < end or not isinstance(ids, list) or not ids:
                raise InputError(_bad_mention(i, sent, key, ids), path)
            if old != ids:
                raise InputError(_different(i, s, start, end), path)
            continue
        try:
            if s is None:
                raise ValueError
            tok, start, end = map(int, key.split(","))
        except ValueError:
            raise InputError(_bad_key(i, sent, key), path) from None
        if not (0 <= start <= tok < end) or s < 0 or not isinstance(ids, list) or not ids:
            raise InputError(_bad_mention(i, sent, key, ids), path)
        if s >= limit or end >= limit:
            raise InputError(f"submission {i}: sentence {excerpt(sent)}, mention "
                             f"{excerpt(key)}: a file of {size} bytes cannot hold so "
                             "many sentences or tokens", path)
        old = spans.setdefault((s * limit + start) * limit + end, ids)
        if old != ids:
            raise InputError(_different(i, s, start, end), path)
        seen[rest] = (start, end, old)
        if end > longest:
            longest = end
    return s, longest


def _annotations(subs: list[tuple[str, dict[int, list]]], doc: Document,
                 starts: list[int], limit: int, mode: str, mids: list[str], path: Path
                 ) -> tuple[list[CorefAnnotation], int]:
    """The annotation of each submission on ``doc``, and how many mentions have several
    cluster ids."""
    out, multi = [], 0
    # one fragments tuple per distinct span of the passage, shared by the annotators who marked
    # it (tuples are immutable): each tuple made is one more object for the garbage collector
    # to scan once the read ends, a third of the read's time before
    frags: dict[int, tuple[tuple[int, int]]] = {}
    for name, spans in subs:
        ments: dict[str, Mention] = {}
        # each chain's members; the Chains are made once at the end (a Chain made for every
        # mention and dropped when its chain existed cost a fifth of this loop)
        members: dict[str, list[str]] = {}
        # the ids list may be longer than the passage's mentions
        for (span, ids), mid in zip(sorted(spans.items()), _mention_ids(mids, len(spans)),
                                    strict=False):
            frag = frags.get(span)
            if frag is None:
                s_start, end = divmod(span, limit)
                s, start = divmod(s_start, limit)
                begin = starts[s]
                frag = frags[span] = ((begin + start, begin + end),)
            # ids is the file's own list, which nothing else keeps once the passage is read
            ments[mid] = Mention(mid, frag, None, {"clusters": ids})
            if len(ids) == 1:  # most mentions list one cluster id
                cid = str(ids[0])
                chain = members.get(cid)
                if chain is None:
                    members[cid] = [mid]
                else:
                    chain.append(mid)
                continue
            uniq = list(dict.fromkeys(map(str, ids)))
            multi += len(uniq) > 1
            for cid in uniq if mode == "all" else [str(ids[-1])]:
                members.setdefault(cid, []).append(mid)
        chains = [Chain(cid, mids) for cid, mids in members.items()]
        out.append(CorefAnnotation(doc, name, ments, chains, source=str(path)))
    return out, multi


def _mention_ids(mids: list[str], n: int) -> list[str]:
    """``mids`` ("m1", "m2", …) made to reach at least "m{n}"."""
    if len(mids) < n:
        mids.extend(f"m{i}" for i in range(len(mids) + 1, n + 1))
    return mids


def _bad_key(i: int, sent: str, key: str) -> str:
    return (f"submission {i}: bad key {excerpt(sent)}/{excerpt(key)}, expected sentence and "
            "'token,start,end'")


def _bad_mention(i: int, sent: str, key: str, ids: object) -> str:
    return (f"submission {i}: bad mention {excerpt(key)} in sentence {excerpt(sent)}: "
            f"{excerpt(repr(ids))}")


def _different(i: int, s: int, start: int, end: int) -> str:
    return (f"submission {i}: tokens of mention {start},{end} in sentence {s} list different "
            "clusters")


__all__ = ["MAX_PLACEHOLDERS", "MAX_PLACEHOLDERS_PER_BYTE", "PathArg", "read", "sniff"]
