"""Every worked number in the seed documents (../shared/seeds), to the printed precision."""

import math

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.stats.kernel import kernel as engine


def contingency(table, labels):
    """Two coders from a contingency table: rows = coder B's label, columns = coder A's."""
    triples, i = [], 0
    for b, row in enumerate(table):
        for a, n in enumerate(row):
            for _ in range(n):
                triples += [("A", i, labels[a]), ("B", i, labels[b])]
                i += 1
    return ca.ReliabilityData.from_triples(triples)


def close(x, printed: str):
    """x rounds to the printed decimal (e.g. '.341' → 3 places)."""
    places = len(printed.split(".")[1])
    assert round(float(x), places) == pytest.approx(float(printed)), (float(x), printed)


# ---- Artstein & Poesio (2005), "Kappa³ = Alpha (or Beta)" --------------------------------------
def test_003_table1():
    d = contingency([[20, 20], [10, 50]], ["Stat", "IReq"])
    close(ca.percent_agreement(d), ".7")
    close(ca.S(d), ".4")
    close(ca.pi(d), ".341")
    close(ca.kappa(d), ".348")
    assert ca.pi(d).A_e == pytest.approx(.545)
    assert ca.kappa(d).A_e == pytest.approx(.54)


TABLE4 = {  # proportions × 100 items; rows = coder B, columns = coder A (STAT IREQ IAFA CSFA)
    1: ([[20, 0, 0, 5], [0, 10, 15, 0], [0, 15, 10, 0], [5, 0, 0, 20]], ".467", ".467", ".467"),
    2: ([[20, 10, 10, 0], [10, 10, 0, 0], [10, 0, 10, 0], [0, 0, 0, 20]], ".467", ".444", ".444"),
    3: ([[20, 5, 5, 10], [0, 10, 5, 5], [0, 5, 10, 5], [0, 0, 0, 20]], ".467", ".460", ".474"),
}


@pytest.mark.parametrize("case", [1, 2, 3])
def test_003_table4(case):
    table, s, p, k = TABLE4[case]
    d = contingency(table, ["Stat", "IReq", "IAFA", "CSFA"])
    close(ca.percent_agreement(d), ".60")
    close(ca.S(d), s)
    close(ca.kappa(d), k)
    if case == 3:
        # The paper prints π = .460, but A_e^π = .3² + .2² + .2² + .3² = .26 and
        # π = (.6 − .26)/(1 − .26) = .34/.74 = .45946, which rounds to .459: the printed value
        # is .4595 rounded a second time. We assert the exact value and the printed one ±.0006.
        assert float(ca.pi(d)) == pytest.approx(.34 / .74)
        assert abs(float(ca.pi(d)) - float(p)) < 6e-4
    else:
        close(ca.pi(d), p)


