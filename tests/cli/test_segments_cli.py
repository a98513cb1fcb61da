"""``corpusagree segments``: the same figures from every format, --json = the API's
``to_dict()``, segeval's pairwise means on Stargazers and Moonstone, every output format, more
than ten coders, and ``file:line: message`` errors with exit status 2."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import segeval

import corpusagree as ca
from corpusagree.analyses import segments
from corpusagree.convert import segments as conv
from corpusagree.readers import segeval as segeval_reader
from corpusagree.report import json as json_renderer
from corpusagree.stats.inference import Bootstrap
from corpusagree.stats.kernel import kernel

#: keys that name where the data came from rather than what they say
PROVENANCE = ("inputs", "format", "unit")


def figures(payload: dict) -> dict:
    return {k: v for k, v in payload.items() if k not in PROVENANCE}


@pytest.fixture(scope="module")
def sample(samples) -> Path:
    return samples / "segments"


@pytest.mark.parametrize("path", ["segeval_tsv", "positions", "rs3", "disrpt", "text"])
def test_every_sample_format_gives_identical_figures(cli_json, sample, path: str) -> None:
    reference = cli_json("segments", sample / "segments.json")
    other = cli_json("segments", sample / path)
    assert other["format"] == ("segeval" if path == "segeval_tsv" else path)
    assert figures(other) == figures(reference)


def test_json_equals_to_dict(cli_json, sample) -> None:
    path = sample / "segments.json"
    out = cli_json("segments", path, "--by-document", "--diagnostics", "3", "--ci",
                   "--resamples", "100", "--distance", "dice", "--distance", "masi,jaccard")
    report = segments.analyse(segments.read(path), distance=["dice", "masi", "jaccard"],
                              by_document=True, diagnostics=3, bootstrap=Bootstrap(100))
    assert out == json_renderer.clean(report.to_dict())  # nan → null, as the renderer writes
    assert out["job"] == "segments" and out["schema"] == 1 and out["format"] == "segeval"
    assert out["inputs"] == [str(path)] and out["unit"] == "unit"
    assert out["options"] == {"distances": ["dice", "masi", "jaccard"], "by_document": True,
                              "diagnostics": 3, "reader_options": {}}
    assert out["bootstrap"] == {"n_resamples": 100, "level": 0.95, "interval": "percentile",
                                "cluster": None, "seed": 0}
    assert list(out) == ["corpusagree", "schema", "job", "inputs", "options", "bootstrap",
                         "format", "unit", "data", "boundaries", "typed_boundaries",
                         "unit_sets", "pairwise", "leave_one_out", "coder_rates",
                         "by_document", "diagnostics", "typed_coincidence", "notes"]


def test_figures_are_the_coefficients(cli_json, sample) -> None:
    out = cli_json("segments", sample / "segments.json", "--distance", "jaccard,dice")
    segs = segeval_reader.read(sample / "segments.json")
    b, u = conv.boundaries(segs), conv.unit_sets(segs)
    by_id = {r["id"]: r["value"] for r in out["boundaries"]}
    assert by_id["alpha"] == float(ca.alpha(b)) and by_id["pi"] == float(ca.pi(b))
    assert by_id["multi_kappa"] == float(ca.multi_kappa(b))
    assert [(r["id"], r["distance"]) for r in out["unit_sets"]] == [
        ("alpha", "jaccard"), ("beta", "jaccard"), ("bias", "jaccard"),
        ("alpha", "dice"), ("beta", "dice"), ("bias", "dice")]
    assert out["unit_sets"][4]["value"] == float(ca.beta(u, "dice"))
    assert out["data"]["documents"] == 3 and out["data"]["coders"] == ["ada", "ben", "chloe"]
    assert out["leave_one_out"]["distance"] == out["pairwise"]["distance"] == "jaccard"


def test_pairwise_means_equal_segeval_on_stargazers(cli_json, corpora) -> None:
    path = corpora / "fournier_segmentation_corpora" / "stargazer_hearst_1997.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    with open(path, encoding="utf-8") as f:
        dataset = segeval.Dataset(json.load(f)["items"])
    pw = cli_json("segments", path)["pairwise"]
    coders = pw["coders"]
    assert len(coders) == 7
    for key, fn in (("boundary_similarity", segeval.boundary_similarity),
                    ("segmentation_similarity", segeval.segmentation_similarity),
                    ("pk", segeval.pk), ("window_diff", segeval.window_diff)):
        theirs = fn(dataset, permuted=True)
        assert pw["mean"][key] == pytest.approx(
            float(np.mean([float(v) for v in theirs.values()])), abs=1e-9)
        for name, v in theirs.items():
            _, a, b = name.split(",")
            assert pw["matrices"][key][coders.index(a)][coders.index(b)] == pytest.approx(
                float(v), abs=1e-9)


def test_diagnostics_worst_items(cli_json, sample) -> None:
    out = cli_json("segments", sample / "segments.json", "--diagnostics", "4")["diagnostics"]
    assert out["distance"] == "dice" and len(out["boundaries"]) == len(out["units"]) == 4
    segs = segeval_reader.read(sample / "segments.json")
    b = conv.boundaries(segs)
    first = out["boundaries"][0]
    item = list(b.items).index((first["document"], first["position"]))
    assert first["disagreement"] == float(kernel(b).disagr_i[item]) == 1.0
    assert first["labels"] == {c: b.label(int(k)) for c, k in zip(b.coders, b.codes[:, item],
                                                                   strict=True)}
    # a unit's label is its coder's segment, first and last unit
    unit = out["units"][0]
    masses = {s.annotator: s.masses for s in segs if s.document == unit["document"]}
    for coder, (lo, hi) in unit["labels"].items():
        ends = np.cumsum(masses[coder])
        k = int(np.searchsorted(ends, unit["position"]))
        assert (lo, hi) == (int(ends[k] - masses[coder][k] + 1), int(ends[k]))
    assert len(cli_json("segments", sample / "segments.json", "--diagnostics")
               ["diagnostics"]["boundaries"]) == 10


def test_intervals_clustered_by_document(cli_json, sample) -> None:
    argv = ["segments", sample / "segments.json", "--ci", "0.9", "--resamples", "200",
            "--seed", "3"]
    out = cli_json(*argv)
    assert out == cli_json(*argv)
    alpha = next(r for r in out["unit_sets"] if r["id"] == "alpha")
    iv = alpha["interval"]
    assert iv["clustered"] and iv["units"] == 3 and iv["level"] == 0.9 and iv["seed"] == 3
    assert iv["n_resamples"] == 200 and iv["low"] <= alpha["value"] <= iv["high"]
    items = cli_json("segments", sample / "segments.json", "--ci", "--resamples", "50",
                     "--cluster", "item")
    assert items["unit_sets"][0]["interval"]["units"] == 203
    assert items["bootstrap"]["cluster"] is False


def test_annotators_and_reader_options(cli_json, sample) -> None:
    out = cli_json("segments", sample / "segments.json", "--annotators", "ada,chloe")
    assert out["data"]["coders"] == ["ada", "chloe"]
    out = cli_json("segments", sample / "positions", "--input-format", "positions",
                   "--unit", "token")
    assert out["unit"] == "token" and out["format"] == "positions"


def test_local_coders(cli_json, sample) -> None:
    out = cli_json("segments", sample / "segments.json", "--local-coders")
    assert len(out["data"]["coders"]) == 8 and "harbour/ada" in out["data"]["coders"]
    assert np.array(out["pairwise"]["shared_documents"]).max() == 1


def test_report_runs_the_segments_job(cli, root) -> None:
    status, text, _ = cli("report", root / "sample_corpora")
    assert status == 0
    assert "segments.json (segeval)" in text and "Unit sets" in text


def test_terminal_output(cli, sample) -> None:
    status, text, err = cli("segments", sample / "positions", "--by-document", "--ci",
                            "--resamples", "50", "--seed", "1")
    assert status == 0 and err == ""
    for words in ("Boundaries", "Unit sets", "WindowDiff", "Leave one coder out",
                  "Removing ben raises unit-set α (dice) most", "By document", "95% CI",
                  "α units dice, coder × coder"):
        assert words in text
    assert max(map(len, text.splitlines())) <= 80


def test_every_output_format(cli, sample, tmp_path) -> None:
    path = sample / "segments.json"
    status, out, _ = cli("segments", path, "--format", "csv", "--by-document")
    assert status == 0
    folder = tmp_path / "tables"
    assert cli("segments", path, "--format", "csv", "--by-document", "--output",
               f"{folder}/")[0] == 0
    blocks = {f.stem: f.read_text() for f in folder.glob("*.csv")}
    assert out.startswith("table,row,column,value\n")
    assert set(blocks) == {line.split(",")[0] for line in out.splitlines()[1:]}
    rows = list(csv.reader(io.StringIO(blocks["pairwise_boundary_similarity"])))
    assert rows[0] == ["coder", "ada", "ben", "chloe"] and rows[2][3] == "0.3666666666666667"
    assert list(csv.reader(io.StringIO(blocks["by_document"])))[0][:6] == [
        "document", "coders", "units", "segments_per_coder", "boundary_alpha",
        "unit_alpha_dice"]
    status, md, _ = cli("segments", path, "--format", "md")
    assert status == 0 and md.startswith("## ") and "| α | dice | 0.7601 |" in md
    target = tmp_path / "out.json"
    status, out, _ = cli("segments", path, "--json", "--output", target)
    assert status == 0 and out == ""
    assert json.loads(target.read_text())["job"] == "segments"


def test_more_than_ten_coders(cli, cli_json, tmp_path) -> None:
    rng = np.random.default_rng(0)
    items = {}
    for d in range(3):
        items[f"d{d}"] = {}
        for c in range(12):
            cuts = np.sort(rng.choice(np.arange(1, 30), 4, replace=False))
            items[f"d{d}"][f"c{c}"] = np.diff([0, *cuts, 30]).tolist()
    path = tmp_path / "many.json"
    path.write_text(json.dumps({"segmentation_type": "linear", "items": items}))
    out = cli_json("segments", path)
    assert np.array(out["pairwise"]["matrices"]["pk"]).shape == (12, 12)
    assert len(out["pairwise"]["per_coder"]["alpha_units"]) == 12
    status, text, _ = cli("segments", path)
    assert status == 0
    assert "Each coder against the others" in text and "coder × coder:" not in text
    assert text.count("… 2 more coders in the JSON") == 3  # per coder, leave-one-out, rates
    assert max(map(len, text.splitlines())) <= 80


# ---- Moonstone (Kazantseva & Szpakowicz 2012) -------------------------------------------------
@pytest.fixture(scope="module")
def moonstone(corpora) -> Path:
    path = corpora / "moonstone_kazantseva2012"
    if not ((path / "segmentations").is_dir() and
            (path / "moonstone_segeval_masses.json").exists()):
        pytest.skip(f"{path} is absent")
    return path


@pytest.mark.parametrize("extra", [[], ["--local-coders", "--by-document"]])
def test_moonstone_csv_and_json_give_identical_figures(cli_json, moonstone, extra) -> None:
    from_csv = cli_json("segments", moonstone / "segmentations", *extra)
    from_json = cli_json("segments", moonstone / "moonstone_segeval_masses.json", *extra)
    assert figures(from_csv) == figures(from_json)
    assert from_csv["data"]["documents"] == 20 and from_csv["data"]["units"] == 1076


def test_moonstone_local_coders_share_no_document(cli_json, moonstone) -> None:
    out = cli_json("segments", moonstone / "segmentations", "--local-coders")
    assert len(out["data"]["coders"]) == 108 and out["data"]["not_segmented"] == 20 * 108 - 108
    assert np.array(out["pairwise"]["shared_documents"]).max() == 1
    assert all(r["documents"] == 1 for r in out["coder_rates"])


def test_moonstone_pairwise_means_equal_segeval(cli_json, moonstone) -> None:
    with open(moonstone / "moonstone_segeval_masses.json", encoding="utf-8") as f:
        dataset = segeval.Dataset(json.load(f)["items"])
    mean = cli_json("segments", moonstone / "segmentations")["pairwise"]["mean"]
    for key, fn in (("boundary_similarity", segeval.boundary_similarity),
                    ("segmentation_similarity", segeval.segmentation_similarity),
                    ("pk", segeval.pk), ("window_diff", segeval.window_diff)):
        theirs = [float(v) for v in fn(dataset, permuted=True).values()]
        assert mean[key] == pytest.approx(np.mean(theirs), abs=1e-9), key


# ---- errors: one line file:line: message, exit status 2 ------------------------------------
def check_error(cli, argv: list, prefix: str, words: str) -> None:
    status, _, err = cli("segments", *argv)
    assert status == 2
    err = err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith(prefix) and words in err


@pytest.mark.parametrize("name, line, words", [
    ("hearst1997_bad_type.ejson", 13, "segmentation_type"),
    ("hearst1997_missing_items.ejson", 1, "'items'"),
    ("hearst1997_missing_type.ejson", 1, "'segmentation_type'"),
])
def test_malformed_segeval_samples_exit_2(cli, corpora, name: str, line: int,
                                          words: str) -> None:
    path = corpora / "segeval_samples" / name
    if not path.exists():
        pytest.skip(f"{path} is absent")
    check_error(cli, [path], f"{path}:{line}: ", words)


def test_disrpt_broken_column_count_exit_2(cli, tmp_path: Path) -> None:
    good = "\t".join(["1", "Ferry", *"_" * 7, "BeginSeg=Yes"])
    bad = "\t".join(["2", "leaked", *"_" * 5, "Seg=O"])
    for coder in ("ann1", "ann2"):
        (tmp_path / coder).mkdir()
        (tmp_path / coder / "x.tok").write_text(f"# newdoc id = d\n{good}\n"
                                                + (bad if coder == "ann2" else good) + "\n")
    path = tmp_path / "ann2" / "x.tok"
    check_error(cli, [tmp_path, "--input-format", "disrpt"], f"{path}:3: ",
                "expected 10 tab-separated columns, found 8")


def test_unequal_lengths_exit_2(cli, tmp_path: Path) -> None:
    path = tmp_path / "len.json"
    path.write_text(json.dumps({"segmentation_type": "linear",
                                "items": {"d": {"a": [2, 3], "b": [6]}}}, indent=1))
    check_error(cli, [path], f"{path}:", "covers 6 units")


@pytest.mark.parametrize("argv, words", [
    (["--marker", "=+"], "--marker '=+' does not apply to segments format 'segeval'"),
    (["--distance", "nominal"], "--distance: 'nominal' is not one of"),
    (["--ci", "1.5"], "argument --ci: expected a number between 0 and 1"),
    (["--ci", "--resamples", "1"], "argument --resamples: expected an integer ≥ 2"),
    (["--seed", "-1"], "argument --seed: expected an integer ≥ 0, not '-1'"),
    (["--annotators", "zoe"], "segments/segments.json; the annotators there are ada, ben, "
                              "chloe"),
])
def test_bad_options_exit_2(cli, sample, argv: list[str], words: str) -> None:
    check_error(cli, [sample / "segments.json", *argv], "", words)


def test_mixed_formats_and_single_coder_exit_2(cli, sample, tmp_path: Path) -> None:
    check_error(cli, [sample / "segments.json", sample / "positions"], "",
                "different formats")
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"segmentation_type": "linear", "items": {"d": {"a": [2, 3]}}}))
    check_error(cli, [path], "", "no document was segmented by two or more coders")
    check_error(cli, [tmp_path / "absent.json"], f"{tmp_path / 'absent.json'}: ",
                "no such file")


def test_bad_input_in_a_subprocess_has_no_traceback(tmp_path: Path, root: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"segmentation_type": "linear",\n "items": {"d": {"a": [2, 0]}}}\n')
    proc = subprocess.run([sys.executable, "-m", "corpusagree", "segments", str(path)],
                          capture_output=True, text=True, cwd=root)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith(f"{path}:2: items/d/a: expected a non-empty list")


# ---- real tools' variants ---------------------------------------------------------------------
DISRPT = Path(__file__).resolve().parents[1] / "data" / "segments_disrpt"
MOON = Path(__file__).resolve().parents[1] / "data" / "segments_moonstone"


def test_gum_disrpt_export_counts_every_edu(cli_json) -> None:
    """GUM writes Seg=B-Seg: 9 EDUs and 8 in the two annotators' files, not one segment per
    document."""
    out = cli_json("segments", DISRPT / "gum_a", DISRPT / "gum_b")
    assert out["format"] == "disrpt" and out["unit"] == "token"
    assert out["data"]["coders"] == ["gum_a", "gum_b"] and out["data"]["documents"] == 2
    assert out["data"]["segments"] == 9 + 9 and out["data"]["units"] == 51
    assert out["data"]["potential_boundaries"] == 49


@pytest.mark.parametrize("name, label", [("eng.pdtb.gum_dev.conllu", "Conn=B-conn"),
                                         ("eng.pdtb.pdtb_dev.tok", "Seg=B-Conn")])
def test_connective_file_exit_2(cli, name: str, label: str) -> None:
    path = DISRPT / "pdtb" / name
    check_error(cli, [path, path], f"{path}:2: {label} marks a discourse connective",
                "not a segmentation")


def test_unlabelled_disrpt_warns_on_stderr(cli, tmp_path: Path) -> None:
    text = (DISRPT / "gum_a" / "eng.erst.gum_dev.conllu").read_text(encoding="utf-8")
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "x.tok").write_text(text.replace("Seg=B-Seg", "Seg=O"),
                                               encoding="utf-8")
    status, out, err = cli("segments", tmp_path / "a", tmp_path / "b", "--json")
    assert status == 0 and json.loads(out)["data"]["segments"] == 4
    lines = err.strip().splitlines()
    assert all(line.startswith("warning: ") for line in lines)
    unlabelled = [line for line in lines if "no segment-begin label" in line]
    assert len(unlabelled) == 2 and all("2 of 2 document(s)" in line and "read as one segment"
                                        in line for line in unlabelled)


def test_local_coders_are_suggested_and_a_coder_map_is_taken(cli, cli_json) -> None:
    status, out, err = cli("segments", MOON / "segmentations", "--json")
    assert status == 0
    [warning] = err.strip().splitlines()
    assert warning.startswith("warning: coder names look local to each document")
    assert "--local-coders" in warning and "--coder-map FILE" in warning
    assert json.loads(out)["data"]["coders"] == ["an1", "an2", "an3", "an4", "an5", "an6"]
    # the report's note too is in the command line's words (Python's: local_coders=True)
    [note] = [n for n in json.loads(out)["notes"] if n.startswith("coder names look local")]
    assert "--local-coders" in note and "--coder-map FILE" in note
    status, out, err = cli("segments", MOON / "segmentations", "--coder-map",
                           MOON / "coder_map.csv", "--json")
    assert status == 0 and err == ""
    assert len(json.loads(out)["data"]["coders"]) == 15
    status, out, err = cli("segments", MOON / "segmentations", "--local-coders", "--json")
    assert status == 0 and err == "" and len(json.loads(out)["data"]["coders"]) == 19


def test_coder_map_errors_exit_2(cli, tmp_path: Path) -> None:
    bad = tmp_path / "map.csv"
    bad.write_text("document,coder\nch1,an1\n")
    check_error(cli, [MOON / "segmentations", "--coder-map", bad], f"{bad}:1: ",
                "header document,coder,person")
    check_error(cli, [MOON / "segmentations", "--coder-map", tmp_path / "absent.csv"],
                f"{tmp_path / 'absent.csv'}: cannot read file", "")
    status, _, err = cli("segments", MOON / "segmentations", "--coder-map", bad,
                         "--local-coders")
    assert status == 2 and "not allowed with argument" in err


def test_non_utf8_and_bom_from_the_command_line(cli, cli_json, tmp_path: Path) -> None:
    path = tmp_path / "d.tsv"
    path.write_bytes(b"Coder\tMasses\nZo\xeb\t2\t3\nb\t5\n")
    check_error(cli, [path], f"{path}:2: not UTF-8 (byte 0xeb at column 3)",
                "save the file as UTF-8")
    path.write_bytes(b"\xef\xbb\xbfCoder\tMasses\na\t2\t3\nb\t5\n")
    assert cli_json("segments", path)["data"]["coders"] == ["a", "b"]


def test_huge_masses_exit_2_at_once(cli, tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"segmentation_type": "linear",
                                "items": {"d": {"a": [10 ** 12], "b": [1, 10 ** 12 - 1]}}}))
    check_error(cli, [path], f"{path}:", "more than a file of")
