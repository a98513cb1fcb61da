"""Markable agreement through the Python API.

Expected figures are worked out by hand for the fixture (tests/data/markables/corpus: three
annotators, a3 lacks d2) and recomputed independently (lxml + krippendorff + plain Python)
for the PotTS subset (real MMAX2: 2 annotators, 8 documents, 7 levels).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import krippendorff
import numpy as np
import pytest
from lxml import etree

from corpusagree.analyses import markables as mk
from corpusagree.model.errors import InputError
from corpusagree.readers import discover
from corpusagree.report import json as report_json
from corpusagree.stats.inference import Bootstrap

from support import DATA

FIXTURE = DATA / "markables" / "corpus"
LEVELS = ["negation", "diminisher", "intensifier", "emo-expression", "source", "target",
          "sentiment"]


def as_json(report) -> dict:
    """The report as its JSON (nan as null)."""
    return json.loads(report_json.dumps(report))


def analyse(*paths, levels=None, **options) -> dict:
    return as_json(mk.analyse(mk.read(list(paths), levels=levels), levels=levels,
                              **options))


def coefficient(family: dict, id: str) -> float | None:
    return next(c["value"] for c in family["coefficients"] if c["id"] == id)


def pairs(level: dict) -> dict:
    return {(p["a"], p["b"]): p for p in level["span_f1"]["pairs"]}


def nominal_alpha(columns: list[list]) -> float:
    """krippendorff.alpha over items given as lists of labels (None = missing)."""
    labels = sorted({v for c in columns for v in c if v is not None})
    m = np.array([[np.nan if v is None else labels.index(v) for v in c] for c in columns]).T
    return krippendorff.alpha(reliability_data=m, level_of_measurement="nominal")


def cohen(a: list, b: list) -> float:
    """Cohen's κ by its definition, for two equally long label lists."""
    n = len(a)
    ao = sum(x == y for x, y in zip(a, b, strict=True)) / n
    ca, cb = Counter(a), Counter(b)
    ae = sum(ca[k] * cb[k] for k in ca) / n ** 2
    return (ao - ae) / (1 - ae)


# ---- the fixture, by hand ------------------------------------------------------------------------
# phrase markables (tokens): d1 a1 {0} {2,3,4} {7,8,9} {2,4}; a2 {0} {2,3,4} {8,9} {2,4};
# a3 {0} {2,3,4} {2,4} {5}; d2 a1 {0,1} {4,5}; a2 {0,1} {4,5} {6,7}.
COVER = {("a1", "d1"): {0, 2, 3, 4, 7, 8, 9}, ("a2", "d1"): {0, 2, 3, 4, 8, 9},
         ("a3", "d1"): {0, 2, 3, 4, 5}, ("a1", "d2"): {0, 1, 4, 5},
         ("a2", "d2"): {0, 1, 4, 5, 6, 7}}


