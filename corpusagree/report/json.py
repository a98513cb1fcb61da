"""Reports as JSON: one document per report, a list for several; nan and infinities as null."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from ..analyses.base import Report


def clean(o):
    """A copy with nan/inf as None (JSON has no nan)."""
    if isinstance(o, float) and (math.isnan(o) or math.isinf(o)):
        return None
    if isinstance(o, dict):
        return {k: clean(v) for k, v in o.items()}
    if isinstance(o, list):
        return [clean(v) for v in o]
    return o


def dumps(reports: Report | Sequence[Report], *, ascii: bool = False,
          many: bool = False) -> str:
    """One report as a JSON object, several (or one, with ``many``) as a JSON list."""
    if isinstance(reports, Report):
        reports = [reports]
    payload = [r.to_dict() for r in reports]
    return json.dumps(clean(payload if many or len(payload) != 1 else payload[0]), indent=2,
                      ensure_ascii=ascii) + "\n"
