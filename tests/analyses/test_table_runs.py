"""The table job's repeated runs (issue 32): each coder with itself across its runs (α, κ,
raw agreement, the share of items whose label changed), the coders in each run, and the
coefficients on each coder's majority label — against krippendorff, statsmodels and nltk on
the same between-run data, random labels with missing values."""

from __future__ import annotations

import csv
from collections import Counter

import numpy as np
import pytest

from corpusagree.analyses import table
from corpusagree.model.errors import InputError
from corpusagree.stats import runs as run_rules

krippendorff = pytest.importorskip("krippendorff")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
agreement = pytest.importorskip("nltk.metrics.agreement")

LABELS = ["a", "b", "c", "d"]


def _write(path, rows, header=("coder", "item", "label", "run")):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def _random_runs(seed: int, coders=4, n_runs=3, items=40, missing=0.15):
    """coders × runs × items label codes (−1 missing): coder 0 judged in the first run only,
    the others in every run, each run a noisy copy of the coder's first."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, len(LABELS), items)
    codes = np.full((coders, n_runs, items), -1)
    for c in range(coders):
        first = np.where(rng.random(items) < 0.7, truth, rng.integers(0, len(LABELS), items))
        for r in range(n_runs if c else 1):
            codes[c, r] = np.where(rng.random(items) < 0.8, first,
                                   rng.integers(0, len(LABELS), items))
    codes[rng.random(codes.shape) < missing] = -1
    return codes


def _rows(codes):
    return [(f"c{c}", f"i{i:03d}", LABELS[codes[c, r, i]], f"r{r + 1}")
            for r in range(codes.shape[1]) for c in range(codes.shape[0])
            for i in range(codes.shape[2]) if codes[c, r, i] >= 0]


def _kripp(matrix):
    """krippendorff's nominal α of a coders × items code matrix (−1 missing)."""
    m = matrix.astype(float)
    m[m < 0] = np.nan
    return krippendorff.alpha(reliability_data=m, level_of_measurement="nominal",
                              value_domain=list(range(len(LABELS))))


def _kappa(matrix):
    """Cohen's κ (two rows) or Fleiss's κ (more) by statsmodels, complete columns."""
    if matrix.shape[0] == 2:
        t = np.zeros((len(LABELS), len(LABELS)))
        np.add.at(t, (matrix[0], matrix[1]), 1)
        return inter_rater.cohens_kappa(t).kappa
    counts, _ = inter_rater.aggregate_raters(matrix.T, n_cat=len(LABELS))
    return inter_rater.fleiss_kappa(counts)


def _observed(matrix):
    """nltk's observed agreement (the mean over pairs of coders), complete columns."""
    task = agreement.AnnotationTask(data=[(str(c), str(i), str(matrix[c, i]))
                                          for c in range(matrix.shape[0])
                                          for i in range(matrix.shape[1])])
    return task.avg_Ao()


@pytest.mark.parametrize("seed, n_runs", [(1, 2), (2, 3), (3, 4)])
def test_each_coder_with_itself_equals_the_peers(tmp_path, seed, n_runs):
    codes = _random_runs(seed, n_runs=n_runs)
    f = tmp_path / "runs.csv"
    _write(f, _rows(codes))
    report = table.analyse(table.read(f, run="run"))
    assert [r["coder"] for r in report.retest] == ["c1", "c2", "c3"]
    for row in report.retest:
        c = int(row["coder"][1:])
        every = (codes[c] >= 0).all(axis=0)  # the items all the coder's runs labelled
        m = codes[c][:, every]
        assert row["runs"] == n_runs and row["items"] == int(every.sum())
        assert row["alpha"] == pytest.approx(_kripp(m), abs=1e-12)
        assert row["kappa"] == pytest.approx(_kappa(m), abs=1e-12)
        assert row["percent_agreement"] == pytest.approx(_observed(m), abs=1e-12)
        assert row["changed"] == pytest.approx(
            np.mean([len(set(m[:, i])) > 1 for i in range(m.shape[1])]))
    # the items of the coders' runs differ (missing values): said, per coder
    assert sum("cover different items" in n for n in report.notes) == 3


def test_the_coders_in_each_run_and_on_their_majority(tmp_path):
    codes = _random_runs(7)
    f = tmp_path / "runs.csv"
    _write(f, _rows(codes))
    report = table.analyse(table.read(f, run="run"))
    for r, row in enumerate(report.by_run):
        m = codes[:, r].copy()
        m[0] = codes[0, 0]  # c0 labelled in run 1 only: it takes part in every run with it
        pairable = (m >= 0).sum(axis=0) >= 2
        assert row["run"] == f"r{r + 1}" and row["items"] == int(pairable.sum())
        assert row["alpha"] == pytest.approx(_kripp(m), abs=1e-12)
        complete = m[:, (m >= 0).all(axis=0)]
        assert np.isfinite(row["kappa"]) and complete.shape[1] > 0
    # between coders: each coder's majority label, a tie left missing
    majority = np.full(codes.shape[::2], -1)
    ties = 0
    for c in range(codes.shape[0]):
        for i in range(codes.shape[2]):
            got = Counter(x for x in codes[c, :, i] if x >= 0).most_common()
            if got and (len(got) == 1 or got[0][1] > got[1][1]):
                majority[c, i] = got[0][0]
            ties += len(got) > 1 and got[0][1] == got[1][1]
    data = table.read(f, run="run").data
    assert data.ties == ties > 0
    assert data.majority.labels == LABELS  # codes follow the sorted labels
    perm = [int(name[1:]) for name in data.majority.items]  # in the order first read
    assert (data.majority.codes == majority[:, perm]).all()
    alpha = report.to_frame("coefficients").set_index("id").loc["alpha", "value"]
    assert alpha == pytest.approx(_kripp(majority), abs=1e-12)
    assert any(f"{ties} ties of a coder's runs" in n for n in report.notes)


