"""REML variance components of scores with crossed random items and coders.

The model of two-way random effects, ``score = μ + item + coder + error``, item, coder and
error independent normal with variances σ²_item, σ²_coder and σ²_e, fitted by restricted
maximum likelihood (Patterson & Thompson 1971) on incomplete data, as
``lme4::lmer(score ~ 1 + (1 | item) + (1 | coder))`` fits it (Bates, Mächler, Bolker & Walker
2015, §3.4: the profiled REML criterion of the relative scales λ = σ_item/σ_e and
σ_coder/σ_e, with σ²_e profiled out), minimised over the variance ratios θ = λ² ≥ 0 by Nelder–Mead
(restarted from its optimum, and from two starting points).

The criterion is evaluated from sufficient statistics: the item block of the mixed-model
equations is diagonal, and after it is absorbed (a Schur complement) what is left is a
(coders + 1)-square system whose terms depend on an item only through its number of scores.
So the statistics are summed once per number of scores, and each evaluation of the criterion
costs O(coders³), whatever the number of items.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class VarianceComponents:
    """REML estimates of the variances of a two-way random-effects model.

    Attributes
    ----------
    item, coder, error : float
        σ²_item (the targets'), σ²_coder and σ²_e.
    criterion : float
        The REML criterion (−2 log restricted likelihood) at the estimates.
    converged : bool
        Whether the optimiser reported convergence.
    """

    item: float
    coder: float
    error: float
    criterion: float
    converged: bool

    def to_dict(self) -> dict:
        """The components as plain data."""
        return {"item": self.item, "coder": self.coder, "error": self.error,
                "criterion": self.criterion, "converged": self.converged}


class _Statistics:
    """The sufficient statistics of the REML criterion (see the module's docstring)."""

    def __init__(self, values: np.ndarray) -> None:
        rated = ~np.isnan(values)
        self.N = int(np.count_nonzero(rated))
        mean = np.nanmean(values)
        y = np.where(rated, values - mean, 0.0)  # the intercept absorbs the shift
        self.yy = float(np.einsum("ij,ij->", y, y))
        m = np.count_nonzero(rated, axis=0)  # scores per item
        self.k = values.shape[0]
        self.c = np.count_nonzero(rated, axis=1).astype(float)  # scores per coder
        self.t = y.sum(axis=1)  # per coder
        self.T = float(self.t.sum())
        s = y.sum(axis=0)  # per item
        self.m_values, group = np.unique(m, return_inverse=True)
        g = len(self.m_values)
        self.n_m = np.bincount(group, minlength=g).astype(float)
        self.q = np.bincount(group, weights=s * s, minlength=g)
        # yᵀy − λ²Σ d_i s_i² = SSW + Σ d_i s_i²/m_i with d_i = 1/(λ² m_i + 1): a sum of
        # positive terms, where the difference loses digits when λ is large
        item_mean = s / np.maximum(m, 1)
        within = y - item_mean[None, :]
        within[~rated] = 0.0
        self.ssw = float(np.einsum("ij,ij->", within, within))
        self.q_per_m = self.q / np.maximum(self.m_values, 1)
        self.moments = _moments(y, rated, within, s, self.t, m, self.c)
        K = self.k + 1
        self.G = np.empty((g, K, K))
        self.h = np.empty((g, K))
        order = np.argsort(group, kind="stable")
        bounds = np.searchsorted(group[order], np.arange(g + 1))
        # W_i = [the coders who scored item i (0/1), m_i]; one Gram matrix per m (few)
        for j in range(g):
            idx = order[bounds[j]:bounds[j + 1]]
            W = np.empty((idx.size, K))
            W[:, :-1] = rated[:, idx].T
            W[:, -1] = self.m_values[j]
            self.G[j] = W.T @ W
            self.h[j] = W.T @ s[idx]

    def criterion(self, lam: np.ndarray) -> tuple[float, float]:
        """(−2 REML log-likelihood, the profiled σ²_e) at the relative scales ``lam``."""
        la, lb = float(lam[0]), float(lam[1])
        k = self.k
        d = 1.0 / (la * la * self.m_values + 1.0)
        scale = np.full(k + 1, lb)
        scale[-1] = 1.0
        B = np.zeros((k + 1, k + 1))
        B[np.arange(k), np.arange(k)] = lb * lb * self.c + 1.0
        B[:k, k] = B[k, :k] = lb * self.c
        B[k, k] = self.N
        P = np.tensordot(d, self.G, 1)
        S = B - la * la * scale[:, None] * P * scale[None, :]
        v = np.append(lb * self.t, self.T) - la * la * scale * (d @ self.h)
        try:
            L = np.linalg.cholesky(S)
        except np.linalg.LinAlgError:
            return np.inf, np.nan
        z = np.linalg.solve(L, v)
        pwrss = self.ssw + float(d @ self.q_per_m) - float(z @ z)
        if pwrss <= 0:
            return np.inf, np.nan
        logdet = float(self.n_m @ np.log1p(la * la * self.m_values)) \
            + 2.0 * float(np.log(np.diag(L)).sum())
        dof = self.N - 1
        sigma2 = pwrss / dof
        return logdet + dof * (1.0 + np.log(2.0 * np.pi * sigma2)), sigma2


def crossed_reml(values: np.ndarray) -> VarianceComponents:
    """The REML variance components of ``score ~ 1 + (1 | item) + (1 | coder)``.

    Parameters
    ----------
    values : numpy.ndarray
        Coders × items scores, NaN missing.

    Returns
    -------
    VarianceComponents

    References
    ----------
    .. [1] Bates, D., Mächler, M., Bolker, B. and Walker, S. (2015). Fitting linear
       mixed-effects models using lme4. Journal of Statistical Software 67(1), §3.4
       (the profiled REML criterion).
    .. [2] Patterson, H. D. and Thompson, R. (1971). Recovery of inter-block information when
       block sizes are unequal. Biometrika 58(3).

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([[9, 6, 8, 7, 10, 6], [2, 1, 4, 1, 5, 2], [5, 3, 6, 2, 6, 4],
    ...               [8, 2, 8, 6, 9, 7]], float)     # Shrout & Fleiss (1979), Table 2
    >>> vc = crossed_reml(y)
    >>> round(vc.item, 4), round(vc.coder, 4), round(vc.error, 4)   # = the ANOVA estimates
    (2.5556, 5.2444, 1.0194)
    """
    from scipy import optimize  # imported when a fit is asked for

    stats = _Statistics(values)
    if stats.yy <= 0:  # every score the same: no variance to share out
        return VarianceComponents(0.0, 0.0, 0.0, float("nan"), True)
    item, coder, error = stats.moments
    if error <= 1e-12 * (item + coder + error):  # scores = item + coder exactly
        return VarianceComponents(item, coder, 0.0, float("-inf"), True)
    # the simplex moves in units of the moment estimates' ratios, so that ratios of 10⁶
    # (near-perfect agreement) converge as fast and as precisely as ratios of 1
    scale = np.maximum(np.array([item, coder]) / error, 1e-2)

    def objective(x):  # over the variance ratios θ = λ², whose bound 0 is a true one
        return stats.criterion(np.sqrt(np.maximum(x, 0.0) * scale))[0]

    bounds = [(0.0, None), (0.0, None)]
    options = {"xatol": 1e-10, "fatol": 1e-12, "maxfev": 4000}
    best = None
    for start in ((1.0, 1.0), (1.0, 0.01)):
        fit = optimize.minimize(objective, np.array(start), method="Nelder-Mead",
                                bounds=bounds, options=options)
        # a restart from the optimum: Nelder–Mead's simplex can collapse early
        fit = optimize.minimize(objective, fit.x, method="Nelder-Mead", bounds=bounds,
                                options=options)
        if best is None or fit.fun < best.fun:
            best = fit
    theta = np.maximum(best.x, 0.0) * scale
    crit, sigma2 = stats.criterion(np.sqrt(theta))
    return VarianceComponents(float(theta[0] * sigma2), float(theta[1] * sigma2),
                              float(sigma2), float(crit), bool(best.success))


def _moments(y: np.ndarray, rated: np.ndarray, work: np.ndarray, s: np.ndarray,
             t: np.ndarray, m: np.ndarray, c: np.ndarray, rounds: int = 8
             ) -> tuple[float, float, float]:
    """Rough variances of item, coder and error: the additive fit of item and coder effects
    to the scores given (alternating means: two matrix–vector products a round), the
    variances of its effects and of its residuals; the starting point and the scale of the
    REML search. ``y`` holds the centred scores (0 where missing), ``s``, ``t`` their sums
    per item and per coder, ``m``, ``c`` the counts; ``work`` is overwritten."""
    r = rated.astype(float)
    per_item, per_coder = np.maximum(m, 1), np.maximum(c, 1)
    coder = np.zeros(y.shape[0])
    for _ in range(rounds):
        item = (s - np.einsum("i,ij->j", coder, r)) / per_item
        coder = (t - np.einsum("ij,j->i", r, item)) / per_coder  # (no BLAS threads)
    np.subtract(y, item[None, :], out=work)
    work -= coder[:, None]
    work[~rated] = 0.0
    dof = max(int(m.sum()) - len(item) - len(coder) + 1, 1)
    return (float(item.var(ddof=1)), float(coder.var(ddof=1)),
            float(np.einsum("ij,ij->", work, work) / dof))


__all__ = ["VarianceComponents", "crossed_reml"]
