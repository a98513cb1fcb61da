"""``corpusagree coref``: ``coref KEY RESPONSE`` prints the CoNLL reference scorer's figures on
its published test cases, --json is the report's ``to_dict()``, intervals are reproducible, the
options work, every output format renders (80 columns when piped), a repeated mention is one
warning line, and bad input exits with status 2 and one line ``file:line: message``."""

from __future__ import annotations

import ast
import json
import operator
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from lxml import etree

from corpusagree.analyses import coref
from corpusagree.report.json import clean
from corpusagree.stats.inference import Bootstrap

from support import DATA, SAMPLES

SAMPLE = SAMPLES / "coref"
UD = [f"sample_corpora/coref/corefud/ann{i}.conllu" for i in (1, 2, 3)]


# ---- the reference scorer's test cases ---------------------------------------------------------
SCORER = DATA / "scorer"
#: the reference scorer's metric names and ours, as printed
METRICS = {"muc": ("muc", "MUC"), "bcub": ("b_cubed", "B³"), "ceafm": ("ceaf_m", "CEAF-m"),
           "ceafe": ("ceaf_e", "CEAF-e"), "blanc": ("blanc", "BLANC")}
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv}


def figure(expr: str) -> Fraction:
    """A figure of the reference scorer's test configuration: a number or an arithmetic
    expression of numbers."""
    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return Fraction(str(node.value))
        return _OPS[type(node.op)](ev(node.left), ev(node.right))
    return ev(ast.parse(expr, mode="eval"))


def published() -> dict:
    """case → (key file, response file, {metric: (R, P, F1) expressions})."""
    out: dict = {}
    for line in (SCORER / "expected.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            case, key, resp, metric, *rpf = line.split("\t")
            out.setdefault(case, (key, resp, {}))[2][metric] = rpf
    return out


CASES = published()


@pytest.mark.parametrize("case", list(CASES))
def test_key_response_prints_the_reference_scorer_figures(case, cli, monkeypatch):
    """``corpusagree coref KEY RESPONSE`` on every test case of the reference scorer (v8.01,
    test/CorefMetricTestConfig.pm; files re-typed in tests/data/scorer): the recall, precision
    and F1 of MUC, B³, CEAF-m, CEAF-e and BLANC it prints are the published ones to 4 decimals
    (the configuration itself rounds some to 5), and so are the JSON figures. Every case is
    read by the CoNLL-2012 reader, TC-A-7 to 9 with their repeated mentions."""
    monkeypatch.delenv("COLUMNS", raising=False)
    key, resp, expected = CASES[case]
    status, out, err = cli("coref", SCORER / key, SCORER / resp)
    assert status == 0, err
    status, js, _ = cli("coref", SCORER / key, SCORER / resp, "--json")
    pair = json.loads(js)["scores"]["pairs"][0]
    assert (pair["key"], pair["response"]) == (key.split(".")[0], resp.split(".")[0])
    for metric, rpf in expected.items():
        name, shown = METRICS[metric]
        row = re.search(rf"^{key.split('.')[0]}\s+{resp.split('.')[0]}\s+1\s+{re.escape(shown)}"
                        r"\s+(\S+)\s+(\S+)\s+(\S+)\s*$", out, re.M)
        assert row, (metric, out)
        for printed, ours, want in zip(row.groups(), (pair[name][k] for k in
                                                      ("recall", "precision", "f1")), rpf,
                                       strict=True):
            value = float(figure(want))
            rounded = re.search(r"\.\d{5}", want) is not None     # the configuration's rounding
            assert abs(ours - value) <= (5.01e-6 if rounded else 1e-12), (metric, ours, want)
            assert printed == f"{ours:.4f}"
            if not rounded:
                assert printed == f"{value:.4f}", (metric, printed, want)


def test_repeated_mention_is_one_warning_line(cli):
    """TC-A-9 repeats a span ten times in another entity: one ``warning:`` line naming the file
    and what was done; the figures are the de-duplicated response's."""
    status, out, err = cli("coref", SCORER / "TC-A.key", SCORER / "TC-A-9.response", "--json")
    assert status == 0
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"warning: {SCORER / 'TC-A-9.response'}: 10 "
                                                   "mention(s) repeat the span")
    assert "keep each span in its first chain" in lines[0]
    assert json.loads(out)["scores"]["pairs"][0]["muc"]["f1"] == pytest.approx(1 / 3)


