"""Relations between spans: brat, WebAnno TSV and XMI fixtures written for this test, with relations
that match, differ in label, differ in an endpoint ("It rained" against "It rained all day")
and are missing; DISRPT .rels rows. Detection counts by hand; label α against the
krippendorff package on the same aligned items."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest

import corpusagree as ca
from corpusagree.convert.relations import relation_items
from corpusagree.model.errors import InputError
from corpusagree.readers import read
from corpusagree.stats.relations import detection

from support import DATA, write

FIXTURES = DATA / "relations"


@pytest.mark.parametrize("fmt,name", [("brat", "brat"), ("webanno", "webanno_tsv"), ("xmi", "xmi")])
def test_relations_aligned_by_endpoints(fmt, name):
    got, anns = read("relations", [FIXTURES / fmt / "a", FIXTURES / fmt / "b"])
    assert got == name
    assert sorted(len(a.relations) for a in anns) == [3, 4]
    # exact endpoints: cause (both), contrast/joint (both), background a, background b
    # (its source "It rained" is not a's "It rained all day"), elaboration (a only)
    exact = relation_items(anns, "exact")
    assert detection(exact.data, exact.annotated).counts.tolist() == [[4, 3, 2]]
    pairs = sorted((exact.data.label(x), exact.data.label(y))
                   for x, y in exact.data.codes.T if x >= 0 and y >= 0)
    assert pairs == [("Cause", "Cause"), ("Contrast", "Joint")]
    # overlapping endpoints: the two background relations are one item
    overlap = relation_items(anns, "overlap")
    d = detection(overlap.data, overlap.annotated)
    assert d.counts.tolist() == [[4, 3, 3]]
    assert d.scores() == pytest.approx([3 / 3, 3 / 4, 6 / 7])
    # label agreement over the aligned items, as krippendorff computes it (missing = nan)
    codes = overlap.data.codes.astype(float)
    codes[codes < 0] = np.nan
    expected = krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal")
    assert ca.alpha(overlap.data).value == pytest.approx(expected)


def test_undirected_relations(tmp_path):
    _, anns = read("relations", [FIXTURES / "brat" / "a", FIXTURES / "brat" / "b"])
    for k in anns[1].relations:
        k.source, k.target = k.target, k.source
    assert detection(*_items(anns, directed=True)).counts[0, 2] == 0
    assert detection(*_items(anns, directed=False)).counts[0, 2] == 2


def _items(anns, directed):
    items = relation_items(anns, "exact", directed=directed)
    return items.data, items.annotated


RELS = ("doc\tunit1_toks\tunit2_toks\tunit1_txt\tunit2_txt\ts1_toks\ts2_toks\tunit1_sent\t"
        "unit2_sent\tdir\torig_label\tlabel\n")


def test_disrpt_rels(tmp_path):
    for who, rows in (("a", ["d\t1-3\t4-6\tx\ty\t1-6\t1-6\ts\ts\t1>2\tcause\tcausal",
                             "d\t7-9,12\t1-6\tx\ty\t1-6\t1-6\ts\ts\t1<2\telab\telaboration"]),
                      ("b", ["d\t1-3\t4-6\tx\ty\t1-6\t1-6\ts\ts\t1>2\tresult\tcausal",
                             "d\t7-9\t1-6\tx\ty\t1-6\t1-6\ts\ts\t1<2\telab\telaboration"])):
        (tmp_path / who).mkdir()
        write(tmp_path / who, "x.rels", RELS + "\n".join(rows) + "\n")
    fmt, anns = read("relations", [tmp_path / "a", tmp_path / "b"])
    assert fmt == "disrpt"
    assert [(k.source, k.target, k.type) for k in anns[0].relations] == [
        ("1-3", "4-6", "causal"), ("1-6", "7-9,12", "elaboration")]
    assert anns[0].spans["7-9,12"].fragments == ((6, 9), (11, 12))
    exact = relation_items(anns, "exact")
    assert detection(exact.data, exact.annotated).counts.tolist() == [[2, 2, 1]]
    overlap = relation_items(anns, "overlap")
    assert detection(overlap.data, overlap.annotated).counts.tolist() == [[2, 2, 2]]
    write(tmp_path / "b", "x.rels", RELS + "d\t3-1\t4\tx\ty\t1\t1\ts\ts\t1>2\tc\tc\n")
    with pytest.raises(InputError, match=r"x.rels:2: token range '3-1' is empty"):
        read("relations", [tmp_path / "a", tmp_path / "b"])


def test_brat_relation_to_an_undefined_span(tmp_path):
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        write(tmp_path / who, "d.txt", "A b.\n")
        write(tmp_path / who, "d.ann", "T1\tX 0 1\tA\nR1\tr Arg1:T1 Arg2:T9\n")
    with pytest.raises(InputError, match=r"d.ann:2: reference to undefined annotation 'T9'"):
        read("relations", [tmp_path / "a", tmp_path / "b"])


def test_relation_mapping_file(tmp_path):
    from corpusagree.readers.relation_map import read_mapping
    f = write(tmp_path, "m.tsv", "Reason\tCause\nresult\tCause\n")
    assert read_mapping(f) == {"reason": "Cause", "result": "Cause"}
    write(tmp_path, "m.tsv", "reason\tCause\nReason\tExplanation\n")
    with pytest.raises(InputError, match=r"m.tsv:2: 'Reason' is mapped to 'Cause' on line 1"):
        read_mapping(f)


def test_disrpt_token_range_past_any_document(tmp_path):
    """Issue 37, 6: a range of 10^24 tokens is one line naming the file, not OverflowError."""
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        write(tmp_path / who, "x.rels",
              RELS + "d\t1-999999999999999999999999\t4\tx\ty\t1\t1\ts\ts\t1>2\tc\tc\n")
    with pytest.raises(InputError, match=r"x.rels:2: token range '1-9+' goes past token"):
        read("relations", [tmp_path / "a", tmp_path / "b"])


def test_xmi_relation_to_cas_null(tmp_path):
    """Issue 37, 6: ``Governor="0"`` points at the cas:NULL element, which is no span: one
    line naming the file and the relation's line, not KeyError."""
    import shutil
    src = DATA / "relations" / "xmi"
    shutil.copytree(src, tmp_path / "xmi")
    f = tmp_path / "xmi" / "a" / "story.xmi"
    f.write_text(f.read_text("utf-8").replace('Governor="12"', 'Governor="0"'), "utf-8")
    _, anns = read("relations", [tmp_path / "xmi" / "a", tmp_path / "xmi" / "b"])
    with pytest.raises(InputError, match=r"story.xmi:12: relation 100: its source 0 is no "
                                         r"span annotation"):
        relation_items(anns)
