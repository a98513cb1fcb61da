"""``corpusagree schema``: the JSON Schema of the report document that ``--json`` writes."""

from __future__ import annotations

import argparse
import json

from . import options as opt

__all__ = ["HELP", "register", "run"]

#: its line in ``corpusagree --help``
HELP = "the JSON Schema of the report that --json writes"


def register(sub) -> None:
    p = sub.add_parser(
        "schema", help=HELP,
        description="Prints the JSON Schema (draft 2020-12) of the report document every job "
        "writes with --json (corpusagree report --json: a list of them), to validate a report "
        "or to generate code that reads one. The same as corpusagree.schema() in "
        "Python.")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write to FILE instead of standard output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..analyses.jobs import schema
    from ..report.terminal import can_encode

    with opt.output_stream(args) as stream:
        stream.write(json.dumps(schema(), indent=2, ensure_ascii=not can_encode(stream))
                     + "\n")
    return 0
