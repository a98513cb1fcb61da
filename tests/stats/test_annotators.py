"""Models of the annotators and the alternative annotator test, against their peers.

* crowd-kit 1.4.2 (computed in its own environment, ``tests/data/annotators/
  make_fixtures.py crowdkit``): majority vote, Wawa, Dawid–Skene, one-coin and GLAD (at the
  fixed point of crowd-kit's EM) on random judgements with missing values — labels,
  posteriors, skills, error matrices, priors, iterations; and crowd-kit's own toy and simple
  data sets with the labels, posteriors and skills its tests expect.
* MACE.java (Hovy et al.'s release, ``make_fixtures.py mace``): equal fits from the same
  starts, and corpusagree's seeded fit within the spread of 30 runs of the release.
* The alt-test's reference code (``make_fixtures.py alttest``): ω, ρ and p-values on the
  paper's data as the notebook prints them; and a plain re-implementation from the paper's
  definitions on random data, here.
* Dawid–Skene recovers known confusion matrices; bad input is an InputError.
"""

from __future__ import annotations

import doctest
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import corpusagree.annotators as an
from corpusagree import InputError, ReliabilityData
from corpusagree.stats.annotators import alt_test as alt_module
from corpusagree.stats.annotators import dawid_skene as ds_module
from corpusagree.stats.annotators import glad as glad_module
from corpusagree.stats.annotators import mace as mace_module
from corpusagree.stats.annotators import vote as vote_module
from corpusagree.stats.annotators.annotations import Annotations

from support import DATA

FIX = DATA / "annotators"
SETS = ("binary", "multi", "skewed")


def load(name: str) -> ReliabilityData:
    """A random data set of the fixtures (labels: numbers, except "multi")."""
    return ReliabilityData.from_csv(FIX / f"random_{name}.csv", coder="annotator",
                                    numeric=name != "multi")


@pytest.fixture(scope="module")
def crowdkit():
    return json.loads((FIX / "crowdkit_random.json").read_text(encoding="utf-8"))


def posterior_frame(result: an.AnnotatorModel, frame: dict) -> tuple[np.ndarray, np.ndarray]:
    """(ours, crowd-kit's) posteriors in crowd-kit's rows and columns."""
    names = [str(v) for v in result.label_names]
    index = {str(it): k for k, it in enumerate(result.items)}
    ours = result.posterior[[index[r] for r in frame["rows"]]][
        :, [names.index(c) for c in frame["columns"]]]
    return ours, np.array(frame["values"])


def as_label(result: an.AnnotatorModel, text: str):
    """crowd-kit's label (written as text) as the data's label value."""
    return next(v for v in result.label_names if str(v) == text)


# ---- crowd-kit on random data ----------------------------------------------------------------
@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("model", ["majority_vote", "wawa", "dawid_skene", "one_coin", "glad"])
def test_equal_to_crowdkit_on_random_data(crowdkit, name: str, model: str) -> None:
    ref = crowdkit["sets"][name][model]
    data = load(name)
    result = an.MODELS[model](data)
    assert {str(k): str(v) for k, v in result.labels.items()} == \
        {k: str(v) for k, v in ref["labels"].items()}
    ours, theirs = posterior_frame(result, ref["posteriors"])
    # crowd-kit floors its returned EM posteriors at 1e-10 without renormalising them
    atol = 1e-5 if model == "glad" else 2e-10
    assert np.abs(ours - theirs).max() <= atol
    if model == "glad":  # both at the fixed point of the same EM, to optimiser precision
        assert result.converged
        alpha = np.array([result.skill[w] for w in ref["alphas"]])
        assert np.abs(alpha - list(ref["alphas"].values())).max() < 1e-5
        index = {str(it): k for k, it in enumerate(result.items)}
        log_beta = np.log(result.item_parameters["beta"][[index[t] for t in ref["log_betas"]]])
        assert np.abs(log_beta - list(ref["log_betas"].values())).max() < 1e-5
        assert ref["default_stop_iterations"] <= 3 < ref["em_iterations"]
        return
    if "skills" in ref:
        assert max(abs(result.skill[w] - s) for w, s in ref["skills"].items()) < 1e-12
    if "errors" in ref:
        conf = result.confusion
        worst = max(abs(conf[w][as_label(result, t)][as_label(result, g)] - p)
                    for w, rows in ref["errors"].items() for g, row in rows.items()
                    for t, p in row.items())
        assert worst < 1e-12
        assert result.iterations == ref["iterations"] and result.converged
        prior = result.prevalence
        assert max(abs(prior[as_label(result, k)] - v) for k, v in ref["priors"].items()) < 1e-9


