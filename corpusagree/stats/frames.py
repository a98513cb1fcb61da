"""Agreement on data larger than one machine: a Dask frame of judgements, one per row.

The frame is shuffled by item (or by document, when there is one), so that every item lies
whole in one partition and none is counted twice or cut; each partition is encoded against the
label table of the whole frame (coder, label and set-value dictionaries are small and computed
first) and reduced to the additive sums of :mod:`corpusagree.stats.partitioned`; the sums are
added by a tree reduction, and the coefficients formed once from the total — the numbers the
whole data in memory give. With documents, each partition keeps its documents' sums apart, and
the bootstrap clustered by document reweights them.

Dask is an optional dependency (``pip install ".[dask]"``), imported here only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..model import io
from ..model.data import MISSING, ReliabilityData, SetLabels, canonical_sets
from ..model.errors import InputError, quote
from ..model.params import Items, Param, checked
from . import distances as dist
from . import partitioned as pt
from .coefficients import Result
from .inference import Bootstrap, Interval, interval, jackknife_interval


def _dask():
    try:
        import dask
        import dask.dataframe as dd
    except ImportError:
        raise InputError("the dask engine needs Dask: pip install \".[dask]\"") from None
    return dask, dd


def _is_missing(values, missing_cells: bool) -> np.ndarray:
    """Missing labels of a pandas Series: null and NaN, and with ``missing_cells`` the text
    cells of :data:`corpusagree.model.io.MISSING_CELLS` (as files are read)."""
    import pandas as pd
    miss = np.array(pd.isna(values), bool)
    if missing_cells and (values.dtype == object or pd.api.types.is_string_dtype(values.dtype)):
        miss |= np.isin(np.asarray(values.astype(str), object), list(io.MISSING_CELLS))
    return miss


@dataclass
class Labels:
    """The label table of the whole frame and how a partition's cells map to it."""

    labels: list | SetLabels
    #: distinct non-missing cells (as the frame holds them) → their label code
    cells: object
    codes: np.ndarray

    def encode(self, values) -> np.ndarray:
        import pandas as pd
        ix = pd.Index(self.cells).get_indexer(values)
        return np.where(ix >= 0, self.codes[np.maximum(ix, 0)], MISSING)


def _label_table(cells, set_sep: str | None, numeric: bool) -> Labels:
    """The label table of the distinct non-missing cells (a pandas Series), as the columnar
    reader would build it: plain labels sorted (numbers when ``numeric``), set labels
    split, their values stripped, identical sets one row."""
    import pandas as pd
    cells = pd.Series(cells).reset_index(drop=True)
    if set_sep is None:
        if numeric:
            v = pd.to_numeric(cells.astype(str).str.strip(), errors="coerce").to_numpy(float)
            if not np.isfinite(v).all():
                bad = cells[~np.isfinite(v)].iloc[0]
                raise InputError(f"{quote(str(bad))} is not a number")
            uniq, inv = np.unique(v, return_inverse=True)
            return Labels([io.as_number(x) for x in uniq.tolist()], cells, inv)
        uniq, inv = np.unique(cells.to_numpy(), return_inverse=True)
        return Labels(uniq.tolist(), cells, inv)
    parts = cells.astype(str).str.split(set_sep, regex=False).explode()
    row_of = parts.index.to_numpy()
    values = parts.str.strip()
    if numeric:  # every value a number (an empty one too is not)
        v = pd.to_numeric(values, errors="coerce").to_numpy(float)
        if not np.isfinite(v).all():
            raise InputError("a value of a set label is not a number")
        e_uniq, e_codes = np.unique(v, return_inverse=True)
        names = [io.as_number(x) for x in e_uniq.tolist()]
    else:  # empty values dropped: a bare separator is the empty set
        keep = (values != "").to_numpy()
        row_of = row_of[keep]
        e_codes, names_ix = pd.factorize(values[keep])
        names = list(names_ix)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(row_of, minlength=len(cells)))])
    new_indptr, elements, row_map = canonical_sets(indptr, e_codes)
    return Labels(SetLabels(new_indptr, elements, names), cells, row_map)


