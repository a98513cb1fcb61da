"""Reference values for tests/stats/test_annotators.py, computed by the peers themselves.

Three parts, each run where its peer runs (never in the project's environment):

``crowdkit``: crowd-kit 1.4.2 in a venv of its own with pandas 2.2 and scikit-learn 1.5::

    python -m venv /tmp/ck && /tmp/ck/bin/pip install crowd-kit==1.4.2 "pandas==2.2.*" \
        "scikit-learn==1.5.*"
    /tmp/ck/bin/python tests/data/annotators/make_fixtures.py crowdkit \
        --crowdkit-repo CROWDKIT_CHECKOUT

  writes the random judgements ``random_*.csv`` (annotator, item, label) and
  ``crowdkit_random.json``: MajorityVote, Wawa, DawidSkene, OneCoinDawidSkene (default
  settings) and GLAD driven to the fixed point of its EM (crowd-kit's own E- and M-steps,
  repeated until no parameter moves by 1e-10; its default stop ends after two or three
  iterations) — labels, posteriors, skills, error matrices, priors, iterations. From a
  checkout of Toloka/crowd-kit (``tests/``), ``crowdkit_own.json``: its toy and simple data
  sets with the labels, posteriors and skills its own tests expect.

``mace``: Hovy et al.'s MACE.java (a checkout of dirkhovy/MACE; javac and java)::

    python tests/data/annotators/make_fixtures.py mace --mace-repo MACE_CHECKOUT

  compiles ``src/edu/isi/MACE.java`` with ``MaceFixedStart.java`` (this folder: runs
  MACE's own EStep/MStep from a given start) and writes ``mace_java.json``: per data set and
  method, MACE's fit from three given random starts (so the test can require equality), and
  30 runs of the release as users run it (10 unseeded random restarts × 50 iterations), whose
  competences and predictions give the spread the test places corpusagree's fit in.

``alttest``: the alt-test's reference code (a checkout of nitaytech/AltTest, scipy)::

    python tests/data/annotators/make_fixtures.py alttest --alttest-repo ALTTEST_CHECKOUT

  runs the functions of ``alt_test_example.ipynb`` (executed from the notebook, not copied)
  on panels of our own making (:func:`random_panels`) and writes ``alttest_random.json``: the
  panels, and ω, ρ and the p-values as the reference returns them. The notebook's own
  example data are not stored (the repository states no licence): a test compares them when
  a checkout is named by ``CORPUSAGREE_ALTTEST_REPO``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


# ---- random judgements ------------------------------------------------------------------------
def random_sets() -> dict[str, list[tuple[str, str, object]]]:
    """(annotator, item, label) triples of a few random data sets with missing judgements."""
    out = {}
    rng = np.random.default_rng(20240924)
    # binary, 7 annotators, many ties (even numbers of judgements), int labels
    out["binary"] = _simulate(rng, 40, 7, [0, 1], accuracy=rng.uniform(0.55, 0.95, 7),
                              per_item=(2, 6))
    # four string labels, sparse, one spammer (always "c") and one adversary
    acc = np.r_[rng.uniform(0.4, 0.95, 13), 0.0, 0.05]
    out["multi"] = _simulate(rng, 150, 15, ["a", "b", "c", "d"], accuracy=acc,
                             per_item=(3, 6), spammer=13, adversary=14)
    # five labels of skewed prevalence, 30 annotators, four judgements per item
    out["skewed"] = _simulate(rng, 300, 30, [1, 2, 3, 4, 5],
                              accuracy=rng.uniform(0.3, 0.9, 30), per_item=(4, 4),
                              prevalence=[0.5, 0.2, 0.15, 0.1, 0.05])
    return out


def _simulate(rng, n_items, n_annot, labels, accuracy, per_item, spammer=None,
              adversary=None, prevalence=None):
    K = len(labels)
    truth = rng.choice(K, n_items, p=prevalence)
    triples = []
    for i in range(n_items):
        k = int(rng.integers(per_item[0], per_item[1] + 1))
        for a in sorted(rng.choice(n_annot, k, replace=False)):
            if a == spammer:
                y = 2 % K
            elif a == adversary:
                y = (truth[i] + 1) % K
            elif rng.random() < accuracy[a]:
                y = truth[i]
            else:
                y = int(rng.integers(K))
            triples.append((f"w{a:02d}", f"t{i:03d}", labels[y]))
    return triples


def write_csv(name: str, triples) -> Path:
    path = HERE / f"random_{name}.csv"
    with open(path, "w", encoding="utf-8") as f:
        f.write("annotator,item,label\n")
        for t in triples:
            f.write(",".join(map(str, t)) + "\n")
    return path


# ---- crowd-kit ---------------------------------------------------------------------------------
def _frame(df) -> dict:
    return {"rows": [str(i) for i in df.index], "columns": [str(c) for c in df.columns],
            "values": df.to_numpy(dtype=float).tolist()}


def _series(s) -> dict:
    return {str(k): (v.item() if hasattr(v, "item") else v) for k, v in s.items()}


def _errors(errors) -> dict:
    """crowd-kit's errors_ (rows (worker, given label), columns true labels) as
    {worker: {given: {true: p}}}."""
    out: dict = {}
    for (w, given), row in errors.iterrows():
        out.setdefault(str(w), {})[str(given)] = {str(c): float(v) for c, v in row.items()}
    return out


def glad_fixed_point(df, tol: float = 1e-10, max_outer: int = 5000):
    """crowd-kit's GLAD, its E-step and (CG) M-step repeated until no parameter moves by
    ``tol``; the M-step's CG runs to a gradient of 1e-10 (at most 2000 steps)."""
    from crowdkit.aggregation import GLAD

    g = GLAD(m_step_max_iter=2000, m_step_tol=1e-10)
    data = df.filter(["task", "worker", "label"])
    g._init(data)
    data = g._join_all(data, g.alphas_, g.betas_, g.priors_)
    data = g._e_step(data)
    outer, moved = 0, np.inf
    while moved >= tol and outer < max_outer:
        prev = np.concatenate([g.alphas_.to_numpy(), g.betas_.to_numpy()])
        data = g._e_step(data)
        data = g._m_step(data)
        cur = np.concatenate([g.alphas_.to_numpy(), g.betas_.to_numpy()])
        moved = np.abs(cur - prev).max()
        outer += 1
    g._e_step(data)
    return g, outer