def test_dawid_skene_skill_and_likelihood_definitions() -> None:
    data = load("multi")
    ds = an.dawid_skene(data)
    pi = ds.prevalence_values
    for a, name in enumerate(ds.annotators):
        assert ds.skill[name] == pytest.approx(float(pi @ np.diag(ds.confusion_values[a])))
        rows = ds.confusion_values[a].sum(1)
        assert np.allclose(rows, 1)
    # log L at the final parameters, summed out by brute force per item
    ann = Annotations.from_data(data)
    err = ds.confusion_values[ann.annotators].transpose(0, 2, 1)  # annotator × given × true
    total = 0.0
    for i in range(ann.n_items):
        m = ann.item == i
        p = np.maximum(pi, ds_module.EPS).copy()
        for a, k in zip(ann.annotator[m], ann.label[m], strict=True):
            p = p * err[a, k]
        total += math.log(p.sum())
    assert ds.log_likelihood == pytest.approx(total, rel=1e-12)
    assert ds.settings["objective"] == sorted(ds.settings["objective"])  # EM rises


# ---- crowd-kit's own fixtures ----------------------------------------------------------------
@pytest.fixture(scope="module")
def crowdkit_own():
    return json.loads((FIX / "crowdkit_own.json").read_text(encoding="utf-8"))


def own_data(entry: dict) -> ReliabilityData:
    return ReliabilityData.from_triples([tuple(r) for r in entry["answers"]])


@pytest.mark.parametrize("name", ["toy", "simple"])
@pytest.mark.parametrize("model", ["majority_vote", "wawa"])
def test_crowdkit_own_vote_fixtures(crowdkit_own, name: str, model: str) -> None:
    entry = crowdkit_own["sets"][name]
    expected = entry["mv" if model == "majority_vote" else "wawa"]
    result = an.MODELS[model](own_data(entry))
    assert {k: v for k, v in result.labels.items()} == expected["labels"]
    for w, s in expected["skills"].items():
        assert result.skill[w] == pytest.approx(s, rel=1e-5)
    ours, theirs = posterior_frame(result, expected["posteriors"])
    assert np.allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["toy", "simple"])
@pytest.mark.parametrize("model", ["dawid_skene", "one_coin", "glad", "mace"])
def test_crowdkit_own_ground_truth(crowdkit_own, name: str, model: str) -> None:
    """crowd-kit's tests expect these models to find the ground truth of both data sets."""
    entry = crowdkit_own["sets"][name]
    result = an.MODELS[model](own_data(entry))
    assert {k: result.labels[k] for k in entry["ground_truth"]} == entry["ground_truth"]


def test_glad_first_e_step_as_crowdkit(crowdkit_own) -> None:
    """crowd-kit's test_glad_e_step: one task of the simple set, α = β = 1 (b = 1)."""
    task = "1231239876--5fac0d234ffb2f3b00893eec"
    rows = [r for r in crowdkit_own["sets"]["simple"]["answers"] if r[1] == task]
    ann = Annotations.from_data(ReliabilityData.from_triples([tuple(r) for r in rows]))
    model = glad_module._Glad(ann)
    T, _ = model.posteriors(np.ones(ann.n_annotators + ann.n_items))
    assert np.allclose(T, [[0.995664, 0.004336]], atol=1e-6)


def test_glad_gradient_is_the_derivative() -> None:
    ann = Annotations.from_data(load("multi"))
    model = glad_module._Glad(ann)
    rng = np.random.default_rng(3)
    x = rng.normal(1, 0.5, ann.n_annotators + ann.n_items)
    f, g = model.negative(x)
    for k in rng.choice(len(x), 8, replace=False):
        step = np.zeros_like(x)
        step[k] = 1e-6
        numeric = (model.negative(x + step)[0] - model.negative(x - step)[0]) / 2e-6
        assert numeric == pytest.approx(g[k], rel=1e-5, abs=1e-6)


