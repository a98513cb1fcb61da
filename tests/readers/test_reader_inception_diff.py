"""INCEpTION's agreement diff as JSON."""

import json
from pathlib import Path

import pytest

from corpusagree import readers
from corpusagree.analyses import spans
from corpusagree.model.errors import InputError
from corpusagree.readers import inception_diff

ROOT = Path(__file__).resolve().parents[2]
DIFF = ROOT / "docs/formats/coref/inception_diff/diff.json"
TEXTS = ROOT / "docs/formats/coref/inception_diff/variants/texts"
LS = ROOT / "docs/formats/coref/labelstudio/export.json"


def test_with_the_texts_the_units_of_label_studio():
    ours = spans.read(TEXTS / "diff.json", texts=str(TEXTS / "texts")).data.units()
    theirs = spans.read(LS).data.units()
    assert sorted(u[2:] for u in ours) == sorted(u[2:] for u in theirs)


def test_without_texts_positions_are_characters():
    anns = inception_diff.read([DIFF])
    ann1 = next(a for a in anns if a.annotator == "ann1" and a.document.id == "doc1.txt")
    assert sorted(m.fragments for m in ann1.mentions.values()) == \
        [((0, 12),), ((17, 32),), ((36, 42),)]
    assert len(ann1.document.tokens) == 42  # as long as its last span ends
    with pytest.raises(InputError, match="unit='token'"):
        spans.read(DIFF, unit="char")


def test_a_span_ending_before_it_starts_is_named(tmp_path):
    f = tmp_path / "diff.json"
    f.write_text(json.dumps([{"doc": "d", "user": "u", "begin": 0, "end": 3, "label": "X"},
                             {"doc": "d", "user": "u", "begin": 9, "end": 4, "label": "X"},
                             {"doc": "d", "begin": 1, "end": 2}]))
    with pytest.raises(InputError) as e:
        inception_diff.read([f])
    assert "record 3: no user" in str(e.value)
    f.write_text(json.dumps([{"doc": "d", "user": "u", "begin": 0, "end": 3, "label": "X"},
                             {"doc": "d", "user": "u", "begin": 9, "end": 4, "label": "X"}]))
    with pytest.raises(InputError, match=r"record 2: span ends \(4\) before it starts \(9\)"):
        inception_diff.read([f])


def test_sniffed():
    assert readers.detect("coref", DIFF) == "inception_diff"
    assert readers.detect("coref", LS) == "labelstudio"


def test_an_offset_past_any_text_is_named_before_anything_is_allocated(tmp_path, cli):
    """Without the texts each character is a position: an end of 2³² (a damaged offset)
    allocated a list of 4 × 10⁹ positions and ended in a MemoryError."""
    f = tmp_path / "diff.json"
    f.write_text(json.dumps([{"doc": "d", "user": "u", "begin": 0, "end": 3, "label": "X"},
                             {"doc": "d", "user": "v", "begin": 0, "end": 2 ** 32,
                              "label": "X"}]))
    with pytest.raises(InputError, match=r"record 2: a span ending at character "
                                         r"4,294,967,296 .*texts=DIR"):
        inception_diff.read([f])
    status, out, err = cli("spans", f)
    assert status == 2 and not out and "give the documents' texts with --texts DIR" in err
