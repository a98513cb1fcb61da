"""Property tests (hypothesis) for the coefficient engine: invariances, the inequalities of
Artstein & Poesio (2005, §3, appendices A and B), identities between coefficients, and the
behaviour on degenerate data."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import corpusagree as ca
from corpusagree.stats.kernel import kernel as engine

VALUES = [0, 1, 2, 3.5, 5, 8]
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ---- strategies -------------------------------------------------------------------------------
@st.composite
def matrices(draw, complete: bool = False, min_coders: int = 2, max_coders: int = 4,
             max_items: int = 10) -> np.ndarray:
    """A coders × items float array over 2–4 of VALUES, NaN = missing; at least one item has
    two judgements and the judgements of such items use at least two values."""
    c = draw(st.integers(min_coders, max_coders))
    n = draw(st.integers(2, max_items))
    vals = draw(st.lists(st.sampled_from(VALUES), min_size=2, max_size=4, unique=True))
    lo = 0 if complete else -1
    idx = draw(st.lists(st.lists(st.integers(lo, len(vals) - 1), min_size=n, max_size=n),
                        min_size=c, max_size=c))
    idx = np.array(idx)
    arr = np.where(idx >= 0, np.array(vals, float)[np.maximum(idx, 0)], np.nan)
    pairable = (~np.isnan(arr)).sum(0) >= 2
    assume(pairable.any())
    used = arr[:, pairable]
    assume(len(np.unique(used[~np.isnan(used)])) >= 2)
    return arr


@st.composite
def set_triples(draw, max_coders: int = 4, max_items: int = 8) -> list[tuple]:
    """(coder, item, frozenset) triples over elements a..d, some judgements missing."""
    c = draw(st.integers(2, max_coders))
    n = draw(st.integers(2, max_items))
    sets = st.frozensets(st.sampled_from("abcd"), min_size=0, max_size=3)
    out = []
    for i in range(n):
        for k in range(c):
            s = draw(st.one_of(st.none(), sets))
            if s is not None:
                out.append((f"c{k}", f"i{i}", s))
    counts: dict = {}
    for _, i, s in out:
        counts.setdefault(i, []).append(s)
    pairable = [s for ss in counts.values() if len(ss) >= 2 for s in ss]
    assume(len(set(pairable)) >= 2)
    return out


def data_of(arr: np.ndarray) -> ca.ReliabilityData:
    return ca.ReliabilityData.from_matrix(arr)


def active_coders(arr: np.ndarray) -> int:
    return int(((~np.isnan(arr)).sum(1) > 0).sum())


def values(data, distances=("nominal",)) -> dict:
    """Every applicable coefficient of the data, by name (nan where undefined)."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ca.DegenerateWarning)
        out["A_o"] = float(ca.percent_agreement(data))
        out["S"] = float(ca.S(data))
        out["pi"] = float(ca.pi(data))
        out["multi_kappa"] = float(ca.multi_kappa(data))
        e = engine(data)
        if e.n_coders == 2:
            out["kappa"] = float(ca.kappa(data))
        for d in distances:
            out[f"alpha/{d}"] = float(ca.alpha(data, d))
            out[f"alpha_prime/{d}"] = float(ca.alpha_prime(data, d))
            out[f"beta/{d}"] = float(ca.beta(data, d))
            out[f"bias/{d}"] = float(ca.bias(data, d))
            if not data.is_set:
                out[f"light_kappa/{d}"] = float(ca.light_kappa(data, d))
                if e.n_coders == 2:
                    out[f"kappa_w/{d}"] = float(ca.kappa_w(data, d))
    return out


def assert_same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        if math.isnan(a[k]):
            assert math.isnan(b[k]), k
        else:
            assert b[k] == pytest.approx(a[k], abs=1e-9), k


NUMERIC = ("nominal", "ordinal", "interval", "ratio")
SETS = ("nominal", "jaccard", "dice", "passonneau", "masi")


# ============================================================================================
# Invariances
# ============================================================================================
@SETTINGS
@given(arr=matrices(), data=st.data())
def test_invariant_under_permuting_coders_and_items(arr, data):
    pc = data.draw(st.permutations(range(arr.shape[0])))
    pi_ = data.draw(st.permutations(range(arr.shape[1])))
    ref = values(data_of(arr), NUMERIC)
    assert_same(ref, values(data_of(arr[list(pc)]), NUMERIC))
    assert_same(ref, values(data_of(arr[:, list(pi_)]), NUMERIC))