# ---- MACE.java -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mace_java():
    return json.loads((FIX / "mace_java.json").read_text(encoding="utf-8"))


def mace_data(entry: dict, name: str) -> ReliabilityData:
    """The data set in MACE's order of annotators and items."""
    data = load(name)
    return data.subset(coders=[list(data.coders).index(a) for a in entry["annotators"]],
                       items=[list(data.items).index(i) for i in entry["items"]])


@pytest.mark.parametrize("name", ["binary", "multi"])
@pytest.mark.parametrize("method", ["vb", "em"])
def test_mace_equal_to_java_from_the_same_start(mace_java, name: str, method: str) -> None:
    entry = mace_java["sets"][name]
    ann = Annotations.from_data(mace_data(entry, name))
    assert [str(v) for v in ann.label_names] == entry["labels"]
    for fixed in entry[method]["fixed_start"]:
        start = mace_module.MaceState(np.array(fixed["start_spamming"]),
                                      np.array(fixed["start_strategies"]))
        s = mace_module.run(ann, start, 50, method, 0.01 / ann.n_labels)
        assert s.log_likelihood == pytest.approx(fixed["log_likelihood"], rel=1e-12)
        assert np.abs(s.spamming - fixed["spamming"]).max() < 1e-12
        assert np.abs(s.strategies - fixed["strategies"]).max() < 1e-12
        assert np.abs(s.posteriors - fixed["posteriors"]).max() < 1e-12


@pytest.mark.parametrize("name", ["binary", "multi"])
@pytest.mark.parametrize("method", ["vb", "em"])
def test_mace_within_the_spread_of_java_runs(mace_java, name: str, method: str) -> None:
    """Competences and log likelihood within the range of 30 runs of the release (10 random
    restarts each), widened by its width; predictions those of every run."""
    entry = mace_java["sets"][name]
    runs = entry[method]["release_runs"]
    comp = np.array([r["competence"] for r in runs])
    lls = np.array([r["log_likelihood"] for r in runs])
    preds = np.array([r["predictions"] for r in runs])
    assert (preds == preds[0]).all()
    data = mace_data(entry, name)
    for seed in (0, 1, 2):
        ours = an.mace(data, method=method, seed=seed)
        c = np.array([ours.skill[a] for a in entry["annotators"]])
        width = comp.max(0) - comp.min(0)
        assert (c >= comp.min(0) - width).all() and (c <= comp.max(0) + width).all()
        w = lls.max() - lls.min()
        assert lls.min() - w <= ours.log_likelihood <= lls.max() + w
        labels = [str(ours.labels[i]) for i in entry["items"]]
        assert labels == [entry["labels"][k] for k in preds[0]]


def test_mace_seed_reproduces_and_restarts_pick_the_best() -> None:
    data = load("multi")
    a, b = an.mace(data, seed=5), an.mace(data, seed=5)
    assert np.array_equal(a.skill_values, b.skill_values)
    assert a.log_likelihood == max(a.settings["restart_log_likelihoods"])
    with pytest.raises(ValueError, match="method"):
        an.mace(data, method="gibbs")


# ---- Dawid–Skene recovers known confusion matrices ------------------------------------------
def test_dawid_skene_recovers_known_confusion_matrices() -> None:
    rng = np.random.default_rng(11)
    K, n_items = 3, 10000
    pi = np.array([0.5, 0.3, 0.2])
    truth = rng.choice(K, n_items, p=pi)
    confusions = []
    for acc in (0.9, 0.8, 0.7, 0.85, 0.6):  # good annotators, errors biased to the next label
        e = np.full((K, K), (1 - acc) * 0.25)
        e[np.arange(K), (np.arange(K) + 1) % K] = (1 - acc) * 0.75
        e[np.arange(K), np.arange(K)] = acc
        confusions.append(e)
    confusions.append(np.full((K, K), 1 / K))  # a uniform spammer
    confusions.append(np.tile([0.0, 0.0, 1.0], (K, 1)))  # always the last label
    codes = np.full((len(confusions), n_items), -1, np.int32)
    for a, e in enumerate(confusions):
        judged = rng.random(n_items) < 0.7
        cum = e[truth].cumsum(1)
        given = (rng.random(n_items)[:, None] > cum).sum(1)
        codes[a, judged] = np.minimum(given, K - 1)[judged]
    data = ReliabilityData(codes, ["x", "y", "z"])
    ds = an.dawid_skene(data)
    assert ds.converged
    for a, e in enumerate(confusions):
        assert np.abs(ds.confusion_values[a] - e).max() < 0.04, a
    assert np.abs(ds.prevalence_values - pi).max() < 0.02
    skill = ds.skill_values
    assert np.allclose(skill[:5], [pi @ np.diag(e) for e in confusions[:5]], atol=0.03)
    assert skill[5] == pytest.approx(1 / K, abs=0.03) and skill[6] == pytest.approx(0.2, abs=0.02)
    # its labels are as good as those of the true parameters (the Bayes rule), better than MV
    ann = Annotations.from_data(data)
    true_err = np.array(confusions).transpose(0, 2, 1).reshape(-1, K)  # (annotator, given) × true
    oracle = ds_module.log_joint(ann, pi, true_err).argmax(1)
    judged = ann.items
    accuracy = (ds.codes[judged] == truth[judged]).mean()
    assert accuracy >= (oracle == truth[judged]).mean() - 0.002
    assert accuracy > (an.majority_vote(data).codes[judged] == truth[judged]).mean() + 0.02


