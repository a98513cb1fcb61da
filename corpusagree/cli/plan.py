"""``corpusagree plan``: how many units or documents a study needs — for α (Krippendorff's
minimum units), for κ (as R's irr::N.cohen.kappa), or by simulation on a pilot study."""

from __future__ import annotations

import argparse

from ..model.errors import InputError
from . import options as opt
from .compare import add_study_input, read_study

__all__ = ["HELP", "register", "run"]

#: its line in ``corpusagree --help``
HELP = "how many units or documents a study needs (α, κ, or a pilot)"


def _numbers(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, not "
                                         f"{text!r}") from None


def _sizes(text: str) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        out = []
    if not out or min(out) < 2:
        raise argparse.ArgumentTypeError(f"expected study sizes ≥ 2 separated by commas, "
                                         f"not {text!r}")
    return out


def register(sub) -> None:
    from ..analyses.study import PLAN_PARAMS
    from ..model.params import argparse_options

    params = {p.name: p for p in PLAN_PARAMS}  # the keyword table of study.plan
    p = sub.add_parser(
        "plan", help=HELP,
        description="How many units a study needs for α ≥ --alpha-min at significance --p "
        "(Krippendorff 2019, ch. 12; --table: his table), how many subjects for Cohen's κ "
        "(--kappa, as R's irr::N.cohen.kappa), or — given a PILOT study of any job with "
        "--width — how many documents give an interval of that width, or with --candidate "
        "how many let a model pass the alt-test, simulated by resampling the pilot's "
        "documents whole.")
    p.add_argument("pilot", nargs="?", metavar="PILOT",
                   help="a pilot study: a file or folder of a job")
    g = p.add_argument_group("α: minimum units")
    g.add_argument("--alpha-min", **argparse_options(params["alpha_min"]),
                   help="the smallest acceptable α")
    g.add_argument("--p", default=0.05, **argparse_options(params["p"]),
                   help="significance level (default 0.05)")
    g.add_argument("--proportions", type=_numbers, metavar="P1,P2,...",
                   help="the categories' expected proportions (or counts)")
    g.add_argument("--coders", default=2, **argparse_options(params["coders"]),
                   help="coders per unit (default 2)")
    g.add_argument("--table", action="store_true",
                   help="Krippendorff's table for --alpha-min over P_c and p")
    k = p.add_argument_group("κ: subjects (irr::N.cohen.kappa)")
    k.add_argument("--kappa", type=_numbers, metavar="RATE1,RATE2,K1,K0",
                   help="each coder's share of the first category, κ expected and κ under "
                   "the null")
    k.add_argument("--power", default=0.8, **argparse_options(params["power"]),
                   help="power (default 0.8): of the κ test, or the share of simulated "
                   "studies in which --candidate passes the alt-test")
    k.add_argument("--test-alpha", type=float, default=0.05,
                   help="the test's level (default 0.05)")
    k.add_argument("--two-sided", action="store_true", help="a two-sided test")
    s = p.add_argument_group("simulation on a pilot study")
    s.add_argument("--width", **argparse_options(params["width"]),
                   help="the interval width wanted")
    s.add_argument("--documents", type=_sizes, metavar="N1,N2,...",
                   help="the study sizes to simulate (default: ½ to 8 × the pilot's)")
    s.add_argument("--coefficient", default="alpha", help="the coefficient (default alpha)")
    s.add_argument("--level", default=0.95, **argparse_options(params["level"]),
                   help="the interval's level (default 0.95)")
    s.add_argument("--resamples", default=500, **argparse_options(params["n_resamples"]),
                   help="simulated studies per size (default 500)")
    s.add_argument("--seed", default=0, **argparse_options(params["seed"]),
                   help="random seed (default 0)")
    s.add_argument("--candidate", metavar="CODER",
                   help="plan the alt-test of this coder of the pilot (a model) against the "
                   "other coders: the documents for it to pass in --power of the studies")
    s.add_argument("--epsilon", default=0.2, **argparse_options(params["epsilon"]),
                   help="the alt-test's margin ε (default 0.2)")
    add_study_input(p)
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..analyses.study import plan

    kw: dict = {}
    if args.kappa is not None:
        if len(args.kappa) != 4:
            raise InputError("--kappa takes four numbers: RATE1,RATE2,K1,K0")
        r1, r2, k1, k0 = args.kappa
        kw["kappa"] = {"rate1": r1, "rate2": r2, "kappa1": k1, "kappa0": k0,
                       "alpha": args.test_alpha, "power": args.power,
                       "two_sided": args.two_sided}
    pilot = None
    if args.pilot is not None:
        with opt.reading(args):
            pilot = read_study(args.pilot, args, args.job)
    try:
        with opt.progress(args, "simulating") as bar:
            report = plan(pilot, alpha_min=args.alpha_min, p=args.p,
                                proportions=args.proportions, coders=args.coders,
                                table=args.table, width=args.width, documents=args.documents,
                                coefficient=args.coefficient, level=args.level,
                                n_resamples=args.resamples, seed=args.seed,
                                candidate=args.candidate, epsilon=args.epsilon,
                                power=args.power, progress=bar.update, **kw)
    except (ValueError, TypeError) as e:
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), args.pilot) from None
    return opt.emit(args, [report])
