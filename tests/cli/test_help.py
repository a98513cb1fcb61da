"""``corpusagree JOB --help`` fits the terminal: 80 columns, choices wrapped in the help."""

import pytest

from corpusagree.cli import JOBS


@pytest.mark.parametrize("job", [None, *[j.__name__.rsplit(".", 1)[1] for j in JOBS]])
def test_help_fits_80_columns(job, cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _ = cli(*([job] if job else []), "--help")
    assert status == 0
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert wide == []


def test_many_choices_are_named_and_listed(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    _, out, _ = cli("table", "--help")
    assert "[--distance DISTANCE]" in out
    listed = " ".join(out.split("--distance DISTANCE", 2)[2].split())
    assert "one of: dice, interval, irr-bipolar, irr-circular," in listed
    # a few choices stay in braces
    _, out, _ = cli("segments", "--help")
    assert "{percentile,bca,jackknife}" in out
