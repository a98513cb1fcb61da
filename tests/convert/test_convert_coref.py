"""Coreference → reliability data (Artstein & Poesio 2005, §4.1): alignment by span, head and
overlap; chain, prefix and antecedent labels; missing vs singleton; dropped singletons; a mention
in several chains; and equality with a frozenset-per-mention reference and with NLTK on random
corpora."""

import math
import warnings

import numpy as np
import pytest

from corpusagree.convert import coref as cc
from corpusagree.model.chains import chains_from_links
from corpusagree.model.corpus import Chain, CorefAnnotation, Document, Link, Mention
from corpusagree.model.data import ReliabilityData
from corpusagree.model.errors import InputError
from corpusagree.stats import coefficients as co
from corpusagree.stats.kernel import kernel

SETS = ("passonneau", "jaccard", "dice", "masi")


def frag(span):
    """(s, e) or ((s, e), (s, e), ...) → sorted fragments."""
    return (span,) if isinstance(span[0], int) else tuple(sorted(span))


def make(annotator, chains, doc="d", n_tokens=30, heads=None, links=None):
    """An annotation whose chains are lists of spans; equal spans are one mention (so a span
    listed in two chains is a mention in several chains). ``heads``: span → head token.
    ``links`` (anaphor, antecedent) span pairs make the chains instead, as a reader would."""
    heads = heads or {}
    mentions, ids = {}, {}
    for chain in chains:
        for span in chain:
            f = frag(span)
            if f not in ids:
                ids[f] = f"m{len(ids) + 1}"
                mentions[ids[f]] = Mention(ids[f], f, heads.get(span))
    if links is not None:
        built = chains_from_links(list(mentions), [Link(ids[frag(a)], ids[frag(b)])
                                                   for a, b in links])
    else:
        built = [Chain(f"c{k}", [ids[frag(s)] for s in chain]) for k, chain in enumerate(chains)]
    document = Document(doc, [f"w{i}" for i in range(n_tokens)])
    return CorefAnnotation(document, annotator, mentions, built)


def labels(data, coder):
    """item name → label of one coder (frozensets of item names, None = missing)."""
    c = data.coders.index(coder)
    return {it: data.label(int(k)) for it, k in zip(data.items, data.codes[c], strict=True)}


# ---- the three labels -----------------------------------------------------------------------
@pytest.fixture
def two():
    a = make("A", [[(0, 2), (5, 6), (9, 10)], [(3, 4)], [(12, 14), (16, 17)]])
    b = make("B", [[(0, 2), (9, 10)], [(3, 4), (5, 6)], [(12, 14)], [(16, 17)], [(20, 21)]])
    return [a, b]


def test_chain_labels(two):
    data, al = cc.coref_data(two)
    assert al.items == ["d[0:2]", "d[3:4]", "d[5:6]", "d[9:10]", "d[12:14]", "d[16:17]",
                        "d[20:21]"]
    A, B = labels(data, "A"), labels(data, "B")
    assert A["d[5:6]"] == {"d[0:2]", "d[5:6]", "d[9:10]"}
    assert B["d[5:6]"] == {"d[3:4]", "d[5:6]"}
    assert A["d[20:21]"] is None and B["d[20:21]"] == {"d[20:21]"}
    assert list(data.groups) == [0] * 7 and data.group_names == ["d"]
    # one row per distinct chain: A has 3 chains, B 5, and B's {3:4,5:6} ≠ any of A's
    assert data.n_labels == 8


def test_prefix_labels(two):
    data, _ = cc.coref_data(two, label="prefix")
    A, B = labels(data, "A"), labels(data, "B")
    assert A["d[0:2]"] == {"d[0:2]"}
    assert A["d[5:6]"] == {"d[0:2]", "d[5:6]"}
    assert A["d[9:10]"] == {"d[0:2]", "d[5:6]", "d[9:10]"}
    assert B["d[9:10]"] == {"d[0:2]", "d[9:10]"}
    assert A["d[16:17]"] == {"d[12:14]", "d[16:17]"} and B["d[16:17]"] == {"d[16:17]"}


def test_antecedent_labels(two):
    data, _ = cc.coref_data(two, label="antecedent")
    assert not data.is_set
    A, B = labels(data, "A"), labels(data, "B")
    assert [A[i] for i in ("d[0:2]", "d[5:6]", "d[9:10]", "d[3:4]", "d[16:17]")] == \
        ["none", "d[0:2]", "d[5:6]", "none", "d[12:14]"]
    assert [B[i] for i in ("d[9:10]", "d[5:6]", "d[20:21]")] == ["d[0:2]", "d[3:4]", "none"]
    assert A["d[20:21]"] is None


