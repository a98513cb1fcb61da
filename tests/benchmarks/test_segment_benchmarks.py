"""The segmentation benchmarks run on the analyses' API: Moonstone (positions CSV = segeval JSON,
intervals by chapter, the odd one out) and the generated scale benchmark on a tiny corpus."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def test_moonstone_benchmark_script(root, corpora) -> None:
    corpus = corpora / "moonstone_kazantseva2012"
    if not (corpus / "segmentations").is_dir():
        pytest.skip(f"{corpus} is absent")
    proc = subprocess.run([sys.executable, str(root / "benchmarks" / "moonstone.py"),
                           "--corpus", str(corpus), "--coders", "named", "--resamples", "50",
                           "--json"], capture_output=True, text=True, check=True)
    out = json.loads(proc.stdout)
    assert out["csv_equals_json"] is True and out["chapters"] == 20 and out["coders"] == 6
    alpha = next(r for r in out["coefficients"] if r["distance"] == "dice"
                 and r["symbol"] == "α")
    assert alpha["clustered"] and alpha["clusters"] == 20
    assert alpha["low"] <= alpha["value"] <= alpha["high"]
    assert out["leave_one_out"]["odd_one_out"]["coder"] in {f"an{k}" for k in range(1, 7)}
    assert set(out["pairwise_means"]) == {"B", "S", "Pk", "WindowDiff"}


def test_scale_benchmark_tiny(root) -> None:
    proc = subprocess.run([sys.executable, str(root / "benchmarks" / "segments_scale.py"),
                           "--docs", "60", "--coders", "3", "--units", "40", "--sizes", "30,60",
                           "--json"], capture_output=True, text=True, cwd=root, check=True)
    out = json.loads(proc.stdout)
    assert out["judgements"] == 60 * 3 * 40
    assert [r["documents"] for r in out["scaling"]] == [30, 60]
    assert "slope_unit_alpha" in out["scaling"][1]
    assert out["pairwise_metrics"]["documents"] == 60
    assert 0.5 < out["scores"]["unit-set α dice"]["value"] < 1
    # the generator's coders share one distribution: β ≈ α, tiny bias
    assert out["scores"]["unit-set β dice"]["value"] == pytest.approx(
        out["scores"]["unit-set α dice"]["value"], abs=0.01)
