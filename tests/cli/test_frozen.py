"""Every number of the frozen ``--json`` outputs is still produced.

``tests/data/frozen/*.json`` hold the ``--json`` output of every job on the sample corpora and
three real corpora, written by ``freeze.py`` before the package was reorganised (commit
989a11b). Keys may have been renamed since; values may not change: every number of a frozen
output must appear in today's output of the same command (as a multiset, floats to 1e-9;
round-off below 1e-12 counts as 0). Today's output validates against the shipped JSON Schema
too (``corpusagree schema``), on the real corpora as on the samples.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from support import CORPORA, ROOT, schema_errors

FROZEN = ROOT / "tests" / "data" / "frozen"
CASES = sorted(p.stem for p in FROZEN.glob("*.json"))


def numbers(obj) -> tuple[list[float], Counter]:
    """(floats, Counter of integers and nulls) of a JSON value's leaves."""
    floats: list[float] = []
    other: Counter = Counter()

    def walk(o) -> None:
        if isinstance(o, dict):
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
        elif o is None:
            other["null"] += 1
        elif isinstance(o, bool):
            pass
        elif isinstance(o, float) and abs(o) < 1e-12:
            other[0] += 1  # round-off around 0 (e.g. a bias of identical distributions)
        elif isinstance(o, int) or (isinstance(o, float) and o.is_integer()):
            other[int(o)] += 1
        elif isinstance(o, float):
            floats.append(o)

    walk(obj)
    return sorted(floats), other


def missing_floats(old: list[float], new: list[float], rel: float = 1e-9) -> list[float]:
    """Old floats with no distinct new float within ``rel`` (both lists sorted)."""
    lost, j = [], 0
    used = [False] * len(new)
    for x in old:
        while j < len(new) and new[j] < x - rel * max(1.0, abs(x)):
            j += 1
        k = j
        while k < len(new) and (used[k] or not math.isclose(new[k], x, rel_tol=rel,
                                                              abs_tol=rel)):
            if new[k] > x + rel * max(1.0, abs(x)):
                k = len(new)
                break
            k += 1
        if k < len(new):
            used[k] = True
        else:
            lost.append(x)
    return lost


@pytest.mark.parametrize("case", CASES)
def test_every_frozen_number_is_still_there(case: str, cli) -> None:
    frozen = json.loads((FROZEN / f"{case}.json").read_text())
    argv = [a.replace("../shared/corpora", str(CORPORA)) for a in frozen["argv"]]
    if any(a.startswith(str(CORPORA)) for a in argv) and not CORPORA.is_dir():
        pytest.skip("the real corpora are not here (set CORPUSAGREE_CORPORA)")
    status, out, err = cli(*argv)
    assert status == 0, err
    doc = json.loads(out)
    assert not schema_errors(doc), schema_errors(doc)[:10]
    old_f, old_o = numbers(frozen["output"])
    new_f, new_o = numbers(doc)
    assert not missing_floats(old_f, new_f)
    assert not old_o - new_o
