"""Krippendorff & Craggs's (2016) multi-valued α: the paper's Table 3, α nominal on single
values (Krippendorff 2011), the R package mvalpha 0.6.0 on random data (fixtures made by
tests/data/mvalpha/make_fixtures.py), a brute-force enumeration of the subsets, invariances,
the bootstrap against recomputation, the per-value diagnostics and bad input."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import corpusagree as ca
from corpusagree.stats import diagnostics as dg
from corpusagree.stats import inference
from corpusagree.stats.mvalpha import expected_disagreement

from support import DATA, random_sets

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

#: Krippendorff & Craggs (2016), Table 3: units × observers F, G, H; None = missing
TABLE3 = [[{"b", "d"}, {"d"}, None],
          [{"a", "b", "d"}, {"b"}, {"b", "d"}],
          [set(), {"a"}, {"a"}],
          [{"a"}, None, None]]

#: Krippendorff (2011), "Computing Krippendorff's alpha-reliability", nominal example
KRIPP = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
         [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]


def from_cells(cells, coders=None) -> ca.ReliabilityData:
    """Units × coders cells (None = missing, else a set) as reliability data."""
    coders = coders or [f"c{j}" for j in range(len(cells[0]))]
    return ca.ReliabilityData.from_triples(
        [(coders[j], f"u{i}", None if c is None else frozenset(c))
         for i, row in enumerate(cells) for j, c in enumerate(row)])


def brute_force(data: ca.ReliabilityData) -> tuple[float, float]:
    """(D_o, D_e) by the definitions: D_o over ordered pairs of judgements within units,
    D_e by enumerating every pair of subsets of the values used."""
    units = [[data.label(int(k)) for k in data.codes[:, i] if k >= 0]
             for i in range(data.n_items)]
    units = [u for u in units if len(u) >= 2]
    pooled = [s for u in units for s in u]
    N = len(pooled)

    def delta(C, K):
        return 0.0 if not C and not K else 1 - 2 * len(C & K) / (len(C) + len(K))

    do = sum(delta(u[a], u[b]) / (len(u) - 1) for u in units
             for a, b in permutations(range(len(u)), 2)) / N
    n_v: dict = {}
    for s in pooled:
        for v in s:
            n_v[v] = n_v.get(v, 0) + 1
    n_s: dict = {}
    for s in pooled:
        n_s[len(s)] = n_s.get(len(s), 0) + 1
    values = sorted(n_v, key=repr)
    de = 0.0
    for s, ns in n_s.items():
        for t, nt in n_s.items():
            num = den = 0.0
            for C in map(frozenset, combinations(values, s)):
                for K in map(frozenset, combinations(values, t)):
                    w = 1.0
                    for v in C | K:
                        w *= n_v[v] * ((n_v[v] - 1) if v in C and v in K else 1)
                    num += w * delta(C, K)
                    den += w
            if den > 0:
                de += ns / N * nt / N * num / den
    return do, de


# ---- published values ---------------------------------------------------------------------
def test_table3_krippendorff_craggs():
    r = ca.mv_alpha(from_cells(TABLE3, ["F", "G", "H"]))
    assert r.observed == pytest.approx(37 / 80, abs=1e-15)
    assert r.expected == pytest.approx(1141 / 1760, abs=1e-15)
    assert r.value == pytest.approx(327 / 1141, abs=1e-15)
    assert round(r.value, 5) == 0.28659
    assert Fraction(r.value).limit_denominator(2000) == Fraction(327, 1141)
    assert (r.items, r.coders, r.pairable_values) == (3, 3, 8)  # unit 4 is not pairable
    assert r.id == "mv_alpha" and r.symbol == "mvα"


def test_table3_alpha_with_set_distances():
    """The paper's comparison: α over the observed sets is 0.344 (Dice), 0.262 (Jaccard) and
    0.184 (MASI), against mvα 0.287; Dice's D_o is mvα's."""
    data = from_cells(TABLE3)
    got = {d: round(ca.alpha(data, d).value, 3) for d in ("dice", "jaccard", "masi")}
    assert got == {"dice": 0.344, "jaccard": 0.262, "masi": 0.184}
    assert ca.alpha(data, "dice").observed == pytest.approx(ca.mv_alpha(data).observed)


def test_single_values_give_alpha_nominal_krippendorff_2011():
    cells = [[None if v is None else {v} for v in col] for col in zip(*KRIPP, strict=True)]
    r = ca.mv_alpha(from_cells(cells))
    plain = ca.alpha(ca.ReliabilityData.from_matrix(KRIPP))
    assert round(r.value, 3) == 0.743
    assert r.value == pytest.approx(plain.value, abs=1e-14)
    assert r.expected == pytest.approx(plain.expected, abs=1e-14)


# ---- the R package mvalpha 0.6.0 ------------------------------------------------------------
FIXTURES = json.loads((DATA / "mvalpha" / "fixtures.json").read_text())
NOMINAL = [c for c in FIXTURES["cases"] if c["type"] == "nominal" and "error" not in c]


def test_fixtures_provenance():
    assert FIXTURES["mvalpha"] == "0.6.0"
    assert len(NOMINAL) >= 60
    cells = [c for case in NOMINAL for row in case["cells"] for c in row]
    assert [] in cells and None in cells and any(c and len(c) >= 3 for c in cells)


@pytest.mark.parametrize("case", NOMINAL, ids=[c["name"] for c in NOMINAL])
def test_equals_mvalpha_R(case):
    data = from_cells(case["cells"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ca.DegenerateWarning)
        r = ca.mv_alpha(data)
    assert r.observed == pytest.approx(case["mvDo"], abs=1e-12)
    assert r.expected == pytest.approx(case["mvDe"], abs=1e-12)
    if case["mvalpha"] is None:  # R: 0/0
        assert np.isnan(r.value) and case["mvDe"] == 0
    else:
        assert r.value == pytest.approx(case["mvalpha"], abs=1e-12)


def test_equals_mvalpha_R_through_the_profile_path(monkeypatch):
    """The same values when the Dice distance is bound by sizes and overlaps (the path taken
    for many sets of few values) instead of the table of intersecting pairs."""
    from corpusagree.stats import distances

    monkeypatch.setattr(distances, "PROFILE_PAIRS", -1)
    for case in NOMINAL[:20]:
        data = from_cells(case["cells"])
        assert isinstance(distances.DICE.bind(data, None), distances._ProfileSetMetric)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ca.DegenerateWarning)
            r = ca.mv_alpha(data)
        assert r.observed == pytest.approx(case["mvDo"], abs=1e-12)
        assert r.expected == pytest.approx(case["mvDe"], abs=1e-12)


def test_max_difference_from_mvalpha_R():
    worst = 0.0
    for case in NOMINAL:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ca.DegenerateWarning)
            r = ca.mv_alpha(from_cells(case["cells"]))
        if case["mvalpha"] is not None:
            worst = max(worst, abs(r.value - case["mvalpha"]))
    assert worst < 1e-13


def test_mvalpha_interval_type_is_not_scale_invariant():
    """Why only nominal mvα is offered: mvalpha's interval mvα changes when the values 1, 2, 3
    become 10, 20, 30 (its D_o takes the ranks, its D_e the values); nominal mvα does not."""
    got = {c["name"]: c for c in FIXTURES["cases"] if c["name"].endswith(("_x1", "_x10"))}
    assert got["nominal_x1"]["mvalpha"] == pytest.approx(got["nominal_x10"]["mvalpha"])
    assert got["interval_x1"]["mvDe"] == pytest.approx(got["interval_x10"]["mvDe"])
    assert abs(got["interval_x1"]["mvDo"] - got["interval_x10"]["mvDo"]) > 0.1
    with pytest.raises(ValueError, match="exactly 1..V"):
        ca.mv_alpha(from_cells(got["interval_x1"]["cells"]), "interval")


# ---- the definition, by brute force ---------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_fast_equals_brute_force(seed):
    data = random_sets(seed, coders=3, items=12, universe=6)
    r = ca.mv_alpha(data)
    do, de = brute_force(data)
    assert r.observed == pytest.approx(do, abs=1e-13)
    assert r.expected == pytest.approx(de, abs=1e-13)


@st.composite
def set_cells(draw, max_coders: int = 4, max_units: int = 7, values: str = "abcde"):
    """Units × coders cells over a few values (the empty set and missing judgements too),
    with at least two distinct pairable sets."""
    c = draw(st.integers(2, max_coders))
    n = draw(st.integers(1, max_units))
    sets = st.frozensets(st.sampled_from(values), min_size=0, max_size=4)
    cells = [[draw(st.one_of(st.none(), sets, sets)) for _ in range(c)] for _ in range(n)]
    pairable = [s for row in cells if sum(x is not None for x in row) >= 2
                for s in row if s is not None]
    assume(len(set(pairable)) >= 2)
    return cells


@SETTINGS
@given(set_cells())
def test_fast_equals_brute_force_property(cells):
    data = from_cells(cells)
    r = ca.mv_alpha(data)
    do, de = brute_force(data)
    assert r.observed == pytest.approx(do, abs=1e-12)
    assert r.expected == pytest.approx(de, abs=1e-12)


# ---- invariances ----------------------------------------------------------------------------
@SETTINGS
@given(set_cells(), st.randoms(use_true_random=False))
def test_permuting_coders_units_and_value_names_changes_nothing(cells, rnd):
    want = ca.mv_alpha(from_cells(cells))
    units = list(cells)
    rnd.shuffle(units)
    order = list(range(len(cells[0])))
    rnd.shuffle(order)
    units = [[row[j] for j in order] for row in units]
    names = list("abcde")
    new = dict(zip(names, rnd.sample(["q", "r", "s", "t", "u"], 5), strict=True))
    units = [[None if c is None else frozenset(new[v] for v in c) for c in row]
             for row in units]
    got = ca.mv_alpha(from_cells(units, [f"x{k}" for k in range(len(order))]))
    assert got.value == pytest.approx(want.value, abs=1e-12)
    assert got.expected == pytest.approx(want.expected, abs=1e-12)


@SETTINGS
@given(set_cells())
def test_identical_coders_give_one(cells):
    same = [[row[0]] * len(row) for row in cells if row[0] is not None]
    assume(len({c for row in same for c in row}) >= 2)
    assert ca.mv_alpha(from_cells(same)).value == pytest.approx(1.0, abs=1e-12)


@SETTINGS
@given(set_cells(values="abc"))
def test_one_value_per_set_is_alpha_nominal(cells):
    one = [[None if c is None else frozenset(sorted(c)[:1]) for c in row] for row in cells]
    pairable = [c for row in one if sum(x is not None for x in row) >= 2 for c in row if c]
    assume(len(set(pairable)) >= 2 and all(c for row in one for c in row if c is not None))
    plain = ca.ReliabilityData.from_triples(
        [(j, i, None if c is None else next(iter(c))) for i, row in enumerate(one)
         for j, c in enumerate(row)])
    assert ca.mv_alpha(from_cells(one)).value == pytest.approx(ca.alpha(plain).value,
                                                              abs=1e-12)


def test_duplicate_values_in_a_cell_collapse():
    a = from_cells([[["a", "a", "b"], ["b"]], [["a"], ["a", "b", "b"]], [[], ["a"]]])
    b = from_cells([[["a", "b"], ["b"]], [["a"], ["a", "b"]], [[], ["a"]]])
    assert ca.mv_alpha(a).value == ca.mv_alpha(b).value


def test_empty_set_is_a_value_not_a_missing_judgement():
    empty = from_cells([[set(), {"a"}], [{"a"}, {"a"}], [{"b"}, {"b"}]])
    missing = from_cells([[None, {"a"}], [{"a"}, {"a"}], [{"b"}, {"b"}]])
    r_empty, r_missing = ca.mv_alpha(empty), ca.mv_alpha(missing)
    assert r_empty.items == 3 and r_missing.items == 2
    assert r_empty.value < 1 == pytest.approx(r_missing.value)


def test_expected_disagreement_of_30_values_and_sets_of_5():
    """The generating polynomial over 30 values (its time: benchmarks/mvalpha_scale.py)."""
    rng = np.random.default_rng(0)
    n_v = rng.integers(1, 5000, size=30).astype(float)
    n_s = rng.integers(1, 5000, size=6).astype(float)
    de = expected_disagreement(n_v, n_s)
    assert 0 < de[0] < 1.5
    assert expected_disagreement(n_v, n_s)[0] == de[0]


@pytest.fixture(params=["by value", "power sums"])
def polynomial_path(request, monkeypatch):
    """Both ways of building the generating polynomial: value by value, and from power sums
    over the distinct counts (taken for many values; forced here)."""
    from corpusagree.stats import mvalpha

    monkeypatch.setattr(mvalpha, "PATH", request.param)
    return request.param


@pytest.mark.parametrize("seed", range(3))
def test_both_polynomial_paths_equal_brute_force(seed, polynomial_path):
    data = random_sets(seed, coders=3, items=12, universe=6)
    do, de = brute_force(data)
    assert ca.mv_alpha(data).expected == pytest.approx(de, abs=1e-13)


def test_both_polynomial_paths_equal_mvalpha_R(polynomial_path):
    for case in NOMINAL:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ca.DegenerateWarning)
            r = ca.mv_alpha(from_cells(case["cells"]))
        assert r.expected == pytest.approx(case["mvDe"], abs=1e-12)


def test_power_sums_fall_back_where_their_bound_is_loose(monkeypatch):
    """A value in nearly every set makes the alternating logarithm cancel: the power-sum
    polynomial's error bound exceeds the tolerance there, and those views are recomputed
    value by value; views of many rare values pass the bound."""
    from corpusagree.stats import mvalpha

    rng = np.random.default_rng(4)
    n_v = rng.integers(1, 40, size=(6, 300)).astype(float)
    n_v[:3, 0] = 5000  # value 0 in almost every judgement of the first three views
    n_s = np.tile([0.0, 0, 1000, 2000, 2000], (6, 1))
    N = n_s.sum(1)
    E, bound = mvalpha._power_sum_polynomial(n_v, N, 4)
    loose = (bound / np.where(E > 0, E, np.inf)).max((1, 2))
    assert (loose[:3] > mvalpha.TOLERANCE).all() and (loose[3:] < mvalpha.TOLERANCE).all()
    monkeypatch.setattr(mvalpha, "PATH", "power sums")
    fast = expected_disagreement(n_v, n_s)
    monkeypatch.setattr(mvalpha, "PATH", "by value")
    np.testing.assert_allclose(fast, expected_disagreement(n_v, n_s), rtol=0, atol=1e-13)


@SETTINGS
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 6), st.integers(5, 400))
def test_power_sums_equal_value_by_value(seed, S, V):
    from corpusagree.stats import mvalpha

    rng = np.random.default_rng(seed)
    n_v = np.floor(rng.pareto(1.0, size=(3, V)) * rng.integers(1, 50)) * \
        (rng.random((3, V)) < 0.8)
    n_s = rng.integers(0, 50, size=(3, S + 1)).astype(float)
    n_s[:, -1] += 1
    old = mvalpha.PATH
    try:
        mvalpha.PATH = "power sums"
        fast = expected_disagreement(n_v, n_s)
        mvalpha.PATH = "by value"
        slow = expected_disagreement(n_v, n_s)
    finally:
        mvalpha.PATH = old
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-13)


def test_expected_disagreement_is_vectorised_over_views():
    rng = np.random.default_rng(1)
    n_v = rng.integers(0, 50, size=(7, 9)).astype(float)
    n_s = rng.integers(0, 30, size=(7, 4)).astype(float)
    n_s[3] = 0  # a view without pairable judgements
    many = expected_disagreement(n_v, n_s)
    one = [expected_disagreement(n_v[i], n_s[i])[0] for i in range(7)]
    np.testing.assert_allclose(many, one, rtol=1e-14, atol=0)
    assert np.isnan(many[3]) and np.isfinite(np.delete(many, 3)).all()


# ---- bootstrap ------------------------------------------------------------------------------
def resampled_columns(W_row, unit_of):
    return np.concatenate([np.repeat(np.flatnonzero(unit_of == u), int(w))
                           for u, w in enumerate(W_row)])


@pytest.mark.parametrize("clustered", [False, True])
def test_bootstrap_replicates_equal_recomputation(clustered):
    base = random_sets(5, coders=4, items=40, universe=6)
    groups = np.arange(base.n_items) % 8
    data = ca.ReliabilityData(base.codes, base.labels, base.coders, base.items, groups,
                              [f"d{g}" for g in range(8)])
    iv = ca.mv_alpha(data).confidence_interval(n_resamples=5, seed=3, cluster=clustered)
    assert iv.clustered == clustered and iv.units == (8 if clustered else 40)
    W = next(inference.replicate_weights(iv.units, 5, 3, chunk=5))
    unit_of = groups if clustered else np.arange(40)
    for r in range(5):
        again = ca.ReliabilityData(data.codes[:, resampled_columns(W[r], unit_of)],
                                   data.labels)
        assert iv.distribution[r] == pytest.approx(ca.mv_alpha(again).value, abs=1e-12)
    assert iv.estimate == pytest.approx(ca.mv_alpha(data).value)


def test_bootstrap_alongside_alpha_on_the_same_replicates():
    data = random_sets(2, items=60)
    mv, al = inference.bootstrap(data, [("mv_alpha", None), ("alpha", "dice")],
                                 inference.Bootstrap(200, seed=1))
    assert mv.coefficient == "mv_alpha" and al.coefficient == "alpha"
    assert mv.low <= mv.estimate <= mv.high and mv.distance == "dice"
    assert not np.array_equal(mv.distribution, al.distribution)
    bca = ca.mv_alpha(data).confidence_interval(n_resamples=200, interval="bca", seed=1)
    assert bca.method == "bootstrap BCa" and np.isfinite([bca.low, bca.high]).all()


def test_pairwise_and_leave_one_out_equal_subsets():
    data = random_sets(11)
    _, M = dg.pairwise(data, "mv_alpha")
    for a in range(4):
        for b in range(a + 1, 4):
            want = ca.mv_alpha(data.subset(coders=[a, b])).value
            assert M[a, b] == pytest.approx(want, rel=1e-9, abs=1e-12)
    for c, row in enumerate(dg.leave_one_out(data, "mv_alpha")):
        want = ca.mv_alpha(data.subset(coders=[x for x in range(4) if x != c])).value
        assert row["value"] == pytest.approx(want, rel=1e-9, abs=1e-12)


# ---- per-value diagnostics ------------------------------------------------------------------
def brute_value_parts(data) -> dict:
    """D_o(v) by its definition: ordered pairs of judgements within units, each value of the
    symmetric difference carrying 1 / (|C| + |K|) of δ."""
    units = [[data.label(int(k)) for k in data.codes[:, i] if k >= 0]
             for i in range(data.n_items)]
    units = [u for u in units if len(u) >= 2]
    N = sum(map(len, units))
    out: dict = {}
    for u in units:
        for a, b in permutations(range(len(u)), 2):
            C, K = u[a], u[b]
            for v in C ^ K:
                out[v] = out.get(v, 0.0) + 1 / (len(C) + len(K)) / (len(u) - 1) / N
    return out


@pytest.mark.parametrize("seed", range(4))
def test_value_disagreement_splits_observed_disagreement(seed):
    data = random_sets(seed, items=30)
    r = dg.value_disagreement(data)
    assert r.observed == pytest.approx(ca.mv_alpha(data).observed, abs=1e-14)
    assert sum(row["contribution"] for row in r.rows) == pytest.approx(r.observed)
    want = brute_value_parts(data)
    for row in r.rows:
        assert row["contribution"] == pytest.approx(want.get(row["value"], 0.0), abs=1e-14)
        assert row["share"] == pytest.approx(row["contribution"] / r.observed)
    parts = [row["contribution"] for row in r.rows]
    assert parts == sorted(parts, reverse=True)
    per = {p["category"]: p for p in dg.per_category(data, by="element")}
    assert all(row["judgements"] == per[row["value"]]["values"] for row in r.rows)
    top = dg.value_disagreement(data, n=2)
    assert [x["value"] for x in top.rows] == [x["value"] for x in r.rows[:2]]
    d = top.to_dict()
    assert set(d) == {"observed", "pairable_values", "rows"} and len(d["rows"]) == 2
    json.dumps(d)


def test_value_disagreement_table3():
    r = dg.value_disagreement(from_cells(TABLE3))
    want = brute_value_parts(from_cells(TABLE3))
    assert {row["value"]: row["contribution"] for row in r.rows} == pytest.approx(want)
    assert r.observed == pytest.approx(37 / 80) and r.pairable_values == 8


# ---- bad input ------------------------------------------------------------------------------
def test_labels_that_are_not_sets():
    with pytest.raises(ValueError, match="mvα needs set-valued labels"):
        ca.mv_alpha(ca.ReliabilityData.from_matrix(KRIPP))
    with pytest.raises(ValueError, match="mvα needs set-valued labels"):
        dg.value_disagreement(ca.ReliabilityData.from_matrix(KRIPP))
    with pytest.raises(ValueError, match="mvα needs set-valued labels"):
        inference.bootstrap(ca.ReliabilityData.from_matrix(KRIPP), [("mv_alpha", None)])


def test_no_unit_with_two_coders():
    with pytest.raises(ValueError, match="no item has two or more judgements"):
        ca.mv_alpha(from_cells([[{"a"}, None], [None, {"b"}]]))


def test_one_set_used_by_everyone_is_nan_with_a_warning():
    data = from_cells([[{"a", "b"}, {"a", "b"}], [{"a", "b"}, {"a", "b"}], [{"c"}, None]])
    with pytest.warns(ca.DegenerateWarning, match="every pairable judgement is the same set"):
        r = ca.mv_alpha(data)
    assert np.isnan(r.value) and r.expected == 0 and r.observed == 0


@pytest.mark.parametrize("level", ["ordinal", "interval", "ratio"])
def test_non_nominal_levels_are_refused(level):
    with pytest.raises(ValueError, match=f"not {level}: .*exactly 1..V"):
        ca.mv_alpha(from_cells(TABLE3), level)


def test_other_distances_are_refused():
    with pytest.raises(ValueError, match="takes no other distance"):
        ca.mv_alpha(from_cells(TABLE3), "jaccard")
    assert ca.compute("mv_alpha", from_cells(TABLE3), "nominal").value == pytest.approx(
        327 / 1141)


# ---- what mvα may cost in a job ---------------------------------------------------------------
def test_cost_picks_the_cheaper_way():
    from corpusagree.stats import mvalpha

    few = mvalpha._work(30, 30, 5)
    assert few[0] < few[1]  # 30 values: value by value
    chains = mvalpha._work(13_361, 98, 26)
    assert chains[1] < chains[0] / 10  # many mentions, short chains: power sums
    long = mvalpha._work(5_000, 300, 180)
    assert long[0] < long[1]  # long chains: value by value again
    n_v = np.array([[3.0, 4, 4]])
    assert mvalpha.cost(n_v, [[1, 4, 2, 1]]) == min(mvalpha._work(3, 2, 3))


def test_set_specs_leave_mvalpha_out_past_the_point_budget(monkeypatch):
    from corpusagree.stats import coefficients, mvalpha

    data = random_sets(1)
    assert coefficients.set_specs(data)[0][0] == "mv_alpha"
    monkeypatch.setattr(mvalpha, "POINT_BUDGET", 10.0)
    notes: list[str] = []
    assert coefficients.set_specs(data, notes) == []
    assert len(notes) == 1 and notes[0].startswith("mvα left out: its expected disagreement "
                                                   "over 7 values in sets of up to 3")
    assert ca.mv_alpha(data).value == ca.mv_alpha(data).value  # Python still computes it


def test_bootstrap_leaves_mvalpha_interval_out_past_the_resample_budget(monkeypatch):
    from corpusagree.stats import mvalpha

    data = random_sets(2, items=40)
    whole = inference.bootstrap(data, [("alpha", "dice"), ("mv_alpha", None)],
                                inference.Bootstrap(30, seed=4))
    monkeypatch.setattr(mvalpha, "RESAMPLE_BUDGET", 10.0)
    al, mv = inference.bootstrap(data, [("alpha", "dice"), ("mv_alpha", None)],
                                 inference.Bootstrap(30, seed=4))
    np.testing.assert_array_equal(al.distribution, whole[0].distribution)  # same replicates
    assert np.isnan(mv.low) and np.isnan(mv.high) and mv.distribution is None
    assert mv.estimate == pytest.approx(ca.mv_alpha(data).value)
    assert mv.note.startswith("no interval: its expected disagreement over 7 values")
    assert mv.note.endswith("over 30 resamples")
