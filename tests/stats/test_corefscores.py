"""Coreference scores: the CoNLL reference scorer's own test cases (Pradhan et al. 2014, v8.01)
and its edge cases, worked examples from the papers, the corpus (micro) average as summed counts,
equality with scorch on random partitions and corpora, LEA against a direct transcription of its
definition, the counts of every (document, annotator pair)."""

import ast
import operator
import random
import re
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scorch import scores as scorch

from corpusagree.stats import corefscores as cs

from support import DATA

SCORER = DATA / "scorer"


def approx(*values):
    return pytest.approx(values, abs=1e-12)


def s(text):
    """'abc de' -> [{'a','b','c'}, {'d','e'}]"""
    return [set(part) for part in text.split()]


# ---- the reference scorer's test cases ---------------------------------------------------------
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv}


def value(expr: str) -> Fraction:
    """A figure as the reference scorer's test configuration writes it: a number or an
    arithmetic expression of numbers (evaluated exactly)."""
    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return Fraction(str(node.value))
        if isinstance(node, ast.BinOp):
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        raise ValueError(expr)
    return ev(ast.parse(expr, mode="eval"))


def tolerance(expr: str) -> float:
    """The configuration rounds some figures to 5 decimals; the others are exact."""
    return 5.01e-6 if re.search(r"\.\d{5}", expr) else 1e-12


def reference_cases(name: str):
    """(case, metric, [(expected, tolerance)] × R, P, F1) of a fixture table; LEA's F1 is the
    harmonic mean of its recall and precision."""
    out = []
    for line in (SCORER / name).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        case, _, _, metric, *figures = line.split("\t")
        expected = [(value(f), tolerance(f)) for f in figures]
        if len(expected) == 2:
            (r, tr), (p, tp) = expected
            expected.append((2 * r * p / (r + p) if r + p else Fraction(0), max(tr, tp)))
        out.append((case, metric, expected))
    return out


#: the key and response of every case, as the reference scorer's test/TestCases.README draws
#: them (a letter = a mention; x, y, z = response mentions the key lacks; B = a mention
#: overlapping b). TC-A-7, 8 and 9 repeat b's span in the response (in its own entity, in
#: another one, ten times): the scorer keeps the first and scores the partition below; the
#: repeated spans themselves are read from the CoNLL files in the command-line tests.
PARTITIONS = {
    "A1": ("a bc def", "a bc def"), "A2": ("a bc def", "a de"),
    "A3": ("a bc def", "a bcx defy z"), "A4": ("a bc def", "a bcx dy z"),
    "A5": ("a bc def", "a bcxB dy z"), "A6": ("a bc def", "a bcx dy Bz"),
    "A7": ("a bc def", "a bcx dy z"), "A8": ("a bc def", "a bcx dy z"),
    "A9": ("a bc def", "a bcx dy z"), "A10": ("a bc def", "a b c d e f"),
    "A11": ("a bc def", "abcdef"), "A12": ("a bc def", "a x y c d e z"),
    "A13": ("a bc def", "axycdez"),
    "B1": ("ab cde", "bcx de"), "C1": ("ab cde fg", "bcx de fg"),
    "D1": ("12345 67 89ABC", "12345 6789ABC"), "E1": ("12345 67 89ABC", "1234589ABC 67"),
    "F1": ("ABCD", "AB CD"), "G1": ("AB CD", "ABCD"), "H1": ("ABCD", "ABCD"),
    "I1": ("ABCD", "AB CD"), "J1": ("ABC", "AC"), "K1": ("BCDEGHJ", "ABC DEF GHI"),
    "L1": ("ABC DEFG", "AB CD FGH"),
    "M1": ("abcdef", "abcdef"), "M2": ("abcdef", "a b c d e f"), "M3": ("abcdef", "ab cde f"),
    "M4": ("abcdef", "abcxyz"), "M5": ("abcdef", "a b c x y z"), "M6": ("abcdef", "ab cxy z"),
    "N1": ("a b c d e f", "a b c d e f"), "N2": ("a b c d e f", "abcdef"),
    "N3": ("a b c d e f", "ab cde f"), "N4": ("a b c d e f", "a b c x y z"),
    "N5": ("a b c d e f", "abcxyz"), "N6": ("a b c d e f", "ab cxy z"),
}
#: the reference scorer's metric names
NAMES = {"muc": "muc", "bcub": "b_cubed", "ceafm": "ceaf_m", "ceafe": "ceaf_e",
         "blanc": "blanc", "lea": "lea"}
