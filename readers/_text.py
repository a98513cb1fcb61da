"""Texts as tokens for the readers of character-offset formats (brat, XMI, WebAnno TSV):
spaCy's blank tokenizer of a language, tokens cut at every annotation boundary, character
spans as token fragments, UTF-16 offsets as code points.

Mentions of these formats are character spans. Tokens are only the coordinates the rest of
the package works in, so :func:`split` cuts them at every start and end of every annotator's
spans of a document (:func:`anchor`) before any mention becomes token fragments: ``qu'`` (7–10)
and ``ils`` (10–13) in "Il dit qu'ils viennent." stay two mentions, where whole tokens would
make them one. Leading and trailing whitespace of a span is not part of any token.

Examples
--------
>>> t = tokenize("Il dit qu'ils viennent.")            # English rules: one token
>>> t.words
['Il', 'dit', "qu'ils", 'viennent', '.']
>>> split(t, "Il dit qu'ils viennent.", [7, 10, 13]).words
['Il', 'dit', "qu'", 'ils', 'viennent', '.']
>>> tokenize("Il dit qu'ils viennent.", "fr").words      # spaCy's French rules
['Il', 'dit', "qu'", 'ils', 'viennent', '.']
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ..model.corpus import CorefAnnotation, Document, Mention, merged_fragments
from ..model.errors import InputError, Problems, quote
from . import Option

#: the reader option of the languages of spaCy's blank tokenizers (brat, XMI, plain text)
LANG = Option("lang", "brat, XMI, plain text: language of the tokeniser, spaCy's blank "
              "pipeline of that code (fr, de, …; no model download; default: en)",
              metavar="CODE")
DEFAULT_LANG = "en"


@dataclass(frozen=True)
class Tokens:
    """A tokenised text: token strings with code-point offsets, sentence start indices."""

    words: list[str]
    starts: Sequence[int]
    ends: Sequence[int]
    sentence_starts: list[int]


@lru_cache(maxsize=8)
def _blank(lang: str):
    """spaCy's blank pipeline of ``lang`` and the ORTH ids of the sentencizer's final
    punctuation; an unknown language is an InputError."""
    import spacy  # imported on first use: loading spaCy takes a while
    from spacy.pipeline import Sentencizer

    try:
        nlp = spacy.blank(lang)
    except (ImportError, OSError, ValueError, KeyError) as e:
        raise InputError(f"lang={quote(lang)}: spaCy has no blank pipeline for this "
                         f"language ({type(e).__name__})") from None
    nlp.max_length = 1 << 62  # the blank tokenizer keeps no model; texts are cut in pieces
    punct = np.array(sorted(nlp.vocab.strings.add(c) for c in Sentencizer.default_punct_chars),
                     np.uint64)
    return nlp, punct


def check_lang(lang: str) -> None:
    """InputError unless spaCy has a blank pipeline for ``lang``."""
    _blank(lang)


#: characters spaCy tokenises at once (a spaCy ``Doc`` takes some 120 bytes a token: a piece
#: of 10,000 characters stays in the processor's cache, and tokenises in two thirds of the
#: time of pieces ten times longer)
PIECE = 10_000
_CUT = re.compile(r"\s(?=[^\W_])")


def _pieces(text: str) -> Iterator[tuple[int, str]]:
    """``(offset, piece)``: ``text`` cut after a whitespace character before a letter or digit,
    every ``PIECE`` characters or so (no token spans such a cut)."""
    start = 0
    while start < len(text):
        cut = _CUT.search(text, start + PIECE) if len(text) - start > PIECE else None
        end = cut.end() if cut else len(text)
        yield start, text[start:end]
        start = end


def tokenize(text: str, lang: str = DEFAULT_LANG) -> Tokens:
    """spaCy's blank tokens of ``text`` without whitespace tokens; sentences as spaCy's
    rule-based sentencizer splits them (a token that is neither punctuation nor final
    punctuation after a final punctuation mark starts one), starting at their first non-space
    token.

    Texts of any length, in memory linear in the text: the text is tokenised in pieces of
    about :data:`PIECE` characters cut before a word, the tokens' attributes are taken as
    arrays (no Python object per token but its string)."""
    from spacy.attrs import IDX, IS_PUNCT, IS_SPACE, LENGTH, ORTH

    nlp, punct = _blank(lang)
    parts = []
    for offset, piece in _pieces(text):
        arr = nlp.make_doc(piece).to_array([IDX, LENGTH, IS_SPACE, IS_PUNCT, ORTH])
        arr[:, 0] += offset
        parts.append(arr)
    arr = np.concatenate(parts) if parts else np.zeros((0, 5), np.uint64)
    start, length = arr[:, 0].astype(np.int64), arr[:, 1].astype(np.int64)
    # the final marks (``punct`` is sorted, and short: a search, not np.isin's sort of all)
    orth = arr[:, 4]
    space = arr[:, 2].astype(bool)
    final = punct[np.minimum(np.searchsorted(punct, orth), len(punct) - 1)] == orth
    word = ~arr[:, 3].astype(bool) & ~final  # resets the sentencizer (spaCy counts spaces)
    index = np.arange(len(arr))
    last_final = np.maximum.accumulate(np.where(final, index, -1)) if len(arr) else index
    last_word = np.maximum.accumulate(np.where(word, index, -1)) if len(arr) else index
    # token i starts a sentence when it is a word and a final mark came after the last word
    begins = np.zeros(len(arr), bool)
    begins[1:] = word[1:] & (last_final[:-1] > last_word[:-1])
    begins[:1] = True
    kept = ~space
    before = np.cumsum(kept) - kept  # kept tokens before each token
    sents = before[begins]  # non-decreasing: the first of each run
    sents = sents[np.concatenate([[True], sents[1:] != sents[:-1]])] if len(sents) else sents
    sents = sents[sents < kept.sum()]
    starts, ends = start[kept], (start + length)[kept]
    return Tokens([text[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True)],
                  starts, ends, sents.tolist())


def split(tokens: Tokens, text: str, cuts: Iterable[int]) -> Tokens:
    """``tokens`` cut at each offset of ``cuts`` that lies strictly inside a token; the pieces
    are the text's characters there."""
    starts, ends = np.asarray(tokens.starts, np.int64), np.asarray(tokens.ends, np.int64)
    at = np.unique(cuts if isinstance(cuts, np.ndarray) else np.fromiter(cuts, np.int64))
    if not len(at) or not len(starts):
        return tokens
    # the cuts inside token k: those in (starts[k], ends[k])
    lo = np.searchsorted(at, starts, side="right")
    hi = np.searchsorted(at, ends, side="left")
    inner = np.maximum(hi - lo, 0)
    if not inner.any():
        return tokens
    pieces = inner + 1
    owner = np.repeat(np.arange(len(starts)), pieces)
    first = np.cumsum(pieces) - pieces  # the first piece of each token
    rank = np.arange(len(owner)) - first[owner]
    cut_index = lo[owner] + rank  # the cut before piece `rank` (rank > 0)
    new_starts = np.where(rank > 0, at[np.minimum(cut_index - 1, len(at) - 1)], starts[owner])
    last = rank == inner[owner]
    new_ends = np.where(last, ends[owner], at[np.minimum(cut_index, len(at) - 1)])
    # every piece's word is its token's, but for the pieces of the tokens cut: their text
    words = np.array(tokens.words, dtype=object)[owner]
    cut = np.flatnonzero(inner[owner])
    for k, s, e in zip(cut.tolist(), new_starts[cut].tolist(), new_ends[cut].tolist(),
                       strict=True):
        words[k] = text[s:e]
    out: list[str] = words.tolist()
    sentence_starts = first[np.asarray(tokens.sentence_starts, np.int64)].tolist() \
        if tokens.sentence_starts else []
    return Tokens(out, new_starts, new_ends, sentence_starts)


