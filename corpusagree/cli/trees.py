"""``corpusagree trees PATH...``: agreement on RST trees."""

from __future__ import annotations

import argparse

from ..analyses import trees
from ..readers.relation_map import read_mapping
from ..stats.trees.labels import CONVENTIONS
from . import options as opt

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "trees", help="agreement on RST trees (rs3/rs4, .dis)",
        description="Agreement on RST trees of the same EDUs: RST-Parseval (Marcu 2000) and "
        "Parseval (Morey, Muller & Asher 2017) precision, recall and F1 of spans, nuclearity, "
        "relation and both, micro and macro; Iruskieta et al.'s (2015) comparison as RST-Tace "
        "computes it (Wan et al. 2019): agreement ratios and Cohen's κ of central "
        "subconstituent, constituent, attachment point, nuclearity and relation; the relations "
        "annotators swap; the most disputed document's trees side by side. Documents are "
        "paired by name; those whose EDUs differ are compared by their boundaries (the "
        "segments job's coefficients) and named in a note.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="one folder per annotator (or a folder of them)")
    opt.add_reader_options(p, "trees", job="trees")
    opt.add_annotators(p, "keep only these annotators (comma separated)")
    g = p.add_argument_group("conventions")
    g.add_argument("--relations", choices=CONVENTIONS, default="as-written",
                   help="relation labels as written (default), lower-cased (as RST-Tace, Wan "
                   "et al. 2019) or as the RST-DT's 18 classes (Carlson et al. 2003)")
    g.add_argument("--relation-map", metavar="FILE",
                   help="map relation labels to classes: a file of two columns, relation and "
                   "class (overrides --relations)")
    g.add_argument("--no-binarize", dest="binarize", action="store_false",
                   help="RST-Parseval on the trees as annotated (Marcu 2000) instead of "
                   "binarised ones (Morey et al. 2017: multinuclear nodes as right-branching "
                   "chains); Parseval and Iruskieta's relations always read binary trees")
    opt.add_by_document(p)
    opt.add_diagnostics(p, "the N relation pairs given most often to the same constituent "
                        "(default 20)")
    opt.add_bootstrap(p, ("document", "item"))
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    bootstrap = opt.bootstrap_of(args)
    labels = read_mapping(args.relation_map) if args.relation_map else args.relations
    with opt.reading(args):
        corpus = trees.read(args.paths, input_format=args.input_format,
                            annotators=opt.split(args.annotators),
                            **opt.reader_options_of(args, "trees"))
    with opt.progress(args, "computing") as bar:
        report = trees.analyse(corpus, bootstrap=bootstrap, by_document=args.by_document,
                               diagnostics=args.diagnostics, binarize=args.binarize,
                               relation_labels=labels, progress=bar.update)
    return opt.emit(args, [report])
