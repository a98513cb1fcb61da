"""corpusagree: agreement on structured corpus annotation (Artstein & Poesio's coefficient family).

>>> import corpusagree as ca
>>> data = ca.ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
...                                          ("B", 2, "x")])
>>> round(float(ca.alpha(data)), 3)
-0.125
"""

from .model.data import ReliabilityData, SetLabels
from .model.errors import InputError
from .stats import distances
from .stats.coefficients import (
    DegenerateWarning,
    Result,
    S,
    alpha,
    alpha_prime,
    beta,
    bias,
    kappa,
    kappa_w,
    light_kappa,
    multi_kappa,
    percent_agreement,
    pi,
    table,
)
from .stats.inference import Bootstrap
from .stats.spec import COEFFICIENTS

from ._version import __version__

__all__ = [
    "COEFFICIENTS", "Bootstrap", "DegenerateWarning", "InputError", "ReliabilityData", "Result",
    "S", "SetLabels", "alpha", "alpha_prime", "beta", "bias", "distances", "kappa", "kappa_w",
    "light_kappa", "multi_kappa", "percent_agreement", "pi", "table",
]
