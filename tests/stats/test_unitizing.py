"""Krippendorff's unitizing α family (corpusagree.stats.unitizing): the published examples of
Krippendorff (1995, 2004), a brute force written here from the papers' definitions (all pairs
of segments, atom by atom), Krippendorff's α on atoms, pooling over documents, and errors."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.model.continuum import Continuum
from corpusagree.model.errors import InputError
from corpusagree.stats.unitizing import VARIANTS, UnitizingAlpha, alpha_u

# ---- published examples ------------------------------------------------------------------------
# Krippendorff (2004), Content Analysis, 2nd ed., p. 254: observers i and j on [150, 450).
K2004 = [("i", 225, 295, "c"), ("i", 370, 400, "c"), ("j", 220, 300, "c"), ("j", 355, 375, "c"),
         ("j", 400, 420, "c"), ("i", 180, 240, "k"), ("i", 300, 350, "k"), ("j", 180, 240, "k"),
         ("j", 300, 350, "k")]

# Krippendorff (1995), Sociological Methodology 25, p. 57: four pairs of observers unitizing a
# continuum of 24 atoms, one category each (the units as DKPro Agreement's tests transcribe
# the figure; the observed disagreements below confirm the transcription).
K1995 = {
    "A": [[(2, 10), (14, 20)], [(4, 8), (15, 17)]],
    "B": [[(0, 18)], [(0, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 9), (9, 10)]],
    "C": [[(2, 8), (10, 12), (14, 18), (20, 22)], [(0, 2), (4, 8), (10, 14), (16, 18), (20, 22)]],
    "D": [[(0, 2), (2, 10), (10, 14), (14, 20), (20, 24)],
          [(0, 4), (4, 8), (8, 15), (15, 17), (17, 24)]],
}
K1995_DO = {"A": 0.03125, "B": 2.26736, "C": 0.02777, "D": 0.38715}
K1995_DE = {"A": 0.06990, "B": 1.17731, "C": 0.08642, "D": 0.41445}
K1995_ALPHA = {"A": 0.553, "B": -0.926, "C": 0.679, "D": 0.066}


def k1995(name: str, stretch: int = 1) -> Continuum:
    units = [(obs, s * stretch, e * stretch, name)
             for obs, segs in zip(("x", "y"), K1995[name], strict=True) for s, e in segs]
    return Continuum.from_units(units, 0, 24 * stretch)


def test_krippendorff_2004_p254() -> None:
    c = Continuum.from_units(K2004, 150, 450)
    cu = alpha_u(c, "1995", "c")
    assert (round(cu.observed, 4), round(cu.expected, 4), round(cu.value, 4)) == \
        (0.0144, 0.0532, 0.7286)
    k = alpha_u(c, "1995", "k")
    assert (k.observed, round(k.expected, 4), k.value) == (0.0, 0.0490, 1.0)
    overall = alpha_u(c, "1995")
    assert round(overall.value, 3) == 0.859
    assert overall.observed == pytest.approx(cu.observed + k.observed)
    assert overall.expected == pytest.approx(cu.expected + k.expected)
    assert overall.value == pytest.approx(1 - (cu.observed + k.observed)
                                          / (cu.expected + k.expected))


@pytest.mark.parametrize("i, j, delta", [
    # Krippendorff 2004, p. 254: δ² of three pairs of segments in the example above
    (("i", 225, 295), ("j", 220, 300), 50),
    (("i", 370, 400), ("j", 355, 375), 850),
    (("i", 400, 420), ("j", 0, 1), 400),        # a unit of 20 inside the other's gap
    # Krippendorff's (2004) illustration of δ² (a unit of 6 at 5 against units of 2 and 4), as
    # DKPro Agreement's tests re-type it
    (("i", 5, 11), ("j", 4, 6), 26), (("i", 5, 11), ("j", 5, 7), 16),
    (("i", 5, 11), ("j", 6, 8), 10), (("i", 5, 11), ("j", 7, 9), 8),
    (("i", 5, 11), ("j", 6, 10), 2), (("i", 5, 11), ("j", 5, 11), 0),
])
def test_krippendorff_2004_distances(i, j, delta) -> None:
    """One unit per observer: Do·m(m − 1)L² is Σδ² over ordered pairs of segments, 2δ²."""
    c = Continuum.from_units([(*i, "c"), (*j, "c")], 0, 500)
    r = alpha_u(c, "1995", "c")
    assert r.observed * 2 * 500 ** 2 == pytest.approx(2 * delta + (
        2 * 1 if delta == 400 else 0))   # the 1-atom unit of j lies in i's gap too


@pytest.mark.parametrize("name", list(K1995))
def test_krippendorff_1995_observed(name) -> None:
    assert alpha_u(k1995(name), "1995", name).observed == pytest.approx(K1995_DO[name], abs=1e-5)


@pytest.mark.parametrize("name", ["A", "D"])
def test_krippendorff_1995_expected_and_alpha(name) -> None:
    """Krippendorff 1995 takes lengths as continuous: the 2004 formula (in atoms) on the
    example stretched 100,000-fold gives his uDe and uα."""
    r = alpha_u(k1995(name, 100_000), "1995", name)
    assert r.expected == pytest.approx(K1995_DE[name], abs=5e-6)
    assert round(r.value, 3) == K1995_ALPHA[name]
    assert r.observed == pytest.approx(K1995_DO[name], abs=1e-5)


def continuous_de(name: str, *, gap_plus_one: bool = False, subtract_squares: bool = True
                  ) -> float:
    """Krippendorff's uDe with continuous lengths, written out by hand for one example:
    (2/L)·Σ_units [(N − 1)·2l³/3 + l²·Σ_{gaps G ≥ l} (G − l)] / (m²L² − Σ l²)."""
    L, m = 24, 2
    units = [e - s for segs in K1995[name] for s, e in segs]
    gaps = [e - s for segs in K1995[name] for s, e, unit in segments(segs, 0, L) if not unit]
    N = len(units)
    num = sum((N - 1) * 2 * u ** 3 / 3 + u * u * sum(g - u + gap_plus_one for g in gaps if g >= u)
              for u in units)
    den = m * m * L * L - (sum(u * u for u in units) if subtract_squares else 0)
    return 2 / L * num / den


@pytest.mark.parametrize("name", ["B", "C"])
def test_krippendorff_1995_published_slips(name) -> None:
    """The published uDe of examples B and C are not what the formula gives (DKPro Agreement's
    tests found the same and allow ±.005): the formula gives 1.17578 and .09050 (uα −.928 and
    .693 against the printed −.926 and .679). Each printed value is the formula with one slip,
    reproduced here to 5 decimals: in B the unit-in-gap terms counted G − l + 1 (the atom count
    of the 2004 text) instead of the continuous G − l; in C the denominator lacks − Σ l².
    A and D, without either slip, match to 5 decimals (above), so the formula is the one
    printed and B and C carry arithmetic slips."""
    r = alpha_u(k1995(name, 100_000), "1995", name)
    assert r.expected == pytest.approx(continuous_de(name), abs=5e-6)
    assert r.expected == pytest.approx({"B": 1.17578, "C": 0.09050}[name], abs=5e-6)
    slip = (continuous_de("B", gap_plus_one=True) if name == "B"
            else continuous_de("C", subtract_squares=False))
    assert round(slip, 5) == K1995_DE[name]
    assert round(1 - K1995_DO[name] / slip, 3) == K1995_ALPHA[name]
    # the examples that match do not have the slips (D has no gaps, so only the second shows)
    for other in ("A", "D"):
        assert round(continuous_de(other), 5) == K1995_DE[other]
        assert round(continuous_de(other, subtract_squares=False), 5) != K1995_DE[other]
    assert round(continuous_de("A", gap_plus_one=True), 5) != K1995_DE["A"]


# ---- brute force from the definitions ----------------------------------------------------------
def segments(units: list[tuple[int, int]], begin: int, end: int) -> list[tuple[int, int, bool]]:
    """An observer's segments: units (True) and the gaps between them (False)."""
    out, pos = [], begin
    for s, e in sorted(units):
        if s > pos:
            out.append((pos, s, False))
        out.append((s, e, True))
        pos = e
    if pos < end:
        out.append((pos, end, False))
    return out


