"""WebAnno TSV 3 reader: fixtures in tests/data/coref_a/webanno_tsv (ann1: two chain layers,
one with swapped feature columns, stacked cells, a sub-token; ann2: a minimal header)."""

from __future__ import annotations

import pytest

from corpusagree.model.chains import check_chains
from corpusagree.model.errors import InputError
from corpusagree.readers import webanno_tsv

from support import DATA as TEST_DATA

DATA = TEST_DATA / "coref_a" / "webanno_tsv"


@pytest.fixture(scope="module")
def anns():
    return {a.annotator: a for a in webanno_tsv.read([DATA / "ann1", DATA / "ann2"])}


def test_sniff():
    assert webanno_tsv.sniff(DATA / "ann1")
    assert webanno_tsv.sniff(DATA / "ann1" / "doc1.tsv")
    assert not webanno_tsv.sniff(DATA / "bad" / "header.tsv")


def test_tokens_and_sentences(anns):
    doc = anns["ann1"].document
    assert doc.id == "doc1"
    assert doc.tokens == ["Ann", "saw", "Tom's", "dog", ".", "He", "fed", "it", "."]
    assert doc.sentence_starts == [0, 5]
    assert anns["ann2"].document.tokens == doc.tokens


def test_chains_stacks_subtokens_and_layers(anns):
    ann = anns["ann1"]
    assert [(c.id, c.members) for c in ann.chains] == [
        ("Animacy:1", ["Animacy:1-1", "Animacy:1-2"]),
        ("Coreference:1", ["Coreference:1-1", "Coreference:1-2"]),
        ("Coreference:2", ["Coreference:2-1", "Coreference:2-2"]),
        ("Coreference:3", ["Coreference:3-1"]),
        ("Coreference:4", ["Coreference:4-1"])]  # stacked on "it"
    m = ann.mentions
    assert m["Coreference:2-1"].fragments == ((2, 4),)  # "Tom's dog"
    assert m["Coreference:1-1"].fragments == ((2, 3),)  # sub-token "Tom" -> token "Tom's"
    assert m["Coreference:1-2"].attrs == {"layer": "Coreference", "referenceType": "PRO",
                                          "text": "He"}
    # feature columns in header order: AnimacyLink declares referenceRelation first
    assert m["Animacy:1-1"].attrs["referenceType"] == "animal"
    assert [(k.source, k.target, k.type, k.attrs["relation"]) for k in ann.links] == [
        ("Animacy:1-2", "Animacy:1-1", "Animacy", "coref"),
        ("Coreference:1-2", "Coreference:1-1", "Coreference", "coref"),
        ("Coreference:2-2", "Coreference:2-1", "Coreference", "coref")]
    assert check_chains(ann).clean


BAD = [
    ("nochain", "nochain.tsv: no coreference layer: no chain layer (#T_CH=) declared"),
    ("columns", "columns.tsv:7: expected a token row of 5 tab-separated columns"),
    ("cell", "cell.tsv:6: Coreference: expected TYPE[chain] and REL->chain-link, got 'PER[1]' "
             "and 'coref->2-1'"),
    ("header", "header.tsv:1: not a WebAnno TSV 3 file (no #FORMAT=WebAnno TSV 3 header)"),
]


@pytest.mark.parametrize(("name", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input(name, message):
    with pytest.raises(InputError) as e:
        webanno_tsv.read([DATA / "bad" / f"{name}.tsv"])
    assert str(e.value) == f"{DATA / 'bad'}/{message}"
