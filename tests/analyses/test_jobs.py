"""The registry of jobs (``corpusagree.analyses.jobs``): a job is one module with a
registration, and the command line, ``report FOLDER``, the schema's and the tests' job lists
all come from it. A toy job registered here, with no other edit, is a sub-command, a part of
a study folder's report, and a job the schema test asks a part for."""

from __future__ import annotations

import json
import shutil
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

from corpusagree.analyses import jobs
from corpusagree.model.corpus import Corpus
from corpusagree.readers import discover
from corpusagree.report.document import Report
from corpusagree.report.tables import Column, Table

from support import SAMPLES


@dataclass(repr=False, kw_only=True)
class ToyReport(Report):
    inputs: list
    options: dict
    bootstrap: object
    notes: list
    lines: int
    job = "toy"

    def body(self) -> dict:
        return {"lines": self.lines}

    def summary(self) -> str:
        return f"{self.lines} lines"

    def _tables(self) -> list[Table]:
        return [Table("lines", "Lines", [Column("lines", "lines", "int")],
                           [[self.lines]])]


def _read(paths, *, input_format="auto", annotators=None, **reader_options):
    plist = [paths] if isinstance(paths, (str, Path)) else list(paths)
    lines = sum(len(Path(p).read_text(encoding="utf-8").splitlines()) for p in plist)
    return Corpus("toy", "lines", lines, ["all"], [], [str(p) for p in plist],
                  kind="judgements")


def _analyse(corpus, *, bootstrap=None, by_document=False, diagnostics=None, progress=None):
    return ToyReport(inputs=list(corpus.inputs), options={"by_document": by_document},
                     bootstrap=None, notes=[], lines=corpus.data)


def _parts(folder: Path):
    for f in discover.table_files(folder):
        yield jobs.Part(discover.table_inputs(f))


@pytest.fixture
def toy():
    module = types.ModuleType("toy_job")
    module.read, module.analyse = _read, _analyse
    sys.modules["toy_job"] = module
    job = jobs.register(jobs.Job("toy", "toy_job", kinds=("judgements",), tasks=("table",),
                                 help="counts the lines of reliability-data files",
                                 order=15, example=("sample_corpora/table/dialogue_acts.csv",),
                                 folder={"table": _parts}))
    yield job
    jobs.unregister("toy")
    del sys.modules["toy_job"]


def test_the_registered_jobs_in_their_order():
    assert list(jobs.registered()) == ["table", "annotators", "coref", "markables", "segments",
                                       "senses", "spans", "trees", "ratings",
                                       "relations"]
    assert jobs.reading("mentions") == ["coref", "markables", "spans"]
    with pytest.raises(ValueError, match="no job 'nope'; the jobs are table, annotators"):
        jobs.get("nope")


def test_each_builtin_job_is_listed_without_its_module_and_completed_by_it():
    """``listed()`` is what ``corpusagree --help`` reads (no job imported: tests/test_project);
    each module of :data:`jobs.BUILTIN` completes its registration with its keyword table and
    the parts of a study folder, the other fields unchanged."""
    whole = jobs.registered()
    assert [j.name for j in jobs.BUILTIN] == [n for n in whole if n in
                                              {j.name for j in jobs.BUILTIN}]
    for light in jobs.BUILTIN:
        job = whole[light.name]
        assert job.options and job.folder, light.name
        assert (job.module, job.kinds, job.tasks, job.help, job.order, job.example) == (
            light.module, light.kinds, light.tasks, light.help, light.order, light.example)
        assert jobs.module(light.name).JOB is job


def test_a_toy_job_is_a_command(toy, cli):
    status, out, _ = cli("--help")
    assert status == 0 and "toy" in out and "counts the lines of reliability" in out
    assert list(jobs.registered())[:3] == ["table", "toy", "annotators"]
    status, out, err = cli("toy", *toy.example, "--json")
    assert status == 0, err
    assert json.loads(out)["lines"] == 279


def test_a_toy_job_is_part_of_the_folder_report(toy, cli, tmp_path):
    shutil.copytree(SAMPLES / "table", tmp_path / "agreement")
    status, out, err = cli("report", tmp_path, "--json", "--resamples", "20")
    assert status == 0, err
    assert [d["job"] for d in json.loads(out)] == ["table", "table", "table", "toy", "toy",
                                                   "toy", "annotators", "ratings"]


