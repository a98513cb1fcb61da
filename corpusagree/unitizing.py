"""Span agreement without pre-set units: Krippendorff's unitizing α family (1995, 2004;
Krippendorff, Mathet, Bouvry & Widlöcher 2016) and Mathet, Widlöcher & Métivier's γ (2015) on
a :class:`Continuum` of units ``(annotator, start, end, category)``.

>>> from corpusagree import unitizing as u
>>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER")], begin=0, end=60)
>>> round(u.alpha_u(c, variant="u").value, 4)
0.8811
>>> round(u.best_alignment(c).disorder, 4)        # ((0 − 1) / (5 + 4))², Mathet et al. §3
0.0123

The continua of annotation files: :func:`from_annotations` (coreference and span readers) and
:func:`from_segmentations` (segmentation readers); the ``spans`` job reads them
(:mod:`corpusagree.analyses.spans`).
"""

from .convert.continuum import from_annotations, from_segmentations
from .model.continuum import Continuum
from .stats.gamma import (
    Alignment,
    Gamma,
    UnitaryAlignment,
    best_alignment,
    gamma,
    positional_dissimilarity,
)
from .stats.unitizing import VARIANTS, UnitizingAlpha, alpha_u

__all__ = ["VARIANTS", "Alignment", "Continuum", "Gamma", "UnitaryAlignment", "UnitizingAlpha",
           "alpha_u", "best_alignment", "from_annotations", "from_segmentations", "gamma",
           "positional_dissimilarity"]