CASES = reference_cases("expected.tsv") + reference_cases("lea.tsv")


def test_every_published_case_is_here():
    """CorefMetricTestConfig.pm: 36 cases, 91 (case, metric) figures; LEA on all 36."""
    assert len({c for c, m, _ in CASES if m != "lea"}) == 36 == len(PARTITIONS)
    assert sum(m != "lea" for _, m, _ in CASES) == 91
    assert {c for c, m, _ in CASES if m == "lea"} == set(PARTITIONS)


@pytest.mark.parametrize("case, metric, expected", CASES,
                         ids=[f"{c}-{m}" for c, m, _ in CASES])
def test_reference_scorer_cases(case, metric, expected):
    """Every expected recall, precision and F1 of the reference scorer's test suite (to its 5
    decimals where it rounds, exactly elsewhere), computed from the counts the scorer sums."""
    key, response = (s(x) for x in PARTITIONS[case])
    got = cs.SCORES[NAMES[metric]](key, response)
    for x, (want, tol) in zip(got, expected, strict=True):
        assert x == pytest.approx(float(want), abs=tol), (got, expected)


def test_blanc_edge_cases_follow_the_reference_scorer():
    """A key without any link (one mention, or none) scores 0 (ComputeBLANCFromCounts), even
    against the identical response; such a document measures nothing unless the response has
    a link. A key with no coreference link scores the non-coreference part alone (N1, N6), a
    key with no non-coreference link the coreference part alone (M3)."""
    for key, resp in [("a", "a"), ("a", "b"), ("a", "ab"), ("", "")]:
        assert cs.blanc(s(key), s(resp)) == approx(0, 0, 0)
    c = cs.counts(s("a"), s("a"))["blanc"]
    assert c.tolist() == [0] * 8 and not cs.defined("blanc", c)
    assert cs.defined("blanc", cs.counts(s("a"), s("ab"))["blanc"])
    assert cs.blanc(s("a b c d e f"), s("ab cxy z")) == approx(
        2 / 15, 2 / 11, 2 * (2 / 15) * (2 / 11) / (2 / 15 + 2 / 11))
    assert cs.blanc(s("abcdef"), s("ab cde f")) == approx(4 / 15, 1, 8 / 19)


def test_undefined_is_not_zero_in_counts():
    """MUC of two annotations without links is 0/0: the reference scorer prints 0, and
    :func:`defined` says there is nothing to measure; once the response has a link, it is a
    real 0."""
    c = cs.counts(s("a b"), s("a b"))
    assert cs.rpf("muc", c["muc"]).tolist() == [0, 0, 0] and not cs.defined("muc", c["muc"])
    assert cs.defined("muc", cs.counts(s("a b"), s("ab"))["muc"])
    assert cs.defined("b_cubed", c["b_cubed"]) and cs.rpf("b_cubed", c["b_cubed"]).tolist() \
        == [1, 1, 1]
    empty = cs.counts([], [])
    assert not any(cs.defined(m, empty[m]) for m in cs.METRICS)


# ---- worked examples ----------------------------------------------------------------------------
def test_muc_vilain_1995():
    # key {A B C D}, response {A B}{C D}: one link missing -> R = 2/3, P = 1
    assert cs.muc(s("ABCD"), s("AB CD")) == approx(2 / 3, 1.0, 0.8)
    assert cs.muc(s("AB CD"), s("ABCD")) == approx(1.0, 2 / 3, 0.8)
    assert cs.muc(s("A B"), s("AB")) == approx(0.0, 0.0, 0.0)   # only singletons in the key


