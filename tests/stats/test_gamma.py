"""γ (Mathet, Widlöcher & Métivier 2015), γ-cat and γ-k (Mathet 2017).

* Published dissimilarities: Mathet et al.'s Figure 10 pairs, and pygamma-agreement's tests
  (positional and combined dissimilarities of the liza/pierrot units, a unitary disorder, the
  best alignment of liza/pierrot/hadrien, AlexPaulSuzan and 3by100 with α = 3).
* pygamma-agreement 0.5.9 (values stored by ``benchmarks/gamma_fixtures.py`` in
  ``tests/data/gamma/``; also live when pygamma is importable): best-alignment disorders of its
  own test continua and of random continua to 1e-5, γ with both samplers within sampling error,
  γ-cat/γ-k observed disorders where no unit is left unaligned.
* Exactness: the best alignment equals an integer program over every unitary alignment (no
  pruning), with the dissimilarity written out here independently.
* Mathet (2017): on predefined units, γ-cat's observed disorder is Krippendorff's D_o, missing
  values included.
* Samplers, the precision rule, seeds, corpora of several documents, errors, JSON.
"""

from __future__ import annotations

import csv
import itertools
import json
import math

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.stats import norm

import corpusagree as ca
from corpusagree.model.continuum import Continuum
from corpusagree.model.errors import InputError
from corpusagree.stats import coefficients as co
from corpusagree.stats import gamma as G
from corpusagree.stats.gamma import alignment as GA
from corpusagree.stats.gamma import dissimilarity as GD
from corpusagree.stats.gamma import measure as GM
from corpusagree.stats.gamma import samplers as GS

from support import DATA, load_benchmark

GAMMA = DATA / "gamma"
RANDOM = json.loads((GAMMA / "random_continua.json").read_text())["continua"]
OWN = json.loads((GAMMA / "pygamma_values.json").read_text())["continua"]


def from_csv(name: str, **kw) -> Continuum:
    """A continuum from pygamma's CSV layout (annotator, category, start, end) on [0, last)."""
    with open(GAMMA / name, newline="") as f:
        rows = [(a, float(s), float(e), c) for a, c, s, e in csv.reader(f)]
    return Continuum.from_units(rows, 0, **kw)


def random_continuum(name: str) -> tuple[Continuum, dict]:
    r = RANDOM[name]
    return Continuum.from_units([tuple(u) for u in r["units"]], r["begin"], r["end"]), r


def params(r: dict) -> dict:
    return {"alpha": r["alpha"], "beta": r["beta"], "delta_empty": r["delta_empty"]}


# liza / pierrot / hadrien of pygamma's test_alignement.py and test_dissimilarity.py
LIZA = [("liza", 1, 5, "Carol"), ("liza", 6, 8, "Bob"), ("liza", 12, 18, "Carol"),
        ("liza", 7, 20, "Alice")]
PIERROT = [("pierrot", 2, 6, "Carol"), ("pierrot", 7, 8, "Bob"), ("pierrot", 12, 18, "Alice"),
           ("pierrot", 8, 10, "Alice"), ("pierrot", 7, 19, "Jeremy")]
HADRIEN = [("hadrien", 1, 6, "Carol"), ("hadrien", 8, 10, "Alice"),
           ("hadrien", 7, 19, "Jeremy"), ("hadrien", 19, 20, "Alice")]
# pygamma indexes a category matrix by the categories in alphabetical order, whatever order
# the test wrote them in: these rows and columns are Alice, Bob, Carol, Jeremy
NAMES = ["Alice", "Bob", "Carol", "Jeremy"]
MATRIX = np.array([[0, 0.5, 0.3, 0.7], [0.5, 0, 0.6, 0.4],
                   [0.3, 0.6, 0, 0.7], [0.7, 0.4, 0.7, 0]])


# ---- dissimilarities ------------------------------------------------------------------------
def test_positional_dissimilarity_of_mathet_figure_10() -> None:
    # Mathet et al. (2015), Figure 10, printed to two significant digits (pygamma's test)
    published = {((4, 14), (40, 44)): 22.2, ((4, 14), (4, 14)): 0.0,
                 ((4, 14), (20, 25)): 3.2, ((4, 14), (14, 24)): 1.0,
                 ((20, 30), (20, 25)): 0.11, ((20, 25), (14, 24)): 0.22}
    exact = {((4, 14), (40, 44)): (66 / 14) ** 2, ((4, 14), (20, 25)): 1.8 ** 2,
             ((20, 30), (20, 25)): 1 / 9, ((20, 25), (14, 24)): (7 / 15) ** 2}
    for (u, v), value in published.items():
        d = G.positional_dissimilarity(u, v)
        assert d == pytest.approx(value, rel=0.02, abs=1e-12)
        assert d == pytest.approx(exact.get((u, v), value), rel=1e-12)
        assert G.positional_dissimilarity(v, u) == d
    assert G.positional_dissimilarity((4, 14), (40, 44), delta_empty=0.5) == \
        pytest.approx(0.5 * (66 / 14) ** 2)
    # Mathet et al.'s scale effect (pygamma's figure-20 test): (0,7)/(0,10) ~ (0,21)/(0,30)
    assert G.positional_dissimilarity((0, 7), (0, 10)) == \
        pytest.approx(G.positional_dissimilarity((0, 21), (0, 30)), rel=1e-12)