def token_fragments(tokens: Tokens,
                    spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...] | None:
    """Token fragments (sorted, adjacent merged) of character spans: each span becomes the
    tokens it overlaps. ``None`` when some span covers no token."""
    frags = []
    for s, e in spans:
        i = bisect_right(tokens.ends, s)
        j = bisect_left(tokens.starts, e)
        if i >= j:
            return None
        frags.append((i, j))
    return merged_fragments(frags)


@dataclass
class Spans:
    """One annotator's mentions of one text as character spans, before they become token
    fragments: ``spans[k]`` (sorted code-point ``(start, end)`` pairs) is mention ``ids[k]``
    with ``attrs[k]`` (``char_offsets`` is added)."""

    ids: list[str] = field(default_factory=list)
    spans: list[tuple[tuple[int, int], ...]] = field(default_factory=list)
    attrs: list[dict] = field(default_factory=list)
    lines: list[int | None] = field(default_factory=list)

    def add(self, mid: str, spans: Sequence[tuple[int, int]], attrs: dict,
            line: int | None = None) -> None:
        self.ids.append(mid)
        self.spans.append((spans[0],) if len(spans) == 1 else tuple(sorted(spans)))
        self.attrs.append(attrs)
        self.lines.append(line)

    def cuts(self) -> Iterator[int]:
        for frags in self.spans:
            for s, e in frags:
                yield s
                yield e


