"""Gwet's AC1/AC2, Brennan–Prediger, Conger's κ, Fleiss's weighted κ, irrCAC's weights, Gwet's
analytic variances, and the value-count / contingency constructors (issue 14).

Reference values: Gwet's 4-raters example as printed in irrCAC's documentation (always run),
the ``irrcac`` package on random data with missing judgements (when it is installed), and
scikit-learn's ``cohen_kappa_score`` for two coders."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corpusagree as ca
from corpusagree.stats import distances as dist
from corpusagree.stats.diagnostics import subset_values

from support import DATA, load_benchmark

NAN = np.nan
#: Gwet (2014) 4 raters × 12 units, as in irrCAC's ``raw_4raters`` (units × raters)
FOUR_RATERS = np.array([
    [1, 1, NAN, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [NAN, 5, 5, 5], [NAN, NAN, 1, 1],
    [NAN, NAN, 3, NAN]])
WEIGHTS = dist.IRR_WEIGHTS
METHODS = {"gwet": "gwet_ac2", "conger": "conger_kappa", "fleiss": "fleiss_kappa",
           "bp": "brennan_prediger", "krippendorff": "alpha"}


def four_raters() -> ca.ReliabilityData:
    return ca.ReliabilityData.from_matrix(FOUR_RATERS.T)


def ours(method: str, data, weights: str) -> ca.Result:
    if method == "krippendorff":
        return ca.alpha(data, dist.weights(weights))
    return getattr(ca, METHODS[method])(data, weights)


# ---- Gwet's handbook example as irrCAC's documentation prints it ---------------------------
@pytest.mark.parametrize("fn, value, se, pa, pe", [
    (lambda d: ca.gwet_ac1(d), 0.77544, 0.14295, 0.81818, 0.19032),
    (lambda d: ca.fleiss_kappa(d), 0.76117, 0.15302, 0.81818, 0.23872),
    (lambda d: ca.gwet_ac2(d, "bipolar"), 0.90037, 0.10582, 0.96836, 0.68244),
])
def test_handbook_four_raters_as_printed(fn, value, se, pa, pe):
    r = fn(four_raters())
    iv = r.confidence_interval(method="analytic")
    assert (round(r.value, 5), round(iv.se, 5)) == (value, se)
    assert (round(r.p_a, 5), round(r.p_e, 5)) == (pa, pe)
    assert iv.high <= 1 and iv.low < r.value


def test_handbook_four_raters_other_coefficients():
    """Conger, Brennan–Prediger and α on the same data (irrCAC 0.4.4 with the 5 categories)."""
    d = four_raters()
    got = {name: (round(r.value, 5), round(r.confidence_interval(method="analytic").se, 5))
           for name, r in (("conger", ca.conger_kappa(d)), ("bp", ca.brennan_prediger(d)),
                           ("alpha", ca.alpha(d)))}
    assert got == {"conger": (0.76282, 0.14917), "bp": (0.77273, 0.14472),
                   "alpha": (0.74342, 0.14557)}


def test_finite_population_correction():
    d = four_raters()
    se_inf = ca.gwet_ac1(d).confidence_interval(method="analytic").se
    se_fin = ca.gwet_ac1(d).confidence_interval(method="analytic", population=24).se
    assert se_fin == pytest.approx(se_inf * np.sqrt(1 - 12 / 24))


# ---- irrCAC's weights -------------------------------------------------------------------------
def test_weights_names_do_not_clash():
    assert dist.weights("ordinal").name == "irr-ordinal"
    assert dist.get("ordinal").name == "ordinal"  # Krippendorff's, unchanged
    assert dist.weights("identity") is dist.get("nominal")
    assert dist.get("irr-quadratic") is dist.weights("quadratic")
    with pytest.raises(ValueError, match="unknown"):
        dist.IrrWeights("cubic")


@pytest.mark.parametrize("kind", WEIGHTS)
def test_weights_match_irrcac(kind):
    Weights = pytest.importorskip("irrCAC.weights").Weights
    cats = [1.0, 2.0, 4.0, 7.0, 8.0]
    w = Weights(cats)[kind]
    assert np.allclose(1 - dist.irr_distance_matrix(kind, cats), w)


def test_ratio_weights_refuse_zero():
    with pytest.raises(ValueError, match="0 cannot be a category"):
        dist.irr_distance_matrix("ratio", [0, 1, 2])


# ---- differential test against irrcac ----------------------------------------------------------
random_ratings = load_benchmark("irr_fixtures").random_ratings
#: irrcac 0.4.4's values on those ratings (benchmarks/irr_fixtures.py): irrcac itself is not in
#: the test extra, as it pins scipy 1.12 (and so numpy < 2)
FIXTURES = json.loads((DATA / "irr" / "irrcac_random.json").read_text(encoding="utf-8"))


def check(method: str, r: ca.Result, ref: dict) -> None:
    se = r.confidence_interval(method="analytic").se
    assert r.value == pytest.approx(ref["coefficient_value"], abs=1e-9), method
    assert se == pytest.approx(ref["se"], abs=1e-9), method
    if method != "krippendorff":  # irrCAC's α reports (1 − ε)p′_a + ε as p_a
        assert r.p_a == pytest.approx(ref["pa"], abs=1e-9), method
        assert r.p_e == pytest.approx(ref["pe"], abs=1e-9), method


@pytest.mark.parametrize("case", FIXTURES["cases"], ids=lambda c: f"seed{c['seed']}")
def test_against_irrcac_fixtures(case):
    m = np.array([[NAN if x is None else x for x in row] for row in case["ratings"]])
    assert np.array_equal(m, random_ratings(case["seed"]), equal_nan=True)
    data = ca.ReliabilityData.from_matrix(m.T, categories=FIXTURES["categories"])
    for kind, refs in case["weights"].items():
        for method, ref in refs.items():
            check(method, ours(method, data, kind), ref)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", WEIGHTS)
def test_against_irrcac(seed, kind):
    raw = pytest.importorskip("irrCAC.raw")
    pd = pytest.importorskip("pandas")
    m = random_ratings(seed)
    cats = [1.0, 2.0, 3.0, 4.0, 5.0]
    # categories given: irrCAC under pandas 3 counts NaN as a category when it infers them
    cac = raw.CAC(pd.DataFrame(m), weights=kind, categories=cats, digits=12)
    data = ca.ReliabilityData.from_matrix(m.T, categories=cats)
    for method in METHODS:
        check(method, ours(method, data, kind), getattr(cac, method)()["est"])


#: irrcac 0.4.4 with q × q agreement-weight matrices (benchmarks/irr_fixtures.py): asymmetric,
#: over categories in an order of their own, numeric and text labels
CUSTOM = json.loads((DATA / "irr" / "irrcac_custom_weights.json").read_text(encoding="utf-8"))


def custom_data(case: dict, declare: bool) -> ca.ReliabilityData:
    m = [[None if x is None else x for x in row] for row in case["ratings"]]
    cats = case["categories"] if declare else None
    return ca.ReliabilityData.from_matrix(np.array(m, dtype=object).T.tolist(), categories=cats)


@pytest.mark.parametrize("case", CUSTOM["cases"], ids=lambda c: f"seed{c['seed']}")
@pytest.mark.parametrize("declare", [False, True], ids=["categories=", "declared"])
def test_asymmetric_weight_matrix_against_irrcac(case, declare):
    """weights= takes irrCAC's q × q matrix over categories= (or the data's declared
    categories): values, Gwet's standard errors, p_a and p_e equal irrcac's on random ratings
    with missing values, asymmetric weights (Conger's variance is where the orientation
    shows) and categories in an order of their own."""
    W, cats = np.array(case["weights"]), case["categories"]
    assert not np.allclose(W, W.T)
    data = custom_data(case, declare)
    given = None if declare else cats
    for method, ref in case["irrcac"].items():
        if method == "krippendorff":
            r = ca.alpha(data, dist.weights(W, cats))
        else:
            r = getattr(ca, METHODS[method])(data, W, categories=given)
        check(method, r, ref)
    flipped = ca.conger_kappa(data, W.T, categories=given)
    assert flipped.value == pytest.approx(case["irrcac"]["conger"]["coefficient_value"])
    assert flipped.confidence_interval(method="analytic").se != pytest.approx(
        case["irrcac"]["conger"]["se"], abs=1e-9)


def test_weight_matrix_checks_and_its_symmetric_part():
    data = custom_data(CUSTOM["cases"][0], False)
    W, cats = np.array(CUSTOM["cases"][0]["weights"]), CUSTOM["cases"][0]["categories"]
    sym = ca.fleiss_kappa(data, (W + W.T) / 2, categories=cats)
    assert ca.fleiss_kappa(data, W, categories=cats).value == pytest.approx(sym.value)
    assert ca.pi(data, W, categories=cats).value == pytest.approx(sym.value)
    with pytest.raises(ValueError, match="needs categories= giving the order"):
        ca.gwet_ac2(data, W)
    with pytest.raises(ValueError, match="must be q × q over its 5 categories"):
        ca.gwet_ac2(data, W[:4, :4], categories=cats)
    bad = W.copy()
    bad[1, 1] = 0.9
    with pytest.raises(ValueError, match="agrees with itself fully"):
        ca.gwet_ac2(data, bad, categories=cats)
    bad[1, 1], bad[0, 1] = 1.0, 1.5
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\]"):
        ca.gwet_ac2(data, bad, categories=cats)
    with pytest.raises(ValueError, match="is not in the weight matrix"):
        ca.alpha(data, dist.weights(np.eye(2), [1.0, 2.0]))


def test_unused_declared_category_counts_in_q_and_weights():
    raw = pytest.importorskip("irrCAC.raw")
    pd = pytest.importorskip("pandas")
    m = random_ratings(3)
    m[m == 5] = 4
    cats = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    cac = raw.CAC(pd.DataFrame(m), weights="quadratic", categories=cats, digits=12)
    data = ca.ReliabilityData.from_matrix(m.T)
    for method, fn in (("gwet", ca.gwet_ac2), ("bp", ca.brennan_prediger)):
        r = fn(data, "quadratic", categories=cats)
        assert r.value == pytest.approx(cac.__getattribute__(method)()["est"][
            "coefficient_value"], abs=1e-9)
        assert r.details["categories"] == 6
    # without them q is the 4 labels used, and the value differs
    assert ca.gwet_ac2(data, "quadratic").value != pytest.approx(
        ca.gwet_ac2(data, "quadratic", categories=cats).value)


# ---- two coders: scikit-learn's Cohen κ -------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weights, sk", [("identity", None), ("linear", "linear"),
                                         ("quadratic", "quadratic")])
def test_two_coders_conger_is_cohen(seed, weights, sk):
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, 60)
    b = np.where(rng.random(60) < 0.6, a, rng.integers(0, 4, 60))
    a[:4], b[:4] = np.arange(4), np.arange(4)  # every category used: sklearn's labels
    data = ca.ReliabilityData.from_matrix(np.stack([a, b]))
    want = metrics.cohen_kappa_score(a, b, weights=sk)
    assert ca.conger_kappa(data, weights).value == pytest.approx(want, abs=1e-12)
    if weights == "identity":
        assert ca.kappa(data).value == pytest.approx(want, abs=1e-12)


# ---- invariants ------------------------------------------------------------------------------
matrices = st.integers(0, 2 ** 32 - 1).map(lambda s: random_ratings(s).T)


@settings(max_examples=40, deadline=None)
@given(matrices)
def test_identities_between_rows(m):
    d = ca.ReliabilityData.from_matrix(m)
    assert ca.gwet_ac2(d, "identity").value == pytest.approx(ca.gwet_ac1(d).value, abs=1e-12)
    assert ca.brennan_prediger(d).value == pytest.approx(ca.S(d).value, abs=1e-12)
    assert ca.randolph_kappa(d).value == ca.S(d).value
    assert ca.fleiss_kappa(d).value == pytest.approx(ca.pi(d).value, abs=1e-12)
    assert ca.fleiss_kappa(d, "linear").value == ca.alpha_prime(d, "irr-linear").value
    full = ~np.isnan(m).any(0)
    if full.sum() >= 2 and len(np.unique(m[:, full])) > 1:  # no missing: Conger is β
        c = ca.ReliabilityData.from_matrix(m[:, full])
        assert ca.conger_kappa(c, "quadratic").value == pytest.approx(
            ca.beta(c, "irr-quadratic").value, abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(matrices, st.sampled_from(["identity", "quadratic", "bipolar"]))
def test_coder_subsets_equal_subset_data(m, kind):
    """The coder-subset views (CoderMasks) give each subset's own value."""
    d = ca.ReliabilityData.from_matrix(m, categories=[1.0, 2.0, 3.0, 4.0, 5.0])
    C = d.n_coders
    K = np.ones((C, C), bool)
    K[np.arange(C), np.arange(C)] = False
    if C < 3:
        K = np.ones((1, C), bool)
    w = dist.weights(kind)
    for coef in ("gwet_ac2", "brennan_prediger", "conger_kappa"):
        vals, _ = subset_values(d, K, coef, w)
        for row, v in zip(K, vals, strict=True):
            sub = d.subset(coders=np.flatnonzero(row))
            try:
                want = ca.compute(coef, sub, w).value
            except ValueError:
                continue
            assert v == pytest.approx(want, abs=1e-10, nan_ok=True), coef


