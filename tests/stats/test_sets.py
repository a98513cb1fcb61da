"""Set-valued labels: the sparse path equals a dense brute force, Artstein & Poesio's (2005)
*call* example, extended senses, empty sets, user set distances, and set cells on the command
line."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corpusagree as ca
from corpusagree.cli import main
from corpusagree.model.senses import SenseInventory
from corpusagree.stats import distances as dist
from corpusagree.stats.kernel import kernel as engine

from support import random_sets

SET_DISTANCES = ["passonneau", "jaccard", "dice", "masi"]


def brute_distance(name, A: frozenset, B: frozenset) -> float:
    """Each set distance from its textbook definition, one pair at a time."""
    if A == B:
        return 0.0
    inter, union = len(A & B), len(A | B)
    if inter == 0:
        return 1.0
    subset = A <= B or B <= A
    if name == "passonneau":
        return 1 / 3 if subset else 2 / 3
    if name == "jaccard":
        return 1 - inter / union
    if name == "dice":
        return 1 - 2 * inter / (len(A) + len(B))
    m = 2 / 3 if subset else 1 / 3
    return 1 - inter / union * m




def dense_twin(data, name):
    """The same data with plain labels 0..L-1 and the full L × L brute-force matrix."""
    L = data.n_labels
    sets = [data.labels[k] for k in range(L)]
    D = np.array([[brute_distance(name, a, b) for b in sets] for a in sets])
    plain = ca.ReliabilityData(data.codes.copy(), list(range(L)), data.coders, data.items)
    return plain, dist.Matrix(D, list(range(L)))


@pytest.mark.parametrize("name", SET_DISTANCES)
@pytest.mark.parametrize("seed", range(4))
def test_sparse_equals_dense_brute_force(name, seed):
    data = random_sets(seed)
    plain, matrix = dense_twin(data, name)
    for f in (ca.alpha, ca.alpha_prime, ca.beta, ca.bias, ca.light_kappa):
        assert float(f(data, name)) == pytest.approx(float(f(plain, matrix)), abs=1e-9), f
    # the metric itself, pair by pair
    m = dist.get(name).bind(data, None)
    a, b = np.meshgrid(np.arange(data.n_labels), np.arange(data.n_labels))
    np.testing.assert_allclose(m.pair(a.ravel(), b.ravel()), matrix.D[a.ravel(), b.ravel()])


@pytest.fixture(params=["table", "profile"])
def set_path(request, monkeypatch):
    """Both ways of binding a set distance: the sparse table of intersecting pairs, and the
    size/overlap profile for many sets of few values (forced here on small data)."""
    if request.param == "profile":
        monkeypatch.setattr(dist, "PROFILE_PAIRS", -1)
    return request.param


@pytest.mark.parametrize("name", SET_DISTANCES)
@pytest.mark.parametrize("seed", range(2))
def test_both_paths_equal_dense_brute_force(name, seed, set_path):
    data = random_sets(seed, items=30)
    plain, matrix = dense_twin(data, name)
    m = dist.get(name).bind(data, None)
    assert isinstance(m, dist._ProfileSetMetric) == (set_path == "profile")
    for f in (ca.alpha, ca.alpha_prime, ca.beta, ca.bias, ca.light_kappa):
        assert float(f(data, name)) == pytest.approx(float(f(plain, matrix)), abs=1e-9), f
    iv = ca.beta(data, name).confidence_interval(n_resamples=20, seed=1, cluster=False)
    again = ca.beta(plain, matrix).confidence_interval(n_resamples=20, seed=1, cluster=False)
    np.testing.assert_allclose(iv.distribution, again.distribution, atol=1e-9)


@pytest.mark.parametrize("name", SET_DISTANCES)
def test_profile_metric_equals_table_metric(name):
    """pair, cross (row by row, broadcast) and gram (sparse and dense) of the two paths."""
    import scipy.sparse as sparse

    data = random_sets(3, items=80, universe=7)
    d = dist.get(name)
    table = dist._SetMetric(d.similarity_matrix(data.labels))
    profile = dist._ProfileSetMetric(data.labels, d.similarity)
    L = data.n_labels
    a, b = (x.ravel() for x in np.meshgrid(np.arange(L), np.arange(L)))
    np.testing.assert_array_equal(profile.pair(a, b), table.pair(a, b))
    rng = np.random.default_rng(0)
    F, G = rng.random((3, 4, L)), rng.random((3, 4, L))
    np.testing.assert_allclose(profile.cross(F, G), table.cross(F, G), rtol=1e-12)
    np.testing.assert_allclose(profile.cross(F[0, 0], G), table.cross(F[0, 0], G), rtol=1e-12)
    A = sparse.random(6, L, density=0.3, random_state=1, format="csr")
    B = sparse.random(4, L, density=0.3, random_state=2, format="csr")
    np.testing.assert_allclose(profile.gram(A, B), table.gram(A, B), rtol=1e-12, atol=1e-12)
    eye, P = sparse.identity(L, format="csr"), rng.random((2, L))
    np.testing.assert_allclose(profile.gram(eye, P), table.gram(eye, P), rtol=1e-12,
                               atol=1e-12)


def test_profile_path_is_chosen_for_many_sets_of_few_values():
    """Sets of ≤ 5 of 30 values: nearly every pair intersects, so the table would be L × L;
    the profile path is taken and needs no such table."""
    rng = np.random.default_rng(0)
    triples = [(c, i, frozenset(rng.choice(30, size=rng.integers(1, 6), replace=False).tolist()))
               for c in range(2) for i in range(6000)]
    data = ca.ReliabilityData.from_triples(triples)
    holders = np.bincount(data.labels.elements)
    assert (holders.astype(float) ** 2).sum() > dist.PROFILE_PAIRS
    assert isinstance(dist.DICE.bind(data, None), dist._ProfileSetMetric)
    assert 0.99 < float(ca.alpha(data, "dice")) + 1 < 1.01  # random sets: α near 0


def test_no_dense_matrix_is_built_for_sets():
    """The similarity table holds intersecting pairs only: disjoint chains cost nothing."""
    n = 5000
    triples = [(c, i, frozenset([i // 2])) for c in range(2) for i in range(n)]
    data = ca.ReliabilityData.from_triples(triples)
    S = dist.JACCARD.similarity_matrix(data.labels)
    assert S.nnz == data.n_labels  # only the diagonal: no two distinct chains intersect
    assert float(ca.alpha(data, "jaccard")) == pytest.approx(1.0)


def test_call_example_seed_003_section_4_4():
    inv = SenseInventory.from_mapping({"WN1": "LABEL", "WN3": "LABEL", "WN19": "SEE",
                                       "WN22": "ADDRESS"})
    es = inv.extend
    assert es("WN1") == {"WN1", "LABEL"} and es("WN3") == {"WN3", "LABEL"}
    assert brute_distance("passonneau", es("WN1"), es("WN3")) == pytest.approx(2 / 3)
    assert brute_distance("passonneau", es("WN1"), es("LABEL")) == pytest.approx(1 / 3)
    # through the engine: two coders, one item each case
    for other, d in (("WN3", 2 / 3), ("LABEL", 1 / 3), ("WN1", 0.0), ("WN19", 1.0)):
        data = ca.ReliabilityData.from_triples([("A", 0, es("WN1")), ("B", 0, es(other))])
        assert engine(data, "passonneau").stats().observed('pairs')[0] == pytest.approx(d)


def test_inventory_depth_unknown_and_cycles():
    inv = SenseInventory.from_edges([("s1", "g1"), ("g1", "super"), ("s2", "g1")])
    assert inv.extend("s1", depth=1) == {"s1", "g1"}
    assert inv.extend("s1") == {"s1", "g1", "super"}
    assert inv.group("s1") == {"g1"} and inv.group("s1", 2) == {"super"}
    assert inv.extend("nope") == {"nope"} and inv.unknown["nope"] == 1
    assert inv.extend_set(["s1", "s2"], depth=1) == {"s1", "s2", "g1"}
    with pytest.raises(ValueError, match="cycle"):
        SenseInventory.from_edges([("a", "b"), ("b", "a")])


@pytest.mark.parametrize("name", SET_DISTANCES)
def test_empty_sets(name):
    """Two empty sets are at distance 0, an empty and a non-empty set at distance 1."""
    data = ca.ReliabilityData.from_triples(
        [("A", 0, frozenset()), ("B", 0, frozenset({1})), ("A", 1, frozenset({1})),
         ("B", 1, frozenset())])
    empty = [k for k in range(data.n_labels) if data.labels[k] == frozenset()][0]
    full = 1 - empty
    m = dist.get(name).bind(data, None)
    assert m.pair(np.array([empty, empty, full]), np.array([empty, full, full])).tolist() == \
        [0.0, 1.0, 0.0]


def test_from_sets_equals_from_triples():
    data = random_sets(7)
    # rebuild from CSR codes directly, duplicating rows on purpose (one row per judgement)
    rows, codes = [], np.full(data.codes.shape, -1, np.int32)
    for c in range(data.n_coders):
        for i in range(data.n_items):
            if data.codes[c, i] >= 0:
                codes[c, i] = len(rows)
                rows.append(sorted(data.labels[data.codes[c, i]]))
    indptr = np.concatenate([[0], np.cumsum([len(r) for r in rows])])
    elements = np.array([e for r in rows for e in r], np.int64)
    again = ca.ReliabilityData.from_sets(codes, indptr, elements)
    assert again.n_labels == data.n_labels  # identical rows merged
    for name in SET_DISTANCES:
        assert float(ca.beta(again, name)) == pytest.approx(float(ca.beta(data, name)))


def test_user_set_distance_by_similarity():
    overlap = dist.SetDistance("overlap", lambda a, b, x: x / np.minimum(a, b))
    data = ca.ReliabilityData.from_triples([("A", 0, frozenset("ab")), ("B", 0, frozenset("abc")),
                                            ("A", 1, frozenset("x")), ("B", 1, frozenset("y"))])
    assert engine(data, overlap).disagr_i.tolist() == [0.0, 1.0]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(SET_DISTANCES))
def test_permuting_elements_and_coders_changes_nothing(seed, name):
    data = random_sets(seed, coders=3, items=15, missing=0.1)
    rng = np.random.default_rng(seed)
    perm = rng.permutation(8)
    order = rng.permutation(data.n_coders)
    triples = [(int(order[c]), i, frozenset(int(perm[e]) for e in data.labels[data.codes[c, i]]))
               for c in range(data.n_coders) for i in range(data.n_items)
               if data.codes[c, i] >= 0]
    other = ca.ReliabilityData.from_triples(triples)
    try:
        expected = float(ca.alpha(data, name))
    except ValueError:
        return
    assert float(ca.alpha(other, name)) == pytest.approx(expected, nan_ok=True)
    assert float(ca.beta(other, name)) == pytest.approx(float(ca.beta(data, name)), nan_ok=True)


def test_cli_set_cells(tmp_path, capsys):
    f = tmp_path / "sets.csv"
    f.write_text("coder,item,label\na,1,x|y\nb,1,x\na,2,z\nb,2,z\nc,2,z|w\nc,1,x|y\n")
    assert main(["table", str(f), "--set-sep", "|", "--distance", "masi", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    by = {(r["symbol"], r["distance"]): r["value"] for r in doc["coefficients"]}
    data = ca.ReliabilityData.from_csv(f, set_sep="|")
    assert by[("α", "masi")] == pytest.approx(float(ca.alpha(data, "masi")))
    assert main(["table", str(f), "--distance", "jaccard"]) == 2
    assert "needs set-valued labels" in capsys.readouterr().err


@pytest.mark.parametrize("values", [20, 70, 250, 300])
@pytest.mark.parametrize("name", ["jaccard", "dice", "masi", "passonneau"])
def test_set_masks_give_the_sparse_tables_similarities(values: int, name: str) -> None:
    """The bit-mask path (sets over at most MASK_MAX_VALUES values) gives bit for bit the
    similarities of the sparse table of intersecting pairs (and of the profile path)."""
    rng = np.random.default_rng(values)
    triples = [(c, i, frozenset(rng.choice(values, rng.integers(0, 4), replace=False).tolist()))
               for i in range(1500) for c in range(4) if rng.random() > 0.1]
    data = ca.ReliabilityData.from_triples(triples)
    a, b = rng.integers(0, data.n_labels, (2, 50_000))
    a[:2000] = b[:2000]
    metric = dist.get(name).bind(data, None)
    assert (metric._masks is not None) == (values <= dist.MASK_MAX_VALUES)
    fast = metric.pair(a, b)
    metric._masks = None
    np.testing.assert_array_equal(fast, metric.pair(a, b))
