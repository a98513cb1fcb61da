"""``corpusagree report FOLDER``: every job on a folder laid out like ``sample_corpora/``."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..analyses import folder
from ..model.errors import InputError
from . import options as opt


def register(sub) -> None:
    p = sub.add_parser(
        "report", help="every job on a folder laid out like sample_corpora/",
        description="Runs every job on a folder with one subfolder per task (table/, coref/, "
        "segments/, senses/), as in sample_corpora/, with 95 %% bootstrap intervals.")
    p.add_argument("folder")
    opt.add_bootstrap(p, ("document", "item"), level=0.95)
    opt.add_output(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    root = Path(args.folder)
    if not root.is_dir():
        raise InputError("not a folder", root)
    reports = folder.analyse(root, opt.bootstrap_of(args))
    if not reports:
        raise InputError("nothing to report: expected subfolders table/, coref/, segments/ or "
                         "senses/", root)
    return opt.emit(args, reports, many=True)
