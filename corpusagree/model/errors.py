"""The one exception type for user mistakes in input files and arguments.

The CLI prints ``str(error)`` (``file:line: message``) on one line and exits with status 2;
library callers catch :class:`InputError` (a ``ValueError``).
"""

from __future__ import annotations

from os import PathLike


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
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        where = ""
        if self.path is not None:
            where = self.path + (f":{line}" if line is not None else "") + ": "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(where + message)
