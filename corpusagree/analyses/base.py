"""What the jobs share: coefficients with their intervals and readings (:class:`Estimate`,
:func:`estimates`), their tables (:func:`estimate_table`), and the small helpers of every
analysis.

A job's report subclasses :class:`corpusagree.report.document.Report` (the envelope of the
JSON document, ``to_dict()``, ``to_json()``, ``to_html()`` …) and gives its content as the
:class:`~corpusagree.report.tables.Table` s and :class:`~corpusagree.report.tables.Plot` s of
:mod:`corpusagree.report.tables`, which the renderers draw.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..model.data import ReliabilityData
from ..model.params import Param
from ..model.records import plain  # noqa: F401  (benchmarks import it from here)
from ..report.tables import (
    Column,
    Records,
    Table,
    bootstrap_caption,
)
from ..stats import interpret
from ..stats import spec as coefficient_table
from ..stats.coefficients import DegenerateWarning, Result, compute
from ..stats.inference import Bootstrap, Interval, bootstrap
from ..stats.kernel import kernel
from ..stats.spec import for_coders

__all__ = ["BOUNDARY_COEFFICIENTS", "ITEMS", "KEYWORDS", "Estimate", "by_run_table",
           "coefficient_rows", "estimate_table", "estimates", "first_alpha", "interval_dict",
           "odd_one_out", "quiet", "retest_table", "several", "title"]


#: the keywords every job's ``analyse`` takes, as it checks them first (each job's table adds
#: its own: its ``PARAMS``, from which the command line's types and choices are made too)
KEYWORDS = (Param("bootstrap", Bootstrap, none=True, accepts="a corpusagree.Bootstrap"),
            Param("by_document", bool),
            Param("diagnostics", int, low=1, none=True),
            Param("progress", Callable, none=True, accepts="a function progress(done, total)"))
#: the types of a keyword that takes several values (names, measures …)
ITEMS = (list, tuple, set, frozenset)


def several(name: str, none: bool = False) -> Param:
    """The check of a keyword that takes several values: a list, tuple or set."""
    return Param(name, ITEMS, none=none, accepts="a list, tuple or set")


# ---- coefficients with intervals ---------------------------------------------------------------
@dataclass(repr=False)
class Estimate:
    """A coefficient's :class:`~corpusagree.Result` with its bootstrap interval and readings.

    Parameters
    ----------
    result : Result
        The coefficient's value with the quantities it was computed from.
    interval : Interval, optional
        None when no interval was asked for.

    Examples
    --------
    >>> import corpusagree as ca
    >>> from corpusagree.analyses import table
    >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
    >>> alpha = report.coefficients[5]
    >>> alpha.id, round(alpha.value, 4), alpha.conventions()["krippendorff"]["label"]
    ('alpha', 0.4193, 'below .667: discounted')
    """

    result: Result
    interval: Interval | None = None

    def __repr__(self) -> str:
        return f"Estimate({self.result!r}, interval={self.interval!r})"

    @property
    def id(self) -> str:
        """The coefficient's id."""
        return self.result.id

    @property
    def value(self) -> float:
        """The coefficient's value."""
        return self.result.value

    @property
    def chance_corrected(self) -> bool:
        """False for A_o and B, which are not read on the conventional scales."""
        return coefficient_table.get(self.id).chance_corrected

    def conventions(self) -> dict | None:
        """Where the value falls on Krippendorff's and Landis & Koch's scales.

        Conventions, not verdicts (Artstein & Poesio 2005, §5.2).

        Returns
        -------
        dict or None
            ``{"krippendorff": …, "landis_koch": …}``; None for A_o and B.
        """
        if not self.chance_corrected:
            return None
        return {k: r.as_dict() if r else None
                for k, r in interpret.readings(self.result.value).items()}

    def to_dict(self) -> dict:
        """The result, its interval and its readings, as the JSON writes a coefficient."""
        return {**self.result.as_dict(), "interval": interval_dict(self.interval),
                "conventions": self.conventions()}


def interval_dict(iv: Interval | None) -> dict | None:
    """An interval as JSON beneath its coefficient (which names the coefficient and distance)."""
    if iv is None:
        return None
    return {k: v for k, v in iv.as_dict().items() if k not in ("coefficient", "distance")}


def first_alpha(rows: Iterable[Estimate]) -> Estimate | None:
    """The first α (or α′) of ``rows``, else the first row, else None."""
    rows = list(rows)
    return next((e for e in rows if e.id.startswith("alpha")), rows[0] if rows else None)


def odd_one_out(names: Sequence[str], matrix: np.ndarray) -> tuple[str, ...]:
    """The name whose removal raises the mean over the other pairs of a symmetric matrix most
    (as a 1-tuple, for :attr:`Table.marked`); empty with fewer than three names, or when no
    removal raises the mean."""
    n = len(names)
    r, s = np.triu_indices(n, 1)
    vals = np.asarray(matrix, dtype=float)[r, s]
    ok = ~np.isnan(vals)
    best, odd = (vals[ok].mean() if ok.any() else np.nan), ()
    for a in range(n if n >= 3 else 0):
        rest = vals[(r != a) & (s != a) & ok]
        if rest.size and rest.mean() > best:
            best, odd = rest.mean(), (str(names[a]),)
    return odd


