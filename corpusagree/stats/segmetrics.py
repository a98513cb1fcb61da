"""Pairwise segmentation metrics on segment masses: Pk, WindowDiff, B and S.

Each function compares two segmentations of the same text, given as masses (segment sizes in
units, e.g. ``(3, 2, 5)``), and returns a float equal to segeval 2.0.11 with its defaults:

* :func:`pk` (Beeferman, Berger & Lafferty 1999) and :func:`window_diff` (Pevzner & Hearst
  2002) are *penalties* (0 = identical). Like segeval they take ``(hypothesis, reference)`` and,
  unless ``window_size`` is given, derive the window from the **reference only**: half its mean
  segment mass, rounded half to even, at least 2. Both are therefore asymmetric.
* :func:`boundary_similarity` (B) and :func:`segmentation_similarity` (S) (Fournier 2013) are
  *similarities* (1 = identical) built on :func:`boundary_edit_distance`: full misses count 1,
  near misses (transpositions spanning fewer than ``n_t`` = 2 boundary positions) count
  ``span / n_t``.

Where segeval fails, these functions return a value instead: WindowDiff on a text exactly one
window long (segeval divides 0 by 0) gives 0.0; B and S on two segmentations without any
boundary (segeval takes ``max`` of an empty set) give 1.0.

Over a corpus, :func:`pairwise_means` averages the four over the documents each coder pair
segmented, and :func:`boundary_rates` compares each coder's boundary rate with the other
coders' on the same potential boundaries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..model.data import ReliabilityData
from ..model.errors import InputError
from .ratios import divide

Masses = Sequence[int]


class BoundaryEdits(NamedTuple):
    """Outcome of boundary edit distance between two single-type boundary strings."""

    additions: int
    transpositions: tuple[tuple[int, int], ...]
    matches: int
    positions: int

    def weighted_edits(self, n_t: int = 2) -> float:
        """Full misses count 1, a transposition ``(i, j)`` counts ``(j - i) / n_t``."""
        return self.additions + sum(j - i for i, j in self.transpositions) / n_t


def _masses(masses: Masses, name: str) -> np.ndarray:
    arr = np.asarray(masses)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise InputError(f"{name} must be a non-empty sequence of integers, got {masses!r}")
    if (arr <= 0).any():
        raise InputError(f"{name} must hold positive segment masses, got {masses!r}")
    return arr.astype(np.int64)


def _pair(a: Masses, b: Masses, names: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    ma, mb = _masses(a, names[0]), _masses(b, names[1])
    if ma.sum() != mb.sum():
        raise InputError(f"segmentations differ in length: {names[0]} covers {ma.sum()} units, "
                         f"{names[1]} covers {mb.sum()}")
    return ma, mb


def _labels(masses: np.ndarray) -> np.ndarray:
    """Segment index of every unit."""
    return np.repeat(np.arange(masses.size), masses)


def _boundary_string(masses: np.ndarray) -> np.ndarray:
    """Boolean per potential boundary (between units i and i+1)."""
    out = np.zeros(int(masses.sum()) - 1, dtype=bool)
    out[np.cumsum(masses)[:-1] - 1] = True
    return out


def window_size(reference: Masses) -> int:
    """segeval's default window: half the mean segment mass, rounded half to even, at least 2."""
    ref = _masses(reference, "reference")
    total, twice_n = int(ref.sum()), 2 * ref.size
    k, rem = divmod(total, twice_n)
    if 2 * rem > twice_n or (2 * rem == twice_n and k % 2 == 1):
        k += 1
    return max(k, 2)


def _window(reference: np.ndarray, size: int | None) -> int:
    if size is None:
        return window_size(reference)
    if int(size) != size or size < 1:
        raise InputError(f"window_size must be a positive integer, got {size!r}")
    return int(size)


def pk(hypothesis: Masses, reference: Masses, window_size: int | None = None) -> float:
    """Pk (Beeferman et al. 1999): share of windows where the two disagree on "same segment?".

    Probes pair unit ``i`` with unit ``i + k`` for ``i`` in ``0 .. n-k-1``; 0.0 if ``n <= k``.
    """
    hyp, ref = _pair(hypothesis, reference, ("hypothesis", "reference"))
    k = _window(ref, window_size)
    lh, lr = _labels(hyp), _labels(ref)
    if lr.size <= k:
        return 0.0
    differ = (lh[:-k] == lh[k:]) != (lr[:-k] == lr[k:])
    return float(np.count_nonzero(differ)) / differ.size


