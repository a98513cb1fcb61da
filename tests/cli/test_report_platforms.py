"""``corpusagree report FOLDER`` on the platforms' exports of judgements (issue 33): each
export is found in a study folder and run by the ``table`` job (and by ``ratings`` when its
labels are numbers), with the numbers of the job run on the file alone; an export of spans
and choices runs both parts; a dataset whose columns are not the default ones is a note."""

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "platforms"
FORMATS = ROOT / "docs" / "formats"
#: the envelope of a report, which differs between a part and the job run alone
ENVELOPE = {"corpusagree", "inputs", "options", "notes", "bootstrap"}

#: study sub-folder → (files copied into it, the parts expected: (job, format, label
#: option, job's other options on the command line))
STUDIES = {
    "labelstudio_min": ([FORMATS / "coref" / "labelstudio" / "variants" / "json-min" /
                         "export-min.json"],
                        [("table", "labelstudio", "sentiment", ()),
                         ("spans", "labelstudio", None, ())]),
    "labelstudio_ratings": ([FORMATS / "table" / "labelstudio" / "export.json"],
                            [("table", "labelstudio", "sentiment", ()),
                             ("table", "labelstudio", "quality", ("--distance", "interval")),
                             ("ratings", "labelstudio", "quality", ())]),
    "prodigy": ([FORMATS / "table" / "prodigy" / "textcat.jsonl"],
                [("table", "prodigy", None, ())]),
    "doccano": ([FORMATS / "table" / "doccano" / f"ann{k}.jsonl" for k in (1, 2, 3)],
                [("table", "doccano", None, ())]),
    "argilla": ([FORMATS / "table" / "argilla" / "records.json"],
                [("table", "argilla", "sentiment", ())]),
    "argilla_own_export": ([DATA / "argilla" / "records_flat.json"],
                           [("table", "argilla", "sentiment", ()),
                            ("table", "argilla", "topics", ()),
                            ("table", "argilla", "quality", ("--distance", "interval")),
                            ("ratings", "argilla", "quality", ())]),
    "hf_saved": ([DATA / "hf" / "saved"], [("table", "hf", None, ())]),
    "hf_parquet": ([DATA / "hf" / "scores.parquet"],
                   [("table", "hf", None, ("--distance", "interval")),
                    ("ratings", "hf", None, ())]),
}


def _study(tmp_path: Path, name: str) -> Path:
    files, _ = STUDIES[name]
    sub = tmp_path / name / "annotations"
    sub.mkdir(parents=True)
    for f in files:
        if f.is_dir():
            shutil.copytree(f, sub, dirs_exist_ok=True)
        else:
            shutil.copy(f, sub / f.name)
    return tmp_path / name


def _numbers(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ENVELOPE}


@pytest.mark.parametrize("name", list(STUDIES))
def test_each_platform_runs_the_judgement_jobs_as_alone(cli_json, tmp_path, name):
    study = _study(tmp_path, name)
    doc = cli_json("report", study, "--resamples", "50", "--seed", "3")
    parts = STUDIES[name][1]
    assert [(d["job"], d["options"]["reader_options"].get("label")) for d in doc] == \
        [(j, q) for j, _, q, _ in parts]
    assert not [n for d in doc for n in d["notes"] if n.startswith("not reported")]
    for d, (job, _, label, more) in zip(doc, parts, strict=True):
        path = Path(d["inputs"][0])
        assert path.parent == study / "annotations" or path == study / "annotations"
        if job == "spans":  # the folder of one export: the export
            path, = path.iterdir()
        alone = cli_json(job, path, *(("--label", label) if label else ()), *more, "--ci",
                         "--resamples", "50", "--seed", "3")
        if job == "spans":  # γ's expected disorder is sampled; the NER counts are not
            assert d["ner"] == alone["ner"]
        else:
            assert _numbers(d) == _numbers(alone)


