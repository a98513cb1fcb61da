"""The sample coreference corpus: the CoNLL-2012 and CorefUD versions agree, the designed
disagreements are there, and make_sample.py still writes exactly the committed files."""

import importlib.util

import pytest

from corpusagree.readers import conll2012, corefud
from corpusagree.stats import corefscores as cs

from support import SAMPLES

SAMPLE = SAMPLES / "coref"
ANNOTATORS = ["ann1", "ann2", "ann3"]
DOCS = ["harbour", "gates", "recipe", "council", "letters"]


def by_key(anns, strip_part=False):
    return {(a.annotator, a.document.id.removesuffix("_000") if strip_part else a.document.id): a
            for a in anns}


@pytest.fixture(scope="module")
def conll():
    return by_key(conll2012.read([SAMPLE / "conll2012" / f"{a}.v4_gold_conll"
                                  for a in ANNOTATORS]), strip_part=True)


@pytest.fixture(scope="module")
def ud():
    return by_key(corefud.read([SAMPLE / "corefud" / f"{a}.conllu" for a in ANNOTATORS]))


def hull(span):
    return ((span[0][0], span[-1][1]),)


def partition(ann, key=lambda span: span):
    return {frozenset(key(ann.mentions[m].span) for m in c.members) for c in ann.chains}


def test_same_documents_and_tokens(conll, ud):
    assert set(conll) == set(ud) == {(a, d) for a in ANNOTATORS for d in DOCS}
    for k in ud:
        assert conll[k].document.tokens == ud[k].document.tokens
        assert conll[k].document.sentence_starts == ud[k].document.sentence_starts


def test_same_mentions_and_chains(conll, ud):
    """CoNLL-2012 has no discontinuous mentions: there they are their covering span."""
    for k in ud:
        spans = [m.span for m in ud[k].mentions.values()]
        assert sorted(m.span for m in conll[k].mentions.values()) == sorted(map(hull, spans)), k
        assert partition(conll[k]) == partition(ud[k], hull), k


def test_corpus_design(ud):
    discontinuous = {k for k, a in ud.items() for m in a.mentions.values() if len(m.fragments) > 1}
    assert discontinuous == {("ann1", "gates"), ("ann2", "gates"), ("ann3", "gates"),
                             ("ann1", "council"), ("ann3", "council")}
    for k, a in ud.items():
        assert any(len(c.members) == 1 for c in a.chains), k              # singletons
        starts = a.document.sentence_starts
        sentences = [{sum(s <= m.fragments[0][0] for s in starts)
                      for m in (a.mentions[x] for x in c.members)} for c in a.chains]
        assert any(len(s) > 1 for s in sentences), k                     # chains cross sentences


# MUC F1 and mention counts of ann1 (key) vs the other annotator, worked out by hand
@pytest.mark.parametrize("doc, other, muc_f1, n_mentions", [
    ("gates", "ann2", 1.0, (10, 10)),
    ("harbour", "ann2", 7 / 8, (12, 12)),        # 'she' attached to Mara: R = P = 7/8
    ("recipe", "ann2", 10 / 11, (11, 11)),       # recipe chain split: R = 5/6, P = 1
    ("recipe", "ann3", 1.0, (11, 11)),           # 'a photo': a span, no link changes
    ("council", "ann3", 6 / 7, (10, 10)),        # councils + engineers merged: R = 1, P = 3/4
    ("council", "ann2", 1.0, (10, 9)),           # discontinuous singleton missed
    ("letters", "ann3", 1.0, (11, 10)),          # singleton 'Lisbon' missed
    ("letters", "ann2", 8 / 9, (11, 12)),        # 'each other' added: R = 1, P = 4/5
])
def test_designed_disagreements(ud, doc, other, muc_f1, n_mentions):
    key, resp = ud[("ann1", doc)], ud[(other, doc)]
    assert (len(key.mentions), len(resp.mentions)) == n_mentions
    assert cs.muc(partition(key), partition(resp)).f1 == pytest.approx(muc_f1)
    same = partition(key) == partition(resp)
    assert same == (doc == "gates")


def test_ann3_recipe_boundary(ud):
    key, resp = ud[("ann1", "recipe")], ud[("ann3", "recipe")]
    only = {m.span for m in key.mentions.values()} ^ {m.span for m in resp.mentions.values()}
    assert only == {((25, 29),), ((25, 27),)}      # 'a photo of her' vs 'a photo'


def test_make_sample_writes_the_committed_files(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("make_sample", SAMPLE / "make_sample.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setattr(mod, "HERE", tmp_path)
    mod.main()
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    formats = ("conll2012", "corefud", "brat", "mmax2", "xmi")
    committed = sorted(p.relative_to(SAMPLE) for f in formats
                       for p in (SAMPLE / f).rglob("*") if p.is_file())
    assert written == committed
    for rel in written:
        assert (tmp_path / rel).read_bytes() == (SAMPLE / rel).read_bytes(), rel