# Bagga & Baldwin (1998), the 12-mention example: key {1-5}{6,7}{8-12}
BB_KEY = [set(range(1, 6)), {6, 7}, set(range(8, 13))]
BB_A = [set(range(1, 6)), set(range(6, 13))]                  # joins {6,7} with {8-12}
BB_B = [set(range(1, 6)) | set(range(8, 13)), {6, 7}]         # joins {1-5} with {8-12}


def test_b_cubed_bagga_baldwin_1998():
    assert cs.b_cubed(BB_KEY, BB_A) == approx(1.0, 16 / 21, 2 * 16 / 21 / (1 + 16 / 21))
    assert cs.b_cubed(BB_KEY, BB_B) == approx(1.0, 7 / 12, 2 * 7 / 12 / (1 + 7 / 12))
    # MUC cannot tell the two errors apart, which is the paper's point
    assert cs.muc(BB_KEY, BB_A) == cs.muc(BB_KEY, BB_B) == approx(1.0, 0.9, 18 / 19)


# Luo (2005), Figure 1: key and four system responses over 12 mentions
L_KEY = s("12345 67 89ABC")


@pytest.mark.parametrize("response, f1", [
    (s("12345 6789ABC"), 0.7333333),
    (s("1234589ABC 67"), 0.6666667),
    (s("123456789ABC"), 0.2941176),
    ([{c} for c in "123456789ABC"], 0.1777778),
])
def test_ceaf_e_luo_2005(response, f1):
    assert cs.ceaf_e(L_KEY, response).f1 == pytest.approx(f1, abs=1e-7)


@pytest.mark.parametrize("response, f1", [
    (s("12345 6789ABC"), 0.8333333),
    (s("1234589ABC 67"), 0.5833333),
    (s("123456789ABC"), 0.4166667),
    ([{c} for c in "123456789ABC"], 0.25),
])
def test_ceaf_m_luo_2005(response, f1):
    """The mention-based φ₃ on the same responses, by hand: the aligned entities share 5 + 5,
    5 + 2, 5 and 1 + 1 + 1 of the 12 key mentions (and as many response mentions)."""
    assert cs.ceaf_m(L_KEY, response).f1 == pytest.approx(f1, abs=1e-7)


def test_ceaf_e_alignment_is_one_to_one():
    # R = (1 + 10/12) / 3: {6,7} is left without a partner
    r = cs.ceaf_e(L_KEY, s("12345 6789ABC"))
    assert (r.recall, r.precision) == pytest.approx((11 / 18, 11 / 12))


def test_blanc_by_hand():
    # 21 key / 31 response coreference links, all key links found; 45 / 35 non-links
    r = cs.blanc(BB_KEY, BB_A)
    assert r == approx((1 + 35 / 45) / 2, (21 / 31 + 1) / 2, (42 / 52 + 70 / 80) / 2)
    # system mentions (Luo et al. 2014): the key has no non-coreference link, so only C counts
    assert cs.blanc(s("abc"), s("ab d")) == approx(1 / 3, 1.0, 0.5)


def test_lea_moosavi_strube_2016():
    key, resp = s("abc defg"), s("ab cd fghi")
    r = cs.lea(key, resp)
    assert r == approx(5 / 21, 1 / 3, 2 * (5 / 21) * (1 / 3) / (5 / 21 + 1 / 3))
    # singletons: one self-link each, resolved only by the same singleton
    assert cs.lea(s("a bc"), s("a b c")) == approx(1 / 3, 1 / 3, 1 / 3)


