"""Word-sense readers: Raganato, Senseval lexical sample, OntoNotes .sense, long TSV, WSbest,
sense inventories (OntoNotes XML and TSV), on small fixtures and two real corpora."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from corpusagree.model.corpus import SenseTag
from corpusagree.model.errors import InputError
from corpusagree.readers import detect, inventory, ontonotes, raganato, sensetsv, senseval

from support import CORPORA
from support import DATA as TEST_DATA

DATA = TEST_DATA / "senses"
DOC = "bn/demo/00/demo_0001@all@demo@bn@en@on"


def fails_at(path: Path, line: int | None, call, *args, **kwargs) -> InputError:
    """Run ``call`` and check it raises InputError prefixed ``path:line: ``."""
    with pytest.raises(InputError) as info:
        call(*args, **kwargs)
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    assert str(info.value).startswith(where), str(info.value)
    return info.value


def table(tags: list[SenseTag]) -> dict[tuple[str, str], frozenset[str]]:
    return {(t.item, t.annotator): t.senses for t in tags}


# ---------------------------------------------------------------- Raganato


def test_raganato_reads_one_tag_per_annotator_and_instance():
    keys = [DATA / "keys" / "ann1.key.txt", DATA / "keys" / "ann2.key.txt"]
    tags = raganato.read(DATA / "mini.data.xml", keys)
    assert table(tags) == {
        ("t1.s0.i0", "ann1"): {"sell%2:40:00::"},
        ("t1.s0.i1", "ann1"): {"ferry%1:06:00::"},
        ("t2.s0.i0", "ann1"): {"leak%2:30:00::"},
        ("t1.s0.i0", "ann2"): {"sell%2:40:00::"},
        ("t1.s0.i1", "ann2"): {"ferry%1:06:00::", "ferry%1:06:01::"},
    }
    leak = next(t for t in tags if t.item == "t2.s0.i0")
    assert (leak.lemma, leak.document, leak.source, leak.line) == (
        "leak", "t2", str(keys[0]), 4)


def test_raganato_annotator_names():
    keys = [DATA / "keys" / "ann1.key.txt", DATA / "keys" / "ann2.key.txt"]
    tags = raganato.read(DATA / "mini.data.xml", keys, annotators=["kim", "lee"])
    assert {t.annotator for t in tags} == {"kim", "lee"}
    one = raganato.read(DATA / "mini.data.xml", DATA / "keys" / "ann2.key.txt")
    assert {t.annotator for t in one} == {"ann2"}
    with pytest.raises(InputError, match="2 names for 1 key files"):
        raganato.read(DATA / "mini.data.xml", keys[:1], annotators=["kim", "lee"])


def test_raganato_same_file_names_use_folder_names(tmp_path):
    for who in ("kim", "lee"):
        (tmp_path / who).mkdir()
        shutil.copy(DATA / "keys" / "ann1.key.txt", tmp_path / who / "semeval.key.txt")
    paths = [tmp_path / w / "semeval.key.txt" for w in ("kim", "lee")]
    assert {t.annotator for t in raganato.read(DATA / "mini.data.xml", paths)} == {"kim", "lee"}
    with pytest.raises(InputError, match="not unique"):
        raganato.read(DATA / "mini.data.xml", [paths[0], paths[0]])


def test_raganato_unknown_instance():
    path = DATA / "keys" / "unknown.key.txt"
    err = fails_at(path, 2, raganato.read, DATA / "mini.data.xml", [path])
    assert "'t9.s0.i0' is not in the data file" in str(err)


def test_raganato_duplicate_instance_names_first_line():
    path = DATA / "keys" / "dup.key.txt"
    err = fails_at(path, 3, raganato.read, DATA / "mini.data.xml", [path])
    assert "duplicate instance 't1.s0.i0' (first at line 1)" in str(err)


def test_raganato_line_without_sense():
    path = DATA / "keys" / "nosense.key.txt"
    fails_at(path, 2, raganato.read, DATA / "mini.data.xml", [path])


def test_raganato_malformed_xml():
    path = DATA / "malformed.data.xml"
    err = fails_at(path, 5, raganato.read, path, [DATA / "keys" / "ann1.key.txt"])
    assert "malformed XML" in str(err)


def test_raganato_duplicate_instance_id_in_data():
    path = DATA / "dupid.data.xml"
    fails_at(path, 6, raganato.read, path, [DATA / "keys" / "ann1.key.txt"])
    lexsample = DATA / "lexsample.xml"
    err = fails_at(lexsample, 2, raganato.read, lexsample, [DATA / "keys" / "ann1.key.txt"])
    assert "not a Raganato data file" in str(err)


def test_raganato_missing_key_file():
    path = DATA / "keys" / "absent.key.txt"
    fails_at(path, None, raganato.read, DATA / "mini.data.xml", [path])


def test_raganato_sniff():
    assert raganato.sniff(DATA / "mini.data.xml")
    assert not raganato.sniff(DATA / "lexsample.xml")
    assert not raganato.sniff(DATA / "nowhere.xml")


# ---------------------------------------------------------------- Senseval lexical sample


def test_senseval_reads_answers_with_weights_and_comments():
    tags = senseval.read(DATA / "lexsample.xml", [DATA / "t1.ans", DATA / "t2.ans"])
    assert table(tags) == {
        ("ferry.n.x.001", "t1"): {"ferry%1:06:00::"},
        ("ferry.n.x.002", "t1"): {"ferry%1:06:00::", "U"},
        ("leak.v.x.001", "t1"): {"1"},
        ("ferry.n.x.001", "t2"): {"P"},
        ("leak.v.x.001", "t2"): {"2", "3"},
    }
    first = tags[0]
    assert (first.lemma, first.document, first.line) == ("ferry.n", "demo", 1)
    assert next(t for t in tags if t.item == "leak.v.x.001").document is None


def test_senseval_errors():
    fails_at(DATA / "unknown.ans", 2, senseval.read, DATA / "lexsample.xml",
             [DATA / "unknown.ans"])
    err = fails_at(DATA / "dup.ans", 3, senseval.read, DATA / "lexsample.xml",
                   [DATA / "dup.ans"])
    assert "(first at line 2)" in str(err)
    err = fails_at(DATA / "wronglexelt.ans", 2, senseval.read, DATA / "lexsample.xml",
                   [DATA / "wronglexelt.ans"])
    assert "belongs to lexelt 'leak.v'" in str(err)
    fails_at(DATA / "malformed_lexsample.xml", 3, senseval.read,
             DATA / "malformed_lexsample.xml", [DATA / "t1.ans"])
    fails_at(DATA / "mini.data.xml", 2, senseval.read, DATA / "mini.data.xml", [DATA / "t1.ans"])


def test_senseval_sniff():
    assert senseval.sniff(DATA / "lexsample.xml")
    assert not senseval.sniff(DATA / "mini.data.xml")


# ---------------------------------------------------------------- OntoNotes .sense


def test_ontonotes_sense_file():
    tags = ontonotes.read(DATA / "demo.sense")
    assert table(tags) == {
        (f"{DOC}:0:4", "a1"): {"ferry.n.1"},
        (f"{DOC}:0:4", "a2"): {"ferry.n.1"},
        (f"{DOC}:1:3", "a1"): {"leak.v.1"},
        (f"{DOC}:1:3", "a2"): {"leak.v.2"},
        (f"{DOC}:2:0", "a1"): {"ferry.n.1", "ferry.n.2"},
        (f"{DOC}:3:2", "a1"): {"leak.v.2"},
        (f"{DOC}:3:2", "a2"): {"leak.v.1"},
    }
    assert {(t.lemma, t.document) for t in tags if t.item.endswith(":1:3")} == {("leak.v", DOC)}
    assert [t.line for t in tags if t.annotator == "a1"] == [1, 2, 4, 6]


def test_ontonotes_adjudicator_and_agreed_option():
    tags = ontonotes.read(DATA / "demo.sense", annotators=("x", "y"), adjudicator="adj",
                          agreed=False)
    got = table(tags)
    assert got[f"{DOC}:1:3", "adj"] == {"leak.v.2"}
    assert got[f"{DOC}:1:1", "adj"] == {"say.v.1"}
    assert (f"{DOC}:0:4", "x") not in got
    assert {a for _, a in got} == {"x", "y", "adj"}


def test_ontonotes_errors():
    err = fails_at(DATA / "dup.sense", 3, ontonotes.read, DATA / "dup.sense")
    assert "(first at line 1)" in str(err)
    fails_at(DATA / "fields.sense", 2, ontonotes.read, DATA / "fields.sense")
    fails_at(DATA / "index.sense", 2, ontonotes.read, DATA / "index.sense")
    with pytest.raises(InputError, match="expected 2 names"):
        ontonotes.read(DATA / "demo.sense", annotators=("a",))


def test_ontonotes_sniff():
    assert ontonotes.sniff(DATA / "demo.sense")
    assert not ontonotes.sniff(DATA / "long.tsv")
    assert not ontonotes.sniff(DATA / "keys" / "ann1.key.txt")


# ---------------------------------------------------------------- inventories


def test_ontonotes_inventory_edges_and_keys():
    edges = inventory.read_xml(DATA / "ferry-n.xml")
    assert edges == [
        ("ferry.n.WN1", "ferry.n.1"), ("ferry.n.1", "ferry.n.G1"),
        ("ferry.n.WN2", "ferry.n.2"), ("ferry.n.WN3", "ferry.n.2"),
        ("ferriage.n.WN1", "ferry.n.2"), ("ferry.n.2", "ferry.n.G1"),
    ]
    assert inventory.read(DATA / "ferry-n.xml") == edges
    assert inventory.read_xml([DATA / "ferry-n.xml", DATA / "ferry-n.xml"]) == edges


def test_key_scheme():
    assert inventory.lemma_key("call-v") == inventory.lemma_key(" call.v ") == "call.v"
    assert inventory.lemma_key("follow-up") == "follow-up"
    assert inventory.sense_key("call-v", "1") == "call.v.1"
    assert inventory.group_key("call-v", "1") == "call.v.G1"
    assert inventory.wordnet_key("call-v", "19") == "call.v.WN19"


def test_ontonotes_inventory_errors():
    err = fails_at(DATA / "dupsense-n.xml", 6, inventory.read_xml, DATA / "dupsense-n.xml")
    assert "duplicate sense n='1' (first at line 3)" in str(err)
    err = fails_at(DATA / "clash-n.xml", 6, inventory.read_xml, DATA / "clash-n.xml")
    assert "clashes" in str(err)
    fails_at(DATA / "nolemma.xml", 2, inventory.read_xml, DATA / "nolemma.xml")
    fails_at(DATA / "malformed-n.xml", 3, inventory.read_xml, DATA / "malformed-n.xml")
    fails_at(DATA / "mini.data.xml", 2, inventory.read_xml, DATA / "mini.data.xml")


def test_tsv_inventory_verbatim_keys_and_several_parents():
    edges = inventory.read_tsv(DATA / "plain_inventory.tsv")
    assert edges == [("sell%2:40:00::", "SELL"), ("SELL", "TRADE"),
                     ("sell%2:40:01::", "SELL"), ("sell%2:40:01::", "PROMOTE")]
    assert inventory.read(DATA / "plain_inventory.tsv") == edges


def test_tsv_inventory_errors():
    fails_at(DATA / "short_inventory.tsv", 3, inventory.read_tsv, DATA / "short_inventory.tsv")
    err = fails_at(DATA / "loop_inventory.tsv", 3, inventory.read_tsv,
                   DATA / "loop_inventory.tsv")
    assert "'call.v.LABEL' is its own group" in str(err)


# ---------------------------------------------------------------- long TSV


def test_long_tsv_defaults():
    tags = sensetsv.read(DATA / "long.tsv")
    assert table(tags) == {("x1", "ann1"): {"S1"}, ("x1", "ann2"): {"S1", "S2"},
                           ("x2", "ann2"): {"S3"}}
    last = tags[-1]
    assert (last.lemma, last.document, last.source, last.line) == (
        None, "d2", str(DATA / "long.tsv"), 5)
    assert tags[0].lemma == "bank"


def test_long_tsv_custom_columns():
    tags = sensetsv.read(DATA / "custom.tsv", item="id", annotator="coder", senses="tags",
                         sep=";")
    assert table(tags) == {("x1", "kim"): {"A", "B"}, ("x2", "kim"): {"C"}}


def test_long_tsv_errors():
    err = fails_at(DATA / "dup.tsv", 4, sensetsv.read, DATA / "dup.tsv")
    assert "(first at line 2)" in str(err)
    fails_at(DATA / "fields.tsv", 3, sensetsv.read, DATA / "fields.tsv")
    err = fails_at(DATA / "nocolumn.tsv", 1, sensetsv.read, DATA / "nocolumn.tsv")
    assert "missing column(s) annotator" in str(err)


def test_long_tsv_not_utf8(tmp_path):
    path = tmp_path / "latin1.tsv"
    path.write_bytes(b"item\tannotator\tsense\nx1\tA\tS1\nx2\tA\tcaf\xe9\n")
    err = fails_at(path, 3, sensetsv.read, path)
    assert "not UTF-8" in str(err)


def test_wsbest_sets_of_chosen_senses():
    path = DATA / "wsbest" / "judgments.tsv"
    tags = sensetsv.read_wsbest(path)
    assert table(tags) == {("7", "A"): {"order%2:32:00::"},
                           ("7", "B"): {"order%2:30:00::", "order%2:32:00::"},
                           ("8", "B"): {"range%1:14:00::"}}
    assert [(t.lemma, t.line) for t in tags] == [("order.v", 2), ("order.v", 4),
                                                 ("range.n", 8)]
    assert sensetsv.read(path) == tags
    assert all(t.lemma is None for t in sensetsv.read_wsbest(path, uses=DATA / "none.tsv"))


def test_wsbest_errors():
    d = DATA / "wsbest"
    err = fails_at(d / "dup_judgments.tsv", 4, sensetsv.read_wsbest, d / "dup_judgments.tsv")
    assert "(first at line 2)" in str(err)
    fails_at(d / "badlabel_judgments.tsv", 3, sensetsv.read_wsbest,
             d / "badlabel_judgments.tsv")
    fails_at(d / "badid_judgments.tsv", 2, sensetsv.read_wsbest, d / "badid_judgments.tsv")


def test_long_tsv_sniff():
    assert sensetsv.sniff(DATA / "long.tsv")
    assert sensetsv.sniff(DATA / "wsbest" / "judgments.tsv")
    assert not sensetsv.sniff(DATA / "custom.tsv")
    assert not sensetsv.sniff(DATA / "demo.sense")


def test_registry_detects_each_format():
    assert detect("senses", DATA / "mini.data.xml") == "raganato"
    assert detect("senses", DATA / "lexsample.xml") == "senseval"
    assert detect("senses", DATA / "demo.sense") == "ontonotes"
    assert detect("senses", DATA / "long.tsv") == "sensetsv"


# ---------------------------------------------------------------- real corpora


def corpus(*parts: str) -> Path:
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def test_snow2008_wsd():
    tags = sensetsv.read(corpus("snow2008_mturk", "wsd.standardized.tsv"))
    assert len(tags) == 1770
    assert len({t.item for t in tags}) == 177
    assert Counter(Counter(t.item for t in tags).values()) == {10: 177}
    assert len({t.annotator for t in tags}) == 34
    assert Counter(s for t in tags for s in t.senses) == {"1": 1288, "3": 442, "2": 40}
    assert tags[0].item == "5:0@35@wsj/23/wsj_2386@wsj@en@on" and tags[0].line == 2


def test_erk2013_wsbest():
    tags = sensetsv.read(corpus("erk2013_wsbest_wssim", "wsbest", "judgments.tsv"))
    assert len(tags) == 2080
    assert len({t.item for t in tags}) == 260
    assert sorted({t.annotator for t in tags}) == list("ACDFGHIJ")
    assert Counter(len(t.senses) for t in tags) == {1: 1806, 2: 233, 3: 36, 4: 4, 5: 1}
    first = tags[0]
    assert (first.item, first.annotator, first.senses, first.lemma) == (
        "1021", "C", {"order%2:30:01::"}, "order.v")


# ---------------------------------------------------------------- encodings


@pytest.mark.parametrize("name, call", [
    ("t.tsv", sensetsv.read),
    ("t.sense", lambda p: ontonotes.read(p)),
    ("k.key.txt", lambda p: raganato.read(DATA / "mini.data.xml", [p], ["A"])),
    ("inv.tsv", inventory.read_tsv),
])
def test_not_utf8_names_line_and_column(tmp_path, name, call):
    path = tmp_path / name
    body = {"t.tsv": b"item\tannotator\tsense\nx1\tA\tcaf\xe9\n",
            "t.sense": b"d 0 1 call-v 1\nd 0 2 caf\xe9-v 1\n",
            "k.key.txt": b"d000.s000.t000 caf\xe9\n",
            "inv.tsv": b"sense\tgroup\nA\tcaf\xe9\n"}[name]
    path.write_bytes(body)
    err = fails_at(path, 2 if name != "k.key.txt" else 1, call, path)
    assert "not UTF-8 (byte 0xe9 at column" in str(err) and "save the file as UTF-8" in str(err)


def test_utf8_bom_in_sense_files(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_bytes(b"\xef\xbb\xbfitem\tannotator\tsense\nx1\tA\tS1\nx1\tB\tS2\n")
    assert table(sensetsv.read(path)) == {("x1", "A"): {"S1"}, ("x1", "B"): {"S2"}}
    assert detect("senses", path) == "sensetsv"


def test_cr_line_endings_in_sense_files(tmp_path):
    """Old Mac line ends (CR only) are line ends: rows are read, and an error names one line."""
    path = tmp_path / "t.tsv"
    path.write_bytes(b"item\tannotator\tsense\rx1\tA\tS1\rx1\tB\tS2\r")
    assert table(sensetsv.read(path)) == {("x1", "A"): {"S1"}, ("x1", "B"): {"S2"}}
    path.write_bytes(b"item\tannotator\tsense\rx1\tA\rx1\tB\tS2\r")
    err = fails_at(path, 2, sensetsv.read, path)
    assert "\r" not in str(err) and "\n" not in str(err)


# ---------------------------------------------------------------- contexts


def test_contexts_of_every_format_that_has_the_text():
    """Each instance's sentence split at the instance, where the format holds the text: the
    words of Raganato's sentence, Senseval's <context> around its <head>, WSbest's uses.tsv
    at the target token's offsets; none for key-only formats."""
    tags = raganato.read(DATA / "mini.data.xml", [DATA / "keys" / "ann1.key.txt"])
    ctx = {t.item: t.context for t in tags}
    assert ctx == {"t1.s0.i0": ("Mara", "sold", "the ferry"),
                   "t1.s0.i1": ("Mara sold the", "ferry", ""),
                   "t2.s0.i0": ("", "leaked", "")}
    tags = senseval.read(DATA / "lexsample.xml", [DATA / "t1.ans"])
    ctx = {t.item: t.context for t in tags}
    assert ctx["ferry.n.x.001"] == ("Mara sold the old", "ferry", ".")
    assert ctx["leak.v.x.001"] == ("It", "leaked", ".")
    wsb = {t.item: t.context for t in sensetsv.read_wsbest(DATA / "wsbest" / "judgments.tsv")}
    assert wsb["7"] == ("They", "ordered", "soup .")
    assert wsb["8"] == ("A mixed", "range", ".")
    assert all(t.context is None for t in ontonotes.read(DATA / "demo.sense"))


