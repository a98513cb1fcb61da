"""The house rules, checked: layers (import-linter contracts in pyproject.toml), no import
cycles, ruff clean, and ``readers/`` is ``corpusagree.readers``, never a top-level package."""

import ast
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import ROOT


def source_env() -> dict:
    """The environment that imports the package from this checkout (``corpusagree/readers`` is
    a link to ``readers/``, the layout setuptools installs)."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_import_linter_contracts():
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.skip("import-linter is not installed (pip install '.[test]')")
    proc = subprocess.run([exe, "--no-cache"], cwd=ROOT, env=source_env(), capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "KEPT" in proc.stdout and "BROKEN" not in proc.stdout


def test_no_import_cycles():
    grimp = pytest.importorskip("grimp")
    code = ("import grimp, json; g = grimp.build_graph('corpusagree', cache_dir=None); "
            "print(json.dumps([[a, b] for a in g.modules for b in g.find_modules_directly_"
            "imported_by(a) if g.chain_exists(importer=b, imported=a)]))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=source_env(),
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    cycles = [tuple(p) for p in __import__("json").loads(proc.stdout)
              if not p[1].startswith(p[0] + ".")]  # a package importing its own child
    assert not cycles, cycles
    assert grimp


def test_import_leaves_heavy_modules_out():
    """Every command imports the package: scipy.stats (quantiles come from scipy.special) and
    matplotlib (only the HTML report draws) stay out of that import."""
    code = ("import sys, corpusagree; "
            "print(sorted({'scipy.stats', 'matplotlib'} & set(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=source_env(),
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_import_loads_no_heavy_library():
    """``import corpusagree``, the command line's parser and ``corpusagree --help`` load none
    of numpy, scipy, pandas, pyarrow, matplotlib, spaCy, dkpro-cassis, lxml, rich, jinja2 or
    networkx (issue 34, item 14: they are imported where they are used; the help lists the
    jobs from their registrations without importing one; benchmarks/startup.py measures the
    time). A job's help imports its job (numpy and scipy with it), and still none of the
    libraries only reading or drawing needs."""
    heavy = {"numpy", "scipy", "pandas", "pyarrow", "matplotlib", "spacy", "cassis", "lxml",
             "rich", "jinja2", "networkx"}
    probe = f"print(sorted({heavy!r} & {{m.split('.')[0] for m in sys.modules}}))"
    help_of = ("import sys, contextlib, io\nfrom corpusagree.cli import main\n"
               "with contextlib.redirect_stdout(io.StringIO()):\n"
               "    status = main({argv!r})\n"
               "assert status == 0, status")
    cases = {"import sys, corpusagree": heavy,
             "import sys, corpusagree.cli\ncorpusagree.cli.build_parser(lazy=True)": heavy,
             help_of.format(argv=["--help"]): heavy,
             help_of.format(argv=["--version"]): heavy,
             **{help_of.format(argv=[job, "--help"]):
                {"pandas", "pyarrow", "matplotlib", "spacy", "cassis", "networkx", "jinja2"}
                for job in ("table", "coref", "relations", "senses", "markables")}}
    for code, kept_out in cases.items():
        proc = subprocess.run([sys.executable, "-c", f"{code}\n{probe}"], cwd=ROOT,
                              env=source_env(), capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        loaded = set(ast.literal_eval(proc.stdout.strip().splitlines()[-1]))
        assert not loaded & kept_out, (code, sorted(loaded & kept_out))
    # the public names are there when asked for
    code = ("import corpusagree as ca, sys; ca.alpha; from corpusagree import Bootstrap; "
            "print(set(ca.__all__) <= set(dir(ca)))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=source_env(),
                          capture_output=True, text=True)
    assert proc.stdout.split() == ["True"], proc.stderr
    # a job's report finds its renderers though nothing but the job was imported
    code = ("from corpusagree.analyses import table; "
            "r = table.analyse(table.read('sample_corpora/table/dialogue_acts.csv')); "
            "print(r.to_json()[:1], r._repr_html_()[:4])")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=source_env(),
                          capture_output=True, text=True)
    assert proc.stdout.split() == ["{", "<div"], proc.stderr


def test_ruff_clean():
    exe = shutil.which("ruff")
    if exe is None:
        pytest.skip("ruff is not installed (pip install '.[test]')")
    proc = subprocess.run([exe, "check", "corpusagree", "readers", "tests", "benchmarks",
                           "sample_corpora", "docs", "--exclude", "tests/data"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:]


def test_no_top_level_readers_package():
    """``readers`` is installed as ``corpusagree.readers`` (and linked as such in a checkout,
    so ``python -m corpusagree`` works from the repository's root): a user's own readers.py
    next to a notebook cannot shadow it."""
    spec = importlib.util.find_spec("readers")
    assert spec is None or not str(spec.origin or "").startswith(str(ROOT / "readers"))
    assert importlib.util.find_spec("corpusagree.readers") is not None


def test_module_runs_from_the_checkout_and_elsewhere(tmp_path):
    for cwd in (ROOT, tmp_path):
        proc = subprocess.run([sys.executable, "-m", "corpusagree", "--version"], cwd=cwd,
                              capture_output=True, text=True)
        assert proc.returncode == 0 and proc.stdout.startswith("corpusagree "), proc.stderr


def test_contributing_names_files_that_exist():
    """Every path CONTRIBUTING.md names (in backticks, with a folder or a file ending) is in
    the repository, so the maintainer's map does not rot."""
    import re

    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    named = {m for m in re.findall(r"`([\w./-]+)`", text)
             if "/" in m and not m.startswith(("../", "http", "$")) and "<" not in m}
    assert len(named) > 15
    missing = sorted(m for m in named if not (ROOT / m).exists())
    assert not missing, missing


def test_every_package_is_installed():
    """Every folder of the package with an ``__init__.py`` is in pyproject's ``packages`` (a
    sub-package left out installs without it: ``pip install .`` gave a package whose
    ``corpusagree.stats.gamma`` was missing, while an editable install hid it)."""
    tomllib = pytest.importorskip("tomllib")  # Python ≥ 3.11

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {"corpusagree." + ".".join(p.parent.relative_to(ROOT / "corpusagree").parts)
             if p.parent != ROOT / "corpusagree" else "corpusagree"
             for p in (ROOT / "corpusagree").rglob("__init__.py") if p.parent.name != "readers"}
    found |= {"corpusagree.readers." + ".".join(p.parent.relative_to(ROOT / "readers").parts)
              if p.parent != ROOT / "readers" else "corpusagree.readers"
              for p in (ROOT / "readers").rglob("__init__.py")}
    assert found - listed == set()


def test_the_independence_contracts_hold_every_job():
    """Jobs never import jobs: import-linter's independence contract takes every module of
    :mod:`corpusagree.analyses` (a wildcard: a new job is held to it with no edit) but the
    pieces below the jobs, which it ignores as targets; those pieces, the folder report and
    the study design are the sources of the second contract, which keeps them from importing
    a job. So no job's module may be one of the pieces, and every module of the package that
    is not a job's is a source of the second contract."""
    tomllib = pytest.importorskip("tomllib")
    from corpusagree.analyses import jobs

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"]
    independent = next(c for c in contracts if c["type"] == "independence")
    assert independent["modules"] == ["corpusagree.analyses.*"]
    pieces = {rule.split(" -> ")[1] for rule in independent["ignore_imports"]}
    assert all(rule.startswith("corpusagree.analyses.* -> ")
               for rule in independent["ignore_imports"])
    job_modules = {j.module for j in jobs.registered().values()}
    assert not pieces & job_modules
    forbidden = next(c for c in contracts if c["type"] == "forbidden"
                     and c["forbidden_modules"] == ["corpusagree.analyses.*"])
    package = {f"corpusagree.analyses.{p.stem}"
               for p in (ROOT / "corpusagree" / "analyses").glob("*.py")
               if p.stem != "__init__"}
    assert set(forbidden["source_modules"]) == package - job_modules
    assert pieces <= set(forbidden["source_modules"])


# ---- sizes and habits (issue 31, item 8) -----------------------------------------------------
#: the longest an ``analyse()`` and any other function of the package may be, in lines
ANALYSE_LINES, FUNCTION_LINES = 60, 80
#: functions allowed past the limit: only a reader's hot path, each with why it stays whole
#: (a call per key or per row costs more than the split is worth). None is needed today.
HOT_PATHS: dict[str, str] = {}


def _lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's length: its ``def`` line to its last line (signature and body; decorators
    left out), less its docstring's lines — the limit is on what the function does, and the
    numpydoc docstring (parameters, example, references) is never cut to meet it."""
    total = node.end_lineno - node.lineno + 1
    first = node.body[0]
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        total -= first.end_lineno - first.lineno + 1
    return total


def _package_modules() -> list[Path]:
    """Every module of ``corpusagree/`` and of ``readers/`` (``corpusagree.readers``)."""
    return sorted([*(ROOT / "corpusagree").rglob("*.py"), *(ROOT / "readers").rglob("*.py")])


def test_the_length_rule_counts_code_not_docstrings():
    tree = ast.parse('@checked\ndef f(x,\n      y):\n    """One.\n\n    Two.\n    """\n'
                     '    z = x + y\n    return z\n')
    assert _lines(tree.body[0]) == 4  # the two signature lines and the two of the body


def test_functions_are_short():
    """No ``analyse()`` over 60 lines, no function over 80 (counted by :func:`_lines`), but
    the hot paths of readers listed in ``HOT_PATHS`` with their reason."""
    long = []
    for path in _package_modules():
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            limit = ANALYSE_LINES if node.name == "analyse" else FUNCTION_LINES
            name = f"{where}:{node.name}"
            if _lines(node) > limit and name not in HOT_PATHS:
                long.append(f"{name} ({_lines(node)} lines > {limit})")
    assert not long, "split into named steps: " + ", ".join(long)
    assert all(k.startswith("readers/") and why for k, why in HOT_PATHS.items())


def test_every_module_has_all():
    missing = [p.relative_to(ROOT).as_posix() for p in _package_modules()
               if not any(isinstance(n, (ast.Assign, ast.AnnAssign))
                          and "__all__" in {getattr(t, "id", None) for t in
                                            (n.targets if isinstance(n, ast.Assign)
                                             else [n.target])}
                          for n in ast.parse(p.read_text(encoding="utf-8")).body)]
    assert not missing


#: a command-line flag (``--input-format``) in a text
_FLAG = re.compile(r"(?<![\w-])--[a-z]")
#: the string literals below the command line that may write a flag, each with why; a
#: message to a caller writes Python's keyword (``input_format=NAME``) and the command line
#: gives it as its flag (:func:`corpusagree.cli.in_flags`)
FLAGS_ALLOWED = {
    # a reader option's other flags: the command line's declaration of the option itself
    ("readers/mmax2.py", "--level"), ("readers/xmi.py", "--layer"),
    # report text, the same from Python and the command line and kept in frozen outputs:
    # how the command line asks for what the table or note leaves out
    ("corpusagree/analyses/coref.py", "--by-document"),
    ("corpusagree/analyses/segments.py", "--format json"),
    ("corpusagree/convert/coref.py", "--singletons drop"),
    ("corpusagree/report/html.py", "--html"),
    ("corpusagree/report/terminal.py", "--format md"),
}


#: module-level names whose strings describe the command line, not speak to a caller: a
#: job's card (its example command line, shown by ``corpusagree JOB --help`` and run by the
#: tests) and its part of the JSON Schema (the document ``corpusagree JOB --json`` writes)
DESCRIBE_THE_COMMAND_LINE = {"CARD", "SCHEMA"}


def _string_literals(tree: ast.Module) -> list[ast.Constant]:
    """The string constants of a module but its docstrings (which may describe the command
    line) and the values of :data:`DESCRIBE_THE_COMMAND_LINE`."""
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}
    described = {id(c) for n in tree.body if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id in DESCRIBE_THE_COMMAND_LINE
                         for t in n.targets)
                 for c in ast.walk(n.value)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and id(n) not in docs | described]


def test_no_flag_below_the_command_line():
    """Issue 31, item 6: the layers below ``corpusagree/cli`` speak to Python callers in
    parameter names; the command line maps them to its flags once, at its edge."""
    found, used = [], set()
    for path in dict.fromkeys(p.resolve() for p in _package_modules()):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith("corpusagree/cli/"):
            continue
        for node in _string_literals(ast.parse(path.read_text(encoding="utf-8"))):
            if not _FLAG.search(node.value):
                continue
            allowed = [a for a in FLAGS_ALLOWED if a[0] == where and a[1] in node.value]
            used.update(allowed)
            if not allowed:
                found.append(f"{where}:{node.lineno}: {node.value[:60]!r}")
    assert not found, "write Python's keyword (input_format=NAME), not the flag: " + \
        "; ".join(found)
    assert used == FLAGS_ALLOWED, f"allowed but not found: {FLAGS_ALLOWED - used}"


def test_no_command_line_below_the_command_line():
    """A message below ``corpusagree/cli`` names a job (``the table job``), not the command
    that runs it (``corpusagree table``): a Python caller reads it too."""
    from corpusagree.cli import commands

    names = "|".join(map(re.escape, commands()))
    command = re.compile(rf"corpusagree ({names})\b")
    found = [f"{p.relative_to(ROOT).as_posix()}:{n.lineno}: {n.value[:60]!r}"
             for p in dict.fromkeys(p.resolve() for p in _package_modules())
             if not p.relative_to(ROOT).as_posix().startswith("corpusagree/cli/")
             for n in _string_literals(ast.parse(p.read_text(encoding="utf-8")))
             if command.search(n.value)]
    assert not found, "; ".join(found)
