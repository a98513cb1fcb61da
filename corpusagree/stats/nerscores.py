"""NER-style agreement between two annotators' spans: the four modes of SemEval-2013 Task 9.1.

One annotator is taken as the reference ("true") and the other as the response ("pred"),
and every span of the response is counted

* ``correct`` — it matches a reference span,
* ``incorrect`` — it overlaps a reference span without matching it,
* ``partial`` — (``partial`` mode) it overlaps a reference span with other boundaries,
* ``spurious`` — it overlaps no reference span left,

and every reference span no response span took is ``missed`` (Segura-Bedmar, Martínez &
Herrero-Zazo 2013, §4; Batista's ``nervaluate``). The four modes:

``strict``
    same boundaries and same type;
``exact``
    same boundaries, any type;
``partial``
    same boundaries correct, overlapping ones partial, any type;
``ent_type``
    overlapping spans of the same type correct (the closest boundaries first), of another
    type incorrect.

``possible = correct + incorrect + partial + missed``, ``actual = correct + incorrect +
partial + spurious``; precision ``correct / actual`` and recall ``correct / possible``
(``partial`` and ``ent_type`` count a partial match as one half), 0 when the denominator is
0, F1 their harmonic mean (0 when both are 0). A response span overlaps a reference span when
their common stretch is at least ``min_overlap`` per cent of the reference span's length.

The spans are matched as ``nervaluate`` 1.2 matches them: the response spans in order (by
document, start, end, type), each taking the first reference span left in order that it can
take (``ent_type``: of its type, the closest boundaries first). Which spans match depends
on that order only where two response spans can take the same reference span; everything
else is decided at once over arrays.

Token-level κ (:func:`token_agreement`) counts each token's label (its span's type, or
``O``) on all tokens and on the tokens either annotator marked (Brandsen, Verberne, Wansleeben
& Lambers 2020, §4.2: κ on all tokens is inflated by the many ``O`` tokens both leave).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.continuum import Continuum
from .coefficients import alpha, kappa
from .ratios import divide

#: the four modes of SemEval-2013 Task 9.1, in nervaluate's names
MODES = ("strict", "exact", "partial", "ent_type")
#: the counts of a mode, in order
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious")
#: what a response span is (codes of :attr:`Matching.outcome`)
CORRECT, INCORRECT, PARTIAL, SPURIOUS = 0, 1, 2, 3
#: the modes whose precision and recall count a partial match as one half
HALF = ("partial", "ent_type")
#: the weight of a partial match in each mode's precision and recall
_HALF_WEIGHT = np.array([0.5 if m in HALF else 0.0 for m in MODES])


@dataclass(repr=False)
class Matching:
    """How one mode matched the response spans to the reference spans.

    Attributes
    ----------
    outcome : numpy.ndarray
        One code per response span: :data:`CORRECT`, :data:`INCORRECT`, :data:`PARTIAL`
        or :data:`SPURIOUS`.
    taken : numpy.ndarray
        The reference span each response span took (−1: none).
    missed : numpy.ndarray
        One bool per reference span: no response span took it.
    """

    outcome: np.ndarray
    taken: np.ndarray
    missed: np.ndarray


def _ranks(*arrays: np.ndarray) -> list[np.ndarray]:
    """Positions as integer ranks over every value given (order kept exactly, floats too)."""
    values = np.unique(np.concatenate(arrays))
    return [np.searchsorted(values, a).astype(np.int64) for a in arrays]


def _ranges(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each i, the indices lo[i] .. hi[i] − 1: (owner i, index) of each, flattened."""
    n = np.maximum(hi - lo, 0)
    owner = np.repeat(np.arange(len(lo)), n)
    index = lo[owner] + np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    return owner, index


