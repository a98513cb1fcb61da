"""NER-style agreement of the markables job: its counts equal nervaluate's on the same spans
(the sample MMAX2 corpus and random markables), its token κ scikit-learn's
``cohen_kappa_score``, it is the spans job's NER part on the same markables, and it only adds
to the report."""

from __future__ import annotations

import json

import numpy as np
import pytest

from corpusagree.analyses import markables as mk
from corpusagree.analyses import spans
from corpusagree.model.corpus import CorefAnnotation, Document, Mention
from corpusagree.report import json as report_json
from corpusagree.stats.inference import Bootstrap

from support import DATA, SAMPLES

nervaluate = pytest.importorskip("nervaluate")

MMAX2 = SAMPLES / "coref" / "mmax2"
FIXTURE = DATA / "markables" / "corpus"
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious")
TYPES = ["PER", "LOC", "ORG"]


def _spans(annotations, level, category="type"):
    """{(annotator, document): [(start, end, type), ...]} of one level, straight from the
    mentions (one span per fragment, end exclusive), in the order nervaluate takes them."""
    out: dict = {}
    for a in annotations:
        rows = out.setdefault((a.annotator, a.document.id), [])
        for m in a.mentions.values():
            if m.attrs.get("level", "markable") == level:
                rows += [(s, e, str(m.attrs.get(category, "mention"))) for s, e in m.fragments
                         if e > s]
    return out


def _check_pairs(report_level: dict, annotations, level: str, category: str = "type",
                 min_overlap: float = 1.0) -> int:
    """Each pair's counts and scores in the report equal nervaluate's (a the reference) on
    the documents both annotated, every type together and each type alone; the number of
    pairs checked."""
    spans_of = _spans(annotations, level, category)
    names = sorted({a for a, _ in spans_of})
    docs = sorted({d for _, d in spans_of})
    labels = sorted({t for rows in spans_of.values() for _, _, t in rows})
    rows = report_level["ner"]
    checked = 0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            both = [d for d in docs if (a, d) in spans_of and (b, d) in spans_of]

            def entities(x, both=both):
                return [[{"label": t, "start": s, "end": e - 1}
                         for s, e, t in sorted(spans_of[(x, d)],
                                               key=lambda u: (u[0], u[1], labels.index(u[2])))]
                        for d in both]
            res = nervaluate.Evaluator(entities(a), entities(b), tags=labels, loader="dict",
                                       min_overlap_percentage=min_overlap).evaluate()
            for mode, r in res["overall"].items():
                row = next(x for x in rows if x["over_pairs"] == "pair" and x["a"] == a
                           and x["b"] == b and x["over_types"] == "micro"
                           and x["mode"] == mode)
                assert [row[k] for k in COUNTS] == [r.correct, r.incorrect, r.partial,
                                                    r.missed, r.spurious], (a, b, mode)
                assert (row["possible"], row["actual"]) == (r.possible, r.actual)
                for k in ("precision", "recall", "f1"):
                    assert row[k] == pytest.approx(getattr(r, k), abs=1e-12), (a, b, mode, k)
            for label, modes in res["entities"].items():
                for mode, r in modes.items():
                    row = next((x for x in rows if x["over_pairs"] == "pair" and x["a"] == a
                                and x["b"] == b and x["label"] == label
                                and x["mode"] == mode), None)
                    if row is None:  # a type neither of the pair marked: not a row
                        assert r.possible == r.actual == 0
                        continue
                    assert [row[k] for k in COUNTS] == [r.correct, r.incorrect, r.partial,
                                                        r.missed, r.spurious], (label, mode)
                    assert row["f1"] == pytest.approx(r.f1, abs=1e-12)
            checked += 1
    return checked


def _token_kappas(annotations, level: str, category: str = "type") -> dict:
    """scikit-learn's κ of each pair on token labels (the innermost span's type, else O), on
    all tokens of the documents both annotated and on the tokens either marked."""
    from sklearn.metrics import cohen_kappa_score

    spans_of = _spans(annotations, level, category)
    length = {a.document.id: len(a.document.tokens) for a in annotations}
    names = sorted({a for a, _ in spans_of})

    def labels(x, d):
        out = ["O"] * length[d]
        # innermost wins: the latest start, then the shortest
        for s, e, t in sorted(spans_of[(x, d)], key=lambda r: (r[0], -r[1])):
            out[s:e] = [t] * (e - s)
        return out
    kappas = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            both = sorted(d for _, d in spans_of if (a, d) in spans_of and (b, d) in spans_of)
            la = [t for d in dict.fromkeys(both) for t in labels(a, d)]
            lb = [t for d in dict.fromkeys(both) for t in labels(b, d)]
            marked = [k for k, (x, y) in enumerate(zip(la, lb, strict=True))
                      if x != "O" or y != "O"]
            kappas[(a, b)] = (cohen_kappa_score(la, lb),
                              cohen_kappa_score([la[k] for k in marked],
                                                [lb[k] for k in marked]), len(la), len(marked))
    return kappas


