"""Data frames have one schema whether or not a value was computed (issue 34, item 13)."""

from pathlib import Path

import numpy as np
import pytest

from corpusagree.model.records import frame

pytest.importorskip("pandas")

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpora" / "trees"


def test_all_missing_column_is_float_nan():
    f = frame([{"v": 1.0, "ci": {"low": None, "high": None}},
               {"v": 2.0, "interval": None, "ci": {"low": None, "high": None}}])
    assert f["ci_low"].dtype == np.float64 and f["ci_high"].isna().all()
    assert f["interval"].dtype == np.float64


def test_text_column_with_values_stays_text():
    f = frame([{"name": "a", "note": None}, {"name": None, "note": None}])
    assert f["name"].dtype != np.float64 and f["name"].iloc[0] == "a"
    assert f["note"].dtype == np.float64


def test_trees_without_bootstrap_have_float_interval_columns():
    from corpusagree.analyses import trees

    report = trees.analyse(trees.read([str(SAMPLE)]))
    seen = 0
    for table in ("parseval", "iruskieta"):
        f = report.to_frame(table)
        cols = [c for c in f.columns if "interval_" in c]
        assert cols
        for c in cols:
            seen += 1
            assert f[c].dtype == np.float64, (table, c, f[c].dtype)
            assert f[c].isna().all()
    assert seen == 6
