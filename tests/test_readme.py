"""The README as a user reads it: its Quickstart is the set-up, its example runs (from the
repository's root) and gives what it says, and it stays a front door (250 lines at most)."""

import re

import pytest

from support import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_quickstart_is_install_and_run_then_install_and_test():
    block = re.search(r"## Quickstart\n\n```sh\n(.*?)```", README, flags=re.S).group(1)
    first, second = [line for line in block.splitlines() if line.strip()][:2]
    assert "pip install ." in first and "corpusagree report sample_corpora" in first
    assert 'pip install ".[test]"' in second and second.rstrip().endswith("pytest")


def test_python_examples_run(monkeypatch):
    blocks = python_blocks()
    # the README's example; the API's and each job's run in the documentation at every build
    # (docs/getting-started/jobs.md and the tutorials)
    assert len(blocks) >= 1
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for n, code in enumerate(blocks):
        try:
            exec(compile(code, f"README.md python block {n + 1}", "exec"), namespace)
        except Exception as e:  # pragma: no cover - the message names the block
            pytest.fail(f"README python block {n + 1} fails: {type(e).__name__}: {e}")


def test_the_readme_is_a_front_door():
    """What it is, the Quickstart, the jobs, one example and the links: the details live in
    the documentation (docs/)."""
    assert len(README.splitlines()) <= 250
    for page in re.findall(r"\]\((docs/[^)]+|CHANGELOG.md|CONTRIBUTING.md)\)", README):
        assert (ROOT / page).is_file(), page


# ---- the example after the README's install alone (`pip install .`, no extra) ---------------
#: run in a fresh interpreter: every distribution that is not a dependency of corpusagree in
#: pyproject.toml (nor of those, recursively, without extras) is made unimportable, as after
#: `pip install .` in a fresh virtual environment; then the README's Python blocks
BASE_INSTALL = r'''
import importlib.abc, importlib.metadata as md, re, sys
from packaging.requirements import Requirement

def closure(requirements):
    seen, todo = set(), [None]
    while todo:
        name = todo.pop()
        for text in requirements if name is None else (md.distribution(name).requires or []):
            req = Requirement(text)
            if req.marker and not req.marker.evaluate({"extra": ""}):
                continue
            key = re.sub(r"[-_.]+", "-", req.name).lower()
            if key not in seen:
                seen.add(key)
                try:
                    md.distribution(req.name)
                except md.PackageNotFoundError:
                    continue
                todo.append(req.name)
    return seen

# the checkout's pyproject.toml says what `pip install .` installs (an installed copy's
# metadata may be older)
allowed = closure(DEPENDENCIES) | {"corpusagree"}
owners = md.packages_distributions()

class OnlyTheBaseInstall(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        dists = {re.sub(r"[-_.]+", "-", d).lower() for d in owners.get(top, [])}
        if dists and not dists & allowed and top not in sys.stdlib_module_names:
            raise ModuleNotFoundError(f"No module named {top!r} (not installed by pip "
                                      "install .)", name=top)
        return None

sys.meta_path.insert(0, OnlyTheBaseInstall())
for n, code in enumerate(BLOCKS, 1):
    exec(compile(code, f"README.md python block {n}", "exec"), {})
print("ran", len(BLOCKS))
'''


def _dependencies() -> list[str]:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]


def test_python_example_runs_after_the_readme_install_alone():
    """The example needs nothing the README's `pip install .` does not install (pandas for
    `to_frame` is a dependency); `.ci/run` runs it so in a fresh virtual environment."""
    import subprocess
    import sys

    script = f"BLOCKS = {python_blocks()!r}\nDEPENDENCIES = {_dependencies()!r}\n" + BASE_INSTALL
    done = subprocess.run([sys.executable, "-I", "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"ran {len(python_blocks())}"


def test_the_blocker_would_catch_an_extra(tmp_path):
    """The same check fails for a block that needs a package of an extra (matplotlib)."""
    import subprocess
    import sys

    script = f"BLOCKS = ['import matplotlib']\nDEPENDENCIES = {_dependencies()!r}\n" + \
        BASE_INSTALL
    done = subprocess.run([sys.executable, "-I", "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode != 0 and "No module named 'matplotlib'" in done.stderr


def test_ci_runs_the_example_after_pip_install_dot_before_the_extras():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    plain = ci.index("pip install -q . ")
    example = ci.index('re.findall(r"```python')
    extras = ci.index('pip install -q ".[test,docs]"')
    assert plain < example < extras
