"""The one exception type for user mistakes in input files and arguments, and the collector
that lets a reader report every problem of a read at once.

The CLI prints ``str(error)`` and exits with status 2: ``file:line: message`` on one line for
one problem; for several (:class:`InputErrors`), one such line per problem, at most
:data:`LIMIT` of them, then ``and N more problems``. Library callers catch :class:`InputError`
(a ``ValueError``), whose ``message``, ``path`` and ``line`` are those of the first problem.

A reader collects with :class:`Problems`::

    problems = Problems()
    for n, line in enumerate(lines, 1):
        with problems.collect():       # an InputError raised here is kept; the loop goes on
            parse(line, n)
    problems.check()                   # raises the one error, or InputErrors, if any

Examples
--------
>>> problems = Problems(limit=2)
>>> for n in (3, 5, 8):
...     with problems.collect():
...         raise InputError("not a number", "a.csv", n)
>>> print(problems.error())
a.csv:3: not a number
a.csv:5: not a number
and 1 more problem
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike

#: problems one read lists before it says how many more it found
LIMIT = 50
#: characters of the input a message quotes at most
QUOTE = 80


def quote(value: object, limit: int = QUOTE) -> str:
    """``repr(value)`` for a message, at most about ``limit`` characters of it: a longer text
    is cut with ``…`` (a 10 MB line is not echoed whole).

    >>> print(quote("qu'ils"))
    "qu'ils"
    >>> quote("x" * 100, limit=5)
    "'xxxxx'…"
    """
    if isinstance(value, str):
        return repr(value) if len(value) <= limit else repr(value[:limit]) + "…"
    text = repr(value)
    return text if len(text) <= limit + 2 else text[:limit] + "…"


def clip(text: str, limit: int = QUOTE) -> str:
    """``text`` as it is, cut to ``limit`` characters with ``…``: names and numbers printed
    bare in a message (an id, offsets).

    >>> clip("T12"), clip("T" * 100, limit=3)
    ('T12', 'TTT…')
    """
    return text if len(text) <= limit else text[:limit] + "…"


def listing(names, limit: int = 10) -> str:
    """Names from the data listed in a message: each cut by :func:`clip`, the first
    ``limit`` of them, then how many more (a 10 MB name or 10,000 names are not echoed).

    >>> listing(["sentiment", "topic", "stance"], limit=2)
    'sentiment, topic, and 1 more'
    >>> len(listing(["x" * 10**7]))
    81
    """
    names = [str(n) for n in names]
    shown = ", ".join(clip(n) for n in names[:limit])
    return shown + (f", and {len(names) - limit:,} more" if len(names) > limit else "")


#: the characters that end a line for :meth:`str.splitlines` (and so for a reader of the
#: message), each written as its escape
_LINE_BREAKS = {ord(c): repr(c)[1:-1] for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}


def one_line(text: str) -> str:
    """``text`` with every character that would break its line escaped: a file or zip member
    named with a control character still gives a one-line message.

    >>> print(one_line("ann\\x1ctation/a.xmi"))
    ann\\x1ctation/a.xmi
    """
    return text.translate(_LINE_BREAKS)


class InputError(ValueError):
    """Bad input that the user can fix: names the file, the line or element, and the problem.

    The command line prints ``str(error)`` on one line (``file:line: message``) and exits with
    status 2; in Python it is a ``ValueError``.

    Parameters
    ----------
    message : str
        What is wrong.
    path : str or path-like, optional
        The file.
    line : int or str, optional
        The line (or element) in it.

    Examples
    --------
    >>> from corpusagree import InputError
    >>> str(InputError("duplicate judgement by coder 'ann' on item 'u1'", "acts.csv", 12))
    "acts.csv:12: duplicate judgement by coder 'ann' on item 'u1'"
    """

    def __init__(self, message: str, path: str | PathLike | None = None,
                 line: int | str | None = None) -> None:
        self.message = one_line(message)
        self.path = None if path is None else one_line(str(path))
        self.line = line
        super().__init__(self.where + self.message)

    @property
    def where(self) -> str:
        """``file:line: `` (or ``file: ``, ``line N: ``, nothing) before the message."""
        if self.path is not None:
            return self.path + (f":{self.line}" if self.line is not None else "") + ": "
        if self.line is not None:
            return f"line {self.line}: "
        return ""


class InputErrors(InputError):
    """Several problems of one read: ``str()`` is one ``file:line: message`` line per problem
    (the first :data:`LIMIT`), then ``and N more problems``; ``message``, ``path`` and ``line``
    are the first problem's."""

    def __init__(self, errors: Sequence[InputError], more: int = 0) -> None:
        if not errors:
            raise ValueError("InputErrors needs at least one error")
        self.errors = list(errors)
        self.more = more
        first = self.errors[0]
        self.message, self.path, self.line = first.message, first.path, first.line
        lines = [str(e) for e in self.errors]
        if more:
            lines.append(f"and {more:,} more problem{'s' if more > 1 else ''}")
        ValueError.__init__(self, "\n".join(lines))

    def __len__(self) -> int:
        return len(self.errors) + self.more


class Problems:
    """The problems of one read, kept in the order found: the first ``limit`` in full, the
    rest counted (see the module docstring)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.errors: list[InputError] = []
        self.more = 0
        self._seen: set[str] = set()
        # a problem of a whole file (no line) met again in other files: its index, how often
        self._files: dict[str, list[int]] = {}

    def __len__(self) -> int:
        return len(self.errors) + self.more

    def __bool__(self) -> bool:
        return len(self) > 0

    def add(self, error: InputError) -> None:
        """Keep ``error`` (each problem of an :class:`InputErrors`). A problem said already
        (the same file given twice) is not said again; the same problem of a whole file in
        other files is said once, with how many other files have it."""
        found = error.errors if isinstance(error, InputErrors) else [error]
        for e in found:
            text = str(e)
            if text in self._seen:
                continue
            self._seen.add(text)
            if e.line is None and e.path is not None:
                same = self._files.get(e.message)
                if same is not None:
                    same[1] += 1
                    continue
                if len(self.errors) < self.limit:
                    self._files[e.message] = [len(self.errors), 0]
            if len(self.errors) < self.limit:
                self.errors.append(e)
            else:
                self.more += 1
        if isinstance(error, InputErrors):
            self.more += error.more

    def collect(self) -> _Collect:
        """A block whose InputError is kept instead of ending the read.

        A plain context manager object rather than ``contextlib.contextmanager``: readers enter
        one per line, and a generator per line took a quarter of an OntoNotes read."""
        return _Collect(self)

    def error(self) -> InputError | None:
        """The one problem, every problem as :class:`InputErrors`, or None."""
        if not self:
            return None
        errors = list(self.errors)
        for k, others in self._files.values():
            if others:
                e = errors[k]
                errors[k] = InputError(f"{e.message} (and {others} other file(s))", e.path)
        if len(errors) == 1 and not self.more:
            return errors[0]
        return InputErrors(errors, self.more)

    def check(self) -> None:
        """Raise :meth:`error` if any problem was found."""
        error = self.error()
        if error is not None:
            raise error


class _Collect:
    """The block of :meth:`Problems.collect`: an InputError raised in it is added to the
    problems and the read goes on."""

    __slots__ = ("problems",)

    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, traceback) -> bool:
        if kind is not None and issubclass(kind, InputError):
            self.problems.add(error)
            return True
        return False


__all__ = ["LIMIT", "QUOTE", "InputError", "InputErrors", "Problems", "clip", "listing", "one_line",
           "quote"]
