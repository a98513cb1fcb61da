"""The documentation as a user meets it: every docstring example runs and gives what it says,
every public name and every job of the command line has its entry in the reference, and each
entry says what it takes and gives (numpydoc sections).

The site itself is built by ``.ci/run`` (``python -m sphinx -W``), which also runs the
tutorials; these tests need no Sphinx."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import inspect
import pkgutil
import re
import sys

import pytest

import corpusagree
import corpusagree.analyses
from corpusagree.cli import JOBS, build_parser
from corpusagree.report.document import Report

from support import ROOT

DOCS = ROOT / "docs"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, DOCS / "_ext" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


apiref = _load("apiref")


# ---- every docstring example runs --------------------------------------------------------------
def _modules():
    yield corpusagree
    for m in pkgutil.walk_packages(corpusagree.__path__, "corpusagree."):
        if not m.name.endswith("__main__"):
            yield importlib.import_module(m.name)


def _doctests():
    finder = doctest.DocTestFinder(exclude_empty=True)
    seen = set()
    for mod in _modules():
        for test in finder.find(mod, mod.__name__):
            # a name re-exported by a facade is found twice; run it once, where defined
            key = (test.filename, test.lineno)
            if test.examples and key not in seen:
                seen.add(key)
                yield test


DOCTESTS = sorted(_doctests(), key=lambda t: t.name)


def test_the_docstrings_have_examples():
    assert len(DOCTESTS) >= 100


@pytest.mark.parametrize("test", DOCTESTS, ids=[t.name for t in DOCTESTS])
def test_docstring_example(test, monkeypatch):
    """Run from the repository's root, as the examples name ``sample_corpora/...``."""
    monkeypatch.chdir(ROOT)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    runner.run(test, out=out.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(out)


def test_no_example_is_skipped():
    """An example marked ``+SKIP`` is one that no longer says what it does."""
    skipped = [t.name for t in DOCTESTS
               if any(e.options.get(doctest.SKIP) for e in t.examples)]
    assert not skipped


# ---- every public name and job has a reference entry -------------------------------------------
DOCUMENTED = apiref.documented()


def test_every_name_of_corpusagree_all_has_an_entry():
    missing = [n for n in corpusagree.__all__ if f"corpusagree.{n}" not in DOCUMENTED
               and not inspect.ismodule(getattr(corpusagree, n))]
    assert not missing
    modules = [getattr(corpusagree, n).__name__ for n in corpusagree.__all__
               if inspect.ismodule(getattr(corpusagree, n))]
    assert set(modules) <= DOCUMENTED


def test_every_public_module_has_its_page_with_every_name():
    pages = {p.stem: p for p in apiref.pages()}
    for mod in apiref.public_modules():
        assert mod.__name__ in pages
        assert {f"{mod.__name__}.{n}" for n in mod.__all__} <= set(pages[mod.__name__].names())
    assert {"corpusagree.distances", "corpusagree.unitizing", "corpusagree.senses"} <= set(pages)


def _job_module(cli_module):
    """The analyses module a job of the command line runs (what its module imports); None for
    a command that analyses nothing (``schema`` prints the JSON schema)."""
    found = {v.__name__: v for v in vars(cli_module).values() if inspect.ismodule(v)
             and v.__name__.startswith("corpusagree.analyses.")
             and v.__name__ != "corpusagree.analyses.base"}
    same = "corpusagree.analyses." + cli_module.__name__.rpartition(".")[2]
    if same in found:  # annotators also reads through the table job's module
        return found[same]
    assert len(found) <= 1, cli_module.__name__
    return next(iter(found.values()), None)


#: the commands that run an analysis (the others, such as ``schema``, are utilities that the
#: command-line reference documents like every command)
ANALYSES = {m.__name__.rpartition(".")[2]: _job_module(m) for m in JOBS}
ANALYSES = {name: mod for name, mod in ANALYSES.items() if mod is not None}


def _subcommands():
    parser = build_parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return action.choices


def test_every_job_of_the_command_line_has_an_entry():
    commands = _subcommands()
    assert {m.__name__.rpartition(".")[2] for m in JOBS} == set(commands)
    pages = {p.stem for p in apiref.pages()}
    assert {"table", "coref", "segments", "senses", "spans", "report"} <= set(ANALYSES)
    for module in ANALYSES.values():
        assert module.__name__ in pages
    # the command line reference is the whole parser (its help escaped for reStructuredText),
    # so every job added later is in it
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    block = re.search(r"```\{argparse\}\n(.*?)```", page, flags=re.S).group(1)
    assert ":func: cli_parser" in block and ":module: apiref" in block
    assert ":path:" not in block and ":nosubcommands:" not in block
    documented = next(a for a in apiref.cli_parser()._actions
                      if a.__class__.__name__ == "_SubParsersAction").choices
    assert set(documented) == set(commands)
    for name, sub in commands.items():
        assert sub.description, f"corpusagree {name} has no description for its page"


def test_every_job_has_a_tutorial_and_a_row_in_the_guide():
    guide = (DOCS / "getting-started" / "which-job.md").read_text(encoding="utf-8")
    tutorials = " ".join(p.read_text(encoding="utf-8")
                         for p in (DOCS / "tutorials").glob("*.md"))
    for name in ANALYSES:
        assert f"`{name}`" in guide, f"the job {name} has no row in which-job.md"
        assert f"corpusagree {name}" in tutorials, f"no tutorial runs corpusagree {name}"


# ---- each entry says what it takes and gives ---------------------------------------------------
def _sections(doc: str) -> set[str]:
    return set(re.findall(r"^(\w[\w ]*)\n-{3,}$", doc, flags=re.M))


FACADES = {"corpusagree"} | {m.__name__ for m in apiref.public_modules()}


def _entries():
    for page in apiref.pages():
        for g in page.groups:
            module = importlib.import_module(g.module)
            for n in g.names:
                yield f"{g.module}.{n}", getattr(module, n), page.stem in FACADES


ENTRIES = sorted(_entries(), key=lambda e: e[0])


def _params(fn) -> list[str]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    return [p for p in sig.parameters if p not in ("self", "cls")]


@pytest.mark.parametrize("name,obj,facade", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_entry_is_documented(name, obj, facade):
    """Functions: Parameters, Returns and an example; classes of the public modules and
    reports: an example; every public method and property: a docstring."""
    doc = inspect.getdoc(obj) or ""
    assert doc, f"{name} has no docstring"
    sections = _sections(doc)
    if inspect.isfunction(obj):
        if _params(obj):
            assert "Parameters" in sections, f"{name}: no Parameters section"
        assert "Returns" in sections, f"{name}: no Returns section"
        assert ">>>" in doc, f"{name}: no example"
    elif inspect.isclass(obj):
        if facade or issubclass(obj, Report):
            assert ">>>" in doc, f"{name}: no example"
        for attr, member in vars(obj).items():
            if attr.startswith("_"):
                continue
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if inspect.isfunction(member) or isinstance(member, property):
                assert inspect.getdoc(member), f"{name}.{attr} has no docstring"


# ---- documented parameters are the signature's (numpydoc.validate) ---------------------------
#: numpydoc's checks of parameters: every one documented (PR01), none documented that the
#: signature lacks (PR02), in the signature's order (PR03), each with a type (PR04) and a
#: description (PR07)
PARAMETER_CHECKS = {"PR01", "PR02", "PR03", "PR04", "PR07"}
#: the job layer, whose docstrings issue 31's job-layer branch rewrites with its modules; it
#: fixes them there, and the integrator removes this set when both branches have landed
JOB_LAYER_PENDING = ("corpusagree.analyses.", "corpusagree.cli.", "corpusagree.report.")


def _members(name: str, obj) -> list[tuple[str, object]]:
    """The entry and, for a class, its public methods (classmethods and staticmethods too)."""
    out = [(name, obj)]
    if inspect.isclass(obj):
        for attr, member in vars(obj).items():
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if not attr.startswith("_") and inspect.isfunction(member):
                out.append((f"{name}.{attr}", member))
    return out


def _where(obj) -> str:
    """The module an object is defined in (a re-exported name is checked where it is)."""
    return f"{getattr(obj, '__module__', '')}."


SIGNATURES = sorted({n: (n, o) for entry, obj, _ in ENTRIES for n, o in _members(entry, obj)
                     if not _where(o).startswith(JOB_LAYER_PENDING)}.values())


def _attributes(doc: str) -> list[str] | None:
    """The names of an ``Attributes`` section, when the docstring has one and no
    ``Parameters``: a result the library builds documents its fields as attributes."""
    from numpydoc.docscrape import NumpyDocString

    parsed = NumpyDocString(doc)
    if parsed["Parameters"] or not parsed["Attributes"]:
        return None
    return [n.strip() for p in parsed["Attributes"] for n in p.name.split(",")]


@pytest.mark.parametrize("name,obj", SIGNATURES, ids=[n for n, _ in SIGNATURES])
def test_documented_parameters_are_the_signatures(name, obj):
    """numpydoc's validation of the parameters; a class documenting its fields as
    ``Attributes`` (a result) documents every field of its signature there."""
    from numpydoc.validate import validate

    attributes = _attributes(inspect.getdoc(obj) or "") if inspect.isclass(obj) else None
    if attributes is not None:
        fields = [p for p in _params(obj) if not p.startswith("_")]
        missing = [p for p in fields if p not in attributes]
        assert not missing, f"{name}: fields not documented under Attributes: {missing}"
        return
    errors = [f"{code} {message}" for code, message in validate(_qualified(name, obj))["errors"]
              if code in PARAMETER_CHECKS]
    assert not errors, f"{name}: " + "; ".join(errors)


def _qualified(name: str, obj) -> str:
    """The name numpydoc imports: where the object is defined."""
    qual = getattr(obj, "__qualname__", name.rpartition(".")[2])
    return f"{obj.__module__}.{qual}"


def test_the_job_layer_is_the_only_one_skipped():
    skipped = {_where(o) for entry, obj, _ in ENTRIES for _, o in _members(entry, obj)
               if _where(o).startswith(JOB_LAYER_PENDING)}
    assert skipped and all(s.startswith(JOB_LAYER_PENDING) for s in skipped)
    assert len(SIGNATURES) > 100


def test_data_names_have_a_doc_comment():
    for page in apiref.pages():
        for g in page.groups:
            for n, doc in g.data:
                assert doc, f"{g.module}.{n} has no '#:' comment where it is defined"


# ---- the minimal example of every format (docs/formats/, shown on the Formats page) ----------
FORMATS = DOCS / "formats"


def _registered():
    from corpusagree import readers

    return [(task, name) for task in readers.TASKS for name in readers.readers(task)]


def test_every_registered_format_has_a_minimal_example():
    missing = [f"{task}/{name}" for task, name in _registered()
               if not (FORMATS / task / name / "command").is_file()]
    assert not missing, f"add docs/formats/<task>/<format>/ with a 'command' file: {missing}"


def _variants(task: str, name: str) -> list[str]:
    """The variants of a format's example (``docs/formats/<task>/<format>/variants/<v>/``)."""
    folder = FORMATS / task / name / "variants"
    return sorted(p.name for p in folder.glob("*") if p.is_dir())


def _examples():
    """(task, format, variant or None) of every example on the Formats page."""
    return [(task, name, v) for task, name in _registered()
            for v in [None, *_variants(task, name)]]


def _run_example(task: str, name: str, monkeypatch, capsys, variant: str | None = None) -> dict:
    import json
    import shlex

    from corpusagree.cli import main

    folder = FORMATS / task / name
    if variant is not None:
        folder = folder / "variants" / variant
    argv = shlex.split((folder / "command").read_text(encoding="utf-8"))
    assert argv[0] == "corpusagree"
    monkeypatch.chdir(folder)
    status = main(argv[1:] + ["--format", "json", "--quiet"])
    out = capsys.readouterr()
    assert status == 0, out.err
    return json.loads(out.out)


@pytest.mark.parametrize("task,name,variant", _examples(),
                         ids=["/".join(filter(None, e)) for e in _examples()])
def test_minimal_example_reads_as_its_format(task, name, variant, monkeypatch, capsys):
    if not (FORMATS / task / name / "command").is_file():
        pytest.skip("no example (the test above fails)")
    doc = _run_example(task, name, monkeypatch, capsys, variant)
    assert doc["format"] == name


def test_every_variant_has_its_command_and_about():
    """A variant's folder holds its files, the command that reads them and an ``about`` file:
    a title line, then what the variant shows (the Formats page prints both)."""
    for task, name, variant in _examples():
        if variant is None:
            continue
        folder = FORMATS / task / name / "variants" / variant
        assert (folder / "command").is_file(), folder
        title, _, text = (folder / "about").read_text(encoding="utf-8").strip().partition("\n")
        assert title.strip() and text.strip(), f"{folder}/about: a title line, then its text"


#: what must agree between the examples of one task (they hold one annotation in each format)
AGREE = {
    "coref": lambda doc: [round(c["value"], 6) for c in doc["coefficients"]],
    "trees": lambda doc: [round(r["f1"], 6) for r in doc["parseval"]],
    "relations": lambda doc: [round(r["f1"], 6) for r in doc["detection"]]
    + [round(c["value"], 6) for c in doc["labels"]],
}


@pytest.mark.parametrize("task", sorted(AGREE))
def test_the_examples_of_a_task_hold_one_annotation(task, monkeypatch, capsys):
    """Every format's example of a task, and each variant of it, is the same annotators'
    annotation: the same figures."""
    from corpusagree import readers

    if task not in readers.TASKS:
        pytest.skip(f"no {task} readers in this version")
    # the examples read by the task's own job (CoNLL NER's, read by ``spans``, hold entities)
    values = {"/".join(filter(None, (name, v))): AGREE[task](
        _run_example(task, name, monkeypatch, capsys, v))
        for name in readers.readers(task) for v in [None, *_variants(task, name)]
        if (FORMATS / task / name / "command").read_text(encoding="utf-8").split()[1]
        == task}
    assert len(set(map(tuple, values.values()))) == 1, values


# ---- what would break the site's build (-W) -----------------------------------------------------
#: a "|" that reStructuredText reads as the start of a substitution (|A|, |u|α): preceded by the
#: start of a line, a space or an opening bracket or quote, and followed by a character
SUBSTITUTION = re.compile(r"(?:^|(?<=[\s(\[{<'\"]))\|(?=\S)", re.M)


def _prose(doc: str) -> str:
    """A docstring without what reStructuredText reads literally: doctest blocks, ``code``,
    :math:`roles`."""
    keep, example = [], False
    for line in doc.splitlines():
        if line.strip().startswith(">>>"):
            example = True
        elif example and not line.strip():
            example = False
        if not example:
            keep.append(line)
    text = re.sub(r"``.*?``", "", "\n".join(keep), flags=re.S)
    return re.sub(r":math:`[^`]*`", "", text)


def _documented_objects():
    for page in apiref.pages():
        if page.module:
            yield page.module, importlib.import_module(page.module)
        for g in page.groups:
            module = importlib.import_module(g.module)
            for n in g.names:
                obj = getattr(module, n)
                yield f"{g.module}.{n}", obj
                if inspect.isclass(obj):
                    for attr, member in vars(obj).items():
                        if not attr.startswith("_") and (inspect.isfunction(member)
                                                         or isinstance(member, property)):
                            yield f"{g.module}.{n}.{attr}", member


def test_no_bar_is_read_as_a_substitution():
    """``|A ∩ B|`` or ``|u|α`` outside double backquotes is a substitution reference to
    reStructuredText, an error that fails the documentation's build: write it as a literal."""
    found = [(name, m.group(0)) for name, obj in _documented_objects()
             for m in SUBSTITUTION.finditer(_prose(inspect.getdoc(obj) or ""))]
    assert not found, found


def test_every_summary_line_stands_alone():
    """The reference's tables show each docstring's first sentence (autosummary): a role or
    literal that the sentence cuts in two (``:func:`a.b.\\nc` ``) is an unclosed markup error."""
    broken = []
    for name, obj in _documented_objects():
        first = " ".join((inspect.getdoc(obj) or "").split("\n\n")[0].split())
        sentence = re.match(r"(.*?\.)(?:\s|$)", first)
        text = sentence.group(1) if sentence else first
        if text.count("`") % 2:
            broken.append((name, text))
    assert not broken, broken


# ---- the Performance page and the benchmark scripts ----------------------------------------------
def test_the_performance_page_names_every_benchmark_script_and_no_other():
    """Every figure on ``docs/performance.md`` is printed by a script of ``benchmarks/`` that
    exists, and every script there is on the page (its figure, or what else it is for)."""
    text = (DOCS / "performance.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(?:benchmarks/)?([a-z0-9_]+\.py)", text))
    scripts = {p.name for p in (ROOT / "benchmarks").glob("*.py")}
    assert named <= scripts, f"no such script in benchmarks/: {sorted(named - scripts)}"
    assert scripts <= named, f"not on the Performance page: {sorted(scripts - named)}"


def test_code_on_the_pages_fits_100_columns():
    """The site's layout holds 100 columns of code beside both sidebars in a 1280-pixel window
    (``docs/_static/corpusagree.css``): a longer line of a page's code scrolls out of sight."""
    long = []
    for page in sorted(DOCS.rglob("*.md")):
        if "_build" in page.parts or page.parent.name == "api":
            continue
        fence = None
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fence = None if fence else line
            elif fence and len(line) > 100:
                long.append(f"{page.relative_to(DOCS)}:{n}: {len(line)} columns")
    assert not long, long
