"""benchmarks/pathological.py, on its quick cases: each input is what it says (refused, or read
at both sizes) and every figure is printed."""

from __future__ import annotations

import json

from support import load_benchmark


def test_pathological_quick_cases(capsys):
    bench = load_benchmark("pathological")
    assert bench.main(["--only", "refused,sparse,segeval JSON,CorefUD", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["seconds"]) == {"segeval mass of 10^12 units refused",
                                   "MMAX2 sparse word ids in a range",
                                   "MMAX2 100,000 attributes refused",
                                   "ezCoref sentence index 10^9 refused"}
    assert set(out["growth"]) == {"segeval JSON, documents",
                                  "CorefUD malformed Entity value, characters",
                                  "CorefUD valid Entity value, mentions"}
    for g in out["growth"].values():
        assert g["ratio"] == g["seconds_10x"] / g["seconds"]
