"""The columnar path of tables (pyarrow): the same reliability data as the per-cell reader on
random files, the per-cell reader's messages on bad input, and the columnar formats."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

from corpusagree import InputError, ReliabilityData
from corpusagree.model import columnar, io

from support import write


def per_cell_long(path, **kw) -> ReliabilityData:
    """Today's reader, one Python call per cell (the reference)."""
    categories = kw.pop("categories", None)
    triples, groups = io.read_long(path, **kw)
    return ReliabilityData.from_triples(triples, groups=groups, categories=categories)


def per_cell_wide(path, **kw) -> ReliabilityData:
    return ReliabilityData.from_triples(io.read_wide(path, **kw))


def assert_same(a: ReliabilityData, b: ReliabilityData) -> None:
    """The same data: coders and items in the same order, the same codes, label tables,
    groups (a set table's rows compared as sets: element ids are free)."""
    assert a.coders == b.coders
    assert list(a.items) == list(b.items)
    np.testing.assert_array_equal(a.codes, b.codes)
    assert a.is_set == b.is_set
    if a.is_set:
        assert [a.labels[k] for k in range(a.n_labels)] == \
            [b.labels[k] for k in range(b.n_labels)]
    else:
        assert a.labels == b.labels
        assert [type(v) for v in a.labels] == [type(v) for v in b.labels]
    assert a.group_names == b.group_names
    if a.groups is None:
        assert b.groups is None
    else:
        np.testing.assert_array_equal(a.groups, b.groups)


SPELLINGS = ["", "NA", "N/A", "NaN", "nan", ".", "*"]


def random_long(rng, *, sets: bool, numeric: bool, sep: str = ",", crlf: bool = False,
                groups: bool = True) -> str:
    """A long table in file order with missing spellings, blank rows, padded cells, items in
    groups, and labels that are sets (``|``) or numbers."""
    lines = [sep.join(['"coder"', '"item"', "label"] + (["doc"] if groups else []))]
    for i in rng.permutation(60):
        for c in rng.permutation(["ann", "bob", "cy", "dee"]):
            if rng.random() < 0.15:
                continue
            if rng.random() < 0.1:
                label = str(rng.choice(SPELLINGS))
            elif sets:
                k = int(rng.integers(1 if numeric else 0, 4))  # '|' is no number
                values = [str(v) if numeric else f"e{v}" for v in rng.integers(0, 7, k)]
                label = " | ".join(values) if k else "|"
            elif numeric:
                label = str(rng.choice(["1", "2", "2.0", "3.5", "-1e1", "+4", ".5"]))
            else:
                label = str(rng.choice(["Stat", "IReq", "Chck", "ÿes", "a b"]))
            cells = [f" {c}", f"u{i} ", f"  {label} "] + ([f"d{i % 5}"] if groups else [])
            if rng.random() < 0.2:  # a quoted field: the delimiter and a doubled quote inside
                cells[1] = '"' + cells[1] + sep + '""q"'
            lines.append(sep.join(cells))
            if rng.random() < 0.03:
                lines.append(sep.join([""] * len(cells)) if rng.random() < 0.5 else "  ")
    nl = "\r\n" if crlf else "\n"
    return nl.join(lines) + nl


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["plain", "numeric", "sets", "numeric sets"])
def test_long_csv_same_as_per_cell_reader(tmp_path, seed, kind):
    rng = np.random.default_rng(seed)
    sets, numeric = "sets" in kind, "numeric" in kind
    sep = [",", "\t", ";"][seed % 3]
    p = write(tmp_path, "t.csv", random_long(rng, sets=sets, numeric=numeric, sep=sep,
                                             crlf=seed % 2 == 1))
    kw = {"group": "doc", "set_sep": "|" if sets else None, "numeric": numeric}
    fast = columnar.read_long_csv(p, **kw)
    assert fast is not None  # the columnar path read it
    fast = ReliabilityData._from_columns(fast)
    assert_same(fast, per_cell_long(p, **kw))
    assert_same(ReliabilityData.from_csv(p, **kw), fast)


