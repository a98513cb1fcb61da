"""The documentation as a user meets it: every docstring example runs and gives what it says,
every public name and every job of the command line has its entry in the reference, and each
entry says what it takes and gives (numpydoc sections).

The site itself is built by ``.ci/run`` (``python -m sphinx -W``), which also runs the
tutorials; these tests need no Sphinx."""

from __future__ import annotations

import argparse
import doctest
import importlib
import importlib.util
import inspect
import pkgutil
import re
import sys
from pathlib import Path

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
cliref = _load("cliref")


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
    if not found:  # imported where it runs (report: the help imports no analysis)
        names = re.findall(r"^\s+from \.\.analyses import (\w+)$", inspect.getsource(cli_module),
                           flags=re.M)
        found = {f"corpusagree.analyses.{n}": importlib.import_module(f"corpusagree.analyses.{n}")
                 for n in names if n != "base"}
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
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def test_every_job_of_the_command_line_has_an_entry():
    commands = _subcommands()
    assert {m.__name__.rpartition(".")[2] for m in JOBS} == set(commands)
    pages = {p.stem for p in apiref.pages()}
    assert {"table", "coref", "segments", "senses", "spans", "report"} <= set(ANALYSES)
    for module in ANALYSES.values():
        assert module.__name__ in pages
    # the command line reference has a page per command of the parser (its help escaped for
    # reStructuredText), made at every build, so every job added later has its page
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    toctree = re.search(r"```\{toctree\}\n(.*?)```", page, flags=re.S).group(1)
    assert ":glob:" in toctree and "cli/*" in toctree
    pages = cliref.pages()
    assert set(pages) == {f"{name}.md" for name in commands} | {"shared.md"}
    for name in commands:
        block = re.search(r"```\{argparse\}\n(.*?)```", pages[f"{name}.md"], flags=re.S)
        assert f":path: {name}" in block.group(1) and ":module: cliref" in block.group(1)
    for name, sub in commands.items():
        assert sub.description, f"corpusagree {name} has no description for its page"


def test_every_job_has_a_tutorial_with_its_row_of_the_guide():
    """A job's tutorial runs it and holds its row of which-job.md in its front matter
    (``which-job:``; the guide's table is made of them, ``{corpusagree-which-job}``)."""
    yaml = pytest.importorskip("yaml")
    guide = (DOCS / "getting-started" / "which-job.md").read_text(encoding="utf-8")
    assert "```{corpusagree-which-job}" in guide
    rows = {}
    for page in (DOCS / "tutorials").glob("*.md"):
        text = page.read_text(encoding="utf-8")
        front = text.split("\n---\n", 1)[0][4:] if text.startswith("---\n") else ""
        rows[page] = (yaml.safe_load(front) or {}).get("which-job", [])
    for name in ANALYSES:
        pages = [p for p, found in rows.items() if any(name in r["commands"] for r in found)]
        assert len(pages) == 1, f"the job {name} has {len(pages)} rows in the tutorials"
        assert f"corpusagree {name}" in pages[0].read_text(encoding="utf-8"), \
            f"{pages[0].name} holds the row of {name} but does not run corpusagree {name}"


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


SIGNATURES = sorted({n: (n, o) for entry, obj, _ in ENTRIES
                     for n, o in _members(entry, obj)}.values())


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


def test_every_layer_is_validated():
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
        for name, reader in readers.readers(task).items() if not reader.spans_only
        for v in [None, *_variants(task, name)]
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


# ---- Markdown tables ----------------------------------------------------------------------------
#: a cell separator of a Markdown table: a "|" not escaped with a backslash (inside backquotes
#: too, as GitHub and MyST read a table row: ``|u|α`` must be written ``\|u\|α`` in a cell)
CELL_BAR = re.compile(r"(?<!\\)\|")


def table_rows(text: str) -> list[tuple[int, int, int]]:
    """(line, cells, cells of its table's header) of every row of every Markdown table of
    ``text`` (outside fenced code)."""
    rows, header, fence = [], None, False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        stripped = line.strip()
        if fence or not stripped.startswith("|"):
            header = None
            continue
        cells = len(CELL_BAR.findall(stripped)) - 1
        if header is None:
            header = cells
        rows.append((n, cells, header))
    return rows


