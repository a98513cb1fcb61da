"""``corpusagree report FOLDER``: every job on a folder whose sub-folders each hold one job's
data (``sample_corpora/`` is one)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..model.errors import InputError
from . import options as opt

__all__ = ["HELP", "register", "run"]

#: its line in ``corpusagree --help``
HELP = "every job on a folder whose sub-folders each hold one job's data"


def register(sub) -> None:
    p = sub.add_parser(
        "report", help=HELP,
        description="Runs every job on a folder whose sub-folders each hold one job's data, "
        "recognised by their files whatever their names: reliability data (.csv/.tsv with "
        "coder, item, label, or a wide coder × item table), coreference annotations (one "
        "sub-folder or file per annotator), segmentations, or sense annotations; "
        "sample_corpora/ is such a folder. 95 % bootstrap intervals. A part that cannot be "
        "read or analysed is named in a note and the others still run (--strict: exit 2 "
        "instead).")
    p.add_argument("folder", nargs="+", help="one or more such folders")
    opt.add_bootstrap(p, ("document", "item"), level=0.95, coders=False)
    opt.add_diagnostics(p, "each job's diagnostics", "the N costliest items of each")
    p.add_argument("--strict", action="store_true",
                   help="a part that cannot be read or analysed is an error (exit 2), not a "
                   "note")
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..analyses import folder

    roots = [Path(f) for f in args.folder]
    for root in roots:
        if not root.is_dir():
            raise InputError("not a folder", root)
    settings = opt.bootstrap_of(args)
    reports = []
    with opt.progress(args, "report") as bar:
        for root in roots:
            def part(what: str, k: int, n: int, root: Path = root):
                bar.describe(f"{root.name or root} {k + 1}/{n} {what}")
                bar.update(0, None)
                return bar.update

            reports += folder.analyse(root, settings, diagnostics=args.diagnostics,
                                      strict=args.strict, progress=part)
    return opt.emit(args, reports, many=True)