def test_the_sample_and_the_command_line(cli, cli_json, samples, tmp_path):
    path = samples / "table" / "sentiment_runs.csv"
    doc = cli_json("table", path, "--run", "run", "--group", "document")
    (row,) = doc["retest"]
    rep = table.read(path, run="run", group="document").data
    model = rep.column[rep.coders.index("model")]
    m = rep.data.codes[model]
    assert row["coder"] == "model" and row["runs"] == 3 and row["items"] == 60
    assert row["alpha"] == pytest.approx(_kripp(m), abs=1e-12)
    assert row["changed"] == pytest.approx(run_rules.changed(m))
    assert [r["run"] for r in doc["by_run"]] == ["1", "2", "3"]
    assert doc["options"]["reader_options"]["run"] == "run"
    status, out, _ = cli("table", path, "--run", "run")
    assert status == 0 and "Each coder with itself across runs" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    status, out, _ = cli("table", path, "--run", "run", "--format", "md")
    assert status == 0 and "Agreement between the coders in each run" in out
    status, out, err = cli("table", path, "--run", "run", "--format", "csv")
    assert status == 0, err
    assert f"retest,0,alpha,{row['alpha']!r}" in out and "by_run,2,run,3" in out
    report = table.analyse(table.read(path, run="run"))
    report.to_csv(tmp_path / "csv")
    assert (tmp_path / "csv" / "retest.csv").read_text().startswith("coder,runs,items,alpha")
    page = report.to_html()
    assert "Each coder with itself across runs" in page and "changed" in page


def _error(cli, *argv):
    status, out, err = cli("table", *argv)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_bad_input_is_one_line(cli, samples, tmp_path):
    path = samples / "table" / "sentiment_runs.csv"
    assert "no run column 'runs'" in _error(cli, path, "--run", "runs")
    one = tmp_path / "one.csv"
    _write(one, [("a", 1, "x", 1), ("b", 1, "y", 1), ("a", 2, "x", 1), ("b", 2, "x", 1)])
    assert _error(cli, one, "--run", "run").endswith(
        "the run column 'run' has one value ('1'): no judgement is repeated; leave out "
        "--run 'run'")
    never = tmp_path / "never.csv"
    _write(never, [("a", 1, "x", 1), ("b", 1, "y", 2), ("a", 2, "x", 2), ("b", 2, "x", 1)])
    assert "never repeats a coder's label of an item" in _error(cli, never, "--run", "run")
    some = tmp_path / "some.csv"
    _write(some, [("a", 1, "x", 1), ("a", 1, "y", 2), ("b", 1, "x", ""), ("b", 2, "x", 1)])
    assert _error(cli, some, "--run", "run") == (
        f"{some}:4: empty run cell: with the run column 'run' every row names its run")
    assert "--run 'run' needs the long layout" in _error(
        cli, samples / "table" / "essay_marks_wide.csv", "--run", "run", "--wide")
    assert "--run 'run' and --swap 'run' cannot be combined" in _error(cli, path, "--run", "run",
                                                           "--swap", "run")
    assert "--run needs --engine memory" in _error(cli, path, "--run", "run", "--engine",
                                                   "dask")
    assert "annotators not found: eve" in _error(cli, path, "--run", "run", "--annotators",
                                                 "ann,eve")
    with pytest.raises(InputError, match="duplicate judgement by coder 'a' on item '1' in run"):
        _write(some, [("a", 1, "x", 1), ("a", 1, "y", 1), ("a", 1, "x", 2)])
        table.read(some, run="run")


def test_annotators_and_python_data(samples):
    path = samples / "table" / "sentiment_runs.csv"
    corpus = table.read(path, run="run", annotators=["ann", "model"])
    report = table.analyse(corpus)
    assert report.coders == 2 and [r["coder"] for r in report.retest] == ["model"]
    # RepeatedLabels made in Python is analysed as read
    rep = table.RepeatedLabels.of({"1": [("a", "x", "A"), ("b", "x", "A"), ("a", "y", "B"),
                                         ("b", "y", "B"), ("a", "z", "A"), ("b", "z", "B")],
                                   "2": [("a", "x", "A"), ("a", "y", "A"), ("a", "z", "A")]})
    r = table.analyse(rep)
    assert r.retest[0]["changed"] == pytest.approx(1 / 3)
    assert r.retest[0]["percent_agreement"] == pytest.approx(2 / 3)
    assert [x["items"] for x in r.by_run] == [3, 3]