@SETTINGS
@given(arr=matrices(), data=st.data())
def test_nominal_invariant_under_renaming_labels(arr, data):
    """Any bijection of labels (here onto strings, which reorders the label table)."""
    labels = sorted(set(arr[~np.isnan(arr)].tolist()))
    names = data.draw(st.permutations([f"L{k}" for k in range(len(labels))]))
    rename = dict(zip(labels, names, strict=True))
    renamed = np.array([[None if np.isnan(v) else rename[v] for v in row] for row in arr],
                       dtype=object)
    ref = values(data_of(arr))
    got = values(ca.ReliabilityData.from_matrix(renamed))
    assert_same(ref, got)


@SETTINGS
@given(trips=set_triples(), data=st.data())
def test_set_coefficients_invariant_under_renaming_and_permuting(trips, data):
    rename = dict(zip("abcd", data.draw(st.permutations(["w", "x", "y", "z"])), strict=True))
    renamed = [(c, i, frozenset(rename[e] for e in s)) for c, i, s in trips]
    coders = sorted({c for c, _, _ in trips})
    pc = dict(zip(coders, data.draw(st.permutations(coders)), strict=True))
    shuffled = data.draw(st.permutations(renamed))  # order of triples = order of items/coders
    permuted = [(pc[c], i, s) for c, i, s in shuffled]
    ref = values(ca.ReliabilityData.from_triples(trips), SETS)
    assert_same(ref, values(ca.ReliabilityData.from_triples(renamed), SETS))
    assert_same(ref, values(ca.ReliabilityData.from_triples(permuted), SETS))


# ============================================================================================
# Perfect agreement
# ============================================================================================
@st.composite
def perfect(draw) -> np.ndarray:
    c = draw(st.integers(2, 5))
    n = draw(st.integers(2, 12))
    item_vals = draw(st.lists(st.sampled_from(VALUES), min_size=n, max_size=n))
    present = np.array(draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n),
                                     min_size=c, max_size=c)))
    arr = np.where(present, np.array(item_vals, float)[None, :], np.nan)
    pairable = present.sum(0) >= 2
    assume(len(set(np.array(item_vals)[pairable].tolist())) >= 2)
    return arr


@SETTINGS
@given(arr=perfect())
def test_perfect_agreement_is_one(arr):
    data = data_of(arr)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ca.DegenerateWarning)
        for d in NUMERIC:
            for f in (ca.alpha, ca.beta, ca.alpha_prime):
                assert float(f(data, d)) == pytest.approx(1.0, abs=1e-12), (f.__name__, d)
        assert float(ca.pi(data)) == pytest.approx(1.0, abs=1e-12)
        assert float(ca.multi_kappa(data)) == pytest.approx(1.0, abs=1e-12)
        assert float(ca.percent_agreement(data)) == 1.0


@SETTINGS
@given(trips=set_triples())
def test_perfect_agreement_is_one_for_sets(trips):
    first = {}
    for _, i, s in trips:
        first.setdefault(i, s)
    agreed = [(c, i, first[i]) for c, i, _ in trips]
    counts: dict = {}
    for _, i, s in agreed:
        counts.setdefault(i, []).append(s)
    assume(len({ss[0] for ss in counts.values() if len(ss) >= 2}) >= 2)
    data = ca.ReliabilityData.from_triples(agreed)
    for d in SETS:
        for f in (ca.alpha, ca.beta, ca.alpha_prime):
            assert float(f(data, d)) == pytest.approx(1.0, abs=1e-12), (f.__name__, d)