def crowdkit_part(args) -> None:
    import crowdkit
    import pandas as pd
    import sklearn
    from crowdkit.aggregation import GLAD, DawidSkene, MajorityVote, OneCoinDawidSkene, Wawa
    from crowdkit.aggregation.utils import get_accuracy

    out = {"versions": {"crowd-kit": _version("crowd-kit"), "pandas": pd.__version__,
                        "scikit-learn": sklearn.__version__, "numpy": np.__version__,
                        "python": sys.version.split()[0]},
           "sets": {}}
    assert crowdkit
    for name, triples in random_sets().items():
        write_csv(name, triples)
        df = pd.DataFrame(triples, columns=["worker", "task", "label"])
        res: dict = {}
        mv = MajorityVote().fit(df)
        res["majority_vote"] = {"labels": _series(mv.labels_), "posteriors": _frame(mv.probas_),
                                "skills": _series(mv.skills_)}
        wa = Wawa()
        labels = wa.fit_predict(df)
        res["wawa"] = {"labels": _series(labels), "posteriors": _frame(wa.predict_proba(df)),
                       "skills": _series(wa.skills_)}
        ds = DawidSkene().fit(df)
        res["dawid_skene"] = {"labels": _series(ds.labels_), "posteriors": _frame(ds.probas_),
                              "errors": _errors(ds.errors_), "priors": _series(ds.priors_),
                              "iterations": len(ds.loss_history_),
                              "loss_history": list(map(float, ds.loss_history_))}
        oc = OneCoinDawidSkene().fit(df)
        res["one_coin"] = {"labels": _series(oc.labels_), "posteriors": _frame(oc.probas_),
                           "skills": _series(oc.skills_), "errors": _errors(oc.errors_),
                           "priors": _series(oc.priors_), "iterations": len(oc.loss_history_)}
        default = GLAD().fit(df)
        g, outer = glad_fixed_point(df)
        res["glad"] = {"labels": _series(g.probas_.idxmax(axis=1)),
                       "posteriors": _frame(g.probas_), "alphas": _series(g.alphas_),
                       "log_betas": _series(g.betas_), "em_iterations": outer,
                       "default_stop_iterations": len(default.loss_history_),
                       "default_stop_alphas": _series(default.alphas_)}
        res["accuracy_vs_mv"] = _series(get_accuracy(df, mv.labels_, by="worker"))
        out["sets"][name] = res
        print(f"{name}: {len(triples)} judgements; DS {res['dawid_skene']['iterations']} "
              f"iterations, GLAD fixed point after {outer} EM iterations (default stop: "
              f"{res['glad']['default_stop_iterations']})")
    _dump(out, HERE / "crowdkit_random.json")
    if args.crowdkit_repo:
        _dump(crowdkit_own(Path(args.crowdkit_repo)), HERE / "crowdkit_own.json")


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