def overlaps(group_t: np.ndarray, start_t: np.ndarray, end_t: np.ndarray,
             group_p: np.ndarray, start_p: np.ndarray, end_p: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """Every (response i, reference j) of one group whose spans ``[start, end)`` overlap.

    A pair overlaps when one span starts inside the other: the reference spans starting in
    ``[start_p, end_p)`` of each response span, and the response spans starting strictly
    inside each reference span, both found by :func:`numpy.searchsorted` on sorted keys.

    Examples
    --------
    >>> g = np.zeros(2, int)
    >>> overlaps(g, np.array([0, 5]), np.array([3, 8]), g, np.array([2, 8]), np.array([6, 9]))
    (array([0, 0]), array([0, 1]))
    """
    st, et, sp, ep = _ranks(start_t, end_t, start_p, end_p)
    width = int(max(st.max(initial=0), et.max(initial=0), sp.max(initial=0),
                    ep.max(initial=0))) + 2
    kst = group_t.astype(np.int64) * width + st
    ket = group_t.astype(np.int64) * width + et
    ksp = group_p.astype(np.int64) * width + sp
    kep = group_p.astype(np.int64) * width + ep
    ot = np.argsort(kst, kind="stable")
    i1, j1 = _ranges(np.searchsorted(kst[ot], ksp, "left"),
                     np.searchsorted(kst[ot], kep, "left"))
    j1 = ot[j1]
    op = np.argsort(ksp, kind="stable")
    j2, i2 = _ranges(np.searchsorted(ksp[op], kst, "right"),
                     np.searchsorted(ksp[op], ket, "left"))
    i2 = op[i2]
    i, j = np.concatenate([i1, i2]), np.concatenate([j1, j2])
    order = np.lexsort((j, i))
    return i[order], j[order]


def match(mode: str, group_t: np.ndarray, start_t: np.ndarray, end_t: np.ndarray,
          label_t: np.ndarray, group_p: np.ndarray, start_p: np.ndarray, end_p: np.ndarray,
          label_p: np.ndarray, min_overlap: float = 1.0) -> Matching:
    """Match the response spans to the reference spans in one mode (see the module docstring).

    Parameters
    ----------
    mode : {"strict", "exact", "partial", "ent_type"}
    group_t, start_t, end_t, label_t : numpy.ndarray
        The reference spans ``[start, end)``: the group (a document, or a document and type)
        that each belongs to, in the order they are taken (group, start, end, type).
    group_p, start_p, end_p, label_p : numpy.ndarray
        The response spans, in the same order.
    min_overlap : float
        The share (per cent) of a reference span a response span must cover to overlap it.

    Returns
    -------
    Matching

    Examples
    --------
    >>> g = np.zeros(2, int)
    >>> m = match("strict", g, np.array([0, 5]), np.array([3, 8]), np.array([0, 1]),
    ...           g, np.array([0, 5]), np.array([3, 7]), np.array([0, 1]))
    >>> m.outcome.tolist(), m.missed.tolist()
    ([0, 1], [False, False])
    """
    nt, npred = len(start_t), len(start_p)
    i, j = overlaps(group_t, start_t, end_t, group_p, start_p, end_p)
    s_t, e_t, s_p, e_p = (np.asarray(x, float) for x in (start_t, end_t, start_p, end_p))
    common = np.minimum(e_t[j], e_p[i]) - np.maximum(s_t[j], s_p[i])
    enough = (common / (e_t[j] - s_t[j])) * 100.0 >= min_overlap
    exact = (s_t[j] == s_p[i]) & (e_t[j] == e_p[i])
    same = label_t[j] == label_p[i]
    if mode == "strict":
        first, second = exact & same, enough
    elif mode in ("exact", "partial"):
        first, second = exact, enough
    elif mode == "ent_type":
        first, second = enough & same, enough & ~same
    else:
        raise ValueError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    # a response span takes the first reference span it can match (class 0), else the first
    # it overlaps (class 1); ent_type matches the closest boundaries first
    keep = first | second
    i, j = i[keep], j[keep]
    cls = np.where(first[keep], 0, 1)
    distance = np.where((cls == 0) & (mode == "ent_type"),
                        np.abs(s_t[j] - s_p[i]) + np.abs(e_t[j] - e_p[i]), 0.0)
    order = np.lexsort((j, distance, cls, i))
    i, j, cls = i[order], j[order], cls[order]
    outcome = np.full(npred, SPURIOUS, np.int8)
    taken = np.full(npred, -1, np.int64)
    kind = PARTIAL if mode == "partial" else INCORRECT
    wanted = np.bincount(np.unique(np.stack([i, j]), axis=1)[1], minlength=nt) \
        if len(i) else np.zeros(nt, np.int64)
    # A response span whose reference spans no other response span can take is decided
    # alone: its first candidate. Where two response spans can take one reference span,
    # the first in order takes it and the second must look further: nervaluate's greedy
    # matching is order-dependent, so these (and only these) are matched one after another.
    conflict = np.zeros(npred, bool)
    conflict[i[wanted[j] > 1]] = True
    free = ~conflict[i]
    fi, at = np.unique(i[free], return_index=True)
    fj, fc = j[free][at], cls[free][at]
    outcome[fi] = np.where(fc == 0, CORRECT, kind)
    taken[fi] = fj
    if conflict.any():
        sel = conflict[i]
        ci, cj, cc = i[sel].tolist(), j[sel].tolist(), cls[sel].tolist()
        used = set(taken[taken >= 0].tolist())
        last = -1
        for p, t, c in zip(ci, cj, cc, strict=True):
            if p == last or t in used:
                continue
            used.add(t)
            last = p
            outcome[p] = CORRECT if c == 0 else kind
            taken[p] = t
    missed = np.ones(nt, bool)
    missed[taken[taken >= 0]] = False
    return Matching(outcome, taken, missed)


def counts(matching: Matching, group_t: np.ndarray, group_p: np.ndarray,
           n_groups: int) -> np.ndarray:
    """The counts of :data:`COUNTS` per group: an array ``n_groups × 5``.

    Examples
    --------
    >>> m = Matching(np.array([0, 3]), np.array([0, -1]), np.array([False, True]))
    >>> counts(m, np.array([0, 0]), np.array([0, 0]), 1).tolist()
    [[1, 0, 0, 1, 1]]
    """
    by = np.bincount(group_p.astype(np.int64) * 4 + matching.outcome,
                     minlength=4 * n_groups).reshape(n_groups, 4)
    missed = np.bincount(group_t[matching.missed], minlength=n_groups)
    return np.stack([by[:, CORRECT], by[:, INCORRECT], by[:, PARTIAL], missed,
                     by[:, SPURIOUS]], axis=1)


def scores(counts: np.ndarray, mode: str) -> dict[str, np.ndarray]:
    """possible, actual, precision, recall and F1 of counts (last axis :data:`COUNTS`), as
    nervaluate computes them (0 where a denominator is 0).

    Examples
    --------
    >>> r = scores(np.array([3, 1, 0, 1, 0]), "strict")
    >>> int(r["possible"]), int(r["actual"]), float(r["precision"]), round(float(r["f1"]), 4)
    (5, 4, 0.75, 0.6667)
    """
    c = np.asarray(counts, float)
    correct, incorrect, partial, missed, spurious = np.moveaxis(c, -1, 0)
    actual = correct + incorrect + partial + spurious
    possible = correct + incorrect + partial + missed
    hit = correct + 0.5 * partial if mode in HALF else correct
    precision = np.nan_to_num(divide(hit, actual))
    recall = np.nan_to_num(divide(hit, possible))
    f1 = np.nan_to_num(divide(2 * precision * recall, precision + recall))
    return {"possible": possible.astype(np.int64), "actual": actual.astype(np.int64),
            "precision": precision, "recall": recall, "f1": f1}


def f1_by_mode(counts: np.ndarray) -> np.ndarray:
    """F1 of every mode at once: ``counts`` with last axes modes (:data:`MODES`, in order) ×
    :data:`COUNTS`, F1 with the modes' axis last, equal to :func:`scores`' of each mode (0
    where a denominator is 0); few array operations, for a bootstrap's many replicates.

    Examples
    --------
    >>> f1_by_mode(np.array([[3, 1, 0, 1, 0]] * 2 + [[3, 0, 1, 1, 0]] * 2)).round(4).tolist()
    [0.6667, 0.6667, 0.7778, 0.7778]
    """
    c = np.asarray(counts, float)
    correct, incorrect, partial, missed, spurious = np.moveaxis(c, -1, 0)
    hit = correct + _HALF_WEIGHT * partial
    actual = correct + incorrect + partial + spurious
    possible = correct + incorrect + partial + missed
    precision = divide(hit, actual, 0.0)
    recall = divide(hit, possible, 0.0)
    return divide(2 * precision * recall, precision + recall, 0.0)


def token_labels(doc: np.ndarray, start: np.ndarray, end: np.ndarray, label: np.ndarray,
                 offsets: np.ndarray) -> np.ndarray:
    """Each token's label: 0 (``O``) or 1 + its span's type code; where spans of one
    annotator overlap, the one that starts last (then the shortest: the innermost) labels the
    token.

    ``offsets[d]`` is where document d's tokens begin in the flat array (its last entry the
    total); spans are in tokens relative to their document's start.

    Examples
    --------
    >>> token_labels(np.array([0]), np.array([1]), np.array([3]), np.array([0]),
    ...              np.array([0, 4])).tolist()
    [0, 1, 1, 0]
    """
    out = np.zeros(int(offsets[-1]), np.int64)
    if not len(start):
        return out
    s = offsets[doc] + np.asarray(start, np.int64)
    e = offsets[doc] + np.asarray(end, np.int64)
    order = np.lexsort((-e, s))
    owner, pos = _ranges(s[order], e[order])
    rank = np.full(len(out), -1, np.int64)
    np.maximum.at(rank, pos, owner)
    hit = rank >= 0
    out[hit] = 1 + np.asarray(label)[order][rank[hit]]
    return out


@dataclass(repr=False)
class NerAgreement:
    """NER-style agreement of every annotator pair of a continuum (:func:`ner_agreement`).

    Attributes
    ----------
    pairs : list of (int, int)
        The annotator pairs (a, b), a < b: a is the reference, b the response.
    counts : numpy.ndarray
        Pairs × documents × modes × :data:`COUNTS`, every type together.
    label_counts : numpy.ndarray
        Pairs × documents × categories × modes × :data:`COUNTS`, each type alone (the spans
        of other types left out, as nervaluate counts a type).
    labels_seen : numpy.ndarray
        Pairs × categories: whether either annotator of the pair marked the type.
    outcomes : list of Matching
        The strict matching of every pair's spans (overall), in the order of ``units``.
    units : list of (numpy.ndarray, numpy.ndarray)
        Each pair's reference and response units (indices into the continuum), in order.
    tokens : list of dict or None
        Per pair: κ and α on all tokens and on the tokens either marked, and their counts;
        None when the positions are not whole tokens or characters.
    """

    pairs: list[tuple[int, int]]
    counts: np.ndarray
    label_counts: np.ndarray
    labels_seen: np.ndarray
    outcomes: list[Matching]
    units: list[tuple[np.ndarray, np.ndarray]]
    tokens: list[dict] | None


def _order(c: Continuum, sel: np.ndarray) -> np.ndarray:
    """The units ``sel`` in the order spans are taken: document, start, end, type."""
    return sel[np.lexsort((c.category[sel], c.end[sel], c.start[sel], c.doc[sel]))]


def ner_agreement(c: Continuum, min_overlap: float = 1.0) -> NerAgreement:
    """The four modes' counts and token κ of every annotator pair, on the documents both
    annotated (see the module docstring).

    All pairs are matched in one call per mode: a group is a pair and a document (and a type,
    for the counts of one type), so the spans of different groups never meet.

    Parameters
    ----------
    c : Continuum
        The spans.
    min_overlap : float
        The share (per cent) of a reference span a response span must cover to overlap it.

    Returns
    -------
    NerAgreement

    Examples
    --------
    >>> from corpusagree.model.continuum import Continuum
    >>> c = Continuum.from_units([("a", 0, 2, "PER"), ("b", 0, 2, "PER"), ("a", 4, 6, "LOC"),
    ...                           ("b", 4, 5, "LOC")], end=8, unit="token")
    >>> r = ner_agreement(c)
    >>> r.counts[0].sum(axis=0)[MODES.index("strict")].tolist()
    [1, 1, 0, 0, 0]
    >>> round(r.tokens[0]["kappa_all"], 4), round(r.tokens[0]["kappa_marked"], 4)
    (0.7895, 0.6)
    """
    A, D, L = len(c.annotators), len(c.documents), max(len(c.categories), 1)
    pairs = [(a, b) for a in range(A) for b in range(a + 1, A)]
    P = len(pairs)
    both = np.array([c.annotated[a] & c.annotated[b] for a, b in pairs]).reshape(P, D)
    units = []
    for p, (a, b) in enumerate(pairs):  # index arrays only: the matching is one call below
        shared = both[p, c.doc]
        units.append((_order(c, np.flatnonzero(shared & (c.annotator == a))),
                      _order(c, np.flatnonzero(shared & (c.annotator == b)))))
    pair_t = np.concatenate([np.full(len(t), p) for p, (t, _) in enumerate(units)] + [[]])
    pair_p = np.concatenate([np.full(len(r), p) for p, (_, r) in enumerate(units)] + [[]])
    ut = np.concatenate([t for t, _ in units] + [[]]).astype(np.int64)
    up = np.concatenate([r for _, r in units] + [[]]).astype(np.int64)
    pair_t, pair_p = pair_t.astype(np.int64), pair_p.astype(np.int64)
    gt, gp = pair_t * D + c.doc[ut], pair_p * D + c.doc[up]
    lt, lp = c.category[ut], c.category[up]
    spans_t = (c.start[ut], c.end[ut], lt)
    spans_p = (c.start[up], c.end[up], lp)
    total = np.zeros((P * D, len(MODES), len(COUNTS)), np.int64)
    by_label = np.zeros((P * D * L, len(MODES), len(COUNTS)), np.int64)
    strict = None
    for k, mode in enumerate(MODES):
        m = match(mode, gt, *spans_t, gp, *spans_p, min_overlap)
        total[:, k] = counts(m, gt, gp, P * D)
        if mode == "strict":
            strict = m
        ml = match(mode, gt * L + lt, *spans_t, gp * L + lp, *spans_p, min_overlap)
        by_label[:, k] = counts(ml, gt * L + lt, gp * L + lp, P * D * L)
    seen = np.zeros((P, L), bool)
    seen[pair_t, lt] = True
    seen[pair_p, lp] = True
    cuts_t = np.cumsum([0] + [len(t) for t, _ in units])
    cuts_p = np.cumsum([0] + [len(r) for _, r in units])
    outcomes = [Matching(strict.outcome[cuts_p[p]:cuts_p[p + 1]],
                         np.where(strict.taken[cuts_p[p]:cuts_p[p + 1]] >= 0,
                                  strict.taken[cuts_p[p]:cuts_p[p + 1]] - cuts_t[p], -1),
                         strict.missed[cuts_t[p]:cuts_t[p + 1]]) for p in range(P)]
    return NerAgreement(pairs, total.reshape(P, D, len(MODES), len(COUNTS)),
                        by_label.reshape(P, D, L, len(MODES), len(COUNTS)), seen, outcomes,
                        units, _tokens(c, pairs, both, units))


def _tokens(c: Continuum, pairs: list[tuple[int, int]], both: np.ndarray,
            units: list[tuple[np.ndarray, np.ndarray]]) -> list[dict] | None:
    """κ and α of each pair on token labels (Brandsen et al. 2020, §4.2), or None when the
    positions are not whole units."""
    whole = np.concatenate([c.start, c.end, c.bounds.ravel()])
    if not np.all(whole == np.round(whole)):
        return None
    out = []
    for p, (ut, up) in enumerate(units):  # one κ per pair, each over arrays
        docs = np.flatnonzero(both[p])
        where = np.full(len(c.documents), -1)
        where[docs] = np.arange(len(docs))
        length = (c.bounds[docs, 1] - c.bounds[docs, 0]).astype(np.int64)
        offsets = np.concatenate([[0], np.cumsum(length)])
        begin = c.bounds[:, 0]
        a, b = (token_labels(where[c.doc[u]], c.start[u] - begin[c.doc[u]],
                             c.end[u] - begin[c.doc[u]], c.category[u], offsets)
                for u in (ut, up))
        marked = (a > 0) | (b > 0)
        row = {"tokens": int(len(a)), "marked": int(marked.sum())}
        for scope, keep in (("all", slice(None)), ("marked", marked)):
            data = np.stack([a[keep], b[keep]])
            ok = data.shape[1] > 0 and len(np.unique(data)) > 1
            row[f"kappa_{scope}"] = kappa(data).value if ok else float("nan")
            row[f"alpha_{scope}"] = alpha(data).value if ok else float("nan")
        out.append(row)
    return out


__all__ = ["COUNTS", "MODES", "Matching", "NerAgreement", "counts", "f1_by_mode", "match",
           "ner_agreement", "overlaps", "scores", "token_labels"]
