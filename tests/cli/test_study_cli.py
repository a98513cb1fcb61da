"""``corpusagree compare`` and ``corpusagree plan``: what they print, and bad input on one
line with exit status 2."""

from __future__ import annotations

import json

import pytest

S = "sample_corpora"
CSV = f"{S}/table/dialogue_acts.csv"


def test_compare_prints_both_values_and_the_difference(cli):
    status, out, err = cli("compare", f"{S}/coref/brat", f"{S}/coref/mmax2", "--margin", "0.05",
                           "--resamples", "50")
    assert status == 0, err
    assert "A: brat" in out and "B: mmax2" in out and "A − B" in out
    assert "paired" in out and "equivalent" in out and "p-value" in out


def test_compare_json_and_html(cli, tmp_path):
    status, out, err = cli("compare", CSV, CSV, "--group", "document", "--resamples", "50",
                           "--json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["job"] == "compare" and doc["compared_job"] == "table"
    assert doc["comparison"]["paired"] is True
    pytest.importorskip("matplotlib")
    page = tmp_path / "c.html"
    status, _, err = cli("compare", CSV, CSV, "--group", "document", "--resamples", "50",
                         "--html", page, "-q")
    assert status == 0, err
    assert "<svg" in page.read_text(encoding="utf-8")


def test_compare_csv(cli, tmp_path):
    status, _, err = cli("compare", CSV, CSV, "--resamples", "20", "--format", "csv",
                         "--output", tmp_path / "out")
    assert status == 0, err


@pytest.mark.parametrize("argv, words", [
    (["compare", f"{S}/coref/brat", CSV], "compare two studies of one job"),
    (["compare", CSV, CSV, "--margin", "1.5"], "--margin"),
    (["compare", CSV, CSV, "--margin", "0"], "--margin"),
    (["compare", CSV, CSV, "--coefficient", "kappa_max"], "not a coefficient with a bootstrap"),
    (["compare", CSV, CSV, "--interval", "jackknife", "--cluster", "document", "--group",
      "no_such_column"], "no_such_column"),
    (["compare", "README.md", CSV], "not recognised"),
    (["plan"], "one of"),
    (["plan", "--kappa", "0.5,0.5"], "four numbers"),
    (["plan", CSV, "--group", "document", "--candidate", "nobody"], "nobody"),
    (["plan", CSV, "--group", "document", "--candidate", "dan", "--power", "2"], "--power"),
])
def test_bad_input_is_one_line_and_exit_2(cli, argv, words):
    status, out, err = cli(*argv)
    assert status == 2 and not out
    assert len(err.strip().splitlines()) == 1 and words in err, err


def test_jackknife_needs_two_documents(cli, tmp_path):
    one = tmp_path / "one.csv"
    one.write_text("coder,item,label,document\na,1,x,d\nb,1,x,d\na,2,y,d\nb,2,x,d\n",
                   encoding="utf-8")
    status, out, err = cli("compare", one, one, "--group", "document", "--interval",
                           "jackknife")
    assert status == 2 and "at least two" in err and len(err.strip().splitlines()) == 1


def test_plan_alpha_kappa_and_table(cli):
    status, out, _ = cli("plan", "--alpha-min", "0.8", "--proportions", "1,1,1,1")
    assert status == 0 and "139" in out
    status, out, _ = cli("plan", "--kappa", "0.5,0.5,0.7,0.85")
    assert status == 0 and "96" in out
    status, out, _ = cli("plan", "--alpha-min", "0.8", "--table", "--json")
    rows = json.loads(out)["rows"]
    assert {r["smallest"]: r["p=0.05"] for r in rows}[0.25] == 139


def test_plan_on_a_pilot(cli, tmp_path):
    status, out, err = cli("plan", CSV, "--group", "document", "--width", "0.2",
                           "--documents", "3,12,48", "--resamples", "50", "--json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["method"] == "simulation" and [r["documents"] for r in doc["rows"]] == [3, 12, 48]
    pytest.importorskip("matplotlib")
    page = tmp_path / "p.html"
    status, _, err = cli("plan", f"{S}/segments/segments.json", "--width", "0.3",
                         "--resamples", "20", "--html", page, "-q")
    assert status == 0, err
    assert "<svg" in page.read_text(encoding="utf-8")


def test_plan_for_the_alt_test_of_a_candidate(cli):
    status, out, err = cli("plan", CSV, "--group", "document", "--candidate", "dan",
                           "--documents", "3,12,48", "--resamples", "50", "--json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["method"] == "alt_test" and doc["options"]["candidate"] == "dan"
    passed = [r["passed"] for r in doc["rows"]]
    assert passed == sorted(passed) and doc["answer"] == next(
        r["documents"] for r in doc["rows"] if r["passed"] >= 0.8)
    status, out, err = cli("plan", CSV, "--group", "document", "--candidate", "dan",
                           "--documents", "3,12", "--resamples", "20")
    assert status == 0 and "documents for the alt-test" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_intervals_over_coders_from_the_command_line(cli):
    base = ("table", CSV, "--group", "document", "--ci", "--interval", "jackknife", "--json")
    status, out, err = cli(*base, "--over", "coders")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["bootstrap"]["over"] == "coders"
    ivs = [c["interval"] for c in doc["coefficients"] if c.get("interval")]
    assert ivs and all(iv["method"] == "jackknife over coders" for iv in ivs)
    status, out, err = cli(*base)
    assert status == 0 and "over" not in json.loads(out)["bootstrap"]
    status, out, err = cli("table", CSV, "--group", "document", "--ci", "--over", "both")
    assert status == 2 and not out and "--over both needs --interval jackknife" in err
    status, out, err = cli("table", CSV, "--annotators", "ann,bob", "--ci", "--interval",
                           "jackknife", "--over", "coders")
    assert status == 2 and "three or more coders" in err and len(err.splitlines()) == 1
