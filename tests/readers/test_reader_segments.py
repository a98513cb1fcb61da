"""Segmentation readers: segeval JSON/TSV, positions CSV, rs3, DISRPT and plain text."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import corpusagree.readers as readers
from corpusagree.model.errors import InputError
from corpusagree.readers import disrpt, plaintext, positions, rs3, segeval

from support import CORPORA
from support import DATA as TEST_DATA
from support import SAMPLES as OWN

DATA = TEST_DATA / "segments"
OWN_SAMPLES = OWN / "segments"
SAMPLES = CORPORA / "segeval_samples"
MOONSTONE = CORPORA / "moonstone_kazantseva2012"
RSTMULTI = CORPORA / "rstmulti_hewett2025" / "data"


def corpus(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def masses(segs) -> dict[tuple[str, str], tuple[int, ...]]:
    return {(s.document, s.annotator): s.masses for s in segs}


def where(err: pytest.ExceptionInfo, path: Path, line: int | None) -> None:
    """The error names the file and (if given) the line, ``file:line: message``."""
    assert err.value.path == str(path)
    assert err.value.line == line
    prefix = f"{path}:{line}: " if line is not None else f"{path}: "
    assert str(err.value).startswith(prefix)


# segeval JSON / TSV -------------------------------------------------------------------------

@pytest.mark.parametrize("name, line, words", [
    ("hearst1997_bad_type.ejson", 13, "segmentation_type"),
    ("hearst1997_missing_items.ejson", 1, "'items'"),
    ("hearst1997_missing_type.ejson", 1, "'segmentation_type'"),
])
def test_malformed_segeval_samples(name: str, line: int, words: str) -> None:
    path = corpus(SAMPLES / name)
    with pytest.raises(InputError) as err:
        segeval.read(path)
    where(err, path, line)
    assert words in err.value.message


def test_segeval_json_syntax_error_gives_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n "segmentation_type": "linear",\n "items": {"d": {"a": [1, 2,]}}\n}\n')
    with pytest.raises(InputError) as err:
        segeval.read(path)
    where(err, path, 3)


def test_segeval_structural_errors_name_key_path_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"segmentation_type": "linear",\n "items": {\n  "d": {\n   "a": [2, 3],\n'
                    '   "b": [2, "x"]}}}\n')
    with pytest.raises(InputError) as err:
        segeval.read(path)
    where(err, path, 5)
    assert "items/d/b" in err.value.message


def test_segeval_unequal_totals(tmp_path: Path) -> None:
    path = tmp_path / "len.json"
    path.write_text(json.dumps({"segmentation_type": "linear",
                                "items": {"d": {"a": [2, 3], "b": [6]}}}, indent=1))
    with pytest.raises(InputError, match="covers 6 units") as err:
        segeval.read(path)
    assert err.value.line == 9


def test_segeval_json_and_tsv_agree() -> None:
    js = segeval.read(corpus(SAMPLES / "hearst1997.json"))
    tsv = segeval.read(SAMPLES / "hearst1997.tsv")
    assert len(js) == 7
    assert {s.annotator: s.masses for s in js} == {s.annotator: s.masses for s in tsv}
    assert {s.document for s in tsv} == {"hearst1997"}
    assert js[0].masses == (2, 3, 3, 1, 3, 6, 3)


def test_segeval_annotator_filter_and_missing_coder(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"segmentation_type": "linear", "items": {
        "d1": {"a": [3, 2], "b": [5], "c": [1, 4]}, "d2": {"a": [4], "b": [2, 2]}}}))
    assert masses(segeval.read(path, annotators=["a", "c"])) == {
        ("d1", "a"): (3, 2), ("d1", "c"): (1, 4), ("d2", "a"): (4,)}
    with pytest.raises(InputError, match="not found: z"):
        segeval.read(path, annotators=["a", "z"])


# positions CSV ------------------------------------------------------------------------------

def test_moonstone_positions_equal_segeval_json() -> None:
    csv_segs = positions.read(corpus(MOONSTONE / "segmentations"))
    json_segs = segeval.read(MOONSTONE / "moonstone_segeval_masses.json")
    assert len({s.document for s in csv_segs}) == 20
    assert len(csv_segs) == 108
    assert masses(csv_segs) == masses(json_segs)
    assert {s.unit for s in csv_segs} == {"paragraph"}
    assert sum(sum(s.masses) for s in csv_segs if s.annotator == "an1") == 1076


def test_segeval_row_positions_file() -> None:
    segs = positions.read(corpus(SAMPLES / "hearst1997_positions.csv"))
    ref = segeval.read(SAMPLES / "hearst1997.json")
    assert {s.annotator: s.masses for s in segs} == {s.annotator: s.masses for s in ref}


def test_positions_non_monotone() -> None:
    path = DATA / "nonmonotone.csv"
    with pytest.raises(InputError, match="'an2'.*must not decrease") as err:
        positions.read(path)
    where(err, path, 4)


def test_positions_cp1252_fallback() -> None:
    segs = positions.read(DATA / "cp1252.csv")
    assert masses(segs) == {("cp1252", "Zoë"): (2, 1), ("cp1252", "an2"): (3,)}


def test_positions_empty_column_means_absent(tmp_path: Path) -> None:
    path = tmp_path / "doc.tsv"
    path.write_text("sentence\ta\tb\tc\n1\t1\t\t1\n2\t2\t\t1\n3\t2\t\t4\n")
    segs = positions.read(path)
    assert masses(segs) == {("doc", "a"): (1, 2), ("doc", "c"): (2, 1)}
    assert segs[0].unit == "sentence"


def test_positions_partly_empty_column(tmp_path: Path) -> None:
    path = tmp_path / "doc.csv"
    path.write_text("p,a,b\n1,1,1\n2,1,\n3,2,2\n")
    with pytest.raises(InputError, match="'b'") as err:
        positions.read(path)
    where(err, path, 3)


# rs3 ----------------------------------------------------------------------------------------

EXAMPLE_RS3 = """<rst>
  <header><relations><rel name="joint" type="multinuc"/></relations></header>
  <body>
    <segment id="1" parent="5" relname="concession">Although the ferry leaked,</segment>
    <segment id="2" parent="4" relname="joint">Mara sold it</segment>
    <segment id="3" parent="4" relname="joint">and bought a bike &amp; a bell.</segment>
    <group id="4" type="multinuc" parent="5" relname="span"/>
    <group id="5" type="span"/>
  </body>
