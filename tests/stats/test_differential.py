"""Differential tests: corpusagree against krippendorff, NLTK, statsmodels and independent
brute-force implementations of Artstein & Poesio (2005) written out here with explicit loops.

Every reference is computed from the raw judgements (never from corpusagree's internals), on
random data with several seeds, with missing values wherever the reference supports them.
"""

from __future__ import annotations

import itertools
import warnings
from collections import Counter

import krippendorff
import numpy as np
import pytest
from nltk.metrics.agreement import AnnotationTask
from nltk.metrics.distance import binary_distance, jaccard_distance, masi_distance
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa

import corpusagree as ca
from corpusagree.stats import distances as dist

TOL = 1e-9
SEEDS = [0, 1, 2, 3, 7, 42]
VALUES = [0, 1, 2.5, 4, 7]  # non-negative, unevenly spaced (ratio and interval differ)


# ---- data generation ------------------------------------------------------------------------
def random_matrix(seed: int, coders: int = 4, items: int = 30, p_missing: float = 0.3,
                  values=VALUES) -> np.ndarray:
    """A coders × items float array of labels, NaN = missing, with ≥ 2 pairable values."""
    rng = np.random.default_rng(seed)
    while True:
        # skewed label use so coder distributions differ (κ ≠ π)
        arr = np.empty((coders, items))
        for c in range(coders):
            p = rng.dirichlet(np.ones(len(values)))
            arr[c] = rng.choice(values, size=items, p=p)
        # agreement well above chance on a random half of the items
        agree = rng.random(items) < 0.5
        arr[:, agree] = arr[0, agree]
        if p_missing:
            arr[rng.random(arr.shape) < p_missing] = np.nan
        pairable = (~np.isnan(arr)).sum(0) >= 2
        if len(np.unique(arr[:, pairable][~np.isnan(arr[:, pairable])])) >= 2:
            return arr


def triples(arr: np.ndarray) -> list[tuple]:
    """(coder, item, label) for every present judgement; labels as corpusagree stores them."""
    out = []
    for c, i in zip(*np.nonzero(~np.isnan(arr)), strict=True):
        v = float(arr[c, i])
        out.append((f"c{c}", f"i{i}", int(v) if v.is_integer() else v))
    return out


def random_sets(seed: int, coders: int = 3, items: int = 25, p_missing: float = 0.25
                ) -> list[tuple]:
    """Triples with non-empty frozenset labels over elements a..e, some judgements missing."""
    rng = np.random.default_rng(seed)
    elems = list("abcde")
    out = []
    for i in range(items):
        base = frozenset(rng.choice(elems, size=rng.integers(1, 4), replace=False).tolist())
        for c in range(coders):
            if rng.random() < p_missing:
                continue
            r = rng.random()
            if r < 0.4:
                s = base
            elif r < 0.7:  # perturb: add or drop one element
                s = set(base) ^ {str(rng.choice(elems))}
                s = frozenset(s) if s else base
            else:
                s = frozenset(rng.choice(elems, size=rng.integers(1, 4), replace=False).tolist())
            out.append((f"c{c}", f"i{i}", frozenset(s)))
    return out


def random_weights(seed: int, labels) -> np.ndarray:
    """A random symmetric non-negative matrix with a zero diagonal (not a metric, not CND)."""
    rng = np.random.default_rng(seed + 1000)
    W = rng.uniform(0.1, 3.0, size=(len(labels), len(labels)))
    W = (W + W.T) / 2
    np.fill_diagonal(W, 0.0)
    return W


# ---- reference distances (independent of corpusagree) ----------------------------------------
def interval(a, b):
    return (a - b) ** 2


def ratio(a, b):
    return 0.0 if a + b == 0 else ((a - b) / (a + b)) ** 2


def ordinal_from_counts(arr: np.ndarray):
    """Krippendorff's ordinal distance (Σ_{g=a}^{b} n_g − (n_a + n_b)/2)² from the pooled
    values of items with ≥ 2 judgements, written from its definition."""
    pairable = (~np.isnan(arr)).sum(0) >= 2
    vals = arr[:, pairable]
    counts = Counter(float(v) for v in vals[~np.isnan(vals)])
    order = sorted(counts)

    def d(a, b):
        lo, hi = sorted((float(a), float(b)))
        between = sum(counts[g] for g in order if lo <= g <= hi)
        return (between - (counts[lo] + counts[hi]) / 2) ** 2

    return d


