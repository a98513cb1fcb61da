"""Statistics of numeric scores: ICC, Lin's CCC, Bland–Altman, Kendall's W (issue 32).

Published numbers (Shrout & Fleiss 1979; Bland & Altman 1986) and fixtures of R's irr, psych,
lme4 and epiR on random complete and incomplete scores, made by
``tests/data/ratings/make_fixtures.R`` (the tests read its JSON and CSV files, never R).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.stats.coefficients import DegenerateWarning
from corpusagree.stats.reml import crossed_reml

DATA = Path(__file__).parent.parent / "data" / "ratings"
FIXTURES = json.loads((DATA / "fixtures.json").read_text())
SETS = [k for k in FIXTURES if k != "versions"]
COMPLETE = [k for k in SETS if k.startswith("complete")]

# Shrout & Fleiss (1979), Table 2: 6 targets (columns here) × 4 judges (rows)
SHROUT_FLEISS = [[9, 6, 8, 7, 10, 6], [2, 1, 4, 1, 5, 2], [5, 3, 6, 2, 6, 4],
                 [8, 2, 8, 6, 9, 7]]
# Bland & Altman (1986), Table 1: peak expiratory flow (l/min), first reading of each meter
WRIGHT = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
MINI_WRIGHT = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259,
               350, 451]


def scores(name: str) -> np.ndarray:
    """A fixture's data set as coders × items (the CSV has items as rows), NaN missing."""
    return np.genfromtxt(DATA / f"{name}.csv", delimiter=",", skip_header=1,
                         missing_values="", filling_values=np.nan).T


# ---- published numbers ---------------------------------------------------------------------
def test_shrout_fleiss_table2():
    """Shrout & Fleiss (1979), Table 2: the six ICCs of 6 targets × 4 judges."""
    published = {("oneway", "agreement", "single"): 0.17,
                 ("twoway", "agreement", "single"): 0.29,
                 ("twoway", "consistency", "single"): 0.71,
                 ("oneway", "agreement", "average"): 0.44,
                 ("twoway", "agreement", "average"): 0.62,
                 ("twoway", "consistency", "average"): 0.91}
    for (model, type_, unit), value in published.items():
        r = ca.icc(SHROUT_FLEISS, model=model, type=type_, unit=unit)
        assert round(r.value, 2) == value, (model, type_, unit, r.value)
    table = ca.icc_table(SHROUT_FLEISS)
    assert [round(r.value, 2) for r in table] == [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    assert [r.shrout_fleiss for r in table] == ["ICC(1,1)", "ICC(2,1)", "ICC(3,1)",
                                                "ICC(1,4)", "ICC(2,4)", "ICC(3,4)"]
    assert table["ICC3k"].form == "ICC(C,4)"


def test_bland_altman_1986_peak_flow():
    """Bland & Altman (1986): Wright − mini-Wright meter, 17 subjects.

    The paper prints bias −2.1, SD 38.8 and limits −79.7 and 75.5: these limits are
    bias ± 2 SD computed from the rounded bias and SD (−2.1 ∓ 77.6), so the test recomputes
    them that way; with the unrounded values and z = 1.96 they are −78.1 and 73.9. The
    intervals of the limits (section "Precision of estimated limits of agreement": −114.3 to
    −45.1 for the lower one) also came from the rounded values (SE 16.3, t = 2.12): ours,
    from unrounded ones with 2 SD, are within 0.15.
    """
    r = ca.bland_altman([WRIGHT, MINI_WRIGHT])
    assert round(r.bias, 1) == -2.1 and round(r.sd, 1) == 38.8
    bias, sd = round(r.bias, 1), round(r.sd, 1)
    assert round(bias - 2 * sd, 1) == -79.7 and round(bias + 2 * sd, 1) == 75.5
    assert (round(r.lower, 1), round(r.upper, 1)) == (-78.1, 73.9)
    assert r.items == 17 and r.left_out == 0 and r.notes == []  # slope p = 0.75: no note
    two_sd = ca.bland_altman([WRIGHT, MINI_WRIGHT], limits=0.9544997361036416)  # z = 2
    assert two_sd.lower == pytest.approx(r.bias - 2 * r.sd)
    lo = two_sd.lower_interval
    assert abs(lo.low - -114.3) < 0.15 and abs(lo.high - -45.1) < 0.15
    hi = two_sd.upper_interval  # 75.5 ± 2.12 × 16.3 = 40.9 to 110.1: the same half-width
    assert abs((hi.high - hi.low) / 2 - 2.12 * 16.3) < 0.1 and hi.low < r.bias + 2 * r.sd
    # the bias's interval: −2.1 ± 2.12 × 38.8/√17 = −22.1 to 17.9
    assert abs(r.bias_interval.low - -22.1) < 0.1 and abs(r.bias_interval.high - 17.9) < 0.1


# ---- R fixtures: irr, psych, lme4, epiR ----------------------------------------------------
@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("level", [95, 90])
def test_icc_equals_irr(name, level):
    """Every McGraw & Wong form, its F test and interval as irr::icc (listwise as na.omit)."""
    y = scores(name)
    incomplete = int(np.isnan(y).any(axis=0).sum())
    for ref in FIXTURES[name][f"irr_icc_{level}"]:
        r = ca.icc(y, ref["model"], ref["type"], ref["unit"], confidence=level / 100)
        assert r.convention == "irr" and r.left_out == incomplete
        assert r.items == ref["subjects"]
        got = [r.value, r.f, r.df1, r.df2, r.p_value, r.interval.low, r.interval.high]
        want = [ref[k] for k in ("value", "F", "df1", "df2", "p", "lower", "upper")]
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=str(ref))
        assert bool(r.notes) == bool(incomplete)