def window_diff(hypothesis: Masses, reference: Masses, window_size: int | None = None) -> float:
    """WindowDiff (Pevzner & Hearst 2002): share of windows with unequal boundary counts.

    A window spans ``k`` consecutive potential boundaries; there are ``n - k`` windows
    (0.0 if there are none).
    """
    hyp, ref = _pair(hypothesis, reference, ("hypothesis", "reference"))
    k = _window(ref, window_size)
    n = int(ref.sum())
    if n <= k:
        return 0.0
    counts = []
    for masses in (hyp, ref):
        cum = np.concatenate(([0], np.cumsum(_boundary_string(masses))))
        counts.append(cum[k:n] - cum[: n - k])
    return float(np.count_nonzero(counts[0] != counts[1])) / (n - k)


def boundary_edit_distance(a: Masses, b: Masses, n_t: int = 2) -> BoundaryEdits:
    """Boundary edit distance (Fournier 2013) for one boundary type, as segeval computes it.

    Mismatched positions (a boundary in one string only) pair up into transpositions when a
    boundary of ``a`` and one of ``b`` lie ``1 .. n_t-1`` positions apart; spans are tried
    shortest first, positions left to right, and a position joins at most one transposition.
    The remaining mismatches are additions (full misses).
    """
    if int(n_t) != n_t or n_t < 1:
        raise InputError(f"n_t must be a positive integer, got {n_t!r}")
    ma, mb = _pair(a, b, ("a", "b"))
    sa, sb = _boundary_string(ma), _boundary_string(mb)
    mismatch = sa != sb
    where = np.flatnonzero(mismatch)
    used = np.zeros_like(mismatch)
    transpositions = []
    for span in range(1, int(n_t)):
        for i in where[where + span < mismatch.size]:
            j = i + span
            if mismatch[j] and sa[i] != sa[j] and not used[i] and not used[j]:
                used[i] = used[j] = True
                transpositions.append((int(i), int(j)))
    return BoundaryEdits(additions=int(where.size - used.sum()),
                         transpositions=tuple(sorted(transpositions)),
                         matches=int(np.count_nonzero(sa & sb)),
                         positions=int(sa.size))


def boundary_similarity(a: Masses, b: Masses, n_t: int = 2) -> float:
    """Boundary similarity B (Fournier 2013): 1 − weighted edits / (edits + matches)."""
    e = boundary_edit_distance(a, b, n_t)
    total = e.additions + len(e.transpositions) + e.matches
    if total == 0:
        return 1.0
    return (total - e.weighted_edits(n_t)) / total


def segmentation_similarity(a: Masses, b: Masses, n_t: int = 2) -> float:
    """Segmentation similarity S (Fournier & Inkpen 2012; Fournier 2013): 1 − edits / (n − 1)."""
    e = boundary_edit_distance(a, b, n_t)
    if e.additions + len(e.transpositions) + e.matches == 0:
        return 1.0
    return (e.positions - e.weighted_edits(n_t)) / e.positions


Metric = Callable[[Masses, Masses], float]

# ---- over a corpus ---------------------------------------------------------------------------
#: the metrics :func:`pairwise_means` averages, called as f(row coder, column coder)
PAIR_METRICS: dict[str, Metric] = {
    "boundary_similarity": boundary_similarity,
    "segmentation_similarity": segmentation_similarity,
    "pk": pk,
    "window_diff": window_diff,
}
#: the similarities: f(a, b) = f(b, a) (Fournier 2013's edit distance is symmetric) and 1 for
#: identical segmentations; Pk and WindowDiff are penalties, 0 for identical segmentations
SIMILARITIES = ("boundary_similarity", "segmentation_similarity")


@dataclass(repr=False)
class PairwiseMeans:
    """:data:`PAIR_METRICS` over a corpus. ``matrices[k][i, j]``: mean of metric k with coder
    i as hypothesis and coder j as reference over the documents both segmented (nan where they
    share none; the diagonal is the value of identical segmentations for coders who share a
    document); ``per_coder[k][i]``: coder i's mean against all others, both directions;
    ``mean[k]``: the mean over all ``pairs`` ordered (document, coder pair) comparisons, which
    is segeval's mean with ``permuted=True``; ``per_document[d][k]``: the same mean within
    document d (documents with two or more coders)."""

    coders: list[str]
    shared_documents: np.ndarray
    matrices: dict[str, np.ndarray]
    per_coder: dict[str, np.ndarray]
    mean: dict[str, float]
    pairs: int
    per_document: dict[str, dict[str, float]]

    def __repr__(self) -> str:
        means = ", ".join(f"{k}={v:.4f}" for k, v in self.mean.items())
        return f"PairwiseMeans({len(self.coders)} coders, {self.pairs} pairs: {means})"