def crowdkit_own(repo: Path) -> dict:
    """crowd-kit's toy and simple data sets and its tests' expected labels, posteriors and
    skills (tests/conftest.py, tests/aggregation/data_mv.py, data_wawa.py), read by running
    those modules with an identity ``pytest.fixture``."""
    fake = types.ModuleType("pytest")
    fake.fixture = lambda f=None, **kw: f if f is not None else (lambda g: g)  # type: ignore
    sys.modules["pytest"] = fake
    ns: dict = {}
    for rel in ("tests/conftest.py", "tests/aggregation/data_mv.py",
                "tests/aggregation/data_wawa.py"):
        code = (repo / rel).read_text(encoding="utf-8")
        exec(compile(code, str(repo / rel), "exec"), ns)
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    out: dict = {"source": f"Toloka/crowd-kit @ {commit}: tests/conftest.py, "
                           "tests/aggregation/data_mv.py, data_wawa.py", "sets": {}}
    for name, truth in (("toy", ns["toy_ground_truth_df"]()),
                        ("simple", ns["simple_ground_truth"]())):
        answers = ns[f"{name}_answers_df"]()
        entry = {"answers": answers[["worker", "task", "label"]].values.tolist(),
                 "ground_truth": _series(truth)}
        for model in ("mv", "wawa"):
            fn = ns[f"{name}_labels_result_{model}"]
            labels = fn(truth) if fn.__code__.co_argcount else fn()
            entry[model] = {"labels": _series(labels),
                            "posteriors": _frame(ns[f"{name}_probas_result_{model}"]()),
                            "skills": _series(ns[f"{name}_skills_result_{model}"]())}
        out["sets"][name] = entry
    return out


# ---- MACE.java ---------------------------------------------------------------------------------
def mace_part(args) -> None:
    repo = Path(args.mace_repo)
    build = Path(tempfile.mkdtemp(prefix="mace-"))
    sources = [repo / "src/edu/isi/MACE.java",
               repo / "src/edu/illinois/dais/ttr/Mathematics.java",
               HERE / "MaceFixedStart.java"]
    subprocess.run(["javac", "-nowarn", "-d", str(build), *map(str, sources)], check=True)
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    out: dict = {"source": f"dirkhovy/MACE @ {commit}: src/edu/isi/MACE.java (version 0.3)",
                 "sets": {}}
    rng = np.random.default_rng(7)
    for name in ("binary", "multi"):
        triples = random_sets()[name]
        annots = sorted({t[0] for t in triples})
        items = sorted({t[1] for t in triples})
        cell = {(t[1], t[0]): str(t[2]) for t in triples}
        csv = build / f"{name}.csv"
        csv.write_text("".join(",".join(cell.get((i, a), "") for a in annots) + "\n"
                               for i in items), encoding="utf-8")
        labels = sorted({str(t[2]) for t in triples})
        A, K = len(annots), len(labels)
        entry: dict = {"annotators": annots, "items": items, "labels": labels}
        for method in ("vb", "em"):
            fixed = []
            for _ in range(3):
                spam = 1 + 0.5 * rng.random((A, 2))
                strat = 1 + 0.5 * rng.random((A, K))
                spam /= spam.sum(1, keepdims=True)
                strat /= strat.sum(1, keepdims=True)
                fixed.append({"start_spamming": spam.tolist(), "start_strategies":
                              strat.tolist(), **_fixed_start(build, csv, spam, strat, labels,
                                                             method)})
            runs = [_release_run(build, csv, labels, method, k) for k in range(args.runs)]
            entry[method] = {"fixed_start": fixed, "release_runs": runs}
        out["sets"][name] = entry
        print(f"MACE {name}: {A} annotators, {K} labels, {args.runs} release runs per method")
    _dump(out, HERE / "mace_java.json")


