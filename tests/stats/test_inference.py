"""Bootstrap and analytic intervals: every replicate equals the coefficient recomputed from
scratch on the resampled data; Cohen's κ SE equals statsmodels'."""

import numpy as np
import pytest
from statsmodels.stats.inter_rater import cohens_kappa

import corpusagree as ca
from corpusagree.stats import inference

CASES = [("alpha", "nominal"), ("alpha", "interval"), ("alpha_prime", "ordinal"),
         ("beta", "interval"), ("pi", "nominal"), ("multi_kappa", "nominal"),
         ("bias", "interval"), ("S", "nominal"), ("percent_agreement", "nominal")]
SET_CASES = [("alpha", "jaccard"), ("beta", "masi"), ("alpha_prime", "passonneau"),
             ("bias", "dice")]


def boot(data, key, distance="nominal", **settings):
    """One coefficient's bootstrap interval."""
    return inference.bootstrap(data, [(key, distance)], inference.Bootstrap(**settings))[0]


def plain_data(seed, coders=4, items=30, groups=6):
    rng = np.random.default_rng(seed)
    m = rng.integers(0, 4, size=(coders, items)).astype(float)
    m[rng.random((coders, items)) < 0.2] = np.nan
    return m, np.arange(items) % groups


def from_scratch(key, distance, data, full=None):
    """The coefficient on ``data``; the ordinal metric is the one bound to the full data
    (its ranks are held fixed across replicates, as in Hayes & Krippendorff 2007)."""
    if distance == "ordinal":
        from corpusagree.stats.kernel import kernel as engine

        D = engine(full, "ordinal").metric
        L = full.n_labels
        a, b = np.meshgrid(np.arange(L), np.arange(L), indexing="ij")
        distance = ca.distances.Matrix(D.pair(a, b), full.labels)
    f = getattr(ca, key)
    nominal_only = key in ("pi", "multi_kappa", "S", "percent_agreement")
    return float(f(data) if nominal_only else f(data, distance))


def resampled_columns(W_row, unit_of):
    """Item columns of one replicate: every item of unit u, repeated W[u] times."""
    return np.concatenate([np.repeat(np.flatnonzero(unit_of == u), int(w))
                           for u, w in enumerate(W_row)])


@pytest.mark.parametrize("clustered", [False, True])
@pytest.mark.parametrize("key,distance", CASES)
def test_replicates_equal_recomputation(key, distance, clustered):
    m, groups = plain_data(1)
    data = ca.ReliabilityData.from_matrix(m, groups=groups)
    iv = boot(data, key, distance, n_resamples=4, seed=7, cluster=clustered)
    assert iv.clustered == clustered and iv.units == (6 if clustered else 30)
    W = next(inference.replicate_weights(iv.units, 4, 7, chunk=4))
    unit_of = np.unique(groups, return_inverse=True)[1] if clustered else np.arange(30)
    for r in range(4):
        cols = resampled_columns(W[r], unit_of)
        again = ca.ReliabilityData(data.codes[:, cols], data.labels)
        try:
            expected = from_scratch(key, distance, again, data)
        except ValueError:
            expected = np.nan
        assert iv.distribution[r] == pytest.approx(expected, abs=1e-9, nan_ok=True)


@pytest.mark.parametrize("key,distance", SET_CASES)
def test_replicates_equal_recomputation_for_sets(key, distance):
    rng = np.random.default_rng(3)
    triples = [(c, i, frozenset(rng.choice(6, size=rng.integers(1, 3), replace=False).tolist()))
               for c in range(3) for i in range(25) if rng.random() > 0.15]
    data = ca.ReliabilityData.from_triples(triples)
    iv = boot(data, key, distance, n_resamples=3, seed=2, cluster=False)
    W = next(inference.replicate_weights(data.n_items, 3, 2, chunk=3))
    for r in range(3):
        cols = resampled_columns(W[r], np.arange(data.n_items))
        again = ca.ReliabilityData(data.codes[:, cols], data.labels)
        assert iv.distribution[r] == pytest.approx(from_scratch(key, distance, again), abs=1e-9)