def test_text_order_nested_and_discontinuous():
    """Items sort by start, the longer first; a discontinuous mention by its first token."""
    a = make("A", [[(2, 6), (2, 3)], [((4, 5), (7, 8)), (10, 11)]])
    data, al = cc.coref_data([a, make("B", [[(2, 3)]])], label="prefix")
    assert al.items == ["d[2:6]", "d[2:3]", "d[4:5,7:8]", "d[10:11]"]
    assert labels(data, "A")["d[2:3]"] == {"d[2:6]", "d[2:3]"}
    assert al.text(2) == "w4 … w7"


def test_natural_order_of_documents_annotators_as_given():
    """Documents in natural order of their ids; annotators in the order the annotations name
    them (the first is the key of the coreference scores)."""
    anns = [make(a, [[(0, 1)]], doc=d) for d in ("doc10", "doc2") for a in ("w10", "w9")]
    al = cc.align(anns)
    assert al.documents == ["doc2", "doc10"] and al.annotators == ["w10", "w9"]
    assert al.items == ["doc2[0:1]", "doc10[0:1]"] and list(al.item_doc) == [0, 1]
    assert cc.align(anns[::-1]).annotators == ["w9", "w10"]


# ---- missing vs singleton -------------------------------------------------------------------
def test_unmarked_singleton_only_in_annotated_documents():
    a1 = make("A", [[(0, 1), (2, 3)]], doc="d1")
    b1 = make("B", [[(0, 1)]], doc="d1")
    a2 = make("A", [[(0, 1)]], doc="d2")
    c2 = make("C", [[(0, 1), (4, 5)]], doc="d2")
    missing, al = cc.coref_data([a1, b1, a2, c2])
    single, _ = cc.coref_data([a1, b1, a2, c2], unmarked="singleton")
    assert al.documents == ["d1", "d2"] and al.annotators == ["A", "B", "C"]
    assert labels(missing, "B")["d1[2:3]"] is None
    assert labels(single, "B")["d1[2:3]"] == {"d1[2:3]"}
    assert labels(single, "A")["d2[4:5]"] == {"d2[4:5]"}
    # B never saw d2 and C never saw d1: still missing
    assert labels(single, "B")["d2[0:1]"] is None and labels(single, "C")["d1[0:1]"] is None
    ante = cc.to_data(al, "antecedent", "singleton")
    assert labels(ante, "B")["d1[2:3]"] == "none" and labels(ante, "B")["d2[4:5]"] is None
    assert (single.codes >= 0).sum() == (missing.codes >= 0).sum() + 2


# ---- Artstein & Poesio's point -------------------------------------------------------------
def test_different_antecedents_same_chain_agree():
    """Artstein & Poesio 2005, §4.1 (engine E2 … it … it): one coder links the second 'it' to
    'it', another to 'engine E2'; they agree on the chain, so the chain label shows no
    disagreement. A coder who misses the first 'it' is partly in agreement under the chain label
    (a subset, Passonneau 1/3) but fully in disagreement on the antecedent of the second
    'it'."""
    e2, it1, it2, tanker, oranges = (1, 3), (8, 9), (11, 12), (15, 17), (5, 6)
    others = [[tanker], [oranges]]
    a = make("A", [[e2, it1, it2], *others], links=[(it1, e2), (it2, it1)])
    b = make("B", [[e2, it1, it2], *others], links=[(it1, e2), (it2, e2)])
    assert {frozenset(c.members) for c in a.chains} == {frozenset(c.members) for c in b.chains}
    data, _ = cc.coref_data([a, b])
    for d in SETS:
        assert kernel(data, d).stats().observed('pairs')[0] == 0
        assert co.alpha(data, d).value == 1
    c = make("C", [[e2, it2], *others])
    chain, _ = cc.coref_data([a, c])
    ante, _ = cc.coref_data([a, c], label="antecedent")
    e = kernel(chain, "passonneau")
    it2_item = chain.items.index("d[11:12]")
    assert e.disagr_i[it2_item] == pytest.approx(1 / 3)
    assert kernel(ante, "nominal").disagr_i[ante.items.index("d[11:12]")] == 1


