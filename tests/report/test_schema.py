"""The JSON Schema of the report document (``corpusagree schema``, ``corpusagree.report.
schema()``): a draft 2020-12 schema shipped in the package; the ``--json`` of every command on
``sample_corpora/`` validates against it, with and without ``--ci``, ``--by-document`` and
``--diagnostics``; it has a part for every job of the command line, and its lists of ids follow
the code's; and it refuses what it should (a wrong type, a missing key, an unknown job or
coefficient). ``tests/cli/test_frozen.py`` validates the runs on the real corpora too."""

from __future__ import annotations

import copy
import doctest
import io
import json
import sys

import pytest

from corpusagree import cli, schema
from corpusagree.analyses import jobs
from corpusagree.report import json as json_renderer
from corpusagree.report.document import Report

from support import ROOT, SAMPLES, schema_errors

jsonschema = pytest.importorskip("jsonschema")

S = "sample_corpora"


def commands() -> dict[str, list[str]]:
    """A command line of every command that prints report documents: each registered job's
    example (its registration's ``example``, on sample_corpora/), and ``report``."""
    out = {name: [name, *job.example] for name, job in jobs.registered().items()}
    out["report"] = ["report", S, "--resamples", "20"]
    return out


COMMANDS = commands()
#: commands that print no report document
NOT_REPORTS = {"schema"}
#: the study-design commands (not jobs: they compose the jobs' data), with their entries
#: $defs/job_<command> in the schema, and a command line of each report they write
STUDY = {
    "compare": ["compare", f"{S}/coref/brat", f"{S}/coref/mmax2", "--resamples", "20",
                "--margin", "0.05"],
    "plan": ["plan", f"{S}/table/dialogue_acts.csv", "--group", "document", "--width", "0.2",
             "--resamples", "20"],
    "plan_alpha": ["plan", "--alpha-min", "0.8", "--proportions", "1,1,1,1"],
    "plan_table": ["plan", "--alpha-min", "0.8", "--table"],
    "plan_kappa": ["plan", "--kappa", "0.5,0.5,0.7,0.85"],
    "compare_jackknife": ["compare", f"{S}/table/dialogue_acts.csv",
                          f"{S}/table/dialogue_acts.csv", "--group", "document",
                          "--interval", "jackknife"],
}
#: the options that add parts to a document
EVERYTHING = ["--ci", "--resamples", "20", "--by-document", "--diagnostics"]
#: variants whose parts the two runs above do not reach
VARIANTS = {
    "table_wide_bca": ["table", f"{S}/table/essay_marks_wide.csv", "--wide", "--distance",
                       "interval", "--ci", "--resamples", "20", "--interval", "bca",
                       "--diagnostics"],
    "table_two_coders_reference": ["table", f"{S}/table/dialogue_acts.csv", "--annotators",
                                   "ann,bob", "--diagnostics", "3", "--reference", "ann"],
    "table_sets": ["table", f"{S}/table/dialogue_acts.csv", "--set-sep", "|", "--distance",
                   "masi", "--diagnostics"],
    "table_declared_categories": ["table", f"{S}/table/dialogue_acts.csv", "--categories",
                                  "Statement,Info-Request,Check,Other,Answer"],
    "table_swap": ["table", "tests/data/table/swap.csv", "--swap", "order"],
    "table_over_coders_and_documents": ["table", f"{S}/table/dialogue_acts.csv", "--group",
                                        "document", "--ci", "--interval", "jackknife",
                                        "--over", "both"],
    "markables_sets": ["markables", f"{S}/coref/mmax2", "--set-sep", "|", "--diagnostics"],
    "annotators_gold_candidate": ["annotators", f"{S}/table/dialogue_acts.csv", "--gold", "ann",
                                  "--candidate", "dan", "--models",
                                  "majority_vote,dawid_skene"],
    "coref_antecedent": ["coref", f"{S}/coref/brat", "--label", "antecedent", "--by-document",
                         "--diagnostics"],
    "coref_variants": ["coref", f"{S}/coref/mmax2", "--match", "overlap", "--unmarked",
                       "singleton", "--label", "prefix", "--singletons", "drop"],
    "senses_inventory": ["senses", f"{S}/senses/sample.tsv", "--inventory",
                         f"{S}/senses/inventory.tsv", "--by-lemma", "--diagnostics"],
    "spans_segments": ["spans", f"{S}/segments/segments.json", "--by-document",
                       "--diagnostics", "--samples", "5"],
    "trees_as_annotated": ["trees", f"{S}/trees/rs3", "--no-binarize", "--relations",
                           "rstdt18"],
    "relations_overlap": ["relations", "tests/data/relations/webanno/a",
                          "tests/data/relations/webanno/b", "--match", "overlap",
                          "--undirected", "--by-document", "--diagnostics", "3"],
}


