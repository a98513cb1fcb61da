"""ReliabilityData: coders × items → integer label codes (-1 = missing), plus a label table.

The data model that makes agreement fast: ``codes`` is an ``int32`` array of shape
(coders, items); labels live once in a label table (plain values, or a CSR table of sets for
set-valued labels); optional item groups (documents) and a declared category set.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from numbers import Number
from os import PathLike

import numpy as np

from . import columnar, io
from .errors import InputError, quote

MISSING = -1


@dataclass(frozen=True)
class SetLabels:
    """A table of distinct sets in CSR form: row ``r`` holds ``elements[indptr[r]:indptr[r+1]]``.

    Element ids are integers (sorted and unique within a row); ``element_names`` optionally maps
    them back to the user's element values. One row is shared by every item that carries it, so
    a coreference chain is stored once however many mentions carry it.

    Parameters
    ----------
    indptr : numpy.ndarray
        Row boundaries, of length rows + 1.
    elements : numpy.ndarray
        Element ids, row after row.
    element_names : sequence, optional
        The value of each element id.

    See Also
    --------
    ReliabilityData.from_sets : reliability data over such a table.

    Examples
    --------
    >>> import numpy as np
    >>> import corpusagree as ca
    >>> sets = ca.SetLabels(np.array([0, 2, 3]), np.array([0, 1, 1]), ["m1", "m2"])
    >>> len(sets), sets[0] == frozenset({"m1", "m2"}), sets.sizes.tolist()
    (2, True, [2, 1])
    """

    indptr: np.ndarray
    elements: np.ndarray
    element_names: Sequence | None = None

    def __len__(self) -> int:
        return len(self.indptr) - 1

    @property
    def sizes(self) -> np.ndarray:
        """The number of elements of each set."""
        return np.diff(self.indptr)

    def row(self, r: int) -> frozenset:
        """The set of row ``r`` as a frozenset of element values (ids when there are no
        names).

        Parameters
        ----------
        r : int
            The row.

        Returns
        -------
        frozenset
            Its elements.
        """
        ids = self.elements[self.indptr[r]:self.indptr[r + 1]]
        if self.element_names is None:
            return frozenset(int(e) for e in ids)
        return frozenset(self.element_names[e] for e in ids)

    def __getitem__(self, r: int) -> frozenset:
        return self.row(r)

    def __repr__(self) -> str:
        return f"SetLabels({len(self)} sets of {len(np.unique(self.elements))} elements)"

    def take(self, rows: np.ndarray) -> SetLabels:
        """The sets of ``rows``, in that order, as a new table.

        Parameters
        ----------
        rows : numpy.ndarray
            Row indices.

        Returns
        -------
        SetLabels
        """
        sizes = self.sizes[rows]
        return SetLabels(np.concatenate([[0], np.cumsum(sizes)]),
                         self.elements[ranges(self.indptr[rows], sizes)], self.element_names)


def canonical_sets(indptr: np.ndarray, elements: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort and deduplicate elements within rows, then merge identical rows.

    Returns (new_indptr, new_elements, row_map) with ``row_map[old] = new``; vectorised.
    """
    indptr = np.asarray(indptr, dtype=np.int64)
    elements = np.asarray(elements, dtype=np.int64)
    n = len(indptr) - 1
    row_of = np.repeat(np.arange(n), np.diff(indptr))
    same_row = row_of[1:] == row_of[:-1]
    if not np.all(~same_row | (elements[1:] > elements[:-1])):  # rows not sorted and unique
        order = np.lexsort((elements, row_of))
        row_of, elements = row_of[order], elements[order]
        keep = np.ones(len(elements), bool)
        keep[1:] = (row_of[1:] != row_of[:-1]) | (elements[1:] != elements[:-1])
        row_of, elements = row_of[keep], elements[keep]
    sizes = np.bincount(row_of, minlength=n)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    # Hash every row to find identical ones, then confirm by exact comparison within groups.
    rng = np.random.default_rng(12345)
    w1 = rng.integers(1, 2**61 - 1, size=int(elements.max(initial=0)) + 1, dtype=np.uint64)
    h = np.zeros(n, np.uint64)
    filled = sizes > 0
    if filled.any():  # per-row sums of the element weights (uint64 wraps around)
        h[filled] = np.add.reduceat(w1[elements], starts[:-1][filled])
    h ^= sizes.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    key_order = np.lexsort((sizes, h))
    hs, ss = h[key_order], sizes[key_order]
    new_group = np.ones(n, bool)
    new_group[1:] = (hs[1:] != hs[:-1]) | (ss[1:] != ss[:-1])
    gid_sorted = np.cumsum(new_group) - 1
    rep_sorted = key_order[np.flatnonzero(new_group)][gid_sorted]
    # exact check: each row must equal its group's representative, element by element
    rep = np.empty(n, np.int64)
    rep[key_order] = rep_sorted
    pos = np.arange(len(elements)) - starts[row_of]
    if not np.array_equal(elements, elements[starts[rep[row_of]] + pos]):
        raise RuntimeError("hash collision while merging identical sets")
    uniq_rows, row_map = np.unique(rep, return_inverse=True)
    new_sizes = sizes[uniq_rows]
    new_indptr = np.concatenate([[0], np.cumsum(new_sizes)])
    return new_indptr, elements[ranges(starts[uniq_rows], new_sizes)], row_map


