"""Conventional readings: the bands of Krippendorff and of Landis & Koch (Artstein & Poesio
2005, Table 8) at their boundaries, always labelled as conventions, and the §5.2 caveat in
the docs."""

import math

import pytest

from corpusagree.stats import interpret
from corpusagree.stats.interpret import interpret as read


@pytest.mark.parametrize("value,label", [
    (-0.2, "below .667: discounted"), (0.6669999, "below .667: discounted"),
    (0.667, ".667–.800: tentative conclusions"), (0.7999, ".667–.800: tentative conclusions"),
    (0.8, "≥ .800: good reliability"), (1 - 0.2, "≥ .800: good reliability"),
    (0.7999999999999999, "≥ .800: good reliability"),  # .8 up to floating-point rounding
    (1.0, "≥ .800: good reliability"),
])
def test_krippendorff_boundaries(value, label):
    r = read(value, "krippendorff")
    assert r.label == label and r.scale == "krippendorff"
    assert "convention" in str(r) and "Krippendorff" in str(r)


#: Artstein & Poesio 2005, Table 8 (Landis & Koch 1977): < 0 poor, 0.00–0.20 slight, 0.21–0.40 fair,
#: 0.41–0.60 moderate, 0.61–0.80 substantial, 0.81–1.00 perfect
@pytest.mark.parametrize("value,label", [
    (-0.01, "poor"), (0.0, "slight"), (-0.0, "slight"), (0.2, "slight"), (0.2000001, "fair"),
    (0.205, "fair"), (0.21, "fair"), (0.4, "fair"), (0.41, "moderate"), (0.6, "moderate"),
    (0.61, "substantial"), (0.8, "substantial"), (0.1 * 8, "substantial"),
    (0.81, "almost perfect"), (1.0, "almost perfect"),
])
def test_landis_koch_boundaries(value, label):
    r = read(value, "landis_koch")
    assert r.label == label
    assert str(r) == f"{label} (convention of Landis & Koch 1977 (A&P Table 8))"


def test_undefined_and_unknown():
    assert read(float("nan")) is None
    assert interpret.readings(math.nan) == {"krippendorff": None, "landis_koch": None}
    assert interpret.short(math.nan) == "—"
    with pytest.raises(ValueError, match="unknown scale"):
        read(.5, "cohen")


def test_readings_and_short():
    r = interpret.readings(.7)
    assert r["krippendorff"].label.startswith(".667–.800")
    assert r["landis_koch"].label == "substantial"
    assert interpret.short(.7) == ".667–.800 · substantial"
    d = r["landis_koch"].as_dict()
    assert d["band"] == "(0.6, 0.8]" and d["convention"].startswith("Landis & Koch")


def test_interval_straddling_a_threshold():
    # Di Eugenio & Glass 2004: κ_Co = .6725 and κ_S&C = .6633 straddle .67
    assert interpret.interpret_interval(.6633, .6725).startswith("straddles below .667")
    assert interpret.interpret_interval(.70, .75).startswith("within .667–.800")
    assert interpret.interpret_interval(.5, .9, "landis_koch") == \
        "straddles moderate … almost perfect (convention of Landis & Koch 1977 (A&P Table 8))"
    assert interpret.interpret_interval(math.nan, .5) == "undefined"


def test_every_band_is_a_convention_not_a_verdict():
    for scale in interpret.SCALES.values():
        for band in scale.bands:
            assert not any(w in band.label.lower() for w in ("acceptable", "unreliable", "pass",
                                                             "fail"))
    doc = interpret.__doc__
    assert "black art" in doc and "§5.2" in doc and "single cutoff" in doc