def brute_1995(c: Continuum, category: str | None) -> tuple[float, float]:
    """Krippendorff (2004, pp. 252–253) literally, every ordered pair of segments; documents
    pooled by their Σδ² and m(m − 1)L²·uDe (weights m(m − 1)L²), categories summed."""
    cats = c.categories if category is None else [category]
    total_o = total_e = total_w = 0.0
    for d, name in enumerate(c.documents):
        coders = [a for a in range(len(c.annotators)) if c.annotated[a, d]]
        m = len(coders)
        if m < 2:
            continue
        b, e = c.bounds[d]
        L = e - b
        total_w += m * (m - 1) * L * L
        for cat in cats:
            units = {a: [(s, t) for (dn, an, s, t, k) in c.units()
                         if dn == name and an == c.annotators[a] and k == cat] for a in coders}
            segs = {a: segments(units[a], b, e) for a in coders}
            delta = 0.0
            for i in coders:
                for j in coders:
                    if i == j:
                        continue
                    for (bg, eg, wg) in segs[i]:
                        for (bh, eh, wh) in segs[j]:
                            lg, lh = eg - bg, eh - bh
                            if wg and wh and -lg < bg - bh < lh:
                                delta += (bg - bh) ** 2 + (eg - eh) ** 2
                            elif wg and not wh and lh - lg >= bg - bh >= 0:
                                delta += lg ** 2
                            elif wh and not wg and lg - lh >= bh - bg >= 0:
                                delta += lh ** 2
            lengths = [t - s for a in coders for s, t in units[a]]
            gaps = [t - s for a in coders for s, t, w in segs[a] if not w]
            N = len(lengths)
            num = sum((N - 1) * (2 * x ** 3 - 3 * x ** 2 + x) / 3
                      + x * x * sum(g - x + 1 for g in gaps if g >= x) for x in lengths)
            de = 2 / L * num / (m * L * (m * L - 1) - sum(x * (x - 1) for x in lengths))
            total_o += delta
            total_e += m * (m - 1) * L * L * de
    return total_o / total_w, total_e / total_w