def nltk_task(trips, distance=binary_distance) -> AnnotationTask:
    return AnnotationTask(data=trips, distance=distance)


# ---- independent implementations (explicit loops; Artstein & Poesio 2005, §2–§3, §5.1) -------
def judgements(trips):
    """{item: {coder: label}} and {coder: {item: label}}."""
    by_item: dict = {}
    by_coder: dict = {}
    for c, i, k in trips:
        by_item.setdefault(i, {})[c] = k
        by_coder.setdefault(c, {})[i] = k
    return by_item, by_coder


def ap_missing(trips, d):
    """A&P §5.1 brute force: returns (Do, De_alpha_prime, De_beta)."""
    by_item, by_coder = judgements(trips)
    labels = sorted({k for _, _, k in trips}, key=repr)
    # Do: mean over items with ≥ 2 judgements of the mean distance over ordered pairs
    per_item = []
    for judged in by_item.values():
        ks = list(judged.values())
        n = len(ks)
        if n < 2:
            continue
        tot = sum(d(ks[x], ks[y]) for x in range(n) for y in range(n) if x != y)
        per_item.append(tot / (n * (n - 1)))
    Do = sum(per_item) / len(per_item)
    # α′: P̂(k) = (1/i) Σ_i n_ik / n_i over items with ≥ 1 judgement
    P = dict.fromkeys(labels, 0.0)
    for judged in by_item.values():
        for k in judged.values():
            P[k] += 1 / len(judged)
    P = {k: v / len(by_item) for k, v in P.items()}
    De_ap = sum(P[j] * P[k] * d(j, k) for j in labels for k in labels)
    # β: P̂(k|c) = n_ck/n_c; P̂(c_m, c_n) = 2P̂(c_m)P̂(c_n) / (1 − Σ P̂(c)²)
    coders = sorted(by_coder)
    total = sum(len(v) for v in by_coder.values())
    Pc = {c: len(by_coder[c]) / total for c in coders}
    Pkc = {c: Counter(by_coder[c].values()) for c in coders}
    norm = 1 - sum(p * p for p in Pc.values())
    De_b = 0.0
    for m, n in itertools.combinations(coders, 2):
        w = 2 * Pc[m] * Pc[n] / norm
        s = 0.0
        for j in labels:
            for k in labels:
                s += (Pkc[m][j] / len(by_coder[m])) * (Pkc[n][k] / len(by_coder[n])) * d(j, k)
        De_b += w * s
    return Do, De_ap, De_b


def davies_fleiss(trips) -> float:
    """Multi-κ on complete data (Davies & Fleiss 1982; A&P §2.4) with explicit pair loops."""
    by_item, by_coder = judgements(trips)
    coders = sorted(by_coder)
    pairs = list(itertools.combinations(coders, 2))
    n_items = len(by_item)
    Ao = sum(sum(judged[a] == judged[b] for a, b in pairs) / len(pairs)
             for judged in by_item.values()) / n_items
    Ae = 0.0
    for a, b in pairs:
        ca_, cb_ = Counter(by_coder[a].values()), Counter(by_coder[b].values())
        Ae += sum(ca_[k] * cb_[k] for k in ca_) / n_items ** 2
    Ae /= len(pairs)
    return (Ao - Ae) / (1 - Ae)


def confusion(trips, labels):
    """Two-coder confusion table over ``labels`` (rows: first coder, columns: second)."""
    by_item, by_coder = judgements(trips)
    c1, c2 = sorted(by_coder)
    ix = {k: n for n, k in enumerate(labels)}
    T = np.zeros((len(labels), len(labels)))
    for judged in by_item.values():
        T[ix[judged[c1]], ix[judged[c2]]] += 1
    return T


def kappa_w_from_table(T: np.ndarray, D: np.ndarray) -> float:
    """Cohen's (1968) κw = 1 − Σ p_jl d_jl / Σ p_j. p_.l d_jl, written out with loops."""
    n = T.sum()
    rows, cols = T.sum(1) / n, T.sum(0) / n
    L = len(T)
    do = sum(T[j, k] / n * D[j, k] for j in range(L) for k in range(L))
    de = sum(rows[j] * cols[k] * D[j, k] for j in range(L) for k in range(L))
    return 1 - do / de


def data_labels(trips):
    return sorted({k for _, _, k in trips})


