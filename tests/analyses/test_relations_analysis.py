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
