"""Sense tags → ReliabilityData per scheme (fine, coarse, extended, multi): Artstein & Poesio's
(2005, §4.4) *call* example, hand-computed values, brute-force frozenset equivalence on random
inventories, NLTK as a peer, unknown senses, clusters, lexicographer-file groups, and the sample
corpus."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.convert.senses import (
    SenseTable,
    convert,
    label_text,
    lexfile_inventory,
    to_reliability,
)
from corpusagree.model.corpus import SenseTag
from corpusagree.model.errors import InputError
from corpusagree.model.senses import SenseInventory
from corpusagree.readers import inventory, raganato, sensetsv
from corpusagree.stats.kernel import kernel as engine

from support import CORPORA, SAMPLES

SAMPLE = SAMPLES / "senses"

#: Artstein & Poesio 2005, §4.4, Table 7: Palmer et al.'s Group 1 of *call* (WordNet 1.7 senses)
CALL = SenseInventory.from_mapping({"WN1": "LABEL", "WN3": "LABEL", "WN19": "SEE",
                                    "WN22": "ADDRESS"})


def tags(rows, lemma="call", document="d1", source="t.tsv"):
    """SenseTags from (item, annotator, senses...) rows."""
    return [SenseTag(item, ann, frozenset(senses), lemma, document, source, n)
            for n, (item, ann, *senses) in enumerate(rows, 1)]


def disagreement(sd) -> np.ndarray:
    return engine(sd.data, sd.distance).disagr_i


# ---------------------------------------------------------------- the *call* example


def test_call_example_extended_passonneau():
    """A: WN1 vs B: WN3 → es sets {WN1, LABEL}, {WN3, LABEL}: d = 2/3; WN1 vs LABEL: 1/3."""
    sd = convert(tags([("i1", "A", "WN1"), ("i1", "B", "WN3"),
                       ("i2", "A", "WN1"), ("i2", "B", "LABEL")]), "extended", CALL)
    assert sd.distance == "passonneau" and sd.data.is_set
    assert disagreement(sd) == pytest.approx([2 / 3, 1 / 3])
    assert sd.data.label(sd.data.codes[0, 0]) == {"WN1", "LABEL"}
    # α by hand: Do = (2/3 + 1/3)/2; pooled values x={WN1,L}×2, y={WN3,L}, z={L}:
    # De = (2·2·1·2/3 + 2·2·1·1/3 + 2·1·1·1/3) / (4·3) = 7/18, α = 1 − (1/2)/(7/18) = −2/7
    res = ca.alpha(sd.data, sd.distance)
    assert (res.observed, res.expected, res.value) == pytest.approx((1 / 2, 7 / 18, -2 / 7))


def test_call_example_other_schemes():
    rows = [("i1", "A", "WN1"), ("i1", "B", "WN3"), ("i2", "A", "WN1"), ("i2", "B", "LABEL")]
    fine = convert(tags(rows), "fine")
    assert disagreement(fine) == pytest.approx([1, 1]) and not fine.data.is_set
    coarse = convert(tags(rows), "coarse", CALL)
    assert disagreement(coarse) == pytest.approx([0, 0])
    assert coarse.data.labels == ["LABEL"]
    # extended with a set distance other than Passonneau
    jac = convert(tags(rows), "extended", CALL, distance="jaccard")
    assert disagreement(jac) == pytest.approx([2 / 3, 1 / 2])


def test_sample_corpus_call_items():
    """The sample puts the two examples on d001.s000.t000 and d001.s004.t000 (A vs B); its
    inventory has a level more (→ G1), so es(WN1) = {WN1, LABEL, G1}: the same distances."""
    t = raganato.read(SAMPLE / "sample.data.xml", sorted((SAMPLE / "keys").glob("*.key.txt")))
    inv = SenseInventory.from_edges(inventory.read_xml(sorted((SAMPLE / "inventory")
                                                              .glob("*.xml"))))
    sd = convert([x for x in t if x.annotator in ("A", "B")], "extended", inv)
    d = dict(zip(sd.data.items, disagreement(sd), strict=True))
    assert d["d001.s000.t000"] == pytest.approx(2 / 3)
    assert d["d001.s004.t000"] == pytest.approx(1 / 3)
    assert sd.data.label(sd.data.codes[0, sd.data.items.index("d001.s000.t000")]) == {
        "call.v.WN1", "call.v.LABEL", "call.v.G1"}
    # depth 1 stops at LABEL: es(LABEL) = {LABEL, G1} now only overlaps {WN1, LABEL}
    sd1 = convert([x for x in t if x.annotator in ("A", "B")], "extended", inv, depth=1)
    d1 = dict(zip(sd1.data.items, disagreement(sd1), strict=True))
    assert d1["d001.s000.t000"] == pytest.approx(2 / 3)
    assert d1["d001.s004.t000"] == pytest.approx(2 / 3)


def test_formats_and_inventory_formats_give_identical_figures():
    rag = raganato.read(SAMPLE / "sample.data.xml", sorted((SAMPLE / "keys").glob("*.key.txt")))
    tsv = sensetsv.read(SAMPLE / "sample.tsv")
    xml_inv = SenseInventory.from_edges(inventory.read_xml(sorted((SAMPLE / "inventory")
                                                                  .glob("*.xml"))))
    tsv_inv = SenseInventory.from_edges(inventory.read_tsv(SAMPLE / "inventory.tsv"))
    values = set()
    for t in (rag, tsv):
        for inv in (xml_inv, tsv_inv):
            row = []
            for scheme in ("fine", "multi", "coarse", "extended"):
                sd = convert(t, scheme, inv if scheme in ("coarse", "extended") else None)
                row += [round(ca.alpha(sd.data, sd.distance).value, 12),
                        round(ca.beta(sd.data, sd.distance).value, 12)]
            values.add(tuple(row))
    assert len(values) == 1
    fine_alpha = next(iter(values))[0]
    assert 0 < fine_alpha < next(iter(values))[6]  # extended α above fine α


# ---------------------------------------------------------------- schemes in detail


def test_multi_sense_tag_is_its_own_label_under_nominal_schemes():
    rows = [("i1", "A", "a", "b"), ("i1", "B", "a"), ("i2", "A", "a", "b"), ("i2", "B", "b", "a")]
    fine = convert(tags(rows), "fine")
    assert fine.data.is_set and disagreement(fine) == pytest.approx([1, 0])
    multi = convert(tags(rows), "multi")
    assert disagreement(multi) == pytest.approx([1 / 3, 0])
    masi = convert(tags(rows), "multi", distance="masi")
    assert disagreement(masi) == pytest.approx([1 - 0.5 * 2 / 3, 0])
    # coarse: the union of the senses' groups
    inv = SenseInventory.from_mapping({"a": "G", "b": "H"})
    coarse = convert(tags(rows), "coarse", inv)
    assert coarse.data.label(coarse.data.codes[0, 0]) == {"G", "H"}
    assert disagreement(coarse) == pytest.approx([1, 0])


def test_coarse_top_groups_and_levels():
    """Top groups (default) make tags given at different levels meet; level=k goes k up."""
    inv = SenseInventory.from_edges([("WN1", "LABEL"), ("WN3", "LABEL"), ("LABEL", "G1"),
                                     ("WN2", "PHONE"), ("PHONE", "G2")])
    rows = [("i1", "A", "WN1"), ("i1", "B", "LABEL"), ("i2", "A", "WN2"), ("i2", "B", "WN3")]
    top = convert(tags(rows), "coarse", inv)
    assert top.options == {"level": "top"}
    assert disagreement(top) == pytest.approx([0, 1]) and top.data.labels == ["G1", "G2"]
    one = convert(tags(rows), "coarse", inv, level=1)
    assert disagreement(one) == pytest.approx([1, 1])
    assert set(one.data.labels) == {"LABEL", "G1", "PHONE"}
    two = convert(tags(rows), "coarse", inv, level=2)
    assert disagreement(two) == pytest.approx([0, 1])


def test_unknown_senses_are_counted_and_kept():
    rows = [("i1", "A", "WN1"), ("i1", "B", "WN7"), ("i2", "A", "WN7", "WN1"),
            ("i2", "B", "XX"), ("i3", "A", "WN7"), ("i3", "B", "WN3")]
    for scheme in ("coarse", "extended"):
        sd = convert(tags(rows), scheme, CALL, inventory_name="call")
        assert sd.unknown == {"WN7": 3, "XX": 1}
        assert sd.inventory == "call" and sd.name == f"{scheme} [call]"
    sd = convert(tags(rows), "extended", CALL)
    assert sd.data.label(sd.data.codes[1, 0]) == {"WN7"}
    assert sd.data.label(sd.data.codes[0, 1]) == {"WN7", "WN1", "LABEL"}
    assert convert(tags(rows), "fine").unknown == {}


def test_scheme_errors_and_distance_names():
    """Which distance a scheme may take is the analysis's check (test_senses_analysis); the
    conversion keeps the distance's name and makes set labels for the set schemes."""
    t = tags([("i1", "A", "a"), ("i1", "B", "b")])
    with pytest.raises(InputError, match="needs a sense inventory"):
        convert(t, "extended")
    with pytest.raises(InputError, match="unknown scheme"):
        convert(t, "medium")
    assert convert(t, "fine").distance == "nominal" and not convert(t, "fine").data.is_set
    assert convert(t, "multi").distance == "passonneau" and convert(t, "multi").data.is_set
    assert convert(t, "multi", distance="masi").distance == "masi"