# ============================================================================================
# α against the krippendorff package (missing values)
# ============================================================================================
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_alpha_matches_krippendorff(seed, level):
    arr = random_matrix(seed)
    data = ca.ReliabilityData.from_matrix(arr)
    ref = krippendorff.alpha(reliability_data=arr, level_of_measurement=level)
    assert float(ca.alpha(data, level)) == pytest.approx(ref, abs=TOL)


def test_alpha_takes_the_array_krippendorff_takes():
    """What a krippendorff user types first: coders × items, NaN missing, no conversion."""
    arr = np.array([[1, 2, 3, np.nan], [1, 2, 2, 3]])
    assert ca.alpha(arr).value == krippendorff.alpha(reliability_data=arr,
                                                     level_of_measurement="nominal")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_coefficients_take_array_likes_as_krippendorff_does(seed, level):
    """A numpy array, and the same as nested lists with None missing, give krippendorff's α;
    every coefficient gives on an array what it gives on the data built from it."""
    arr = random_matrix(seed)
    ref = krippendorff.alpha(reliability_data=arr, level_of_measurement=level)
    nested = [[None if np.isnan(v) else float(v) for v in row] for row in arr]
    assert ca.alpha(arr, level).value == pytest.approx(ref, abs=TOL)
    assert ca.alpha(nested, distance=level).value == pytest.approx(ref, abs=TOL)
    data = ca.ReliabilityData.from_matrix(arr)
    assert [(r.id, r.distance, r.value) for r in ca.table(arr, level)] == \
        [(r.id, r.distance, r.value) for r in ca.table(data, level)]
    assert ca.compute("beta", nested, level).value == ca.beta(data, level).value


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_fleiss_takes_the_array_statsmodels_users_hold(seed):
    """statsmodels' raters are columns (items × raters, for aggregate_raters): transposed,
    the same array gives Fleiss' κ."""
    from statsmodels.stats.inter_rater import aggregate_raters

    arr = random_matrix(seed, coders=4, items=40, p_missing=0)
    counts, _ = aggregate_raters(arr.T)
    assert ca.fleiss_kappa(arr).value == pytest.approx(fleiss_kappa(counts), abs=TOL)
    assert ca.pi(arr.tolist()).value == pytest.approx(fleiss_kappa(counts), abs=TOL)


def test_an_array_that_is_not_coders_by_items_is_refused_naming_data():
    with pytest.raises(ValueError, match=r"^data must be coders × items \(2-dimensional\), "
                                         r"not of shape \(3,\)$"):
        ca.alpha([1, 2, 3])
    with pytest.raises(ValueError, match="data must be coders × items"):
        ca.kappa([[1, 2], [1]])  # ragged
    with pytest.raises(TypeError, match="data must be ReliabilityData or a coders × items "
                                        "array-like, not 'x'"):
        ca.table("x")


@pytest.mark.parametrize("seed", SEEDS)
def test_alpha_matches_krippendorff_with_empty_coder_and_items(seed):
    """An all-missing coder row and all-missing items change nothing."""
    arr = random_matrix(seed, coders=3, items=20)
    arr = np.vstack([arr, np.full((1, arr.shape[1]), np.nan)])
    arr = np.hstack([arr, np.full((arr.shape[0], 3), np.nan)])
    data = ca.ReliabilityData.from_matrix(arr)
    for level in ("nominal", "interval"):
        ref = krippendorff.alpha(reliability_data=arr, level_of_measurement=level)
        assert float(ca.alpha(data, level)) == pytest.approx(ref, abs=TOL)


@pytest.mark.parametrize("seed", SEEDS)
def test_alpha_custom_matrix_matches_krippendorff(seed):
    arr = random_matrix(seed)
    labels = [int(v) if float(v).is_integer() else float(v) for v in np.unique(arr[~np.isnan(arr)])]
    W = random_weights(seed, labels)

    def metric(v1, v2, i1, i2, n_v, dtype=np.float64):  # krippendorff's callable protocol
        return W[i1, i2].astype(dtype)

    ref = krippendorff.alpha(reliability_data=arr, level_of_measurement=metric)
    data = ca.ReliabilityData.from_matrix(arr)
    assert float(ca.alpha(data, dist.Matrix(W, labels))) == pytest.approx(ref, abs=TOL)
    # the same matrix given as a mapping {(a, b): d}
    mapping = {(a, b): W[x, y] for x, a in enumerate(labels) for y, b in enumerate(labels)
               if x <= y}
    assert float(ca.alpha(data, mapping)) == pytest.approx(ref, abs=TOL)