def liza_pierrot_pairs() -> tuple[Continuum, np.ndarray, np.ndarray]:
    """The liza × pierrot unit pairs in pygamma's order (each annotator's units sorted)."""
    c = Continuum.from_units(LIZA + PIERROT, categories=NAMES)
    order = np.lexsort((c.end, c.start))
    liza = [u for u in order if c.annotator[u] == 0]
    pierrot = [u for u in order if c.annotator[u] == 1]
    i, j = (np.array(x) for x in zip(*itertools.product(liza, pierrot), strict=True))
    return c, i, j


def test_dissimilarities_of_pygamma_tests() -> None:
    c, i, j = liza_pierrot_pairs()
    pos = [G.positional_dissimilarity((c.start[a], c.end[a]), (c.start[b], c.end[b]), 0.5)
           for a, b in zip(i, j, strict=True)]
    assert pos == pytest.approx([
        0.03125, 1.62, 0.78125, 2.0, 2.88, 0.5, 0.05555555555555555, 0.36734693877551017, 0.5,
        2.0, 0.6245674740484429, 0.36734693877551017, 0.0008, 0.26888888888888884,
        0.06786703601108032, 2.4200000000000004, 2.2959183673469385, 0.05555555555555555,
        1.125, 0.0], rel=1e-9)
    # combined, α = 3, β = 1, Δ∅ = 0.5, a category matrix (alphabetical rows again)
    M = np.array([[0, 0.6, 0.3, 0.7], [0.6, 0, 0.5, 0.4], [0.3, 0.5, 0, 0.7],
                  [0.7, 0.4, 0.7, 0]])
    dis = GD.Dissimilarity(3.0, 1.0, 0.5, GD.category_matrix(c, (M, NAMES)))
    assert dis(c.start, c.end, c.category, i, j).tolist() == pytest.approx([
        0.09375, 5.11, 2.69375, 6.15, 8.790000000000001, 1.75, 0.16666666666666666,
        1.3020408163265305, 1.8, 6.3, 2.0237024221453286, 1.4020408163265305, 0.3524,
        0.8066666666666665, 0.20360110803324097, 7.260000000000002, 7.137755102040815,
        0.5166666666666666, 3.525, 0.15], rel=1e-9)


def test_unitary_disorder_of_pygamma_test() -> None:
    # (12,18) Carol, (12,18) Alice, ∅ with α = 1, Δ∅ = .5: δ = (.3·.5 + .5 + .5)/3; pygamma's
    # test divides by x̄ = 2/3 and gets 0.575
    c = Continuum.from_units([("liza", 12, 18, "Carol"), ("pierrot", 12, 18, "Alice")],
                             annotators=["liza", "pierrot", "hadrien"], categories=NAMES)
    a = G.best_alignment(c, delta_empty=0.5, category_distance=(MATRIX, NAMES))
    (ua,) = a.unitary_alignments
    assert ua.units == (0, 1, None) and ua.disorder == pytest.approx(1.15 / 3)
    assert a.disorder == pytest.approx(0.574999988079071, rel=1e-7)


def test_category_distances_bound_to_the_categories() -> None:
    c = from_csv("AlexPaulSuzan.csv")
    D = GD.category_matrix(c, "nominal")
    assert D.tolist() == (1 - np.eye(7)).tolist()
    v = np.arange(1, 8)
    assert np.allclose(GD.category_matrix(c, "interval"), (v[:, None] - v) ** 2 / 36)
    weights = {(a, b): 0.5 for a, b in itertools.combinations(c.categories, 2)}
    assert np.allclose(GD.category_matrix(c, weights), 0.5 * (1 - np.eye(7)))
    assert np.allclose(GD.category_matrix(c, (2 * (1 - np.eye(7)), c.categories)), D)
    with pytest.raises(InputError, match="compares sets"):
        G.best_alignment(c, category_distance="jaccard")
    with pytest.raises(InputError, match="numeric categories"):
        G.best_alignment(Continuum.from_units(LIZA + PIERROT), category_distance="interval")
    with pytest.raises(InputError, match="unknown distance"):
        G.best_alignment(c, category_distance="nope")


# ---- best alignments: published and pygamma's ----------------------------------------------
def test_best_alignment_of_pygamma_test_liza_pierrot_hadrien() -> None:
    c = Continuum.from_units(LIZA + PIERROT + HADRIEN, categories=NAMES)
    a = G.best_alignment(c, alpha=3, delta_empty=0.5, category_distance=(MATRIX, NAMES))
    assert a.disorder == pytest.approx(0.43478875578596043, abs=1e-7)
    assert sorted(u for ua in a.unitary_alignments for u in ua.units if u is not None) == \
        list(range(len(c)))


def test_best_alignment_of_alex_paul_suzan() -> None:
    c = from_csv("AlexPaulSuzan.csv")
    a = G.best_alignment(c, alpha=3)
    assert a.disorder == pytest.approx(0.96, rel=0.01)        # pygamma's test
    assert a.disorder == pytest.approx(0.96062493, abs=1e-7)  # pygamma 0.5.9
    # pygamma's test finds 6 unitary alignments, here 7: Alex's (44, 60) "7" and Suzan's
    # (40, 44) "6" have d = 3·((4 + 16)/20)² + 1 = 4 = (C(3,2) + 1)Δ∅, so aligning them costs
    # (4 + 1 + 1)/3 = 2 = leaving both alone: two best alignments
    assert len(a) == 7
    alone = [ua for ua in a.unitary_alignments if sum(u is not None for u in ua.units) == 1]
    assert sorted((c.start[u], c.end[u]) for ua in alone for u in ua.units if u is not None) \
        == [(40, 44), (44, 60)]
    assert all(ua.disorder == 1 for ua in alone)


