"""``corpusagree table``: every coefficient of a reliability-data file.

Reliability data are a long CSV/TSV table (one judgement per row) or a wide coder × item table.
The report holds every applicable coefficient of Artstein & Poesio's family (2005) — the
unweighted family, then the family under the chosen distance — with bootstrap intervals
(clustered by the group column, e.g. documents, when there is one) and, on request, the
diagnostics that say why agreement is low.

>>> from corpusagree.analyses import table
>>> data = table.read("sample_corpora/table/dialogue_acts.csv")      # doctest: +SKIP
>>> report = table.analyse(data, distance="nominal")                  # doctest: +SKIP
>>> report.coefficients.to_frame()                                    # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from ..model import io
from ..model.corpus import natural_key
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..stats import distances as dist
from ..stats.coefficients import compute, table_specs
from ..stats.inference import Bootstrap
from .base import (
    Column,
    Estimate,
    Records,
    Report,
    Table,
    estimate_table,
    estimates,
    first_alpha,
    quiet,
)
from .diagnose import Diagnostics, diagnose

#: distances whose labels are numbers
NUMERIC = {"interval", "ordinal", "ratio"}


def read(path: str | PathLike, *, wide: bool = False, coder: str = "coder",
         item: str = "item", label: str = "label", group: str | None = None,
         delimiter: str | None = None, set_sep: str | None = None, numeric: bool = False,
         categories: Sequence | None = None, annotators: Sequence[str] | None = None
         ) -> ReliabilityData:
    """Reliability data from a long table (columns ``coder``, ``item``, ``label`` and an
    optional ``group`` column such as the document) or, with ``wide``, a coder × item table;
    ``-`` reads standard input. ``numeric`` parses labels (and ``categories``) as numbers;
    ``annotators`` keeps only those coders."""
    if numeric and categories is not None:
        categories = [io.parse_number(str(c), "--categories", None) for c in categories]
    try:
        if wide:
            data = ReliabilityData.from_wide_csv(path, delimiter=delimiter, set_sep=set_sep,
                                                 numeric=numeric, categories=categories)
        else:
            data = ReliabilityData.from_csv(path, coder=coder, item=item, label=label,
                                            group=group, delimiter=delimiter, set_sep=set_sep,
                                            numeric=numeric, categories=categories)
    except ValueError as e:  # the data contradict an option (e.g. a label outside --categories)
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), io.display(path)) from None
    if annotators is None:
        return data
    lost = [a for a in annotators if a not in data.coders]
    if lost:
        raise InputError(f"annotators not found: {', '.join(lost)}; the coders are "
                         f"{', '.join(map(str, data.coders))}", io.display(path))
    return data.subset(coders=[data.coders.index(a) for a in annotators])


def distance(name: str = "nominal", weights: str | PathLike | None = None) -> dist.Distance:
    """The distance of a name, or the weight matrix of a file (rows ``a,b,distance`` or a
    square matrix with a header row); a malformed weight file is an InputError naming it."""
    if weights is None:
        return dist.get(name)
    matrix, labels = io.read_weights(weights)
    try:
        return dist.Matrix(matrix) if labels is None else dist.Matrix(matrix, labels)
    except ValueError as e:
        raise InputError(str(e), io.display(weights)) from None


def numeric_labels(distance: str | dist.Distance) -> bool:
    """Whether a distance needs numeric labels (interval, ordinal, ratio)."""
    return isinstance(distance, str) and distance in NUMERIC or \
        isinstance(distance, dist.Distance) and distance.name in NUMERIC


@dataclass(repr=False)
class TableReport(Report):
    """Every applicable coefficient of one reliability-data set (see the module docstring)."""

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    coders: int
    items: int
    labels: int
    judgements: int
    missing: int
    groups: int | None
    coefficients: Records
    diagnostics: Diagnostics | None
    notes: list[str]
    #: with the diagnostics of data in groups: α of each group (None otherwise)
    by_group: Records | None = None
    job = "table"

    def body(self) -> dict:
        return {"data": {"coders": self.coders, "items": self.items, "labels": self.labels,
                         "judgements": self.judgements, "missing": self.missing,
                         "groups": self.groups},
                "coefficients": self.coefficients, "diagnostics": self.diagnostics,
                "by_group": self.by_group}

    def summary(self) -> str:
        where = ", ".join(self.inputs) or "data"
        groups = "" if self.groups is None else f" in {self.groups} groups"
        return (f"{where}: {self.coders} coders × {self.items} items{groups}, {self.labels} "
                f"labels, {self.missing} missing judgements")

    def headline(self) -> Estimate | None:
        return first_alpha(self.coefficients)

    def tables(self) -> list[Table]:
        out = [estimate_table("coefficients", "Coefficients", self.coefficients)]
        if self.diagnostics is not None:
            out += self.diagnostics.tables()
        if self.by_group is not None:
            d = self.options["distance"]
            out.append(Table("by_group", f"α ({d}) per group", [
                Column("group", "group"), Column("items", "items", "int"),
                Column("alpha", f"α ({d})", "float")],
                [[r["group"], r["items"], r["alpha"]] for r in self.by_group],
                ["nan: α undefined in the group (one coder, or one value)"]
                if any(math.isnan(r["alpha"]) for r in self.by_group) else []))
        return out


def analyse(data: ReliabilityData, *, distance="nominal", categories: Sequence | None = None,
            bootstrap: Bootstrap | None = None, diagnostics: int | None = None,
            reference=None, inputs: Sequence[str] = (), progress=None) -> TableReport:
    """Every applicable coefficient of ``data`` (the unweighted family, then the family under
    ``distance``), with bootstrap intervals when ``bootstrap`` is given, and with
    ``diagnostics`` = N the diagnostics listing the N costliest items (and each coder against
    a ``reference`` coder). A coefficient that cannot be computed on these data is an
    InputError naming the input."""
    d = distance if isinstance(distance, dist.Distance) else dist.get(distance)
    source = ", ".join(inputs) or None
    notes: list[str] = []
    try:
        rows = estimates(data, table_specs(data, d), bootstrap, progress=progress, notes=notes,
                         categories=categories)
        diag = None if diagnostics is None else diagnose(data, d, n_items=diagnostics,
                                                         reference=reference)
        by_group = None if diag is None or data.group_names is None else _by_group(data, d)
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), source) from None
    options = {"distance": d.name, "categories": list(categories) if categories else None,
               "diagnostics": diagnostics, "reference": reference}
    return TableReport(list(inputs), options, bootstrap, data.n_coders, data.n_items,
                       data.n_labels, int((data.codes >= 0).sum()),
                       int((data.codes < 0).sum()),
                       None if data.group_names is None else len(data.group_names), rows, diag,
                       notes + ([] if diag is None else diag.notes), by_group)


def _by_group(data: ReliabilityData, d: dist.Distance) -> Records:
    """α of each group's items (nan where undefined), as the jobs on documents give it."""
    out = Records()
    for g, name in enumerate(data.group_names):
        mask = data.groups == g
        r = quiet(compute, "alpha", data.subset(items=mask, compact=True), d)
        out.append({"group": name, "items": int(mask.sum()),
                    "alpha": r if isinstance(r, float) else r.value})
    return out