def test_the_schema_test_asks_a_toy_job_for_its_part(toy):
    sys.path.insert(0, str(Path(__file__).parents[1] / "report"))
    try:
        import test_schema
    finally:
        sys.path.pop(0)
    assert "toy" in test_schema.commands() and "toy" in test_schema.cli_jobs()
    gaps = test_schema.schema_gaps()
    assert any(g.startswith("$defs/job_*: ['toy'] differ") for g in gaps), gaps


@pytest.mark.parametrize("argv, job", [
    (["table", "sample_corpora/coref/brat"], "the coref, markables, spans or relations job"),
    (["trees", "sample_corpora/table/dialogue_acts.csv"], "the table, annotators or ratings job"),
    (["segments", "sample_corpora/coref/brat"], "the coref, markables, spans or relations job"),
    (["coref", "sample_corpora/segments/segments.json"], "the segments or spans job"),
    (["senses", "sample_corpora/trees/rs3"], "the segments, spans or trees job"),
    (["spans", "sample_corpora/table/dialogue_acts.csv"], "the table, annotators or ratings job"),
    (["table", "sample_corpora/senses/sample.tsv"], "the senses job"),
])
def test_another_jobs_files_name_the_job_that_reads_them(cli, argv, job):
    status, out, err = cli(*argv)
    assert status == 2 and not out and len(err.strip().splitlines()) == 1
    assert err.startswith(f"{argv[1]}: ") and err.strip().endswith(f"{job} reads them" if
                                                                   "table" not in job else
                                                                   f"{job} reads it"), err


def test_a_job_given_another_kind_of_corpus_names_the_jobs_that_take_it():
    from corpusagree.analyses import segments, table

    with pytest.raises(TypeError, match=r"segments.analyse takes the Corpus .* not a table "
                       r"corpus of judgements \(the table, annotators or ratings job takes it\)"):
        segments.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv"))


def _bad_values(param):
    """``(value, error)`` pairs that ``param`` refuses: a value of no accepted type
    (TypeError), and one of an accepted type out of its choices or range (ValueError)."""
    wrong_type = "yes" if param.types != (str,) else 3
    out = [(wrong_type, TypeError)]
    if param.choices is not None:
        out.append(("nope", ValueError))
    elif param.low is not None:
        kind = int if int in param.types else float
        out.append((kind(param.low) - (0 if param.closed in ("neither", "right") else 1),
                    ValueError))
    return out


KEYWORD_CASES = [(name, p, value, error) for name, job in jobs.registered().items()
                 for p in job.options for value, error in _bad_values(p)]


@pytest.mark.parametrize("name, param, value, error", KEYWORD_CASES,
                         ids=[f"{n}-{p.name}-{v!r}" for n, p, v, _ in KEYWORD_CASES])
def test_every_job_checks_each_keyword_first(name, param, value, error):
    """Each keyword of each job's table, given a bad value, is refused before anything is
    read or computed (the corpus is None), naming the parameter, the value and what is
    accepted."""
    with pytest.raises(error) as caught:
        jobs.module(name).analyse(None, **{param.name: value})
    message = str(caught.value)
    assert message.startswith(f"{name}.analyse(): {param.name} must be "), message
    assert repr(value) in message and param.describe() in message


def test_the_issues_examples_of_unchecked_keywords():
    from corpusagree.analyses import coref, table

    corpus = coref.read(SAMPLES / "coref" / "brat")
    with pytest.raises(ValueError, match="diagnostics must be an integer ≥ 1 or None, not -3"):
        coref.analyse(corpus, diagnostics=-3)
    with pytest.raises(TypeError, match="by_document must be True or False, not 'yes'"):
        coref.analyse(corpus, by_document="yes")
    with pytest.raises(ValueError, match="diagnostics"):
        table.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv"), diagnostics=-2)


@pytest.mark.parametrize("argv, flag", [
    (["coref", "x", "--diagnostics", "-3"], "--diagnostics: expected an integer ≥ 1, not '-3'"),
    (["coref", "x", "--match", "nope"], "--match: invalid choice: 'nope'"),
    (["spans", "x", "--samples", "0"], "--samples: expected an integer ≥ 1, not '0'"),
    (["annotators", "x", "--fdr", "1"], "--fdr: expected a number between 0 and 1 (exclusive)"),
])
def test_the_command_line_refuses_from_the_same_table(cli, argv, flag):
    status, _, err = cli(*argv)
    assert status == 2 and f"argument {flag}" in err