def brute_2016(c: Continuum) -> dict:
    """Krippendorff et al. (2016) atom by atom (integer continua): coincidence matrices summed
    over documents, value 0 = gap; the cu masses from every pair of units."""
    C = len(c.categories)
    obs, exp = np.zeros((C + 1, C + 1)), np.zeros((C + 1, C + 1))
    cobs, cexp = np.zeros((C, C)), np.zeros((C, C))
    for d, name in enumerate(c.documents):
        coders = [a for a in range(len(c.annotators)) if c.annotated[a, d]]
        m = len(coders)
        if m < 2:
            continue
        b, e = (int(x) for x in c.bounds[d])
        L = e - b
        value = np.zeros((m, L), int)
        units = {k: [] for k in range(m)}
        for (dn, an, s, t, cat) in c.units():
            if dn == name:
                k = coders.index(c.annotators.index(an))
                value[k, int(s) - b:int(t) - b] = c.categories.index(cat) + 1
                units[k].append((int(s) - b, int(t) - b, c.categories.index(cat) + 1))
        o = np.zeros((C + 1, C + 1))
        for x in range(L):
            for i in range(m):
                for j in range(m):
                    if i != j:
                        o[value[i, x], value[j, x]] += 1 / (m - 1)
        S = np.zeros(C + 1)
        for k in range(m):
            for s, t, v in units[k]:
                S[v] += (t - s) ** 2
        S[0] = (value == 0).sum()          # gaps: runs of atoms of length 1
        ll, margin = o.sum(), o.sum(1)
        e_ = ll * (np.outer(margin, margin) - np.diag(S)) / (ll ** 2 - S.sum())
        obs += o
        exp += e_
        # cu: unit masses Σ_{j≠i} |g ∩ units of j| / (m − 1)
        co = o[1:, 1:]
        Sc = np.zeros(C)
        for k in range(m):
            for s, t, v in units[k]:
                w = sum(max(0, min(t, t2) - max(s, s2)) for k2 in range(m) if k2 != k
                        for s2, t2, _ in units[k2]) / (m - 1)
                Sc[v - 1] += w * w
        tot, cm = co.sum(), co.sum(1)
        if tot > 0:
            cexp += tot * (np.outer(cm, cm) - np.diag(Sc)) / (tot ** 2 - Sc.sum())
        cobs += co
    with np.errstate(invalid="ignore", divide="ignore"):
        return _alphas(c, obs, exp, cobs, cexp)


