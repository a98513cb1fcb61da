"""The coreference job on a few passages of ezCoref (Gupta et al. 2023): benchmarks/ezcoref.py and
``corpusagree coref`` agree with each other, with α computed from one frozenset per mention, and
with scorch's MUC and B³ on the reader's own chains. Skipped when the corpus is absent."""

import importlib.util
import json
import warnings
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from corpusagree.readers import ezcoref

from corpusagree.cli import main
from corpusagree.model.data import ReliabilityData
from corpusagree.stats import coefficients as co

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"
EZ = SHARED / "ezcoref_gupta2023" / "annotations"
BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "ezcoref.py"
N = 6

pytestmark = pytest.mark.skipif(not EZ.is_dir(), reason="ezcoref_gupta2023 not available")


@pytest.fixture(scope="module")
def files():
    return sorted(EZ.rglob("*.json"))[:N]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_ezcoref", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def out(bench):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bench.run(EZ, limit=N, n_resamples=200, seed=1)


@pytest.fixture(scope="module")
def anns(files):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ezcoref.read(files, clusters="last")


def test_benchmark_figures(out):
    assert out["passages"] == N and out["submissions"] >= 5 * N
    assert [r["distance"] for r in out["coefficients"]] == ["passonneau", "jaccard", "dice",
                                                            "masi"]
    for r in out["coefficients"]:
        for c in ("alpha", "beta"):
            lo, hi = r[f"{c}_ci"]
            assert 0 < lo <= r[c] <= hi < 1
        assert r["dropped_resamples"] == 0
    assert out["pairs"] >= 10 * N
    assert set(out["seconds"]) == {"read", "convert", "coefficients", "intervals", "scores",
                                   "total"}


def test_alpha_equals_frozenset_reference(out, anns):
    """α from one frozenset per (worker, mention), mentions keyed by (passage, span)."""
    triples = []
    for a in anns:
        for c in a.chains:
            chain = frozenset((a.document.id, a.mentions[m].span) for m in c.members)
            triples += [(a.annotator, (a.document.id, a.mentions[m].span), chain)
                        for m in c.members]
    ref = ReliabilityData.from_triples(triples)
    for r in out["coefficients"]:
        assert r["alpha"] == pytest.approx(co.alpha(ref, r["distance"]).value, abs=1e-12)
        assert r["beta"] == pytest.approx(co.beta(ref, r["distance"]).value, abs=1e-12)


def test_scores_equal_scorch(out, anns):
    scorch = pytest.importorskip("scorch.scores")
    by_doc = {}
    for a in anns:
        by_doc.setdefault(a.document.id, []).append(
            [{a.mentions[m].span for m in c.members} for c in a.chains])
    muc, b3 = [], []
    for parts in by_doc.values():
        for k, r in combinations(parts, 2):
            muc.append(scorch.muc(k, r)[2])
            b3.append(scorch.b_cubed(k, r)[2])
    assert out["pairs"] == len(muc)
    assert out["mean_pairwise_f1"]["muc"] == pytest.approx(np.mean(muc), abs=1e-12)
    assert out["mean_pairwise_f1"]["b_cubed"] == pytest.approx(np.mean(b3), abs=1e-12)


def test_cli_equals_benchmark(out, files, capsys):
    assert main(["coref", *map(str, files), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli["format"] == "ezcoref" and len(cli["documents"]) == N
    alpha = {r["distance"]: r["value"] for r in cli["coefficients"] if r["symbol"] == "α"}
    assert alpha == pytest.approx({r["distance"]: r["alpha"] for r in out["coefficients"]},
                                  abs=1e-12)
    assert cli["scores"]["mean"]["muc"] == pytest.approx(out["mean_pairwise_f1"]["muc"])
    assert any("--ezcoref-clusters" in n for n in cli["notes"])


def test_all_cluster_ids_make_overlapping_chains(files, capsys):
    """With every cluster id kept, a mention can be in several chains: reported, united."""
    assert main(["coref", *map(str, files), "--ezcoref-clusters", "all", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert sum(c["several_chains"] for c in cli["alignment"]["per_annotator"].values()) > 0
    assert any("union" in n for n in cli["notes"])


def test_benchmark_cli_json(bench, capsys):
    assert bench.main([str(EZ), "--limit", "2", "--resamples", "20", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["passages"] == 2 and got["seconds"]["total"] > 0