# ============================================================================================
# κ ≥ π, multi-κ ≥ multi-π, β ≥ α′ and the bias (A&P §3, appendices A and B)
# ============================================================================================
# Restricted to COMPLETE data and to nominal/interval distances. With missing data P̂(k) is
# item-weighted ((1/i) Σ_i n_ik/n_i) and no longer the mean of the coders' distributions
# P̂(k|c), and coder pairs are weighted by P̂(c_m)P̂(c_n), so the appendix-B algebra does not
# apply. And De^β − De^α′ = −1/(c(c−1)) Σ_c (f_c − ḡ)ᵀ D (f_c − ḡ) is ≥ 0 only when d is
# conditionally negative definite (xᵀDx ≤ 0 whenever Σx = 0), as the nominal and the squared
# interval distances are, but an arbitrary weight matrix (or ratio) need not be.
@SETTINGS
@given(arr=matrices(complete=True, max_coders=5))
def test_biased_coefficients_not_below_unbiased(arr):
    data = data_of(arr)
    eps = 1e-12
    assert float(ca.multi_kappa(data)) >= float(ca.pi(data)) - eps
    if arr.shape[0] == 2:
        assert float(ca.kappa(data)) >= float(ca.pi(data)) - eps
    for d in ("nominal", "interval"):
        assert float(ca.beta(data, d)) >= float(ca.alpha_prime(data, d)) - eps
        assert float(ca.bias(data, d)) >= -eps


@SETTINGS
@given(arr=matrices(complete=True, max_coders=5))
def test_bias_matches_appendix_formulas(arr):
    """Nominal: B = A_e^π − A_e^κ = Σ_k Var_c P̂(k|c) / (c − 1) (appendix A). Interval:
    B = 2 Var_c(mean of coder c) / (c − 1) (appendix B with d = (a − b)², derived here:
    xᵀDx = −2(vᵀx)² when Σx = 0)."""
    data = data_of(arr)
    c = arr.shape[0]
    labels = np.unique(arr)
    f = (arr[:, :, None] == labels[None, None, :]).mean(1)  # P̂(k|c), coders × labels
    b_nom = ca.bias(data)
    assert float(b_nom) == pytest.approx(f.var(0).sum() / (c - 1), abs=1e-12)
    assert float(b_nom) == pytest.approx(ca.pi(data).A_e - ca.multi_kappa(data).A_e, abs=1e-12)
    b_int = ca.bias(data, "interval")
    assert float(b_int) == pytest.approx(2 * arr.mean(1).var() / (c - 1), abs=1e-9)
    for d in ("nominal", "interval", "ratio"):
        b = ca.bias(data, d)
        assert float(b) == pytest.approx(ca.beta(data, d).expected -
                                         ca.alpha_prime(data, d).expected, abs=1e-12)


@SETTINGS
@given(arr=matrices())
def test_bias_is_de_beta_minus_de_alpha_prime_with_missing_data(arr):
    data = data_of(arr)
    for d in NUMERIC:
        b = ca.bias(data, d)
        assert float(b) == pytest.approx(ca.beta(data, d).expected -
                                         ca.alpha_prime(data, d).expected, abs=1e-12)
        assert b.details["De_beta"] - b.details["De_alpha_prime"] == pytest.approx(float(b))


# ============================================================================================
# Identities between coefficients
# ============================================================================================
@SETTINGS
@given(arr=matrices(min_coders=2, max_coders=2, max_items=14))
def test_two_coder_beta_is_kappa_w_and_kappa(arr):
    assume(active_coders(arr) == 2)
    data = data_of(arr)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ca.DegenerateWarning)
        for d in NUMERIC:
            b, kw = float(ca.beta(data, d)), float(ca.kappa_w(data, d))
            assert (math.isnan(b) and math.isnan(kw)) or b == pytest.approx(kw, abs=1e-12)
        k, mk, bn = float(ca.kappa(data)), float(ca.multi_kappa(data)), float(ca.beta(data))
    assert (math.isnan(k) and math.isnan(bn)) or k == pytest.approx(bn, abs=1e-12)
    assert (math.isnan(k) and math.isnan(mk)) or k == pytest.approx(mk, abs=1e-12)


@SETTINGS
@given(arr=matrices(complete=True, min_coders=2, max_coders=2, max_items=14))
def test_two_coder_kappa_w_from_confusion_table(arr):
    """κw from the two coders' joint distribution: 1 − Σ p_jl d_jl / Σ p_j. p_.l d_jl."""
    data = data_of(arr)
    v = np.unique(arr)
    T = (arr[0][:, None, None] == v[None, :, None]) & (arr[1][:, None, None] == v[None, None, :])
    P = T.mean(0)
    D = (v[:, None] - v[None, :]) ** 2
    ref = 1 - (P * D).sum() / (P.sum(1)[:, None] * P.sum(0)[None, :] * D).sum()
    assert float(ca.kappa_w(data, "interval")) == pytest.approx(ref, abs=1e-9)


