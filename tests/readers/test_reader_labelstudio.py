"""Label Studio's JSON and JSON-MIN exports: spans, relations, judgements, bad input."""

import json
from pathlib import Path

import pytest

from corpusagree import readers
from corpusagree.analyses import spans, table
from corpusagree.cli import main
from corpusagree.model.data import ReliabilityData
from corpusagree.model.errors import InputError
from corpusagree.readers import labelstudio

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs/formats/coref/labelstudio/export.json"
MINIMAL = ROOT / "docs/formats/coref/labelstudio/variants/json-min/export-min.json"
CHOICES = ROOT / "docs/formats/table/labelstudio/export.json"
REAL = ROOT / "tests/data/platforms/labelstudio"


def _units(corpus):
    return sorted(corpus.data.units())


def test_spans_of_three_annotators_with_their_labels():
    anns = labelstudio.read([EXAMPLE])
    assert sorted({a.annotator for a in anns}) == ["2", "3", "ann1@example.org"]
    first = next(a for a in anns if a.annotator == "ann1@example.org" and a.document.id == "1")
    got = sorted((m.attrs["char_offsets"], m.attrs["label"], m.attrs["text"])
                 for m in first.mentions.values())
    assert got == [(((0, 12),), "PER", "Ada Lovelace"), (((17, 32),), "PER", "Charles Babbage"),
                   (((36, 42),), "LOC", "London")]


def test_json_min_gives_the_units_of_the_json_export():
    assert _units(spans.read(MINIMAL)) == _units(spans.read(EXAMPLE))


