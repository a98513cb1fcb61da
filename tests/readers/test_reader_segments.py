"""Segmentation readers: segeval JSON/TSV, positions CSV, rs3, DISRPT and plain text."""

from __future__ import annotations

import json
import re
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
    with pytest.raises(InputError, match=r"annotators=\[\.\.\.\]: z not found in .*m\.json; the "
                       "annotators there are a, b, c$"):
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


@pytest.mark.parametrize("unit", ["word", "sentence"])
@pytest.mark.parametrize("seed", range(6))
def test_plaintext_difference_found_before_tokenising_all(tmp_path: Path, unit: str, seed: int,
                                                          monkeypatch) -> None:
    """Texts whose characters differ are tokenised only to just past the first difference:
    the error is the one the whole texts give (a small margin here, so the prefix is cut
    inside the texts; differences by a changed, dropped or added word, and a text that is
    the other's beginning)."""
    import random

    rng = random.Random(seed)
    vocab = ["Ann", "saw", "Tom.", "It", "rained,", "didn't", "it?", "Yes!", "(no)", "the",
             "road", "flooded."]
    words = [rng.choice(vocab) for _ in range(400)]
    other = list(words)
    k = rng.randrange(1, 399)
    change = seed % 4
    if change == 0:
        other[k] = "zebra"
    elif change == 1:
        del other[k]
    elif change == 2:
        other.insert(k, "zebra.")
    else:
        other = other[:k]

    def text(ws: list[str]) -> str:
        return " ".join(w + ("\n\n" if i % 37 == 36 else "") for i, w in enumerate(ws))

    root = write_texts(tmp_path, {"a": text(words), "b": text(other)})
    monkeypatch.setattr(plaintext, "MARGIN", 5)
    with pytest.raises(InputError) as fast:
        plaintext.read(root, unit=unit)
    a, b = (plaintext._units(plaintext._segments(text(ws), None), unit, "en")[0]
            for ws in (words, other))
    with pytest.raises(InputError) as whole:
        plaintext._raise_difference("story", unit, root / "b" / "story.txt", b,
                                    root / "a" / "story.txt", a)
    assert str(fast.value) == str(whole.value)


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


# DISRPT as the shared tasks and GUM write it --------------------------------------------------

DISRPT = TEST_DATA / "segments_disrpt"
GUM_EDUS = {"GUM_essay_ferry": (5, 7, 5, 6, 5, 5), "GUM_news_market": (5, 6, 7)}


