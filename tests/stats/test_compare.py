"""Comparing two studies (paired or not), the cluster jackknife, and planning by simulation."""

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.stats.compare import compare, width_by_documents
from corpusagree.stats.inference import Bootstrap


def study(rng, truth, noise, docs, missing=0.1, coders=3):
    n = len(truth)
    codes = np.where(rng.random((coders, n)) < noise, rng.integers(0, 4, (coders, n)), truth)
    codes[rng.random((coders, n)) < missing] = -1
    return ca.ReliabilityData(codes, labels=list("abcd"), groups=np.arange(n) * docs // n,
                              group_names=[f"d{g}" for g in range(docs)])


@pytest.fixture
def pair():
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 4, 300)
    return study(rng, truth, 0.15, 20), study(rng, truth, 0.35, 20)


def test_jackknife_is_leave_one_document_out(pair):
    data = pair[0]
    iv = ca.alpha(data).confidence_interval(interval="jackknife")
    # written out: α without each document, the jackknife variance, a t interval
    left = np.array([ca.alpha(data.subset(items=data.groups != g)).value
                     for g in range(20)])
    se = np.sqrt(19 / 20 * ((left - left.mean()) ** 2).sum())
    from scipy.stats import t
    half = t.ppf(0.975, 19) * se
    est = ca.alpha(data).value
    assert iv.method == "jackknife" and iv.clustered and iv.units == 20
    assert iv.se == pytest.approx(se, rel=1e-12)
    assert (iv.low, iv.high) == pytest.approx((est - half, est + half), rel=1e-12)
    np.testing.assert_allclose(np.sort(iv.distribution), np.sort(left), rtol=1e-12)


def test_jackknife_other_coefficients_and_items(pair):
    data = pair[1]
    for coef in ("multi_kappa", "gwet_ac1", "pi", "beta"):
        fn = getattr(ca, coef)
        iv = fn(data).confidence_interval(interval="jackknife")
        left = np.array([fn(data.subset(items=data.groups != g)).value for g in range(20)])
        se = np.sqrt(19 / 20 * ((left - left.mean()) ** 2).sum())
        assert iv.se == pytest.approx(se, rel=1e-10), coef


def test_paired_difference_and_its_interval(pair):
    a, b = pair
    c = compare(a, b, bootstrap=Bootstrap(400, seed=3))
    assert c.paired and "paired" in c.notes[0]
    assert c.a == pytest.approx(ca.alpha(a).value) and c.b == pytest.approx(ca.alpha(b).value)
    assert c.difference == pytest.approx(c.a - c.b)
    assert 0 < c.interval.low < c.difference < c.interval.high
    assert c.p_value < 0.01
    # the same study twice: no difference, every replicate 0
    same = compare(a, a, bootstrap=Bootstrap(200, seed=3))
    assert same.difference == 0 and same.interval.low == same.interval.high == 0
    assert same.p_value == 1


def test_paired_replicates_resample_documents_jointly(pair):
    a, b = pair
    # a replicate written out: the documents drawn once, both studies on the same draw
    rng = np.random.default_rng(11)
    draw = rng.integers(0, 20, 20)

    def on_draw(d):
        parts = [d.subset(items=d.groups == g) for g in draw]
        codes = np.concatenate([p.codes for p in parts], 1)
        return ca.alpha(ca.ReliabilityData(codes, labels=d.labels)).value

    from corpusagree.stats.compare import _Target, _unit_of
    index = {f"d{g}": g for g in range(20)}
    w = np.bincount(draw, minlength=20)[None, :].astype(float)
    ta = _Target(a, "alpha", "nominal", {}, _unit_of(a, True, index), 20)
    tb = _Target(b, "alpha", "nominal", {}, _unit_of(b, True, index), 20)
    # the distance is bound to the full data (as every bootstrap of the engine): nominal
    assert float(ta.values(w)[0] - tb.values(w)[0]) == pytest.approx(
        on_draw(a) - on_draw(b), rel=1e-10)


def test_independent_when_documents_differ():
    rng = np.random.default_rng(2)
    a = study(rng, rng.integers(0, 4, 200), 0.2, 10)
    b = study(rng, rng.integers(0, 4, 120), 0.2, 6)
    b.group_names = [f"other{g}" for g in range(6)]
    c = compare(a, b, bootstrap=Bootstrap(300, seed=1))
    assert not c.paired and c.units == 16 and "independent" in c.notes[0]
    j = compare(a, b, bootstrap=Bootstrap(interval="jackknife"))
    sa = ca.alpha(a).confidence_interval(interval="jackknife").se
    sb = ca.alpha(b).confidence_interval(interval="jackknife").se
    assert j.interval.se == pytest.approx(np.hypot(sa, sb))
    with pytest.raises(ValueError, match="share no"):
        compare(a, b, paired=True)


def test_tost_either_side_of_the_margin(pair):
    a, b = pair
    base = compare(a, b, bootstrap=Bootstrap(interval="jackknife"), margin=0.5)
    lo, hi = base.tost_interval
    # the 90 % interval for level .95: narrower than the 95 % one
    assert base.interval.low < lo < hi < base.interval.high
    edge = max(abs(lo), abs(hi))
    above = compare(a, b, bootstrap=Bootstrap(interval="jackknife"), margin=edge + 0.005)
    below = compare(a, b, bootstrap=Bootstrap(interval="jackknife"), margin=edge - 0.005)
    assert above.equivalent is True and below.equivalent is False
    # A better than B: non-inferior at any margin; B against A only within the margin
    assert below.noninferior is True
    rev = compare(b, a, bootstrap=Bootstrap(interval="jackknife"), margin=hi + 0.005)
    assert rev.noninferior is True
    rev = compare(b, a, bootstrap=Bootstrap(interval="jackknife"), margin=hi - 0.005)
    assert rev.noninferior is False


@pytest.mark.parametrize("kwargs", [{"margin": 0}, {"margin": 1.5}, {"margin": "0.1"},
                                    {"bootstrap": 100}, {"coefficient": "nope"}])
def test_bad_values(pair, kwargs):
    with pytest.raises((ValueError, TypeError)):
        compare(*pair, **kwargs)


def test_jackknife_needs_two_documents():
    data = ca.ReliabilityData([[0, 1, 1], [0, 1, 0]], labels=[0, 1], groups=[0, 0, 0],
                              group_names=["only"])
    with pytest.raises(ValueError, match="two"):
        compare(data, data, bootstrap=Bootstrap(interval="jackknife"))


def test_width_shrinks_with_documents(pair):
    rows = width_by_documents(pair[0], [5, 20, 80], n_resamples=400, seed=1)
    widths = [r["width"] for r in rows]
    assert widths[0] > widths[1] > widths[2] > 0
    # about 1/sqrt(n): 4x the documents, about half the width
    assert 0.35 < widths[2] / widths[1] < 0.7
