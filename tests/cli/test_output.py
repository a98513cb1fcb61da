"""Every write of an output goes through the one write helper (corpusagree.report.write): a
target the file system refuses is one line naming it, exit status 2, for every job and
``report`` (issue 37, 7)."""

import pytest

from corpusagree.analyses import jobs

LONG = "x" * 300
#: (options, what the one line says), one of them per job in turn: every job meets each kind
TARGETS = [
    (["--output", "/dev/full"], "/dev/full: cannot write: No space left on device"),
    (["--output", LONG], "cannot write: File name too long"),
    (["--json", "--output", "/proc/version"], "/proc/version: cannot write: Input/output error"),
    (["--html", "FOLDER"], ": is a folder: give a file name"),
    (["--format", "md", "--output", "/dev/full"], "/dev/full: cannot write: No space left"),
]
RUNS = [([name, *job.example], *TARGETS[i % len(TARGETS)])
        for i, (name, job) in enumerate(jobs.registered().items())]
RUNS += [(["report", "sample_corpora/table", "--resamples", "20"], *t) for t in TARGETS]


@pytest.mark.parametrize("argv, options, message", RUNS,
                         ids=[f"{r[0][0]}-{i % len(TARGETS)}" for i, r in enumerate(RUNS)])
def test_a_refused_output_is_one_line(argv, options, message, cli, tmp_path):
    if "--html" in options:
        pytest.importorskip("matplotlib")
    options = [str(tmp_path) if o == "FOLDER" else o for o in options]
    status, out, err = cli(*argv, *options)
    assert status == 2, err
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


def test_schema_writes_through_the_helper_too(cli):
    status, _, err = cli("schema", "--output", "/dev/full")
    assert status == 2 and err == "/dev/full: cannot write: No space left on device\n"
