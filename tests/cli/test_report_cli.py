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
    assert jobs == ["table", "table", "coref", "markables", "segments", "senses", "senses"]
    for r in reports:
        d = r.to_dict()
        assert ENVELOPE <= set(d) and d["schema"] == 1 and d["bootstrap"]["n_resamples"] == 200


def test_json_is_one_list_with_the_jobs_numbers(cli, cli_json, samples):
    doc = cli_json("report", samples, "--resamples", "200")
    assert isinstance(doc, list) and [d["job"] for d in doc][:3] == ["table", "table", "coref"]
    table = doc[0]
    alone = cli_json("table", samples / "table" / "dialogue_acts.csv", "--group", "document",
                     "--weights", samples / "table" / "dialogue_acts.weights.csv", "--ci",
                     "--resamples", "200")
    assert table["coefficients"] == alone["coefficients"]


def test_terminal_output_fits_80_columns(cli, samples):
    status, out, err = cli("report", samples, "--resamples", "100")
    assert status == 0, err
    assert max(len(line) for line in out.splitlines()) <= 80
    for needle in ("Coefficients", "Chains as set labels", "Span agreement per level",
                   "Unit sets", "Coefficients per scheme and inventory"):
        assert needle in out


def test_not_a_folder(cli, tmp_path):
    status, _, err = cli("report", tmp_path / "absent")
    assert status == 2 and err.strip() == f"{tmp_path / 'absent'}: not a folder"
    status, _, err = cli("report", tmp_path)
    assert status == 2 and "nothing to report" in err
