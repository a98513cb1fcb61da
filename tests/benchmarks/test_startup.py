"""benchmarks/startup.py runs and reports what each command loads (no time is asserted)."""

from __future__ import annotations

import json

from support import load_benchmark


def test_startup_benchmark_runs(capsys):
    bench = load_benchmark("startup")
    assert bench.main(["--repeat", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    commands = out["commands"]
    assert list(commands) == ["python -c pass", "import corpusagree", "corpusagree --help",
                              "corpusagree table --help"]
    assert all(commands[name]["best"] > 0 for name in commands)
    assert commands["corpusagree --help"]["target"] == 0.3
    # the package and the list of jobs load no heavy library; a job's help loads its job
    assert commands["import corpusagree"]["loads"] == []
    assert commands["corpusagree --help"]["loads"] == []
    assert "numpy" in commands["corpusagree table --help"]["loads"]
    assert bench.main(["--repeat", "1"]) == 0
    text = capsys.readouterr().out
    assert "corpusagree table --help" in text and "(target ≤ 0.3 s)" in text
    assert max(map(len, text.splitlines())) <= 80
