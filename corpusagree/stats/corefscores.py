"""The coreference scores of the CoNLL reference scorer (Pradhan et al. 2014, v8.01).

A partition is a collection of disjoint, non-empty sets of hashable mention keys (exact spans,
say); a key and a response partition may cover different mentions, each side being scored on
its own mentions, as the reference scorer scores key and response mentions. The scores:

* ``muc`` — Vilain et al. (1995): links needed to rebuild each entity from its pieces;
* ``b_cubed`` — Bagga & Baldwin (1998), per mention, singletons included;
* ``ceaf_e`` and ``ceaf_m`` — Luo (2005): the best one-to-one alignment of entities
  (Kuhn–Munkres) by entity similarity φ₄ (Dice) or mention similarity φ₃ (shared mentions);
* ``blanc`` — Recasens & Hovy (2011) extended to system mentions by Luo et al. (2014);
* ``lea`` — Moosavi & Strube (2016), a singleton counting as one self-link resolved by the
  same singleton (as in their scorer).

Every score is computed from **counts**, the numerators and denominators of its recall and
precision (BLANC: those of its coreference-link and non-coreference-link parts), which is how
the reference scorer scores a corpus: it sums each document's counts and scores the sums
(the micro average). :func:`rpf` turns counts into recall, precision and F1 with the reference
scorer's conventions: x/0 = 0, F1 = 0 when recall + precision = 0; BLANC scores only its
non-coreference part when the key has no coreference link, only its coreference part when the
key has no non-coreference link, and 0 when the key has no link at all (one mention or none:
so two identical one-mention documents score 0, not 1). :func:`defined` says whether a score has
anything to measure — a document where neither side has a link has no MUC; a macro average
leaves such documents out rather than counting them as 0.

Everything is computed from the sparse key × response contingency table (numbers of shared
mentions), so the cost grows with the mentions, not with their pairs. :func:`document_pairs`
counts every pair of annotators on every document they both annotated, from arrays of cluster
ids.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy import sparse
from scipy.optimize import linear_sum_assignment
from scipy.sparse.csgraph import connected_components

from .ratios import divide

Partition = Iterable[Collection[Hashable]]

class Score(NamedTuple):
    """Recall, precision and F1 of a response against a key."""

    recall: float
    precision: float
    f1: float


def _check(metrics: Sequence[str]) -> None:
    unknown = [m for m in metrics if m not in SPECS]
    if unknown:
        raise ValueError(f"scores: unknown {unknown}; known: {list(METRICS)}")


# ---- from counts to figures -------------------------------------------------------------------
def _rpf(c: np.ndarray) -> np.ndarray:
    """Recall = c₀/c₁, precision = c₂/c₃ and their F1, x/0 = 0 (the reference scorer's
    ShowRPF)."""
    r, p = divide(c[..., 0], c[..., 1], 0.0), divide(c[..., 2], c[..., 3], 0.0)
    return np.stack([r, p, divide(2 * r * p, r + p, 0.0)], axis=-1)


def _blanc_rpf(c: np.ndarray) -> np.ndarray:
    """BLANC's figures: the mean of its coreference-link and non-coreference-link parts; only
    the one the key has links of; 0 when the key has no link (Luo et al. 2014, as the
    reference scorer)."""
    coref, non = _rpf(c[..., :4]), _rpf(c[..., 4:])
    no_coref, no_non = (c[..., 1] == 0)[..., None], (c[..., 5] == 0)[..., None]
    out = np.where(no_coref, non, np.where(no_non, coref, (coref + non) / 2))
    return np.where(no_coref & no_non, 0.0, out)


def rpf(metric: str, counts: np.ndarray) -> np.ndarray:
    """Recall, precision and F1 (last axis) from a score's counts (last axis, its
    :attr:`CorefMetric.width`), with the reference scorer's conventions (module docstring)."""
    _check([metric])
    return SPECS[metric].figures(np.asarray(counts, dtype=float))


def defined(metric: str, counts: np.ndarray) -> np.ndarray:
    """Whether a score measures anything: one of its denominators is not 0
    (:attr:`CorefMetric.denominators`; MUC: a link on either side; BLANC: a coreference or
    non-coreference link on either side; the others: a mention on either side)."""
    _check([metric])
    c = np.asarray(counts, dtype=float)
    return c[..., list(SPECS[metric].denominators)].sum(axis=-1) > 0