def cli_jobs() -> set[str]:
    """The commands of the command line."""
    return set(cli.commands())


def valid(doc) -> None:
    errors = schema_errors(doc)
    assert not errors, "\n".join(errors[:20])


def run_json(cli, argv: list[str]):
    status, out, err = cli(*argv, "--json")
    assert status == 0, err
    return json.loads(out)


# ---- the schema itself ---------------------------------------------------------------------
def test_a_draft_2020_12_schema_shipped_in_the_package():
    s = schema()
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(s)
    assert schema() is not s and schema() == s  # a fresh copy each time
    shipped = json.loads((ROOT / "corpusagree" / "report" / json_renderer.SCHEMA_FILE)
                         .read_text(encoding="utf-8"))
    assert shipped == json_renderer.shared_schema()
    # the file holds no job's entry and no list of jobs: the jobs' parts are their modules'
    # SCHEMA, and the enum of jobs and the dispatch are made of the entries
    assert "enum" not in shipped["$defs"]["report"]["properties"]["job"]
    registered = jobs.registered()
    assert not {f"job_{name}" for name in registered} & set(shipped["$defs"])
    for name, job in registered.items():
        assert s["$defs"][f"job_{name}"] == job.schema == jobs.module(name).SCHEMA
    del s["$defs"]["report"]["properties"]["job"]["enum"], s["$defs"]["report"]["allOf"]
    for name in registered:
        del s["$defs"][f"job_{name}"]
    assert shipped == s


def test_pyproject_ships_the_schema_file():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = project["tool"]["setuptools"]["package-data"]
    assert json_renderer.SCHEMA_FILE in data["corpusagree.report"]


def test_the_docstring_examples_run():
    for module in (json_renderer, jobs):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted >= 3 and not result.failed, module.__name__


def test_schema_command_prints_it(cli, tmp_path, monkeypatch):
    status, out, err = cli("schema")
    assert status == 0 and not err
    assert json.loads(out) == schema()
    status, out, err = cli("schema", "--output", tmp_path / "report.schema.json")
    assert status == 0 and not out
    assert json.loads((tmp_path / "report.schema.json").read_text(encoding="utf-8")) == schema()
    # a console that cannot write Greek letters gets them escaped
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    assert cli("schema")[0] == 0
    sys.stdout.flush()
    assert json.loads(raw.getvalue().decode("ascii")) == schema()
    status, _, err = cli("schema", "--output", tmp_path)
    assert status == 2 and err.strip() == f"{tmp_path}: is a folder: give a file name"


# ---- a part for every job, and the code's lists ----------------------------------------------
def test_every_command_has_a_sample_here():
    missing = cli_jobs() - set(commands()) - NOT_REPORTS - {v[0] for v in STUDY.values()}
    assert not missing, (f"commands with no sample command line (give the job's card "
                         f"an example, and its module a SCHEMA): {missing}")


def schema_gaps() -> list[str]:
    """How the registered jobs, the jobs of the command line, the reports' ``job``, the
    schema's ``job`` enum, its ``$defs/job_<job>`` entries and its dispatch (if job == ...
    then ...) differ; empty when they are the same set."""
    report = schema()["$defs"]["report"]
    registered = jobs.registered()
    names = set(registered)
    modules = {job.module for job in registered.values()}
    reports = {cls.job for cls in Report.__subclasses__() if cls.__module__ in modules}
    enum = set(report["properties"]["job"]["enum"])
    study = {v[0] for v in STUDY.values()}
    enum -= study
    parts = {k.removeprefix("job_") for k in schema()["$defs"] if k.startswith("job_")} - study
    dispatch = {c["if"]["properties"]["job"]["const"]: c["then"]["$ref"]
                for c in report["allOf"]
                if c["if"]["properties"]["job"]["const"] not in study}
    recipe = "give the job's module its SCHEMA: complete(CARD['name'], schema=SCHEMA, ...)"
    return [f"{what}: {sorted(found ^ names)} differ from the registered jobs; {recipe}"
            for what, found in (("the commands",
                                 cli_jobs() - {"report"} - NOT_REPORTS - study),
                                ("Report subclasses", reports), ("the job enum", enum),
                                ("$defs/job_*", parts), ("the allOf dispatch", set(dispatch)))
            if found != names]


