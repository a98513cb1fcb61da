"""Coreference annotation → reliability data (Artstein & Poesio 2005, §4.1).

Two steps, one concern each:

* :func:`align` makes the **items**: per document, the union of the mentions of every annotator,
  matched across annotators by exact span (default), by head token, or by maximal token overlap
  (a one-to-one Kuhn–Munkres matching on Dice overlap). It records which annotator put which
  item in which chain, and counts what was aligned, unmatched, merged or dropped.
* :func:`to_data` turns an :class:`Alignment` into
  :class:`~corpusagree.model.data.ReliabilityData` with one of the labels of §4.1: the full
  chain (Passonneau 2004), the chain up to and including the mention ("prefix"), or the
  antecedent as a nominal label (the κ-with-antecedent condition). Chains go straight into the
  CSR set table of ``ReliabilityData.from_sets`` (a chain is one row shared by its mentions); no
  frozenset is built per mention.

A mention an annotator put in several chains — one mention listed in two chains, or one span
marked twice — gets the **union** of those chains as its label (for "antecedent": the closest
preceding member of the union), and is counted in the report: coreference is an equivalence
relation, so an annotation that puts one mention in two chains says they are one entity, and
the union keeps every judgement the annotator made. The coreference scores instead treat such a
mention as the CoNLL reference scorer v8.01 treats a repeated mention
(:meth:`Alignment.clusters`): in a response it is dropped from the later entities when the key
has its span, and kept in each when it does not. A repeated span is reported with a warning
naming its file and the ids of the mentions that repeat it.
Items are numbered document by document (documents in
natural order of their names, annotators in the order given), in text order within a document
(by start, longer first); item names are ``doc[start:end]`` token spans (end-exclusive,
fragments comma-separated). The antecedent label is derived from the chains, not from the links
a tool stored, so every format gives the same labels for the same chains.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..model.corpus import CorefAnnotation, natural_key
from ..model.data import ReliabilityData, ranges
from ..model.errors import InputError, clip, quote
from .align import Spans
from .align import align as align_spans

MATCHES = ("exact", "head", "overlap")
LABELS = ("chain", "prefix", "antecedent")
UNMARKED = ("missing", "singleton")
SINGLETONS = ("keep", "drop")

#: the antecedent label of a mention that starts its chain (Artstein & Poesio 2005, §4.1)
NO_ANTECEDENT = "none"

#: per-annotator counters of :class:`AlignmentReport`
COUNTERS = ("documents", "mentions", "repeated", "dropped_singletons", "unknown_members",
            "no_head", "merged", "several_chains", "items", "aligned", "unmatched")


def _check(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise InputError(f"{name} must be one of {', '.join(allowed)}, not {quote(value)}")


@dataclass
class AlignmentReport:
    """What alignment did, overall and per annotator.

    Per annotator (``per_annotator[name][counter]``): ``documents`` annotated, ``mentions`` read,
    ``repeated`` (mentions with the exact span of an earlier mention of the same annotation),
    ``dropped_singletons`` (mentions of one-member chains, with ``singletons="drop"``),
    ``unknown_members`` (chain members that are no mention; skipped), ``no_head`` (with
    ``match="head"``: mentions without a head, matched by exact span instead), ``merged``
    (mentions that fell on an item the annotator already had: one judgement, chains united),
    ``several_chains`` (items the annotator put in several chains: label = their union),
    ``items`` marked, of which ``aligned`` (another annotator marked it too) and ``unmatched``
    (nobody else did).
    """

    match: str
    singletons: str
    documents: int
    annotators: list[str]
    items: int
    complete: int
    """items marked by every annotator of their document"""
    single: int
    """items marked by one annotator only"""
    per_annotator: dict[str, dict[str, int]] = field(default_factory=dict)

    def total(self, counter: str) -> int:
        return sum(c[counter] for c in self.per_annotator.values())

    def notes(self) -> list[str]:
        """One sentence per thing the user should know (dropped, unmatched, united ...)."""
        out = [f"{self.items} items (mentions aligned by {self.match} match) in "
               f"{self.documents} documents; {self.complete} marked by every annotator of "
               f"their document, {self.single} by one annotator only"]
        for counter, text in (
                ("dropped_singletons", "mention(s) of one-member chains dropped (--singletons "
                 "drop)"),
                ("unknown_members", "chain member(s) that are no mention of the annotation "
                 "skipped"),
                ("no_head", "mention(s) without a head token matched by exact span instead"),
                ("merged", "mention(s) fell on an item their annotator already had (one "
                 "judgement; chains united)"),
                ("several_chains", "item(s) put in several chains by one annotator: the label "
                 "is the union of those chains; the coreference scores keep it in the first "
                 "of them where the other annotator marked it too, else in each (as the "
                 "reference scorer v8.01 reads a repeated response mention)")):
            n = self.total(counter)
            if n:
                out.append(f"{n} {text}")
        return out

    def to_dict(self) -> dict:
        """The counts as plain data (the sentences are :meth:`notes`)."""
        return {"match": self.match, "singletons": self.singletons,
                "documents": self.documents, "annotators": list(self.annotators),
                "items": self.items, "complete": self.complete, "single": self.single,
                "per_annotator": {a: dict(c) for a, c in self.per_annotator.items()}}


@dataclass
class Alignment:
    """Aligned mentions of several annotators: items, and who put which item in which chain.

    ``member_*`` arrays have one row per distinct (annotator, item, chain) membership; chain ids
    are global (one per annotator's chain per document). Items of a document are contiguous
    (``doc_items[d]:doc_items[d+1]``) and in text order. ``annotated[a, d]``: annotator ``a``
    annotated document ``d``.
    """

    documents: list[str]
    annotators: list[str]
    items: list[str]
    item_doc: np.ndarray
    item_fragments: list[tuple[tuple[int, int], ...]]
    doc_items: np.ndarray
    annotated: np.ndarray
    member_annotator: np.ndarray
    member_item: np.ndarray
    member_chain: np.ndarray
    n_chains: int
    tokens: list[list[str]]
    report: AlignmentReport
    #: each chain's place among its annotation's chains in the reference scorer's order
    chain_rank: np.ndarray
    #: (annotator, item, chain) of every later occurrence of an item in its annotation
    copies: np.ndarray

    @property
    def n_items(self) -> int:
        return len(self.items)

    def text(self, item: int) -> str:
        """The words of an item (its first annotator's mention), fragments joined by ' … '."""
        toks = self.tokens[self.item_doc[item]]
        return " … ".join(" ".join(toks[s:e]) for s, e in self.item_fragments[item])

    def context(self, item: int, window: int = 10) -> tuple[str, str, str]:
        """The words before an item, the item's own words (from its first to its last token)
        and the words after it, ``window`` tokens on each side."""
        toks = self.tokens[self.item_doc[item]]
        frags = self.item_fragments[item]
        s, e = frags[0][0], frags[-1][1]
        before = ("… " if s > window else "") + " ".join(toks[max(0, s - window):s])
        after = " ".join(toks[e:e + window]) + (" …" if e + window < len(toks) else "")
        return before, " ".join(toks[s:e]), after

    def clusters(self) -> Clusters:
        """annotators × items chain ids (-1 = not marked), the entities the coreference scores
        compare, as the CoNLL reference scorer v8.01 reads a response (``IdentifMentions`` of
        its ``CorScorer.pm``; Pradhan et al. 2014):

        * the scorer numbers the entities of a document in the order it meets them (one-token
          brackets of a row before opening ones, left to right; :func:`_scorer_order`), and an
          item an annotator put in several chains is in the earliest of them here;
        * its :attr:`Clusters.copies` are the item's later occurrences: in a response, the
          scorer drops such a repeated mention when the key has its span, and keeps it, in
          each of its entities, when the key does not (a mention of the response only, which
          counts where the response's mentions count). A key's repeated mention counts once,
          in its earliest entity (the scorer gives all its copies one id in every entity, which
          makes the key no partition).

        :func:`corpusagree.stats.corefscores.document_pairs` applies that rule to each pair."""
        A, N = len(self.annotators), self.n_items
        key = self.member_annotator * N + self.member_item
        order = np.lexsort((self.member_chain, self.chain_rank[self.member_chain], key))
        ks = key[order]
        keep = np.concatenate([[True], ks[1:] != ks[:-1]]) if len(ks) else np.zeros(0, bool)
        out = np.full(A * N, -1, np.int64)
        out[ks[keep]] = self.member_chain[order][keep]
        return Clusters(out.reshape(A, N), self.copies)


class Clusters(np.ndarray):
    """annotators × items entity ids (:meth:`Alignment.clusters`), with ``copies``: rows
    ``(annotator, item, entity)`` of the items an annotator marked again (the reference
    scorer's repeated mentions)."""

    copies: np.ndarray

    def __new__(cls, ids: np.ndarray, copies: np.ndarray | None = None) -> Clusters:
        out = np.asarray(ids).view(cls)
        out.copies = np.zeros((0, 3), np.int64) if copies is None else copies
        return out

    def __array_finalize__(self, obj) -> None:
        self.copies = getattr(obj, "copies", np.zeros((0, 3), np.int64))


# ---- alignment ------------------------------------------------------------------------------
@dataclass
class _Marks:
    """One annotation reduced to arrays: kept mentions and their (mention, chain) pairs."""

    spans: list[tuple[tuple[int, int], ...]]
    heads: list[int | None]
    mem_mention: np.ndarray
    mem_chain: np.ndarray
    n_chains: int
    counts: dict[str, int]
    #: each chain's place among the annotation's chains in the reference scorer's order
    chain_rank: np.ndarray
    #: each kept mention's place in that order
    mention_rank: np.ndarray
    #: the mentions that mark one span (:func:`_repeats`)
    repeats: list[str]


def _marks(ann: CorefAnnotation, singletons: str) -> _Marks:
    """Mentions and chain memberships of one annotation; mentions in no chain are singletons.
    ``counts`` also has the mentions that repeat an earlier span (``repeated``) and the spans
    found in more than one chain (``repeated_chains``)."""
    mids = list(ann.mentions)
    pos = {m: i for i, m in enumerate(mids)}
    pairs = np.array([(pos.get(m, -1), c) for c, ch in enumerate(ann.chains) for m in ch.members],
                     np.int64).reshape(-1, 2)
    unknown = int((pairs[:, 0] < 0).sum())
    pairs = np.unique(pairs[pairs[:, 0] >= 0], axis=0)
    n = len(mids)
    span_ids: dict = {}
    span = np.array([span_ids.setdefault(ann.mentions[m].span, len(span_ids)) for m in mids],
                    np.int64)
    repeats = _repeats(ann, mids, span) if n > len(span_ids) else []
    span_chains = np.unique(np.stack([span[pairs[:, 0]], pairs[:, 1]], 1), axis=0)
    repeated_chains = int(((np.bincount(span_chains[:, 0], minlength=len(span_ids)) > 1)
                           & (np.bincount(span, minlength=len(span_ids)) > 1)).sum())
    chained = np.zeros(n, bool)
    chained[pairs[:, 0]] = True
    lone = np.flatnonzero(~chained)
    n_chains = len(ann.chains) + len(lone)
    m = np.concatenate([pairs[:, 0], lone])
    c = np.concatenate([pairs[:, 1], len(ann.chains) + np.arange(len(lone))])
    dropped = 0
    if singletons == "drop":
        big = np.bincount(c, minlength=n_chains)[c] > 1
        m, c = m[big], c[big]
        keep = np.zeros(n, bool)
        keep[m] = True
        dropped = int(n - keep.sum())
        new = np.cumsum(keep) - 1
        m = new[m]
        mids = [x for x, k in zip(mids, keep, strict=True) if k]
    ments = [ann.mentions[x] for x in mids]
    mention_rank = _scorer_order(ments)
    chain_rank = np.full(n_chains, len(ments), np.int64)
    np.minimum.at(chain_rank, c, mention_rank[m])
    return _Marks([x.span for x in ments], [x.head for x in ments], m, c, n_chains,
                  {"mentions": n, "repeated": n - len(span_ids), "dropped_singletons": dropped,
                   "unknown_members": unknown, "repeated_chains": repeated_chains},
                  chain_rank, mention_rank, repeats)


def _repeats(ann: CorefAnnotation, mids: list[str], span: np.ndarray) -> list[str]:
    """The mentions that mark one span, each group as ``T3 = T7 (10-13)`` (character offsets
    where the format has them, else token spans)."""
    groups: dict[int, list[str]] = {}
    for mid, k in zip(mids, span.tolist(), strict=True):
        groups.setdefault(k, []).append(mid)
    out = []
    for ids in groups.values():
        if len(ids) > 1:
            m = ann.mentions[ids[0]]
            where = m.attrs.get("char_offsets") or m.span
            out.append(" = ".join(clip(i, 20) for i in ids[:4]) + (" = …" if len(ids) > 4 else "")
                       + f" ({';'.join(f'{a}-{b}' for a, b in where)})")
    return out


def _scorer_order(mentions: list) -> np.ndarray:
    """Each mention's rank in the order in which the CoNLL reference scorer meets them, which
    numbers the entities by their first mention: ``attrs["order"]`` where the reader gives it
    (CoNLL-2012, CorefUD: token, one-token brackets before opening ones, place in the cell),
    else as such a file would be written: by first token, one-token mentions first, then the
    annotation's order."""
    if mentions and all("order" in x.attrs for x in mentions):
        keys = [x.attrs["order"] for x in mentions]
    else:
        keys = [(x.span[0][0], int(x.span != ((x.span[0][0], x.span[0][0] + 1),)), i)
                for i, x in enumerate(mentions)]
    rank = np.empty(len(mentions), np.int64)
    rank[sorted(range(len(mentions)), key=keys.__getitem__)] = np.arange(len(mentions))
    return rank


def _match(marks: list[_Marks], match: str
           ) -> tuple[list[np.ndarray], list[tuple], list[int], list[int]]:
    """Items of one document: per annotator the item of each kept mention, the representative
    span of each item (its first mention's), mentions merged onto an item their annotator
    already had, and mentions without a head (matched by exact span instead) — by
    :func:`corpusagree.convert.align.align`, exact or maximal overlap, with a head-matched
    mention standing for its head token (a group of its own, so heads never meet spans)."""
    spans = [s for mk in marks for s in mk.spans]
    heads = [h for mk in marks for h in mk.heads]
    by_head = [match == "head" and h is not None for h in heads]
    frags = [((h, h + 1),) if b else s for s, h, b in zip(spans, heads, by_head, strict=True)]
    bounds = np.array([f for fr in frags for f in fr], np.int64).reshape(-1, 2)
    table = align_spans(
        Spans(np.repeat(np.arange(len(marks)), [len(mk.spans) for mk in marks]),
              np.array(by_head, np.int64),
              np.concatenate([[0], np.cumsum([len(fr) for fr in frags])]).astype(np.int64),
              bounds[:, 0], bounds[:, 1]),
        len(marks), "overlap" if match == "overlap" else "exact", duplicates="merge")
    cuts = np.cumsum([len(mk.spans) for mk in marks])[:-1]
    no_head = [sum(h is None for h in mk.heads) if match == "head" else 0 for mk in marks]
    return (np.split(table.item, cuts), [spans[f] for f in table.first],
            table.merged.tolist(), no_head)


def _text_order(reps: list[tuple]) -> np.ndarray:
    """Permutation putting items in text order: by start, longer first, fewer tokens, then
    creation order."""
    if not reps:
        return np.zeros(0, np.int64)
    start = np.array([r[0][0] for r in reps])
    end = np.array([r[-1][1] for r in reps])
    ntok = np.array([sum(e - s for s, e in r) for r in reps])
    return np.lexsort((np.arange(len(reps)), ntok, -end, start))


def _by_document(annotations: Iterable[CorefAnnotation]
                 ) -> tuple[dict[str, dict[str, CorefAnnotation]], list[str]]:
    """The annotations by document and annotator, and the annotators in the order first
    named; an annotator with a document twice is an error."""
    by_doc: dict[str, dict[str, CorefAnnotation]] = {}
    given: dict[str, None] = {}
    for ann in annotations:
        doc = by_doc.setdefault(ann.document.id, {})
        if ann.annotator in doc:
            raise InputError(f"annotator {quote(ann.annotator)} has document "
                             f"{quote(ann.document.id)} twice", ann.source or None)
        doc[ann.annotator] = ann
        given[ann.annotator] = None
    if not by_doc:
        raise InputError("no coreference annotations to align")
    return by_doc, list(given)


def _warn_repeats(repeats: dict[str, list]) -> None:
    """One warning per file whose annotator marks a span twice: ``repeats[source]`` is
    [documents, mentions, spans in more than one chain, the groups of ids of one span]."""
    for source, (docs, n, other, groups) in repeats.items():
        warnings.warn(
            f"{source}: {n} mention(s) repeat the span of another mention of the same annotator"
            f" ({docs} document(s); {other} span(s) in more than one chain): "
            + "; ".join(groups[:3]) + ("; …" if len(groups) > 3 else "")
            + "; the coreference scores keep each span in its first chain where the other "
            "annotator marks it too, else in each, as the reference scorer v8.01; the chain "
            "labels of α and β unite its chains", stacklevel=3)


def _report(match: str, singletons: str, annotators: list[str], counts: dict[str, dict],
            annotated: np.ndarray, item_doc: np.ndarray, ma: np.ndarray, mi: np.ndarray,
            N: int) -> AlignmentReport:
    """What the alignment did, per annotator: items marked, aligned with another annotator's,
    unmatched, in several chains (added to ``counts``); items marked by every annotator of
    their document, and by one only."""
    A = len(annotators)
    marked = np.zeros((A, N), bool)
    marked[ma, mi] = True
    n_marked = marked.sum(0)
    pair_key = np.unique(ma * N + mi, return_counts=True)
    several = np.bincount(pair_key[0][pair_key[1] > 1] // N, minlength=A) if N else np.zeros(A)
    for a, name in enumerate(annotators):
        c = counts[name]
        c["items"] = int(marked[a].sum())
        c["aligned"] = int((marked[a] & (n_marked > 1)).sum())
        c["unmatched"] = int((marked[a] & (n_marked == 1)).sum())
        c["several_chains"] = int(several[a])
    complete = int((marked == annotated[:, item_doc]).all(0).sum())
    return AlignmentReport(match, singletons, annotated.shape[1], annotators, N, complete,
                           int((n_marked == 1).sum()), counts)


def align(annotations: Iterable[CorefAnnotation], match: str = "exact",
          singletons: str = "keep") -> Alignment:
    """Align the mentions of several annotators, document by document (Artstein & Poesio
    2005, §4.1).

    ``match``: "exact" span (default), "head" token (``Mention.head``; mentions without one
    are matched by exact span and counted), or "overlap" (one-to-one, maximal Dice overlap of
    tokens). ``singletons="drop"`` removes mentions of one-member chains before alignment.
    Annotators keep the order in which ``annotations`` first name them (the first is the key
    of the coreference scores of every pair it is in). A span one annotation marks twice is
    counted (``repeated``) and reported by a warning naming its file.
    """
    _check("match", match, MATCHES)
    _check("singletons", singletons, SINGLETONS)
    by_doc, annotators = _by_document(annotations)
    documents = sorted(by_doc, key=natural_key)
    a_ix = {a: i for i, a in enumerate(annotators)}
    A, D = len(annotators), len(documents)
    counts = {a: dict.fromkeys(COUNTERS, 0) for a in annotators}
    annotated = np.zeros((A, D), bool)
    items: list[str] = []
    item_doc: list[np.ndarray] = []
    item_frags: list[tuple] = []
    doc_items = [0]
    tokens: list[list[str]] = []
    mem_a, mem_i, mem_c = [], [], []
    ranks: list[np.ndarray] = []
    copy_a: list[np.ndarray] = [np.zeros(0, np.int64)]
    copy_i: list[np.ndarray] = [np.zeros(0, np.int64)]
    copy_c: list[np.ndarray] = [np.zeros(0, np.int64)]
    n_chains = 0
    # source -> [documents, mentions, in another chain, the groups of ids that mark one span]
    repeats: dict[str, list] = {}
    for d, doc_id in enumerate(documents):
        anns = sorted(by_doc[doc_id].values(), key=lambda x: a_ix[x.annotator])
        tokens.append(anns[0].document.tokens)
        marks = [_marks(x, singletons) for x in anns]
        ids, reps, merged, no_head = _match(marks, match)
        order = _text_order(reps)
        rank = np.empty(len(reps), np.int64)
        rank[order] = np.arange(len(reps))
        base = doc_items[-1]
        reps = [reps[i] for i in order]
        item_frags += reps
        items += [f"{doc_id}[{','.join(f'{s}:{e}' for s, e in r)}]" for r in reps]
        item_doc.append(np.full(len(reps), d, np.int64))
        doc_items.append(base + len(reps))
        for ann, mk, item_of, mg, nh in zip(anns, marks, ids, merged, no_head, strict=True):
            a = a_ix[ann.annotator]
            annotated[a, d] = True
            _add_counts(counts[ann.annotator], repeats, ann, mk, mg, nh)
            here = base + rank[item_of[mk.mem_mention]]
            mem_a.append(np.full(len(mk.mem_mention), a, np.int64))
            mem_i.append(here)
            mem_c.append(n_chains + mk.mem_chain)
            ranks.append(mk.chain_rank)
            # the annotation's (item, chain) occurrences in the reference scorer's order: the
            # first of each item is its chain in the scores, the later ones its copies
            seq = np.lexsort((mk.mention_rank[mk.mem_mention], mk.chain_rank[mk.mem_chain]))
            later = np.ones(len(seq), bool)
            later[np.unique(here[seq], return_index=True)[1]] = False
            copy_a.append(np.full(int(later.sum()), a, np.int64))
            copy_i.append(here[seq][later])
            copy_c.append(n_chains + mk.mem_chain[seq][later])
            n_chains += mk.n_chains
    _warn_repeats(repeats)
    N = doc_items[-1]
    triples = np.unique(np.stack([np.concatenate(mem_a), np.concatenate(mem_i),
                                  np.concatenate(mem_c)], 1), axis=0)
    ma, mi, mc = triples[:, 0], triples[:, 1], triples[:, 2]
    item_doc_arr = np.concatenate(item_doc) if item_doc else np.zeros(0, np.int64)
    report = _report(match, singletons, annotators, counts, annotated, item_doc_arr, ma, mi, N)
    copies = np.stack([np.concatenate(copy_a), np.concatenate(copy_i),
                       np.concatenate(copy_c)], 1)
    return Alignment(documents, annotators, items, item_doc_arr, item_frags,
                     np.array(doc_items, np.int64), annotated, ma, mi, mc, n_chains, tokens,
                     report, np.concatenate(ranks) if ranks else np.zeros(0, np.int64),
                     copies)


def _add_counts(c: dict[str, int], repeats: dict[str, list], ann: CorefAnnotation,
                mk: _Marks, merged: int, no_head: int) -> None:
    """Add one document's counts of an annotation to its annotator's ``c`` (documents, the
    marks' counters, mentions merged and without a head), and its spans marked twice to
    ``repeats`` (by source: documents, mentions, in another chain, the groups of ids)."""
    c["documents"] += 1
    for k, v in mk.counts.items():
        if k in c:
            c[k] += v
    if mk.counts["repeated"]:
        r = repeats.setdefault(ann.source or ann.document.source or ann.annotator,
                               [0, 0, 0, []])
        r[0] += 1
        r[1] += mk.counts["repeated"]
        r[2] += mk.counts["repeated_chains"]
        r[3] += mk.repeats
    c["merged"] += merged
    c["no_head"] += no_head


# ---- labels ---------------------------------------------------------------------------------
def _chain_rows(al: Alignment) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Memberships sorted by (chain, item), and the chains as CSR rows of item ids."""
    order = np.lexsort((al.member_item, al.member_chain))
    sizes = np.bincount(al.member_chain, minlength=al.n_chains)
    indptr = np.concatenate([[0], np.cumsum(sizes)])
    return order, indptr, al.member_item[order]


def _unite(al: Alignment, member_row: np.ndarray, indptr: np.ndarray, elements: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Codes (annotators × items) from one set row per membership; an (annotator, item) with
    several memberships gets a new row, the union of its rows."""
    A, N = len(al.annotators), al.n_items
    key = al.member_annotator * N + al.member_item
    order = np.argsort(key, kind="stable")
    uk, first, counts = np.unique(key[order], return_index=True, return_counts=True)
    rows = member_row[order]
    codes = np.full(A * N, -1, np.int64)
    one = counts == 1
    codes[uk[one]] = rows[first[one]]
    if not one.all():
        many = np.repeat(~one, counts)
        mrows = rows[many]
        sizes = indptr[mrows + 1] - indptr[mrows]
        new_row = np.repeat(np.repeat(np.arange((~one).sum()), counts[~one]), sizes)
        new_sizes = np.bincount(new_row, minlength=int((~one).sum()))
        codes[uk[~one]] = len(indptr) - 1 + np.arange((~one).sum())
        elements = np.concatenate([elements, elements[ranges(indptr[mrows], sizes)]])
        indptr = np.concatenate([indptr, indptr[-1] + np.cumsum(new_sizes)])
    return codes.reshape(A, N), indptr, elements


def _unmarked_mask(al: Alignment, codes: np.ndarray) -> np.ndarray:
    """(annotator, item) pairs not marked in a document the annotator annotated."""
    return (codes < 0) & al.annotated[:, al.item_doc]


def to_data(al: Alignment, label: str = "chain", unmarked: str = "missing") -> ReliabilityData:
    """Reliability data of aligned coreference (Artstein & Poesio 2005, §4.1); groups =
    documents.

    ``label``: "chain" (the item's full chain, a set of items), "prefix" (the chain up to and
    including the item, in text order) or "antecedent" (nominal: the closest preceding item of
    its chain, or ``"none"``). ``unmarked``: an item an annotator did not mark in a document
    they annotated is "missing" (default) or a "singleton" (label {item}; antecedent "none").
    """
    _check("label", label, LABELS)
    _check("unmarked", unmarked, UNMARKED)
    order, indptr, elements = _chain_rows(al)
    common = {"coders": al.annotators, "items": al.items, "groups": al.item_doc,
              "group_names": al.documents}
    if label == "antecedent":
        return _antecedents(al, order, indptr, unmarked, common)
    member_row = al.member_chain
    if label == "prefix":
        chain = al.member_chain[order]
        rank = np.arange(len(order)) - indptr[chain]
        elements = elements[ranges(indptr[chain], rank + 1)]
        indptr = np.concatenate([[0], np.cumsum(rank + 1)])
        member_row = np.empty(len(order), np.int64)
        member_row[order] = np.arange(len(order))
    codes, indptr, elements = _unite(al, member_row, indptr, elements)
    if unmarked == "singleton":
        mask = _unmarked_mask(al, codes)
        codes[mask] = len(indptr) - 1 + np.nonzero(mask)[1]
        elements = np.concatenate([elements, np.arange(al.n_items)])
        indptr = np.concatenate([indptr, indptr[-1] + 1 + np.arange(al.n_items)])
    codes, indptr, elements = _compact(codes, indptr, elements)
    return ReliabilityData.from_sets(codes, indptr, elements, element_names=al.items, **common)


def _compact(codes: np.ndarray, indptr: np.ndarray, elements: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Keep only the set rows some code uses (e.g. not the chains of dropped singletons)."""
    used, inv = np.unique(codes[codes >= 0], return_inverse=True)
    sizes = indptr[used + 1] - indptr[used]
    out = np.full(codes.shape, -1, np.int64)
    out[codes >= 0] = inv
    return out, np.concatenate([[0], np.cumsum(sizes)]), elements[ranges(indptr[used], sizes)]


def _antecedents(al: Alignment, order: np.ndarray, indptr: np.ndarray, unmarked: str,
                 common: dict) -> ReliabilityData:
    """Nominal antecedent labels: code 0 = none, k + 1 = item k."""
    A, N = len(al.annotators), al.n_items
    chain, item = al.member_chain[order], al.member_item[order]
    prev = np.full(len(order), -1, np.int64)
    later = np.arange(len(order)) > indptr[chain]
    prev[later] = item[np.flatnonzero(later) - 1]
    key = al.member_annotator[order] * N + item
    codes = np.full(A * N, -1, np.int64)
    np.maximum.at(codes, key, prev + 1)   # closest preceding member of the united chains
    codes = codes.reshape(A, N)
    if unmarked == "singleton":
        codes[_unmarked_mask(al, codes)] = 0
    used, inv = np.unique(codes[codes >= 0], return_inverse=True)
    out = np.full(codes.shape, -1, np.int64)
    out[codes >= 0] = inv
    labels = [NO_ANTECEDENT if u == 0 else al.items[u - 1] for u in used]
    return ReliabilityData(out, labels, list(common["coders"]), list(common["items"]),
                           common["groups"], list(common["group_names"]))


def coref_data(annotations: Iterable[CorefAnnotation], *, match: str = "exact",
               singletons: str = "keep", label: str = "chain", unmarked: str = "missing"
               ) -> tuple[ReliabilityData, Alignment]:
    """:func:`align` then :func:`to_data`: the reliability data and the alignment (with its
    report)."""
    al = align(annotations, match=match, singletons=singletons)
    return to_data(al, label=label, unmarked=unmarked), al


__all__ = ["Alignment", "AlignmentReport", "align", "to_data", "coref_data", "MATCHES",
           "LABELS", "UNMARKED", "SINGLETONS", "NO_ANTECEDENT"]
