"""Report tables as CSV: one block per table, headed by ``# title`` when there are several,
with the columns' keys as the header row and values unformatted (intervals as two columns)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence

from ..analyses.base import Report, Table


def _value(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, (list, tuple, set, frozenset)):
        return "|".join(sorted(map(str, v)) if isinstance(v, (set, frozenset)) else map(str, v))
    return str(v)


def _write(out: io.StringIO, t: Table) -> None:
    w = csv.writer(out, lineterminator="\n")
    records = t.records()
    keys = list(records[0]) if records else [c.key for c in t.columns]
    w.writerow(keys)
    for rec in records:
        w.writerow([_value(rec[k]) for k in keys])


def table_csv(t: Table) -> str:
    """One table as CSV."""
    out = io.StringIO()
    _write(out, t)
    return out.getvalue()


def dumps(reports: Sequence[Report]) -> str:
    tables = [(r, t) for r in reports for t in r.tables()]
    out = io.StringIO()
    for n, (r, t) in enumerate(tables):
        if len(tables) > 1:
            if n:
                out.write("\n")
            out.write(f"# {r.job}: {t.title}\n")
        _write(out, t)
    return out.getvalue()
