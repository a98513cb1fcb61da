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
    assert all(commands[name]["best"] > 0 for name in commands)
    # the package alone loads no heavy library; the top-level help lists the registered jobs,
    # whose modules it imports (numpy with them): the figure is printed, not held
    assert commands["import corpusagree"]["loads"] == []
    assert bench.main(["--repeat", "1"]) == 0
    assert "corpusagree --help" in capsys.readouterr().out