@SETTINGS
@given(arr=matrices(max_coders=5))
def test_nominal_beta_is_multi_kappa_and_nominal_alpha_prime_is_pi(arr):
    data = data_of(arr)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ca.DegenerateWarning)
        pairs = [(ca.beta(data, "nominal"), ca.multi_kappa(data)),
                 (ca.alpha_prime(data, "nominal"), ca.pi(data))]
    for a, b in pairs:
        assert a.observed == pytest.approx(b.observed, abs=1e-12)
        assert a.expected == pytest.approx(b.expected, abs=1e-12)
        assert (math.isnan(a.value) and math.isnan(b.value)) or \
            a.value == pytest.approx(b.value, abs=1e-12)


@SETTINGS
@given(arr=matrices(complete=True, max_coders=5))
def test_alpha_and_alpha_prime_on_complete_data(arr):
    """Complete data: Do is the same and De^α = n/(n−1) De^α′ with n = coders × items values,
    so 1 − α = (1 − α′)(n − 1)/n (A&P §2.5)."""
    data = data_of(arr)
    n = arr.size
    for d in ("nominal", "ordinal", "interval", "ratio"):
        a, ap = ca.alpha(data, d), ca.alpha_prime(data, d)
        assert a.observed == pytest.approx(ap.observed, abs=1e-12)
        assert 1 - float(a) == pytest.approx((1 - float(ap)) * (n - 1) / n, abs=1e-9)


def test_alpha_and_alpha_prime_approach_as_items_grow():
    """A loose check on random data with missing values: |α − α′| shrinks with more items."""
    rng = np.random.default_rng(3)
    gaps = []
    for items in (8, 80, 2000):
        diffs = []
        for _ in range(5):
            truth = rng.integers(0, 4, items).astype(float)
            arr = np.where(rng.random((3, items)) < 0.7, truth, rng.integers(0, 4, (3, items)))
            arr[rng.random(arr.shape) < 0.2] = np.nan
            data = data_of(arr)
            diffs.append(abs(float(ca.alpha(data, "interval")) -
                             float(ca.alpha_prime(data, "interval"))))
        gaps.append(np.mean(diffs))
    assert gaps[0] > gaps[2]
    assert gaps[2] < 0.01


# ============================================================================================
# Degenerate data
# ============================================================================================
ALL_PLAIN = [("alpha", lambda d: ca.alpha(d)), ("alpha_prime", lambda d: ca.alpha_prime(d)),
             ("beta", lambda d: ca.beta(d)), ("pi", ca.pi), ("multi_kappa", ca.multi_kappa),
             ("S", ca.S), ("alpha/interval", lambda d: ca.alpha(d, "interval")),
             ("beta/interval", lambda d: ca.beta(d, "interval")),
             ("alpha_prime/ordinal", lambda d: ca.alpha_prime(d, "ordinal")),
             ("light_kappa", ca.light_kappa)]


@pytest.mark.parametrize("name,f", ALL_PLAIN + [("percent_agreement", ca.percent_agreement),
                                                ("bias", ca.bias)])
def test_no_pairable_item_raises(name, f):
    data = ca.ReliabilityData.from_triples([("A", 1, 1), ("B", 2, 2), ("C", 3, 1),
                                            ("A", 4, None)])
    with pytest.raises(ValueError, match="two or more judgements"):
        f(data)


# Interval and ordinal included: their cross product centres values on the row mean, so a
# single label gives an exact 0 (it once left a ±1e-15 residue and returned 1.0).
DEGENERATE_RANDOM = list(ALL_PLAIN)
DEGENERATE_RANDOM += [("alpha/ratio", lambda d: ca.alpha(d, "ratio")),
                      ("beta/ratio", lambda d: ca.beta(d, "ratio")),
                      ("light_kappa/ratio", lambda d: ca.light_kappa(d, "ratio"))]


@SETTINGS
@given(coders=st.integers(2, 4), items=st.integers(2, 8), label=st.sampled_from(VALUES),
       mask=st.lists(st.booleans(), min_size=32, max_size=32))
