"""MMAX2 reader: fixtures in tests/data/coref_a/mmax2, plus the real PotTS subset when present."""

from __future__ import annotations

import warnings
from collections import Counter

import pytest

from corpusagree.model.chains import check_chains
from corpusagree.model.errors import InputError
from corpusagree.readers import mmax2

from support import CORPORA
from support import DATA as TEST_DATA

DATA = TEST_DATA / "coref_a" / "mmax2"
POTTS = CORPORA / "potts_mmax2_subset" / "corpus"


def by_annotator(paths, **options):
    return {a.annotator: a for a in mmax2.read(paths, **options)}


def members(ann):
    return sorted(sorted(c.members) for c in ann.chains)


def test_sniff():
    assert mmax2.sniff(DATA / "corpus")
    assert mmax2.sniff(DATA / "corpus" / "ann1")
    assert mmax2.sniff(DATA / "corpus" / "ann1" / "doc1.mmax")
    assert not mmax2.sniff(DATA / "corpus" / "basedata")
    assert not mmax2.sniff(DATA / "corpus" / "basedata" / "doc1_words.xml")


def test_shared_basedata_layout_tokens_and_sentences():
    anns = by_annotator([DATA / "corpus"])
    assert set(anns) == {"ann1", "ann2"}
    doc = anns["ann1"].document
    assert doc.id == "doc1"
    assert doc.tokens[:3] == ["Ada", "fixed", "the"]
    assert doc.tokens[12] == "café"  # numeric character reference, BOM, backslash paths
    assert len(doc.tokens) == 18
    assert doc.sentence_starts == [0, 6, 11]
    assert anns["ann2"].document.tokens == doc.tokens


def test_set_attribute_chains_discontinuous_and_singletons():
    ann = by_annotator([DATA / "corpus"], levels=["coref"])["ann1"]
    m = ann.mentions
    assert set(m) == {f"coref:markable_{i}" for i in range(1, 8)}
    assert m["coref:markable_2"].fragments == ((2, 5),)
    assert m["coref:markable_5"].fragments == ((11, 12), (15, 16))  # "The ... shop"
    # a range over a word id missing from the base data (word_13) follows base-data order
    assert m["coref:markable_6"].fragments == ((11, 16),)
    assert m["coref:markable_1"].attrs == {"level": "coref", "id": "markable_1", "span": "word_1",
                                           "coref_set": "set_1", "np_form": "name"}
    assert members(ann) == [["coref:markable_1", "coref:markable_3"],
                            ["coref:markable_2", "coref:markable_4"],
                            ["coref:markable_5"], ["coref:markable_6"], ["coref:markable_7"]]
    assert ann.links == []
    assert check_chains(ann).clean


def test_set_attribute_found_through_the_scheme():
    ann = by_annotator([DATA / "corpus" / "ann1"], levels=["coref"], set_attributes=())["ann1"]
    assert ["coref:markable_1", "coref:markable_3"] in members(ann)


def test_pointer_chains_multi_target_and_cross_level_links():
    ann = by_annotator([DATA / "corpus"], levels=["coref"])["ann2"]
    # unsorted fragments are sorted
    assert ann.mentions["coref:markable_5"].fragments == ((11, 12), (15, 16))
    assert members(ann) == [["coref:markable_1", "coref:markable_3"],
                            ["coref:markable_2", "coref:markable_4"],
                            ["coref:markable_5", "coref:markable_6"]]
    links = sorted((k.source, k.target, k.type) for k in ann.links)
    assert links == [
        ("coref:markable_3", "coref:markable_1", "antecedent"),
        ("coref:markable_4", "coref:markable_2", "antecedent"),
        ("coref:markable_4", "sentence:markable_2", "scope"),  # undeclared attr, pointer-shaped
        ("coref:markable_6", "coref:markable_2", "bridging_antecedent"),
        ("coref:markable_6", "coref:markable_4", "bridging_antecedent"),
        ("coref:markable_6", "coref:markable_5", "antecedent"),
    ]


def test_identity_pointers_are_configurable():
    ann = by_annotator([DATA / "corpus" / "ann2"], levels=["coref"],
                       identity_pointers=("bridging_antecedent",))["ann2"]
    assert ["coref:markable_2", "coref:markable_4", "coref:markable_6"] in members(ann)


def test_all_levels_by_default_with_level_in_attrs():
    ann = by_annotator([DATA / "corpus" / "ann1"])["ann1"]
    assert Counter(m.attrs["level"] for m in ann.mentions.values()) == {"coref": 7, "sentence": 3}
    assert ann.mentions["sentence:markable_3"].attrs["orderid"] == "2"


def test_annotator_ids_given_and_project_file_path():
    anns = mmax2.read([DATA / "corpus" / "ann1" / "doc1.mmax"], annotators=["alice"])
    assert [a.annotator for a in anns] == ["alice"]
    with pytest.raises(InputError, match="2 annotator ids for 1 paths"):
        mmax2.read([DATA / "corpus"], annotators=["a", "b"])


