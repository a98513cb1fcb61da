"""The standard coreference scores between a key and a response partition.

A partition is a collection of disjoint, non-empty sets of hashable mention keys (exact spans,
say); the two partitions may cover different mentions. Every score returns
``Score(recall, precision, f1)`` with the conventions of the ``scorch`` package
(Pradhan et al. 2014's reference scorer where scorch follows it):

* :func:`muc` — Vilain et al. (1995); 0 when either side has only singletons;
* :func:`b_cubed` — Bagga & Baldwin (1998), singletons included;
* :func:`ceaf_e` — Luo (2005), entity-based φ₄ (Dice) similarity, Kuhn–Munkres alignment;
* :func:`blanc` — Recasens & Hovy (2011) extended to system mentions by Luo et al. (2014);
* :func:`lea` — Moosavi & Strube (2016), a singleton counting as one self-link (as in their
  scorer), resolved when the other side has the same singleton.

Everything is computed from the sparse key × response contingency table (numbers of shared
mentions), so the cost grows with the mentions, not with their pairs. To score a corpus at once,
key mentions by ``(document, mention)``: MUC, B³, CEAF-e and LEA then equal the usual
micro-averaged (summed) corpus scores; BLANC would count cross-document pairs.
:func:`document_pairs` scores every pair of annotators on every document they both annotated,
from arrays of cluster ids.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy import sparse
from scipy.optimize import linear_sum_assignment
from scipy.sparse.csgraph import connected_components

Partition = Iterable[Collection[Hashable]]


class Score(NamedTuple):
    """Recall, precision and F1 of a response against a key."""

    recall: float
    precision: float
    f1: float


class _Table(NamedTuple):
    """Cluster sizes of both sides and their sparse contingency table (CSR, key × response)."""

    key_sizes: np.ndarray
    resp_sizes: np.ndarray
    table: sparse.csr_matrix


def _labels(part: Partition, name: str, ids: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """Mention ids and cluster labels of one partition; checks it is a partition."""
    mentions: list[int] = []
    labels: list[int] = []
    n = 0
    for n, cluster in enumerate(part, 1):
        if not cluster:
            raise ValueError(f"{name}: cluster {n - 1} is empty")
        for m in cluster:
            mentions.append(ids.setdefault(m, len(ids)))
            labels.append(n - 1)
    mentions_arr = np.asarray(mentions, dtype=np.int64)
    repeated = np.flatnonzero(np.bincount(mentions_arr, minlength=len(ids)) > 1)
    if len(repeated):
        dup = next(k for k, v in ids.items() if v == repeated[0])
        raise ValueError(f"{name}: mention {dup!r} is in more than one cluster")
    return mentions_arr, np.asarray(labels, dtype=np.int64), n


def _table(key: Partition, response: Partition) -> _Table:
    ids: dict = {}
    km, kl, nk = _labels(key, "key", ids)
    rm, rl, nr = _labels(response, "response", ids)
    kpos = np.full(len(ids), -1, dtype=np.int64)
    kpos[km] = kl
    rpos = np.full(len(ids), -1, dtype=np.int64)
    rpos[rm] = rl
    both = (kpos >= 0) & (rpos >= 0)
    table = sparse.coo_matrix((np.ones(both.sum(), dtype=np.int64), (kpos[both], rpos[both])),
                              shape=(nk, nr)).tocsr()   # duplicates summed
    return _Table(np.bincount(kl, minlength=nk), np.bincount(rl, minlength=nr), table)


def _f1(r: float, p: float) -> Score:
    return Score(float(r), float(p), float(2 * p * r / (p + r)) if p > 0 and r > 0 else 0.0)


def _pairs(n: np.ndarray) -> np.ndarray:
    return n * (n - 1) // 2


def muc(key: Partition, response: Partition) -> Score:
    """MUC (Vilain et al. 1995): links needed to rebuild each cluster from its trace on the
    other side, R = Σ(|k| − |p(k)|) / Σ(|k| − 1)."""
    t = _table(key, response)
    if not (t.key_sizes > 1).any() or not (t.resp_sizes > 1).any():
        return Score(0.0, 0.0, 0.0)

    def side(sizes: np.ndarray, table: sparse.csr_matrix) -> float:
        aligned = np.asarray(table.sum(axis=1)).ravel()
        parts = np.diff(table.indptr) + (sizes - aligned)   # clusters met + unaligned mentions
        return (sizes - parts).sum() / (sizes - 1).sum()

    return _f1(side(t.key_sizes, t.table), side(t.resp_sizes, t.table.T.tocsr()))


def b_cubed(key: Partition, response: Partition) -> Score:
    """B³ (Bagga & Baldwin 1998): per-mention overlap, R = Σ_kr |k∩r|²/|k| / Σ|k|."""
    t = _table(key, response)
    coo = t.table.tocoo()
    sq = coo.data.astype(float) ** 2
    r = (sq / t.key_sizes[coo.row]).sum() / t.key_sizes.sum() if t.key_sizes.sum() else 0.0
    p = (sq / t.resp_sizes[coo.col]).sum() / t.resp_sizes.sum() if t.resp_sizes.sum() else 0.0
    return _f1(r, p)


def ceaf_e(key: Partition, response: Partition) -> Score:
    """Entity CEAF (Luo 2005, φ₄): best one-to-one alignment of clusters by Dice similarity
    2|k∩r| / (|k|+|r|); R = total / |K|, P = total / |R|. Each connected block of the
    key–response overlap graph is aligned separately (Kuhn–Munkres)."""
    t = _table(key, response)
    nk, nr = len(t.key_sizes), len(t.resp_sizes)
    if nk == 0 or nr == 0:
        return Score(0.0, 0.0, 0.0)
    coo = t.table.tocoo()
    sim = 2 * coo.data / (t.key_sizes[coo.row] + t.resp_sizes[coo.col])
    graph = sparse.coo_matrix((np.ones_like(sim), (coo.row, nk + coo.col)), shape=(nk + nr,) * 2)
    _, comp = connected_components(graph, directed=False)
    total = 0.0
    rows_comp, order = comp[coo.row], np.argsort(comp[coo.row], kind="stable")
    bounds = np.flatnonzero(np.diff(rows_comp[order])) + 1
    for idx in np.split(order, bounds) if len(order) else []:
        rows, ri = np.unique(coo.row[idx], return_inverse=True)
        cols, ci = np.unique(coo.col[idx], return_inverse=True)
        block = np.zeros((len(rows), len(cols)))
        block[ri, ci] = sim[idx]
        a, b = linear_sum_assignment(block, maximize=True)
        total += block[a, b].sum()
    return _f1(total / nk, total / nr)


def blanc(key: Partition, response: Partition) -> Score:
    """BLANC (Recasens & Hovy 2011) for system mentions (Luo et al. 2014): the mean of the
    coreference-link and non-coreference-link scores, each over the pairs of its own side's
    mentions; when the key has no coreference (or no non-coreference) link, only the other
    part counts (scorch's reading of the edge cases)."""
    t = _table(key, response)
    ks, rs = t.key_sizes, t.resp_sizes
    if len(ks) == len(rs) == 1 and ks[0] == rs[0] == 1:
        same = t.table.nnz == 1
        return Score(float(same), float(same), float(same))
    n_kr = t.table.data
    c_k, c_r, tp_c = _pairs(ks).sum(), _pairs(rs).sum(), _pairs(n_kr).sum()
    row_common = np.asarray(t.table.sum(axis=1)).ravel()
    col_common = np.asarray(t.table.sum(axis=0)).ravel()
    common = row_common.sum()
    tp_n = _pairs(common) - _pairs(row_common).sum() - _pairs(col_common).sum() + tp_c
    n_k, n_r = _pairs(ks.sum()) - c_k, _pairs(rs.sum()) - c_r

    def part(tp: int, k: int, r: int) -> np.ndarray:
        if not k and not r:
            return np.ones(3)
        if not k or not r:
            return np.zeros(3)
        return np.array([tp / k, tp / r, 2 * tp / (k + r)])

    c, n = part(tp_c, c_k, c_r), part(tp_n, n_k, n_r)
    out = n if not c_k else c if not n_k else (c + n) / 2
    return Score(*map(float, out))


def lea(key: Partition, response: Partition) -> Score:
    """LEA (Moosavi & Strube 2016): each entity weighted by its size, scored by the fraction of
    its links resolved on the other side, R = Σ|k|·Σ_r link(k∩r)/link(k) / Σ|k| with
    link(e) = |e|(|e|−1)/2; a singleton is one self-link, resolved by the same singleton."""
    t = _table(key, response)

    def side(sizes: np.ndarray, other: np.ndarray, table: sparse.csr_matrix) -> float:
        if not sizes.sum():
            return 0.0
        coo = table.tocoo()
        resolved = np.bincount(coo.row, weights=_pairs(coo.data), minlength=len(sizes))
        single = (sizes == 1) & (np.diff(table.indptr) == 1)   # singleton met on the other side
        hit = np.zeros(len(sizes))
        hit[single] = other[table.indices[table.indptr[:-1][single]]] == 1
        resolved = np.where(sizes == 1, hit, resolved)
        links = np.where(sizes == 1, 1, _pairs(sizes))
        return float((sizes * resolved / links).sum() / sizes.sum())

    return _f1(side(t.key_sizes, t.resp_sizes, t.table),
               side(t.resp_sizes, t.key_sizes, t.table.T.tocsr()))


SCORES: dict[str, Callable[[Partition, Partition], Score]] = {
    "muc": muc, "b_cubed": b_cubed, "ceaf_e": ceaf_e, "blanc": blanc, "lea": lea,
}


# ---- every annotator pair of every document ---------------------------------------------------
def partition(clusters: np.ndarray) -> list[list[int]]:
    """The clusters (lists of item indices, in item order) of one annotator's cluster ids;
    -1 = an item the annotator did not mark."""
    idx = np.flatnonzero(clusters >= 0)
    order = idx[np.argsort(clusters[idx], kind="stable")]
    if not len(order):
        return []
    return [c.tolist() for c in np.split(order, np.flatnonzero(np.diff(clusters[order])) + 1)]


@dataclass(frozen=True)
class DocumentPairs:
    """F1 of every (document, annotator pair) both annotated: row ``k`` scores annotator
    ``response[k]`` against annotator ``key[k]`` (``key < response``) on document ``doc[k]``;
    ``f1[k, s]`` is score ``names[s]``."""

    names: tuple[str, ...]
    doc: np.ndarray
    key: np.ndarray
    response: np.ndarray
    f1: np.ndarray

    def __len__(self) -> int:
        return len(self.doc)

    def mean(self) -> dict[str, float]:
        """Each score's mean over every (document, pair) row (nan without rows)."""
        return {s: float(self.f1[:, j].mean()) if len(self) else float("nan")
                for j, s in enumerate(self.names)}

    def by_pair(self, n_annotators: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(key, response, documents, mean F1 per score) of every annotator pair that shares a
        document: each score averaged over the documents the pair shares (macro average)."""
        code = self.key * n_annotators + self.response
        pairs, inv, n = np.unique(code, return_inverse=True, return_counts=True)
        sums = np.zeros((len(pairs), len(self.names)))
        np.add.at(sums, inv, self.f1)
        return pairs // n_annotators, pairs % n_annotators, n, sums / n[:, None]

    def by_document(self, n_documents: int) -> np.ndarray:
        """documents × scores: each score's mean over the pairs of a document (nan for a
        document fewer than two annotators annotated)."""
        sums = np.zeros((n_documents, len(self.names)))
        np.add.at(sums, self.doc, self.f1)
        n = np.bincount(self.doc, minlength=n_documents)[:, None]
        return np.where(n > 0, sums / np.maximum(n, 1), np.nan)


def document_pairs(clusters: np.ndarray, doc_items: np.ndarray, annotated: np.ndarray,
                   scores: Sequence[str] = tuple(SCORES),
                   progress: Callable[[int, int], None] | None = None) -> DocumentPairs:
    """Every score of :data:`SCORES` (MUC, B³, CEAF-e, BLANC, LEA; Pradhan et al. 2014) for
    every pair of annotators on every document both annotated, the first annotator of a pair
    as the key.

    ``clusters[a, i]``: annotator ``a``'s cluster id of item ``i`` (-1 = not marked); the items
    of document ``d`` are ``doc_items[d]:doc_items[d + 1]``; ``annotated[a, d]``: annotator
    ``a`` annotated document ``d``. A pair is scored on the items each of them marked.
    ``progress(done, total)`` is called after each document.
    """
    unknown = [s for s in scores if s not in SCORES]
    if unknown:
        raise ValueError(f"scores: unknown {unknown}; known: {list(SCORES)}")
    fns = [SCORES[s] for s in scores]
    D = annotated.shape[1]
    rows: list[tuple[int, int, int]] = []
    f1: list[list[float]] = []
    for d in range(D):
        lo, hi = doc_items[d], doc_items[d + 1]
        who = np.flatnonzero(annotated[:, d])
        parts = {a: partition(clusters[a, lo:hi]) for a in who}
        for i, a in enumerate(who):
            for b in who[i + 1:]:
                rows.append((d, int(a), int(b)))
                f1.append([f(parts[a], parts[b]).f1 for f in fns])
        if progress is not None:
            progress(d + 1, D)
    arr = np.array(rows, np.int64).reshape(-1, 3)
    return DocumentPairs(tuple(scores), arr[:, 0], arr[:, 1], arr[:, 2],
                         np.array(f1, float).reshape(-1, len(fns)))
