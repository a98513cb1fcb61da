"""Models of the annotators: who to trust and what the most likely label of each item is.

One module per concept, all on the judgements of a :class:`~corpusagree.model.data.
ReliabilityData` flattened to arrays (:mod:`.annotations`):

* :mod:`.vote`: majority vote and Wawa (worker agreement with aggregate);
* :mod:`.dawid_skene`: Dawid & Skene's (1979) confusion-matrix model and its one-coin form;
* :mod:`.glad`: Whitehill et al.'s (2009) abilities and difficulties;
* :mod:`.mace`: Hovy et al.'s (2013) MACE (knowing or guessing annotators);
* :mod:`.result`: the typed result every model returns;
* :mod:`.alt_test`: Calderon, Reichart & Dror's (2025) alternative annotator test.

The public home is :mod:`corpusagree.annotators`.
"""


__all__: list[str] = []
