"""``corpusagree JOB PATH...`` for a registered job without a module of its own here: the
sub-command made from its registration (:class:`corpusagree.analyses.jobs.Job`).

Its paths, the reader options of its tasks (``table``: one reliability-data file), the
shared options (``--annotators``, the bootstrap, ``--by-document``, ``--diagnostics``, the
output) and the keywords of its table; ``read`` and ``analyse`` of its module do the rest.
"""

from __future__ import annotations

import argparse
from functools import partial

from ..analyses import jobs
from . import options as opt

__all__ = ["register", "run"]


def register(sub, job: jobs.Job) -> None:
    """The sub-command of ``job`` on the sub-parsers ``sub``."""
    from .. import readers

    p = sub.add_parser(job.name, help=job.help, description=job.help)
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    tasks = [t for t in job.tasks if t in readers.TASKS]
    if tasks:
        opt.add_reader_options(p, *tasks, job=job.name)
    opt.add_annotators(p, "keep only these annotators, comma separated")
    opt.add_bootstrap(p)
    opt.add_by_document(p)
    opt.add_diagnostics(p, "the job's diagnostics")
    opt.add_output(p)
    p.set_defaults(func=partial(run, job.name))


def run(name: str, args: argparse.Namespace) -> int:
    """Read the paths with the job's ``read``, analyse them and write the report."""
    from .. import readers

    module = jobs.module(name)
    job = jobs.get(name)
    given = {}
    for task in (t for t in job.tasks if t in readers.TASKS):
        given.update(opt.reader_options_of(args, task))
    with opt.reading(args):
        corpus = module.read(args.paths, input_format=getattr(args, "input_format", "auto"),
                             annotators=opt.split(args.annotators), **given)
    with opt.progress(args, name) as bar:
        report = module.analyse(corpus, bootstrap=opt.bootstrap_of(args),
                                by_document=args.by_document, diagnostics=args.diagnostics,
                                progress=bar.update)
    return opt.emit(args, [report])