def quiet(fn: Callable, *args, **kwargs):
    """``fn(...)`` with DegenerateWarning silenced; nan when the coefficient is undefined for
    the data (ValueError: too few coders or judgements)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        try:
            return fn(*args, **kwargs)
        except ValueError:
            return float("nan")


def estimates(data: ReliabilityData, specs: Sequence[tuple[str, Any]],
              settings: Bootstrap | None = None, *, progress=None, notes: list[str] | None = None,
              categories=None) -> Records:
    """Every (coefficient id, distance) of ``specs`` on ``data``, with bootstrap intervals on
    the same replicates when ``settings`` is given (coefficients the bootstrap cannot resample,
    Light's κ, get none). Replicates that give no value are counted into ``notes``."""
    results = [compute(c, data, d if coefficient_table.get(c).weighted else None,
                       categories) for c, d in specs]
    intervals: list[Interval | None] = [None] * len(results)
    if settings is not None:
        which = [j for j, (c, _) in enumerate(specs) if coefficient_table.get(c).resamplable]
        found = bootstrap(data, [(specs[j][0], results[j]._kernel.distance) for j in which],
                          settings, progress=progress)
        for j, iv in zip(which, found, strict=True):
            intervals[j] = iv
            if notes is not None and iv.dropped:
                notes.append(f"{results[j].symbol} ({iv.distance}): {iv.dropped} of "
                             f"{iv.n_resamples} resamples gave no value and were left out of "
                             "its interval")
            if notes is not None and iv.note:
                notes.append(f"{results[j].symbol} ({iv.distance}): {iv.note}")
    return Records(Estimate(r, i) for r, i in zip(results, intervals, strict=True))


#: the coefficients of boundary agreement on potential boundaries labelled yes/no (Passonneau
#: & Litman 1993; Carletta 1996)
BOUNDARY_COEFFICIENTS = ("percent_agreement", "pi", "kappa", "alpha", "bias")


def coefficient_rows(data: ReliabilityData, ids: Sequence[str], distances: Sequence[Any],
                     settings: Bootstrap | None = None, progress=None,
                     notes: list[str] | None = None) -> Records:
    """The coefficients ``ids`` under each distance (κ is Davies & Fleiss's multi-κ beyond two
    coders), with intervals on the same replicates when ``settings`` are given."""
    n = kernel(data, None).n_coders
    return estimates(data, [(for_coders(c, n), d) for d in distances for c in ids], settings,
                     progress=progress, notes=notes)


def estimate_table(id: str, title: str, rows: Iterable[Estimate], *,
                   lead: Sequence[tuple[Column, Callable[[Estimate], Any]]] = (),
                   notes: Sequence[str] = ()) -> Table:
    """A table of coefficients: optional leading columns, then coefficient, distance, value,
    the interval and Krippendorff's q = P(coefficient < .667) when there are intervals, Do,
    De and the conventional reading."""
    rows = list(rows)
    ivs = [e.interval for e in rows if e.interval is not None]
    cols = [c for c, _ in lead] + [Column("id", "id", hidden=True),
                                   Column("coefficient", "coefficient"),
                                   Column("distance", "distance"),
                                   Column("value", "value", "float")]
    if ivs:
        cols += [Column("interval", f"{ivs[0].level:.0%} CI", "interval"),
                 Column("q", "q", "float", 3)]
    cols += [Column("observed", "Do", "float", optional=True),
             Column("expected", "De", "float", optional=True),
             Column("reading", "K · L&K", optional=True)]
    body = []
    for e in rows:
        r = e.result
        line = [f(e) for _, f in lead] + [r.id, r.symbol, r.distance, r.value]
        if ivs:
            iv = e.interval
            line += [None if iv is None else (iv.low, iv.high),
                     iv.q.get(0.667) if iv is not None and e.chance_corrected else None]
        line += [r.observed, r.expected,
                 interpret.short(r.value) if e.chance_corrected else None]
        body.append(line)
    out_notes = list(notes) + list(dict.fromkeys(
        n for e in rows if (n := coefficient_table.get(e.id).note))) + [interpret.SHORT_LEGEND]
    if ivs:
        out_notes += [bootstrap_caption(ivs),
                      "q: Krippendorff's q, the share of replicates below .667"]
    return Table(id, title, cols, body, out_notes)


# ---- repeated runs -------------------------------------------------------------------------
def retest_table(title: str, rows: Iterable[dict],
                 measures: Sequence[tuple[Column, Callable[[dict], Any]]],
                 what: str = "judgement") -> Table:
    """The table of each coder with itself across runs (:mod:`corpusagree.stats.runs`):
    coder, runs, items, the job's measures, and the share of items that changed."""
    cols = [Column("coder", "coder"), Column("runs", "runs", "int"),
            Column("items", "items", "int"), *(c for c, _ in measures),
            Column("changed", "changed", "share", 1)]
    body = [[r["coder"], r["runs"], r["items"], *(f(r) for _, f in measures), r["changed"]]
            for r in rows]
    return Table("retest", title, cols, body,
                 [f"changed: the share of items whose {what} differs between two of the "
                  "coder's runs"])


def by_run_table(title: str, rows: Iterable[dict],
                 measures: Sequence[tuple[Column, Callable[[dict], Any]]]) -> Table:
    """The table of the agreement between coders in each run: run, items, the job's
    measures (:func:`corpusagree.stats.runs.members`: who takes part)."""
    cols = [Column("run", "run"), Column("items", "items", "int"), *(c for c, _ in measures)]
    body = [[r["run"], r["items"], *(f(r) for _, f in measures)] for r in rows]
    return Table("by_run", title, cols, body,
                 ["a coder who judged in one run takes part in every run with it"])


def title(inputs: Sequence[str], default: str) -> str:
    """The one path, or the folder the paths share and how many they are."""
    if not inputs:
        return default
    if len(inputs) == 1:
        return str(inputs[0])
    common = Path(os.path.commonpath([Path(p).absolute() for p in inputs]))
    try:
        common = common.relative_to(Path.cwd())
    except ValueError:
        pass
    return f"{common}/ ({len(inputs)} paths)"