@dataclass
class DaskData:
    """A Dask frame of judgements prepared for agreement: shuffled so items are whole in
    partitions, with the dictionaries of the whole frame (see :func:`from_dask`)."""

    frame: object
    coder: str
    item: str
    label: str
    document: str | None
    coders: list
    table: Labels
    missing_cells: bool = False
    categories: list | None = None
    #: the size of the data (coders, items, labels, judgements, missing, groups), once
    #: :meth:`results` has counted them
    size: dict = field(default_factory=dict)

    @property
    def template(self) -> ReliabilityData:
        """The label table and coders of the whole frame, without items."""
        return ReliabilityData(np.zeros((len(self.coders), 0), np.int32), self.table.labels,
                               list(self.coders), [], categories=self.categories)

    def _reduce(self, distances: Sequence[dist.Distance], n_k: np.ndarray | None,
                per_document: bool):
        """(total Sums, per-document Sums or None, document names) under each distance,
        bound to the whole data (``n_k``: its pooled counts, when a distance needs them)."""
        dask, _ = _dask()
        template = self.template
        L = template.n_labels
        metrics = [d.bind(template, n_k if n_k is not None else np.ones(L))
                   for d in distances]
        args = (self.coder, self.item, self.label, self.document if per_document else None,
                self.coders, self.table, L, metrics, self.missing_cells)
        parts = [dask.delayed(_partition)(p, *args) for p in self.frame.to_delayed()]
        while len(parts) > 1:  # a tree reduction: pairs of partial sums added, level by level
            parts = [dask.delayed(_combine)(*parts[k:k + 2]) for k in range(0, len(parts), 2)]
        (total, docs, names), = dask.compute(parts[0])
        return total, docs, names

    def results(self, distance="nominal", *, categories: Sequence | None = None,
                bootstrap: Bootstrap | None = None) -> list[tuple[Result, Interval | None]]:
        """Every row of the table (α/β and Gwet families, Light's κ, mvα on sets) under
        ``distance``, each with its interval of the bootstrap clustered by document when
        ``bootstrap`` is given (the frame needs its document column then)."""
        d = dist.get(distance)
        is_set = isinstance(self.table.labels, SetLabels)
        distances = list({x.name: x for x in [dist.get(None), d] + (
            [dist.get("dice")] if is_set else [])}.values())
        n_k = None
        if any(isinstance(x, dist.Ordinal) for x in distances):  # its ranks: a first pass
            n_k = self._reduce([dist.get(None)], None, False)[0].n_k
        if bootstrap is not None and self.document is None:
            raise InputError("the bootstrap of the dask engine resamples documents: name the "
                             "document column")
        total, docs, _ = self._reduce(distances, n_k, bootstrap is not None)
        judged = int(total.F.sum())
        self.size = {"coders": len(self.coders), "items": int(total.n_items),
                     "labels": len(self.table.labels), "judgements": judged,
                     "missing": len(self.coders) * int(total.n_items) - judged,
                     "groups": None if docs is None else len(docs.n_judged)}
        template = self.template
        metrics = [x.bind(template, total.n_k) for x in distances]
        rows = pt.specs(int((total.F.sum(1) > 0).sum()), d, is_set, total.pairs is not None)
        cats = list(categories) if categories is not None else self.categories
        found = pt.coefficients(total, template, distances, metrics, rows, cats)
        if bootstrap is None:
            return [(r, None) for r in found]
        U = len(docs.n_judged)
        which = [k for k, (c, _) in enumerate(rows) if c.resamplable]  # not Light's κ
        boot = [rows[k] for k in which]
        out: list[tuple[Result, Interval | None]] = [(res, None) for res in found]
        if bootstrap.interval == "jackknife":  # leave one document out, no replicates
            jack = pt.reweighted_values(docs, 1.0 - np.eye(U), template, distances, metrics,
                                        boot, cats)
            for r, k in enumerate(which):
                res = found[k]
                out[k] = (res, jackknife_interval(res.id, res.distance, res.value, jack[r],
                                                  bootstrap, clustered=True, units=U))
            return out
        reps = pt.reweighted_values(docs, pt.draws(U, bootstrap.n_resamples, bootstrap.seed),
                                    template, distances, metrics, boot, cats)
        jack = None

        def jackknife(r: int) -> np.ndarray:
            nonlocal jack
            if jack is None:
                jack = pt.reweighted_values(docs, 1.0 - np.eye(U), template, distances,
                                            metrics, boot, cats)
            return jack[r]

        for r, k in enumerate(which):
            res = found[k]
            out[k] = (res, interval(res.id, res.distance, res.value, reps[r], bootstrap,
                                    lambda r=r: jackknife(r), clustered=True, units=U))
        return out


