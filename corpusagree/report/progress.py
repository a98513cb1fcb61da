"""Progress on standard error: a bar for long loops and a spinner for long reads, shown only
on a terminal (never in a pipe, nor with ``--quiet``) and only once the work has taken more
than a second (``CORPUSAGREE_PROGRESS_DELAY`` in the environment sets another delay, in
seconds). The analyses take ``progress(done, total)`` callbacks
(:mod:`corpusagree.model.progress`) and never import this module."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console

__all__ = ["LazyProgress", "spinner"]


def _delay() -> float:
    """Seconds before progress shows: ``CORPUSAGREE_PROGRESS_DELAY``, else 1."""
    try:
        return max(0.0, float(os.environ.get("CORPUSAGREE_PROGRESS_DELAY", "1")))
    except ValueError:
        return 1.0


def _console() -> Console:
    return Console(stderr=True, highlight=False)


class LazyProgress:
    """A transient progress bar on stderr that appears once the work has taken more than
    ``delay`` seconds, when enabled (default: stderr is a terminal), whether or not progress
    was reported by then (a timer shows it; the bar pulses until a total is known).
    ``update(done, total)`` is the callback the analyses take; :meth:`describe` names the part
    being done. Use it as a context manager, or :meth:`close` it."""

    def __init__(self, what: str, total: int = 0, enabled: bool | None = None,
                 delay: float | None = None) -> None:
        self.what, self.total, self.done = what, total, 0
        delay = _delay() if delay is None else delay
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.bar = self.task = None
        self._lock = threading.Lock()
        self._closed = False
        self._timer = threading.Timer(delay, self._show) if self.enabled else None
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()

    def _show(self) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        with self._lock:
            if self._closed or self.bar is not None:
                return
            self.bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                MofNCompleteColumn(), TimeElapsedColumn(), console=_console(),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.what, total=self.total or None,
                                          completed=self.done)

    def describe(self, what: str) -> None:
        """Say what is being done now (the bar's label), e.g. the part of a long job."""
        with self._lock:
            self.what = what
            if self.bar is not None:
                self.bar.update(self.task, description=what)

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` steps of ``total`` (or of the total given before)."""
        with self._lock:
            self.done = done
            if total is not None:
                self.total = total
            if self.bar is not None:
                self.bar.update(self.task, completed=self.done, total=self.total or None)

    def advance(self) -> None:
        """One more step done."""
        self.update(self.done + 1)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            if self.bar is not None:
                self.bar.stop()
                self.bar = None

    def __enter__(self) -> LazyProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@contextmanager
def spinner(what: str, enabled: bool | None = None) -> Iterator[None]:
    """A spinner with the elapsed time on stderr while a reader works (terminal only, unless
    ``enabled`` says otherwise)."""
    if not (sys.stderr.isatty() if enabled is None else enabled):
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), what, TimeElapsedColumn(), console=_console(),
                  transient=True) as bar:
        bar.add_task("", total=None)
        yield