# ---- the corpus score: summed counts ------------------------------------------------------------
def test_micro_average_sums_counts():
    """The reference scorer scores a corpus from its documents' summed counts: two identical
    annotations of a corpus where only some documents have links score MUC 1, where a mean of
    per-document F1 with MUC = 0 on the documents without links would not."""
    docs = [("ab c", "ab c"), ("a b", "a b"), ("abc d", "abc d"), ("a", "a")]
    total = {m: sum(cs.counts(s(k), s(r))[m] for k, r in docs) for m in cs.METRICS}
    for m in cs.METRICS:
        assert cs.rpf(m, total[m]).tolist() == [1, 1, 1], m
    per_doc = [cs.muc(s(k), s(r)).f1 for k, r in docs]
    assert per_doc == [1, 0, 1, 0]       # what the reference scorer prints per document
    # summed counts of a response with errors, by hand: MUC links 1 + 2 in the key, 0 + 1 found
    docs = [("ab c", "a b c"), ("abc d", "ab cd")]
    muc = sum(cs.counts(s(k), s(r))["muc"] for k, r in docs)
    assert muc.tolist() == [1, 3, 1, 2]
    assert cs.rpf("muc", muc) == approx(1 / 3, 1 / 2, 0.4)


# ---- against scorch and direct transcriptions ---------------------------------------------------
def partition(labels):
    out = {}
    for mention, label in enumerate(labels):
        if label >= 0:
            out.setdefault(label, set()).add(mention)
    return list(out.values())


labels = st.lists(st.integers(-1, 6), max_size=14)


def scorch_or_zero(fn, key, resp):
    try:
        return fn(key, resp)
    except Exception:   # scorch's harmonic_mean raises when R = P = 0 (CEAF with no overlap)
        return (0.0, 0.0, 0.0)


SCORCH = [("muc", scorch.muc), ("b_cubed", scorch.b_cubed), ("ceaf_e", scorch.ceaf_e),
          ("ceaf_m", scorch.ceaf_m), ("blanc", scorch.blanc)]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")   # inside scorch's harmonic_mean
@settings(max_examples=400, deadline=None)
@given(labels, labels)
def test_equal_to_scorch(a, b):
    """Every score equals scorch's, but BLANC when the key has fewer than two mentions: scorch
    scores 1 there when the response has no link (two identical one-mention documents), the
    reference scorer 0."""
    key, resp = partition(a), partition(b)
    for name, theirs in SCORCH:
        ours = cs.SCORES[name](key, resp)
        if name == "blanc" and sum(map(len, key)) < 2:
            assert ours == approx(0, 0, 0)
            continue
        assert ours == approx(*scorch_or_zero(theirs, key, resp)), name


def lea_direct(key, resp):
    """LEA transcribed from Moosavi & Strube (2016), Eq. 1-2, with singleton self-links."""
    def side(k_side, r_side):
        num = den = 0.0
        for k in k_side:
            if len(k) == 1:
                links, resolved = 1, float(k in r_side)
            else:
                links = len(k) * (len(k) - 1) / 2
                resolved = sum(1 for x, y in combinations(k, 2)
                               if any(x in r and y in r for r in r_side))
            num += len(k) * resolved / links
            den += len(k)
        return num / den if den else 0.0
    r, p = side(key, resp), side(resp, key)
    return r, p, 2 * p * r / (p + r) if p + r else 0.0


@settings(max_examples=300, deadline=None)
@given(labels, labels)
def test_lea_equals_its_definition(a, b):
    key, resp = partition(a), partition(b)
    assert cs.lea(key, resp) == approx(*lea_direct(key, resp))


