"""The robustness suite at benchmark size: mutation fuzzing of every reader and job.

Runs ``--cases`` cases planned from ``--seed`` (see ``benchmarks/fuzzing.py``: every source of
``sample_corpora/``, ``tests/data/`` and, when present, ``../shared/corpora`` or
``$CORPUSAGREE_CORPORA``, under every mutation that applies to it) and prints the count of
each outcome, the counts per (source, mutation) that are not all ``ok``/``error``, the
unmutated sources' CPU time per byte, and every failing case. The reproducers of failing
cases go to ``--keep`` (default ``fuzz-failures/``): ``<outcome>/<case>/`` holds the mutated
inputs ``in/``, the secret ``secret/``, ``command.sh`` (run it to see the failure),
``case.json`` and the case's stdout and stderr. Exit status 1 when a case failed.

Usage: python benchmarks/fuzz.py [--cases 20000] [--seed 0] [--workers N] [--exec]
       [--timeout 60] [--factor 10] [--floor 3] [--minutes M] [--long-line-mb 20] [--no-shared]
       [--mutations a,b] [--sources a,b] [--only N] [--keep DIR] [--list] [--json]
       [--save FILE] [--journal FILE]

With ``--journal FILE`` each finished case is appended to FILE as a JSON line and a run
with the same FILE (and the same ``--cases``, ``--seed``, sources and mutations) skips the
cases FILE holds, so the 20,000 cases can be run in parts and the last part's report counts
them all.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path

_spec = importlib.util.spec_from_file_location("fuzzing", Path(__file__).with_name("fuzzing.py"))
fuzzing = importlib.util.module_from_spec(_spec)
sys.modules["fuzzing"] = fuzzing
_spec.loader.exec_module(fuzzing)


def _progress(start: float):
    last = [0.0]

    def update(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 2 or done == total:
            last[0] = now
            rate = done / max(now - start, 1e-9)
            print(f"\r{done}/{total} cases, {rate:.1f}/s, "
                  f"{(total - done) / max(rate, 1e-9):.0f} s to go   ", end="",
                  file=sys.stderr, flush=True)
            if done == total:
                print(file=sys.stderr)

    return update


def table(report) -> str:
    """Counts per outcome, then per (source, mutation) pairs that had a failure."""
    counts = report.counts()
    run = (f"{len(report.results)} cases" if len(report.results) == report.planned else
           f"{len(report.results)} of {report.planned} cases (time budget)")
    lines = [f"{run}, {report.seconds:.0f} s "
             f"({report.settings.workers} workers, {report.settings.mode})", ""]
    lines += [f"  {o:10s} {counts[o]:7d}" for o in fuzzing.OUTCOMES]
    lines += ["", "unmutated sources (CPU seconds, bytes, µs per byte):"]
    lines += [f"  {b.source:28s} {b.cpu:6.3f} s {b.bytes:9d} B {1e6 * b.per_byte:8.3f}"
              f"{'' if b.outcome == 'ok' else '  ' + b.outcome + ': ' + b.why}"
              for b in report.baselines.values()]
    bad = {k: c for k, c in sorted(report.by_pair().items())
           if any(o in fuzzing.FAILURES for o in c)}
    if bad:
        lines += ["", "(source, mutation) with failures:"]
        lines += [f"  {s:28s} {m:11s} " + ", ".join(f"{o} {n}" for o, n in sorted(c.items()))
                  for (s, m), c in bad.items()]
    per_mutation: dict[str, dict[str, int]] = {}
    for (_, m), c in report.by_pair().items():
        for o, n in c.items():
            per_mutation.setdefault(m, {}).setdefault(o, 0)
            per_mutation[m][o] += n
    lines += ["", "per mutation:"]
    lines += [f"  {m:11s} " + ", ".join(f"{o} {n}" for o, n in sorted(c.items()))
              for m, c in sorted(per_mutation.items())]
    fails = report.failures()
    if fails:
        lines += ["", f"{len(fails)} failing cases:"] + [f"  {r.line()}" for r in fails]
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cases", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=fuzzing.Settings().workers)
    p.add_argument("--exec", action="store_true",
                   help="run python -m corpusagree per case instead of forking a worker")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds before a case hangs")
    p.add_argument("--factor", type=float, default=10.0,
                   help="allowed CPU time per byte, relative to the unmutated source")
    p.add_argument("--floor", type=float, default=3.0, help="CPU seconds any case may take")
    p.add_argument("--minutes", type=float,
                   help="start no case after this many minutes; report the cases run")
    p.add_argument("--long-line-mb", type=float, default=20.0)
    p.add_argument("--no-shared", action="store_true", help="leave out ../shared/corpora")
    p.add_argument("--mutations", help="only these mutations (comma separated)")
    p.add_argument("--sources", help="only these sources (comma separated)")
    p.add_argument("--only", type=int, action="append",
                   help="run only case number N of the plan (repeatable)")
    p.add_argument("--keep", type=Path, default=Path("fuzz-failures"),
                   help="folder for the reproducers of failing cases")
    p.add_argument("--list", action="store_true", help="list the sources and mutations")
    p.add_argument("--json", action="store_true")
    p.add_argument("--save", type=Path, help="also write the JSON report to this file")
    p.add_argument("--journal", type=Path,
                   help="append each case's result here; cases it holds are not run again")
    args = p.parse_args()
    if args.list:
        for s in fuzzing.sources():
            here = "" if s.available() else "  (absent)"
            print(f"source   {s.name:28s} corpusagree {' '.join(s.argv)}{here}")
        for m in fuzzing.MUTATIONS.values():
            print(f"mutation {m.name:28s} {m.help}")
        return 0

    srcs = fuzzing.available_sources(shared=not args.no_shared)
    if args.sources:
        wanted = set(args.sources.split(","))
        srcs = [s for s in srcs if s.name in wanted]
    mutations = args.mutations.split(",") if args.mutations else None
    n = args.cases if not args.only else max(args.only) + 1
    cases = fuzzing.plan(n, args.seed, srcs, mutations)
    if args.only:
        cases = [c for c in cases if c.index in set(args.only)]
    rebuild = ("python benchmarks/fuzz.py --seed {seed} --only {index} --keep DIR"
               + (" --no-shared" if args.no_shared else "")
               + (f" --sources {args.sources}" if args.sources else "")
               + (f" --mutations {args.mutations}" if args.mutations else ""))
    settings = fuzzing.Settings(workers=args.workers, mode="exec" if args.exec else "fork",
                                timeout=args.timeout, factor=args.factor, floor=args.floor,
                                long_line=int(args.long_line_mb * fuzzing.MB),
                                keep=args.keep.resolve(), rebuild=rebuild,
                                minutes=args.minutes)
    with tempfile.TemporaryDirectory(prefix="corpusagree-fuzz-") as tmp:
        report = fuzzing.run(cases, Path(tmp), settings, _progress(time.perf_counter()),
                             journal=args.journal)
    if args.save:
        args.save.write_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(table(report))
        if report.failures():
            print(f"\nreproducers: {args.keep}/<outcome>/<case>/command.sh")
    return 1 if report.failures() else 0


if __name__ == "__main__":
    sys.exit(main())
