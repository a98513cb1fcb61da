"""Segmentations → boundary items and unit sets: hand-worked examples, a brute-force peer
(per-item frozensets through ``from_triples``), the ``krippendorff`` package, and input errors."""

from __future__ import annotations

import random

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corpusagree as ca
from corpusagree.convert import segments as conv
from corpusagree.model.corpus import Segmentation
from corpusagree.model.errors import InputError


def seg(doc: str, coder: str, *masses: int, types=None, source: str = "") -> Segmentation:
    return Segmentation(doc, coder, tuple(masses), boundary_types=types, source=source)


# Two documents; c skipped d1, b skipped d2.
EXAMPLE = [seg("d1", "a", 2, 3), seg("d1", "b", 2, 1, 2), seg("d2", "a", 1, 1),
           seg("d2", "c", 2)]


def test_boundaries_hand_worked() -> None:
    data = conv.boundaries(EXAMPLE)
    assert data.labels == ["no", "yes"]
    assert data.coders == ["a", "b", "c"]
    # d1 has 5 units → gaps after units 1..4; d2 has 2 units → one gap
    assert list(data.items) == [("d1", 1), ("d1", 2), ("d1", 3), ("d1", 4), ("d2", 1)]
    assert data.codes.tolist() == [[0, 1, 0, 0, 1],
                                   [0, 1, 1, 0, -1],
                                   [-1, -1, -1, -1, 0]]
    assert data.groups.tolist() == [0, 0, 0, 0, 1] and data.group_names == ["d1", "d2"]


def test_unit_sets_hand_worked() -> None:
    data = conv.unit_sets(EXAMPLE)
    assert list(data.items) == [("d1", u) for u in range(1, 6)] + [("d2", 1), ("d2", 2)]
    labels = [[None if k < 0 else sorted(u for _, u in data.label(k)) for k in row]
              for row in data.codes]
    assert labels == [
        [[1, 2], [1, 2], [3, 4, 5], [3, 4, 5], [3, 4, 5], [1], [2]],
        [[1, 2], [1, 2], [3], [4, 5], [4, 5], None, None],
        [None, None, None, None, None, [1, 2], [1, 2]],
    ]
    # the segment {1, 2} of d1 is one row shared by both coders; elements name their document
    assert data.codes[0, 0] == data.codes[1, 0]
    assert data.n_labels == 7
    assert data.label(int(data.codes[2, 5])) == {("d2", 1), ("d2", 2)}
    assert data.groups.tolist() == [0] * 5 + [1] * 2


def test_two_coders_worked_coefficients() -> None:
    # a: 2|2|2, b: 2|4 over six units.  Boundaries: a = n y n y n, b = n y n n n.
    segs = [seg("t", "a", 2, 2, 2), seg("t", "b", 2, 4)]
    b = conv.boundaries(segs)
    # A_o = 4/5; Cohen: A_e = (2/5)(1/5) + (3/5)(4/5) = 14/25; Scott: P(yes) = 3/10
    assert float(ca.kappa(b)) == pytest.approx((0.8 - 14 / 25) / (1 - 14 / 25))
    assert float(ca.pi(b)) == pytest.approx((0.8 - 0.58) / 0.42)
    # Krippendorff: 1 − (n − 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k = 1 − 9·2 / (2·3·7)
    assert float(ca.alpha(b)) == pytest.approx(1 - 18 / 42)
    # Unit sets, Dice: units 3-6 are at 1 − 2·2/(2 + 4) = 1/3, so Do = 4/3 / 6 = 2/9.
    # Pooled: {1,2}×4, {3,4}×2, {5,6}×2, {3..6}×4; De = 2(36 + 16/3) / (12·11) = 248/396.
    u = conv.unit_sets(segs)
    res = ca.alpha(u, "dice")
    assert res.observed == pytest.approx(2 / 9)
    assert res.expected == pytest.approx(248 / 396)
    assert float(res) == pytest.approx(20 / 31)


def test_typed_boundaries() -> None:
    segs = [seg("t", "a", 1, 2, 1, types=("topic", "sub")),
            seg("t", "b", 1, 3, types=("sub",))]
    data = conv.boundaries(segs, types=True)
    assert data.labels == ["no", "sub", "topic"]
    assert data.codes.tolist() == [[2, 0, 1], [1, 0, 0]]
    assert conv.boundaries(segs).codes.tolist() == [[1, 0, 1], [1, 0, 0]]
    with pytest.raises(InputError, match="no boundary types"):
        conv.boundaries(EXAMPLE, types=True)


def random_segs(rng: random.Random, docs: int, coders: int, p_missing: float = 0.2
                ) -> list[Segmentation]:
    out = []
    for d in range(docs):
        n = rng.randint(1, 25)
        present = [c for c in range(coders) if rng.random() > p_missing] or [0]
        for c in present:
            cuts = sorted(rng.sample(range(1, n), rng.randint(0, min(n - 1, 6)))) if n > 1 \
                else []
            edges = [0, *cuts, n]
            out.append(seg(f"doc{d}", f"c{c}", *(b - a for a, b in zip(edges, edges[1:],
                                                                      strict=False))))
    return out