def test_real_exports_of_one_annotator_are_named(cli_json, tmp_path):
    """Label Studio's own humour fixture has one annotation a task, Prodigy's GitHub-issues
    textcat example one annotator: the report names each as a part that agreement is
    undefined for, and reports the rest."""
    _study(tmp_path, "argilla")
    for sub, f in (("humor", DATA / "labelstudio" / "humor_dataset_2_annotations.json"),
                   ("github", DATA / "prodigy" / "github_issues_textcat.jsonl")):
        (tmp_path / "argilla" / sub).mkdir()
        shutil.copy(f, tmp_path / "argilla" / sub)
    doc = cli_json("report", tmp_path / "argilla", "--resamples", "20")
    assert [d["job"] for d in doc] == ["table"]
    notes = sorted(n for n in doc[0]["notes"] if n.startswith("not reported"))
    assert len(notes) == 2
    assert "github_issues_textcat.jsonl: no item has two or more judgements" in notes[0]
    assert "humor_dataset_2_annotations.json: no item has two or more" in notes[1]


def test_the_figures_read_off_the_files(cli_json, tmp_path):
    """The counts of each part, checked by hand in the files: the Label Studio humour
    fixture (two annotators, one task each … as its file holds), the ratings export's
    quality scores, the dataset's six comments."""
    doc = cli_json("report", _study(tmp_path, "labelstudio_ratings"), "--resamples", "20")
    assert [d["options"]["distance"] for d in doc[:2]] == ["nominal", "interval"]
    # four tasks, three annotators, task 4's third annotation has no sentiment or quality
    assert [{k: d["data"][k] for k in ("coders", "items", "judgements", "missing")}
            for d in doc] == [{"coders": 3, "items": 4, "judgements": 11, "missing": 1}] * 3
    assert [d["data"].get("labels") for d in doc] == [3, 5, None]
    doc = cli_json("report", _study(tmp_path, "hf_saved"), "--resamples", "20")
    assert {k: doc[0]["data"][k] for k in ("coders", "items", "labels", "judgements")} == \
        {"coders": 4, "items": 6, "labels": 2, "judgements": 22}


def test_spans_and_choices_of_one_export_run_both(cli_json, tmp_path):
    """docs' Label Studio span export also holds a sentiment choice per annotation."""
    sub = tmp_path / "ner"
    sub.mkdir()
    shutil.copy(FORMATS / "coref" / "labelstudio" / "export.json", sub)
    doc = cli_json("report", tmp_path, "--resamples", "20", "--seed", "1")
    assert [d["job"] for d in doc] == ["table", "spans"]
    assert doc[0]["options"]["reader_options"]["label"] == "sentiment"
    alone = cli_json("table", sub / "export.json", "--label", "sentiment", "--ci",
                     "--resamples", "20", "--seed", "1")
    assert _numbers(doc[0]) == _numbers(alone)


def test_choices_only_runs_no_spans(cli_json, tmp_path):
    """An export of choices only is no span data: no spans part, no note about one."""
    shutil.copytree(FORMATS / "table" / "labelstudio", tmp_path / "x",
                    ignore=shutil.ignore_patterns("command"))
    doc = cli_json("report", tmp_path, "--resamples", "20")
    assert {d["job"] for d in doc} == {"table", "ratings"}
    assert not [n for d in doc for n in d["notes"]
                if "spans" in n or n.startswith("not reported")]


def test_a_dataset_that_needs_options_is_a_note(cli, cli_json, tmp_path):
    """A dataset whose columns are not coder, item and label is named in a note with its
    columns, beside what is reported; alone, the note is the error."""
    _study(tmp_path, "argilla")
    (tmp_path / "argilla" / "hf").mkdir()
    shutil.copy(DATA / "hf" / "scores_named.parquet", tmp_path / "argilla" / "hf")
    doc = cli_json("report", tmp_path / "argilla", "--resamples", "20")
    assert [d["job"] for d in doc] == ["table"]
    note, = [n for n in doc[0]["notes"] if n.startswith("not reported")]
    assert "scores_named.parquet" in note and "the columns are rater, comment, score" in note
    status, _, err = cli("report", tmp_path / "argilla" / "hf")
    assert status == 2 and "the columns are rater, comment, score" in err
    assert len(err.strip().splitlines()) == 1
