"""The ratings job: its numbers are the statistics functions' (ICC forms, CCC, Bland–Altman,
Kendall's W, α), the design's form is marked, the bootstrap resamples the groups, and bad
input is one line with exit status 2 on the command line."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.analyses import ratings
from corpusagree.model.errors import InputError
from corpusagree.stats import interpret
from corpusagree.stats.scores import as_scores

from support import SAMPLES

CSV = SAMPLES / "ratings" / "essays.csv"
#: Shrout & Fleiss (1979), Table 2: 6 targets × 4 judges
SF = [[9, 6, 8, 7, 10, 6], [2, 1, 4, 1, 5, 2], [5, 3, 6, 2, 6, 4], [8, 2, 8, 6, 9, 7]]


@pytest.fixture(scope="module")
def corpus():
    return ratings.read(CSV, group="document")


@pytest.fixture(scope="module")
def report(corpus):
    return ratings.analyse(corpus)


def complete(data):
    values = as_scores(data, "test").values
    keep = ~np.isnan(values).any(axis=0)
    return values, keep


def test_icc_rows_are_icc_table_on_the_complete_items(corpus, report):
    values, keep = complete(corpus.data)
    assert (~keep).sum() == 2
    expected = ca.icc_table(values[:, keep]).to_dict()
    for row, want in zip(report.icc, expected, strict=True):
        for key in ("type", "ICC", "F", "df1", "df2", "p", "lower", "upper"):
            assert row[key] == pytest.approx(want[key]), (row["type"], key)
    assert any("2 of 80 items left out" in n for n in report.notes)


@pytest.mark.parametrize(("coders", "type", "unit", "row", "form"), [
    ("random", "agreement", "single", "ICC2", "ICC(A,1)"),
    ("fixed", "consistency", "single", "ICC3", "ICC(C,1)"),
    ("random", "consistency", "average", "ICC3k", "ICC(C,4)"),
    ("fixed", "agreement", "average", "ICC2k", "ICC(A,4)"),
    ("oneway", "agreement", "single", "ICC1", "ICC(1)"),
])
def test_the_design_chooses_the_form(corpus, coders, type, unit, row, form):
    r = ratings.analyse(corpus, coders=coders, type=type, unit=unit)
    values, keep = complete(corpus.data)
    model = "oneway" if coders == "oneway" else "twoway"
    want = ca.icc(values[:, keep], model=model, type=type, unit=unit)
    assert r.chosen["form"] == form and r.chosen["row"] == row
    assert r.chosen["value"] == pytest.approx(want.value)
    assert (r.chosen["low"], r.chosen["high"]) == pytest.approx(
        (want.interval.low, want.interval.high))
    assert [x["type"] for x in r.icc if x["chosen"]] == [row]
    assert r.chosen["reading"] == str(interpret.interpret(want.value, interpret.KOO_LI))


def test_shrout_and_fleiss_table_2_through_the_job(tmp_path):
    f = tmp_path / "sf.csv"
    f.write_text("coder," + ",".join(f"t{i}" for i in range(1, 7)) + "\n" + "".join(
        f"j{j},{','.join(map(str, row))}\n" for j, row in enumerate(SF, 1)))
    r = ratings.analyse(ratings.read(f, input_format="wide"))
    assert [round(x["ICC"], 2) for x in r.icc] == [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    assert r.chosen["reading"].startswith("poor")


def test_pairs_are_ccc_and_bland_altman(corpus, report):
    values = as_scores(corpus.data, "test").values
    names = list(corpus.data.coders)
    assert len(report.pairs) == 6
    for row in report.pairs:
        x, y = values[names.index(row["x"])], values[names.index(row["y"])]
        both = ~(np.isnan(x) | np.isnan(y))
        c = ca.ccc({"x": x[both], "y": y[both]})
        ba = ca.bland_altman({"x": x[both], "y": y[both]})
        assert row["ccc"] == pytest.approx(c.value)
        assert (row["ccc_low"], row["ccc_high"]) == pytest.approx(
            (c.interval.low, c.interval.high))
        assert (row["bias"], row["lower"], row["upper"]) == pytest.approx(
            (ba.bias, ba.lower, ba.upper))
        assert row["items"] == both.sum()
    assert len(report.plots()) == 12


def test_reference_a_coder_or_a_groups_mean(corpus):
    values = as_scores(corpus.data, "test").values
    one = ratings.analyse(corpus, reference="model")
    assert [(r["x"], r["y"]) for r in one.pairs] == [("model", "ann"), ("model", "bob"),
                                                     ("model", "cat")]
    group = ratings.analyse(corpus, reference="ann,bob,cat")
    row, = group.pairs
    assert row["x"] == "mean(ann,bob,cat)" and row["y"] == "model"
    mean = np.nanmean(values[:3], axis=0)
    assert row["ccc"] == pytest.approx(ca.ccc({"m": mean, "model": values[3]}).value)
    assert row["bias"] == pytest.approx(np.mean(mean - values[3]))
    with pytest.raises(InputError, match="reference coder not found: zed"):
        ratings.analyse(corpus, reference="zed")


def test_kendall_alpha_and_leave_one_out(corpus, report):
    values, keep = complete(corpus.data)
    assert report.kendall["value"] == pytest.approx(ca.kendall_w(values[:, keep]).value)
    alpha = {e.result.distance: e.value for e in report.coefficients}
    assert alpha["interval"] == pytest.approx(float(ca.alpha(corpus.data, "interval")))
    assert alpha["ratio"] == pytest.approx(float(ca.alpha(corpus.data, "ratio")))
    for j, row in enumerate(report.leave_one_out):
        want = ca.icc(np.delete(values[:, keep], j, axis=0)).value
        assert row["value"] == pytest.approx(want)
        assert row["change"] == pytest.approx(want - report.chosen["value"])


def test_the_bootstrap_resamples_documents(corpus):
    r = ratings.analyse(corpus, bootstrap=ca.Bootstrap(100, seed=3))
    assert r.bootstrap.cluster is not False
    for row in r.icc:
        assert row["boot_low"] < row["ICC"] < row["boot_high"]
    assert all(e.interval.units == 10 for e in r.coefficients)
    again = ratings.analyse(corpus, bootstrap=ca.Bootstrap(100, seed=3))
    assert [x["boot_low"] for x in again.icc] == [x["boot_low"] for x in r.icc]


def test_by_document_and_diagnostics(corpus):
    r = ratings.analyse(corpus, by_document=True, diagnostics=3)
    values, keep = complete(corpus.data)
    groups = corpus.data.groups[keep]
    for g, row in enumerate(r.by_group):
        assert row["value"] == pytest.approx(ca.icc(values[:, keep][:, groups == g]).value)
    sd = np.nanstd(values, axis=0, ddof=1)
    assert [x["sd"] for x in r.disputed] == pytest.approx(sorted(sd, reverse=True)[:3])


def test_constant_scores_are_nan_with_a_note():
    data = ca.ReliabilityData.from_matrix([[3, 3, 3], [3, 3, 3]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ratings.analyse(data)
    assert all(math.isnan(x["ICC"]) for x in r.icc) and math.isnan(r.chosen["value"])
    assert r.chosen["reading"] is None
    assert any("undefined" in n for n in r.notes)


@pytest.mark.parametrize(("text", "message"), [
    ("coder,item,label\na,1,3\nb,1,x\na,2,4\nb,2,4\n", "bad.csv:3: 'x' is not a number"),
    ("coder,item,label\na,1,3\na,2,4\n", "bad.csv: ratings needs 2 coders or more; got 1"),
    ("coder,item,label\na,1,3\nb,1,3\na,2,4\n",
     "bad.csv: ratings: item '2' has 1 score; every item needs 2 or more"),
])
def test_bad_input_is_one_line_exit_2(cli, tmp_path, text, message):
    f = tmp_path / "bad.csv"
    f.write_text(text)
    status, out, err = cli("ratings", f)
    assert status == 2 and out == ""
    assert err.strip().endswith(message) and len(err.strip().splitlines()) == 1


def test_command_line_equals_the_api(cli_json, corpus):
    doc = cli_json("ratings", CSV, "--group", "document", "--reference", "ann,bob,cat",
                   "--type", "consistency")
    r = ratings.analyse(corpus, reference="ann,bob,cat", type="consistency")
    assert doc["chosen"]["value"] == pytest.approx(r.chosen["value"])
    assert doc["chosen"]["form"] == "ICC(C,1)"
    assert doc["pairs"][0]["ccc"] == pytest.approx(r.pairs[0]["ccc"])


RUNS = SAMPLES / "ratings" / "essays_runs.csv"


def test_repeated_runs(cli_json):
    corpus = ratings.read(RUNS, group="document", run="run")
    rep = corpus.data
    assert rep.runs == ["1", "2", "3"] and rep.values.shape == (4, 3, 80)
    r = ratings.analyse(corpus)
    model = rep.coders.index("model")
    runs = rep.values[model]
    (row,) = r.retest
    assert row["coder"] == "model" and row["runs"] == 3
    assert row["value"] == pytest.approx(ca.icc(runs).value)
    assert row["changed"] == pytest.approx(np.mean(np.ptp(runs, axis=0) > 0))
    # between coders on each coder's mean
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the two missing scores
        means = np.nanmean(rep.values, axis=1)
    keep = ~np.isnan(means).any(axis=0)
    assert r.chosen["value"] == pytest.approx(ca.icc(means[:, keep]).value)
    # run 1 is essays.csv (the people scored once, in every run with them)
    first = ratings.analyse(ratings.read(CSV))
    assert r.by_run[0]["value"] == pytest.approx(first.chosen["value"])
    for k, run in enumerate(r.by_run):
        v = rep.values[:, 0].copy()
        v[model] = runs[k]
        ok = ~np.isnan(v).any(axis=0)
        assert run["value"] == pytest.approx(ca.icc(v[:, ok]).value)
    doc = cli_json("ratings", RUNS, "--run", "run")
    assert doc["retest"][0]["value"] == pytest.approx(row["value"])


def test_runs_of_one_coder_on_different_items_are_noted(tmp_path):
    f = tmp_path / "r.csv"
    f.write_text("coder,item,label,run\n" + "".join(
        f"a,{i},{i % 4},1\nb,{i},{(i + 1) % 4},1\n" for i in range(6))
        + "".join(f"a,{i},{i % 3},2\n" for i in range(1, 6)))
    r = ratings.analyse(ratings.read(f, run="run"))
    assert any("the runs of a cover different items" in n for n in r.notes)
    assert r.retest[0]["items"] == 5


def test_a_run_column_without_repeats_is_an_error(cli, tmp_path):
    status, out, err = cli("ratings", CSV, "--run", "document")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "the run column 'document' never repeats a coder's score of an item" in err
    f = tmp_path / "one.csv"
    f.write_text("coder,item,label,run\na,1,2,1\nb,1,3,1\na,2,2,1\nb,2,2,1\n")
    status, _, err = cli("ratings", f, "--run", "run")
    assert status == 2 and "the run column 'run' has one value ('1')" in err


def test_the_html_page_draws_a_bland_altman_plot_and_a_scatter_per_pair(corpus):
    pytest.importorskip("matplotlib")
    page = ratings.analyse(corpus, reference="ann,bob,cat").to_html()
    assert "Bland–Altman: mean(ann,bob,cat) − model" in page
    assert "model against mean(ann,bob,cat)" in page
    assert page.count("<svg") >= 2
