"""``corpusagree segments``: same figures from every format, --json = API, segeval's pairwise
means on Stargazers, leave-one-out, intervals, and ``file:line: message`` errors (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import segeval
from corpusagree.readers import segeval as segeval_reader

import corpusagree as ca
from corpusagree import report
from corpusagree.cli import main
from corpusagree.convert import segments as conv
from corpusagree.jobs import segments as job
from corpusagree.stats import segmetrics
from corpusagree.stats.kernel import kernel

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_corpora" / "segments"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
SAMPLES = CORPORA / "segeval_samples"
STARGAZERS = CORPORA / "fournier_segmentation_corpora" / "stargazer_hearst_1997.json"
#: keys that name where the data came from rather than what they say
PROVENANCE = ("source", "format", "unit")


def run_json(capsys, *argv: str) -> dict:
    assert main(["segments", *map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def figures(payload: dict) -> dict:
    return {k: v for k, v in payload.items() if k not in PROVENANCE}


@pytest.fixture(scope="module")
def sample_segs():
    return segeval_reader.read(SAMPLE / "segments.json")


@pytest.mark.parametrize("path", ["segeval_tsv", "positions", "rs3", "disrpt", "text"])
def test_every_sample_format_gives_identical_figures(capsys, path: str) -> None:
    reference = run_json(capsys, SAMPLE / "segments.json")
    assert figures(run_json(capsys, SAMPLE / path)) == figures(reference)


def test_json_equals_api(capsys, sample_segs) -> None:
    out = run_json(capsys, SAMPLE / "segments.json", "--by-document")
    api = job.analyse(sample_segs, per_document=True)
    assert out.pop("format") == "segeval"
    assert out.pop("source") == [str(SAMPLE / "segments.json")]
    assert out == json.loads(json.dumps(report._clean(api)))


def test_figures_are_the_coefficients(sample_segs) -> None:
    out = job.analyse(sample_segs, ["jaccard", "dice"])
    b, u = conv.boundaries(sample_segs), conv.unit_sets(sample_segs)
    by_key = {r["key"]: r["value"] for r in out["boundaries"]}
    assert by_key["alpha"] == float(ca.alpha(b))
    assert by_key["pi"] == float(ca.pi(b))
    assert by_key["multi_kappa"] == float(ca.multi_kappa(b))
    assert [(r["key"], r["distance"]) for r in out["unit_sets"]] == [
        ("alpha", "jaccard"), ("beta", "jaccard"), ("bias", "jaccard"),
        ("alpha", "dice"), ("beta", "dice"), ("bias", "dice")]
    assert out["unit_sets"][4]["value"] == float(ca.beta(u, "dice"))
    assert out["documents"] == 3 and out["coders"] == ["ada", "ben", "chloe"]
    assert out["not_segmented"] == 1 and out["units"] == b.n_items + 3


def test_pairwise_matrices_are_means_over_shared_documents(sample_segs) -> None:
    out = job.analyse(sample_segs)["pairwise"]
    masses = {(s.document, s.annotator): s.masses for s in sample_segs}
    i, j = out["coders"].index("chloe"), out["coders"].index("ben")
    shared = [d for d in ("harbour", "orchard", "workshop")
              if (d, "chloe") in masses and (d, "ben") in masses]
    assert shared == ["harbour", "orchard"] and out["shared_documents"][i][j] == 2
    for key, fn in (("B", segmetrics.boundary_similarity), ("Pk", segmetrics.pk),
                    ("WindowDiff", segmetrics.window_diff)):
        expected = np.mean([fn(masses[d, "chloe"], masses[d, "ben"]) for d in shared])
        assert out[key][i][j] == pytest.approx(expected, abs=1e-15)
    assert out["Pk"][i][j] != out["Pk"][j][i]  # row = hypothesis, column = reference
    b = conv.boundaries(sample_segs)
    pair = ca.alpha(b.subset(coders=[i, j]))
    assert out["alpha_boundaries"][i][j] == out["alpha_boundaries"][j][i] == float(pair)


def test_pairwise_means_equal_segeval_on_sample(sample_segs) -> None:
    with open(SAMPLE / "segments.json", encoding="utf-8") as f:
        dataset = segeval.Dataset(json.load(f)["items"])
    mean = job.analyse(sample_segs)["pairwise"]["mean"]
    for key, fn, permuted in (("B", segeval.boundary_similarity, False),
                              ("S", segeval.segmentation_similarity, False),
                              ("Pk", segeval.pk, True), ("WindowDiff", segeval.window_diff, True)):
        values = [float(v) for v in fn(dataset, permuted=permuted).values()]
        assert mean[key] == pytest.approx(np.mean(values), abs=1e-9), key


def test_pairwise_means_equal_segeval_on_stargazers(capsys) -> None:
    if not STARGAZERS.exists():
        pytest.skip(f"{STARGAZERS} is absent")
    with open(STARGAZERS, encoding="utf-8") as f:
        dataset = segeval.Dataset(json.load(f)["items"])
    out = run_json(capsys, STARGAZERS)
    coders = out["coders"]
    assert len(coders) == 7
    for key, fn in (("B", segeval.boundary_similarity), ("S", segeval.segmentation_similarity),
                    ("Pk", segeval.pk), ("WindowDiff", segeval.window_diff)):
        theirs = fn(dataset, permuted=True)
        assert out["pairwise"]["mean"][key] == pytest.approx(
            float(np.mean([float(v) for v in theirs.values()])), abs=1e-9)
        for name, v in theirs.items():
            _, a, b = name.split(",")
            assert out["pairwise"][key][coders.index(a)][coders.index(b)] == pytest.approx(
                float(v), abs=1e-9)


def test_leave_one_out_names_the_odd_one_out(sample_segs) -> None:
    loo = job.analyse(sample_segs)["leave_one_out"]
    u = conv.unit_sets(sample_segs)
    without = {c: float(ca.alpha(u.subset(coders=[k for k in range(3) if k != i]), "dice"))
               for i, c in enumerate(u.coders)}
    assert [r["unit_alpha"] for r in loo["rows"]] == pytest.approx(list(without.values()))
    best = max(without, key=without.get)
    assert loo["odd_one_out"]["coder"] == best == "ben"
    assert loo["odd_one_out"]["change"] == pytest.approx(without[best] - float(ca.alpha(u, "dice")))


def test_coder_rates(sample_segs) -> None:
    rates = {r["coder"]: r for r in job.analyse(sample_segs)["coder_rates"]}
    masses = {(s.document, s.annotator): s.masses for s in sample_segs}
    chloe = rates["chloe"]
    assert chloe["documents"] == 2
    assert chloe["boundaries"] == sum(len(masses[d, "chloe"]) - 1 for d in ("harbour", "orchard"))
    # the others on chloe's documents: ada and ben on harbour and orchard
    others = [masses[d, c] for d in ("harbour", "orchard") for c in ("ada", "ben")]
    positions = sum(sum(m) - 1 for m in others)
    assert chloe["others_rate"] == pytest.approx(sum(len(m) - 1 for m in others) / positions)


def test_by_document_and_local_coders(sample_segs) -> None:
    rows = {r["document"]: r for r in job.analyse(sample_segs, per_document=True)["by_document"]}
    harbour = [s for s in sample_segs if s.document == "harbour"]
    assert rows["harbour"]["boundary_alpha"] == float(ca.alpha(conv.boundaries(harbour)))
    assert rows["workshop"]["coders"] == 2
    local = job.local_coders(sample_segs)
    assert {s.annotator for s in local} >= {"harbour/ada", "workshop/ben"}
    out = job.analyse(local)
    assert len(out["coders"]) == 8 and out["boundaries"][0]["value"] == pytest.approx(
        job.analyse(sample_segs)["boundaries"][0]["value"])


def test_diagnostics_worst_items(capsys, sample_segs) -> None:
    out = run_json(capsys, SAMPLE / "segments.json", "--diagnostics", "4")["worst"]
    assert out["distance"] == "dice" and len(out["boundaries"]) == len(out["units"]) == 4
    b = conv.boundaries(sample_segs)
    first = out["boundaries"][0]
    item = list(b.items).index((first["document"], first["position"]))
    assert first["disagreement"] == float(kernel(b).disagr_i[item]) == 1.0
    assert first["labels"] == {c: b.label(int(k)) for c, k in zip(b.coders, b.codes[:, item],
                                                                   strict=True)}
    # a unit's label is its coder's segment, first and last unit
    unit = out["units"][0]
    masses = {s.annotator: s.masses for s in sample_segs if s.document == unit["document"]}
    for coder, (lo, hi) in unit["labels"].items():
        ends = np.cumsum(masses[coder])
        k = int(np.searchsorted(ends, unit["position"]))
        assert (lo, hi) == (int(ends[k] - masses[coder][k] + 1), int(ends[k]))


def test_intervals_clustered_by_document(capsys) -> None:
    out = run_json(capsys, SAMPLE / "segments.json", "--ci", "0.9", "--resamples", "200",
                   "--seed", "3")
    again = run_json(capsys, SAMPLE / "segments.json", "--ci", "0.9", "--resamples", "200",
                     "--seed", "3")
    assert out == again
    alpha = next(r for r in out["unit_sets"] if r["key"] == "alpha")
    ci = alpha["ci"]
    assert ci["clustered"] and ci["units"] == 3 and ci["level"] == 0.9
    assert ci["n_resamples"] == 200 and ci["low"] <= alpha["value"] <= ci["high"]


def test_report_runs_the_segments_job(capsys) -> None:
    assert main(["report", str(ROOT / "sample_corpora")]) == 0
    text = capsys.readouterr().out
    assert "segments.json (segeval)" in text and "Unit sets" in text
    assert job.report_folder(ROOT / "tests", False) is False


def test_terminal_output(capsys) -> None:
    assert main(["segments", str(SAMPLE / "positions"), "--by-document", "--ci",
                 "--resamples", "50", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    for words in ("Boundaries", "Unit sets", "WindowDiff", "Leave one coder out",
                  "Removing ben raises unit-set α (dice) most", "By document", "95% CI"):
        assert words in text


# ---- errors: one line file:line: message, exit status 2 ------------------------------------
def check_error(capsys, argv: list[str], prefix: str, words: str) -> None:
    assert main(["segments", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith(prefix) and words in err


@pytest.mark.parametrize("name, line, words", [
    ("hearst1997_bad_type.ejson", 13, "segmentation_type"),
    ("hearst1997_missing_items.ejson", 1, "'items'"),
    ("hearst1997_missing_type.ejson", 1, "'segmentation_type'"),
])
def test_malformed_segeval_samples_exit_2(capsys, name: str, line: int, words: str) -> None:
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"{path} is absent")
    check_error(capsys, [str(path)], f"{path}:{line}: ", words)


def test_disrpt_broken_column_count_exit_2(capsys, tmp_path: Path) -> None:
    good = "\t".join(["1", "Ferry", *"_" * 7, "BeginSeg=Yes"])
    bad = "\t".join(["2", "leaked", *"_" * 5, "Seg=O"])
    for coder in ("ann1", "ann2"):
        (tmp_path / coder).mkdir()
        (tmp_path / coder / "x.tok").write_text(f"# newdoc id = d\n{good}\n"
                                                + (bad if coder == "ann2" else good) + "\n")
    path = tmp_path / "ann2" / "x.tok"
    check_error(capsys, [str(tmp_path), "--format", "disrpt"], f"{path}:3: ",
                "expected 10 tab-separated columns, found 8")


def test_unequal_lengths_exit_2(capsys, tmp_path: Path) -> None:
    path = tmp_path / "len.json"
    path.write_text(json.dumps({"segmentation_type": "linear",
                                "items": {"d": {"a": [2, 3], "b": [6]}}}, indent=1))
    check_error(capsys, [str(path)], f"{path}:", "covers 6 units")


@pytest.mark.parametrize("argv, words", [
    (["--marker", "=+"], "--marker does not apply to format 'segeval'"),
    (["--distances", "nominal"], "unknown set distance 'nominal'"),
    (["--ci", "1.5"], "--ci level must be between 0 and 1"),
    (["--annotators", "zoe"], "annotators not found: zoe"),
])
def test_bad_options_exit_2(capsys, argv: list[str], words: str) -> None:
    check_error(capsys, [str(SAMPLE / "segments.json"), *argv], "", words)


def test_mixed_formats_and_single_coder_exit_2(capsys, tmp_path: Path) -> None:
    check_error(capsys, [str(SAMPLE / "segments.json"), str(SAMPLE / "positions")], "",
                "different formats")
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"segmentation_type": "linear", "items": {"d": {"a": [2, 3]}}}))
    check_error(capsys, [str(path)], "", "no document was segmented by two or more coders")
    check_error(capsys, [str(tmp_path / "absent.json")], f"{tmp_path / 'absent.json'}: ",
                "no such file")


def test_bad_input_in_a_subprocess_has_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"segmentation_type": "linear",\n "items": {"d": {"a": [2, 0]}}}\n')
    proc = subprocess.run([sys.executable, "-m", "corpusagree.cli", "segments", str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(f"{path}:2: items/d/a: expected a non-empty list")


def test_scale_benchmark_tiny() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "segments_scale.py"),
                           "--docs", "60", "--coders", "3", "--units", "40", "--sizes", "30,60",
                           "--json"], capture_output=True, text=True, cwd=ROOT, check=True)
    out = json.loads(proc.stdout)
    assert out["judgements"] == 60 * 3 * 40
    assert [r["documents"] for r in out["scaling"]] == [30, 60]
    assert "slope_unit_alpha" in out["scaling"][1]
    assert 0.5 < out["scores"]["unit-set α dice"]["value"] < 1
    # the generator's coders share one distribution: β ≈ α, tiny bias
    assert out["scores"]["unit-set β dice"]["value"] == pytest.approx(
        out["scores"]["unit-set α dice"]["value"], abs=0.01)
