"""``corpusagree JOB --help`` fits the terminal: 80 columns, choices wrapped in the help."""

import argparse

import pytest

from corpusagree.cli import JOBS, build_parser, commands


@pytest.mark.parametrize("job", [None, *[j.__name__.rsplit(".", 1)[1] for j in JOBS]])
def test_help_fits_80_columns(job, cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _ = cli(*([job] if job else []), "--help")
    assert status == 0
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert wide == []


def _commands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


@pytest.mark.parametrize("name", [None, *commands()])
def test_the_lazy_parser_says_what_the_whole_one_says(name, cli, monkeypatch):
    """``corpusagree --help`` lists the commands from the jobs' registrations without building
    their options (issue 34, item 14): its help, and each command's once chosen, are the
    help of the parser with every command built."""
    monkeypatch.setenv("COLUMNS", "80")
    whole = build_parser()
    status, out, _ = cli(*([name] if name else []), "--help")
    assert status == 0
    assert out == (whole if name is None else _commands(whole).choices[name]).format_help()
    lazy = build_parser(lazy=True)
    pending = _commands(lazy)
    assert set(pending._pending) == set(commands())  # nothing built yet
    if name is not None:
        pending.build(name)  # as choosing it on the command line does
        assert name not in pending._pending and len(pending._pending) == len(commands()) - 1
        assert lazy.format_help() == whole.format_help()  # its line kept in its place


def test_many_choices_are_named_and_listed(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    _, out, _ = cli("table", "--help")
    assert "[--distance DISTANCE]" in out
    listed = " ".join(out.split("--distance DISTANCE", 2)[2].split())
    assert "one of: dice, interval, irr-bipolar, irr-circular," in listed
    # a few choices stay in braces
    _, out, _ = cli("segments", "--help")
    assert "{percentile,bca,jackknife}" in out




@pytest.mark.parametrize("argv, near", [(["segments", "sample_corpora/segments/segments.json",
                                           "--sed", "1"], "--seed"),
                                         (["table", "sample_corpora/table/dialogue_acts.csv",
                                           "--distanse", "nominal"], "--distance"),
                                         (["trees", "sample_corpora/trees/rs3", "--zzz"], None)])
def test_unknown_option_points_to_the_jobs_help_and_the_near_option(cli, argv, near):
    """Issue 34, item 11: an option the job does not know is named on one line with the job's
    help (``corpusagree JOB --help``) and the nearest of its options."""
    status, out, err = cli(*argv)
    assert status == 2 and not out and err.count("\n") == 1
    assert err.startswith(f"corpusagree {argv[0]}: unrecognized arguments: ")
    assert err.rstrip().endswith(f"(corpusagree {argv[0]} --help)")
    assert (f"did you mean {near}?" in err) if near else "did you mean" not in err
