"""Annotations → continua: mentions (tokens or characters, categories, discontinuous mentions)
and segmentations."""

import numpy as np
import pytest

import corpusagree.readers as readers
from corpusagree.convert.continuum import from_annotations, from_segmentations
from corpusagree.model.corpus import CorefAnnotation, Document, Mention, Segmentation
from corpusagree.model.errors import InputError


def annotation(annotator, mentions, doc="d", text="The cat sat on the mat today"):
    document = Document(doc, text.split(), text=text)
    return CorefAnnotation(document, annotator, {
        f"m{i}": Mention(f"m{i}", frags, attrs=attrs) for i, (frags, attrs) in
        enumerate(mentions)})


def test_mentions_in_tokens_and_characters():
    a = annotation("a", [(((0, 2),), {"type": "ANIMAL", "char_offsets": ((0, 7),)}),
                         (((4, 6),), {"type": "THING", "char_offsets": ((15, 22),)})])
    b = annotation("b", [(((1, 2),), {"type": "ANIMAL", "char_offsets": ((4, 7),)})])
    c, notes = from_annotations([a, b])
    assert c.units() == [("d", "a", 0.0, 2.0, "ANIMAL"), ("d", "a", 4.0, 6.0, "THING"),
                         ("d", "b", 1.0, 2.0, "ANIMAL")]
    assert c.bounds.tolist() == [[0.0, 7.0]] and c.unit == "token" and not notes
    chars, _ = from_annotations([a, b], unit="char")
    assert [u[2:4] for u in chars.units()] == [(0.0, 7.0), (15.0, 22.0), (4.0, 7.0)]
    assert chars.bounds.tolist() == [[0.0, 28.0]]


def test_discontinuous_mentions_split_and_categories():
    a = annotation("a", [(((0, 1), (3, 4)), {"etype": "person", "type": "X"})])
    b = annotation("b", [(((0, 1),), {})])
    c, notes = from_annotations([a, b])
    assert [u[1:] for u in c.units()] == [("a", 0.0, 1.0, "person"), ("a", 3.0, 4.0, "person"),
                                          ("b", 0.0, 1.0, "mention")]
    assert notes == ["1 discontinuous mention(s) split into one unit per fragment"]
    named, notes = from_annotations([a, b], category="type")
    assert sorted(named.categories) == ["X", "mention"]
    assert "1 mention(s) without attribute 'type': category 'mention'" in notes


def test_silent_annotator_counts_and_token_only_formats(samples):
    a = annotation("a", [(((0, 2),), {})])
    quiet = annotation("q", [])
    c, _ = from_annotations([a, quiet])
    assert c.annotators == ["a", "q"] and c.annotated.all() and len(c) == 1
    _, anns = readers.read("coref", [samples / "coref" / "conll2012" / "ann1.v4_gold_conll"])
    with pytest.raises(InputError, match="token positions only: use unit='token'"):
        from_annotations(anns, unit="char")
    c, _ = from_annotations(anns)
    assert len(c) == sum(len(x.mentions) for x in anns) and c.categories == ["mention"]


def test_brat_and_mmax2_samples_give_the_same_token_units(samples):
    """By default, too: the entity type is brat's EntityType attribute, MMAX2's type."""
    _, brat = readers.read("coref", [samples / "coref" / "brat"])
    _, mmax = readers.read("coref", [samples / "coref" / "mmax2"], levels=["coref"])
    b, _ = from_annotations(brat)
    m, _ = from_annotations(mmax)
    key = lambda c: sorted((u[0], u[1], u[2], u[3]) for u in c.units())  # noqa: E731
    assert key(b) == key(m)
    assert np.array_equal(b.bounds, m.bounds)


def test_segmentations():
    segs = [Segmentation("d", "a", (2, 3, 5), "word"), Segmentation("d", "b", (5, 5), "word"),
            Segmentation("e", "a", (4,), "word")]
    c = from_segmentations(segs)
    assert c.units() == [("d", "a", 0.0, 2.0, "segment"), ("d", "a", 2.0, 5.0, "segment"),
                         ("d", "a", 5.0, 10.0, "segment"), ("d", "b", 0.0, 5.0, "segment"),
                         ("d", "b", 5.0, 10.0, "segment"), ("e", "a", 0.0, 4.0, "segment")]
    assert c.bounds.tolist() == [[0, 10], [0, 4]] and c.unit == "word"
    assert c.annotated.tolist() == [[True, True], [True, False]]
    with pytest.raises(InputError, match="coder 'c' segments 9 units but coder 'a' segments 10"):
        from_segmentations(segs + [Segmentation("d", "c", (9,), "word")])
    with pytest.raises(InputError, match="more than once|twice|duplicate"):
        from_segmentations(segs + [Segmentation("d", "a", (10,), "word")])


def test_default_categories_of_every_sample_format(samples):
    """The entity types of the coref sample, whatever format holds them (brat's EntityType
    attribute, XMI's referenceType, CorefUD's etype, MMAX2's type)."""
    cats = set()
    for fmt, paths in [("brat", ["brat"]), ("xmi", ["xmi"]), ("mmax2", ["mmax2"]),
                       ("corefud", [f"corefud/ann{k}.conllu" for k in (1, 2, 3)])]:
        _, anns = readers.read("coref", [samples / "coref" / p for p in paths], fmt,
                               **({"levels": ["coref"]} if fmt == "mmax2" else {}))
        cats.add(tuple(from_annotations(anns)[0].categories))
    assert cats == {("abstract", "event", "object", "organization", "person", "place")}


def test_named_entities_from_xmi_and_webanno_tsv(data_dir):
    """The same named entities written by INCEpTION as XMI and as WebAnno TSV 3.3 give the
    same continuum, in tokens and in characters (a character beyond U+FFFF before them), the
    NamedEntity value as category."""
    got = {}
    for fmt in ("xmi", "webanno_tsv"):
        root = data_dir / "coref_a" / fmt / "ner"
        _, anns = readers.read("coref", [root / "ann1", root / "ann2"], fmt, spans=True)
        got[fmt] = [from_annotations(anns, unit)[0] for unit in ("token", "char")]
    for x, t in zip(got["xmi"], got["webanno_tsv"], strict=True):
        assert [u[1:] for u in x.units()] == [u[1:] for u in t.units()]  # doc1.txt, doc1
        assert np.array_equal(x.bounds, t.bounds)
    assert [u[1:] for u in got["xmi"][1].units()] == [
        ("ann1", 0.0, 3.0, "PER"), ("ann1", 10.0, 13.0, "PER"), ("ann1", 17.0, 22.0, "LOC"),
        ("ann2", 0.0, 3.0, "PER"), ("ann2", 6.0, 13.0, "ORG"), ("ann2", 17.0, 22.0, "LOC")]