def anchor(text: str, base: Tokens, annotations: Sequence[Spans]
           ) -> tuple[Tokens, list[dict[str, Mention]], list[tuple[int, int]]]:
    """The tokens of ``text`` (``base`` cut at every boundary of every annotation's spans) and
    each annotation's mentions as token fragments, in its order; ``(annotation, mention)``
    indices of the spans that cover no token (empty, or whitespace only), left out."""
    frags = [f for a in annotations for spans in a.spans for f in spans]
    bounds = np.array(frags, np.int64).reshape(-1, 2)
    tokens = split(base, text, bounds.ravel().tolist())
    # every fragment's tokens at once: those ending after its start and starting before its end
    first = np.searchsorted(np.asarray(tokens.ends, np.int64), bounds[:, 0], side="right")
    last = np.searchsorted(np.asarray(tokens.starts, np.int64), bounds[:, 1], side="left")
    token_frags = list(zip(first.tolist(), last.tolist(), strict=True))
    out: list[dict[str, Mention]] = []
    empty: list[tuple[int, int]] = []
    at = 0
    for a, ann in enumerate(annotations):
        mentions: dict[str, Mention] = {}
        for k, (mid, spans, attrs) in enumerate(zip(ann.ids, ann.spans, ann.attrs,
                                                    strict=True)):
            if len(spans) == 1:  # most mentions: one fragment
                frag = token_frags[at]
                at += 1
                if frag[0] >= frag[1]:
                    empty.append((a, k))
                    continue
                frags: tuple[tuple[int, int], ...] = (frag,)
            else:
                mine = token_frags[at:at + len(spans)]
                at += len(spans)
                if any(i >= j for i, j in mine):
                    empty.append((a, k))
                    continue
                frags = merged_fragments(mine)
            attrs["char_offsets"] = spans
            mentions[mid] = Mention(mid, frags, attrs=attrs)
        out.append(mentions)
    return tokens, out, empty



def anchored(files: Sequence, problems: Problems,
             covers_nothing: Callable[[Any, int], InputError]) -> list[CorefAnnotation]:
    """The annotations of the files read, in their order (XMI, WebAnno TSV): the files of one
    document with the same text and tokens share those tokens, cut at every boundary of their
    mentions (:func:`anchor`). A file has ``name``, ``annotator``, ``doc_id``, ``text``,
    ``tokens``, ``mentions`` (:class:`Spans`), ``chains`` and ``links``; a mention that covers
    no token is a problem, ``covers_nothing(file, k)`` for its index ``k``, and left out."""
    groups: dict[tuple, list[int]] = {}
    for i, f in enumerate(files):
        key = (f.doc_id, f.text, tuple(f.tokens.words), tuple(f.tokens.starts))
        groups.setdefault(key, []).append(i)
    out: list[CorefAnnotation | None] = [None] * len(files)
    for members in groups.values():
        first = files[members[0]]
        tokens, mentions, empty = anchor(first.text, first.tokens,
                                         [files[i].mentions for i in members])
        for a, k in empty:
            problems.add(covers_nothing(files[members[a]], k))
        for i, found in zip(members, mentions, strict=True):
            f = files[i]
            doc = Document(f.doc_id, tokens.words, tokens.sentence_starts, text=f.text,
                           source=f.name)
            out[i] = CorefAnnotation(doc, f.annotator, found, f.chains, f.links, source=f.name)
    return [a for a in out if a is not None]


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


class Utf16Offsets:
    """UTF-16 code-unit offsets of a text as code-point offsets (brat writes the former for
    characters beyond U+FFFF, brat#1115; so do UIMA CASes): ``get(unit, default)`` gives the
    code point at that offset, ``default`` inside a surrogate pair or outside the text. Memory
    is linear in the characters beyond U+FFFF, not in the text."""

    def __init__(self, text: str) -> None:
        self.length = len(text)
        # the code-unit offset of each character beyond U+FFFF (each takes two units)
        self.units = [m.start() + k for k, m in enumerate(_ASTRAL.finditer(text))]

    @property
    def narrow(self) -> bool:
        """No character beyond U+FFFF: every offset in the text is the same in both."""
        return not self.units

    def get(self, unit: int, default: int | None = None) -> int | None:
        if not self.units:  # no character beyond U+FFFF: the same offsets
            return unit if 0 <= unit <= self.length else default
        k = bisect_left(self.units, unit)  # wide characters starting before ``unit``
        if k and self.units[k - 1] + 1 == unit:
            return default
        return unit - k if 0 <= unit - k <= self.length else default


def utf16_to_codepoints(text: str) -> Utf16Offsets:
    """The code-point offset of every UTF-16 code-unit offset of ``text``
    (:class:`Utf16Offsets`)."""
    return Utf16Offsets(text)


__all__ = ["DEFAULT_LANG", "LANG", "PIECE", "Spans", "Tokens", "Utf16Offsets", "anchor",
           "anchored", "check_lang", "split", "token_fragments", "tokenize", "utf16_to_codepoints"]
