"""The benchmarks of the models of the annotators on small inputs.

* ``benchmarks/annotators_scale.py`` on 3,000 items: the generated judgements are what the
  docstring says (distinct annotators per item), every model runs and beats chance, and its
  figures come out as JSON.
* ``benchmarks/snow2008_models.py`` on Snow et al.'s (2008) crowd tasks (skipped when the
  corpus is absent): each model's accuracy against the gold column, the majority vote's equal
  to a plain count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from support import CORPORA, ROOT, load_benchmark

BENCHMARKS = ROOT / "benchmarks"
SNOW = CORPORA / "snow2008_mturk"


def test_scale_data_and_figures() -> None:
    bench = load_benchmark("annotators_scale")
    codes, truth, prevalence = bench.make(3000, 5, 200, 4)
    judged = codes >= 0
    assert (judged.sum(0) == 5).all() and judged.sum() == 15000
    assert np.isclose(prevalence.sum(), 1) and truth.max() == 3
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "annotators_scale.py"), "--items",
                           "3000", "--per-item", "5", "--annotators", "50", "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["judgements"] == 15000 and out["dawid_skene_converged"]
    assert set(out["accuracy"]) == {"majority_vote", "wawa", "dawid_skene", "one_coin", "glad",
                                    "mace"}
    assert min(out["accuracy"].values()) > 0.8
    assert out["accuracy"]["dawid_skene"] >= out["accuracy"]["majority_vote"] - 0.01


@pytest.mark.skipif(not SNOW.exists(), reason="the Snow et al. corpus is absent")
def test_snow2008_models() -> None:
    bench = load_benchmark("snow2008_models")
    out = bench.measure(SNOW, None)
    for task, res in out["tasks"].items():
        triples, gold = bench.read(SNOW / f"{task}.standardized.tsv")
        votes: dict = {}
        for _, item, label in triples:
            votes.setdefault(item, Counter())[label] += 1
        # the majority label, ties to the smallest label
        mv = {i: min(c, key=lambda v: (-c[v], v)) for i, c in votes.items()}
        plain = np.mean([mv[i] == g for i, g in gold.items()])
        assert res["models"]["majority_vote"]["accuracy"] == pytest.approx(plain)
        assert res["items"] == len(gold) and res["judgements"] == 10 * len(gold)
        for name, model in res["models"].items():
            assert model["accuracy"] > 0.9, (task, name)
    assert out["tasks"]["rte"]["models"]["dawid_skene"]["accuracy"] > \
        out["tasks"]["rte"]["models"]["majority_vote"]["accuracy"]
