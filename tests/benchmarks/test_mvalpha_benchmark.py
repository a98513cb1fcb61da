"""benchmarks/mvalpha_scale.py on a small case: its figures are consistent (mvα and α with the
Dice distance share D_o on the same data; the timings and their ratio are reported)."""

from __future__ import annotations

import pytest

import corpusagree as ca

from support import load_benchmark


def test_mvalpha_scale_small():
    bench = load_benchmark("mvalpha_scale")
    out = bench.measure(units=2000, repeat=1)
    a, m = out["alpha_dice"], out["mv_alpha"]
    assert out["judgements"] > 0.9 * 2000 * 5 and out["empty_sets"] > 0
    assert m["observed"] == pytest.approx(a["observed"], abs=1e-12)
    assert 0 < m["expected"] and 0 < a["expected"] and m["value"] == pytest.approx(
        1 - m["observed"] / m["expected"])
    assert out["ratio"] == pytest.approx(m["seconds"] / a["seconds"])
    data = bench.make(2000)
    assert ca.mv_alpha(data).value == pytest.approx(m["value"], abs=1e-12)
    assert data.labels.sizes.max() <= bench.LARGEST
