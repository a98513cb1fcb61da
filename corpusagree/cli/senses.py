"""``corpusagree senses ANNOTATIONS``: word-sense agreement under several grouping schemes."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..analyses import corpora, senses
from ..model.errors import InputError
from ..readers import discover
from . import options as opt

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "senses", help="word-sense agreement: fine, coarse, extended and multi-sense schemes",
        description="Agreement on word-sense tags under several sense-grouping schemes side "
        "by side (Artstein & Poesio 2005, §4.4): fine senses, coarse groups (as in Palmer et "
        "al. 2007), extended senses es(s) with a set distance, and sets of senses; per "
        "inventory, with bootstrap intervals clustered by lemma or document. A folder laid "
        "out like sample_corpora/senses/ gives one report per annotation set.")
    p.add_argument("annotations", nargs="+", metavar="ANNOTATIONS",
                   help="Raganato/Senseval: the data XML then the annotators' key files (or a "
                   "folder of them); OntoNotes .sense, long TSV or WSbest files; or a folder "
                   "laid out like sample_corpora/senses/")
    opt.add_reader_options(p, "senses", job="senses")
    opt.add_annotators(p, "annotator names, comma separated: one per key file (default: the "
                       "key file names), or the two of an OntoNotes .sense file")
    g = p.add_argument_group("schemes")
    g.add_argument("--inventory", action="append", metavar="INV",
                   help="sense inventory (repeatable): OntoNotes XML file or folder, TSV "
                   "(sense, group, ...), or 'lexfile' (WordNet lexicographer files)")
    g.add_argument("--schemes", metavar="S,...",
                   help="comma-separated subset of fine,coarse,extended,multi (default: fine, "
                   "multi when a tag has several senses, coarse and extended per inventory)")
    g.add_argument("--level", default="top",
                   help="coarse scheme: the groups N levels up, or 'top' (default) for the top "
                   "groups (Palmer et al. 2007)")
    g.add_argument("--depth", **opt.keyword(senses.PARAMS, "depth"), default=None, metavar="N",
                   help="extended scheme: es(s) with the groups up to N levels up (default: "
                   "all; Artstein & Poesio 2005, §4.4)")
    opt.add_distance(g, senses.SET_DISTANCES, "passonneau",
                     what="set distance of the extended and multi schemes (Artstein & Poesio "
                     "2005, §4.4)")
    opt.add_bootstrap(p, ("lemma", "document", "item"))
    p.add_argument("--by-lemma", "--by-document", action="store_true", dest="by_lemma",
                   help="also the figures per lemma, with an interval for α")
    opt.add_diagnostics(p, "the most confused sense pairs per lemma (coincidences o_ck) and "
                        "every diagnostic of the fine scheme", "N pairs per lemma and "
                        f"max(N, {senses.MIN_ITEMS}) costliest items")
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.annotations]
    inventories = list(args.inventory or [])
    if len(paths) == 1 and paths[0].is_dir() and args.input_format == "auto":
        sets, found = discover.sense_sets(paths[0])
        if not sets:
            raise InputError(corpora.other_jobs_files(paths, ["senses"]) or
                             "no sense annotations found in this folder", paths[0])
        inputs = [(s.paths, s.format) for s in sets]
        inventories = inventories or found
    else:
        inputs = [(paths, args.input_format)]
    settings = opt.bootstrap_of(args)
    level = _level(args.level)
    reader_options = opt.reader_options_of(args, "senses")
    reports = []
    for files, fmt in inputs:
        with opt.progress(args, "reading sense files") as bar:
            corpus = senses.read(files, input_format=fmt,
                                 annotators=opt.split(args.annotators), progress=bar.update,
                                 **reader_options)
        with opt.progress(args, "resampling") as bar:
            reports.append(senses.analyse(
                corpus, inventories=inventories, schemes=opt.split(args.schemes),
                depth=args.depth, level=level, distance=args.distance, cluster=args.cluster,
                bootstrap=settings, by_document=args.by_lemma, diagnostics=args.diagnostics,
                progress=bar.update))
    return opt.emit(args, reports)


def _level(text: str) -> int | None:
    """``--level``: None for 'top', else a positive integer."""
    if text == "top":
        return None
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise InputError(f"--level: expected a positive integer or 'top', not {text!r}")
    return n
