"""``corpusagree``: the command line. It parses options and wires readers, analyses and
renderers together; it computes nothing itself.

A user's mistake prints one line ``file:line: message`` on standard error and exits with
status 2; a closed pipe (``| head``) ends quietly with status 0.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import importlib.util
import os
import re
import sys
import textwrap
import warnings
from collections.abc import Callable, Sequence
from functools import partial
from types import ModuleType

from .._version import __version__
from ..analyses import jobs
from ..model.errors import InputError
from . import compare, plan, report, schema
from . import job as made
from . import options as opt

# ``corpusagree --help`` (and ``import corpusagree.cli``) must stay light (≤ 0.3 s,
# benchmarks/startup.py): the modules imported here import nothing heavy at their top, and
# :func:`main` builds a sub-command's options only when it is chosen (:class:`Commands`).

__all__ = ["COMMANDS", "JOBS", "Commands", "build_parser", "commands", "flags", "in_flags", "main",
           "unrecognized"]

#: the commands that are not jobs of :mod:`corpusagree.analyses`: ``compare`` and ``plan``
#: (study design), ``report`` runs every job on a study folder, ``schema`` prints the JSON
#: Schema of the reports the others write
COMMANDS = (compare, plan, report, schema)


def _command(name: str) -> ModuleType | None:
    """The module of this package with the job's own sub-command, or None (then the
    sub-command is made from the job's registration, :mod:`corpusagree.cli.job`)."""
    if importlib.util.find_spec(f"{__name__}.{name}") is None:
        return None
    return importlib.import_module(f"{__name__}.{name}")


def commands() -> dict[str, ModuleType | jobs.Job]:
    """Every sub-command, name → its module here (with ``register`` and ``run``), or the
    job's registration when it has none; the registered jobs in their order, then
    :data:`COMMANDS`."""
    out: dict[str, ModuleType | jobs.Job] = {
        name: _command(name) or job for name, job in jobs.registered().items()}
    out.update((m.__name__.rpartition(".")[2], m) for m in COMMANDS)
    return out


def _builders() -> dict[str, tuple[str, Callable[[argparse._SubParsersAction], None]]]:
    """Every sub-command, name → (its line in ``corpusagree --help``, what adds its parser
    to the sub-parsers), in the order of :func:`commands`, without importing any job."""
    out = {}
    for name, job in jobs.listed().items():
        out[name] = (job.help, partial(_add_job, name))
    out.update((m.__name__.rpartition(".")[2], (m.HELP, m.register)) for m in COMMANDS)
    return out


def _add_job(name: str, sub: argparse._SubParsersAction) -> None:
    command = _command(name)
    if command is None:
        made.register(sub, jobs.get(name))
    else:
        command.register(sub)


def __getattr__(name: str):
    if name == "JOBS":  # the modules of the sub-commands that have one, in order
        return tuple(m for m in commands().values() if isinstance(m, ModuleType))
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