@pytest.mark.parametrize("seed", range(4))
def test_wide_csv_same_as_per_cell_reader(tmp_path, seed):
    rng = np.random.default_rng(seed)
    sets = seed % 2 == 0
    items = [f"u{i}" for i in range(12)]
    rows = ["coder," + ",".join(items)]
    for c in ["ann", "bob", "cy"]:
        cells = [str(rng.choice(["x|y", "y", " y |x ", "|", "NA", "", "z"])) if sets
                 else str(rng.choice(["a", "b", "c", "", "."])) for _ in items]
        rows.append(",".join([c] + cells))
    p = write(tmp_path, "w.csv", "\n".join(rows) + "\n")
    kw = {"set_sep": "|" if sets else None}
    fast = columnar.read_wide_csv(p, **kw)
    assert fast is not None
    fast = ReliabilityData._from_columns(fast)
    assert_same(fast, per_cell_wide(p, **kw))


@pytest.mark.parametrize("text, kw", [
    ("coder,item,label\nA,1,x\nB,1\n", {}),                         # too few fields
    ("coder,item,label\nA,1,x\nB,1,y,z\n", {}),                     # too many
    ('coder,item,label\nA,1,"x\nB,1,y\n', {}),                      # an unclosed quote
    ("coder,item,label\nA,1,x\nA,1,y\n", {}),                       # a duplicate judgement
    ("coder,item,label\nA,1,x\nA,1,\n", {}),                        # … with a missing label
    ("coder,item,label\n,1,x\nB,1,y\n", {}),                        # an empty coder
    ("coder,item,label,doc\nA,1,x,d1\nB,1,x,d2\n", {"group": "doc"}),
    ("coder,item,label\nA,1,3\nB,1,three\n", {"numeric": True}),
    ("coder,item,label\nA,1,inf\nB,1,1\n", {"numeric": True}),
    ("coder,item,label\nA,1,1_000\nB,1,1\n", {"numeric": True}),    # Python's float reads it
    ("coder,item,label\nA,1,1||2\nB,1,1\n", {"numeric": True, "set_sep": "|"}),
    ("coder,item,tag\nA,1,x\n", {}),                                # no label column
    ("coder,item,label\n\n", {}),                                   # no judgements
    ("", {}),                                                       # an empty file
    ("\ncoder,item,label\nA,1,x\n", {}),                            # an empty first line
    ('coder,item,label\nA,1,"x,y"\nB,1,x\n', {}),                   # quoted
    ('coder,item,label\nA,1,"x"y\nB,1,x\n', {}),                    # a quote then text
    ('coder,item,label\nA,1,x"y"\nB,1,x\n', {}),                    # a quote inside
    ('coder,item,label\nA,1,"x\ny"\nB,1,x\n', {}),                  # a line break inside
    ('coder,item,label\nA,1,x\n" , "\nB,1,x\n', {}),                # one quoted field
    ('coder,item,label\nA,1,x\n"",""\nB,1,x\n', {}),                # a blank row
    ("coder,item,label\nA,1,NA\nB,1,.\n", {}),                      # no label at all
    ("coder,item,label\nA,1,|\nB,1, | \n", {"set_sep": "|"}),       # only empty sets
])
def test_bad_or_unusual_long_input_as_the_per_cell_reader(tmp_path, text, kw):
    p = write(tmp_path, "bad.csv", text)
    try:
        expected = per_cell_long(p, **kw)
    except InputError as e:
        with pytest.raises(InputError) as got:
            ReliabilityData.from_csv(p, **kw)
        assert str(got.value) == str(e)
        assert columnar.read_long_csv(p, **kw) is None  # never a silent drop
    else:
        assert_same(ReliabilityData.from_csv(p, **kw), expected)


def test_invalid_utf8_and_huge_field_fall_back(tmp_path):
    bad = tmp_path / "latin1.csv"
    bad.write_bytes("coder,item,label\nA,1,caf\xe9\n".encode("latin-1"))
    assert columnar.read_long_csv(bad) is None
    with pytest.raises(InputError, match=r"latin1\.csv:2: not UTF-8"):
        ReliabilityData.from_csv(bad)
    p = write(tmp_path, "big.csv", "coder,item,label\nA,1," + "x" * 200_000 + "\n")
    assert columnar.read_long_csv(p) is None


