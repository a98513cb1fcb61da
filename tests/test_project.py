"""The house rules, checked: layers (import-linter contracts in pyproject.toml), no import
cycles, ruff clean, and the installed package does not provide a top-level ``readers``."""

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest
from support import ROOT


@pytest.fixture(scope="module")
def installed_layout(tmp_path_factory):
    """The package as it is installed: ``readers/`` inside ``corpusagree/`` (setuptools
    package-dir), so the contracts can be checked from an editable install too."""
    site = tmp_path_factory.mktemp("site")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "corpusagree", site / "corpusagree", ignore=ignore)
    shutil.copytree(ROOT / "readers", site / "corpusagree" / "readers", ignore=ignore)
    return site


def test_import_linter_contracts(installed_layout):
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.skip("import-linter is not installed (pip install '.[test]')")
    env = {**os.environ, "PYTHONPATH": str(installed_layout)}
    proc = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
                          cwd=installed_layout, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "KEPT" in proc.stdout and "BROKEN" not in proc.stdout


def test_no_import_cycles(installed_layout):
    grimp = pytest.importorskip("grimp")
    code = ("import grimp, json; g = grimp.build_graph('corpusagree', cache_dir=None); "
            "print(json.dumps([[a, b] for a in g.modules for b in g.find_modules_directly_"
            "imported_by(a) if g.chain_exists(importer=b, imported=a)]))")
    env = {**os.environ, "PYTHONPATH": str(installed_layout)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=installed_layout, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    cycles = [tuple(p) for p in __import__("json").loads(proc.stdout)
              if not p[1].startswith(p[0] + ".")]  # a package importing its own child
    assert not cycles, cycles
    assert grimp


def test_ruff_clean():
    exe = shutil.which("ruff")
    if exe is None:
        pytest.skip("ruff is not installed (pip install '.[test]')")
    proc = subprocess.run([exe, "check", "corpusagree", "readers", "tests", "benchmarks",
                           "sample_corpora", "--exclude", "tests/data"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:]


def test_no_top_level_readers_package():
    """``readers`` is installed as ``corpusagree.readers``: a user's own readers.py next to a
    notebook cannot shadow it."""
    spec = importlib.util.find_spec("readers")
    assert spec is None or not str(spec.origin or "").startswith(str(ROOT / "readers"))
    assert importlib.util.find_spec("corpusagree.readers") is not None