# ============================================================================================
# α against NLTK's AnnotationTask.alpha (missing values = omitted triples)
# ============================================================================================
@pytest.mark.parametrize("seed", SEEDS)
def test_alpha_matches_nltk(seed):
    arr = random_matrix(seed, items=25)
    trips = triples(arr)
    data = ca.ReliabilityData.from_triples(trips)
    checks = [("nominal", binary_distance), ("interval", interval), ("ratio", ratio),
              ("ordinal", ordinal_from_counts(arr))]
    for name, fn in checks:
        ref = nltk_task(trips, fn).alpha()
        assert float(ca.alpha(data, name)) == pytest.approx(ref, abs=TOL), name


@pytest.mark.parametrize("seed", SEEDS)
def test_alpha_custom_matrix_matches_nltk(seed):
    arr = random_matrix(seed, items=25)
    trips = triples(arr)
    labels = data_labels(trips)
    W = random_weights(seed, labels)
    lookup = {(a, b): W[x, y] for x, a in enumerate(labels) for y, b in enumerate(labels)}
    ref = nltk_task(trips, lambda a, b: lookup[a, b]).alpha()
    data = ca.ReliabilityData.from_triples(trips)
    assert float(ca.alpha(data, dist.Matrix(W, labels))) == pytest.approx(ref, abs=TOL)
    # a callable distance is evaluated per label pair and must give the same
    assert float(ca.alpha(data, lambda a, b: lookup[a, b])) == pytest.approx(ref, abs=TOL)


def test_alpha_string_labels_with_matrix_matches_nltk():
    rng = np.random.default_rng(5)
    labels = ["low", "mid", "high", "top"]
    trips = [(f"c{c}", i, labels[rng.integers(4)]) for c in range(3) for i in range(30)
             if rng.random() > 0.2]
    W = random_weights(5, labels)
    lookup = {(a, b): W[x, y] for x, a in enumerate(labels) for y, b in enumerate(labels)}
    ref = nltk_task(trips, lambda a, b: lookup[a, b]).alpha()
    data = ca.ReliabilityData.from_triples(trips)
    assert float(ca.alpha(data, dist.Matrix(W, labels))) == pytest.approx(ref, abs=TOL)
    assert float(ca.alpha(data, "nominal")) == pytest.approx(nltk_task(trips).alpha(), abs=TOL)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name,fn", [("jaccard", jaccard_distance), ("masi", masi_distance)])
def test_alpha_set_labels_matches_nltk(seed, name, fn):
    trips = random_sets(seed)
    data = ca.ReliabilityData.from_triples(trips)
    assert data.is_set
    ref = nltk_task(trips, fn).alpha()
    assert float(ca.alpha(data, name)) == pytest.approx(ref, abs=TOL)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_set_distances_pairwise_match_reference(seed):
    """pair() of every set distance equals the definition evaluated on the frozensets."""
    trips = random_sets(seed)
    data = ca.ReliabilityData.from_triples(trips)
    L = data.n_labels
    a, b = np.meshgrid(np.arange(L), np.arange(L))
    a, b = a.ravel(), b.ravel()

    def passonneau(x, y):
        if x == y:
            return 0.0
        if x <= y or y <= x:
            return 1 / 3
        return 2 / 3 if x & y else 1.0

    def dice(x, y):
        return 1 - 2 * len(x & y) / (len(x) + len(y))

    refs = {"jaccard": jaccard_distance, "masi": masi_distance, "passonneau": passonneau,
            "dice": dice}
    for name, fn in refs.items():
        got = dist.NAMED[name].bind(data, None).pair(a, b)
        want = [fn(data.labels[x], data.labels[y]) for x, y in zip(a, b, strict=True)]
        np.testing.assert_allclose(got, want, atol=1e-12, err_msg=name)