def test_duplicate_and_conflicting_tags_name_their_line():
    dup = tags([("i1", "A", "a"), ("i1", "B", "b"), ("i1", "A", "c")], source="x.tsv")
    with pytest.raises(InputError) as e:
        SenseTable.from_tags(dup)
    assert str(e.value).startswith("x.tsv:3: ") and "first at x.tsv:1" in str(e.value)
    clash = tags([("i1", "A", "a")]) + [SenseTag("i1", "B", frozenset("b"), "other", "d1",
                                                 "y.tsv", 7)]
    with pytest.raises(InputError, match=r"^y\.tsv:7: item 'i1' has lemma 'other'"):
        SenseTable.from_tags(clash)
    with pytest.raises(InputError, match="no sense tags"):
        SenseTable.from_tags([])


def test_clusters():
    t = tags([("i1", "A", "a"), ("i1", "B", "a")], lemma="x", document="d1") + \
        tags([("i2", "A", "a"), ("i2", "B", "b")], lemma="y", document="d1") + \
        tags([("i3", "A", "b"), ("i3", "B", "b")], lemma=None, document="d2")
    table = SenseTable.from_tags(t)
    by_lemma = to_reliability(table, "fine")
    assert by_lemma.data.group_names == ["(none)", "x", "y"]
    assert by_lemma.data.groups.tolist() == [1, 2, 0] and by_lemma.ungrouped == 1
    by_doc = to_reliability(table, "fine", cluster="document")
    assert by_doc.data.group_names == ["d1", "d2"] and by_doc.data.groups.tolist() == [0, 0, 1]
    assert to_reliability(table, "fine", cluster="item").data.groups is None
    with pytest.raises(InputError, match="cluster must be"):
        to_reliability(table, "fine", cluster="sentence")
    bare = SenseTable.from_tags(tags([("i1", "A", "a"), ("i1", "B", "a")], lemma=None))
    assert to_reliability(bare, "fine").data.groups is None