</rst>
"""


def write_rs3(folder: Path, text: str = EXAMPLE_RS3, name: str = "doc.rs3") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def test_rs3_tokens_and_chars(tmp_path: Path) -> None:
    path = write_rs3(tmp_path / "ann1")
    [seg] = rs3.read(path)
    assert (seg.document, seg.annotator, seg.masses, seg.unit) == ("doc", "ann1", (4, 3, 7),
                                                                   "token")
    assert rs3.read(path, unit="char")[0].masses == (23, 10, 21)
    assert rs3.read({"zoe": path})[0].annotator == "zoe"


def test_rs3_annotators_tokenising_differently(tmp_path: Path) -> None:
    write_rs3(tmp_path / "a")
    other = write_rs3(tmp_path / "b", EXAMPLE_RS3.replace("leaked,", "leaked ,"))
    write_rs3(tmp_path / "a", name="ok.rs3")
    write_rs3(tmp_path / "b", name="ok.rs3")
    with pytest.raises(InputError, match=r"token 4 is 'leaked' here but 'leaked,'") as err:
        rs3.read(tmp_path)
    assert err.value.path == str(other)
    with pytest.warns(UserWarning, match="document skipped"):
        segs = rs3.read(tmp_path, on_mismatch="skip")
    assert {s.document for s in segs} == {"ok"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(rs3.read(tmp_path, unit="char")) == 4


def test_rs3_errors(tmp_path: Path) -> None:
    empty = write_rs3(tmp_path / "a", EXAMPLE_RS3.replace("Mara sold it", " "), "e.rs3")
    with pytest.raises(InputError, match="segment id='2' is empty") as err:
        rs3.read(empty)
    where(err, empty, 5)
    broken = write_rs3(tmp_path / "a", EXAMPLE_RS3.replace("</body>", ""), "b.rs3")
    with pytest.raises(InputError, match="malformed XML") as err:
        rs3.read(broken)
    assert err.value.line is not None


def test_rstmulti() -> None:
    segs = rs3.read(corpus(RSTMULTI))
    by_doc: dict[str, dict[str, tuple[int, ...]]] = {}
    for s in segs:
        by_doc.setdefault(s.document, {})[s.annotator] = s.masses
    assert len(segs) == 264
    assert sum(len(v) == 2 for v in by_doc.values()) == 130
    assert sum(len(v) == 2 and v["1"] == v["2"] for v in by_doc.values()) >= 121
    only_2 = by_doc["UNSC_2014_SPV.7154_spch019_UA_01"]
    assert list(only_2) == ["2"]


# DISRPT -------------------------------------------------------------------------------------

def test_disrpt_broken_column_count() -> None:
    path = DATA / "broken_columns.tok"
    with pytest.raises(InputError, match="expected 10 tab-separated columns, found 9") as err:
        disrpt.read(path)
    where(err, path, 3)


def test_disrpt_conllu_labels_mwt_empty_nodes() -> None:
    segs = disrpt.read({"x": DATA / "mwt.conllu"})
    assert masses(segs) == {("d1", "x"): (5, 4), ("d2", "x"): (4, 4)}
    assert {s.unit for s in segs} == {"token"}


def test_disrpt_token_mismatch(tmp_path: Path) -> None:
    rows = ["1\tA\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg", "2\tb\t_\t_\t_\t_\t_\t_\t_\tSeg=O"]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "f.tok").write_text("\n".join(rows) + "\n")
    (tmp_path / "b" / "f.tok").write_text("\n".join(rows[:1] + [rows[1].replace("b", "c")]))
    with pytest.raises(InputError, match="token 2 is 'c' here but 'b'") as err:
        disrpt.read(tmp_path)
    assert err.value.path == str(tmp_path / "b" / "f.tok")
    assert masses(disrpt.read(tmp_path / "a")) == {("f", "a"): (2,)}


# plain text ---------------------------------------------------------------------------------

def write_texts(tmp_path: Path, texts: dict[str, str]) -> Path:
    for annotator, text in texts.items():
        (tmp_path / annotator).mkdir()
        (tmp_path / annotator / "story.txt").write_text(text, encoding="utf-8")
    return tmp_path


def test_plaintext_words_and_sentences(tmp_path: Path) -> None:
    root = write_texts(tmp_path, {
        "a": "It rained. The road flooded.\n\nWe stayed home, didn't we?\n",
        "b": "It rained.\n\nThe road flooded.\nWe stayed home, didn't we?\r\n\r\n\r\n",
    })
    words = masses(plaintext.read(root))
    assert words == {("story", "a"): (7, 8), ("story", "b"): (3, 12)}
    sentences = masses(plaintext.read(root, unit="sentence"))
    assert sentences == {("story", "a"): (2, 1), ("story", "b"): (1, 2)}


def test_plaintext_marker(tmp_path: Path) -> None:
    root = write_texts(tmp_path, {
        "a": "==========\nOne.\n\nTwo.\n==========\nThree.\n==========\n",
        "b": "One.\n==========\nTwo.\n\nThree.\n",
    })
    segs = plaintext.read(root, unit="sentence", marker="=+")
    assert masses(segs) == {("story", "a"): (2, 1), ("story", "b"): (1, 2)}


def test_plaintext_different_text(tmp_path: Path) -> None:
    root = write_texts(tmp_path, {"a": "One two three.\n\nFour five.", "b": "One two three.\n\n"
                                  "Four six."})
    with pytest.raises(InputError, match="word 6 is 'six' here but 'five'") as err:
        plaintext.read(root)
    assert err.value.path == str(root / "b" / "story.txt")


def test_plaintext_bad_options(tmp_path: Path) -> None:
    root = write_texts(tmp_path, {"a": "One."})
    with pytest.raises(InputError, match="marker"):
        plaintext.read(root, marker="(")
    with pytest.raises(InputError, match="language"):
        plaintext.read(root, lang="xx-nonexistent")
    with pytest.raises(InputError, match="unit"):
        plaintext.read(root, unit="paragraph")


def test_plaintext_boundary_inside_sentence(tmp_path: Path) -> None:
    root = write_texts(tmp_path, {"a": "One two three. Four.", "b": "One two\n\nthree. Four."})
    assert len(plaintext.read(root)) == 2
    with pytest.raises(InputError, match="sentence 1 is 'One two' here"):
        plaintext.read(root, unit="sentence")


# sniffing -----------------------------------------------------------------------------------

def test_detect_segment_formats(tmp_path: Path) -> None:
    write_rs3(tmp_path / "rs3" / "a")
    (tmp_path / "txt").mkdir()
    write_texts(tmp_path / "txt", {"a": "One."})
    assert readers.detect("segments", tmp_path / "rs3") == "rs3"
    assert readers.detect("segments", tmp_path / "txt") == "text"
    assert readers.detect("segments", DATA / "mwt.conllu") == "disrpt"
    assert readers.detect("segments", DATA / "cp1252.csv") == "positions"
    assert readers.detect("segments", OWN_SAMPLES / "positions") == "positions"
    assert readers.detect("segments", OWN_SAMPLES / "segeval_tsv") == "segeval"
    if SAMPLES.exists():
        assert readers.detect("segments", SAMPLES / "hearst1997.json") == "segeval"
        assert readers.detect("segments", SAMPLES / "hearst1997.tsv") == "segeval"
        assert readers.detect("segments", SAMPLES / "hearst1997_positions.csv") == "positions"
