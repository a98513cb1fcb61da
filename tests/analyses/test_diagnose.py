"""The diagnostics part of a report: its JSON mirrors the statistics, its tables render."""

import io
import json

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.analyses.diagnose import diagnose
from corpusagree.report import json as json_renderer
from corpusagree.report.terminal import Terminal
from corpusagree.stats import diagnostics as dg

from support import random_labels, random_sets


def example1():
    """Di Eugenio & Glass (2004), Example 1: 150 Okays, 70 Accept by both, 55 Ack by both, 25
    Ack by A and Accept by B."""
    triples = []
    for n, (a, b) in enumerate([("Accept", "Accept")] * 70 + [("Ack", "Ack")] * 55
                               + [("Ack", "Accept")] * 25):
        triples += [("A", n, a), ("B", n, b)]
    return ca.ReliabilityData.from_triples(triples)


def test_payload_mirrors_api_and_tables_render():
    data = random_labels(1, coders=4, items=50)
    d = diagnose(data, "interval", reference=0)
    p = d.to_dict()
    json.loads(json.dumps(json_renderer.clean(p)))
    assert p["value"] == pytest.approx(ca.alpha(data, "interval").value)
    _, M = dg.pairwise(data, "alpha", "interval")
    assert np.allclose(np.array(p["pairwise"]["matrix"], float), M, equal_nan=True)
    loo = p["leave_one_out"]
    best = max(loo["rows"], key=lambda r: r["change"])
    assert loo["raises_most"] == (best["coder"] if best["change"] > 0 else None)
    assert np.array(p["coincidence"]["matrix"]).sum() == pytest.approx(
        ca.alpha(data).pairable_values)
    assert p["expert"]["reference"] == 0 and p["two_coders"] is None
    out = io.StringIO()
    term = Terminal(out, width=100)
    for t in d.tables.values():
        term.table(t)
    text = out.getvalue()
    for needle in ("Pairwise α (interval)", "Leave one coder out", "Items that cost most",
                   "Category-specific α", "Coincidence matrix", "bias by category",
                   "conventions, not verdicts", "against reference 0"):
        assert needle in text


def test_payload_for_two_coders_and_sets():
    p = diagnose(example1()).to_dict()
    assert p["two_coders"]["kappa_cohen"] == pytest.approx(.6725, abs=5e-5)
    assert p["leave_one_out"] is None and p["notes"]
    s = diagnose(random_sets(3), "jaccard").to_dict()
    json.dumps(json_renderer.clean(s))
    assert s["coincidence"] is None and s["per_category"]["by"] == "element"
    assert all(isinstance(v, (list, type(None)))
               for r in s["worst_items"] for v in r["labels"].values())
    assert diagnose(example1(), coefficient="bias").to_dict()["conventions"] is None