def test_disrpt_gum_capital_seg_label_is_a_segment_begin() -> None:
    """GUM's own DISRPT export writes ``Seg=B-Seg`` (capital S), amid ``MSeg=…`` and
    ``Entity=…`` keys: one EDU per label, not one segment per document."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        segs = disrpt.read(DISRPT / "gum_a")
    assert {s.document: s.masses for s in segs} == GUM_EDUS
    assert sum(len(s.masses) for s in segs) == 9
    assert readers.detect("segments", DISRPT / "gum_a") == "disrpt"


def test_disrpt_every_release_spelling_gives_the_same_edus(tmp_path: Path) -> None:
    """2019 ``.conll`` with ``BeginSeg=Yes``, 2023-25 ``Seg=B-seg``, GUM ``Seg=B-Seg``."""
    assert readers.detect("segments", DISRPT / "sharedtask2019") == "disrpt"
    old = disrpt.read(DISRPT / "sharedtask2019")
    assert {s.document: s.masses for s in old} == GUM_EDUS
    text = (DISRPT / "gum_a" / "eng.erst.gum_dev.conllu").read_text(encoding="utf-8")
    for label in ("Seg=B-seg", "seg=b-seg", "BeginSeg=Yes"):
        doc = text.replace("Seg=B-Seg", label)
        if label == "BeginSeg=Yes":
            doc = doc.replace("|Seg=O", "").replace("Seg=O|", "").replace("\tSeg=O", "\t_")
        path = tmp_path / "x.conllu"
        path.write_text(doc, encoding="utf-8")
        assert {s.document: s.masses for s in disrpt.read({"x": path})} == GUM_EDUS, label


@pytest.mark.parametrize("name, label", [("eng.pdtb.gum_dev.conllu", "Conn=B-conn"),
                                         ("eng.pdtb.pdtb_dev.tok", "Seg=B-Conn")])
def test_disrpt_connective_file_is_an_error(name: str, label: str) -> None:
    path = DISRPT / "pdtb" / name
    with pytest.raises(InputError, match="connective") as err:
        disrpt.read(path)
    where(err, path, 2)
    assert label in err.value.message and "not a segmentation" in err.value.message


def test_disrpt_pdtb_file_without_labels_is_an_error(tmp_path: Path) -> None:
    text = (DISRPT / "pdtb" / "eng.pdtb.pdtb_dev.tok").read_text(encoding="utf-8")
    path = tmp_path / "a" / "eng.pdtb.pdtb_dev.tok"
    path.parent.mkdir()
    path.write_text(text.replace("Seg=B-Conn", "_"), encoding="utf-8")
    with pytest.raises(InputError, match="connectives, not a segmentation") as err:
        disrpt.read(path)
    where(err, path, None)


def test_disrpt_document_without_labels_warns(tmp_path: Path) -> None:
    """No segment label at all: a warning naming the file and the documents, not one silent
    segment; a document with labels is read as usual."""
    text = (DISRPT / "gum_a" / "eng.erst.gum_dev.conllu").read_text(encoding="utf-8")
    first, second = text.split("# newdoc id = GUM_news_market")
    path = tmp_path / "a" / "x.tok"
    path.parent.mkdir()
    path.write_text(first.replace("Seg=B-Seg", "Seg=O") + "# newdoc id = GUM_news_market"
                    + second, encoding="utf-8")
    with pytest.warns(UserWarning, match=r"x\.tok: 1 of 2 document\(s\) \('GUM_essay_ferry'\) "
                      r"have no segment-begin label .*read as one segment"):
        segs = disrpt.read(path)
    assert {s.document: s.masses for s in segs} == {"GUM_essay_ferry": (33,),
                                                    "GUM_news_market": (5, 6, 7)}


def test_disrpt_unknown_segment_label(tmp_path: Path) -> None:
    path = tmp_path / "x.tok"
    path.write_text("1\tA\t_\t_\t_\t_\t_\t_\t_\tSeg=B-edu\n2\tb\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n")
    with pytest.raises(InputError, match="unknown segment label 'Seg=B-edu'") as err:
        disrpt.read(path)
    where(err, path, 1)


def test_disrpt_conllu_without_labels_is_not_sniffed(tmp_path: Path) -> None:
    path = tmp_path / "coref.conllu"
    path.write_text("# newdoc id = d\n1\tA\t_\t_\t_\t_\t_\t_\t_\tEntity=(1)\n")
    assert not disrpt.sniff(path)
    assert disrpt.sniff(DATA / "mwt.conllu")


# encodings ------------------------------------------------------------------------------------

LATIN1 = "Zoë".encode("latin-1")


@pytest.mark.parametrize("reader, name, body, line", [
    (segeval.read, "d.tsv", b"Coder\tMasses\n" + LATIN1 + b"\t2\t3\n", 2),
    (segeval.read, "d.json", b'{"segmentation_type": "linear",\n "items": {"' + LATIN1
     + b'": {"a": [1]}}}', 2),
    (disrpt.read, "d.tok", b"1\tA\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg\n2\t" + LATIN1
     + b"\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n", 2),
    (plaintext.read, "d.txt", b"One two.\n\n" + LATIN1 + b" three.\n", 3),
])
def test_not_utf8_says_where(tmp_path: Path, reader, name: str, body: bytes, line: int) -> None:
    path = tmp_path / "a" / name
    path.parent.mkdir()
    path.write_bytes(body)
    with pytest.raises(InputError, match=r"not UTF-8 \(byte 0xeb at column \d+\); save the file "
                       "as UTF-8") as err:
        reader(path)
    where(err, path, line)


def test_positions_neither_utf8_nor_cp1252(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_bytes(b"p,a,b\n1,1,1\n2,\x81,1\n")
    with pytest.raises(InputError, match=r"not UTF-8 \(byte 0x81 at column 3\), nor cp1252; "
                       "save the file as UTF-8") as err:
        positions.read(path)
    where(err, path, 3)


@pytest.mark.parametrize("reader, name, body, expected", [
    (segeval.read, "d.tsv", "Coder\tMasses\na\t2\t3\nb\t5\n", {("d", "a"): (2, 3),
                                                              ("d", "b"): (5,)}),
    (positions.read, "d.csv", "p,a,b\n1,1,1\n2,2,1\n", {("d", "a"): (1, 1), ("d", "b"): (2,)}),
    (disrpt.read, "d.tok", "1\tA\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg\n2\tb\t_\t_\t_\t_\t_\t_\t_\t"
     "Seg=B-seg\n", {("d", "a"): (1, 1)}),
    (plaintext.read, "d.txt", "One two.\n\nThree.\n", {("d", "a"): (3, 2)}),
    (rs3.read, "d.rs3", EXAMPLE_RS3, {("d", "a"): (4, 3, 7)}),
])
def test_utf8_bom_accepted(tmp_path: Path, reader, name: str, body: str, expected) -> None:
    path = tmp_path / "a" / name
    path.parent.mkdir()
    path.write_bytes(b"\xef\xbb\xbf" + body.encode("utf-8"))
    assert masses(reader(path)) == expected


# sizes: no allocation by a number read from the file, no field or text limit ------------------

def test_segeval_huge_masses_are_refused_before_allocating(tmp_path: Path) -> None:
    """A mass is a number: 10⁷ or 10¹² units from a few bytes are refused at once (they asked
    for 16 s and 2.4 GB, or 7 TiB), with the limit the file's size allows."""
    import tracemalloc

    for total in (10 ** 7, 10 ** 12):  # the time: benchmarks/pathological.py
        path = tmp_path / f"m{total}.json"
        path.write_text(json.dumps({"segmentation_type": "linear", "items": {
            "d": {"a": [total], "b": [total // 2, total - total // 2]}}}))
        tracemalloc.start()
        with pytest.raises(InputError, match=r"more than a file of \d+ bytes may describe "
                           r"\(1,000,000:") as err:
            segeval.read(path)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < 5_000_000, (total, peak)
        assert err.value.path == str(path) and "coder 'a'" in err.value.message


def test_segeval_limit_grows_with_the_file(tmp_path: Path) -> None:
    """The limit is max(10⁶, 1000 × bytes): a file describing many documents may cover more
    units in all (reading it costs time linear in its size: benchmarks/pathological.py)."""
    for n in (400, 4000):
        items = {f"d{i}": {"a": [300, 300], "b": [600]} for i in range(n)}
        path = tmp_path / f"n{n}.json"
        path.write_text(json.dumps({"segmentation_type": "linear", "items": items}))
        assert path.stat().st_size * segeval.UNITS_PER_BYTE > 1200 * n
        assert len(segeval.read(path)) == 2 * n
    assert segeval.unit_limit(10) == 1_000_000 and segeval.unit_limit(10_000) == 10_000_000


def test_segeval_tsv_huge_or_odd_numbers(tmp_path: Path) -> None:
    path = tmp_path / "d.tsv"
    path.write_text("Coder\tMasses\na\t" + "9" * 5000 + "\n")
    with pytest.raises(InputError, match="positive integer masses") as err:
        segeval.read(path)
    where(err, path, 2)
    path.write_text("Coder\tMasses\na\t²\n")
    with pytest.raises(InputError, match="positive integer masses"):
        segeval.read(path)


def test_segeval_json_too_deep_or_too_many_digits(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputError, match="nested too deeply") as err:
        segeval.read(path)
    where(err, path, None)
    path.write_text('{"segmentation_type": "linear", "items": {"d": {"a": [' + "1" * 5000
                    + "]}}}")
    with pytest.raises(InputError, match="malformed JSON: Exceeds the limit"):
        segeval.read(path)


def test_positions_field_longer_than_the_csv_limit(tmp_path: Path) -> None:
    """A cell over csv's 131,072-character default is read (in time linear in its length:
    benchmarks/pathological.py)."""
    import csv

    before = csv.field_size_limit()
    for n in (150_000, 1_500_000):
        path = tmp_path / f"n{n}.csv"
        path.write_text(f'unit,a,b\n"{"x" * n}",1,1\n2,1,2\n')
        assert masses(positions.read(path)) == {(f"n{n}", "a"): (2,), (f"n{n}", "b"): (1, 1)}
    assert csv.field_size_limit() == before


def test_positions_malformed_csv_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_bytes(b"p,a\n1,1\n2,\"1\x00\n")
    with pytest.raises(InputError) as err:
        positions.read(path)
    assert str(err.value).startswith(f"{path}:") and "\n" not in str(err.value)


def test_plaintext_longer_than_spacy_max_length(tmp_path: Path) -> None:
    """spaCy refuses texts over nlp.max_length (10⁶ characters, E088); the blank tokeniser
    needs no model memory, so a long segment is read."""
    text = "word " * 210_000
    root = write_texts(tmp_path, {"a": text, "b": text[:500_000] + "\n\n" + text[500_000:]})
    assert masses(plaintext.read(root)) == {("story", "a"): (210_000,),
                                            ("story", "b"): (100_000, 110_000)}


# coder maps ------------------------------------------------------------------------------------

def test_coder_map_file(tmp_path: Path) -> None:
    from corpusagree.readers._segfiles import read_coder_map

    path = tmp_path / "map.csv"
    path.write_text("\ufeffDocument,Coder,Person\nch1,an1,p1\nch1,an2,p2\n\nch2,an1,p2\n")
    assert read_coder_map(path) == {("ch1", "an1"): "p1", ("ch1", "an2"): "p2",
                                    ("ch2", "an1"): "p2"}
    for body, line, words in [("document,person\nch1,p1\n", 1, "header document,coder,person"),
                              ("document,coder,person\nch1,an1\n", 2, "three non-empty"),
                              ("document,coder,person\nch1,an1,p\nch1,an1,q\n", 3,
                               "mapped twice (first at line 2)")]:
        path.write_text(body)
        with pytest.raises(InputError, match=re.escape(words)) as err:
            read_coder_map(path)
        where(err, path, line)
    path.write_text("document,coder,person\n")
    with pytest.raises(InputError, match="empty coder map"):
        read_coder_map(path)


def test_plaintext_long_segment_is_read_in_pieces(tmp_path: Path) -> None:
    """A segment is tokenised in pieces of at most ~PIECE characters, so memory does not grow
    with the segment (one spaCy Doc of a 20 MB line asked for more than 1 GB), and time grows
    linearly (benchmarks/pathological.py)."""
    text = "a " * 1_000_000 + "b" * 150_000 + " " + "x" * 3_000_000
    pieces = [p for p, _ in plaintext._pieces(text, "word")]
    assert "".join(pieces) == text
    assert all(len(p) <= plaintext.PIECE for p in pieces if p.startswith("a"))
    assert any("b" * 150_000 in p for p in pieces)  # a long run is not cut …
    assert max(map(len, pieces)) == 10 * plaintext.PIECE  # … unless longer than 10 pieces

    for n in (60_000, 600_000):
        (tmp_path / str(n)).mkdir()
        path = tmp_path / str(n) / "doc.txt"
        path.write_text("a " * (n // 2) + "\n\nEnd.\n")
        assert masses(plaintext.read(path)) == {("doc", str(n)): (n // 2, 2)}


def test_plaintext_pieces_keep_words_and_sentences(tmp_path: Path) -> None:
    """Cutting a long segment into pieces changes no word and no sentence."""
    sentence = "It rained all day, and the road flooded. "
    text = sentence * 3000 + "x" * 1000 + " " + "The end."
    cut = len(sentence) * 10
    root = write_texts(tmp_path, {"a": text, "b": text[:cut] + "\n\n" + text[cut:]})
    words = masses(plaintext.read(root))
    assert words[("story", "a")] == (3000 * 10 + 1 + 3,)  # 10 words a sentence, x…x, The end .
    assert words[("story", "b")] == (100, 2990 * 10 + 1 + 3)
    sentences = masses(plaintext.read(root, unit="sentence"))
    assert sentences[("story", "a")] == (3000 + 1,)  # x…x The end. is one sentence
    assert sentences[("story", "b")] == (10, 2990 + 1)


def test_plaintext_one_text_goes_on_where_the_other_ends(tmp_path: Path) -> None:
    """The first word one text has and the other lacks is named, not the last shared one."""
    root = write_texts(tmp_path, {"a": "A b.\n\nC d.\n", "b": "A b.\n\nC d. E f.\n"})
    with pytest.raises(InputError, match=r"word 5 is 'E' here but end of text"):
        plaintext.read(root)
    (tmp_path / "2").mkdir()
    root = write_texts(tmp_path / "2", {"a": "A b.\n\nC d. E f.\n", "b": "A b.\n\nC d.\n"})
    with pytest.raises(InputError, match=r"word 5 is end of text here but 'E'"):
        plaintext.read(root)


def test_segeval_tsv_rows_as_written(tmp_path: Path) -> None:
    """Rows of plain digits and rows with spaces or CRLF read alike (cells are stripped); an
    empty cell (a trailing tab too), a zero or a non-ASCII digit is an error naming its line,
    every such line in one message."""
    path = tmp_path / "d.tsv"
    path.write_bytes(b"Coder\tMasses\r\na\t2\t3\r\n b \t 4 \t1\r\n\r\nc\t5\t\r\n"
                     b"d\t1\t\t4\ne\t0\t5\nf\t\xc2\xb2\t3\n")
    with pytest.raises(InputError) as err:
        segeval.read(path)
    assert str(err.value).splitlines() == [
        f"{path}:{n}: expected a coder name then positive integer masses, tab-separated"
        for n in (5, 6, 7, 8)]
    path.write_bytes(b"Coder\tMasses\r\na\t2\t3\r\n b \t 4 \t1\r\n\r\nc\t3\t0002\r\n\r\n")
    assert masses(segeval.read(path)) == {("d", "a"): (2, 3), ("d", "b"): (4, 1),
                                          ("d", "c"): (3, 2)}


@pytest.mark.parametrize("job", ["segments", "spans"])
def test_positions_delimiter_of_two_characters(cli, job):
    """Issue 37, 8: ``--delimiter ab`` is one line naming it (the positions reader checks it
    as the table reader does), not a TypeError from the csv module."""
    with pytest.raises(InputError, match="the delimiter must be one character, not 'ab'"):
        positions.read(OWN_SAMPLES / "positions", delimiter="ab")
    code, out, err = cli(job, str(OWN_SAMPLES / "positions"), "--input-format", "positions",
                         "--delimiter", "ab")
    assert (code, out) == (2, "")
    assert err.strip() == "the delimiter must be one character, not 'ab'"
