"""The registry of jobs (``corpusagree.analyses.jobs``): a job is one module with a
registration, and the command line, ``report FOLDER``, the schema's and the tests' job lists
all come from it. A toy job registered here, with no other edit, is a sub-command, a part of
a study folder's report, and a job the schema test asks a part for."""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from corpusagree.analyses import jobs

from support import SAMPLES

#: a job in one module: its read, analyse, report, part of the JSON Schema and registration
TOY = '''"""A toy job: counts the lines of reliability-data files."""

from dataclasses import dataclass
from pathlib import Path

from corpusagree.analyses import jobs
from corpusagree.model.corpus import Corpus
from corpusagree.readers import discover
from corpusagree.report.document import Report
from corpusagree.report.tables import Column, Table


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
        return [Table("lines", "Lines", [Column("lines", "lines", "int")], [[self.lines]])]


def read(paths, *, input_format="auto", annotators=None, **reader_options):
    plist = [paths] if isinstance(paths, (str, Path)) else list(paths)
    lines = sum(len(Path(p).read_text(encoding="utf-8").splitlines()) for p in plist)
    return Corpus("toy", "lines", lines, ["all"], [], [str(p) for p in plist],
                  kind="judgements")


def analyse(corpus, *, bootstrap=None, by_document=False, diagnostics=None, progress=None):
    return ToyReport(inputs=list(corpus.inputs), options={"by_document": by_document,
                     "reader_options": {}}, bootstrap=None, notes=[], lines=corpus.data)


def _parts(folder: Path):
    for f in discover.table_files(folder):
        yield jobs.Part(discover.table_inputs(f))


SCHEMA = {"$ref": "#/$defs/envelope", "unevaluatedProperties": False, "required": ["lines"],
          "properties": {"options": {"type": "object", "required": ["reader_options"]},
                         "lines": {"$ref": "#/$defs/count"}}}

CARD = {"name": "toy", "kinds": ("judgements",), "tasks": ("table",),
        "help": "counts the lines of reliability-data files", "order": 15,
        "example": ("sample_corpora/table/dialogue_acts.csv",)}

JOB = jobs.complete(CARD["name"], schema=SCHEMA, folder={"table": _parts})
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy job, one module (``toy.py``) in a folder of the jobs' package: no other edit."""
    import corpusagree.analyses

    folder = tmp_path / "jobs"
    folder.mkdir()
    (folder / "toy.py").write_text(TOY, encoding="utf-8")
    monkeypatch.setattr(corpusagree.analyses, "__path__",
                        [*corpusagree.analyses.__path__, str(folder)])
    yield jobs.get("toy")
    jobs.unregister("toy")
    sys.modules.pop("corpusagree.analyses.toy", None)


def test_the_registered_jobs_in_their_order():
    assert list(jobs.registered()) == ["table", "annotators", "coref", "markables", "segments",
                                       "senses", "spans", "trees", "ratings",
                                       "relations"]
    assert jobs.reading("mentions") == ["coref", "markables", "spans"]
    with pytest.raises(ValueError, match="no job 'nope'; the jobs are table, annotators"):
        jobs.get("nope")


def test_each_job_is_listed_from_its_card_and_completed_by_its_module():
    """``listed()`` is what ``corpusagree --help`` reads: each job module's card, read from its
    text without importing it (tests/test_project); the module completes its registration
    with its keyword table, the parts of a study folder and its part of the JSON Schema, the
    card's fields unchanged."""
    cards = jobs.cards()
    whole = jobs.registered()
    assert [j.name for j in cards] == list(whole)
    for card in cards:
        job = whole[card.name]
        assert job.options and job.folder and job.schema, card.name
        assert (job.module, job.kinds, job.tasks, job.help, job.order, job.example) == (
            card.module, card.kinds, card.tasks, card.help, card.order, card.example)
        mod = jobs.module(card.name)
        assert mod.JOB is job and mod.CARD["name"] == card.name and mod.SCHEMA is job.schema


def test_a_card_that_is_no_literal_is_named(tmp_path, monkeypatch):
    import corpusagree.analyses

    (tmp_path / "broken.py").write_text('CARD = {"name": "broken", "order": 1 + 1}\n',
                                        encoding="utf-8")
    monkeypatch.setattr(corpusagree.analyses, "__path__",
                        [*corpusagree.analyses.__path__, str(tmp_path)])
    with pytest.raises(RuntimeError, match=r"broken\.py: CARD is not a dict of literals"):
        jobs.listed()
    (tmp_path / "broken.py").write_text('CARD = {"name": "broken", "colour": "red"}\n',
                                        encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"broken\.py: CARD: .*'colour'"):
        jobs.listed()


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


def test_a_toy_jobs_part_is_in_the_schema_and_its_document_fits(toy, cli):
    from corpusagree import schema

    s = schema()
    assert s["$defs"]["job_toy"] == toy.schema and "toy" in \
        s["$defs"]["report"]["properties"]["job"]["enum"]
    status, out, err = cli("toy", *toy.example, "--json")
    assert status == 0, err
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(s).validate(json.loads(out))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(s).validate({**json.loads(out), "lines": -1})


def test_the_schema_test_asks_a_toy_job_for_its_part(toy):
    sys.path.insert(0, str(Path(__file__).parents[1] / "report"))
    try:
        import test_schema
    finally:
        sys.path.pop(0)
    assert "toy" in test_schema.commands() and "toy" in test_schema.cli_jobs()
    assert not test_schema.schema_gaps()
    jobs.register(replace(toy, schema=None))
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
