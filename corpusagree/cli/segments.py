"""``corpusagree segments PATH...``: agreement between segmentation annotators."""

from __future__ import annotations

import argparse

from ..analyses import segments
from . import options as opt

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "segments", help="agreement between segmentation annotators",
        description="Agreement on linear segmentations: κ, π, α and bias B on potential "
        "boundaries labelled yes/no (Passonneau & Litman 1993; Carletta 1996); α, β and B on "
        "units labelled by the units of their segment, per set distance (Artstein & Poesio "
        "2005, §4.4); coder × coder means of boundary similarity B and segmentation "
        "similarity S (Fournier 2013), Pk (Beeferman et al. 1999) and WindowDiff (Pevzner & "
        "Hearst 2002), equal to segeval 2.0.11, and of α; α without each coder (Carletta "
        "1996, §4) and each coder's boundary rate. Reads segeval JSON/TSV, positions CSV, RST "
        "rs3, DISRPT or plain text. The first --distance is the one of the pairwise and "
        "leave-one-out α and of the costliest units.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (one format)")
    opt.add_reader_options(p, "segments", job="segments")
    opt.add_annotators(p, "keep only these annotators (comma separated)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--local-coders", action="store_true",
                   help="coder names are local to each document (e.g. Moonstone's an1..anK, "
                   "Kazantseva & Szpakowicz 2012): every document's coders are different "
                   "people, missing data elsewhere")
    g.add_argument("--coder-map", metavar="FILE",
                   help="which person each document's coder is: CSV with the header "
                   "document,coder,person (for coder names local to each document, as in "
                   "Moonstone, when the same people annotated several documents)")
    opt.add_distance(p, segments.SET_DISTANCES, segments.DISTANCES, many=True)
    opt.add_by_document(p)
    opt.add_diagnostics(p, "the potential boundaries and units that cost most in observed "
                        "disagreement, with every coder's label")
    opt.add_bootstrap(p, ("document", "item"))
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    distances = opt.distances_of(args, segments.SET_DISTANCES, segments.DISTANCES)
    bootstrap = opt.bootstrap_of(args)
    with opt.reading(args):
        corpus = segments.read(args.paths, input_format=args.input_format,
                               annotators=opt.split(args.annotators),
                               local_coders=args.local_coders, coder_map=args.coder_map,
                               **opt.reader_options_of(args, "segments"))
    with opt.progress(args, "computing") as bar:
        report = segments.analyse(corpus, distance=distances, by_document=args.by_document,
                                  diagnostics=args.diagnostics, bootstrap=bootstrap,
                                  progress=bar.update)
    return opt.emit(args, [report])
