"""RST-Tace's figures on RSTmulti, kept as fixtures (tests/data/trees/rsttace_rstmulti.json).

Runs in a side environment with RST-Tace installed (github.com/tkutschbach/RST-Tace @ 00ab7e5,
``pip install anytree click tabulate numpy scipy scikit-learn pandas`` and the package), never
in the project's:

    python tests/data/trees/make_rsttace_fixtures.py ../shared/corpora/rstmulti_hewett2025/data

For every document both annotators (folders 1 and 2) have with the same EDU texts (whitespace
runs made one space), RST-Tace's comparison (Wan et al. 2019): its assignment's matched and
unmatched pairs, agreement ratios and Cohen's κ for nuclearity, relation, constituent and
attachment point; documents it cannot read are listed with its error.

A second file, ``rsttace_rstmulti_cs.json``, holds the same figures with one change to
RST-Tace, made here at run time: its central subconstituent looks through span groups that
have no satellite of their own (RST-Tace looks one group down, so a nucleus wrapped in such a
group counts whole; corpusagree's trees have no such wrappers). With it, RST-Tace and
corpusagree agree on every document; without it, on those where no wrapper is in the way.
"""

import json
import sys
import warnings
from pathlib import Path
from xml.etree import ElementTree

import rsttace.core.reltablegenerator as generator
from rsttace.core import TableComparer, TableGenerator
from rsttace.core.comparisontable import MatchingDistance
from rsttace.core.rsttree import Span
from rsttace.input.parser import RstTreeParser

FACTORS = ("Nuclearity", "Relation", "Constituent", "Attachment point")


def edus(path: Path) -> list[str]:
    root = ElementTree.parse(path).getroot()
    return [" ".join("".join(s.itertext()).split()) for s in root.iter("segment")]


def main(data: Path) -> dict:
    out: dict = {"tool": "RST-Tace 00ab7e5", "documents": {}, "unreadable": {}}
    for one in sorted((data / "1").glob("*.rs3")):
        two = data / "2" / one.name
        if not two.exists() or edus(one) != edus(two):
            continue
        try:
            t1 = TableGenerator().run(RstTreeParser(str(one)).read())
            t2 = TableGenerator().run(RstTreeParser(str(two)).read())
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                comp = TableComparer().run(t1, t2)
        except Exception as e:  # RST-Tace's own refusal of a file
            out["unreadable"][one.stem] = f"{type(e).__name__}: {e}"
            continue
        dists = [c.matchingDistance for c in comp]
        out["documents"][one.stem] = {
            "relations": [t1.length(), t2.length()],
            "matched": int(sum(d != MatchingDistance.NO_MATCHING for d in dists)),
            "unmatched": int(sum(d == MatchingDistance.NO_MATCHING for d in dists)),
            "same_cs": int(sum(d == MatchingDistance.COMPLETE_SAME_CS for d in dists)),
            "ratio": {f: float(comp.matchingRatios[f]) for f in FACTORS},
            "kappa": {f: (None if comp.cohensKappas[f] != comp.cohensKappas[f]
                          else float(comp.cohensKappas[f])) for f in FACTORS},
        }
    return out


def look_through_spans(node):
    """RST-Tace's extractMonoNuclearRelation, descending through span groups whose one child
    has no satellite."""
    while isinstance(node.toChildren, Span):
        relation = node.toChildren.children[0].toSibling
        if relation is not None or len(node.toChildren.children) != 1:
            return relation
        node = node.toChildren.children[0]
    return None


def write(result: dict, name: str) -> None:
    target = Path(__file__).with_name(name)
    target.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"{len(result['documents'])} documents, {len(result['unreadable'])} unreadable "
          f"-> {target}")


if __name__ == "__main__":
    write(main(Path(sys.argv[1])), "rsttace_rstmulti.json")
    generator.extractMonoNuclearRelation = look_through_spans
    write(main(Path(sys.argv[1])), "rsttace_rstmulti_cs.json")
