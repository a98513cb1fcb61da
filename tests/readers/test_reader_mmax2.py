"""MMAX2 reader: fixtures in tests/data/coref_a/mmax2 and, in the variants real projects write,
tests/data/coref_variants (MMAX2-Showcase's shared global_common_paths.xml, PCC-like word ids
missing from the base data, repeated word ids), plus the real PotTS subset when present."""

from __future__ import annotations

import os
import shutil
import warnings
from collections import Counter

import pytest

from corpusagree.model.chains import check_chains
from corpusagree.model.errors import InputError
from corpusagree.readers import mmax2

from support import CORPORA
from support import DATA as TEST_DATA

DATA = TEST_DATA / "coref_a" / "mmax2"
VARIANTS = TEST_DATA / "coref_variants"
SHOWCASE = VARIANTS / "mmax2_showcase" / "collection"
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
    named = mmax2.read([DATA / "corpus"], annotators=["a", "b"])  # its annotator folders
    assert [a.annotator for a in named] == ["a", "b"]
    with pytest.raises(InputError, match=r"3 names for the 2 projects found \(ann1, ann2\)"):
        mmax2.read([DATA / "corpus"], annotators=["a", "b", "c"])


BAD = [
    ("pointer", "pointer_coref_level.xml:4: markable 'markable_2': antecedent='markable_9' "
                "points to undefined markable 'markable_9' on level 'coref'"),
    ("level", "level_coref_level.xml:3: markable 'markable_1': antecedent='group:markable_1' "
              "points to undeclared level 'group'"),
    ("duplicate", "duplicate_coref_level.xml:5: duplicate markable id 'markable_1' "
                  "(first on line 3)"),
    ("malformed", "malformed_coref_level.xml:4: malformed XML: Opening and ending tag mismatch"),
]


