"""educe's Parseval figures on RSTmulti, kept as fixtures (tests/data/trees/educe_rstmulti.json).

Independent of corpusagree's code: each rs3 file is read here (:func:`constituents`, rstWeb's
reading, written for this script; RST-Tace's parser drops the satellite of a multinuclear nucleus
from its tree) and written as an RST-DT ``.dis`` bracketing, which is read back, binarised
and scored by educe (github.com/irit-melodi/educe @ 3c1e298: ``parse_rst_dt_tree``,
``SimpleRSTTree.from_rst_tree`` = the right_mixed binarisation, ``parseval_scores``), the code
Morey, Muller & Asher (2017) evaluate with. Runs in a side environment, never the project's:

    python tests/data/trees/make_parseval_fixtures.py ../shared/corpora/rstmulti_hewett2025/data

(educe is Python-2-era: its ``scores_structured.py`` needs ``izip = zip`` on Python 3.)

Per document both annotators have with the same EDU texts, annotator 1 as the reference: the
counts (reference, other, shared S/N/R/F) of RST-Parseval (every node but the root, labels each
node's nuclearity and relation, on the binarised trees) and of Parseval (educe's SimpleRSTTree:
internal nodes with the root, labels the children's nuclearity and the satellite's relation),
and educe's micro (summed) and macro (per-document) F1 of each.
"""

import json
import sys
from pathlib import Path
from xml.etree import ElementTree

from educe.metrics.parseval import parseval_scores
from educe.rst_dt.annotation import SimpleRSTTree, _binarize
from educe.rst_dt.parse import parse_rst_dt_tree

MEASURES = {"span": lambda s: "span", "nuclearity": lambda s: s[1],
            "relation": lambda s: s[2], "full": lambda s: f"{s[1]}|{s[2]}"}


def edus(path: Path) -> list[str]:
    root = ElementTree.parse(path).getroot()
    return [" ".join("".join(s.itertext()).split()) for s in root.iter("segment")]


def constituents(path: Path):
    """The rs3 file as nested ``[first EDU, last EDU, children]`` lists, children as
    ``(role, relation, constituent)``, following rstWeb: a span group is its nucleus (the
    child with relname span), a multinuc group its nuclei; satellites point to their nucleus
    and join it in a constituent."""
    root = ElementTree.parse(path).getroot()
    types = {r.get("name"): r.get("type") for r in root.iter("rel")}
    elements = [e for e in root.find("body") if e.tag in ("segment", "group")]
    kids: dict = {}
    for e in elements:
        kids.setdefault(e.get("parent"), []).append(e)
    leaf = {e.get("id"): i + 1 for i, e in enumerate(x for x in elements if x.tag == "segment")}

    def build(e):
        mine = kids.get(e.get("id"), [])
        kind = {k.get("id"): ("span" if k.get("relname") == "span" else types[k.get("relname")])
                for k in mine}
        if e.tag == "segment":
            node = [leaf[e.get("id")]] * 2 + [[]]
        elif e.get("type") == "span":
            node = build(next(k for k in mine if kind[k.get("id")] == "span"))
        else:
            nuclei = [build(k) + [k.get("relname")] for k in mine
                      if kind[k.get("id")] == "multinuc"]
            nuclei.sort()
            node = ([nuclei[0][0], nuclei[-1][1], [("Nucleus", n[3], n[:3]) for n in nuclei]]
                    if len(nuclei) > 1 else nuclei[0][:3])
        sats = [(build(k), k.get("relname")) for k in mine if kind[k.get("id")] == "rst"]
        if sats:
            parts = [("Nucleus", "span", node)] + [("Satellite", r, c) for c, r in sats]
            parts.sort(key=lambda x: x[2][0])
            node = [parts[0][2][0], parts[-1][2][1], parts]
        return node

    return build(next(e for e in elements if e.get("parent") is None))


def to_dis(node, role: str = "Root", rel: str = "") -> str:
    """The .dis bracketing, a line per node (educe's text pattern reads to the last ``_!)``
    of a line), ``EDU n`` for the texts."""
    rel_part = "" if role == "Root" else f" (rel2par {rel})"
    first, last, parts = node
    if not parts:
        return f"({role} (leaf {first}){rel_part} (text _!EDU {first}_!)\n)"
    return (f"({role} (span {first} {last}){rel_part}\n"
            + "\n".join(to_dis(c, r, x) for r, x, c in parts) + "\n)")


def rst_parseval_spans(tree) -> list:
    """Every node but the root of the binarised RSTTree: (span, nuclearity, relation)."""
    out = []
    stack = [(tree, True)]
    while stack:
        t, root = stack.pop()
        node = t.label()
        if not root:
            out.append((node.edu_span, node.nuclearity, node.rel, None))
        stack.extend((kid, False) for kid in t if hasattr(kid, "label"))
    return out


class Spans:
    """What educe's parseval_scores asks of a tree: get_spans()."""

    def __init__(self, spans):
        self.spans = spans

    def get_spans(self, subtree_filter=None, exclude_root=False, span_type="edus"):
        return self.spans


def counts(ref_spans, oth_spans) -> list[int]:
    out = [len(ref_spans), len(oth_spans)]
    for fn in MEASURES.values():
        a = [(s[0], fn(s)) for s in ref_spans]
        b = [(s[0], fn(s)) for s in oth_spans]
        out.append(sum(min(a.count(x), b.count(x)) for x in set(a)))
    return out


def main(data: Path) -> dict:
    out = {"tool": "educe 3c1e298 (binarisation, Parseval) on .dis written from rs3 by this script",
           "documents": {}, "micro_f1": {}, "macro_f1": {}}
    pairs = {"rst_parseval": ([], []), "parseval": ([], [])}
    for one in sorted((data / "1").glob("*.rs3")):
        two = data / "2" / one.name
        if not two.exists() or edus(one) != edus(two):
            continue
        trees = []
        for f in (one, two):
            dis = to_dis(constituents(f))
            trees.append(_binarize(parse_rst_dt_tree(dis)))
        simple = [SimpleRSTTree.from_rst_tree(t) for t in trees]
        rst = [Spans(rst_parseval_spans(t)) for t in trees]
        orig = [Spans([s for s in t.get_spans() if s[1] != "leaf"]) for t in simple]
        out["documents"][one.stem] = {"rst_parseval": counts(rst[0].spans, rst[1].spans),
                                      "parseval": counts(orig[0].spans, orig[1].spans)}
        for variant, (a, b) in (("rst_parseval", rst), ("parseval", orig)):
            pairs[variant][0].append(a)
            pairs[variant][1].append(b)
    for variant, (ref, oth) in pairs.items():
        for avg, per_doc in (("micro_f1", False), ("macro_f1", True)):
            out[avg][variant] = {
                m: float(parseval_scores(ref, oth, lbl_fn=lambda s, fn=fn: fn(s),
                                         average="micro", per_doc=per_doc)[2])
                for m, fn in MEASURES.items()}
    return out


if __name__ == "__main__":
    result = main(Path(sys.argv[1]))
    target = Path(__file__).with_name("educe_rstmulti.json")
    target.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"{len(result['documents'])} documents -> {target}")
    print(json.dumps({k: result[k] for k in ("micro_f1", "macro_f1")}, indent=1))
