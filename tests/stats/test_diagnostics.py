"""Diagnostics: every value against an independent computation — the Di Eugenio & Glass (2004)
reporting set, pairwise / leave-one-out against the coefficients recomputed on data.subset,
coincidences against a brute force and the krippendorff package, category-specific α by hand
and as α of the binarised data, bias by category against bias B, and the rendered payload."""

import warnings
from itertools import permutations

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.stats import diagnostics as dg
from corpusagree.stats import kernel as kernel_module
from corpusagree.stats.coefficients import DegenerateWarning, compute
from corpusagree.stats.kernel import kernel as engine
from corpusagree.stats.spec import COEFFICIENTS

from support import random_labels, random_sets


def contingency(table, labels, coders=("A", "B")):
    """Two coders from a contingency table: rows = first coder's label, columns = second's."""
    triples, i = [], 0
    for a, row in enumerate(table):
        for b, n in enumerate(row):
            for _ in range(n):
                triples += [(coders[0], i, labels[a]), (coders[1], i, labels[b])]
                i += 1
    return ca.ReliabilityData.from_triples(triples)






def scratch(data, coefficient, distance):
    """The coefficient recomputed from scratch on ``data``; nan where it is undefined."""
    weighted = COEFFICIENTS[coefficient].weighted
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateWarning)
            return compute(coefficient, data, distance if weighted else None).value
    except ValueError:
        return float("nan")


# ---- Di Eugenio & Glass (2004), Example 1 ------------------------------------------------------
def example1():
    """150 Okays: 70 Accept by both, 55 Ack by both, 25 Ack by A and Accept by B."""
    return contingency([[70, 0], [25, 55]], ["Accept", "Ack"])


def test_seed000_example1_reporting_set():
    r = dg.two_coder_report(example1())
    assert r["labels"] == ["Accept", "Ack"] and r["items"] == 150
    assert r["table"].tolist() == [[70, 0], [25, 55]]
    assert r["A_o"] == pytest.approx(125 / 150)
    assert round(r["kappa_cohen"], 4) == .6725      # Figure 2, left
    assert round(r["kappa_sc"], 4) == .6633         # Figure 2, right
    assert r["pabak"] == pytest.approx(2 * 125 / 150 - 1)
    # Byrt, Bishop & Carlin (1993) from the 2 × 2 table by hand: a = 70, b = 0, c = 25, d = 55
    a, b, c, d, n = 70, 0, 25, 55, 150
    assert r["prevalence"] == pytest.approx((a - d) / n)
    assert r["bias_index"] == pytest.approx((b - c) / n)
    # P(E) by hand: A says Accept 70/150, B says Accept 95/150
    assert r["A_e_cohen"] == pytest.approx((70 * 95 + 80 * 55) / 150 ** 2)
    assert r["A_e_sc"] == pytest.approx((165 / 300) ** 2 + (135 / 300) ** 2)
    # Byrt et al.'s identity κ = (PABAK − PI² + BI²) / (1 − PI² + BI²)
    pi2, bi2 = r["prevalence"] ** 2, r["bias_index"] ** 2
    assert r["kappa_cohen"] == pytest.approx((r["pabak"] - pi2 + bi2) / (1 - pi2 + bi2))
    # the engine's κ and π agree with the contingency-table computation (no missing data)
    assert r["kappa_cohen"] == pytest.approx(ca.kappa(example1()).value)
    assert r["kappa_sc"] == pytest.approx(ca.pi(example1()).value)


def test_two_coder_report_three_categories_by_hand():
    T = [[10, 2, 3], [1, 8, 0], [4, 1, 6]]
    r = dg.two_coder_report(contingency(T, ["x", "y", "z"]))
    n = 35
    assert r["prevalence"] is None and r["bias_index"] is None
    got = {p["category"]: (p["prevalence"], p["bias_index"]) for p in r["per_category"]}
    # x against the rest: both-x 10, both-not-x 8 + 0 + 1 + 6 = 15; A's x 15, B's x 15
    assert got["x"] == pytest.approx(((10 - 15) / n, (15 - 15) / n))
    # y: both-y 8, both-not-y 10 + 3 + 4 + 6 = 23; A's y 9, B's y 11
    assert got["y"] == pytest.approx(((8 - 23) / n, (9 - 11) / n))
    # z: both-z 6, both-not-z 10 + 2 + 1 + 8 = 21; A's z 11, B's z 9
    assert got["z"] == pytest.approx(((6 - 21) / n, (11 - 9) / n))
    assert r["pabak"] == pytest.approx(2 * 24 / 35 - 1)


def test_two_coder_report_uses_items_both_coded():
    d = ca.ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
                                         ("B", 2, "x"), ("A", 3, "y"), ("B", 4, "y")])
    r = dg.two_coder_report(d)
    assert r["items"] == 2 and r["A_o"] == .5
    with pytest.raises(ValueError, match="exactly two coders"):
        dg.two_coder_report(random_labels(0, coders=3))