def test_chunking_does_not_change_weights_stream_semantics():
    """Same seed, same chunking: identical distributions (reproducibility)."""
    m, groups = plain_data(4)
    data = ca.ReliabilityData.from_matrix(m, groups=groups)
    a = boot(data, "alpha", n_resamples=50, seed=11)
    b = ca.alpha(data).confidence_interval(n_resamples=50, seed=11)
    np.testing.assert_array_equal(a.distribution, b.distribution)
    assert a.clustered and b.clustered  # groups present → clustered by default
    assert a.low <= a.estimate <= a.high
    assert a.estimate == pytest.approx(float(ca.alpha(data)))


def test_interval_fields_and_q():
    m, groups = plain_data(5, items=60)
    data = ca.ReliabilityData.from_matrix(m, groups=groups)
    iv = boot(data, "alpha", n_resamples=200, seed=0, cluster=False)
    ok = iv.distribution[~np.isnan(iv.distribution)]
    assert iv.q[0.667] == pytest.approx((ok < 0.667).mean())
    assert iv.low == pytest.approx(np.quantile(ok, 0.025))
    bca = boot(data, "alpha", n_resamples=200, seed=0, cluster=False,
                              interval="bca")
    np.testing.assert_array_equal(bca.distribution, iv.distribution)
    assert bca.method == "bootstrap BCa" and (bca.low, bca.high) != (iv.low, iv.high)
    assert set(iv.as_dict()) >= {"low", "high", "level", "method", "clustered", "q"}


def test_bad_requests():
    m, groups = plain_data(6)
    data = ca.ReliabilityData.from_matrix(m)
    with pytest.raises(ValueError, match="no bootstrap for 'light_kappa'"):
        boot(data, "light_kappa")
    with pytest.raises(ValueError, match="unweighted"):
        boot(data, "pi", "interval")
    with pytest.raises(ValueError, match="no groups"):
        boot(data, "alpha", cluster=True)


@pytest.mark.parametrize("seed", range(5))
def test_cohen_kappa_se_equals_statsmodels(seed):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, 80)
    a = np.where(rng.random(80) < 0.7, truth, rng.integers(0, 3, 80))
    b = np.where(rng.random(80) < 0.6, truth, rng.integers(0, 3, 80))
    data = ca.ReliabilityData.from_matrix(np.stack([a, b]).astype(float))
    k, se, se0 = inference.kappa_se(data)
    table = np.zeros((3, 3))
    np.add.at(table, (a, b), 1)
    sm = cohens_kappa(table)
    assert k == pytest.approx(sm.kappa) and k == pytest.approx(float(ca.kappa(data)))
    assert se == pytest.approx(sm.std_kappa)
    assert se0 == pytest.approx(sm.std_kappa0)
    iv = ca.kappa(data).confidence_interval(method="analytic")
    assert iv.low == pytest.approx(sm.kappa_low) and iv.high == pytest.approx(sm.kappa_upp)


def test_fleiss_se_under_null_matches_simulation():
    """Under H0 (coders label at random) π / SE0 is standard normal: check its spread."""
    rng = np.random.default_rng(0)
    z = []
    for _ in range(300):
        data = ca.ReliabilityData.from_matrix(rng.choice(3, size=(4, 60), p=[.5, .3, .2])
                                              .astype(float))
        k, se0 = inference.fleiss_se0(data)
        z.append(k / se0)
    assert np.std(z) == pytest.approx(1.0, abs=0.12)
    assert abs(np.mean(z)) < 0.2