def ranges(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(s, s + k)`` for every (s, k), vectorised."""
    total = int(sizes.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    offsets = np.repeat(starts - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes)
    return np.arange(total) + offsets



def _sorted_values(values: Iterable) -> list:
    """Distinct label values in a stable, readable order (numbers numerically)."""
    vals = list(values)
    try:
        return sorted(vals)
    except TypeError:
        return sorted(vals, key=lambda v: (type(v).__name__, repr(v)))


def _is_missing(v: object) -> bool:
    """None, NaN, and pandas' NA/NaT are missing judgements."""
    return v is None or (isinstance(v, float) and math.isnan(v)) or \
        type(v).__name__ in ("NAType", "NaTType")


@dataclass
class ReliabilityData:
    """Coders × items label codes with a label table (Krippendorff's reliability data).

    ``codes[c, i]`` indexes ``labels`` (a list of values, or :class:`SetLabels`), -1 = missing.
    ``groups[i]`` (optional) indexes ``group_names``: the document (cluster) of each item.
    ``categories`` (optional) declares the category set, e.g. for S. Build it with one of the
    ``from_*`` constructors rather than by hand; every coefficient takes it.

    Parameters
    ----------
    codes : numpy.ndarray
        An ``int32`` array of shape (coders, items): an index into ``labels``, or -1 for a
        missing judgement.
    labels : list or SetLabels
        The label values (sorted), or a table of sets for set-valued labels.
    coders, items : sequence, optional
        Their names (default: 0, 1, …).
    groups : numpy.ndarray, optional
        One group (document) index per item, which the bootstrap resamples.
    group_names : list, optional
        The name of each group.
    categories : list, optional
        The declared categories (S, AC1 and irrCAC's weights count them; the ordinal distance
        orders labels by them).
    raters_identified : bool, default False
        Two coders whose roles differ, as the rows and columns of a contingency table
        (:meth:`from_contingency` sets it): an asymmetric weight matrix then applies
        ``w[first coder's category][second's]`` to each item, as irrCAC's functions on tables
        do, instead of its symmetric part (what raw ratings give, each pair of judgements
        counted in both orders).

    Raises
    ------
    ValueError
        When the shapes disagree, a code is out of range, or a label is not a declared category.

    See Also
    --------
    corpusagree.analyses.table.read : reliability data from a CSV/TSV file, as the command line
        reads it.

    References
    ----------
    .. [1] Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability, §A (the
       reliability data matrix).

    Examples
    --------
    >>> import corpusagree as ca
    >>> data = ca.ReliabilityData.from_matrix([["a", "a", None], ["a", "b", "b"]])
    >>> data
    ReliabilityData(2 coders × 3 items, 2 labels, 1 missing)
    >>> data.codes.tolist(), data.labels
    ([[0, 0, -1], [0, 1, 1]], ['a', 'b'])
    """

    codes: np.ndarray
    labels: list | SetLabels
    coders: list = field(default_factory=list)
    items: Sequence = field(default_factory=list)
    groups: np.ndarray | None = None
    group_names: list | None = None
    categories: list | None = None
    raters_identified: bool = False

    def __post_init__(self) -> None:
        self.codes = np.ascontiguousarray(self.codes, dtype=np.int32)
        if self.codes.ndim != 2:
            raise ValueError("codes must be a coders × items array")
        c, n = self.codes.shape
        if not len(self.coders):
            self.coders = list(range(c))
        if not len(self.items):
            self.items = range(n)  # no million-element list for anonymous items
        if len(self.coders) != c or len(self.items) != n:
            raise ValueError("coders/items do not match the shape of codes")
        if self.codes.size and (self.codes.max() >= len(self.labels) or self.codes.min() < -1):
            raise ValueError("codes must be -1 (missing) or an index into labels")
        if self.groups is not None:
            self.groups = np.asarray(self.groups, dtype=np.int64)
            if self.groups.shape != (n,):
                raise ValueError("groups must have one entry per item")
        if self.categories is not None and not self.is_set:
            unknown = set(self.labels) - set(self.categories)
            if unknown:
                raise ValueError(f"labels not in the declared categories: "
                                 f"{_sorted_values(unknown)[:5]}")

    # ---- shape -------------------------------------------------------------------------------
    @property
    def n_coders(self) -> int:
        """The number of coders (rows of ``codes``)."""
        return self.codes.shape[0]

    @property
    def n_items(self) -> int:
        """The number of items (columns of ``codes``)."""
        return self.codes.shape[1]

    @property
    def n_labels(self) -> int:
        """The number of distinct labels (rows of the set table for set labels)."""
        return len(self.labels)

    @property
    def is_set(self) -> bool:
        """Whether the labels are sets (a :class:`SetLabels` table)."""
        return isinstance(self.labels, SetLabels)

    @cached_property
    def label_totals(self) -> np.ndarray:
        """The judgements of each label (``int64``, one per code): one count over the
        codes, kept; :meth:`from_matrix` keeps the count it makes while coding.

        Returns
        -------
        numpy.ndarray

        Examples
        --------
        >>> import corpusagree as ca
        >>> ca.ReliabilityData.from_matrix([["a", "a", None], ["a", "b", "b"]]).label_totals
        array([3, 2])
        """
        return count_codes(self.codes, 1, self.n_labels + 1)[1:]

    def label(self, code: int):
        """The label value of a code (a frozenset for set labels), None for missing.

        Parameters
        ----------
        code : int
            An entry of ``codes``.

        Returns
        -------
        object
        """
        return None if code < 0 else self.labels[code]

    # ---- derived views -------------------------------------------------------------------------
    def __repr__(self) -> str:
        missing = int((self.codes < 0).sum())
        kind = "sets" if self.is_set else "labels"
        groups = "" if self.group_names is None else f", {len(self.group_names)} groups"
        return (f"ReliabilityData({self.n_coders} coders × {self.n_items} items, "
                f"{self.n_labels} {kind}, {missing} missing{groups})")

    def subset(self, coders: Sequence[int] | None = None, items: np.ndarray | None = None,
               *, compact: bool = False) -> ReliabilityData:
        """The same data restricted to some coders and/or items.

        Parameters
        ----------
        coders : sequence of int, optional
            Coder indices, in the order wanted.
        items : numpy.ndarray, optional
            Item indices, or a boolean mask over the items.
        compact : bool, default False
            Also cut the label table down to the labels still used, so that a distance bound to the
            subset costs what its labels cost (e.g. one document's chains).

        Returns
        -------
        ReliabilityData

        Examples
        --------
        >>> import corpusagree as ca
        >>> data = ca.ReliabilityData.from_matrix([["a", "a", "c"], ["a", "b", "b"],
        ...                                         ["a", "b", "c"]])
        >>> data.subset(coders=[0, 1], items=[0, 1], compact=True)
        ReliabilityData(2 coders × 2 items, 2 labels, 0 missing)
        """
        codes = self.codes
        coder_names, item_names, groups = self.coders, self.items, self.groups
        if coders is not None:
            coders = list(coders)
            codes = codes[coders]
            coder_names = [self.coders[c] for c in coders]
        if items is not None:
            idx = np.flatnonzero(items) if np.asarray(items).dtype == bool else np.asarray(items)
            codes = codes[:, idx]
            item_names = [self.items[i] for i in idx]
            groups = None if groups is None else groups[idx]
        labels = self.labels
        if compact:
            valid = codes >= 0
            used, inv = np.unique(codes[valid], return_inverse=True)
            codes = np.full(codes.shape, MISSING, np.int32)
            codes[valid] = inv.ravel()
            labels = self.labels.take(used) if self.is_set else [self.labels[u]
                                                                  for u in used.tolist()]
        return ReliabilityData(codes, labels, list(coder_names), list(item_names), groups,
                               self.group_names, self.categories)

    # ---- constructors --------------------------------------------------------------------------
    @classmethod
    def from_triples(cls, triples: Iterable[tuple], *, groups: Mapping | None = None,
                     categories: Sequence | None = None, source: str | None = None
                     ) -> ReliabilityData:
        """From ``(coder, item, label)`` triples; labels that are sets make set-valued data.

        Parameters
        ----------
        triples : iterable of (coder, item, label)
            One judgement each; a None or NaN label is missing (the coder and item still count).
        groups : mapping, optional
            Item → group (document), which the bootstrap resamples.
        categories : sequence, optional
            The declared categories.
        source : str, optional
            The file the triples came from, named in errors.

        Returns
        -------
        ReliabilityData

        Raises
        ------
        InputError
            For a duplicate (coder, item) judgement, a triple of another length, or set labels
            mixed with plain ones.

        Examples
        --------
        >>> import corpusagree as ca
        >>> data = ca.ReliabilityData.from_triples(
        ...     [("ann", "u1", "Stat"), ("bob", "u1", "IReq"), ("ann", "u2", "Stat"),
        ...      ("bob", "u2", "Stat")], groups={"u1": "doc1", "u2": "doc2"})
        >>> data
        ReliabilityData(2 coders × 2 items, 2 labels, 0 missing, 2 groups)
        >>> data.coders, data.group_names
        (['ann', 'bob'], ['doc1', 'doc2'])
        >>> sets = ca.ReliabilityData.from_triples([("ann", 1, {"m1", "m2"}), ("bob", 1, {"m1"})])
        >>> sets.is_set
        True
        """
        coder_ix: dict = {}
        item_ix: dict = {}
        label_ix: dict = {}
        cs, its, ls = [], [], []
        seen: dict = {}
        is_set = None
        for n, t in enumerate(triples):
            if len(t) != 3:
                raise InputError(f"triple {n} has {len(t)} fields, expected (coder, item, label)",
                                 source)
            coder, item, label = t
            if _is_missing(label):
                coder_ix.setdefault(coder, len(coder_ix))
                item_ix.setdefault(item, len(item_ix))
                continue
            this_set = isinstance(label, (set, frozenset))
            if is_set is None:
                is_set = this_set
            elif is_set != this_set:
                raise InputError(f"label {quote(label)} of coder {quote(coder)} on item "
                                 f"{quote(item)}: mixing "
                                 "set-valued and plain labels", source)
            if this_set:
                label = frozenset(label)
            key = (coder, item)
            if key in seen:
                raise InputError(f"duplicate judgement by coder {quote(coder)} on item "
                                 f"{quote(item)} "
                                 f"(triples {seen[key]} and {n})", source)
            seen[key] = n
            cs.append(coder_ix.setdefault(coder, len(coder_ix)))
            its.append(item_ix.setdefault(item, len(item_ix)))
            ls.append(label_ix.setdefault(label, len(label_ix)))
        codes = np.full((len(coder_ix), len(item_ix)), MISSING, np.int32)
        if is_set:
            sets = list(label_ix)
            elem_ix: dict = {}
            flat = [elem_ix.setdefault(e, len(elem_ix)) for s in sets for e in s]
            indptr = np.concatenate([[0], np.cumsum([len(s) for s in sets])])
            names = list(elem_ix)
            labels: list | SetLabels
            new_indptr, elements, row_map = canonical_sets(indptr, np.array(flat, np.int64))
            labels = SetLabels(new_indptr, elements, names)
            remap = row_map
        else:
            ordered = _sorted_values(label_ix)
            pos = {v: i for i, v in enumerate(ordered)}
            remap = np.array([pos[v] for v in label_ix], np.int64)
            labels = ordered
        if cs:
            codes[np.array(cs), np.array(its)] = remap[np.array(ls)]
        item_names = list(item_ix)
        g, gnames = _group_codes(item_names, groups)
        return cls(codes, labels, list(coder_ix), item_names, g, gnames,
                   list(categories) if categories is not None else None)

    @classmethod
    def from_matrix(cls, matrix, *, coders: Sequence | None = None,
                    items: Sequence | None = None, groups: Sequence | None = None,
                    categories: Sequence | None = None) -> ReliabilityData:
        """From a coders × items array, nested list or pandas DataFrame (the ``krippendorff``
        package's layout).

        Parameters
        ----------
        matrix : array_like or pandas.DataFrame
            Coders × items; None or NaN is a missing judgement. A DataFrame's index and columns
            name the coders and items.
        coders, items : sequence, optional
            Their names (over a DataFrame's).
        groups : sequence, optional
            The group (document) of each item.
        categories : sequence, optional
            The declared categories.

        Returns
        -------
        ReliabilityData

        Raises
        ------
        ValueError
            When the matrix is not 2-dimensional.

        Examples
        --------
        >>> import numpy as np
        >>> import corpusagree as ca
        >>> data = ca.ReliabilityData.from_matrix(np.array([[1, 2, 3, np.nan], [1, 2, 3, 3]]))
        >>> data, data.labels
        (ReliabilityData(2 coders × 4 items, 3 labels, 1 missing), [1, 2, 3])
        """
        if hasattr(matrix, "columns") and hasattr(matrix, "index"):  # a pandas DataFrame
            coders = list(matrix.index) if coders is None else coders
            items = list(matrix.columns) if items is None else items
            matrix = matrix.to_numpy()
        arr = np.asarray(matrix, dtype=object if not isinstance(matrix, np.ndarray)
                         else None)
        if arr.ndim != 2:
            raise ValueError("matrix must be 2-dimensional (coders × items)")
        totals = None
        if arr.dtype.kind in "fiub":
            codes, labels, totals = _code_numbers(arr)
        else:
            flat = arr.ravel()
            mask = ~np.array([_is_missing(v) for v in flat]).reshape(arr.shape)
            present = flat[mask.ravel()]
            ordered = _sorted_values(set(present))
            pos = {v: i for i, v in enumerate(ordered)}
            inv = np.array([pos[v] for v in present], np.int64)
            labels = ordered
            codes = np.full(arr.shape, MISSING, np.int32)
            codes[mask] = inv
        g = gnames = None
        if groups is not None:
            gnames_arr, g = np.unique(np.asarray(groups, dtype=object).astype(str),
                                      return_inverse=True)
            gnames = list(gnames_arr)
        data = cls(codes, labels, list(coders) if coders is not None else [],
                   list(items) if items is not None else [], g, gnames,
                   list(categories) if categories is not None else None)
        if totals is not None:  # counted while coding: no second count over the codes
            data.__dict__["label_totals"] = totals
        return data

    @classmethod
    def coerce(cls, data, name: str = "data") -> ReliabilityData:
        """``data`` as reliability data: itself when it is, else :meth:`from_matrix` of a
        coders × items array-like, as the ``krippendorff`` package takes its
        ``reliability_data`` (numeric labels are values, NaN or None missing).

        Every coefficient converts its ``data`` through this once.

        Parameters
        ----------
        data : ReliabilityData or array_like
            Reliability data, or coders × items of labels (a numpy array, nested lists, a
            pandas DataFrame).
        name : str, default "data"
            The parameter's name, in the message of an error.

        Returns
        -------
        ReliabilityData

        Raises
        ------
        ValueError
            When ``data`` is not 2-dimensional (coders × items).

        Examples
        --------
        >>> import numpy as np
        >>> import corpusagree as ca
        >>> ca.ReliabilityData.coerce(np.array([[1, 2, 3, np.nan], [1, 2, 2, 3]]))
        ReliabilityData(2 coders × 4 items, 3 labels, 1 missing)
        >>> ca.ReliabilityData.coerce([1, 2, 3])
        Traceback (most recent call last):
        ValueError: data must be coders × items (2-dimensional), not of shape (3,)
        """
        if isinstance(data, cls):
            return data
        if not (isinstance(data, np.ndarray) or hasattr(data, "columns")):
            data = np.asarray(data, dtype=object)  # as from_matrix reads nested lists
        if np.ndim(data) != 2:
            raise ValueError(f"{name} must be coders × items (2-dimensional), "
                             f"not of shape {np.shape(data)}")
        return cls.from_matrix(data)

    @classmethod
    def from_counts(cls, counts, categories: Sequence | None = None, *,
                    items: Sequence | None = None) -> ReliabilityData:
        """From an items × categories table of value counts (Fleiss's 1971 layout).

        How many coders gave each item each category: the layout of Fleiss (1971) and of the
        ``krippendorff`` package's ``value_counts``. The coders are anonymous: item i's judgements
        fill coders 0 … n_i − 1, so only the coefficients that ignore who gave which judgement are
        meaningful: percent agreement, S / Brennan–Prediger / Randolph's κ, π / Fleiss's κ, α′,
        Krippendorff's α and Gwet's AC1/AC2 (and their intervals). The per-coder ones (κ, multi-κ,
        Conger's κ, β, bias, Light's κ) and coder diagnostics are not.

        Parameters
        ----------
        counts : array_like or pandas.DataFrame
            Items × categories of whole numbers ≥ 0. A DataFrame's columns name the categories and
            its index the items.
        categories : sequence, optional
            The categories of the columns (default 1 … q, as irrCAC numbers unnamed categories);
            they are declared, so q counts every column, used or not.
        items : sequence, optional
            The item names.

        Returns
        -------
        ReliabilityData

        Raises
        ------
        ValueError
            When the table is not 2-dimensional, holds other than whole numbers ≥ 0, or the
            categories do not match its columns.

        References
        ----------
        .. [1] Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
           Psychological Bulletin 76(5).

        Examples
        --------
        >>> import corpusagree as ca
        >>> data = ca.ReliabilityData.from_counts([[3, 0, 0], [0, 2, 1], [1, 1, 1]])
        >>> data, round(ca.fleiss_kappa(data).value, 4)
        (ReliabilityData(3 coders × 3 items, 3 labels, 0 missing), 0.1346)
        """
        if hasattr(counts, "columns") and hasattr(counts, "index"):  # a pandas DataFrame
            categories = list(counts.columns) if categories is None else categories
            items = list(counts.index) if items is None else items
            counts = counts.to_numpy()
        table = np.asarray(counts)
        if table.ndim != 2:
            raise ValueError("counts must be an items × categories table")
        if (table < 0).any() or not np.array_equal(table, np.round(table)):
            raise ValueError("counts must be whole numbers ≥ 0")
        table = table.astype(np.int64)
        n, q = table.shape
        cats = list(categories) if categories is not None else list(range(1, q + 1))
        if len(cats) != q or len(set(cats)) != q:
            raise ValueError(f"counts has {q} columns and {len(cats)} distinct categories")
        r_i = table.sum(1)
        labels = np.repeat(np.tile(np.arange(q), n), table.ravel())
        item_of = np.repeat(np.arange(n), r_i)
        starts = np.concatenate([[0], np.cumsum(r_i)[:-1]])
        slot = np.arange(len(labels)) - starts[item_of]
        codes = np.full((max(int(r_i.max(initial=0)), 1), n), MISSING, np.int32)
        codes[slot, item_of] = labels
        return cls(codes, cats, [], list(items) if items is not None else [], None, None,
                   list(cats))

    @classmethod
    def from_contingency(cls, table, categories: Sequence | None = None) -> ReliabilityData:
        """Two coders from their q × q contingency table.

        The coders are identified (``raters_identified``): an asymmetric matrix of agreement
        weights applies ``w[k][l]`` to an item in row k and column l, as irrCAC's functions on
        tables do (Gwet 2014, ch. 3), not its symmetric part as on raw ratings.

        Parameters
        ----------
        table : array_like or pandas.DataFrame
            ``table[k, l]``: the items that the first coder put in category k and the second in l
            (a DataFrame's index names the categories).
        categories : sequence, optional
            The categories of the rows and columns (default 1 … q); they are declared.

        Returns
        -------
        ReliabilityData
            Two coders × the table's total of items.

        Raises
        ------
        ValueError
            When the table is not square or holds other than whole numbers ≥ 0.

        Examples
        --------
        >>> import corpusagree as ca
        >>> pairs = ca.ReliabilityData.from_contingency([[20, 20], [10, 50]], ["Stat", "IReq"])
        >>> pairs, round(ca.kappa(pairs).value, 3)    # Artstein & Poesio 2005, Table 1
        (ReliabilityData(2 coders × 100 items, 2 labels, 0 missing), 0.348)
        """
        if hasattr(table, "columns") and hasattr(table, "index"):
            categories = list(table.index) if categories is None else categories
            table = table.to_numpy()
        t = np.asarray(table)
        if t.ndim != 2 or t.shape[0] != t.shape[1]:
            raise ValueError("a contingency table is square: q × q")
        if (t < 0).any() or not np.array_equal(t, np.round(t)):
            raise ValueError("a contingency table holds whole numbers ≥ 0")
        q = t.shape[0]
        cats = list(categories) if categories is not None else list(range(1, q + 1))
        if len(cats) != q or len(set(cats)) != q:
            raise ValueError(f"the table has {q} rows and {len(cats)} distinct categories")
        cell = np.repeat(np.arange(q * q), t.astype(np.int64).ravel())
        codes = np.stack([cell // q, cell % q]).astype(np.int32)
        return cls(codes, cats, [], [], None, None, list(cats), raters_identified=True)

    @classmethod
    def from_sets(cls, codes: np.ndarray, indptr: np.ndarray, elements: np.ndarray, *,
                  coders: Sequence | None = None, items: Sequence | None = None,
                  element_names: Sequence | None = None, groups: np.ndarray | None = None,
                  group_names: Sequence | None = None) -> ReliabilityData:
        """From codes into a CSR table of sets ``(indptr, elements)``; identical rows are merged.

        The converters of the jobs use this, so that a chain is one row shared by all its mentions
        and no frozenset is built per item.

        Parameters
        ----------
        codes : numpy.ndarray
            Coders × items of row indices into the set table, -1 missing.
        indptr, elements : numpy.ndarray
            The set table (see :class:`SetLabels`).
        coders, items : sequence, optional
            Their names.
        element_names : sequence, optional
            The value of each element id.
        groups : numpy.ndarray, optional
            One group index per item.
        group_names : sequence, optional
            The group names.

        Returns
        -------
        ReliabilityData

        Examples
        --------
        >>> import numpy as np
        >>> import corpusagree as ca
        >>> data = ca.ReliabilityData.from_sets(np.array([[0, 0, 1], [0, 2, 1]]),
        ...                                     np.array([0, 2, 3, 5]), np.array([0, 1, 2, 1, 0]))
        >>> data.n_labels, data.label(int(data.codes[1, 1])) == frozenset({0, 1})
        (2, True)
        >>> round(ca.alpha(data, "jaccard").value, 4)
        1.0
        """
        codes = np.asarray(codes)
        new_indptr, new_elements, row_map = canonical_sets(indptr, elements)
        mapped = np.where(codes >= 0, row_map[np.maximum(codes, 0)], MISSING)
        labels = SetLabels(new_indptr, new_elements, element_names)
        return cls(mapped, labels, list(coders) if coders is not None else [],
                   list(items) if items is not None else [], groups,
                   list(group_names) if group_names is not None else None)

    @classmethod
    def from_csv(cls, path: str | PathLike, *, coder: str = "coder", item: str = "item",
                 label: str = "label", group: str | None = None, delimiter: str | None = None,
                 set_sep: str | None = None, numeric: bool = False,
                 categories: Sequence | None = None) -> ReliabilityData:
        """From a long CSV/TSV file (``-``: standard input), one judgement per row; a
        ``.parquet``, ``.arrow``/``.feather`` or ``.jsonl`` file is that format.

        Read column by column by pyarrow (:mod:`corpusagree.model.columnar`); a file that
        needs Python's csv module (standard input, a quote it reads otherwise) or holds an
        error is read cell by cell, whose messages name the file and line.

        Parameters
        ----------
        path : str or path-like
            The file.
        coder, item, label : str
            The names of the columns.
        group : str, optional
            The column of the group (document) of each item.
        delimiter : str, optional
            The field separator (default: tab, comma or semicolon, from the header).
        set_sep : str, optional
            Split cells on this separator into set labels.
        numeric : bool, default False
            Parse labels as numbers.
        categories : sequence, optional
            The declared categories.

        Returns
        -------
        ReliabilityData

        Raises
        ------
        InputError
            Naming ``file:line``: a missing column, a duplicate judgement, a non-number under
            ``numeric``.

        Examples
        --------
        >>> import corpusagree as ca
        >>> data = ca.ReliabilityData.from_csv("sample_corpora/table/dialogue_acts.csv",
        ...                                    group="document")
        >>> data
        ReliabilityData(4 coders × 72 items, 4 labels, 10 missing, 6 groups)
        """
        fmt = columnar.file_format(path)
        if fmt is not None:  # Parquet, Arrow IPC, JSON Lines
            return cls._from_columns(columnar.from_arrow(
                columnar.read_arrow_file(path, fmt), coder=coder, item=item, label=label,
                group=group, set_sep=set_sep, numeric=numeric, categories=categories,
                missing_cells=True, source=io.display(path)))
        data = columnar.read_long_csv(path, coder=coder, item=item, label=label, group=group,
                                      delimiter=delimiter, set_sep=set_sep, numeric=numeric,
                                      categories=categories)
        if data is not None:
            return cls._from_columns(data)
        # the per-cell reader: quoted fields, standard input, and every error with its line
        triples, groups = io.read_long(path, coder=coder, item=item, label=label, group=group,
                                       delimiter=delimiter, set_sep=set_sep, numeric=numeric)
        return cls.from_triples(triples, groups=groups, categories=categories,
                                source=io.display(path))

    @classmethod
    def from_wide_csv(cls, path: str | PathLike, *, delimiter: str | None = None,
                      set_sep: str | None = None, numeric: bool = False,
                      categories: Sequence | None = None) -> ReliabilityData:
        r"""From a wide table: header ``coder,item1,item2,...``, one row per coder.

        Parameters
        ----------
        path : str or path-like
            The file (``-``: standard input); empty cells are missing.
        delimiter : str, optional
            The field separator (default: from the header).
        set_sep : str, optional
            Split cells on this separator into set labels.
        numeric : bool, default False
            Parse labels as numbers.
        categories : sequence, optional
            The declared categories.

        Returns
        -------
        ReliabilityData

        Raises
        ------
        InputError
            Naming ``file:line`` for a malformed row.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> import corpusagree as ca
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "wide.csv"
        >>> _ = path.write_text("coder,u1,u2,u3\nann,a,b,\nbob,a,b,b\n")
        >>> ca.ReliabilityData.from_wide_csv(path)
        ReliabilityData(2 coders × 3 items, 2 labels, 1 missing)
        """
        data = columnar.read_wide_csv(path, delimiter=delimiter, set_sep=set_sep,
                                      numeric=numeric, categories=categories)
        if data is not None:
            return cls._from_columns(data)
        triples = io.read_wide(path, delimiter=delimiter, set_sep=set_sep, numeric=numeric)
        return cls.from_triples(triples, categories=categories, source=io.display(path))

    @classmethod
    def from_arrow(cls, table, *, coder: str = "coder", item: str = "item",
                   label: str = "label", document: str | None = None, group: str | None = None,
                   set_sep: str | None = None, numeric: bool = False,
                   categories: Sequence | None = None,
                   source: str | None = None) -> ReliabilityData:
        """From a long Arrow table, one judgement per row, encoded column by column.

        Coders and items are numbered in the order of their first row, plain labels sorted, as
        :meth:`from_triples` numbers the same rows; but no Python object is made per row: each
        column is dictionary-encoded by Arrow and the codes scattered into the matrix at once.

        Parameters
        ----------
        table : pyarrow.Table
            The judgements.
        coder, item, label : str
            The names of the columns. A null or NaN label is a missing judgement; a list
            column holds set labels.
        document, group : str, optional
            The column of the document (group) of each item, which the bootstrap resamples
            (either name).
        set_sep : str, optional
            Split text labels on this separator into set labels.
        numeric : bool, default False
            Read text labels as numbers.
        categories : sequence, optional
            The declared categories.
        source : str, optional
            The file the table was read from, named in errors.

        Returns
        -------
        ReliabilityData

        Raises
        ------
        InputError
            A missing column, a duplicate judgement, an item in two documents, a label that is
            not a number under ``numeric``.

        Examples
        --------
        >>> import pyarrow as pa
        >>> import corpusagree as ca
        >>> t = pa.table({"coder": ["a", "b", "a", "b"], "item": [1, 1, 2, 2],
        ...               "label": ["x|y", "x", None, "y"]})
        >>> data = ca.ReliabilityData.from_arrow(t, set_sep="|")
        >>> data, data.label(int(data.codes[0, 0])) == frozenset({"x", "y"})
        (ReliabilityData(2 coders × 2 items, 3 sets, 1 missing), True)
        """
        return cls._from_columns(columnar.from_arrow(
            table, coder=coder, item=item, label=label, group=document or group,
            set_sep=set_sep, numeric=numeric, categories=categories, source=source))

    @classmethod
    def _from_columns(cls, enc: columnar.Encoded) -> ReliabilityData:
        """The reliability data of what the columnar reader encoded (identical sets written
        differently merged into one row of the set table)."""
        labels, codes = enc.labels, enc.codes
        if isinstance(labels, columnar.SetTable):
            indptr, elements, row_map = canonical_sets(labels.indptr, labels.elements)
            codes = np.where(codes >= 0, row_map[np.maximum(codes, 0)], MISSING)
            labels = SetLabels(indptr, elements, labels.names)
        return cls(codes, labels, enc.coders, enc.items, enc.groups, enc.group_names,
                   enc.categories)

    @classmethod
    def from_dataframe(cls, df, *, coder: str = "coder", item: str = "item",
                       label: str = "label", document: str | None = None,
                       group: str | None = None, set_sep: str | None = None,
                       numeric: bool = False,
                       categories: Sequence | None = None) -> ReliabilityData:
        """From a long pandas or polars DataFrame, one judgement per row, through Arrow
        (:meth:`from_arrow`).

        Parameters
        ----------
        df : pandas.DataFrame or polars.DataFrame
            The judgements.
        coder, item, label : str
            The names of the columns (a None, NaN or null label is missing).
        document, group : str, optional
            The column of the document (group) of each item.
        set_sep : str, optional
            Split text labels on this separator into set labels.
        numeric : bool, default False
            Read text labels as numbers.
        categories : sequence, optional
            The declared categories.

        Returns
        -------
        ReliabilityData

        Raises
        ------
        InputError
            When a named column is missing, a judgement is given twice, or an item is in two
            documents.

        Examples
        --------
        >>> import pandas as pd
        >>> import corpusagree as ca
        >>> df = pd.DataFrame({"coder": ["a", "b", "a", "b"], "item": [1, 1, 2, 2],
        ...                    "label": ["x", "x", "y", "x"]})
        >>> ca.ReliabilityData.from_dataframe(df)
        ReliabilityData(2 coders × 2 items, 2 labels, 0 missing)
        """
        group = document or group
        cols = [coder, item, label] + ([group] if group else [])
        missing = [c for c in cols if c not in df.columns]
        if missing:
            raise InputError(f"no column(s) {missing} in DataFrame; columns are "
                             f"{list(df.columns)}")
        import pyarrow as pa
        try:
            if hasattr(df, "to_arrow"):  # polars
                table = df.select(cols).to_arrow()
            else:
                table = pa.Table.from_pandas(df[cols], preserve_index=False)
        except (pa.ArrowException, TypeError, ValueError):  # mixed types in a column
            table = None
        if table is not None:
            return cls.from_arrow(table, coder=coder, item=item, label=label, group=group,
                                  set_sep=set_sep, numeric=numeric, categories=categories)
        triples = list(zip(df[coder], df[item], df[label], strict=True))
        groups = dict(zip(df[item], df[group], strict=True)) if group else None
        return cls.from_triples(triples, groups=groups, categories=categories)


#: judgements per chunk of a count (see count_codes)
COUNT_CHUNK = 250_000
#: values per chunk when coding a numeric matrix (see _code_numbers)
CODE_CHUNK = 65_536


def count_codes(codes: np.ndarray, offset: np.ndarray | int, size: int) -> np.ndarray:
    """``np.bincount(codes + offset, minlength=size)`` of a rows × items array, ``offset`` a
    number or of shape (rows, 1) or (items,), over chunks of items: a chunk's keys stay small
    and in cache (bincount copies them to 64-bit integers), where keys of the whole array cost
    two arrays of its size. A chunk holds at least ``size`` keys, so adding the chunks' counts
    costs less than counting."""
    rows = max(codes.shape[0], 1)
    step = max(COUNT_CHUNK // rows, -(-size // rows), 1)
    per_item = np.ndim(offset) == 1
    out = np.zeros(size, np.int64)
    for start in range(0, codes.shape[1], step):
        part = slice(start, start + step)
        keys = codes[:, part].astype(np.intp) + (offset[part] if per_item else offset)
        out += np.bincount(keys.ravel(), minlength=size)
    return out


def _code_numbers(arr: np.ndarray) -> tuple[np.ndarray, list, np.ndarray | None]:
    """Codes, sorted distinct values and (when counted on the way) the judgements of each
    value, of a numeric matrix (NaN = missing).

    Integer values in a moderate range are coded in O(n), chunk by chunk of items so that
    each step's temporaries stay in cache (this is the hot path of large matrices): a value
    v becomes v − min (−1 for a missing one), whose count tells which values occur; other
    values go through a sort."""
    vals = arr.astype(float, copy=False)
    lo = hi = np.nan
    if vals.size:
        lo, hi = np.fmin.reduce(vals, axis=None), np.fmax.reduce(vals, axis=None)
    if np.isnan(lo):  # every value missing (or none at all)
        return np.full(arr.shape, MISSING, np.int32), [], None
    if hi - lo < 2**24 and abs(lo) < 2**30:
        flat = vals.ravel()  # a view of a contiguous matrix
        codes = np.empty(flat.shape, np.int32)
        span = int(hi - lo) + 2
        counts = np.zeros(span, np.int64)
        shifted = np.empty(min(flat.size, CODE_CHUNK))
        for start in range(0, flat.size, CODE_CHUNK):
            v, c = flat[start:start + CODE_CHUNK], codes[start:start + CODE_CHUNK]
            s = shifted[:len(v)]
            np.subtract(v, lo, out=s)
            np.fmax(s, -1.0, out=s)  # NaN (missing) → −1
            np.copyto(c, s, casting="unsafe")
            mismatched = np.count_nonzero(c != s)  # fractions: sorted instead
            if mismatched:
                break
            counts += np.bincount(c + 1, minlength=span)
        codes = codes.reshape(arr.shape)
        if not mismatched:  # whole numbers only
            present = counts[1:] > 0
            if not present.all():
                lookup = np.concatenate([[MISSING], np.cumsum(present) - 1]).astype(np.int32)
                codes = lookup[codes + 1]
            return (codes, [io.as_number(v) for v in np.flatnonzero(present) + lo],
                    counts[1:][present])
    missing = np.isnan(vals)
    uniq, inv = np.unique(vals[~missing], return_inverse=True)
    codes = np.full(arr.shape, MISSING, np.int32)
    codes[~missing] = inv
    return codes, [io.as_number(v) for v in uniq], None


def _group_codes(item_names: list, groups: Mapping | None
                 ) -> tuple[np.ndarray | None, list | None]:
    if groups is None:
        return None, None
    gix: dict = {}
    try:
        g = np.array([gix.setdefault(groups[i], len(gix)) for i in item_names], np.int64)
    except KeyError as e:
        raise InputError(f"item {quote(e.args[0])} has no group") from None
    return g, list(gix)


def is_number(v: object) -> bool:
    return isinstance(v, Number) and not isinstance(v, bool)


__all__ = ["ReliabilityData", "SetLabels", "MISSING", "is_number"]