def test_best_alignment_of_3by100() -> None:
    a = G.best_alignment(from_csv("3by100.csv"), alpha=3)
    assert len(a) == 127  # pygamma's test
    assert a.disorder == pytest.approx(OWN["3by100/3/1/1"]["best_disorder"], abs=1e-6)


@pytest.mark.parametrize("key", sorted(OWN))
def test_best_alignment_of_pygamma_test_continua(key: str) -> None:
    r = OWN[key]
    a = G.best_alignment(from_csv(r["file"]), **params(r))
    assert a.disorder == pytest.approx(r["best_disorder"], abs=1e-5)


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_best_alignment_equals_pygamma_on_random_continua(name: str) -> None:
    c, r = random_continuum(name)
    a = G.best_alignment(c, **params(r))
    assert abs(a.disorder - r["best_disorder"]) <= 1e-5
    covered = np.sort(a.tuples[a.tuples >= 0])
    assert covered.tolist() == list(range(len(c)))  # a partition of the units
    # the alignment's disorder is its unitary disorders over x̄
    assert a.disorder == pytest.approx(a.disorders.sum() / (len(c) / r["annotators"]))


def test_gamma_in_the_ranges_of_pygamma_tests() -> None:
    # pygamma's test_gammas.py (its own seeds; γ is sampled, these are seed 0's values here)
    g = G.gamma(from_csv("3by100.csv"), alpha=3, precision=None, seed=0)
    assert g.n_samples == 30 and 0.79 <= g.value <= 0.81
    assert g.gamma_cat >= 0.96
    assert g.gamma_k("Adj") >= 0.96 and g.gamma_k("Noun") >= 0.94
    assert 0.86 <= g.gamma_k("Verb") <= 0.90 and g.gamma_k("Prep") >= 0.96
    g = G.gamma(from_csv("AlexPaulSuzan.csv"), alpha=3, sampler="shuffle", precision=0.05,
                seed=0)
    assert 0.44 <= g.value <= 0.47
    for k in "156":
        assert g.gamma_k(k) == pytest.approx(1, abs=0.01)
    for k in "234":
        assert g.gamma_k(k) <= 0
    # pygamma gives γ-k("7") = 1: Alex's one "7" unit is either alone or (the tie above)
    # aligned with a "6" at pairing confidence max(0, 1 − 3·1) = 0; no pair weighs anything
    assert np.isnan(g.gamma_k("7"))


@pytest.mark.parametrize("sampler", ["statistical", "shuffle"])
def test_samples_aligned_in_batches_equal_one_at_a_time(sampler, monkeypatch) -> None:
    """Sampled continua are aligned several at a time in one program; the disorders, γ,
    γ-cat and γ-k equal those of one program per sample (a batch that does not divide the
    count, several documents). The shuffle sampler's copies of real annotators can tie
    several alignments of least disorder, which a larger program may resolve otherwise: the
    disorders are then equal to rounding, and γ-cat and γ-k (which depend on the alignment
    chosen) are not compared."""
    c = Continuum.join([
        Continuum.from_units([tuple(u) for u in RANDOM[k]["units"]], RANDOM[k]["begin"],
                             RANDOM[k]["end"], document=k) for k in ("r3x30", "r3x40_de")])
    runs = []
    for batch in (1, 7):
        monkeypatch.setattr(GM, "SAMPLE_UNITS", batch * len(c))
        runs.append(G.gamma(c, sampler=sampler, n_samples=20, seed=3))
    one, many = runs
    if sampler == "shuffle":
        np.testing.assert_allclose(one.sample_disorders, many.sample_disorders, rtol=1e-15)
        assert one.value == pytest.approx(many.value, rel=1e-15)
        return
    np.testing.assert_array_equal(one.sample_disorders, many.sample_disorders)
    assert (one.value, one.gamma_cat) == (many.value, many.gamma_cat) or \
        np.isnan(one.gamma_cat) and one.value == many.value
    assert one.gamma_ks.keys() == many.gamma_ks.keys()
    np.testing.assert_array_equal(list(one.gamma_ks.values()), list(many.gamma_ks.values()))


@pytest.mark.parametrize("sampler", G.SAMPLERS)
def test_workers_give_the_same_gamma(sampler, monkeypatch) -> None:
    """The sampled continua are drawn in one sequence and their batches aligned by threads:
    any number of workers gives the same figures, bit for bit (several documents, batches of
    two samples, more workers than batches)."""
    c = Continuum.join([
        Continuum.from_units([tuple(u) for u in RANDOM[k]["units"]], RANDOM[k]["begin"],
                             RANDOM[k]["end"], document=k) for k in ("r3x30", "r3x40_de")])
    monkeypatch.setattr(GM, "SAMPLE_UNITS", 2 * len(c))
    runs = [G.gamma(c, sampler=sampler, n_samples=9, seed=5, workers=w) for w in (1, 2, 8)]
    for g in runs[1:]:
        np.testing.assert_array_equal(g.sample_disorders, runs[0].sample_disorders)
        assert g.to_dict(alignment=False) == runs[0].to_dict(alignment=False)
    assert runs[0].n_samples == 9


