"""NER-style agreement (SemEval-2013 Task 9.1 modes) against nervaluate, token κ against
scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest

from corpusagree.stats import nerscores as ns
from corpusagree.stats.coefficients import kappa

nervaluate = pytest.importorskip("nervaluate")

LABELS = ["PER", "LOC", "ORG"]


def _ours(true_docs, pred_docs, labels, min_overlap=1.0, per_label=None):
    """Counts and scores per mode, overall (and of one label), on nervaluate's entities."""
    def flat(docs):
        rows = [(d, e.start, e.end + 1, labels.index(e.label)) for d, doc in enumerate(docs)
                for e in doc if per_label is None or e.label == per_label]
        a = np.array(rows, dtype=np.int64).reshape(-1, 4)
        return a[:, 0], a[:, 1], a[:, 2], a[:, 3]
    gt, st, et, lt = flat(true_docs)
    gp, sp, ep, lp = flat(pred_docs)
    out = {}
    for mode in ns.MODES:
        m = ns.match(mode, gt, st, et, lt, gp, sp, ep, lp, min_overlap)
        c = ns.counts(m, gt, gp, max(len(true_docs), 1)).sum(axis=0)
        out[mode] = (c, ns.scores(c, mode))
    return out


def _check(ours, theirs):
    for mode, (c, s) in ours.items():
        r = theirs[mode]
        assert c.tolist() == [r.correct, r.incorrect, r.partial, r.missed, r.spurious], mode
        assert (int(s["possible"]), int(s["actual"])) == (r.possible, r.actual), mode
        for k in ("precision", "recall", "f1"):
            assert float(s[k]) == pytest.approx(getattr(r, k), abs=1e-12), (mode, k)


def _random_tags(rng, n):
    tags = rng.choice(["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"],
                      size=n)
    return tags.tolist()


@pytest.mark.parametrize("seed", range(12))
def test_bio_equals_nervaluate(seed):
    rng = np.random.default_rng(seed)
    docs = [int(rng.integers(1, 40)) for _ in range(int(rng.integers(1, 8)))]
    true = [_random_tags(rng, n) for n in docs]
    pred = [[t if rng.random() < 0.6 else s
             for t, s in zip(doc, _random_tags(rng, len(doc)), strict=True)] for doc in true]
    ev = nervaluate.Evaluator(true, pred, tags=LABELS, loader="list")
    res = ev.evaluate()
    _check(_ours(ev.true, ev.pred, LABELS), res["overall"])
    for label, modes in res["entities"].items():
        _check(_ours(ev.true, ev.pred, LABELS, per_label=label), modes)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("min_overlap", [1.0, 50.0])
def test_nested_spans_equal_nervaluate(seed, min_overlap):
    """Overlapping and nested spans (spans of brat, XMI …), many conflicts, in the order
    (document, start, end, type)."""
    rng = np.random.default_rng(100 + seed)

    def doc():
        n = int(rng.integers(0, 15))
        s = rng.integers(0, 30, n)
        rows = sorted({(int(a), int(a + rng.integers(0, 6)), str(rng.choice(LABELS)))
                       for a in s}, key=lambda r: (r[0], r[1], LABELS.index(r[2])))
        return [{"label": lab, "start": a, "end": b} for a, b, lab in rows]
    true = [doc() for _ in range(4)]
    pred = [doc() for _ in range(4)]
    ev = nervaluate.Evaluator(true, pred, tags=LABELS, loader="dict",
                              min_overlap_percentage=min_overlap)
    res = ev.evaluate()
    _check(_ours(ev.true, ev.pred, LABELS, min_overlap), res["overall"])
    for label, modes in res["entities"].items():
        _check(_ours(ev.true, ev.pred, LABELS, min_overlap, per_label=label), modes)


def test_written_example():
    """A written case: one exact match, a wrong type, a shifted boundary, a spurious span,
    a missed one (the example of nervaluate's README)."""
    true = [["O", "B-PER", "I-PER", "O", "B-LOC", "O", "B-ORG", "O", "B-PER", "O"]]
    pred = [["O", "B-PER", "I-PER", "O", "B-ORG", "O", "O", "B-ORG", "I-ORG", "B-LOC"]]
    ours = _ours(nervaluate.Evaluator(true, pred, LABELS, loader="list").true,
                 nervaluate.Evaluator(true, pred, LABELS, loader="list").pred, LABELS)
    assert ours["strict"][0].tolist() == [1, 2, 0, 1, 1]
    assert ours["partial"][0].tolist() == [2, 0, 1, 1, 1]
    assert ours["ent_type"][0].tolist() == [1, 2, 0, 1, 1]
    _check(ours, nervaluate.Evaluator(true, pred, LABELS, loader="list").evaluate()["overall"])


@pytest.mark.parametrize("seed", range(5))
def test_token_kappa_equals_sklearn(seed):
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(seed)
    offsets = np.array([0, 30, 55, 90])
    spans = []
    for _ in range(2):
        n = 12
        doc = rng.integers(0, 3, n)
        start = rng.integers(0, 25, n)
        end = start + rng.integers(1, 5, n)
        end = np.minimum(end, np.diff(offsets)[doc])
        spans.append(ns.token_labels(doc, start, end, rng.integers(0, 3, n), offsets))
    a, b = spans
    assert kappa(np.stack([a, b])).value == pytest.approx(metrics.cohen_kappa_score(a, b))
    any_ = (a > 0) | (b > 0)
    assert kappa(np.stack([a[any_], b[any_]])).value == pytest.approx(
        metrics.cohen_kappa_score(a[any_], b[any_]))


def test_token_labels_paint_the_spans():
    labels = ns.token_labels(np.array([0, 0, 1]), np.array([0, 2, 1]), np.array([2, 5, 2]),
                             np.array([0, 1, 2]), np.array([0, 6, 9]))
    assert labels.tolist() == [1, 1, 2, 2, 2, 0, 0, 3, 0]


def test_f1_by_mode_equals_scores_of_each_mode():
    """The bootstrap's F1 of every mode at once is scores()' F1 of each mode, zeros (0/0)
    included, to the last bit."""
    rng = np.random.default_rng(7)
    counts = rng.integers(0, 4, size=(50, 3, len(ns.MODES), len(ns.COUNTS)))
    counts[rng.random(counts.shape[:-1]) < 0.2] = 0
    got = ns.f1_by_mode(counts)
    for k, mode in enumerate(ns.MODES):
        assert np.array_equal(got[..., k], ns.scores(counts[..., k, :], mode)["f1"]), mode
