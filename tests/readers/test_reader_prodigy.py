"""Prodigy's JSONL: accepted spans, choice and binary textcat judgements, bad lines."""

import json
import os
from pathlib import Path

import pytest

from corpusagree import readers
from corpusagree.analyses import spans, table
from corpusagree.model.errors import InputError
from corpusagree.readers import prodigy

ROOT = Path(__file__).resolve().parents[2]
NER = ROOT / "docs/formats/coref/prodigy/ner.jsonl"
LS = ROOT / "docs/formats/coref/labelstudio/export.json"
CHOICE = ROOT / "docs/formats/table/prodigy/textcat.jsonl"
REAL = ROOT / "tests/data/platforms/prodigy"


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_accepted_spans_per_annotator_id_as_label_studio_gives_them():
    anns = prodigy.read([NER])
    assert sorted({a.annotator for a in anns}) == ["ner-alice", "ner-bob", "ner-carol"]
    ours = sorted((d, s, e, c) for d, _, s, e, c in spans.read(NER).data.units())
    theirs = sorted((d, s, e, c) for d, _, s, e, c in spans.read(LS).data.units())
    assert [u[1:] for u in ours] == [u[1:] for u in theirs]


def test_ignored_examples_hold_no_spans():
    anns = prodigy.read([NER])
    assert "1003" not in {a.document.id for a in anns}


def test_a_real_ner_dataset_every_accepted_span():
    lines = _lines(REAL / "news_headlines_ner.jsonl")
    expected = sum(len(x.get("spans", [])) for x in lines if x.get("answer") == "accept")
    anns = prodigy.read([REAL / "news_headlines_ner.jsonl"])
    assert sum(len(a.mentions) for a in anns) == expected > 0
    assert {a.annotator for a in anns} == {"news_headlines_ner"}  # no _annotator_id: the file


def test_a_line_that_is_not_json_is_named_and_the_rest_read(tmp_path):
    f = tmp_path / "bad.jsonl"
    good = NER.read_text().splitlines()
    f.write_text("\n".join([good[0], "{not json", good[1], "[1, 2]",
                            json.dumps({"text": "ab", "_input_hash": 1, "_task_hash": 2,
                                        "spans": [{"start": 1, "end": 9, "label": "X"}],
                                        "answer": "accept"})]) + "\n")
    with pytest.raises(InputError) as e:
        prodigy.read([f])
    text = str(e.value)
    assert f"{f}:2: not JSON" in text and f"{f}:4: a JSON list" in text
    assert f"{f}:5:" in text and "outside the text" in text


def test_choices_are_judgements():
    data = table.read(CHOICE).data
    assert data.coders == ["sentiment-ann1", "sentiment-ann2", "sentiment-ann3"]
    assert data.labels == ["neg", "neu", "pos"]
    assert data.codes.tolist() == [[2, 0, 1, 0], [2, 0, 2, 0], [2, 1, 1, -1]]


def test_binary_decisions_of_a_real_textcat_dataset():
    lines = _lines(REAL / "github_issues_textcat.jsonl")
    data = prodigy.read_judgements(REAL / "github_issues_textcat.jsonl")
    answers = [x["answer"] for x in lines if x["answer"] != "ignore"]
    assert data.labels == sorted(set(answers))
    assert int((data.codes >= 0).sum()) == len({(x["_input_hash"], x["label"]) for x in lines
                                                if x["answer"] != "ignore"})


def test_sniffed_as_prodigy():
    for f in (NER, CHOICE, REAL / "news_headlines_ner.jsonl"):
        assert readers.detect("coref", f) == "prodigy"
        assert readers.table.platform(f) == "prodigy"


def test_texts_tokenised_together_give_each_texts_own_tokens():
    from corpusagree.readers._platforms import tokenized
    from corpusagree.readers._text import tokenize

    texts = [x["text"] for x in _lines(REAL / "news_headlines_ner.jsonl")]
    texts += ["  a lead space. Two sentences! ok", ". a dot first", "", "an emoji 😀 here."]
    for text, together in zip(texts, tokenized(texts), strict=True):
        alone = tokenize(text)
        assert (together.words, list(together.starts), list(together.ends),
                together.sentence_starts) == (alone.words, list(alone.starts),
                                              list(alone.ends), alone.sentence_starts)


def test_a_line_of_another_shape_is_named_not_a_traceback(tmp_path):
    f = tmp_path / "odd.jsonl"
    f.write_text(json.dumps({"text": "ab", "_input_hash": 1, "_task_hash": 2,
                             "spans": ["not a span"], "answer": "accept"}) + "\n")
    with pytest.raises(InputError, match=r"odd.jsonl:1: not the structure"):
        prodigy.read([f])


def test_an_encoded_surrogate_is_not_utf8_not_a_traceback(tmp_path):
    """``json.loads`` of bytes decodes with 'surrogatepass': an encoded surrogate (ED A0 80)
    would become a lone '\\ud800' that no UTF-8 output can write. The line is named instead."""
    raw = CHOICE.read_bytes().split(b"\n")
    raw[2] = raw[2].replace(b'"text": "', b'"text": "\xed\xa0\x80', 1)
    bad = tmp_path / "textcat.jsonl"
    bad.write_bytes(b"\n".join(raw))
    assert b"\xed\xa0\x80" in bad.read_bytes()
    with pytest.raises(InputError, match=r"textcat.jsonl:3: not UTF-8 \(byte 0xed"):
        table.read(bad)


@pytest.mark.parametrize("task", ["table", "spans"])
def test_a_pipe_named_like_an_export_is_refused_not_waited_on(tmp_path, task):
    fifo = tmp_path / "textcat.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        (table if task == "table" else spans).read(fifo)
