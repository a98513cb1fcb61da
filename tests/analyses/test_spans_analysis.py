"""The spans job through its Python API: continua of the sample corpora, the measures equal the
stats functions, the best alignment by pair, the costliest units with their text."""

import numpy as np
import pytest

from corpusagree import unitizing as u
from corpusagree.analyses import spans
from corpusagree.model.continuum import Continuum
from corpusagree.model.errors import InputError


@pytest.fixture(scope="module")
def conll(samples):
    paths = [samples / "coref" / "conll2012" / f"ann{k}.v4_gold_conll" for k in (1, 2, 3)]
    return spans.read(paths)


def test_read_recognises_span_and_segment_formats(conll, samples):
    assert conll.format == "conll" and len(conll.documents) == 5
    assert conll.texts is not None and set(conll.texts) == set(conll.documents)
    segs = spans.read([samples / "segments" / "segments.json"])
    assert segs.format == "segeval"
    c, notes = segs.data, segs.notes
    assert c.categories == ["segment"]
    assert "the segments job gives agreement on boundaries" in notes[0]
    with pytest.raises(InputError, match="unknown span format 'nope'"):
        spans.read([samples / "segments" / "segments.json"], input_format="nope")


def test_report_equals_the_measures(conll):
    c = conll.data
    report = spans.analyse(conll, n_samples=20, seed=3, diagnostics=4)
    g = u.gamma(c, n_samples=20, seed=3)
    assert report.gamma.value == g.value and report.gamma.alignment.disorder == g.alignment.disorder
    rows = {(r["variant"], r["category"]): r for r in report.alpha_u}
    row = rows[("1995", "mention")]
    try:
        one = u.alpha_u(c, variant="1995", category="mention")
    except InputError as e:  # nested mentions: the 1995 α_u needs non-overlapping units
        assert np.isnan(row["value"]) and row["reason"] == str(e)
    else:
        assert row["value"] == one.value
    d = report.to_dict()
    assert d["job"] == "spans" and d["data"]["units"] == len(c)
    assert len(d["costliest"]) == 4 and d["costliest"][0]["disorder"] >= d["costliest"][-1][
        "disorder"]
    shown = [x for r in d["costliest"] for x in r["units"] if x]
    assert all(x["text"] for x in shown)


def test_pair_summary_counts_matches_and_misses():
    c = Continuum.from_units([("a", 0, 5, "X"), ("b", 0, 5, "X"), ("a", 10, 20, "X"),
                              ("b", 10, 14, "X"), ("b", 15, 20, "X"), ("a", 30, 35, "X")],
                             end=40)
    report = spans.analyse(c, measures=["gamma"], n_samples=10)
    [p] = report.pairs
    assert (p.a, p.b) == ("a", "b")
    assert p.split_a == 1 and p.split_b == 0  # a's 10–20 meets b's 10–14 and 15–20
    assert p.matched + p.only_a == 3 and p.matched + p.only_b == 3
    assert p.only_a >= 1  # a's 30–35 is aligned with nothing of b


def test_nested_mentions_are_no_split():
    """b's mention 0–10 with nested 0–3 and 5–10 covers a's 0–10: no split; a's 20–30 that b
    marks as 20–24 and 24–30 is split, also across documents laid end to end."""
    units = [("a", 0, 10, "X"), ("b", 0, 10, "X"), ("b", 0, 3, "X"), ("b", 5, 10, "X"),
             ("a", 20, 30, "X"), ("b", 20, 24, "X"), ("b", 24, 30, "X"), ("a", 40, 50, "X"),
             ("b", 38, 45, "X"), ("b", 41, 44, "X")]
    one = Continuum.from_units(units, end=60, document="d1")
    two = Continuum.from_units([("a", 0, 10, "X"), ("b", 0, 4, "X"), ("b", 6, 10, "X")],
                               end=10, document="d2")
    c = Continuum.join([one, two])
    assert spans._split(c, 0, 1).tolist() == [False, True, False, True]
    assert not spans._split(c, 1, 0).any()


