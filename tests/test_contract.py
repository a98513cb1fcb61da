"""The job contract: every job has the same Python shape and the same outputs.

``read(paths)`` gives a typed :class:`~corpusagree.model.corpus.Corpus`, ``analyse(corpus)``
runs with its defaults, and every report has ``.tables`` (id → Table), ``to_dict``,
``to_json``, ``to_frame`` for each table, ``to_csv`` (one file per table), ``to_html`` and
``_repr_html_``; the command line's ``--format csv`` is one tidy table that pandas reads.
"""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys

import pytest

from corpusagree.analyses import coref, jobs, segments, spans, table
from corpusagree.model.corpus import Corpus

from support import ROOT, SAMPLES


def paths(example) -> list[str]:
    """The paths of a command line (what comes before its first option)."""
    out = []
    for arg in example:
        if arg.startswith("-"):
            break
        out.append(str(ROOT / arg))
    return out


#: (job module, what its read takes), from each registered job's example on sample_corpora/
JOBS = {name: (jobs.module(name), paths(job.example))
        for name, job in jobs.registered().items()}


#: options that add parts to a job's tables, on top of its example
EXTRA = {"table": ["--diagnostics"], "annotators": ["--candidate", "dan", "--diagnostics"],
         "coref": ["--by-document"], "segments": ["--diagnostics"],
         "trees": ["--by-document", "--ci", "--resamples", "50"]}


@pytest.fixture(scope="module", params=list(JOBS))
def job(request):
    module, path = JOBS[request.param]
    corpus = module.read(path)
    return request.param, corpus, module.analyse(corpus)


def test_read_gives_a_corpus_and_analyse_takes_it(job):
    name, corpus, report = job
    assert isinstance(corpus, Corpus) and corpus.job == name
    assert corpus.annotators and corpus.format and corpus.inputs
    assert repr(corpus).startswith(f"<Corpus {name} ({corpus.format}): ")
    assert report.job == name and report.inputs == corpus.inputs


def test_every_table_is_a_frame_with_ascii_ids(job):
    pytest.importorskip("pandas")
    _, _, report = job
    assert report.tables and all(tid.isascii() for tid in report.tables)
    for tid, t in report.tables.items():
        frame = report.to_frame(tid)
        assert len(frame) == len(t.rows), tid
        assert list(frame.columns) == list(t.records()[0]) if t.rows else True
    with pytest.raises(KeyError, match="no table 'nope'; the tables are"):
        report.tables["nope"]


def test_json_and_notebook_and_files(job, tmp_path):
    _, _, report = job
    doc = json.loads(report.to_json())
    assert doc["job"] == report.job and doc["schema"] == 1
    html = report._repr_html_()
    assert html.startswith('<div class="corpusagree-report"') and "<table" in html
    assert "<caption>" in html
    written = report.to_csv(tmp_path / "tables")
    notes = ["notes"] if report.notes or any(t.notes for t in report.tables.values()) else []
    assert [p.stem for p in written] == [*report.tables, *notes]


def test_reports_are_built_by_keyword_and_build_their_tables_once(job):
    """A report's constructor is keyword-only (a report of ten or twenty parts is never built
    by position), and ``.tables`` is built once per report: the renderers ask for it often."""
    import inspect

    from corpusagree.analyses import study
    from corpusagree.report.document import Report

    _, _, report = job
    assert report.tables is report.tables
    for cls in {type(report), study.PlanReport, study.CompareReport}:
        assert issubclass(cls, Report)
        kinds = {p.kind for p in inspect.signature(cls).parameters.values()}
        assert kinds == {inspect.Parameter.KEYWORD_ONLY}, cls.__name__


def test_analyse_says_what_it_takes():
    with pytest.raises(TypeError, match="segments.analyse takes the Corpus that "
                       "corpusagree.analyses.segments.read returns"):
        segments.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv"))
    # raw annotations are taken too, and make a corpus of their own
    brat = SAMPLES / "coref" / "brat"
    raw = coref.read(brat).data
    assert coref.analyse(raw).items == coref.analyse(coref.read(brat)).items
    # a coreference corpus is a corpus of spans as well
    assert spans.analyse(coref.read(brat), measures=["alpha_u"]).alpha_u


def test_same_keywords_everywhere():
    import inspect

    for name, (module, _) in JOBS.items():
        read = inspect.signature(module.read).parameters
        analyse = inspect.signature(module.analyse).parameters
        assert {"input_format", "annotators"} <= set(read), name
        assert read["input_format"].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert {"bootstrap", "by_document", "diagnostics", "progress"} <= set(analyse), name
        assert not {"inputs", "input_format", "distances"} & set(analyse), name