def test_json_is_the_report(cli_json):
    out = cli_json("coref", *UD, "--by-document", "--diagnostics", "--ci", "--resamples", "50")
    anns = coref.read(UD)
    report = coref.analyse(anns, bootstrap=Bootstrap(50), by_document=True, diagnostics=10)
    assert out == json.loads(json.dumps(clean(report.to_dict())))
    assert out["format"] == "corefud" and out["inputs"] == UD and out["items"] == 56
    assert out["bootstrap"] == {"n_resamples": 50, "level": 0.95, "interval": "percentile",
                                "cluster": None, "seed": 0}
    assert out["diagnostics"]["disputed"][0]["labels"]["ann2"] == "Mara | her | she"


def test_intervals_reproducible_and_clustered(cli_json):
    args = (*UD, "--ci", "0.9", "--resamples", "200", "--seed", "7")
    a, b = cli_json("coref", *args), cli_json("coref", *args)
    assert a["coefficients"] == b["coefficients"]
    for r in a["coefficients"] + a["antecedent"]:
        i = r["interval"]
        assert i["clustered"] and i["units"] == 5 and i["level"] == 0.9
        assert i["n_resamples"] == 200 and i["low"] <= i["high"]
    alpha = a["coefficients"][0]
    assert alpha["interval"]["low"] <= alpha["value"] <= alpha["interval"]["high"]
    assert any("only 5 documents" in n for n in a["notes"])
    c = cli_json("coref", *UD, "--ci", "0.9", "--resamples", "200", "--seed", "8")
    assert c["coefficients"][0]["interval"] != alpha["interval"]
    items = cli_json("coref", *UD, "--ci", "--resamples", "20", "--cluster", "item")
    assert not items["coefficients"][0]["interval"]["clustered"]
    assert items["bootstrap"]["cluster"] is False


def test_options(cli_json):
    out = cli_json("coref", *UD, "--distance", "jaccard", "--distance", "dice",
                   "--unmarked", "singleton", "--label", "prefix", "--singletons", "drop",
                   "--match", "overlap")
    assert out["options"] == {"distances": ["jaccard", "dice"], "match": "overlap",
                              "unmarked": "singleton", "label": "prefix", "singletons": "drop",
                              "by_document": False, "diagnostics": None, "reader_options": {}}
    assert [r["distance"] for r in out["coefficients"]] == ["jaccard"] * 4 + ["dice"] * 5
    assert out["coefficients"][-1]["id"] == "mv_alpha"
    assert out["alignment"]["per_annotator"]["ann1"]["dropped_singletons"] > 0
    assert all(r["coders"] == 3 for r in out["coefficients"])
    comma = cli_json("coref", *UD, "--distance", "jaccard,dice", "--unmarked", "singleton",
                     "--label", "prefix", "--singletons", "drop", "--match", "overlap")
    assert comma["coefficients"] == out["coefficients"]
    ante = cli_json("coref", *UD, "--label", "antecedent")
    assert ante["coefficients"] == [] and len(ante["antecedent"]) == 3
    assert any("set distances do not apply" in n for n in ante["notes"])
    assert ante["by_document"] is None and ante["diagnostics"] is None
    named = cli_json("coref", *UD, "--annotators", "x,y,z")
    assert named["annotators"] == ["x", "y", "z"]
    assert [p["key"] for p in named["scores"]["pairs"]] == ["x", "x", "y"]


def test_other_formats_and_two_annotators(cli_json, data_dir):
    tsv = [data_dir / "coref_a" / "webanno_tsv" / a for a in ("ann1", "ann2")]
    out = cli_json("coref", *tsv)
    assert out["format"] == "webanno_tsv"
    assert [r["symbol"] for r in out["antecedent"]] == ["κ", "α", "β"]
    assert cli_json("coref", "--input-format", "webanno_tsv", *tsv)["scores"] == out["scores"]
    mmax = cli_json("coref", "sample_corpora/coref/mmax2", "--levels", "coref")
    assert mmax["format"] == "mmax2" and mmax["options"]["reader_options"] == {
        "levels": ["coref"]}
    assert mmax["scores"] == cli_json("coref", "sample_corpora/coref/mmax2")["scores"]