def _psych(table: ca.IccTable) -> dict:
    rows = table.to_dict()
    return {k: [row[k] for row in rows] for k in rows[0]}


@pytest.mark.parametrize("name", COMPLETE)
def test_icc_table_equals_psych(name):
    """psych::ICC(lmer=FALSE) on complete data, row for row; icc(convention='psych') too."""
    ref = FIXTURES[name]["psych_anova"]
    table = ca.icc_table(scores(name))
    got = _psych(table)
    assert got["type"] == ref["type"]
    for key in ("ICC", "F", "df1", "df2", "p", "lower", "upper"):
        np.testing.assert_allclose(got[key], ref[key], rtol=1e-9, atol=1e-12, err_msg=key)
    for row in table:
        r = ca.icc(scores(name), row.model, row.type, row.unit, convention="psych")
        assert (r.value, r.df2, r.p_value, r.interval.low, r.interval.high) == \
            (row.value, row.df2, row.p_value, row.interval.low, row.interval.high)


@pytest.mark.parametrize("name", SETS)
def test_reml_equals_lme4(name):
    """REML variance components as lme4::lmer, and a criterion no worse than lme4's."""
    y = scores(name)
    ref = FIXTURES[name]["lme4"]
    vc = crossed_reml(y)
    assert vc.converged
    assert vc.criterion <= ref["reml_criterion"] + 1e-7
    assert vc.criterion == pytest.approx(ref["reml_criterion"], abs=1e-6)
    total = ref["item"] + ref["coder"] + ref["error"]
    for key in ("item", "coder", "error"):  # lme4's optimiser stops at about 1e-5
        assert getattr(vc, key) == pytest.approx(ref[key], abs=2e-4 * total), key


@pytest.mark.parametrize("name", SETS)
def test_icc_reml_equals_psych_lmer(name):
    """psych::ICC(lmer=TRUE) (its default), complete or incomplete, all six rows."""
    ref = FIXTURES[name]["psych_lmer"]
    table = ca.icc_table(scores(name), missing="reml")
    got = _psych(table)
    for key in ("df1", "df2"):
        np.testing.assert_array_equal(got[key], ref[key])
    # lme4 stops its optimiser at about 1e-5; the ICC's are ratios of its components
    for key in ("ICC", "lower", "upper"):
        np.testing.assert_allclose(got[key], ref[key], rtol=1e-3, atol=2e-4, err_msg=key)
    np.testing.assert_allclose(got["F"], ref["F"], rtol=2e-3, err_msg="F")
    for row in table:
        r = ca.icc(scores(name), row.model, row.type, row.unit, missing="reml",
                   convention="psych")
        assert r.value == row.value and r.components is not None and r.left_out == 0


