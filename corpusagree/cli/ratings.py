"""``corpusagree ratings FILE``: agreement on numeric scores (ICC, CCC, Bland–Altman, W)."""

from __future__ import annotations

import argparse

from ..analyses import ratings
from . import options as opt

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "ratings", help=ratings.JOB.help,
        description="Intraclass correlations (the form that fits the design marked), Lin's "
        "concordance correlation and Bland–Altman limits per coder pair, Kendall's W and α "
        "(interval, ratio) of numeric scores: a long CSV/TSV table, one score per row "
        "(columns coder, item, label), or a wide coder × item table (--wide). '-' reads "
        "standard input.")
    g = opt.add_table_layout(p)
    opt.add_annotators(g, "keep only these coders, comma separated")
    g.add_argument("--run", metavar="COLUMN",
                   help="the column of repeated runs (a coder scoring the items again, a "
                   "model run several times): each coder with itself across runs, the coders "
                   "in each run and on each coder's mean")
    d = p.add_argument_group("design (McGraw & Wong 1996)")
    d.add_argument("--coders", **opt.keyword(ratings.PARAMS, "coders"), default="random",
                   help="random: the coders are a sample (default); fixed: the only ones of "
                   "interest; oneway: each item has its own coders")
    d.add_argument("--type", **opt.keyword(ratings.PARAMS, "type"), default="agreement",
                   help="absolute agreement (default) or consistency")
    d.add_argument("--unit", **opt.keyword(ratings.PARAMS, "unit"), default="single",
                   help="the reliability of one coder's score (default) or of the mean")
    d.add_argument("--convention", **opt.keyword(ratings.PARAMS, "convention"),
                   default="irr", help="F test and interval of the chosen form as R's irr "
                   "(default) or psych")
    p.add_argument("--reference", metavar="CODER",
                   help="CCC and Bland–Altman of each other coder against CODER, or against "
                   "the mean of a group given comma separated (e.g. ann,bob,cat)")
    opt.add_bootstrap(p, ("group", "item"), coders=False)
    p.add_argument("--by-document", action="store_true",
                   help="also the chosen ICC per group (the --group column: documents)")
    opt.add_diagnostics(p, "the items whose scores spread most")
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    corpus = ratings.read(args.file, input_format="wide" if args.wide else "auto",
                          coder=args.coder, item=args.item, label=args.label,
                          group=args.group, delimiter=args.delimiter,
                          annotators=opt.split(args.annotators), run=args.run)
    if args.file == "-":
        corpus.inputs = ["<stdin>"]
    with opt.progress(args, "resampling") as bar:
        report = ratings.analyse(corpus, coders=args.coders, type=args.type, unit=args.unit,
                                 convention=args.convention, reference=args.reference,
                                 bootstrap=opt.bootstrap_of(args),
                                 by_document=args.by_document,
                                 diagnostics=args.diagnostics, progress=bar.update)
    return opt.emit(args, [report])