def _alphas(c: Continuum, obs: np.ndarray, exp: np.ndarray, cobs: np.ndarray,
            cexp: np.ndarray) -> dict:
    out = {"u": 1 - (obs.sum() - np.trace(obs)) / (exp.sum() - np.trace(exp)),
           "|u|": 1 - (obs[0].sum() - obs[0, 0]) / (exp[0].sum() - exp[0, 0]),
           "cu": 1 - (cobs.sum() - np.trace(cobs)) / (cexp.sum() - np.trace(cexp))}
    for k, cat in enumerate(c.categories):
        lk, ek = cobs[k].sum(), cexp[k].sum()
        out[cat] = (1 - (ek / lk) * (lk - cobs[k, k]) / (ek - cexp[k, k]),
                    lk / obs[k + 1].sum())
    return out


def random_continuum(seed: int, docs: int = 2, annotators: int = 3, categories: str = "ABC",
                     length: int = 60, disjoint: bool = True) -> Continuum:
    """Integer continua: annotators copy a reference unitizing with errors (units dropped,
    boundaries moved, categories changed); an annotator's units are disjoint (across categories
    when ``disjoint``, else only within one); some annotators mark nothing or skip documents."""
    rng = np.random.default_rng(seed)
    names = [f"a{k}" for k in range(annotators)]
    parts = []
    for d in range(docs):
        present = [a for a in names if rng.random() < 0.85]
        if d == 0 and len(present) < 2:
            present = names[:2]
        units = []
        for layer in (["any"] if disjoint else list(categories)):
            ref, pos = [], int(rng.integers(0, 3))
            while True:
                pos += int(rng.integers(0, 5))
                size = int(rng.integers(1, 9))
                if pos + size > length:
                    break
                ref.append((pos, pos + size, layer if not disjoint else
                            categories[int(rng.integers(len(categories)))]))
                pos += size
            for a in present:
                if rng.random() < 0.1:
                    continue               # this annotator marks nothing here
                last = 0
                for s, e, k in ref:
                    if rng.random() < 0.25:
                        continue
                    s = max(last, s + int(rng.integers(-1, 2)) * (rng.random() < 0.4))
                    e = min(length, e + int(rng.integers(-1, 2)) * (rng.random() < 0.4))
                    if disjoint and rng.random() < 0.2:
                        k = categories[int(rng.integers(len(categories)))]
                    if s < e:
                        units.append((a, s, e, k))
                        last = e
        parts.append(Continuum.from_units(units, 0, length, annotators=present,
                                          categories=list(categories), document=f"d{d}"))
    return Continuum.join(parts)


@pytest.mark.parametrize("seed", range(8))
def test_2016_family_against_brute_force(seed) -> None:
    c = random_continuum(seed, docs=1 + seed % 3, annotators=2 + seed % 3)
    want = brute_2016(c)
    for v in ("u", "|u|", "cu"):
        assert alpha_u(c, v).value == pytest.approx(want[v], abs=1e-12, nan_ok=True)
    for cat in c.categories:
        r = alpha_u(c, "k", cat)
        value, coverage = want[cat]
        assert r.coverage == pytest.approx(coverage, abs=1e-12)
        if math.isnan(value):
            assert math.isnan(r.value) and r.reason
        else:
            assert r.value == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_1995_against_brute_force(seed) -> None:
    c = random_continuum(seed, docs=1 + seed % 3, annotators=2 + seed % 3, disjoint=False)
    for cat in (None, *c.categories):
        r = alpha_u(c, "1995", cat)
        observed, expected = brute_1995(c, cat)
        assert r.observed == pytest.approx(observed, rel=1e-12, abs=1e-15)
        assert r.expected == pytest.approx(expected, rel=1e-12, abs=1e-15)
        want = 1 - observed / expected if expected else math.nan
        assert r.value == pytest.approx(want, abs=1e-12, nan_ok=True)


