"""Write the sample segmentation corpus in every format from the one definition below.

Run from anywhere: ``python sample_corpora/segments/make_samples.py``. Units are the words of
``spacy.blank("en")`` (the plain-text reader's tokeniser); each annotator groups the clauses
listed in DOCUMENTS into segments of SEGMENTATIONS[annotator][document] clauses.
"""

from __future__ import annotations

import csv
import json
from bisect import bisect_right
from itertools import accumulate
from pathlib import Path
from xml.sax.saxutils import escape

import spacy

HERE = Path(__file__).resolve().parent

#: document -> clauses (the finest segmentation anyone made), text written for this project.
DOCUMENTS: dict[str, list[str]] = {
    "harbour": [
        "The ferry left the harbour at dawn,",
        "while the gulls were still asleep on the pier.",
        "Mara counted the crates twice",
        "because the manifest listed forty and she saw thirty-eight.",
        "The captain shrugged.",
        "Two crates, he said, had gone to Smith & Sons by mistake.",
        "By noon the wind had turned,",
        "and the crossing took an hour longer than planned.",
    ],
    "orchard": [
        "Every autumn the village gathers in the old orchard.",
        "Children climb the lower branches",
        "and shake the apples loose,",
        "while their parents sort them into baskets by colour.",
        "The sour green ones go to the cider press;",
        "the red ones are sold at the Saturday market.",
        "Nobody remembers who planted the trees,",
        "but everyone agrees they are older than the church.",
    ],
    "workshop": [
        "Ilse repairs clocks in a workshop behind the bakery.",
        "Most of her customers bring heirlooms",
        "that have not ticked for decades.",
        "She opens each case slowly,",
        "photographs the gears,",
        "and only then reaches for a screwdriver.",
        "Some repairs take a week; others take a year.",
        "She never charges for the ones that cannot be saved.",
    ],
}

#: annotator -> document -> clauses per segment; chloe did not segment "workshop".
SEGMENTATIONS: dict[str, dict[str, list[int]]] = {
    "ada": {"harbour": [2, 2, 2, 2], "orchard": [1, 3, 2, 2], "workshop": [1, 2, 3, 2]},
    "ben": {"harbour": [2, 4, 2], "orchard": [1, 5, 2], "workshop": [3, 3, 1, 1]},
    "chloe": {"harbour": [1, 1, 2, 1, 1, 2], "orchard": [4, 2, 2]},
}

#: DISRPT label generation per annotator: 2019-2023 (BeginSeg=Yes) or 2025 (Seg=B-seg).
DISRPT_STYLE = {"ada": "2019", "ben": "2025", "chloe": "2025"}


def tokenised(doc: str) -> list[list[spacy.tokens.Token]]:
    """spaCy tokens of every clause of a document (clauses joined by spaces)."""
    clauses = DOCUMENTS[doc]
    starts = list(accumulate((len(c) + 1 for c in clauses[:-1]), initial=0))
    out: list[list[spacy.tokens.Token]] = [[] for _ in clauses]
    for t in spacy.blank("en")(" ".join(clauses)):
        if not t.is_space:
            out[bisect_right(starts, t.idx) - 1].append(t)
    return out


def grouped(doc: str, sizes: list[int]) -> list[list[spacy.tokens.Token]]:
    """Tokens of each segment, given the number of clauses per segment."""
    clauses, out, start = tokenised(doc), [], 0
    for size in sizes:
        out.append([t for clause in clauses[start:start + size] for t in clause])
        start += size
    assert start == len(clauses), (doc, sizes)
    return out


def masses() -> dict[str, dict[str, list[int]]]:
    """document -> annotator -> masses in words."""
    out: dict[str, dict[str, list[int]]] = {}
    for annotator, docs in SEGMENTATIONS.items():
        for doc, sizes in docs.items():
            out.setdefault(doc, {})[annotator] = [len(s) for s in grouped(doc, sizes)]
    return out


def write_segeval(m: dict[str, dict[str, list[int]]]) -> None:
    data = {"segmentation_type": "linear", "unit": "word", "items": m}
    (HERE / "segments.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    folder = HERE / "segeval_tsv"
    folder.mkdir(exist_ok=True)
    for doc, coders in m.items():
        rows = ["Coder\tMasses"] + ["\t".join([c, *map(str, ms)]) for c, ms in coders.items()]
        (folder / f"{doc}.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def write_positions(m: dict[str, dict[str, list[int]]]) -> None:
    folder = HERE / "positions"
    folder.mkdir(exist_ok=True)
    coders = list(SEGMENTATIONS)
    for doc, by_coder in m.items():
        columns = [[n for n, mass in enumerate(by_coder[c], 1) for _ in range(mass)]
                   if c in by_coder else None for c in coders]
        total = sum(next(iter(by_coder.values())))
        with open(folder / f"{doc}.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["word", *coders])
            for i in range(total):
                w.writerow([i + 1, *("" if col is None else col[i] for col in columns)])


def write_text() -> None:
    for annotator, docs in SEGMENTATIONS.items():
        folder = HERE / "text" / annotator
        folder.mkdir(parents=True, exist_ok=True)
        for doc, sizes in docs.items():
            clauses, paras, start = DOCUMENTS[doc], [], 0
            for size in sizes:
                paras.append(" ".join(clauses[start:start + size]))
                start += size
            (folder / f"{doc}.txt").write_text("\n\n".join(paras) + "\n", encoding="utf-8")


def write_rs3() -> None:
    for annotator, docs in SEGMENTATIONS.items():
        folder = HERE / "rs3" / annotator
        folder.mkdir(parents=True, exist_ok=True)
        for doc, sizes in docs.items():
            segs = grouped(doc, sizes)
            root = len(segs) + 1
            lines = ['<rst>', '  <header>', '    <relations>',
                     '      <rel name="joint" type="multinuc"/>', '    </relations>',
                     '  </header>', '  <body>']
            lines += [f'    <segment id="{i}" parent="{root}" relname="joint">'
                      f'{escape(" ".join(t.text for t in seg))}</segment>'
                      for i, seg in enumerate(segs, 1)]
            lines += [f'    <group id="{root}" type="multinuc"/>', '  </body>', '</rst>']
            (folder / f"{doc}.rs3").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_disrpt() -> None:
    for annotator, docs in SEGMENTATIONS.items():
        folder = HERE / "disrpt" / annotator
        folder.mkdir(parents=True, exist_ok=True)
        begin, inside = (("BeginSeg=Yes", "") if DISRPT_STYLE[annotator] == "2019"
                         else ("Seg=B-seg", "Seg=O"))
        lines = []
        for doc, sizes in docs.items():
            lines.append(f"# newdoc id = {doc}")
            n = 0
            for seg in grouped(doc, sizes):
                for k, tok in enumerate(seg):
                    n += 1
                    space = "" if tok.whitespace_ else "SpaceAfter=No"
                    misc = "|".join(x for x in (begin if k == 0 else inside, space) if x)
                    lines.append("\t".join([str(n), tok.text, *["_"] * 7, misc or "_"]))
            lines.append("")
        (folder / "segments.tok").write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    m = masses()
    write_segeval(m)
    write_positions(m)
    write_text()
    write_rs3()
    write_disrpt()


if __name__ == "__main__":
    main()