@pytest.mark.parametrize("seed", range(6))
def test_branch_and_bound_finds_the_integer_optimum(seed: int, monkeypatch) -> None:
    """The samples' branch and bound reaches the least cost that HiGHS's integer solver
    reaches, on the programs of sampled continua whose relaxation is fractional (and hands a
    component to that solver past its node limit)."""
    from scipy.sparse import csc_array

    from corpusagree.stats.gamma import solver as GSV
    if seed >= 4:
        monkeypatch.setattr(GSV, "MAX_NODES", 1)
    c, r = random_continuum(["r3x30", "r3x60_a3", "r4x20"][seed % 3])
    dis = GD.Dissimilarity(1.0, 1.0, 1.0, GD.category_matrix(c, "nominal"))
    samples = GM._Samples(GM._documents(c, []), dis, GS.SAMPLERS[seed % 2],
                          len(c.categories), seed, 1)
    fractional = 0
    for _ in range(15):
        a, s, e, cat = samples.sample()[0]
        T, cost = GA.candidates(a, s, e, cat, len(c.annotators), dis,
                                np.zeros(len(s), np.int64))
        rows, col = np.nonzero(T >= 0)
        A = csc_array((np.ones(len(rows)), (T[rows, col], rows)), shape=(len(s), len(T)))
        relaxed = GSV.solve(cost, A)
        fractional += bool((np.abs(relaxed - np.round(relaxed)) > 1e-6).any())
        x = GSV.branch_and_bound(cost, A)
        np.testing.assert_array_equal(A @ x, 1)
        assert set(np.unique(x)) <= {0.0, 1.0}
        assert cost @ x == pytest.approx(cost @ GSV.solve(cost, A, integer=True), abs=1e-9)
    assert fractional  # the branch and bound had something to do


def test_gamma_cat_and_k_observed_disorders_equal_pygamma_without_unaligned_units() -> None:
    # pygamma 0.5.9 counts units aligned with ∅ (an "experimental" term the paper has not):
    # where none is, its observed γ-cat and γ-k disorders are the paper's
    c, r = random_continuum("r3x30_full")
    assert not r["partial"]
    g = G.gamma(c, n_samples=3, **params(r))
    assert g.cat_disorders[0] == pytest.approx(r["cat_disorder"], abs=1e-6)
    for k, value in r["k_disorders"].items():
        assert g.k_disorders[k][0] == pytest.approx(value, abs=1e-6)


def sampling_error(g: G.Gamma, stored: dict) -> tuple[float, float]:
    """(difference of the expected disorders in standard errors, that standard error)."""
    theirs = np.asarray(stored["sample_disorders"])
    se = float(np.hypot(g.confidence_interval().se, theirs.std(ddof=1) / math.sqrt(len(theirs))))
    return (g.expected_disorder - stored["expected"]) / se, se


@pytest.mark.parametrize("sampler", G.SAMPLERS)
@pytest.mark.parametrize("name", ["r2x40", "r3x30", "r4x20", "r3x40_de", "r3x30_full"])
def test_gamma_within_sampling_error_of_pygamma(name: str, sampler: str) -> None:
    c, r = random_continuum(name)
    stored = r[sampler]
    g = G.gamma(c, sampler=sampler, precision=stored["precision"], seed=0, **params(r))
    assert g.observed_disorder == pytest.approx(stored["observed"], abs=1e-5)
    # both expected disorders are means of sampled disorders: their difference within 3.5
    # standard errors, and γ = 1 − D_o/D_e within what that moves it (dγ = D_o/D_e² dD_e)
    z, se = sampling_error(g, stored)
    assert abs(z) < 3.5
    slack = 3.5 * se * g.observed_disorder / min(g.expected_disorder, stored["expected"]) ** 2
    assert abs(g.value - stored["gamma"]) <= slack


# ---- exactness against every unitary alignment ----------------------------------------------
def brute_force(c: Continuum, alpha: float, beta: float, de: float, D: np.ndarray) -> float:
    """The least disorder over all partitions: an integer program over every unitary
    alignment, each disorder computed here pair by pair."""
    n = len(c.annotators)
    mine = [np.flatnonzero(c.annotator == a).tolist() for a in range(n)]
    tuples, costs = [], []
    for combo in itertools.product(*[m + [None] for m in mine]):
        if all(u is None for u in combo):
            continue
        total = 0.0
        for u, v in itertools.combinations(combo, 2):
            if u is None or v is None:
                total += de
            else:
                r = (abs(c.start[u] - c.start[v]) + abs(c.end[u] - c.end[v])) / \
                    (c.end[u] - c.start[u] + c.end[v] - c.start[v])
                total += alpha * r * r * de + beta * de * D[c.category[u], c.category[v]]
        tuples.append([u for u in combo if u is not None])
        costs.append(total / (n * (n - 1) / 2))
    A = np.zeros((len(c), len(tuples)))
    for k, t in enumerate(tuples):
        A[t, k] = 1
    res = milp(np.array(costs), integrality=np.ones(len(costs)), bounds=Bounds(0, 1),
               constraints=LinearConstraint(A, 1, 1), options={"mip_rel_gap": 0})
    return res.fun / (len(c) / n)