def test_terminal_tables_fit_80_columns(cli, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    status, out, _ = cli("coref", *UD, "--by-document", "--diagnostics", "--ci",
                         "--resamples", "50")
    assert status == 0
    assert max(map(len, out.splitlines())) <= 80
    text = " ".join(out.split())     # titles wrap at 80 columns
    for part in ("Alignment of mentions", "95% CI", "Antecedent as a nominal label", "MUC",
                 "Pradhan et al. 2014", "By document", "Leave one coder out", "Pairwise α",
                 "Most-disputed mentions", "ann2: Mara | her | she", "note: 56 items",
                 "intervals clustered by document", "micro-averaged over the documents",
                 "CEAF-m", "CoNLL", "F1 averaged over the documents (macro)",
                 "Coreference scores by document", "not only on the mentions both marked"):
        assert part in text, part


def test_csv_markdown_and_output_file(cli, tmp_path):
    status, out, _ = cli("coref", *UD, "--format", "csv")
    assert status == 0
    assert out.startswith("table,row,column,value\nalignment,0,annotator,ann1\n")
    assert "\nscores,0,id,muc\nscores,0,metric,MUC\n" in out
    target_dir = tmp_path / "tables"
    status, _, _ = cli("coref", *UD, "--format", "csv", "--output", f"{target_dir}/")
    assert status == 0
    assert (target_dir / "scores.csv").read_text().startswith(
        "key,response,documents,id,metric,recall,precision,f1\n")
    status, out, _ = cli("coref", *UD, "--format", "md", "--by-document")
    assert status == 0 and "### By document" in out and "| ann1 | ann2 |" in out
    assert "### Coreference scores, F1 averaged over the documents (macro)" in out
    assert "| council | ann1 | ann2 |" in out
    target = tmp_path / "out.json"
    status, out, _ = cli("coref", *UD, "--json", "--output", target)
    assert status == 0 and out == ""
    assert json.loads(target.read_text())["job"] == "coref"


def test_report_job_includes_coref(cli_json):
    reports = cli_json("report", "sample_corpora", "--resamples", "20")
    ours = [r for r in reports if r["job"] == "coref"]
    assert len(ours) == 1 and ours[0]["format"] == "corefud"
    assert len(ours[0]["by_document"]) == 5 and ours[0]["coefficients"][0]["interval"]


def test_ezcoref_cluster_ids(cli_json, corpora):
    """Every cluster id is kept by default (what the format allows; issue 34, item 6), so a
    mention can be in several chains: reported, united; --clusters last keeps the last id."""
    files = sorted((corpora / "ezcoref_gupta2023" / "annotations").rglob("*.json"))[:6]
    if not files:
        pytest.skip("ezcoref_gupta2023 not available")
    every = cli_json("coref", *files)
    assert every["format"] == "ezcoref" and len(every["documents"]) == 6
    assert not any("--clusters" in n for n in every["notes"])
    assert sum(c["several_chains"] for c in every["alignment"]["per_annotator"].values()) > 0
    assert any("union" in n for n in every["notes"])
    last = cli_json("coref", *files, "--clusters", "last")
    assert sum(c["several_chains"] for c in last["alignment"]["per_annotator"].values()) == 0
    assert last["options"]["reader_options"] == {"clusters": "last"}


# ---- bad input -------------------------------------------------------------------------------
def strip_coreference(src: Path, dst: Path) -> None:
    """An XMI without its CoreferenceChain/Link elements (and their view memberships)."""
    tree = etree.parse(str(src))
    root = tree.getroot()
    gone = set()
    for el in list(root):
        if etree.QName(el).localname.startswith("Coreference"):
            gone.add(el.get("{http://www.omg.org/XMI}id"))
            root.remove(el)
    for el in root:
        if etree.QName(el).localname == "View":
            el.set("members", " ".join(m for m in el.get("members").split() if m not in gone))
    tree.write(str(dst), xml_declaration=True, encoding="UTF-8")


def edit_line(path: Path, lineno: int, old: str, new: str) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert old in lines[lineno - 1]
    lines[lineno - 1] = lines[lineno - 1].replace(old, new, 1)
    path.write_text("\n".join(lines), encoding="utf-8")


def make_bad(case: str, tmp: Path) -> tuple[list[str], str]:
    """(CLI paths, expected ``file:line`` prefix) for one kind of bad input."""
    if case in ("malformed_xml", "undefined_pointer"):
        shutil.copytree(SAMPLE / "mmax2", tmp / "mmax2")
        f = tmp / "mmax2" / "ann1" / "Markables" / "harbour_coref_level.xml"
        if case == "malformed_xml":
            edit_line(f, 5, "<markable ", "<markable <")
        else:
            edit_line(f, 5, 'type="object"', 'type="object" antecedent="markable_99"')
        return [str(tmp / "mmax2")], f"{f}:5: "
    if case == "brat_offset":
        shutil.copytree(SAMPLE / "brat", tmp / "brat")
        f = tmp / "brat" / "ann2" / "gates.ann"
        edit_line(f, 1, "Mention 0 41\t", "Mention 5000 5041\t")
        return [str(tmp / "brat")], f"{f}:1: "
    if case == "unclosed_bracket":
        files = sorted((SAMPLE / "conll2012").glob("*_conll"))
        for p in files:
            shutil.copy(p, tmp)
        f = tmp / "ann2.v4_gold_conll"
        edit_line(f, 6, "2)", "-")
        return [str(tmp / p.name) for p in files], f"{f}:4: "
    src = SAMPLE / "xmi" / "annotation" / "gates.txt" / "ann1.xmi"
    strip_coreference(src, tmp / "ann1.xmi")
    return [str(tmp / "ann1.xmi")], f"{tmp / 'ann1.xmi'}:2: "


@pytest.mark.parametrize("case", ["malformed_xml", "undefined_pointer", "brat_offset",
                                  "unclosed_bracket", "no_coreference_layer"])
def test_bad_input_exits_2_with_one_line(case, tmp_path, cli):
    paths, where = make_bad(case, tmp_path)
    status, _, err = cli("coref", *paths)
    assert status == 2
    err = err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith(where), err
    assert re.search({"malformed_xml": "malformed XML", "undefined_pointer": "undefined markable",
                      "brat_offset": "outside the text", "unclosed_bracket": "never closed",
                      "no_coreference_layer": "no coreference layer"}[case], err)


@pytest.mark.parametrize("args, message", [
    (["--ci", "1.5"], "argument --ci: expected a number between 0 and 1"),
    (["--ci", "--resamples", "1"], "argument --resamples: expected an integer ≥ 2"),
    (["--seed", "-1"], "argument --seed: expected an integer ≥ 0, not '-1'"),
    (["--distance", "nominal"], "'nominal' is not one of passonneau"),
    (["--levels", "coref"], "--levels coref does not apply to coref format 'corefud'"),
    (["--annotators", "x,y"], "2 names for 3 paths"),
])
def test_bad_options(args, message, cli):
    status, _, err = cli("coref", *UD, *args)
    assert status == 2 and "\n" not in err.strip()
    assert message in err


def test_one_folder_of_conll_files_gets_a_hint(cli):
    status, _, err = cli("coref", "sample_corpora/coref/conll2012")
    assert status == 2
    assert "is also in" in err and "one file or folder per annotator" in err


def test_mixed_formats_and_missing_path(tmp_path, cli):
    status, _, err = cli("coref", UD[0], "sample_corpora/coref/brat")
    assert status == 2 and "different formats" in err
    status, _, err = cli("coref", tmp_path / "nothing")
    assert status == 2 and "no such file" in err


def test_nothing_to_compare_is_one_line(tmp_path, cli):
    row = "d  0  {i}  w{i}  X  *  -  -  -  -  *  {c}\n"
    def conll(name, cells):
        p = tmp_path / name
        p.write_text("#begin document (d); part 000\n" + "".join(
            row.format(i=i, c=c) for i, c in enumerate(cells)) + "\n#end document\n")
        return p

    a, b = conll("a.v4_gold_conll", "--"), conll("b.v4_gold_conll", "--")
    code, _, err = cli("coref", a, b)
    assert code == 2 and err.strip().endswith("no mention in any annotation: nothing to compare")
    c, d = conll("c.v4_gold_conll", ["(1)", "-"]), conll("e.v4_gold_conll", ["-", "(1)"])
    code, _, err = cli("coref", c, d)
    assert code == 2 and "none of the 2 mentions is marked by two or more annotators" in err
    assert len(err.strip().splitlines()) == 1
