"""The options every job shares, with one name and one meaning everywhere.

* output: ``--format text|json|csv|md`` (``--json`` = ``--format json``), ``--output FILE``
  (a folder, for one CSV file per table), ``--quiet`` (no progress on the terminal);
* intervals: ``--ci [LEVEL]``, ``--resamples N``, ``--seed S`` (0: the same interval on every
  run), ``--interval percentile|bca``, ``--cluster`` (what the bootstrap resamples);
* ``--distance`` (repeatable, or comma-separated, where a job takes several), ``--by-document``,
  ``--diagnostics [N]``, ``--annotators a,b,...``;
* reader options, declared by each reader of the job's task (``--input-format`` picks one).

Numbers are checked where they are parsed: a negative ``--seed``, ``--resamples 0`` or ``--ci
1.5`` is an argparse error naming the option (exit 2), never an error blamed on a data file.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..model.errors import InputError

if TYPE_CHECKING:
    from ..model.params import Param
    from ..report.document import Report
    from ..report.progress import LazyProgress
    from ..stats.inference import Bootstrap

# What each function needs is imported in it: ``corpusagree --help`` imports this module
# (through the commands' modules) and builds no job's options, so it loads none of the
# readers, reports or statistics (numpy, scipy, rich …).

__all__ = ["DIAGNOSTICS", "add_annotators", "add_bootstrap", "add_by_document", "add_diagnostics",
           "add_distance", "add_ner_options", "add_output", "add_reader_options",
           "add_table_layout", "bootstrap_of", "character", "ci_level", "distances_of", "emit",
           "html_args", "html_defaults", "keyword", "nonnegative_float", "nonnegative_int",
           "output_stream", "positive_float", "positive_int", "progress", "reader_options_of",
           "reading", "resamples", "split"]

#: default number of costliest items listed by ``--diagnostics``
DIAGNOSTICS = 10


# ---- numbers checked where they are parsed ---------------------------------------------------
def _number(kind: type, test, what: str):
    """An argparse type: ``kind`` of the text, accepted when ``test`` holds (``what`` says
    what is expected, in the error argparse prints with the option's name)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None
        if not test(value):
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}")
        return value

    parse.__name__ = what  # argparse names the type by it in some messages
    return parse


nonnegative_int = _number(int, lambda v: v >= 0, "an integer ≥ 0")
positive_int = _number(int, lambda v: v >= 1, "an integer ≥ 1")
resamples = _number(int, lambda v: v >= 2, "an integer ≥ 2")
ci_level = _number(float, lambda v: 0 < v < 1, "a number between 0 and 1 (exclusive)")
positive_float = _number(float, lambda v: v > 0 and v != float("inf"), "a number > 0")
nonnegative_float = _number(float, lambda v: 0 <= v < float("inf"), "a number ≥ 0")


def character(text: str) -> str:
    """An argparse type: exactly one character (``\\t`` is a tab)."""
    text = "\t" if text == "\\t" else text
    if len(text) != 1:
        raise argparse.ArgumentTypeError(f"expected one character, not {text!r}")
    return text


def add_output(p: argparse.ArgumentParser) -> None:
    from ..report import FORMATS

    g = p.add_argument_group("output")
    g.add_argument("--format", dest="output_format", choices=FORMATS, default="text",
                   help="text tables (default), json, csv or md (Markdown)")
    g.add_argument("--json", dest="output_format", action="store_const", const="json",
                   help="the same as --format json")
    g.add_argument("--output", "-o", metavar="FILE",
                   help="write to FILE instead of standard output; with --format csv a folder "
                   "(a name ending in /, or an existing folder) gets one CSV file per table")
    g.add_argument("--quiet", "-q", action="store_true",
                   help="no progress display on the terminal")
    g.add_argument("--fail-under", action="append", type=gate, metavar="COEF=VALUE",
                   help="exit with status 1 when the coefficient COEF (its id: alpha, kappa, "
                   "gwet_ac1 …) is below VALUE, or with COEF.low=VALUE when its interval's "
                   "lower bound is (needs --ci); repeatable; the JSON records the outcome")
    g.add_argument("--html", metavar="FILE",
                   help="also write the report as one HTML page with plots to FILE (opens "
                   "offline; turns on --ci, --diagnostics and --by-document where the job has "
                   "them and they are not given)")


