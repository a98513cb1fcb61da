"""``corpusagree annotators``: the JSON equals the API, every output works, and bad input is
one line with exit status 2."""

from __future__ import annotations

import io

import pytest

import corpusagree.annotators as an
from corpusagree.analyses import annotators

from support import write

SNOWLIKE = """!amt_worker_ids\torig_id\tresponse\tgold
w1\ta\t1\t1
w2\ta\t1\t1
w3\ta\t0\t1
w1\tb\t0\t0
w2\tb\t1\t0
w3\tb\t0\t0
"""


def test_json_equals_the_api(cli_json, samples):
    f = samples / "table" / "dialogue_acts.csv"
    doc = cli_json("annotators", f, "--group", "document", "--gold", "ann", "--candidate",
                   "dan", "--epsilon", "0.1", "--models", "majority_vote,dawid_skene,mace",
                   "--seed", "4")
    report = annotators.analyse(annotators.read(f, group="document", gold="ann"),
                                candidates=["dan"], epsilon=0.1,
                                models=["majority_vote", "dawid_skene", "mace"], seed=4)
    assert doc["job"] == "annotators" and doc["data"]["gold"] == "ann"
    assert [m["id"] for m in doc["models"]] == ["majority_vote", "dawid_skene", "mace"]
    for m, ref in zip(doc["models"], report.models, strict=True):
        assert m["gold_accuracy"] == pytest.approx(ref.gold_accuracy)
    rel = {r["annotator"]: r for r in doc["reliability"]}
    assert rel["bob"]["mace"] == pytest.approx(report.model("mace").result.skill["bob"])
    cand = doc["candidates"][0]
    assert cand["candidate"] == "dan"
    assert cand["alt_test"]["winning_rate"] == report.candidates[0].test.winning_rate
    assert doc["options"]["epsilon"] == 0.1 and doc["bootstrap"] is None


def test_gold_column_of_a_tsv_and_scoring(cli_json, tmp_path):
    f = write(tmp_path, "crowd.tsv", SNOWLIKE)
    doc = cli_json("annotators", f, "--coder", "!amt_worker_ids", "--item", "orig_id",
                   "--label", "response", "--gold", "gold", "--models", "majority_vote")
    assert doc["models"][0]["gold_accuracy"] == 1.0
    assert [r["gold"] for r in doc["labels"]] == ["1", "0"]


def test_intervals_by_document_and_diagnostics(cli_json, samples):
    doc = cli_json("annotators", samples / "table" / "dialogue_acts.csv", "--group",
                   "document", "--ci", "--resamples", "20", "--models", "dawid_skene",
                   "--by-document", "--diagnostics", "3")
    assert doc["bootstrap"]["n_resamples"] == 20
    row = doc["reliability"][0]
    low, high = row["dawid_skene_interval"]
    assert low <= high
    assert len(doc["by_document"]) == 6 and len(doc["disputed"]) == 3


def test_every_format(cli, samples, tmp_path):
    pd = pytest.importorskip("pandas")
    f = samples / "table" / "dialogue_acts.csv"
    status, out, err = cli("annotators", f, "--candidate", "dan", "--format", "csv")
    assert status == 0, err
    frame = pd.read_csv(io.StringIO(out), keep_default_na=False, dtype=str)
    assert list(frame.columns) == ["table", "row", "column", "value"]
    assert {"models", "reliability", "agreement", "alt_test", "labels"} <= set(frame["table"])
    assert frame["column"].map(str.isascii).all()
    status, out, err = cli("annotators", f, "--format", "md")
    assert status == 0 and "| annotator |" in out
    status, out, err = cli("annotators", f)
    assert status == 0 and "Reliability of each annotator" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    status, _, err = cli("annotators", f, "--output", str(tmp_path / "tables") + "/",
                         "--format", "csv")
    assert status == 0 and (tmp_path / "tables" / "reliability.csv").exists()


def test_html_page(cli, samples, tmp_path):
    pytest.importorskip("matplotlib")
    page = tmp_path / "a.html"
    status, _, err = cli("annotators", samples / "table" / "dialogue_acts.csv", "--group",
                         "document", "--resamples", "20", "--html", str(page), "--quiet")
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert 'data-figure="reliability"' in html and 'data-figure="confusion-' in html
    assert "Reliability of each annotator" in html


@pytest.mark.parametrize("args,expected", [
    (["--gold", "nobody"], "dialogue_acts.csv: --gold 'nobody' is neither a coder"),
    (["--candidate", "zed"], "dialogue_acts.csv: no candidate 'zed' among the annotators: 'ann'"),
    (["--models", "ds"], "unknown model(s) ds; the models are majority_vote"),
    (["--gold", "ann", "--candidate", "bob,cat"], "dialogue_acts.csv: models of the "
     "annotators need judgements from at least 2 annotators besides the gold"),
    (["--candidate", "dan", "--scoring", "neg_rmse"],
     "dialogue_acts.csv:2: 'Statement' is not a number"),
])
def test_errors_are_one_line_exit_2(cli, samples, args, expected):
    code, out, err = cli("annotators", samples / "table" / "dialogue_acts.csv", *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], err
    assert "Traceback" not in err


def test_conflicting_gold_is_one_line_at_its_line(cli, tmp_path):
    f = write(tmp_path, "g.tsv", SNOWLIKE + "w4\ta\t0\t0\n")
    code, _, err = cli("annotators", f, "--coder", "!amt_worker_ids", "--item", "orig_id",
                       "--label", "response", "--gold", "gold")
    assert code == 2 and err.strip() == f"{f}:8: item 'a' has gold '1' and '0'"


@pytest.mark.parametrize("job", ["annotators", "table"])
def test_a_pipe_is_refused_not_waited_on(cli, tmp_path, job):
    """A FIFO nobody writes to in place of the table (found by the fuzz cycle): one line,
    exit 2, no wait."""
    import os

    fifo = tmp_path / "in.csv"
    os.mkfifo(fifo)
    code, _, err = cli(job, fifo)
    assert code == 2 and err.strip() == f"{fifo}: not a regular file"


def test_options_checked_where_parsed(cli, samples):
    f = samples / "table" / "dialogue_acts.csv"
    for args, what in ((["--epsilon", "-0.1"], "--epsilon"), (["--fdr", "1.5"], "--fdr"),
                       (["--scoring", "cosine"], "--scoring")):
        code, _, err = cli("annotators", f, *args)
        assert code == 2 and what in err and len(err.strip().splitlines()) == 1


def test_listed_models_are_the_api_models():
    assert list(annotators.MODELS) == list(an.MODELS)
