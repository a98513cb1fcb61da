"""``corpusagree table``: the JSON equals the API, intervals are reproducible, every output
format works, and bad input is one line with exit status 2."""

import json
import subprocess
import sys

import pytest

import corpusagree as ca
from corpusagree.stats import diagnostics

from support import write


def test_table_json_matches_api(cli_json, samples):
    f = samples / "table" / "dialogue_acts.csv"
    doc = cli_json("table", f, "--weights", samples / "table" / "dialogue_acts.weights.csv",
                   "--group", "document")
    assert doc["job"] == "table" and doc["schema"] == 1 and doc["corpusagree"] == ca.__version__
    data = ca.ReliabilityData.from_csv(f, group="document")
    by = {(r["id"], r["distance"]): r["value"] for r in doc["coefficients"]}
    assert by[("alpha", "nominal")] == pytest.approx(float(ca.alpha(data)))
    assert by[("multi_kappa", "nominal")] == pytest.approx(float(ca.multi_kappa(data)))
    w = {("Statement", "Info-Request"): 1, ("Statement", "Check"): .5,
         ("Info-Request", "Check"): .5, ("Statement", "Other"): 1, ("Info-Request", "Other"): 1,
         ("Check", "Other"): 1}
    assert by[("beta", "matrix")] == pytest.approx(float(ca.beta(data, w)))
    assert doc["data"]["coders"] == 4 and doc["data"]["missing"] == (data.codes < 0).sum()
    assert doc["data"]["groups"] == 6 and doc["bootstrap"] is None
    assert {r["symbol"] for r in doc["coefficients"]} >= {"α", "α′", "β", "B", "multi-π (Fleiss κ)"}


def test_table_wide_interval(cli_json, samples):
    doc = cli_json("table", "--wide", samples / "table" / "essay_marks_wide.csv",
                   "--distance", "interval")
    rows = {(r["id"], r["distance"]) for r in doc["coefficients"]}
    assert ("alpha", "interval") in rows and ("beta", "interval") in rows


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
    ("cats.csv", "coder,item,label\na,1,A\nb,1,C\n", ["--categories", "A,B"],
     "cats.csv: labels not in the declared categories: ['C']"),
])
def test_table_errors_are_one_line_exit_2(tmp_path, cli, name, text, args, expected):
    f = write(tmp_path, name, text)
    code, out, err = cli("table", f, *args)
    assert code == 2
    assert err.strip().splitlines() == [str(f.parent / expected)]
    assert "Traceback" not in err


def test_weights_must_be_symmetric_with_zero_diagonal(tmp_path, cli):
    data = write(tmp_path, "d.csv", "coder,item,label\na,1,x\nb,1,y\na,2,x\nb,2,x\n")
    w = write(tmp_path, "w.csv", ",x,y\nx,0,1\ny,0.5,0\n")
    code, _, err = cli("table", data, "--weights", w)
    assert code == 2 and "not symmetric" in err and err.startswith(str(w))
    w2 = write(tmp_path, "w2.csv", "x,z,1\n")
    code, _, err = cli("table", data, "--weights", w2)
    assert code == 2 and ("weight matrix has no distance" in err or "not in the weight" in err)


def test_unknown_label_in_weights(tmp_path, cli):
    data = write(tmp_path, "d.csv", "coder,item,label\na,1,x\nb,1,q\na,2,x\nb,2,x\n")
    w = write(tmp_path, "w.csv", "x,y,1\n")
    code, _, err = cli("table", data, "--weights", w)
    assert code == 2 and "label 'q' is not in the weight matrix" in err


def test_degenerate_data_warns_not_crashes(tmp_path, cli):
    data = write(tmp_path, "d.csv", "coder,item,label\na,1,x\nb,1,x\na,2,x\nb,2,x\n")
    code, out, err = cli("table", data)
    assert code == 0
    assert "warning:" in err and "undefined" in err and "Traceback" not in err
    data = write(tmp_path, "single.csv", "coder,item,label\na,1,x\nb,2,x\n")
    code, _, err = cli("table", data)
    assert code == 2 and "no item has two or more judgements" in err


def test_table_ci_json_equals_api(cli_json, samples):
    f = samples / "table" / "dialogue_acts.csv"
    doc = cli_json("table", f, "--group", "document", "--ci", "0.9", "--resamples", "200",
                   "--seed", "5")
    assert doc["bootstrap"] == {"n_resamples": 200, "level": 0.9, "interval": "percentile",
                                "cluster": None, "seed": 5}
    rows = doc["coefficients"]
    iv = next(r for r in rows if r["id"] == "alpha")["interval"]
    assert iv["level"] == 0.9 and iv["clustered"] and iv["units"] == 6 and iv["seed"] == 5
    data = ca.ReliabilityData.from_csv(f, group="document")
    api = ca.alpha(data).confidence_interval(level=0.9, n_resamples=200, seed=5)
    # the CLI draws all coefficients' replicates from one stream: same weights, same values
    assert (iv["low"], iv["high"]) == pytest.approx((api.low, api.high))
    assert next(r for r in rows if r["id"] == "light_kappa")["interval"] is None