def test_lexfile_inventory():
    keys = ["order%2:30:00::", "order%2:30:01::", "order%2:32:00::", "bright%5:00:00:happy:00",
            "bright%3:00:00::", "U", "odd%x:1:2::"]
    inv = lexfile_inventory(keys)
    assert inv.extend("order%2:30:00::") == {"order%2:30:00::", "order%2:30"}
    assert inv.group("bright%5:00:00:happy:00") == {"bright%3:00"}
    assert inv.group("bright%3:00:00::") == {"bright%3:00"}
    assert "U" not in inv and "odd%x:1:2::" not in inv
    shared = lexfile_inventory(keys, per_lemma=False)
    assert shared.group("order%2:30:01::") == {"2:30"}
    rows = [("i1", "A", "order%2:30:00::"), ("i1", "B", "order%2:30:01::"),
            ("i2", "A", "order%2:30:00::"), ("i2", "B", "order%2:32:00::")]
    sd = convert(tags(rows), "extended", inv)
    assert disagreement(sd) == pytest.approx([2 / 3, 1])


def test_label_text():
    sd = convert(tags([("i1", "A", "b", "a"), ("i1", "B", "c")]), "multi")
    texts = {label_text(sd.data.labels, c) for c in range(sd.data.n_labels)}
    assert texts == {"a+b", "c"}
    plain = convert(tags([("i1", "A", "ab"), ("i1", "B", "c")]), "fine")
    assert [label_text(plain.data.labels, c) for c in range(2)] == ["ab", "c"]


