"""The word-sense benchmarks on the real corpora (skipped when absent): Snow et al. (2008)
against the krippendorff package and statsmodels, WSbest (Erk et al. 2013) against NLTK's MASI
α, and the WSbest figures of ``corpusagree senses`` against the benchmark's own computation."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import load_benchmark


def corpus(corpora: Path, *parts: str) -> Path:
    path = corpora.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def test_snow2008_benchmark_tiny(corpora):
    path = corpus(corpora, "snow2008_mturk", "wsd.standardized.tsv")
    out = load_benchmark("snow2008_wsd").measure(path, resamples=50, seed=1)
    assert (out["tags"], out["items"], out["annotators"]) == (1770, 177, 34)
    assert out["judgements_per_item"] == [10]
    c = out["coefficients"]
    assert c["alpha"]["value"] == pytest.approx(out["peers"]["krippendorff_alpha"])
    assert c["pi"]["value"] == pytest.approx(out["peers"]["statsmodels_fleiss_kappa"])
    for k in ("multi_kappa", "pi", "alpha"):
        assert c[k]["low"] <= c[k]["value"] <= c[k]["high"] and 0.8 < c[k]["value"] < 1
    lk = out["light_kappa"]
    assert lk["low"] <= lk["value"] <= lk["high"] and lk["pairs"] > 100


def test_wsbest_benchmark_tiny(corpora):
    path = corpus(corpora, "erk2013_wsbest_wssim", "wsbest", "judgments.tsv")
    out = load_benchmark("wsbest").measure(path, resamples=50, seed=1)
    rows = {(r["scheme"], r["distance"]): r for r in out["rows"]}
    assert (out["annotators"], out["items"], out["lemmas"]) == (8, 260, 26)
    assert rows["multi", "masi"]["alpha"] == pytest.approx(out["peers"]["nltk_masi_alpha"])
    for d in ("masi", "jaccard"):
        assert rows["extended (lexfile)", d]["alpha"] > rows["multi", d]["alpha"]
        assert rows["extended (lexfile)", d]["clusters"] == 26


def test_wsbest_through_the_cli(corpora, cli_json):
    path = corpus(corpora, "erk2013_wsbest_wssim", "wsbest", "judgments.tsv")
    doc = cli_json("senses", path, "--inventory", "lexfile", "--distance", "masi")
    assert doc["format"] == "wsbest" and doc["data"]["clusters"] == 26
    wsb = load_benchmark("wsbest").measure(path, resamples=10, nltk_check=False)
    ours = {(r["scheme"], r["distance"]): r["alpha"] for r in wsb["rows"]}
    c = {(s["scheme"], s["inventory"], e["id"]): e
         for s in doc["schemes"] for e in s["coefficients"]}
    assert c["multi", None, "alpha"]["value"] == pytest.approx(ours["multi", "masi"])
    assert c["extended", "lexfile", "alpha"]["value"] == pytest.approx(
        ours["extended (lexfile)", "masi"])