# ---- weighted items: a bootstrap replicate without copying ---------------------------------
@pytest.mark.parametrize("model", list(an.MODELS))
def test_weighted_items_are_repeated_items(model: str) -> None:
    """Fitting with whole-number item weights is fitting the data with each item repeated
    that many times (items of weight 0 left out)."""
    data = load("multi")
    counts = np.random.default_rng(4).integers(0, 3, data.n_items)
    counts[:5] = 0  # the annotators of only these items lose all their judgements, if any
    weighted = an.MODELS[model](Annotations.from_data(data).reweighted(counts))
    drawn = np.repeat(np.arange(data.n_items), counts)
    repeated = an.MODELS[model](data.subset(items=drawn))
    tol = {"glad": 2e-4, "mace": 1e-6}.get(model, 1e-10)
    a, b = weighted.skill_values, repeated.skill_values
    assert np.array_equal(np.isnan(a), np.isnan(b))
    assert np.nanmax(np.abs(a - b)) < tol
    assert np.abs(weighted.posterior[drawn] - repeated.posterior).max() < tol * 10
    if model in ("dawid_skene", "one_coin"):
        assert weighted.iterations == repeated.iterations
        assert weighted.log_likelihood == pytest.approx(repeated.log_likelihood, rel=1e-10)


def test_warm_starts_reach_the_same_fit() -> None:
    data = load("multi")
    g = an.glad(data)
    again = an.glad(data, start=g)
    assert np.abs(again.skill_values - g.skill_values).max() < 1e-4
    assert again.iterations < g.iterations
    m = an.mace(data, seed=3)
    warm = an.mace(data, start=m)
    assert np.abs(warm.skill_values - m.skill_values).max() < 1e-6
    assert len(warm.settings["restart_log_likelihoods"]) == 1


# ---- alt-test ------------------------------------------------------------------------------
def panel_data(entry: dict, llm: str) -> ReliabilityData:
    """A panel of ``alttest_random.json`` as reliability data: its humans, then ``llm``."""
    triples = [(h, i, v) for h, anns in entry["humans"].items() for i, v in anns.items()]
    triples += [(llm, i, v) for i, v in entry["llms"][llm].items()]
    return ReliabilityData.from_triples(triples)


def test_alt_test_equal_to_the_reference_code_on_random_panels() -> None:
    """ω, ρ and the p-values as the reference code (the functions of nitaytech/AltTest's
    notebook) computes them, on panels made by make_fixtures.random_panels: missing labels,
    humans of unequal skill, candidates from a spammer to one better than every human,
    accuracy and neg_rmse."""
    fixture = json.loads((FIX / "alttest_random.json").read_text(encoding="utf-8"))
    winning = set()
    for entry in fixture["sets"].values():
        for llm, ref in entry["results"].items():
            r = an.alt_test(panel_data(entry, llm), llm, epsilon=entry["epsilon"],
                            scoring=entry["scoring"])
            assert r.winning_rate == pytest.approx(ref["winning_rate"], abs=1e-12)
            assert r.advantage_probability == pytest.approx(ref["advantage_probability"],
                                                            abs=1e-12)
            assert np.allclose(list(r.p_values.values()), ref["p_values"], rtol=1e-9,
                               atol=1e-14)
            winning.add(round(ref["winning_rate"], 2))
    assert len(winning) >= 5  # not only all-or-nothing outcomes


