"""Pairwise span F1 between annotators (Hripcsak & Rothschild 2005).

For annotators a and b, ``F1 = 2·matched / (n_a + n_b)``: ``matched`` counts the aligned
spans (items) both marked, ``n_a`` the spans of a in the documents b annotated too. F1 is
symmetric and needs no chance model; it is the agreement of two annotators on *where* the
units are, which α and κ on token presence measure with chance correction (Artstein & Poesio
2008, §2.3–2.4). Every pair at once, from two matrix products.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .ratios import divide


@dataclass
class SpanF1:
    """Annotators × annotators: ``f1[a, b] = 2·matched[a, b] / (n[a, b] + n[b, a])`` with
    ``n[a, b]`` the spans of ``a`` in the documents ``b`` also annotated (nan when neither has
    one)."""

    matched: np.ndarray
    n: np.ndarray
    f1: np.ndarray

    @property
    def mean(self) -> float:
        """Mean F1 over the annotator pairs with spans (nan if none)."""
        r, s = np.triu_indices(len(self.f1), 1)
        vals = self.f1[r, s]
        return float(np.nanmean(vals)) if (~np.isnan(vals)).any() else float("nan")

    def pairs(self) -> list[tuple[int, int]]:
        """The annotator pairs (a, b), a < b, in order."""
        r, s = np.triu_indices(len(self.f1), 1)
        return list(zip(r.tolist(), s.tolist(), strict=True))


def span_f1(annotator: np.ndarray, item: np.ndarray, counts: np.ndarray,
            annotated: np.ndarray) -> SpanF1:
    """:class:`SpanF1` of spans aligned into items: span s is ``annotator[s]``'s and lies on
    item ``item[s]`` (at most one span per annotator and item); ``counts[a, d]`` is the number
    of spans of annotator a in document d and ``annotated[a, d]`` whether a annotated d."""
    C = len(annotated)
    _, local = np.unique(item, return_inverse=True)
    present = np.zeros((C, int(local.max(initial=-1)) + 1))
    present[annotator, local] = 1
    matched = present @ present.T
    n = counts.astype(float) @ annotated.T.astype(float)
    return SpanF1(matched.astype(np.int64), n.astype(np.int64), divide(2 * matched, n + n.T))


__all__ = ["SpanF1", "span_f1"]
