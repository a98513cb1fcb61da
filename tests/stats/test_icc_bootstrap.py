"""The ICC bootstrap (issue 32): each replicate's mean squares from the items' sums weighted by
their draws equal those of the replicate's scores themselves (the items repeated), so the
intervals equal those of the plain refit on the same replicates."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from corpusagree.stats.icc import ItemSums, MeanSquares, icc_bootstrap, icc_table
from corpusagree.stats.inference import Bootstrap, refit_bootstrap


def _scores(seed: int, coders: int = 4, items: int = 60) -> np.ndarray:
    rng = np.random.default_rng(seed)
    y = rng.normal(5, 1.5, items)[None, :] + rng.normal(0, 0.5, coders)[:, None] \
        + rng.normal(0, 1, (coders, items))
    return np.clip(np.round(y), 1, 10)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_weighted_mean_squares_are_those_of_the_repeated_items(seed):
    y = _scores(seed)
    w = np.random.default_rng(seed).multinomial(y.shape[1], np.full(y.shape[1], 1 / 60))
    got = MeanSquares.weighted(ItemSums.of(y), w)
    want = MeanSquares.of(np.repeat(y, w, axis=1))
    assert got.n == want.n and got.k == want.k
    for a, b in zip(got.to_dict().values(), want.to_dict().values(), strict=True):
        assert a == pytest.approx(b, rel=1e-10)


@pytest.mark.parametrize("interval, clustered", [("percentile", False), ("bca", False),
                                                 ("bca", True)])
def test_intervals_equal_the_refit_of_the_repeated_items(interval, clustered):
    y = _scores(7)
    unit_of = np.repeat(np.arange(6), 10) if clustered else np.arange(60)
    settings = Bootstrap(300, seed=4, interval=interval)

    def refit(weights):
        counts = np.rint(weights).astype(int)
        if counts.sum() < 2:
            return np.full(6, np.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.array([r.value for r in icc_table(np.repeat(y, counts, axis=1))])

    want = refit_bootstrap(refit, unit_of, settings, [(t, "") for t in
                                                       icc_table(y).types],
                           clustered=clustered)
    got = icc_bootstrap(y, unit_of, settings, clustered=clustered)
    for a, b in zip(got, want, strict=True):
        assert a.coefficient == b.coefficient
        assert (a.estimate, a.low, a.high) == pytest.approx((b.estimate, b.low, b.high),
                                                            rel=1e-9)
