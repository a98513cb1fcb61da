"""The figures of the CoNLL reference scorer v8.01 (``scorer.pl``, conll/reference-coreference-
scorers @ f49f3f8) that tests/stats/test_scorer_repeated_mentions.py compares with, run once
in a side environment (perl 5; the scorer needs nothing beyond its ``lib/``):

    git clone https://github.com/conll/reference-coreference-scorers /tmp/scorer
    SCORER_PL=/tmp/scorer/scorer.pl python tests/data/scorer_v801/make_fixtures.py

writes ``expected.json``: for each case, the counts the scorer prints (``Coreference: Recall:
(num / den) ... Precision: (num / den)``, BLANC's coreference and non-coreference links) per
metric, and, for GUM vs OntoGUM, each file's mentions.

Cases:

* ``repeated``: ``key.v4_gold_conll`` and ``response.v4_gold_conll`` here, the response marking
  ``w0`` in entities 3 and 4 and ``w1`` in entities 2 and 4 (``(3)|(4)``, ``(2)|(4)``); the key
  has ``w1``, ``w2``, ``w3`` in one entity and not ``w0``.
* ``gum_ontogum``: the six GUM documents of ``../shared/corpora/gum_ontogum_tsv`` (WebAnno TSV
  as released), GUM as the key, OntoGUM as the response, written as CoNLL-2012 by the reader
  below, written for this script alone (not corpusagree's): a mention is every span of the
  ``Referent`` layer (every ``[n]`` of any of its columns), chains are the connected components
  of its ``Coref`` relations not labelled ``bridge…``; brackets of one token are written one-token
  ones first, then opening ones, each by the number of its span.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CORPORA = Path(os.environ.get("CORPUSAGREE_CORPORA", ROOT.parent / "shared" / "corpora"))
GUM = CORPORA / "gum_ontogum_tsv"
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc")
_COUNTS = re.compile(r"Recall: \(([-\d.e+]+) / ([-\d.e+]+)\).*?Precision: "
                     r"\(([-\d.e+]+) / ([-\d.e+]+)\)")


def scorer(metric: str, key: Path, response: Path) -> list[float]:
    """The corpus counts scorer.pl prints for ``metric`` (BLANC: coreference links, then
    non-coreference links)."""
    out = subprocess.run(["perl", os.environ["SCORER_PL"], metric, str(key), str(response),
                          "none"], capture_output=True, text=True, check=True).stdout
    totals = out[out.index("====== TOTALS ======="):]
    found = [[float(x) for x in m] for m in _COUNTS.findall(totals)]
    if metric == "blanc":  # identification, coreference links, non-coreference links, BLANC
        return found[1] + found[2]
    return found[1]  # after the identification of mentions


# ---- an independent reading of GUM's WebAnno TSV --------------------------------------------
_ITEM = re.compile(r"(.*)\[(\d+)\]")
_SOURCE = re.compile(r"(\d+-\d+)(?:\[(\d+)_(\d+)\])?")


def gum_tsv(path: Path) -> tuple[list[str], dict[str, list[int]], list[list[str]]]:
    """(tokens, span -> its token indices, chains as lists of spans) of one GUM TSV file:
    columns 4-8 are the Referent span layer's features, 9-10 the Coref relation's label and
    source address (GUM's header)."""
    tokens: list[str] = []
    spans: dict[str, list[int]] = {}
    edges: list[tuple[str, str, str]] = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        row, token = cells[0], len(tokens)
        tokens.append(cells[2] or "_")
        for cell in cells[3:8]:
            for item in ([] if cell == "_" else cell.split("|")):
                m = _ITEM.fullmatch(item)
                span = m[2] if m else row
                if token not in spans.setdefault(span, []):
                    spans[span].append(token)
        if cells[9] != "_":
            for label, source in zip(cells[8].split("|"), cells[9].split("|"), strict=True):
                m = _SOURCE.fullmatch(source)
                src = m[2] if m[2] not in (None, "0") else m[1]
                tgt = m[3] if m[3] not in (None, "0") else row
                edges.append((src, tgt, label))
    parent = {s: s for s in spans}

    def root(s: str) -> str:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    for src, tgt, label in edges:
        if not label.startswith("bridge"):
            parent[root(src)] = root(tgt)
    chains: dict[str, list[str]] = {}
    for s in sorted(spans, key=lambda s: (min(spans[s]), int(s.split("-")[0]))):
        chains.setdefault(root(s), []).append(s)
    return tokens, spans, list(chains.values())


def write_conll(docs: list[tuple[str, list[str], dict[str, list[int]], list[list[str]]]],
                path: Path) -> None:
    """CoNLL-2012 lines (document, part, word number, word, coreference) of the documents."""
    lines = []
    for name, tokens, spans, chains in docs:
        single: dict[int, list[str]] = {}
        opens: dict[int, list[str]] = {}
        closes: dict[int, list[str]] = {}
        for number, chain in enumerate(chains, 1):
            for s in chain:
                first, last = min(spans[s]), max(spans[s])
                if first == last:
                    single.setdefault(first, []).append(f"({number})")
                else:
                    opens.setdefault(first, []).append(f"({number}")
                    closes.setdefault(last, []).append(f"{number})")
        lines.append(f"#begin document ({name}); part 000")
        for i, word in enumerate(tokens):
            cell = "|".join(single.get(i, []) + opens.get(i, []) + closes.get(i, [])) or "-"
            lines.append(f"{name}\t0\t{i}\t{word}\t{cell}")
        lines += ["", "#end document"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    if "SCORER_PL" not in os.environ:
        sys.exit("set SCORER_PL to the reference scorer's scorer.pl (see the docstring)")
    out: dict = {"scorer": "scorer.pl v8.01 (conll/reference-coreference-scorers @ f49f3f8)"}
    key, response = HERE / "key.v4_gold_conll", HERE / "response.v4_gold_conll"
    out["repeated"] = {m: scorer(m, key, response) for m in METRICS}
    if GUM.is_dir():
        with tempfile.TemporaryDirectory() as tmp:
            read = {side: [(f.stem, *gum_tsv(f)) for f in sorted((GUM / side).glob("*.tsv"))]
                    for side in ("gum", "ontogum")}
            for side, docs in read.items():
                write_conll(docs, Path(tmp) / f"{side}.conll")
            out["gum_ontogum"] = {
                "mentions": {side: {name: len(spans) for name, _, spans, _ in docs}
                             for side, docs in read.items()},
                **{m: scorer(m, Path(tmp) / "gum.conll", Path(tmp) / "ontogum.conll")
                   for m in METRICS}}
    (HERE / "expected.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