def test_fixture_exact():
    out = analyse(FIXTURE)
    assert out["job"] == "markables" and out["format"] == "mmax2"
    assert out["annotators"] == ["a1", "a2", "a3"] and out["documents"] == 2
    assert out["options"] == {"levels": None, "attributes": None, "match": "exact",
                              "set_sep": None, "by_document": False, "diagnostics": None,
                              "ner": True, "category": None, "min_overlap": 1.0,
                              "disagreements": 20, "reader_options": {}}
    [lv] = out["levels"]  # 'sentence' is left out by default
    assert lv["level"] == "phrase"
    assert lv["markables"] == {"a1": 6, "a2": 7, "a3": 4}
    assert (lv["aligned"], lv["unaligned"]) == (5, 4)  # A B D F G; C C' E H
    assert lv["unaligned_by_annotator"] == {"a1": 1, "a2": 2, "a3": 1}
    p = pairs(lv)
    # a1–a2: 5 exact matches of 6 + 7; pairs with a3 only over d1: 3 of 4 + 4
    assert p[("a1", "a2")]["f1"] == pytest.approx(10 / 13)
    assert p[("a1", "a2")]["matched"] == 5
    assert (p[("a1", "a2")]["markables_a"], p[("a1", "a2")]["markables_b"]) == (6, 7)
    assert p[("a1", "a3")]["f1"] == p[("a2", "a3")]["f1"] == pytest.approx(0.75)
    assert p[("a1", "a3")]["markables_a"] == 4  # a1's d2 markables do not count against a3
    assert lv["span_f1"]["mean"] == pytest.approx((10 / 13 + 1.5) / 3)
    # token presence: α by krippendorff on the coverage above, A_o by hand
    cols = [[int(t in COVER[(a, d)]) if (a, d) in COVER else None for a in ("a1", "a2", "a3")]
            for d, n in (("d1", 10), ("d2", 8)) for t in range(n)]
    tok = lv["token_agreement"]
    assert [c["id"] for c in tok["coefficients"]] == ["alpha", "multi_kappa",
                                                      "percent_agreement"]
    assert coefficient(tok, "alpha") == pytest.approx(nominal_alpha(cols), abs=1e-12)
    ao = np.mean([np.mean([x == y for i, x in enumerate(c) for y in c[i + 1:]
                           if x is not None and y is not None]) for c in cols])
    assert coefficient(tok, "percent_agreement") == pytest.approx(ao, abs=1e-12)
    assert tok["note"] is None and all(c["interval"] is None for c in tok["coefficients"])
    # polarity over A B D F G: (n n p) (p p p) (p neg p) (p p) (neg neg) → α = 11/23
    [attr] = lv["attributes"]  # the pointer attribute 'ref' is not a label
    assert attr["attribute"] == "polarity" and attr["items"] == 5
    assert attr["judgements"] == 17
    assert attr["values"]["neutral"] == {"a1": 1, "a2": 1, "a3": 1}
    assert coefficient(attr, "alpha") == pytest.approx(11 / 23, abs=1e-12)
    assert coefficient(attr, "alpha") == pytest.approx(nominal_alpha(
        [["neutral", "neutral", "positive"], ["positive"] * 3, ["positive", "negative",
                                                                 "positive"],
         ["positive", "positive", None], ["negative", "negative", None]]), abs=1e-12)
    assert coefficient(attr, "percent_agreement") == pytest.approx((1 / 3 + 1 + 1 / 3 + 2) / 5)


def test_fixture_objects():
    """The same figures through the report's objects, and their tables."""
    report = mk.analyse(mk.read([FIXTURE]))
    lv = report.level("phrase")
    assert lv.span_f1.scores.f1[0, 1] == pytest.approx(10 / 13)
    assert lv.attributes[0].agreement.get("alpha").value == pytest.approx(11 / 23, abs=1e-12)
    assert lv.token_agreement.get("kappa") is None  # three annotators: multi-κ
    frame = lv.span_f1.pairs().to_frame()
    assert frame["matched"].tolist() == [5, 3, 3]
    assert report.to_dict()["format"] == "mmax2"
    assert "3 annotators (a1, a2, a3) in 2 documents; exact match" in report.summary()
    tables = {t.id: t for t in report.tables.values()}
    assert list(tables) == ["spans", "token_agreement", "span_f1_phrase", "attributes",
                            "attribute_agreement", "ner", "ner_labels", "ner_tokens",
                            "disagreements"]
    assert tables["spans"].rows == [["phrase", "6 / 7 / 4", 5, 4, lv.span_f1.mean]]
    assert tables["span_f1_phrase"].matrix
    assert [r[:2] for r in tables["attribute_agreement"].rows][0] == ["phrase", "polarity"]


def test_fixture_overlap():
    """C {7,8,9} and C' {8,9} now align; {2,3,4} and {2,4} of a1 and a2 overlap crosswise and
    Kuhn–Munkres keeps the identical pairs (1 + 1 > 0.8 + 0.8)."""
    out = analyse(FIXTURE, match="overlap")
    lv = out["levels"][0]
    assert out["options"]["match"] == "overlap"
    assert (lv["aligned"], lv["unaligned"]) == (6, 2)
    p = pairs(lv)
    assert p[("a1", "a2")]["f1"] == pytest.approx(12 / 13)
    assert p[("a1", "a3")]["f1"] == pytest.approx(0.75)
    # polarity: + (neg neg) → 15 values, Do = 4/15, De = 132/210
    assert coefficient(lv["attributes"][0], "alpha") == pytest.approx(19 / 33, abs=1e-12)


