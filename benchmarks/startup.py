"""How long ``import corpusagree``, ``corpusagree --help`` and ``corpusagree table --help``
take, each in a fresh interpreter.

Every command starts a Python process that imports the package, so its start-up is a cost every
user pays. Each figure is the best and the median wall time of ``--repeat`` runs (the runs of the
commands taken in turn, round by round), beside the floor every Python program pays: an
interpreter that imports nothing (``python -c pass``), and the ratio to it. Also listed: which
heavy libraries each command loads. ``import corpusagree`` and ``corpusagree --help`` load none
(the help lists the jobs from their cards, read from the job modules' text by
:func:`corpusagree.analyses.jobs.listed`, without importing a job); a job's help imports
that job (numpy and scipy with it, not spaCy, matplotlib, dkpro-cassis, pandas or pyarrow).
Targets: ``corpusagree --help`` ≤ 0.3 s; ``import corpusagree`` close to the floor; a job's help
is printed, not held to a target.

Usage: python benchmarks/startup.py [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

#: libraries a command should not load before it needs them
HEAVY = ("numpy", "scipy", "pandas", "matplotlib", "spacy", "cassis", "lxml", "rich", "jinja2",
         "networkx", "pyarrow")

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import corpusagree": [sys.executable, "-c", "import corpusagree"],
    "corpusagree --help": [sys.executable, "-m", "corpusagree", "--help"],
    "corpusagree table --help": [sys.executable, "-m", "corpusagree", "table", "--help"],
}

#: the target of each command, seconds (issue 34, item 14)
TARGETS = {"corpusagree --help": 0.3}

#: what each command has loaded when it ends
LOADED = {
    "import corpusagree": "import corpusagree, sys",
    "corpusagree --help": ("import sys, contextlib, io\nfrom corpusagree.cli import main\n"
                           "with contextlib.redirect_stdout(io.StringIO()):\n"
                           "    main(['--help'])"),
    "corpusagree table --help": ("import sys, contextlib, io\nfrom corpusagree.cli import main\n"
                                 "with contextlib.redirect_stdout(io.StringIO()):\n"
                                 "    try:\n        main(['table', '--help'])\n"
                                 "    except SystemExit:\n        pass"),
}


def loaded(code: str) -> list[str]:
    """The heavy libraries in sys.modules after ``code``."""
    probe = code + f"\nprint(sorted({set(HEAVY)!r} & {{m.split('.')[0] for m in sys.modules}}))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()[-1]
    return json.loads(out.replace("'", '"'))


def run(repeat: int) -> dict:
    times: dict[str, list[float]] = {k: [] for k in COMMANDS}
    for _ in range(repeat):
        for name, argv in COMMANDS.items():
            t0 = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - t0)
    floor = min(times["python -c pass"])
    return {"repeat": repeat, "commands": {
        name: {"best": min(t), "median": statistics.median(t), "over_floor": min(t) / floor,
               "target": TARGETS.get(name),
               "loads": loaded(LOADED[name]) if name in LOADED else []}
        for name, t in times.items()}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    out = run(a.repeat)
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"best and median of {a.repeat} runs, seconds; ratio of the best to python -c pass")
    for name, r in out["commands"].items():
        target = "" if r["target"] is None else f"  (target ≤ {r['target']} s)"
        print(f"{name:<25} {r['best']:6.3f} {r['median']:6.3f}  ×{r['over_floor']:.2f}{target}")
        if name != "python -c pass":
            print(f"{'':<25} heavy libraries loaded: {', '.join(r['loads']) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