def blanc_reference(docs):
    """BLANC of a corpus as the reference scorer computes it (CorScorer.pm, ScoreBLANC and
    ComputeBLANCFromCounts): the link sets of every document, their sizes summed, then the
    edge cases on the sums."""
    tot = np.zeros(6)
    for key, resp in docs:
        sides = []
        for part in (key, resp):
            coref = {frozenset(p) for c in part for p in combinations(c, 2)}
            non = {frozenset((x, y)) for c, d in combinations(part, 2) for x in c for y in d}
            sides.append((coref, non))
        (ck, nk), (cr, nr) = sides
        tot += [len(ck & cr), len(ck), len(cr), len(nk & nr), len(nk), len(nr)]
    tp_c, c_k, c_r, tp_n, n_k, n_r = tot

    def rpf(tp, k, r):
        rec, pre = tp / k if k else 0.0, tp / r if r else 0.0
        return np.array([rec, pre, 2 * rec * pre / (rec + pre) if rec + pre else 0.0])
    if not c_k and not n_k:
        return np.zeros(3)
    if not c_k:
        return rpf(tp_n, n_k, n_r)
    if not n_k:
        return rpf(tp_c, c_k, c_r)
    return (rpf(tp_c, c_k, c_r) + rpf(tp_n, n_k, n_r)) / 2


def random_corpus(rng, n_docs, n_annotators):
    """Cluster ids of each annotator on the items of ``n_docs`` documents (-1: not marked)."""
    sizes = rng.integers(0, 12, n_docs)
    doc_items = np.concatenate([[0], np.cumsum(sizes)])
    truth = rng.integers(0, 5, doc_items[-1])
    clusters = np.where(rng.random((n_annotators, doc_items[-1])) < 0.7, truth,
                        rng.integers(0, 5, (n_annotators, doc_items[-1])))
    clusters[rng.random(clusters.shape) < 0.2] = -1
    annotated = rng.random((n_annotators, n_docs)) < 0.85
    return clusters, doc_items, annotated


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("seed", range(20))
def test_random_corpora_against_scorch(seed):
    """On random corpora of several annotators: every (document, pair) figure equals scorch's
    (BLANC but its one-mention edge case, see above) and LEA's definition; each pair's corpus
    score equals scorch's on the corpus as one document (mentions keyed by document) for MUC,
    B³ and both CEAF — sums of counts, as the reference scorer scores a corpus — and the
    reference scorer's BLANC transcribed (which sums link counts: one document would add the
    non-coreference links across documents)."""
    rng = np.random.default_rng(seed)
    clusters, doc_items, annotated = random_corpus(rng, int(rng.integers(1, 6)), 3)
    t = cs.document_pairs(clusters, doc_items, annotated)
    figures = t.figures()

    def part(a, d):
        return partition(clusters[a, doc_items[d]:doc_items[d + 1]].tolist())

    for k, (d, a, b) in enumerate(zip(t.doc, t.key, t.response, strict=True)):
        key, resp = part(a, d), part(b, d)
        for j, m in enumerate(t.metrics):
            ours = figures[k, j]
            if np.isnan(ours).any():
                assert np.isnan(ours).all() and not cs.defined(m, t.of(m)[k])
                continue
            if m == "lea":
                assert ours == pytest.approx(lea_direct(key, resp), abs=1e-12)
            elif m != "blanc" or sum(map(len, key)) >= 2:
                theirs = scorch_or_zero(dict(SCORCH)[m], key, resp)
                assert ours == pytest.approx(theirs, abs=1e-12), (m, key, resp)
    key_, resp_, inv = t.pair_index(3)
    for p, (a, b) in enumerate(zip(key_, resp_, strict=True)):
        docs = t.doc[inv == p]
        whole = [[{(d, m) for m in c} for d in docs for c in part(x, d)] for x in (a, b)]
        micro = t.micro(inv == p)
        for j, m in enumerate(t.metrics):
            if m == "blanc":
                want = blanc_reference([(part(a, d), part(b, d)) for d in docs])
            elif m == "lea":
                want = lea_direct(*whole)
            else:
                want = scorch_or_zero(dict(SCORCH)[m], *whole)
            assert micro[j] == pytest.approx(want, abs=1e-12), m


def test_any_hashable_keys_and_identity():
    key = [{("d1", (0, 2)), ("d1", (5, 6))}, {("d2", (1, 3))}]
    for name, fn in cs.SCORES.items():
        assert fn(key, key).f1 == 1.0, name


