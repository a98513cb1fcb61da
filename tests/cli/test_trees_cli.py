"""``corpusagree trees`` and ``corpusagree relations``: RSTmulti whole (130 document pairs, in
under 10 s in a fresh process, naming the pairs Parseval could not compare), bad input beside
good documents (each one line naming file and element, the others still compared), the sample
corpus's figures equal to the statistics' own, and the relation fixtures in every format."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from corpusagree.analyses import relations, trees

from support import CORPORA, ROOT, SAMPLES, write

RSTMULTI = CORPORA / "rstmulti_hewett2025" / "data"
HEADER = ('<rst><header><relations><rel name="elaboration" type="rst"/>'
          '<rel name="joint" type="multinuc"/></relations></header><body>\n')
GOOD = ('<segment id="1" parent="3" relname="span">A b</segment>\n'
        '<segment id="2" parent="1" relname="elaboration">C d</segment>\n'
        '<group id="3" type="span"/>\n')


def test_rstmulti_whole_corpus_in_a_fresh_process():
    if not RSTMULTI.is_dir():
        pytest.skip("RSTmulti is not in the real corpora")
    # its time, step by step: benchmarks/trees_rstmulti.py
    proc = subprocess.run([sys.executable, "-m", "corpusagree", "trees", RSTMULTI / "1",
                           RSTMULTI / "2", "--json"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["data"]["pairs"] == 122 and doc["data"]["boundaries_only"] == 8
    assert doc["data"]["not_compared"] == 3
    different = {r["document"] for r in doc["not_compared"] if "different EDUs" in r["reason"]}
    assert "1-freitag-28-1-22-a2" in different and len(different) == 8
    notes = "\n".join(doc["notes"])
    assert "UNSC_2014_SPV.7154_spch019_UA_01.rs3:70: group id=33 has no parent" in notes
    assert "1-freitag-28-1-22-a2" in notes
    rst = {r["measure"]: r["f1"] for r in doc["parseval"] if r["variant"] == "rst_parseval"}
    assert rst["span"] == pytest.approx(0.8625146886016452)  # educe, tests/data/trees
    assert doc["boundaries"]


def test_bad_files_beside_good_ones(cli_json, tmp_path):
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        write(tmp_path / who, "good.rs3", HEADER + GOOD + "</body></rst>")
    write(tmp_path / "b", "roots.rs3", HEADER + '<segment id="1">A</segment>'
          '<segment id="2">B</segment></body></rst>')
    write(tmp_path / "a", "roots.rs3", HEADER + GOOD + "</body></rst>")
    write(tmp_path / "a", "cycle.rs3", HEADER + '<segment id="1" parent="2" relname='
          '"elaboration">A</segment>\n<segment id="2" parent="1" relname="elaboration">B'
          '</segment></body></rst>')
    write(tmp_path / "b", "cycle.rs3", HEADER + GOOD + "</body></rst>")
    write(tmp_path / "a", "orphan.rs3", HEADER + '<segment id="1" parent="7" relname="span">'
          'A</segment></body></rst>')
    write(tmp_path / "a", "alone.rs3", HEADER + GOOD + "</body></rst>")
    write(tmp_path / "a", "text.rs3", HEADER + GOOD + "</body></rst>")
    write(tmp_path / "b", "text.rs3", HEADER + GOOD.replace("C d", "C e") + "</body></rst>")
    doc = cli_json("trees", tmp_path / "a", tmp_path / "b")
    assert doc["data"]["pairs"] == 1  # good.rs3
    notes = doc["notes"]
    for expected in (f"{tmp_path / 'b' / 'roots.rs3'}:2: segment id=2 has no parent",
                     f"{tmp_path / 'a' / 'cycle.rs3'}:2: segment id=1: the parent attributes "
                     "form a cycle",
                     f"{tmp_path / 'a' / 'orphan.rs3'}:2: segment id=1: parent=7 does not exist",
                     f"{tmp_path / 'a' / 'alone.rs3'}: document 'alone': only annotator 'a'",
                     f"{tmp_path / 'b' / 'text.rs3'}: segment id=2: the text differs"):
        assert any(expected in n for n in notes), (expected, notes)
    assert all("\n" not in n for n in notes)


def test_sample_figures_are_the_statistics(samples):
    from corpusagree.convert.trees import pair_trees
    from corpusagree.stats.trees.binarize import binarize
    from corpusagree.stats.trees.nodes import nodes
    from corpusagree.stats.trees.parseval import constituents, count

    corpus = trees.read(samples / "trees" / "rs3")
    report = trees.analyse(corpus, by_document=True)
    p = pair_trees(corpus.data)
    c = count(constituents(nodes([binarize(t) for t in p.trees]), "parseval"), p.reference,
              p.other)
    got = [r["f1"] for r in report.parseval if r["variant"] == "parseval"]
    assert got == pytest.approx(c.scores()[:, 2].tolist())
    # bridge: the 4-EDU trees of the statistics' tests; market: one relation differs
    bridge = next(r for r in report.by_document if r["document"] == "bridge")
    assert bridge["parseval_span"] == pytest.approx(1 / 3)
    assert report.disputed["document"] == "bridge"
    assert ["concession", "elaboration"] in [[r["reference"], r["other"]]
                                            for r in report.confused]
    assert {r["document"] for r in report.not_compared} == {"harbour"}


def test_relation_labels_and_binarisation_options(cli_json, samples):
    low = cli_json("trees", samples / "trees" / "rs3", "--relations", "lower")
    flat = cli_json("trees", samples / "trees" / "rs3", "--no-binarize")
    assert low["options"]["relation_labels"] == "lower"
    rst = [r for r in flat["parseval"] if r["variant"] == "rst_parseval"]
    assert flat["options"]["binarize"] is False and rst[0]["f1"] != low["parseval"][0]["f1"]


def test_html_has_the_confusion_and_the_trees(cli, samples, tmp_path):
    pytest.importorskip("matplotlib")
    page = tmp_path / "trees.html"
    status, _, err = cli("trees", samples / "trees" / "rs3", "--html", page, "--resamples", "50")
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert 'data-figure="relation_confusion"' in html
    assert "The most disputed document, bridge" in html


@pytest.mark.parametrize("fmt", ["brat", "webanno", "xmi"])
def test_relations_job(cli_json, fmt):
    base = ROOT / "tests" / "data" / "relations" / fmt
    exact = cli_json("relations", base / "a", base / "b")
    overlap = cli_json("relations", base / "a", base / "b", "--match", "overlap")
    assert [r["shared"] for r in exact["detection"]] == [2]
    assert exact["detection"][0]["f1"] == pytest.approx(4 / 7)
    assert overlap["detection"][0]["f1"] == pytest.approx(6 / 7)
    assert [(r["label_a"], r["label_b"]) for r in overlap["confused"]] == [("Contrast", "Joint")]
    report = relations.analyse(relations.read([base / "a", base / "b"]), match="overlap")
    assert report.to_dict()["labels"] == overlap["labels"]


def test_relations_without_any_relation(cli, tmp_path):
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        write(tmp_path / who, "d.txt", "A b.\n")
        write(tmp_path / who, "d.ann", "T1\tX 0 1\tA\n")
    status, _, err = cli("relations", tmp_path / "a", tmp_path / "b")
    assert status == 2 and "no relation in any file" in err
    assert len(err.strip().splitlines()) == 1


def test_identical_three_edu_trees_print_no_library_warning(cli, tmp_path):
    """Issue 37, 12: two identical 3-EDU trees with one relation label have no defined κ of
    Iruskieta's factors; its macro average is null without numpy's "Mean of empty slice"."""
    tree = ('<rst><header><relations><rel name="elaboration" type="rst"/></relations>'
            '</header><body>\n<segment id="1" parent="4" relname="span">A b</segment>\n'
            '<segment id="2" parent="1" relname="elaboration">C d</segment>\n'
            '<segment id="3" parent="1" relname="elaboration">E f</segment>\n'
            '<group id="4" type="span"/>\n</body></rst>')
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        write(tmp_path / who, "d.rs3", tree)
    code, out, err = cli("trees", tmp_path / "a", tmp_path / "b", "--json")
    assert code == 0 and err == ""
    macro = {r["factor"]: r["kappa_macro"] for r in json.loads(out)["iruskieta"]}
    assert macro["relation"] is None and macro["nuclearity"] is None
    assert macro["constituent"] == 1.0


def test_the_only_tree_left_out_is_named(cli, tmp_path):
    """Issue 37, 11: when the only document's tree is left out as no tree, the error says
    which file and why (it said only "no document with the same text")."""
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
    write(tmp_path / "a", "doc.rs3", HEADER + GOOD + "</body></rst>")
    write(tmp_path / "b", "doc.rs3", HEADER + '<segment id="1">A b</segment>'
          '<segment id="2">C d</segment></body></rst>')
    status, _, err = cli("trees", tmp_path / "a", tmp_path / "b")
    assert status == 2, err
    assert "nothing to compare (not a tree, left out: " in err
    assert f"{tmp_path / 'b' / 'doc.rs3'}:2: segment id=2 has no parent" in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
def test_on_error_help_says_what_the_job_does(cli, tmp_path):
    """Issue 34, item 11: ``trees --help`` gives --on-error's default as the trees job has it
    (skip), and the job skips a file that is no tree with a note."""
    import re
    import shutil

    status, out, _ = cli("trees", "--help")
    assert status == 0
    text = re.sub(r"\s+", " ", out.split("--on-error {error,skip}", 2)[2])
    assert "one-line warning (default: skip)" in text.split("--")[0]
    for a in ("ann1", "ann2"):
        shutil.copytree(SAMPLES / "trees" / "rs3" / a, tmp_path / a)
    (tmp_path / "ann2" / "broken.rs3").write_text("<rst><body><segment id='1' parent='9'>x"
                                                  "</segment></body></rst>")
    status, out, err = cli("trees", tmp_path / "ann1", tmp_path / "ann2", "--format", "json")
    assert status == 0, err
    assert "not a tree, left out" in out
