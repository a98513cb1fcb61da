"""ezCoref reader: mentions from (sentence, start, end), cluster lists, repeated workers, and
counts on the real release (checked independently with jq over the raw JSON)."""

import warnings

import pytest

from corpusagree.model.errors import InputError
from corpusagree.readers import ezcoref

from support import CORPORA
from support import DATA as TEST_DATA

TINY = TEST_DATA / "coref_b" / "ezcoref"
SHARED = CORPORA
EZ = SHARED / "ezcoref_gupta2023" / "annotations"


def chains(ann):
    return {c.id: c.members for c in ann.chains}


def read_quiet(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ezcoref.read(*args, **kw)


def test_tiny_passage_all_clusters():
    """Worker 4's second submission of the passage is left out, and the warning names it: a
    worker is one annotator of a passage, never compared with themself (issue 34, item 6)."""
    with pytest.warns(UserWarning) as rec:
        a, b = ezcoref.read(TINY)
    assert sorted(str(w.message) for w in rec) == [
        "ezCoref: 1 mention annotation(s) carry several cluster ids (kept in every chain)",
        "ezCoref: 1 repeated (annotator, passage) submission(s) left out, the first of each "
        "kept: worker 4 on passage tiny_passage_0, submission 3 of 3"]
    assert [x.annotator for x in (a, b)] == ["4", "9"]
    doc = a.document
    assert (doc.id, doc.tokens, doc.sentence_starts) == ("tiny_passage_0", ["_"] * 8, [0, 2, 2])
    assert [m.fragments for m in a.mentions.values()] == [
        ((0, 2),), ((1, 2),), ((2, 3),), ((5, 8),), ((7, 8),)]
    assert chains(a) == {"0": ["m1", "m3"], "1": ["m2", "m5"], "2": ["m4", "m5"]}
    assert chains(b) == {"5": ["m1", "m2"], "6": ["m3", "m4"], "7": ["m5"]}
    assert a.mentions["m5"].attrs == {"clusters": [1, 2]}


def test_tiny_passage_last_cluster_and_filter():
    a, _ = read_quiet(TINY, clusters="last")
    assert chains(a) == {"0": ["m1", "m3"], "1": ["m2"], "2": ["m4", "m5"]}
    assert [x.annotator for x in read_quiet(TINY, annotators={"9"})] == ["9"]


def test_bad_input(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('[{"annotator_id": 1, "annotations": {"0": {"2,3,5": [1]}}}]')
    with pytest.raises(InputError, match="bad mention '2,3,5'"):
        ezcoref.read(p)
    p.write_text('[{"annotator_id": 1, "annotations": {"0": {"0,0,2": [1], "1,0,2": [2]}}}]')
    with pytest.raises(InputError, match="list different clusters"):
        ezcoref.read(p)
    p.write_text('{"annotator_id": 1}')
    with pytest.raises(InputError, match="JSON list"):
        ezcoref.read(p)
    p.write_text("[{")
    with pytest.raises(InputError, match=f"^{p}:1: malformed JSON"):
        ezcoref.read(p)
    with pytest.raises(InputError, match="clusters must be"):
        ezcoref.read(TINY, clusters="first")


def test_sniff(tmp_path):
    assert ezcoref.sniff(TINY) and ezcoref.sniff(TINY / "tiny_passage_0.json")
    other = tmp_path / "o.json"
    other.write_text('{"a": 1}')
    assert not ezcoref.sniff(other)


needs_corpus = pytest.mark.skipif(not EZ.is_dir(), reason="shared ezCoref corpus absent")


@needs_corpus
def test_real_passages():
    bleak = read_quiet(EZ / "1023_bleak_house_brat_0" / "1023_bleak_house_brat_0_0.json")
    assert [a.annotator for a in bleak] == ["14", "7", "21", "1", "3"]
    assert {len(a.mentions) for a in bleak} == {51}
    assert [len(a.chains) for a in bleak] == [45, 38, 46, 45, 45]
    assert len(bleak[0].document.tokens) == 203
    assert bleak[0].document.sentence_starts == [0, 5, 20, 23, 69, 111, 116, 126]
    multi = [sum(len(set(m.attrs["clusters"])) > 1 for m in a.mentions.values()) for a in bleak]
    assert multi == [4, 2, 1, 0, 0]
    wsj = read_quiet(EZ / "nw_wsj_0290_0" / "nw_wsj_0290_0_0.json")
    assert [a.annotator for a in wsj] == ["8", "21", "1", "3", "13"]  # 8's second left out
    assert [len(a.chains) for a in wsj] == [36, 36, 38, 35, 35]
    assert len(wsj[0].document.tokens) == 154


@needs_corpus
def test_whole_release_is_read():
    anns = read_quiet(EZ)  # the time: benchmarks/ezcoref.py
    assert len(anns) == 1321  # 1,324 submissions less 3 repeated ones
    assert len({a.document.id for a in anns}) == 264
    assert sum(len(a.mentions) for a in anns) == 66845
    assert len({a.annotator for a in anns}) == 33
    # 2,224 multi-cluster memberships in the files, 3 of them in the repeated submissions
    assert sum(len(set(m.attrs["clusters"])) > 1 for a in anns for m in a.mentions.values()) \
        == 2221
    assert not any(len({a.annotator for a in anns if a.document.id == d}) <
                   sum(a.document.id == d for a in anns) for d in {a.document.id for a in anns})


@needs_corpus
def test_repeated_submissions_named_and_left_out():
    """The release's three repeated (worker, passage) submissions, each named in the warning
    (issue 34, item 6)."""
    with pytest.warns(UserWarning, match="3 repeated") as rec:
        ezcoref.read(EZ)
    [text] = [str(w.message) for w in rec if "repeated" in str(w.message)]
    for worker, passage in (("8", "nw_wsj_0290_0_0"), ("8", "nw_wsj_0290_0_3"),
                            ("3", "nw_wsj_0290_0_4")):
        assert f"worker {worker} on passage {passage}" in text


def test_malformed_structures_are_one_line_errors(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('[{"annotator_id": 1, "annotations": []}]')
    with pytest.raises(InputError) as e:
        ezcoref.read(p)
    assert str(e.value) == (f"{p}: submission 0: 'annotations' must map sentence indices to "
                            "mentions, not list")
    p.write_text('[{"annotator_id": 1, "annotations": {"0": [1]}}]')
    with pytest.raises(InputError, match="sentence '0' must map 'token,start,end' keys"):
        ezcoref.read(p)
    p.write_text("[" * 3000 + "]" * 3000)
    with pytest.raises(InputError) as e:
        ezcoref.read(p)
    assert str(e.value) == f"{p}: JSON nested too deeply to be an ezCoref passage"


def test_a_folder_named_like_a_passage_is_not_read(tmp_path):
    (tmp_path / "x.json").mkdir()
    (tmp_path / "x.json" / "inner.json").mkdir()
    (tmp_path / "p.json").write_text(
        '[{"annotator_id": 1, "annotations": {"0": {"0,0,1": [1]}}}]')
    [ann] = ezcoref.read(tmp_path)
    assert ann.document.id == "p"
    with pytest.raises(InputError, match="no annotations found"):
        from corpusagree import readers
        readers.read("coref", [tmp_path / "x.json"], "ezcoref")


def test_a_huge_sentence_index_is_refused_before_allocating(tmp_path):
    """A sentence index or token position of 10^9 would make 10^9 placeholder tokens (the
    time of the refusal: benchmarks/pathological.py)."""
    p = tmp_path / "big.json"
    for key in ('"1000000000": {"0,0,1": [1]}', '"0": {"0,0,1000000000": [1]}'):
        p.write_text('[{"annotator_id": 1, "annotations": {' + key + "}}]")
        with pytest.raises(InputError, match=r"a file of \d+ bytes cannot hold so many "
                           "sentences or tokens"):
            ezcoref.read(p)
    p.write_text('[{"annotator_id": 1, "annotations": {"40": {"0,0,1": [1]}}}]')
    assert len(ezcoref.read(p)[0].document.sentence_starts) == 41  # small ones still read


@pytest.mark.parametrize("data, message", [
    ('[{"annotator_id": 1, "annotations": {}}]'.encode("utf-16"),
     ":1: not UTF-8 but UTF-16 (it starts with a UTF-16 byte order mark); save the file as "
     "UTF-8"),
    (b'[{"annotator_id": "Jos\xe9", "annotations": {}}]',
     ":1: not UTF-8 (byte 0xe9 at column 23); save the file as UTF-8"),
])
def test_not_utf8(tmp_path, data, message):
    p = tmp_path / "x.json"
    p.write_bytes(data)
    with pytest.raises(InputError) as e:
        ezcoref.read(p)
    assert str(e.value) == f"{p}{message}"


def test_utf8_bom_is_accepted(tmp_path):
    p = tmp_path / "x.json"
    p.write_bytes(b'\xef\xbb\xbf[{"annotator_id": 1, "annotations": {"0": {"0,0,1": [1]}}}]')
    assert ezcoref.sniff(p)
    [ann] = ezcoref.read(p)
    assert [m.fragments for m in ann.mentions.values()] == [((0, 1),)]