# ============================================================================================
# Complete data: NLTK's other coefficients
# ============================================================================================
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("coders", [2, 3, 5])
def test_complete_data_matches_nltk(seed, coders):
    arr = random_matrix(seed, coders=coders, items=25, p_missing=0)
    trips = triples(arr)
    data = ca.ReliabilityData.from_triples(trips)
    t = nltk_task(trips)
    assert float(ca.pi(data)) == pytest.approx(t.pi(), abs=TOL)
    assert float(ca.multi_kappa(data)) == pytest.approx(t.multi_kappa(), abs=TOL)
    assert float(ca.S(data)) == pytest.approx(t.S(), abs=TOL)
    assert float(ca.light_kappa(data)) == pytest.approx(t.kappa(), abs=TOL)
    assert float(ca.percent_agreement(data)) == pytest.approx(t.avg_Ao(), abs=TOL)
    assert float(ca.alpha(data)) == pytest.approx(t.alpha(), abs=TOL)
    if coders == 2:
        assert float(ca.kappa(data)) == pytest.approx(t.kappa(), abs=TOL)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("coders", [2, 4])
def test_weighted_kappa_matches_nltk(seed, coders):
    """NLTK's weighted_kappa (mean pairwise κw; Do from Do_Kw_pairwise) = our light_kappa with
    the distance, and = κw = β for two coders."""
    arr = random_matrix(seed, coders=coders, items=25, p_missing=0)
    trips = triples(arr)
    data = ca.ReliabilityData.from_triples(trips)
    labels = data_labels(trips)
    W = random_weights(seed, labels)
    lookup = {(a, b): W[x, y] for x, a in enumerate(labels) for y, b in enumerate(labels)}
    cases = [("interval", interval), ("ratio", ratio),
             (dist.Matrix(W, labels), lambda a, b: lookup[a, b])]
    for ours, fn in cases:
        t = nltk_task(trips, fn)
        ref = t.weighted_kappa()
        assert float(ca.light_kappa(data, ours)) == pytest.approx(ref, abs=TOL), ours
        if coders == 2:
            assert float(ca.kappa_w(data, ours)) == pytest.approx(ref, abs=TOL), ours
            assert float(ca.beta(data, ours)) == pytest.approx(ref, abs=TOL), ours
        # observed disagreement averaged over coder pairs = A&P Do on complete data
        assert ca.beta(data, ours).observed == pytest.approx(t.Do_Kw(), abs=TOL)


# ============================================================================================
# statsmodels: Cohen's κ, κw, Fleiss' κ (= multi-π)
# ============================================================================================
@pytest.mark.parametrize("seed", SEEDS)
def test_cohens_kappa_matches_statsmodels(seed):
    arr = random_matrix(seed, coders=2, items=40, p_missing=0)
    trips = triples(arr)
    data = ca.ReliabilityData.from_triples(trips)
    labels = data_labels(trips)
    T = confusion(trips, labels)
    assert float(ca.kappa(data)) == pytest.approx(
        cohens_kappa(T, return_results=False), abs=TOL)
    # statsmodels' 2-D ``weights`` are disagreement weights (Wikipedia's convention:
    # κ = 1 − Σ w p_o / Σ w p_e), i.e. our distance matrix as it stands
    W = random_weights(seed, labels)
    assert float(ca.kappa_w(data, dist.Matrix(W, labels))) == pytest.approx(
        cohens_kappa(T, weights=W, return_results=False), abs=TOL)
    # 1-D weights are category scores: 'quadratic' = (s_j − s_l)² / range² (interval distance
    # rescaled; κw is invariant to the scale), 'linear' = |s_j − s_l| / range
    scores = np.array(labels, float)
    assert float(ca.kappa_w(data, "interval")) == pytest.approx(
        cohens_kappa(T, weights=scores, wt="quadratic", return_results=False), abs=TOL)
    assert float(ca.kappa_w(data, lambda a, b: abs(a - b))) == pytest.approx(
        cohens_kappa(T, weights=scores, wt="linear", return_results=False), abs=TOL)
    # unit scores with wt='toeplitz': d = |rank difference|
    rank = {v: r for r, v in enumerate(labels)}
    assert float(ca.kappa_w(data, lambda a, b: abs(rank[a] - rank[b]))) == pytest.approx(
        cohens_kappa(T, weights=np.arange(len(labels)), wt="toeplitz",
                     return_results=False), abs=TOL)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("coders", [2, 3, 6])
