"""``corpusagree markables``: span and attribute agreement on MMAX2 markables.

Expected figures are worked out by hand for the fixture (tests/data/markables/corpus: three
annotators, a3 lacks d2) and recomputed independently (lxml + krippendorff + plain Python)
for the PotTS subset and for random markables.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter, defaultdict
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from lxml import etree

from corpusagree.cli import main
from corpusagree.jobs import markables as mk
from corpusagree.model.corpus import CorefAnnotation, Document, Mention

FIXTURE = Path(__file__).parent / "data" / "markables" / "corpus"
POTTS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "potts_mmax2_subset" / \
    "corpus"
SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpora" / "coref"
LEVELS = ["negation", "diminisher", "intensifier", "emo-expression", "source", "target",
          "sentiment"]


def run_json(capsys, *args) -> dict:
    assert main(["markables", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def coefficient(family: dict, name: str) -> float | None:
    return next(c["value"] for c in family["coefficients"] if c["symbol"] == name)


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


def test_fixture_exact(capsys):
    out = run_json(capsys, FIXTURE)
    assert out["annotators"] == ["a1", "a2", "a3"] and out["documents"] == 2
    [lv] = out["levels"]  # 'sentence' is left out by default
    assert lv["level"] == "phrase"
    assert lv["markables"] == {"a1": 6, "a2": 7, "a3": 4}
    assert (lv["aligned"], lv["unaligned"]) == (5, 4)  # A B D F G; C C' E H
    assert lv["unaligned_by_annotator"] == {"a1": 1, "a2": 2, "a3": 1}
    p = pairs(lv)
    # a1–a2: 5 exact matches of 6 + 7; pairs with a3 only over d1: 3 of 4 + 4
    assert p[("a1", "a2")]["f1"] == pytest.approx(10 / 13)
    assert (p[("a1", "a2")]["markables_a"], p[("a1", "a2")]["markables_b"]) == (6, 7)
    assert p[("a1", "a3")]["f1"] == p[("a2", "a3")]["f1"] == pytest.approx(0.75)
    assert p[("a1", "a3")]["markables_a"] == 4  # a1's d2 markables do not count against a3
    assert lv["span_f1"]["mean"] == pytest.approx((10 / 13 + 1.5) / 3)
    # token presence: α by krippendorff on the coverage above, A_o by hand
    cols = [[int(t in COVER[(a, d)]) if (a, d) in COVER else None for a in ("a1", "a2", "a3")]
            for d, n in (("d1", 10), ("d2", 8)) for t in range(n)]
    tok = lv["token_agreement"]
    assert coefficient(tok, "α") == pytest.approx(nominal_alpha(cols), abs=1e-12)
    ao = np.mean([np.mean([x == y for i, x in enumerate(c) for y in c[i + 1:]
                           if x is not None and y is not None]) for c in cols])
    assert coefficient(tok, "A_o") == pytest.approx(ao, abs=1e-12)
    # polarity over A B D F G: (n n p) (p p p) (p neg p) (p p) (neg neg) → α = 11/23
    [attr] = lv["attributes"]  # the pointer attribute 'ref' is not a label
    assert attr["attribute"] == "polarity" and attr["items"] == 5
    assert attr["judgements"] == 17
    assert attr["values"]["neutral"] == {"a1": 1, "a2": 1, "a3": 1}
    assert coefficient(attr, "α") == pytest.approx(11 / 23, abs=1e-12)
    assert coefficient(attr, "α") == pytest.approx(nominal_alpha(
        [["neutral", "neutral", "positive"], ["positive"] * 3, ["positive", "negative",
                                                                 "positive"],
         ["positive", "positive", None], ["negative", "negative", None]]), abs=1e-12)
    assert coefficient(attr, "A_o") == pytest.approx((1 / 3 + 1 + 1 / 3 + 2) / 5)


def test_fixture_overlap(capsys):
    """C {7,8,9} and C' {8,9} now align; {2,3,4} and {2,4} of a1 and a2 overlap crosswise and
    Kuhn–Munkres keeps the identical pairs (1 + 1 > 0.8 + 0.8)."""
    lv = run_json(capsys, FIXTURE, "--match", "overlap")["levels"][0]
    assert (lv["aligned"], lv["unaligned"]) == (6, 2)
    p = pairs(lv)
    assert p[("a1", "a2")]["f1"] == pytest.approx(12 / 13)
    assert p[("a1", "a3")]["f1"] == pytest.approx(0.75)
    # polarity: + (neg neg) → 15 values, Do = 4/15, De = 132/210
    assert coefficient(lv["attributes"][0], "α") == pytest.approx(19 / 33, abs=1e-12)


def test_levels_attributes_and_order(capsys):
    out = run_json(capsys, FIXTURE, "--level", "phrase,sentence")
    assert [lv["level"] for lv in out["levels"]] == ["phrase", "sentence"]
    sent = out["levels"][1]
    assert sent["attributes"] == []
    assert pairs(sent)[("a1", "a2")]["f1"] == 1.0
    # every token is inside the sentence for everyone: α undefined (null), A_o = 1
    assert coefficient(sent["token_agreement"], "α") is None
    assert coefficient(sent["token_agreement"], "A_o") == 1.0
    out = run_json(capsys, FIXTURE, "--attribute", "ref", "--attribute", "polarity")
    assert [a["attribute"] for a in out["levels"][0]["attributes"]] == ["ref", "polarity"]


def test_text_output_says_what_each_figure_is(capsys):
    assert main(["markables", str(FIXTURE), "--match", "overlap"]) == 0
    text = capsys.readouterr().out
    for words in ("span agreement", "token α", "span F1", "pairwise span F1", "polarity",
                  "overlap match", "2·matched / (n_a + n_b)"):
        assert words in text


def test_ci_clustered_by_document(capsys):
    lv = run_json(capsys, FIXTURE, "--ci", "--resamples", "200")["levels"][0]
    for family in (lv["token_agreement"], lv["attributes"][0]):
        alpha = family["intervals"][0]
        assert alpha["clustered"] and alpha["units"] == 2 and alpha["n_resamples"] == 200
        assert alpha["estimate"] == pytest.approx(coefficient(family, "α"))
        assert alpha["low"] <= alpha["estimate"] <= alpha["high"]
        assert family["intervals"][1]["coefficient"] == "multi_kappa"


# ---- bad input ---------------------------------------------------------------------------------
@pytest.fixture
def corpus_copy(tmp_path):
    return Path(shutil.copytree(FIXTURE, tmp_path / "corpus"))


def fails(capsys, *args) -> str:
    assert main(["markables", *map(str, args)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_pointer_to_undefined_markable(capsys, corpus_copy):
    f = corpus_copy / "a2" / "markables" / "d1_phrase_level.xml"
    f.write_text(f.read_text().replace('ref="markable_2"', 'ref="markable_99"'))
    assert re.match(rf"{re.escape(str(f))}:6: .*undefined markable 'markable_99'",
                    fails(capsys, corpus_copy))


def test_malformed_xml(capsys, corpus_copy):
    f = corpus_copy / "a1" / "markables" / "d2_phrase_level.xml"
    f.write_text(f.read_text().replace("</markables>", "</markable>"))
    assert re.match(rf"{re.escape(str(f))}:\d+: ", fails(capsys, corpus_copy))


def test_unknown_level_attribute_and_one_annotator(capsys):
    assert "not declared" in fails(capsys, FIXTURE, "--level", "np")
    assert "attribute(s) colour on no markable" in fails(capsys, FIXTURE, "--attribute",
                                                         "colour")
    assert "two or more annotators" in fails(capsys, FIXTURE / "a1")
    assert "no such file" in fails(capsys, FIXTURE / "nowhere")


# ---- the alignment -----------------------------------------------------------------------------
def annotation(annotator: str, doc: str, n_tokens: int, spans: list, attrs: list | None = None
               ) -> CorefAnnotation:
    ms = {f"m{i}": Mention(f"m{i}", tuple(sp), attrs={"level": "x", **(attrs[i] if attrs else {})})
          for i, sp in enumerate(spans)}
    return CorefAnnotation(Document(doc, ["w"] * n_tokens), annotator, ms)


def test_identical_markables_pair_in_order():
    anns = [annotation("a", "d", 5, [[(0, 2)], [(0, 2)], [(3, 4)]]),
            annotation("b", "d", 5, [[(0, 2)], [(3, 4)], [(0, 2)], [(0, 2)]])]
    table = mk.collect(anns)
    cluster = mk.align(table)
    assert cluster.tolist() == [0, 1, 2, 0, 2, 1, 3]
    f1 = mk.span_f1(table, cluster, 0)
    assert f1.matched[0, 1] == 3 and f1.f1[0, 1] == pytest.approx(6 / 7)


def random_corpus(rng, n_docs=4, annotators=3, n_tokens=30, per_doc=8):
    """Random markables (some discontinuous) with a random label each; each annotator copies
    or drops a gold markable, or marks a random one."""
    anns, truth = [], []
    for d in range(n_docs):
        gold = []
        for _ in range(per_doc):
            s = int(rng.integers(0, n_tokens - 3))
            sp = [(s, s + int(rng.integers(1, 3)))]
            if rng.random() < 0.2:
                sp.append((sp[0][1] + 1, sp[0][1] + 2))
            gold.append(sp)
        for a in range(annotators):
            spans = [sp for sp in gold if rng.random() < 0.8]
            spans += [[(t, t + 1)] for t in rng.integers(0, n_tokens, 2).tolist()]
            labels = [{"tag": str(rng.integers(0, 3))} for _ in spans]
            anns.append(annotation(f"a{a}", f"d{d}", n_tokens, spans, labels))
            truth.append((f"a{a}", f"d{d}", spans, labels))
    return anns, truth


def merged(spans) -> tuple:
    """A span as the reader stores it: sorted fragments, adjacent ones merged."""
    out: list = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(e, out[-1][1]))
        else:
            out.append((s, e))
    return tuple(out)


@pytest.mark.parametrize("seed", range(5))
def test_random_exact_agrees_with_plain_python(seed):
    anns, truth = random_corpus(np.random.default_rng(seed))
    table = mk.collect(anns)
    cluster = mk.align(table)
    f1 = mk.span_f1(table, cluster, 0)
    data = mk.attribute_data(table, cluster, 0, "tag")
    res = mk.agreement(data)["results"][0]
    # plain Python: the k-th markable with a span pairs with the k-th of the other annotator
    keyed = defaultdict(dict)
    for a, d, spans, labels in truth:
        seen = Counter()
        for sp, lab in zip(spans, labels, strict=True):
            key = (d, merged(sp))
            keyed[(key, seen[key])][a] = lab["tag"]
            seen[key] += 1
    names = ["a0", "a1", "a2"]
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i < j:
                m = sum(a in v and b in v for v in keyed.values())
                na, nb = (sum(x in v for v in keyed.values()) for x in (a, b))
                assert f1.f1[i, j] == pytest.approx(2 * m / (na + nb), abs=1e-12)
    cols = [[v.get(a) for a in names] for v in keyed.values()]
    assert res.value == pytest.approx(nominal_alpha(cols), abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_random_overlap_is_one_to_one_and_maximal_for_two(seed):
    """Two annotators: the summed Dice of the matched pairs equals the optimum found by
    brute force over the documents' overlap blocks."""
    from itertools import permutations
    rng = np.random.default_rng(100 + seed)
    anns, _ = random_corpus(rng, n_docs=3, annotators=2, per_doc=4)
    table = mk.collect(anns)
    cluster = mk.align(table, "overlap")
    tokens = defaultdict(set)
    for m, t in zip(*table.tokens(), strict=True):
        tokens[int(m)].add(int(t))
    for d in range(3):
        a = [m for m in range(len(cluster)) if table.document[m] == d and table.annotator[m] == 0]
        b = [m for m in range(len(cluster)) if table.document[m] == d and table.annotator[m] == 1]
        assert len({cluster[m] for m in b}) == len(b)  # one-to-one

        def dice(x, y):
            return 2 * len(tokens[x] & tokens[y]) / (len(tokens[x]) + len(tokens[y]))
        got = sum(dice(x, y) for x in a for y in b if cluster[x] == cluster[y])
        small, big = (a, b) if len(a) <= len(b) else (b, a)
        best = max(sum(dice(x, y) for x, y in zip(small, p, strict=False))
                   for p in permutations(big, len(small)))
        assert got == pytest.approx(best, abs=1e-12)