def test_alt_test_equal_to_the_reference_example() -> None:
    """The notebook's own example (the paper's data sets) as the notebook printed it, when a
    checkout of nitaytech/AltTest is named by CORPUSAGREE_ALTTEST_REPO (its data carry no
    licence, so none of them is stored here)."""
    import os

    repo = os.environ.get("CORPUSAGREE_ALTTEST_REPO")
    if not repo:
        pytest.skip("set CORPUSAGREE_ALTTEST_REPO to a checkout of nitaytech/AltTest")
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_fixtures", FIX / "make_fixtures.py")
    mf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mf)
    ns, _ = mf._reference(Path(repo))
    lines = []
    for name, (scoring, eps) in mf.DATASETS.items():
        folder = Path(repo) / "data" / name
        humans = json.loads((folder / "human_annotations.json").read_text())
        llms = json.loads((folder / "llm_annotations.json").read_text())
        lines.append(f"Computing {name}")
        for llm, anns in llms.items():
            triples = [(f"human {h}", str(i), v) for h, a in humans.items()
                       for i, v in a.items()] + [(llm, str(i), v) for i, v in anns.items()]
            data = ReliabilityData.from_triples(triples)
            r = an.alt_test(data, llm, epsilon=eps, scoring=scoring)
            lines.append(f"{name} {llm} [{'PASSED' if r.passed else 'FAILED'}]:\tWinning "
                         f"Rate={r.winning_rate:.2f}\tAdvantage Probability="
                         f"{r.advantage_probability:.2f}")
        lines.append("")
    printed = [ln for ln in ns["_printed"].splitlines()
               if not ln.startswith(("Dropped", "Skipping"))]
    assert lines == printed


def plain_alt_test(data: ReliabilityData, candidate, epsilon: float, score, q: float = 0.05,
                   min_items: int = 30) -> tuple[float, float, dict]:
    """The alt-test from the paper's definitions (Calderon et al. 2025, §3), item by item."""
    from scipy import stats

    names = list(data.coders)
    c = names.index(candidate)
    humans = [k for k in range(len(names)) if k != c]
    value = data.labels
    p_values, rhos = {}, []
    for j in humans:
        w_f, w_h = [], []
        for i in range(data.n_items):
            rest = [value[data.codes[k, i]] for k in humans if k != j and data.codes[k, i] >= 0]
            if data.codes[c, i] < 0 or data.codes[j, i] < 0 or not rest:
                continue
            s_f = score(value[data.codes[c, i]], rest)
            s_h = score(value[data.codes[j, i]], rest)
            w_f.append(int(s_f >= s_h))
            w_h.append(int(s_h >= s_f))
        if len(w_f) < min_items:
            continue
        d = np.array(w_h) - np.array(w_f)
        p_values[names[j]] = stats.ttest_1samp(d, epsilon, alternative="less").pvalue
        rhos.append(np.mean(w_f))
    p = np.array(list(p_values.values()))
    m = len(p)
    order = np.argsort(p)
    bound = np.arange(1, m + 1) / m * q / np.sum(1 / np.arange(1, m + 1))
    hits = np.flatnonzero(p[order] <= bound)
    rejected = 0 if not len(hits) else hits[-1] + 1
    return rejected / m, float(np.mean(rhos)), p_values


def random_panel(seed: int, numeric: bool, n: int | None = None) -> ReliabilityData:
    """Humans h0 … and a candidate "llm" judging 1 … 5, a quarter of the cells missing."""
    rng = np.random.default_rng(seed)
    n, h = n or int(rng.integers(60, 120)), int(rng.integers(3, 7))
    truth = rng.integers(1, 6, n)
    rows = [np.where(rng.random(n) < rng.uniform(0.4, 0.8), truth, rng.integers(1, 6, n))
            for _ in range(h + 1)]
    m = np.array(rows, float)
    m[rng.random(m.shape) < 0.25] = np.nan
    m[-1, rng.random(n) < 0.1] = np.nan
    names = [f"h{k}" for k in range(h)] + ["llm"]
    if numeric:
        return ReliabilityData.from_matrix(m, coders=names)
    text = [[None if np.isnan(v) else f"L{int(v)}" for v in row] for row in m]
    return ReliabilityData.from_matrix(text, coders=names)