def test_position_only_gamma_merges_categories():
    c = Continuum.from_units([("a", 0, 5, "X"), ("b", 0, 5, "Y"), ("a", 10, 20, "X"),
                              ("b", 10, 20, "X")], end=30)
    report = spans.analyse(c, measures=["gamma"], n_samples=10)
    assert report.gamma_positions is not None
    assert report.gamma_positions.observed_disorder == 0.0
    assert report.gamma.observed_disorder > 0


def test_one_annotator_is_an_error():
    c = Continuum.from_units([("a", 0, 5, "X")])
    with pytest.raises(InputError, match="two or more annotators; found 1"):
        spans.analyse(c)


def test_plots_hold_the_bootstrap_of_the_first_defined_alpha_u(samples):
    """With intervals the page draws uα's bootstrap distribution over documents (the segments
    sample: uα (1995) is the first overall uα that is defined)."""
    from corpusagree.stats.inference import Bootstrap

    segs = spans.read([samples / "segments" / "segments.json"])
    c = segs.data
    report = spans.analyse(segs, n_samples=5, bootstrap=Bootstrap(200, seed=1))
    boot = [p for p in report.plots() if p.kind == "bootstrap"]
    assert len(boot) == 1 and boot[0].data["label"] == "uα (1995)"
    row = next(r for r in report.alpha_u if r["variant"] == "1995" and r["category"] is None)
    assert boot[0].data["estimate"] == row["value"]
    assert (boot[0].data["low"], boot[0].data["high"]) == (row["interval"]["low"],
                                                           row["interval"]["high"])
    assert len(boot[0].data["distribution"]) == 200
    assert not [p for p in spans.analyse(c, n_samples=5).plots() if p.kind == "bootstrap"]


def _corpus(docs: int = 12) -> Continuum:
    """``docs`` documents of two annotators who place one unit of the same category a little
    apart (by 0 to 2 positions), and a third who marks one of two units."""
    rng = np.random.default_rng(5)
    parts = []
    for d in range(docs):
        s = int(rng.integers(0, 10))
        units = [("a", s, s + 6, "X"), ("b", s + int(rng.integers(0, 3)), s + 6, "X"),
                 ("a", 30, 36, "Y"), ("c", 30 + int(rng.integers(0, 4)), 37, "Y")]
        parts.append(Continuum.from_units(units, 0, 50, document=f"d{d}"))
    return Continuum.join(parts)


def test_bca_is_computed_and_recorded_as_bca():
    """--interval bca gives uα's BCa intervals (jackknife over documents), which differ from
    the percentile ones on the same replicates; every interval records the method computed;
    γ's interval stays the sampling interval of its expected disorder, with a note."""
    from corpusagree.stats.inference import Bootstrap

    c = _corpus()
    runs = {m: spans.analyse(c, n_samples=5, bootstrap=Bootstrap(300, interval=m, seed=2))
            for m in ("percentile", "bca")}
    rows = {m: [r for r in rep.alpha_u if r["interval"]] for m, rep in runs.items()}
    assert len(rows["bca"]) == len(rows["percentile"]) >= 4
    for p, b in zip(rows["percentile"], rows["bca"], strict=True):
        assert p["interval"]["method"] == "bootstrap percentile"
        assert b["interval"]["method"] == "bootstrap BCa"
    assert any((p["interval"]["low"], p["interval"]["high"]) !=
               (b["interval"]["low"], b["interval"]["high"])
               for p, b in zip(rows["percentile"], rows["bca"], strict=True))
    doc = runs["bca"].to_dict()
    assert doc["gamma"]["interval"]["method"] == "sampled continua (statistical)"
    assert any("not a bootstrap" in n for n in doc["notes"])
    with pytest.raises(InputError, match="γ has no bca interval"):
        runs["bca"].gamma.confidence_interval(method="bca")