def test_reml_on_complete_data_is_anova():
    """Without truncation, REML of balanced data gives the ANOVA ICC (Searle et al. 1992)."""
    for name in ("complete_mid", "complete_ties"):
        y = scores(name)
        for unit in ("single", "average"):
            a = ca.icc(y, unit=unit)
            b = ca.icc(y, unit=unit, missing="reml")
            assert b.value == pytest.approx(a.value, abs=1e-6)
    # near-perfect agreement: variance ratios of 10⁴–10⁸ (moments scale the search); a coder
    # variance 10⁵ times the error's costs digits in the coder block of the criterion
    rng = np.random.default_rng(0)
    for s_item, s_coder, s_error in ((100, 1, 0.1), (1000, 0.1, 0.01), (1, 5, 0.01)):
        y = rng.normal(0, s_item, (1, 50)) + rng.normal(0, s_coder, (4, 1)) \
            + rng.normal(0, s_error, (4, 50))
        for t in ("agreement", "consistency"):
            a, b = ca.icc(y, type=t), ca.icc(y, type=t, missing="reml")
            assert b.value == pytest.approx(a.value, abs=5e-6) and b.components.converged
    exact = np.add.outer([0.0, 1.0, 3.0], [1.0, 2.0, 5.0, 7.0])  # item + coder, no error
    assert ca.icc(exact, type="consistency", missing="reml").value == 1.0


@pytest.mark.parametrize("name", SETS)
def test_kendall_equals_irr(name):
    y = scores(name)
    for correct, key in ((True, "kendall_correct"), (False, "kendall_plain")):
        ref = FIXTURES[name][key]
        r = ca.kendall_w(y, correct_ties=correct)
        np.testing.assert_allclose([r.value, r.chi2, r.p_value],
                                   [ref["value"], ref["statistic"], ref["p"]], rtol=1e-9)
    assert r.items == FIXTURES[name]["kendall_correct"]["subjects"]


@pytest.mark.parametrize("name", SETS)
def test_ccc_and_bland_altman_equal_epir(name):
    """epiR::epi.ccc(ci="z-transform") per coder pair, on the items both scored."""
    y = scores(name)
    for level in (0.95, 0.9):
        refs = [p for p in FIXTURES[name]["epi_ccc"] if p["level"] == level]
        got = ca.ccc(y, confidence=level)
        ba = ca.bland_altman(y, limits=level)
        if y.shape[0] == 2:
            got, ba = ca.PairResults([got], [0, 1]), ca.PairResults([ba], [0, 1])
        assert len(got) == len(refs) == len(ba)
        for ref, r, b in zip(refs, got, ba, strict=True):
            assert r.coders == (ref["x"], ref["y"]) == b.coders
            np.testing.assert_allclose(
                [r.value, r.interval.low, r.interval.high, r.accuracy, r.location_shift,
                 r.scale_shift],
                [ref[k] for k in ("value", "lower", "upper", "C_b", "l_shift", "s_shift")],
                rtol=1e-9)
            assert r.left_out == ref["nmissing"] - int(np.isnan(y[[r.coders[0],
                                                                  r.coders[1]]]).all(0).sum())
            np.testing.assert_allclose([b.bias, b.sd, b.lower, b.upper],
                                       [ref[k] for k in ("ba_bias", "ba_sd", "ba_lower",
                                                         "ba_upper")], rtol=1e-9)


def test_pairs_matrix_and_frames():
    y = scores("complete_mid")
    pairs = ca.ccc(y)
    m = pairs.matrix()
    assert m.shape == (4, 4) and np.isnan(m[0, 0]) and m[1, 2] == m[2, 1] == pairs.get(2, 1).value
    bias = ca.bland_altman(y).matrix("bias")
    assert bias[0, 1] == -bias[1, 0]
    pd = pytest.importorskip("pandas")
    assert isinstance(pairs.to_frame(), pd.DataFrame) and len(pairs.to_frame()) == 6
    assert ca.icc(y).to_frame()["interval_low"].iloc[0] == ca.icc(y).interval.low
    assert list(ca.icc_table(y).to_frame().columns) == ["type", "ICC", "F", "df1", "df2", "p",
                                                        "lower", "upper"]
    assert ca.kendall_w(y).to_frame()["value"].iloc[0] == ca.kendall_w(y).value