def test_multi_pi_matches_statsmodels_fleiss(seed, coders):
    arr = random_matrix(seed, coders=coders, items=40, p_missing=0)
    labels = np.unique(arr)
    counts = (arr.T[:, :, None] == labels[None, None, :]).sum(1)  # items × categories
    data = ca.ReliabilityData.from_matrix(arr)
    assert float(ca.pi(data)) == pytest.approx(fleiss_kappa(counts, method="fleiss"), abs=TOL)
    assert float(ca.alpha_prime(data)) == pytest.approx(
        fleiss_kappa(counts, method="fleiss"), abs=TOL)


# ============================================================================================
# Independent implementations of A&P
# ============================================================================================
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("coders", [2, 3, 5])
def test_multi_kappa_matches_davies_fleiss(seed, coders):
    arr = random_matrix(seed, coders=coders, items=30, p_missing=0)
    trips = triples(arr)
    data = ca.ReliabilityData.from_triples(trips)
    ref = davies_fleiss(trips)
    assert float(ca.multi_kappa(data)) == pytest.approx(ref, abs=TOL)
    assert float(ca.beta(data, "nominal")) == pytest.approx(ref, abs=TOL)


@pytest.mark.parametrize("seed", SEEDS)
def test_two_coder_beta_is_kappa_w_from_confusion_matrix(seed):
    arr = random_matrix(seed, coders=2, items=40, p_missing=0)
    trips = triples(arr)
    data = ca.ReliabilityData.from_triples(trips)
    labels = data_labels(trips)
    T = confusion(trips, labels)
    W = random_weights(seed, labels)
    cases = [("interval", np.array([[interval(a, b) for b in labels] for a in labels])),
             ("ratio", np.array([[ratio(a, b) for b in labels] for a in labels])),
             ("nominal", 1 - np.eye(len(labels))),
             (dist.Matrix(W, labels), W)]
    for ours, D in cases:
        ref = kappa_w_from_table(T, D)
        assert float(ca.beta(data, ours)) == pytest.approx(ref, abs=TOL), ours
        assert float(ca.kappa_w(data, ours)) == pytest.approx(ref, abs=TOL), ours


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("coders", [2, 3, 5])
def test_missing_data_matches_ap_brute_force(seed, coders):
    """β, α′, multi-κ (and π, bias) with missing data follow A&P §5.1 exactly."""
    arr = random_matrix(seed, coders=coders, items=30, p_missing=0.35)
    # also a coder with a single judgement and items with one or zero judgements
    trips = triples(arr)
    data = ca.ReliabilityData.from_triples(trips)
    labels = data_labels(trips)
    W = random_weights(seed, labels)
    lookup = {(a, b): W[x, y] for x, a in enumerate(labels) for y, b in enumerate(labels)}
    cases = [("nominal", lambda a, b: float(a != b)), ("interval", interval),
             ("ratio", ratio), (dist.Matrix(W, labels), lambda a, b: lookup[a, b])]
    for ours, fn in cases:
        Do, De_ap, De_b = ap_missing(trips, fn)
        b = ca.beta(data, ours)
        ap = ca.alpha_prime(data, ours)
        assert b.observed == pytest.approx(Do, abs=TOL), ours
        assert b.expected == pytest.approx(De_b, abs=TOL), ours
        assert ap.expected == pytest.approx(De_ap, abs=TOL), ours
        assert float(b) == pytest.approx(1 - Do / De_b, abs=TOL), ours
        assert float(ap) == pytest.approx(1 - Do / De_ap, abs=TOL), ours
        assert float(ca.bias(data, ours)) == pytest.approx(De_b - De_ap, abs=TOL), ours
    Do, De_ap, De_b = ap_missing(trips, lambda a, b: float(a != b))
    assert float(ca.multi_kappa(data)) == pytest.approx(1 - Do / De_b, abs=TOL)
    assert float(ca.pi(data)) == pytest.approx(1 - Do / De_ap, abs=TOL)
    assert float(ca.percent_agreement(data)) == pytest.approx(1 - Do, abs=TOL)


