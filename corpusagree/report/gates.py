"""Gates: a coefficient a report must reach, for pipelines that accept a batch of annotation.

A gate names a coefficient of a report and a threshold: ``alpha=0.8`` holds when the report's α
is at least 0.8, ``alpha.low=0.667`` when the lower bound of its interval is. The coefficient is
found by its id (``alpha``, ``kappa``, ``gwet_ac1``, ``muc_f1`` …: the hidden ``id`` column of a
report's tables, as ``--format csv`` writes it) in the report's headline first, then in its
tables in the order a reader meets them; the first match decides, and the outcome names the
table it came from. An undefined value never passes. A gate naming a coefficient the report does
not hold is an error listing the ids it holds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["BOUNDS", "Gate", "Outcome", "check", "parse"]

#: what a gate can bound: the value, or the low end of its interval
BOUNDS = ("value", "low")

_GATE = re.compile(r"^\s*([A-Za-z_][\w-]*)(?:\.(value|low))?\s*=\s*([^=\s]+)\s*$")


@dataclass(frozen=True)
class Gate:
    """A threshold a coefficient must reach.

    Parameters
    ----------
    coefficient : str
        The coefficient's id (``alpha``).
    threshold : float
        The least acceptable value.
    bound : {"value", "low"}
        The estimate, or the lower bound of its interval.

    Examples
    --------
    >>> parse("alpha.low=0.667")
    Gate(coefficient='alpha', threshold=0.667, bound='low')
    """

    coefficient: str
    threshold: float
    bound: str = "value"

    def __str__(self) -> str:
        name = self.coefficient if self.bound == "value" else f"{self.coefficient}.low"
        return f"{name}={self.threshold:g}"


@dataclass(frozen=True)
class Outcome:
    """A gate and what the report holds.

    Attributes
    ----------
    gate : Gate
    value : float
        The value compared (nan when undefined).
    table : str
        The id of the table it came from (``headline`` for the report's headline).
    passed : bool
        ``value ≥ threshold`` (False when undefined).
    """

    gate: Gate
    value: float
    table: str
    passed: bool

    @property
    def shortfall(self) -> float:
        """How far below the threshold (0 when it passed, nan when undefined)."""
        if math.isnan(self.value):
            return float("nan")
        return max(0.0, self.gate.threshold - self.value)

    def message(self) -> str:
        """One line for people: what fell short and by how much, or that it passed."""
        what = "its interval's lower bound" if self.gate.bound == "low" else "the value"
        name = str(self.gate).split("=")[0]
        if math.isnan(self.value):
            return (f"{name} is undefined ({self.table}): the gate {self.gate} is not met")
        if self.passed:
            return f"{name} = {self.value:.4f} ≥ {self.gate.threshold:g}: passed ({self.table})"
        return (f"{name} = {self.value:.4f} < {self.gate.threshold:g}: {what} fell short by "
                f"{self.shortfall:.4f} ({self.table})")

    def to_dict(self) -> dict:
        """The outcome as plain data (the ``gates`` of the JSON document)."""
        return {"coefficient": self.gate.coefficient, "bound": self.gate.bound,
                "threshold": self.gate.threshold,
                "value": None if math.isnan(self.value) else self.value, "table": self.table,
                "passed": self.passed}


def parse(text: str | Gate) -> Gate:
    """A gate from ``COEF=VALUE`` or ``COEF.low=VALUE``.

    Parameters
    ----------
    text : str or Gate

    Returns
    -------
    Gate

    Raises
    ------
    ValueError
        Not of that form, or a threshold that is not a finite number.

    Examples
    --------
    >>> parse("alpha=0.8")
    Gate(coefficient='alpha', threshold=0.8, bound='value')
    """
    if isinstance(text, Gate):
        return text
    if not isinstance(text, str):
        raise TypeError(f"a gate is a string COEF=VALUE or COEF.low=VALUE, not {text!r}")
    m = _GATE.match(text)
    if not m:
        raise ValueError(f"a gate is COEF=VALUE or COEF.low=VALUE (e.g. alpha=0.8, "
                         f"alpha.low=0.667), not {text!r}")
    try:
        threshold = float(m.group(3))
    except ValueError:
        raise ValueError(f"the threshold of the gate {text!r} is not a number") from None
    if not math.isfinite(threshold):
        raise ValueError(f"the threshold of the gate {text!r} is not a finite number")
    return Gate(m.group(1), threshold, m.group(2) or "value")


def _candidates(report: Any) -> Iterable[tuple[str, dict]]:
    """(table id, record) of every row with a coefficient id: the headline first."""
    head = report.headline() if hasattr(report, "headline") else None
    if head is not None and hasattr(head, "id"):
        iv = getattr(head, "interval", None)
        yield "headline", {"id": head.id, "value": head.value,
                           "interval_low": None if iv is None else iv.low}
    for tid, table in report.tables.items():
        keys = {c.key for c in table.columns}
        if "id" in keys and "value" in keys:
            for rec in table.records():
                yield tid, rec


def check(report: Any, gates: Sequence[str | Gate]) -> list[Outcome]:
    """The outcome of each gate on ``report``.

    Parameters
    ----------
    report : Report
        A job's report.
    gates : list of str or Gate
        ``COEF=VALUE`` or ``COEF.low=VALUE`` each.

    Returns
    -------
    list of Outcome

    Raises
    ------
    ValueError
        A malformed gate, a coefficient the report does not hold (the message lists those it
        holds), or ``.low`` where the report has no intervals.

    Examples
    --------
    >>> from corpusagree.analyses import table
    >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
    >>> [o.passed for o in check(report, ["alpha=0.4", "alpha=0.8"])]
    [True, False]
    """
    parsed = [parse(g) for g in gates]
    rows = list(_candidates(report))
    out = []
    for g in parsed:
        match = next(((t, r) for t, r in rows if r.get("id") == g.coefficient), None)
        if match is None:
            held = ", ".join(dict.fromkeys(str(r["id"]) for _, r in rows if r.get("id")))
            raise ValueError(f"the gate {g} names a coefficient the {report.job} report does "
                             f"not hold; it holds: {held or 'no coefficient'}")
        table, rec = match
        if g.bound == "low":
            value = rec.get("interval_low")
            if value is None:
                raise ValueError(f"the gate {g} needs an interval: analyse with "
                                 "bootstrap=Bootstrap()")
        else:
            value = rec.get("value")
        value = float("nan") if value is None else float(value)
        out.append(Outcome(g, value, table, bool(value >= g.threshold)))
    return out