def test_003_integrated_example_2_8():
    d = contingency([[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    close(ca.percent_agreement(d), ".88")
    close(ca.S(d), ".82")
    assert ca.pi(d).A_e == pytest.approx(.4014)
    close(ca.pi(d), ".7995")
    assert ca.kappa(d).A_e == pytest.approx(.396)
    close(ca.kappa(d), ".8013")
    w = {("Stat", "IReq"): 1, ("Stat", "Chck"): .5, ("IReq", "Chck"): .5}
    a1, a, b = ca.alpha_prime(d, w), ca.alpha(d, w), ca.beta(d, w)
    assert a1.observed == a.observed == b.observed == pytest.approx(.09)
    assert a1.expected == pytest.approx(.4855)
    close(a1, ".8146")
    close(a.expected, ".4879")
    assert a.expected == pytest.approx((2 * 98 * 76 + 98 * 26 + 76 * 26) / 39800)
    close(a, ".8156")
    assert b.expected == pytest.approx(.49)
    close(b, ".8163")
    # κw is β for two coders (§2.7: "D_e^β is the mean of the D_e^κw values")
    assert float(ca.kappa_w(d, w)) == pytest.approx(float(b))


def test_003_bias_is_difference_of_expected_agreements():
    """§3: B = A_e^π − A_e^κ; for the §2.8 data .4014 − .396 = .0054."""
    d = contingency([[46, 6, 0], [0, 32, 0], [0, 6, 10]], ["Stat", "IReq", "Chck"])
    assert float(ca.bias(d)) == pytest.approx(.4014 - .396)
    # §3 prints κ − π = B (1 − A_o) / ((1 − A_e^π)(1 − A_e^π)); the algebra of its own first
    # step gives (1 − A_o)(A_e^π − A_e^κ) / ((1 − A_e^π)(1 − A_e^κ)): the second factor of the
    # printed denominator is a typo for (1 − A_e^κ). With the printed one this example is off
    # by 1 %; with the derived one it is exact.
    diff = float(ca.kappa(d)) - float(ca.pi(d))
    assert diff == pytest.approx((.4014 - .396) * (1 - .88) / ((1 - .4014) * (1 - .396)))
    assert diff != pytest.approx((.4014 - .396) * (1 - .88) / (1 - .4014) ** 2, rel=1e-3)


# ---- Artstein (2012), "Agreement as a window to the process of corpus annotation" (slides) ---
def test_002_observed_agreement_tables():
    d = contingency([[41, 3], [9, 47]], ["Boxcar", "Tanker"])
    close(ca.percent_agreement(d), ".88")
    d = contingency([[44, 6], [6, 44]], ["A", "B"])
    close(ca.percent_agreement(d), ".88")
    assert ca.pi(d).A_e == pytest.approx(.5)


def test_002_paranoid_patients():
    d = contingency([[990, 5], [5, 0]], ["Normal", "Paranoid"])
    close(ca.percent_agreement(d), ".99")
    assert ca.pi(d).A_e == pytest.approx(.99005)
    close(ca.pi(d), "-.005")


def test_002_four_coders_item_agreement():
    rows = {"a": "Boxcar Tanker Boxcar Tanker", "b": "Tanker Boxcar Boxcar Boxcar",
            "c": "Boxcar Boxcar Boxcar Boxcar", "d": "Tanker Engine2 Boxcar Tanker",
            "e": "Engine2 Tanker Boxcar Engine1", "f": "Tanker Tanker Tanker Tanker"}
    triples = [(c, item, lab) for item, labs in rows.items()
               for c, lab in enumerate(labs.split())]
    e = engine(ca.ReliabilityData.from_triples(triples))
    agr = 1 - e.disagr_i
    assert agr * 6 == pytest.approx([2, 3, 6, 1, 0, 6])


ALPHA_25x5 = """7 7 7 7 7|5 4 5 6 5|5 5 5 6 4|7 8 6 7 7|4 2 3 3 2|6 7 6 6 6|6 6 6 5 6|7 6 9 6 9|
5 5 5 4 5|4 5 2 4 6|3 5 2 4 4|5 5 6 6 5|3 4 2 3 3|2 3 4 3 4|7 7 6 7 7|7 8 7 8 7|3 3 3 1 3|
4 2 4 2 4|3 2 3 3 3|4 4 2 4 4|5 6 4 5 6|4 3 4 3 1|6 6 7 5 7|4 5 2 4 3|4 5 5 6 5"""
ITEM_VARIANCES = [0.0, 0.5, 0.5, 0.5, 0.7, 0.2, 0.2, 2.3, 0.2, 2.2, 1.3, 0.3, 0.5, 0.7, 0.2,
                  0.3, 0.8, 1.2, 0.2, 0.8, 0.7, 1.5, 0.7, 1.3, 0.5]


def test_002_interval_alpha_25_items_5_coders():
    items = [list(map(int, r.split())) for r in ALPHA_25x5.replace("\n", "").split("|")]
    d = ca.ReliabilityData.from_matrix(np.array(items).T)
    a = ca.alpha(d, "interval")
    # interval Do, De are twice the (n − 1)-normalised variances on the slide
    e = engine(d, "interval")
    assert np.round(e.disagr_i / 2, 1) == pytest.approx(ITEM_VARIANCES)
    close(a.observed / 2, ".732")
    close(a.expected / 2, "3.085")
    close(a, ".763")
    values = np.array(items).ravel()
    assert a.expected / 2 == pytest.approx(values.var(ddof=1))
    assert values.mean() == pytest.approx(4.792, abs=5e-4)


# ---- Honour, "What is Krippendorff's alpha?" (the dresses) ------------------------------------
def test_004_dresses():
    m = [["y", "y", "n"], ["n", "n", None], ["n", None, None]]  # coders × pictures
    d = ca.ReliabilityData.from_matrix(m)
    a = ca.alpha(d)
    assert a.observed == pytest.approx(.8)
    assert a.expected == pytest.approx(.6)
    assert float(a) == pytest.approx(-1 / 3)
    assert a.items == 2 and a.pairable_values == 5


# ---- Di Eugenio & Glass (2004), Example 1 ------------------------------------------------------
def test_000_example1_straddles_067():
    # 70 Accept by both, 55 Ack by both, 25 Accept by coder 1 and Ack by coder 2
    d = contingency([[70, 0], [25, 55]], ["Accept", "Ack"])
    assert ca.percent_agreement(d).value == pytest.approx(125 / 150)
    k_co, k_sc = float(ca.kappa(d)), float(ca.pi(d))
    close(k_co, ".6725")
    close(k_sc, ".6633")
    assert k_sc < .67 < k_co
    # Krippendorff's α, footnote 1: "the difference is negligible"
    assert math.isclose(float(ca.alpha(d)), k_sc, abs_tol=0.002)
