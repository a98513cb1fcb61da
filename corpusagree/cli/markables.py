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
        "attributes (--set-sep); NER-style agreement per level as the spans job gives it "
        "(SemEval-2013 Task 9.1's four modes, token κ on all and on marked tokens).")
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
    n = p.add_argument_group("NER-style agreement")
    n.add_argument("--no-ner", dest="ner", action="store_false",
                   help="leave out the NER-style agreement per level (SemEval-2013 Task 9.1's "
                   "strict, exact, partial and ent_type modes as nervaluate counts them, "
                   "token κ/α on all and on marked tokens, the first disagreements)")
    n.add_argument("--category", metavar="ATTRIBUTE",
                   help="ner: the markable attribute that gives a markable's type (default: "
                   "'type' where the markables have one, else one type, 'mention')")
    opt.add_ner_options(n, markables.PARAMS, "markable")
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
                                   ner=args.ner, category=args.category,
                                   min_overlap=args.min_overlap,
                                   disagreements=args.disagreements, progress=bar.update)
    return opt.emit(args, [report])
