"""`corpusagree senses`: seed 003's *call* numbers through the CLI, the sample corpus in both
formats and both inventory formats, intervals, --by-lemma, --diagnostics (confused pairs =
the coincidence matrix), --json, one-line errors (exit 2), the report, the benchmarks."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from corpusagree.readers import inventory, raganato

import corpusagree as ca
from corpusagree.cli import main
from corpusagree.convert.senses import SenseTable, label_text, to_reliability
from corpusagree.jobs import senses as job
from corpusagree.model.senses import SenseInventory
from corpusagree.stats import diagnostics

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_corpora" / "senses"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"

CALL_INVENTORY = "sense\tgroup\nWN1\tLABEL\nWN3\tLABEL\nWN19\tSEE\nWN22\tADDRESS\n"


def run(argv, capsys):
    code = main(["senses", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def json_docs(text: str) -> list[dict]:
    """Every JSON document printed one after the other."""
    dec, out, i = json.JSONDecoder(), [], 0
    while text[i:].strip():
        i += len(text[i:]) - len(text[i:].lstrip())
        doc, n = dec.raw_decode(text, i)
        out.append(doc)
        i = n
    return out


def by_scheme(doc: dict) -> dict:
    """(scheme, inventory, coefficient key) → coefficient dict."""
    return {(s["scheme"], s["inventory"], c["key"]): c
            for s in doc["schemes"] for c in s["coefficients"]}


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


# ---------------------------------------------------------------- seed 003's *call* example


@pytest.mark.parametrize("b_sense,distance", [("WN3", 2 / 3), ("LABEL", 1 / 3)])
def test_call_example_through_the_cli(tmp_path, capsys, b_sense, distance):
    """A: WN1, B: WN3 (or LABEL) under Group 1: Do of the extended scheme = d(es, es)."""
    inv = write(tmp_path, "call.tsv", CALL_INVENTORY)
    tags = write(tmp_path, "tags.tsv", f"item\tannotator\tsense\ni1\tA\tWN1\ni1\tB\t{b_sense}\n")
    code, out, _ = run([tags, "--inventory", inv, "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    c = by_scheme(doc)
    assert c["extended", "call.tsv", "alpha_prime"]["observed"] == pytest.approx(distance)
    assert c["fine", None, "percent_agreement"]["value"] == 0
    assert c["coarse", "call.tsv", "percent_agreement"]["value"] == 1


def test_call_example_alpha_through_cli_and_api(tmp_path, capsys):
    """Both items together: α = −2/7 by hand (see test_convert_senses), CLI = API."""
    inv = write(tmp_path, "call.tsv", CALL_INVENTORY)
    tags = write(tmp_path, "tags.tsv", "item\tannotator\tsense\ni1\tA\tWN1\ni1\tB\tWN3\n"
                                       "i2\tA\tWN1\ni2\tB\tLABEL\n")
    code, out, _ = run([tags, "--inventory", inv, "--json"], capsys)
    assert code == 0
    a = by_scheme(json.loads(out))["extended", "call.tsv", "alpha"]
    assert (a["observed"], a["expected"], a["value"]) == pytest.approx((1 / 2, 7 / 18, -2 / 7))
    code, out, _ = run([tags, "--inventory", inv], capsys)
    assert code == 0 and "-0.2857" in out


# ---------------------------------------------------------------- the sample corpus


@pytest.fixture(scope="module")
def sample_json() -> list[dict]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["senses", str(SAMPLE), "--json", "--ci", "--resamples", "200",
                     "--by-lemma", "--diagnostics"])
    assert code == 0
    return json_docs(buf.getvalue())


def test_sample_both_formats_and_inventories_agree(sample_json):
    assert [d["format"] for d in sample_json] == ["raganato", "sensetsv"]
    rag, tsv = (by_scheme(d) for d in sample_json)
    assert rag.keys() == tsv.keys()
    for k in rag:
        assert rag[k]["value"] == pytest.approx(tsv[k]["value"], nan_ok=True), k
        assert rag[k]["interval"]["low"] == pytest.approx(tsv[k]["interval"]["low"],
                                                          nan_ok=True), k
    for (scheme, inv, key), c in rag.items():
        if inv == "inventory/":
            assert c["value"] == pytest.approx(rag[scheme, "inventory.tsv", key]["value"])
    schemes = [(s["scheme"], s["inventory"]) for s in sample_json[0]["schemes"]]
    assert schemes == [("fine", None), ("multi", None), ("coarse", "inventory/"),
                       ("coarse", "inventory.tsv"), ("extended", "inventory/"),
                       ("extended", "inventory.tsv")]


def test_sample_figures_equal_the_api(sample_json):
    doc = sample_json[0]
    t = raganato.read(SAMPLE / "sample.data.xml", sorted((SAMPLE / "keys").glob("*.key.txt")))
    table = SenseTable.from_tags(t)
    c = by_scheme(doc)
    fine = to_reliability(table, "fine").data
    assert c["fine", None, "multi_kappa"]["value"] == pytest.approx(ca.multi_kappa(fine).value)
    assert c["fine", None, "pi"]["value"] == pytest.approx(ca.pi(fine).value)
    assert c["fine", None, "bias"]["value"] == pytest.approx(ca.bias(fine).value)
    assert doc["tags"] == 32 and doc["items"] == 11 and doc["multi_sense_tags"] == 1
    assert doc["lemmas"] == 3 and doc["cluster"] == "lemma" and doc["clusters"] == 3
    ext = c["extended", "inventory/", "alpha"]
    assert ext["distance"] == "passonneau"
    assert ext["interval"]["clustered"] and ext["interval"]["units"] == 3
    assert ext["interval"]["n_resamples"] == 200
    assert ext["interval"]["low"] <= ext["value"] <= ext["interval"]["high"]
    # extended senses credit partial agreement: extended α > fine α
    assert ext["value"] > c["fine", None, "alpha"]["value"]
    assert any("several senses" in n for n in doc["notes"])


def test_sample_by_lemma(sample_json):
    rows = {(r["lemma"], r["scheme"], r["inventory"]): r for r in sample_json[0]["by_lemma"]}
    assert {k[0] for k in rows} == {"call", "board", "draw"}
    call = rows["call", "fine", None]
    assert call["items"] == 5 and call["coders"] == 3
    t = raganato.read(SAMPLE / "sample.data.xml", sorted((SAMPLE / "keys").glob("*.key.txt")))
    data = to_reliability(SenseTable.from_tags([x for x in t if x.lemma == "call"]),
                          "fine").data
    assert call["alpha"] == pytest.approx(ca.alpha(data).value)
    assert call["agreement"] == pytest.approx(ca.percent_agreement(data).value)
    assert call["alpha_interval"]["clustered"] is False
    # set labels: the per-lemma figures equal the coefficients on data.subset
    inv = SenseInventory.from_edges(inventory.read_tsv(SAMPLE / "inventory.tsv"))
    ext = to_reliability(SenseTable.from_tags(t), "extended", inv)
    lemma_of = {x.item: x.lemma for x in t}
    for lemma in ("call", "board", "draw"):
        r = rows[lemma, "extended", "inventory.tsv"]
        sub = ext.data.subset(items=np.array([lemma_of[i] == lemma for i in ext.data.items]))
        assert r["alpha"] == pytest.approx(ca.alpha(sub, "passonneau").value)
        assert r["beta"] == pytest.approx(ca.beta(sub, "passonneau").value)
        assert r["agreement"] == pytest.approx(1 - ca.alpha_prime(sub, "passonneau").observed)


def test_sample_confused_pairs_are_the_coincidence_matrix(sample_json):
    """Each row's o_ck equals corpusagree.diagnostics.coincidence on the lemma's items."""
    pairs = sample_json[0]["confused"]["pairs"]
    assert sample_json[0]["confused"]["scheme"] == "fine"
    t = raganato.read(SAMPLE / "sample.data.xml", sorted((SAMPLE / "keys").glob("*.key.txt")))
    for lemma in ("call", "board", "draw"):
        data = to_reliability(SenseTable.from_tags([x for x in t if x.lemma == lemma]),
                              "fine").data
        labels, coinc = diagnostics.coincidence(data, sparse=False)
        names = [label_text(labels, k) for k in range(len(labels))]
        mine = [p for p in pairs if p["lemma"] == lemma]
        off = np.triu(coinc, 1)
        assert len(mine) == min(5, int((off > 0).sum()))
        for p in mine:
            a, b = names.index(p["a"]), names.index(p["b"])
            assert p["coincidences"] == pytest.approx(coinc[a, b])
        assert sum(p["share"] for p in mine) == pytest.approx(
            sum(p["coincidences"] for p in mine) / off.sum())
    call = {(p["a"], p["b"]) for p in pairs if p["lemma"] == "call"}
    assert ("call.v.WN1", "call.v.WN3") in call and ("call.v.LABEL", "call.v.WN1") in call
    diag = sample_json[0]["diagnostics"]
    assert diag["scheme"] == "fine" and len(diag["pairwise"]["matrix"]) == 3


def test_sample_terminal_output(capsys):
    code, out, _ = run([SAMPLE / "sample.tsv", "--inventory", SAMPLE / "inventory",
                        "--ci", "0.9", "--resamples", "100", "--by-lemma", "--diagnostics"],
                       capsys)
    assert code == 0
    for text in ("multi-κ", "extended", "90% CI", "by lemma", "most confused", "call.v.WN3",
                 "Leave one coder out", "note:"):
        assert text in out, text


def test_options(capsys):
    code, out, _ = run([SAMPLE / "sample.tsv", "--inventory", SAMPLE / "inventory.tsv",
                        "--schemes", "coarse,extended", "--level", "1", "--depth", "1",
                        "--set-distance", "jaccard", "--cluster", "document", "--ci",
                        "--resamples", "50", "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert [(s["scheme"], s.get("level"), s.get("depth"), s["distance"])
            for s in doc["schemes"]] == [("coarse", 1, None, "nominal"),
                                         ("extended", None, 1, "jaccard")]
    assert doc["cluster"] == "document" and doc["clusters"] == 2
    # level 1 leaves B's LABEL (→ G1) apart from A's and C's WN1 (→ LABEL)
    assert by_scheme(doc)["coarse", "inventory.tsv", "percent_agreement"]["value"] < 1


def test_lexfile_inventory_and_unknown_senses(tmp_path, capsys):
    tags = write(tmp_path, "t.tsv", "item\tannotator\tsense\tlemma\n"
                 "1\tA\torder%2:30:00::\torder\n1\tB\torder%2:30:01::\torder\n"
                 "2\tA\torder%2:30:00::\torder\n2\tB\tU\torder\n")
    code, out, _ = run([tags, "--inventory", "lexfile", "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    ext = next(s for s in doc["schemes"] if s["scheme"] == "extended")
    assert ext["unknown"] == {"U": 1} and ext["unknown_occurrences"] == 1
    assert any("inventory lexfile: 1 of 4 tagged senses (1 distinct)" in n
               for n in doc["notes"])
    assert by_scheme(doc)["extended", "lexfile", "alpha_prime"]["observed"] == \
        pytest.approx((2 / 3 + 1) / 2)


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
def test_bad_input_exits_2_with_file_line(tmp_path, capsys, case, where, message):
    if case == "malformed":
        data = write(tmp_path, "d.data.xml", '<?xml version="1.0"?>\n<corpus lang="en">\n'
                     f'<text id="t1"><sentence id="t1.s1">\n{GOOD}\n</text>\n</corpus>\n')
    else:
        data = xml_data(tmp_path, GOOD)
    a = write(tmp_path, "A.key.txt", "i1 WN1\n")
    b = write(tmp_path, "B.key.txt", {"malformed": "i1 WN1\n", "absent": "i1 WN1\ni9 WN3\n",
                                      "duplicate": "i1 WN1\ni1 WN3\n"}[case])
    code, out, err = run([data, a, b], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert lines[0].startswith(f"{tmp_path / where}: ") and message in lines[0]


def test_bad_input_in_a_subprocess_has_no_traceback(tmp_path):
    data = xml_data(tmp_path, GOOD)
    a = write(tmp_path, "A.key.txt", "i1 WN1\n")
    b = write(tmp_path, "B.key.txt", "i1 WN1\ni1 WN3\n")
    proc = subprocess.run([sys.executable, "-m", "corpusagree.cli", "senses", str(data), str(a),
                           str(b)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"{b}:2: duplicate instance 'i1' (first at line 1)"


@pytest.mark.parametrize("argv,message", [
    (["{data}"], "give the data XML file, then the annotators' key files"),
    (["{data}", "{a}", "{a2}", "--inventory", "{tmp}/none.tsv"], "no such inventory"),
    (["{data}", "{a}", "{a2}", "--schemes", "coarse"], "need --inventory"),
    (["{data}", "{a}", "{a2}", "--schemes", "medium"], "unknown scheme"),
    (["{data}", "{a}", "{a2}", "--level", "0"], "--level: expected a positive integer"),
    (["{data}", "{a}"], "two or more annotators"),
    (["{tmp}/missing.tsv"], "no such file"),
    (["{tmp}/inv.tsv", "--format", "sensetsv"], "missing column"),
    (["{data}", "{a}", "{a2}", "--ci", "95"], "--ci: the level must be between 0 and 1"),
    (["{data}", "{a}", "{a2}", "--depth", "-1"], "--depth ≥ 0"),
])
def test_usage_errors(tmp_path, capsys, argv, message):
    data = xml_data(tmp_path, GOOD)
    a = write(tmp_path, "A.key.txt", "i1 WN1\n")
    a2 = write(tmp_path, "B.key.txt", "i1 WN1\n")
    write(tmp_path, "inv.tsv", CALL_INVENTORY)
    argv = [x.format(data=data, a=a, a2=a2, tmp=tmp_path) for x in argv]
    code, _, err = run(argv, capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_inventory_with_a_cycle(tmp_path, capsys):
    inv = write(tmp_path, "cyc.tsv", "sense\tgroup\nA\tB\nB\tA\n")
    tags = write(tmp_path, "t.tsv", "item\tannotator\tsense\ni1\tA\tA\ni1\tB\tB\n")
    code, _, err = run([tags, "--inventory", inv], capsys)
    assert code == 2 and err.startswith(f"{inv}: sense inventory has a cycle")


# ---------------------------------------------------------------- report and other formats


def test_report_runs_the_senses_job(capsys):
    assert job.report_folder(SAMPLE, json_out=True)
    docs = json_docs(capsys.readouterr().out)
    assert [d["format"] for d in docs] == ["raganato", "sensetsv"]
    assert all("interval" in c for d in docs for s in d["schemes"] for c in s["coefficients"])
    code = main(["report", str(ROOT / "sample_corpora")])
    out = capsys.readouterr().out
    assert code == 0 and "sample.data.xml" in out and "extended" in out


def test_report_folder_without_senses(tmp_path):
    assert not job.report_folder(tmp_path, json_out=False)


def test_senseval_and_ontonotes_inputs(capsys):
    data = ROOT / "tests" / "data" / "senses"
    code, out, _ = run([data / "lexsample.xml", data / "t1.ans", data / "t2.ans", "--json",
                        "--annotators", "kim,lee"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "senseval" and doc["annotators"] == ["kim", "lee"]
    # ferry.n.x.001: kim ferry%1:06:00::, lee P; leak.v.x.001: 1 vs {2, 3}
    assert by_scheme(doc)["fine", None, "percent_agreement"]["value"] == 0
    assert by_scheme(doc)["multi", None, "alpha_prime"]["observed"] == pytest.approx(1)
    code, out, _ = run([data / "demo.sense", "--json", "--cluster", "document"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "ontonotes" and doc["annotators"] == ["a1", "a2"]
    assert doc["clusters"] == 1 and "intervals resample items" not in " ".join(doc["notes"])
    code, out, _ = run([data / "demo.sense", "--json", "--annotators", "x,y"], capsys)
    assert json.loads(out)["annotators"] == ["x", "y"]


def test_wsbest_format_and_missing_counts(capsys):
    path = ROOT / "tests" / "data" / "senses" / "wsbest" / "judgments.tsv"
    code, out, _ = run([path, "--format", "wsbest", "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "wsbest"
    # A marked no sense of sentence 8 (0 and "-"): a missing judgement, an unpairable item
    assert (doc["items"], doc["tags"], doc["missing"], doc["unpairable_items"]) == (2, 3, 1, 1)
    assert "1 item(s) have fewer than two tags and do not count" in doc["notes"]


# ---------------------------------------------------------------- real corpora and benchmarks


def corpus(*parts: str) -> Path:
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def load_benchmark(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_snow2008_benchmark_tiny():
    path = corpus("snow2008_mturk", "wsd.standardized.tsv")
    out = load_benchmark("snow2008_wsd").measure(path, resamples=50, seed=1)
    assert (out["tags"], out["items"], out["annotators"]) == (1770, 177, 34)
    assert out["judgements_per_item"] == [10]
    c = out["coefficients"]
    assert c["alpha"]["value"] == pytest.approx(out["peers"]["krippendorff_alpha"])
    assert c["pi"]["value"] == pytest.approx(out["peers"]["statsmodels_fleiss_kappa"])
    for k in ("multi_kappa", "pi", "alpha"):
        assert c[k]["low"] <= c[k]["value"] <= c[k]["high"] and 0.8 < c[k]["value"] < 1
    lk = out["light_kappa"]
    assert lk["low"] <= lk["value"] <= lk["high"] and lk["pairs"] > 100


def test_wsbest_benchmark_tiny():
    path = corpus("erk2013_wsbest_wssim", "wsbest", "judgments.tsv")
    out = load_benchmark("wsbest").measure(path, resamples=50, seed=1)
    rows = {(r["scheme"], r["distance"]): r for r in out["rows"]}
    assert (out["annotators"], out["items"], out["lemmas"]) == (8, 260, 26)
    assert rows["multi", "masi"]["alpha"] == pytest.approx(out["peers"]["nltk_masi_alpha"])
    for d in ("masi", "jaccard"):
        assert rows["extended (lexfile)", d]["alpha"] > rows["multi", d]["alpha"]
        assert rows["extended (lexfile)", d]["clusters"] == 26


def test_wsbest_through_the_cli(capsys):
    path = corpus("erk2013_wsbest_wssim", "wsbest", "judgments.tsv")
    code, out, _ = run([path, "--inventory", "lexfile", "--set-distance", "masi", "--json"],
                       capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "sensetsv" and doc["clusters"] == 26
    wsb = load_benchmark("wsbest").measure(path, resamples=10, nltk_check=False)
    ours = {(r["scheme"], r["distance"]): r["alpha"] for r in wsb["rows"]}
    c = by_scheme(doc)
    assert c["multi", None, "alpha"]["value"] == pytest.approx(ours["multi", "masi"])
    assert c["extended", "lexfile", "alpha"]["value"] == pytest.approx(
        ours["extended (lexfile)", "masi"])
