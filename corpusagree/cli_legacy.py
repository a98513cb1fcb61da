"""``corpusagree …``: the command line. It only wires readers, converters, coefficients and
reports together. User mistakes print one line ``file:line: message`` and exit with status 2."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from . import report, report_diagnostics
from .model.data import ReliabilityData, _parse_number, _read_table
from .model.errors import InputError
from .stats import coefficients as coef
from .stats import distances as dist
from .stats import inference, interpret
from .stats.spec import COEFFICIENTS

NUMERIC = {"interval", "ordinal", "ratio"}

#: jobs that live in their own modules; each exposes ``register(subparsers)`` and
#: ``report_folder(path, json_out) -> bool`` (run on ``sample_corpora/<task>/``-like folders)
JOB_MODULES = {"coref": "corpusagree.jobs.coref", "markables": "corpusagree.jobs.markables",
               "segments": "corpusagree.jobs.segments", "senses": "corpusagree.jobs.senses"}


#: jobs that read another job's sample folder (markables: the MMAX2 version of coref/)
JOB_FOLDERS = {"markables": "coref"}


def _jobs() -> dict:
    return {task: importlib.import_module(mod) for task, mod in JOB_MODULES.items()
            if importlib.util.find_spec(mod) is not None}


# ---- table ---------------------------------------------------------------------------------
def read_weights(path: str) -> dist.Matrix:
    """A weight file: rows ``a,b,distance`` or a square matrix with a header row of labels."""
    rows = [(n, [c.strip() for c in r]) for n, r in _read_table(path, None) if any(r)]
    if not rows:
        raise InputError("empty weight file", path)
    try:
        if len(rows[0][1]) == 3 and not _looks_square(rows):
            pairs = {}
            for n, (a, b, d) in rows:
                if (a, b) in pairs or (b, a) in pairs and a != b:
                    raise InputError(f"distance for ({a}, {b}) given twice", path, n)
                pairs[(a, b)] = _parse_number(d, path, n)
            return dist.Matrix(pairs)
        header = rows[0][1][1:]
        body = rows[1:]
        if len(body) != len(header):
            raise InputError(f"square weight matrix has {len(header)} columns and {len(body)} "
                             "rows", path, rows[0][0])
        D = np.zeros((len(header), len(header)))
        for r, (n, cells) in enumerate(body):
            if len(cells) != len(header) + 1:
                raise InputError(f"{len(cells)} fields, expected {len(header) + 1}", path, n)
            if cells[0] != header[r]:
                raise InputError(f"row label {cells[0]!r} should be {header[r]!r} (same order "
                                 "as the header)", path, n)
            D[r] = [_parse_number(c, path, n) for c in cells[1:]]
        return dist.Matrix(D, header)
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), path) from None


def _looks_square(rows) -> bool:
    return rows[0][1][0] == "" and len(rows) == len(rows[0][1])


def load_table(args) -> ReliabilityData:
    numeric = args.weights is None and args.distance in NUMERIC
    cats = [c.strip() for c in args.categories.split(",")] if args.categories else None
    if numeric and cats:
        cats = [_parse_number(c, "--categories", None) for c in cats]
    if args.wide:
        return ReliabilityData.from_wide_csv(args.file, delimiter=args.delimiter,
                                             set_sep=args.set_sep, numeric=numeric,
                                             categories=cats)
    return ReliabilityData.from_csv(args.file, coder=args.coder, item=args.item,
                                    label=args.label, group=args.group,
                                    delimiter=args.delimiter, set_sep=args.set_sep,
                                    numeric=numeric, categories=cats)


def cmd_table(args) -> int:
    data = load_table(args)
    distance = read_weights(args.weights) if args.weights else dist.get(args.distance)
    try:
        results = coef.table(data, distance, data.categories)
    except ValueError as e:
        raise InputError(str(e), args.file) from None
    intervals = confidence_intervals(data, results, args) if args.ci else None
    missing = int((data.codes < 0).sum())
    summary = {"file": str(args.file), "coders": data.n_coders, "items": data.n_items,
               "labels": data.n_labels, "judgements": int((data.codes >= 0).sum()),
               "missing": missing}
    diag = None
    if args.diagnostics:
        try:
            diag = report_diagnostics.diagnostics_json(data, distance, reference=args.reference)
        except ValueError as e:
            raise InputError(str(e), args.file) from None
    if args.json:
        rows = [r.as_dict() for r in results]
        for row, iv in zip(rows, intervals or [None] * len(rows), strict=True):
            row["interval"] = None if iv is None else iv.as_dict()
            row["conventions"] = {k: v.as_dict() if v else None
                                  for k, v in interpret.readings(row["value"]).items()} \
                if COEFFICIENTS[row["id"]].chance_corrected else None
        report.print_json({**summary, "coefficients": rows,
                           **({"diagnostics": diag} if diag is not None else {})})
        return 0
    title = (f"{args.file}: {data.n_coders} coders × {data.n_items} items, {data.n_labels} "
             f"labels, {missing} missing judgements")
    con = report.console()
    con.print(report.results_table(results, title, intervals=intervals))
    if diag is not None:
        for t in report_diagnostics.diagnostics_tables(data, distance, payload=diag):
            con.print(t)
    return 0


def confidence_intervals(data: ReliabilityData, results, args) -> list:
    """Bootstrap intervals for every result that has one, all on the same resamples
    (clustered by the group column when there is one)."""
    keys = [r.id if COEFFICIENTS[r.id].resamplable else None for r in results]
    specs = [(k, r._kernel.distance) for k, r in zip(keys, results, strict=True) if k]
    try:
        ivs = iter(inference.bootstrap(
            data, specs, inference.Bootstrap(args.resamples, args.ci, args.interval,
                                             None if data.groups is not None else False,
                                             args.seed)))
    except ValueError as e:
        raise InputError(str(e), args.file) from None
    return [next(ivs) if k else None for k in keys]


def add_ci_options(p: argparse.ArgumentParser, seed: int | None = None) -> None:
    """The interval options shared by every job."""
    p.add_argument("--ci", nargs="?", type=float, const=0.95, default=None, metavar="LEVEL",
                   help="bootstrap confidence intervals (default level 0.95), resampling "
                   "documents (or lemmas) when the data have them")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap replicates (1000)")
    p.add_argument("--seed", type=int, default=seed, help=f"bootstrap seed ({seed})")
    p.add_argument("--interval", choices=["percentile", "bca"], default="percentile",
                   help="bootstrap interval (default: percentile)")


# ---- report: every job on a folder laid out like sample_corpora/ ---------------------------
def _table_args(path: Path, json_out: bool) -> argparse.Namespace:
    """Options for one reliability-data file of a report folder, read off the file itself:
    long layout when the header has coder/item/label (group column ``document`` if present),
    else wide; interval distance when every label is a number; ``X.weights.csv`` beside
    ``X.csv`` is its weight matrix."""
    rows = [r for _, r in _read_table(path, None)]
    header = [h.strip() for h in rows[0]] if rows else []
    long = {"coder", "item", "label"} <= set(header)
    cells = [r[header.index("label")] for r in rows[1:]] if long else \
        [c for r in rows[1:] for c in r[1:]]
    numeric = all(_is_number_text(c) for c in cells if c.strip())
    weights = path.with_name(path.name[:-len(".csv")] + ".weights.csv")
    return argparse.Namespace(
        file=str(path), wide=not long, coder="coder", item="item", label="label",
        group="document" if "document" in header else None, delimiter=None,
        distance="interval" if numeric else "nominal",
        weights=str(weights) if weights.exists() else None, set_sep=None, categories=None,
        json=json_out, ci=None, resamples=1000, seed=None, interval="percentile",
        diagnostics=False, reference=None)


def _is_number_text(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def cmd_report(args) -> int:
    root = Path(args.dir)
    if not root.is_dir():
        raise InputError("not a folder", root)
    ran = 0
    table_dir = root / "table"
    if table_dir.is_dir():
        for f in sorted(table_dir.glob("*.csv")):
            if not f.name.endswith(".weights.csv"):
                ran += 1
                cmd_table(_table_args(f, args.json))
    for task, job in _jobs().items():
        folder = root / JOB_FOLDERS.get(task, task)
        if folder.is_dir() and job.report_folder(folder, args.json):
            ran += 1
    if not ran:
        raise InputError("nothing to report: expected subfolders table/, coref/, segments/ or "
                         "senses/", root)
    return 0


# ---- wiring --------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="corpusagree", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("table", help="every coefficient for a reliability-data file",
                       description="Coefficients for long CSV/TSV reliability data "
                       "(one judgement per row) or a wide coder × item table (--wide).")
    t.add_argument("file")
    t.add_argument("--wide", action="store_true",
                   help="rows are coders, columns items (header: coder,item1,item2,...)")
    t.add_argument("--coder", default="coder", help="coder column (default: coder)")
    t.add_argument("--item", default="item", help="item column (default: item)")
    t.add_argument("--label", default="label", help="label column (default: label)")
    t.add_argument("--group", "--cluster", dest="group",
                   help="group (document) column: intervals resample these clusters")
    t.add_argument("--delimiter", help="field separator (default: sniffed tab/comma/semicolon)")
    t.add_argument("--distance", default="nominal", choices=sorted(dist.NAMED),
                   help="distance for the weighted coefficients (default: nominal)")
    t.add_argument("--weights", help="weight file: a,b,distance rows or a square matrix")
    t.add_argument("--set-sep", help="cells are sets of values separated by this (e.g. '|')")
    t.add_argument("--categories", help="declared category set for S, comma separated")
    add_ci_options(t)
    t.add_argument("--diagnostics", action="store_true",
                   help="why agreement is low: pairwise and leave-one-coder-out tables, worst "
                   "items, per-category α, coincidences, bias by category")
    t.add_argument("--reference", metavar="CODER",
                   help="with --diagnostics: each coder's agreement with this reference coder")
    t.add_argument("--json", action="store_true", help="machine-readable output")
    t.set_defaults(func=cmd_table)

    r = sub.add_parser("report", help="every report for a folder laid out like sample_corpora/",
                       description="Runs every job on a folder with one subfolder per task "
                       "(table/ ...), as in sample_corpora/.")
    r.add_argument("dir")
    r.add_argument("--json", action="store_true", help="machine-readable output")
    r.set_defaults(func=cmd_report)
    for job in _jobs().values():
        job.register(sub)
    return p


def _warn_one_line(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    warnings.showwarning = _warn_one_line
    try:
        return args.func(args)
    except InputError as e:
        print(str(e), file=sys.stderr)
        return 2
    except FileNotFoundError as e:
        print(f"{e.filename}: no such file", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

