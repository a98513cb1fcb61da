"""Fixtures shared by every test: paths and the command line in this process. Generators of
random reliability data are in ``support.py`` (``from support import random_labels``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpusagree.cli import main

from support import CORPORA, DATA, ROOT, SAMPLES


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def samples() -> Path:
    """``sample_corpora/``."""
    return SAMPLES


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """``tests/data/``."""
    return DATA


@pytest.fixture(scope="session")
def corpora() -> Path:
    """The folder of real corpora; the test skips when it is absent."""
    if not CORPORA.is_dir():
        pytest.skip(f"the real corpora are not here ({CORPORA}; set CORPUSAGREE_CORPORA)")
    return CORPORA


@pytest.fixture
def cli(capsys, monkeypatch):
    """Run the command line in this process from the repository's root:
    ``cli(*argv)`` → (status, stdout, stderr)."""
    monkeypatch.chdir(ROOT)

    def run(*argv: str) -> tuple[int, str, str]:
        status = main([str(a) for a in argv])
        out = capsys.readouterr()
        return status, out.out, out.err

    return run


@pytest.fixture
def cli_json(cli):
    """``cli_json(*argv)`` → the parsed ``--json`` output (the command must succeed)."""
    def run(*argv: str):
        status, out, err = cli(*argv, "--json")
        assert status == 0, err
        return json.loads(out)

    return run
