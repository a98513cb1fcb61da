"""Results as plain data: what ``to_dict()`` and ``to_frame()`` of every result object use.

:func:`plain` makes a JSON-ready copy of a result (numpy scalars and arrays as Python values,
frozensets as sorted lists of strings, objects with ``to_dict`` through it); :func:`frame`
makes a pandas DataFrame of rows of such results, nested dicts flattened into
``outer_inner`` columns. pandas is optional: it is imported when a frame is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np


def plain(value: Any) -> Any:
    """A JSON-ready copy: numpy scalars and arrays as Python values, frozensets as sorted
    lists of strings, objects through their ``to_dict``; nan stays a float (the JSON renderer
    writes it as null).

    Examples
    --------
    >>> plain({"x": np.float64(0.5), "s": frozenset({"b", "a"}), "m": np.eye(2, dtype=int)})
    {'x': 0.5, 's': ['a', 'b'], 'm': [[1, 0], [0, 1]]}
    """
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return plain(value.to_dict())
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, (set, frozenset)):
        return sorted(map(str, value))
    if isinstance(value, np.generic):
        return value.item()
    return value


def flat(d: dict, prefix: str = "") -> dict:
    """A dict with nested dicts spread into ``outer_inner`` keys.

    >>> flat({"a": 1, "interval": {"low": 0.1, "high": 0.9}})
    {'a': 1, 'interval_low': 0.1, 'interval_high': 0.9}
    """
    out: dict = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flat(v, f"{prefix}{k}_"))
        else:
            out[f"{prefix}{k}"] = v
    return out


def frame(rows: Iterable[Any]):
    """A pandas DataFrame with one row per result (or dict), nested dicts flattened.

    A column with no value at all (an interval without a bootstrap, say) is a float column of
    nan, as the same column is when some rows have a value: one schema whether or not the
    values were computed, never an object column of None.

    Examples
    --------
    >>> f = frame([{"value": 0.5, "interval": {"low": None, "high": None}}])
    >>> f.dtypes.tolist(), f["interval_low"].isna().all()
    ([dtype('float64'), dtype('float64'), dtype('float64')], np.True_)
    """
    import pandas as pd

    df = pd.DataFrame([flat(plain(r)) for r in rows])
    empty = [c for c in df.columns if df[c].dtype == object and df[c].isna().all()]
    if empty and len(df):
        df[empty] = df[empty].astype(float)
    return df


class CoderMatrix:
    """A square coder × coder matrix with its coders' names.

    It behaves as the array (``np.asarray``, indexing by position or by names, ``shape``,
    ``tolist``) and has ``to_frame()`` (names as index and columns) and ``to_dict()``
    (``{"coders": names, "matrix": values}``).

    Parameters
    ----------
    names : sequence
        The coders, in the order of the rows and columns.
    values : array_like
        The square matrix, nan where a pair is undefined.

    Raises
    ------
    ValueError
        When the shape does not match the names.

    Examples
    --------
    >>> from corpusagree.model.records import CoderMatrix
    >>> m = CoderMatrix(["ann", "bob"], [[1.0, 0.5], [0.5, 1.0]])
    >>> m["ann", "bob"], m[0, 1], m.shape
    (0.5, 0.5, (2, 2))
    >>> m.to_frame()
         ann  bob
    ann  1.0  0.5
    bob  0.5  1.0
    """

    def __init__(self, names, values) -> None:
        self.names = [str(n) for n in names]
        self.values = np.asarray(values, dtype=float)
        if self.values.shape != (len(self.names), len(self.names)):
            raise ValueError(f"a {len(self.names)}-coder matrix cannot have shape "
                             f"{self.values.shape}")

    def _index(self, key):
        if isinstance(key, tuple) and all(isinstance(k, str) for k in key):
            return tuple(self.names.index(k) for k in key)
        return key

    def __getitem__(self, key):
        out = self.values[self._index(key)]
        return float(out) if np.ndim(out) == 0 else out

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)

    def __len__(self) -> int:
        return len(self.names)

    @property
    def shape(self) -> tuple[int, ...]:
        """(coders, coders)."""
        return self.values.shape

    def tolist(self) -> list:
        """The values as nested lists."""
        return self.values.tolist()

    def __repr__(self) -> str:
        return f"CoderMatrix({len(self.names)} coders: {', '.join(self.names[:6])}" + \
            (", …)" if len(self.names) > 6 else ")")

    def to_dict(self) -> dict:
        """``{"coders": names, "matrix": values}``."""
        return {"coders": list(self.names), "matrix": plain(self.values)}

    def to_frame(self):
        """The matrix as a pandas DataFrame, coders as index and columns."""
        import pandas as pd

        return pd.DataFrame(self.values, index=self.names, columns=self.names)


__all__ = ["CoderMatrix", "flat", "frame", "plain"]