def brute_force(segs: list[Segmentation]) -> tuple[ca.ReliabilityData, ca.ReliabilityData]:
    """The same data built the slow, obvious way: one frozenset and one triple per unit."""
    sets, bounds = [], []
    for s in segs:
        start = 0
        for k, m in enumerate(s.masses):
            units = frozenset((s.document, u) for u in range(start + 1, start + m + 1))
            for u in range(start + 1, start + m + 1):
                sets.append((s.annotator, (s.document, u), units))
                if u < sum(s.masses):
                    end = u == start + m and k < len(s.masses) - 1
                    bounds.append((s.annotator, (s.document, u), "yes" if end else "no"))
            start += m
    return ca.ReliabilityData.from_triples(sets), ca.ReliabilityData.from_triples(bounds)


@pytest.mark.filterwarnings("ignore::corpusagree.DegenerateWarning")
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 6), st.integers(2, 5))
def test_equal_to_brute_force(seed: int, docs: int, coders: int) -> None:
    rng = random.Random(seed)
    segs = random_segs(rng, docs, coders)
    rng.shuffle(segs)
    if all(sum(s.masses) == 1 for s in segs):
        with pytest.raises(InputError, match="no potential boundaries"):
            conv.boundaries(segs)
        return
    u, b = conv.unit_sets(segs), conv.boundaries(segs)
    bu, bb = brute_force(segs)
    for ours, theirs, distances in ((u, bu, ["dice", "jaccard", "passonneau", "masi"]),
                                    (b, bb, ["nominal"])):
        assert (ours.codes >= 0).sum() == (theirs.codes >= 0).sum()
        for d in distances:
            for fn in (ca.alpha, ca.alpha_prime, ca.beta):
                try:
                    expected = float(fn(theirs, d))
                except ValueError:  # fewer than two judgements anywhere, or one coder
                    with pytest.raises(ValueError):
                        fn(ours, d)
                    continue
                got = float(fn(ours, d))
                assert got == pytest.approx(expected, abs=1e-12, nan_ok=True), (fn, d)


def test_boundary_alpha_equals_krippendorff_package() -> None:
    rng = random.Random(7)
    segs = random_segs(rng, 30, 5)
    data = conv.boundaries(segs)
    matrix = np.where(data.codes < 0, np.nan, data.codes.astype(float))
    assert float(ca.alpha(data)) == pytest.approx(
        krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal"), abs=1e-12)


def test_input_order_and_natural_order() -> None:
    segs = random_segs(random.Random(3), 12, 4)
    shuffled = segs[::-1]
    for convert in (conv.boundaries, conv.unit_sets):
        a, b = convert(segs), convert(shuffled)
        assert np.array_equal(a.codes, b.codes) and a.coders == b.coders
        assert list(a.items) == list(b.items)
    assert conv.layout(segs).documents[:3] == ["doc0", "doc1", "doc2"]
    assert conv.layout(segs).documents[10] == "doc10"


def test_missing_coders_are_missing_data() -> None:
    data = conv.unit_sets(EXAMPLE)
    coded = conv.layout(EXAMPLE).coded()
    assert coded.tolist() == [[True, True], [True, False], [False, True]]
    for c in range(3):
        for d in range(2):
            assert ((data.codes[c, data.groups == d] >= 0).all() if coded[c, d]
                    else (data.codes[c, data.groups == d] < 0).all())


def test_positions_names() -> None:
    names = conv.Positions(["x", "y"], np.array([2, 3]))
    assert len(names) == 5
    assert names[0] == ("x", 1) and names[2] == ("y", 1) and names[-1] == ("y", 3)
    assert names[1:3] == [("x", 2), ("y", 1)]
    assert list(names) == [names[i] for i in range(5)]
    with pytest.raises(IndexError):
        names[5]


@pytest.mark.parametrize("segs, message", [
    ([seg("d", "a", 2, 3), seg("d", "b", 4, source="b.json")],
     "document 'd': coder 'b' segments 4 units but coder 'a' segments 5"),
    ([seg("d", "a", 2, 3, source="one.json"), seg("d", "a", 5, source="two.json")],
     "document 'd' segmented twice by coder 'a' (also in one.json)"),
    ([seg("d", "a", 2, 0)], "masses must be positive"),
    ([seg("d", "a")], "masses must be positive"),
    ([seg("d", "a", 2, 3, types=("x", "y"))], "2 boundary types for 1 boundaries"),
    ([seg("d", "a", 2, 3, types=("x",)), seg("d", "b", 5)], "has no boundary types"),
    ([], "no segmentations"),
])
def test_input_errors(segs: list[Segmentation], message: str) -> None:
    with pytest.raises(InputError) as err:
        conv.unit_sets(segs)
    assert message in str(err.value)


def test_error_names_the_file() -> None:
    with pytest.raises(InputError) as err:
        conv.boundaries([seg("d", "a", 2, 3, source="a.tsv"), seg("d", "b", 4, source="b.tsv")])
    assert str(err.value).startswith("b.tsv: ")


def test_single_unit_documents_have_no_boundaries() -> None:
    with pytest.raises(InputError, match="no potential boundaries"):
        conv.boundaries([seg("d", "a", 1), seg("d", "b", 1)])
    data = conv.boundaries([seg("d", "a", 1), seg("d", "b", 1), seg("e", "a", 1, 1),
                            seg("e", "b", 2)])
    assert list(data.items) == [("e", 1)] and data.group_names == ["d", "e"]