# ---- alignment by head and by overlap -------------------------------------------------------
def test_head_match():
    a = make("A", [[(0, 3), (6, 7)]], heads={(0, 3): 2, (6, 7): 6})
    b = make("B", [[(1, 3), (6, 7)], [(9, 10)]], heads={(1, 3): 2, (6, 7): 6})
    data, al = cc.coref_data([a, b], match="head")
    assert al.items == ["d[0:3]", "d[6:7]", "d[9:10]"]
    assert labels(data, "B")["d[0:3]"] == {"d[0:3]", "d[6:7]"}
    assert al.report.per_annotator["B"]["no_head"] == 1       # (9, 10): by exact span
    assert al.report.per_annotator["A"]["aligned"] == 2
    exact, al2 = cc.coref_data([a, b])
    assert al2.n_items == 4 and al2.report.single == 3


def test_head_collision_merges_and_unites():
    """Two mentions of one annotator with the same head are one judgement: chains united."""
    a = make("A", [[(0, 3), (8, 9)], [(2, 3), (10, 11)]], heads={(0, 3): 2, (2, 3): 2})
    b = make("B", [[(2, 3), (8, 9)]], heads={(2, 3): 2})
    data, al = cc.coref_data([a, b], match="head")
    assert al.report.per_annotator["A"]["merged"] == 1
    assert al.report.per_annotator["A"]["several_chains"] == 1
    assert labels(data, "A")["d[0:3]"] == {"d[0:3]", "d[8:9]", "d[10:11]"}
    assert any("union" in n for n in al.report.notes())


def test_overlap_match_is_one_to_one():
    """'a photo' meets 'a photo of her'; of B's two spans overlapping A's (0, 4) only the
    better one is matched, the other becomes an item of its own."""
    a = make("A", [[(0, 4), (10, 11)], [(3, 4)]])
    b = make("B", [[(0, 2), (10, 11)], [(1, 3)], [(3, 4)]])
    data, al = cc.coref_data([a, b], match="overlap")
    assert al.items == ["d[0:4]", "d[1:3]", "d[3:4]", "d[10:11]"]
    assert labels(data, "B")["d[0:4]"] == {"d[0:4]", "d[10:11]"}
    assert labels(data, "A")["d[1:3]"] is None
    assert al.report.per_annotator["B"]["unmatched"] == 1
    assert co.alpha(data, "jaccard").value == co.alpha(cc.coref_data(
        [a, make("B", [[(0, 4), (10, 11)], [(1, 3)], [(3, 4)]])])[0], "jaccard").value


# ---- several chains, dropped singletons, bad options ----------------------------------------
def test_mention_in_several_chains_is_united():
    a = make("A", [[(0, 1), (4, 5)], [(4, 5), (8, 9)], [(12, 13)]])
    b = make("B", [[(0, 1), (4, 5), (8, 9)], [(12, 13)]])
    data, al = cc.coref_data([a, b])
    assert labels(data, "A")["d[4:5]"] == {"d[0:1]", "d[4:5]", "d[8:9]"}
    assert labels(data, "A")["d[0:1]"] == {"d[0:1]", "d[4:5]"}
    assert al.report.per_annotator["A"]["several_chains"] == 1
    ante = cc.to_data(al, "antecedent")
    assert labels(ante, "A")["d[4:5]"] == "d[0:1]" and labels(ante, "A")["d[8:9]"] == "d[4:5]"
    pre = cc.to_data(al, "prefix")
    assert labels(pre, "A")["d[4:5]"] == {"d[0:1]", "d[4:5]"}
    # for scoring, the mention stays in its first chain only (as the reference scorer keeps
    # the first occurrence): {0:1 4:5} {8:9} {12:13}
    cl = al.clusters()
    assert cl[0, 0] == cl[0, 1] != cl[0, 2] and len(set(cl[0])) == 3
    assert len(set(cl[1])) == 2


