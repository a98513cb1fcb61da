"""CoNLL-2012 reader: documents and parts, bracket nesting, annotators, errors with file:line."""


import pytest

from corpusagree.model.errors import InputError
from corpusagree.readers import conll2012

from support import DATA as TEST_DATA

DATA = TEST_DATA / "coref_b" / "conll"
ALICE, BOB = DATA / "alice.v4_gold_conll", DATA / "bob.v4_gold_conll"


def spans(ann):
    return {c.id: sorted(ann.mentions[m].fragments for m in c.members) for c in ann.chains}


def test_parts_are_documents_and_brackets_nest():
    part0, part1 = conll2012.read(ALICE)
    assert (part0.annotator, part0.document.id, part1.document.id) == \
        ("alice", "demo/lake_000", "demo/lake_001")
    assert part0.document.tokens[:5] == ["Pia", "rowed", "Pia", "'s", "boat"]
    assert part0.document.sentence_starts == [0, 6]        # 13 columns, then 14: allowed
    assert spans(part0) == {
        "1": [((0, 1),), ((2, 3),)],                        # (2|(1) on the second "Pia"
        "2": [((2, 5),), ((6, 7),)],
        "3": [((8, 11),), ((9, 11),)],                      # same entity nested: 3)|3)
    }
    assert spans(part1) == {"1": [((0, 1),)]}
    assert [m.id for m in part0.mentions.values()] == [f"m{i}" for i in range(1, 7)]
    assert part0.mentions["m1"].attrs == {"entity": "1"}


def test_one_annotator_per_path_and_names():
    anns = conll2012.read([ALICE, BOB])
    assert [(a.annotator, a.document.id) for a in anns] == [
        ("alice", "demo/lake_000"), ("alice", "demo/lake_001"),
        ("bob", "demo/lake_000"), ("bob", "demo/lake_001")]
    assert spans(anns[2]) == {"1": [((0, 1),), ((2, 3),)], "3": [((8, 11),), ((9, 11),)]}
    named = conll2012.read([ALICE, BOB], annotators=["A", "B"])
    assert {a.annotator for a in named} == {"A", "B"}


def test_directory_is_one_annotator(tmp_path):
    d = tmp_path / "carol"
    d.mkdir()
    (d / "one_conll").write_text(ALICE.read_text())
    anns = conll2012.read([d, BOB])
    assert {a.annotator for a in anns} == {"carol", "bob"}


def write(tmp_path, body, name="x.v4_gold_conll"):
    p = tmp_path / name
    p.write_text(body)
    return p


ROW = "d  0  {i}  w{i}  X  *  -  -  -  -  *  {c}\n"


def doc(*cells, extra=""):
    rows = "".join(ROW.format(i=i, c=c) for i, c in enumerate(cells))
    return f"#begin document (d); part 000\n{rows}{extra}\n#end document\n"


@pytest.mark.parametrize("body, line, msg", [
    (doc("(1", "-", "-"), 2, "never closed"),
    (doc("-", "1)"), 3, "no open mention"),
    (doc("(1", "2)", "1)"), 3, "no open mention"),
    (doc("-", "(1(2)"), 3, "malformed coreference part"),
    (doc("-", "-", extra="d  0  2  w2  X  -\n"), 4, "6 columns, but 12 on line 2"),
    ("#begin document (d); part 000\nd 0 0 w\n\n#end document\n", 2, "at least 5"),
    (doc("-", "-").replace("  1  w1", "  7  w1"), 3, "word number '7'"),
    ("d  0  0  w0  X  *  -  -  -  -  *  -\n", 1, "outside #begin document"),
    ("#begin document (d); part 000\n" + ROW.format(i=0, c="-"), 2, "no #end document"),
    ("#end document\n", 1, "without #begin"),
])
def test_errors_name_file_and_line(tmp_path, body, line, msg):
    p = write(tmp_path, body)
    with pytest.raises(InputError, match=msg) as e:
        conll2012.read(p)
    assert str(e.value).startswith(f"{p}:{line}: ")


def test_different_tokens_name_both_files(tmp_path):
    a = write(tmp_path, doc("(1)", "-"), "a_conll")
    b = write(tmp_path, doc("(1)", "-").replace("w1", "zz"), "b_conll")
    with pytest.raises(InputError) as e:
        conll2012.read([a, b])
    assert str(a) in str(e.value) and str(e.value).startswith(str(b))


def test_same_document_twice_and_name_clash(tmp_path):
    p = write(tmp_path, doc("(1)") + doc("(1)"))
    with pytest.raises(InputError, match="also in"):
        conll2012.read(p)
    twice = conll2012.read([ALICE, ALICE])  # a file scored against itself
    assert sorted({x.annotator for x in twice}) == [ALICE.name.split(".")[0],
                                                     ALICE.name.split(".")[0] + " (2)"]
    with pytest.raises(InputError, match="2 names for 1 paths"):
        conll2012.read([ALICE], annotators=["a", "b"])


def test_sniff(tmp_path):
    assert conll2012.sniff(ALICE) and conll2012.sniff(DATA)
    assert not conll2012.sniff(write(tmp_path, "# newdoc id = x\n", "x.conllu"))
    assert not conll2012.sniff(tmp_path / "missing")


def test_same_file_name_in_two_folders_names_annotators_by_path(tmp_path):
    """key/x.conll and resp/x.conll (the reference scorer's usual call) are annotators key/x
    and resp/x, not an error."""
    (tmp_path / "key").mkdir()
    (tmp_path / "resp").mkdir()
    key = write(tmp_path / "key", doc("(1)", "(1)"), "x.conll")
    resp = write(tmp_path / "resp", doc("(1)", "-"), "x.conll")
    anns = conll2012.read([key, resp])
    assert sorted({a.annotator for a in anns}) == ["key/x", "resp/x"]