BAD = [
    ("pointer", "pointer_coref_level.xml:4: markable 'markable_2': antecedent='markable_9' "
                "points to undefined markable 'markable_9' on level 'coref'"),
    ("level", "level_coref_level.xml:3: markable 'markable_1': antecedent='group:markable_1' "
              "points to undeclared level 'group'"),
    ("duplicate", "duplicate_coref_level.xml:5: duplicate markable id 'markable_1' "
                  "(first on line 3)"),
    ("span", "span_coref_level.xml:3: span 'word_1,word_13..word_15': "
             "unknown word id 'word_13'"),
    ("malformed", "malformed_coref_level.xml:4: malformed XML: Opening and ending tag mismatch"),
]


@pytest.mark.parametrize(("name", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input(name, message):
    with pytest.raises(InputError) as e:
        mmax2.read([DATA / "bad" / f"{name}.mmax"])
    assert str(e.value).startswith(str(DATA / "bad" / "Markables" / message))


def test_unknown_level_and_missing_paths():
    with pytest.raises(InputError, match=r"common_paths.xml: level\(s\) coreference not declared"):
        mmax2.read([DATA / "corpus" / "ann1"], levels=["coreference"])
    with pytest.raises(InputError, match="no .mmax project files"):
        mmax2.read([DATA / "corpus" / "basedata"])
    with pytest.raises(InputError, match="no such file or directory"):
        mmax2.read([DATA / "nowhere"])


def test_numeric_and_order_expansion_differ_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ann = mmax2.read([DATA / "bad" / "order.mmax"])[0]
    # base data order is word_1, word_3, word_2: the range word_1..word_2 covers all three
    assert ann.mentions["coref:markable_1"].fragments == ((0, 3),)
    assert any("order_coref_level.xml:3: range word_1..word_2" in str(w.message) for w in caught)


def test_different_tokens_across_annotators():
    with pytest.raises(InputError) as e:
        mmax2.read([DATA / "corpus" / "ann1", DATA / "other_tokens"])
    assert str(e.value) == (
        f"{DATA / 'other_tokens' / 'doc1.mmax'}: document 'doc1': annotator 'other_tokens' has "
        f"other tokens than 'ann1' in {DATA / 'corpus' / 'ann1' / 'doc1.mmax'} "
        "(token 4: 'bike' vs 'bicycle')")


# Counts verified independently with grep over the level files (grep -c '<markable ' per level,
# grep -o on the pointer attributes) and a separate regex union-find over anaphref.
POTTS_MARKABLES = {
    "annotator-1": {"negation": 15, "diminisher": 3, "intensifier": 56, "emo-expression": 675,
                    "source": 149, "target": 272, "sentiment": 251},
    "annotator-2": {"negation": 28, "diminisher": 4, "intensifier": 34, "emo-expression": 788,
                    "source": 202, "target": 421, "sentiment": 374},
}
POTTS_LINKS = {
    "annotator-1": {"anaphref": 27, "emo-expression-ref": 65, "sentiment_ref": 25},
    "annotator-2": {"anaphref": 28, "emo-expression-ref": 57, "sentiment_ref": 65},
}
POTTS_CHAIN_SIZES = {"annotator-1": {2: 25}, "annotator-2": {2: 26, 3: 1}}


@pytest.mark.skipif(not POTTS.is_dir(), reason="shared corpora not present")
def test_potts_subset_read_completely():
    anns = mmax2.read([POTTS])
    assert len(anns) == 16
    assert {a.document.id for a in anns} == {
        "1.addition", "1.federal_election", "1.federal_election_addition", "1.general",
        "1.politics", "1.politics_addition", "1.pope_election", "1.pope_election_addition"}
    markables: dict[str, Counter] = {a: Counter() for a in POTTS_MARKABLES}
    links: dict[str, Counter] = {a: Counter() for a in POTTS_MARKABLES}
    sizes: dict[str, Counter] = {a: Counter() for a in POTTS_MARKABLES}
    for ann in anns:
        markables[ann.annotator].update(m.attrs["level"] for m in ann.mentions.values())
        links[ann.annotator].update(k.type for k in ann.links)
        sizes[ann.annotator].update(len(c.members) for c in ann.chains if len(c.members) > 1)
        assert all(k.target in ann.mentions for k in ann.links)
        assert check_chains(ann).clean
    assert markables == POTTS_MARKABLES
    assert links == POTTS_LINKS
    assert sizes == POTTS_CHAIN_SIZES
    gen = next(a for a in anns if a.annotator == "annotator-1" and a.document.id == "1.general")
    assert len(gen.document.tokens) == 1743
    assert gen.document.tokens[23] == "hätte"
    m = gen.mentions["sentiment:markable_256"]
    assert m.fragments == ((817, 825),)
    assert m.attrs["polarity"] == "positive"
    # word ids 652, 653 and 655 are missing from this base data; spans skip them
    fed = next(a for a in anns
               if a.annotator == "annotator-1" and a.document.id == "1.federal_election")
    # word_643..word_651,word_654,word_656..word_663: 9 + 1 + 8 words, one fragment
    assert fed.mentions["sentiment:markable_64"].fragments == ((642, 660),)