def test_wsbest_offsets_outside_the_sentence_give_no_context(tmp_path):
    src = DATA / "wsbest"
    shutil.copy(src / "judgments.tsv", tmp_path / "judgments.tsv")
    (tmp_path / "uses.tsv").write_text(
        "dataID\tcontext\tindices_target_token\tindices_target_sentence\tlemma\n"
        "7\tThey ordered soup .\t5:120\t0:19\torder.v\n"
        "8\tA mixed range .\tx\t0:15\trange.n\n", encoding="utf-8")
    tags = sensetsv.read_wsbest(tmp_path / "judgments.tsv")
    assert tags and all(t.context is None for t in tags)
    assert {t.lemma for t in tags} == {"order.v", "range.n"}


def test_senseval_context_with_an_entity_comment_or_instruction(tmp_path):
    """Found by fuzzing: an unresolved entity reference in a <context> (entities are never
    expanded) made the context's text a traceback; such nodes add only their tail."""
    data = tmp_path / "lex.xml"
    data.write_text('<?xml version="1.0"?>\n<!DOCTYPE corpus [<!ENTITY x SYSTEM "x.txt">]>\n'
                    '<corpus lang="en"><lexelt item="ferry.n"><instance id="f1">'
                    '<context>Mara &x; sold <!-- c --> the <?pi x?> old <head>ferry</head> '
                    '&x;.</context></instance></lexelt></corpus>\n', encoding="utf-8")
    answers = tmp_path / "a.ans"
    answers.write_text("ferry.n f1 ferry%1:06:00::\n", encoding="utf-8")
    (tag,) = senseval.read(data, [answers])
    assert tag.context == ("Mara sold the old", "ferry", ".")


