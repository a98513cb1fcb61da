"""Repeated runs of the same coders: which runs and items a coder's consistency with itself
is measured on, how many of the items change between runs, and which run of each coder
takes part in the agreement between coders in each run.

The rules are written once for scores (the ``ratings`` job: a test–retest ICC) and labels
(the ``table`` job: α, κ and percent agreement between a coder's runs). A judgement is
"present" where a coder gave it in a run; the arrays are coders × runs × items.

>>> import numpy as np
>>> present = np.ones((2, 3, 4), bool)
>>> present[1, 1:] = False  # the second coder judged in the first run only
>>> [(r.coder, r.runs.tolist()) for r in within(present)]
[(0, [0, 1, 2])]
>>> members(present.any(axis=2)).tolist()  # run × coder: the run each coder takes part with
[[0, 0], [1, 0], [2, 0]]

References
----------
.. [1] Abercrombie, G., Rieser, V. and Hovy, D. (2023). Consistency is key: disentangling
   label variation in natural language processing with intra-annotator agreement.
   arXiv:2301.10684 (intra-annotator agreement: the same annotator's labels of the same
   items at two times).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Within", "changed", "members", "uneven_note", "within"]


@dataclass(frozen=True, repr=False)
class Within:
    """One coder's runs, for its agreement with itself.

    Attributes
    ----------
    coder : int
        The coder's index.
    runs : numpy.ndarray
        The indices of the runs it judged in (two or more).
    items : numpy.ndarray
        A mask over the items: those every one of its runs judged (the ones measured on).
    uneven : bool
        Its runs judged different items.
    """

    coder: int
    runs: np.ndarray
    items: np.ndarray
    uneven: bool


def within(present: np.ndarray) -> list[Within]:
    """Each coder with two runs or more, the items all of its runs judged.

    Parameters
    ----------
    present : numpy.ndarray of bool
        Coders × runs × items: where a coder gave a judgement in a run.

    Returns
    -------
    list of Within
        In coder order; coders with one run are left out.

    Examples
    --------
    >>> import numpy as np
    >>> p = np.ones((1, 2, 3), bool)
    >>> p[0, 1, 2] = False
    >>> w, = within(p)
    >>> w.items.tolist(), w.uneven
    ([True, True, False], True)
    """
    has = present.any(axis=2)
    out = []
    for c in np.flatnonzero(has.sum(axis=1) >= 2):  # a loop over coders, not items
        runs = np.flatnonzero(has[c])
        p = present[c, runs]
        out.append(Within(int(c), runs, p.all(axis=0), bool((p != p[0]).any())))
    return out


def changed(values: np.ndarray) -> float:
    """The share of items whose judgement differs between two of the runs.

    Parameters
    ----------
    values : numpy.ndarray
        Runs × items, every cell judged (scores, or integer label codes).

    Returns
    -------
    float
        NaN without items.

    Examples
    --------
    >>> changed(np.array([[1, 2, 3, 3], [1, 2, 4, 3]]))
    0.25
    """
    if values.shape[1] == 0:
        return float("nan")
    return float((values != values[0]).any(axis=0).mean())


def members(has: np.ndarray) -> np.ndarray:
    """For each run, the run each coder takes part with in the agreement between coders: its
    own, or its only run when it judged once (people who judged once beside a model run
    several times); −1 where a coder has neither.

    Parameters
    ----------
    has : numpy.ndarray of bool
        Coders × runs: the runs each coder judged in.

    Returns
    -------
    numpy.ndarray of int
        Runs × coders.

    Examples
    --------
    >>> members(np.array([[True, True, False], [True, False, False],
    ...                   [False, True, True]])).tolist()
    [[0, 0, -1], [1, 0, 1], [-1, 0, 2]]
    """
    runs = np.arange(has.shape[1])
    only = np.where(has.sum(axis=1) == 1, has.argmax(axis=1), -1)
    return np.where(has.T, runs[:, None], only[None, :])


def uneven_note(coder: str, measure: str, what: str = "judged") -> str:
    """The note for a coder whose runs cover different items."""
    return (f"the runs of {coder} cover different items: its {measure} is on the items "
            f"every run {what}")
