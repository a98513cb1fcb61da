"""benchmarks/import_time.py runs and reports what each command loads (no time is asserted)."""

from __future__ import annotations

import json

from support import load_benchmark


def test_import_time_benchmark_runs(capsys):
    bench = load_benchmark("import_time")
    assert bench.main(["--repeat", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    commands = out["commands"]
    assert list(commands) == ["python -c pass", "import corpusagree", "corpusagree --help"]
    for name in ("import corpusagree", "corpusagree --help"):
        assert commands[name]["best"] > 0 and commands[name]["loads"] == []
    assert bench.main(["--repeat", "1"]) == 0
    assert "corpusagree --help" in capsys.readouterr().out
