"""``corpusagree``: the command line. It parses options and wires readers, analyses and
renderers together; it computes nothing itself.

A user's mistake prints one line ``file:line: message`` on standard error and exits with
status 2; a closed pipe (``| head``) ends quietly with status 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import warnings
from collections.abc import Sequence
from importlib import import_module

from .._version import __version__
from ..model.errors import InputError

#: the jobs, in the order of the help: one module each (``corpusagree.cli.<job>``) with
#: register(subparsers), and the line the help shows for it (held to the job's own by
#: tests/cli/test_help.py), so that ``corpusagree --help`` needs no job imported
SUMMARIES = {
    "table": "every coefficient of a reliability-data file (CSV/TSV)",
    "annotators": "who to trust: models of the annotators, the alt-test of a model",
    "coref": "coreference agreement: α/β over chains, κ on antecedents, MUC/B³/...",
    "markables": "MMAX2 markable agreement: spans per level, attribute values",
    "segments": "agreement between segmentation annotators",
    "senses": "word-sense agreement: fine, coarse, extended and multi-sense schemes",
    "spans": "span agreement without pre-set units: unitizing α and γ",
    "trees": "agreement on RST trees (rs3/rs4, .dis)",
    "relations": "agreement on relations between spans (brat, XMI, WebAnno TSV, DISRPT .rels)",
    "report": "every job on a folder whose sub-folders each hold one job's data",
    "schema": "the JSON Schema of the report that --json writes",
}


def __getattr__(name: str):
    """``JOBS``: the job modules, each with register(subparsers), imported when asked for
    (``schema`` prints the JSON Schema of the reports the others write)."""
    if name == "JOBS":
        return tuple(import_module(f".{job}", __name__) for job in SUMMARIES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Formatter(argparse.HelpFormatter):
    """argparse's help, within the terminal's width: an option with many choices is shown with
    a name (``--distance DISTANCE``) in the usage and in the list of options, and its choices
    at the end of its help, where they wrap (``{dice,interval,irr-bipolar,…}`` is one word
    that argparse cannot break)."""

    #: choices longer than this, joined by commas, are listed in the help instead
    LONG = 30

    @classmethod
    def _many(cls, action: argparse.Action) -> bool:
        return action.metavar is None and action.choices is not None and \
            len(",".join(map(str, action.choices))) > cls.LONG

    def _metavar_formatter(self, action, default_metavar):
        if self._many(action):
            name = action.dest.upper().replace("_", "-")
            return lambda size: (name,) * size
        return super()._metavar_formatter(action, default_metavar)

    def _get_help_string(self, action):
        text = super()._get_help_string(action) or ""
        if self._many(action):
            text += f"; one of: {', '.join(map(str, action.choices))}"
        return text

    def _split_lines(self, text, width):
        # as argparse, without breaking a name at its hyphen (irr-quadratic)
        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width,
                             break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """argparse with a user's mistake on one line: ``corpusagree JOB: argument --seed:
    expected an integer ≥ 0, not '-1' (corpusagree JOB --help)``, exit status 2; help in
    :class:`Formatter`."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} ({self.prog} --help)\n")


def build_parser(jobs: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; without ``jobs``, only the list of jobs (what ``corpusagree
    --help`` shows, without importing a job)."""
    p = Parser(
        prog="corpusagree", description="Agreement on structured corpus annotation: "
        "coreference chains, segments, word senses (α, β, κ, π, …).")
    p.add_argument("--version", action="version", version=f"corpusagree {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="JOB", parser_class=Parser)
    for name, summary in SUMMARIES.items():
        if jobs:
            import_module(f".{name}", __name__).register(sub)
        else:
            sub.add_parser(name, help=summary)
    return p


#: arguments that need only the list of jobs
_TOP = ([], ["-h"], ["--help"], ["--version"])


def _warn_one_line(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status (0, 2 for a user's mistake, 130 on Ctrl-C)."""
    top = list(sys.argv[1:] if argv is None else argv) in _TOP
    try:
        args = build_parser(jobs=not top).parse_args(argv)
    except SystemExit as e:  # --help, --version, or a mistake argparse has printed
        return e.code if isinstance(e.code, int) else 2
    with warnings.catch_warnings():  # each run shows its warnings, one line each
        warnings.simplefilter("default")
        warnings.showwarning = _warn_one_line
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from . import options as opt

    try:
        opt.html_defaults(args)
        return args.func(args)
    except InputError as e:
        print(str(e), file=sys.stderr)
        return 2
    except FileNotFoundError as e:
        print(f"{e.filename}: no such file", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader of our output went away (| head): stop quietly, and keep Python from
        # failing again when it flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
