"""``corpusagree coref``: --json equals the API, the pairwise scores equal scorch's on the
readers' own chains, intervals are reproducible, options work, and bad input exits with status 2
and one line ``file:line: message``."""

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from corpusagree.readers import corefud
from lxml import etree

from corpusagree.cli import main
from corpusagree.convert import coref as cc
from corpusagree.jobs import coref as job
from corpusagree.stats import coefficients as co

SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpora" / "coref"
UD = sorted(str(p) for p in (SAMPLE / "corefud").glob("*.conllu"))
DATA = Path(__file__).parent / "data" / "coref_a"


def run_json(capsys, *args):
    assert main(["coref", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def anns():
    return corefud.read(UD)


def test_json_equals_api(capsys, anns):
    out = run_json(capsys, *UD, "--by-document", "--diagnostics")
    data, al = cc.coref_data(anns)
    assert out["format"] == "corefud" and out["annotators"] == ["ann1", "ann2", "ann3"]
    assert out["documents"] == ["council", "gates", "harbour", "letters", "recipe"]
    assert out["items"] == al.n_items == 56
    fns = {"α": co.alpha, "α′": co.alpha_prime, "β": co.beta, "B": co.bias}
    got = {(r["symbol"], r["distance"]): r["value"] for r in out["coefficients"]}
    assert len(got) == 16
    for d in job.DEFAULT_DISTANCES:
        for name, f in fns.items():
            assert got[(name, d)] == pytest.approx(f(data, d).value, abs=1e-12)
    ante = cc.to_data(al, "antecedent")
    got = {r["symbol"]: r["value"] for r in out["antecedent"]}
    assert got == pytest.approx({"multi-κ": co.multi_kappa(ante).value,
                                 "α": co.alpha(ante).value, "β": co.beta(ante).value}, abs=1e-12)
    # the sample README's counts: ann2 adds 'each other', ann3 misses 'Lisbon' and marks 'a photo'
    per = out["alignment"]["per_annotator"]
    assert (per["ann2"]["mentions"], per["ann3"]["mentions"]) == (54, 53)
    assert (per["ann2"]["unmatched"], per["ann3"]["unmatched"]) == (1, 1)
    assert out["alignment"]["single"] == 2
    gates = next(r for r in out["by_document"] if r["document"] == "gates")
    assert gates["alpha"] == {d: 1.0 for d in job.DEFAULT_DISTANCES} and gates["muc"] == 1.0
    dg = out["diagnostics"]
    assert dg["distance"] == "passonneau"
    assert dg["disputed"][0]["mention"] == "she"     # harbour: ann2 attached 'she' to Mara
    assert dg["disputed"][0]["labels"]["ann2"] == "Mara | her | she"
    assert len(dg["leave_one_out"]) == 3


def muc_f1(key, resp):
    """MUC F1 from scratch (Vilain et al. 1995), no shared code."""
    def recall(k_side, r_side):
        num = den = 0
        for k in k_side:
            parts = {next((i for i, r in enumerate(r_side) if m in r), ("alone", m)) for m in k}
            num += len(k) - len(parts)
            den += len(k) - 1
        return num / den if den else 0.0
    r, p = recall(key, resp), recall(resp, key)
    return 2 * r * p / (r + p) if r + p else 0.0


def test_scores_equal_scorch_on_reader_chains(capsys, anns):
    """The pairwise table: per document, each pair's F1 on the mentions as the readers give
    them (spans as keys), by scorch and by hand; then averaged over the documents."""
    scorch = pytest.importorskip("scorch.scores")
    out = run_json(capsys, *UD)
    assert "macro" in out["scores"]["averaging"]
    by = {(a.annotator, a.document.id): a for a in anns}

    def part(a):
        return [{a.mentions[m].span for m in c.members} for c in a.chains]

    for row in out["scores"]["pairs"]:
        docs = sorted({d for _, d in by})
        ref = {"muc": [], "b_cubed": [], "ceaf_e": [], "blanc": [], "byhand": []}
        for d in docs:
            k, r = part(by[(row["a"], d)]), part(by[(row["b"], d)])
            ref["muc"].append(scorch.muc(k, r)[2])
            ref["b_cubed"].append(scorch.b_cubed(k, r)[2])
            ref["ceaf_e"].append(scorch.ceaf_e(k, r)[2])
            ref["blanc"].append(scorch.blanc(k, r)[2])
            ref["byhand"].append(muc_f1(k, r))
        for s in ("muc", "b_cubed", "ceaf_e", "blanc"):
            assert row[s] == pytest.approx(np.mean(ref[s]), abs=1e-12), (row, s)
        assert row["muc"] == pytest.approx(np.mean(ref["byhand"]), abs=1e-12)
    first = out["scores"]["pairs"][0]
    assert (first["a"], first["b"], first["documents"]) == ("ann1", "ann2", 5)
    # sample README: MUC F1 of ann1 vs ann2 is 7/8, 10/11, 8/9 and 1, 1 on the other two
    assert first["muc"] == pytest.approx((7 / 8 + 10 / 11 + 8 / 9 + 2) / 5)


def test_intervals_reproducible_and_clustered(capsys):
    args = (*UD, "--ci", "0.9", "--resamples", "200", "--seed", "7")
    a, b = run_json(capsys, *args), run_json(capsys, *args)
    assert a["coefficients"] == b["coefficients"]
    for r in a["coefficients"] + a["antecedent"]:
        i = r["interval"]
        assert i["clustered"] and i["units"] == 5 and i["level"] == 0.9
        assert i["n_resamples"] == 200 and i["low"] <= i["high"]
    alpha = a["coefficients"][0]
    assert alpha["interval"]["low"] <= alpha["value"] <= alpha["interval"]["high"]
    assert any("only 5 documents" in n for n in a["notes"])
    c = run_json(capsys, *UD, "--ci", "0.9", "--resamples", "200", "--seed", "8")
    assert c["coefficients"][0]["interval"] != alpha["interval"]


def test_options(capsys):
    out = run_json(capsys, *UD, "--distance", "jaccard", "--distance", "dice",
                   "--unmarked", "singleton", "--label", "prefix", "--singletons", "drop",
                   "--match", "overlap")
    assert out["options"] == {"match": "overlap", "label": "prefix", "unmarked": "singleton",
                              "singletons": "drop", "distances": ["jaccard", "dice"]}
    assert [r["distance"] for r in out["coefficients"]] == ["jaccard"] * 4 + ["dice"] * 4
    assert out["alignment"]["per_annotator"]["ann1"]["dropped_singletons"] > 0
    assert all(r["coders"] == 3 for r in out["coefficients"])
    ante = run_json(capsys, *UD, "--label", "antecedent")
    assert "coefficients" not in ante and len(ante["antecedent"]) == 3
    assert any("set distances do not apply" in n for n in ante["notes"])


def test_other_formats_and_two_annotators(capsys):
    tsv = [str(DATA / "webanno_tsv" / a) for a in ("ann1", "ann2")]
    out = run_json(capsys, *tsv)
    assert out["format"] == "webanno_tsv"
    assert [r["symbol"] for r in out["antecedent"]] == ["κ", "α", "β"]
    assert run_json(capsys, "--format", "webanno_tsv", *tsv)["scores"] == out["scores"]


def test_terminal_tables(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    assert main(["coref", *UD, "--by-document", "--diagnostics", "--ci", "--resamples",
                 "50"]) == 0
    text = " ".join(capsys.readouterr().out.split())     # titles wrap to their table's width
    for part in ("alignment of mentions", "95% CI", "antecedent as a nominal label", "MUC F1",
                 "by document", "without each annotator", "per annotator pair",
                 "most-disputed mentions", "note: 56 items"):
        assert part in text, part


def test_report_folder(capsys):
    assert job.report_folder(SAMPLE, json_out=True)
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "corefud" and len(out["input"]) == 3
    assert "interval" in out["coefficients"][0] and len(out["by_document"]) == 5
    assert not job.report_folder(SAMPLE / "corefud", json_out=True)


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
def test_bad_input_exits_2_with_one_line(case, tmp_path, capsys):
    paths, where = make_bad(case, tmp_path)
    assert main(["coref", *paths]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith(where), err
    assert re.search({"malformed_xml": "malformed XML", "undefined_pointer": "undefined markable",
                      "brat_offset": "outside the text", "unclosed_bracket": "never closed",
                      "no_coreference_layer": "no coreference layer"}[case], err)


@pytest.mark.parametrize("args, message", [
    (["--ci", "1.5"], "between 0 and 1"),
    (["--resamples", "1"], "at least 2"),
])
def test_bad_options(args, message, capsys):
    assert main(["coref", *UD, *args]) == 2
    assert message in capsys.readouterr().err


def test_one_folder_of_conll_files_gets_a_hint(capsys):
    assert main(["coref", str(SAMPLE / "conll2012")]) == 2
    err = capsys.readouterr().err
    assert "is also in" in err and "one file or folder per annotator" in err


def test_mixed_formats_and_missing_path(tmp_path, capsys):
    assert main(["coref", UD[0], str(SAMPLE / "brat")]) == 2
    assert "different formats" in capsys.readouterr().err
    assert main(["coref", str(tmp_path / "nothing")]) == 2
    assert "no such file" in capsys.readouterr().err
