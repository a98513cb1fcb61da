"""``corpusagree annotators FILE``: models of the annotators side by side, and the alternative
annotator test of model annotators."""

from __future__ import annotations

import argparse

from ..analyses import annotators, table
from ..stats import distances as dist
from . import options as opt

__all__ = ["SCORINGS", "register", "run"]

#: what --scoring takes besides the distances
SCORINGS = ("accuracy", "neg_rmse")


def register(sub) -> None:
    p = sub.add_parser(
        "annotators", help="who to trust: models of the annotators, the alt-test of a model",
        description="Models of the annotators (majority vote, Wawa, Dawid-Skene, one-coin, "
        "GLAD, MACE) fitted to reliability data (the table job's input: a long CSV/TSV "
        "table, one judgement per row, or a wide coder x item table): each annotator's "
        "reliability under every model, the agreement of the models' labels with each other "
        "and with a gold standard (--gold), and for each --candidate (an LLM, a classifier) "
        "the alternative annotator test (Calderon, Reichart & Dror 2025) with its pairwise "
        "and leave-one-out alpha against the humans. '-' reads standard input.")
    g = opt.add_table_layout(p)
    opt.add_annotators(g, "keep only these coders, comma separated")
    m = p.add_argument_group("models")
    m.add_argument("--models", metavar="A,B,...",
                   help=f"the models to fit (default: all of {', '.join(annotators.MODELS)})")
    m.add_argument("--gold", metavar="COLUMN|CODER",
                   help="the gold standard: a coder, or a column of a long table with each "
                   "item's gold label; left out of the models, which are scored against it")
    c = p.add_argument_group("alternative annotator test")
    c.add_argument("--candidate", action="append", metavar="NAME[,NAME]",
                   help="a coder to test as a replacement of the humans (repeatable or comma "
                   "separated); left out of the models")
    c.add_argument("--epsilon", **opt.keyword(annotators.PARAMS, "epsilon"), default=0.2,
                   help="the cost-benefit margin: 0.2 experts, 0.15 skilled annotators, 0.1 "
                   "crowd workers (default: 0.2)")
    c.add_argument("--fdr", **opt.keyword(annotators.PARAMS, "fdr"), default=0.05,
                   help="the false discovery rate of Benjamini-Yekutieli (default: 0.05)")
    c.add_argument("--scoring", default="accuracy", choices=[*SCORINGS, *sorted(dist.NAMED)],
                   help="how a label aligns with the other humans' (default: accuracy; "
                   "neg_rmse and the numeric distances read the labels as numbers)")
    opt.add_distance(p, sorted(dist.NAMED), "nominal",
                     what="distance of the candidates' alpha")
    opt.add_bootstrap(p, ("group", "item"), coders=False)
    p.add_argument("--by-document", action="store_true",
                   help="also per group (the --group column: documents): alpha of the humans "
                   "and each model's accuracy against the gold")
    opt.add_diagnostics(p, "the items the models are least sure of, with the humans' votes",
                        "the N least sure")
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    numeric = args.scoring in annotators.NUMERIC_SCORINGS or \
        table.numeric_labels(args.distance)
    with opt.reading(args):
        corpus = annotators.read(args.file, input_format="wide" if args.wide else "auto",
                                 coder=args.coder, item=args.item, label=args.label,
                                 group=args.group, delimiter=args.delimiter, numeric=numeric,
                                 annotators=opt.split(args.annotators), gold=args.gold)
    if args.file == "-":
        corpus.inputs = ["<stdin>"]
    with opt.progress(args, "fitting") as bar:
        report = annotators.analyse(corpus, models=opt.split(args.models),
                                    candidates=opt.split(args.candidate) or (),
                                    epsilon=args.epsilon, fdr=args.fdr, scoring=args.scoring,
                                    distance=args.distance, seed=args.seed,
                                    bootstrap=opt.bootstrap_of(args),
                                    by_document=args.by_document, diagnostics=args.diagnostics,
                                    progress=bar.update)
    return opt.emit(args, [report])