def test_levels_attributes_and_order():
    out = analyse(FIXTURE, levels=["phrase", "sentence"])
    assert [lv["level"] for lv in out["levels"]] == ["phrase", "sentence"]
    sent = out["levels"][1]
    assert sent["attributes"] == []
    assert pairs(sent)[("a1", "a2")]["f1"] == 1.0
    # every token is inside the sentence for everyone: α undefined (null), A_o = 1
    assert coefficient(sent["token_agreement"], "alpha") is None
    assert coefficient(sent["token_agreement"], "percent_agreement") == 1.0
    out = analyse(FIXTURE, attributes=["ref", "polarity"])
    assert [a["attribute"] for a in out["levels"][0]["attributes"]] == ["ref", "polarity"]
    assert out["options"]["attributes"] == ["ref", "polarity"]


def test_read_reports_progress_per_document():
    calls = []
    anns = mk.read([FIXTURE], levels=["phrase"],
                   progress=lambda done, total: calls.append((done, total))).data
    assert calls == [(1, 2), (2, 2)]
    assert len(anns) == 5 and {m.attrs["level"] for a in anns for m in a.mentions.values()} \
        == {"phrase"}
    named = mk.read([FIXTURE / "a1", FIXTURE / "a2"], annotators=["x", "y"])
    assert named.annotators == ["x", "y"] and named.format == "mmax2"


