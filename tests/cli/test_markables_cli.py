"""``corpusagree markables``: the JSON equals the API, the options (--levels, --attribute,
--match, --annotators, intervals) reach the analysis, every output format works, and bad input
is one line ``file:line: message`` with exit status 2."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from corpusagree.analyses import markables as mk
from corpusagree.report import json as report_json
from corpusagree.stats.inference import Bootstrap

from support import DATA

FIXTURE = DATA / "markables" / "corpus"


def test_json_equals_report_to_dict(cli_json):
    doc = cli_json("markables", FIXTURE, "--ci", "--resamples", "100", "--seed", "3")
    report = mk.analyse(mk.read([FIXTURE]), bootstrap=Bootstrap(100, seed=3))
    assert doc == json.loads(report_json.dumps(report))
    assert doc["job"] == "markables" and doc["format"] == "mmax2"
    assert doc["bootstrap"] == {"n_resamples": 100, "level": 0.95, "interval": "percentile",
                                "cluster": None, "seed": 3}


def test_options(cli_json):
    out = cli_json("markables", FIXTURE, "--levels", "phrase,sentence")
    assert [lv["level"] for lv in out["levels"]] == ["phrase", "sentence"]
    assert out["options"]["levels"] == ["phrase", "sentence"]
    again = cli_json("markables", FIXTURE, "--levels", "phrase", "--levels", "sentence")
    assert again["levels"] == out["levels"]
    out = cli_json("markables", FIXTURE, "--attribute", "ref", "--attribute", "polarity")
    assert [a["attribute"] for a in out["levels"][0]["attributes"]] == ["ref", "polarity"]
    lv = cli_json("markables", FIXTURE, "--match", "overlap")["levels"][0]
    assert (lv["aligned"], lv["unaligned"]) == (6, 2)
    named = cli_json("markables", FIXTURE / "a1", FIXTURE / "a2", "--annotators", "x,y")
    assert named["annotators"] == ["x", "y"]
    inside = cli_json("markables", FIXTURE, "--annotators", "x,y,z")  # the projects in a folder
    assert inside["annotators"] == ["x", "y", "z"]


def test_intervals_by_document_or_item(cli_json):
    lv = cli_json("markables", FIXTURE, "--ci", "--resamples", "200")["levels"][0]
    for family in (lv["token_agreement"], lv["attributes"][0]):
        alpha = family["coefficients"][0]
        assert alpha["interval"]["clustered"] and alpha["interval"]["units"] == 2
        assert alpha["interval"]["n_resamples"] == 200
        assert family["coefficients"][1]["id"] == "multi_kappa"
    lv = cli_json("markables", FIXTURE, "--ci", "0.9", "--resamples", "50", "--cluster",
                  "item")["levels"][0]
    iv = lv["token_agreement"]["coefficients"][0]["interval"]
    assert not iv["clustered"] and iv["units"] == 18 and iv["level"] == 0.9


def test_text_output_says_what_each_figure_is(cli):
    code, text, _ = cli("markables", FIXTURE, "--match", "overlap", "--ci", "--resamples", "50")
    assert code == 0
    for words in ("Span agreement per level (overlap match)", "Token agreement", "span F1",
                  "phrase: pairwise span F1", "polarity", "2·matched / (n_a + n_b)",
                  "Attribute agreement over aligned markables", "multi-κ",
                  "50 resamples of 2 clusters, seed 0"):
        assert words in text
    assert max(map(len, text.splitlines())) <= 80


@pytest.mark.parametrize("fmt,expect", [
    ("csv", "table,row,column,value\nspans,0,level,phrase\nspans,0,markables,6 / 7 / 4\n"),
    ("md", "| level | markables | aligned | unaligned | span F1 |"),
])
def test_formats(cli, tmp_path, fmt, expect):
    code, out, _ = cli("markables", FIXTURE, "--format", fmt)
    assert code == 0 and expect in out
    target = tmp_path / f"out.{fmt}"
    code, nothing, _ = cli("markables", FIXTURE, "--format", fmt, "--output", target)
    assert code == 0 and not nothing and target.read_text(encoding="utf-8") == out


def test_frozen_sample_still_runs(cli_json, samples):
    """The sample corpus, as the frozen file and the report job run it."""
    out = cli_json("markables", samples / "coref" / "mmax2")
    assert out["annotators"] == ["ann1", "ann2", "ann3"] and out["documents"] == 5
    assert out["levels"][0]["span_f1"]["mean"] == pytest.approx(0.9689050421137648, abs=1e-12)


# ---- bad input ---------------------------------------------------------------------------------
@pytest.fixture
def corpus_copy(tmp_path):
    return shutil.copytree(FIXTURE, tmp_path / "corpus")


def fails(cli, *args) -> str:
    code, _, err = cli("markables", *args)
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    return err


def test_pointer_to_undefined_markable(cli, corpus_copy):
    f = corpus_copy / "a2" / "markables" / "d1_phrase_level.xml"
    f.write_text(f.read_text().replace('ref="markable_2"', 'ref="markable_99"'))
    assert re.match(rf"{re.escape(str(f))}:6: .*undefined markable 'markable_99'",
                    fails(cli, corpus_copy))


def test_malformed_xml(cli, corpus_copy):
    f = corpus_copy / "a1" / "markables" / "d2_phrase_level.xml"
    f.write_text(f.read_text().replace("</markables>", "</markable>"))
    assert re.match(rf"{re.escape(str(f))}:\d+: ", fails(cli, corpus_copy))


def test_unknown_level_attribute_and_one_annotator(cli):
    assert "not declared" in fails(cli, FIXTURE, "--levels", "np")
    assert "attribute(s) colour on no markable" in fails(cli, FIXTURE, "--attribute", "colour")
    assert "two or more annotators" in fails(cli, FIXTURE / "a1")
    assert "no such file" in fails(cli, FIXTURE / "nowhere")
    assert "2 names for the 3 projects found (a1, a2, a3)" in fails(cli, FIXTURE, "--annotators",
                                                                     "x,y")
    assert "argument --resamples: expected an integer ≥ 2, not '1'" in fails(
        cli, FIXTURE, "--ci", "--resamples", "1")


def test_undefined_values_are_explained_on_stderr_and_in_the_notes(cli, tmp_path):
    """α/κ printed as '—' always come with their reason: a warning line and a note."""
    root = tmp_path / "corpus"
    shutil.copytree(FIXTURE, root)
    for f in root.glob("a*/markables/*_phrase_level.xml"):
        f.write_text(f.read_text(encoding="utf-8").replace(
            'mmax_level="phrase"', 'degree="high" mmax_level="phrase"'), encoding="utf-8")
    code, out, err = cli("markables", root, "--attribute", "degree")
    assert code == 0
    why = "phrase degree: α undefined: every value of 'degree' is 'high' (no expected " \
        "disagreement)"
    assert f"warning: {why}" in err.splitlines()
    assert all(line.startswith("warning: ") for line in err.strip().splitlines())
    assert "note: phrase degree: α undefined: every value of 'degree' is 'high'" in out


def test_common_paths_option(cli, cli_json, tmp_path):
    """A project whose global_common_paths.xml is elsewhere (MMAX2-Showcase's layout, the file
    moved): the error names --common-paths, and the job takes it."""
    collection = tmp_path / "collection"
    shutil.copytree(DATA / "coref_variants" / "mmax2_showcase" / "collection", collection)
    shared = collection / "shared_common_paths.xml"
    (collection / "common_files" / "global_common_paths.xml").rename(shared)
    project = collection / "P" / "P01-1001"
    shutil.copytree(project, collection / "P" / "second")
    paths = (project, collection / "P" / "second")
    assert "pass --common-paths FILE" in fails(cli, *paths)
    out = cli_json("markables", *paths, "--common-paths", shared, "--levels", "coref")
    assert out["annotators"] == ["P01-1001", "second"]
