"""Reliability data tables, the input of the table and annotators jobs: a long CSV/TSV table
(one judgement per row: coder, item, label and an optional group column) or a wide coder ×
item table, recognised from the header (:func:`.discover.table_layout`); or the categorical
judgements of an annotation platform's export (:data:`PLATFORMS`: Label Studio, Prodigy,
doccano, Argilla, a Hugging Face dataset), recognised by the sniff of its reader.

The parsing itself is :meth:`~corpusagree.model.data.ReliabilityData.from_csv` and
:meth:`~corpusagree.model.data.ReliabilityData.from_wide_csv`; this module chooses between
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from ..model import io
from ..model.data import ReliabilityData
from ..model.errors import InputError
from . import discover, judged
from .judged import PLATFORMS, platform

#: the layouts of a reliability-data table, then the platforms' exports
LAYOUTS = ("long", "wide", *PLATFORMS)


def read(path: str | PathLike, layout: str = "auto", *, coder: str = "coder",
         item: str = "item", label: str = "label", group: str | None = None,
         delimiter: str | None = None, set_sep: str | None = None, numeric: bool = False,
         categories: Sequence | None = None, swap: str | None = None
         ) -> tuple[str, ReliabilityData]:
    """The layout read (``long`` or ``wide``) and the reliability data of one table.

    ``layout="auto"``: long when the header has the coder, item and label columns, wide when
    its first cell is the coder column (standard input, ``-``, is long). ``swap``: the column
    of the order a pairwise judgement was shown in (long layout; :func:`.io.read_long`,
    each item the pair in one order). The other arguments
    are those of :meth:`~corpusagree.model.data.ReliabilityData.from_csv`; with ``numeric``
    the ``categories`` are numbers too.

    >>> layout, data = read("sample_corpora/table/dialogue_acts.csv")
    >>> layout, data.n_coders
    ('long', 4)
    """
    if layout not in ("auto", *LAYOUTS):
        raise InputError(f"unknown table format {layout!r}; known: {', '.join(LAYOUTS)}")
    io.check_delimiter(delimiter)
    if layout == "auto" and str(path) != "-":
        layout = platform(Path(path)) or layout
    if layout in PLATFORMS:
        return layout, judged.read(Path(path), layout, coder=coder, item=item, label=label,
                                   group=group)
    if layout == "auto":
        layout = "long" if str(path) == "-" else \
            (discover.table_layout(Path(path), coder, item, label) or "long")
    if numeric and categories is not None:
        categories = [io.parse_number(str(c), "--categories", None) for c in categories]
    try:
        if swap is not None and layout == "long":
            triples, groups = io.read_long(path, coder=coder, item=item, label=label,
                                           group=group, delimiter=delimiter, set_sep=set_sep,
                                           numeric=numeric, swap=swap)
            data = ReliabilityData.from_triples(triples, groups=groups, categories=categories,
                                                source=io.display(path))
        elif swap is not None:
            raise InputError("the swap column needs the long layout (one judgement per row)",
                             io.display(path))
        elif layout == "wide":
            data = ReliabilityData.from_wide_csv(path, delimiter=delimiter, set_sep=set_sep,
                                                 numeric=numeric, categories=categories)
        else:
            data = ReliabilityData.from_csv(path, coder=coder, item=item, label=label,
                                            group=group, delimiter=delimiter, set_sep=set_sep,
                                            numeric=numeric, categories=categories)
    except ValueError as e:  # the data contradict an option (e.g. a label outside categories)
        if isinstance(e, InputError):
            raise
        raise InputError(str(e), io.display(path)) from None
    return layout, data


def read_runs(path: str | PathLike, *, run: str, coder: str = "coder", item: str = "item",
              label: str = "label", group: str | None = None, delimiter: str | None = None,
              numeric: bool = True, set_sep: str | None = None
              ) -> tuple[dict[str, list[tuple]], dict | None]:
    """The judgements of a long table with repeated runs: run → its (coder, item, label)
    triples (runs in the order they first appear) and the item → group map. Labels are
    numbers (``numeric``, the scores of the ratings job) or as :func:`.io.read_long` reads
    them (categories, sets with ``set_sep``).

    A file whose run column has one value, or where no coder judges an item in two runs, is
    an InputError (there is nothing to repeat); so is a row with an empty run cell.

    >>> runs, _ = read_runs("sample_corpora/ratings/essays_runs.csv", run="run")
    >>> list(runs), len(runs["2"])
    (['1', '2', '3'], 80)
    """
    io.check_delimiter(delimiter)
    rows, groups = io.read_long(path, coder=coder, item=item, label=label, group=group,
                                delimiter=delimiter, numeric=numeric, set_sep=set_sep,
                                run=run)
    runs: dict[str, list[tuple]] = {}
    for c, i, v, r in rows:
        runs.setdefault(r, []).append((c, i, v))
    seen: dict = {}
    for c, i, _, r in rows:
        seen.setdefault((c, i), set()).add(r)
    if len(runs) < 2 or max(len(v) for v in seen.values()) < 2:
        what = "score" if numeric else "label"
        what = f"has one value ({next(iter(runs))!r})" if len(runs) < 2 else \
            f"never repeats a coder's {what} of an item"
        raise InputError(f"the run column {run!r} {what}: no judgement is repeated; leave "
                         "out --run", io.display(path))
    return runs, groups


__all__ = ["LAYOUTS", "PLATFORMS", "platform", "read", "read_runs"]
