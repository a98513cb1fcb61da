"""The sample segmentation corpus gives the same masses in every format it is stored in."""

from __future__ import annotations

import importlib.util

import pytest

from corpusagree.readers import disrpt, plaintext, positions, rs3, segeval

from support import SAMPLES

ROOT = SAMPLES / "segments"


def masses(segs) -> dict[tuple[str, str], tuple[int, ...]]:
    return {(s.document, s.annotator): s.masses for s in segs}


@pytest.fixture(scope="module")
def reference() -> dict[tuple[str, str], tuple[int, ...]]:
    return masses(segeval.read(ROOT / "segments.json", unit="word"))


def test_design(reference: dict) -> None:
    docs = {d for d, _ in reference}
    annotators = {a for _, a in reference}
    assert len(docs) >= 3 and len(annotators) >= 3
    assert len(reference) == len(docs) * len(annotators) - 1
    assert ("workshop", "chloe") not in reference


@pytest.mark.parametrize("name, read", [
    ("segeval TSV", lambda: segeval.read(ROOT / "segeval_tsv")),
    ("positions CSV", lambda: positions.read(ROOT / "positions")),
    ("rs3", lambda: rs3.read(ROOT / "rs3")),
    ("DISRPT", lambda: disrpt.read(ROOT / "disrpt")),
    ("plain text", lambda: plaintext.read(ROOT / "text")),
])
def test_format_matches_segeval_json(reference: dict, name: str, read) -> None:
    assert masses(read()) == reference, name


def test_generator_definition_matches_files(reference: dict) -> None:
    spec = importlib.util.spec_from_file_location("make_samples", ROOT / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    generated = {(d, a): tuple(m) for d, coders in module.masses().items()
                 for a, m in coders.items()}
    assert generated == reference
