"""``corpusagree report``: the Quickstart's command on ``sample_corpora/``: every job, 80
columns when piped, one valid JSON document, the same numbers as each job run alone."""


import pytest

ENVELOPE = {"corpusagree", "schema", "job", "inputs", "options", "bootstrap", "notes"}


@pytest.fixture(scope="module")
def reports(samples):
    from corpusagree.analyses import folder
    from corpusagree.stats.inference import Bootstrap

    return folder.analyse(samples, Bootstrap(200))


def test_every_job_runs(reports):
    jobs = [r.job for r in reports]
    assert jobs == ["table", "annotators", "table", "table", "ratings", "ratings", "table",
                    "table", "table", "annotators", "ratings", "coref", "markables", "spans",
                    "segments", "segments", "trees", "senses", "senses", "relations"]
    for r in reports:
        d = r.to_dict()
        assert ENVELOPE <= set(d) and d["schema"] == 1 and d["bootstrap"]["n_resamples"] == 200


def test_json_is_one_list_with_the_jobs_numbers(cli, cli_json, samples):
    doc = cli_json("report", samples, "--resamples", "200")
    assert isinstance(doc, list) and [d["job"] for d in doc][:7] == [
        "table", "annotators", "table", "table", "ratings", "ratings", "table"]
    assert doc[3]["retest"][0]["coder"] == "model"  # essays_runs.csv: the run column found
    table = doc[6]
    assert table["inputs"][0].endswith("dialogue_acts.csv")
    alone = cli_json("table", samples / "table" / "dialogue_acts.csv", "--group", "document",
                     "--weights", samples / "table" / "dialogue_acts.weights.csv", "--ci",
                     "--resamples", "200")
    assert table["coefficients"] == alone["coefficients"]
    # issue 34, item 8: the relations sample is part of the report, as the job gives it
    relations = next(d for d in doc if d["job"] == "relations")
    alone = cli_json("relations", samples / "relations" / "ann1", samples / "relations" / "ann2",
                     "--ci", "--resamples", "200")
    assert relations["inputs"] == alone["inputs"]
    assert relations["labels"] == alone["labels"]


def test_terminal_output_fits_80_columns(cli, samples):
    status, out, err = cli("report", samples, "--resamples", "100")
    assert status == 0, err
    assert max(len(line) for line in out.splitlines()) <= 80
    for needle in ("Coefficients", "Chains as set labels", "Span agreement per level",
                   "Unit sets", "Coefficients per scheme and inventory", "Unitizing α",
                   "γ (Mathet, Widlöcher & Métivier 2015)", "Relations found by both",
                   "Relation labels on the relations two or more annotators share"):
        assert needle in out


def test_not_a_folder(cli, tmp_path):
    status, _, err = cli("report", tmp_path / "absent")
    assert status == 2 and err.strip() == f"{tmp_path / 'absent'}: not a folder"
    status, _, err = cli("report", tmp_path)
    assert status == 2 and "nothing to report" in err


# ---- any folder whose sub-folders hold one job's data --------------------------------------------
def test_project_folder(cli_json, data_dir):
    """table/x.tsv and coref/ann1, coref/ann2 (brat) are recognised by their files; notes/
    holds nothing readable and is named in a note."""
    project = data_dir / "report_project"
    doc = cli_json("report", project, "--resamples", "50")
    assert [d["job"] for d in doc] == ["table", "annotators", "coref", "spans"]
    assert doc[0]["inputs"] == [str(project / "table" / "x.tsv")]
    assert doc[0]["data"]["coders"] == 3 and doc[0]["data"]["items"] == 10
    assert doc[2]["inputs"] == [str(project / "coref" / "ann1"), str(project / "coref" / "ann2")]
    assert doc[2]["format"] == "brat" and doc[2]["annotators"] == ["ann1", "ann2"]
    assert f"not reported: notes/ in {project} (no reliability data, coreference, " \
        "segmentation, sense or relation annotations that corpusagree reads)" in doc[0]["notes"]
    alone = cli_json("table", project / "table" / "x.tsv", "--ci", "--resamples", "50")
    assert doc[0]["coefficients"] == alone["coefficients"]