@pytest.mark.parametrize("seed", range(6))
def test_alt_test_equal_to_the_paper_definitions(seed: int) -> None:
    data = random_panel(seed, numeric=True)
    eps = [0.0, 0.05, 0.1, 0.2, 0.3, 0.15][seed]
    scorings = [
        ("accuracy", lambda p, anns: float(np.mean([p == a for a in anns]))),
        ("neg_rmse", lambda p, anns: -float(np.sqrt(np.mean([(p - a) ** 2 for a in anns])))),
        ("interval", lambda p, anns: -float(np.mean([(p - a) ** 2 for a in anns]))),
        (lambda a, b: abs(a - b) ** 0.5,
         lambda p, anns: -float(np.mean([abs(p - a) ** 0.5 for a in anns]))),
    ]
    for scoring, score in scorings:
        r = an.alt_test(data, "llm", epsilon=eps, scoring=scoring)
        w, rho, p = plain_alt_test(data, "llm", eps, score)
        assert r.winning_rate == w and r.advantage_probability == pytest.approx(rho, abs=1e-14)
        assert r.humans == list(p) and np.allclose(list(r.p_values.values()), list(p.values()),
                                                   rtol=1e-9, atol=1e-15)


def test_alt_test_human_parts_and_skipped() -> None:
    data = random_panel(1, numeric=False, n=150)
    codes = data.codes.copy()
    codes[0, 25:] = -1  # h0 keeps fewer than 30 items
    data = ReliabilityData(codes, data.labels, data.coders)
    r = an.alt_test(data, "llm", epsilon=0.1, small="skip")
    assert "h0" in r.skipped and "h0" not in r.p_values
    assert set(r.p_values) == set(r.humans) == set(data.coders[1:-1])
    for h in r.humans:
        assert r.candidate_advantage[h] + r.human_advantage[h] >= 1
    d = r.to_dict()
    assert d["passed"] == r.passed and len(d["humans"]) == len(r.humans)
    assert list(r.to_frame()["human"]) == r.humans
    narrower = an.alt_test(data, "llm", humans=["h1", "h2"], epsilon=0.1)
    assert narrower.humans == ["h1", "h2"]


def test_benjamini_yekutieli() -> None:
    p = np.array([0.001, 0.5, 0.004, np.nan, 0.03])
    c = sum(1 / k for k in range(1, 6))
    assert 0.004 <= 2 / 5 * 0.05 / c and not 0.03 <= 3 / 5 * 0.05 / c
    assert list(an.benjamini_yekutieli(p, 0.05)) == [True, False, True, False, False]
    assert list(an.benjamini_yekutieli(np.array([0.04, 0.01]), 0.05)) == [False, True]


# ---- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("model", list(an.MODELS))
def test_models_refuse_one_annotator_and_sets(model: str) -> None:
    one = ReliabilityData.from_triples([("A", 1, "x"), ("A", 2, "y")])
    with pytest.raises(InputError, match="at least 2 annotators"):
        an.MODELS[model](one)
    sets = ReliabilityData.from_triples([("A", 1, {"x"}), ("B", 1, {"x", "y"})])
    with pytest.raises(InputError, match="plain label"):
        an.MODELS[model](sets)
    empty = ReliabilityData(np.full((2, 3), -1, np.int32), ["x"])
    with pytest.raises(InputError, match="no judgement"):
        an.MODELS[model](empty)