# ---- Krippendorff's α on atoms -----------------------------------------------------------------
def atom_continuum(matrix: np.ndarray, labels: str) -> tuple[Continuum, ca.ReliabilityData]:
    """Annotators × atoms, each atom its own unit (value 0 = gap), and the same as α data."""
    units = [(f"a{i}", x, x + 1, labels[v - 1]) for i, row in enumerate(matrix)
             for x, v in enumerate(row) if v]
    c = Continuum.from_units(units, 0, matrix.shape[1],
                             annotators=[f"a{i}" for i in range(len(matrix))],
                             categories=list(labels))
    triples = [(f"a{i}", x, int(v)) for i, row in enumerate(matrix) for x, v in enumerate(row)]
    return c, ca.ReliabilityData.from_triples(triples)


def test_u_alpha_on_atoms_is_nominal_alpha() -> None:
    """Units of one atom, gaps of any length: a gap is a run of one-atom segments, so uα is
    Krippendorff's nominal α over the atoms with ∅ as a value (Krippendorff et al. 2016)."""
    rng = np.random.default_rng(3)
    matrix = rng.integers(0, 4, (4, 60))
    matrix[:, 20:30] = 0
    c, data = atom_continuum(matrix, "ABC")
    assert alpha_u(c, "u").value == pytest.approx(float(ca.alpha(data)), abs=1e-12)


def test_cu_and_k_alpha_on_atoms() -> None:
    """Where every annotator marks the same atoms, cuα is nominal α over those atoms and (k)uα
    the α of k against the other categories (the binary collapse), coverage 1."""
    rng = np.random.default_rng(5)
    matrix = rng.integers(1, 4, (3, 50))
    matrix[:, rng.random(50) < 0.3] = 0
    c, _ = atom_continuum(matrix, "ABC")
    marked = matrix[:, matrix[0] > 0]
    data = ca.ReliabilityData.from_triples(
        [(f"a{i}", x, int(v)) for i, row in enumerate(marked) for x, v in enumerate(row)])
    assert alpha_u(c, "cu").value == pytest.approx(float(ca.alpha(data)), abs=1e-12)
    for k, cat in enumerate("ABC", 1):
        binary = ca.ReliabilityData.from_triples(
            [(f"a{i}", x, int(v == k)) for i, row in enumerate(marked) for x, v in enumerate(row)])
        r = alpha_u(c, "k", cat)
        assert r.value == pytest.approx(float(ca.alpha(binary)), abs=1e-12)
        assert r.coverage == 1.0


# ---- properties, pooling ----------------------------------------------------------------------
def test_perfect_agreement_and_one_category() -> None:
    units = [(a, s, e, k) for a in ("x", "y", "z")
             for s, e, k in ((0, 5, "P"), (8, 12, "Q"), (20, 31, "P"))]
    c = Continuum.from_units(units, 0, 40)
    for v in ("u", "|u|", "cu"):
        assert alpha_u(c, v).value == pytest.approx(1.0)
    for v, cat in (("1995", None), ("1995", "P"), ("k", "P"), ("k", "Q")):
        assert alpha_u(c, v, cat).value == pytest.approx(1.0)
    one = Continuum.from_units([(a, s, e, "P") for a, s, e, _ in units if (a, s) != ("z", 8)],
                               0, 40)
    # with one category, uα and |u|α see the same 2 × 2 matrix
    assert alpha_u(one, "u").value == pytest.approx(alpha_u(one, "|u|").value)


