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

from .inference import Bootstrap, Interval, interval, progress_chunk, replicate_weights


def sum_intervals(names: list[str], statistic: Callable[[np.ndarray], np.ndarray],
                  unit_sums: np.ndarray, settings: Bootstrap, progress=None) -> list[Interval]:
    """One interval per output of ``statistic`` (rows of sums -> rows × len(names) values)
    over the units (rows of ``unit_sums``), all on the same replicates, by the settings'
    method (:func:`~corpusagree.stats.inference.interval`); ``progress(done, total)`` after
    each chunk of at most 5 % of the replicates.

    Examples
    --------
    >>> sums = np.array([[2., 1.], [4., 4.], [3., 1.], [5., 5.]])  # (found, shared) per unit
    >>> share = lambda s: (s[:, 1] / s[:, 0])[:, None]
    >>> iv, = sum_intervals(["share"], share, sums, Bootstrap(200, seed=1))
    >>> round(iv.estimate, 4), iv.low <= iv.estimate <= iv.high
    (0.7857, True)
    """
    U = len(unit_sums)
    total = unit_sums.sum(axis=0)
    theta = statistic(total[None, :])[0]
    n = settings.n_resamples
    parts, done = [], 0
    for W in replicate_weights(U, n, settings.seed, progress_chunk(n)):
        parts.append(statistic(W @ unit_sums))
        done += len(W)
        if progress is not None:
            progress(done, n)
    dist = np.concatenate(parts) if parts else np.zeros((0, len(names)))
    jack: list[np.ndarray] = []

    def jackknife(j: int) -> np.ndarray:  # leave-one-unit-out sums: the total minus each unit
        if not jack:
            jack.append(statistic(total - unit_sums))
        return jack[0][:, j]

    return [interval(name, "", float(theta[j]), dist[:, j], settings,
                     lambda j=j: jackknife(j), clustered=settings.cluster is not False,
                     units=U)
            for j, name in enumerate(names)]


__all__ = ["sum_intervals"]