def test_bootstrap_of_new_rows_clustered():
    d = four_raters()
    d.groups = np.arange(12) // 3
    for r in (ca.gwet_ac1(d), ca.gwet_ac2(d, "quadratic"), ca.conger_kappa(d),
              ca.brennan_prediger(d, "linear")):
        iv = r.confidence_interval(n_resamples=200, seed=1)
        assert iv.clustered and iv.units == 4
        assert iv.estimate == pytest.approx(r.value)
        assert iv.low <= iv.high


def test_ac2_needs_a_distance_within_0_1():
    """Gwet's chance agreement uses the weights themselves: under Krippendorff's unbounded
    interval metric AC2 would not be Gwet's; BP (a ratio of mean distances) is."""
    d = four_raters()
    with pytest.raises(ValueError, match="needs weights w = 1 − d in"):
        ca.gwet_ac2(d, "interval")
    ids = [r.id for r in ca.table(d, "interval")]
    assert "gwet_ac2" not in ids and "brennan_prediger" in ids
    # interval normalised by its largest distance is irrCAC's quadratic weights
    span = (5 - 1) ** 2
    m = dist.Matrix({(a, b): (a - b) ** 2 / span for a in range(1, 6) for b in range(1, 6)})
    assert ca.gwet_ac2(d, m).value == pytest.approx(ca.gwet_ac2(d, "quadratic").value)


