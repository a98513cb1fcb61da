"""Fixtures shared by every test: paths, the command line in this process, and the
generators of random reliability data of ``support.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import support
from support import CORPORA, DATA, ROOT, SAMPLES

from corpusagree.cli import main


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


@pytest.fixture(scope="session")
def random_matrix():
    """``random_matrix(seed, coders=4, items=30, p_missing=0.3, labels=4, agreement=0.5)``."""
    return support.random_matrix


@pytest.fixture(scope="session")
def random_sets():
    """``random_sets(seed, coders=3, items=25, p_missing=0.25, universe=7)`` → triples."""
    return support.random_sets
