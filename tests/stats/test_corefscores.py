"""Coreference scores: worked examples from the papers, equality with scorch on random
partitions, LEA against a direct transcription of its definition, the pairwise matrix."""

import random
import time
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scorch import scores as scorch

from corpusagree.stats import corefscores as cs


def approx(*values):
    return pytest.approx(values, abs=1e-12)


def s(text):
    """'abc de' -> [{'a','b','c'}, {'d','e'}]"""
    return [set(part) for part in text.split()]


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


# ---- against scorch and a direct LEA ------------------------------------------------------------

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


@pytest.mark.filterwarnings("ignore::RuntimeWarning")   # inside scorch's harmonic_mean
@settings(max_examples=400, deadline=None)
@given(labels, labels)
def test_equal_to_scorch(a, b):
    key, resp = partition(a), partition(b)
    for ours, theirs in [(cs.muc, scorch.muc), (cs.b_cubed, scorch.b_cubed),
                         (cs.ceaf_e, scorch.ceaf_e), (cs.blanc, scorch.blanc)]:
        assert ours(key, resp) == approx(*scorch_or_zero(theirs, key, resp))


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


def test_any_hashable_keys_and_identity():
    key = [{("d1", (0, 2)), ("d1", (5, 6))}, {("d2", (1, 3))}]
    for name, fn in cs.SCORES.items():
        assert fn(key, key).f1 == 1.0, name


def test_input_validation():
    with pytest.raises(ValueError, match="key: mention 'a' is in more than one cluster"):
        cs.muc([{"a", "b"}, {"a"}], [{"a"}])
    with pytest.raises(ValueError, match="response: cluster 1 is empty"):
        cs.lea([{"a"}], [{"a"}, set()])


def test_large_documents_are_fast():
    rng = random.Random(0)
    n = 20000
    gold = np.arange(n) // 4
    noisy = gold.copy()
    flip = rng.sample(range(n), n // 10)
    noisy[flip] = rng.choices(range(n // 4), k=len(flip))
    key, resp = partition(gold.tolist()), partition(noisy.tolist())
    t0 = time.perf_counter()
    for fn in cs.SCORES.values():
        fn(key, resp)
    assert time.perf_counter() - t0 < 3


# ---- pairwise matrix ----------------------------------------------------------------------------

def test_key_and_response_order():
    """F1 is symmetric in key and response for MUC, B³, CEAF-e and LEA, not for BLANC's edge
    cases; all singletons give MUC 0 even against themselves."""
    x, y, z = s("abc"), s("ab c"), s("a b c")
    for name in ("muc", "b_cubed", "ceaf_e", "lea"):
        assert cs.SCORES[name](x, y).f1 == pytest.approx(cs.SCORES[name](y, x).f1)
    assert (cs.blanc(z, y).f1, cs.blanc(y, z).f1) == approx(0.8, 0.4)
    assert cs.muc(z, z).f1 == 0.0