@pytest.mark.parametrize(("name", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input(name, message):
    with pytest.raises(InputError) as e:
        mmax2.read([DATA / "bad" / f"{name}.mmax"])
    assert str(e.value).startswith(str(DATA / "bad" / "Markables" / message))


def test_unknown_word_id_in_a_span_skips_the_markable_with_a_warning():
    with pytest.warns(UserWarning) as rec:
        anns = mmax2.read([DATA / "bad" / "span.mmax"])
    assert [str(w.message) for w in rec] == [
        f"{DATA / 'bad' / 'Markables' / 'span_coref_level.xml'}:3: span 'word_1,word_13..word_15'"
        ": unknown word id 'word_13'; 1 markable(s) naming word ids missing from the base data "
        "skipped"]
    assert anns[0].mentions == {} and len(anns[0].document.tokens) == 18


def test_pcc_markables_on_missing_word_ids_are_skipped_with_their_pointers():
    """The Potsdam Commentary Corpus has markables whose span names word ids its base data
    lacks: those are skipped (and pointers to them), not an error for the whole corpus."""
    with pytest.warns(UserWarning) as rec:
        [ann] = mmax2.read([VARIANTS / "mmax2_pcc" / "coreference"])
    level = VARIANTS / "mmax2_pcc" / "coreference" / "Markables" / "maz-0001_primmark_level.xml"
    assert [str(w.message) for w in rec] == [
        f"{level}:8: span 'word_12..word_13': unknown word id 'word_12'; 1 markable(s) naming "
        "word ids missing from the base data skipped, 1 pointer(s) to them dropped"]
    assert (ann.annotator, ann.document.id) == ("coreference", "maz-0001")
    assert sorted(ann.mentions) == [f"primmark:markable_{i}" for i in (1, 2, 3, 4, 6)]
    assert members(ann) == [["primmark:markable_1", "primmark:markable_3"],
                            ["primmark:markable_2", "primmark:markable_4"],
                            ["primmark:markable_6"]]
    assert [(k.source, k.target) for k in ann.links] == [
        ("primmark:markable_3", "primmark:markable_1"),
        ("primmark:markable_4", "primmark:markable_2")]


def test_repeated_word_ids_warn_and_are_kept():
    folder = VARIANTS / "mmax2_duplicates"
    with pytest.warns(UserWarning) as rec:
        [ann] = mmax2.read([folder])
    assert [str(w.message) for w in rec] == [
        f"{folder / 'Basedata' / 'story_words.xml'}:9: word id 'word_5' given 2 times, the "
        "first of 2 repeated word id(s); every <word> is kept as a token, and spans may not "
        "start or end on a repeated id"]
    assert ann.document.tokens == ["Kim", "met", "Lee", "at", "the", "the", "dock", ".", "She",
                                   "waved", "waved", "."]
    assert ann.mentions["coref:markable_3"].fragments == ((3, 7),)  # at the the dock
    assert ann.mentions["coref:markable_4"].fragments == ((8, 9),)
    assert members(ann) == [["coref:markable_1", "coref:markable_4"], ["coref:markable_2"],
                            ["coref:markable_3"]]


def test_a_span_ending_on_a_repeated_word_id_is_an_error(tmp_path):
    folder = tmp_path / "story"
    shutil.copytree(VARIANTS / "mmax2_duplicates", folder)
    level = folder / "Markables" / "story_coref_level.xml"
    level.write_text(level.read_text().replace('span="word_4..word_6"', 'span="word_4..word_5"'))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InputError) as e:
            mmax2.read([folder])
    assert str(e.value) == (
        f"{level}:6: span 'word_4..word_5': word id 'word_5' is given 2 times in "
        f"{folder / 'Basedata' / 'story_words.xml'}, so the span could mean either word")


def test_shared_global_common_paths_is_found_as_mmax2_showcase_lays_it_out():
    """MMAX2-Showcase keeps one global_common_paths.xml in <collection>/common_files/ (beside
    global_common_paths_with_errors.xml), its paths relative to each .mmax file."""
    for path in (SHOWCASE / "P" / "P01-1001", SHOWCASE / "P" / "P01-1001" / "P01-1001.mmax"):
        [ann] = mmax2.read([path], levels=["coref"])
        assert (ann.annotator, ann.document.id) == ("P01-1001", "P01-1001")
        assert ann.document.sentence_starts == [0, 5]
        assert ann.mentions["coref:markable_2"].fragments == ((5, 7),)  # Our parser
        # coref_class is a markable_set in the shared scheme file
        assert members(ann) == [["coref:markable_1", "coref:markable_4"], ["coref:markable_2"],
                                ["coref:markable_3"]]


def test_without_common_paths_the_message_names_the_option(tmp_path):
    project = tmp_path / "P01-1001"
    shutil.copytree(SHOWCASE / "P" / "P01-1001", project)
    with pytest.raises(InputError) as e:
        mmax2.read([project])
    assert str(e.value) == (
        f"{project / 'P01-1001.mmax'}: no common_paths.xml beside it and no "
        "global_common_paths.xml above it; pass common_paths=FILE")
    [ann] = mmax2.read([project], levels=["coref"],
                       common_paths=SHOWCASE / "common_files" / "global_common_paths.xml")
    assert len(ann.mentions) == 4
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for d in ("a", "b"):
        shutil.copy(SHOWCASE / "common_files" / "global_common_paths.xml", tmp_path / d)
    with pytest.raises(InputError, match="several global_common_paths.xml above it .*; pass "
                       "common_paths=FILE$"):
        mmax2.read([project])


def test_scheme_file_name_too_long_is_one_line(tmp_path):
    project = tmp_path / "p"
    shutil.copytree(DATA / "corpus" / "ann1", project)
    for folder in ("basedata", "schemes"):
        shutil.copytree(DATA / "corpus" / folder, tmp_path / folder)
    common = project / "common_paths.xml"
    common.write_text(common.read_text().replace("coref_scheme.xml", "s" * 300 + ".xml"))
    with pytest.raises(InputError) as e:
        mmax2.read([project])
    assert str(e.value).startswith(f"{common}: cannot use the file name 'sss")
    assert str(e.value).endswith(": File name too long") and "\n" not in str(e.value)


def write_project(folder, ids, spans):
    """A minimal MMAX2 project: base data with word ``ids`` and one coref markable per span."""
    (folder / "Markables").mkdir(parents=True)
    (folder / "common_paths.xml").write_text(
        "<common_paths><markable_path>Markables</markable_path><annotations>"
        '<level name="coref">$_coref_level.xml</level></annotations></common_paths>')
    (folder / "d.mmax").write_text("<mmax_project><words>d_words.xml</words></mmax_project>")
    (folder / "d_words.xml").write_text(
        "<words>" + "".join(f'<word id="{w}">w</word>' for w in ids) + "</words>")
    (folder / "Markables" / "d_coref_level.xml").write_text(
        "<markables>" + "".join(f'<markable id="markable_{i}" span="{s}"/>'
                                for i, s in enumerate(spans)) + "</markables>")
    return folder


def test_sparse_word_ids_in_a_range_take_no_time(tmp_path):
    """Word ids numbered sparsely (word_17 … word_11000000000): MMAX2's numeric expansion is
    checked without building the numeric range (the time: benchmarks/pathological.py)."""
    ids = ["word_17", "word_20", "word_11000000000"]
    write_project(tmp_path / "a", ids, ["word_17..word_11000000000", "word_20"])
    [ann] = mmax2.read([tmp_path / "a"])
    assert ann.mentions["coref:markable_0"].fragments == ((0, 3),)
    # out of numeric order: still checked, and the difference reported
    write_project(tmp_path / "b", ["word_11000000000", "word_17", "word_20"],
                  ["word_17..word_20", "word_11000000000..word_17"])
    with pytest.warns(UserWarning, match=r"d_coref_level.xml:1: range word_11000000000\.\."
                      r"word_17 covers other words numerically .* and 0 other range"):
        mmax2.read([tmp_path / "b"])




def test_range_checks_of_many_markables(tmp_path):
    """n sparse word ids out of numeric order and n markables each ranging over most of them:
    checking MMAX2's numeric expansion costs O(log n) per range, not the range's length (its
    growth: benchmarks/pathological.py)."""
    for n in (150, 1500):
        ids = [f"word_{k * 10**9}" for k in range(1, n + 1)]
        ids[0], ids[1] = ids[1], ids[0]
        folder = write_project(tmp_path / str(n), ids,
                               [f"word_{10**9 * (k % 7 + 3)}..word_{10**9 * (n - k % 5)}"
                                for k in range(n)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            [ann] = mmax2.read([folder])
        assert len(ann.mentions) == n
        shutil.rmtree(folder)


def test_an_element_with_too_many_attributes_is_refused_at_once(tmp_path):
    """Reading attributes through lxml is quadratic in their number: 100,000 attributes on one
    markable are refused in a line, not read for minutes (the time:
    benchmarks/pathological.py)."""
    folder = write_project(tmp_path / "a", ["word_1"], ["word_1"])
    level = folder / "Markables" / "d_coref_level.xml"
    extra = " ".join(f'a{i}="x"' for i in range(100_000))
    level.write_text(f'<markables><markable id="markable_1" span="word_1" {extra}/></markables>')
    with pytest.raises(InputError) as e:
        mmax2.read([folder])
    assert str(e.value) == (f"{level}:1: <markable> has 100002 attributes; more than 1000 is "
                            "not an annotation file")


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


@pytest.mark.parametrize("kind", ["/dev/zero", "pipe"])
def test_base_data_that_is_a_device_or_pipe_is_refused(tmp_path, kind):
    """A file the project names (base data here) that is /dev/zero or a pipe nobody writes to
    is refused before it is read (found by the fuzz suite: 1.7 GB, or a hang)."""
    corpus = tmp_path / "corpus"
    shutil.copytree(DATA / "corpus", corpus)
    words = corpus / "basedata" / "doc1_words.xml"
    words.unlink()
    if kind == "pipe":
        os.mkfifo(words)
    else:
        words.symlink_to(kind)
    with pytest.raises(InputError) as e:
        mmax2.read([corpus / "ann1"])
    assert str(e.value) == f"{words}: not a regular file"


def _special(path, kind):
    """Put ``kind`` where the file ``path`` was."""
    path.unlink()
    if kind == "folder":
        path.mkdir()
    elif kind == "pipe":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.symlink_to(path.parent / "nowhere")


_KINDS = {"folder": "a folder where a file is expected", "pipe": "not a regular file",
          "device": "not a regular file", "broken": "a link to nothing"}


@pytest.mark.parametrize("kind", list(_KINDS))
@pytest.mark.parametrize("job", ["markables", "coref"])
def test_markable_level_that_is_no_regular_file(cli, tmp_path, kind, job):
    """Issue 37, 1: a markable level found through common_paths.xml that is a folder, a pipe
    or a link to a device or to nothing is an error naming it (it was read as a level with no
    markables: one annotator had 43 mentions instead of 54), and the pipe is not waited on."""
    from support import SAMPLES
    corpus = tmp_path / "mmax2"
    shutil.copytree(SAMPLES / "coref" / "mmax2", corpus)
    level = corpus / "ann1" / "Markables" / "recipe_coref_level.xml"
    _special(level, kind)
    code, out, err = cli(job, corpus)
    assert (code, out) == (2, "")
    assert err.strip().startswith(f"{level}: {_KINDS[kind]}")


@pytest.mark.parametrize("kind", ["folder", "pipe"])
@pytest.mark.parametrize("name", ["ann1/common_paths.xml", "Schemes/coref_scheme.xml"])
def test_common_paths_and_scheme_that_are_no_regular_file(tmp_path, kind, name):
    """Issue 37, 1: the same for the common_paths.xml beside a project and a scheme file it
    names."""
    from support import SAMPLES
    corpus = tmp_path / "mmax2"
    shutil.copytree(SAMPLES / "coref" / "mmax2", corpus)
    _special(corpus / name, kind)
    with pytest.raises(InputError) as e:
        mmax2.read([corpus])
    assert str(e.value) == f"{corpus / name}: {_KINDS[kind]}"
