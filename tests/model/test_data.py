"""ReliabilityData constructors and their input errors (file:line messages)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import corpusagree as ca
from corpusagree import InputError, ReliabilityData
from corpusagree.model.data import MISSING

from support import write


def as_dict(data: ReliabilityData) -> dict:
    """{(coder, item): label} of the present judgements."""
    return {(data.coders[c], data.items[i]): data.label(data.codes[c, i])
            for c in range(data.n_coders) for i in range(data.n_items) if data.codes[c, i] >= 0}


# ---- from_triples -----------------------------------------------------------------------------
def test_from_triples_layout():
    data = ReliabilityData.from_triples([("B", "i2", "y"), ("A", "i1", "x"), ("B", "i1", "x"),
                                         ("A", "i2", None), ("C", "i3", float("nan"))])
    assert data.codes.dtype == np.int32
    assert data.codes.shape == (3, 3)
    assert data.coders == ["B", "A", "C"] and data.items == ["i2", "i1", "i3"]
    assert data.labels == ["x", "y"]  # sorted label table
    assert as_dict(data) == {("B", "i2"): "y", ("A", "i1"): "x", ("B", "i1"): "x"}
    assert data.codes[1, 0] == MISSING and (data.codes[2] == -1).all()
    assert not data.is_set


def test_from_triples_numeric_labels_sorted_numerically():
    data = ReliabilityData.from_triples([("A", 1, 10), ("B", 1, 9), ("A", 2, 2.5)])
    assert data.labels == [2.5, 9, 10]


def test_from_triples_duplicate_names_coder_item_and_triples():
    with pytest.raises(InputError, match=r"coder 'A' on item 1 \(triples 0 and 2\)"):
        ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("A", 1, "y")])


def test_from_triples_bad_arity_and_mixed_sets():
    with pytest.raises(InputError, match="triple 1 has 2 fields"):
        ReliabilityData.from_triples([("A", 1, "x"), ("B", 1)])
    with pytest.raises(InputError, match="mixing set-valued and plain labels"):
        ReliabilityData.from_triples([("A", 1, {"x"}), ("B", 1, "x")])


def test_from_triples_sets_share_rows():
    data = ReliabilityData.from_triples([("A", 1, {"a", "b"}), ("B", 1, frozenset("ba")),
                                         ("A", 2, {"c"}), ("B", 2, set())])
    assert data.is_set
    assert data.n_labels == 3  # {a, b} stored once; the empty set is a label, not missing
    assert as_dict(data) == {("A", 1): frozenset("ab"), ("B", 1): frozenset("ab"),
                             ("A", 2): frozenset("c"), ("B", 2): frozenset()}
    assert data.codes[0, 0] == data.codes[1, 0]


def test_from_triples_groups_and_categories():
    data = ReliabilityData.from_triples([("A", 1, "x"), ("A", 2, "y"), ("B", 1, "x")],
                                        groups={1: "doc1", 2: "doc2"},
                                        categories=["x", "y", "z"])
    assert data.group_names == ["doc1", "doc2"] and list(data.groups) == [0, 1]
    assert data.categories == ["x", "y", "z"]
    with pytest.raises(InputError, match="item 2 has no group"):
        ReliabilityData.from_triples([("A", 1, "x"), ("A", 2, "y")], groups={1: "d"})
    with pytest.raises(ValueError, match="not in the declared categories"):
        ReliabilityData.from_triples([("A", 1, "x"), ("A", 2, "w")], categories=["x", "y"])


def test_direct_construction_validates():
    with pytest.raises(ValueError, match="index into labels"):
        ReliabilityData(np.array([[0, 2]]), ["x", "y"])
    with pytest.raises(ValueError, match="coders × items"):
        ReliabilityData(np.array([0, 1]), ["x", "y"])
    with pytest.raises(ValueError, match="do not match"):
        ReliabilityData(np.array([[0, 1]]), ["x", "y"], coders=["A", "B"])


# ---- from_matrix ------------------------------------------------------------------------------
def test_from_matrix_float_array_with_nan():
    data = ReliabilityData.from_matrix(np.array([[1.0, 2.0, np.nan], [1.0, 2.5, 2.0]]),
                                       coders=["A", "B"], items=["u", "v", "w"])
    assert data.labels == [1, 2, 2.5] and isinstance(data.labels[0], int)
    assert data.codes.tolist() == [[0, 1, -1], [0, 2, 1]]
    assert data.coders == ["A", "B"] and data.items == ["u", "v", "w"]


def test_from_matrix_nested_list_with_none_and_strings():
    data = ReliabilityData.from_matrix([["b", None, "a"], ["a", "a", float("nan")]])
    assert data.labels == ["a", "b"]
    assert data.codes.tolist() == [[1, -1, 0], [0, 0, -1]]


def test_from_matrix_groups_and_shape_error():
    data = ReliabilityData.from_matrix([[1, 2, 3]], groups=["d2", "d1", "d2"])
    assert data.group_names == ["d1", "d2"] and list(data.groups) == [1, 0, 1]
    with pytest.raises(ValueError, match="2-dimensional"):
        ReliabilityData.from_matrix([1, 2, 3])


# ---- subset -----------------------------------------------------------------------------------
def test_subset_by_indices_and_mask():
    data = ReliabilityData.from_matrix([[1, 2, 3], [1, 1, np.nan], [2, 2, 3]],
                                       coders=["A", "B", "C"], items=["u", "v", "w"],
                                       groups=["g1", "g1", "g2"])
    sub = data.subset(coders=[2, 0], items=np.array([True, False, True]))
    assert sub.coders == ["C", "A"] and sub.items == ["u", "w"]
    assert [[sub.label(c) for c in row] for row in sub.codes] == [[2, 3], [1, 3]]
    assert list(sub.groups) == [0, 1] and sub.group_names == data.group_names
    sub2 = data.subset(items=[1])
    assert sub2.items == ["v"] and sub2.codes[:, 0].tolist() == data.codes[:, 1].tolist()
    assert sub.labels is data.labels


# ---- from_sets --------------------------------------------------------------------------------
def test_from_sets_merges_identical_rows():
    # rows: {0,1}, {1,0,0}, {2}, {} — the first two are the same set
    indptr = np.array([0, 2, 5, 6, 6])
    elements = np.array([0, 1, 1, 0, 0, 2])
    codes = np.array([[0, 2, 3], [1, -1, 2]])
    data = ReliabilityData.from_sets(codes, indptr, elements, element_names=["a", "b", "c"])
    assert data.n_labels == 3
    assert data.codes[0, 0] == data.codes[1, 0] and data.codes[1, 1] == -1
    assert as_dict(data) == {(0, 0): frozenset("ab"), (1, 0): frozenset("ab"),
                             (0, 1): frozenset("c"), (1, 2): frozenset("c"),
                             (0, 2): frozenset()}


# ---- from_csv ---------------------------------------------------------------------------------
def test_from_csv_basic_and_missing_cells(tmp_path):
    p = write(tmp_path, "a.csv", "coder,item,label\nA,1,x\nB,1,y\n\nA,2,NA\nB,2, x \n")
    data = ReliabilityData.from_csv(p)
    assert as_dict(data) == {("A", "1"): "x", ("B", "1"): "y", ("B", "2"): "x"}
    assert data.items == ["1", "2"]


@pytest.mark.parametrize("sep", ["\t", ";", ","])
def test_from_csv_sniffs_delimiter_and_custom_columns(tmp_path, sep):
    text = sep.join(["who", "what", "tag", "doc"]) + "\n" + \
        "\n".join(sep.join(r) for r in [["A", "u", "x", "d1"], ["B", "u", "y", "d1"],
                                        ["A", "v", "y", "d2"]]) + "\n"
    p = write(tmp_path, "a.txt", text)
    data = ReliabilityData.from_csv(p, coder="who", item="what", label="tag", group="doc")
    assert as_dict(data) == {("A", "u"): "x", ("B", "u"): "y", ("A", "v"): "y"}
    assert data.group_names == ["d1", "d2"]


def test_from_csv_bom_and_numeric(tmp_path):
    p = write(tmp_path, "a.csv", "coder,item,label\nA,1,2\nB,1,2.5\nA,2,-1e1\n",
              encoding="utf-8-sig")
    data = ReliabilityData.from_csv(p, numeric=True)
    assert data.labels == [-10, 2, 2.5]
    assert float(ca.alpha(data, "interval")) == pytest.approx(
        1 - 0.25 / ((2 - 2.5) ** 2 * 2 * 1 / (2 * 1)), abs=1e-12)


def test_from_csv_set_sep(tmp_path):
    p = write(tmp_path, "a.tsv", "coder\titem\tlabel\nA\t1\tx|y\nB\t1\ty | x\nA\t2\tz\n"
                                 "B\t2\t\n")
    data = ReliabilityData.from_csv(p, set_sep="|")
    assert data.is_set
    assert as_dict(data) == {("A", "1"): frozenset("xy"), ("B", "1"): frozenset("xy"),
                             ("A", "2"): frozenset("z")}
    p2 = write(tmp_path, "b.tsv", "coder\titem\tlabel\nA\t1\t1|2\nB\t1\t2|x\n")
    with pytest.raises(InputError, match=r"b\.tsv:3: 'x' is not a number"):
        ReliabilityData.from_csv(p2, set_sep="|", numeric=True)


def test_from_csv_duplicate_names_both_lines(tmp_path):
    p = write(tmp_path, "d.csv", "coder,item,label\nA,1,x\n\nB,1,y\nA,1,z\n")
    with pytest.raises(InputError) as exc:
        ReliabilityData.from_csv(p)
    assert str(exc.value) == (f"{p}:5: duplicate judgement by coder 'A' on item '1' "
                              "(first on line 2)")
    assert exc.value.path == str(p) and exc.value.line == 5


def test_from_csv_errors_name_file_and_line(tmp_path):
    p = write(tmp_path, "m.csv", "coder,item,label\nA,1,x\n")
    with pytest.raises(InputError, match=r"m\.csv:1: no label column 'tag'; columns are"):
        ReliabilityData.from_csv(p, label="tag")
    p = write(tmp_path, "f.csv", "coder,item,label\nA,1,x\nB,1\n")
    with pytest.raises(InputError, match=r"f\.csv:3: 2 fields, the header has 3"):
        ReliabilityData.from_csv(p)
    p = write(tmp_path, "n.csv", "coder,item,label\nA,1,3\nB,1,three\n")
    with pytest.raises(InputError, match=r"n\.csv:3: 'three' is not a number"):
        ReliabilityData.from_csv(p, numeric=True)
    p = write(tmp_path, "inf.csv", "coder,item,label\nA,1,inf\n")
    with pytest.raises(InputError, match=r"inf\.csv:2: 'inf' is not a finite number"):
        ReliabilityData.from_csv(p, numeric=True)
    p = write(tmp_path, "g.csv", "coder,item,label,doc\nA,1,x,d1\nB,1,x,d2\n")
    with pytest.raises(InputError, match=r"g\.csv:3: item '1' is in group 'd1' and 'd2'"):
        ReliabilityData.from_csv(p, group="doc")


def test_from_csv_empty_and_header_only_and_unreadable(tmp_path):
    with pytest.raises(InputError, match=r"e\.csv: empty file"):
        ReliabilityData.from_csv(write(tmp_path, "e.csv", ""))
    with pytest.raises(InputError, match=r"h\.csv: no judgements in file"):
        ReliabilityData.from_csv(write(tmp_path, "h.csv", "coder,item,label\n\n"))
    with pytest.raises(InputError, match=r"nope\.csv: cannot read file"):
        ReliabilityData.from_csv(tmp_path / "nope.csv")
    bad = tmp_path / "latin1.csv"
    bad.write_bytes("coder,item,label\nA,1,caf\xe9\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"latin1\.csv:2: not UTF-8 \(byte 0xe9 at column 8\)"):
        ReliabilityData.from_csv(bad)


def test_input_error_is_value_error_and_formats():
    e = InputError("bad", "f.csv", 3)
    assert isinstance(e, ValueError) and str(e) == "f.csv:3: bad"
    assert str(InputError("bad", line=4)) == "line 4: bad"
    assert str(InputError("bad")) == "bad"


# ---- from_wide_csv ----------------------------------------------------------------------------
def test_from_wide_csv_layout(tmp_path):
    p = write(tmp_path, "w.csv", "coder,u,v,w\nA,1,2,\nB,1,,3\n")
    data = ReliabilityData.from_wide_csv(p, numeric=True)
    assert data.coders == ["A", "B"] and data.items == ["u", "v", "w"]
    assert data.codes.tolist() == [[0, 1, -1], [0, -1, 2]]
    assert data.labels == [1, 2, 3]
    # the same data as the krippendorff (coders × items) matrix
    ref = ReliabilityData.from_matrix([[1, 2, None], [1, None, 3]])
    assert data.codes.tolist() == ref.codes.tolist() and data.labels == ref.labels


def test_from_wide_csv_sets(tmp_path):
    p = write(tmp_path, "w.csv", "coder;i1;i2\nA;x|y;\nB;y;x\n")
    data = ReliabilityData.from_wide_csv(p, set_sep="|")
    assert as_dict(data) == {("A", "i1"): frozenset("xy"), ("B", "i1"): frozenset("y"),
                             ("B", "i2"): frozenset("x")}


def test_from_wide_csv_errors(tmp_path):
    with pytest.raises(InputError, match=r"w1\.csv:1: item 'u' appears twice"):
        ReliabilityData.from_wide_csv(write(tmp_path, "w1.csv", "coder,u,v,u\nA,1,2,3\n"))
    with pytest.raises(InputError, match=r"w2\.csv:4: coder 'A' has two rows \(first on line "
                                         r"2\)"):
        ReliabilityData.from_wide_csv(write(tmp_path, "w2.csv", "coder,u\nA,1\nB,2\nA,3\n"))
    with pytest.raises(InputError, match=r"w3\.csv:3: 3 fields, the header has 2"):
        ReliabilityData.from_wide_csv(write(tmp_path, "w3.csv", "coder,u\nA,1\nB,2,3\n"))
    with pytest.raises(InputError, match=r"w4\.csv:1: a wide table needs a coder column"):
        ReliabilityData.from_wide_csv(write(tmp_path, "w4.csv", "coder\nA\n"))
    with pytest.raises(InputError, match=r"w5\.csv: empty file"):
        ReliabilityData.from_wide_csv(write(tmp_path, "w5.csv", ""))
    with pytest.raises(InputError, match=r"w6\.csv: no coder rows"):
        ReliabilityData.from_wide_csv(write(tmp_path, "w6.csv", "coder,u\n"))
    with pytest.raises(InputError, match=r"w7\.csv:3: 'b' is not a number"):
        ReliabilityData.from_wide_csv(write(tmp_path, "w7.csv", "coder,u\nA,1\nB,b\n"),
                                      numeric=True)


# ---- from_dataframe ---------------------------------------------------------------------------
def test_from_dataframe():
    df = pd.DataFrame({"annotator": ["A", "B", "A", "B", "A"], "unit": [1, 1, 2, 2, 3],
                       "tag": ["x", "y", np.nan, "x", None], "doc": ["d", "d", "e", "e", "e"]})
    data = ReliabilityData.from_dataframe(df, coder="annotator", item="unit", label="tag",
                                          group="doc")
    assert as_dict(data) == {("A", 1): "x", ("B", 1): "y", ("B", 2): "x"}
    assert data.items == [1, 2, 3] and data.group_names == ["d", "e"]
    via_triples = ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "y"), ("B", 2, "x")])
    assert float(ca.alpha(data)) == pytest.approx(float(ca.alpha(via_triples)))


def test_from_dataframe_missing_column():
    df = pd.DataFrame({"coder": ["A"], "item": [1], "label": ["x"]})
    with pytest.raises(InputError, match=r"no column\(s\) \['doc'\] in DataFrame"):
        ReliabilityData.from_dataframe(df, group="doc")
    with pytest.raises(InputError, match=r"\['who'\]"):
        ReliabilityData.from_dataframe(df, coder="who")


def test_from_dataframe_duplicate():
    df = pd.DataFrame({"coder": ["A", "A"], "item": [1, 1], "label": ["x", "y"]})
    with pytest.raises(InputError, match="duplicate judgement by coder 'A'"):
        ReliabilityData.from_dataframe(df)


@pytest.mark.parametrize("dtype,values", [("string", ["x", "y", None, "x"]),
                                          ("Int64", [1, 2, None, 1])])
def test_from_dataframe_nullable_na_is_missing(dtype, values):
    df = pd.DataFrame({"coder": ["A", "B", "A", "B"], "item": [1, 1, 2, 2],
                       "label": pd.array(values, dtype=dtype)})
    data = ReliabilityData.from_dataframe(df)
    assert data.codes[0, 1] == -1
    assert data.n_labels == 2


def test_from_csv_quoted_newline_kept(tmp_path):
    p = write(tmp_path, "ml.csv", 'coder,item,label\nA,1,"x\ny"\nB,1,z\nB,2,w,extra\n')
    with pytest.raises(InputError, match=r"ml\.csv:5: 4 fields"):
        ReliabilityData.from_csv(p)
    p = write(tmp_path, "ml2.csv", 'coder,item,label\nA,1,"x\ny"\nB,1,z\n')
    assert ReliabilityData.from_csv(p).labels == ["x\ny", "z"]


def test_from_csv_unicode_line_separator_in_label(tmp_path):
    p = write(tmp_path, "ls.csv", "coder,item,label\nA,1,a\u2028b\nB,1,z\n")
    assert ReliabilityData.from_csv(p).labels == ["a\u2028b", "z"]


def test_from_csv_crlf_line_numbers(tmp_path):
    p = write(tmp_path, "crlf.csv", "coder,item,label\r\nA,1,x\r\n\r\nB,1\r\n")
    with pytest.raises(InputError, match=r"crlf\.csv:4: 2 fields, the header has 3"):
        ReliabilityData.from_csv(p)


def test_short_reprs():
    import numpy as np

    big = ReliabilityData.from_matrix(np.tile([[1.0, 2.0], [1.0, np.nan]], (1, 50_000)))
    assert repr(big) == "ReliabilityData(2 coders × 100000 items, 2 labels, 50000 missing)"
    sets = ReliabilityData.from_triples([("a", 1, {"x", "y"}), ("b", 1, {"x"})])
    assert repr(sets.labels) == "SetLabels(2 sets of 2 elements)"
    r = ca.alpha(big)
    assert len(repr(r)) < 120 and repr(r).startswith("Result(alpha=")
    from corpusagree.senses import SenseInventory

    inv = SenseInventory.from_mapping({"WN1": "LABEL", "WN3": "LABEL", "WN19": "SEE"})
    assert repr(inv) == "SenseInventory(3 senses, 2 groups)"


def test_from_matrix_keeps_dataframe_names():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame([[1, 2, None], [1, 3, 3]], index=["ann", "bob"], columns=["u1", "u2", "u3"])
    data = ReliabilityData.from_matrix(df)
    assert data.coders == ["ann", "bob"] and list(data.items) == ["u1", "u2", "u3"]
    assert float(ca.alpha(data)) == float(ca.alpha(ReliabilityData.from_matrix(df.to_numpy(
        dtype=float))))


@pytest.mark.parametrize("rows,items,labels", [(5, 1000, 10), (3, 200_000, 4), (2, 10, 300_000),
                                               (1, 0, 3)])
def test_count_codes_is_bincount(rows, items, labels, monkeypatch):
    """Counting in chunks of items (small chunks here, so there are many, and chunks that must
    grow to hold the output's size) gives np.bincount's counts, for offsets per row and per
    item."""
    from corpusagree.model import data as md

    monkeypatch.setattr(md, "COUNT_CHUNK", 1000)
    rng = np.random.default_rng(rows)
    codes = rng.integers(-1, labels, (rows, items)).astype(np.int32)
    per_row = np.arange(rows)[:, None] * (labels + 1) + 1
    size = rows * (labels + 1)
    assert np.array_equal(md.count_codes(codes, per_row, size),
                          np.bincount((codes + per_row).ravel(), minlength=size))
    n_i = (codes >= 0).sum(0)
    per_item = n_i * (labels + 1) + 1
    size = (rows + 1) * (labels + 1)
    assert np.array_equal(md.count_codes(codes, per_item, size),
                          np.bincount((codes + per_item).ravel(), minlength=size))
    assert np.array_equal(md.count_codes(codes, 1, labels + 1),
                          np.bincount((codes + 1).ravel(), minlength=labels + 1))


def test_numeric_matrix_codes_equal_the_sorted_values() -> None:
    """from_matrix's chunked coding of numbers (whole numbers by their offset from the least,
    others by a sort) equals coding by the sorted distinct values, NaN missing."""
    rng = np.random.default_rng(3)
    for t in range(60):
        shape = (int(rng.integers(1, 6)), int(rng.integers(0, 40_000 if t % 10 == 0 else 300)))
        m = [rng.integers(-5, 5, shape), rng.integers(0, 3, shape) * 7 + 100,
             rng.normal(size=shape).round(1), rng.integers(0, 10**6, shape) * 37.0][t % 4]
        m = m.astype(float)
        m[rng.random(shape) < rng.random()] = np.nan
        if t % 7 == 0 and shape[1] > 1:
            m = m[:, ::2]
        data = ReliabilityData.from_matrix(m)
        present = ~np.isnan(m)
        values, inverse = np.unique(m[present], return_inverse=True)
        expected = np.full(m.shape, MISSING)
        expected[present] = inverse
        np.testing.assert_array_equal(data.codes, expected)
        assert data.labels == [int(v) if float(v).is_integer() else float(v) for v in values]
