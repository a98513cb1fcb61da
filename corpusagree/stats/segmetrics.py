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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from ..model.errors import InputError

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

#: metric names accepted by :func:`pairwise_matrix`.
METRICS: dict[str, Metric] = {
    "pk": pk,
    "window_diff": window_diff,
    "windowdiff": window_diff,
    "b": boundary_similarity,
    "boundary_similarity": boundary_similarity,
    "s": segmentation_similarity,
    "segmentation_similarity": segmentation_similarity,
}


def pairwise_matrix(segmentations: Mapping[str, Masses],
                    metric: str | Metric) -> tuple[list[str], np.ndarray]:
    """All ordered coder pairs of one document: ``M[i, j] = metric(seg[i], seg[j])``.

    For Pk and WindowDiff the row coder is the hypothesis and the column coder the reference.
    ``metric`` is a callable on two mass sequences or a name in :data:`METRICS`.
    """
    if isinstance(metric, str):
        try:
            metric = METRICS[metric.lower()]
        except KeyError:
            raise InputError(f"unknown metric {metric!r}; known: {', '.join(METRICS)}") from None
    coders = list(segmentations)
    matrix = np.empty((len(coders), len(coders)))
    for i, ci in enumerate(coders):
        for j, cj in enumerate(coders):
            matrix[i, j] = metric(segmentations[ci], segmentations[cj])
    return coders, matrix