def test_coder_absent_from_a_replicate_is_left_out_not_nan():
    """A coder who judged one item is absent from most replicates: β is then computed over
    the coders present (as recomputation on the resampled data does), never nan."""
    rng = np.random.default_rng(9)
    m = rng.integers(0, 3, size=(3, 40)).astype(float)
    m[2, 1:] = np.nan
    data = ca.ReliabilityData.from_matrix(m)
    iv = boot(data, "beta", n_resamples=60, seed=1, cluster=False)
    assert iv.dropped == 0 and not np.isnan(iv.distribution).any()
    W = next(inference.replicate_weights(40, 60, 1, chunk=60))
    r = int(np.flatnonzero(W[:, 0] == 0)[0])  # a replicate without the third coder's item
    again = ca.ReliabilityData(data.codes[:, resampled_columns(W[r], np.arange(40))],
                               data.labels)
    assert iv.distribution[r] == pytest.approx(float(ca.beta(again)))


def test_analytic_kappa_interval_stays_in_range():
    """Six items: the normal approximation reaches 1.176; the interval is clipped to κ's range
    and says so."""
    a, b = ["x", "x", "y", "y", "z", "z"], ["x", "x", "y", "y", "z", "y"]
    data = ca.ReliabilityData.from_triples([("A", i, v) for i, v in enumerate(a)]
                                           + [("B", i, v) for i, v in enumerate(b)])
    iv = ca.kappa(data).confidence_interval(method="analytic")
    k, se, _ = inference.kappa_se(data)
    assert iv.estimate == pytest.approx(.75) and iv.high == 1.0
    assert iv.low == pytest.approx(k - 1.959963984540054 * se)
    assert "clipped to [−1, 1]" in iv.note and "1.176" in iv.note
    assert all(type(x) is float for x in (iv.estimate, iv.low, iv.high, iv.se))


def test_bias_interval_above_the_estimate_says_why():
    """B's bootstrap distribution lies above B when coders' distributions are close (resampling
    adds variance between them): the interval carries a note instead of passing silently."""
    rng = np.random.default_rng(1)
    truth = rng.integers(0, 3, 1000)
    m = np.where(rng.random((4, 1000)) < .6, truth, rng.integers(0, 3, (4, 1000))).astype(float)
    data = ca.ReliabilityData.from_matrix(m)
    iv = ca.bias(data).confidence_interval(n_resamples=300, seed=0)
    assert iv.low > iv.estimate  # the whole distribution is shifted up
    assert "bounded below by 0" in iv.note and iv.note.startswith(
        f"the estimate {iv.estimate:.4g} lies below")
    assert all(type(x) is float for x in (iv.estimate, iv.low, iv.high))
    alpha = ca.alpha(data).confidence_interval(n_resamples=300, seed=0)
    assert alpha.note is None and alpha.low <= alpha.estimate <= alpha.high


def test_jackknife_over_blocks_equals_recomputation():
    """BCa's delete-a-block jackknife (units summed into blocks first) equals the coefficient
    recomputed without each block's items."""
    rng = np.random.default_rng(5)
    m = rng.integers(0, 4, (4, 60)).astype(float)
    m[rng.random(m.shape) < .2] = np.nan
    data = ca.ReliabilityData.from_matrix(m)
    for key in ("alpha", "beta", "pi"):
        t = inference._Target(data, key, "nominal", {}, np.arange(60), 60)
        got = inference._jackknife(t, 60, max_blocks=7)
        block = np.random.default_rng(0).permutation(60) % 7
        want = [float(ca.compute(key, data.subset(items=block != b))) for b in range(7)]
        assert got == pytest.approx(want, abs=1e-12)


