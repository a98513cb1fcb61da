"""``corpusagree senses``: the *call* numbers through the command line, the JSON equals the
report of the API, a folder gives one report per annotation set, every option and output
format, and bad input is one line ``file:line: message`` with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from corpusagree.analyses import senses
from corpusagree.report.json import clean
from corpusagree.stats.inference import Bootstrap

from support import ROOT, SAMPLES, by_scheme, write

SAMPLE = SAMPLES / "senses"


def read_tags(*args, **kwargs):
    """The tags of :func:`senses.read` (its corpus's data)."""
    return senses.read(*args, **kwargs).data
CALL_INVENTORY = "sense\tgroup\nWN1\tLABEL\nWN3\tLABEL\nWN19\tSEE\nWN22\tADDRESS\n"






# ---------------------------------------------------------------- the *call* example


@pytest.mark.parametrize("b_sense,distance", [("WN3", 2 / 3), ("LABEL", 1 / 3)])
def test_call_example_through_the_cli(tmp_path, cli_json, b_sense, distance):
    """A: WN1, B: WN3 (or LABEL) under Group 1: Do of the extended scheme = d(es, es)
    (Artstein & Poesio 2005, §4.4)."""
    inv = write(tmp_path, "call.tsv", CALL_INVENTORY)
    tags = write(tmp_path, "tags.tsv", f"item\tannotator\tsense\ni1\tA\tWN1\ni1\tB\t{b_sense}\n")
    c = by_scheme(cli_json("senses", tags, "--inventory", inv))
    assert c["extended", "call.tsv", "alpha_prime"]["observed"] == pytest.approx(distance)
    assert c["fine", None, "percent_agreement"]["value"] == 0
    assert c["coarse", "call.tsv", "percent_agreement"]["value"] == 1


def test_call_example_alpha_through_cli_and_api(tmp_path, cli, cli_json):
    """Both items together: α = −2/7 by hand, in the JSON and on the terminal."""
    inv = write(tmp_path, "call.tsv", CALL_INVENTORY)
    tags = write(tmp_path, "tags.tsv", "item\tannotator\tsense\ni1\tA\tWN1\ni1\tB\tWN3\n"
                                       "i2\tA\tWN1\ni2\tB\tLABEL\n")
    a = by_scheme(cli_json("senses", tags, "--inventory", inv))["extended", "call.tsv", "alpha"]
    assert (a["observed"], a["expected"], a["value"]) == pytest.approx((1 / 2, 7 / 18, -2 / 7))
    code, out, _ = cli("senses", tags, "--inventory", inv)
    assert code == 0 and "-0.2857" in out


# ---------------------------------------------------------------- JSON = the API's report


def test_json_is_the_report_of_the_api(cli_json):
    doc = cli_json("senses", SAMPLE / "sample.tsv", "--inventory", SAMPLE / "inventory.tsv",
                   "--ci", "--resamples", "100", "--by-lemma", "--diagnostics", "3")
    report = senses.analyse(senses.read([SAMPLE / "sample.tsv"]),
                            inventories=[SAMPLE / "inventory.tsv"], bootstrap=Bootstrap(100),
                            by_lemma=True, diagnostics=3)
    assert doc == json.loads(json.dumps(clean(report.to_dict())))
    assert list(doc) == ["corpusagree", "schema", "job", "inputs", "options", "bootstrap",
                         "format", "data", "schemes", "by_lemma", "confused", "diagnostics",
                         "notes"]
    assert max(sum(p["lemma"] == x for p in doc["confused"]["pairs"])
               for x in ("call", "board", "draw")) == 3


def test_a_folder_gives_one_report_per_annotation_set(cli_json):
    docs = cli_json("senses", SAMPLE, "--ci", "--resamples", "50")
    assert isinstance(docs, list) and [d["format"] for d in docs] == ["raganato", "sensetsv"]
    assert all(c["interval"] is not None for d in docs for s in d["schemes"]
               for c in s["coefficients"])
    assert docs[0]["options"]["inventories"] == [str(SAMPLE / "inventory"),
                                                 str(SAMPLE / "inventory.tsv")]


def test_report_runs_the_senses_job(cli, cli_json):
    docs = [d for d in cli_json("report", SAMPLES) if d["job"] == "senses"]
    assert [d["format"] for d in docs] == ["raganato", "sensetsv"]
    assert all(c["interval"] is not None for d in docs for s in d["schemes"]
               for c in s["coefficients"])
    code, out, _ = cli("report", SAMPLES)
    assert code == 0 and "sample.data.xml" in out and "extended" in out


# ---------------------------------------------------------------- options and output formats


def test_sample_terminal_output(cli):
    code, out, _ = cli("senses", SAMPLE / "sample.tsv", "--inventory", SAMPLE / "inventory",
                       "--ci", "0.9", "--resamples", "100", "--by-lemma", "--diagnostics")
    assert code == 0
    for text in ("multi-κ", "extended", "90% CI", "By lemma", "Most confused", "call.v.WN3",
                 "Leave one coder out", "note:"):
        assert text in out, text
    assert max(map(len, out.splitlines())) <= 80


@pytest.mark.parametrize("fmt,marks", [("csv", ["table,row,column,value\n",
                                                "coefficients,0,scheme,fine\n"]),
                                       ("md", ["## ", "| scheme | coefficient |"])])
def test_csv_and_markdown(cli, fmt, marks):
    code, out, _ = cli("senses", SAMPLE / "sample.tsv", "--inventory", SAMPLE / "inventory.tsv",
                       "--by-lemma", "--diagnostics", "--format", fmt)
    assert code == 0
    for m in marks:
        assert m in out, m
    assert "call.v.WN3" in out


def test_output_file(cli, tmp_path):
    out_file = tmp_path / "r.json"
    code, out, _ = cli("senses", SAMPLE / "sample.tsv", "--json", "--output", out_file)
    assert code == 0 and out == ""
    assert json.loads(out_file.read_text())["format"] == "sensetsv"


def test_options(cli_json):
    doc = cli_json("senses", SAMPLE / "sample.tsv", "--inventory", SAMPLE / "inventory.tsv",
                   "--schemes", "coarse,extended", "--level", "1", "--depth", "1",
                   "--distance", "jaccard", "--cluster", "document", "--ci",
                   "--resamples", "50")
    assert [(s["scheme"], s.get("level"), s.get("depth"), s["distance"])
            for s in doc["schemes"]] == [("coarse", 1, None, "nominal"),
                                         ("extended", None, 1, "jaccard")]
    assert doc["data"]["cluster"] == "document" and doc["data"]["clusters"] == 2
    # level 1 leaves B's LABEL (→ G1) apart from A's and C's WN1 (→ LABEL)
    assert by_scheme(doc)["coarse", "inventory.tsv", "percent_agreement"]["value"] < 1
    items = cli_json("senses", SAMPLE / "sample.tsv", "--ci", "--resamples", "50",
                     "--cluster", "item")
    assert items["bootstrap"]["cluster"] is False and items["data"]["clusters"] == 0


def test_reader_option_sep(tmp_path, cli_json):
    tags = write(tmp_path, "t.tsv", "item\tannotator\tsense\ni1\tA\ta;b\ni1\tB\ta\n")
    doc = cli_json("senses", tags, "--sep", ";")
    assert doc["data"]["multi_sense_tags"] == 1
    assert [s["scheme"] for s in doc["schemes"]] == ["fine", "multi"]


def test_senseval_and_ontonotes_inputs(cli_json, data_dir):
    data = data_dir / "senses"
    doc = cli_json("senses", data / "lexsample.xml", data / "t1.ans", data / "t2.ans",
                   "--annotators", "kim,lee")
    assert doc["format"] == "senseval" and doc["data"]["annotators"] == ["kim", "lee"]
    # ferry.n.x.001: kim ferry%1:06:00::, lee P; leak.v.x.001: 1 vs {2, 3}
    assert by_scheme(doc)["fine", None, "percent_agreement"]["value"] == 0
    assert by_scheme(doc)["multi", None, "alpha_prime"]["observed"] == pytest.approx(1)
    doc = cli_json("senses", data / "demo.sense", "--cluster", "document")
    assert doc["format"] == "ontonotes" and doc["data"]["annotators"] == ["a1", "a2"]
    assert doc["data"]["clusters"] == 1
    assert "intervals resample items" not in " ".join(doc["notes"])
    doc = cli_json("senses", data / "demo.sense", "--annotators", "x,y")
    assert doc["data"]["annotators"] == ["x", "y"]


def test_wsbest_format_and_missing_counts(cli_json, data_dir):
    path = data_dir / "senses" / "wsbest" / "judgments.tsv"
    doc = cli_json("senses", path, "--input-format", "wsbest")
    assert doc["format"] == "wsbest"
    # A marked no sense of sentence 8 (0 and "-"): a missing judgement, an unpairable item
    d = doc["data"]
    assert (d["items"], d["tags"], d["missing"], d["unpairable_items"]) == (2, 3, 1, 1)
    assert "1 item(s) have fewer than two tags and do not count" in doc["notes"]
    assert cli_json("senses", path)["format"] == "wsbest"


# ---------------------------------------------------------------- bad input: exit 2, one line


def xml_data(tmp_path: Path, body: str) -> Path:
    return write(tmp_path, "d.data.xml", '<?xml version="1.0"?>\n<corpus lang="en">\n'
                 f'<text id="t1"><sentence id="t1.s1">\n{body}\n</sentence></text>\n</corpus>\n')


GOOD = '<instance id="i1" lemma="call" pos="VERB">called</instance>'


@pytest.mark.parametrize("case,where,message", [
    ("malformed", "d.data.xml:5", "malformed XML"),
    ("absent", "B.key.txt:2", "instance 'i9' is not in the data file"),
    ("duplicate", "B.key.txt:2", "duplicate instance 'i1' (first at line 1)"),
])
def test_bad_input_exits_2_with_file_line(tmp_path, cli, case, where, message):
    if case == "malformed":
        data = write(tmp_path, "d.data.xml", '<?xml version="1.0"?>\n<corpus lang="en">\n'
                     f'<text id="t1"><sentence id="t1.s1">\n{GOOD}\n</text>\n</corpus>\n')
    else:
        data = xml_data(tmp_path, GOOD)
    a = write(tmp_path, "A.key.txt", "i1 WN1\n")
    b = write(tmp_path, "B.key.txt", {"malformed": "i1 WN1\n", "absent": "i1 WN1\ni9 WN3\n",
                                      "duplicate": "i1 WN1\ni1 WN3\n"}[case])
    code, out, err = cli("senses", data, a, b)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert lines[0].startswith(f"{tmp_path / where}: ") and message in lines[0]


def test_bad_input_in_a_subprocess_has_no_traceback(tmp_path):
    data = xml_data(tmp_path, GOOD)
    a = write(tmp_path, "A.key.txt", "i1 WN1\n")
    b = write(tmp_path, "B.key.txt", "i1 WN1\ni1 WN3\n")
    proc = subprocess.run([sys.executable, "-m", "corpusagree", "senses", str(data), str(a),
                           str(b)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"{b}:2: duplicate instance 'i1' (first at line 1)"


@pytest.mark.parametrize("argv,message", [
    (["{data}"], "give the data XML file, then the annotators' key files"),
    (["{data}", "{a}", "{a2}", "--inventory", "{tmp}/none.tsv"], "no such inventory"),
    (["{data}", "{a}", "{a2}", "--schemes", "coarse"], "need a sense inventory (--inventory INV)"),
    (["{data}", "{a}", "{a2}", "--schemes", "medium"], "unknown scheme"),
    (["{data}", "{a}", "{a2}", "--level", "0"], "--level: expected a positive integer"),
    (["{data}", "{a}"], "two or more annotators"),
    (["{tmp}/missing.tsv"], "no such file"),
    (["{tmp}/inv.tsv", "--input-format", "sensetsv"], "missing column"),
    (["{data}", "{a}", "{a2}", "--ci", "95"], "argument --ci: expected a number between 0"),
    (["{data}", "{a}", "{a2}", "--ci", "--resamples", "1"], "argument --resamples: expected"),
    (["{data}", "{a}", "{a2}", "--depth", "-1"], "depth: expected an integer ≥ 0"),
    (["{data}", "{a}", "{a2}", "--diagnostics", "0"], "--diagnostics: expected an integer ≥ 1"),
    (["{data}", "{a}", "{a2}", "--sep", ";"],
     "--sep ';' does not apply to senses format 'raganato'"),
    (["{tmp}"], "no sense annotations found in this folder"),
])
def test_usage_errors(tmp_path, cli, argv, message):
    data = xml_data(tmp_path, GOOD)
    a = write(tmp_path, "A.key.txt", "i1 WN1\n")
    a2 = write(tmp_path, "B.key.txt", "i1 WN1\n")
    write(tmp_path, "inv.tsv", CALL_INVENTORY)
    if argv == ["{tmp}"]:
        tmp_path = tmp_path / "empty"
        tmp_path.mkdir()
    argv = [x.format(data=data, a=a, a2=a2, tmp=tmp_path) for x in argv]
    code, _, err = cli("senses", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_inventory_with_a_cycle(tmp_path, cli):
    inv = write(tmp_path, "cyc.tsv", "sense\tgroup\nA\tB\nB\tA\n")
    tags = write(tmp_path, "t.tsv", "item\tannotator\tsense\ni1\tA\tA\ni1\tB\tB\n")
    code, _, err = cli("senses", tags, "--inventory", inv)
    assert code == 2 and err.startswith(f"{inv}: sense inventory has a cycle")


def test_a_set_distance_is_required(cli, capsys):
    status, _, err = cli("senses", SAMPLE / "sample.tsv", "--distance", "interval")
    assert status == 2 and "invalid choice: 'interval'" in err


@pytest.mark.parametrize("argv, what", [
    (["{empty}", "{tsv}"], "{empty}: cannot tell the senses format"),
    (["{empty}", "--input-format", "sensetsv"], "{empty}: no sense tags in the input"),
    (["{empty}", "{tsv}", "--input-format", "sensetsv"], None),
    (["{empty}", "--input-format", "raganato"], "{empty}: raganato: give the data XML"),
    (["{one}"], "{one}: agreement needs two or more annotators; found 1 (A)"),
])
def test_empty_folder_first_or_one_annotator(tmp_path, cli, argv, what):
    """An empty folder first, or one annotator: one line naming the input, never an
    IndexError."""
    empty = tmp_path / "empty"
    empty.mkdir()
    tsv = write(tmp_path, "t.tsv", "item\tannotator\tsense\ni1\tA\tS1\ni1\tB\tS1\ni2\tA\tS2\n"
                "i2\tB\tS1\n")
    one = write(tmp_path, "one.tsv", "item\tannotator\tsense\ni1\tA\tS1\n")
    argv = [x.format(empty=empty, tsv=tsv, one=one) for x in argv]
    code, out, err = cli("senses", *argv)
    if what is None:
        assert code == 0 and "Coefficients per scheme" in out
        return
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.strip().startswith(what.format(empty=empty, one=one)), err