def test_table_lists_ac1_conger_nominal_and_ac2_bp_weighted():
    d = four_raters()
    ids = [(r.id, r.distance) for r in ca.table(d, "irr-quadratic")]
    assert ("gwet_ac1", "nominal") in ids and ("conger_kappa", "nominal") in ids
    assert ("gwet_ac2", "irr-quadratic") in ids and ("brennan_prediger", "irr-quadratic") in ids
    two = ca.ReliabilityData.from_matrix(FOUR_RATERS.T[:2])
    assert "conger_kappa" not in [r.id for r in ca.table(two)]  # it is κ there


# ---- inputs ------------------------------------------------------------------------------------
def test_from_counts_round_trip_and_krippendorff_value_counts():
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(5)
    counts = rng.integers(0, 3, (30, 4))
    counts[3] = 0
    d = ca.ReliabilityData.from_counts(counts, categories=["a", "b", "c", "d"])
    back = np.stack([(d.codes == k).sum(0) for k in range(4)], 1)
    assert np.array_equal(back, counts)
    assert d.categories == ["a", "b", "c", "d"]
    want = krippendorff.alpha(value_counts=counts, level_of_measurement="nominal")
    assert ca.alpha(d).value == pytest.approx(want, abs=1e-12)


def test_from_counts_equals_raw_for_anonymous_coefficients():
    m = random_ratings(7).T
    raw = ca.ReliabilityData.from_matrix(m, categories=[1.0, 2.0, 3.0, 4.0, 5.0])
    counts = np.stack([(raw.codes == k).sum(0) for k in range(raw.n_labels)], 1)
    d = ca.ReliabilityData.from_counts(counts, categories=raw.labels)
    for fn in (ca.gwet_ac1, ca.fleiss_kappa, ca.brennan_prediger, ca.alpha):
        r1, r2 = fn(raw), fn(d)
        assert r2.value == pytest.approx(r1.value, abs=1e-12)
        assert r2.confidence_interval(method="analytic").se == pytest.approx(
            r1.confidence_interval(method="analytic").se, abs=1e-12)