# ---- report ------------------------------------------------------------------------------------
def test_report_folder(capsys, tmp_path):
    if not (SAMPLE / "mmax2").is_dir():
        pytest.skip("sample_corpora/coref/mmax2 absent")
    assert mk.report_folder(SAMPLE, json_out=True)
    out = json.loads(capsys.readouterr().out)
    assert out["annotators"] == ["ann1", "ann2", "ann3"] and out["documents"] == 5
    assert [lv["level"] for lv in out["levels"]] == ["coref"]
    assert [a["attribute"] for a in out["levels"][0]["attributes"]] == ["type"]
    assert not mk.report_folder(tmp_path, json_out=False)


# ---- PotTS (real MMAX2: 2 annotators, 8 documents, 7 levels) -----------------------------------
def _words(doc: str) -> dict[str, int]:
    root = etree.parse(str(POTTS / "basedata" / f"{doc}.words.xml")).getroot()
    return {w.get("id"): i for i, w in enumerate(root.iter("{*}word", "word"))}


def _potts_markables() -> tuple[list[str], dict]:
    """(documents, {(annotator, document, level): [(token tuple, attributes), ...]}) straight
    from the XML files, in file order."""
    docs = sorted(p.name[:-len(".words.xml")] for p in (POTTS / "basedata").glob("*.words.xml"))
    out = {}
    for doc in docs:
        index = _words(doc)
        for ann in ("annotator-1", "annotator-2"):
            for level in LEVELS:
                f = POTTS / ann / "markables" / f"{doc}_{level}_level.xml"
                rows = []
                for m in etree.parse(str(f)).getroot().iter("{*}markable"):
                    toks = set()
                    for frag in m.get("span").split(","):
                        lo, _, hi = frag.partition("..")
                        toks |= set(range(index[lo], index[hi or lo] + 1))
                    rows.append((tuple(sorted(toks)), dict(m.attrib)))
                out[(ann, doc, level)] = rows
    return docs, out


