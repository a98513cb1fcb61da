"""Position bias under swapped order: flips and McNemar's test, against statsmodels."""

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from corpusagree.stats.position import mcnemar, position_bias


def simulate(rng, judges=3, pairs=60, bias=(0.0, 0.3, 0.6), tie=0.05, missing=0.1):
    rows = []
    for jdx in range(judges):
        for p in range(pairs):
            better = "A" if rng.random() < 0.6 else "B"
            for order in ("AB", "BA"):
                if rng.random() < missing:
                    continue
                first = order[0]
                r = rng.random()
                label = "tie" if r < tie else first if r < tie + bias[jdx] else better
                rows.append((f"judge{jdx}", f"p{p}", label, first, order))
    rng.shuffle(rows)
    return rows


def written_out(rows):
    """The same counts by a plain loop over pairs, for the test only."""
    by = {}
    for j, p, label, first, order in rows:
        by.setdefault((j, p), {})[order] = (label, label == first and label != "tie")
    out = {}
    for (j, _p), d in by.items():
        s = out.setdefault(j, [0, 0, 0, 0, 0])
        if len(d) < 2:
            continue
        (l1, f1), (l2, f2) = d["AB"], d["BA"]
        s[0] += 1
        if l1 != l2:
            s[1] += 1
            if "tie" in (l1, l2):
                s[4] += 1
            elif f1 and f2:
                s[2] += 1
            elif not f1 and not f2:
                s[3] += 1
    return out


def test_counts_equal_a_loop_and_p_equals_statsmodels():
    rng = np.random.default_rng(5)
    rows = simulate(rng)
    res = position_bias(*zip(*rows, strict=True), tie="tie")
    loop = written_out(rows)
    assert {r.judge for r in res} == set(loop)
    for r in res:
        pairs, flips, b, c, t = loop[r.judge]
        assert (r.pairs, r.flips, r.to_first, r.to_second, r.with_tie) == (pairs, flips, b, c, t)
        assert r.flip_rate == pytest.approx(flips / pairs)
        exact = b + c < 25
        ref = sm_mcnemar([[0, b], [c, 0]], exact=exact, correction=True)
        assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        assert r.statistic == pytest.approx(ref.statistic, rel=1e-9)
    # the unbiased judge flips least, the most biased most, mostly to the first position
    rates = {r.judge: r.flip_rate for r in res}
    assert rates["judge0"] < rates["judge1"] < rates["judge2"]
    worst = next(r for r in res if r.judge == "judge2")
    assert worst.to_first > 5 * max(worst.to_second, 1) and worst.p_value < 1e-4


@pytest.mark.parametrize("b, c", [(0, 0), (1, 0), (5, 5), (12, 3), (24, 0), (20, 10), (40, 22)])
def test_mcnemar_equals_statsmodels(b, c):
    stat, p, exact = mcnemar(np.array([b]), np.array([c]))
    ref = sm_mcnemar([[0, b], [c, 0]], exact=bool(exact[0]), correction=True)
    assert p[0] == pytest.approx(ref.pvalue, rel=1e-9)


def test_bad_input():
    with pytest.raises(ValueError, match="two values"):
        position_bias(["j"] * 3, [1, 1, 1], ["A", "B", "A"], ["A", "B", "C"], ["AB", "BA", "CA"])
    with pytest.raises(ValueError, match="twice in the same order"):
        position_bias(["j"] * 3, [1, 1, 1], ["A", "B", "A"], ["A", "B", "A"], ["AB", "BA", "AB"])
    with pytest.raises(ValueError, match="same length"):
        position_bias(["j"], [1, 2], ["A"], ["A"], ["AB"])
