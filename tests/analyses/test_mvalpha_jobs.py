"""mvα as a row of the set-label tables of every job (table --set-sep, senses multi/extended,
coref chains, markables set-valued attributes), in JSON, CSV and HTML, with the per-value
diagnostics table where diagnostics are asked. Each row equals ``ca.mv_alpha`` on the data the
job scores (mvα itself is checked against the paper, the R package mvalpha and a brute force
in tests/stats/test_mvalpha.py)."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

import corpusagree as ca
from corpusagree.analyses import coref, markables, senses, table
from corpusagree.convert import coref as conv

from support import DATA, SAMPLES

SETS = ("coder,item,label,doc\n"
        "a,1,x|y,d1\nb,1,x,d1\nc,1,x|y,d1\n"
        "a,2,z,d1\nb,2,z,d1\nc,2,z|w,d1\n"
        "a,3,|,d2\nb,3,y,d2\nc,3,|,d2\n"
        "a,4,x|z,d2\nb,4,x|z,d2\nc,4,,d2\n"
        "a,5,w,d3\nb,5,w|y,d3\nc,5,w,d3\n")


def by_id(rows) -> dict:
    return {e.id: e for e in rows}


@pytest.fixture
def sets_file(tmp_path) -> Path:
    p = tmp_path / "sets.csv"
    p.write_text(SETS)
    return p


# ---- table --------------------------------------------------------------------------------------
def test_table_job_has_an_mvalpha_row_on_set_cells(sets_file):
    corpus = table.read(sets_file, set_sep="|", group="doc")
    report = table.analyse(corpus, distance="jaccard",
                           bootstrap=ca.Bootstrap(n_resamples=50, seed=1))
    rows = by_id(report.coefficients)
    mv = rows["mv_alpha"]
    want = ca.mv_alpha(corpus.data)
    assert mv.value == pytest.approx(want.value, abs=1e-12)
    assert mv.result.distance == "dice" and mv.interval is not None
    assert mv.interval.clustered and mv.interval.units == 3  # resampled by document
    again = want.confidence_interval(n_resamples=50, seed=1)
    np.testing.assert_allclose(mv.interval.distribution, again.distribution)
    # the empty set (a bare |) is a value; an empty cell is missing
    assert corpus.data.label(int(corpus.data.codes[0, 2])) == frozenset()
    assert corpus.data.codes[2, 3] == -1
    notes = report.tables["coefficients"].notes
    assert any(n.startswith("mvα (Krippendorff & Craggs 2016)") for n in notes)


def test_table_job_has_no_mvalpha_row_on_plain_labels():
    report = table.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv"))
    assert "mv_alpha" not in by_id(report.coefficients)
    assert not any("mvα" in n for n in report.tables["coefficients"].notes)


def test_table_job_value_diagnostics(sets_file):
    corpus = table.read(sets_file, set_sep="|")
    report = table.analyse(corpus, diagnostics=3)
    t = report.tables["value_disagreement"]
    got = {r[0]: r[2] for r in t.rows}
    want = {r["value"]: r["contribution"] for r in
            ca.stats.diagnostics.value_disagreement(corpus.data).rows}
    assert got == pytest.approx(want)
    assert sum(got.values()) == pytest.approx(ca.mv_alpha(corpus.data).observed)
    d = report.to_dict()["diagnostics"]["value_disagreement"]
    assert d["total"] == 4 and d["observed"] == pytest.approx(sum(got.values()))
    plain = table.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv"), diagnostics=3)
    assert "value_disagreement" not in plain.tables
    assert plain.to_dict()["diagnostics"]["value_disagreement"] is None


def test_table_job_outputs_carry_the_row(sets_file, cli, tmp_path):
    status, out, err = cli("table", sets_file, "--set-sep", "|", "--json")
    assert status == 0, err
    doc = json.loads(out)
    mv = [c for c in doc["coefficients"] if c["id"] == "mv_alpha"]
    assert len(mv) == 1 and mv[0]["symbol"] == "mvα" and mv[0]["distance"] == "dice"
    data = ca.ReliabilityData.from_csv(sets_file, set_sep="|")
    assert mv[0]["value"] == pytest.approx(ca.mv_alpha(data).value)
    status, out, err = cli("table", sets_file, "--set-sep", "|", "--format", "csv")
    assert status == 0, err
    cells = list(csv.DictReader(io.StringIO(out)))
    row = next(c["row"] for c in cells if c["column"] == "id" and c["value"] == "mv_alpha")
    value = next(c["value"] for c in cells if c["row"] == row and c["column"] == "value"
                 and c["table"] == "coefficients")
    assert float(value) == pytest.approx(ca.mv_alpha(data).value)
    page = tmp_path / "r.html"
    status, _, err = cli("table", sets_file, "--set-sep", "|", "--diagnostics", "2",
                         "--html", page)
    assert status == 0, err
    text = page.read_text(encoding="utf-8")
    assert "mvα" in text and 'data-table="value_disagreement"' in text
    status, out, err = cli("table", sets_file, "--set-sep", "|")  # the terminal, 80 columns
    assert status == 0 and re.search(r"^mvα\s+dice\s+-?\d", out, re.M), out
    assert max(map(len, out.splitlines())) <= 80


# ---- senses -------------------------------------------------------------------------------------
def test_senses_set_schemes_have_an_mvalpha_row():
    corpus = senses.read(SAMPLES / "senses" / "sample.tsv")
    report = senses.analyse(corpus, inventories=[SAMPLES / "senses" / "inventory.tsv"],
                            bootstrap=ca.Bootstrap(n_resamples=30, seed=2))
    seen = set()
    for s in report.schemes:
        rows = by_id(s.coefficients)
        if s.scheme in ("multi", "extended"):
            seen.add(s.scheme)
            assert rows["mv_alpha"].value == pytest.approx(ca.mv_alpha(s.data).value,
                                                           abs=1e-12)
            assert rows["mv_alpha"].interval is not None
        else:  # fine and coarse compare whole tags, nominally
            assert "mv_alpha" not in rows
    assert seen == {"multi", "extended"}
    frame = report.to_frame("coefficients")
    assert sorted(frame[frame.id == "mv_alpha"]["scheme"]) == ["extended [inventory.tsv]",
                                                              "multi"]


# ---- coref --------------------------------------------------------------------------------------
def test_coref_chains_have_an_mvalpha_row_and_value_diagnostics():
    corpus = coref.read(SAMPLES / "coref" / "brat")
    report = coref.analyse(corpus, bootstrap=ca.Bootstrap(n_resamples=40, seed=3),
                           diagnostics=5)
    data = conv.to_data(conv.align(corpus.data))
    mv = by_id(report.coefficients)["mv_alpha"]
    assert mv.value == pytest.approx(ca.mv_alpha(data).value, abs=1e-12)
    assert mv.interval.clustered and mv.interval.units == 5  # documents
    assert mv.result.observed == pytest.approx(ca.alpha(data, "dice").observed)
    t = report.tables["value_disagreement"]
    assert [c.key for c in t.columns[:2]] == ["value", "mention"]
    assert all(r[1] for r in t.rows)  # every value (a mention) shown by its words
    assert report.tables["coefficients"].rows[-1][0] == "mv_alpha"


# ---- markables ----------------------------------------------------------------------------------
EMOTIONS = {"a1": ["joy|anger", "joy", "", "fear"], "a2": ["joy", "joy", "sad", "fear|joy"],
            "a3": ["anger|joy", "joy|sad", "", "fear"]}


@pytest.fixture
def emotion_corpus(tmp_path) -> Path:
    """The markables fixture with a set-valued attribute ``emotion`` on every phrase."""
    root = tmp_path / "corpus"
    shutil.copytree(DATA / "markables" / "corpus", root)
    for ann, values in EMOTIONS.items():
        for f in sorted((root / ann / "markables").glob("*_phrase_level.xml")):
            tree = etree.parse(str(f), etree.XMLParser(resolve_entities=False, no_network=True,
                                                       load_dtd=False))
            for k, m in enumerate(tree.getroot()):
                m.set("emotion", values[k % len(values)])
            tree.write(str(f), xml_declaration=True, encoding="UTF-8")
    return root


def tokens(span: str) -> frozenset:
    """MMAX2 span text (``word_3..word_5,word_8``) as a set of word numbers."""
    out = set()
    for part in span.split(","):
        a, _, b = part.partition("..")
        lo, hi = int(a.split("_")[1]), int((b or a).split("_")[1])
        out.update(range(lo, hi + 1))
    return frozenset(out)


def emotion_triples(root: Path) -> list[tuple]:
    """(annotator, (document, tokens), set) read straight from the XML: markables aligned by
    identical token sets (each is marked once per annotator in the fixture)."""
    out = []
    for ann in EMOTIONS:
        for f in sorted((root / ann / "markables").glob("*_phrase_level.xml")):
            for m in etree.parse(str(f)).getroot():
                parts = {x.strip() for x in m.get("emotion").split("|") if x.strip()}
                out.append((ann, (f.name.split("_")[0], tokens(m.get("span"))),
                            frozenset(parts)))
    return out


def test_markables_set_valued_attribute_has_an_mvalpha_row(emotion_corpus):
    report = markables.analyse(markables.read(emotion_corpus), set_sep="|")
    [level] = report.levels
    attrs = {a.attribute: a for a in level.attributes}
    rows = by_id(attrs["emotion"].agreement.coefficients)
    want = ca.mv_alpha(ca.ReliabilityData.from_triples(emotion_triples(emotion_corpus)))
    assert rows["mv_alpha"].value == pytest.approx(want.value, abs=1e-12)
    assert rows["mv_alpha"].result.items == want.items
    # a single-valued attribute read as sets: mvα is its nominal α
    pol = by_id(attrs["polarity"].agreement.coefficients)
    assert pol["mv_alpha"].value == pytest.approx(pol["alpha"].value, abs=1e-12)
    assert "joy|anger" not in attrs["emotion"].values and "anger|joy" in attrs["emotion"].values
    assert "{}" in attrs["emotion"].values  # the empty value: the empty set
    t = report.tables["attribute_agreement"]
    assert "mvα" in t.title and any(r[2] == "mv_alpha" for r in t.rows)
    assert report.options["set_sep"] == "|"


def test_markables_without_set_sep_have_no_mvalpha(emotion_corpus):
    report = markables.analyse(markables.read(emotion_corpus))
    for a in report.levels[0].attributes:
        assert "mv_alpha" not in by_id(a.agreement.coefficients)
    assert "joy|anger" in report.levels[0].attributes[-1].values


def test_markables_cli_set_sep(emotion_corpus, cli_json):
    doc = cli_json("markables", emotion_corpus, "--set-sep", "|", "--ci", "--resamples", "20")
    attrs = {a["attribute"]: a for a in doc["levels"][0]["attributes"]}
    mv = next(c for c in attrs["emotion"]["coefficients"] if c["id"] == "mv_alpha")
    want = ca.mv_alpha(ca.ReliabilityData.from_triples(emotion_triples(emotion_corpus)))
    assert mv["value"] == pytest.approx(want.value, abs=1e-12)
    assert mv["interval"] is not None and doc["options"]["set_sep"] == "|"


def test_jobs_say_why_mvalpha_is_left_out(sets_file, monkeypatch):
    from corpusagree.stats import mvalpha

    monkeypatch.setattr(mvalpha, "POINT_BUDGET", 1.0)
    report = table.analyse(table.read(sets_file, set_sep="|"), distance=["dice", "masi"])
    assert "mv_alpha" not in by_id(report.coefficients)
    assert [n for n in report.notes if n.startswith("mvα left out")] == [
        "mvα left out: its expected disagreement over 4 values in sets of up to 2 would "
        "take about 6.0e+01 cell updates (the limit is 1e+00); corpusagree.mv_alpha(data) "
        "computes it in Python"]
    monkeypatch.setattr(mvalpha, "POINT_BUDGET", 1e9)
    monkeypatch.setattr(mvalpha, "RESAMPLE_BUDGET", 1.0)
    report = coref.analyse(coref.read(SAMPLES / "coref" / "brat"),
                           bootstrap=ca.Bootstrap(n_resamples=20, seed=0))
    mv = by_id(report.coefficients)["mv_alpha"]
    assert np.isnan(mv.interval.low) and any(n.startswith("mvα (dice): no interval")
                                             for n in report.notes)
    assert by_id(report.coefficients)["alpha"].interval.low < 1
