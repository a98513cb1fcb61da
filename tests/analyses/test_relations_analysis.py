"""The relations job in Python: its corpus (a kind of its own), its keywords checked first,
and the same figures as the command line."""

from __future__ import annotations

import json

import pytest

from corpusagree.analyses import relations, spans

from support import ROOT

BRAT = [ROOT / "tests" / "data" / "relations" / "brat" / x for x in ("a", "b")]


@pytest.fixture(scope="module")
def corpus():
    return relations.read(BRAT)


def test_the_corpus_of_relations(corpus):
    assert corpus.kind == "relations" and corpus.annotators and corpus.inputs
    again = relations.as_corpus(corpus.data)
    assert again.kind == "relations" and again.annotators == corpus.annotators


def test_another_job_says_which_jobs_take_relations(corpus):
    with pytest.raises(TypeError, match=r"not a relations corpus of relations \(the "
                       r"relations job takes it\)"):
        spans.analyse(corpus)


@pytest.mark.parametrize("keyword, value, error", [
    ("match", "nope", ValueError), ("directed", "yes", TypeError), ("diagnostics", 0, ValueError)])
def test_keywords_are_checked_first(keyword, value, error):
    with pytest.raises(error, match=rf"relations.analyse\(\): {keyword} must be"):
        relations.analyse(None, **{keyword: value})


def test_python_and_the_command_line_agree(corpus, cli):
    status, out, err = cli("relations", *BRAT, "--json", "--match", "overlap")
    assert status == 0, err
    python = json.loads(relations.analyse(corpus, match="overlap").to_json())
    doc = json.loads(out)
    assert doc["options"]["match"] == "overlap"
    assert {k: v for k, v in doc.items() if k != "corpusagree"} == \
        {k: v for k, v in python.items() if k != "corpusagree"}


DATA = ROOT / "tests" / "data"
ONE = {"brat": [DATA / "relations" / "brat" / "a"],
       "webanno_tsv": [DATA / "relations" / "webanno" / "a"],
       "xmi": [DATA / "relations" / "xmi" / "a"],
       "disrpt": [DATA / "fuzz" / "rels" / "a"]}


@pytest.mark.parametrize("fmt", list(ONE))
def test_one_annotator_is_one_line(fmt, cli):
    """Issue 37, 5: one annotator was numpy's "no item has two or more judgements" from the
    kernel, in every relation format."""
    status, _, err = cli("relations", *ONE[fmt])
    assert status == 2, err
    assert "only one annotator" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("fmt", ["brat", "disrpt"])
def test_no_document_in_common_is_one_line(fmt, cli, tmp_path):
    """Issue 37, 5: two annotators with no document in common."""
    import shutil

    first = ONE[fmt][0]
    other = tmp_path / "b"
    other.mkdir()
    for f in first.parent.joinpath("b").iterdir():
        if fmt == "disrpt":  # documents named in the first column
            head, *rows = f.read_text().splitlines(keepends=True)
            (other / f.name).write_text(head + "".join("other_" + r for r in rows))
        else:  # documents named by their files
            shutil.copy(f, other / ("other_" + f.name))
    status, _, err = cli("relations", first, other)
    assert status == 2, err
    assert "no document annotated by two or more of the 2 annotators" in err
    assert "'other_" in err and "Traceback" not in err


def test_no_relation_in_common_is_one_line(tmp_path):
    from corpusagree.model.errors import InputError

    a, b = (tmp_path / x for x in "ab")
    for folder, rel in ((a, "R1\tCause Arg1:T2 Arg2:T1"), (b, "R1\tCause Arg1:T1 Arg2:T2")):
        folder.mkdir()
        (folder / "d.txt").write_text("Mary left because she was tired\n")
        (folder / "d.ann").write_text(f"T1\tUnit 0 9\tMary left\nT2\tUnit 10 31\tbecause she "
                                      f"was tired\n{rel}\n")
    with pytest.raises(InputError, match="none of the 2 relations is marked by two or more"):
        relations.analyse(relations.read([a, b]))
