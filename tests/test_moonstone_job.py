"""Moonstone (Kazantseva & Szpakowicz 2012): 20 chapters, 4-6 coders each, read from the
positions CSVs and from the segeval JSON give identical figures; coders missing from a chapter
are missing data; pairwise means equal segeval 2.0.11. Skipped when the corpus is absent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import segeval
from corpusagree.readers import positions

from corpusagree.cli import main
from corpusagree.convert import segments as conv

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
MOONSTONE = CORPORA / "moonstone_kazantseva2012"
CSV_DIR = MOONSTONE / "segmentations"
JSON_FILE = MOONSTONE / "moonstone_segeval_masses.json"


@pytest.fixture(scope="module", autouse=True)
def present() -> None:
    if not (CSV_DIR.is_dir() and JSON_FILE.exists()):
        pytest.skip(f"{MOONSTONE} is absent")


def run_json(capsys, *argv) -> dict:
    assert main(["segments", *map(str, argv), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("source", "format", "unit"):
        out.pop(key)
    return out


@pytest.mark.parametrize("extra", [[], ["--local-coders", "--by-document"]])
def test_csv_and_json_give_identical_figures(capsys, extra: list[str]) -> None:
    from_csv = run_json(capsys, CSV_DIR, *extra)
    from_json = run_json(capsys, JSON_FILE, *extra)
    assert from_csv == from_json
    assert from_csv["documents"] == 20 and from_csv["units"] == 1076


def test_coders_missing_from_chapters_are_missing_data() -> None:
    segs = positions.read(CSV_DIR)
    per_chapter = {}
    for s in segs:
        per_chapter[s.document] = per_chapter.get(s.document, 0) + 1
    assert sorted(set(per_chapter.values())) == [4, 5, 6]
    data = conv.unit_sets(segs)
    assert data.coders == ["an1", "an2", "an3", "an4", "an5", "an6"]
    coded = (data.codes >= 0)
    # an5 and an6 judged every unit of 6-coder chapters and none of 4-coder chapters
    for d, name in enumerate(data.group_names):
        in_doc = data.groups == d
        for c in range(6):
            assert coded[c, in_doc].all() == (c < per_chapter[name])
            assert coded[c, in_doc].any() == (c < per_chapter[name])
    assert int((~conv.layout(segs).coded()).sum()) == 20 * 6 - len(segs) == 12
    local = conv.unit_sets([s for s in segs])
    assert local.n_items == 1076


def test_local_coders_share_no_document(capsys) -> None:
    out = run_json(capsys, CSV_DIR, "--local-coders")
    assert len(out["coders"]) == 108 and out["not_segmented"] == 20 * 108 - 108
    shared = np.array(out["pairwise"]["shared_documents"])
    assert shared.max() == 1
    assert all(r["documents"] == 1 for r in out["coder_rates"])


def test_pairwise_means_equal_segeval(capsys) -> None:
    with open(JSON_FILE, encoding="utf-8") as f:
        dataset = segeval.Dataset(json.load(f)["items"])
    mean = run_json(capsys, CSV_DIR)["pairwise"]["mean"]
    for key, fn in (("B", segeval.boundary_similarity), ("S", segeval.segmentation_similarity),
                    ("Pk", segeval.pk), ("WindowDiff", segeval.window_diff)):
        values = [float(v) for v in fn(dataset, permuted=True).values()]
        assert mean[key] == pytest.approx(np.mean(values), abs=1e-9), key


def test_benchmark_script() -> None:
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "moonstone.py"
    proc = subprocess.run([sys.executable, str(script), "--coders", "named", "--resamples", "50",
                           "--json"], capture_output=True, text=True, check=True)
    out = json.loads(proc.stdout)
    assert out["csv_equals_json"] is True and out["chapters"] == 20 and out["coders"] == 6
    alpha = next(r for r in out["coefficients"] if r["distance"] == "dice"
                 and r["symbol"] == "α")
    assert alpha["clustered"] and alpha["clusters"] == 20
    assert alpha["low"] <= alpha["value"] <= alpha["high"]
    assert out["leave_one_out"]["odd_one_out"]["coder"] in {f"an{k}" for k in range(1, 7)}
