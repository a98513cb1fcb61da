"""Pk, WindowDiff, B and S against segeval 2.0.11 (random pairs, Stargazers, Moonstone); their
means over a corpus and the boundary rates by hand."""

from __future__ import annotations

import json
from decimal import InvalidOperation
from pathlib import Path

import numpy as np
import pytest
import segeval
from hypothesis import given, settings
from hypothesis import strategies as st

from corpusagree.convert import segments as conv
from corpusagree.model.corpus import Segmentation
from corpusagree.model.errors import InputError
from corpusagree.stats import segmetrics as sm

from support import CORPORA

STARGAZERS = CORPORA / "fournier_segmentation_corpora" / "stargazer_hearst_1997.json"
KUBLA_KHAN = CORPORA / "fournier_segmentation_corpora" / "kubla_khan_fournier_2013.json"
MOONSTONE = CORPORA / "moonstone_kazantseva2012" / "moonstone_segeval_masses.json"

PAIRS = [
    (sm.pk, segeval.pk),
    (sm.window_diff, segeval.window_diff),
    (sm.boundary_similarity, segeval.boundary_similarity),
    (sm.segmentation_similarity, segeval.segmentation_similarity),
]


@st.composite
def mass_pair(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two segmentations of the same text (1..120 units)."""
    n = draw(st.integers(1, 120))
    out = []
    for _ in range(2):
        cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1))) if n > 1 else []
        edges = [0, *cuts, n]
        out.append(tuple(b - a for a, b in zip(edges, edges[1:], strict=False)))
    return out[0], out[1]


def no_boundaries(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return len(a) == 1 and len(b) == 1


@settings(max_examples=300, deadline=None)
@given(mass_pair())
def test_random_pairs_equal_segeval(pair: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    a, b = pair
    for ours, theirs in PAIRS:
        try:
            expected = float(theirs(a, b))
        except (InvalidOperation, ValueError):
            # segeval fails on two boundary-less texts (B, S) and on WindowDiff over a text
            # exactly one window long; we return "identical" / "no error" instead.
            if ours in (sm.boundary_similarity, sm.segmentation_similarity):
                assert no_boundaries(a, b) and ours(a, b) == 1.0
            else:
                assert ours is sm.window_diff and sum(a) == sm.window_size(b)
                assert ours(a, b) == 0.0
            continue
        assert ours(a, b) == pytest.approx(expected, abs=1e-9), ours.__name__


@settings(max_examples=100, deadline=None)
@given(mass_pair(), st.integers(1, 5), st.integers(3, 5))
def test_parameters_equal_segeval(pair: tuple[tuple[int, ...], tuple[int, ...]], k: int,
                                  n_t: int) -> None:
    a, b = pair
    if sum(a) > k:
        assert sm.pk(a, b, window_size=k) == pytest.approx(
            float(segeval.pk(a, b, window_size=k)), abs=1e-9)
        assert sm.window_diff(a, b, window_size=k) == pytest.approx(
            float(segeval.window_diff(a, b, window_size=k)), abs=1e-9)
    if not no_boundaries(a, b):
        assert sm.boundary_similarity(a, b, n_t) == pytest.approx(
            float(segeval.boundary_similarity(a, b, n_t=n_t)), abs=1e-9)
        assert sm.segmentation_similarity(a, b, n_t) == pytest.approx(
            float(segeval.segmentation_similarity(a, b, n_t=n_t)), abs=1e-9)


def test_window_from_reference_rounded_half_even() -> None:
    assert [sm.window_size(m) for m in [(1, 1), (3,), (5,), (7,), (9,), (4, 6)]] == \
        [2, 2, 2, 4, 4, 2]
    hyp, ref = (1, 1, 1, 1, 1, 1, 10), (8, 8)
    assert sm.pk(hyp, ref) != sm.pk(ref, hyp)
    assert sm.pk(hyp, ref) == pytest.approx(float(segeval.pk(hyp, ref)))
    assert sm.pk(ref, hyp) == pytest.approx(float(segeval.pk(ref, hyp)))


def test_edit_distance_counts() -> None:
    # boundaries after units 2 and 5 vs after 3 and 9: one near miss, two full misses
    e = sm.boundary_edit_distance((2, 3, 5), (3, 6, 1))
    assert (e.additions, e.transpositions, e.matches, e.positions) == (2, ((1, 2),), 0, 9)
    assert e.weighted_edits() == 2.5
    assert sm.boundary_similarity((2, 3, 5), (3, 6, 1)) == pytest.approx(0.5 / 3)


def test_edge_cases() -> None:
    assert sm.pk((1,), (1,)) == 0.0
    assert sm.window_diff((2,), (1, 1)) == 0.0
    assert sm.boundary_similarity((4,), (4,)) == sm.segmentation_similarity((4,), (4,)) == 1.0
    assert sm.boundary_similarity((2, 1), (3,)) == 0.0
    assert sm.segmentation_similarity((2, 1), (3,)) == 0.5
    assert sm.pk(5, 5) == 0.0


@pytest.mark.parametrize("args, message", [
    (((2, 3), (4,)), "differ in length"),
    (((2, 0), (2,)), "positive"),
    (((), ()), "non-empty"),
    (((1.5, 2), (3.5,)), "integers"),
])
def test_invalid_masses(args: tuple, message: str) -> None:
    with pytest.raises(InputError, match=message):
        sm.boundary_similarity(*args)


def test_invalid_parameters() -> None:
    with pytest.raises(InputError, match="window_size"):
        sm.pk((2, 2), (4,), window_size=0)
    with pytest.raises(InputError, match="n_t"):
        sm.boundary_similarity((2, 2), (4,), n_t=0)


def items(path: Path) -> dict[str, dict[str, list[int]]]:
    if not path.exists():
        pytest.skip(f"{path} is absent")
    with open(path, encoding="utf-8") as f:
        return json.load(f)["items"]


@pytest.mark.parametrize("path", [STARGAZERS, KUBLA_KHAN, MOONSTONE],
                         ids=["stargazers", "kubla_khan", "moonstone"])
@pytest.mark.parametrize("ours, theirs", [
    (sm.pk, segeval.pk),
    (sm.window_diff, segeval.window_diff),
    (sm.boundary_similarity, segeval.boundary_similarity),
    (sm.segmentation_similarity, segeval.segmentation_similarity),
], ids=["pk", "window_diff", "b", "s"])
def test_corpora_all_coder_pairs_equal_segeval(path: Path, ours, theirs) -> None:
    data = items(path)
    expected = theirs(segeval.Dataset(data), permuted=True)
    n = 0
    for doc, coders in data.items():
        for ci in coders:
            for cj in coders:
                if ci != cj:  # row coder = hypothesis, column coder = reference
                    assert ours(coders[ci], coders[cj]) == pytest.approx(
                        float(expected[f"{doc},{ci},{cj}"]), abs=1e-9)
                    n += 1
    assert n == len(expected) > 0


def test_pairwise_means_by_hand() -> None:
    docs = {"d1": {"a": (2, 3), "b": (5,)}, "d2": {"a": (1, 1), "c": (2,)}}
    m = sm.pairwise_means(docs, ["a", "b", "c"])
    B = m.matrices["boundary_similarity"]
    assert B[0, 1] == sm.boundary_similarity((2, 3), (5,))
    assert np.isnan(B[1, 2]) and np.diag(B).tolist() == [1.0, 1.0, 1.0]
    assert np.diag(m.matrices["pk"]).tolist() == [0.0, 0.0, 0.0]
    assert m.shared_documents.tolist() == [[0, 1, 1], [1, 0, 0], [1, 0, 0]] and m.pairs == 4
    pk = [sm.pk((2, 3), (5,)), sm.pk((5,), (2, 3)),
          sm.pk((1, 1), (2,)), sm.pk((2,), (1, 1))]
    assert m.mean["pk"] == pytest.approx(np.mean(pk))
    assert m.per_coder["pk"][0] == pytest.approx(np.mean(pk))
    assert m.per_document["d1"]["pk"] == pytest.approx(np.mean(pk[:2]))


def test_boundary_rates_by_hand() -> None:
    # d1 (5 units, 4 gaps): a marks 1 boundary, b 2; d2 (2 units, 1 gap): a 1, c 0
    segs = [Segmentation("d1", "a", (2, 3)), Segmentation("d1", "b", (2, 1, 2)),
            Segmentation("d2", "a", (1, 1)), Segmentation("d2", "c", (2,))]
    rates = {r["coder"]: r for r in sm.boundary_rates(conv.boundaries(segs))}
    assert (rates["a"]["documents"], rates["a"]["positions"], rates["a"]["boundaries"]) == \
        (2, 5, 2)
    assert rates["a"]["rate"] == 2 / 5
    # the others on a's positions: b's 4 gaps of d1 (2 boundaries) and c's gap of d2 (none)
    assert rates["a"]["others_rate"] == 2 / 5 and rates["a"]["ratio"] == 1.0
    assert rates["c"]["rate"] == 0.0 and rates["c"]["others_rate"] == 1.0
    assert rates["b"]["ratio"] == pytest.approx((2 / 4) / (1 / 4))
