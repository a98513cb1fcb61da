"""A coefficient on each group of items (a document) and on weighted unions of groups, from one
kernel: the sums of a union are the weighted sums of its groups' (the bootstrap's
:class:`~corpusagree.stats.kernel.UnitWeights`), so per-document values and pooled values of
any set of documents are a few matrix products, with no loop over documents."""

from __future__ import annotations

import warnings

import numpy as np

from ..model.data import ReliabilityData
from . import spec
from .kernel import UnitWeights, kernel

#: groups evaluated at once (rows of the identity weight matrix)
GROUPS_PER_CHUNK = 512


def group_values(data: ReliabilityData, coefficient: str, unit_of: np.ndarray, n_units: int,
                 weights: np.ndarray | None = None, distance=None) -> np.ndarray:
    """``coefficient`` of the items of each unit (``unit_of[i]`` = the unit of item i), or,
    with ``weights`` (rows × units), of each weighted union of units; nan where undefined.

    Examples
    --------
    >>> d = ReliabilityData(np.array([[0, 1, 0, 0], [0, 1, 1, 0]]), ["x", "y"])
    >>> group_values(d, "kappa", np.array([0, 0, 1, 1]), 2).tolist()
    [1.0, 0.0]
    >>> group_values(d, "kappa", np.array([0, 0, 1, 1]), 2, np.ones((1, 2))).round(3).tolist()
    [0.5]
    """
    c = spec.get(coefficient)
    units = UnitWeights(kernel(data, distance if c.weighted else None), unit_of, n_units)
    kinds = spec.expected_kinds(c)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # undefined: nan
        if weights is not None:
            return spec.evaluate(c, units.stats(np.asarray(weights, float), kinds))
        for s in range(0, n_units, GROUPS_PER_CHUNK):
            W = np.zeros((min(n_units, s + GROUPS_PER_CHUNK) - s, n_units))
            W[np.arange(len(W)), np.arange(s, s + len(W))] = 1.0
            out.append(spec.evaluate(c, units.stats(W, kinds)))
    return np.concatenate(out) if out else np.zeros(0)


__all__ = ["GROUPS_PER_CHUNK", "group_values"]
