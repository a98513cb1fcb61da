"""Distances between labels, for the weighted coefficients: the public home of
:mod:`corpusagree.stats.distances`.

A distance is given by name (:data:`NAMED`: ``nominal``, ``ordinal``, ``interval``, ``ratio``,
the set distances ``passonneau``, ``jaccard``, ``dice``, ``masi`` (Passonneau 2004, 2006;
Artstein & Poesio 2005, §4.1) and irrCAC's weights ``irr-quadratic`` …), as a weight
:class:`Matrix` over labels, irrCAC's q × q agreement weights over categories
(:class:`AgreementWeights`, d = 1 − w, asymmetric ones as irrCAC applies them), a function of
two labels (:class:`FromCallable`), or a :class:`SetDistance` from a vectorised similarity of
the set sizes and their intersection's.

>>> import corpusagree as ca
>>> d = ca.distances.Matrix({("a", "b"): 0.5, ("a", "c"): 1, ("b", "c"): 1})
>>> data = ca.ReliabilityData.from_triples([("A", 1, "a"), ("B", 1, "b"), ("A", 2, "b"),
...                                          ("B", 2, "b"), ("A", 3, "c"), ("B", 3, "c")])
>>> round(ca.alpha(data, d).value, 4), round(ca.alpha(data).value, 4)   # a, b are close
(0.7368, 0.5455)
"""

from .stats.distances import (
    DICE,
    IRR_WEIGHTS,
    JACCARD,
    MASI,
    NAMED,
    PASSONNEAU,
    SET_NAMES,
    AgreementWeights,
    Distance,
    FromCallable,
    Matrix,
    SetDistance,
    get,
    weights,
)

__all__ = ["DICE", "IRR_WEIGHTS", "JACCARD", "MASI", "NAMED", "PASSONNEAU", "SET_NAMES",
           "AgreementWeights", "Distance", "FromCallable", "Matrix", "SetDistance", "get",
           "weights"]
