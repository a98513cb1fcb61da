"""sample_corpora/senses: the same tags in Raganato XML + keys and in the long TSV, the same
grouping in the OntoNotes XML and TSV inventories, and the cases the README promises."""

from __future__ import annotations

import pytest

from corpusagree.model.corpus import SenseTag
from corpusagree.readers import inventory, raganato, sensetsv

from support import SAMPLES

SAMPLE = SAMPLES / "senses"


def comparable(tags: list[SenseTag]) -> set[tuple]:
    return {(t.item, t.annotator, t.senses, t.lemma, t.document) for t in tags}


@pytest.fixture(scope="module")
def tags() -> list[SenseTag]:
    return raganato.read(SAMPLE / "sample.data.xml", sorted((SAMPLE / "keys").glob("*.key.txt")))


@pytest.fixture(scope="module")
def edges() -> list[tuple[str, str]]:
    return inventory.read_xml(sorted((SAMPLE / "inventory").glob("*.xml")))


def extended(sense: str, edges: list[tuple[str, str]]) -> set[str]:
    """The sense and everything above it (Artstein & Poesio's es(s))."""
    out, todo = set(), [sense]
    while todo:
        s = todo.pop()
        out.add(s)
        todo += [p for c, p in edges if c == s and p not in out]
    return out


def passonneau(a: set[str], b: set[str]) -> float:
    if a == b:
        return 0.0
    if a < b or b < a:
        return 1 / 3
    return 2 / 3 if a & b else 1.0


def test_formats_give_identical_tags(tags):
    assert len(tags) == 32
    assert comparable(sensetsv.read(SAMPLE / "sample.tsv")) == comparable(tags)


def test_inventory_formats_give_identical_edges(edges):
    assert len(edges) == 25
    assert set(inventory.read_tsv(SAMPLE / "inventory.tsv")) == set(edges)


def test_corpus_shape(tags, edges):
    assert {t.annotator for t in tags} == {"A", "B", "C"}
    assert {t.lemma for t in tags} == {"call", "board", "draw"}
    assert len({t.item for t in tags}) == 11
    assert {t.document for t in tags} == {"d001", "d002"}
    assert [t.item for t in tags if len(t.senses) > 1] == ["d002.s003.t000"]
    nodes = {n for e in edges for n in e}
    assert {s for t in tags for s in t.senses} <= nodes


def test_call_group_1(edges):
    group1 = {c for c, p in edges if p == "call.v.G1"}
    assert group1 == {"call.v.LABEL", "call.v.SEE", "call.v.ADDRESS"}
    below = {c for c, p in edges if p in group1}
    assert below == {"call.v.WN1", "call.v.WN3", "call.v.WN19", "call.v.WN22"}
    assert extended("call.v.WN1", edges) == {"call.v.WN1", "call.v.LABEL", "call.v.G1"}


def test_seed_examples(tags, edges):
    by = {(t.item, t.annotator): next(iter(t.senses)) for t in tags}
    es = {k: extended(s, edges) for k, s in by.items()}
    a, b = "d001.s000.t000", "d001.s004.t000"
    assert (by[a, "A"], by[a, "B"]) == ("call.v.WN1", "call.v.WN3")
    assert passonneau(es[a, "A"], es[a, "B"]) == pytest.approx(2 / 3)
    assert (by[b, "A"], by[b, "B"]) == ("call.v.WN1", "call.v.LABEL")
    assert passonneau(es[b, "A"], es[b, "B"]) == pytest.approx(1 / 3)
