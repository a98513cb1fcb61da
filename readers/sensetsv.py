"""Long TSV sense judgements (one row per item and annotator), and Erk et al.'s WSbest table.

Plain tab-separated text with a header line, no quoting. Columns default to ``item``,
``annotator``, ``sense`` (+ optional ``lemma``, ``document``); several senses in one cell are
split on ``sep`` (``|``). An empty sense cell is a missing judgement. Headers of Snow et al.
(2008) (``orig_id``, ``!amt_worker_ids``, ``response``) and of WSbest ``judgments.tsv`` are
recognised when no column is named.
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from ..model.corpus import SenseTag
from ..model.errors import InputError, Problems, quote
from ..model.io import regular
from . import Option, _paths, register
from ._sensefiles import numbered_lines

DEFAULT = {"item": "item", "annotator": "annotator", "senses": "sense"}
SNOW2008 = {"item": "orig_id", "annotator": "!amt_worker_ids", "senses": "response"}
WSBEST = ("instanceID", "label", "annotator")


Rows = list[tuple[int, list[str]]]


def _table(path: str | PathLike, needed: list[str]) -> tuple[list[str], Rows]:
    """Header and ``(line, fields)`` rows of a TSV file; checks columns and field counts."""
    lines = [(n, t) for n, t in numbered_lines(path) if t.strip()]
    if not lines:
        raise InputError("empty file: expected a header line", path, 1)
    hline, htext = lines[0]
    header = htext.split("\t")
    missing = [c for c in needed if c not in header]
    if missing:
        found = ", ".join(header[:12]) + (", …" if len(header) > 12 else "")
        raise InputError(f"missing column(s) {', '.join(missing)}; found "
                         f"{found if len(found) <= 200 else found[:200] + '…'}", path, hline)
    rows = []
    problems = Problems()
    for n, text in lines[1:]:
        fields = text.split("\t")
        if len(fields) != len(header):
            problems.add(InputError(f"expected {len(header)} tab-separated fields, found "
                                    f"{len(fields)}", path, n))
        rows.append((n, fields))
    problems.check()
    return header, rows


def _header(path: str | PathLike) -> set[str]:
    """Column names on the first non-blank line (none if the file cannot be read)."""
    try:
        with Path(path).open("rb") as f:
            for raw in f:
                text = raw.decode("utf-8-sig", "replace").rstrip("\r\n")
                if text.strip():
                    return set(text.split("\t"))
    except OSError:
        pass
    return set()


def read(path: str | PathLike, item: str | None = None, annotator: str | None = None,
         senses: str | None = None, lemma: str = "lemma", document: str = "document",
         sep: str = "|") -> list[SenseTag]:
    """One SenseTag per row; a repeated (item, annotator) pair is an InputError.

    Unnamed columns take the defaults; with none named, a Snow et al. or WSbest header is
    recognised (WSbest goes to :func:`read_wsbest`). ``lemma``/``document`` are used if present.
    """
    cols = {"item": item, "annotator": annotator, "senses": senses}
    header = _header(path)
    if cols == dict.fromkeys(cols) and not set(DEFAULT.values()) <= header:
        if set(WSBEST) <= header:
            return read_wsbest(path)
        if set(SNOW2008.values()) <= header:
            cols = dict(SNOW2008)
    cols = {k: v or DEFAULT[k] for k, v in cols.items()}
    header, rows = _table(path, list(cols.values()))
    idx = {k: header.index(v) for k, v in cols.items()}
    opt = {k: header.index(c) for k, c in (("lemma", lemma), ("document", document))
           if c in header}
    tags: list[SenseTag] = []
    first: dict[tuple[str, str], int] = {}
    problems = Problems()
    for n, fields in rows:
        key = (fields[idx["item"]].strip(), fields[idx["annotator"]].strip())
        if not all(key):
            problems.add(InputError("empty item or annotator", path, n))
            continue
        if key in first:
            problems.add(InputError(f"duplicate judgement of item {quote(key[0])} by "
                                    f"{quote(key[1])} (first at line {first[key]})", path, n))
            continue
        first[key] = n
        chosen = frozenset(s.strip() for s in fields[idx["senses"]].split(sep) if s.strip())
        if chosen:
            extra = {k: fields[i].strip() or None for k, i in opt.items()}
            tags.append(SenseTag(*key, chosen, extra.get("lemma"), extra.get("document"),
                                 str(path), n))
    problems.check()
    return tags


def _uses(uses: Path) -> dict[str, tuple[str, tuple[str, str, str] | None]]:
    """dataID -> (lemma, context) of a WSbest ``uses.tsv``: the sentence split at the target
    token's character offsets (``indices_target_token``, ``start:end``) when they fit it."""
    header, rows = _table(uses, ["dataID", "lemma"])
    i, j = header.index("dataID"), header.index("lemma")
    c = header.index("context") if "context" in header else None
    t = header.index("indices_target_token") if "indices_target_token" in header else None
    out = {}
    for _, f in rows:
        context = None
        if c is not None and t is not None:
            start, colon, end = f[t].partition(":")
            text = f[c]
            if colon and start.isdigit() and end.isdigit() and \
                    int(start) < int(end) <= len(text):
                a, b = int(start), int(end)
                context = (text[:a].strip(), text[a:b], text[b:].strip())
        out[f[i]] = (f[j], context)
    return out


