"""Progress on standard error: a bar for long loops and a spinner for long reads, shown only
on a terminal and only once the work has taken more than a second. The analyses take
``progress(done, total)`` callbacks and never import this module."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console


def _console() -> Console:
    return Console(stderr=True, highlight=False)


class LazyProgress:
    """A transient progress bar on stderr that appears once the work has taken more than
    ``delay`` seconds, when enabled (default: stderr is a terminal). ``update(done, total)``
    is the callback the analyses take."""

    def __init__(self, what: str, total: int = 0, enabled: bool | None = None,
                 delay: float = 1.0) -> None:
        self.what, self.total, self.done = what, total, 0
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.delay, self.start = delay, time.perf_counter()
        self.bar = self.task = None

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` steps of ``total`` (or of the total given at creation)."""
        self.done = done
        if total is not None:
            self.total = total
        if self.bar is None and self.enabled and time.perf_counter() - self.start > self.delay:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            self.bar = Progress(self.what, BarColumn(), MofNCompleteColumn(),
                                TimeRemainingColumn(), console=_console(), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("", total=self.total)
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done, total=self.total)

    def advance(self) -> None:
        """One more step done."""
        self.update(self.done + 1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()

    def __enter__(self) -> LazyProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@contextmanager
def spinner(what: str) -> Iterator[None]:
    """A spinner with the elapsed time on stderr while a reader works (terminal only)."""
    if not sys.stderr.isatty():
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), what, TimeElapsedColumn(), console=_console(),
                  transient=True) as bar:
        bar.add_task("", total=None)
        yield
