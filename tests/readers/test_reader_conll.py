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
    # the order in which the reference scorer meets the brackets: token, (N) before (N, place
    assert part0.mentions["m1"].attrs == {"entity": "1", "order": (0, 0, 1)}
    assert [m.attrs["order"] for m in part0.mentions.values()][1:4] == [
        (2, 0, 3), (2, 1, 1), (6, 0, 1)]                  # (2|(1): (1) first, then (2


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
    (doc("-", "(1((2)"), 3, "malformed coreference part '\\(\\(2\\)'"),
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


LITBANK = TEST_DATA / "coref_variants" / "conll_litbank" / "1_the_lighthouse_keeper_brat.conll"


def test_litbank_empty_last_column_means_no_mention():
    """LitBank separates 13 columns by tabs and leaves the last one empty on rows without a
    mention (``12 columns`` when split on whitespace)."""
    assert conll2012.sniff(LITBANK)
    [ann] = conll2012.read(LITBANK)
    assert (ann.annotator, ann.document.id) == ("1_the_lighthouse_keeper_brat",
                                                "1_the_lighthouse_keeper_brat_0")
    assert ann.document.tokens[:6] == ["The", "keeper", "lit", "his", "lamp", "."]
    assert ann.document.sentence_starts == [0, 6, 11]
    assert spans(ann) == {
        "0": [((0, 2),), ((3, 4),), ((6, 7),), ((16, 17),)],
        "1": [((3, 5),)], "2": [((8, 10),), ((11, 12),)], "3": [((13, 15),)],
        "4": [((16, 18),)]}


def test_trailing_tab_puts_the_coreference_in_the_column_before(tmp_path):
    """A last column empty on every row is a trailing tab (the reference scorer's split drops
    it): the coreference column is the one before."""
    rows = "".join(f"d\t0\t{i}\tw{i}\t_\t{c}\t\n" for i, c in enumerate(["(1)", "-", "(1)"]))
    p = write(tmp_path, f"#begin document (d); part 000\n{rows}\n#end document\n")
    [ann] = conll2012.read(p)
    assert spans(ann) == {"1": [((0, 1),), ((2, 3),)]}


def test_brackets_without_bars_read_as_the_reference_scorer_reads_them(tmp_path):
    """``(1)0)`` is ``(1)|0)`` and ``(1(2)`` is ``(1|(2)``."""
    [ann] = conll2012.read(write(tmp_path, doc("(0", "(1)0)", "(1(2)", "1)")))
    assert spans(ann) == {"0": [((0, 2),)], "1": [((1, 2),), ((2, 4),)], "2": [((2, 3),)]}
    [same] = conll2012.read(write(tmp_path, doc("(0", "(1)|0)", "(1|(2)", "1)"), "y_conll"))
    assert spans(same) == spans(ann)


@pytest.mark.parametrize("line, doc_id", [
    ("#begin document (bc/cnn/00/cnn_0001);", "bc/cnn/00/cnn_0001"),
    ("#begin document (bc/cnn/00/cnn_0001)", "bc/cnn/00/cnn_0001"),
    ("#begin document (a; b); part 002", "a; b_002"),
    ("#begin document x; part 1", "x_1"),
])
def test_document_id_without_part_number(tmp_path, line, doc_id):
    [ann] = conll2012.read(write(tmp_path, doc("(1)").replace(
        "#begin document (d); part 000", line)))
    assert ann.document.id == doc_id


def test_latin1_is_refused_with_the_byte_and_its_place(tmp_path):
    p = tmp_path / "x_conll"
    p.write_bytes(doc("(1)", "-").replace("w1", "café").encode("latin-1"))
    with pytest.raises(InputError) as e:
        conll2012.read(p)
    assert str(e.value) == (f"{p}:3: not UTF-8 (byte 0xe9 at column 13); save the file as "
                            "UTF-8")


def test_utf8_bom_and_crlf_are_accepted(tmp_path):
    p = tmp_path / "x_conll"
    p.write_bytes(b"\xef\xbb\xbf" + doc("(1)", "(1)").replace("\n", "\r\n").encode())
    assert conll2012.sniff(p)
    [ann] = conll2012.read(p)
    assert (ann.document.id, spans(ann)) == ("d_000", {"1": [((0, 1),), ((1, 2),)]})