def test_input_validation():
    with pytest.raises(ValueError, match="key: mention 'a' is in more than one cluster"):
        cs.muc([{"a", "b"}, {"a"}], [{"a"}])
    with pytest.raises(ValueError, match="response: cluster 1 is empty"):
        cs.lea([{"a"}], [{"a"}, set()])
    with pytest.raises(ValueError, match="unknown"):
        cs.counts([{"a"}], [{"a"}], ["ceaf"])


def test_large_documents():
    """20,000 mentions (the time: benchmarks/pathological.py)."""
    rng = random.Random(0)
    n = 20000
    gold = np.arange(n) // 4
    noisy = gold.copy()
    flip = rng.sample(range(n), n // 10)
    noisy[flip] = rng.choices(range(n // 4), k=len(flip))
    key, resp = partition(gold.tolist()), partition(noisy.tolist())
    for metric, c in cs.counts(key, resp).items():
        assert 0.5 < cs.rpf(metric, c)[2] < 1, metric


def test_key_and_response_order():
    """F1 is symmetric in key and response for MUC, B³, both CEAF and LEA, not for BLANC's edge
    cases; all singletons give MUC 0 even against themselves (the reference scorer's 0/0)."""
    x, y, z = s("abc"), s("ab c"), s("a b c")
    for name in ("muc", "b_cubed", "ceaf_e", "ceaf_m", "lea"):
        assert cs.SCORES[name](x, y).f1 == pytest.approx(cs.SCORES[name](y, x).f1)
    assert (cs.blanc(z, y).f1, cs.blanc(y, z).f1) == approx(0.8, 0.4)
    assert cs.muc(z, z).f1 == 0.0


# ---- every pair of every document ---------------------------------------------------------------
def test_document_pairs_on_arrays():
    """Counts from cluster ids: who annotated what decides the pairs; the key is the first
    annotator; figures are nan where undefined; the micro average sums the counts."""
    clusters = np.array([[0, 0, 1, 5, 5, -1],
                         [0, 1, 1, 7, -1, 7],
                         [-1, -1, -1, -1, -1, -1]])
    doc_items = np.array([0, 3, 6, 6])
    annotated = np.array([[1, 1, 0], [1, 1, 1], [0, 0, 1]], bool)
    seen = []
    t = cs.document_pairs(clusters, doc_items, annotated, ("muc", "b_cubed", "blanc"),
                          progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert (t.doc.tolist(), t.key.tolist(), t.response.tolist()) == ([0, 1, 2], [0, 0, 1],
                                                                       [1, 1, 2])
    assert t.counts.shape == (3, 16)
    assert t.of("muc")[0].tolist() == cs.counts([{0, 1}, {2}], [{0}, {1, 2}])["muc"].tolist()
    figures = t.figures()
    assert figures[0, 0].tolist() == list(cs.muc([{0, 1}, {2}], [{0}, {1, 2}]))
    assert figures[1, 1].tolist() == list(cs.b_cubed([{0, 1}], [{0, 2}]))
    assert np.isnan(figures[2]).all()                 # both annotators marked nothing
    key, resp, inv = t.pair_index(3)
    assert (key.tolist(), resp.tolist(), inv.tolist()) == ([0, 1], [1, 2], [0, 0, 1])
    assert t.micro(inv == 0)[1].tolist() == pytest.approx(
        cs.rpf("b_cubed", t.of("b_cubed")[:2].sum(0)).tolist())
    means, n = cs.macro(figures, inv, 2)
    assert means[0, 1].tolist() == pytest.approx(figures[:2, 1].mean(0).tolist())
    assert n[:, 0, 2].tolist() == [2, 0] and np.isnan(means[1]).all()
    with pytest.raises(ValueError, match="unknown"):
        cs.document_pairs(clusters, doc_items, annotated, ("ceaf",))