class Commands(argparse._SubParsersAction):
    """argparse's sub-commands, of which some are added as a name and a line of help, and
    built (their module imported, their options added) only when the command line chooses
    them: ``corpusagree --help`` lists every job without importing one."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._pending: dict[str, Callable[[argparse._SubParsersAction], None]] = {}

    def add_pending(self, name: str, help: str,
                    build: Callable[[argparse._SubParsersAction], None]) -> None:
        """The sub-command ``name``, its parser made by ``build(self)`` when it is chosen."""
        self.add_parser(name, help=help)
        self._pending[name] = build

    def build(self, name: str) -> None:
        """Make the parser of ``name`` if it is still pending (in its place in the help)."""
        build = self._pending.pop(name, None)
        if build is None:
            return
        del self._name_parser_map[name]
        at = next(i for i, a in enumerate(self._choices_actions) if a.dest == name)
        del self._choices_actions[at]
        build(self)
        self._choices_actions.insert(at, self._choices_actions.pop())

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        self.build(values[0])
        super().__call__(parser, namespace, values, option_string)


def build_parser(*, lazy: bool = False) -> argparse.ArgumentParser:
    """The command line's parser, every sub-command's options built (``lazy``: a
    sub-command's options built when the command line chooses it, as :func:`main` does).

    Returns
    -------
    argparse.ArgumentParser
    """
    p = Parser(
        prog="corpusagree", description="Agreement on structured corpus annotation: "
        "coreference chains, segments, word senses (α, β, κ, π, …).")
    p.add_argument("--version", action="version", version=f"corpusagree {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="JOB", parser_class=Parser,
                           action=Commands)
    for name, (help, build) in _builders().items():
        if lazy:
            sub.add_pending(name, help, build)
        else:
            build(sub)
    return p


def unrecognized(parser: argparse.ArgumentParser, extra: Sequence[str]) -> None:
    """Exit through ``parser`` (a job's: ``corpusagree JOB --help``) on arguments it does not
    know, suggesting the nearest of its options (``--sed``: ``--seed``)."""
    known = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    near = [m for x in extra if x.startswith("-")
            for m in difflib.get_close_matches(x.split("=")[0], known, n=1, cutoff=0.6)]
    hint = f"; did you mean {' or '.join(dict.fromkeys(near))}?" if near else ""
    parser.error(f"unrecognized arguments: {' '.join(extra)}{hint}")


def _warn_one_line(message, category, filename, lineno, file=None, line=None, *,
                   names: dict[str, str]) -> None:
    print(f"warning: {in_flags(str(message), names)}", file=sys.stderr)


def flags(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each keyword of the Python API → the flag that gives it on the command line, as the
    parser of a sub-command declares them (``input_format`` → ``--input-format``; a reader
    option's keyword, ``levels``, → ``--levels``)."""
    out = {}
    for action in parser._actions:
        long = [o for o in action.option_strings if o.startswith("--")]
        if long and action.dest not in ("help", "version"):
            out[action.dest.removeprefix("reader_")] = long[0]
    for dest, keyword in _KEYWORDS_OF.items():
        if dest in out:
            out.setdefault(keyword, out[dest])
    return out


#: the keyword of the Python API an option gives under another name (its ``dest``):
#: ``--ci`` makes the ``bootstrap``, each ``--inventory`` is one of the ``inventories``
_KEYWORDS_OF = {"ci": "bootstrap", "inventory": "inventories"}

#: a keyword as the layers below the command line write it: ``name=value``, ``name=True``
#: or a list, ``name=[a, b]`` (given on the command line as ``--name a,b``)
_KEYWORD = re.compile(r"(?<![\w.-])([a-z][a-z0-9_]*)=(True\b|\[[^\]]*\])?")

#: an item of a list in a message, quoted as Python quotes it (``'a'``) or not
_ITEM = re.compile(r"""\s*(?:'([^',]*)'|"([^",]*)"|([^,]+))""")


def in_flags(message: str, names: dict[str, str]) -> str:
    """A message in the command line's words: every ``keyword=value`` of a keyword the
    command has (``names``, from :func:`flags`) becomes ``--flag value`` (``--flag`` for
    ``keyword=True``); the mapping is made here once, at the edge, and the layers below
    write Python's words.

    >>> in_flags("give local_coders=True or coder_map=FILE, not both",
    ...          {"local_coders": "--local-coders", "coder_map": "--coder-map"})
    'give --local-coders or --coder-map FILE, not both'
    >>> in_flags("name one with layers=['Claim', 'Premise']", {"layers": "--layers"})
    'name one with --layers Claim,Premise'
    """
    def flag(m: re.Match) -> str:
        name = names.get(m.group(1))
        if name is None:
            return m.group(0)
        value = m.group(2)
        if value is None:
            return f"{name} "
        if value == "True":
            return name
        items = (next(g for g in i.groups() if g is not None).strip()
                 for i in _ITEM.finditer(value[1:-1]))
        return f"{name} {','.join(items)}"

    return _KEYWORD.sub(flag, message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status (0, 2 for a user's mistake, 130 on Ctrl-C)."""
    if list(sys.argv[1:] if argv is None else argv) == ["--version"]:
        print(f"corpusagree {__version__}")  # without building the jobs' parsers
        return 0
    parser = build_parser(lazy=True)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # said by the job's parser: its help, and the option meant
            unrecognized(sub.choices[args.command], extra)
    except SystemExit as e:  # --help, --version, or a mistake argparse has printed
        return e.code if isinstance(e.code, int) else 2
    names = flags(sub.choices[args.command])
    with warnings.catch_warnings():  # each run shows its warnings, one line each
        warnings.simplefilter("default")
        warnings.showwarning = partial(_warn_one_line, names=names)
        return _run(args, names)


def _run(args: argparse.Namespace, names: dict[str, str]) -> int:
    args.in_flags = partial(in_flags, names=names)  # for the reports' notes (opt.emit)
    try:
        page = opt.html_args(args)
        if page is not None:  # the page's analysis, then the one the terminal shows
            page.func(page)
        return args.func(args)
    except InputError as e:
        print(in_flags(str(e), names), file=sys.stderr)
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
