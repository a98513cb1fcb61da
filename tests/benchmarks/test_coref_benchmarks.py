"""The coreference benchmarks on small inputs.

* ``benchmarks/coref_readers.py`` on 5 documents: the generated brat and CoNLL-2012 files read
  back as the generated mentions and chains, both formats score identically, output is
  deterministic.
* ``benchmarks/ezcoref.py`` on a few passages of ezCoref (Gupta et al. 2023): its figures agree
  with ``corpusagree coref``, with α computed from one frozenset per mention, and with scorch's
  scores on the reader's own chains, micro (the corpus as one partition) and macro (the mean
  over the (passage, pair)s where a score is defined) (skipped when the corpus is absent).
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from itertools import combinations

import numpy as np
import pytest

from corpusagree.analyses import coref
from corpusagree.model.data import ReliabilityData
from corpusagree.stats import coefficients as co

from support import ROOT, load_benchmark

BENCHMARKS = ROOT / "benchmarks"
N = 6


# ---- brat and CoNLL-2012 readers ---------------------------------------------------------------
@pytest.fixture(scope="module")
def readers_bench():
    return load_benchmark("coref_readers")


def partition(ann) -> set[frozenset]:
    """An annotation's chains as sets of spans."""
    return {frozenset(ann.mentions[m].span for m in c.members) for c in ann.chains}


def expected(corpus, d: int, a: int) -> set[frozenset]:
    chains: dict[int, set] = {}
    for s, e, ent in corpus[d][1][a]:
        chains.setdefault(ent, set()).add(((s, e),))
    return {frozenset(c) for c in chains.values()}


@pytest.fixture(scope="module")
def written(readers_bench, tmp_path_factory):
    root = tmp_path_factory.mktemp("bench")
    corpus = readers_bench.generate(5, 3, 100, seed=7)
    return corpus, readers_bench.write_brat(corpus, root / "brat"), \
        readers_bench.write_conll(corpus, root / "conll2012")


def test_formats_read_back_as_generated(readers_bench, written):
    corpus, brat_dirs, conll_files = written
    n_tokens = sum(len(s) for s in corpus[0][0])
    for anns, suffix in ((readers_bench.brat.read(brat_dirs), ""),
                         (readers_bench.conll2012.read(conll_files), "_000")):
        assert len(anns) == 15
        by = {(x.annotator, x.document.id): x for x in anns}
        for d in range(5):
            for a in range(3):
                ann = by[(f"ann{a + 1}", f"doc{d:04d}{suffix}")]
                assert len(ann.document.tokens) == n_tokens
                assert len(ann.document.sentence_starts) == len(corpus[d][0])
                assert len(ann.mentions) == len(corpus[d][1][a])
                assert partition(ann) == expected(corpus, d, a)


def test_generator_shape_and_determinism(readers_bench, written):
    corpus, _, _ = written
    per = [len(m) for _, per_ann in corpus for m in per_ann]
    assert 90 <= sum(per) / len(per) <= 110
    assert any(e - s > 1 for _, pa in corpus for m in pa for s, e, _ in m)  # multi-token
    nested = [(s, e) for _, pa in corpus for m in pa for s, e, _ in m
              if any(s2 < s and e2 == e for s2, e2, _ in m)]
    assert nested
    # the annotators disagree, but not much
    assert corpus[0][1][0] != corpus[0][1][1]
    again = readers_bench.generate(5, 3, 100, seed=7)
    assert again == corpus
    assert readers_bench.generate(5, 3, 100, seed=8) != corpus


def test_run_tiny_both_formats_score_the_same(readers_bench, tmp_path):
    out = readers_bench.run(5, 3, 100, seed=0, distance="jaccard", root=tmp_path)
    assert out["documents"] == 5 and set(out["read"]) == {"brat", "conll2012"}
    b, c = out["score"]["brat"], out["score"]["conll2012"]
    assert b["items"] == c["items"] > 0
    assert abs(b["alpha"] - c["alpha"]) <= 1e-12 and abs(b["beta"] - c["beta"]) <= 1e-12
    assert 0.3 < b["alpha"] < 0.95
    for r in out["read"].values():
        assert r["annotations"] == 15 and r["mentions"] == out["mentions"]
        assert r["documents_per_second"] > 0