def test_from_contingency_round_trip_and_kappa():
    metrics = pytest.importorskip("sklearn.metrics")
    t = np.array([[20, 5, 1], [3, 15, 2], [0, 4, 10]])
    d = ca.ReliabilityData.from_contingency(t, categories=["x", "y", "z"])
    back = np.bincount(d.codes[0] * 3 + d.codes[1], minlength=9).reshape(3, 3)
    assert np.array_equal(back, t)
    assert ca.kappa(d).value == pytest.approx(
        metrics.cohen_kappa_score(d.codes[0], d.codes[1]), abs=1e-12)
    assert ca.conger_kappa(d).value == pytest.approx(ca.kappa(d).value, abs=1e-12)


@pytest.mark.parametrize("bad", [np.array([[1, -1]]), np.array([[0.5, 1]]), np.ones(3)])
def test_from_counts_rejects(bad):
    with pytest.raises(ValueError):
        ca.ReliabilityData.from_counts(bad)
    with pytest.raises(ValueError):
        ca.ReliabilityData.from_contingency(np.ones((2, 3)))


def test_benchmark_script_values_equal():
    pytest.importorskip("irrCAC")
    pd = pytest.importorskip("pandas")
    from support import load_benchmark

    bench = load_benchmark("irr_scale")
    m = bench.make(3000, 5, 10, 0.05)
    cats = [float(c) for c in range(1, 11)]
    for coef in ("gwet", "conger"):
        a, b = bench.ours(m, coef), bench.theirs(pd.DataFrame(m.T), coef, cats)
        assert a == pytest.approx(b, abs=1e-9)


