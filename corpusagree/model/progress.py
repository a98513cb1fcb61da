"""Progress as a callback handed down: ``progress(done, total)``, called as work advances.

The analyses, the bootstrap and the readers call it; the command line hands down one that
draws a bar on a terminal (:mod:`corpusagree.report.progress`). No layer imports the renderer.
:class:`Stages` splits one callback over consecutive stages of known sizes, so that a job with
several parts (three bootstraps, then the scores per document) counts one whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: ``progress(done, total)``: ``done`` steps of ``total`` are finished
Progress = Callable[[int, int], None]


class Stages:
    """One ``progress(done, total)`` over consecutive stages of known ``sizes``: stage ``k``'s
    callback reports its own ``done`` as steps of the whole. A stage whose callback is given a
    ``total`` other than its size takes that size (a stage that learns how much work it has
    as it goes, such as γ's sampled continua), and the whole grows or shrinks with it.

    Examples
    --------
    >>> seen = []
    >>> stages = Stages(lambda done, total: seen.append((done, total)), [10, 5])
    >>> first, second = stages.next(), stages.next()
    >>> first(10, 10); second(2, 5)
    >>> seen
    [(10, 15), (12, 15)]
    >>> second(3, 8)                  # the second stage has 8 steps, not 5
    >>> seen[-1]
    (13, 18)
    >>> Stages(None, [3]).next() is None
    True
    """

    def __init__(self, progress: Progress | None, sizes: Sequence[int]) -> None:
        self.progress = progress
        self.sizes = [int(s) for s in sizes]
        self.started = 0

    @property
    def total(self) -> int:
        """The steps of every stage."""
        return sum(self.sizes)

    def next(self) -> Progress | None:
        """The callback of the next stage (None when there is no progress to report to)."""
        k = self.started
        self.started += 1
        if k >= len(self.sizes):
            self.sizes.append(0)
        if self.progress is None:
            return None
        progress, sizes = self.progress, self.sizes

        def report(done: int, total: int | None = None) -> None:
            if total is not None:
                sizes[k] = int(total)
            progress(sum(sizes[:k]) + min(int(done), sizes[k]), sum(sizes))

        return report

    def skip(self) -> None:
        """Pass over the next stage (work that did not need doing)."""
        cb = self.next()
        if cb is not None:
            cb(10**18)


__all__ = ["Progress", "Stages"]
