"""Sample sizes: Krippendorff's (2019, ch. 12) minimum units for α and Cantor's (1996) κ."""

import csv
from pathlib import Path

import pytest

from corpusagree.stats.planning import alpha_units, alpha_units_table, kappa_units

DATA = Path(__file__).parent.parent / "data" / "planning"


@pytest.mark.parametrize("alpha_min, p, smallest, n", [
    # Krippendorff (2019, ch. 12), as ATLAS.ti's manual quotes its table: four equally likely
    # categories (P_c = .25) at p = .05
    (0.800, 0.05, 0.25, 139),
    (0.667, 0.05, 0.25, 81),
])
def test_krippendorff_published_entries(alpha_min, p, smallest, n):
    assert alpha_units(alpha_min, p, smallest=smallest).n == n
    assert alpha_units(alpha_min, p, proportions=[3, 3, 3, 3]).n == n


def test_alpha_units_grow_as_they_should():
    rows = alpha_units_table()
    for r in rows:  # stricter significance needs more units
        values = [r[k] for k in ("p=0.1", "p=0.05", "p=0.01", "p=0.005")]
        assert values == sorted(values) and len(set(values)) == 4
    by = {(r["smallest"], r["alpha_min"]): r["p=0.05"] for r in rows}
    assert by[0.05, 0.8] > by[0.1, 0.8] > by[0.25, 0.8] > by[0.5, 0.8]
    assert by[0.25, 0.9] > by[0.25, 0.8] > by[0.25, 0.667]
    # three coders scale z² by 3/2
    assert alpha_units(0.8, 0.05, smallest=0.25, coders=3).n == pytest.approx(139 * 1.5, abs=2)


def test_proportions_take_the_least_frequent_category():
    assert alpha_units(0.8, proportions=[0.7, 0.2, 0.1]).assumptions["smallest"] == \
        pytest.approx(0.1)


@pytest.mark.parametrize("kwargs, error", [
    ({"alpha_min": 1.2, "smallest": 0.25}, ValueError),
    ({"p": 0, "smallest": 0.25}, ValueError),
    ({"smallest": 0.7}, ValueError),
    ({}, ValueError),
    ({"smallest": 0.2, "proportions": [1, 1]}, ValueError),
    ({"proportions": [1, -1]}, ValueError),
    ({"smallest": "0.2"}, TypeError),
    ({"smallest": 0.2, "coders": 1}, ValueError),
])
def test_alpha_units_bad_values_name_the_parameter(kwargs, error):
    with pytest.raises(error) as e:
        alpha_units(**kwargs)
    names = set(kwargs) or {"smallest"}
    assert any(n in str(e.value) for n in names)


def _fixtures():
    with open(DATA / "n_cohen_kappa.csv") as f:
        return list(csv.DictReader(f))


def test_kappa_units_equal_irr_on_random_designs():
    rows = _fixtures()
    assert len(rows) == 60
    for r in rows:
        got = kappa_units(float(r["rate1"]), float(r["rate2"]), float(r["k1"]),
                          float(r["k0"]), alpha=float(r["alpha"]), power=float(r["power"]),
                          two_sided=r["twosided"] == "TRUE")
        assert got.n == int(r["N"]), r


def test_kappa_units_irr_example():
    # irr's documentation example (made with R irr 0.84): 96 subjects
    assert kappa_units(0.5, 0.5, 0.7, 0.85).n == 96


@pytest.mark.parametrize("args, kwargs", [
    ((0, 0.5, 0.7, 0.5), {}), ((0.5, 0.5, 0.7, 0.7), {}), ((0.5, 0.5, 1.5, 0.2), {}),
    ((0.5, 0.5, 0.7, 0.2), {"power": 1.0}), ((0.5, 0.5, 0.7, 0.2), {"two_sided": "yes"}),
])
def test_kappa_units_bad_values(args, kwargs):
    with pytest.raises((ValueError, TypeError)):
        kappa_units(*args, **kwargs)
