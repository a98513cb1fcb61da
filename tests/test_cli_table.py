"""`corpusagree table` / `corpusagree report`: output, --json, and one-line errors (exit 2)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import corpusagree as ca
from corpusagree.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_corpora" / "table"


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_table_json_matches_api(capsys):
    f = SAMPLE / "dialogue_acts.csv"
    code, out, _ = run(["table", f, "--json", "--weights", SAMPLE / "dialogue_acts.weights.csv",
                        "--group", "document"], capsys)
    assert code == 0
    doc = json.loads(out)
    data = ca.ReliabilityData.from_csv(f, group="document")
    by = {(r["symbol"], r["distance"]): r["value"] for r in doc["coefficients"]}
    assert by[("α", "nominal")] == pytest.approx(float(ca.alpha(data)))
    assert by[("multi-κ", "nominal")] == pytest.approx(float(ca.multi_kappa(data)))
    w = {("Statement", "Info-Request"): 1, ("Statement", "Check"): .5,
         ("Info-Request", "Check"): .5, ("Statement", "Other"): 1, ("Info-Request", "Other"): 1,
         ("Check", "Other"): 1}
    assert by[("β", "matrix")] == pytest.approx(float(ca.beta(data, w)))
    assert doc["coders"] == 4 and doc["missing"] == (data.codes < 0).sum()


def test_table_wide_interval(capsys):
    code, out, _ = run(["table", "--wide", SAMPLE / "essay_marks_wide.csv", "--distance",
                        "interval", "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    rows = {(r["symbol"], r["distance"]) for r in doc["coefficients"]}
    assert ("α", "interval") in rows and ("β", "interval") in rows


def test_report_runs_on_sample_corpora(capsys):
    code, out, _ = run(["report", ROOT / "sample_corpora"], capsys)
    assert code == 0
    assert "dialogue_acts.csv" in out and "essay_marks_wide.csv" in out


@pytest.mark.parametrize("name,text,args,expected", [
    ("dup.csv", "coder,item,label\na,1,x\nb,1,y\na,1,y\n", [],
     "dup.csv:4: duplicate judgement by coder 'a' on item '1' (first on line 2)"),
    ("nocol.csv", "annotator,item,label\na,1,x\n", [],
     "nocol.csv:1: no coder column 'coder'; columns are ['annotator', 'item', 'label']"),
    ("empty.csv", "", [], "empty.csv: empty file"),
    ("nan.csv", "coder,item,label\na,1,3\nb,1,high\n", ["--distance", "interval"],
     "nan.csv:3: 'high' is not a number"),
    ("short.csv", "coder,item,label\na,1\n", [], "short.csv:2: 2 fields, the header has 3"),
    ("wide.csv", "coder,i1,i2\na,x,y\na,y,y\n", ["--wide"],
     "wide.csv:3: coder 'a' has two rows (first on line 2)"),
])
def test_table_errors_are_one_line_exit_2(tmp_path, capsys, name, text, args, expected):
    f = write(tmp_path, name, text)
    code, out, err = run(["table", f, *args], capsys)
    assert code == 2
    assert err.strip().splitlines() == [str(f.parent / expected)]
    assert "Traceback" not in err


def test_weights_must_be_symmetric_with_zero_diagonal(tmp_path, capsys):
    data = write(tmp_path, "d.csv", "coder,item,label\na,1,x\nb,1,y\na,2,x\nb,2,x\n")
    w = write(tmp_path, "w.csv", ",x,y\nx,0,1\ny,0.5,0\n")
    code, _, err = run(["table", data, "--weights", w], capsys)
    assert code == 2 and "not symmetric" in err and err.startswith(str(w))
    w2 = write(tmp_path, "w2.csv", "x,z,1\n")
    code, _, err = run(["table", data, "--weights", w2], capsys)
    assert code == 2 and "weight matrix has no distance" in err or "not in the weight" in err


def test_unknown_label_in_weights(tmp_path, capsys):
    data = write(tmp_path, "d.csv", "coder,item,label\na,1,x\nb,1,q\na,2,x\nb,2,x\n")
    w = write(tmp_path, "w.csv", "x,y,1\n")
    code, _, err = run(["table", data, "--weights", w], capsys)
    assert code == 2 and "label 'q' is not in the weight matrix" in err


def test_degenerate_data_warns_not_crashes(tmp_path, capsys):
    data = write(tmp_path, "d.csv", "coder,item,label\na,1,x\nb,1,x\na,2,x\nb,2,x\n")
    code, out, err = run(["table", data], capsys)
    assert code == 0
    assert "warning:" in err and "undefined" in err and "Traceback" not in err
    data = write(tmp_path, "single.csv", "coder,item,label\na,1,x\nb,2,x\n")
    code, _, err = run(["table", data], capsys)
    assert code == 2 and "no item has two or more judgements" in err


def test_console_script_installed(tmp_path):
    """The console script runs as a user would call it (exit status 2 on a missing file)."""
    proc = subprocess.run([sys.executable, "-m", "corpusagree.cli", "table",
                           str(tmp_path / "absent.csv")], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().endswith("absent.csv: cannot read file: [Errno 2] No such file "
                                        "or directory: '" + str(tmp_path / "absent.csv") + "'")


def test_table_ci_json_equals_api(capsys):
    f = SAMPLE / "dialogue_acts.csv"
    code, out, _ = run(["table", f, "--group", "document", "--ci", "0.9", "--resamples", "200",
                        "--seed", "5", "--json"], capsys)
    assert code == 0
    rows = json.loads(out)["coefficients"]
    alpha_row = next(r for r in rows if r["symbol"] == "α")
    iv = alpha_row["interval"]
    assert iv["level"] == 0.9 and iv["clustered"] and iv["units"] == 6
    data = ca.ReliabilityData.from_csv(f, group="document")
    api = ca.alpha(data).confidence_interval(level=0.9, n_resamples=200, seed=5)
    # the CLI draws all coefficients' replicates from one stream: same weights, same values
    assert (iv["low"], iv["high"]) == pytest.approx((api.low, api.high))
    assert next(r for r in rows if r["symbol"] == "light κ")["interval"] is None


def test_table_diagnostics_json_matches_api(capsys):
    from corpusagree.stats import diagnostics

    f = SAMPLE / "dialogue_acts.csv"
    code, out, _ = run(["table", f, "--diagnostics", "--reference", "ann", "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    data = ca.ReliabilityData.from_csv(f)
    loo = {r["coder"]: r["value"] for r in diagnostics.leave_one_out(data)}
    got = doc["diagnostics"]["leave_one_out"]
    assert got["raises_most"] == max(loo, key=loo.get)
    alpha_row = next(r for r in doc["coefficients"] if r["symbol"] == "α")
    assert alpha_row["conventions"]["krippendorff"]["label"].startswith("below .667")
    code, out, _ = run(["table", f, "--diagnostics"], capsys)
    assert code == 0 and "Leave one coder out" in out and "convention" in out