def test_project_folder_conll_and_segments_of_any_name(cli_json, tmp_path, samples):
    import shutil

    for k in (1, 2, 3):
        (tmp_path / "chains" / f"ann{k}").mkdir(parents=True)
        shutil.copy(samples / "coref" / "conll2012" / f"ann{k}.v4_gold_conll",
                    tmp_path / "chains" / f"ann{k}" / "stories.v4_gold_conll")
    shutil.copytree(samples / "segments" / "rs3", tmp_path / "edus")
    shutil.copy(samples / "table" / "essay_marks_wide.csv", tmp_path / "marks.csv")
    doc = cli_json("report", tmp_path, "--resamples", "50")
    assert [d["job"] for d in doc] == ["table", "ratings", "coref", "spans", "segments",
                                       "trees"]
    doc = [doc[0], *doc[2:]]  # the ratings job on the marks, beside the table job's
    assert doc[1]["format"] == "conll" and doc[1]["annotators"] == ["ann1", "ann2",
                                                                          "ann3"]
    assert doc[2]["data"]["annotators"] == ["ann1", "ann2", "ann3"]
    assert doc[3]["format"] == "rs3" and doc[3]["data"]["coders"] == ["ada", "ben", "chloe"]
    assert doc[4]["format"] == "rs3" and doc[4]["data"]["annotators"] == ["ada", "ben", "chloe"]
    assert doc[4]["job"] == "trees"
    conll = cli_json("coref", *(tmp_path / "chains" / f"ann{k}" for k in (1, 2, 3)),
                     "--ci", "--resamples", "50", "--by-document")
    assert doc[1]["scores"] == conll["scores"]


@pytest.mark.parametrize("sub, jobs", [("table", ["table", "table", "table", "annotators",
                                                  "ratings"]),
                                       ("ratings", ["table", "table", "ratings", "ratings"]),
                                       ("senses", ["senses", "senses"]),
                                       ("coref/brat", ["coref", "spans"]),
                                       ("segments/rs3", ["segments", "trees"])])
def test_a_job_folder_itself(cli_json, samples, sub, jobs):
    doc = cli_json("report", samples / sub, "--resamples", "20")
    assert [d["job"] for d in doc] == jobs


def test_spans_only_on_spans_and_undefined_rows_collapsed(reports):
    """Issue 34, item 7: ``spans`` does not run on segmentations (they tile the text, where the
    2016 uα family and γ-cat have nothing to compare); a measure undefined on the mentions is
    a line of the table's notes, naming it and why, not a row of dashes."""
    spans = [r for r in reports if r.job == "spans"]
    assert len(spans) == 1 and not any("segments" in str(p) for r in spans for p in r.inputs)
    t = spans[0].tables["alpha_u"]
    undefined = [r for r in spans[0].alpha_u if r["reason"]]
    assert undefined and len(t.rows) == len(spans[0].alpha_u) - len(undefined)
    assert all(isinstance(row[2], float) and row[2] == row[2] for row in t.rows)
    named = " ".join(t.notes)
    for r in undefined:
        assert f"{r['category'] or 'all'}" in named


