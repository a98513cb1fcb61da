"""``corpusagree markables PATH...``: span and attribute agreement on MMAX2 markables."""

from __future__ import annotations

import argparse

from ..analyses import markables
from . import options as opt

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "markables", help="MMAX2 markable agreement: spans per level, attribute values",
        description="Per MMAX2 markable level (Müller & Strube 2006): nominal α, κ and A_o "
        "on whether each token is inside a markable (Artstein & Poesio 2008, §2.3–2.4; "
        "Krippendorff 2011) and pairwise span F1 (Hripcsak & Rothschild 2005); nominal α, κ "
        "and A_o on markable attributes (e.g. polarity) over markables aligned across "
        "annotators, and multi-valued α (mvα; Krippendorff & Craggs 2016) on set-valued "
        "attributes (--set-sep).")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="MMAX2 project folders (one per annotator), .mmax files, or a folder "
                   "of annotator project folders over shared base data")
    opt.add_annotators(p, "annotator names, comma-separated, one per project folder found "
                       "(default: the folder names)")
    g = p.add_argument_group("markables")
    g.add_argument("--levels", action="append", metavar="LEVEL",
                   help="markable level(s) (repeatable or comma-separated; default: every "
                   "declared level but 'sentence')")
    g.add_argument("--attribute", action="append", metavar="NAME",
                   help="markable attribute(s) to compare (repeatable or comma-separated; "
                   "default: every attribute that is not a pointer or set id)")
    g.add_argument("--common-paths", metavar="FILE",
                   help="a common_paths.xml shared by every project (default: the one beside "
                   "each .mmax file, else a global_common_paths.xml above it)")
    g.add_argument("--set-sep", metavar="SEP",
                   help="attribute values are sets of values separated by SEP (e.g. '|'; an "
                   "empty value is the empty set): their agreement adds Krippendorff & Craggs's "
                   "multi-valued alpha (mvα)")
    g.add_argument("--match", **opt.keyword(markables.PARAMS, "match"), default="exact",
                   help="align markables by identical token sets (default) or by maximal "
                   "token overlap, one to one (Kuhn–Munkres on Dice)")
    opt.add_bootstrap(p, ("document", "item"))
    opt.add_by_document(p)
    opt.add_diagnostics(p, "per level, the coder × coder and leave-one-out α on the tokens",
                        "the N tokens that cost most")
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    levels = opt.split(args.levels)
    with opt.progress(args, "reading MMAX2 documents") as bar:
        corpus = markables.read(args.paths, annotators=opt.split(args.annotators),
                                progress=bar.update, levels=levels,
                                common_paths=args.common_paths)
    with opt.progress(args, "resampling") as bar:
        report = markables.analyse(corpus, levels=levels,
                                   attributes=opt.split(args.attribute), match=args.match,
                                   set_sep=args.set_sep,
                                   bootstrap=opt.bootstrap_of(args),
                                   by_document=args.by_document, diagnostics=args.diagnostics,
                                   progress=bar.update)
    return opt.emit(args, [report])
