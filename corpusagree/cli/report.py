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
    legacy = _legacy(root, args.output_format == "json") if not args.output else False
    if not reports and not legacy:
        raise InputError("nothing to report: expected subfolders table/, coref/, segments/ or "
                         "senses/", root)
    return opt.emit(args, reports, many=True)


def _legacy(root: Path, json_out: bool) -> bool:  # TEMPORARY: jobs not yet in analyses/
    import importlib

    ran = False
    for task, sub in (("coref", "coref"), ("markables", "coref"), ("segments", "segments"),
                      ("senses", "senses")):
        if hasattr(importlib.import_module(f"corpusagree.analyses.{task}") if
                   importlib.util.find_spec(f"corpusagree.analyses.{task}") else None,
                   "from_folder"):
            continue
        job = importlib.import_module(f"corpusagree.jobs.{task}")
        if (root / sub).is_dir() and job.report_folder(root / sub, json_out):
            ran = True
    return ran
