"""``corpusagree spans PATH...``: span agreement without pre-set units (unitizing α, γ)."""

from __future__ import annotations

import argparse

from ..analyses import spans
from ..stats import distances as dist
from . import options as opt

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "spans", help="span agreement without pre-set units: unitizing α and γ",
        description="Did the annotators mark the same stretches of text? Krippendorff's "
        "unitizing α (1995, 2004; the 2016 family uα, |u|α, cuα, (k)uα) and Mathet, Widlöcher "
        "& Métivier's γ (2015) with γ-cat and γ-k (Mathet 2017) on the spans of any span format "
        "(brat, XMI and WebAnno TSV chain or span layers, MMAX2, CoNLL-2012, CorefUD) or the "
        "segments of any segmentation format, with the best alignment by annotator pair. The "
        "input format is --input-format (recognised by default); --format is the output's.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="one file or folder per annotator, or a folder of annotator folders")
    g = opt.add_reader_options(p, *spans.TASKS, skip=["unit"], job="spans")
    opt.add_annotators(g, "comma-separated: for span formats the names of the annotators, one "
                       "per annotator found (default: from the files or folders); for "
                       "segmentation formats the annotators to keep")
    g.add_argument("--unit", choices=spans.UNITS, default="token",
                   help="positions in tokens (default) or characters (brat, XMI, WebAnno TSV "
                   "keep character offsets); segmentations are on their own units")
    g.add_argument("--category", metavar="ATTRIBUTE",
                   help="the mention attribute that gives a unit's category (default: the "
                   "entity type where the format has one, else 'mention')")
    m = p.add_argument_group("measures")
    m.add_argument("--measure", action="append", metavar="NAME",
                   help="alpha_u, gamma and/or ner (repeatable or comma-separated; default "
                   "all three)")
    m.add_argument("--alpha", **opt.keyword(spans.PARAMS, "alpha"), default=1.0,
                   help="γ: weight of the positional dissimilarity (default 1)")
    m.add_argument("--beta", **opt.keyword(spans.PARAMS, "beta"), default=1.0,
                   help="γ: weight of the categorical dissimilarity (default 1)")
    m.add_argument("--delta-empty", **opt.keyword(spans.PARAMS, "delta_empty"), default=1.0,
                   help="γ: the cost Δ∅ of a unit aligned with nothing (default 1)")
    m.add_argument("--category-distance", default="nominal", choices=sorted(dist.NAMED),
                   help="γ: distance between categories (default nominal)")
    m.add_argument("--sampler", **opt.keyword(spans.PARAMS, "sampler"), default="statistical",
                   help="γ: how the expected disorder's continua are sampled (default "
                   "statistical)")
    m.add_argument("--precision", **opt.keyword(spans.PARAMS, "precision"), default=0.02,
                   help="γ: relative precision of the expected disorder that sets the number "
                   "of samples (default 0.02)")
    m.add_argument("--samples", **opt.keyword(spans.PARAMS, "n_samples"), metavar="N",
                   help="γ: sample N continua instead (the precision is then not used)")
    m.add_argument("--workers", **opt.keyword(spans.PARAMS, "workers"), metavar="N",
                   help="γ: threads that align the sampled continua (default: one per core; "
                   "the figures are the same whatever N)")
    opt.add_ner_options(m, spans.PARAMS)
    opt.add_by_document(p)
    opt.add_diagnostics(p, "the unitary alignments that cost most, with each annotator's unit "
                        "and its text", "the N costliest")
    opt.add_bootstrap(p, ("document",), seeded="the bootstrap and of γ's sampled continua",
                      coders=False)
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    reader_options = {}
    for task in spans.TASKS:
        reader_options.update({k: v for k, v in opt.reader_options_of(args, task).items()
                               if k != "unit"})
    with opt.reading(args):
        corpus = spans.read(args.paths, input_format=args.input_format,
                            annotators=opt.split(args.annotators), unit=args.unit,
                            category=args.category, **reader_options)
    with opt.progress(args, "uα replicates, γ samples") as bar:
        report = spans.analyse(
            corpus, measures=opt.split(args.measure) or spans.MEASURES,
            by_document=args.by_document, alpha=args.alpha, beta=args.beta,
            delta_empty=args.delta_empty, category_distance=args.category_distance,
            sampler=args.sampler, precision=args.precision, n_samples=args.samples,
            seed=args.seed, bootstrap=opt.bootstrap_of(args), diagnostics=args.diagnostics,
            min_overlap=args.min_overlap, disagreements=args.disagreements,
            progress=bar.update, workers=args.workers)
    return opt.emit(args, [report])
