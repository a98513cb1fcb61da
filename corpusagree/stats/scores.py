"""Numeric scores for the statistics of ratings (ICC, CCC, Bland–Altman, Kendall's W).

:func:`as_scores` turns :class:`~corpusagree.model.data.ReliabilityData` with numeric labels
(as the interval distance reads them) or a coders × items array-like (NaN or None missing)
into :class:`Scores`, a float matrix with the coders' and items' names, after the checks every
statistic of scores shares: numbers only, two coders or more, two ratings or more per item.
:meth:`Scores.complete` is listwise deletion with its note.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..model.data import ReliabilityData, _is_missing, is_number
from ..model.errors import InputError, quote
from ..model.params import Param


@dataclass(frozen=True)
class Scores:
    """Coders × items scores as floats, NaN where a coder gave no score.

    Attributes
    ----------
    values : numpy.ndarray
        A float array of shape (coders, items).
    coders, items : sequence
        Their names.

    Examples
    --------
    >>> s = as_scores([[1, 2, None], [2, 3, 4]], "icc", min_ratings=1)
    >>> s.values.shape, s.complete("icc")[0].values.shape
    ((2, 3), (2, 2))
    """

    values: np.ndarray
    coders: Sequence
    items: Sequence

    @property
    def rated(self) -> np.ndarray:
        """The boolean mask of the scores given."""
        return ~np.isnan(self.values)

    def complete(self, name: str) -> tuple[Scores, int]:
        """Listwise deletion: the items every coder scored, and how many were left out.

        Parameters
        ----------
        name : str
            The statistic, named in the error.

        Returns
        -------
        (Scores, int)

        Raises
        ------
        InputError
            When fewer than two items are left.
        """
        keep = ~np.isnan(self.values).any(axis=0)
        left_out = int(keep.size - np.count_nonzero(keep))
        if left_out == 0:
            return self, 0
        if np.count_nonzero(keep) < 2:
            raise InputError(f"{name}: {np.count_nonzero(keep)} of {keep.size} items are "
                             "scored by every coder; listwise deletion needs 2 or more "
                             "(try missing='reml')")
        idx = np.flatnonzero(keep)
        return Scores(self.values[:, idx], self.coders, _take(self.items, idx)), left_out


def _take(names: Sequence, idx: np.ndarray) -> Sequence:
    if isinstance(names, range):
        return [names[i] for i in idx] if len(idx) < 1000 else np.asarray(names)[idx]
    return [names[i] for i in idx]


def listwise_note(left_out: int, total: int) -> str | None:
    """The note of listwise deletion (None when nothing was left out)."""
    if not left_out:
        return None
    return (f"listwise deletion: {left_out} of {total} items left out (a coder's score "
            "missing)")


def as_scores(data, name: str, *, min_coders: int = 2, min_ratings: int = 2) -> Scores:
    """The scores of ``data`` as a float matrix, checked.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Reliability data with numeric labels, or coders × items numbers (a nested list, a
        numpy array, a dict of coder → scores, or a pandas DataFrame, coders as its index),
        NaN or None missing.
    name : str
        The statistic, named in the errors.
    min_coders : int, default 2
        The coders it needs.
    min_ratings : int, default 2
        The scores each item needs.

    Returns
    -------
    Scores

    Raises
    ------
    InputError
        When a score is not a number (coder, item and value named), there are too few coders
        or items, or an item has too few scores (the first such item named, and how many).

    Examples
    --------
    >>> import corpusagree as ca
    >>> as_scores(ca.ReliabilityData.from_matrix([[1, 2], [2, 2]]), "icc").values
    array([[1., 2.],
           [2., 2.]])
    >>> as_scores([[1, "x"], [2, 2]], "icc")
    Traceback (most recent call last):
    ...
    corpusagree.model.errors.InputError: icc: the score of coder 0 on item 1 is not a number: 'x'
    """
    if isinstance(data, ReliabilityData):
        scores = _from_data(data, name)
    else:
        scores = _from_array(data, name)
    c, n = scores.values.shape
    if c < min_coders:
        raise InputError(f"{name} needs {min_coders} coders or more; got {c}")
    if n < 2:
        raise InputError(f"{name} needs 2 items or more; got {n}")
    counts = np.count_nonzero(scores.rated, axis=0)
    few = np.flatnonzero(counts < min_ratings)
    if few.size:
        i = int(few[0])
        more = f" (and {few.size - 1} more such items)" if few.size > 1 else ""
        raise InputError(f"{name}: item {quote(scores.items[i])} has {counts[i]} "
                         f"score{'s' * int(counts[i] != 1)}; every item needs {min_ratings} or "
                         f"more{more}")
    return scores


def _from_data(data: ReliabilityData, name: str) -> Scores:
    if data.is_set:
        raise InputError(f"{name} needs numeric scores, not sets")
    bad = [v for v in data.labels if not is_number(v)]
    if bad:
        c, i = np.argwhere(data.codes == data.labels.index(bad[0]))[0]
        raise InputError(f"{name}: the score of coder {quote(data.coders[c])} on item "
                         f"{quote(data.items[i])} is not a number: {quote(bad[0])}")
    lv = np.append(np.asarray(data.labels, float), np.nan)  # code -1 reads the last: NaN
    return Scores(lv[data.codes], list(data.coders), data.items)


def _from_array(data, name: str) -> Scores:
    coders = items = None
    if hasattr(data, "columns") and hasattr(data, "index"):  # a pandas DataFrame
        coders, items = list(data.index), list(data.columns)
        data = data.to_numpy()
    elif isinstance(data, Mapping):  # coder → scores
        coders, data = list(data), [list(v) for v in data.values()]
    arr = data if isinstance(data, np.ndarray) else np.asarray(data, dtype=object)
    if arr.ndim != 2:
        raise InputError(f"{name} needs a coders × items matrix; got {arr.ndim} dimension"
                         f"{'s' * (arr.ndim != 1)}")
    if arr.dtype.kind in "fiu":
        values = arr.astype(float, copy=False)
    else:
        flat = arr.ravel()
        gone = np.fromiter((_is_missing(v) for v in flat), bool, flat.size)
        ok = gone | np.fromiter((is_number(v) for v in flat), bool, flat.size)
        if not ok.all():
            c, i = divmod(int(np.flatnonzero(~ok)[0]), arr.shape[1])
            raise InputError(f"{name}: the score of coder "
                             f"{quote(c if coders is None else coders[c])} on item "
                             f"{quote(i if items is None else items[i])} is not a number: "
                             f"{quote(flat[c * arr.shape[1] + i])}")
        values = np.array([np.nan if g else float(v) for v, g in zip(flat, gone, strict=True)],
                          float).reshape(arr.shape)
    if np.isinf(values).any():
        c, i = np.argwhere(np.isinf(values))[0]
        raise InputError(f"{name}: the score of coder {quote(int(c))} on item {quote(int(i))} "
                         "is infinite")
    return Scores(values, coders if coders is not None else list(range(arr.shape[0])),
                  items if items is not None else range(arr.shape[1]))


#: a confidence level, as every statistic of scores takes it
CONFIDENCE = Param("confidence", float, low=0, high=1, closed="neither")


__all__ = ["CONFIDENCE", "Scores", "as_scores", "listwise_note"]