@pytest.mark.parametrize("argv", [[name, *job.example, *EXTRA.get(name, ())]
                                  for name, job in jobs.registered().items()],
                         ids=list(jobs.registered()))
def test_csv_of_every_job_is_one_tidy_table(argv, cli):
    pd = pytest.importorskip("pandas")
    status, out, err = cli(*argv, "--format", "csv")
    assert status == 0, err
    frame = pd.read_csv(io.StringIO(out), keep_default_na=False, dtype=str)
    assert list(frame.columns) == ["table", "row", "column", "value"]
    assert frame["table"].map(str.isascii).all() and frame["column"].map(str.isascii).all()


def test_report_keeps_going_past_a_broken_part(cli, tmp_path, samples):
    """One unreadable sub-folder becomes a note naming it and why; the rest is reported,
    exit 0; --strict makes it an error (exit 2)."""
    import shutil

    shutil.copytree(samples / "table", tmp_path / "table")
    broken = tmp_path / "chains"
    shutil.copytree(samples / "coref" / "brat", broken)
    ann = next(broken.rglob("*.ann"))
    ann.write_text("T1\tMention 0 999999\tnothing\n", encoding="utf-8")
    status, out, err = cli("report", tmp_path, "--json", "--resamples", "20")
    assert status == 0, err
    docs = json.loads(out)
    assert [d["job"] for d in docs][:2] == ["table", "table"]
    notes = [n for d in docs for n in d["notes"] if n.startswith("not reported:")]
    assert any(str(ann) in n and "chains" in n for n in notes), notes
    status, _, err = cli("report", tmp_path, "--strict", "--resamples", "20")
    assert status == 2 and str(ann) in err and len(err.strip().splitlines()) == 1


def test_report_reads_files_like_another_jobs_data_as_that_job(cli, samples):
    """``segments`` on a brat folder is an error that says what the folder holds."""
    status, _, err = cli("segments", samples / "coref" / "brat")
    assert status == 2
    assert "brat" in err and "coref" in err and len(err.strip().splitlines()) == 1


def _run_on_a_terminal(argv: list[str]) -> str:
    """What a command writes to a pseudo-terminal (stdout and stderr)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on the terminal
        os.chdir(ROOT)
        os.environ["COLUMNS"] = "100"
        os.environ["CORPUSAGREE_PROGRESS_DELAY"] = "0"  # show it however quick the run
        os.execv(sys.executable, [sys.executable, "-m", "corpusagree", *argv])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


def test_progress_on_a_terminal_and_not_in_a_pipe():
    argv = ["table", "sample_corpora/table/dialogue_acts.csv", "--ci", "--resamples",
            "2000", "--format", "json"]
    shown = _run_on_a_terminal(argv)
    assert "resampling" in shown and "/2000" in shown
    piped = subprocess.run([sys.executable, "-m", "corpusagree", *argv], cwd=ROOT,
                           capture_output=True, text=True)
    assert piped.returncode == 0 and piped.stderr == ""
    quiet = _run_on_a_terminal([*argv, "--quiet"])
    assert "resampling" not in quiet


def test_every_result_object_has_dict_and_frame():
    """Result, UnitizingAlpha, Gamma, CorefScores and the diagnostics: ``to_dict()`` and
    ``to_frame()``, the frame holding the object's value."""
    import corpusagree as ca
    from corpusagree import unitizing as u

    data = table.read(SAMPLES / "table" / "dialogue_acts.csv").data
    alpha = ca.alpha(data)
    c = u.Continuum.join([u.Continuum.from_units(
        [("A", 2, 6, "X"), ("B", 2 + shift, 6, "X"), ("A", 10, 14, "Y"), ("B", 10, 15, "Y")],
        0, 20, document=name) for name, shift in zip("pqr", (0, 1, 2), strict=True)])
    ua, g = u.alpha_u(c), u.gamma(c, n_samples=30)
    scores = coref.analyse(coref.read(SAMPLES / "coref" / "brat")).scores
    diagnostics = table.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv"),
                                diagnostics=5).diagnostics
    for obj, value in ((alpha, alpha.value), (ua, ua.value), (g, g.value),
                       (scores, None), (diagnostics, None)):
        assert isinstance(obj.to_dict(), dict)
        df = obj.to_frame()
        assert len(df) >= 1, type(obj).__name__
        if value is not None:
            assert df["value"].iloc[0] == pytest.approx(value), type(obj).__name__
    assert list(diagnostics.to_frame("pairwise")["coder"]) == list(data.coders)
    frame = g.to_frame()
    assert list(frame["document"][1:]) == ["p", "q", "r"]
    assert frame["value"][1:].tolist() == pytest.approx([d.value for d in g.documents])