def add_bootstrap(p: argparse.ArgumentParser, clusters: Sequence[str] = ("document", "item"),
                  level: float | None = None, seeded: str = "the bootstrap",
                  coders: bool = True) -> None:
    """The interval options; ``clusters`` are the choices of ``--cluster`` (the first is the
    default when the data have such groups); ``seeded``: what ``--seed`` seeds; ``coders``:
    ``--over`` (the jackknife over coders), for jobs whose intervals are all the engine's."""
    from ..stats.inference import INTERVALS, OVER

    g = p.add_argument_group("confidence intervals (bootstrap)")
    g.add_argument("--ci", nargs="?", type=ci_level, const=0.95, default=level,
                   metavar="LEVEL", help="bootstrap confidence intervals at LEVEL, between 0 "
                   "and 1 (0.95 when given alone)" + ("" if level is None else
                                                       f"; default {level}"))
    g.add_argument("--resamples", type=resamples, default=1000, metavar="N",
                   help="bootstrap replicates, N ≥ 2 (default 1000)")
    g.add_argument("--seed", type=nonnegative_int, default=0,
                   help=f"random seed of {seeded}, an integer ≥ 0 (default 0: the same figures "
                   "every run)")
    g.add_argument("--interval", choices=INTERVALS, default="percentile",
                   help="percentile (default), bca (bias-corrected and accelerated), or "
                   "jackknife (leave one unit out, a t interval: better in small studies)")
    g.add_argument("--cluster", choices=clusters, default=clusters[0],
                   help=f"what the bootstrap resamples: {' or '.join(clusters)} (default "
                   f"{clusters[0]}; items within one {clusters[0]} are not independent)")
    if coders:
        g.add_argument("--over", choices=OVER, default="units",
                       help="what was sampled: the units (default; the coders are fixed), "
                       "the coders (a pool of annotators), or both (Gwet 2008); coders and "
                       "both need --interval jackknife and three or more coders")


def bootstrap_of(args: argparse.Namespace) -> Bootstrap | None:
    """The Bootstrap settings of the command line, or None without ``--ci``."""
    from ..stats.inference import Bootstrap

    if args.ci is None:
        return None
    over = getattr(args, "over", "units")
    if over != "units" and args.interval != "jackknife":
        raise InputError(f"--over {over} needs --interval jackknife: a bootstrap that draws "
                         "coders with replacement pairs a coder's copies with each other")
    try:
        return Bootstrap(args.resamples, args.ci, args.interval,
                         None if args.cluster != "item" else False, args.seed, over)
    except ValueError as e:
        raise InputError(f"--ci/--resamples: {e}") from None


def add_distance(p: argparse.ArgumentParser, choices: Sequence[str], default,
                 many: bool = False, what: str = "") -> None:
    """``--distance``: one of ``choices``, or with ``many`` several (repeatable or
    comma-separated); ``what`` says what the distance is for."""
    what = what or ("distances" if many else "distance for the weighted coefficients")
    if many:
        p.add_argument("--distance", action="append", metavar="NAME",
                       help=f"{what} (repeatable or comma-separated; default: "
                       f"{', '.join(default)}; known: {', '.join(choices)})")
    else:
        p.add_argument("--distance", default=default, choices=choices,
                       help=f"{what} (default: {default})")


def distances_of(args: argparse.Namespace, choices: Sequence[str], default: Sequence[str]
                 ) -> list[str]:
    """The distances of a repeatable, comma-separated ``--distance``, checked."""
    names = [d.lower() for d in split(args.distance) or default]
    for d in names:
        if d not in choices:
            raise InputError(f"--distance: {d!r} is not one of {', '.join(choices)}")
    return names


def keyword(params: Sequence[Param], name: str) -> dict:
    """argparse's ``type=`` and ``choices=`` of the keyword ``name`` of a job's table
    (:data:`corpusagree.analyses.base.KEYWORDS` and each job's ``PARAMS``): the command line
    refuses what ``analyse`` refuses, in the same words."""
    from ..model.params import argparse_options

    param = next(p for p in params if p.name == name)
    out = argparse_options(param)
    if param.metavar is None:
        out.pop("metavar", None)  # argparse's own (the option's name), as before
    return out


def add_diagnostics(p: argparse.ArgumentParser, what: str,
                    n: str = "the N costliest items") -> None:
    """``--diagnostics [N]``: ``what`` the diagnostics show; ``n`` says what N counts."""
    from ..analyses.base import KEYWORDS

    p.add_argument("--diagnostics", nargs="?", **keyword(KEYWORDS, "diagnostics"),
                   const=DIAGNOSTICS,
                   default=None,
                   metavar="N", help=f"why agreement is low: {what}, with {n} (default N = "
                   f"{DIAGNOSTICS})")


def add_ner_options(g: argparse._ActionsContainer, params: Sequence[Param], what: str = "span"
                    ) -> None:
    """``--min-overlap`` and ``--disagreements`` of the NER modes (``params``: the job's
    table, which holds :data:`corpusagree.analyses.ner.PARAMS`); ``what`` a span is called."""
    g.add_argument("--min-overlap", **keyword(params, "min_overlap"), default=1.0,
                   help=f"ner: the share (per cent) of a {what} the other annotator's {what} "
                   "must cover to overlap it (default 1)")
    g.add_argument("--disagreements", **keyword(params, "disagreements"), default=20,
                   metavar="N", help="ner: list the first N disagreements by document and "
                   "offset (default 20)")