def test_progress_counts_replicates_and_sampled_continua():
    """The bar's steps: every uα bootstrap's replicates in chunks of at most 5 %, then γ's
    sampled continua (done / total as γ learns it), then the position-only γ's."""
    from corpusagree.stats.inference import Bootstrap

    c = _corpus(10)
    seen: list[tuple[int, int]] = []
    spans.analyse(c, n_samples=7, bootstrap=Bootstrap(100, seed=0),
                  progress=lambda d, t: seen.append((d, t)))
    rows = len(spans.OVERALL) + 2 * len(c.categories)
    total = rows * 100 + 7 + 7
    assert seen[-1] == (total, total) and all(t == total for _, t in seen)
    done = [d for d, _ in seen]
    assert done == sorted(done) and max(np.diff([0] + done)) <= 7
    assert len(seen) >= rows * 20
    seen.clear()
    spans.analyse(c, measures=["gamma"], progress=lambda d, t: seen.append((d, t)))
    # the first 30 samples of the planned 30 + 30 (in batches), then the precision rule asked
    # for more
    first = seen.index((30, 60))
    assert all(t == 60 for _, t in seen[:first + 1]) and seen[first + 1][1] > 60
    assert seen[-1][0] == seen[-1][1] and [d for d, _ in seen] == sorted(d for d, _ in seen)


# ---- NER-style agreement ----------------------------------------------------------------------
def test_ner_rows_equal_nervaluate_on_each_pair():
    """Each pair's counts in the report equal nervaluate's on the same spans (a as the
    reference), overall and per type; the micro row sums the pairs."""
    nervaluate = pytest.importorskip("nervaluate")
    from corpusagree.analyses import spans
    from corpusagree.stats.inference import Bootstrap
    corpus = spans.read("sample_corpora/coref/brat")
    c = corpus.data
    report = spans.analyse(corpus, measures=["ner"], bootstrap=Bootstrap(30, seed=1),
                           disagreements=5)
    rows = report.ner
    for a, b in [(0, 1), (0, 2), (1, 2)]:
        def docs(x):
            out = []
            for d in range(len(c.documents)):
                sel = np.flatnonzero((c.annotator == x) & (c.doc == d))
                sel = sel[np.lexsort((c.category[sel], c.end[sel], c.start[sel]))]
                out.append([{"label": c.categories[c.category[u]], "start": int(c.start[u]),
                             "end": int(c.end[u]) - 1} for u in sel])
            return out
        res = nervaluate.Evaluator(docs(a), docs(b), tags=list(c.categories),
                                   loader="dict").evaluate()
        for mode, r in res["overall"].items():
            row = next(x for x in rows if x["over_pairs"] == "pair"
                       and x["a"] == c.annotators[a] and x["b"] == c.annotators[b]
                       and x["over_types"] == "micro" and x["mode"] == mode)
            assert [row[k] for k in ("correct", "incorrect", "partial", "missed",
                                     "spurious")] == [r.correct, r.incorrect, r.partial,
                                                      r.missed, r.spurious]
            assert row["f1"] == pytest.approx(r.f1)
            assert row["interval"]["low"] <= row["f1"] <= row["interval"]["high"]
        for label, modes in res["entities"].items():
            for mode, r in modes.items():
                row = next(x for x in rows if x["over_pairs"] == "pair"
                           and x["a"] == c.annotators[a] and x["b"] == c.annotators[b]
                           and x["label"] == label and x["mode"] == mode)
                assert (row["correct"], row["missed"], row["spurious"]) == \
                    (r.correct, r.missed, r.spurious)
    micro = next(x for x in rows if x["over_pairs"] == "micro" and x["over_types"] ==
                 "micro" and x["mode"] == "strict")
    assert micro["correct"] == sum(x["correct"] for x in rows if x["over_pairs"] == "pair"
                                   and x["over_types"] == "micro" and x["mode"] == "strict")
    listed = report.disagreements
    assert 0 < len(listed) <= 5
    keys = [(c.documents.index(x["document"]), (x["span_b"] or x["span_a"])["start"])
            for x in listed]
    assert keys == sorted(keys)
    assert {"ner", "ner_labels", "ner_tokens", "disagreements"} <= set(report.tables)
    assert "The first disagreements (strict)" in report._repr_html_()