def test_every_job_has_its_part_in_the_schema():
    """The registered jobs are the commands' jobs, the reports' ``job``, and have their
    entries in the schema (:func:`schema_gaps`)."""
    gaps = schema_gaps()
    assert not gaps, "\n".join(gaps)
    report = schema()["$defs"]["report"]
    dispatch = {c["if"]["properties"]["job"]["const"]: c["then"]["$ref"]
                for c in report["allOf"]}
    assert all(ref == f"#/$defs/job_{job}" for job, ref in dispatch.items()), dispatch
    for job in jobs.registered():  # the envelope and the job's parts, nothing else
        part = schema()["$defs"][f"job_{job}"]
        assert part["$ref"] == "#/$defs/envelope" and part["unevaluatedProperties"] is False
        assert "reader_options" in part["properties"]["options"]["required"], job


def at(pointer: str):
    """The part of the schema at a JSON pointer (``/$defs/...``)."""
    node = schema()
    for key in pointer.strip("/").split("/"):
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def enum_lists():
    from corpusagree.analyses import annotators, spans, trees
    from corpusagree.convert import align
    from corpusagree.convert import coref as conv_coref
    from corpusagree.convert import senses as conv_senses
    from corpusagree.stats import corefscores, interpret, spec, unitizing
    from corpusagree.stats.inference import INTERVALS
    from corpusagree.stats.trees import iruskieta, parseval

    coref = "/$defs/job_coref/properties/options/properties"
    return {
        "/$defs/coefficient_id/enum": list(spec.COEFFICIENTS),
        "/$defs/job_spans/$defs/alpha_u/properties/id/enum": list(unitizing.IDS.values()),
        "/$defs/job_spans/$defs/alpha_u/properties/variant/enum": list(unitizing.VARIANTS),
        "/$defs/job_spans/properties/options/properties/measures/items/enum":
            list(spans.MEASURES),
        "/$defs/job_coref/$defs/metric/enum": list(corefscores.METRICS),
        "/$defs/job_coref/$defs/alignment_counts/required": list(conv_coref.COUNTERS),
        f"{coref}/label/enum": list(conv_coref.LABELS),
        f"{coref}/unmarked/enum": list(conv_coref.UNMARKED),
        f"{coref}/singletons/enum": list(conv_coref.SINGLETONS),
        "/$defs/job_senses/$defs/scheme/enum": list(conv_senses.SCHEMES),
        "/$defs/job_senses/$defs/cluster/enum": list(conv_senses.CLUSTERS),
        "/$defs/reading/properties/scale/enum": list(interpret.SCALES),
        "/$defs/conventions/oneOf/1/required": list(interpret.SCALES),
        "/$defs/bootstrap/properties/interval/enum": list(INTERVALS),
        "/$defs/job_trees/$defs/measure/enum": list(parseval.MEASURES),
        "/$defs/job_trees/$defs/factor/enum": list(iruskieta.FACTORS),
        "/$defs/job_trees/properties/parseval/items/properties/variant/enum":
            list(trees.VARIANTS),
        "/$defs/job_relations/properties/options/properties/match/enum": list(align.MATCHES),
        "/$defs/job_annotators/$defs/model/enum": list(annotators.MODELS),
    }


@pytest.mark.parametrize("pointer", list(enum_lists()))
def test_the_schema_lists_what_the_code_lists(pointer):
    """The id enum of a coefficient is the spec table's ids (a new coefficient cannot be
    forgotten), and so on for every list the schema spells out."""
    assert at(pointer) == enum_lists()[pointer], pointer


def test_reliability_columns_are_the_models():
    from corpusagree.analyses import annotators

    patterns = at("/$defs/job_annotators/properties/reliability/items/patternProperties")
    alternatives = {p.split("(")[1].split(")")[0] for p in patterns}
    assert alternatives == {"|".join(annotators.MODELS)}


# ---- every command's --json validates --------------------------------------------------------
@pytest.mark.parametrize("extra", [[], EVERYTHING], ids=["defaults", "ci_by_document_diag"])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_json_validates(cli, name, extra):
    if name == "report":  # always by document
        extra = [x for x in extra if x != "--by-document"]
    doc = run_json(cli, COMMANDS[name] + extra)
    valid(doc)
    if name == "report":
        assert isinstance(doc, list) and len({d["job"] for d in doc}) >= 6
    else:
        assert doc["job"] == name
        if extra:
            assert doc["bootstrap"] is not None and doc["options"]["diagnostics"] == 10



