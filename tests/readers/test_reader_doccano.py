"""doccano's JSONL exports: spans, relations and labels, one file per user; bad spans."""

import json
from pathlib import Path

import pytest

from corpusagree import readers
from corpusagree.analyses import spans, table
from corpusagree.model.errors import InputError
from corpusagree.readers import doccano

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "docs/formats/coref/doccano"
LS = ROOT / "docs/formats/coref/labelstudio/export.json"
REAL = ROOT / "tests/data/platforms/doccano"


def test_one_file_per_user_gives_the_units_of_label_studio():
    files = [EX / f"{n}.jsonl" for n in ("alice", "bob", "carol")]
    ours = sorted((d, s, e, c) for d, _, s, e, c in spans.read(files).data.units())
    theirs = sorted((d, s, e, c) for d, _, s, e, c in spans.read(LS).data.units())
    assert ours == theirs


def test_the_real_sequence_labelling_export():
    anns = doccano.read([REAL / "sequence_labeling.jsonl"])
    got = [sorted((m.attrs["text"], m.attrs["label"]) for m in a.mentions.values())
           for a in anns]
    assert got == [[("EU", "ORG"), ("German", "MISC")], [("Peter Blackburn", "PERSON")],
                   [("Obama", "PERSON")]]


def test_the_real_text_classification_export():
    data = doccano.read_judgements(REAL / "text_classification.jsonl")
    assert data.coders == ["text_classification"]
    assert [data.label(c) for c in data.codes[0]] == ["negative", "positive", "positive"]


def test_a_pretty_printed_export_names_its_lines():
    with pytest.raises(InputError, match=r"relation_extraction.jsonl:1: not JSON"):
        doccano.read([REAL / "relation_extraction.jsonl"])


def test_relations_between_entities(tmp_path):
    obj = json.loads(" ".join((REAL / "relation_extraction.jsonl").read_text().split()))
    f = tmp_path / "ann.jsonl"
    f.write_text(json.dumps(obj) + "\n")
    rel, = doccano.read_relations([f])
    assert [(rel.spans[k.source].attrs["text"], k.type, rel.spans[k.target].attrs["text"])
            for k in rel.relations][:2] == [("Google", "foundedAt", "September 4, 1998"),
                                             ("Google", "foundedBy", "Larry Page")]


def test_a_span_ending_before_it_starts_is_named_with_its_line(tmp_path):
    f = tmp_path / "ann.jsonl"
    f.write_text(json.dumps({"id": 1, "text": "EU rejects it.", "label": [[0, 2, "ORG"]]}) +
                 "\n" + json.dumps({"id": 2, "text": "Peter", "label": [[5, 1, "PER"],
                                                                        [0, 5, "PER"]]}) + "\n")
    with pytest.raises(InputError) as e:
        doccano.read([f])
    assert str(e.value) == f"{f}:2: span '0' ends (1) before it starts (5)"


def test_a_folder_of_users_is_the_table_jobs():
    data = table.read(ROOT / "docs/formats/table/doccano").data
    assert data.coders == ["ann1", "ann2", "ann3"]
    assert data.codes.shape == (3, 4) and data.codes[2, 3] == -1


def test_sniffed_as_doccano():
    for f in (EX / "alice.jsonl", REAL / "sequence_labeling.jsonl"):
        assert readers.detect("coref", f) == "doccano"
    assert readers.table.platform(REAL / "text_classification.jsonl") == "doccano"


def test_lines_parsed_at_once_or_one_by_one_give_the_same_records(tmp_path):
    """JSON Lines are parsed in one call when every line is one object (blank lines keep
    their numbers); two lines that are one object together, and a line of three objects,
    make as many values as the lines joined would have, but are no JSON Lines: each is
    named as the reading line by line names it, never read as records."""
    from corpusagree.model.errors import Problems
    from corpusagree.readers._platforms import jsonl

    good = tmp_path / "good.jsonl"
    good.write_text('{"id": 1}\n\n  \n{"id": 2, "s": "a\u2028b"}\r\n{"id": 3}\n\n')
    problems = Problems()
    assert list(jsonl(good, problems)) == [(1, {"id": 1}), (4, {"id": 2, "s": "a\u2028b"}),
                                           (5, {"id": 3})]
    assert not problems
    shifted = tmp_path / "shifted.jsonl"
    shifted.write_text('{"text": "EU", "label": [[0\n2, "ORG"]]}\n'
                       '{"id": 7}, {"id": 8}, {"id": 10}\n{"id": 9}\n')
    problems = Problems()
    assert list(jsonl(shifted, problems)) == [(4, {"id": 9})]
    assert [(e.line, e.message[:8]) for e in problems.errors] == [
        (1, "not JSON"), (2, "not JSON"), (3, "not JSON")]
    with pytest.raises(InputError, match=r"shifted.jsonl:1: not JSON"):
        doccano.read([shifted])