def test_single_label_is_nan_with_warning(coders, items, label, mask):
    arr = np.full((coders, items), float(label))
    present = np.array(mask[:coders * items]).reshape(coders, items)
    present[:2, 0] = True  # at least one pairable item
    arr[~present] = np.nan
    data = data_of(arr)
    for name, f in DEGENERATE_RANDOM:
        with pytest.warns(ca.DegenerateWarning):
            v = float(f(data))
        assert math.isnan(v), name
    if active_coders(arr) == 2:
        for f in (ca.kappa, lambda d: ca.kappa_w(d, "ratio")):
            with pytest.warns(ca.DegenerateWarning):
                assert math.isnan(float(f(data)))
    assert float(ca.percent_agreement(data)) == 1.0


def test_single_integer_label_interval_is_nan_with_warning():
    data = data_of(np.array([[2, 2, 2, np.nan], [2, 2, 2, 2], [np.nan, 2, 2, 2]], float))
    for f in (ca.alpha, ca.alpha_prime, ca.beta, ca.light_kappa):
        for d in ("interval", "ordinal"):
            with pytest.warns(ca.DegenerateWarning):
                assert math.isnan(float(f(data, d)))


_n = np.nan


@pytest.mark.parametrize("coef,level,arr", [
    ("alpha", "interval", [[0.7] * 5, [0.7] * 5]),
    ("alpha", "interval", [[0.7, 0.7], [0.7, _n], [0.7, 0.7]]),
    ("alpha_prime", "interval", [[0.3, 0.3], [0.3, 0.3], [_n, 0.3]]),
    ("alpha_prime", "ordinal", [[3.5, _n], [3.5, 3.5], [3.5, _n]]),
    ("beta", "interval", [[0.7, 0.7, 0.7], [0.7, 0.7, _n], [0.7, 0.7, _n]]),
    ("beta", "ordinal", [[0.7, 0.7, 0.7], [0.7, 0.7, _n], [0.7, 0.7, _n]]),
])
def test_single_label_interval_ordinal_is_nan(coef, level, arr):
    data = data_of(np.array(arr, float))
    with pytest.warns(ca.DegenerateWarning):
        v = float(getattr(ca, coef)(data, level))
    assert math.isnan(v)


def test_single_set_label_is_nan_with_warning():
    s = frozenset("ab")
    data = ca.ReliabilityData.from_triples([(c, i, s) for c in "AB" for i in range(3)])
    for d in SETS:
        for f in (ca.alpha, ca.alpha_prime, ca.beta):
            with pytest.warns(ca.DegenerateWarning):
                assert math.isnan(float(f(data, d)))


def test_two_coder_coefficients_refuse_three_coders():
    data = data_of(np.array([[1, 2, 3, 1], [1, 2, 2, 1], [2, 2, 3, 1]], float))
    for f in (ca.kappa, ca.kappa_w, lambda d: ca.kappa_w(d, "nominal")):
        with pytest.raises(ValueError) as exc:
            f(data)
        msg = str(exc.value)
        for name in ("multi_kappa", "light_kappa", "beta"):
            assert name in msg


def test_coder_without_judgements_is_not_counted():
    data = ca.ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
                                            ("B", 2, "x"), ("C", 1, None)])
    assert data.n_coders == 3
    assert float(ca.kappa(data)) == pytest.approx(float(ca.beta(data)))
    assert ca.kappa(data).coders == 2


@SETTINGS
@given(arr=matrices(max_coders=5))
def test_counts_by_n_equal_direct_counts(arr):
    """Krippendorff's n_k and Σ_i n_ik/n_i from the (n_i, label) table equal the direct counts,
    and the kernel's other path (taken when that table would be larger than the codes)."""
    from unittest import mock

    from corpusagree.stats import kernel as kn

    data = data_of(arr)
    codes = data.codes
    rows = np.broadcast_to((codes >= 0).sum(0), codes.shape)[codes >= 0]
    labels = codes[codes >= 0]
    n_k = np.bincount(labels[rows >= 2], minlength=data.n_labels)
    m_k = np.bincount(labels, weights=1.0 / rows, minlength=data.n_labels)
    with mock.patch.object(kn, "counts_by_n", return_value=None) as by_n:
        direct = kn.Kernel(data)
        m_direct = direct.item_weighted  # the weighted count over the codes
    assert by_n.called and m_direct is direct.item_weighted
    for k in (kn.Kernel(data), direct):
        np.testing.assert_array_equal(k.n_k, n_k)
        np.testing.assert_allclose(k.item_weighted, m_k, rtol=1e-12)
    assert kn.counts_by_n(codes, (codes >= 0).sum(0), 2**22) is None
