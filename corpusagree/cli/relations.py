"""``corpusagree relations PATH...``: agreement on relations between annotated spans."""

from __future__ import annotations

import argparse

from ..analyses import relations
from . import options as opt

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "relations", help="agreement on relations between spans (brat, XMI, WebAnno TSV, "
        "DISRPT .rels)",
        description="Agreement on relations between annotated spans: relations aligned by "
        "their endpoints (the same tokens, or the best overlap), precision, recall and F1 of "
        "relation detection per annotator pair (micro and macro over documents), and Cohen's "
        "κ and Krippendorff's α of the relation label over the aligned relations. Reads brat "
        "R lines, INCEpTION/WebAnno relation layers (XMI, WebAnno TSV) and DISRPT .rels.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="one folder per annotator (or the files, for XMI and WebAnno TSV)")
    opt.add_reader_options(p, "relations", job="relations")
    opt.add_annotators(p, "keep only these annotators (comma separated)")
    p.add_argument("--match", **opt.keyword(relations.PARAMS, "match"), default="exact",
                   help="how relation endpoints align: the same tokens (default) or the best "
                   "one-to-one overlap")
    p.add_argument("--undirected", dest="directed", action="store_false",
                   help="a relation from x to y is the same as one from y to x")
    opt.add_by_document(p)
    opt.add_diagnostics(p, "the N label pairs given most often to one relation (default 20)")
    opt.add_bootstrap(p, ("document", "item"))
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    bootstrap = opt.bootstrap_of(args)
    with opt.reading(args):
        corpus = relations.read(args.paths, input_format=args.input_format,
                                annotators=opt.split(args.annotators),
                                **opt.reader_options_of(args, "relations"))
    with opt.progress(args, "computing") as bar:
        report = relations.analyse(corpus, match=args.match, directed=args.directed,
                                   bootstrap=bootstrap, by_document=args.by_document,
                                   diagnostics=args.diagnostics, progress=bar.update)
    return opt.emit(args, [report])