def _fixed_start(build: Path, csv: Path, spam, strat, labels, method) -> dict:
    """MACE's own EStep/MStep from the start (spam, strat) (labels in sorted order), 50
    iterations, through MaceFixedStart; the output back in sorted label order."""
    order_file = build / "order.txt"
    subprocess.run(["java", "-cp", str(build), "edu.isi.MaceFixedStart", "order", str(csv),
                    str(order_file)], check=True, capture_output=True)
    java_labels = order_file.read_text(encoding="utf-8").split("\n")[0].split("\t")
    perm = [labels.index(v) for v in java_labels]  # java label j is sorted label perm[j]
    start = build / "start.txt"
    lines = ["\t".join(repr(float(x)) for x in row) for row in spam]
    lines += ["\t".join(repr(float(strat[a, perm[j]])) for j in range(len(perm)))
              for a in range(len(strat))]
    start.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = build / "result.txt"
    subprocess.run(["java", "-cp", str(build), "edu.isi.MaceFixedStart", "fit", str(csv),
                    str(start), "50", method, repr(0.01 / len(labels)), str(result)],
                   check=True, capture_output=True)
    rows = [r.split("\t") for r in result.read_text(encoding="utf-8").strip().split("\n")]
    ll = float(rows[0][0])
    A = len(spam)
    spam_out = [[float(x) for x in r] for r in rows[1:1 + A]]
    strat_java = [[float(x) for x in r] for r in rows[1 + A:1 + 2 * A]]
    post_java = [[float(x) for x in r] for r in rows[1 + 2 * A:]]
    inv = [java_labels.index(v) for v in labels]  # sorted label k is java label inv[k]
    return {"log_likelihood": ll, "spamming": spam_out,
            "strategies": [[r[inv[k]] for k in range(len(labels))] for r in strat_java],
            "posteriors": [[r[inv[k]] for k in range(len(labels))] for r in post_java]}


def _release_run(build: Path, csv: Path, labels, method: str, k: int) -> dict:
    """One run of the release with its defaults (10 random restarts, 50 iterations)."""
    prefix = build / f"run{k}"
    cmd = ["java", "-cp", str(build), "edu.isi.MACE", "--prefix", str(prefix)]
    if method == "em":
        cmd.append("--em")
    proc = subprocess.run(cmd + [str(csv)], check=True, capture_output=True, text=True)
    best = [ln for ln in proc.stderr.splitlines() if ln.startswith("Best model")]
    ll = float(best[0].rsplit(":", 1)[1].strip(" )")) if best else None
    pred = Path(f"{prefix}.prediction").read_text(encoding="utf-8").split("\n")
    comp = Path(f"{prefix}.competence").read_text(encoding="utf-8").strip().split("\t")
    return {"log_likelihood": ll, "competence": [float(c) for c in comp],
            "predictions": [labels.index(p) for p in pred[:len(pred) - 1]]}


# ---- alt-test ----------------------------------------------------------------------------------
DATASETS = {"wax": ("accuracy", 0.1), "lgbteen": ("accuracy", 0.2),
            "mtbench": ("accuracy", 0.2), "framing": ("accuracy", 0.15),
            "cebab_aspects": ("accuracy", 0.1), "summeval": ("neg_rmse", 0.2),
            "10k_prompts": ("neg_rmse", 0.15), "cebab_stars": ("neg_rmse", 0.1),
            "lesion": ("neg_rmse", 0.15)}