def test_alt_test_bad_input() -> None:
    data = random_panel(0, numeric=True)
    with pytest.raises(InputError, match="no candidate 'gpt'"):
        an.alt_test(data, "gpt")
    with pytest.raises(InputError, match="at least 2 humans"):
        an.alt_test(data, "llm", humans=["h0"])
    with pytest.raises(InputError, match="no human 'h9'"):
        an.alt_test(data, "llm", humans=["h0", "h9"])
    codes = data.codes.copy()
    codes[-1] = np.where(np.arange(data.n_items) % 2 == 0, 0, -1)
    codes[:-1, ::2] = -1  # the candidate judged only items no human judged
    with pytest.raises(InputError, match="no item is judged by the candidate"):
        an.alt_test(ReliabilityData(codes, data.labels, data.coders), "llm")
    few = data.subset(items=np.arange(25))
    with pytest.raises(InputError, match="no human judged 30 items"):
        an.alt_test(few, "llm", small="skip")
    labels = ReliabilityData.from_matrix([["a", "b"] * 20, ["a", "a"] * 20, ["b", "b"] * 20],
                                         coders=["h0", "h1", "llm"])
    with pytest.raises(InputError, match="neg_rmse"):
        an.alt_test(labels, "llm", scoring="neg_rmse")
    with pytest.raises(ValueError, match="epsilon"):
        an.alt_test(data, "llm", epsilon=-0.1)


# ---- the result --------------------------------------------------------------------------------
def test_result_maps_back_unjudged_items_and_annotators() -> None:
    data = ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("C", 1, "y"),
                                         ("A", 2, "y"), ("B", 2, "y"), ("C", 3, None),
                                         ("D", 4, None)])
    for fit in an.MODELS.values():
        r = fit(data)
        assert r.labels == {1: "x", 2: "y", 3: None, 4: None}
        assert np.isnan(r.posteriors.values[2:]).all() and math.isnan(r.skill["D"])
        assert r.posteriors[1]["x"] > r.posteriors[1]["y"]
        assert r.label_names == ["x", "y"] and list(r.judgements) == [2, 2, 1, 0]
        d = r.to_dict()
        assert d["model"] == r.model and len(d["items"]) == 4 and len(d["annotators"]) == 4
        items, annotators = r.to_frame(), r.to_frame("annotators")
        assert list(items.columns[:4]) == ["item", "label", "P(x)", "P(y)"]
        assert list(annotators["annotator"]) == ["A", "B", "C", "D"]
        assert ("confusion" in d["annotators"][0]) == (r.confusion is not None)
    assert an.majority_vote(data).log_likelihood is None
    assert an.dawid_skene(data).log_likelihood < 0


def test_unused_declared_labels_and_ties() -> None:
    data = ReliabilityData.from_triples([("A", 1, "b"), ("B", 1, "a"), ("A", 2, "c"),
                                         ("B", 2, "c")], categories=["a", "b", "c", "d"])
    mv = an.majority_vote(data)
    assert mv.label_names == ["a", "b", "c"] and mv.labels == {1: "a", 2: "c"}
    assert vote_module.first_argmax(np.array([[0.5, 0.5], [0.2, 0.8]])).tolist() == [0, 1]


def test_import_stays_light() -> None:
    """The models import scipy.special and scipy.sparse, not scipy.stats; GLAD imports
    scipy.optimize when it runs."""
    code = ("import sys, corpusagree.annotators; "
            "print(sorted({'scipy.stats', 'scipy.optimize', 'pandas'} & set(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize("module", [an, vote_module, ds_module, glad_module, mace_module,
                                    alt_module])