@pytest.mark.parametrize("seed", range(12))
def test_best_alignment_is_exact(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 2 + seed % 3
    units = []
    for a in range(n):
        for _ in range(int(rng.integers(1, 6 if n < 4 else 4))):
            s = float(rng.integers(0, 40))
            units.append((f"a{a}", s, s + float(rng.integers(1, 12)), str(rng.integers(0, 3))))
    c = Continuum.from_units(sorted(set(units)))
    alpha = [1.0, 3.0, 0.5, 0.0][seed % 4]
    beta = [1.0, 0.5, 2.0][seed % 3]
    de = [1.0, 0.5, 2.0][seed % 3]
    D = np.array([[0, 0.3, 1], [0.3, 0, 0.6], [1, 0.6, 0]])[:len(c.categories),
                                                            :len(c.categories)]
    a = G.best_alignment(c, alpha, beta, de, (D, c.categories))
    least = brute_force(c, alpha, beta, de, D)
    assert a.disorder == pytest.approx(least, abs=1e-9)
    # the sampled continua's way: branch and bound on the relaxation
    dis, docs, _ = GM._setup(c, alpha, beta, de, (D, c.categories))
    [(_, cost)] = GA.align([(d.annot, d.s, d.e, d.cat, d.n) for d in docs], dis, "branch")
    assert cost.sum() / docs[0].xbar == pytest.approx(least, abs=1e-9)


def test_pruning_keeps_candidates_small_on_a_long_document() -> None:
    c, _ = random_continuum("r2x80")
    dis = GD.Dissimilarity(1.0, 1.0, 1.0, GD.category_matrix(c, "nominal"))
    T, cost = GA.candidates(c.annotator, c.start, c.end, c.category, 2, dis,
                            np.zeros(len(c), np.int64))
    k = (T >= 0).sum(1)
    assert (k == 1).sum() == len(c) and (cost <= k + 1e-12).all()
    assert (k == 2).sum() < 4 * len(c)  # not the 80 × 80 pairs


@pytest.mark.parametrize("alpha", [0.0, 1.0, 3.0])
def test_candidates_of_documents_searched_together_equal_each_alone(alpha) -> None:
    """Documents searched together (units concatenated, pairs only within a document) give
    each document the candidates, in the same order and with the same disorders, that its
    search alone gives: also with α = 0, where every pair of a document may align, and with
    documents of 2, 3 and 4 annotators, and positions shared between documents."""
    names = ["r2x40", "r3x30", "r4x20", "r3x40_de", "r3x30"]
    docs = []
    for k in names:
        c, _ = random_continuum(k)
        docs.append((c.annotator, c.start, c.end, c.category, len(c.annotators)))
    dis = GD.Dissimilarity(alpha, 1.0, 1.0, np.ones((8, 8)) - np.eye(8))
    together = GA.candidates_by_document(docs, dis)
    for (a, s, e, cat, n), (T, cost) in zip(docs, together, strict=True):
        T1, cost1 = GA.candidates(a, s, e, cat, n, dis, np.zeros(len(s), np.int64))
        np.testing.assert_array_equal(T, T1)
        np.testing.assert_array_equal(cost, cost1)


# ---- γ-cat and γ-k --------------------------------------------------------------------------
def test_gamma_cat_observed_disorder_is_krippendorff_do_on_predefined_units() -> None:
    # Mathet (2017): on pure categorization γ-cat behaves as α, even with missing values; its
    # observed disorder (pairs weighted 1/(n_v − 1), confidence 1 at equal positions) is D_o
    rng = np.random.default_rng(3)
    labels = np.where(rng.random((4, 40)) < 0.6, rng.integers(0, 3, 40),
                      rng.integers(0, 3, (4, 40))).astype(float)
    labels[rng.random(labels.shape) < 0.2] = np.nan
    units = [(f"c{a}", 30.0 * i, 30.0 * i + 10, str(int(labels[a, i])))
             for a in range(4) for i in range(40) if not np.isnan(labels[a, i])]
    c = Continuum.from_units(units, annotators=[f"c{a}" for a in range(4)])
    g = G.gamma(c, n_samples=2)
    alpha = co.compute("alpha", ca.ReliabilityData.from_matrix(labels), "nominal")
    assert g.cat_disorders[0] == pytest.approx(alpha.observed, rel=1e-12)


def test_gamma_cat_and_k_by_hand() -> None:
    # two annotators: (0,10) A/A, (20,30) A/B, (40,50) B/B at equal positions, plus (60,70) vs
    # (61,70) A/A: d_pos = (1/19)², confidence 1 − 3·(1/19)²
    units = [("x", 0, 10, "A"), ("y", 0, 10, "A"), ("x", 20, 30, "A"), ("y", 20, 30, "B"),
             ("x", 40, 50, "B"), ("y", 40, 50, "B"), ("x", 60, 70, "A"), ("y", 61, 70, "A")]
    g = G.gamma(Continuum.from_units(units), alpha=3, n_samples=3)
    w = 1 - 3 / 19 ** 2
    assert g.cat_disorders[0] == pytest.approx(1 / (3 + w))
    assert g.k_disorders["A"][0] == pytest.approx(1 / (2 + w))  # pairs with an A
    assert g.k_disorders["B"][0] == pytest.approx(1 / 2)        # pairs with a B
    assert g.gamma_cat == pytest.approx(1 - g.cat_disorders[0] / g.cat_disorders[1])
    assert g.gamma_k("B") == pytest.approx(1 - 0.5 / g.k_disorders["B"][1])
    with pytest.raises(InputError, match="no category 'C'"):
        g.gamma_k("C")


def test_one_unit_against_an_empty_annotator() -> None:
    # pygamma's edge case: Martin's one unit, Martino marks nothing; γ ≤ 0. pygamma returns
    # γ-cat = γ-k = 1 there by convention; no pair of aligned units exists, so here they are nan
    c = Continuum.from_units([("Martin", 0, 10, "15")], annotators=["Martin", "Martino"])
    a = G.best_alignment(c)
    assert [ua.units for ua in a.unitary_alignments] == [(0, None)]
    assert a.disorder == 2.0  # Δ∅ over x̄ = 1/2
    for sampler in G.SAMPLERS:
        g = G.gamma(c, sampler=sampler, n_samples=5)
        assert g.value <= 0
        assert np.isnan(g.gamma_cat) and np.isnan(g.gamma_k("15"))


def test_gamma_cat_is_undefined_with_one_category() -> None:
    # One category: aligned units never disagree on it, nor do sampled ones, so D_e = 0 and
    # γ-cat says nothing (pygamma returns 1; it was 1 here on RSTmulti's segments before); γ
    # itself stays defined and a second category makes γ-cat defined again
    units = [("x", 0, 10, "A"), ("y", 1, 10, "A"), ("x", 20, 30, "A"), ("y", 22, 29, "A")]
    g = G.gamma(Continuum.from_units(units), n_samples=5)
    assert tuple(g.cat_disorders) == (0.0, 0.0)
    assert np.isnan(g.gamma_cat) and np.isnan(g.gamma_k("A")) and 0 < g.value <= 1
    g2 = G.gamma(Continuum.from_units(units + [("x", 40, 50, "A"), ("y", 40, 50, "B")]),
                 n_samples=5)
    assert not np.isnan(g2.gamma_cat) and g2.gamma_cat < 1


# ---- samplers, precision, seeds ---------------------------------------------------------------
def test_statistical_sampler_follows_the_continuum() -> None:
    c = from_csv("3by100.csv")
    rng = np.random.default_rng(0)
    L = len(c.categories)
    draws = [GS.statistical(rng, c.annotator, c.start, c.end, c.category, 3, 0.0, L)
             for _ in range(300)]
    lengths = np.concatenate([e - s for _, s, e, _ in draws])
    mu, sd = (c.end - c.start).mean(), (c.end - c.start).std()
    folded = mu * (1 - 2 * norm.cdf(-mu / sd)) + sd * math.sqrt(2 / math.pi) * \
        math.exp(-mu ** 2 / (2 * sd ** 2))  # the mean of |N(μ, σ²)|
    assert lengths.mean() == pytest.approx(folded, rel=0.01)
    assert lengths.min() >= GS.MIN_LENGTH
    counts = np.array([np.bincount(w, minlength=3) for w, *_ in draws])
    assert counts.mean() == pytest.approx(124, abs=1)  # std 0: |int(124.0)|
    freq = np.bincount(np.concatenate([k for *_, k in draws]), minlength=L)
    assert freq / freq.sum() == pytest.approx(np.bincount(c.category) / len(c), abs=0.01)
    # gaps between an annotator's consecutive units: the continuum's mean gap
    gaps = np.concatenate([(s[1:] - e[:-1])[w[1:] == w[:-1]] for w, s, e, _ in draws])
    order = np.lexsort((c.start, c.annotator))
    same = np.diff(c.annotator[order]) == 0
    ref = np.r_[0.0, (c.start[order][1:] - c.end[order][:-1])[same], [3, 4, 1]]
    assert gaps.mean() == pytest.approx(ref.mean(), rel=0.03)


def test_shuffle_sampler_rotates_real_annotators() -> None:
    c = from_csv("AlexPaulSuzan.csv")
    rng = np.random.default_rng(1)
    half = (c.end - c.start).mean() / 2
    for _ in range(50):
        who, s, e, k = GS.shuffle(rng, c.annotator, c.start, c.end, c.category, 3, 0.0, 60.0,
                                  len(c.categories))
        shifts = []
        for slot in range(3):
            mine = who == slot
            if not mine.any():
                continue
            match = [a for a in range(3) if (c.annotator == a).sum() == mine.sum() and
                     np.array_equal(np.sort(c.end[c.annotator == a] - c.start[c.annotator == a]),
                                    np.sort(e[mine] - s[mine]))]
            assert match
            # a rotation: every unit moved by the same shift modulo the continuum's length
            moved = np.sort(np.mod(s[mine], 60))
            a = match[0]
            ok = [np.allclose(np.sort(np.mod(c.start[c.annotator == a] + x, 60)), moved)
                  for x in range(60)]
            assert any(ok)
            shifts.append(ok.index(True))
        # positions are drawn from what earlier ones left free (whole positions: up to one less)
        for x, y in itertools.combinations(shifts, 2):
            assert abs(x - y) >= half - 1


def test_precision_rule_decides_the_number_of_samples() -> None:
    c = from_csv("AlexPaulSuzan.csv")
    g = G.gamma(c, precision=0.03, seed=4)
    first = g.sample_disorders[:G.FIRST_BATCH]
    need = math.ceil((1.96 * first.std() / first.mean() / 0.03) ** 2)
    assert need > G.FIRST_BATCH and g.n_samples == need
    assert g.expected_disorder == pytest.approx(g.sample_disorders.mean())
    loose = G.gamma(c, precision=0.5, seed=4)
    assert loose.n_samples == G.FIRST_BATCH
    fixed = G.gamma(c, n_samples=7, seed=4)
    assert fixed.n_samples == 7 and fixed.precision is None
    assert fixed.sample_disorders.tolist() == g.sample_disorders[:7].tolist()


def test_seed_makes_gamma_reproducible() -> None:
    c, _ = random_continuum("r3x30")
    for sampler in G.SAMPLERS:
        a = G.gamma(c, sampler=sampler, n_samples=8, seed=11)
        b = G.gamma(c, sampler=sampler, n_samples=8, seed=11)
        other = G.gamma(c, sampler=sampler, n_samples=8, seed=12)
        assert a.value == b.value and a.sample_disorders.tolist() == b.sample_disorders.tolist()
        assert a.value != other.value and a.observed_disorder == other.observed_disorder


def test_confidence_interval_is_the_sampling_interval() -> None:
    c, _ = random_continuum("r2x40")
    g = G.gamma(c, n_samples=40)
    ci = g.confidence_interval(0.9)
    se = g.sample_disorders.std(ddof=1) / math.sqrt(40)
    z = 1.6448536269514722
    assert ci.se == pytest.approx(se)
    assert ci.low == pytest.approx(1 - g.observed_disorder / (g.expected_disorder - z * se))
    assert ci.high == pytest.approx(1 - g.observed_disorder / (g.expected_disorder + z * se))
    assert ci.low < g.value < ci.high and ci.n_resamples == 40 and ci.seed == 0
    assert g.confidence_interval(0.99).low < ci.low


# ---- corpora ----------------------------------------------------------------------------------
def test_several_documents() -> None:
    one, _ = random_continuum("r3x30")
    renamed = {"Alex": "annotator_1", "Paul": "annotator_2", "Suzan": "annotator_3"}
    two = Continuum.from_units([(renamed[a], s, e, k) for _, a, s, e, k in
                                from_csv("AlexPaulSuzan.csv").units()], 0, 60, document="aps")
    solo = Continuum.from_units([("annotator_1", 0, 5, "Adj")], 0, 10, document="solo")
    corpus = Continuum.join([one, two, solo])
    a = G.best_alignment(corpus)
    parts = [G.best_alignment(one), G.best_alignment(two)]
    assert a.document_disorders[:2].tolist() == pytest.approx([p.disorder for p in parts])
    assert np.isnan(a.document_disorders[2])
    xbar = np.array([len(one) / 3, len(two) / 3])
    assert a.disorder == pytest.approx(xbar @ a.document_disorders[:2] / xbar.sum())
    for row, d in zip(a.tuples, a.document, strict=True):
        assert (corpus.doc[row[row >= 0]] == d).all()  # never across documents
    g = G.gamma(corpus, n_samples=6)
    assert [d.document for d in g.documents] == ["document", "aps"]
    assert "document 'solo' has fewer than two annotators: left out of γ" in g.notes
    solos = [Continuum.from_units([("annotator_1", 0, 5, "Adj")], 0, 10, document=f"s{i}")
             for i in range(5)]
    many = G.gamma(Continuum.join([one, two, *solos]), n_samples=2).notes
    assert ("5 documents have fewer than two annotators ('s0', 's1', 's2', …): left out of γ"
            in many)
    assert [d.observed_disorder for d in g.documents] == pytest.approx(
        [p.disorder for p in parts])
    w = xbar / xbar.sum()
    assert g.expected_disorder == pytest.approx(w @ [d.expected_disorder for d in g.documents])
    assert g.sample_disorders == pytest.approx(
        np.column_stack([d.sample_disorders for d in g.documents]) @ w)
    assert g.value == pytest.approx(1 - g.observed_disorder / g.expected_disorder)
    out = g.to_dict()
    assert [d["document"] for d in out["documents"]] == ["document", "aps"]
    assert "alignment" not in out["documents"][1]
    assert [d["document"] for d in out["alignment"]["documents"]] == ["document", "aps"]
    assert sum(u["document"] == "aps" for u in out["alignment"]["unitary_alignments"]) == \
        len(g.documents[1].alignment)
    assert g.documents[1].alignment.to_dict()["documents"] == \
        [{"document": "aps", "disorder": g.documents[1].observed_disorder}]


# ---- API, errors, JSON ------------------------------------------------------------------------
def test_result_objects_and_json() -> None:
    c = from_csv("AlexPaulSuzan.csv")
    g = G.gamma(c, alpha=3, n_samples=5)
    assert repr(g).startswith("Gamma of 'document'(") and "5 statistical samples" in repr(g)
    assert repr(g.alignment).startswith("Alignment(disorder=0.9606")
    out = json.loads(json.dumps(g.to_dict()))
    assert all(k.isascii() for k in out)
    assert out["value"] == g.value and out["n_samples"] == 5 and out["alpha"] == 3
    assert set(out["gamma_k"]) == set(c.categories)
    first = out["alignment"]["unitary_alignments"][0]
    assert len(first["units"]) == 3 and out["alignment"]["annotators"] == c.annotators
    unit = next(u for u in first["units"] if u is not None)
    assert set(unit) == {"index", "start", "end", "category"}
    assert G.best_alignment(c).to_dict()["documents"] == \
        [{"document": "document", "disorder": G.best_alignment(c).disorder}]


@pytest.mark.parametrize("call, error, message", [
    (lambda c: G.gamma(c, sampler="uniform"), ValueError,
     "sampler must be one of 'statistical' or 'shuffle', not 'uniform'"),
    (lambda c: G.gamma(c, precision=0), ValueError, "precision must be a number > 0 or None"),
    (lambda c: G.gamma(c, precision=1.5), InputError, "precision must lie"),
    (lambda c: G.gamma(c, n_samples=0), ValueError, "n_samples must be an integer ≥ 1"),
    (lambda c: G.best_alignment(c, alpha=-1), ValueError, "alpha must be a number ≥ 0"),
    (lambda c: G.best_alignment(c, delta_empty=0), ValueError, "delta_empty must be"),
    (lambda c: G.gamma(c, n_samples=3).confidence_interval(1.5), InputError,
     "confidence level"),
])
def test_bad_arguments(call, error, message: str) -> None:
    with pytest.raises(error, match=message):
        call(from_csv("AlexPaulSuzan.csv"))


def test_too_many_candidates_is_one_error(monkeypatch) -> None:
    # α = 0 ignores positions: every tuple of same-category units is a candidate
    monkeypatch.setattr(GA, "MAX_CANDIDATES", 1000)
    with pytest.raises(InputError, match="more than 1,000 candidate unitary alignments"):
        G.best_alignment(from_csv("3by100.csv"), alpha=0)


def test_candidate_limit_is_per_document(monkeypatch) -> None:
    """Documents searched together may hold more candidates in all than the limit, which is
    each document's; the error names the size of the document that passed it."""
    r = RANDOM["r3x30"]
    docs = [Continuum.from_units([tuple(u) for u in r["units"]], r["begin"], r["end"],
                                 document=f"d{k}") for k in range(3)]
    c = Continuum.join(docs)
    one = len(GA.candidates_by_document([(c.annotator[c.doc == 0], c.start[c.doc == 0],
                                          c.end[c.doc == 0], c.category[c.doc == 0], 3)],
                                        GD.Dissimilarity(1, 1, 1, GD.category_matrix(
                                            c, "nominal")))[0][0])
    monkeypatch.setattr(GA, "MAX_CANDIDATES", 2 * one)  # below the 3 documents' sum
    assert G.best_alignment(c).disorder > 0
    monkeypatch.setattr(GA, "MAX_CANDIDATES", one // 2)
    with pytest.raises(InputError, match=f"in a document of {len(r['units'])} units"):
        G.best_alignment(c)


def test_degenerate_continua() -> None:
    lonely = Continuum.from_units([("a", 0, 5, "x"), ("a", 6, 9, "y")])
    with pytest.raises(InputError, match="two annotators"):
        G.best_alignment(lonely)
    with pytest.raises(InputError, match="must end after it starts"):
        G.positional_dissimilarity((5, 5), (1, 2))


# ---- live against pygamma-agreement (when importable) -----------------------------------------
def test_live_against_pygamma() -> None:
    pytest.importorskip("pygamma_agreement")
    fx = load_benchmark("gamma_fixtures")
    for seed, (n, m, alpha) in enumerate([(2, 25, 1.0), (3, 15, 3.0), (3, 20, 1.0)]):
        units, end = fx.simulate(n, m, 100 + seed)
        c = Continuum.from_units(units, 0, end)
        theirs = fx.pygamma_continuum(units, 0.0, end)
        with fx.c_stdout_silenced():
            best = theirs.get_best_alignment(fx.dissimilarity(alpha, 1.0, 1.0))
            stored = fx.gamma_values(theirs, fx.dissimilarity(alpha, 1.0, 1.0), "shuffle", seed)
        assert G.best_alignment(c, alpha=alpha).disorder == pytest.approx(
            float(best.disorder), abs=1e-5)
        g = G.gamma(c, alpha=alpha, sampler="shuffle")
        assert abs(sampling_error(g, stored)[0]) < 3.5


def test_precision_rule_is_capped_with_a_note(monkeypatch):
    """Two one-unit annotators make D_e vary so much that the precision rule asks for over
    10,000 samples (40 s): at most MAX_SAMPLES are drawn, and the result says so."""
    monkeypatch.setattr(GM, "MAX_SAMPLES", 200)
    c = Continuum.from_units([("a", 0, 5, "X"), ("b", 1, 5, "X")], begin=0, end=60)
    g = G.gamma(c, seed=0)
    assert g.n_samples == 200
    assert len(g.notes) == 1 and "the precision rule asked for" in g.notes[0]
    assert "200 were drawn" in g.notes[0]
    assert G.gamma(c, n_samples=250, seed=0).n_samples == 250  # a number given is drawn


def test_progress_counts_sampled_continua():
    """progress(done, total) counts the sampled continua aligned, batch by batch: ``total`` is
    the number asked for, or the first batch until the precision rule says how many."""
    c = from_csv("AlexPaulSuzan.csv")
    seen: list[tuple[int, int]] = []
    G.gamma(c, n_samples=12, seed=4, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (12, 12) and all(t == 12 for _, t in seen)
    seen.clear()
    g = G.gamma(c, precision=0.03, seed=4, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (G.FIRST_BATCH, G.FIRST_BATCH)
    assert seen[-1] == (g.n_samples, g.n_samples) and g.n_samples > G.FIRST_BATCH
    with pytest.raises(InputError, match="γ has no percentile interval"):
        g.confidence_interval(method="percentile")