# ---------------------------------------------------------------- against brute force and NLTK


def random_case(seed: int, items: int = 40, coders: int = 4, missing: float = 0.15):
    """A random three-level inventory (some senses outside it) and random multi-sense tags
    with missing judgements."""
    rng = np.random.default_rng(seed)
    senses = [f"s{k}" for k in range(12)]
    mids = [f"m{k}" for k in range(4)]
    edges = [(s, mids[rng.integers(4)]) for s in senses[:10]]
    edges += [(m, f"g{rng.integers(2)}") for m in mids]
    edges += [(senses[0], mids[(int(edges[0][1][1]) + 1) % 4])]  # a sense in two groups
    inv = SenseInventory.from_edges(edges)
    out = []
    for i in range(items):
        for c in range(coders):
            if rng.random() < missing:
                continue
            k = 1 + (rng.random() < 0.3) + (rng.random() < 0.1)
            chosen = rng.choice(senses + mids[:1], size=k, replace=False)
            out.append(SenseTag(f"i{i}", f"c{c}", frozenset(chosen.tolist()), f"l{i % 3}"))
    return out, inv


def brute(t, scheme, inv, depth=None, level=None):
    """The same data from per-tag frozensets (SenseInventory's own methods) via from_triples."""
    def image(s):
        if s not in inv:
            return {s}
        if scheme == "extended":
            return inv.extend(s, depth)
        if level is not None:
            return inv.group(s, level)
        import networkx as nx
        up = nx.descendants(inv.graph, s) | {s}
        return {g for g in up if inv.graph.out_degree(g) == 0}
    triples = []
    for x in t:
        label = frozenset(x.senses) if scheme in ("fine", "multi") else \
            frozenset().union(*(image(s) for s in x.senses))
        triples.append((x.annotator, x.item, label))
    return ca.ReliabilityData.from_triples(triples)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("scheme,distance,opts", [
    ("fine", "nominal", {}), ("multi", "passonneau", {}), ("multi", "masi", {}),
    ("coarse", "nominal", {}), ("coarse", "nominal", {"level": 1}),
    ("extended", "passonneau", {}), ("extended", "jaccard", {"depth": 1}),
    ("extended", "dice", {})])
def test_equals_brute_force(seed, scheme, distance, opts):
    t, inv = random_case(seed)
    sd = convert(t, scheme, inv if scheme in ("coarse", "extended") else None,
                 distance=distance, **opts)
    ref = brute(t, scheme, inv, opts.get("depth"), opts.get("level"))
    for fn in (ca.alpha, ca.alpha_prime, ca.beta, ca.bias):
        assert fn(sd.data, distance).value == pytest.approx(fn(ref, distance).value, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_extended_masi_alpha_equals_nltk(seed):
    """NLTK's AnnotationTask α with MASI over the extended sets (complete data)."""
    nltk_agreement = pytest.importorskip("nltk.metrics.agreement")
    from nltk.metrics.distance import masi_distance
    full, inv = random_case(seed, missing=0)
    assert len(full) == 160
    sd = convert(full, "extended", inv, distance="masi")
    task = nltk_agreement.AnnotationTask(
        [(x.annotator, x.item, inv.extend_set(x.senses)) for x in full], distance=masi_distance)
    assert ca.alpha(sd.data, "masi").value == pytest.approx(task.alpha(), abs=1e-9)


# ---------------------------------------------------------------- real corpora


def corpus(*parts: str) -> Path:
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def test_wsbest_lexfile_extension_raises_alpha():
    t = sensetsv.read(corpus("erk2013_wsbest_wssim", "wsbest", "judgments.tsv"))
    table = SenseTable.from_tags(t)
    multi = to_reliability(table, "multi", distance="masi")
    ext = to_reliability(table, "extended", lexfile_inventory(table.sense_names),
                         distance="masi")
    assert multi.data.n_coders == 8 and multi.data.n_items == 260
    assert ext.unknown == {}
    assert ca.alpha(ext.data, "masi").value > ca.alpha(multi.data, "masi").value
    assert len(multi.data.group_names) == 26  # lemmas