def test_docstring_examples(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted >= 2 and result.failed == 0


@pytest.mark.parametrize("model", ["majority_vote", "wawa", "dawid_skene", "one_coin", "glad",
                                   "mace"])
def test_too_many_labels_refused_with_the_numbers_before_allocating(model):
    """Issue 37, 9: 10^4 items with 3×10^4 distinct labels would need a 2.24 GiB items ×
    labels table (a MemoryError under a 4 GiB limit): every model refuses with the numbers
    before allocating anything of that size."""
    import tracemalloc
    n, L = 10_000, 30_000
    codes = (np.arange(3 * n).reshape(3, n) % L).astype(np.int32)
    data = ReliabilityData(codes, [f"L{k}" for k in range(L)], ["a", "b", "c"])
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match=rf"^{model}: a table of 10,000 items × 30,000 "
                                             r"labels would take 2\.24 GiB \(at most 0\.50"):
            getattr(an, model)(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 << 20
# ---- the alt-test below 30 items: Wilcoxon's signed-rank test (issue 34, item 17) ----------------
def test_wilcoxon_less_equal_to_scipy() -> None:
    """T+ and the one-sided p-value as scipy.stats.wilcoxon computes them (exact without ties,
    by enumeration of the signs with ties, n ≤ 13), many tests at once, zeros dropped."""
    from scipy import stats

    from corpusagree.stats.annotators.alt_test import wilcoxon_less

    rng = np.random.default_rng(7)
    xs, groups, refs = [], [], []
    for k in range(60):
        n = int(rng.integers(1, 14))
        if k % 3 == 0:  # the alt-test's values: d − ε, three values, many ties
            x = rng.integers(-1, 2, n) - [0.0, 0.1, 0.2][k % 9 // 3]
        elif k % 3 == 1:
            x = rng.normal(0.3, 1, n)  # no ties
        else:
            x = rng.integers(-3, 4, n).astype(float)  # ties and zeros
        xs.append(x)
        groups.append(np.full(n, k))
        nz = x[x != 0]
        refs.append(stats.wilcoxon(nz, alternative="less") if len(nz) else None)
    order = rng.permutation(sum(map(len, xs)))  # the values of a test need not be together
    t, p = wilcoxon_less(np.concatenate(xs)[order], np.concatenate(groups)[order], 60)
    for k, ref in enumerate(refs):
        if ref is None:
            assert np.isnan(t[k]) and np.isnan(p[k])
        else:
            assert t[k] == ref.statistic and p[k] == pytest.approx(ref.pvalue, rel=1e-12), k


def test_alt_test_wilcoxon_for_humans_below_min_items() -> None:
    """A human of fewer than 30 items is tested by Wilcoxon's signed-rank test of d − ε (the
    authors' recommendation) rather than left out; small="skip" leaves them out as the
    authors' code does; the others' t-tests are unchanged; the BY-adjusted p-values decide the
    wins."""
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    data = random_panel(1, numeric=False, n=150)
    codes = data.codes.copy()
    codes[0, 25:] = -1  # h0 keeps fewer than 30 items
    codes[1, 12:] = -1  # h1 fewer than 13
    data = ReliabilityData(codes, data.labels, data.coders)
    skip = an.alt_test(data, "llm", epsilon=0.1, small="skip")
    r = an.alt_test(data, "llm", epsilon=0.1)
    assert {"h0", "h1"} <= set(r.humans) and {"h0", "h1"} <= set(skip.skipped)
    assert r.tests["h0"] == r.tests["h1"] == "wilcoxon" and np.isnan(r.t_statistics["h0"])
    score = lambda p, anns: float(np.mean([p == a for a in anns]))  # noqa: E731
    names, value = list(data.coders), data.labels
    for j in ("h0", "h1"):
        k, c = names.index(j), names.index("llm")
        d = []
        for i in range(data.n_items):
            rest = [value[data.codes[o, i]] for o in range(len(names) - 1)
                    if o != k and data.codes[o, i] >= 0]
            if data.codes[c, i] < 0 or data.codes[k, i] < 0 or not rest:
                continue
            s_f, s_h = score(value[data.codes[c, i]], rest), score(value[data.codes[k, i]], rest)
            d.append(int(s_h >= s_f) - int(s_f >= s_h))
        assert len(d) == r.items[j] < 30
        ref = stats.wilcoxon(np.array(d) - 0.1, alternative="less")
        assert r.p_values[j] == pytest.approx(ref.pvalue, rel=1e-12)
    for h in skip.humans:
        assert r.tests[h] == "t" and r.p_values[h] == skip.p_values[h]
    p = np.array([r.p_values[h] for h in r.humans])
    reject, adjusted, *_ = multipletests(p, alpha=0.05, method="fdr_by")
    assert np.allclose([r.p_adjusted[h] for h in r.humans], adjusted, rtol=1e-12)
    assert [r.wins[h] for h in r.humans] == reject.tolist()
    assert r.human_records()[0]["p_adjusted"] == r.p_adjusted[r.humans[0]]
    with pytest.raises(ValueError, match="small"):
        an.alt_test(data, "llm", small="drop")


def test_by_adjusted_matches_the_step_up_procedure() -> None:
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(3)
    for _ in range(50):
        p = rng.random(int(rng.integers(1, 12))) ** 3
        adj = an.by_adjusted(p)
        assert np.allclose(adj, multipletests(p, method="fdr_by")[1], rtol=1e-12)
        for q in (0.01, 0.05, 0.2):
            assert (adj <= q).tolist() == an.benjamini_yekutieli(p, q).tolist()