def test_bland_altman_notes_a_slope():
    """A difference that grows with the mean is noted (Bland & Altman 1999, §3)."""
    rng = np.random.default_rng(3)
    truth = rng.uniform(10, 100, 60)
    y = np.vstack([truth + rng.normal(0, 1, 60), 1.2 * truth + rng.normal(0, 1, 60)])
    r = ca.bland_altman(y)
    assert r.slope_p < 0.05 and any("changes with the mean" in n for n in r.notes)
    flat = ca.bland_altman(np.vstack([truth, truth + rng.normal(0, 1, 60)]))
    assert not any("changes with the mean" in n for n in flat.notes)


# ---- inputs: ReliabilityData, arrays, data frames; bad input -------------------------------
def test_inputs_agree():
    y = scores("incomplete_mid")
    data = ca.ReliabilityData.from_matrix(y, coders=["a", "b", "c", "d"])
    for f in (ca.icc, ca.kendall_w):
        assert f(data).value == pytest.approx(f(y).value, rel=1e-12)
    # the same REML fit, to the optimiser's precision (sums in another memory order)
    assert ca.icc(data, missing="reml").value == pytest.approx(ca.icc(y, missing="reml").value,
                                                               rel=1e-8)
    assert ca.ccc(data).get("a", "c").value == pytest.approx(ca.ccc(y).get(0, 2).value,
                                                             rel=1e-12)
    as_lists = [[None if np.isnan(v) else float(v) for v in row] for row in y]
    assert ca.icc(as_lists).value == pytest.approx(ca.icc(y).value, rel=1e-12)
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(y, index=["a", "b", "c", "d"])
    with_na = frame.astype(object).where(frame.notna(), pd.NA)  # pandas' NA is missing too
    assert ca.icc(with_na).value == pytest.approx(ca.icc(y).value, rel=1e-12)
    assert ca.bland_altman(frame).get("b", "d").bias == \
        pytest.approx(ca.bland_altman(data).get("b", "d").bias, rel=1e-12)
    triples = [("a", 1, 3), ("b", 1, 4), ("a", 2, 5), ("b", 2, 5), ("a", 3, 1), ("b", 3, 2)]
    assert ca.icc(ca.ReliabilityData.from_triples(triples)).value == \
        ca.icc([[3, 5, 1], [4, 5, 2]]).value


def test_listwise_says_how_many():
    y = scores("incomplete_mid")
    r = ca.icc(y)
    dropped = int(np.isnan(y).any(axis=0).sum())
    assert r.left_out == dropped and r.items == y.shape[1] - dropped
    assert f"{dropped} of {y.shape[1]} items left out" in r.notes[0]
    assert f"{dropped} of" in ca.kendall_w(y).notes[0]


def test_bad_input():
    with pytest.raises(ca.InputError, match="coder 'b' on item 2 is not a number: 'x'"):
        ca.icc(ca.ReliabilityData.from_triples([("a", 1, 1), ("b", 1, 2), ("a", 2, 3),
                                                ("b", 2, "x")]))
    with pytest.raises(ca.InputError, match="coder 1 on item 0 is not a number: 'high'"):
        ca.ccc([[1, 2, 3], ["high", 2, 3]])
    with pytest.raises(ca.InputError, match="needs 2 coders or more; got 1"):
        ca.icc([[1, 2, 3]])
    with pytest.raises(ca.InputError, match="item 1 has 1 score; every item needs 2"):
        ca.icc([[1, 2, 3], [1, np.nan, 3]], missing="reml")
    with pytest.raises(ca.InputError, match="item 1 has 1 score"):
        ca.bland_altman([[1, 2, 3, 4], [1, np.nan, 3, 5]])
    with pytest.raises(ca.InputError, match="not sets"):
        ca.icc(ca.ReliabilityData.from_sets(np.array([[0, 1], [1, 0]]), np.array([0, 1, 2]),
                                            np.array([0, 1])))
    with pytest.raises(ca.InputError, match="listwise deletion needs 2"):
        ca.icc([[1, 2, np.nan], [1, np.nan, 3], [np.nan, 2, 3]])
    with pytest.raises(ca.InputError, match="share 2 scored items"):
        ca.ccc([[1, 2, np.nan, np.nan], [1, 2, 3, 4], [np.nan, np.nan, 3, 5]])