def test_table_rows_count_their_cells():
    assert table_rows("| a | b |\n|---|---|\n| 1 | 2 |\n") == [(1, 2, 2), (2, 2, 2), (3, 2, 2)]
    assert table_rows("| a | b |\n|---|---|\n| |u|α | 2 |\n")[-1] == (3, 4, 2)
    assert table_rows("| a | b |\n|---|---|\n| \\|u\\|α | 2 |\n")[-1] == (3, 2, 2)


MARKDOWN = sorted([p for p in DOCS.rglob("*.md") if "_build" not in p.parts]
                  + [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md"])


@pytest.mark.parametrize("page", MARKDOWN, ids=[p.relative_to(ROOT).as_posix() for p in MARKDOWN])
def test_every_table_row_has_its_headers_cells(page):
    """A row with more cells than its header (an unescaped ``|`` in a cell, such as ``|u|α``)
    loses the cells past the header's: the page drops those figures."""
    wrong = [f"{page.relative_to(ROOT)}:{n}: {cells} cells, the header {header}"
             for n, cells, header in table_rows(page.read_text(encoding="utf-8"))
             if cells != header]
    assert not wrong, wrong


# ---- the command-line reference: a page per job, the shared options once (issue 34, 16) -------
def _options(parser) -> list[tuple[str, ...]]:
    return [tuple(a.option_strings) for a in parser._actions if a.option_strings]


def test_the_shared_options_are_on_their_own_page_once():
    shared = cliref.shared_options()
    flags = {k[0] for k in shared}
    # the bootstrap's, the output's, --help: what every job shares with one meaning
    assert {("--ci",), ("--resamples",), ("--seed",), ("--interval",), ("--format",),
            ("--json",), ("--output", "-o"), ("--quiet", "-q"), ("--html",),
            ("-h", "--help")} <= flags
    on_page = _options(cliref.shared_parser())
    assert sorted(on_page) == sorted(flags) and len(on_page) == len(set(on_page))


def test_a_job_page_shows_its_own_options_not_the_shared_ones():
    full = {name: sub for name, sub in _subcommands().items()}
    jobs = cliref._subparsers(cliref.jobs_parser())
    shared = cliref.shared_options()
    for name, sub in jobs.items():
        own = {(tuple(a.option_strings), a.help) for a in sub._actions if a.option_strings}
        assert not own & set(shared), name
        # nothing else is left out: the job's options are its page's and the shared page's
        every = {tuple(a.option_strings) for a in full[name]._actions if a.option_strings}
        assert every == {k for k, _ in own} | {k[0] for k, s in shared.items() if name in s.jobs}
        text = cliref.page(name)
        assert text.splitlines()[2] == f"# corpusagree {name}"
        if any(name in s.jobs for s in shared.values()):
            assert "{doc}`shared`" in text and "[shared options]" in sub.format_usage()
    # an option a job gives its own meaning stays on its page: table's --cluster group|item
    table = {tuple(a.option_strings): a for a in jobs["table"]._actions}
    assert "group" in table[("--cluster",)].help


# ---- the site's pages: short titles, landing pages, the API index (issue 34, 16) --------------
def _written_pages():
    return sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts
                  and p.parent.name not in ("api", "cli", "_inventories")
                  and p.name != "changelog.md")


def _title(page) -> str:
    return re.search(r"^# (.+)$", page.read_text(encoding="utf-8"), flags=re.M).group(1)


def test_page_titles_are_short():
    """A title is what the search results, the sidebar and the browser's tab show: 40
    characters at most (a tutorial's question or subtitle goes on its first line)."""
    long = [f"{p.relative_to(DOCS)}: {_title(p)}" for p in _written_pages()
            if len(_title(p)) > 40]
    assert not long, long


@pytest.mark.parametrize("landing", ["getting-started/index.md", "reference/index.md",
                                     "concepts/index.md", "tutorials/index.md"])
def test_landing_pages_introduce_their_part(landing):
    text = (DOCS / landing).read_text(encoding="utf-8")
    intro = text.split("```{toctree}")[0].split("\n", 1)[1]
    prose = " ".join(line for line in intro.splitlines() if not line.startswith("|"))
    assert len(re.findall(r"\w+", prose)) >= 20, landing
    # a hidden contents list: every page of the part is introduced by a link on the page
    entries = re.search(r"```\{toctree\}\n(.*?)```", text, flags=re.S).group(1).splitlines()
    hidden = ":hidden:" in entries
    for entry in (e for e in entries if hidden and e and not e.startswith(":")):
        assert "{doc}`" + entry in text, (landing, entry)


def test_the_api_index_has_one_line_per_module():
    index = apiref.index_rst()
    lines = re.findall(r"^\* :doc:`([^`]+)` — (.+)$", index, flags=re.M)
    assert [stem for stem, _ in lines] == [p.stem for p in apiref.pages()]
    for stem, line in lines:
        assert 10 <= len(line) <= 120 and "\n" not in line, (stem, line)


# ---- links, mathematics, the kappa paradox's figure (issue 34, 15) ---------------------------
def _conf():
    import runpy

    return runpy.run_path(str(DOCS / "conf.py"))


def test_names_link_to_their_documentation_without_network():
    conf = _conf()
    assert {"sphinx.ext.intersphinx", "sphinx_codeautolink"} <= set(conf["extensions"])
    mapping = conf["intersphinx_mapping"]
    assert {"python", "numpy", "scipy", "pandas"} <= set(mapping)
    for name, (url, inventory) in mapping.items():
        assert url.startswith("https://") and Path(inventory).is_file(), name
        assert Path(inventory).read_bytes().startswith(b"# Sphinx inventory version 2")
    import tomllib

    docs = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["docs"]
    assert any(d.startswith("sphinx-codeautolink") for d in docs)


def test_numpy_inventory_is_what_its_script_writes(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location(
        "make_numpy_inventory", DOCS / "_inventories" / "make_numpy_inventory.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lines = mod.entries()
    assert "numpy.ndarray py:class 1 reference/generated/numpy.ndarray.html#$ -" in lines
    assert "numpy.bincount py:function 1 reference/generated/numpy.bincount.html#$ -" in lines


def test_formulas_are_mathematics_typeset_by_a_local_mathjax():
    conf = _conf()
    assert {"dollarmath", "amsmath"} <= set(conf["myst_enable_extensions"])
    script = DOCS / "_static" / conf["mathjax_path"]
    assert script.is_file() and script.stat().st_size > 500_000
    fonts = script.parent / "output" / "chtml" / "fonts" / "woff-v2"
    assert len(list(fonts.glob("MathJax_*.woff"))) >= 20


CONCEPTS = sorted((DOCS / "concepts").glob("*.md"))
#: what a formula written in Unicode looks like: a sum with a subscript, an estimated
#: probability, a subscripted D or A, a superscripted A_e
UNICODE_FORMULA = re.compile(r"Σ_|P̂\(|\b[DA]_[oe]\b|A_e\^|\bDo/De\b")


@pytest.mark.parametrize("page", CONCEPTS, ids=[p.name for p in CONCEPTS])
def test_concepts_formulas_are_written_as_mathematics(page):
    """Outside code, every formula of a concepts page is ``$…$`` (MathJax), not Unicode."""
    found, fence = [], False
    for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```") or line.strip() == "$$":
            fence = not fence
        if fence:
            continue
        prose = re.sub(r"`[^`]*`|\$\$.*?\$\$|\$[^$]*\$", "", line)
        found += [f"{page.name}:{n}: {m.group(0)}" for m in UNICODE_FORMULA.finditer(prose)]
    assert not found, found


def test_the_kappa_paradox_has_its_figure():
    text = (DOCS / "concepts" / "coefficients.md").read_text(encoding="utf-8")
    section = text.split("## The kappa paradox")[1].split("\n## ")[0]
    cells = re.findall(r"```\{code-cell\} ipython3\n(.*?)```", section, flags=re.S)
    drawn = [c for c in cells if "ax.plot(prevalence" in c and "SVG(" in c]
    assert drawn, "no cell draws κ against prevalence"
    # what the figure shows, computed here: at a fixed A_o, κ falls and AC1 rises with
    # prevalence
    kappa, ac1 = [], []
    for yes_yes in (85, 125, 165):
        d = corpusagree.ReliabilityData.from_contingency(
            [[yes_yes, 15], [15, 170 - yes_yes]], ["yes", "no"])
        assert corpusagree.percent_agreement(d).value == pytest.approx(0.85)
        kappa.append(corpusagree.kappa(d).value)
        ac1.append(corpusagree.gwet_ac1(d).value)
    assert kappa == sorted(kappa, reverse=True) and ac1 == sorted(ac1)


# ---- against the literature (issue 34, 17) -----------------------------------------------------
def _page(path: str) -> str:
    return " ".join((DOCS / path).read_text(encoding="utf-8").split())


def test_the_bootstrap_page_names_ours_and_how_kalpha_differs():
    text = _page("concepts/bootstrap.md")
    assert "Efron's nonparametric bootstrap" in text and "clustered by document" in text
    assert "KALPHA" in text and "pairs of judgements" in text
    assert "Gwet (2015)" in text and "Hughes (2022)" in text
    assert "not KALPHA's q" in text
    refs = _page("concepts/references.md")
    for cited in ("Efron, B. (1979)", "Gwet, K. L. (2015)", "Hughes, J. (2022)",
                  "Field, C. A. and Welsh, A. H. (2007)"):
        assert cited in refs, cited


@pytest.mark.parametrize("path", ["getting-started/jobs.md", "tutorials/spans.md"])
def test_the_1995_ualpha_for_three_coders_carries_its_caveat(path):
    text = _page(path)
    assert "turned out to behave not as expected when applied to more than two observers" in text
    assert "Krippendorff 2019, 4th ed., §12.6" in text


def test_ac1_bands_carry_vach_and_gerke():
    for path in ("concepts/conventions.md", "tutorials/reading-a-report.md",
                 "concepts/coefficients.md"):
        assert "Vach & Gerke" in _page(path), path
    reading = _page("tutorials/reading-a-report.md")
    row = next(line for line in reading.split("|") if "consider AC1" in line)
    assert "Vach & Gerke 2023" in row
    # the table's note under every table where AC1 gets a band
    from corpusagree.stats.spec import COEFFICIENTS

    assert "Vach & Gerke (2023)" in COEFFICIENTS["gwet_ac1"].note
    assert "Vach, W. and Gerke, O. (2023)" in _page("concepts/references.md")


def test_references_give_the_current_editions():
    refs = _page("concepts/references.md")
    assert "Gwet, K. L. (2021). *Handbook of Inter-Rater Reliability*, 5th ed." in refs
    assert "Krippendorff, K. (2019). *Content Analysis: An Introduction to Its Methodology*, " \
           "4th ed." in refs
    assert "Artstein, R. and Poesio, M. (2008)" in refs and "*Computational Linguistics* 34(4)" \
        in refs


def test_multi_kappa_is_conger_and_fleiss_is_multi_pi_on_their_rows():
    """Said on the rows (the definitions and the notes under a table), and true: on complete
    data the pairs are one coefficient each."""
    import numpy as np

    from corpusagree.stats.spec import COEFFICIENTS

    assert "Conger's κ" in COEFFICIENTS["multi_kappa"].definition
    assert "multi-κ" in COEFFICIENTS["conger_kappa"].definition
    assert "multi-κ" in COEFFICIENTS["conger_kappa"].note
    assert "Fleiss's κ, which is multi-π" in COEFFICIENTS["pi"].definition
    concepts = _page("concepts/coefficients.md")
    assert "multi-π = Fleiss's κ" in concepts and "multi-κ = Conger's κ" in concepts
    rng = np.random.default_rng(7)
    for _ in range(5):
        data = corpusagree.ReliabilityData.from_matrix(rng.integers(0, 4, (4, 40)))
        assert corpusagree.multi_kappa(data).value == pytest.approx(
            corpusagree.conger_kappa(data).value, abs=1e-12)
        assert corpusagree.fleiss_kappa(data).value == pytest.approx(
            corpusagree.pi(data).value, abs=1e-12)