@pytest.fixture(scope="module")
def potts():
    if not POTTS.is_dir():
        pytest.skip("../shared/corpora/potts_mmax2_subset absent")
    docs, xml = _potts_markables()
    return docs, xml, {d: len(_words(d)) for d in docs}


@pytest.fixture(scope="module")
def potts_out():
    if not POTTS.is_dir():
        pytest.skip("../shared/corpora/potts_mmax2_subset absent")
    anns = mk.read([POTTS])
    return anns, mk.as_json(mk.analyse(anns))


def test_potts_read_completely(potts, potts_out):
    docs, xml, _ = potts
    anns, out = potts_out
    assert len(anns) == 16 and out["documents"] == 8 == len(docs)
    assert out["annotators"] == ["annotator-1", "annotator-2"]
    assert [lv["level"] for lv in out["levels"]] == LEVELS
    for lv in out["levels"]:
        for a in out["annotators"]:
            assert lv["markables"][a] == sum(len(xml[(a, d, lv["level"])]) for d in docs)
    assert sum(sum(lv["markables"].values()) for lv in out["levels"]) == 3272


def test_potts_span_agreement(potts, potts_out):
    docs, xml, n_tokens = potts
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
        assert coefficient(tok, "α") == pytest.approx(
            krippendorff.alpha(reliability_data=np.array(rows, float),
                               level_of_measurement="nominal"), abs=1e-12)
        assert coefficient(tok, "κ") == pytest.approx(cohen(*rows), abs=1e-12)


@pytest.mark.parametrize("level", ["sentiment", "emo-expression"])
def test_potts_polarity(potts, potts_out, level):
    docs, xml, _ = potts
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
    assert coefficient(attr, "κ") == pytest.approx(cohen(p1, p2), abs=1e-12)
    assert coefficient(attr, "α") == pytest.approx(nominal_alpha([[x, y] for x, y in
                                                                  zip(p1, p2, strict=True)]),
                                                   abs=1e-12)
    assert coefficient(attr, "A_o") == pytest.approx(
        np.mean([x == y for x, y in zip(p1, p2, strict=True)]), abs=1e-12)
    assert attr["values"]["positive"]["annotator-1"] == sum(
        attrs["polarity"] == "positive" for d in docs for _, attrs in
        xml[("annotator-1", d, level)])
