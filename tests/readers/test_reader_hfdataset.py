"""Hugging Face datasets as Parquet, Arrow files and save_to_disk folders."""

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from corpusagree import ReliabilityData
from corpusagree.analyses import table
from corpusagree.model.errors import InputError
from corpusagree.readers import hfdataset
from corpusagree.readers.table import platform

ROOT = Path(__file__).resolve().parents[2]
PARQUET = ROOT / "docs/formats/table/hf/labels.parquet"


def _random(seed=0, n=300):
    rng = np.random.default_rng(seed)
    rows = [(f"c{c}", f"i{i}", None if rng.random() < .1 else int(rng.integers(1, 6)))
            for c in range(4) for i in range(n) if rng.random() < .8]
    return rows


def _same(a, b):
    assert list(a.coders) == list(b.coders) and list(a.items) == list(b.items)
    assert list(a.labels) == list(b.labels) and (a.codes == b.codes).all()


@pytest.mark.parametrize("kind", ["parquet", "stream", "file"])
def test_random_data_with_missing_values_as_from_triples(tmp_path, kind):
    rows = _random()
    t = pa.table({"who": [r[0] for r in rows], "ex": [r[1] for r in rows],
                  "score": pa.array([r[2] for r in rows], pa.int64())})
    if kind == "parquet":
        f = tmp_path / "d.parquet"
        pq.write_table(t, f, row_group_size=100)
    else:
        f = tmp_path / "d.arrow"
        make = pa.ipc.new_stream if kind == "stream" else pa.ipc.new_file
        with make(f, t.schema) as w:
            for b in t.to_batches(max_chunksize=128):
                w.write_batch(b)
    got = table.read(f, coder="who", item="ex", label="score").data
    _same(got, ReliabilityData.from_triples(rows))


def test_a_folder_saved_to_disk(tmp_path):
    rows = _random(1, 50)
    t = pa.table({"coder": [r[0] for r in rows], "item": [r[1] for r in rows],
                  "label": [None if r[2] is None else f"L{r[2]}" for r in rows]})
    for k, part in enumerate((t.slice(0, 80), t.slice(80))):
        with pa.ipc.new_stream(tmp_path / f"data-0000{k}-of-00002.arrow", t.schema) as w:
            w.write_table(part)
    (tmp_path / "state.json").write_text(json.dumps({"_data_files": [
        {"filename": "data-00000-of-00002.arrow"}, {"filename": "data-00001-of-00002.arrow"}]}))
    (tmp_path / "dataset_info.json").write_text("{}")
    assert platform(tmp_path) == "hf"
    _same(table.read(tmp_path).data, ReliabilityData.from_triples(
        [(c, i, None if v is None else f"L{v}") for c, i, v in rows]))


def test_the_example_and_list_labels_as_sets(tmp_path):
    data = table.read(PARQUET, coder="annotator", item="id").data
    assert data.coders == ["ann1", "ann2", "ann3"] and data.labels == ["ok", "toxic"]
    f = tmp_path / "sets.parquet"
    pq.write_table(pa.table({"coder": ["a", "b"], "item": [1, 1],
                             "label": [["x", "y"], ["x"]]}), f)
    assert hfdataset.read_judgements(f).is_set


def test_bad_input_named(tmp_path, cli):
    f = tmp_path / "d.parquet"
    pq.write_table(pa.table({"coder": ["a", "a"], "item": [1, 1], "label": ["x", "y"]}), f)
    with pytest.raises(InputError, match="rows 0 and 1: coder 'a' judges item 1 twice"):
        table.read(f)
    with pytest.raises(InputError, match="no column.*'annotator'.*the columns are coder.*"
                       r"\(name them with coder=NAME, item=NAME, label=NAME\)$"):
        table.read(f, coder="annotator")
    status, _, err = cli("table", f, "--coder", "annotator")
    assert status == 2 and "(name them with --coder NAME, --item NAME, --label NAME)" in err


@pytest.mark.parametrize("input_format", ["auto", "long"])
@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_text_that_is_not_utf8_is_named_not_a_traceback(tmp_path, suffix, input_format):
    """Parquet and Arrow keep string bytes as written; pyarrow checks them only when asked
    (a byte flipped inside a label broke the reading with a UnicodeDecodeError)."""
    import pyarrow.feather as feather

    label = pa.array([b"x", b"\x99y", b"x", b"x"], pa.binary()).view(pa.string())
    t = pa.table({"coder": ["a", "b", "a", "b"], "item": ["1", "1", "2", "2"], "label": label})
    f = tmp_path / f"d{suffix}"
    (pq.write_table if suffix == ".parquet" else feather.write_feather)(t, f)
    with pytest.raises(InputError, match=r"d\.(parquet|arrow).*Invalid UTF8"):
        table.read(f, input_format=input_format)


def test_a_damaged_parquet_is_one_line(tmp_path):
    f = tmp_path / "d.parquet"
    pq.write_table(pa.table({"coder": ["a", "b"] * 50, "item": [str(i // 2) for i in range(100)],
                             "label": ["x"] * 100}), f)
    raw = f.read_bytes()
    f.write_bytes(raw[:60] + b"\x00" * 200 + raw[260:])
    with pytest.raises(InputError) as e:
        table.read(f)
    assert "\n" not in str(e.value) and "d.parquet" in str(e.value)


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_set_sep_numeric_and_categories_are_read_as_from_a_csv(tmp_path, suffix, cli):
    """A Parquet or Arrow file is read with the table job's options, as its CSV twin is
    (the options were ignored: "the jaccard distance needs set-valued labels")."""
    import pyarrow.csv as pc
    import pyarrow.feather as pf

    rng = np.random.default_rng(3)
    labels = [None if rng.random() < .1 else "|".join(sorted(
        {f"e{int(k)}" for k in rng.integers(1, 6, rng.integers(1, 4))})) for _ in range(200)]
    t = pa.table({"coder": [f"c{k % 4}" for k in range(200)],
                  "item": [f"i{k // 4}" for k in range(200)], "label": labels})
    pc.write_csv(t, tmp_path / "sets.csv")
    path = tmp_path / f"sets{suffix}"
    (pq.write_table if suffix == ".parquet" else pf.write_feather)(t, path)
    _same(table.read(path, set_sep="|").data, table.read(tmp_path / "sets.csv", set_sep="|").data)
    out = [cli("table", str(p), "--set-sep", "|", "--distance", "jaccard", "--json")
           for p in (path, tmp_path / "sets.csv")]
    assert [o[0] for o in out] == [0, 0]
    assert [json.loads(o[1])["coefficients"] for o in out][0] == \
        json.loads(out[1][1])["coefficients"]
    nums = pa.table({"coder": ["a", "b", "a", "b"], "item": ["1", "1", "2", "2"],
                     "label": ["1", "2", "3", "x"]})
    pq.write_table(nums, tmp_path / "nums.parquet")
    with pytest.raises(InputError, match="nums.parquet.*not a number"):
        table.read(tmp_path / "nums.parquet", numeric=True)
    with pytest.raises(InputError, match="'x'"):
        table.read(tmp_path / "nums.parquet", categories=["1", "2", "3"])


def test_an_option_a_platform_does_not_take_is_named_not_ignored(cli):
    argilla = ROOT / "docs/formats/table/argilla/records.json"
    with pytest.raises(InputError, match=r"set_sep='\|' does not apply to Argilla exports"):
        table.read(argilla, set_sep="|")
    status, _, err = cli("table", str(argilla), "--set-sep", "|")
    assert status == 2 and "--set-sep '|' does not apply to Argilla exports" in err
