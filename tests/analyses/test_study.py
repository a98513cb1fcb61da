"""Study design in Python: ``ca.compare`` on reliability data, on two corpora of a job (the
registration's ``data`` hook) and on two reports; ``ca.plan`` for α, κ and a pilot study."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.analyses import coref, jobs, segments, senses, study, table
from corpusagree.stats import compare as cmp

S = "sample_corpora"
CSV = f"{S}/table/dialogue_acts.csv"


def studies(noise_a: float, noise_b: float, *, seed: int = 1, docs: int = 20, size: int = 10):
    """Two studies coding the same documents with different noise (guidelines v1 and v2)."""
    rng = np.random.default_rng(seed)
    n = docs * size
    truth = rng.integers(0, 3, n)

    def one(noise: float) -> ca.ReliabilityData:
        codes = np.where(rng.random((3, n)) < noise, rng.integers(0, 3, (3, n)), truth)
        return ca.ReliabilityData(codes, labels=[0, 1, 2], groups=np.arange(n) // size,
                                  group_names=[f"d{g}" for g in range(docs)])

    return one(noise_a), one(noise_b)


# ---- compare on reliability data -------------------------------------------------------------
def test_compare_is_the_statistics_of_stats_compare():
    a, b = studies(0.1, 0.4)
    settings = ca.Bootstrap(300, seed=3)
    got = ca.compare(a, b, bootstrap=settings, margin=0.05)
    want = cmp.compare(a, b, bootstrap=settings, margin=0.05)
    assert got.difference == pytest.approx(want.difference)
    assert (got.interval.low, got.interval.high) == pytest.approx(
        (want.interval.low, want.interval.high))
    assert got.p_value == pytest.approx(want.p_value)
    assert got.paired and got.difference == pytest.approx(float(ca.alpha(a)) - float(ca.alpha(b)))
    assert got.equivalent is False and got.noninferior is True
    assert "paired" in got.notes[0]


def test_independent_when_the_documents_differ():
    a, _ = studies(0.2, 0.2, seed=1)
    b, _ = studies(0.2, 0.2, seed=2, docs=15)
    b.group_names = [f"other{g}" for g in b.group_names]
    c = ca.compare(a, b, bootstrap=ca.Bootstrap(200))
    assert c.paired is False and "independent" in c.notes[0]


@pytest.mark.parametrize("noise_b, equivalent", [(0.2, True), (0.6, False)])
def test_tost_either_side_of_the_margin(noise_b, equivalent):
    """The same guidelines (a difference near 0) are equivalent within 0.1; much worse
    guidelines are not."""
    a, b = studies(0.2, noise_b, docs=40)
    c = ca.compare(a, b, bootstrap=ca.Bootstrap(500, seed=1), margin=0.1)
    lo, hi = c.comparison.tost_interval
    assert c.equivalent is equivalent
    assert c.equivalent == (-0.1 < lo and hi < 0.1)
    assert c.noninferior == (lo > -0.1)


def test_the_jackknife_difference():
    a, b = studies(0.1, 0.3)
    c = ca.compare(a, b, bootstrap=ca.Bootstrap(interval="jackknife"))
    assert c.interval.method.startswith("jackknife") or "jackknife" in c.interval.method
    assert c.interval.low < c.difference < c.interval.high


@pytest.mark.parametrize("kwargs, error, words", [
    ({"margin": 1.5}, ValueError, "margin"),
    ({"margin": 0}, ValueError, "margin"),
    ({"coefficient": "kappa_max"}, ValueError, "coefficient"),
    ({"bootstrap": 5}, TypeError, "bootstrap"),
    ({"weights": "x"}, TypeError, "distance="),
])
def test_bad_keywords(kwargs, error, words):
    a, b = studies(0.1, 0.2)
    with pytest.raises(error, match=words):
        ca.compare(a, b, **kwargs)


def test_fewer_than_two_documents_for_the_jackknife():
    a, b = studies(0.1, 0.2, docs=1)
    with pytest.raises(ValueError, match="at least two"):
        ca.compare(a, b, bootstrap=ca.Bootstrap(interval="jackknife"))


# ---- the jobs' data hook ---------------------------------------------------------------------
HOOKED = {
    "table": lambda: table.read(CSV, group="document"),
    "coref": lambda: coref.read(f"{S}/coref/brat"),
    "segments": lambda: segments.read(f"{S}/segments/segments.json"),
    "senses": lambda: senses.read(f"{S}/senses/sample.tsv"),
}


@pytest.mark.parametrize("name", list(HOOKED))
def test_the_hook_gives_the_data_of_the_reports_first_alpha(name):
    """The α of the hook's data is the α the job's report shows first."""
    corpus = HOOKED[name]()
    data, distance = jobs.get(name).data(corpus)
    headline = jobs.module(name).analyse(corpus).headline()
    assert float(ca.alpha(data, distance)) == pytest.approx(headline.value)
    assert data.group_names is not None


def test_the_hooked_jobs():
    assert {"table", "coref", "segments", "senses"} <= set(study.hooked_jobs())


def test_compare_two_corpora_of_a_job():
    """The same annotations in two formats: paired, no difference."""
    c = ca.compare(coref.read(f"{S}/coref/brat"), coref.read(f"{S}/coref/mmax2"),
                   bootstrap=ca.Bootstrap(100))
    assert c.compared == "coref" and c.paired
    assert c.difference == pytest.approx(0) and c.names == ("brat", "mmax2")
    assert c.comparison.distance == coref.DISTANCES[0]


def test_corpora_of_different_jobs_are_refused():
    with pytest.raises(ValueError, match="different jobs"):
        ca.compare(coref.read(f"{S}/coref/brat"), table.read(CSV))
    with pytest.raises(ValueError, match="not of table"):
        ca.compare(coref.read(f"{S}/coref/brat"), coref.read(f"{S}/coref/mmax2"), job="table")


# ---- two reports -----------------------------------------------------------------------------
def test_two_reports_of_the_same_documents_and_seed():
    corpus = table.read(CSV, group="document")
    settings = ca.Bootstrap(200, seed=4)
    ra = table.analyse(corpus, bootstrap=settings)
    rb = table.analyse(corpus, bootstrap=settings, distance="nominal")
    c = ca.compare(ra, rb, margin=0.05)
    assert c.difference == pytest.approx(0) and c.paired and c.equivalent
    ia = ra.headline().interval
    assert c.interval.n_resamples == len(ia.distribution)


def test_reports_with_other_seeds_are_refused():
    corpus = table.read(CSV, group="document")
    ra = table.analyse(corpus, bootstrap=ca.Bootstrap(100, seed=1))
    rb = table.analyse(corpus, bootstrap=ca.Bootstrap(100, seed=2))
    with pytest.raises(ValueError, match="seeds"):
        ca.compare(ra, rb)
    with pytest.raises(ValueError, match="with a bootstrap"):
        ca.compare(table.analyse(corpus), table.analyse(corpus))
    seg = segments.analyse(segments.read(f"{S}/segments/segments.json"),
                           bootstrap=ca.Bootstrap(100, seed=1))
    with pytest.raises(ValueError, match="different jobs"):
        ca.compare(ra, seg)


def test_the_report_renders():
    a, b = studies(0.1, 0.3)
    c = ca.compare(a, b, bootstrap=ca.Bootstrap(100), margin=0.05)
    assert set(c.tables) == {"comparison", "tests"}
    rows = c.tables["comparison"].records()
    assert rows[2]["value"] == pytest.approx(c.difference)
    assert rows[2]["interval_low"] == pytest.approx(c.interval.low)
    doc = c.to_dict()
    assert doc["job"] == "compare" and doc["comparison"]["paired"] is True
    pytest.importorskip("matplotlib")
    page = c.to_html()
    assert "<svg" in page and "A − B" in page


# ---- plan ------------------------------------------------------------------------------------
@pytest.mark.parametrize("alpha_min, proportions, n", [
    (0.8, [1, 1, 1, 1], 139),     # Krippendorff (2019), table of ch. 12: P_c = .25, p = .05
    (0.667, [1, 1, 1, 1], 81),
    (0.8, [0.5, 0.5], 103),
])
def test_plan_units_for_alpha(alpha_min, proportions, n):
    assert ca.plan(alpha_min=alpha_min, proportions=proportions).answer == n


def test_plan_the_table_and_kappa():
    rows = ca.plan(alpha_min=0.8, table=True).rows
    assert {r["smallest"]: r["p=0.05"] for r in rows}[0.25] == 139
    r = ca.plan(kappa={"rate1": 0.5, "rate2": 0.5, "kappa1": 0.7, "kappa0": 0.85})
    assert r.answer == 96  # irr::N.cohen.kappa's example


def test_plan_by_simulation_on_a_pilot():
    corpus = table.read(CSV, group="document")
    seen = []
    r = ca.plan(corpus, width=0.2, documents=[3, 12, 48], n_resamples=100,
                progress=lambda d, t: seen.append((d, t)))
    widths = [row["width"] for row in r.rows]
    assert widths == sorted(widths, reverse=True)
    assert r.answer == next(row["documents"] for row in r.rows if row["width"] <= 0.2)
    assert seen[-1] == (3, 3)
    want = cmp.width_by_documents(table.as_corpus(corpus).data, [3, 12, 48],
                                  n_resamples=100, seed=0)
    assert widths == pytest.approx([w["width"] for w in want])
    assert r.plots()[0].kind == "bars"


def test_plan_needs_one_question():
    with pytest.raises(ValueError, match="one of"):
        ca.plan()
    with pytest.raises(ValueError, match="proportions"):
        ca.plan(alpha_min=0.8)


def test_plan_is_a_dataclass_report():
    r = ca.plan(alpha_min=0.8, proportions=[1, 1])
    assert dataclasses.is_dataclass(r) and r.to_dict()["answer"] == 103


def pilot_with_a_model(model_noise: float, *, seed: int = 2, docs: int = 20, size: int = 10):
    """A pilot of three humans (noise 0.4) and a model (``model_noise``), documents of
    ``size`` items."""
    rng = np.random.default_rng(seed)
    n = docs * size
    truth = rng.integers(0, 3, n)
    noise = np.array([[model_noise], [0.4], [0.4], [0.4]])
    codes = np.where(rng.random((4, n)) < noise, rng.integers(0, 3, (4, n)), truth)
    codes[1:][rng.random((3, n)) < 0.2] = -1  # humans skip a fifth of the items
    return ca.ReliabilityData(codes.astype(np.int32), labels=[0, 1, 2],
                              coders=["model", "ann", "bob", "cy"],
                              groups=np.arange(n) // size,
                              group_names=[f"d{g}" for g in range(docs)])


def test_documents_are_drawn_whole():
    data = ca.ReliabilityData(np.zeros((2, 7), np.int32), labels=[0],
                              groups=np.array([2, 0, 2, 1, 0, 2, 1]), group_names=["a", "b", "c"])
    order, starts = cmp._items_of(data, True)
    drawn = np.array([2, 2, 0, 1])
    got = cmp._drawn_items(order, starts, drawn)
    want = np.concatenate([np.flatnonzero(data.groups == d) for d in drawn])
    assert got.tolist() == want.tolist()


def test_plan_for_the_alt_test_finds_the_documents_a_good_model_needs():
    from corpusagree.stats.annotators.alt_test import alt_test

    pilot = pilot_with_a_model(0.3)
    assert alt_test(pilot, "model").passed
    r = ca.plan(pilot, candidate="model", epsilon=0.2, documents=[2, 4, 8, 16, 32],
                n_resamples=100)
    passed = [row["passed"] for row in r.rows]
    assert passed[0] < 0.8 <= passed[-1] and passed[-1] > passed[0] + 0.3
    assert r.method == "alt_test"
    assert r.answer == next(row["documents"] for row in r.rows if row["passed"] >= 0.8)
    assert [row["items"] for row in r.rows] == [20, 40, 80, 160, 320]  # whole documents
    again = ca.plan(pilot, candidate="model", epsilon=0.2, documents=[2, 4, 8, 16, 32],
                    n_resamples=100)
    assert again.rows == r.rows  # one seed, one plan
    assert r.plots()[0].id == "power"


def test_a_model_worse_than_the_humans_never_passes_and_the_plan_says_so():
    r = ca.plan(pilot_with_a_model(0.9), candidate="model", documents=[4, 40],
                n_resamples=50)
    assert r.answer is None and max(row["passed"] for row in r.rows) < 0.2
    assert any("no simulated size" in n for n in r.notes)


def test_a_larger_epsilon_is_easier_to_pass():
    pilot = pilot_with_a_model(0.3)
    strict, lenient = (ca.plan(pilot, candidate="model", epsilon=e, documents=[8],
                               n_resamples=100).rows[0]["passed"] for e in (0.0, 0.3))
    assert lenient > strict


def test_plan_for_the_alt_test_checks_its_keywords():
    pilot = pilot_with_a_model(0.1)
    with pytest.raises(ValueError, match="power"):
        ca.plan(pilot, candidate="model", power=1.5)
    with pytest.raises(ValueError, match="epsilon"):
        ca.plan(pilot, candidate="model", epsilon=-1)
    with pytest.raises(ca.InputError, match="nobody"):
        ca.plan(pilot, candidate="nobody", documents=[4], n_resamples=10)
