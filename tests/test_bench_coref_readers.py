"""benchmarks/coref_readers.py on 5 documents: the generated brat and CoNLL-2012 files read back
as the generated mentions and chains, both formats score identically, output is deterministic."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "coref_readers.py"
spec = importlib.util.spec_from_file_location("coref_readers", SCRIPT)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def partition(ann) -> set[frozenset]:
    """An annotation's chains as sets of spans."""
    return {frozenset(ann.mentions[m].span for m in c.members) for c in ann.chains}


def expected(corpus, d: int, a: int) -> set[frozenset]:
    chains: dict[int, set] = {}
    for s, e, ent in corpus[d][1][a]:
        chains.setdefault(ent, set()).add(((s, e),))
    return {frozenset(c) for c in chains.values()}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    root = tmp_path_factory.mktemp("bench")
    corpus = bench.generate(5, 3, 100, seed=7)
    return corpus, bench.write_brat(corpus, root / "brat"), \
        bench.write_conll(corpus, root / "conll2012")


def test_formats_read_back_as_generated(written):
    corpus, brat_dirs, conll_files = written
    n_tokens = sum(len(s) for s in corpus[0][0])
    for anns, suffix in ((bench.brat.read(brat_dirs), ""),
                         (bench.conll2012.read(conll_files), "_000")):
        assert len(anns) == 15
        by = {(x.annotator, x.document.id): x for x in anns}
        for d in range(5):
            for a in range(3):
                ann = by[(f"ann{a + 1}", f"doc{d:04d}{suffix}")]
                assert len(ann.document.tokens) == n_tokens
                assert len(ann.document.sentence_starts) == len(corpus[d][0])
                assert len(ann.mentions) == len(corpus[d][1][a])
                assert partition(ann) == expected(corpus, d, a)


def test_generator_shape_and_determinism(written):
    corpus, brat_dirs, _ = written
    per = [len(m) for _, per_ann in corpus for m in per_ann]
    assert 90 <= sum(per) / len(per) <= 110
    assert any(e - s > 1 for _, pa in corpus for m in pa for s, e, _ in m)  # multi-token
    nested = [(s, e) for _, pa in corpus for m in pa for s, e, _ in m
              if any(s2 < s and e2 == e for s2, e2, _ in m)]
    assert nested
    # the annotators disagree, but not much
    assert corpus[0][1][0] != corpus[0][1][1]
    again = bench.generate(5, 3, 100, seed=7)
    assert again == corpus
    assert bench.generate(5, 3, 100, seed=8) != corpus


def test_run_tiny_both_formats_score_the_same(tmp_path):
    out = bench.run(5, 3, 100, seed=0, distance="jaccard", root=tmp_path)
    assert out["documents"] == 5 and set(out["read"]) == {"brat", "conll2012"}
    b, c = out["score"]["brat"], out["score"]["conll2012"]
    assert b["items"] == c["items"] > 0
    assert abs(b["alpha"] - c["alpha"]) <= 1e-12 and abs(b["beta"] - c["beta"]) <= 1e-12
    assert 0.3 < b["alpha"] < 0.95
    for r in out["read"].values():
        assert r["annotations"] == 15 and r["mentions"] == out["mentions"]
        assert r["documents_per_second"] > 0


def test_script_json():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--docs", "5", "--json"],
                          capture_output=True, text=True, check=True, timeout=120)
    out = json.loads(proc.stdout)
    assert out["documents"] == 5 and out["distance"] == "passonneau"
    assert out["score"]["brat"]["alpha"] == pytest.approx(out["score"]["conll2012"]["alpha"],
                                                          abs=1e-12)
