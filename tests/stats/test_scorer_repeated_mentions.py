"""Repeated response mentions as the CoNLL reference scorer v8.01 reads them, and GUM against
OntoGUM: figures of scorer.pl itself, run once by tests/data/scorer_v801/make_fixtures.py
(expected.json holds the counts it printed).

scorer.pl (``IdentifMentions`` in ``lib/CorScorer.pm``) numbers a document's entities in the
order it meets them; a response mention met again is dropped when the key has its span, the
copy in the earliest entity kept, and kept in every entity when the key lacks it. The figures
below were 1.0 (MUC precision) and 0.75 (B³ precision) when the scores kept every repeated
mention once, in its first chain.
"""

from __future__ import annotations

import json
import re

import pytest

from support import CORPORA, DATA

FIXTURES = DATA / "scorer_v801"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
#: scorer.pl's metric names -> ours
NAMES = {"muc": "muc", "bcub": "b_cubed", "ceafe": "ceaf_e", "ceafm": "ceaf_m",
         "blanc": "blanc"}


def figures(metric: str, counts: list[float]) -> tuple[float, float, float]:
    """Recall, precision and F1 of scorer.pl's counts (its ShowRPF; BLANC the mean of its
    coreference and non-coreference parts, every part defined here)."""
    def rpf(nr: float, dr: float, np_: float, dp: float) -> tuple[float, float, float]:
        r, p = (nr / dr if dr else 0.0), (np_ / dp if dp else 0.0)
        return r, p, (2 * r * p / (r + p) if r + p else 0.0)

    if metric != "blanc":
        return rpf(*counts)
    (rc, pc, fc), (rn, pn, fn) = rpf(*counts[:4]), rpf(*counts[4:])
    if not counts[5]:  # no non-coreference link in the key: the coreference part alone
        return rc, pc, fc
    return (rc + rn) / 2, (pc + pn) / 2, (fc + fn) / 2


def check_pair(pair: dict, expected: dict) -> None:
    for metric, name in NAMES.items():
        r, p, f = figures(metric, expected[metric])
        got = pair[name]
        assert (got["recall"], got["precision"], got["f1"]) == pytest.approx(
            (r, p, f), rel=1e-9, abs=1e-12), metric


def test_repeated_response_mentions(cli_json):
    """The response marks w0 in entities 3 and 4 and w1 in entities 2 and 4 (``(3)|(4)``,
    ``(2)|(4)``); the key has w1-w3 as one entity, not w0: scorer.pl keeps w0 in 3 and in 4,
    w1 in 4 only. MUC precision 1/2, B³ precision 2.5/5, and every other figure, as scorer.pl."""
    out = cli_json("coref", FIXTURES / "key.v4_gold_conll", FIXTURES / "response.v4_gold_conll")
    [pair] = out["scores"]["pairs"]
    assert pair["muc"]["precision"] == pytest.approx(0.5)
    assert pair["b_cubed"]["precision"] == pytest.approx(0.5)
    check_pair(pair, EXPECTED["repeated"])


def test_a_repeated_mention_the_key_lacks_counts_in_each_entity(cli_json, tmp_path):
    """Without w1 in the key, both copies of w1 count, as both of w0 (scorer.pl on these files:
    MUC precision 1 / 3, B³ precision 1.33333333333333 / 6)."""
    key = (FIXTURES / "key.v4_gold_conll").read_text()
    response = (FIXTURES / "response.v4_gold_conll").read_text()
    (tmp_path / "key.v4_gold_conll").write_text(key.replace("w1\t(1)", "w1\t-"))
    (tmp_path / "response.v4_gold_conll").write_text(response)
    out = cli_json("coref", tmp_path / "key.v4_gold_conll", tmp_path / "response.v4_gold_conll")
    [pair] = out["scores"]["pairs"]
    # the response: {w0} {w0 w1} {w1 w2 w3}: 6 mentions, of which w2 and w3 in the key
    assert pair["b_cubed"]["precision"] == pytest.approx((2 / 3 + 2 / 3) / 6)
    assert pair["muc"]["precision"] == pytest.approx(1 / 3)


GUM = CORPORA / "gum_ontogum_tsv"
_SPAN = re.compile(r"\[(\d+)\]")


def spans_of(path) -> int:
    """Spans of the Referent layer of a GUM TSV file, counted here: the distinct ``[n]`` of its
    five columns (4-8), and the one-token values without a number, one per row."""
    numbers: set[str] = set()
    plain = 0
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")[3:8]
        found = {m for c in cells if c != "_" for m in _SPAN.findall(c)}
        numbers |= found
        plain += max((sum(1 for x in c.split("|") if not _SPAN.search(x)) for c in cells
                      if c != "_"), default=0)
    return len(numbers) + plain


def test_gum_against_ontogum(cli):
    """``corpusagree coref gum ontogum``: the six GUM documents as released (stacked spans with
    values for some of them, surplus columns in GUM_textbook_grit, an empty token cell in
    OntoGUM's GUM_news_iodine) are all read; each annotator's mentions are the spans counted
    here, and every figure is scorer.pl's on the same annotations (OntoGUM marks one span
    twice: the scorer drops the copy, the key having it)."""
    if not GUM.is_dir():
        pytest.skip("gum_ontogum_tsv is not here")
    status, text, err = cli("coref", GUM / "gum", GUM / "ontogum", "--json")
    assert status == 0, err
    assert "GUM_textbook_grit.tsv: 358 row(s) have up to 2 column(s) more than the header" in err
    out = json.loads(text)
    assert out["documents"] == sorted(f.stem for f in (GUM / "gum").glob("*.tsv"))
    per = out["alignment"]["per_annotator"]
    for side in ("gum", "ontogum"):
        counted = {f.stem: spans_of(f) for f in sorted((GUM / side).glob("*.tsv"))}
        assert counted == EXPECTED["gum_ontogum"]["mentions"][side]
        assert per[side]["documents"] == 6
        assert per[side]["mentions"] == sum(counted.values())
    assert (per["gum"]["mentions"], per["ontogum"]["mentions"]) == (1678, 1702)
    assert per["ontogum"]["repeated"] == 1
    [pair] = out["scores"]["pairs"]
    check_pair(pair, EXPECTED["gum_ontogum"])