def _combine(a, b=None):
    """Two partial results added (the per-document sums put side by side)."""
    if b is None:
        return a
    (sa, da, na), (sb, db, nb) = a, b
    return sa + sb, None if da is None else pt.concat_units(da, db), na + nb


def _partition(df, coder, item, label, document, coders, table: Labels, L, metrics,
               missing_cells):
    """One partition (a pandas frame of whole items) → (Sums, per-document Sums, names)."""
    import pandas as pd
    c = pd.Index(coders).get_indexer(df[coder])
    i_codes, i_names = pd.factorize(df[item])
    N, C = len(i_names), len(coders)
    values = df[label]
    miss = _is_missing(values, missing_cells)
    lab = np.full(len(df), MISSING, np.int64)
    if (~miss).any():
        lab[~miss] = table.encode(values[~miss])
    key = c.astype(np.int64) * max(N, 1) + i_codes
    if len(np.unique(key)) != len(key):
        k = pd.Series(key).duplicated().to_numpy().argmax()
        who, what = (v.item() if isinstance(v, np.generic) else v
                     for v in (df[coder].iloc[k], df[item].iloc[k]))
        raise InputError(f"duplicate judgement by coder {quote(who)} on item {quote(what)}")
    codes = np.full((C, N), MISSING, np.int32)
    codes[c, i_codes] = lab
    if document is None:
        return pt.part_sums(codes, L, metrics), None, []
    d_codes, d_names = pd.factorize(df[document])
    d_item = np.empty(N, np.int64)
    d_item[i_codes] = d_codes
    if not np.array_equal(d_item[i_codes], d_codes):
        raise InputError("an item is in two documents")
    per = pt.part_sums(codes, L, metrics, d_item, len(d_names))
    total = pt.total(per)
    total.pairs = pt.pair_sums(codes, L, metrics)
    return total, per, list(d_names)


@checked(Param("frame", object, accepts="a Dask DataFrame"), Param("coder", str),
         Param("item", str), Param("label", str), Param("document", str, none=True),
         Param("set_sep", str, none=True), Param("numeric", bool),
         Param("categories", Items, none=True), Param("missing_cells", bool))
def from_dask(frame, *, coder: str = "coder", item: str = "item", label: str = "label",
              document: str | None = None, set_sep: str | None = None, numeric: bool = False,
              categories: Sequence | None = None, missing_cells: bool = False) -> DaskData:
    """Judgements in a Dask DataFrame (one per row) prepared for agreement past one machine.

    The frame is shuffled by ``document`` (or by ``item`` without one), so that no item is
    split over partitions; the coders and the distinct labels of the whole frame are computed
    first (a small reduction), so every partition codes its labels alike. The coefficients
    (:meth:`DaskData.results`) then come from per-partition sufficient statistics added by a
    tree reduction (:mod:`corpusagree.stats.partitioned`): the same numbers as the data in
    memory.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        The judgements.
    coder, item, label : str
        The names of the columns; a null or NaN label is a missing judgement.
    document : str, optional
        The column of each item's document, which the bootstrap resamples.
    set_sep : str, optional
        Labels are sets of values separated by it.
    numeric : bool, default False
        Read labels as numbers (interval, ordinal and ratio distances).
    categories : sequence, optional
        The declared categories.
    missing_cells : bool, default False
        Also read the text cells of :data:`corpusagree.model.io.MISSING_CELLS` as missing (as
        files are read).

    Returns
    -------
    DaskData

    Raises
    ------
    InputError
        A missing column; Dask not installed.

    References
    ----------
    .. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta), §5.1.

    Examples
    --------
    >>> import pandas as pd
    >>> import dask.dataframe as dd
    >>> import corpusagree as ca
    >>> df = pd.DataFrame({"coder": list("abab"), "item": [1, 1, 2, 2],
    ...                    "label": ["x", "x", "y", "x"]})
    >>> data = ca.from_dask(dd.from_pandas(df, npartitions=2))
    >>> (result, interval), *rest = data.results()
    >>> result.id, round(result.value, 4), interval
    ('percent_agreement', 0.5, None)
    """
    _dask()
    cols = [coder, item, label] + ([document] if document else [])
    lost = [c for c in cols if c not in frame.columns]
    if lost:
        raise InputError(f"no column(s) {lost} in the frame; columns are "
                         f"{list(frame.columns)}")
    frame = frame[cols]
    coders_s, cells = _dictionaries(frame, coder, label, missing_cells)
    table = _label_table(cells, set_sep, numeric)
    shuffled = frame.shuffle(on=document or item)
    return DaskData(shuffled, coder, item, label, document, coders_s, table, missing_cells,
                    list(categories) if categories is not None else None)


