"""Agreement of two coders' numeric scores: Lin's concordance correlation and Bland–Altman.

Both are statistics of a coder pair on the items the two scored (pairwise deletion). For more
than two coders every pair is computed at once from three coders × coders matrix products
(the pairs' counts, sums, sums of squares and cross-products over their shared items), so
there is no loop over pairs or items.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy.special import ndtri, stdtr, stdtrit  # without scipy.stats' import

from ..model.errors import InputError, quote
from ..model.params import Param, checked
from ..model.records import CoderMatrix, frame
from .coefficients import DegenerateWarning
from .inference import Interval
from .scores import CONFIDENCE, Scores, as_scores


@dataclass(frozen=True)
class _Pairs:
    """Sums over the items each ordered pair (a, b) of coders shares."""

    n: np.ndarray     # items both scored
    sx: np.ndarray    # Σ x_a
    sxx: np.ndarray   # Σ x_a²
    sxy: np.ndarray   # Σ x_a x_b

    @classmethod
    def of(cls, scores: Scores) -> _Pairs:
        rated = scores.rated
        shift = np.nanmean(scores.values)  # the statistics are shift-invariant; centring
        x = np.where(rated, scores.values - shift, 0.0)  # keeps the sums accurate
        m = rated.astype(float)
        return cls(m @ m.T, x @ m.T, (x * x) @ m.T, x @ x.T)

    def moments(self) -> tuple[np.ndarray, ...]:
        """Means of a and b, variances (divisor n) and covariance, per ordered pair."""
        with np.errstate(divide="ignore", invalid="ignore"):
            n = self.n
            mx, my = self.sx / n, self.sx.T / n
            vx = self.sxx / n - mx * mx
            vy = self.sxx.T / n - my * my
            cov = self.sxy / n - mx * my
        return n, mx, my, np.maximum(vx, 0.0), np.maximum(vy, 0.0), cov


def _too_few(scores: Scores, n: np.ndarray, name: str, least: int) -> None:
    k = n.shape[0]
    a, b = np.triu_indices(k, 1)
    few = np.flatnonzero(n[a, b] < least)
    if few.size:
        i = few[0]
        raise InputError(f"{name}: coders {quote(scores.coders[a[i]])} and "
                         f"{quote(scores.coders[b[i]])} share {int(n[a[i], b[i]])} "
                         f"scored items; {name} needs {least} or more")


@dataclass(repr=False)
class CccResult:
    """Lin's concordance correlation of two coders, with its interval.

    Attributes
    ----------
    coders : tuple
        The two coders (x, y).
    value : float
        ρ_c (nan when undefined).
    interval : Interval
        The z-transform interval (Lin 1989).
    pearson : float
        Pearson's r, the precision.
    accuracy : float
        The bias correction factor C_b = ρ_c / r.
    location_shift, scale_shift : float
        u = (μ_y − μ_x)/√(σ_x σ_y) and v = σ_y/σ_x (sample SDs for v, as epiR).
    items : int
        Items both scored.
    left_out : int
        Items only one of the two scored.
    notes : list of str

    Examples
    --------
    >>> import corpusagree as ca
    >>> r = ca.ccc([[1.0, 2.0, 3.5, 4.0, 5.0], [1.5, 2.0, 3.0, 5.0, 5.5]])
    >>> round(r.value, 3), round(r.pearson, 3), r.items
    (0.925, 0.949, 5)
    """

    coders: tuple
    value: float
    interval: Interval
    pearson: float
    accuracy: float
    location_shift: float
    scale_shift: float
    items: int
    left_out: int
    notes: list = field(default_factory=list)

    def __float__(self) -> float:
        return self.value

    def __repr__(self) -> str:
        return (f"CccResult({self.coders[0]} ~ {self.coders[1]}: ρc={self.value:.4g}, "
                f"{self.interval.level:.0%} [{self.interval.low:.4g}, "
                f"{self.interval.high:.4g}], r={self.pearson:.4g}, items={self.items})")

    def to_dict(self) -> dict:
        """The result as plain data."""
        return {"coder_x": str(self.coders[0]), "coder_y": str(self.coders[1]),
                "value": self.value, "low": self.interval.low, "high": self.interval.high,
                "level": self.interval.level, "pearson": self.pearson,
                "accuracy": self.accuracy, "location_shift": self.location_shift,
                "scale_shift": self.scale_shift, "items": self.items,
                "left_out": self.left_out, "notes": list(self.notes)}

    def to_frame(self):
        """The result as a one-row pandas DataFrame (pandas is optional)."""
        return frame([self.to_dict()])


@dataclass(repr=False)
class BlandAltmanResult:
    """Bland & Altman's limits of agreement of two coders (x − y).

    Attributes
    ----------
    coders : tuple
        The two coders (x, y); the differences are x − y.
    bias, sd : float
        The mean and the standard deviation of the differences.
    lower, upper : float
        The limits of agreement, bias ∓ z·sd (z = 1.96 for ``limits=0.95``).
    bias_interval, lower_interval, upper_interval : Interval
        Their confidence intervals (t with n − 1 df; the limits' SE is sd·√(3/n)).
    slope, slope_p : float
        The regression of the difference on the mean of the pair, and its p value.
    items, left_out : int
        Items both scored, and items only one of the two scored.
    notes : list of str
        Among them, a note when the difference changes with the mean.

    Examples
    --------
    >>> import corpusagree as ca
    >>> r = ca.bland_altman({"ann": [1.0, 2.0, 3.5, 4.0], "bob": [1.5, 2.0, 3.0, 5.0]})
    >>> r.coders, round(r.bias, 3), round(r.bias_interval.high, 3)
    (('ann', 'bob'), -0.25, 0.777)
    """

    coders: tuple
    bias: float
    sd: float
    lower: float
    upper: float
    bias_interval: Interval
    lower_interval: Interval
    upper_interval: Interval
    slope: float
    slope_p: float
    items: int
    left_out: int
    notes: list = field(default_factory=list)

    def __repr__(self) -> str:
        return (f"BlandAltmanResult({self.coders[0]} − {self.coders[1]}: bias={self.bias:.4g},"
                f" sd={self.sd:.4g}, limits [{self.lower:.4g}, {self.upper:.4g}], "
                f"items={self.items})")

    def to_dict(self) -> dict:
        """The result as plain data."""
        out = {"coder_x": str(self.coders[0]), "coder_y": str(self.coders[1]),
               "bias": self.bias, "sd": self.sd, "lower": self.lower, "upper": self.upper}
        for key in ("bias", "lower", "upper"):
            iv = getattr(self, f"{key}_interval")
            out[f"{key}_low"], out[f"{key}_high"] = iv.low, iv.high
        out.update({"level": self.bias_interval.level, "slope": self.slope,
                    "slope_p": self.slope_p, "items": self.items, "left_out": self.left_out,
                    "notes": list(self.notes)})
        return out

    def to_frame(self):
        """The result as a one-row pandas DataFrame (pandas is optional)."""
        return frame([self.to_dict()])


class PairResults(list):
    """One result per coder pair (a list), in the order (0, 1), (0, 2) … (1, 2) ….

    Parameters
    ----------
    rows : list
        The pairs' results, in that order.
    coders : list
        The coders' names.

    Examples
    --------
    >>> import corpusagree as ca
    >>> pairs = ca.ccc([[1, 2, 3, 4], [1, 2, 3, 5], [2, 3, 4, 5]])
    >>> len(pairs), round(pairs.get(0, 1).value, 3)
    (3, 0.929)
    >>> pairs.matrix().shape
    (3, 3)
    """

    def __init__(self, rows, coders) -> None:
        super().__init__(rows)
        self.coders = list(coders)

    def get(self, x, y):
        """The result of coders ``x`` and ``y`` (names, in either order).

        Parameters
        ----------
        x, y : object
            Two coders' names.

        Raises
        ------
        KeyError
            When the pair is not listed.
        """
        for r in self:
            if (r.coders[0], r.coders[1]) in ((x, y), (y, x)):
                return r
        raise KeyError(f"no pair {x!r}, {y!r}; coders: {self.coders}")

    def matrix(self, key: str = "value") -> CoderMatrix:
        """A coder × coder matrix of one attribute (``value``, ``bias`` …), nan on the
        diagonal. ``bias`` is row − column.

        Parameters
        ----------
        key : str, default "value"
            The attribute of each pair's result.

        Returns
        -------
        CoderMatrix
        """
        index = {c: i for i, c in enumerate(self.coders)}
        m = np.full((len(self.coders),) * 2, np.nan)
        for r in self:
            a, b = index[r.coders[0]], index[r.coders[1]]
            v = getattr(r, key)
            m[a, b] = v
            m[b, a] = -v if key == "bias" else v
        return CoderMatrix(self.coders, m)

    def to_dict(self) -> list[dict]:
        """Each pair's ``to_dict()``."""
        return [r.to_dict() for r in self]

    def to_frame(self):
        """One row per pair as a pandas DataFrame (pandas is optional)."""
        return frame(self.to_dict())


def _pairs_out(rows: list, scores: Scores):
    return rows[0] if len(scores.coders) == 2 else PairResults(rows, scores.coders)


@checked(CONFIDENCE)
def ccc(data, confidence: float = 0.95):
    """Lin's (1989) concordance correlation coefficient with its z-transform interval.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Numeric scores of two coders or more (coders × items, NaN or None missing); each
        pair is computed on the items both scored.
    confidence : float, default 0.95
        The coverage of the interval.

    Returns
    -------
    CccResult or PairResults
        For two coders, their result; for more, one per pair.

    Raises
    ------
    InputError
        When a score is not a number, there is one coder, or a pair shares fewer than three
        items.
    ValueError, TypeError
        For a ``confidence`` that is not a number between 0 and 1.

    Notes
    -----
    ρ_c = 2 s_xy / (s_x² + s_y² + (x̄ − ȳ)²), moments with divisor n (Lin 1989,
    eq. 2); the interval is tanh(z ± z_{1−α/2} σ_z) of Fisher's z = atanh(ρ_c) with σ_z² of
    Lin (1989; corrected 2000), as epiR's ``epi.ccc(ci="z-transform")`` and DescTools' ``CCC``.
    ``accuracy`` is C_b = ρ_c / r, ``location_shift`` u and ``scale_shift`` v (Lin 1989).

    References
    ----------
    .. [1] Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
       reproducibility. Biometrics 45(1), 255–268 (eq. 2; the z-transform and its variance); and the
       correction, Biometrics 56 (2000), 324–325.

    Examples
    --------
    >>> import corpusagree as ca
    >>> r = ca.ccc([[2.5, 3.1, 4.0, 4.6, 5.2, 6.9], [2.7, 3.0, 4.4, 4.4, 5.6, 6.5]])
    >>> round(r.value, 4), round(r.interval.low, 4), round(r.interval.high, 4)
    (0.9753, 0.8532, 0.9961)
    """
    scores = as_scores(data, "ccc")
    n, mx, my, vx, vy, cov = _Pairs.of(scores).moments()
    _too_few(scores, n, "ccc", 3)
    z = ndtri(1 - (1 - confidence) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = 2 * cov / (vx + vy + (mx - my) ** 2)
        r = cov / np.sqrt(vx * vy)
        u = (my - mx) / (vx * vy) ** 0.25
        se = np.sqrt(((1 - r ** 2) * rho ** 2 * (1 - rho ** 2) / r ** 2
                      + 2 * rho ** 3 * (1 - rho) * u ** 2 / r
                      - 0.5 * rho ** 4 * u ** 4 / r ** 2) / (n - 2))
        t = np.arctanh(rho)
        se_t = se / (1 - rho ** 2)
        low, high = np.tanh(t - z * se_t), np.tanh(t + z * se_t)
        v = np.sqrt(vy / vx)
    counts = np.count_nonzero(scores.rated, axis=1)
    rows = []
    a_idx, b_idx = np.triu_indices(len(scores.coders), 1)
    for a, b in zip(a_idx.tolist(), b_idx.tolist(), strict=True):  # k(k-1)/2 results
        notes = []
        left = int(counts[a] + counts[b] - 2 * n[a, b])
        if left:
            notes.append(f"{left} items scored by one of the two only: left out")
        value = float(rho[a, b])
        if np.isnan(value):
            notes.append("undefined: both coders' scores are constant")
        iv = Interval("ccc", "interval", value, float(low[a, b]), float(high[a, b]),
                      confidence, "z-transform (Lin 1989)", units=int(n[a, b]))
        rows.append(CccResult((scores.coders[a], scores.coders[b]), value, iv,
                              float(r[a, b]), float(rho[a, b] / r[a, b]), float(u[a, b]),
                              float(v[a, b]), int(n[a, b]), left, notes))
    _warn_undefined(rows, "ccc")
    return _pairs_out(rows, scores)


def _warn_undefined(rows: list, name: str) -> None:
    bad = [r for r in rows if any(n.startswith("undefined") for n in r.notes)]
    if bad:
        warnings.warn(f"{name}: undefined for {len(bad)} coder pair(s) (constant scores); "
                      "returning nan", DegenerateWarning, stacklevel=3)


@checked(CONFIDENCE, Param("limits", float, low=0, high=1, closed="neither"))
def bland_altman(data, confidence: float = 0.95, limits: float = 0.95):
    """Bland & Altman's limits of agreement, with the intervals of the bias and the limits.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Numeric scores of two coders or more (coders × items, NaN or None missing); each
        pair (x, y), x before y in the data, is computed on the items both scored, from the
        differences x − y.
    confidence : float, default 0.95
        The coverage of the intervals of the bias and of each limit.
    limits : float, default 0.95
        The share of differences the limits of agreement should hold: bias ∓ z·sd with
        z = Φ⁻¹((1 + limits)/2), 1.96 for 0.95 (Bland & Altman 1986 printed ± 2 sd).

    Returns
    -------
    BlandAltmanResult or PairResults
        For two coders, their result; for more, one per pair.

    Raises
    ------
    InputError
        When a score is not a number, there is one coder, or a pair shares fewer than three
        items.
    ValueError, TypeError
        For a ``confidence`` or ``limits`` that is not a number between 0 and 1.

    Notes
    -----
    The bias d̄ has the interval d̄ ± t_{n−1} s/√n, each limit d̄ ∓ z s the interval
    ± t_{n−1} s √(3/n) (Bland & Altman 1986, "Precision of estimated limits of agreement";
    1999, §2). The difference is regressed on the pair's mean (Bland & Altman 1999, §3);
    when the slope's t test rejects 0 at 1 − ``confidence``, a note says the difference
    changes with the mean, where constant limits mislead (a log scale or regression-based
    limits, 1999 §3, fit better).

    References
    ----------
    .. [1] Bland, J. M. and Altman, D. G. (1986). Statistical methods for assessing agreement
       between two methods of clinical measurement. The Lancet 327(8476), 307–310.
    .. [2] Bland, J. M. and Altman, D. G. (1999). Measuring agreement in method comparison
       studies. Statistical Methods in Medical Research 8(2), 135–160.

    Examples
    --------
    >>> import corpusagree as ca
    >>> r = ca.bland_altman([[3, 4, 5, 6, 7, 8], [3.5, 4, 5.5, 6, 7.5, 8.5]])
    >>> round(r.bias, 3), round(r.lower, 3), round(r.upper, 3)
    (-0.333, -0.839, 0.173)
    """
    scores = as_scores(data, "bland_altman")
    pairs = _Pairs.of(scores)
    n = pairs.n
    _too_few(scores, n, "bland_altman", 3)
    z = ndtri((1 + limits) / 2)
    q = 1 - (1 - confidence) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        bias = (pairs.sx - pairs.sx.T) / n
        ssd = pairs.sxx + pairs.sxx.T - 2 * pairs.sxy - n * bias ** 2  # Σ(d − d̄)²
        sd = np.sqrt(np.maximum(ssd, 0) / (n - 1))
        t = stdtrit(n - 1, q)
        # the regression of d = x − y on the mean (x + y)/2
        mean = (pairs.sx + pairs.sx.T) / (2 * n)
        sdm = (pairs.sxx - pairs.sxx.T) / 2 - n * bias * mean
        smm = (pairs.sxx + pairs.sxx.T + 2 * pairs.sxy) / 4 - n * mean ** 2
        slope = sdm / smm
        rss = np.maximum(ssd - slope * sdm, 0)
        tstat = slope / np.sqrt(rss / (n - 2) / smm)
        slope_p = 2 * stdtr(n - 2, -np.abs(tstat))
    counts = np.count_nonzero(scores.rated, axis=1)
    rows = []
    a_idx, b_idx = np.triu_indices(len(scores.coders), 1)
    for a, b in zip(a_idx.tolist(), b_idx.tolist(), strict=True):  # k(k-1)/2 results
        m, d, s, tt = int(n[a, b]), float(bias[a, b]), float(sd[a, b]), float(t[a, b])
        lo, hi = float(d - z * s), float(d + z * s)
        h_bias, h_lim = float(tt * s / np.sqrt(m)), float(tt * s * np.sqrt(3 / m))
        notes = []
        left = int(counts[a] + counts[b] - 2 * m)
        if left:
            notes.append(f"{left} items scored by one of the two only: left out")
        b_, p_ = float(slope[a, b]), float(slope_p[a, b])
        if p_ < 1 - confidence:
            notes.append(f"the difference changes with the mean (slope {b_:.3g} of the "
                         f"difference on the mean, p = {p_:.2g}): constant limits of "
                         "agreement do not describe it (Bland & Altman 1999, §3)")
        ivs = [Interval(name, "interval", est, est - h, est + h, confidence,
                        "t, n − 1 df (Bland & Altman 1999, §2)", units=m)
               for name, est, h in (("bias", d, h_bias), ("lower limit", lo, h_lim),
                                    ("upper limit", hi, h_lim))]
        rows.append(BlandAltmanResult((scores.coders[a], scores.coders[b]), d, s, lo, hi,
                                      *ivs, b_, p_, m, left, notes))
    return _pairs_out(rows, scores)


__all__ = ["BlandAltmanResult", "CccResult", "PairResults", "bland_altman", "ccc"]