def _reference(repo: Path) -> tuple[dict, list]:
    """The namespace of the notebook's code cells that define the procedure (executed from
    the checkout, not copied), and the p-values its Benjamini–Yekutieli step was given."""
    nb = json.loads((repo / "alt_test_example.ipynb").read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    ns: dict = {}
    for cell in code[:2]:  # the imports and the functions of the procedure
        exec("".join(cell["source"]), ns)
    captured: list = []
    by = ns["by_procedure"]

    def recording(p_values, q):
        captured.append([float(p) for p in p_values])
        return by(p_values, q)

    ns["by_procedure"] = recording
    ns["_printed"] = "".join(o.get("text", "") if isinstance(o.get("text", ""), str)
                             else "".join(o["text"]) for o in code[2].get("outputs", []))
    return ns, captured


def random_panels(seed: int = 11) -> dict:
    """Panels of our own making for the reference code: humans who agree with a hidden truth
    at their own rates (some items missing, so humans per item and items per human vary),
    and candidates from a spammer to one better than every human, on nominal labels
    (accuracy) and on a 1–5 scale (neg_rmse)."""
    rng = np.random.default_rng(seed)
    out = {}
    for n, (scoring, n_humans, n_items, eps) in enumerate([
            ("accuracy", 3, 60, 0.2), ("accuracy", 5, 120, 0.1), ("accuracy", 4, 45, 0.15),
            ("neg_rmse", 3, 80, 0.2), ("neg_rmse", 6, 150, 0.1)]):
        k = 4 if scoring == "accuracy" else 5
        truth = rng.integers(1, k + 1, n_items)

        def annotator(accuracy: float, keep: float = 0.9, *, truth=truth, k=k,
                      n_items=n_items) -> dict:
            noisy = np.where(rng.random(n_items) < accuracy, truth,
                             rng.integers(1, k + 1, n_items))
            return {f"i{i}": int(v) for i, v in enumerate(noisy) if rng.random() < keep}

        humans = {f"h{j + 1}": annotator(rng.uniform(0.4, 0.95)) for j in range(n_humans)}
        llms = {"spammer": annotator(0.0, keep=1.0), "fair": annotator(0.6, keep=1.0),
                "close": annotator(0.7, keep=1.0),
                "strong": annotator(0.95, keep=1.0)}
        out[f"panel{n + 1}"] = {"scoring": scoring, "epsilon": eps, "humans": humans,
                                "llms": llms}
    return out


def alttest_part(args) -> None:
    """The reference code on panels of our own making (:func:`random_panels`): its ω, ρ and
    p-values, stored with the panels in ``alttest_random.json``. The paper's own example
    (the notebook's data, which the repository publishes without a licence) is compared by a
    test only when a checkout is named by ``CORPUSAGREE_ALTTEST_REPO``; nothing of it is
    stored here."""
    repo = Path(args.alttest_repo)
    ns, captured = _reference(repo)
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    out: dict = {"source": f"nitaytech/AltTest @ {commit}: the functions of "
                           "alt_test_example.ipynb, on panels made by random_panels()",
                 "sets": {}}
    for name, panel in random_panels().items():
        entry = {**panel, "results": {}}
        for llm, anns in panel["llms"].items():
            captured.clear()
            wr, ap = ns["alt_test"](anns, panel["humans"], panel["scoring"],
                                    epsilon=panel["epsilon"])
            entry["results"][llm] = {"winning_rate": wr, "advantage_probability": ap,
                                     "p_values": captured[0]}
        out["sets"][name] = entry
        print(name, {m: (round(r["winning_rate"], 2), round(r["advantage_probability"], 2))
                     for m, r in entry["results"].items()})
    _dump(out, HERE / "alttest_random.json")


def _codes(anns: dict, ix: dict, code_of: dict) -> list:
    """One annotator's labels as codes over the numbered items (-1: none)."""
    r = [-1] * len(ix)
    for it, v in anns.items():
        r[ix[it]] = code_of[v]
    return r


def _dump(obj, path: Path) -> None:
    path.write_text(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n",
                    encoding="utf-8")
    print(f"wrote {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="part", required=True)
    ck = sub.add_parser("crowdkit")
    ck.add_argument("--crowdkit-repo", default=None)
    mc = sub.add_parser("mace")
    mc.add_argument("--mace-repo", required=True)
    mc.add_argument("--runs", type=int, default=30)
    at = sub.add_parser("alttest")
    at.add_argument("--alttest-repo", required=True)
    args = ap.parse_args()
    {"crowdkit": crowdkit_part, "mace": mace_part, "alttest": alttest_part}[args.part](args)


if __name__ == "__main__":
    main()