def test_labels_read_as_text_are_irrcac_numbers(tmp_path):
    """Marks read from a file are the strings "2" … "10": irrCAC's weights take them as the
    numbers they spell ("10" is not the first category), so α under irrCAC's quadratic weights
    equals α under the interval metric, which it is proportional to."""
    from corpusagree.analyses import table

    path = tmp_path / "marks.csv"
    path.write_text("coder,item,label\n" + "".join(
        f"{c},{i},{m}\n" for i, marks in enumerate([(2, 3), (9, 10), (10, 8), (4, 2), (6, 7)])
        for c, m in zip("ab", marks, strict=True)), encoding="utf-8")
    text = table.read(path).data
    assert set(text.labels) == {"2", "3", "4", "6", "7", "8", "9", "10"}
    numbers = table.read(path, numeric=True).data
    assert ca.alpha(text, "irr-quadratic").value == pytest.approx(
        ca.alpha(numbers, "interval").value)


def test_kappa_max_two_coders():
    """κ_max from the marginals (Cohen 1960): equal marginals allow κ = 1; a 2 × 2 table with
    rows (20, 5), (10, 15) has p_1 = (.5, .5), p_2 = (.6, .4): p_max = .9, p_e = .5, κ_max = .8;
    κ never exceeds it."""
    t = ca.ReliabilityData.from_contingency([[20, 5], [10, 15]])
    assert ca.kappa_max(t) == pytest.approx(0.8)
    assert ca.kappa(t).value <= ca.kappa_max(t)
    same = ca.ReliabilityData.from_contingency([[20, 5], [5, 20]])
    assert ca.kappa_max(same) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="two coders"):
        ca.kappa_max(four_raters())