def test_repeated_span_is_counted_and_warned():
    """One span marked twice by an annotator: counted (``repeated``; the item is merged), and a
    warning names the file, the counts and what was done. The first chain is the one that
    starts first in the text, whatever the annotation's order of chains."""
    doc = Document("d", [f"w{i}" for i in range(20)])
    ments = {"m1": Mention("m1", ((0, 1),)), "m2": Mention("m2", ((4, 5),)),
             "m3": Mention("m3", ((4, 5),)), "m4": Mention("m4", ((2, 3),)),
             "m5": Mention("m5", ((8, 9),)), "m6": Mention("m6", ((8, 9),))}
    a = CorefAnnotation(doc, "A", ments, [Chain("late", ["m4", "m2"]),
                                          Chain("early", ["m1", "m3"]),
                                          Chain("same", ["m5", "m6"])], source="a/d.conll")
    b = make("B", [[(0, 1), (2, 3), (4, 5)]])
    with pytest.warns(UserWarning) as caught:
        al = cc.align([a, b])
    assert [str(w.message) for w in caught] == [
        "a/d.conll: 2 mention(s) repeat the span of another mention of the same annotator "
        "(1 document(s); 1 span(s) in more than one chain): m2 = m3 (4-5); m5 = m6 (8-9); the "
        "coreference scores keep each span in its first chain where the other annotator marks it "
        "too, else in each, as the reference scorer v8.01; the chain labels of α and β unite its "
        "chains"]
    per = al.report.per_annotator["A"]
    assert (per["repeated"], per["merged"], per["several_chains"]) == (2, 2, 1)
    cl = al.clusters()
    items = {name: i for i, name in enumerate(al.items)}
    # 'early' starts at 0:1, 'late' at 2:3: 4:5 stays with 0:1
    assert cl[0, items["d[4:5]"]] == cl[0, items["d[0:1]"]] != cl[0, items["d[2:3]"]]
    assert cl[0, items["d[8:9]"]] >= 0
    data = cc.to_data(al)
    assert labels(data, "A")["d[4:5]"] == {"d[0:1]", "d[2:3]", "d[4:5]"}


def test_drop_singletons():
    a = make("A", [[(0, 1), (4, 5)], [(6, 7)], [(8, 9)]])
    b = make("B", [[(0, 1)], [(4, 5)], [(6, 7), (8, 9)]])
    data, al = cc.coref_data([a, b], singletons="drop")
    assert al.report.per_annotator["A"]["dropped_singletons"] == 2
    assert al.report.per_annotator["B"]["dropped_singletons"] == 2
    assert al.items == ["d[0:1]", "d[4:5]", "d[6:7]", "d[8:9]"]
    assert labels(data, "A")["d[6:7]"] is None and labels(data, "B")["d[0:1]"] is None
    assert data.n_labels == 2
    assert "dropped" in " ".join(al.report.notes())


def test_unknown_members_and_unchained_mentions():
    doc = Document("d", ["w"] * 5)
    ms = {m: Mention(m, ((i, i + 1),)) for i, m in enumerate(["x", "y", "z"])}
    ann = CorefAnnotation(doc, "A", ms, [Chain("c", ["x", "ghost", "y"])])
    data, al = cc.coref_data([ann, make("B", [[(0, 1)]], n_tokens=5)])
    assert al.report.per_annotator["A"]["unknown_members"] == 1
    assert labels(data, "A")["d[2:3]"] == {"d[2:3]"}          # z: in no chain, a singleton


def test_bad_options_and_duplicates(two):
    for kw in ({"match": "fuzzy"}, {"singletons": "maybe"}):
        with pytest.raises(InputError, match="must be one of"):
            cc.align(two, **kw)
    al = cc.align(two)
    with pytest.raises(InputError, match="label must be one of"):
        cc.to_data(al, label="entity")
    with pytest.raises(InputError, match="unmarked must be one of"):
        cc.to_data(al, unmarked="zero")
    with pytest.raises(InputError, match="twice"):
        cc.align([two[0], two[0]])
    with pytest.raises(InputError, match="no coreference"):
        cc.align([])


