"""Tables at scale: ``corpusagree table`` end to end on a long table of N items × 5 coders,
beside pyarrow's own read of the same file (the floor of any reader).

For each format (CSV, Parquet, Arrow IPC, JSON Lines) and label kind (set labels such as
``e3|e17`` under ``--set-sep '|' --distance jaccard``, or single labels), the script writes
the file, times pyarrow's read of it, times the statistics alone (the report's analysis on
data already in memory), and runs the command line in a child process under GNU time for its
wall time and peak resident memory. Beside CSV, each other format's difference in CPU time end
to end, in pyarrow's own read of the file (``pyarrow.json.read_json`` against
``pyarrow.csv.read_csv`` …) and in ours beyond that read: whether a gap is pyarrow's or ours.
The target of issue 36: end to end within 10 × pyarrow's read + the statistics' time + 3 s,
at most 1.5 GB at 10⁶ items (8 GB at 10⁷).

``--out-of-core`` instead writes Parquet files of growing size and runs the dask engine on
Dask's local scheduler (threads, shuffle on disk) in a child process each, printing time, peak
memory and the growth exponent of the time from the first size.

    python benchmarks/table_scale.py                      # 10⁶ items × 5 coders
    python benchmarks/table_scale.py --rows 1e7 --formats csv
    python benchmarks/table_scale.py --out-of-core --sizes 1e6,1e7,5e7
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

CODERS = 5
EXT = {"csv": ".csv", "parquet": ".parquet", "arrow": ".arrow", "jsonl": ".jsonl"}


def judgements(n_items: int, *, sets: bool, seed: int = 0, start: int = 0):
    """A long Arrow table: n_items × 5 coders, 5 % of labels missing (empty), labels one or
    two of 40 values (``e3|e17``) or one of 40."""
    import pyarrow as pa
    import pyarrow.compute as pc
    rng = np.random.default_rng(seed)
    n = n_items * CODERS
    items = np.repeat(np.arange(start, start + n_items), CODERS)
    coders = np.tile(np.arange(CODERS), n_items)

    def named(prefix, values):
        return pc.binary_join_element_wise(prefix, pa.array(values.astype(str)), "")

    a = named("e", rng.integers(0, 40, n))
    if sets:
        two = pa.array(rng.random(n) < 0.5)
        label = pc.if_else(two, pc.binary_join_element_wise(
            a, named("e", rng.integers(0, 40, n)), "|"), a)
    else:
        label = a
    label = pc.if_else(pa.array(rng.random(n) < 0.05), pa.scalar(""), label)
    return pa.table({"coder": named("c", coders), "item": named("i", items), "label": label})


def write(table, path: Path, fmt: str) -> None:
    import pyarrow.csv as pcsv
    import pyarrow.feather as feather
    import pyarrow.parquet as pq
    if fmt == "csv":
        pcsv.write_csv(table, path, write_options=pcsv.WriteOptions(quoting_style="none"))
    elif fmt == "parquet":
        pq.write_table(table, path, row_group_size=1 << 20)
    elif fmt == "arrow":
        feather.write_feather(table, path, compression="uncompressed")
    else:
        table.to_pandas().to_json(path, orient="records", lines=True)


def pyarrow_read(path: Path, fmt: str) -> tuple[float, float]:
    """(wall, CPU) seconds of pyarrow's own read of the file (best of 2; CPU of every
    thread)."""
    import pyarrow.csv as pcsv
    import pyarrow.feather as feather
    import pyarrow.json as pj
    import pyarrow.parquet as pq
    read = {"csv": pcsv.read_csv, "parquet": pq.read_table, "arrow": feather.read_table,
            "jsonl": pj.read_json}[fmt]
    best = (math.inf, math.inf)
    for _ in range(2):
        t, c = time.perf_counter(), time.process_time()
        read(path)
        best = min(best, (time.perf_counter() - t, time.process_time() - c))
    return best


def statistics_time(path: Path, sets: bool) -> tuple[float, float]:
    """(wall, CPU) seconds of the table report's analysis on data already read (every
    coefficient)."""
    from corpusagree.analyses import table
    corpus = table.read(path, set_sep="|" if sets else None)
    t, c = time.perf_counter(), time.process_time()
    table.analyse(corpus, distance="jaccard" if sets else "nominal")
    return time.perf_counter() - t, time.process_time() - c


def timed(argv: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak resident MB) of a child process under GNU time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        t = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", out.name, *argv],
                       check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        user, system, rss = out.read().split()[-3:]
        return wall, float(user) + float(system), int(rss) / 1024


def end_to_end(path: Path, sets: bool) -> tuple[float, float, float]:
    opts = ["--set-sep", "|", "--distance", "jaccard"] if sets else []
    return timed([sys.executable, "-m", "corpusagree", "table", str(path), *opts, "--json"])


def in_memory(args) -> list[dict]:
    rows = []
    n = int(float(args.rows))
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        for kind in args.kinds.split(","):
            sets = kind == "sets"
            table = judgements(n, sets=sets)
            stats = None
            for fmt in args.formats.split(","):
                path = Path(tmp) / f"{kind}{EXT[fmt]}"
                write(table, path, fmt)
                read = pyarrow_read(path, fmt)
                if stats is None:
                    stats = statistics_time(path, sets)
                wall, cpu, rss = end_to_end(path, sets)
                budget = [10 * r + s + 3 for r, s in zip(read, stats, strict=True)]
                row = {"labels": kind, "format": fmt, "items": n, "coders": CODERS,
                       "MB": path.stat().st_size / 2**20, "pyarrow_read_s": read,
                       "statistics_s": stats, "end_to_end_s": (wall, cpu),
                       "beyond_pyarrow_cpu_s": cpu - read[1],
                       "budget_s": budget, "peak_MB": rss}
                rows.append(row)
                print(f"{kind:6} {fmt:7} {n:>10,} items {row['MB']:5.0f} MB  (wall/CPU s)  "
                      f"pyarrow {read[0]:5.2f}/{read[1]:5.2f}  stats {stats[0]:5.2f}/"
                      f"{stats[1]:5.2f}  end to end {wall:6.2f}/{cpu:6.2f}  budget "
                      f"{budget[0]:5.1f}/{budget[1]:5.1f}  {rss:5.0f} MB peak", flush=True)
                path.unlink()
            against_csv([r for r in rows if r["labels"] == kind])
    return rows


def against_csv(rows: list[dict]) -> None:
    """Each format's CPU time beside CSV's: end to end, pyarrow's own read of the file, and
    ours beyond that read (whether a gap is pyarrow's or ours)."""
    csv = next((r for r in rows if r["format"] == "csv"), None)
    if csv is None:
        return
    for r in rows:
        if r is csv:
            continue
        total = r["end_to_end_s"][1] - csv["end_to_end_s"][1]
        theirs = r["pyarrow_read_s"][1] - csv["pyarrow_read_s"][1]
        print(f"  {r['format']} − csv, CPU s: end to end {total:+.2f}, pyarrow's read "
              f"{theirs:+.2f}, ours beyond it {total - theirs:+.2f}", flush=True)


OUT_OF_CORE = """
import sys, dask
from corpusagree.stats import frames
dask.config.set({"scheduler": "threads", "dataframe.shuffle.method": "disk",
                 "temporary-directory": sys.argv[2]})
found = frames.read(sys.argv[1], set_sep="|").results("jaccard")
print(next(r.value for r, _ in found if r.id == "alpha" and r.distance == "jaccard"))
"""


def out_of_core(args) -> list[dict]:
    import pyarrow.parquet as pq
    rows = []
    first = None
    per_file = 200_000  # items per file (10⁶ judgements)
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        folder = Path(tmp) / "logs"
        folder.mkdir()
        written = 0
        for size in (int(float(s)) for s in args.sizes.split(",")):
            items = size // CODERS
            while written < items:  # the files of the smaller sizes are reused
                k = min(per_file, items - written)
                pq.write_table(judgements(k, sets=True, seed=written, start=written),
                               folder / f"part{written // per_file:05d}.parquet")
                written += k
            wall, cpu, rss = timed([sys.executable, "-c", OUT_OF_CORE,
                                    str(folder / "*.parquet"), tmp])
            if first is None:
                first = (size, wall, cpu)
            growth = [math.log(x / x0) / math.log(size / first[0]) if size > first[0]
                      else float("nan") for x, x0 in ((wall, first[1]), (cpu, first[2]))]
            rows.append({"judgements": size, "seconds": (wall, cpu), "peak_MB": rss,
                         "growth_exponent": growth})
            print(f"dask local {size:>12,} judgements  wall {wall:7.1f} s  CPU {cpu:7.1f} s  "
                  f"{rss:6.0f} MB peak  growth exponent {growth[0]:.2f}/{growth[1]:.2f}",
                  flush=True)
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", default="1e6", help="items (× 5 coders); default 1e6")
    p.add_argument("--formats", default="csv,parquet,arrow,jsonl")
    p.add_argument("--kinds", default="sets,single", help="sets and/or single labels")
    p.add_argument("--out-of-core", action="store_true",
                   help="the dask engine on Parquet files of growing size")
    p.add_argument("--sizes", default="1e6,1e7", help="judgements, with --out-of-core")
    p.add_argument("--tmp", default=os.environ.get("TMPDIR"), help="where files are written")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    rows = out_of_core(args) if args.out_of_core else in_memory(args)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