def ids(rows: list[dict]) -> set[str]:
    return {r["id"] for r in rows}


#: what each variant reaches (so that a variant cannot stop reaching it unnoticed)
REACHES = {
    "table_wide_bca": lambda d: d["coefficients"][0]["interval"]["method"] == "bootstrap BCa",
    "table_two_coders_reference": lambda d: d["diagnostics"]["two_coders"]
    and d["diagnostics"]["expert"],
    "table_sets": lambda d: "mv_alpha" in ids(d["coefficients"])
    and d["diagnostics"]["value_disagreement"]["rows"],
    "table_declared_categories": lambda d: any(c.get("categories_declared")
                                               for c in d["coefficients"]),
    "table_swap": lambda d: d["position"][0]["to_first"] == 2 and len(d["by_order"]) == 2,
    "table_over_coders_and_documents": lambda d: d["bootstrap"]["over"] == "both" and all(
        c["interval"]["method"] == "jackknife over coders and documents"
        for c in d["coefficients"] if c.get("interval")),
    "markables_sets": lambda d: "mv_alpha" in ids(d["levels"][0]["attributes"][0]
                                                  ["coefficients"]),
    "annotators_gold_candidate": lambda d: d["candidates"][0]["alt_test"]["humans"]
    and d["models"][0]["gold_accuracy"] is not None and "gold" in d["labels"][0],
    "coref_antecedent": lambda d: d["coefficients"] == [] and "alpha" not in d["by_document"][0],
    "coref_variants": lambda d: d["options"]["match"] == "overlap",
    "senses_inventory": lambda d: {s["scheme"] for s in d["schemes"]} == {
        "fine", "multi", "coarse", "extended"} and d["confused"] and d["by_lemma"],
    "spans_segments": lambda d: d["costliest"] and d["gamma_positions"] is None,
    "trees_as_annotated": lambda d: d["options"]["binarize"] is False and d["boundaries"]
    and d["not_compared"] and d["disputed"],
    "relations_overlap": lambda d: d["options"]["directed"] is False and d["by_document"]
    and d["confused"],
}


@pytest.mark.parametrize("name", list(STUDY))
def test_study_commands_json_validates(cli, name):
    doc = run_json(cli, STUDY[name])
    valid(doc)
    assert doc["job"] == STUDY[name][0]
    bad = copy.deepcopy(doc)
    bad["unknown"] = 1
    assert schema_errors(bad)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variants_validate(cli, name):
    doc = run_json(cli, VARIANTS[name])
    valid(doc)
    assert REACHES[name](doc), name


@pytest.mark.parametrize("job", ["trees", "annotators"])
def test_real_corpora_of_the_newer_jobs_validate(cli, corpora, job):
    """RSTmulti's trees (documents compared by their boundaries, with intervals, and documents
    not compared) and Snow et al.'s RTE crowd labels with their gold column
    (``tests/cli/test_frozen.py`` validates the real corpora of the other jobs)."""
    if job == "trees":
        rst = corpora / "rstmulti_hewett2025" / "data"
        doc = run_json(cli, ["trees", rst / "1", rst / "2", "--by-document", "--ci",
                             "--resamples", "20"])
        assert doc["boundaries"][0]["interval_low"] is not None and doc["not_compared"]
    else:
        doc = run_json(cli, ["annotators", corpora / "snow2008_mturk" / "rte.standardized.tsv",
                             "--coder", "!amt_worker_ids", "--item", "orig_id", "--label",
                             "response", "--gold", "gold", "--diagnostics"])
        assert doc["data"]["gold"] == "gold" and doc["disputed"]
    valid(doc)