def pairwise_means(documents: Mapping[str, Mapping[str, Masses]], coders: Sequence[str],
                   progress: Callable[[int, int], None] | None = None) -> PairwiseMeans:
    """B, S (Fournier 2013), Pk (Beeferman et al. 1999) and WindowDiff (Pevzner & Hearst
    2002) of every coder pair on every document (``documents[d][coder]`` = masses), averaged
    as :class:`PairwiseMeans` says. ``progress(done, total)`` is called after each document."""
    index = {c: i for i, c in enumerate(coders)}
    C = len(coders)
    sums = {k: np.zeros((C, C)) for k in PAIR_METRICS}
    counts = np.zeros((C, C))
    per_doc: dict[str, dict[str, float]] = {}
    for n, (doc, segs) in enumerate(documents.items()):
        present = [(index[c], m) for c, m in segs.items()]
        doc_sum = dict.fromkeys(PAIR_METRICS, 0.0)
        for a, (i, mi) in enumerate(present):
            for j, mj in present[a + 1:]:
                counts[i, j] += 1
                counts[j, i] += 1
                for k, fn in PAIR_METRICS.items():
                    v = fn(mi, mj)
                    w = v if k in SIMILARITIES else fn(mj, mi)
                    sums[k][i, j] += v
                    sums[k][j, i] += w
                    doc_sum[k] += v + w
        pairs = len(present) * (len(present) - 1)
        if pairs:
            per_doc[doc] = {k: v / pairs for k, v in doc_sum.items()}
        if progress is not None:
            progress(n + 1, len(documents))
    seen = counts.sum(1) > 0
    both = counts.sum(0) + counts.sum(1)
    total = counts.sum()
    matrices, per_coder = {}, {}
    for k in PAIR_METRICS:
        m = divide(sums[k], counts)
        np.fill_diagonal(m, np.where(seen, 1.0 if k in SIMILARITIES else 0.0, np.nan))
        matrices[k] = m
        per_coder[k] = divide(sums[k].sum(0) + sums[k].sum(1), both)
    mean = {k: float(sums[k].sum() / total) if total else float("nan") for k in PAIR_METRICS}
    return PairwiseMeans(list(coders), counts.astype(np.int64), matrices, per_coder, mean,
                         int(total), per_doc)


def boundary_rates(boundaries: ReliabilityData) -> list[dict]:
    """Each coder's boundary rate (boundaries / potential boundaries judged) against the other
    coders' pooled rate on the same potential boundaries, and their ratio (> 1: the coder
    segments more finely); ``boundaries`` labels potential boundaries with 0 = no boundary, as
    :func:`corpusagree.convert.segments.boundaries` does (Passonneau & Litman 1993)."""
    J = (boundaries.codes >= 0).astype(np.int64)
    M = (boundaries.codes > 0).astype(np.int64)
    judged, marked = J.sum(1), M.sum(1)
    others_j = J @ J.sum(0) - judged
    others_m = J @ M.sum(0) - marked
    docs = np.zeros((boundaries.n_coders, len(boundaries.group_names)), bool)
    rows, cols = np.nonzero(J)
    docs[rows, boundaries.groups[cols]] = True
    with np.errstate(invalid="ignore", divide="ignore"):
        rate, others = marked / judged, others_m / others_j
        ratio = rate / others
    return [{"coder": name, "documents": int(docs[c].sum()), "positions": int(judged[c]),
             "boundaries": int(marked[c]), "rate": float(rate[c]),
             "others_rate": float(others[c]), "ratio": float(ratio[c])}
            for c, name in enumerate(boundaries.coders)]


__all__ = ["PAIR_METRICS", "SIMILARITIES", "BoundaryEdits", "Masses", "Metric", "PairwiseMeans",
           "boundary_edit_distance", "boundary_rates", "boundary_similarity", "pairwise_means",
           "pk", "segmentation_similarity", "window_diff", "window_size"]
