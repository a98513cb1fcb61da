"""``corpusagree compare A B``: one coefficient in two studies of the same job, the difference
A − B with its interval, paired or independent, its p-value and the TOST decisions."""

from __future__ import annotations

import argparse

from ..model.errors import InputError
from . import options as opt

__all__ = ["HELP", "register", "run"]

#: its line in ``corpusagree --help``
HELP = "is A better than B: one coefficient in two studies, A − B"


def add_study_input(p: argparse.ArgumentParser) -> None:
    """``--job`` and the table layout's options, shared by ``compare`` and ``plan``."""
    from ..analyses.study import hooked_jobs

    p.add_argument("--job", choices=hooked_jobs(), metavar="JOB",
                   help=f"the job of the inputs ({', '.join(hooked_jobs())}; default: recognised "
                   "from the files)")
    g = p.add_argument_group("reliability-data files (the table job)")
    g.add_argument("--group", metavar="COLUMN",
                   help="group column (e.g. document): the documents resampled")
    g.add_argument("--coder", default="coder", help="coder column (default: coder)")
    g.add_argument("--item", default="item", help="item column (default: item)")
    g.add_argument("--label", default="label", help="label column (default: label)")


def register(sub) -> None:
    from ..analyses.study import PARAMS as STUDY_PARAMS
    from ..model.params import argparse_options

    params = {p.name: p for p in STUDY_PARAMS}  # the keyword table of study.compare
    p = sub.add_parser(
        "compare", help=HELP,
        description="One coefficient in two studies of the same job (guidelines v1 and v2, "
        "a model with people against people alone, two labs): both values, the difference "
        "A − B with its bootstrap interval, paired when both code the same documents "
        "(resampled jointly) or independent (detected and stated), the p-value of no "
        "difference and, with --margin, the two one-sided tests of equivalence and "
        "non-inferiority.")
    p.add_argument("a", metavar="A", help="the first study: a file or folder of the job")
    p.add_argument("b", metavar="B", help="the second study, of the same job")
    p.add_argument("--coefficient", default="alpha", metavar="COEF",
                   **{k: v for k, v in argparse_options(params["coefficient"]).items()
                      if k == "type"},
                   help="the coefficient compared (default alpha)")
    p.add_argument("--margin", **argparse_options(params["margin"]),
                   help="equivalence margin in (0, 1): TOST decisions")
    p.add_argument("--distance", help="the distance (default: the job's)")
    add_study_input(p)
    opt.add_bootstrap(p, level=0.95, coders=False)
    opt.add_output(p)
    p.set_defaults(func=run)


def read_study(path: str, args: argparse.Namespace, job: str | None):
    """The corpus of one study (:func:`corpusagree.analyses.study.read_study`)."""
    from ..analyses.study import read_study as read

    return read(path, job, coder=args.coder, item=args.item, label=args.label,
                group=args.group)


def run(args: argparse.Namespace) -> int:
    from ..analyses.study import RESAMPLABLE, compare

    if args.coefficient not in RESAMPLABLE:
        raise InputError(f"--coefficient {args.coefficient}: not a coefficient with a "
                         f"bootstrap; one of {', '.join(RESAMPLABLE)}")
    with opt.reading(args):
        a = read_study(args.a, args, args.job)
        b = read_study(args.b, args, args.job)
    if a.job != b.job:
        raise InputError(f"A is the {a.job} job's input, B the {b.job} job's: compare two "
                         "studies of one job")
    settings = opt.bootstrap_of(args)
    extra = {} if args.distance is None else {"distance": args.distance}
    with opt.progress(args, "compare") as bar:
        try:
            report = compare(a, b, args.coefficient, bootstrap=settings,
                                   margin=args.margin, progress=bar.update, **extra)
        except (ValueError, KeyError) as e:
            if isinstance(e, InputError):
                raise
            raise InputError(str(e).strip("'\""), f"{args.a}, {args.b}") from None
    return opt.emit(args, [report])


