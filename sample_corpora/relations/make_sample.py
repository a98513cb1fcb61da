"""Write the sample relations corpus: the discourse relations of the RST trees sample
(``sample_corpora/trees/rs3``) as DISRPT ``.rels`` files, one folder per annotator.

Run ``python make_sample.py`` (from anywhere); it rewrites ``ann1/`` and ``ann2/`` next to this
file, byte-identically on every run. See README.md for the design.

A document is its EDUs, space-tokenised (punctuation a token of its own); a relation is
``(unit 1, unit 2, dir, orig_label)`` where a unit is a range of EDUs (first, last, 1-based) —
unit 1 the earlier, unit 2 the later, ``1<2`` when unit 2 attaches to unit 1 (unit 1 the
nucleus), ``1>2`` the other way. Each rs3 relation of the trees sample is one row: a satellite
with the span of its nucleus, and each later nucleus of a multinuclear relation with the first
(its ``label`` the class DISRPT 2021–2023 gives ``list`` and ``sequence``: ``joint``).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

#: each document's EDUs, tokens separated by spaces (the trees sample's segments)
EDUS = {
    "bridge": ["The council approved the bridge", "because the old one was unsafe .",
               "Work starts in spring", "and ends next year ."],
    "harbour": ["The harbour reopened on Monday", "after the storm had passed ."],
    "market": ["Prices rose in May ,", "fell in June", "and recovered in July .",
               "Traders were not surprised ."],
}

#: the relations of each annotator's trees (sample_corpora/trees/rs3/<annotator>/<doc>.rs3)
RELATIONS = {
    "ann1": {
        "bridge": [((1, 1), (2, 2), "1<2", "cause"),
                   ((3, 3), (4, 4), "1<2", "list"),
                   ((1, 2), (3, 4), "1<2", "elaboration")],
        "harbour": [((1, 1), (2, 2), "1<2", "elaboration")],
        "market": [((1, 1), (2, 2), "1<2", "sequence"),
                   ((1, 1), (3, 3), "1<2", "sequence"),
                   ((1, 3), (4, 4), "1<2", "concession")],
    },
    "ann2": {  # harbour: one EDU, so no relation
        "bridge": [((2, 2), (3, 3), "1<2", "cause"),
                   ((2, 3), (4, 4), "1<2", "list"),
                   ((1, 1), (2, 4), "1<2", "elaboration")],
        "market": [((1, 1), (2, 2), "1<2", "sequence"),
                   ((1, 1), (3, 3), "1<2", "sequence"),
                   ((1, 3), (4, 4), "1<2", "elaboration")],
    },
}

#: DISRPT's class of each rs3 relation name
CLASSES = {"cause": "cause", "elaboration": "elaboration", "concession": "concession",
           "list": "joint", "sequence": "joint"}

COLUMNS = ("doc", "unit1_toks", "unit2_toks", "unit1_txt", "unit2_txt", "s1_toks", "s2_toks",
           "unit1_sent", "unit2_sent", "dir", "orig_label", "label")


def _tokens(doc: str) -> list[tuple[int, int]]:
    """Each EDU's first and last token number (1-based, counted over the document)."""
    out, start = [], 1
    for edu in EDUS[doc]:
        n = len(edu.split())
        out.append((start, start + n - 1))
        start += n
    return out


def _sentences(doc: str) -> list[tuple[int, int]]:
    """Each EDU's sentence, as first and last EDU (a sentence ends at an EDU ending in '.')."""
    out, first = [], 0
    for i, edu in enumerate(EDUS[doc]):
        if edu.endswith("."):
            out += [(first, i)] * (i - first + 1)
            first = i + 1
    return out


def row(doc: str, unit1: tuple[int, int], unit2: tuple[int, int], direction: str,
        label: str) -> str:
    toks, sents = _tokens(doc), _sentences(doc)

    def span(edus: tuple[int, int]) -> str:
        return f"{toks[edus[0] - 1][0]}-{toks[edus[1] - 1][1]}"

    def text(edus: tuple[int, int]) -> str:
        return " ".join(EDUS[doc][edus[0] - 1:edus[1]])

    def sentence(edus: tuple[int, int]) -> tuple[int, int]:
        return sents[edus[0] - 1][0] + 1, sents[edus[1] - 1][1] + 1

    s1, s2 = sentence(unit1), sentence(unit2)
    return "\t".join([doc, span(unit1), span(unit2), text(unit1), text(unit2), span(s1),
                      span(s2), text(s1), text(s2), direction, label, CLASSES[label]])


def main() -> None:
    for annotator, docs in RELATIONS.items():
        folder = HERE / annotator
        folder.mkdir(exist_ok=True)
        lines = ["\t".join(COLUMNS)]
        lines += [row(doc, *relation) for doc in sorted(docs) for relation in docs[doc]]
        (folder / "sample.rels").write_text("\n".join(lines) + "\n", encoding="utf-8",
                                            newline="\n")


if __name__ == "__main__":
    main()
