"""Argilla 2.x records: submitted responses per user as judgements."""

import json
from pathlib import Path

import pytest

from corpusagree.analyses import table
from corpusagree.model.errors import InputError
from corpusagree.readers import argilla
from corpusagree.readers.table import platform

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "docs/formats/table/argilla/records.json"


def test_submitted_responses_per_user():
    data = table.read(RECORDS).data
    assert data.coders == ["user-ann1", "user-ann2", "user-ann3"]
    assert data.labels == ["neg", "neu", "pos"]
    assert data.codes.tolist() == [[2, 0, 1, 0], [2, 0, 2, 0], [2, 1, 1, -1]]


def _records(tmp_path, responses, name="records.json"):
    f = tmp_path / name
    f.write_text(json.dumps([{"id": f"r{i}", "fields": {"text": "x"}, "responses": r}
                             for i, r in enumerate(responses)]))
    return f


def test_drafts_are_no_judgements_and_lists_are_sets(tmp_path):
    f = _records(tmp_path, [
        {"topics": [{"value": ["a", "b"], "user_id": "u1", "status": "submitted"},
                    {"value": ["a"], "user_id": "u2", "status": "draft"}]},
        {"topics": [{"value": ["b"], "user_id": "u1", "status": "submitted"},
                    {"value": ["b"], "user_id": "u2", "status": "submitted"}]}])
    data = argilla.read_judgements(f)
    assert data.is_set and data.codes[1, 0] == -1
    assert data.label(data.codes[0, 0]) == frozenset({"a", "b"})


def test_several_questions_need_label(tmp_path):
    f = _records(tmp_path, [{"q1": [{"value": 1, "user_id": "u", "status": "submitted"}],
                             "q2": [{"value": 2, "user_id": "u", "status": "submitted"}]}])
    with pytest.raises(InputError, match=r"several questions \(q1, q2\): name one with "
                       "label=NAME$"):
        argilla.read_judgements(f)
    assert argilla.read_judgements(f, label="q2").labels == [2]


def test_flattened_records_and_a_saved_folder(tmp_path):
    rows = [{"id": "r1", "text": "x", "label.responses": ["a", "b"],
             "label.responses.users": ["u1", "u2"],
             "label.responses.status": ["submitted", "submitted"]}]
    (tmp_path / "records.json").write_text(json.dumps(rows))
    assert platform(tmp_path) == "argilla"
    data = table.read(tmp_path).data
    assert data.coders == ["u1", "u2"] and data.labels == ["a", "b"]


REAL = Path(__file__).resolve().parents[1] / "data" / "platforms" / "argilla"


def test_argillas_own_export_nested_and_flat():
    """Records written by Argilla 2.8.0's own exporter (see its SOURCE): the nested export
    has no status on any response, so the draft and the discarded sentiment are read, with
    a warning; the flattened one keeps them, and they are no judgement (two missing). The
    span question is no judgement question; the rating reads as numbers."""
    nested, flat = REAL / "records.json", REAL / "records_flat.json"
    for f in (nested, flat):
        assert platform(f) == "argilla"
        assert argilla.contents(f) == {"judgements": ["sentiment", "topics", "quality"]}
    with pytest.warns(UserWarning, match="15 response.s. to 'sentiment' without a status"):
        d = argilla.read_judgements(nested, label="sentiment")
    users = [f"00000000-0000-0000-0000-00000000000{k}" for k in (1, 2, 3)]
    assert d.coders == users and d.items == [f"rec-{n}" for n in range(1, 6)]
    assert d.labels == ["negative", "neutral", "positive"]
    # record 3: neutral, positive (a draft), neutral; record 4: positive, neutral, negative
    # (discarded)
    assert [d.labels[c] for c in d.codes[:, 2]] == ["neutral", "positive", "neutral"]
    assert [d.labels[c] for c in d.codes[:, 3]] == ["positive", "neutral", "negative"]
    d = argilla.read_judgements(flat, label="sentiment")  # statuses kept: no warning
    assert (d.codes[1, 2], d.codes[2, 3]) == (-1, -1)
    assert int((d.codes >= 0).sum()) == 13
    with pytest.warns(UserWarning, match="15 response.s. to 'quality'"):
        q = argilla.read_judgements(flat, label="quality")
    assert q.labels == [1, 2, 3, 4, 5]
    assert [q.labels[c] for c in q.codes[:, 0]] == [5, 4, 5]
    with pytest.warns(UserWarning):
        t = argilla.read_judgements(nested, label="topics")
    assert t.is_set
    with pytest.raises(InputError, match="'entities' is a span or ranking question"):
        argilla.read_judgements(nested, label="entities")


def test_a_huge_question_name_is_cut_in_the_message(tmp_path, cli):
    """A 10 MB question name (found by the fuzz run, case 0-02414) is not echoed whole:
    the names of the questions are listed cut and counted."""
    records = json.loads((ROOT / "docs/formats/table/argilla/records.json").read_text("utf-8"))
    for r in records:
        r["responses"]["Z" * 10**6] = r["responses"]["sentiment"]
    f = tmp_path / "records.json"
    f.write_text(json.dumps(records), encoding="utf-8")
    status, _, err = cli("table", str(f))
    assert status == 2 and "several questions (sentiment, ZZZ" in err
    assert max(len(line) for line in err.splitlines()) < 300
