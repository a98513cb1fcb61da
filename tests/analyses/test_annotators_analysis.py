"""The ``annotators`` job: its figures are the models', the alt-test's and α's of the same
data; a gold standard is a coder or a column; intervals refit the models on each replicate;
bad input is an InputError naming the file."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import corpusagree as ca
import corpusagree.annotators as an
from corpusagree import InputError
from corpusagree.analyses import annotators, table
from corpusagree.stats import diagnostics
from corpusagree.stats.annotators.annotations import Annotations
from corpusagree.stats.inference import Bootstrap, bootstrap, refit_bootstrap

from support import SAMPLES, write

GOLD_CSV = """document,item,coder,label,gold
d1,i1,ann,x,x
d1,i1,bob,x,x
d1,i1,cat,y,x
d1,i2,ann,y,y
d1,i2,bob,y,y
d1,i2,cat,y,y
d2,i3,ann,x,
d2,i3,bob,y,
d2,i3,cat,y,
d2,i4,ann,z,x
d2,i4,bob,x,x
"""


@pytest.fixture(scope="module")
def dialogue():
    return annotators.read(SAMPLES / "table" / "dialogue_acts.csv", group="document")


def test_defaults_are_the_models_on_the_data(dialogue) -> None:
    report = annotators.analyse(dialogue)
    assert report.job == "annotators" and report.inputs == dialogue.inputs
    assert list(report.tables) == ["models", "reliability", "agreement", "labels", "confusion"]
    data = dialogue.data
    for m in report.models:
        ref = an.MODELS[m.id](data, **({"seed": 0} if m.id == "mace" else {}))
        assert np.array_equal(m.result.skill_values, ref.skill_values, equal_nan=True), m.id
        assert m.gold_accuracy is None and m.intervals is None
    frame = report.to_frame("reliability")
    assert list(frame["annotator"]) == ["ann", "bob", "cat", "dan"]
    assert frame["dawid_skene"].tolist() == pytest.approx(
        list(an.dawid_skene(data).skill.values()))
    # the agreement of two models' labels is the share of items where they are equal
    mv, ds = report.model("majority_vote").result, report.model("dawid_skene").result
    assert report.agreement["MV", "DS"] == pytest.approx(np.mean(mv.codes == ds.codes))
    assert report.agreement.names[:2] == ["MV", "Wawa"]
    labels = report.to_frame("labels")
    assert list(labels.columns) == ["item", *an.MODELS] and len(labels) == data.n_items
    doc = json.loads(report.to_json())
    assert doc["job"] == "annotators" and len(doc["labels"]) == data.n_items
    assert set(doc["confusion"]["annotators"]) == {"ann", "bob", "cat", "dan"}
    assert [p.kind for p in report.plots()] == ["bars", "confusion", "confusion", "confusion"]


def test_gold_coder_is_left_out_and_scores_the_models(dialogue) -> None:
    report = annotators.analyse(dialogue, gold="ann", models=["majority_vote", "dawid_skene"])
    data = dialogue.data
    humans = data.subset(coders=[1, 2, 3])
    ds = an.dawid_skene(humans)
    assert report.annotators == ["bob", "cat", "dan"]
    assert report.model("dawid_skene").result.skill_values.tolist() == \
        pytest.approx(ds.skill_values.tolist())
    gold = data.codes[0]
    ds_codes = np.array([data.labels.index(ds.labels[i]) for i in data.items])
    both = gold >= 0
    assert report.model("dawid_skene").gold_accuracy == \
        pytest.approx(np.mean(ds_codes[both] == gold[both]))
    rel = report.to_frame("reliability").set_index("annotator")
    bob = (data.codes[1] == gold) & (data.codes[1] >= 0) & both
    assert rel.loc["bob", "gold_accuracy"] == \
        pytest.approx(bob.sum() / ((data.codes[1] >= 0) & both).sum())
    assert "ann: the gold standard, left out of the models" in report.notes


def test_gold_column(tmp_path) -> None:
    f = write(tmp_path, "gold.csv", GOLD_CSV)
    corpus = annotators.read(f, group="document", gold="gold")
    assert corpus.annotators == ["ann", "bob", "cat", "gold"]
    assert corpus.reader_options["gold"] == "gold"
    report = annotators.analyse(corpus, models=["majority_vote"])
    # MV: i1 x, i2 y, i3 y, i4 x (tie x/z: the smallest); gold on i1, i2, i4: all right
    assert report.model("majority_vote").gold_accuracy == 1.0
    assert [r["gold"] for r in report.item_labels] == ["x", "y", None, "x"]
    rel = report.to_frame("reliability").set_index("annotator")
    assert rel.loc["cat", "gold_accuracy"] == pytest.approx(1 / 2)
    assert rel.loc["ann", "gold_accuracy"] == pytest.approx(2 / 3)


def test_gold_errors(tmp_path) -> None:
    f = write(tmp_path, "g.csv", GOLD_CSV.replace("d1,i2,cat,y,y", "d1,i2,cat,y,x"))
    with pytest.raises(InputError, match=r"g.csv:7: item 'i2' has gold 'y' and 'x'"):
        annotators.read(f, gold="gold")
    with pytest.raises(InputError, match="neither a coder .* nor a column"):
        annotators.read(f, gold="expert")
    wide = write(tmp_path, "w.csv", "coder,i1,i2\na,x,y\nb,x,x\n")
    with pytest.raises(InputError, match="no such coder"):
        annotators.read(wide, gold="gold")
    assert annotators.read(wide, gold="b").reader_options["gold"] == "b"


def test_candidates_alt_test_and_alpha(dialogue) -> None:
    report = annotators.analyse(dialogue, candidates=["dan"], epsilon=0.1, fdr=0.1)
    (c,) = report.candidates
    data = dialogue.data
    sub = data.subset(coders=[0, 1, 2, 3])
    ref = an.alt_test(sub, "dan", epsilon=0.1, fdr=0.1)
    assert c.test.winning_rate == ref.winning_rate and c.test.p_values == ref.p_values
    assert c.alpha_humans == pytest.approx(float(ca.alpha(data.subset(coders=[0, 1, 2]))))
    assert c.alpha_with == pytest.approx(float(ca.alpha(sub)))
    _, pairs = diagnostics.pairwise(sub)
    assert c.pairwise == {h: pytest.approx(pairs["dan", h]) for h in ("ann", "bob", "cat")}
    assert c.human_pairwise == pytest.approx(np.mean([pairs["ann", "bob"], pairs["ann", "cat"],
                                                      pairs["bob", "cat"]]))
    assert report.annotators == ["ann", "bob", "cat"]
    assert {"alt_test", "alt_test_humans"} <= set(report.tables)
    humans = report.to_frame("alt_test_humans")
    assert list(humans["human"]) == ["ann", "bob", "cat"]
    # the candidate beside the models in the agreement of labels
    assert report.agreement.names[-1] == "dan"


def test_candidate_against_the_gold(dialogue) -> None:
    report = annotators.analyse(dialogue, gold="ann", candidates=["dan"],
                                models=["majority_vote"])
    data = dialogue.data
    both = (data.codes[0] >= 0) & (data.codes[3] >= 0)
    expected = np.mean(data.codes[0][both] == data.codes[3][both])
    assert report.candidates[0].gold_accuracy == pytest.approx(expected)
    assert report.to_frame("alt_test")["gold_accuracy"].tolist() == pytest.approx([expected])


def test_intervals_refit_the_models_on_each_replicate(dialogue) -> None:
    settings = Bootstrap(40, seed=3)
    report = annotators.analyse(dialogue, models=["majority_vote", "dawid_skene"],
                                bootstrap=settings)
    m = report.model("dawid_skene")
    assert len(m.intervals) == 4 and all(iv.clustered and iv.units == 6 for iv in m.intervals)
    # the same replicates as the refit bootstrap of the skills, made by hand
    ann = Annotations.from_data(dialogue.data)
    ivs = refit_bootstrap(lambda w: an.dawid_skene(ann.reweighted(w)).skill_values,
                          dialogue.data.groups, settings,
                          [("dawid_skene", a) for a in dialogue.data.coders], clustered=True)
    for a, b in zip(m.intervals, ivs, strict=True):
        assert (a.low, a.high) == (b.low, b.high) and a.estimate == b.estimate
    again = annotators.analyse(dialogue, models=["majority_vote", "dawid_skene"],
                               bootstrap=settings)
    assert again.model("dawid_skene").intervals[0].low == m.intervals[0].low
    frame = report.to_frame("reliability")
    assert {"dawid_skene_interval_low", "dawid_skene_interval_high"} <= set(frame.columns)
    bars = report.plots()[0]
    assert bars.kind == "bars" and all(x is not None for x in bars.data["low"])


def test_refit_bootstrap_draws_the_replicates_of_the_kernel_bootstrap(dialogue) -> None:
    """A statistic refitted on the items drawn equals the kernel bootstrap's replicate: the
    percent agreement, on the same seed, gives the same distribution."""
    data = dialogue.data
    settings = Bootstrap(60, seed=5, cluster=False)
    (kernel,) = bootstrap(data, [("percent_agreement", "nominal")], settings)

    def agreement(w: np.ndarray) -> np.ndarray:
        drawn = np.repeat(np.arange(data.n_items), w.astype(int))
        return np.array([ca.percent_agreement(data.subset(items=drawn)).value])

    (refit,) = refit_bootstrap(agreement, np.arange(data.n_items), settings,
                               [("percent_agreement", "nominal")], clustered=False)
    assert np.allclose(refit.distribution, kernel.distribution)
    assert (refit.low, refit.high) == pytest.approx((kernel.low, kernel.high))
    bca = refit_bootstrap(agreement, np.arange(data.n_items), Bootstrap(60, seed=5,
                          interval="bca", cluster=False), [("percent_agreement", "")],
                          clustered=False)[0]
    assert bca.method == "bootstrap BCa" and bca.low <= bca.estimate <= bca.high


def test_by_document_and_diagnostics(tmp_path, dialogue) -> None:
    report = annotators.analyse(dialogue, gold="ann", by_document=True, diagnostics=4,
                                models=["majority_vote", "dawid_skene"])
    docs = report.to_frame("by_document")
    assert len(docs) == 6 and docs["items"].sum() == dialogue.data.n_items
    humans = dialogue.data.subset(coders=[1, 2, 3])
    first = humans.subset(items=humans.groups == 0, compact=True)
    assert docs.loc[0, "alpha"] == pytest.approx(float(ca.alpha(first)))
    disputed = report.to_frame("disputed")
    assert len(disputed) == 4 and disputed["confidence"].is_monotonic_increasing
    ds = report.model("dawid_skene").result
    assert disputed["confidence"].iloc[0] == pytest.approx(
        np.nanmin(ds.posterior[np.arange(ds.posterior.shape[0]), np.maximum(ds.codes, 0)]))
    plain = annotators.analyse(annotators.read(write(tmp_path, "g.csv", GOLD_CSV)),
                               by_document=True, models=["majority_vote"])
    assert plain.by_document is None and any("no documents" in n for n in plain.notes)


def test_bad_input_names_the_file(tmp_path, dialogue) -> None:
    with pytest.raises(InputError, match="dialogue_acts.csv: no candidate 'zed'"):
        annotators.analyse(dialogue, candidates=["zed"])
    with pytest.raises(InputError, match="unknown model"):
        annotators.analyse(dialogue, models=["dawid"])
    with pytest.raises(InputError, match="at least 2 annotators besides the gold and the "
                       "candidates; left: dan"):
        annotators.analyse(dialogue, gold="ann", candidates=["bob", "cat"])
    few = annotators.analyse(table.read(write_few(tmp_path)), candidates=["dan"])
    humans = few.to_frame("alt_test_humans")  # below 30 items: Wilcoxon's test (issue 34)
    assert humans["test"].tolist() == ["wilcoxon"] * 3 and humans["p_adjusted"].notna().all()
    with pytest.raises(TypeError, match="annotators.analyse takes the Corpus"):
        annotators.analyse([1, 2])


def write_few(folder):
    """4 coders × 12 items: too few for the alt-test's t-test."""
    rows = ["coder,item,label"] + [f"{c},i{k},{'xy'[(k + n) % 2]}" for k in range(12)
                                   for n, c in enumerate(["ann", "bob", "cat", "dan"])]
    return write(folder, "few.csv", "\n".join(rows) + "\n")


def test_table_corpora_and_reliability_data_are_taken(dialogue) -> None:
    a = annotators.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv"),
                           models=["wawa"])
    b = annotators.analyse(dialogue.data, models=["wawa"])
    assert a.model("wawa").result.skill == b.model("wawa").result.skill


@pytest.mark.parametrize("task", ["rte", "temp", "wsd"])
def test_snow2008_gold_column(corpora, task) -> None:
    """Snow et al.'s crowd tasks with their gold column: the job's accuracies are the
    benchmark's (benchmarks/snow2008_models.py)."""
    from support import load_benchmark

    path = corpora / "snow2008_mturk" / f"{task}.standardized.tsv"
    corpus = annotators.read(path, coder="!amt_worker_ids", item="orig_id", label="response",
                             gold="gold")
    report = annotators.analyse(corpus, models=["majority_vote", "dawid_skene"])
    bench = load_benchmark("snow2008_models")
    triples, gold = bench.read(path)
    expected = bench.ours(triples, gold)["models"]
    for m in report.models:
        assert m.gold_accuracy == pytest.approx(expected[m.id]["accuracy"])
    assert not math.isnan(report.model("dawid_skene").result.log_likelihood)