def test_weighted_scott_pi_by_hand():
    """Scott's π with weights, two coders, no missing data: 1 − (1 − A_o)/(1 − A_e) with
    A_o the mean weight of the pairs and A_e = Σ_kl w_kl p_k p_l over the pooled marginal p
    (Scott 1955; irrCAC's quadratic weights 1 − (k − l)²/(q − 1)²)."""
    rng = np.random.default_rng(5)
    m = rng.integers(1, 5, (2, 40)).astype(float)
    q = 4
    w = 1 - (np.subtract.outer(np.arange(q), np.arange(q)) / (q - 1)) ** 2
    a_o = w[m[0].astype(int) - 1, m[1].astype(int) - 1].mean()
    p = np.bincount(m.ravel().astype(int) - 1, minlength=q) / m.size
    a_e = p @ w @ p
    d = ca.ReliabilityData.from_matrix(m)
    r = ca.pi(d, weights="quadratic")
    assert r.symbol == "π_w" and r.value == pytest.approx((a_o - a_e) / (1 - a_e), abs=1e-12)
    assert ca.pi(d).value == ca.pi(d, weights="identity").value == pytest.approx(
        ca.fleiss_kappa(d).value, abs=1e-12)


CONTINGENCY = json.loads((DATA / "irr" / "irrcac_contingency.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CONTINGENCY["cases"], ids=lambda c: c["name"])
def test_contingency_table_applies_asymmetric_weights_as_irrcac(case):
    """Issue 34, item 18: on a contingency table the raters are identified, rows the first,
    columns the second, and an asymmetric weight matrix applies as w[row][column], as
    irrCAC's functions on tables do (table.CAC: Cohen's κ, Scott's π, AC2, Brennan–Prediger,
    Krippendorff's α; fixtures and their script in tests/data/irr/); the same judgements as
    raw ratings keep the symmetric part, as irrCAC's raw functions do."""
    t, W = np.array(case["table"]), np.array(case["weights"])
    assert not np.allclose(W, W.T)
    cats = list(range(1, len(t) + 1))
    data = ca.ReliabilityData.from_contingency(t, cats)
    assert data.raters_identified
    ours = {"kappa": ca.conger_kappa(data, W, categories=cats),
            "pi": ca.pi(data, W, categories=cats),
            "gwet_ac2": ca.gwet_ac2(data, W, categories=cats),
            "brennan_prediger": ca.brennan_prediger(data, W, categories=cats),
            "alpha": ca.alpha(data, dist.weights(W, cats))}
    for name, r in ours.items():
        ref = case["irrcac"][name]
        assert r.value == pytest.approx(ref["coefficient_value"], rel=1e-10, abs=1e-12), name
        if name != "alpha":  # irrCAC's α table function corrects p_a for the sample size
            assert 1 - r.observed == pytest.approx(ref["pa"], rel=1e-12), name
    assert 1 - ours["kappa"].observed == pytest.approx(case["irrcac"]["percent_agreement"]["pa"])
    kappa_pe = case["irrcac"]["kappa"]["pe"]
    assert 1 - ours["kappa"].expected == pytest.approx(kappa_pe, rel=1e-12)
    # raw ratings: every pair of judgements in both orders, the symmetric part of W
    raw = ca.ReliabilityData(data.codes, data.labels, categories=cats)
    sym = (W + W.T) / 2
    assert ca.conger_kappa(raw, W, categories=cats).value == pytest.approx(
        ca.conger_kappa(raw, sym, categories=cats).value, rel=1e-12)
    assert ca.conger_kappa(raw, W, categories=cats).value != pytest.approx(
        ours["kappa"].value, rel=1e-6)
    # the transposed table with the transposed weights is the same agreement
    flipped = ca.ReliabilityData.from_contingency(t.T, cats)
    assert ca.conger_kappa(flipped, W.T, categories=cats).value == pytest.approx(
        ours["kappa"].value, rel=1e-12)
    assert np.isfinite(ours["kappa"].confidence_interval(n_resamples=50, seed=0).low)
