"""The continuum model: units, documents, annotators who marked nothing, and bad units."""

import pytest

from corpusagree.model.continuum import Continuum
from corpusagree.model.errors import InputError


def test_from_units_join_and_document():
    c = Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
                              ("ann1", 10, 20, "LOC")], begin=0, end=60)
    assert repr(c) == "Continuum(3 units by 2 annotators in 1 documents, 2 categories, unit char)"
    assert c.categories == ["LOC", "PER"] and c.length.tolist() == [60.0]
    d = Continuum.from_units([("ann3", 3, 9, "ORG")], end=30, annotators=["ann2", "ann3"],
                             document="d2")
    j = Continuum.join([c, d])
    assert j.annotators == ["ann1", "ann2", "ann3"] and j.documents == ["document", "d2"]
    assert j.annotated.tolist() == [[True, False], [True, True], [False, True]]
    assert j.document("d2").units() == [("d2", "ann3", 3.0, 9.0, "ORG")]
    assert j.document(0).units() == c.units()


@pytest.mark.parametrize("units, kw, message", [
    ([("a", 5, 3, "X")], {}, "unit ('a', 5, 3, 'X') ends before it starts"),
    ([("a", 5, 70, "X")], {"end": 60}, "lies outside the continuum [0, 60) of document"),
    ([("a", 1, 2)], {}, "unit 0 has 3 fields"),
    ([("z", 1, 2, "X")], {"annotators": ["a"]}, "annotator 'z' is not among"),
])
def test_bad_units(units, kw, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[")):
        Continuum.from_units(units, **kw)


def test_join_needs_distinct_documents():
    c = Continuum.from_units([("a", 0, 1, "X")])
    with pytest.raises(InputError, match="document 'document' appears in two continua"):
        Continuum.join([c, c])