def test_a_header_of_more_columns_than_pyarrow_takes_is_read_per_cell(tmp_path, monkeypatch):
    """Past ``ARROW_COLUMNS`` header columns the per-cell reader reads the file (pyarrow's
    reader aborted with std::bad_alloc on a 20 MB header of 2.6 million columns, fuzz case
    1-03374): the same data."""
    items = [f"u{i}" for i in range(8)]
    rows = ["coder," + ",".join(items), "ann," + ",".join("abab" * 2),
            "bob," + ",".join("abba" * 2)]
    p = write(tmp_path, "w.csv", "\n".join(rows) + "\n")
    whole = ReliabilityData.from_wide_csv(p)
    assert columnar.read_wide_csv(p) is not None
    monkeypatch.setattr(columnar, "ARROW_COLUMNS", len(items))  # the header has one more
    assert columnar.read_wide_csv(p) is None
    assert_same(ReliabilityData.from_wide_csv(p), whole)
    assert_same(whole, per_cell_wide(p))


def test_wide_bad_input_as_the_per_cell_reader(tmp_path):
    for text in ["coder,u1,u1\nA,x,y\n", "coder,u1,u2\nA,x,y\nA,y,y\n", "coder,u1\nA,x,y\n",
                 "coder,u1,u2\n"]:
        p = write(tmp_path, "w.csv", text)
        with pytest.raises(InputError) as e:
            per_cell_wide(p)
        with pytest.raises(InputError) as got:
            ReliabilityData.from_wide_csv(p)
        assert str(got.value) == str(e.value)


def test_parquet_arrow_jsonl_as_csv(tmp_path):
    rng = np.random.default_rng(7)
    p = write(tmp_path, "t.csv", random_long(rng, sets=True, numeric=False))
    kw = {"group": "doc", "set_sep": "|"}
    ref = ReliabilityData.from_csv(p, **kw)
    rows = [[c.strip() for c in r] for _, r in io.read_table(p) if any(c.strip() for c in r)]
    table = pa.table({name: [r[k] for r in rows[1:]] for k, name in enumerate(rows[0])})
    pq.write_table(table, tmp_path / "t.parquet", row_group_size=37)
    feather.write_feather(table, tmp_path / "t.feather")
    table.to_pandas().to_json(tmp_path / "t.jsonl", orient="records", lines=True)
    for name in ("t.parquet", "t.feather", "t.jsonl"):
        assert_same(ReliabilityData.from_csv(tmp_path / name, **kw), ref)


def test_columnar_file_errors(tmp_path):
    pq.write_table(pa.table({"coder": ["a", "a"], "item": [1, 1], "label": ["x", "y"]}),
                   tmp_path / "d.parquet")
    with pytest.raises(InputError, match=r"d\.parquet: duplicate judgement by coder 'a' on "
                                         r"item 1 \(rows 1 and 2\)"):
        ReliabilityData.from_csv(tmp_path / "d.parquet")
    with pytest.raises(InputError, match=r"d\.parquet: no label column 'tag'"):
        ReliabilityData.from_csv(tmp_path / "d.parquet", label="tag")
    (tmp_path / "x.parquet").write_text("not parquet")
    with pytest.raises(InputError, match=r"x\.parquet: not a parquet file pyarrow reads"):
        ReliabilityData.from_csv(tmp_path / "x.parquet")