def _strip_text(df):
    """A partition with its text cells stripped of surrounding white space (as files are
    read)."""
    out = df.copy()
    for col in out.columns:
        if out[col].dtype == object or str(out[col].dtype).startswith("string"):
            out[col] = out[col].str.strip()
    return out


def read(paths, *, coder: str = "coder", item: str = "item", label: str = "label",
         group: str | None = None, delimiter: str | None = None, set_sep: str | None = None,
         numeric: bool = False, categories: Sequence | None = None) -> DaskData:
    """Long tables as one Dask frame — Parquet, Arrow IPC, JSON Lines or CSV/TSV, a path or a
    glob such as ``'logs/*.parquet'`` — prepared by :func:`from_dask` as files are read:
    text cells stripped, :data:`~corpusagree.model.io.MISSING_CELLS` missing."""
    _, dd = _dask()
    from ..model import columnar
    first = str(paths[0] if isinstance(paths, (list, tuple)) else paths)
    fmt = columnar.file_format(first)
    cols = [coder, item, label] + ([group] if group else [])
    try:
        if fmt == "parquet":
            frame = dd.read_parquet(paths, columns=cols)
        elif fmt == "jsonl":
            frame = dd.read_json(paths, lines=True, blocksize=2**26)[cols]
        elif fmt == "arrow":
            raise InputError("the dask engine reads Parquet, JSON Lines and CSV/TSV; convert "
                             "Arrow IPC files to Parquet", first)
        else:
            frame = dd.read_csv(paths, sep=delimiter or ("\t" if first.endswith(".tsv")
                                                         else ","),
                                dtype=str, keep_default_na=False, usecols=cols,
                                blocksize=2**26)
    except (OSError, ValueError) as e:
        if isinstance(e, InputError):
            raise
        raise InputError(f"cannot read with dask: {str(e).splitlines()[0]}", first) from None
    frame = frame.map_partitions(_strip_text)
    return from_dask(frame, coder=coder, item=item, label=label, document=group,
                     set_sep=set_sep, numeric=numeric, categories=categories,
                     missing_cells=True)


def scheduler(address: str | None):
    """A context in which Dask computes: the distributed scheduler at ``address`` (a
    ``distributed.Client``), else Dask's local scheduler (threads, out of core)."""
    import contextlib
    if address is None:
        return contextlib.nullcontext()
    try:
        from distributed import Client
    except ImportError:
        raise InputError(f"scheduler={quote(address)} needs dask.distributed: pip install "
                         "\".[dask]\"") from None
    return Client(address)


def _dictionaries(frame, coder, label, missing_cells):
    """The coders (sorted) and the distinct non-missing label cells of the whole frame."""
    dask, _ = _dask()
    coders = frame[coder].drop_duplicates()
    cells = frame[label].dropna().drop_duplicates()
    coders, cells = dask.compute(coders, cells)
    cells = cells[~_is_missing(cells, missing_cells)]
    try:
        coders = sorted(coders.tolist())
    except TypeError:
        coders = coders.tolist()
    return coders, cells


__all__ = ["DaskData", "from_dask", "read", "scheduler"]
