"""``--swap COLUMN`` of the table job: pairwise judgements shown in both orders — each judge's
flips, flips to the first-shown option, McNemar's test, and agreement in each order."""

from __future__ import annotations

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.analyses import table
from corpusagree.model import io
from corpusagree.stats.position import first_shown, position_bias

SWAP = "tests/data/table/swap.csv"


@pytest.fixture(scope="module")
def report():
    return table.analyse(table.read(SWAP, swap="order"))


def test_items_are_pairs_in_one_order_grouped_by_pair():
    data = table.read(SWAP, swap="order").data
    assert data.n_items == 8 and sorted(data.group_names) == ["p1", "p2", "p3", "p4"]
    assert io.split_swap_item(data.items[0]) in {("p1", "AB"), ("p1", "BA")}


def test_flips_by_hand(report):
    """j1 chose the first-shown option in both orders of p1 and p4 (two flips to the first);
    j2 went from B to a tie on p3."""
    rows = {r["judge"]: r for r in report.position}
    assert (rows["j1"]["pairs"], rows["j1"]["flips"], rows["j1"]["to_first"],
            rows["j1"]["to_second"]) == (4, 2, 2, 0)
    assert rows["j1"]["flip_rate"] == 0.5
    assert (rows["j2"]["flips"], rows["j2"]["with_tie"], rows["j2"]["to_first"]) == (1, 1, 0)
    assert rows["j1"]["p_value"] == pytest.approx(0.5)  # exact binomial, 2 of 2 one way


def test_agreement_in_each_order_is_the_coefficients_on_that_order(report):
    data = table.read(SWAP, swap="order").data
    orders = np.array([io.split_swap_item(i)[1] for i in data.items])
    by = {r["order"]: r for r in report.by_order}
    for o in ("AB", "BA"):
        part = data.subset(items=orders == o, compact=True)
        assert by[o]["alpha"] == pytest.approx(float(ca.alpha(part)))
        assert by[o]["kappa"] == pytest.approx(float(ca.kappa(part)))
        assert by[o]["percent_agreement"] == pytest.approx(float(ca.percent_agreement(part)))
    assert by["AB"]["percent_agreement"] == 0.75


def test_the_same_as_position_bias_on_the_rows():
    rows = [line.split(",") for line in open(SWAP, encoding="utf-8").read().split()[1:]]
    judge, pair, label, order = zip(*rows, strict=True)
    want = position_bias(judge, pair, label, first_shown(order), order, tie="tie")
    got = table.analyse(table.read(SWAP, swap="order")).position
    assert [r.to_dict() for r in want] == [dict(r) for r in got]


def test_the_first_shown_rule():
    assert first_shown(["AB", "BA", "m1|m2", "m2, m1", "x>y"]).tolist() == [
        "A", "B", "m1", "m2", "x"]


def test_tables_and_raw_agreement(report):
    assert {"position_bias", "by_order"} <= set(report.tables)
    cols = [c.key for c in report.tables["by_order"].columns]
    assert cols[2:] == ["percent_agreement", "kappa", "alpha"]


def test_cli_and_errors(cli):
    status, out, err = cli("table", SWAP, "--swap", "order")
    assert status == 0, err
    assert "Position bias" in out and "raw agreement" in out
    status, out, err = cli("table", SWAP, "--swap", "nope")
    assert status == 2 and "no swap column 'nope'" in err and len(err.splitlines()) == 1


def test_three_orders_are_refused(tmp_path, cli):
    f = tmp_path / "three.csv"
    f.write_text("coder,item,label,order\nj1,p1,A,AB\nj1,p1,B,BA\nj1,p2,A,BB\n"
                 "j2,p1,A,AB\n", encoding="utf-8")
    status, _, err = cli("table", f, "--swap", "order")
    assert status == 2 and "two values" in err and len(err.splitlines()) == 1