def _as_json(report) -> dict:
    return json.loads(report_json.dumps(report))


# ---- the sample MMAX2 corpus ------------------------------------------------------------------
def test_sample_mmax2_equals_nervaluate_and_sklearn():
    corpus = mk.read(MMAX2)
    report = mk.analyse(corpus, bootstrap=Bootstrap(50, seed=2), disagreements=7)
    level = _as_json(report)["levels"][0]
    assert level["level"] == "coref"
    assert _check_pairs(level, corpus.data, "coref") == 3
    theirs = _token_kappas(corpus.data, "coref")
    for row in level["ner_tokens"]:
        k_all, k_marked, n, marked = theirs[(row["a"], row["b"])]
        assert (row["tokens"], row["marked"]) == (n, marked)
        assert row["kappa_all"] == pytest.approx(k_all, abs=1e-12)
        assert row["kappa_marked"] == pytest.approx(k_marked, abs=1e-12)
    micro = [x for x in level["ner"] if x["over_pairs"] == "micro" and x["over_types"] ==
             "micro"]
    for row in micro:  # the micro row sums the pairs; F1 has its interval over documents
        assert row["correct"] == sum(x["correct"] for x in level["ner"]
                                     if x["over_pairs"] == "pair" and x["mode"] == row["mode"]
                                     and x["over_types"] == "micro")
        assert row["interval"]["clustered"]
        assert row["interval"]["low"] <= row["f1"] <= row["interval"]["high"]
    listed = level["disagreements"]
    assert len(listed) == 7
    docs = [a.document.id for a in corpus.data]
    keys = [(sorted(set(docs)).index(x["document"]), (x["span_b"] or x["span_a"])["start"])
            for x in listed]
    assert keys == sorted(keys)
    # the designed disagreement of the sample: ann3 typed the engineers an organization
    assert any(x["outcome"] == "incorrect" and x["span_a"]["text"] == "the engineers"
               and x["span_b"]["category"] == "organization" for x in listed)


def test_same_as_the_spans_job_on_the_same_markables():
    """The markables job's NER part of a level is the spans job's on that level's markables
    (one shared implementation, the same continuum)."""
    ours = _as_json(mk.analyse(mk.read(MMAX2), levels=["coref"]))["levels"][0]
    theirs = _as_json(spans.analyse(spans.read(MMAX2, levels=["coref"]), measures=["ner"]))
    for key in ("ner", "ner_tokens", "disagreements"):
        assert ours[key] == theirs[key], key


def test_fixture_levels_category_and_degenerate_types():
    """The fixture's levels have no ``type``: one type, where strict = exact and the per-type
    rows are the all-types rows; a category attribute gives types (a markable without it
    is of type ``mention``, said in the notes)."""
    corpus = mk.read([FIXTURE])
    report = mk.analyse(corpus)
    out = _as_json(report)
    for level in out["levels"]:
        _check_pairs(level, corpus.data, level["level"])
        rows = [x for x in level["ner"] if x["over_pairs"] == "pair"]
        strict = [[x[k] for k in COUNTS] for x in rows if x["mode"] == "strict"]
        exact = [[x[k] for k in COUNTS] for x in rows if x["mode"] == "exact"]
        assert strict == exact and strict
        assert {x["label"] for x in rows} == {None, "mention"}
        assert all(x["kappa_marked"] <= 1e-12 for x in level["ner_tokens"])
    assert any(n.startswith("phrase NER: one type (mention): the NER modes' strict = exact")
               for n in report.notes)
    typed = mk.analyse(corpus, levels=["phrase"], category="polarity", min_overlap=50)
    level = _as_json(typed)["levels"][0]
    assert _check_pairs(level, corpus.data, "phrase", "polarity", 50) == 3
    assert {x["label"] for x in level["ner"]} - {None} >= {"positive", "negative"}
    assert not any("without attribute" in n for n in typed.notes)
    untyped = mk.analyse(corpus, levels=["phrase"], category="tone")
    assert any(n.startswith("phrase NER: ") and "without attribute 'tone'" in n
               for n in untyped.notes)
    assert {x["label"] for x in untyped.levels[0].ner.rows} == {None, "mention"}