def test_documents_pool_their_disagreements() -> None:
    c = random_continuum(11, docs=3)
    for v, cat in (("u", None), ("|u|", None), ("cu", None), ("k", "A"), ("1995", None),
                   ("1995", "B")):
        whole = alpha_u(c, v, cat)
        parts = [alpha_u(c.document(d), v, cat) for d in range(3)]
        assert whole.terms == pytest.approx(np.concatenate([p.terms for p in parts]))
        # a document joined to a renamed copy of itself gives its own α
        one = c.document(0)
        twin = Continuum.join([one, Continuum(one.annotators, one.categories, ["copy"],
                                              one.bounds, one.annotated, one.doc,
                                              one.annotator, one.start, one.end, one.category)])
        assert alpha_u(twin, v, cat).value == pytest.approx(parts[0].value, nan_ok=True)
        assert alpha_u(twin, v, cat).observed == pytest.approx(parts[0].observed, nan_ok=True)


def test_annotators_who_marked_nothing_and_single_annotator_documents() -> None:
    with_silent = Continuum.from_units([("x", 0, 5, "P"), ("y", 0, 5, "P")], 0, 20,
                                       annotators=["x", "y", "z"])
    assert alpha_u(with_silent, "u").value < alpha_u(
        Continuum.from_units([("x", 0, 5, "P"), ("y", 0, 5, "P")], 0, 20), "u").value
    alone = Continuum.from_units([("x", 0, 5, "P")], 0, 20, document="solo")
    both = Continuum.join([alone, with_silent.document(0)])
    assert alpha_u(both, "u").value == alpha_u(with_silent, "u").value
    assert alpha_u(both, "u").documents == 1
    r = alpha_u(alone, "u")
    assert math.isnan(r.value) and r.reason == "no document has two or more annotators"


def test_undefined_values_say_why() -> None:
    gap_only = Continuum.from_units([("x", 0, 5, "P"), ("y", 10, 15, "Q")], 0, 20)
    r = alpha_u(gap_only, "k", "P")
    assert math.isnan(r.value) and r.coverage == 0.0 and "meets only gaps" in r.reason
    assert "no two annotators' units overlap" in alpha_u(gap_only, "cu").reason
    one_cat = Continuum.from_units([("x", 0, 5, "P"), ("y", 2, 8, "P")], 0, 20)
    assert "one category" in alpha_u(one_cat, "cu").reason
    nothing = Continuum.from_units([], 0, 20, annotators=["x", "y"], categories=["P"])
    assert "all gap" in alpha_u(nothing, "u").reason
    assert "no annotator marked a unit of category 'P'" in alpha_u(nothing, "1995", "P").reason
    full = Continuum.from_units([("x", 0, 20, "P"), ("y", 0, 20, "Q")], 0, 20)
    assert "no gaps" in alpha_u(full, "|u|").reason
    assert alpha_u(gap_only, "u").reason is None


def test_coverage_counts_the_length_that_meets_other_units() -> None:
    c = Continuum.from_units([("x", 0, 10, "P"), ("y", 5, 10, "P"), ("y", 12, 14, "Q"),
                              ("x", 12, 20, "Q")], 0, 30)
    # P: x's 10 atoms meet 5 of y's, y's 5 meet 5 of x's → 10 / 15
    assert alpha_u(c, "k", "P").coverage == pytest.approx(10 / 15)
    assert alpha_u(c, "k", "Q").coverage == pytest.approx(4 / 10)


# ---- errors -----------------------------------------------------------------------------------
def test_overlapping_units_of_one_annotator() -> None:
    c = Continuum.from_units([("x", 0, 5, "P"), ("x", 3, 8, "P"), ("y", 0, 5, "P")], 0, 20,
                             document="doc1")
    for v in ("1995", "u"):
        with pytest.raises(InputError) as e:
            alpha_u(c, v)
        msg = str(e.value)
        assert "\n" not in msg and "'x'" in msg and "(0, 5, 'P')" in msg and "(3, 8, 'P')" \
            in msg and "'doc1'" in msg
    nested = Continuum.from_units([("x", 0, 10, "LOC"), ("x", 2, 4, "ORG"), ("y", 0, 10, "LOC")],
                                  0, 20)
    assert not math.isnan(alpha_u(nested, "1995").value)      # categories apart: allowed
    with pytest.raises(InputError, match="variant '1995' measures each category"):
        alpha_u(nested, "|u|")
    touching = Continuum.from_units([("x", 0, 5, "P"), ("x", 5, 8, "P"), ("y", 0, 8, "P")], 0, 9)
    assert not math.isnan(alpha_u(touching, "u").value)


