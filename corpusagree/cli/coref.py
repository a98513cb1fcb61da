"""``corpusagree coref PATH...``: agreement on coreference chains."""

from __future__ import annotations

import argparse

from ..analyses import coref
from . import options as opt

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "coref", help="coreference agreement: α/β over chains, κ on antecedents, MUC/B³/...",
        description="Agreement on coreference chains (Artstein & Poesio 2005, §4.1; Passonneau "
        "2004): mentions aligned across annotators, chains as set labels under set distances "
        "(and multi-valued α, Krippendorff & Craggs 2016), "
        "antecedents as nominal labels, and the recall, precision and F1 of MUC, B³, CEAF-e, "
        "CEAF-m, BLANC and LEA and the CoNLL-2012 average for every annotator pair, "
        "micro-averaged over the documents as the CoNLL reference scorer (Pradhan et al. "
        "2014): 'coref KEY RESPONSE' scores RESPONSE against KEY. --by-document adds every "
        "document's figures and their means over the documents where each is defined "
        "(macro).")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="one file or folder per annotator (the first is the key of the "
                   "coreference scores), or a folder of annotator folders (MMAX2, brat, XMI), "
                   "or ezCoref passage files/folders")
    opt.add_reader_options(p, "coref", job="coref")
    opt.add_annotators(p, "names of the annotators, comma-separated, one per annotator found "
                       "(default: from the files or folders)")
    g = p.add_argument_group("agreement")
    g.add_argument("--match", **opt.keyword(coref.PARAMS, "match"), default="exact",
                   help="align mentions by exact span (default), head token or maximal token "
                   "overlap")
    g.add_argument("--unmarked", **opt.keyword(coref.PARAMS, "unmarked"), default="missing",
                   help="a mention an annotator did not mark is missing (default) or a "
                   "singleton of theirs")
    g.add_argument("--label", **opt.keyword(coref.PARAMS, "label"), default="chain",
                   help="label of a mention (Artstein & Poesio 2005, §4.1): its full chain "
                   "(default; Passonneau 2004), the chain up to it (prefix), or its antecedent "
                   "(nominal only)")
    g.add_argument("--singletons", **opt.keyword(coref.PARAMS, "singletons"), default="keep",
                   help="keep (default) or drop mentions of one-member chains")
    opt.add_distance(g, coref.SET_DISTANCES, coref.DISTANCES, many=True)
    opt.add_bootstrap(p, ("document", "item"))
    opt.add_by_document(p)
    opt.add_diagnostics(p, "pairwise and leave-one-out α, most-disputed mentions with each "
                        "annotator's chain, α per mention")
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    distances = opt.distances_of(args, coref.SET_DISTANCES, coref.DISTANCES)
    settings = opt.bootstrap_of(args)
    with opt.reading(args, "reading coreference annotations"):
        corpus = coref.read(args.paths, input_format=args.input_format,
                            annotators=opt.split(args.annotators),
                            **opt.reader_options_of(args, "coref"))
    with opt.progress(args, "coreference agreement") as bar:
        report = coref.analyse(corpus, distance=distances, match=args.match,
                               unmarked=args.unmarked, label=args.label,
                               singletons=args.singletons, bootstrap=settings,
                               by_document=args.by_document, diagnostics=args.diagnostics,
                               progress=bar.update)
    return opt.emit(args, [report])