def test_senseval_context_plain_or_with_elements(tmp_path):
    """A context of text and a head of text alone, and one with elements beside and inside the
    head, give the words before, in and after the head, whitespace collapsed."""
    data = tmp_path / "lex.xml"
    data.write_text('<corpus lang="en"><lexelt item="ferry.n">'
                    '<instance id="f1"><context>\n Mara  sold\tthe <head> ferry </head>\n'
                    '</context></instance>'
                    '<instance id="f2"><context>Mara <s>sold <b>the</b></s> <head>fer<x>ry'
                    '</x> boat</head> <p>at</p> noon.</context></instance>'
                    '<instance id="f3"><context><head>ferry</head></context></instance>'
                    '</lexelt></corpus>\n', encoding="utf-8")
    answers = tmp_path / "a.ans"
    answers.write_text("ferry.n f1 ferry%1:06:00::\nferry.n f2 ferry%1:06:00::\n"
                       "ferry.n f3 ferry%1:06:00::\n", encoding="utf-8")
    assert [t.context for t in senseval.read(data, [answers])] == [
        ("Mara sold the", "ferry", ""), ("Mara sold the", "ferry boat", "at noon."),
        ("", "ferry", "")]


def test_raganato_lemma_groups_keep_the_part_of_speech():
    """english NOUN and english ADJ are two lemmas (english.n, english.a): the groups of the
    intervals clustered by lemma, and of the figures by lemma; a lemma with one part of speech
    keeps its name."""
    from corpusagree.convert.senses import SenseTable, to_reliability

    pos = TEST_DATA / "senses" / "raganato_pos"
    tags = raganato.read(pos / "pos.data.xml", sorted((pos / "keys").glob("*.key.txt")))
    assert {(t.lemma, t.pos, t.lexeme) for t in tags} == {
        ("english", "n", "english.n"), ("english", "a", "english.a"),
        ("channel", "n", "channel.n")}
    data = to_reliability(SenseTable.from_tags(tags), "fine", cluster="lemma").data
    assert sorted(data.group_names) == ["channel", "english.a", "english.n"]
    assert [data.group_names[g] for g in data.groups] == [
        "english.n", "english.a", "channel", "english.n", "english.a"]


def test_many_key_file_problems_at_once(tmp_path):
    """Every bad line of every key file, one line each, in one error."""
    (tmp_path / "A.key.txt").write_text("nope1 s1\nt1.s0.i0 s\nt1.s0.i0 s2\n")
    (tmp_path / "B.key.txt").write_text("nope2 s1\n")
    with pytest.raises(InputError) as e:
        raganato.read(DATA / "mini.data.xml", [tmp_path / "A.key.txt", tmp_path / "B.key.txt"])
    assert str(e.value).split("\n") == [
        f"{tmp_path / 'A.key.txt'}:1: instance 'nope1' is not in the data file",
        f"{tmp_path / 'A.key.txt'}:3: duplicate instance 't1.s0.i0' (first at line 2)",
        f"{tmp_path / 'B.key.txt'}:1: instance 'nope2' is not in the data file"]