def test_bad_arguments() -> None:
    c = Continuum.from_units(K2004, 150, 450)
    with pytest.raises(ValueError, match=re.escape(
            "variant must be one of '1995', 'u', '|u|', 'cu' or 'k', not 'x'")):
        alpha_u(c, variant="x")
    for kwargs, text in (({"variant": "k"}, "give category="),
                         ({"variant": "u", "category": "c"}, "covers all categories"),
                         ({"variant": "1995", "category": "z"}, "no category 'z'")):
        with pytest.raises(InputError, match=text):
            alpha_u(c, **kwargs)


# ---- result, bootstrap ------------------------------------------------------------------------
def test_result_to_dict_and_repr() -> None:
    c = random_continuum(2, docs=2)
    r = alpha_u(c, "k", "A")
    d = r.to_dict()
    assert list(d) == ["id", "symbol", "variant", "category", "value", "observed", "expected",
                       "coverage", "reason", "documents"]
    assert all(k.isascii() for k in d) and d["id"] == "alpha_ku" and d["symbol"] == "(A)uα"
    json.dumps(d)
    assert repr(r).startswith("UnitizingAlpha((A)uα=") and "coverage=" in repr(r)
    assert set(VARIANTS) == {"1995", "u", "|u|", "cu", "k"}
    assert alpha_u(c, "1995").coverage is None


def test_bootstrap_over_documents() -> None:
    c = random_continuum(4, docs=12, annotators=3)
    r = alpha_u(c, "u")
    iv = r.confidence_interval(level=0.9, n_resamples=400, seed=1)
    assert iv.low <= iv.high and iv.units == r.documents >= 10 and iv.clustered
    assert iv.n_resamples == 400 and iv.level == 0.9 and set(iv.q) == {0.667, 0.8}
    assert iv.low < r.value < iv.high
    again = r.confidence_interval(level=0.9, n_resamples=400, seed=1)
    assert (again.low, again.high) == (iv.low, iv.high)
    assert isinstance(r, UnitizingAlpha) and len(iv.distribution) == 400
    k = alpha_u(c, "k", "B").confidence_interval(n_resamples=200)
    assert k.low <= k.high
    with pytest.raises(InputError, match="at least 2 documents"):
        alpha_u(c.document(0), "u").confidence_interval()
    apart = Continuum.join([Continuum.from_units([("x", 0, 5, "P"), ("y", 9, 12, "P")], 0, 20,
                                                 document=f"d{d}") for d in range(3)])
    undefined = alpha_u(apart, "cu").confidence_interval(n_resamples=50)
    assert math.isnan(undefined.low) and "overlap" in undefined.note


@pytest.mark.parametrize("variant, category", [("u", None), ("1995", None), ("k", "B"),
                                               ("cu", None)])
def test_bca_over_documents_is_efron_with_the_jackknife_over_documents(variant, category):
    """BCa (Efron 1987, eqs. 2.3, 6.6) from the same replicates as the percentile interval, its
    acceleration from uα recomputed on the corpus without each document in turn."""
    from scipy.special import ndtr, ndtri

    c = random_continuum(7, docs=12, annotators=3)
    r = alpha_u(c, variant, category)
    pct = r.confidence_interval(level=0.9, n_resamples=500, seed=3)
    bca = r.confidence_interval(level=0.9, n_resamples=500, seed=3, interval="bca")
    assert (pct.method, bca.method) == ("bootstrap percentile", "bootstrap BCa")
    np.testing.assert_array_equal(bca.distribution, pct.distribution)
    theta, boot = r.value, pct.distribution[~np.isnan(pct.distribution)]
    kept = [d for d in range(len(c.documents)) if c.annotated[:, d].sum() >= 2]
    jack = np.array([alpha_u(Continuum.join([c.document(k) for k in kept if k != d]),
                             variant, category).value for d in kept])
    assert len(jack) == r.documents
    z0 = ndtri(((boot < theta).sum() + 0.5 * (boot == theta).sum()) / len(boot))
    dev = jack.mean() - jack
    acc = (dev ** 3).sum() / (6 * ((dev ** 2).sum()) ** 1.5)
    levels = [ndtr(z0 + (z0 + z) / (1 - acc * (z0 + z))) for z in ndtri([0.05, 0.95])]
    assert (bca.low, bca.high) == pytest.approx(tuple(np.quantile(boot, levels)), abs=1e-12)
    assert (bca.low, bca.high) != (pct.low, pct.high)