def test_from_arrow_and_dataframe_as_triples():
    rng = np.random.default_rng(3)
    rows = [(c, int(i), None if rng.random() < 0.2 else str(rng.choice(list("xyz"))),
             f"d{i % 3}") for i in range(40) for c in ("p", "q", "r") if rng.random() < 0.9]
    df = pd.DataFrame(rows, columns=["coder", "item", "label", "doc"])
    ref = ReliabilityData.from_triples([r[:3] for r in rows],
                                       groups={r[1]: r[3] for r in rows})
    assert_same(ReliabilityData.from_dataframe(df, document="doc"), ref)
    assert_same(ReliabilityData.from_arrow(pa.Table.from_pandas(df), group="doc"), ref)
    num = df.assign(label=df["label"].map({"x": 1.0, "y": 2.0, "z": 3.5}))
    ref = ReliabilityData.from_triples(list(zip(num.coder, num.item, num.label, strict=True)))
    assert ReliabilityData.from_dataframe(num).labels == ref.labels == [1.0, 2.0, 3.5]
    sets = pa.table({"coder": ["a", "b", "a"], "item": [1, 1, 2],
                     "label": [["x", "y"], ["y", "x", "x"], []]})
    data = ReliabilityData.from_arrow(sets)
    assert data.is_set and data.codes[0, 0] == data.codes[1, 0] and data.n_labels == 2
    with pytest.raises(InputError, match="item 1 is in group 'd0' and 'd1'"):
        ReliabilityData.from_dataframe(pd.DataFrame({"coder": ["a", "b"], "item": [1, 1],
                                                     "label": ["x", "y"],
                                                     "doc": ["d0", "d1"]}), document="doc")


ALPHABET = list('abAB12 ,;\t|"\n\r.xNA') + ["é", "\x1c", "\u00a0"]


@pytest.mark.parametrize("seed", range(3))
def test_random_text_as_the_per_cell_reader(tmp_path, seed):
    """Short tables of random cells (quotes, delimiters, line breaks, white space, missing
    spellings): the same data, or the same message, as the per-cell reader."""
    rng = np.random.default_rng(seed)
    p = tmp_path / "f.csv"

    def outcome(read):
        try:
            data = read()
        except (InputError, ValueError) as e:
            return type(e).__name__, str(e)
        labels = [data.labels[k] for k in range(data.n_labels)] if data.is_set else \
            list(data.labels)
        return (data.coders, list(data.items), data.codes.tolist(), labels,
                data.group_names, None if data.groups is None else data.groups.tolist())

    for _ in range(150):
        rows = ["coder,item,label,doc"]
        for _ in range(rng.integers(1, 8)):
            cells = ["".join(rng.choice(ALPHABET, rng.integers(0, 4))) if rng.random() < 0.3
                     else str(rng.choice(["A", "B", "C"])) for _ in range(4)]
            rows.append(",".join(cells))
        p.write_text("\n".join(rows) + "\n", encoding="utf-8", newline="")
        kw = {"group": "doc" if rng.random() < 0.5 else None,
              "set_sep": "|" if rng.random() < 0.4 else None, "numeric": rng.random() < 0.2}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert outcome(lambda kw=kw: ReliabilityData.from_csv(p, **kw)) == \
                outcome(lambda kw=kw: per_cell_long(p, **kw)), (p.read_text(), kw)


def test_fuzz_findings_of_the_journal_run_are_one_line(tmp_path, cli):
    """Seed 0 of the 20,000-case run: a row of another width with bytes that are not UTF-8
    (pyarrow printed 'Exception ignored' decoding it for the invalid-row handler, case 3113),
    a 10 MB header cell (csv's field limit raised, case 4334) and a 28 MB header listed whole
    (case 8559) are each one line naming the file."""
    from pathlib import Path as _Path

    root = _Path(__file__).resolve().parents[2] / "sample_corpora/table"
    bad = tmp_path / "bad.csv"
    bad.write_bytes((root / "dialogue_acts.csv").read_bytes() + b"x,y\xc0\n")
    status, _, err = cli("table", str(bad))
    assert status == 2 and err.count("\n") == 1 and "not UTF-8" in err
    wide = (root / "essay_marks_wide.csv").read_text(encoding="utf-8")
    big = tmp_path / "wide.csv"
    big.write_text(wide.replace(wide.split(",")[1], "Z" * 10**7, 1), encoding="utf-8")
    status, _, err = cli("table", str(big), "--wide", "--distance", "interval")
    assert status == 2 and err.count("\n") == 1 and "field limit" in err
    head = tmp_path / "head.csv"
    head.write_text(",".join(f"c{k}" for k in range(10**5)) + "\n1,2\n", encoding="utf-8")
    status, _, err = cli("table", str(head))
    assert status == 2 and err.count("\n") == 1 and len(err) < 2000 and "more" in err