def test_keywords_checked():
    """Keywords checked by corpusagree.model.params: parameter, value and what is accepted."""
    y = SHROUT_FLEISS
    for kw, bad, error in (("model", "two-way", ValueError), ("type", "absolute", ValueError),
                           ("unit", 1, TypeError), ("missing", "pairwise", ValueError),
                           ("convention", "spss", ValueError)):
        with pytest.raises(error, match=f"icc\\(\\): {kw} must be one of .*, not {bad!r}"):
            ca.icc(y, **{kw: bad})
    with pytest.raises(ValueError, match="measures absolute agreement only"):
        ca.icc(y, model="oneway", type="consistency")
    with pytest.raises(ValueError, match="ccc\\(\\): confidence must be a number between 0 "
                                         "and 1 .*, not 1.5"):
        ca.ccc(y, confidence=1.5)
    with pytest.raises(TypeError, match="confidence must be a number .*, not '95%'"):
        ca.icc_table(y, confidence="95%")
    with pytest.raises(TypeError, match="correct_ties must be True or False, not 'yes'"):
        ca.kendall_w(y, correct_ties="yes")
    with pytest.raises(ValueError, match="limits must be a number between 0 and 1 .*, not 0"):
        ca.bland_altman(y, limits=0)


def test_constant_scores_are_undefined():
    """ICC, CCC and W of constant scores: nan with a warning and a note, never 0 or 1."""
    flat = [[3, 3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 3]]
    with pytest.warns(DegenerateWarning, match="undefined"):
        r = ca.icc(flat)
    assert np.isnan(r.value) and np.isnan(r.interval.low) and "undefined" in r.notes[-1]
    for missing in ("listwise", "reml"):
        with pytest.warns(DegenerateWarning):
            t = ca.icc_table(flat, missing=missing)
        assert all(np.isnan(row.value) for row in t)
    with pytest.warns(DegenerateWarning):
        assert np.isnan(ca.ccc(flat).get(0, 1).value)
    with pytest.warns(DegenerateWarning):
        assert np.isnan(ca.kendall_w(flat).value)
    # consistency is undefined when items do not differ even if coders do
    with pytest.warns(DegenerateWarning):
        assert np.isnan(ca.icc([[1, 1, 1], [2, 2, 2]], type="consistency").value)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ca.icc([[1, 2, 3], [1, 2, 3]]).value == 1.0  # perfect agreement is defined


# ---- pingouin, where it is installed -------------------------------------------------------
@pytest.mark.parametrize("name", COMPLETE)
def test_icc_equals_pingouin(name):
    """pingouin.intraclass_corr (psych's convention) on complete data."""
    pg = pytest.importorskip("pingouin")
    pd = pytest.importorskip("pandas")
    y = scores(name)
    k, n = y.shape
    long = pd.DataFrame({"item": np.tile(np.arange(n), k), "coder": np.repeat(np.arange(k), n),
                         "score": y.ravel()})
    ref = pg.intraclass_corr(long, targets="item", raters="coder", ratings="score")
    ref = ref.set_index("Type")
    ci = "CI95%" if "CI95%" in ref.columns else "CI95"
    for row in ca.icc_table(y):  # pingouin names the forms as McGraw & Wong
        t = row.form.replace(f",{len(y)})", ",k)").replace("(1)", "(1,1)") \
            .replace(f"({len(y)})", "(1,k)")
        assert row.value == pytest.approx(ref.loc[t, "ICC"], rel=1e-9)
        assert row.f == pytest.approx(ref.loc[t, "F"], rel=1e-9)
        assert row.df2 == ref.loc[t, "df2"]
        assert row.p_value == pytest.approx(ref.loc[t, "pval"], rel=1e-6)
        # pingouin rounds its interval to 2 decimals
        assert np.allclose([row.interval.low, row.interval.high], list(ref.loc[t, ci]),
                           atol=0.0051)
