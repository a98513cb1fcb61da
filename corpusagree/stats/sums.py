"""Bootstrap intervals of statistics that are functions of sums over resampling units (counts
per document: Parseval's shared constituents, relations found by both annotators).

A replicate draws the units with replacement (:func:`~corpusagree.stats.inference.
replicate_weights`); its sums are ``W @`` the per-unit sums, so every replicate of every
statistic is one matrix product — the bootstrap of :mod:`corpusagree.stats.inference`, for
statistics that are not coefficients of the engine. Intervals are percentile or BCa (Efron
1987, the acceleration from the leave-one-unit-out sums: the total minus each unit).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .inference import Q_THRESHOLDS, Bootstrap, Interval, _bca_quantiles, replicate_weights


def sum_intervals(names: list[str], statistic: Callable[[np.ndarray], np.ndarray],
                  unit_sums: np.ndarray, settings: Bootstrap, progress=None) -> list[Interval]:
    """One interval per output of ``statistic`` (rows of sums -> rows × len(names) values)
    over the units (rows of ``unit_sums``), all on the same replicates.

    Examples
    --------
    >>> sums = np.array([[2., 1.], [4., 4.], [3., 1.], [5., 5.]])  # (found, shared) per unit
    >>> share = lambda s: (s[:, 1] / s[:, 0])[:, None]
    >>> iv, = sum_intervals(["share"], share, sums, Bootstrap(200, seed=1))
    >>> round(iv.estimate, 4), iv.low <= iv.estimate <= iv.high
    (0.7857, True)
    """
    U = len(unit_sums)
    theta = statistic(unit_sums.sum(axis=0, keepdims=True))[0]
    dists = [statistic(W @ unit_sums) for W in replicate_weights(U, settings.n_resamples,
                                                                  settings.seed)]
    if progress is not None:
        progress(settings.n_resamples, settings.n_resamples)
    dist = np.concatenate(dists) if dists else np.zeros((0, len(names)))
    jack = statistic(unit_sums.sum(axis=0) - unit_sums) if settings.interval == "bca" else None
    a = (1 - settings.level) / 2
    out = []
    for j, name in enumerate(names):
        d = dist[:, j]
        ok = d[~np.isnan(d)]
        if settings.interval == "bca" and len(ok):
            lo_q, hi_q = _bca_quantiles(ok, float(theta[j]), jack[:, j], a)
            method = "bootstrap BCa"
        else:
            lo_q, hi_q = a, 1 - a
            method = "bootstrap percentile"
        low, high = (float(x) for x in np.quantile(ok, [lo_q, hi_q])) if len(ok) \
            else (np.nan, np.nan)
        out.append(Interval(name, "", float(theta[j]), low, high, settings.level, method,
                            settings.cluster is not False, U, settings.n_resamples,
                            settings.seed, d,
                            {x: float((ok < x).mean()) if len(ok) else np.nan
                             for x in Q_THRESHOLDS},
                            float(ok.std(ddof=1)) if len(ok) > 1 else None,
                            int(len(d) - len(ok))))
    return out
