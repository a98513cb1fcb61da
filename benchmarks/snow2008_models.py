"""Models of the annotators on Snow et al.'s (2008) crowd tasks: each model's accuracy against
the gold column.

Three classification tasks of ``../shared/corpora/snow2008_mturk/`` (Mechanical Turk workers,
10 judgements per item; Snow, O'Connor, Jurafsky & Ng 2008): textual entailment (``rte``, 800
items, 164 workers, 2 labels), temporal ordering (``temp``, 462 items, 76 workers, 2 labels)
and word sense disambiguation (``wsd``, 177 items, 34 workers, 3 senses). Each model of
:mod:`corpusagree.annotators` is fitted on the workers' judgements alone; its labels are
scored against the expert ``gold`` labels (ties of the votes go to the smallest label).
The affect and word-similarity tasks of the folder are ratings averaged into gold scores,
not labels, and are left out.

Peers on the same judgements, when asked for: ``--mace-repo DIR`` (a checkout of
dirkhovy/MACE; javac) runs the MACE release with its defaults (variational Bayes, 10 random
restarts, 50 iterations), whose accuracy varies a little from run to run;
``--crowdkit-python PY`` runs this script under a Python where crowd-kit 1.4.2 runs (pandas
2.2, scikit-learn 1.5; this checkout on its path) and adds crowd-kit's MajorityVote, Wawa,
DawidSkene, OneCoinDawidSkene and GLAD (its defaults) from that same process.

Usage: python benchmarks/snow2008_models.py [--folder DIR] [--mace-repo DIR]
       [--crowdkit-python PY] [--json]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "corpora" / "snow2008_mturk"
TASKS = ("rte", "temp", "wsd")


def read(path: Path) -> tuple[list[tuple], dict]:
    """(worker, item, response) triples and item → gold of one task file."""
    triples, gold = [], {}
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            triples.append((row["!amt_worker_ids"], row["orig_id"], row["response"]))
            gold[row["orig_id"]] = row["gold"]
    return triples, gold


def ours(triples: list[tuple], gold: dict) -> dict:
    from corpusagree import ReliabilityData
    from corpusagree import annotators as an

    data = ReliabilityData.from_triples(triples)
    out = {"items": data.n_items, "workers": data.n_coders, "judgements": len(triples),
           "labels": list(data.labels), "models": {}}
    fits = [(name, fn, {}) for name, fn in an.MODELS.items()]
    fits.append(("mace_em", an.MODELS["mace"], {"method": "em"}))
    for name, fn, kw in fits:
        t = time.perf_counter()
        fit = fn(data, **kw)
        secs = time.perf_counter() - t
        hits = [fit.labels[i] == g for i, g in gold.items()]
        out["models"][name] = {"accuracy": sum(hits) / len(hits), "seconds": secs,
                               "iterations": fit.iterations}
    return out


def crowdkit_models(triples: list[tuple], gold: dict) -> dict:
    import pandas as pd
    from crowdkit.aggregation import GLAD, DawidSkene, MajorityVote, OneCoinDawidSkene, Wawa

    frame = pd.DataFrame(triples, columns=["worker", "task", "label"])
    out = {}
    for name, model in (("majority_vote", MajorityVote()), ("wawa", Wawa()),
                        ("dawid_skene", DawidSkene()), ("one_coin", OneCoinDawidSkene()),
                        ("glad", GLAD())):
        t = time.perf_counter()
        labels = model.fit_predict(frame)
        secs = time.perf_counter() - t
        hits = [labels[i] == g for i, g in gold.items()]
        out[name] = {"accuracy": sum(hits) / len(hits), "seconds": secs}
    return out


def mace_release(repo: Path, triples: list[tuple], gold: dict, build: Path) -> dict:
    """The MACE release with its defaults on the task (its CSV: one line per item, one column
    per worker)."""
    workers = sorted({t[0] for t in triples})
    items = list(gold)
    col = {w: k for k, w in enumerate(workers)}
    cells = {(t[1], t[0]): t[2] for t in triples}
    csv_path = build / "task.csv"
    csv_path.write_text("".join(",".join(cells.get((i, w), "") for w in workers) + "\n"
                                for i in items), encoding="utf-8")
    assert len(col) == len(workers)
    t = time.perf_counter()
    subprocess.run(["java", "-cp", str(build), "edu.isi.MACE", "--prefix", str(build / "out"),
                    str(csv_path)], check=True, capture_output=True)
    secs = time.perf_counter() - t
    pred = (build / "out.prediction").read_text(encoding="utf-8").split("\n")
    hits = [p == gold[i] for i, p in zip(items, pred, strict=False)]
    return {"accuracy": sum(hits) / len(items), "seconds": secs}


def measure(folder: Path, mace_repo: Path | None) -> dict:
    out: dict = {"folder": str(folder), "tasks": {}}
    try:
        import crowdkit  # noqa: F401
        has_crowdkit = True
    except ImportError:
        has_crowdkit = False
    build = None
    if mace_repo is not None:
        build = Path(tempfile.mkdtemp(prefix="mace-"))
        subprocess.run(["javac", "-nowarn", "-d", str(build),
                        str(mace_repo / "src/edu/isi/MACE.java"),
                        str(mace_repo / "src/edu/illinois/dais/ttr/Mathematics.java")],
                       check=True, capture_output=True)
    for task in TASKS:
        triples, gold = read(folder / f"{task}.standardized.tsv")
        res = ours(triples, gold)
        if has_crowdkit:
            res["crowdkit"] = crowdkit_models(triples, gold)
        if build is not None:
            res["mace_release"] = mace_release(mace_repo, triples, gold, build)
        out["tasks"][task] = res
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folder", type=Path, default=DEFAULT)
    ap.add_argument("--mace-repo", type=Path, default=None)
    ap.add_argument("--crowdkit-python", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.folder.exists():
        raise SystemExit(f"{args.folder}: absent (the shared corpora are not in this checkout)")
    if args.crowdkit_python:
        argv = [a for a in sys.argv[1:] if a != "--json"]
        k = argv.index("--crowdkit-python")
        del argv[k:k + 2]
        proc = subprocess.run([args.crowdkit_python, __file__, *argv, "--json"],
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                              text=True)
        if proc.returncode:
            raise SystemExit(proc.stderr[-2000:])
        out = json.loads(proc.stdout)
    else:
        out = measure(args.folder, args.mace_repo)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print("Snow et al. 2008: accuracy of each model's labels against the gold labels")
    head = f"  {'model':<17}" + "".join(f"{t:>10}" for t in TASKS)
    print(head)
    tasks = out["tasks"]
    for name in tasks[TASKS[0]]["models"]:
        print(f"  {name:<17}" + "".join(f"{tasks[t]['models'][name]['accuracy']:>10.4f}"
                                        for t in TASKS))
    if "mace_release" in tasks[TASKS[0]]:
        print(f"  {'MACE.java':<17}" + "".join(
            f"{tasks[t]['mace_release']['accuracy']:>10.4f}" for t in TASKS))
    if "crowdkit" in tasks[TASKS[0]]:
        for name in tasks[TASKS[0]]["crowdkit"]:
            print(f"  {'ck ' + name:<17}" + "".join(
                f"{tasks[t]['crowdkit'][name]['accuracy']:>10.4f}" for t in TASKS))
    for t in TASKS:
        print(f"  {t}: {tasks[t]['items']} items, {tasks[t]['workers']} workers, "
              f"{tasks[t]['judgements']} judgements")
    slow = max((m["seconds"], n, t) for t in TASKS for n, m in tasks[t]["models"].items())
    print(f"  slowest fit: {slow[1]} on {slow[2]}, {slow[0]:.2f} s")


if __name__ == "__main__":
    main()