def add_by_document(p: argparse.ArgumentParser) -> None:
    p.add_argument("--by-document", action="store_true", help="also the figures per document")


def add_table_layout(p: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """The input of reliability data (the table and annotators jobs): the file and the group
    of its layout options (long or wide, column names, groups, delimiter), returned for the
    job's own layout options."""
    p.add_argument("file", help="the reliability-data file, or - for standard input")
    g = p.add_argument_group("layout")
    g.add_argument("--wide", action="store_true",
                   help="rows are coders, columns items (header: coder,item1,item2,...)")
    g.add_argument("--coder", default="coder", help="coder column (default: coder)")
    g.add_argument("--item", default="item", help="item column (default: item)")
    g.add_argument("--label", default="label", help="label column (default: label)")
    g.add_argument("--group", metavar="COLUMN",
                   help="group column (e.g. document): intervals resample these groups")
    g.add_argument("--delimiter", type=character,
                   help="field separator, one character (default: tab, comma or semicolon, "
                   "from the first line)")
    return g


def add_annotators(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--annotators", metavar="A,B,...", help=help)


def split(values: str | Sequence[str] | None) -> list[str] | None:
    """Comma-separated and repeated option values, in order (None when none)."""
    if not values:
        return None
    if isinstance(values, str):
        values = [values]
    out = [v.strip() for raw in values for v in raw.split(",") if v.strip()]
    return out or None


def add_reader_options(p: argparse.ArgumentParser, *tasks: str, skip: Sequence[str] = (),
                       job: str | None = None) -> argparse._ArgumentGroup:
    """``--input-format`` and every option the readers of ``tasks`` declare (once each, but
    those named in ``skip``), in an ``input`` group, which is returned; with ``job``, an
    option the job sets for its readers (:attr:`corpusagree.readers.Reader.defaults`) says
    that default in its help."""
    from .. import readers

    known = {n: r for task in tasks for n, r in readers.readers(task).items()}
    job_defaults = {k: v for r in known.values()
                    for k, v in (r.defaults.get(job, {}) if job else {}).items()}
    g = p.add_argument_group("input")
    g.add_argument("--input-format", default="auto", choices=["auto", *known],
                   help="input format (default: recognised from the files): " +
                   "; ".join(f"{n}: {r.summary}" for n, r in known.items()))
    seen = set(skip)
    for opt in (o for task in tasks for o, _ in readers.options(task)):
        if opt.name in seen:
            continue
        seen.add(opt.name)
        text = opt.help
        if opt.name in job_defaults:  # the job's default, not the reader function's
            v = job_defaults[opt.name]
            shown = f"(default: {','.join(map(str, v)) if isinstance(v, (list, tuple)) else v})"
            if "(default:" in text:
                text = re.sub(r"\(default: [^)]*\)", shown, text)
            elif "default" not in text:
                text = f"{text} {shown}"
        kw: dict = {"help": text, "dest": f"reader_{opt.name}"}
        if opt.metavar:
            kw["metavar"] = opt.metavar
        if opt.multiple:
            kw["action"] = "append"
        else:
            kw["type"] = opt.type
            if opt.choices:
                kw["choices"] = opt.choices
        g.add_argument(opt.flag, *opt.aliases, **kw)
    return g


def reader_options_of(args: argparse.Namespace, task: str) -> dict:
    """The reader options given on the command line, by keyword (lists split on commas)."""
    from .. import readers

    out = {}
    for opt, _ in readers.options(task):
        v = getattr(args, f"reader_{opt.name}", None)
        if v is not None:
            out[opt.name] = [opt.type(x) for x in split(v)] if opt.multiple else v
    return out


def progress(args: argparse.Namespace, what: str) -> LazyProgress:
    """A progress bar on stderr (terminal only, not with ``--quiet``) whose ``update`` the
    analyses call."""
    from ..report.progress import LazyProgress

    return LazyProgress(what, enabled=_shown(args))


def reading(args: argparse.Namespace, what: str = "reading"):
    """A spinner on stderr while the readers work (terminal only, not with ``--quiet``)."""
    from ..report.progress import spinner

    return spinner(what, enabled=_shown(args))


def _shown(args: argparse.Namespace) -> bool:
    return sys.stderr.isatty() and not getattr(args, "quiet", False)


@contextmanager
def output_stream(args: argparse.Namespace) -> Iterator[TextIO]:
    """Standard output, or ``--output`` opened through the one write helper
    (:func:`corpusagree.report.write.opened`: every refusal of the file system is one line)."""
    from ..report import write

    if not args.output:
        yield sys.stdout
        return
    if os.path.isdir(args.output):
        raise InputError("is a folder: give a file name" + (
            " (a folder takes --format csv, one file per table)"
            if hasattr(args, "output_format") else ""), Path(args.output).resolve())
    with write.opened(args.output) as fh:
        yield fh


def _to_folder(args: argparse.Namespace) -> bool:
    """Whether ``--output`` names a folder for one CSV file per table."""
    out = args.output
    return bool(out) and args.output_format == "csv" and (
        out.endswith(("/", os.sep)) or Path(out).is_dir())


def html_args(args: argparse.Namespace) -> argparse.Namespace | None:
    """With ``--html`` and options the page needs that the command line left off: the
    arguments of the page's run (:func:`html_defaults` applied to a copy, ``terminal``
    False), while ``args`` keep what the user asked for and lose ``--html``: the terminal
    output is the same with and without ``--html``. None when one run serves both."""
    asked = dict(vars(args))
    html_defaults(args)
    if not args.html_defaults:
        return None
    page = argparse.Namespace(**vars(args))
    page.terminal = False
    vars(args).update(asked)
    args.html, args.html_defaults = None, []
    return page


def html_defaults(args: argparse.Namespace) -> None:
    """With ``--html``: matplotlib checked before any analysis, and the intervals (``--ci``),
    diagnostics and figures per document the page draws turned on unless the command line
    set them; ``args.html_defaults`` lists those turned on, for the page to say."""
    from ..report import plots

    args.html_defaults = []
    if not getattr(args, "html", None):
        return
    plots.require()
    if getattr(args, "ci", False) is None:
        args.ci = 0.95
        args.html_defaults.append("--ci 0.95")
    if getattr(args, "diagnostics", False) is None:
        args.diagnostics = DIAGNOSTICS
        args.html_defaults.append(f"--diagnostics {DIAGNOSTICS}")
    if getattr(args, "by_document", True) is False:
        args.by_document = True
        args.html_defaults.append("--by-document")


def gate(text: str):
    """argparse type of ``--fail-under``: ``COEF=VALUE`` or ``COEF.low=VALUE``."""
    from ..report import gates

    try:
        return gates.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _check_gates(args: argparse.Namespace, reports: Sequence[Report]) -> list[str]:
    """The gates of ``--fail-under`` checked on every report that holds their coefficients
    (recorded in the reports' JSON); the lines of those not met."""
    wanted = getattr(args, "fail_under", None) or []
    if not wanted:
        return []
    low = [str(g) for g in wanted if g.bound == "low"]
    if low and getattr(args, "ci", None) is None:
        raise InputError(f"--fail-under {low[0]} bounds an interval: add --ci")
    failed, held = [], set()
    for r in reports:
        mine = []
        for g in wanted:
            try:
                outcome, = r.check(g)
            except ValueError as e:
                if len(reports) == 1:
                    raise InputError(f"--fail-under {g}: {e}") from None
                continue
            mine.append(g)
            held.add(str(g))
            if not outcome.passed:
                where = r.job if len(reports) == 1 or not r.inputs else \
                    f"{r.job} {r.inputs[0]}{' …' if len(r.inputs) > 1 else ''}"
                failed.append(f"{where}: gate not met: {outcome.message()}")
        if mine:
            r.check(*mine)  # the report's JSON records all of its gates
    missing = [str(g) for g in wanted if str(g) not in held]
    if missing:
        raise InputError(f"--fail-under {missing[0]}: no report holds this coefficient")
    return failed


def emit(args: argparse.Namespace, reports: Sequence[Report], *, many: bool = False) -> int:
    """Write the reports as the output options say (and the HTML page with ``--html``); 0,
    or 1 when a gate of ``--fail-under`` is not met (one line each on standard error)."""
    from ..report import html, render, write
    from ..report.csv import write_files

    in_flags = getattr(args, "in_flags", None)
    if in_flags is not None:  # the reports' notes in flags, as the messages (cli.in_flags)
        for r in reports:
            r.notes[:] = map(in_flags, r.notes)
    failed = _check_gates(args, reports)
    status = 1 if failed else 0
    terminal = getattr(args, "terminal", True)
    for line in failed if terminal else ():
        print(line, file=sys.stderr)
    if getattr(args, "html", None):
        page = html.dumps(reports, defaults=getattr(args, "html_defaults", ()))
        write.write_text(args.html, page, newline="\n")
    if not terminal:  # the page's run (html_args): the page and nothing more
        return status
    if _to_folder(args):
        write_files(reports, Path(args.output))
        return status
    with output_stream(args) as stream:
        render(reports, args.output_format, stream, many=many)
    return status
