"""corpusagree: agreement on structured corpus annotation (Artstein & Poesio's coefficient family).

The coefficients are functions of :class:`ReliabilityData` (coders × items of labels, missing
judgements allowed, plain or set-valued labels): :func:`alpha`, :func:`beta`, :func:`kappa`,
:func:`pi`, :func:`gwet_ac1` …, or :func:`table` for every one that applies; each returns a
:class:`Result` with its :meth:`~Result.confidence_interval`. Distances are in
:mod:`corpusagree.distances`, span agreement (unitizing α, γ) in :mod:`corpusagree.unitizing`,
sense inventories in :mod:`corpusagree.senses`.

>>> import corpusagree as ca
>>> data = ca.ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "y"),
...                                          ("B", 2, "x")])
>>> round(float(ca.alpha(data)), 3)      # as krippendorff.alpha: agreement at chance level
0.0

Each job of the command line is a module of :mod:`corpusagree.analyses` with ``read`` (files →
a :class:`~corpusagree.model.corpus.Corpus`) and ``analyse`` (a corpus → a report with
``tables``, ``to_dict()``, ``to_frame()`` and ``to_html()``).
"""

from . import distances
from ._version import __version__
from .analyses.study import compare, plan
from .model.data import ReliabilityData, SetLabels
from .model.errors import InputError
from .stats.coefficients import (
    DegenerateWarning,
    Result,
    Results,
    S,
    alpha,
    alpha_prime,
    beta,
    bias,
    brennan_prediger,
    compute,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    gwet_ac2,
    kappa,
    kappa_max,
    kappa_w,
    light_kappa,
    multi_kappa,
    mv_alpha,
    percent_agreement,
    pi,
    randolph_kappa,
    table,
)
from .stats.inference import Bootstrap, Interval
from .stats.spec import COEFFICIENTS

__all__ = [
    "COEFFICIENTS", "Bootstrap", "DegenerateWarning", "InputError", "Interval",
    "ReliabilityData", "Result", "Results", "S", "SetLabels", "__version__", "alpha", "alpha_prime",
    "beta", "bias", "brennan_prediger", "compare", "compute", "conger_kappa", "distances",
    "fleiss_kappa",
    "gwet_ac1", "gwet_ac2", "kappa", "kappa_max", "kappa_w", "light_kappa", "multi_kappa",
    "mv_alpha", "percent_agreement", "pi", "plan", "randolph_kappa", "table",
]