def test_progress_comes_in_chunks_of_at_most_5_percent_and_changes_nothing():
    """A small table fits all replicates in one chunk of weights; progress is still reported
    every 5 % of them, and the replicates are those of one chunk (the draws do not depend on
    how they are chunked)."""
    m, groups = plain_data(3, items=200)
    data = ca.ReliabilityData.from_matrix(m)
    seen: list[tuple[int, int]] = []
    iv = inference.bootstrap(data, [("alpha", "nominal")],
                             inference.Bootstrap(1000, seed=4, cluster=False),
                             progress=lambda done, total: seen.append((done, total)))[0]
    assert [d for d, _ in seen] == list(range(50, 1001, 50)) and {t for _, t in seen} == {1000}
    W = next(inference.replicate_weights(200, 1000, 4, chunk=1000))
    k = ca.stats.kernel.kernel(data, "nominal")
    units = inference.UnitWeights(k, np.arange(200), 200)
    whole = ca.stats.spec.evaluate(ca.stats.spec.get("alpha"), units.stats(W, {"pooled"}))
    np.testing.assert_allclose(iv.distribution, whole, rtol=1e-12)
    assert inference.progress_chunk(7) == 1 and inference.progress_chunk(20_000) == 1000


# ---- the jackknife over coders (Gwet 2008) ----------------------------------------------------
def _loo_coders(key, distance, data, full):
    return np.array([from_scratch(key, distance,
                                  data.subset(coders=[k for k in range(data.n_coders) if k != c]),
                                  full) for c in range(data.n_coders)])


@pytest.mark.parametrize("key, distance", CASES)
def test_jackknife_over_coders_is_leave_one_coder_out(key, distance):
    m, g = plain_data(11, coders=5)
    data = ca.ReliabilityData.from_matrix(m, groups=g)
    iv = boot(data, key, distance, interval="jackknife", over="coders")
    loo = _loo_coders(key, distance, data, data)
    ok = loo[~np.isnan(loo)]
    se = np.sqrt((len(ok) - 1) / len(ok) * ((ok - ok.mean()) ** 2).sum())
    from scipy.stats import t as student
    half = student.ppf(0.975, len(ok) - 1) * se
    assert iv.se == pytest.approx(se, rel=1e-9, abs=1e-12)
    assert iv.estimate == pytest.approx(from_scratch(key, distance, data, data))
    assert (iv.low, iv.high) == pytest.approx((iv.estimate - half, iv.estimate + half))
    assert iv.method == "jackknife over coders" and iv.units == 5


def test_jackknife_over_both_adds_the_variances_with_satterthwaite_df():
    m, g = plain_data(12, coders=5, items=60, groups=12)
    data = ca.ReliabilityData.from_matrix(m, groups=g)
    units = boot(data, "alpha", interval="jackknife")
    coders = boot(data, "alpha", interval="jackknife", over="coders")
    both = boot(data, "alpha", interval="jackknife", over="both")
    var_u, var_c = units.se ** 2, coders.se ** 2
    assert both.se == pytest.approx(np.sqrt(var_u + var_c))
    df = (var_u + var_c) ** 2 / (var_u ** 2 / 11 + var_c ** 2 / 4)
    from scipy.stats import t as student
    assert both.high - both.estimate == pytest.approx(student.ppf(0.975, df) * both.se)
    assert both.method == "jackknife over coders and documents"


def test_over_coders_needs_the_jackknife_and_three_coders():
    with pytest.raises(ValueError, match="interval='jackknife'"):
        inference.Bootstrap(over="coders")
    with pytest.raises(ValueError, match="over"):
        inference.Bootstrap(interval="jackknife", over="raters")
    m, g = plain_data(13, coders=2)
    with pytest.raises(ca.InputError, match="three or more coders"):
        boot(ca.ReliabilityData.from_matrix(m, groups=g), "alpha", interval="jackknife",
             over="coders")
    with pytest.raises(ca.InputError, match="units only"):
        inference.refit_bootstrap(lambda w: np.array([w.sum()]), np.arange(10),
                                  inference.Bootstrap(interval="jackknife", over="coders"),
                                  [("n", "")], clustered=False)


def test_the_settings_say_over_only_when_not_the_units():
    assert "over" not in inference.Bootstrap().as_dict()
    assert inference.Bootstrap(interval="jackknife", over="both").as_dict()["over"] == "both"