def test_ci_is_reproducible_and_prints_its_seed(cli, samples):
    f = samples / "table" / "dialogue_acts.csv"
    first = cli("table", f, "--ci")
    again = cli("table", f, "--ci")
    assert first == again and first[0] == 0
    assert "1000 resamples of 72 items, seed 0" in first[1]
    items = cli("table", f, "--group", "document", "--ci", "--cluster", "item", "--json")
    assert json.loads(items[1])["coefficients"][0]["interval"]["units"] == 72


def test_table_diagnostics_json_matches_api(cli, cli_json, samples):
    f = samples / "table" / "dialogue_acts.csv"
    doc = cli_json("table", f, "--diagnostics", "--reference", "ann")
    data = ca.ReliabilityData.from_csv(f)
    loo = {r["coder"]: r["value"] for r in diagnostics.leave_one_out(data)}
    got = doc["diagnostics"]["leave_one_out"]
    assert got["raises_most"] == max(loo, key=loo.get)
    assert len(doc["diagnostics"]["worst_items"]) == 10
    alpha_row = next(r for r in doc["coefficients"] if r["id"] == "alpha")
    assert alpha_row["conventions"]["krippendorff"]["label"].startswith("below .667")
    assert doc["diagnostics"]["expert"]["reference"] == "ann"
    code, out, _ = cli("table", f, "--diagnostics", "3")
    assert code == 0 and "Leave one coder out" in out and "Without dan" in out
    assert len(cli_json("table", f, "--diagnostics", "3")["diagnostics"]["worst_items"]) == 3


def test_stdin(cli, samples, monkeypatch):
    import io

    f = samples / "table" / "dialogue_acts.csv"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f.read_text()))
    code, out, _ = cli("table", "-", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["inputs"] == ["<stdin>"]
    by = {(r["id"], r["distance"]): r["value"] for r in doc["coefficients"]}
    assert by[("alpha", "nominal")] == pytest.approx(float(ca.alpha(ca.ReliabilityData
                                                                    .from_csv(f))))
    monkeypatch.setattr(sys, "stdin", io.StringIO("coder,item,label\na,1,x\na,1,y\n"))
    code, _, err = cli("table", "-")
    assert code == 2 and err.strip() == "<stdin>:3: duplicate judgement by coder 'a' on item " \
        "'1' (first on line 2)"


def test_missing_file_is_one_line(tmp_path, cli):
    code, _, err = cli("table", tmp_path / "absent.csv")
    assert code == 2
    assert err.strip() == f"{tmp_path / 'absent.csv'}: cannot read file: No such file or " \
        "directory"


def test_console_script_and_module(tmp_path, root):
    """The console script and ``python -m corpusagree`` run as a user calls them."""
    script = [str(__import__("shutil").which("corpusagree") or "corpusagree")]
    for cmd in (script, [sys.executable, "-m", "corpusagree"]):
        proc = subprocess.run([*cmd, "table", str(tmp_path / "absent.csv")],
                              capture_output=True, text=True, cwd=tmp_path)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        version = subprocess.run([*cmd, "--version"], capture_output=True, text=True,
                                 cwd=tmp_path)
        assert version.stdout.strip() == f"corpusagree {ca.__version__}"


def test_annotators_keep_those_coders(cli_json, cli, samples):
    f = samples / "table" / "dialogue_acts.csv"
    doc = cli_json("table", f, "--annotators", "ann,bob")
    data = ca.ReliabilityData.from_csv(f)
    two = data.subset(coders=[data.coders.index("ann"), data.coders.index("bob")])
    assert doc["data"]["coders"] == 2
    kappa = next(r for r in doc["coefficients"] if r["id"] == "kappa")
    assert kappa["value"] == pytest.approx(float(ca.kappa(two)))
    code, _, err = cli("table", f, "--annotators", "ann,zoe")
    assert code == 2 and err.strip() == f"{f}: annotators not found: zoe; the coders are ann, " \
        "bob, cat, dan"


def test_not_utf8_and_not_a_file(tmp_path, cli):
    f = tmp_path / "latin1.csv"
    f.write_bytes("coder,item,label\na,1,café\nb,1,x\n".encode("latin-1"))
    code, _, err = cli("table", f)
    assert code == 2 and err.strip() == f"{f}:2: not UTF-8 (byte 0xe9 at column 8); save the " \
        "file as UTF-8"
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbfcoder,item,label\na,1,x\nb,1,x\na,2,y\nb,2,x\n")
    assert cli("table", bom)[0] == 0
    code, _, err = cli("table", "/dev/zero")
    assert code == 2 and err.strip() == "/dev/zero: not a regular file"
