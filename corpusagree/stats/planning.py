"""How many units to annotate: sample sizes for α and κ from a design's assumptions.

Two closed forms, both for a test of agreement against a minimum acceptable value:

* :func:`alpha_units`, Krippendorff's (2019, ch. 12, "Sampling considerations") minimum number
  of units for α ≥ α_min at significance p when the least frequent category has probability
  P_c, after Bloch & Kraemer's (1989, eq. 3.7) variance of κ for two coders;
* :func:`kappa_units`, the number of subjects for Cohen's κ of two coders and two categories,
  a test of H0: κ = κ0 against κ = κ1 with a given power (Cantor 1996, eqs. 1–3; as R's
  ``irr::N.cohen.kappa`` computes it).

Planning by simulation on a pilot study (how many documents for an interval of a given width)
resamples the pilot's documents through the engine; it lives with the intervals
(:func:`corpusagree.stats.compare.width_by_documents`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

__all__ = ["KRIPPENDORFF_ALPHA_MIN", "KRIPPENDORFF_P", "SampleSize", "alpha_units",
           "alpha_units_table", "kappa_units"]

#: the smallest acceptable α of Krippendorff's table (2019, ch. 12)
KRIPPENDORFF_ALPHA_MIN = (0.667, 0.800, 0.900)
#: the levels of significance of Krippendorff's table (2019, ch. 12)
KRIPPENDORFF_P = (0.100, 0.050, 0.010, 0.005)


@dataclass(frozen=True)
class SampleSize:
    """A required number of units and the assumptions it follows from.

    Attributes
    ----------
    n : int
        The number of units (rounded up).
    method : str
        Which formula (with its citation).
    assumptions : dict
        The inputs, as given.
    """

    n: int
    method: str
    assumptions: dict

    def to_dict(self) -> dict:
        """The sample size as plain data (for JSON)."""
        return {"n": self.n, "method": self.method, "assumptions": dict(self.assumptions)}


def _check_probability(name: str, value: float, *, open_low: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)):
        raise TypeError(f"{name} must be a number, not {value!r}")
    value = float(value)
    if not (0 < value < 1 if open_low else 0 <= value < 1):
        raise ValueError(f"{name} must lie in (0, 1), not {value!r}")
    return value


def alpha_units(alpha_min: float = 0.8, p: float = 0.05, *, smallest: float | None = None,
                proportions: Sequence[float] | None = None, coders: int = 2) -> SampleSize:
    """The minimum number of units for α ≥ ``alpha_min`` at significance ``p``.

    Krippendorff (2019, ch. 12) after Bloch & Kraemer (1989, eq. 3.7):

    .. math::

        N = m\\, z_p^2 \\left[\\frac{(1 + α_{min})(3 − α_{min})}
            {4 (1 − α_{min}) P_c (1 − P_c)} − α_{min}\\right]

    with z_p the one-tailed normal quantile of p, P_c the probability of the least frequent
    category and m the number of coders (2 in Krippendorff's table; ATLAS.ti's manual scales
    z² by the number of coders for more).

    Parameters
    ----------
    alpha_min : float, default 0.8
        The smallest α acceptable (in (0, 1)).
    p : float, default 0.05
        The level of significance (one-tailed).
    smallest : float, optional
        P_c, the probability of the least frequent category; with k equally likely categories
        it is 1/k.
    proportions : list of float, optional
        The categories' expected proportions instead (P_c is the smallest; they are
        normalised to sum to 1).
    coders : int, default 2
        The number of coders.

    Returns
    -------
    SampleSize

    Raises
    ------
    ValueError, TypeError
        A value outside its range, or both or neither of ``smallest`` and ``proportions``.

    References
    ----------
    Krippendorff, K. (2019). *Content Analysis*, 4th ed., ch. 12. Bloch, D. A. and Kraemer,
    H. C. (1989). 2 × 2 kappa coefficients: measures of agreement or association.
    *Biometrics* 45, 269–287, eq. 3.7.

    Examples
    --------
    Four equally likely categories, α_min = .800 at p = .05 (Krippendorff's table):

    >>> alpha_units(0.8, 0.05, smallest=0.25).n
    139
    >>> alpha_units(0.667, 0.05, proportions=[1, 1, 1, 1]).n
    81
    """
    a = _check_probability("alpha_min", alpha_min)
    p = _check_probability("p", p)
    if (smallest is None) == (proportions is None):
        raise ValueError("give one of smallest (P_c) or proportions")
    if proportions is not None:
        props = np.asarray(proportions, float)
        if props.ndim != 1 or len(props) < 2 or not np.all(np.isfinite(props)) \
                or np.any(props <= 0):
            raise ValueError(f"proportions must be two or more positive numbers, not "
                             f"{list(proportions)!r}")
        pc = float(props.min() / props.sum())
    else:
        pc = _check_probability("smallest", smallest)
        if pc > 0.5:
            raise ValueError(f"smallest is the least frequent category's probability, at most "
                             f"0.5, not {pc!r}")
    if isinstance(coders, bool) or not isinstance(coders, (int, np.integer)) or coders < 2:
        raise ValueError(f"coders must be an integer ≥ 2, not {coders!r}")
    z = float(ndtri(1 - p))
    n = coders * z * z * ((1 + a) * (3 - a) / (4 * (1 - a) * pc * (1 - pc)) - a)
    return SampleSize(math.ceil(n - 1e-9), "Krippendorff (2019, ch. 12), after Bloch & "
                      "Kraemer (1989, eq. 3.7)",
                      {"alpha_min": a, "p": p, "smallest": pc, "coders": int(coders)})


def alpha_units_table(smallest: Sequence[float] = (0.5, 0.25, 0.1, 0.05), *,
                      alpha_min: Sequence[float] = KRIPPENDORFF_ALPHA_MIN,
                      p: Sequence[float] = KRIPPENDORFF_P) -> list[dict]:
    """Krippendorff's table of minimum units: one row per (P_c, α_min), one column per p.

    Parameters
    ----------
    smallest : list of float
        The P_c of the rows.
    alpha_min, p : list of float
        The smallest acceptable α and the levels of significance.

    Returns
    -------
    list of dict
        ``{"smallest": P_c, "alpha_min": α_min, "p=0.05": N, …}``.

    Examples
    --------
    >>> row = alpha_units_table([0.25], alpha_min=[0.8])[0]
    >>> row["p=0.05"]
    139
    """
    return [{"smallest": pc, "alpha_min": a,
             **{f"p={q:g}": alpha_units(a, q, smallest=pc).n for q in p}}
            for pc in smallest for a in alpha_min]


def kappa_units(rate1: float, rate2: float, kappa1: float, kappa0: float, *,
                alpha: float = 0.05, power: float = 0.8, two_sided: bool = False
                ) -> SampleSize:
    """The number of subjects for Cohen's κ of two coders and two categories.

    Cantor's (1996) asymptotic variance of κ̂ under the alternative κ1 and under the null κ0,
    with the cell probabilities that the two coders' marginals and κ imply:

    .. math::

        N = \\left(\\frac{z_{1−α/d} \\sqrt{Q_0} + z_{power} \\sqrt{Q_1}}{κ_1 − κ_0}\\right)^2

    (d = 2 for a two-sided test), rounded up, as R's ``irr::N.cohen.kappa``.

    Parameters
    ----------
    rate1, rate2 : float
        The share of subjects each coder puts in the first category.
    kappa1 : float
        κ under the alternative (what the study expects).
    kappa0 : float
        κ under the null.
    alpha : float, default 0.05
        The level of the test.
    power : float, default 0.8
        The power wanted.
    two_sided : bool, default False
        A two-sided test.

    Returns
    -------
    SampleSize

    References
    ----------
    Cantor, A. B. (1996). Sample-size calculations for Cohen's kappa. *Psychological
    Methods* 1(2), 150–153, eqs. 1–3. Fleiss, Cohen & Everitt (1969) for the variance.

    Examples
    --------
    irr's example (``N.cohen.kappa(0.5, 0.5, 0.7, 0.85)``), both coders 50 % positive:

    >>> kappa_units(0.5, 0.5, 0.7, 0.85).n
    96
    """
    r1 = _check_probability("rate1", rate1)
    r2 = _check_probability("rate2", rate2)
    al = _check_probability("alpha", alpha)
    pw = _check_probability("power", power)
    for name, k in (("kappa1", kappa1), ("kappa0", kappa0)):
        if isinstance(k, bool) or not isinstance(k, (int, float, np.floating)) \
                or not -1 <= k <= 1:
            raise ValueError(f"{name} must be a number in [-1, 1], not {k!r}")
    if kappa1 == kappa0:
        raise ValueError("kappa1 and kappa0 must differ")
    if not isinstance(two_sided, bool):
        raise TypeError(f"two_sided must be True or False, not {two_sided!r}")
    pe = r1 * r2 + (1 - r1) * (1 - r2)   # chance agreement from the marginals

    def variance(k: float) -> float:
        # the 2 × 2 cells that marginals (r1, r2) and κ imply, then Fleiss et al.'s variance
        po = k * (1 - pe) + pe
        p22 = (po - r1 + (1 - r2)) / 2
        p11 = po - p22
        p12, p21 = r1 - p11, r2 - p11
        a1, a2 = r2 + r1, (1 - r2) + (1 - r1)
        return (p11 * (1 - pe - a1 * (1 - po)) ** 2 + p22 * (1 - pe - a2 * (1 - po)) ** 2
                + (1 - po) ** 2 * (p12 * (r2 + (1 - r1)) ** 2 + p21 * ((1 - r2) + r1) ** 2)
                - (po * pe - 2 * pe + po) ** 2) / (1 - pe) ** 4

    z_a = float(ndtri(1 - al / (2 if two_sided else 1)))
    z_b = float(ndtri(pw))
    n = ((z_a * math.sqrt(variance(kappa0)) + z_b * math.sqrt(variance(kappa1)))
         / (kappa1 - kappa0)) ** 2
    return SampleSize(math.ceil(n), "Cantor (1996), as irr::N.cohen.kappa",
                      {"rate1": r1, "rate2": r2, "kappa1": float(kappa1),
                       "kappa0": float(kappa0), "alpha": al, "power": pw,
                       "two_sided": two_sided})