def test_bootstrap_reports_progress_by_chunks_of_replicates():
    c = random_continuum(4, docs=12, annotators=3)
    seen: list[tuple[int, int]] = []
    iv = alpha_u(c, "u").confidence_interval(n_resamples=400, seed=1,
                                             progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (400, 400) and len(seen) == 20
    assert max(np.diff([0] + [d for d, _ in seen])) <= 20
    assert (iv.low, iv.high) == (lambda x: (x.low, x.high))(
        alpha_u(c, "u").confidence_interval(n_resamples=400, seed=1))


# ---- scale -------------------------------------------------------------------------------------
def test_sweep_is_fast_and_exact_on_a_larger_corpus() -> None:
    """Only overlapping pairs are visited: 3 documents × 4 annotators × 3,000 units in well
    under a second, and equal to the same corpus computed document by document."""

    rng = np.random.default_rng(0)
    parts = []
    for d in range(3):
        ref = np.cumsum(rng.integers(9, 20, 3000))
        units = []
        for a in range(4):
            s = ref + rng.integers(-2, 3, len(ref))
            e = s + rng.integers(1, 5, len(ref))
            cats = rng.choice(list("PQR"), len(ref))
            units += [(f"a{a}", int(x), int(y), str(k)) for x, y, k in zip(s, e, cats,
                                                                            strict=True)]
        parts.append(Continuum.from_units(units, 0, int(ref[-1]) + 30, document=f"d{d}"))
    c = Continuum.join(parts)
    for v in ("u", "|u|", "cu", "1995"):  # their times: benchmarks/unitizing_scale.py
        assert -1 <= alpha_u(c, v).value <= 1
    sums = [alpha_u(c.document(d), "cu").terms for d in range(3)]
    assert alpha_u(c, "cu").terms == pytest.approx(np.concatenate(sums))


def test_scale_benchmark_tiny(root) -> None:
    proc = subprocess.run([sys.executable, str(root / "benchmarks" / "unitizing_scale.py"),
                           "--docs", "2", "--annotators", "3", "--units", "300",
                           "--sizes", "100,300", "--json"],
                          capture_output=True, text=True, cwd=root, check=True)
    out = json.loads(proc.stdout)
    assert out["units_per_document"] == 300 and 1000 < out["units"] < 2 * 3 * 320
    assert set(out["variants"]) >= {"1995", "u", "|u|", "cu", "k"}
    assert all(0 < r["value"] <= 1 and r["seconds"] >= 0 for r in out["variants"].values())
    assert [r["units_per_annotator"] for r in out["scaling"]] == [100, 300]
    assert "slope" in out["scaling"][1]


@pytest.mark.parametrize("seed", range(40))
def test_one_category_tiling_has_no_expected_disagreement(seed):
    """Two annotators who each tile [0, L) with units of one category: every atom is that
    category for both, so uα and cuα have De = 0 and are undefined. The 2016 terms are
    differences of sums, which left De = 1.2e-16 and uα = 1 on seed 27 (found on RSTmulti's
    segmentations) before rounding error was taken as 0."""
    rng = np.random.default_rng(seed)
    length = int(rng.integers(50, 3000))
    units = []
    for a in "xy":
        cuts = np.unique(np.r_[0, rng.choice(np.arange(1, length), int(rng.integers(2, 40)),
                                             replace=False), length])
        units += [(a, int(s), int(e), "seg") for s, e in zip(cuts[:-1], cuts[1:], strict=True)]
    c = Continuum.from_units(units, end=length)
    for variant in ("u", "cu"):
        r = alpha_u(c, variant)
        assert r.expected == 0 and r.observed == 0 and math.isnan(r.value) and r.reason