def test_reports_made_in_python_validate():
    """Integer coder and item names with numeric labels; typed boundaries with their
    coincidences; γ alone and uα alone; γ of one document (named, no documents)."""
    import numpy as np

    from corpusagree.analyses import coref, segments, spans, table
    from corpusagree.model.corpus import Segmentation
    from corpusagree.model.data import ReliabilityData

    m = np.array([[1, 2, 3, 1, 2, np.nan], [1, 2, 3, 2, 2, 1], [1, 1, 3, 1, 2, 1]])
    report = table.analyse(ReliabilityData.from_matrix(m), distance=["nominal", "interval"],
                           diagnostics=3)
    doc = json.loads(report.to_json())
    assert isinstance(doc["diagnostics"]["leave_one_out"]["rows"][0]["coder"], int)
    valid(doc)
    segs = [Segmentation(d, c, m, boundary_types=t) for d, c, m, t in [
        ("d1", "a", (1, 2, 1), ("topic", "sub")), ("d1", "b", (1, 3), ("sub",)),
        ("d1", "c", (1, 2, 1), ("topic", "topic")), ("d2", "a", (2, 2), ("topic",)),
        ("d2", "b", (2, 2), ("topic",)), ("d2", "c", (1, 3), ("sub",))]]
    doc = json.loads(segments.analyse(segs, diagnostics=3, by_document=True).to_json())
    assert doc["typed_boundaries"] and doc["typed_coincidence"]
    valid(doc)
    corpus = spans.read(SAMPLES / "coref" / "brat")
    for measures in (["gamma"], ["alpha_u"]):
        valid(json.loads(spans.analyse(corpus, measures=measures, n_samples=5).to_json()))
    annotations = coref.read(SAMPLES / "coref" / "brat").data
    one = [a for a in annotations if a.document.id == annotations[0].document.id]
    doc = json.loads(spans.analyse(one, n_samples=5, by_document=True).to_json())
    assert doc["gamma"]["document"] and "documents" not in doc["gamma"]
    valid(doc)


# ---- and refuses what it should -------------------------------------------------------------
@pytest.fixture(scope="module")
def table_doc():
    from corpusagree.analyses import table
    from corpusagree.stats.inference import Bootstrap

    report = table.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv",
                                      group="document"),
                           bootstrap=Bootstrap(20), diagnostics=3)
    doc = json.loads(report.to_json())
    valid(doc)
    return doc


def _set(doc: dict, path: str, value) -> dict:
    doc = copy.deepcopy(doc)
    *parents, last = path.split("/")
    node = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is _DELETE:
        del node[last]
    else:
        node[last] = value
    return doc


_DELETE = object()


@pytest.mark.parametrize("path, value, error", [
    # a wrong type, nan as text, counts that are no counts, an unknown coefficient
    ("coefficients/0/value", "0.5", "coefficients/0/value: '0.5' is not of type"),
    ("coefficients/0/value", "NaN", "coefficients/0/value: 'NaN' is not of type"),
    ("coefficients/0/items", -1, "coefficients/0/items: -1 is less than the minimum of 0"),
    ("coefficients/0/items", 2.5, "coefficients/0/items: 2.5 is not of type 'integer'"),
    ("coefficients/0/id", "alfa", "coefficients/0/id: 'alfa' is not one of ['percent_agreement'"),
    # a missing key, an unknown one, inside the shared definitions
    ("coefficients/0/interval/low", _DELETE,
     "coefficients/0/interval: 'low' is a required property"),
    ("coefficients/0/interval/extra", 1,
     "coefficients/0/interval: Additional properties are not allowed ('extra'"),
    ("coefficients/1/conventions/krippendorff/scale", "cohen",
     "coefficients/1/conventions/krippendorff/scale: 'cohen' is not one of"),
    ("diagnostics/pairwise/coders", "ann",
     "diagnostics/pairwise/coders: 'ann' is not of type 'array'"),
    # the envelope
    ("notes", _DELETE, "(document): 'notes' is a required property"),
    ("schema", 2, "schema: 1 was expected"),
    ("job", "tables", "job: 'tables' is not one of ['table'"),
    ("options/reader_options", [], "options/reader_options: [] is not of type 'object'"),
    # the job's own parts
    ("data/missing", _DELETE, "data: 'missing' is a required property"),
    ("options/distances", ["nominal"],
     "options: Additional properties are not allowed ('distances'"),
    ("by_group", {}, "by_group: {} is not of type"),
    ("surplus", 1, "(document): Unevaluated properties are not allowed ('surplus'"),
])
def test_invalid_documents_fail(table_doc, path, value, error):
    """Each mistake is one error that names the key at fault."""
    errors = schema_errors(_set(table_doc, path, value))
    assert len(errors) == 1 and errors[0].startswith(error), errors


def test_parts_of_another_job_fail(table_doc):
    errors = schema_errors(dict(table_doc, job="coref"))
    assert "(document): 'format' is a required property" in errors
    assert any(e.startswith("(document): Unevaluated properties are not allowed ('by_group'")
               for e in errors), errors
    assert schema_errors([table_doc, table_doc]) == []
    errors = schema_errors([table_doc, _set(table_doc, "schema", "1")])
    assert errors and all(e.startswith("1/") for e in errors), errors
    assert schema_errors({"job": "table"})
