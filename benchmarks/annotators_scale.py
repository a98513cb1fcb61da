"""Models of the annotators at crowd scale, against crowd-kit in the same process.

10⁶ judgements: 100,000 items × 10 judgements from 1,000 annotators (each judgement by a
random annotator, no annotator twice on an item), 5 labels of skewed prevalence, annotators
right with a probability between 0.3 and 0.9 and otherwise uniform. Timed: building the
ReliabilityData (coders × items codes), then each model of :mod:`corpusagree.annotators` on
it (the first, Dawid–Skene, includes flattening the judgements); Dawid–Skene to convergence
(crowd-kit's defaults: tol 1e-5 on its objective per judgement, at most 100 iterations).

crowd-kit's ``DawidSkene`` runs on the same judgements in the same process when it is
importable; crowd-kit 1.4.2 needs pandas 2.2 / scikit-learn 1.5, so ``--crowdkit-python PY``
runs this script under the Python of an environment where it is installed, with this
checkout on its path (``PY -m venv``; ``pip install crowd-kit==1.4.2 "pandas==2.2.*"
"scikit-learn==1.5.*"``), and prints that run's figures: both libraries in one process there.
The two fits are checked equal (labels, posteriors to 1e-9, iterations).

crowd-kit's GLAD and MACE run there too (``--crowdkit-models``), timed in CPU beside ours;
every time is printed as wall and CPU time (``time.process_time``: other processes' load on a
shared machine counts less).

Usage: python benchmarks/annotators_scale.py [--items N] [--per-item R] [--annotators A]
       [--labels K] [--models ds|all] [--crowdkit-python PY] [--crowdkit-models glad,mace]
       [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def make(items: int, per_item: int, annotators: int, labels: int, seed: int = 0):
    """(codes annotators × items, truth, prevalence): ``per_item`` distinct random annotators
    per item."""
    rng = np.random.default_rng(seed)
    prevalence = np.linspace(2, 1, labels)
    prevalence /= prevalence.sum()
    truth = rng.choice(labels, items, p=prevalence)
    accuracy = rng.uniform(0.3, 0.9, annotators)
    who = _distinct(rng, items, per_item, annotators)
    item = np.repeat(np.arange(items), per_item)
    a = who.ravel()
    right = rng.random(len(a)) < accuracy[a]
    label = np.where(right, truth[item], rng.integers(0, labels, len(a)))
    codes = np.full((annotators, items), -1, np.int32)
    codes[a, item] = label
    return codes, truth, prevalence


def _distinct(rng, items: int, per_item: int, annotators: int) -> np.ndarray:
    """items × per_item annotators, distinct within each row (rows redrawn until so)."""
    out = rng.integers(0, annotators, (items, per_item))
    for _ in range(100):
        s = np.sort(out, 1)
        dup = (s[:, 1:] == s[:, :-1]).any(1)
        if not dup.any():
            return out
        out[dup] = rng.integers(0, annotators, (int(dup.sum()), per_item))
    raise RuntimeError("could not draw distinct annotators")


def timed(fn, repeat: int = 1, cpu: dict | None = None, key: str = ""):
    """(value, best wall time); the best CPU time (``time.process_time``) goes to
    ``cpu[key]``."""
    best, best_cpu, value = np.inf, np.inf, None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        value = fn()
        best = min(best, time.perf_counter() - t)
        best_cpu = min(best_cpu, time.process_time() - c)
    if cpu is not None:
        cpu[key] = best_cpu
    return value, best


def ours(args) -> dict:
    from corpusagree import ReliabilityData
    from corpusagree import annotators as an

    codes, truth, _ = make(args.items, args.per_item, args.annotators, args.labels)
    data, t_build = timed(lambda: ReliabilityData(codes, list(range(args.labels))))
    out = {"items": args.items, "judgements": int((codes >= 0).sum()),
           "annotators": args.annotators, "labels": args.labels,
           "seconds": {"build_data": t_build}, "cpu_seconds": {}, "iterations": {},
           "accuracy": {}}
    models = ["dawid_skene"] if args.models == "ds" else list(an.MODELS)
    fits = {}
    for name in models:
        fit, secs = timed(lambda name=name: an.MODELS[name](data), args.repeat,
                          out["cpu_seconds"], name)
        fits[name] = fit
        out["seconds"][name] = secs
        out["iterations"][name] = fit.iterations
        out["accuracy"][name] = float((fit.codes == truth).mean())
    out["dawid_skene_converged"] = fits["dawid_skene"].converged
    return out, data, fits


def crowdkit_dawid_skene(data, ds_fit, repeat: int) -> dict:
    import pandas as pd
    from crowdkit.aggregation import DawidSkene

    coder, item = np.nonzero(data.codes >= 0)
    frame = pd.DataFrame({"task": item, "worker": coder, "label": data.codes[coder, item]})
    fit, secs = timed(lambda: DawidSkene().fit(frame), repeat)
    probas = fit.probas_.sort_index()
    ours_p = ds_fit.posterior[probas.index.to_numpy()][:, probas.columns.to_numpy()]
    labels = fit.labels_.sort_index().to_numpy()
    return {"version": version("crowd-kit"), "pandas": pd.__version__, "seconds": secs,
            "iterations": len(fit.loss_history_),
            "max_abs_posterior_difference": float(np.abs(ours_p - probas.to_numpy()).max()),
            "labels_equal": bool((labels == ds_fit.codes[probas.index.to_numpy()]).all())}


def crowdkit_models(data, fits: dict, names: list[str]) -> dict:
    """crowd-kit's GLAD and MACE (their defaults; MACE with our restarts, iterations and
    seed) on the same judgements: CPU time, and how far their labels and skills are from ours
    (crowd-kit's GLAD stops after a few EM steps, before the fixed point ours goes to; its
    MACE draws other random restarts)."""
    import pandas as pd
    from crowdkit.aggregation import GLAD, MACE

    coder, item = np.nonzero(data.codes >= 0)
    frame = pd.DataFrame({"task": item, "worker": coder, "label": data.codes[coder, item]})
    out = {}
    for name in names:
        cpu: dict = {}
        model = GLAD() if name == "glad" else MACE(n_restarts=10, n_iter=50, method="vb",
                                                   random_state=0)
        fit, secs = timed(lambda model=model: model.fit(frame), 1, cpu, name)
        labels = fit.labels_.sort_index()
        ours = fits[name]
        out[name] = {"seconds": secs, "cpu_seconds": cpu[name],
                     "labels_agree": float((labels.to_numpy()
                                            == ours.codes[labels.index.to_numpy()]).mean())}
    return out


def measure(args) -> dict:
    out, data, fits = ours(args)
    try:
        import crowdkit  # noqa: F401
    except ImportError:
        out["crowdkit"] = None
    else:
        ck = crowdkit_dawid_skene(data, fits["dawid_skene"], 1)
        ck["ratio"] = ck["seconds"] / out["seconds"]["dawid_skene"]
        names = [m for m in args.crowdkit_models.split(",") if m in fits]
        ck["models"] = crowdkit_models(data, fits, names) if names else {}
        out["crowdkit"] = ck
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--per-item", type=int, default=10)
    ap.add_argument("--annotators", type=int, default=1000)
    ap.add_argument("--labels", type=int, default=5)
    ap.add_argument("--models", choices=("ds", "all"), default="all")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--crowdkit-models", default="glad,mace",
                    help="crowd-kit's models run beside ours besides DawidSkene ('' none)")
    ap.add_argument("--crowdkit-python", default=None,
                    help="a Python where crowd-kit 1.4.2 runs: the whole run happens there")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.crowdkit_python:
        argv = [a for a in sys.argv[1:] if a != "--json"]
        k = argv.index("--crowdkit-python")
        del argv[k:k + 2]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run([args.crowdkit_python, __file__, *argv, "--json"], env=env,
                              capture_output=True, text=True)
        if proc.returncode:
            raise SystemExit(proc.stderr[-2000:])
        out = json.loads(proc.stdout)
        out["python"] = args.crowdkit_python
    else:
        out = measure(args)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['judgements']:,} judgements: {out['items']:,} items, {out['annotators']:,} "
          f"annotators, {out['labels']} labels")
    print(f"  build ReliabilityData   {out['seconds']['build_data']:7.3f} s")
    for name, secs in out["seconds"].items():
        if name == "build_data":
            continue
        print(f"  {name:<22}  {secs:7.3f} s ({out['cpu_seconds'][name]:7.3f} s of CPU)  "
              f"{out['iterations'][name]:4d} iterations  accuracy {out['accuracy'][name]:.4f}")
    ck = out.get("crowdkit")
    if ck:
        print(f"  crowd-kit {ck['version']} DawidSkene (pandas {ck['pandas']}): "
              f"{ck['seconds']:.3f} s, {ck['iterations']} iterations = "
              f"{ck['ratio']:.1f}x corpusagree")
        print(f"    same labels: {ck['labels_equal']}; posteriors differ by at most "
              f"{ck['max_abs_posterior_difference']:.1e}")
        for name, m in ck.get("models", {}).items():
            print(f"  crowd-kit {name:<5} {m['seconds']:8.3f} s ({m['cpu_seconds']:.3f} s of "
                  f"CPU) = {m['cpu_seconds'] / out['cpu_seconds'][name]:.1f}x corpusagree's "
                  f"CPU; labels equal to ours on {m['labels_agree']:.2%} of the items")
    else:
        print("  crowd-kit is not importable here (--crowdkit-python runs both elsewhere)")


if __name__ == "__main__":
    main()
