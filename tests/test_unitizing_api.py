"""``corpusagree.unitizing``: the names users of pygamma-agreement and krippendorff look for,
used as the documentation shows them."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

import corpusagree.unitizing as unitizing
from corpusagree import unitizing as u
from corpusagree.analyses import coref, segments, spans
from corpusagree.stats import gamma as G
from corpusagree.stats import unitizing as U

from support import SAMPLES

UNITS = [("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"), ("ann1", 10, 20, "LOC"),
         ("ann2", 10, 18, "LOC"), ("ann1", 30, 34, "PER"), ("ann2", 30, 34, "LOC"),
         ("ann2", 40, 44, "PER")]


def test_docstring_examples() -> None:
    result = doctest.testmod(unitizing)
    assert result.attempted >= 3 and result.failed == 0


def test_the_api_as_documented() -> None:
    c = u.Continuum.from_units(UNITS, begin=0, end=60)
    assert u.alpha_u(c, variant="u").value == U.alpha_u(c, "u").value
    for variant in ("u", "|u|", "cu"):
        assert -1 < u.alpha_u(c, variant=variant).value < 1
    r = u.alpha_u(c, variant="1995", category="PER")
    assert r.value == pytest.approx(1 - r.observed / r.expected)
    k = u.alpha_u(c, variant="k", category="PER")
    assert 0 < k.coverage <= 1
    a = u.best_alignment(c, alpha=1, beta=1, delta_empty=1)
    assert isinstance(a, u.Alignment) and a.disorder > 0
    assert all(isinstance(x, u.UnitaryAlignment) for x in a.unitary_alignments)
    g = u.gamma(c, alpha=1, beta=1, delta_empty=1, sampler="statistical", precision=0.02,
                seed=0)
    assert isinstance(g, u.Gamma) and g.alignment.disorder == a.disorder
    assert g.value == pytest.approx(1 - g.observed_disorder / g.expected_disorder)
    fixed = u.gamma(c, n_samples=30, seed=0)
    assert fixed.n_samples == 30 and fixed.value == u.gamma(c, n_samples=30, seed=0).value
    # Mathet et al. (2015, Figure 10): d_pos of (4, 14) and (40, 44) is (66 / 14)²
    assert u.positional_dissimilarity((4, 14), (40, 44), delta_empty=1) == pytest.approx(
        (66 / 14) ** 2)
    iv = g.confidence_interval()
    assert iv.low <= g.value <= iv.high
    assert set(u.VARIANTS) == {"1995", "u", "|u|", "cu", "k"}
    assert u.gamma is G.gamma and u.alpha_u is U.alpha_u


@pytest.mark.parametrize("spec", [
    {("PER", "LOC"): 0.5},
    (np.array([[0, 0.5], [0.5, 0]]), ["LOC", "PER"]),
    (["LOC", "PER"], np.array([[0, 0.5], [0.5, 0]])),
])
def test_category_distance_forms(spec) -> None:
    """A {(a, b): d} dict, (array, labels) as the distances take it, and (labels, array) as
    the issue wrote it all give the same γ; a half-way category costs half a mismatch."""
    c = u.Continuum.from_units(UNITS, begin=0, end=60)
    a = u.best_alignment(c, category_distance=spec)
    nominal = u.best_alignment(c)
    assert a.disorder < nominal.disorder
    assert a.disorder == pytest.approx(u.best_alignment(c, category_distance={
        ("PER", "LOC"): 0.5}).disorder)


def test_continua_from_files() -> None:
    corpus = coref.read(sorted((SAMPLES / "coref" / "conll2012").glob("ann*")))
    c, _ = u.from_annotations(corpus.data, "token")
    assert len(c.annotators) == 3 and len(c) > 100
    assert len(spans.read(corpus.inputs).data) == len(c)
    segs = segments.read(SAMPLES / "segments" / "segments.json")
    s = u.from_segmentations(segs.data)
    assert not math.isnan(u.alpha_u(s, variant="1995").value)
