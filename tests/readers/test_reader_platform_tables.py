"""The table job on each platform's example (docs/formats/table/<format>/command)."""

import json
import shlex
from pathlib import Path

import pytest

from corpusagree.cli import main
from corpusagree.readers.table import platform

TABLES = Path(__file__).resolve().parents[2] / "docs" / "formats" / "table"
EXAMPLES = sorted(p.name for p in TABLES.iterdir() if (p / "command").is_file())


def test_every_platform_has_an_example():
    from corpusagree.readers.table import PLATFORMS

    assert sorted(PLATFORMS) == EXAMPLES


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_example_command_reads_its_format(name, monkeypatch, capsys):
    folder = TABLES / name
    argv = shlex.split((folder / "command").read_text(encoding="utf-8"))
    monkeypatch.chdir(folder)
    assert main(argv[1:] + ["--format", "json", "--quiet"]) == 0, capsys.readouterr().err
    doc = json.loads(capsys.readouterr().out)
    # the same votes of three coders on four items in every tool, one missing
    assert doc["data"]["coders"] == 3 and doc["data"]["items"] == 4
    assert doc["data"]["missing"] == 1
    assert platform(Path(argv[2])) == name