# ---- against a frozenset-per-mention reference and NLTK -------------------------------------
def random_corpus(rng, n_docs=3, n_annotators=4, p_skip=0.2):
    anns = []
    for d in range(n_docs):
        pool = sorted({(int(s), int(s) + int(k)) for s, k in
                       zip(rng.integers(0, 40, 25), rng.integers(1, 4, 25), strict=True)})
        for a in range(n_annotators):
            if d and rng.random() < p_skip:
                continue
            spans = [pool[i] for i in np.flatnonzero(rng.random(len(pool)) < 0.7)]
            ent = rng.integers(0, max(2, len(spans) // 3), len(spans))
            chains = [[s for s, e in zip(spans, ent, strict=True) if e == k]
                      for k in np.unique(ent)]
            if spans and rng.random() < 0.3:             # one mention in a second chain
                chains.append([spans[0], spans[-1]])
            anns.append(make(f"a{a}", [c for c in chains if c], doc=f"doc{d}", n_tokens=45))
    return anns


def order_key(span):
    return (span[0][0], -span[-1][1], sum(e - s for s, e in span))


def reference(anns, label, unmarked, singletons):
    """Labels computed the slow, obvious way: one frozenset per (annotator, mention)."""
    by_doc = {}
    for x in anns:
        chains = [{x.mentions[m].span for m in c.members} for c in x.chains]
        if singletons == "drop":
            chains = [c for c in chains if len(c) > 1]
        by_doc.setdefault(x.document.id, {})[x.annotator] = chains
    triples = []
    for doc, by_ann in by_doc.items():
        spans = {s for chains in by_ann.values() for c in chains for s in c}
        for annotator, chains in by_ann.items():
            for span in spans:
                union = set().union(*[c for c in chains if span in c])
                if not union:
                    if unmarked == "singleton":
                        triples.append((annotator, (doc, span), "none" if label == "antecedent"
                                        else frozenset({(doc, span)})))
                    continue
                before = [s for s in union if order_key(s) < order_key(span)]
                if label == "chain":
                    value = frozenset((doc, s) for s in union)
                elif label == "prefix":
                    value = frozenset((doc, s) for s in before + [span])
                else:
                    value = str((doc, max(before, key=order_key))) if before else "none"
                triples.append((annotator, (doc, span), value))
    return ReliabilityData.from_triples(triples)


def values(data, distances):
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", co.DegenerateWarning)
        for d in distances:
            for f in (co.alpha, co.alpha_prime, co.beta, co.bias):
                try:
                    out.append(f(data, d).value)
                except ValueError:
                    out.append(None)
    return out


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("label", cc.LABELS)
def test_equals_frozenset_reference(seed, label):
    rng = np.random.default_rng(seed)
    anns = random_corpus(rng)
    unmarked = ("missing", "singleton")[seed % 2]
    singletons = ("keep", "drop")[(seed // 2) % 2]
    ours, al = cc.coref_data(anns, label=label, unmarked=unmarked, singletons=singletons)
    ref = reference(anns, label, unmarked, singletons)
    assert ours.n_items == ref.n_items and ours.n_labels == ref.n_labels
    assert int((ours.codes >= 0).sum()) == int((ref.codes >= 0).sum())
    dists = ("nominal",) if label == "antecedent" else SETS
    for x, y in zip(values(ours, dists), values(ref, dists), strict=True):
        assert (x is None and y is None) or (math.isnan(x) and math.isnan(y)) or \
            abs(x - y) <= 1e-12


@pytest.mark.parametrize("seed", range(3))
def test_alpha_equals_nltk(seed):
    """No missing judgement (every annotator, every document, unmarked = singleton): α equals
    NLTK's AnnotationTask.alpha with its Jaccard distance."""
    nltk = pytest.importorskip("nltk.metrics.agreement")
    from nltk.metrics.distance import jaccard_distance
    anns = random_corpus(np.random.default_rng(100 + seed), n_docs=2, n_annotators=3, p_skip=0)
    data, _ = cc.coref_data(anns, unmarked="singleton")
    assert (data.codes >= 0).all()
    triples = [(c, i, data.labels[int(k)]) for c, row in zip(data.coders, data.codes, strict=True)
               for i, k in zip(data.items, row, strict=True)]
    theirs = nltk.AnnotationTask(data=triples, distance=jaccard_distance).alpha()
    assert co.alpha(data, "jaccard").value == pytest.approx(theirs, abs=1e-12)


def test_alignment_report_as_data(two):
    """The report's counts as plain data (its sentences are ``notes()``) and the clusters the
    coreference scores compare: chains that share an item of one annotator are one cluster."""
    al = cc.align(two)
    d = al.report.to_dict()
    assert set(d) == {"match", "singletons", "documents", "annotators", "items", "complete",
                      "single", "per_annotator"}
    assert d["items"] == al.n_items and d["annotators"] == ["A", "B"]
    assert set(d["per_annotator"]["A"]) == set(cc.COUNTERS)
    clusters = al.clusters()
    assert clusters.shape == (2, al.n_items)
    assert (clusters[1] >= 0).sum() == d["per_annotator"]["B"]["items"]