def test_missing_data_brute_force_with_sparse_coders():
    """Coders with one judgement, an all-missing coder and singleton items (§5.1 edge cases)."""
    trips = [("A", 1, "x"), ("B", 1, "x"), ("C", 1, "y"),
             ("A", 2, "y"), ("B", 2, "y"),
             ("A", 3, "x"), ("C", 3, "z"),
             ("B", 4, "z"),                       # singleton item: counts in P̂(k), not in Do
             ("D", 5, "x"), ("A", 5, "y"),        # D judges one item only
             ("E", 6, None)]                       # E never judges
    data = ca.ReliabilityData.from_triples(trips)
    present = [t for t in trips if t[2] is not None]
    Do, De_ap, De_b = ap_missing(present, lambda a, b: float(a != b))
    assert float(ca.beta(data)) == pytest.approx(1 - Do / De_b, abs=TOL)
    assert float(ca.alpha_prime(data)) == pytest.approx(1 - Do / De_ap, abs=TOL)
    assert float(ca.multi_kappa(data)) == pytest.approx(1 - Do / De_b, abs=TOL)
    # hand check of Do: items 1, 2, 3, 5: (2/3, 0, 1, 1) → mean 2/3
    assert Do == pytest.approx(2 / 3)
    assert ca.beta(data).observed == pytest.approx(2 / 3, abs=TOL)
    assert ca.beta(data).coders == 4


@pytest.mark.parametrize("seed", SEEDS[:3])
@pytest.mark.parametrize("name,fn", [("jaccard", jaccard_distance), ("masi", masi_distance)])
def test_set_labels_missing_data_match_ap_brute_force(seed, name, fn):
    trips = random_sets(seed, coders=4)
    data = ca.ReliabilityData.from_triples(trips)
    Do, De_ap, De_b = ap_missing(trips, fn)
    assert float(ca.beta(data, name)) == pytest.approx(1 - Do / De_b, abs=TOL)
    assert float(ca.alpha_prime(data, name)) == pytest.approx(1 - Do / De_ap, abs=TOL)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_light_kappa_with_missing_data_matches_pairwise_loop(seed):
    """Light's κ with missing data: each coder pair on the items both judged (Cohen's κ
    from that pair's own confusion table), averaged over pairs."""
    arr = random_matrix(seed, coders=4, items=40, p_missing=0.25)
    trips = triples(arr)
    data = ca.ReliabilityData.from_triples(trips)
    _, by_coder = judgements(trips)
    labels = data_labels(trips)
    ks = []
    for a, b in itertools.combinations(sorted(by_coder), 2):
        shared = sorted(set(by_coder[a]) & set(by_coder[b]))
        pair = [(a, i, by_coder[a][i]) for i in shared] + [(b, i, by_coder[b][i])
                                                          for i in shared]
        ks.append(kappa_w_from_table(confusion(pair, labels), 1 - np.eye(len(labels))))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(ca.light_kappa(data)) == pytest.approx(np.mean(ks), abs=TOL)


# ============================================================================================
# Interval labels far from zero (interval distance is translation invariant)
# ============================================================================================
# Krippendorff's (2011) worked example, with missing values
KRIPP_EXAMPLE = np.array([[1, 2, 3, 3, 2, 1, 4, 1, 2, np.nan, np.nan, np.nan],
                          [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, np.nan, 3],
                          [np.nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, np.nan],
                          [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, np.nan]])


def _interval_reference(coef: str, arr: np.ndarray) -> float:
    if coef == "alpha":
        return krippendorff.alpha(reliability_data=arr, level_of_measurement="interval")
    Do, De_ap, De_b = ap_missing(triples(arr), interval)
    return 1 - Do / (De_ap if coef == "alpha_prime" else De_b)


@pytest.mark.parametrize("coef", ["alpha", "alpha_prime", "beta"])
@pytest.mark.parametrize("offset", [0, 1000, 2000.5])
def test_interval_with_offset_labels(coef, offset):
    """Year-like labels: still within 1e-9 of the references and of the unshifted value."""
    arr = KRIPP_EXAMPLE + offset
    got = float(getattr(ca, coef)(ca.ReliabilityData.from_matrix(arr), "interval"))
    assert got == pytest.approx(_interval_reference(coef, arr), abs=TOL)
    assert got == pytest.approx(_interval_reference(coef, KRIPP_EXAMPLE), abs=TOL)


@pytest.mark.filterwarnings("ignore::corpusagree.DegenerateWarning")
@pytest.mark.parametrize("coef,offset", [("alpha", 1e8), ("alpha_prime", 1e6), ("beta", 1e6),
                                         ("alpha_prime", 1e7), ("beta", 1e8)])
def test_interval_with_large_offset_labels(coef, offset):
    arr = KRIPP_EXAMPLE + offset
    got = float(getattr(ca, coef)(ca.ReliabilityData.from_matrix(arr), "interval"))
    assert got == pytest.approx(_interval_reference(coef, arr), abs=TOL)