def test_nothing_readable_is_named(cli, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.md").write_text("nothing\n")
    status, _, err = cli("report", tmp_path)
    assert status == 2 and err.strip().startswith(f"{tmp_path}: nothing to report")
    assert len(err.strip().splitlines()) == 1


def test_a_truncated_table_is_one_line(cli, tmp_path, samples):
    """A reliability-data file cut in its last row (found by fuzzing: an IndexError while the
    report guessed the file's options) is the reader's one-line error naming the line."""
    data = (samples / "table" / "dialogue_acts.csv").read_text(encoding="utf-8")
    (tmp_path / "table").mkdir()
    lines = data.splitlines()
    cut = "\n".join(lines[:-1]) + "\n" + lines[-1].split(",")[0] + "\n"
    (tmp_path / "table" / "acts.csv").write_text(cut, encoding="utf-8")
    status, _, err = cli("report", tmp_path, "--resamples", "10")
    assert status == 2
    assert err.count("\n") == 1 and err.startswith(f"{tmp_path / 'table' / 'acts.csv'}:")


def test_report_runs_relations(cli_json, cli, tmp_path, samples):
    """Issue 37, 4: a folder of DISRPT .rels in annotator folders was "no reliability data …
    that corpusagree reads" (--strict: exit 2); the relations job's registration has its
    folder parts."""
    import shutil

    shutil.copytree(samples.parent / "tests" / "data" / "fuzz" / "rels", tmp_path / "rels")
    shutil.copytree(samples / "table", tmp_path / "table")
    doc = cli_json("report", tmp_path, "--resamples", "20", "--strict")
    reports = {r["job"]: r for r in doc}
    assert reports["relations"]["format"] == "disrpt"
    assert reports["relations"]["data"]["annotators"] == ["a", "b"]
    assert not any("not reported" in n for r in doc for n in r["notes"])
    status, _, err = cli("report", tmp_path / "rels", "--strict", "--resamples", "20")
    assert status == 0, err


def test_report_runs_the_annotators_job_on_its_sample(reports, samples, tmp_path):
    """Issue 34, item 8: ``report`` runs ``annotators`` on the reliability data of categories
    (the crowd sample, written by its seeded script: the same bytes again), with the models
    that fit in seconds; the random clicker and the one who always says "pos" come last."""
    import importlib.util

    from corpusagree.analyses import annotators

    spec = importlib.util.spec_from_file_location(
        "make_crowd", samples / "annotators" / "make_samples.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    lines = (samples / "annotators" / "crowd.csv").read_text(encoding="utf-8").splitlines()
    assert lines[1:] == [",".join(r) for r in make.rows()]
    mine = [r for r in reports if r.job == "annotators"]
    assert [r.inputs[0].rsplit("/", 1)[1] for r in mine] == ["crowd.csv", "dialogue_acts.csv"]
    crowd = mine[0]
    assert [m.id for m in crowd.models] == list(annotators.REPORT_MODELS)
    ds = next(m for m in crowd.models if m.id == "dawid_skene").result
    order = sorted(range(len(ds.annotators)), key=lambda a: ds.skill_values[a])
    assert {str(ds.annotators[a]) for a in order[:2]} == {"w7", "w8"}


def test_platform_exports_and_timelines_are_found_and_run_by_spans(tmp_path):
    """A study folder of the platforms' span exports (a Label Studio export, a Prodigy JSONL,
    doccano's files of each user, INCEpTION's agreement diff, CoNLL NER columns) and of
    time-aligned annotations (ELAN, TextGrid, RTTM), each from the formats reference: each
    sub-folder is found by its readers' sniffers, an export in one file too, and run by the
    spans job alone (spans without chains: no coref part, no note about one), with the same
    figures as the spans job on its files."""
    import shutil
    from pathlib import Path

    from corpusagree.analyses import folder, spans
    from corpusagree.readers import discover

    formats = Path(__file__).parents[2] / "docs" / "formats"
    subs = ["coref/labelstudio", "coref/prodigy", "coref/doccano", "coref/inception_diff",
            "coref/conll_ner", "timeline/elan", "timeline/textgrid", "timeline/rttm"]
    for sub in subs:
        shutil.copytree(formats / sub, tmp_path / sub.replace("/", "_"),
                        ignore=shutil.ignore_patterns("command", "variants"))
    found, unread = discover.units(tmp_path)
    assert not unread
    assert {d.name: k for d, k in found.items()} == {
        sub.replace("/", "_"): "timeline" if sub.startswith("timeline") else "coref"
        for sub in subs}
    reports = folder.analyse(tmp_path)
    # the Label Studio export's sentiment choices are judgements too (issue 33)
    assert [(r.job, r.inputs) for r in reports if r.job != "spans"] == [
        ("table", [str(tmp_path / "coref_labelstudio" / "export.json")])]
    got = {(r.job, r.to_dict()["format"]): r for r in reports if r.job == "spans"}
    assert sorted(got) == sorted(("spans", sub.split("/")[1]) for sub in subs)
    assert not [n for r in reports for n in r.notes if n.startswith("not reported")]
    alone = spans.analyse(spans.read(tmp_path / "coref_labelstudio" / "export.json"),
                          by_document=True, diagnostics=5)
    assert got["spans", "labelstudio"].to_dict()["ner"] == alone.to_dict()["ner"]
