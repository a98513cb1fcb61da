"""Writing an output file, written once: every way the file system can refuse it (no space left
on the device, a name longer than it allows, an input/output error, a folder or a file that
may not be written in the way) is an :class:`~corpusagree.model.errors.InputError` naming the
path — one line, exit status 2 on the command line — never a traceback.

:func:`opened` is the stream a renderer writes on (errors at opening, writing, flushing and
closing alike); :func:`write_text` writes a text whole.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike
from pathlib import Path
from typing import TextIO

from ..model.errors import InputError

__all__ = ["opened", "write_text"]


def _error(e: OSError, path: Path) -> InputError:
    return InputError(f"cannot write: {e.strerror or e}", path)


@contextmanager
def opened(path: str | PathLike, *, newline: str = "") -> Iterator[TextIO]:
    """``path`` opened for writing UTF-8 text; an OSError while opening, writing or closing
    it becomes an InputError naming the path (``/dev/full``: ``cannot write: No space left on
    device``), and a folder is refused before anything is written.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with opened(Path(folder) / "out.txt") as fh:
    ...     _ = fh.write("kappa 0.8\\n")
    >>> with opened(folder) as fh:
    ...     pass
    Traceback (most recent call last):
    ...
    corpusagree.model.errors.InputError: ...: is a folder: give a file name
    """
    p = Path(path)
    if os.path.isdir(p):  # False for a name the system refuses (too long …): open says why
        raise InputError("is a folder: give a file name", p)
    try:
        fh = open(p, "w", encoding="utf-8", newline=newline)  # noqa: SIM115 (closed below)
    except OSError as e:
        raise _error(e, p) from None
    except ValueError:  # a NUL in the name
        raise InputError("cannot write: a NUL character in the file name", p) from None
    try:
        with fh:
            yield fh
    except OSError as e:
        raise _error(e, p) from None


def write_text(path: str | PathLike, text: str, *, newline: str = "") -> Path:
    """Write ``text`` to ``path`` (UTF-8) through :func:`opened`; the path.

    Examples
    --------
    >>> import tempfile
    >>> out = write_text(Path(tempfile.mkdtemp()) / "t.csv", "a,b\\n")
    >>> out.read_text()
    'a,b\\n'
    >>> write_text(os.devnull + "/x", "")
    Traceback (most recent call last):
    ...
    corpusagree.model.errors.InputError: /dev/null/x: cannot write: Not a directory
    """
    p = Path(path)
    with opened(p, newline=newline) as fh:
        fh.write(text)
    return p
