"""RST tree readers (rs3/rs4, .dis): trees as constituents, and every way relations can fail
to form a tree, each one line naming file and element; pairing documents across annotators."""

from __future__ import annotations

import warnings

import pytest

from corpusagree.convert.trees import pair_trees
from corpusagree.model.errors import InputError
from corpusagree.readers import dis, read, rs3

from support import write

HEADER = ('<rst><header><relations><rel name="elaboration" type="rst"/>'
          '<rel name="joint" type="multinuc"/></relations></header><body>\n')


def rs3_file(folder, name, body):
    folder.mkdir(parents=True, exist_ok=True)
    return write(folder, name, HEADER + body + "</body></rst>\n")


GOOD = ('<segment id="1" parent="3" relname="span">A</segment>\n'
        '<segment id="2" parent="1" relname="elaboration">B</segment>\n'
        '<group id="3" type="span"/>\n')


@pytest.mark.parametrize("body,line,message", [
    ('<segment id="1">A</segment>\n<segment id="2">B</segment>\n', 3,
     "segment id=2 has no parent, like segment id=1 (line 2): two roots"),
    ('<segment id="1" parent="2" relname="elaboration">A</segment>\n'
     '<segment id="2" parent="1" relname="elaboration">B</segment>\n', 2,
     "segment id=1: the parent attributes form a cycle (1 -> 2 -> 1); no element is the root"),
    ('<segment id="1" parent="9" relname="span">A</segment>\n', 2,
     "segment id=1: parent=9 does not exist"),
    ('<segment id="1" parent="2" relname="joint">A</segment>\n<group id="2" type="span"/>\n',
     2, "multinuclear relation 'joint' under group id=2, which is not a multinuc group"),
    ('<segment id="1" parent="2" relname="purpose">A</segment>\n<segment id="2">B</segment>\n',
     2, "relname='purpose' is not declared"),
    ('<segment id="1" parent="3" relname="span">A</segment>\n<segment id="2">B</segment>\n'
     '<segment id="3" parent="1" relname="elaboration">C</segment>\n', 2,
     "segment id=1: the parent attributes form a cycle (1 -> 3 -> 1)"),
])
def test_no_tree_is_one_line_naming_file_and_element(tmp_path, body, line, message):
    f = rs3_file(tmp_path / "a", "d.rs3", body)
    with pytest.raises(InputError) as e:
        rs3.read_tree(f, "a")
    assert str(e.value).startswith(f"{f}:{line}: ")
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_gap_in_a_constituent(tmp_path):
    f = rs3_file(tmp_path / "a", "d.rs3",
                 '<segment id="1" parent="4" relname="span">A</segment>\n'
                 '<segment id="2" parent="4" relname="elaboration">B</segment>\n'
                 '<segment id="3" parent="1" relname="elaboration">C</segment>\n'
                 '<group id="4" type="span"/>\n')
    with pytest.raises(InputError, match=r"segment id=1: its constituent is not contiguous"):
        rs3.read_tree(f, "a")


def test_skip_leaves_the_other_documents(tmp_path):
    for who in ("a", "b"):
        rs3_file(tmp_path / who, "good.rs3", GOOD)
    rs3_file(tmp_path / "b", "bad.rs3", '<segment id="1">A</segment><segment id="2">B</segment>')
    rs3_file(tmp_path / "a", "bad.rs3", GOOD)
    with pytest.raises(InputError, match="two roots"):
        read("trees", [tmp_path / "a", tmp_path / "b"])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fmt, trees = read("trees", [tmp_path / "a", tmp_path / "b"], on_error="skip")
    assert fmt == "rs3" and len(trees) == 3
    assert [str(x.message) for x in w][0].startswith(f"{tmp_path / 'b' / 'bad.rs3'}:2: ")
    p = pair_trees(trees)
    assert p.reference.tolist() == [0] and p.other.tolist() == [1]
    assert [str(e) for e in p.problems] == [
        f"{tmp_path / 'a' / 'bad.rs3'}: document 'bad': only annotator 'a' has it; not compared"]


def test_texts_that_differ(tmp_path):
    rs3_file(tmp_path / "a", "d.rs3", GOOD)
    rs3_file(tmp_path / "b", "d.rs3", GOOD.replace(">B<", ">C<"))
    rs3_file(tmp_path / "b", "e.rs3", GOOD)
    rs3_file(tmp_path / "a", "e.rs3", GOOD.replace(">A<", ">A B<").replace(">B<", "><")
             .replace('<segment id="2" parent="1" relname="elaboration"></segment>\n', ""))
    p = pair_trees(rs3.read_trees([tmp_path / "a", tmp_path / "b"]))
    (err,) = p.problems
    assert str(err).startswith(f"{tmp_path / 'b' / 'd.rs3'}: segment id=2: the text differs")
    assert p.different == ["e"] and len(p.reference) == 0
    assert [s.masses for s in p.segmentations] == [(2,), (1, 1)]


def test_dis_reader(tmp_path):
    text = ("( Root (span 1 2)\n  ( Nucleus (leaf 1) (rel2par span) (text _!A (b)_!) )\n"
            "  ( Satellite (leaf 2) (rel2par Elaboration) (text _!C_!) ) )\n")
    (tmp_path / "x").mkdir()
    f = write(tmp_path / "x", "wsj_0600.out.dis", text)
    fmt, (t,) = read("trees", tmp_path / "x")
    assert fmt == "dis" and t.document == "wsj_0600" and t.edus == ("A (b)", "C")
    assert t.relation == ("span", "Elaboration", "")
    write(tmp_path / "x", "wsj_0600.out.dis", text.replace("(leaf 2)", "(leaf 3)"))
    with pytest.raises(InputError, match=r"dis:3: leaf 3 where leaf 2 was expected"):
        dis.read_tree(f, "x")
    write(tmp_path / "x", "wsj_0600.out.dis", text[:-2])
    with pytest.raises(InputError, match="unclosed bracket"):
        dis.read_tree(f, "x")
