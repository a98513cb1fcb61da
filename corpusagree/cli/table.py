"""``corpusagree table FILE``: every coefficient of a reliability-data file."""

from __future__ import annotations

import argparse

from ..analyses import table
from ..model.errors import InputError
from ..stats import distances as dist
from . import options as opt

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "table", help="every coefficient of a reliability-data file (CSV/TSV)",
        description="Every applicable coefficient of Artstein & Poesio's family (2005) for "
        "reliability data: a long CSV/TSV table, one judgement per row (columns coder, item, "
        "label), or a wide coder × item table (--wide). '-' reads standard input.")
    g = opt.add_table_layout(p)
    g.add_argument("--set-sep", metavar="SEP",
                   help="cells are sets of values separated by SEP (e.g. '|'; a bare SEP is "
                   "the empty set): the set distances apply, and Krippendorff & Craggs's "
                   "multi-valued alpha (mvα) is added")
    g.add_argument("--swap", metavar="COLUMN",
                   help="pairwise judgements shown in both orders: COLUMN is the order shown "
                   "(two values, e.g. AB/BA; the option shown first is the part before |, , or "
                   ">, else the first character); item = the pair, coder = the judge, label = "
                   "the option preferred (A/B or tie). Adds each judge's flip rate, flips to "
                   "the first-shown option, McNemar's test, and agreement in each order")
    g.add_argument("--run", metavar="COLUMN",
                   help="the column of repeated runs (a coder labelling the items again, a "
                   "model run several times): each coder with itself across runs (α, κ, raw "
                   "agreement, the share of items whose label changed), the coders in each "
                   "run and on each coder's majority label")
    g.add_argument("--categories", metavar="A,B,...",
                   help="the declared category set (for S), comma separated")
    opt.add_annotators(g, "keep only these coders, comma separated")
    opt.add_distance(p, sorted(dist.NAMED), "nominal")
    p.add_argument("--weights", metavar="FILE",
                   help="weight matrix: rows a,b,distance or a square matrix with a header row")
    opt.add_bootstrap(p, ("group", "item"))
    p.add_argument("--by-document", action="store_true",
                   help="also α per group (the --group column: documents)")
    opt.add_diagnostics(p, "pairwise and leave-one-coder-out tables, costliest items, "
                        "per-category α, coincidences, bias by category")
    p.add_argument("--reference", metavar="CODER",
                   help="with --diagnostics: each coder's agreement with this reference coder")
    p.add_argument("--engine", choices=("memory", "dask"), default="memory",
                   help="dask: long tables past one machine (FILE may be a glob such as "
                   "'logs/*.parquet'), coefficients from per-partition sums (the "
                   "diagnostics need memory)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: the address of a Dask distributed scheduler "
                   "(default: Dask's local scheduler)")
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    d = table.distance_from(args.distance, args.weights)
    if args.engine == "dask":
        if args.run is not None:
            raise InputError("--run needs --engine memory (the dask engine reads no runs)",
                             args.file)
        report = table.analyse_dask(
            args.file, distance=d, categories=opt.split(args.categories),
            bootstrap=opt.bootstrap_of(args), scheduler=args.scheduler, coder=args.coder,
            item=args.item, label=args.label, group=args.group, delimiter=args.delimiter,
            set_sep=args.set_sep, numeric=table.numeric_labels(args.distance))
        return opt.emit(args, [report])
    corpus = table.read(args.file, input_format="wide" if args.wide else "auto",
                        coder=args.coder, item=args.item, label=args.label, group=args.group,
                        delimiter=args.delimiter, set_sep=args.set_sep,
                        numeric=args.weights is None and table.numeric_labels(args.distance),
                        categories=opt.split(args.categories), swap=args.swap,
                        annotators=opt.split(args.annotators), run=args.run)
    if args.file == "-":
        corpus.inputs = ["<stdin>"]
    with opt.progress(args, "resampling") as bar:
        report = table.analyse(corpus, distance=d, bootstrap=opt.bootstrap_of(args),
                               by_document=args.by_document, diagnostics=args.diagnostics,
                               reference=args.reference, progress=bar.update)
    return opt.emit(args, [report])
