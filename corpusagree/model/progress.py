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
    callback reports its own ``done`` as steps of the whole.

    Examples
    --------
    >>> seen = []
    >>> stages = Stages(lambda done, total: seen.append((done, total)), [10, 5])
    >>> first, second = stages.next(), stages.next()
    >>> first(10, 10); second(2, 5)
    >>> seen
    [(10, 15), (12, 15)]
    >>> Stages(None, [3]).next() is None
    True
    """

    def __init__(self, progress: Progress | None, sizes: Sequence[int]) -> None:
        self.progress = progress
        self.sizes = [int(s) for s in sizes]
        self.total = sum(self.sizes)
        self.done = 0

    def next(self) -> Progress | None:
        """The callback of the next stage (None when there is no progress to report to)."""
        size = self.sizes.pop(0) if self.sizes else 0
        offset, self.done = self.done, self.done + size
        if self.progress is None:
            return None
        progress, total = self.progress, self.total
        return lambda done, _total=None: progress(offset + min(int(done), size), total)

    def skip(self) -> None:
        """Pass over the next stage (work that did not need doing)."""
        cb = self.next()
        if cb is not None:
            cb(10**18)
