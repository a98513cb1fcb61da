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

from importlib import import_module as _import_module

from ._version import __version__
from .model.errors import InputError

#: where each public name lives: imported when first used (PEP 562), so that ``import
#: corpusagree`` and ``corpusagree --help`` do not load numpy and scipy
_HOMES = {
    "ReliabilityData": "model.data", "SetLabels": "model.data",
    "Bootstrap": "stats.inference", "Interval": "stats.inference",
    "COEFFICIENTS": "stats.spec", "distances": None,
    **dict.fromkeys([
        "DegenerateWarning", "Result", "Results", "S", "alpha", "alpha_prime", "beta", "bias",
        "brennan_prediger", "compute", "conger_kappa", "fleiss_kappa", "gwet_ac1", "gwet_ac2",
        "kappa", "kappa_max", "kappa_w", "light_kappa", "multi_kappa", "mv_alpha",
        "percent_agreement", "pi", "randolph_kappa", "table"], "stats.coefficients"),
    # scores (issue 32)
    **dict.fromkeys(["BlandAltmanResult", "CccResult", "PairResults", "bland_altman", "ccc"],
                    "stats.concordance"),
    **dict.fromkeys(["IccResult", "IccTable", "icc", "icc_table"], "stats.icc"),
    **dict.fromkeys(["KendallResult", "kendall_w"], "stats.kendall"),
    "from_dask": "stats.frames",  # tables past one machine (issue 36)
    **dict.fromkeys(["compare", "plan"], "analyses.study"),  # study design (issue 35)
    "schema": "analyses.jobs",  # the report document's JSON Schema, with every job's part
}


def __getattr__(name: str):
    """A public name, imported on first use (PEP 562)."""
    if name not in _HOMES:
        raise AttributeError(f"module 'corpusagree' has no attribute {name!r}")
    home = _HOMES[name]
    value = _import_module(f".{name}" if home is None else f".{home}", __name__)
    if home is not None:
        value = getattr(value, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "COEFFICIENTS", "Bootstrap", "DegenerateWarning", "InputError", "Interval",
    "ReliabilityData", "Result", "Results", "S", "SetLabels", "__version__", "alpha", "alpha_prime",
    "beta", "bias", "brennan_prediger", "compare", "compute", "conger_kappa", "distances",
    "fleiss_kappa",
    "gwet_ac1", "gwet_ac2", "kappa", "kappa_max", "kappa_w", "light_kappa", "multi_kappa",
    "mv_alpha", "percent_agreement", "pi", "plan", "randolph_kappa", "table",
    # scores (issue 32)
    "BlandAltmanResult", "CccResult", "IccResult", "IccTable", "KendallResult", "PairResults",
    "bland_altman", "ccc", "icc", "icc_table", "kendall_w",
    # tables past one machine (issue 36)
    "from_dask",
    # the JSON Schema of the report document
    "schema",
]
