"""The trees job in Python: its corpus, its keywords, and the boundaries of documents whose
EDUs differ, which it compares as the segments job does (through convert and the shared
coefficient rows, not by running that job)."""

from __future__ import annotations

import json

import pytest

from corpusagree.analyses import segments, trees
from corpusagree.convert.trees import pair_trees
from corpusagree.stats.inference import Bootstrap

from support import SAMPLES

RS3 = SAMPLES / "trees" / "rs3"


@pytest.fixture(scope="module")
def corpus():
    return trees.read(RS3)


def test_the_corpus_of_trees(corpus):
    assert corpus.kind == "trees" and corpus.job == "trees"
    assert repr(corpus) == "<Corpus trees (rs3): 2 annotators, 3 documents, 6 trees>"
    assert trees.as_corpus(corpus.data).kind == "trees"


@pytest.mark.parametrize("bootstrap", [None, Bootstrap(50, seed=3)])
def test_boundaries_are_the_segments_jobs_coefficients(corpus, bootstrap):
    """The table of the documents with different EDUs holds the numbers the segments job
    gives on the same segmentations (intervals only with two documents or more, as before)."""
    report = trees.analyse(corpus, bootstrap=bootstrap)
    assert report.data["boundaries_only"] == 1
    pairs = pair_trees(corpus.data, corpus.annotators)
    expected = segments.analyse(segments.corpus_of(pairs.segmentations, corpus.format,
                                                   corpus.inputs)).tables["boundaries"]
    got = report.boundaries
    assert got.title.startswith("Boundaries of the 1 document(s) with different EDUs")
    assert [c.key for c in got.columns] == [c.key for c in expected.columns]
    assert repr(got.rows) == repr(expected.rows) and got.notes == expected.notes  # nan


def test_keywords_are_checked_first():
    with pytest.raises(TypeError, match=r"trees.analyse\(\): binarize must be True or False"):
        trees.analyse(None, binarize="no")


def test_python_and_the_command_line_agree(corpus, cli):
    status, out, err = cli("trees", RS3, "--json")
    assert status == 0, err
    doc = json.loads(out)
    python = json.loads(trees.analyse(trees.read(RS3)).to_json())
    assert doc["parseval"] == python["parseval"] and doc["boundaries"] == python["boundaries"]