def read_wsbest(path: str | PathLike, uses: str | PathLike | None = None) -> list[SenseTag]:
    """Erk et al. (2013) WSbest ``judgments.tsv``: rows ``<dataID>-<senseID>``, 0/1, annotator.

    The senses marked 1 form each annotator's set for the sentence (``dataID``); a sentence an
    annotator marked only 0 or ``-`` (cannot decide) has no tag. The lemma and the sentence
    come from ``uses`` (default: a ``uses.tsv`` beside the file, if present). A repeated row is
    an InputError.
    """
    uses = Path(path).with_name("uses.tsv") if uses is None else Path(uses)
    known = _uses(uses) if regular(uses) else {}
    header, rows = _table(path, list(WSBEST))
    i_id, i_label, i_ann = (header.index(c) for c in WSBEST)
    first: dict[tuple[str, str], int] = {}
    chosen: dict[tuple[str, str], set[str]] = {}
    line: dict[tuple[str, str], int] = {}
    for n, fields in rows:
        iid, label, ann = fields[i_id].strip(), fields[i_label].strip(), fields[i_ann].strip()
        data_id, dash, sense = iid.partition("-")
        if not (data_id and dash and sense and ann):
            raise InputError(f"expected <dataID>-<senseID> and an annotator, found {quote(iid)}",
                             path, n)
        if (iid, ann) in first:
            raise InputError(f"duplicate judgement of {quote(iid)} by {quote(ann)} "
                             f"(first at line {first[iid, ann]})", path, n)
        first[iid, ann] = n
        if label not in ("0", "1", "-"):
            raise InputError(f"label must be 0, 1 or -, found {quote(label)}", path, n)
        line.setdefault((data_id, ann), n)
        if label == "1":
            chosen.setdefault((data_id, ann), set()).add(sense)
    return [SenseTag(d, a, frozenset(chosen[d, a]), *known.get(d, (None, None))[:1], None,
                     str(path), n, known.get(d, (None, None))[1])
            for (d, a), n in line.items() if (d, a) in chosen]


def sniff(path: str | PathLike) -> bool:
    """True for a TSV whose header has the default, Snow et al. or WSbest columns (a file
    :func:`read` reads)."""
    header = _header(path)
    return any(set(cols) <= header for cols in (DEFAULT.values(), SNOW2008.values(), WSBEST))


def sniff_long(path: str | PathLike) -> bool:
    """True for a TSV whose header has the default or the Snow et al. columns."""
    header = _header(path)
    return any(set(cols) <= header for cols in (DEFAULT.values(), SNOW2008.values()))


def sniff_wsbest(path: str | PathLike) -> bool:
    """True for a TSV whose header has the WSbest ``judgments.tsv`` columns."""
    return set(WSBEST) <= _header(path)


@register("senses", "sensetsv", layout="file", sniff=sniff_long,
          summary="long TSV sense judgements, one row per item and annotator (columns item, "
          "annotator, sense, or those of Snow et al. 2008): files or folders",
          options=(Option("sep", "long TSV: separator of several senses in one cell "
                          "(default: |)", metavar="TEXT"),))
def read_paths(paths: Sequence[Path], annotators: Sequence[str] | None = None,
               sep: str = "|") -> list[SenseTag]:
    """:func:`read` on every file of ``paths`` (the visible files of a folder); the annotators
    are those of the annotator column (``annotators`` is not used)."""
    tags: list[SenseTag] = []
    for f in _paths.all_files(paths, _paths.visible, recursive=False):
        tags += read(f, sep=sep)
    return tags


@register("senses", "wsbest", layout="file", sniff=sniff_wsbest,
          summary="WSbest judgments.tsv (Erk et al. 2013), lemmas from a uses.tsv beside it: "
          "files or folders",
          options=(Option("uses", "WSbest: the uses.tsv giving each sentence's lemma (default: "
                          "the one beside each judgments file)", type=Path, metavar="FILE"),))
def read_wsbest_paths(paths: Sequence[Path], annotators: Sequence[str] | None = None,
                      uses: str | PathLike | None = None) -> list[SenseTag]:
    """:func:`read_wsbest` on every file of ``paths`` (the visible files of a folder); the
    annotators are those of the annotator column (``annotators`` is not used)."""
    tags: list[SenseTag] = []
    for f in _paths.all_files(paths, _paths.visible, recursive=False):
        tags += read_wsbest(f, uses)
    return tags


__all__ = ["DEFAULT", "SNOW2008", "WSBEST", "Rows", "read", "read_paths", "read_wsbest",
           "read_wsbest_paths", "sniff", "sniff_long", "sniff_wsbest"]
