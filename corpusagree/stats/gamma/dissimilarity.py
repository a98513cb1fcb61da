"""Mathet, Widlöcher & Métivier's (2015, §4) dissimilarity of two units: ``d(u, v) =
α·d_pos(u, v) + β·d_cat(u, v)`` with ``d_pos = ((|s_u − s_v| + |e_u − e_v|) / (l_u + l_v))²·Δ∅``
and ``d_cat = dist_cat(cat_u, cat_v)·Δ∅``, dist_cat any corpusagree distance scaled into
[0, 1]; a unit against the empty unit ∅ costs Δ∅."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...model.continuum import Continuum
from ...model.data import ReliabilityData
from ...model.errors import InputError
from ...model.params import ArrayLike, Param, checked
from .. import distances as dist

CategoryDistance = str | Mapping | tuple | dist.Distance


#: Δ∅, the cost of a unit aligned with nothing
DELTA_EMPTY = Param("delta_empty", float, low=0, closed="neither")


@checked(Param("u", ArrayLike, accepts="a unit (start, end)"),
         Param("v", ArrayLike, accepts="a unit (start, end)"), DELTA_EMPTY)
def positional_dissimilarity(u: tuple[float, float], v: tuple[float, float],
                             delta_empty: float = 1.0) -> float:
    """Mathet et al.'s (2015, §4) positional-sporadic dissimilarity of two units.

    ``((|s_u − s_v| + |e_u − e_v|) / (l_u + l_v))² · Δ∅``, l the units' lengths: 0 for the
    same position, Δ∅ when the two units are as far apart as their lengths together.

    Parameters
    ----------
    u, v : tuple of (start, end)
        The two units.
    delta_empty : float, default 1
        Δ∅, the cost of a unit aligned with nothing.

    Returns
    -------
    float

    Raises
    ------
    InputError
        When a unit does not end after it starts.

    References
    ----------
    .. [1] Mathet, Y., Widlöcher, A. and Métivier, J.-P. (2015). The unified and holistic
       method gamma (γ) for inter-annotator agreement measure and alignment. Computational
       Linguistics 41(3).

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> round(u.positional_dissimilarity((4, 14), (40, 44)), 2)   # Mathet et al., Fig. 10
    22.22
    """
    (s1, e1), (s2, e2) = u, v
    if not (s1 < e1 and s2 < e2):
        raise InputError(f"a unit must end after it starts: got {u} and {v}")
    r = (abs(s1 - s2) + abs(e1 - e2)) / ((e1 - s1) + (e2 - s2))
    return float(r * r * delta_empty)


def distance_name(spec) -> str:
    if isinstance(spec, str):
        return spec.lower()
    if isinstance(spec, dist.Distance):
        return spec.name
    return "matrix" if isinstance(spec, (Mapping, tuple)) else "callable"


def category_matrix(c: Continuum, spec) -> np.ndarray:
    """dist_cat over ``c.categories``: any corpusagree distance bound to the categories (their
    unit counts feed the ordinal metric), divided by its largest value when that exceeds 1 so
    that dist_cat lies in [0, 1] (Mathet et al. 2015, §4; pygamma normalises the same way)."""
    try:
        d = dist.get(spec)
    except (ValueError, TypeError) as e:
        raise InputError(f"category distance: {e}") from None
    if d.for_sets:
        raise InputError(f"the {d.name} distance compares sets; categories are plain labels")
    L = len(c.categories)
    if L == 0:
        return np.zeros((0, 0))
    labels: list = list(c.categories)
    categories: list | None = list(c.categories)
    if isinstance(d, (dist.Interval, dist.Ratio, dist.Ordinal)):
        try:
            labels = [float(x) for x in c.categories]
            categories = sorted(labels)
        except ValueError:
            if not isinstance(d, dist.Ordinal):
                raise InputError(f"the {d.name} distance needs numeric categories; got "
                                 f"{next(x for x in c.categories if not _is_float(x))!r}"
                                 ) from None
    data = ReliabilityData(np.arange(L)[None, :], labels, categories=categories)
    counts = np.bincount(c.category, minlength=L).astype(float)
    try:
        metric = d.bind(data, counts)
    except ValueError as e:
        raise InputError(f"category distance: {e}") from None
    ix = np.arange(L)
    D = np.asarray(metric.pair(ix[:, None], ix[None, :]), float)
    top = D.max(initial=0.0)
    return D / top if top > 1 else D


def _is_float(x: str) -> bool:
    try:
        float(x)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Dissimilarity:
    """α·d_pos + β·d_cat with Δ∅, over units given as arrays (start, end, category code)."""

    alpha: float
    beta: float
    delta_empty: float
    D: np.ndarray

    def position(self, s, e, i, j) -> np.ndarray:
        """d_pos of the unit pairs (i[k], j[k])."""
        r = (np.abs(s[i] - s[j]) + np.abs(e[i] - e[j])) / ((e[i] - s[i]) + (e[j] - s[j]))
        return r * r * self.delta_empty

    def __call__(self, s, e, cat, i, j) -> np.ndarray:
        return (self.alpha * self.position(s, e, i, j)
                + self.beta * self.delta_empty * self.D[cat[i], cat[j]])


__all__ = ["DELTA_EMPTY", "CategoryDistance", "Dissimilarity", "category_matrix", "distance_name",
           "positional_dissimilarity"]