def test_readers_script_json():
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "coref_readers.py"), "--docs", "5",
                           "--json"], capture_output=True, text=True, check=True, timeout=120)
    out = json.loads(proc.stdout)
    assert out["documents"] == 5 and out["distance"] == "passonneau"
    assert out["score"]["brat"]["alpha"] == pytest.approx(out["score"]["conll2012"]["alpha"],
                                                          abs=1e-12)


# ---- ezCoref ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ez(corpora):
    path = corpora / "ezcoref_gupta2023" / "annotations"
    if not path.is_dir():
        pytest.skip("ezcoref_gupta2023 not available")
    return path


@pytest.fixture(scope="module")
def ez_bench():
    return load_benchmark("ezcoref")


@pytest.fixture(scope="module")
def files(ez):
    return sorted(ez.rglob("*.json"))[:N]


@pytest.fixture(scope="module")
def out(ez_bench, ez):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ez_bench.run(ez, limit=N, n_resamples=200, seed=1)


@pytest.fixture(scope="module")
def anns(files):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return coref.read(files, input_format="ezcoref", clusters="last").data


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
    assert list(out["scores"]) == list(coref.SCORES)
    for sc in out["scores"].values():
        assert set(sc) == {"micro", "macro"} and 0 < sc["micro"]["f1"] <= 1
        assert 0 < sc["macro"]["f1"] <= 1 and 0 < sc["macro"]["pairs"] <= out["pairs"]
    assert out["conll"]["micro"] == pytest.approx(np.mean(
        [out["scores"][m]["micro"]["f1"] for m in ("muc", "b_cubed", "ceaf_e")]))
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
    """Micro: scorch on every (passage, pair) at once as one partition (mentions keyed by
    passage and pair: summed counts); macro: the mean of scorch's F1 over the (passage, pair)s
    where the score is defined (MUC: a link on either side)."""
    scorch = pytest.importorskip("scorch.scores")
    order = {a: i for i, a in enumerate(dict.fromkeys(a.annotator for a in anns))}
    by_doc = {}
    for a in sorted(anns, key=lambda a: order[a.annotator]):   # the key: the first given
        by_doc.setdefault(a.document.id, []).append(
            [{a.mentions[m].span for m in c.members} for c in a.chains])
    macro = {"muc": [], "b_cubed": []}
    whole: list[list] = [[], []]
    for d, parts in by_doc.items():
        for p, (k, r) in enumerate(combinations(parts, 2)):
            if any(len(c) > 1 for c in k + r):
                macro["muc"].append(scorch.muc(k, r)[2])
            macro["b_cubed"].append(scorch.b_cubed(k, r)[2])
            for side, part in zip(whole, (k, r), strict=True):
                side += [{(d, p, m) for m in c} for c in part]
    assert out["pairs"] == len(macro["b_cubed"])
    for m, fn in (("muc", scorch.muc), ("b_cubed", scorch.b_cubed)):
        micro = out["scores"][m]["micro"]
        assert [micro[k] for k in ("recall", "precision", "f1")] == pytest.approx(
            fn(*whole), abs=1e-12)
        assert out["scores"][m]["macro"]["f1"] == pytest.approx(np.mean(macro[m]), abs=1e-12)
        assert out["scores"][m]["macro"]["pairs"] == len(macro[m])


def test_cli_equals_benchmark(out, files, cli_json):
    cli = cli_json("coref", *files, "--clusters", "last")  # as the benchmark reads them
    assert cli["format"] == "ezcoref" and len(cli["documents"]) == N
    alpha = {r["distance"]: r["value"] for r in cli["coefficients"] if r["id"] == "alpha"}
    assert alpha == pytest.approx({r["distance"]: r["alpha"] for r in out["coefficients"]},
                                  abs=1e-12)
    for m in coref.SCORES:
        assert cli["scores"]["all_pairs"][m]["f1"] == pytest.approx(
            out["scores"][m]["micro"]["f1"], abs=1e-12)
    assert cli["options"]["reader_options"] == {"clusters": "last"}


def test_benchmark_cli_json(ez_bench, ez, capsys):
    assert ez_bench.main([str(ez), "--limit", "2", "--resamples", "20", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["passages"] == 2 and got["seconds"]["total"] > 0


def test_benchmark_text(ez_bench, ez, capsys):
    assert ez_bench.main([str(ez), "--limit", "2", "--resamples", "20"]) == 0
    text = capsys.readouterr().out
    assert "ezCoref: 2 passages" in text and "multi-κ" in text and "MUC" in text
    assert "micro F1" in text and "macro F1" in text and "CoNLL" in text