@pytest.mark.filterwarnings("ignore::corpusagree.stats.coefficients.DegenerateWarning")
def test_potts_levels_equal_nervaluate_and_sklearn(corpora):
    """Real MMAX2 (the PotTS subset: 2 annotators, 8 documents, 7 levels, discontinuous
    markables): every level's counts equal nervaluate's and its token κ scikit-learn's."""
    corpus = mk.read(corpora / "potts_mmax2_subset" / "corpus")
    out = _as_json(mk.analyse(corpus))
    assert len(out["levels"]) == 7
    for level in out["levels"]:
        assert _check_pairs(level, corpus.data, level["level"]) == 1
        theirs = _token_kappas(corpus.data, level["level"])
        row = level["ner_tokens"][0]
        k_all, k_marked, n, marked = theirs[(row["a"], row["b"])]
        assert (row["tokens"], row["marked"]) == (n, marked)
        assert row["kappa_all"] == pytest.approx(k_all, abs=1e-12)
        assert row["kappa_marked"] == pytest.approx(k_marked, abs=1e-12)


@pytest.mark.filterwarnings("ignore::corpusagree.stats.coefficients.DegenerateWarning")
@pytest.mark.parametrize("seed", range(6))
def test_random_markables_equal_nervaluate(seed):
    """Random nested and overlapping markables of three annotators, one of whom lacks a
    document, two levels: every pair's counts equal nervaluate's, on each level."""
    rng = np.random.default_rng(seed)
    docs = [Document(f"d{k}", [f"w{i}" for i in range(int(rng.integers(5, 40)))])
            for k in range(int(rng.integers(2, 5)))]
    annotations = []
    for a in ("a1", "a2", "a3"):
        for d in docs:
            if a == "a3" and d is docs[-1]:
                continue
            mentions = {}
            for level in ("ent", "other"):
                for _ in range(int(rng.integers(0, 12))):
                    s = int(rng.integers(0, len(d.tokens)))
                    e = min(len(d.tokens), s + int(rng.integers(1, 5)))
                    mid = f"m{len(mentions)}"
                    mentions[mid] = Mention(mid, ((s, e),), attrs={
                        "level": level, "type": str(rng.choice(TYPES))})
            annotations.append(CorefAnnotation(d, a, mentions))
    report = mk.analyse(annotations, min_overlap=float(rng.choice([1.0, 40.0])))
    out = _as_json(report)
    for level in out["levels"]:
        assert _check_pairs(level, annotations, level["level"],
                            min_overlap=report.options["min_overlap"]) == 3


# ---- options and output ----------------------------------------------------------------------
def test_no_ner_is_the_report_before_it():
    """The NER part only adds: without it, the JSON is the same less the NER keys (the frozen
    outputs of tests/data/frozen stay as they are)."""
    corpus = mk.read(MMAX2)
    full = _as_json(mk.analyse(corpus, bootstrap=Bootstrap(30, seed=1)))
    bare = _as_json(mk.analyse(corpus, bootstrap=Bootstrap(30, seed=1), ner=False))
    for doc in (full, bare):
        doc.pop("corpusagree")
    assert all(not lv[k] for lv in bare["levels"]
               for k in ("ner", "ner_tokens", "disagreements"))
    assert all(lv["ner"] and lv["ner_tokens"] for lv in full["levels"])
    for doc in (full, bare):
        for k in ("ner", "category", "min_overlap", "disagreements"):
            doc["options"].pop(k)
        for lv in doc["levels"]:
            for k in ("ner", "ner_tokens", "disagreements"):
                lv.pop(k)
        doc["notes"] = [n for n in doc["notes"] if " NER: " not in n]
    assert full == bare


def test_command_line_options_and_renderings(cli, cli_json, tmp_path):
    doc = cli_json("markables", FIXTURE, "--levels", "phrase", "--category", "polarity",
                   "--min-overlap", "50", "--disagreements", "3")
    assert {k: doc["options"][k] for k in ("ner", "category", "min_overlap",
                                           "disagreements")} == \
        {"ner": True, "category": "polarity", "min_overlap": 50.0, "disagreements": 3}
    assert len(doc["levels"][0]["disagreements"]) == 3
    assert not cli_json("markables", FIXTURE, "--no-ner")["levels"][0]["ner"]
    status, out, err = cli("markables", MMAX2, "--format", "md")
    assert status == 0, err
    assert "NER-style agreement by annotator pair" in out and "| coref |" in out
    status, _, err = cli("markables", MMAX2, "--format", "csv", "--output", f"{tmp_path}/")
    assert status == 0, err
    assert {"ner.csv", "ner_labels.csv", "ner_tokens.csv", "disagreements.csv"} <= {
        p.name for p in tmp_path.iterdir()}
    assert (tmp_path / "ner.csv").read_text().splitlines()[0].startswith("level,")
    html = mk.analyse(mk.read(MMAX2))._repr_html_()
    assert "The first disagreements (strict)" in html and "Token-level agreement" in html
    status, _, err = cli("markables", MMAX2, "--min-overlap", "0")
    assert status == 2 and "--min-overlap" in err