# ---- a folder of reliability-data files (the ``report`` job) --------------------------------
#: name endings of reliability-data files
SUFFIXES = (".csv", ".tsv")
#: the name ending (before the suffix) of the weight matrix of a reliability-data file
WEIGHTS = ".weights"


def table_files(folder: Path) -> list[Path]:
    """The reliability-data files directly in ``folder``, in natural order: ``.csv``/``.tsv``
    files whose header has the columns coder, item and label (the long layout), or starts with
    a coder column (the wide layout, ``coder,item1,item2,…``); not ``X.weights.csv``, the
    weight matrix of ``X.csv``, nor segeval's ``Coder,Masses`` and ``Coder,Positions``
    files."""
    out = []
    for f in sorted(Path(folder).iterdir(), key=lambda p: natural_key(p.name)):
        if not f.is_file() or f.name.startswith(".") or f.suffix.lower() not in SUFFIXES \
                or f.stem.lower().endswith(WEIGHTS):
            continue
        header = _header(f)
        if {"coder", "item", "label"} <= set(header) or (
                len(header) >= 2 and header[0].lower() == "coder"
                and header[1].lower() not in ("masses", "positions")):
            out.append(f)
    return out


def _header(path: Path) -> list[str]:
    """The cells of a file's first line, split on its tab, comma or semicolon."""
    try:
        with open(path, "rb") as fh:
            first = fh.readline(65536).decode("utf-8-sig", "replace").strip()
    except OSError:
        return []
    sep = next((c for c in "\t,;" if c in first), ",")
    return [c.strip().strip('"') for c in first.split(sep)]


def from_folder(folder: Path, bootstrap: Bootstrap | None = None, *,
                diagnostics: int | None = None) -> list[TableReport]:
    """One report per reliability-data file of ``folder`` (:func:`table_files`; ``X.weights.csv``
    is the weight matrix of ``X.csv``), with the options read off each file by
    :func:`file_options`."""
    out = []
    for f in table_files(folder):
        opts = file_options(f)
        data = read(f, wide=opts["wide"], group=opts["group"], numeric=opts["numeric"])
        out.append(analyse(data, distance=distance(opts["distance"], opts["weights"]),
                           bootstrap=bootstrap, diagnostics=diagnostics, inputs=[str(f)]))
    return out


def file_options(path: Path) -> dict:
    """Options of one reliability-data file, read off the file itself: the long layout when the
    header has coder/item/label (group column ``document`` if present), else wide; the interval
    distance when every label is a number; ``X.weights.csv`` beside ``X.csv`` is its weight
    matrix."""
    rows = [r for _, r in io.read_table(path)]
    header = [h.strip() for h in rows[0]] if rows else []
    long = {"coder", "item", "label"} <= set(header)
    at = header.index("label") if long else 0
    # a row too short for its label is left to the reader, which names its line
    cells = [r[at] for r in rows[1:] if len(r) > at] if long else \
        [c for r in rows[1:] for c in r[1:]]
    numeric = all(io.is_number_text(c) for c in cells if c.strip())
    weights = path.with_name(path.stem + WEIGHTS + path.suffix)
    return {"wide": not long, "group": "document" if "document" in header else None,
            "numeric": numeric and not weights.exists(),
            "distance": "interval" if numeric else "nominal",
            "weights": weights if weights.exists() else None}
