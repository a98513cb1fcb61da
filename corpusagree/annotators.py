"""Who can be trusted: models of the annotators and the alternative annotator test, on the same
:class:`~corpusagree.ReliabilityData` as the agreement coefficients (coders are the
annotators; missing judgements allowed; plain labels of any hashable kind).

Agreement coefficients say how much a group agrees; these models say which annotator to trust
and what the most likely label of each item is (Artstein & Poesio 2005, §6.2 point to such
latent-class models of the coders): :func:`majority_vote`, :func:`wawa`, :func:`dawid_skene`,
:func:`one_coin`, :func:`glad` and :func:`mace` each return an :class:`AnnotatorModel` with
``labels`` (item → label), ``posteriors`` (items × labels), ``skill`` (annotator →
reliability), ``confusion`` where the model has one, ``log_likelihood``, ``iterations``,
``to_dict()`` and ``to_frame()``. :func:`alt_test` asks whether a model annotator can take a
human's place (Calderon, Reichart & Dror 2025).

>>> from corpusagree import ReliabilityData
>>> from corpusagree import annotators as an
>>> data = ReliabilityData.from_matrix([["x", "x", "y", "y", "x", "y"],
...                                     ["x", "x", "y", "y", "y", "y"],
...                                     ["x", "y", "y", "x", "x", "y"]],
...                                    coders=["ann1", "ann2", "ann3"])
>>> ds = an.dawid_skene(data)
>>> [ds.labels[i] for i in range(6)]
['x', 'x', 'y', 'y', 'x', 'y']
>>> {a: round(s, 3) for a, s in ds.skill.items()}
{'ann1': 1.0, 'ann2': 0.833, 'ann3': 0.667}
>>> round(ds.confusion["ann2"]["x"]["y"], 3)    # P(ann2 says y | the truth is x)
0.333

Conventions that change the numbers follow crowd-kit 1.4.2 (Dawid–Skene, one-coin, GLAD, the
votes) and Hovy et al.'s MACE release; each model's docstring says which.
"""

from .stats.annotators.alt_test import AltTest, alt_test, benjamini_yekutieli, by_adjusted
from .stats.annotators.dawid_skene import dawid_skene, one_coin
from .stats.annotators.glad import glad
from .stats.annotators.mace import mace
from .stats.annotators.result import AnnotatorModel, LabelledMatrix
from .stats.annotators.vote import majority_vote, wawa

#: the models by name, in the order a report shows them
MODELS = {"majority_vote": majority_vote, "wawa": wawa, "dawid_skene": dawid_skene,
          "one_coin": one_coin, "glad": glad, "mace": mace}

__all__ = ["MODELS", "AltTest", "AnnotatorModel", "LabelledMatrix", "alt_test",
           "benjamini_yekutieli", "by_adjusted", "dawid_skene", "glad", "mace", "majority_vote",
           "one_coin", "wawa"]