def test_ci_clustered_by_document():
    calls = []
    report = mk.analyse(mk.read([FIXTURE]), bootstrap=Bootstrap(200),
                        progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (400, 400)  # tokens and polarity, 200 replicates each
    lv = as_json(report)["levels"][0]
    for family in (lv["token_agreement"], lv["attributes"][0]):
        alpha = family["coefficients"][0]
        iv = alpha["interval"]
        assert iv["clustered"] and iv["units"] == 2 and iv["n_resamples"] == 200
        assert iv["low"] <= alpha["value"] <= iv["high"]
        assert family["coefficients"][1]["id"] == "multi_kappa"
        assert family["coefficients"][1]["interval"]["units"] == 2


def test_ci_over_items_and_without_units():
    anns = mk.read([FIXTURE]).data
    lv = as_json(mk.analyse(anns, bootstrap=Bootstrap(50, cluster=False)))["levels"][0]
    assert lv["token_agreement"]["coefficients"][0]["interval"]["units"] == 18
    assert lv["attributes"][0]["coefficients"][0]["interval"]["units"] == 5
    # one document: nothing to resample by document, so items are, said in a note (the one
    # bootstrap policy of every job, stats.inference.resampling)
    one = [a for a in anns if a.document.id == "d1"]
    report = mk.analyse(one, bootstrap=Bootstrap(50))
    assert all(e.interval is not None and not e.interval.clustered
               for e in report.levels[0].token_agreement.coefficients)
    assert "phrase tokens: one document only: the bootstrap resamples items" in report.notes


def test_errors():
    anns = mk.read([FIXTURE]).data
    with pytest.raises(InputError, match="attribute\\(s\\) colour on no markable"):
        mk.analyse(anns, attributes=["colour"])
    with pytest.raises(InputError, match="two or more annotators"):
        mk.analyse([a for a in anns if a.annotator == "a1"])
    with pytest.raises(InputError, match="not declared"):
        mk.read([FIXTURE], levels=["np"])


# ---- the report job ----------------------------------------------------------------------------
def test_folder_discovery(samples, tmp_path):
    if not (samples / "coref" / "mmax2").is_dir():
        pytest.skip("sample_corpora/coref/mmax2 absent")
    found = discover.mmax2_projects(samples / "coref")
    report = mk.analyse(mk.read(found.paths), bootstrap=Bootstrap(100))
    out = as_json(report)
    assert out["annotators"] == ["ann1", "ann2", "ann3"] and out["documents"] == 5
    assert out["format"] == "mmax2" and out["bootstrap"]["n_resamples"] == 100
    assert [lv["level"] for lv in out["levels"]] == ["coref"]
    assert [a["attribute"] for a in out["levels"][0]["attributes"]] == ["type"]
    assert out["levels"][0]["token_agreement"]["coefficients"][0]["interval"]["units"] == 5
    assert discover.mmax2_projects(tmp_path) is None


# ---- PotTS -------------------------------------------------------------------------------------
def _words(root, doc: str) -> dict[str, int]:
    tree = etree.parse(str(root / "basedata" / f"{doc}.words.xml")).getroot()
    return {w.get("id"): i for i, w in enumerate(tree.iter("{*}word", "word"))}


@pytest.fixture(scope="module")
def potts(corpora):
    """(root, documents, {(annotator, document, level): [(token tuple, attributes), ...]}
    straight from the XML files in file order, tokens per document)."""
    root = corpora / "potts_mmax2_subset" / "corpus"
    docs = sorted(p.name[:-len(".words.xml")] for p in (root / "basedata").glob("*.words.xml"))
    out = {}
    for doc in docs:
        index = _words(root, doc)
        for ann in ("annotator-1", "annotator-2"):
            for level in LEVELS:
                f = root / ann / "markables" / f"{doc}_{level}_level.xml"
                rows = []
                for m in etree.parse(str(f)).getroot().iter("{*}markable"):
                    toks = set()
                    for frag in m.get("span").split(","):
                        lo, _, hi = frag.partition("..")
                        toks |= set(range(index[lo], index[hi or lo] + 1))
                    rows.append((tuple(sorted(toks)), dict(m.attrib)))
                out[(ann, doc, level)] = rows
    return root, docs, out, {d: len(_words(root, d)) for d in docs}


@pytest.fixture(scope="module")
def potts_out(potts):
    anns = mk.read([potts[0]]).data
    return anns, as_json(mk.analyse(anns))


def test_potts_read_completely(potts, potts_out):
    _, docs, xml, _ = potts
    anns, out = potts_out
    assert len(anns) == 16 and out["documents"] == 8 == len(docs)
    assert out["annotators"] == ["annotator-1", "annotator-2"]
    assert [lv["level"] for lv in out["levels"]] == LEVELS
    for lv in out["levels"]:
        for a in out["annotators"]:
            assert lv["markables"][a] == sum(len(xml[(a, d, lv["level"])]) for d in docs)
    assert sum(sum(lv["markables"].values()) for lv in out["levels"]) == 3272


def test_potts_span_agreement(potts, potts_out):
    _, docs, xml, n_tokens = potts
    _, out = potts_out
    for lv in out["levels"]:
        level = lv["level"]
        # exact-span F1 with multiplicity
        c1 = Counter((d, t) for d in docs for t, _ in xml[("annotator-1", d, level)])
        c2 = Counter((d, t) for d in docs for t, _ in xml[("annotator-2", d, level)])
        matched = sum((c1 & c2).values())
        pair = lv["span_f1"]["pairs"][0]
        assert pair["matched"] == matched
        assert pair["f1"] == pytest.approx(2 * matched / (c1.total() + c2.total()), abs=1e-12)
        # token presence: α (krippendorff) and Cohen's κ by definition
        rows = []
        for a in ("annotator-1", "annotator-2"):
            row = []
            for d in docs:
                inside = np.zeros(n_tokens[d], int)
                for t, _ in xml[(a, d, level)]:
                    inside[list(t)] = 1
                row += inside.tolist()
            rows.append(row)
        tok = lv["token_agreement"]
        assert coefficient(tok, "alpha") == pytest.approx(
            krippendorff.alpha(reliability_data=np.array(rows, float),
                               level_of_measurement="nominal"), abs=1e-12)
        assert coefficient(tok, "kappa") == pytest.approx(cohen(*rows), abs=1e-12)


def test_potts_intervals_and_their_notes(potts_out):
    anns, out = potts_out
    report = mk.analyse(anns, levels=["sentiment", "diminisher"], bootstrap=Bootstrap(200))
    tokens = report.level("sentiment").token_agreement.get("kappa")
    assert tokens.interval.units == 8 and tokens.interval.clustered
    assert tokens.value == pytest.approx(coefficient(out["levels"][6]["token_agreement"],
                                                     "kappa"), abs=1e-12)
    # every replicate of 'degree' (one value on three diminishers) leaves α undefined
    assert "diminisher degree: α (nominal): 200 of 200 resamples gave no value and were " \
        "left out of its interval" in report.notes
    [table] = [t for t in report.tables.values() if t.id == "attribute_agreement"]
    assert "bootstrap percentile, 200 resamples of 3–8 clusters, seed 0" in table.notes
    with pytest.raises(KeyError):
        report.level("negation")


@pytest.mark.parametrize("level", ["sentiment", "emo-expression"])
def test_potts_polarity(potts, potts_out, level):
    _, docs, xml, _ = potts
    _, out = potts_out
    aligned = defaultdict(dict)  # (doc, span, k-th occurrence) -> annotator -> polarity
    for a in ("annotator-1", "annotator-2"):
        for d in docs:
            seen = Counter()
            for t, attrs in xml[(a, d, level)]:
                aligned[(d, t, seen[t])][a] = attrs["polarity"]
                seen[t] += 1
    both = [v for v in aligned.values() if len(v) == 2]
    p1, p2 = ([v[a] for v in both] for a in ("annotator-1", "annotator-2"))
    [attr] = [x for lv in out["levels"] if lv["level"] == level for x in lv["attributes"]
              if x["attribute"] == "polarity"]
    assert attr["items"] == len(both)
    assert coefficient(attr, "kappa") == pytest.approx(cohen(p1, p2), abs=1e-12)
    assert coefficient(attr, "alpha") == pytest.approx(nominal_alpha([[x, y] for x, y in
                                                                      zip(p1, p2, strict=True)]),
                                                       abs=1e-12)
    assert coefficient(attr, "percent_agreement") == pytest.approx(
        np.mean([x == y for x, y in zip(p1, p2, strict=True)]), abs=1e-12)
    assert attr["values"]["positive"]["annotator-1"] == sum(
        attrs["polarity"] == "positive" for d in docs for _, attrs in
        xml[("annotator-1", d, level)])


# ---- an undefined coefficient always comes with its reason --------------------------------------
def with_constant_attribute(tmp_path):
    """The fixture with ``degree="high"`` on every phrase markable of every annotator."""
    import shutil

    root = tmp_path / "corpus"
    shutil.copytree(FIXTURE, root)
    for f in root.glob("a*/markables/*_phrase_level.xml"):
        f.write_text(f.read_text(encoding="utf-8").replace(
            'mmax_level="phrase"', 'degree="high" mmax_level="phrase"'), encoding="utf-8")
    return root


def test_undefined_coefficients_say_why(tmp_path):
    root = with_constant_attribute(tmp_path)
    with pytest.warns(RuntimeWarning) as caught:
        report = mk.analyse(mk.read([root]), attributes=["degree", "polarity"])
    why = {f"phrase degree: {s} undefined: every value of 'degree' is 'high' (no expected "
           "disagreement)" for s in ("α", "multi-κ")}
    assert why <= set(report.notes)
    assert why <= {str(w.message) for w in caught}
    degree = report.level("phrase").attributes[0]
    assert degree.attribute == "degree" and np.isnan(degree.agreement.get("alpha").value)
    assert degree.agreement.get("percent_agreement").value == 1.0
    polarity = report.level("phrase").attributes[1]
    assert not np.isnan(polarity.agreement.get("alpha").value)
    assert not any("polarity" in n for n in report.notes)


def test_potts_undefined_degree_says_why(potts_out):
    anns, _ = potts_out
    with pytest.warns(RuntimeWarning, match="diminisher degree: α undefined: every value of "
                      r"'degree' is '\w+' \(no expected disagreement\)"):
        report = mk.analyse(anns, levels=["diminisher"])
    assert sum("undefined" in n for n in report.notes) == 2  # α and κ