# ---- the contingency table and the counts of one key and response -----------------------------
class _Table(NamedTuple):
    """Entity sizes of both sides and their sparse contingency table: ``n[j]`` mentions shared
    by key entity ``row[j]`` and response entity ``col[j]`` (sorted by row, then column)."""

    key_sizes: np.ndarray
    resp_sizes: np.ndarray
    row: np.ndarray
    col: np.ndarray
    n: np.ndarray

    def transposed(self) -> _Table:
        order = np.lexsort((self.row, self.col))
        return _Table(self.resp_sizes, self.key_sizes, self.col[order], self.row[order],
                      self.n[order])


def _from_labels(key: np.ndarray, response: np.ndarray) -> _Table:
    """The table of two arrays of entity ids over the same mentions (-1: not a mention of that
    side)."""
    kmask, rmask = key >= 0, response >= 0
    ku, kinv = np.unique(key[kmask], return_inverse=True)
    ru, rinv = np.unique(response[rmask], return_inverse=True)
    kpos = np.full(len(key), -1, np.int64)
    kpos[kmask] = kinv
    rpos = np.full(len(response), -1, np.int64)
    rpos[rmask] = rinv
    both = (kpos >= 0) & (rpos >= 0)
    cells, n = np.unique(kpos[both] * len(ru) + rpos[both], return_counts=True)
    return _Table(np.bincount(kinv, minlength=len(ku)), np.bincount(rinv, minlength=len(ru)),
                  cells // max(len(ru), 1), cells % max(len(ru), 1), n)


def _labels(part: Partition, name: str, ids: dict) -> list[tuple[int, int]]:
    """(mention id, entity) of one partition; checks it is a partition."""
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    for n, cluster in enumerate(part):
        if not cluster:
            raise ValueError(f"{name}: cluster {n} is empty")
        for m in cluster:
            i = ids.setdefault(m, len(ids))
            if i in seen:
                raise ValueError(f"{name}: mention {m!r} is in more than one cluster")
            seen.add(i)
            out.append((i, n))
    return out


def _table(key: Partition, response: Partition) -> _Table:
    ids: dict = {}
    sides = [_labels(key, "key", ids), _labels(response, "response", ids)]
    labels = np.full((2, len(ids)), -1, np.int64)
    for row, pairs in zip(labels, sides, strict=True):
        if pairs:
            m, e = np.array(pairs, np.int64).T
            row[m] = e
    return _from_labels(labels[0], labels[1])


def _pairs(n: np.ndarray) -> np.ndarray:
    return n * (n - 1) // 2


def _muc(t: _Table) -> list[float]:
    """MUC (Vilain et al. 1995): R = Σ(|k| − |p(k)|) / Σ(|k| − 1); both numerators are the
    shared mentions less the (key, response) entity pairs that share one."""
    correct = t.n.sum() - len(t.n)
    return [correct, (t.key_sizes - 1).sum(), correct, (t.resp_sizes - 1).sum()]


def _b_cubed(t: _Table) -> list[float]:
    """B³ (Bagga & Baldwin 1998): R = Σ_kr |k∩r|²/|k| / Σ|k|."""
    sq = t.n.astype(float) ** 2
    return [(sq / t.key_sizes[t.row]).sum(), t.key_sizes.sum(),
            (sq / t.resp_sizes[t.col]).sum(), t.resp_sizes.sum()]


def _ceaf(t: _Table) -> dict[str, list[float]]:
    """Entity CEAF (φ₄ = 2|k∩r| / (|k|+|r|); R = total / |K|) and mention CEAF (φ₃ = |k∩r|;
    R = total / Σ|k|) (Luo 2005): the best one-to-one alignment of entities, each connected
    block of the key–response overlap graph aligned separately (Kuhn–Munkres)."""
    nk, nr = len(t.key_sizes), len(t.resp_sizes)
    phi = {"ceaf_e": 2 * t.n / (t.key_sizes[t.row] + t.resp_sizes[t.col]),
           "ceaf_m": t.n.astype(float)}
    total = dict.fromkeys(phi, 0.0)
    if len(t.n):
        graph = sparse.coo_matrix((np.ones(len(t.n)), (t.row, nk + t.col)),
                                  shape=(nk + nr,) * 2)
        _, comp = connected_components(graph, directed=False)
        entry_comp = comp[t.row]
        alone = np.bincount(entry_comp)[entry_comp] == 1     # a pair of entities by itself
        for name, sim in phi.items():
            total[name] += sim[alone].sum()
        many = np.flatnonzero(~alone)
        order = many[np.argsort(entry_comp[many], kind="stable")]
        bounds = np.flatnonzero(np.diff(entry_comp[order])) + 1
        for idx in np.split(order, bounds) if len(order) else []:
            rows, ri = np.unique(t.row[idx], return_inverse=True)
            cols, ci = np.unique(t.col[idx], return_inverse=True)
            for name, sim in phi.items():
                block = np.zeros((len(rows), len(cols)))
                block[ri, ci] = sim[idx]
                a, b = linear_sum_assignment(block, maximize=True)
                total[name] += block[a, b].sum()
    return {"ceaf_e": [total["ceaf_e"], nk, total["ceaf_e"], nr],
            "ceaf_m": [total["ceaf_m"], t.key_sizes.sum(), total["ceaf_m"], t.resp_sizes.sum()]}


def _blanc(t: _Table) -> list[float]:
    """BLANC (Recasens & Hovy 2011; Luo et al. 2014): coreference links (pairs of mentions of
    one entity) and non-coreference links (pairs of mentions of two entities) of each side,
    and those both sides have."""
    ks, rs = t.key_sizes, t.resp_sizes
    c_k, c_r, tp_c = _pairs(ks).sum(), _pairs(rs).sum(), _pairs(t.n).sum()
    row_common = np.bincount(t.row, t.n, minlength=len(ks)).astype(np.int64)
    col_common = np.bincount(t.col, t.n, minlength=len(rs)).astype(np.int64)
    tp_n = _pairs(t.n.sum()) - _pairs(row_common).sum() - _pairs(col_common).sum() + tp_c
    n_k, n_r = _pairs(ks.sum()) - c_k, _pairs(rs.sum()) - c_r
    return [tp_c, c_k, tp_c, c_r, tp_n, n_k, tp_n, n_r]


def _lea_side(t: _Table) -> float:
    """LEA's recall numerator: Σ|k|·Σ_r link(k∩r)/link(k), a singleton resolved (one self-link)
    when the other side has the same singleton."""
    sizes = t.key_sizes
    resolved = np.bincount(t.row, _pairs(t.n), minlength=len(sizes))
    met = np.bincount(t.row, minlength=len(sizes))
    partner = np.zeros(len(sizes), np.int64)
    partner[t.row] = t.col                    # the response entity of a key entity met once
    single = (sizes == 1) & (met == 1)
    hit = np.zeros(len(sizes))
    hit[single] = t.resp_sizes[partner[single]] == 1
    resolved = np.where(sizes == 1, hit, resolved)
    links = np.where(sizes == 1, 1, _pairs(sizes))
    return float((sizes * resolved / links).sum())


def _lea(t: _Table) -> list[float]:
    """LEA (Moosavi & Strube 2016): R = Σ|k|·Σ_r link(k∩r)/link(k) / Σ|k| with
    link(e) = |e|(|e|−1)/2; a singleton is one self-link, resolved by the same singleton."""
    return [_lea_side(t), t.key_sizes.sum(), _lea_side(t.transposed()), t.resp_sizes.sum()]


# ---- the table of scores ----------------------------------------------------------------------
@dataclass(frozen=True)
class CorefMetric:
    """One coreference score: what it counts and how its figures follow.

    ``counts(table, memo)`` gives its ``width`` counts of a key × response table (``memo``
    shares work between scores: both CEAFs come from one alignment), ``components`` names
    them; ``figures`` turns counts into recall, precision and F1; the score is defined where
    one of the counts at ``denominators`` is not 0, and ``undefined`` says what is missing
    where it is not (a note's words); ``conll``: part of the CoNLL-2012 average.
    """

    id: str
    name: str
    citation: str
    counts: Callable[[_Table, dict], list[float]]
    components: tuple[str, ...] = ("recall numerator", "recall denominator",
                                   "precision numerator", "precision denominator")
    figures: Callable[[np.ndarray], np.ndarray] = _rpf
    denominators: tuple[int, ...] = (1, 3)
    undefined: str = "mention"
    conll: bool = False

    @property
    def width(self) -> int:
        """How many counts the score has."""
        return len(self.components)


def _ceaf_of(name: str) -> Callable[[_Table, dict], list[float]]:
    def count(t: _Table, memo: dict) -> list[float]:
        if "ceaf" not in memo:
            memo["ceaf"] = _ceaf(t)
        return memo["ceaf"][name]

    return count


#: the scores, in the order they are reported (Pradhan et al. 2014)
SPECS: dict[str, CorefMetric] = {m.id: m for m in (
    CorefMetric("muc", "MUC", "Vilain et al. 1995", lambda t, _: _muc(t), undefined="link",
                conll=True),
    CorefMetric("b_cubed", "B³", "Bagga & Baldwin 1998", lambda t, _: _b_cubed(t), conll=True),
    CorefMetric("ceaf_e", "CEAF-e", "Luo 2005 (φ₄)", _ceaf_of("ceaf_e"), conll=True),
    CorefMetric("ceaf_m", "CEAF-m", "Luo 2005 (φ₃)", _ceaf_of("ceaf_m")),
    CorefMetric("blanc", "BLANC", "Recasens & Hovy 2011; Luo et al. 2014",
                lambda t, _: _blanc(t),
                tuple(f"{link} {x}" for link in ("coreference-link", "non-coreference-link")
                      for x in ("recall numerator", "recall denominator",
                                "precision numerator", "precision denominator")),
                _blanc_rpf, (1, 3, 5, 7), "link"),
    CorefMetric("lea", "LEA", "Moosavi & Strube 2016", lambda t, _: _lea(t)),
)}
#: the score ids, in order
METRICS = tuple(SPECS)
#: how many counts each score has: recall numerator and denominator, precision numerator and
#: denominator (BLANC: those of its coreference links, then of its non-coreference links)
WIDTH = {m: spec.width for m, spec in SPECS.items()}
#: the scores of the CoNLL-2012 average (Pradhan et al. 2012): the mean of their F1
CONLL = tuple(m for m, spec in SPECS.items() if spec.conll)


def _counts(t: _Table, metrics: Sequence[str]) -> np.ndarray:
    """The counts of ``metrics``, concatenated in that order."""
    memo: dict = {}
    return np.array([float(x) for m in metrics for x in SPECS[m].counts(t, memo)])


def counts(key: Partition, response: Partition, metrics: Sequence[str] = METRICS
           ) -> dict[str, np.ndarray]:
    """Each score's counts (:data:`WIDTH`) of a response against a key; sum them over
    documents for the reference scorer's corpus score."""
    _check(metrics)
    flat = _counts(_table(key, response), metrics)
    return dict(zip(metrics, np.split(flat, np.cumsum([WIDTH[m] for m in metrics])[:-1]),
                    strict=True))


def _scorer(metric: str) -> Callable[[Partition, Partition], Score]:
    spec = SPECS[metric]

    def score(key: Partition, response: Partition) -> Score:
        return Score(*map(float, rpf(metric, counts(key, response, [metric])[metric])))

    score.__name__ = metric
    score.__doc__ = f"{spec.name} recall, precision and F1 ({spec.citation})."
    return score


#: each score as a function of (key, response) partitions
SCORES: dict[str, Callable[[Partition, Partition], Score]] = {m: _scorer(m) for m in SPECS}
muc, b_cubed, ceaf_e, ceaf_m, blanc, lea = (SCORES[m] for m in METRICS)


# ---- every annotator pair of every document ---------------------------------------------------
@dataclass(frozen=True)
class DocumentPairs:
    """The counts of every (document, annotator pair) both annotated: row ``k`` scores
    annotator ``response[k]`` against annotator ``key[k]`` (``key < response``) on document
    ``doc[k]``; ``counts[k]`` holds the counts of ``metrics`` in that order (:data:`WIDTH`)."""

    metrics: tuple[str, ...]
    doc: np.ndarray
    key: np.ndarray
    response: np.ndarray
    counts: np.ndarray

    def __len__(self) -> int:
        return len(self.doc)

    def of(self, metric: str) -> np.ndarray:
        """The counts of one score (rows × :data:`WIDTH`)."""
        start = sum(WIDTH[m] for m in self.metrics[:self.metrics.index(metric)])
        return self.counts[:, start:start + WIDTH[metric]]

    def figures(self) -> np.ndarray:
        """rows × metrics × (recall, precision, F1), nan where a score is not
        :func:`defined` on the document."""
        out = np.full((len(self), len(self.metrics), 3), np.nan)
        for j, m in enumerate(self.metrics):
            c = self.of(m)
            out[:, j] = np.where(defined(m, c)[:, None], rpf(m, c), np.nan)
        return out

    def micro(self, rows: np.ndarray | None = None) -> np.ndarray:
        """metrics × (recall, precision, F1) of the summed counts of ``rows`` (a mask or
        indices; all rows by default): the reference scorer's corpus score."""
        sel = slice(None) if rows is None else rows
        return np.array([rpf(m, self.of(m)[sel].sum(axis=0)) for m in self.metrics])

    def pair_index(self, n_annotators: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(key, response, pair of each row) of every annotator pair that shares a document,
        in order of (key, response)."""
        code = self.key * n_annotators + self.response
        pairs, inv = np.unique(code, return_inverse=True)
        return pairs // n_annotators, pairs % n_annotators, inv.reshape(-1)


def macro(figures: np.ndarray, groups: np.ndarray, n_groups: int
          ) -> tuple[np.ndarray, np.ndarray]:
    """(means, counts) of per-document ``figures`` (rows × ...) over the rows of each group,
    each mean over the rows where the figure is defined (not nan); nan where none is."""
    shape = (n_groups, *figures.shape[1:])
    ok = ~np.isnan(figures)
    sums, n = np.zeros(shape), np.zeros(shape, np.int64)
    np.add.at(sums, groups, np.where(ok, figures, 0.0))
    np.add.at(n, groups, ok)
    return np.where(n > 0, sums / np.maximum(n, 1), np.nan), n


def document_pairs(clusters: np.ndarray, doc_items: np.ndarray, annotated: np.ndarray,
                   metrics: Sequence[str] = METRICS,
                   progress: Callable[[int, int], None] | None = None) -> DocumentPairs:
    """The counts of ``metrics`` for every pair of annotators on every document both
    annotated, the first annotator of a pair as the key (Pradhan et al. 2014).

    ``clusters[a, i]``: annotator ``a``'s entity id of item ``i`` (-1 = not marked); the items
    of document ``d`` are ``doc_items[d]:doc_items[d + 1]``; ``annotated[a, d]``: annotator
    ``a`` annotated document ``d``. Each annotator of a pair is scored on the items they
    marked. ``progress(done, total)`` is called after each document.

    ``clusters.copies`` (:class:`corpusagree.convert.coref.Clusters`), rows ``(annotator,
    item, entity)``: the later occurrences of items an annotator marked more than once. As the
    reference scorer v8.01 reads a response (``IdentifMentions`` of its ``CorScorer.pm``), a
    copy counts, as a mention of the response only, when the key did not mark the item, and is
    dropped when it did.

    Examples
    --------
    The response marks mention 0 in entities 3 and 4 and mention 1 in entities 2 and 4
    (``(3)|(4)`` and ``(2)|(4)``); the key has mention 0 alone and mention 2. The scorer keeps
    0 in entity 3, 1 in entity 4 and its copy in entity 2 (1 is not in the key):

    >>> from corpusagree.convert.coref import Clusters
    >>> ids = Clusters(np.array([[0, -1, 1], [3, 4, -1]]), np.array([[1, 0, 4], [1, 1, 2]]))
    >>> t = document_pairs(ids, np.array([0, 3]), np.ones((2, 1), bool), ["muc", "b_cubed"])
    >>> [round(float(x), 4) for x in t.micro()[:, 1]]   # precision: MUC, B³
    [0.0, 0.3333]
    """
    _check(metrics)
    D = annotated.shape[1]
    copies = getattr(clusters, "copies", np.zeros((0, 3), np.int64))
    copies = copies[np.argsort(copies[:, 1], kind="stable")] if len(copies) else copies
    ids = np.asarray(clusters)
    rows: list[tuple[int, int, int]] = []
    out: list[np.ndarray] = []
    for d in range(D):
        lo, hi = doc_items[d], doc_items[d + 1]
        who = np.flatnonzero(annotated[:, d])
        here = copies[np.searchsorted(copies[:, 1], lo):np.searchsorted(copies[:, 1], hi)]
        for i, a in enumerate(who):
            for b in who[i + 1:]:
                rows.append((d, int(a), int(b)))
                key, response = ids[a, lo:hi], ids[b, lo:hi]
                mine = here[here[:, 0] == b] if len(here) else here
                extra = mine[key[mine[:, 1] - lo] < 0, 2] if len(mine) else mine[:, 2]
                if len(extra):  # the response's copies of mentions the key does not have
                    key = np.concatenate([key, np.full(len(extra), -1, np.int64)])
                    response = np.concatenate([response, extra])
                out.append(_counts(_from_labels(key, response), metrics))
        if progress is not None:
            progress(d + 1, D)
    arr = np.array(rows, np.int64).reshape(-1, 3)
    width = sum(WIDTH[m] for m in metrics)
    return DocumentPairs(tuple(metrics), arr[:, 0], arr[:, 1], arr[:, 2],
                         np.array(out, float).reshape(-1, width))


__all__ = ["CONLL", "METRICS", "SCORES", "SPECS", "WIDTH", "CorefMetric", "DocumentPairs",
           "Partition", "Score", "b_cubed", "blanc", "ceaf_e", "ceaf_m", "counts", "defined",
           "document_pairs", "lea", "macro", "muc", "rpf"]