def test_the_spans_command_needs_no_option(capsys):
    assert main(["spans", str(EXAMPLE), "--format", "json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "labelstudio" and len(doc["data"]["annotators"]) == 3


def test_predictions_are_kept_apart_unless_named():
    names = {a.annotator for a in labelstudio.read([EXAMPLE])}
    assert "model" not in names
    named = labelstudio.read([EXAMPLE], predictions_as="model")
    model = [a for a in named if a.annotator == "model"]
    assert [sorted(m.attrs["char_offsets"] for m in a.mentions.values()) for a in model] == \
        [[((0, 12),)]]


def test_utf16_offsets_become_code_points(tmp_path):
    text = "😀 Ada met Bob."   # the emoji is two UTF-16 code units
    task = [{"id": 1, "data": {"text": text}, "annotations": [
        {"completed_by": 1, "result": [{"id": "a", "type": "labels", "from_name": "l",
                                        "to_name": "text",
                                        "value": {"start": 3, "end": 6, "labels": ["PER"]}}]}]}]
    f = tmp_path / "t.json"
    f.write_text(json.dumps(task))
    m, = labelstudio.read([f])[0].mentions.values()
    assert m.attrs["text"] == "Ada"


def _export(tmp_path, results):
    task = [{"id": 7, "data": {"text": "Ada met Bob."},
             "annotations": [{"completed_by": 1, "result": results}]}]
    f = tmp_path / "export.json"
    f.write_text(json.dumps(task))
    return f


def _region(rid, start, end):
    return {"id": rid, "type": "labels", "from_name": "l", "to_name": "text",
            "value": {"start": start, "end": end, "labels": ["PER"]}}


def test_a_region_outside_the_text_is_named_and_the_rest_read(tmp_path):
    f = _export(tmp_path, [_region("ok", 0, 3), _region("far", 8, 40), _region("back", 5, 2)])
    with pytest.raises(InputError) as e:
        labelstudio.read([f])
    text = str(e.value)
    assert "task 1 (id 7), region far" in text and "outside the text" in text
    assert "region back" in text and "ends (2) before it starts (5)" in text
    assert str(f) in text


def test_an_unknown_result_type_is_named(tmp_path):
    f = _export(tmp_path, [_region("ok", 0, 3),
                           {"type": "rectanglelabels", "value": {"x": 1}}])
    with pytest.raises(InputError, match="result type 'rectanglelabels' is not read"):
        labelstudio.read([f])


def test_choices_are_judgements_of_the_tasks():
    data = table.read(CHOICES, label="sentiment").data
    expected = ReliabilityData.from_triples(
        [(f"{c}@example.org", str(i), v) for c, vs in
         {"ann1": ["pos", "neg", "neu", "neg"], "ann2": ["pos", "neg", "pos", "neg"],
          "ann3": ["pos", "neu", "neu", None]}.items() for i, v in enumerate(vs, 1)])
    assert data.coders == expected.coders and list(data.items) == list(expected.items)
    assert data.labels == expected.labels
    assert (data.codes == expected.codes).all()


def test_several_controls_need_label(cli):
    """Named in Python's words (label=NAME), and in the command line's (--label NAME)."""
    with pytest.raises(InputError, match="several controls .*: name one with label=NAME$"):
        table.read(CHOICES)
    status, _, err = cli("table", CHOICES)
    assert status == 2 and err.strip().endswith("name one with --label NAME"), err


def test_a_rating_is_a_number():
    data = table.read(CHOICES, label="quality").data
    assert all(isinstance(v, int) for v in data.labels)


def test_several_choices_are_a_set_and_taxonomy_paths_joined(tmp_path):
    tasks = [{"id": i, "data": {"text": "x"}, "annotations": [
        {"completed_by": c, "result": [
            {"type": "choices", "from_name": "topics", "value": {"choices": ch}},
            {"type": "taxonomy", "from_name": "tax", "value": {"taxonomy": tx}}]}
        for c, ch, tx in rows]} for i, rows in enumerate([
            [(1, ["a", "b"], [["A", "B"]]), (2, ["a"], [["A", "B"]])],
            [(1, ["b"], [["A"]]), (2, ["b"], [["A", "C"]])]], 1)]
    f = tmp_path / "export.json"
    f.write_text(json.dumps(tasks))
    data = labelstudio.read_judgements(f, label="topics")
    assert data.is_set and data.labels.row(data.codes[0, 0]) == frozenset({"a", "b"})
    tax = labelstudio.read_judgements(f, label="tax")
    assert tax.label(tax.codes[1, 1]) == "A/C"  # one path each: plain labels


def test_real_exports_of_label_studio():
    data = table.read(REAL / "humor_dataset_2_annotations.json").data
    assert data.coders == ["test_suites_user@heartex.com"]
    assert data.labels == ["Not Humor"] and data.codes.shape == (1, 2)
    one = labelstudio.read_judgements(REAL / "previous_export.json")
    assert one.coders == ["annotator_from_past@project.com"] and one.labels == ["Cat"]


def test_sniffed_as_label_studio_only():
    for f in (EXAMPLE, MINIMAL, CHOICES, REAL / "humor_dataset_2_annotations.json"):
        assert readers.detect("coref", f) == "labelstudio"
        assert readers.table.platform(f) == "labelstudio"


def test_the_coref_job_refuses_spans_without_chains():
    from corpusagree.analyses import coref

    with pytest.raises(InputError, match="spans job"):
        coref.read(EXAMPLE)


@pytest.mark.parametrize("task", [
    {"id": 1, "data": {"text": "x"}, "annotations": [3]},
    {"id": 1, "data": {"text": "x"}, "annotations": [{"completed_by": 1, "result": [7]}]},
    {"id": 1, "data": ["x"], "annotations": [{"completed_by": 1, "result": [
        {"type": "labels", "value": {"start": 0, "end": 1, "labels": ["A"]}}]}]},
])
def test_a_task_of_another_shape_is_named_not_a_traceback(tmp_path, task):
    f = tmp_path / "export.json"
    f.write_text(json.dumps([task]))
    with pytest.raises(InputError, match=r"task 1.*not the structure this format has"):
        labelstudio.read([f])