# ---- pairwise and leave-one-out = recomputed on data.subset ------------------------------------
PLAIN_CASES = [(c, d) for c in COEFFICIENTS if c not in ("kappa", "kappa_w")
               and COEFFICIENTS[c].distance is None  # mvα: set labels (test_mvalpha.py)
               for d in (["nominal", "interval", "ordinal", "irr-quadratic"]
                         if COEFFICIENTS[c].weighted else ["nominal"])
               if not COEFFICIENTS[c].bounded or d in ("nominal", "irr-quadratic")]


@pytest.mark.parametrize("coefficient,distance", PLAIN_CASES)
def test_pairwise_and_leave_one_out_equal_subsets(coefficient, distance):
    data = random_labels(7)
    coders, M = dg.pairwise(data, coefficient, distance)
    assert coders == data.coders and np.isnan(np.diag(M)).all()
    for a in range(data.n_coders):
        for b in range(a + 1, data.n_coders):
            want = scratch(data.subset(coders=[a, b]), coefficient, distance)
            assert M[a, b] == pytest.approx(want, rel=1e-9, abs=1e-12, nan_ok=True)
            assert M[b, a] == M[a, b] or np.isnan(M[a, b])
    whole = scratch(data, coefficient, distance)
    for c, row in enumerate(dg.leave_one_out(data, coefficient, distance)):
        sub = data.subset(coders=[x for x in range(data.n_coders) if x != c])
        want = scratch(sub, coefficient, distance)
        assert row["coder"] == data.coders[c]
        assert row["value"] == pytest.approx(want, rel=1e-9, abs=1e-12)
        assert row["change"] == pytest.approx(want - whole, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("distance", ["jaccard", "masi", "passonneau", "dice", "nominal"])
@pytest.mark.parametrize("coefficient", ["alpha", "alpha_prime", "beta", "bias", "light_kappa"])
def test_pairwise_and_leave_one_out_on_set_labels(coefficient, distance):
    data = random_sets(11)
    _, M = dg.pairwise(data, coefficient, distance)
    for a in range(data.n_coders):
        for b in range(a + 1, data.n_coders):
            want = scratch(data.subset(coders=[a, b]), coefficient, distance)
            assert M[a, b] == pytest.approx(want, rel=1e-9, abs=1e-12)
    for c, row in enumerate(dg.leave_one_out(data, coefficient, distance)):
        want = scratch(data.subset(coders=[x for x in range(4) if x != c]), coefficient, distance)
        assert row["value"] == pytest.approx(want, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("label_cells,pair_cache", [(1, 10 ** 9), (1, 0), (10 ** 9, 0)])
def test_batches_and_combined_pass_agree(monkeypatch, label_cells, pair_cache):
    """Subsets in batches (pair distances cached or recomputed) = one batch = separate calls."""
    for data, distance in ((random_labels(12), "interval"), (random_sets(12), "jaccard")):
        coders, M, rows = dg.pairwise_and_leave_one_out(data, "beta", distance)
        monkeypatch.setattr(kernel_module, "LABEL_CELLS", label_cells)
        monkeypatch.setattr(kernel_module, "PAIR_CACHE", pair_cache)
        assert np.allclose(dg.pairwise(data, "beta", distance)[1], M, equal_nan=True)
        assert [r["value"] for r in dg.leave_one_out(data, "beta", distance)] == \
            pytest.approx([r["value"] for r in rows])
        monkeypatch.undo()
    assert dg.pairwise_and_leave_one_out(example1())[2] is None


def test_weight_matrix_and_kappa_on_two_coder_subsets():
    data = random_labels(3, coders=3, labels=3)
    w = {(0, 1): .5, (0, 2): 1, (1, 2): .5}
    for coef in ("kappa", "kappa_w", "beta"):
        _, M = dg.pairwise(data, coef, w)
        for a, b in ((0, 1), (0, 2), (1, 2)):
            assert M[a, b] == pytest.approx(scratch(data.subset(coders=[a, b]), coef, w))
    rows = dg.leave_one_out(data, "kappa", None)  # three coders: each subset has two
    assert rows[0]["value"] == pytest.approx(ca.kappa(data.subset(coders=[1, 2])).value)
    with pytest.raises(ValueError, match="exactly two coders"):
        dg.leave_one_out(random_labels(3, coders=4), "kappa")


def test_pairs_without_shared_items_are_nan():
    M = np.array([[1, 2, 1, 2, 1, 2], [1, 2, 1, 1, 1, 2], [1, 1, np.nan, np.nan, np.nan, np.nan],
                  [np.nan, np.nan, 2, 1, np.nan, np.nan]])
    data = ca.ReliabilityData.from_matrix(M)
    _, P = dg.pairwise(data, "alpha")
    assert np.isnan(P[2, 3]) and np.isnan(scratch(data.subset(coders=[2, 3]), "alpha", None))
    assert P[0, 2] == pytest.approx(scratch(data.subset(coders=[0, 2]), "alpha", None))
    with pytest.raises(ValueError, match="at least three"):
        dg.leave_one_out(data.subset(coders=[0, 1]))
    with pytest.raises(ValueError, match="unknown coefficient"):
        dg.pairwise(data, "alfa")


# ---- coincidences and per-category α --------------------------------------------------------
#: Krippendorff (2011), "Computing Krippendorff's alpha-reliability", nominal example
KRIPP = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
         [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]


def brute_coincidence(data):
    """o_ck by its definition: ordered pairs of values from different coders, / (m_u − 1)."""
    o = {}
    for i in range(data.n_items):
        vals = [int(k) for k in data.codes[:, i] if k >= 0]
        for a, b in permutations(range(len(vals)), 2):
            key = (vals[a], vals[b])
            o[key] = o.get(key, 0.0) + 1.0 / (len(vals) - 1)
    return o


def test_coincidence_krippendorff_example():
    import krippendorff
    from krippendorff.krippendorff import _coincidences, _reliability_data_to_value_counts

    data = ca.ReliabilityData.from_matrix(KRIPP)
    labels, o = dg.coincidence(data)
    assert labels == [1, 2, 3, 4, 5]
    rel = np.array(KRIPP, dtype=float)
    counts = _reliability_data_to_value_counts(rel, np.array([1., 2, 3, 4, 5]))
    assert np.allclose(o, _coincidences(counts))
    assert o.sum() == pytest.approx(40) == ca.alpha(data).pairable_values
    assert np.allclose(o.sum(1), engine(data, None).n_k)
    # nominal α from the coincidence matrix, Krippendorff's printed .743
    n, n_c = o.sum(), o.sum(1)
    alpha = 1 - (n - 1) * (n - np.trace(o)) / (n * n - (n_c ** 2).sum())
    assert round(alpha, 3) == .743 == round(krippendorff.alpha(rel, level_of_measurement="nominal"),
                                            3)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_coincidence_equals_brute_force_with_missing_data(seed):
    data = random_labels(seed, coders=4, items=30)
    _, o = dg.coincidence(data)
    want = np.zeros_like(o)
    for (a, b), v in brute_coincidence(data).items():
        want[a, b] = v
    assert np.allclose(o, want)
    assert o.sum() == pytest.approx(ca.alpha(data).pairable_values)


def test_coincidence_of_set_labels_is_sparse():
    data = random_sets(4)
    _, o = dg.coincidence(data)
    assert hasattr(o, "tocoo")
    for (a, b), v in brute_coincidence(data).items():
        assert o[a, b] == pytest.approx(v)
    assert o.sum() == pytest.approx(ca.alpha(data, "jaccard").pairable_values)


def test_category_alpha_by_hand():
    """Items (a,a) (a,a) (b,b) (a,b) (c,c): o_aa = 4, o_bb = 2, o_ab = o_ba = 1, o_cc = 2;
    n = 10, n_a = 5, n_b = 3, n_c = 2; α_k = 1 − (n − 1)(n_k − o_kk) / (n_k (n − n_k))."""
    data = ca.ReliabilityData.from_matrix([["a", "a", "b", "a", "c"],
                                           ["a", "a", "b", "b", "c"]])
    rows = {r["category"]: r for r in dg.per_category(data)}
    assert rows["a"]["alpha"] == pytest.approx(1 - 9 * 1 / (5 * 5))
    assert rows["b"]["alpha"] == pytest.approx(1 - 9 * 1 / (3 * 7))
    assert rows["c"]["alpha"] == pytest.approx(1.0)
    assert (rows["a"]["values"], rows["a"]["agreeing"], rows["a"]["disagreeing"]) == (5, 4, 1)


@pytest.mark.parametrize("seed", [0, 5])
def test_category_alpha_is_alpha_of_binarised_data(seed):
    data = random_labels(seed)
    for r in dg.per_category(data):
        k = data.labels.index(r["category"])
        binary = ca.ReliabilityData(np.where(data.codes < 0, -1, (data.codes == k).astype(int)),
                                    [0, 1])
        assert r["alpha"] == pytest.approx(ca.alpha(binary).value)
    top = dg.per_category(data, n=2)
    dis = sorted((r["disagreeing"] for r in dg.per_category(data)), reverse=True)
    assert [r["disagreeing"] for r in top] == dis[:2]


def test_element_alpha_is_alpha_of_presence():
    data = random_sets(9)
    rows = dg.per_category(data)
    assert rows and all("category" in r for r in rows)
    for r in rows:
        e = r["category"]
        has = np.array([e in data.labels[k] for k in range(data.n_labels)], int)
        binary = ca.ReliabilityData(np.where(data.codes < 0, -1, has[data.codes]), [0, 1])
        assert r["alpha"] == pytest.approx(ca.alpha(binary).value)
    with pytest.raises(ValueError, match="set-valued"):
        dg.per_category(random_labels(0), by="element")


# ---- items, coders, bias, expert ------------------------------------------------------------
def test_worst_items_ranked_with_every_label():
    data = random_labels(2, coders=4, items=40)
    e = engine(data, "interval")
    rows = dg.worst_items(data, "interval", n=data.n_items)
    assert len(rows) == int(e.pairable.sum())
    assert sum(r["cost"] for r in rows) == pytest.approx(e.stats().observed('values')[0])
    costs = [r["cost"] for r in rows]
    assert costs == sorted(costs, reverse=True)
    top = rows[0]
    i = data.items.index(top["item"])
    vals = [data.labels[k] for k in data.codes[:, i] if k >= 0]
    pairs = [(a - b) ** 2 for x, a in enumerate(vals) for b in vals[x + 1:]]
    assert top["disagreement"] == pytest.approx(np.mean(pairs))
    assert top["labels"] == {c: data.label(int(k)) for c, k in zip(data.coders, data.codes[:, i],
                                                                    strict=True)}
    assert top["share"] == pytest.approx(top["cost"] / e.stats().observed('values')[0])
    assert len(dg.worst_items(data, "interval", n=3)) == 3


def test_coder_distributions():
    data = random_labels(4)
    d = dg.coder_distributions(data)
    for c in range(data.n_coders):
        for k in range(data.n_labels):
            assert d["counts"][c, k] == (data.codes[c] == k).sum()
    assert np.allclose(d["proportions"].sum(1), 1)


def test_bias_by_category_sums_to_bias():
    data = random_labels(6, coders=4, missing=0)
    b = dg.bias_by_category(data)
    B = ca.bias(data).value
    assert b["B"] == pytest.approx(B) and b["B_engine"] == pytest.approx(B)
    assert sum(r["B"] for r in b["rows"]) == pytest.approx(B)
    assert sum(r["share"] for r in b["rows"]) == pytest.approx(1)
    for r in b["rows"]:  # appendix A: the variance of P̂(k|c) over coders, / (c − 1)
        assert r["delta"] == pytest.approx(r["B"])
        assert r["B"] == pytest.approx(np.var(list(r["by_coder"].values())) / 3)
    # Di Eugenio & Glass 2004 Example 1: B = A_e^π − A_e^κ
    r = dg.two_coder_report(example1())
    assert dg.bias_by_category(example1())["B"] == pytest.approx(r["A_e_sc"] - r["A_e_cohen"])
    # with missing judgements the engine's decomposition still sums to the engine's B
    gappy = random_labels(6, coders=4, missing=.3)
    assert dg.bias_by_category(gappy)["B_engine"] == pytest.approx(ca.bias(gappy).value)


def test_expert_against_reference():
    data = random_labels(8, coders=4, labels=3, missing=.2)
    out = dg.expert(data, 2)
    assert out["reference"] == 2 and [r["coder"] for r in out["coders"]] == [0, 1, 3]
    for r in out["coders"]:
        both = (data.codes[r["coder"]] >= 0) & (data.codes[2] >= 0)
        pair = data.subset(coders=[r["coder"], 2], items=both)
        assert r["items"] == both.sum()
        assert r["value"] == pytest.approx(ca.kappa(pair).value)
        assert 1 - r["observed"] == pytest.approx(ca.percent_agreement(pair).value)
    n = np.array([r["items"] for r in out["coders"]])
    do = np.array([r["observed"] for r in out["coders"]])
    de = np.array([r["expected"] for r in out["coders"]])
    assert out["pooled"]["value"] == pytest.approx(1 - (n @ do) / (n @ de))
    weighted = dg.expert(data, 2, "interval")
    pair = data.subset(coders=[0, 2], items=(data.codes[0] >= 0) & (data.codes[2] >= 0))
    assert weighted["coders"][0]["value"] == pytest.approx(ca.kappa_w(pair, "interval").value)
    with pytest.raises(ValueError, match="unknown reference"):
        dg.expert(data, "nobody")


# ---- rendering ------------------------------------------------------------------------------
def test_large_data():
    """Diagnostics of 200,000 items × 5 coders (the time: benchmarks/pathological.py)."""
    data = random_labels(0, coders=5, items=200_000, labels=6, missing=.05)
    assert len(dg.pairwise(data)) > 0
    assert dg.leave_one_out(data, "beta", "interval") is not None
    assert dg.per_category(data) is not None
    assert dg.worst_items(data) is not None
