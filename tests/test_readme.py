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
