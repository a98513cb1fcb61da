"""MMAX2 markables → arrays, alignment and reliability data: identical markables pair in order,
markables never align across levels or documents, and on random markables the exact alignment,
the span F1 and the attribute α equal a plain-Python recount (krippendorff), the overlap
alignment is one to one and maximal (brute force)."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import permutations

import krippendorff
import numpy as np
import pytest

from corpusagree.convert import markables as mk
from corpusagree.model.corpus import CorefAnnotation, Document, Mention
from corpusagree.stats import coefficients as co
from corpusagree.stats.spans import span_f1


def annotation(annotator: str, doc: str, n_tokens: int, spans: list, attrs: list | None = None,
               level: str = "x") -> CorefAnnotation:
    ms = {f"m{i}": Mention(f"m{i}", tuple(sp),
                           attrs={"level": level, **(attrs[i] if attrs else {})})
          for i, sp in enumerate(spans)}
    return CorefAnnotation(Document(doc, ["w"] * n_tokens), annotator, ms)


def f1_of(table: mk.Markables, cluster: np.ndarray, level: int):
    on = table.level == level
    return span_f1(table.annotator[on], cluster[on], table.per_document(on), table.annotated)


def nominal_alpha(columns: list[list]) -> float:
    """krippendorff.alpha over items given as lists of labels (None = missing)."""
    labels = sorted({v for c in columns for v in c if v is not None})
    m = np.array([[np.nan if v is None else labels.index(v) for v in c] for c in columns]).T
    return krippendorff.alpha(reliability_data=m, level_of_measurement="nominal")


def test_identical_markables_pair_in_order():
    anns = [annotation("a", "d", 5, [[(0, 2)], [(0, 2)], [(3, 4)]]),
            annotation("b", "d", 5, [[(0, 2)], [(3, 4)], [(0, 2)], [(0, 2)]])]
    table = mk.collect(anns)
    cluster = mk.align(table)
    assert cluster.tolist() == [0, 1, 2, 0, 2, 1, 3]
    f1 = f1_of(table, cluster, 0)
    assert f1.matched[0, 1] == 3 and f1.f1[0, 1] == pytest.approx(6 / 7)
    assert f1.n[0, 1] == 3 and f1.n[1, 0] == 4 and f1.mean == pytest.approx(6 / 7)


def test_markables_never_align_across_levels_or_documents():
    """The same tokens marked on two levels, and in two documents, are four clusters."""
    anns = [annotation(a, d, 4, [[(0, 2)]], level=lv) for a in ("a", "b") for d in ("d1", "d2")
            for lv in ("x", "y")]
    table = mk.collect(anns)
    assert table.levels == ["x", "y"]
    cluster = mk.align(table, "overlap")
    assert len(set(cluster.tolist())) == 4
    for lv in (0, 1):
        f1 = f1_of(table, cluster, lv)
        assert f1.matched[0, 1] == 2 and f1.f1[0, 1] == 1.0
    # selected levels come in the order asked; others are left out
    only = mk.collect(anns, ["y"])
    assert only.levels == ["y"] and len(only.annotator) == 4


def test_token_data_and_nominal_attributes():
    anns = [annotation("a", "d1", 4, [[(0, 2)], [(3, 4)]],
                       [{"polarity": "neg", "ref": "markable_2"}, {"polarity": "pos",
                                                                   "ref": "empty"}]),
            annotation("b", "d1", 4, [[(1, 2), (3, 4)]], [{"polarity": "pos", "ref": "set_3"}]),
            annotation("a", "d2", 3, [[(2, 3)]], [{"polarity": "pos"}])]
    table = mk.collect(anns)
    data = mk.token_data(table, 0)
    # b did not annotate d2: its tokens are missing
    assert data.codes.tolist() == [[1, 1, 0, 1, 0, 0, 1], [0, 1, 0, 1, -1, -1, -1]]
    assert data.groups.tolist() == [0, 0, 0, 0, 1, 1, 1]
    assert mk.nominal_attributes(table, 0) == ["polarity"]  # 'ref' holds pointers and set ids


def random_corpus(rng, n_docs=4, annotators=3, n_tokens=30, per_doc=8):
    """Random markables (some discontinuous) with a random label each; each annotator copies
    or drops a gold markable, or marks a random one."""
    anns, truth = [], []
    for d in range(n_docs):
        gold = []
        for _ in range(per_doc):
            s = int(rng.integers(0, n_tokens - 3))
            sp = [(s, s + int(rng.integers(1, 3)))]
            if rng.random() < 0.2:
                sp.append((sp[0][1] + 1, sp[0][1] + 2))
            gold.append(sp)
        for a in range(annotators):
            spans = [sp for sp in gold if rng.random() < 0.8]
            spans += [[(t, t + 1)] for t in rng.integers(0, n_tokens, 2).tolist()]
            labels = [{"tag": str(rng.integers(0, 3))} for _ in spans]
            anns.append(annotation(f"a{a}", f"d{d}", n_tokens, spans, labels))
            truth.append((f"a{a}", f"d{d}", spans, labels))
    return anns, truth


def merged(spans) -> tuple:
    """A span as the reader stores it: sorted fragments, adjacent ones merged."""
    out: list = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(e, out[-1][1]))
        else:
            out.append((s, e))
    return tuple(out)


@pytest.mark.parametrize("seed", range(5))
def test_random_exact_agrees_with_plain_python(seed):
    anns, truth = random_corpus(np.random.default_rng(seed))
    table = mk.collect(anns)
    cluster = mk.align(table)
    f1 = f1_of(table, cluster, 0)
    data = mk.attribute_data(table, cluster, 0, "tag")
    alpha = co.alpha(data.subset(items=(data.codes >= 0).sum(0) >= 2))
    # plain Python: the k-th markable with a span pairs with the k-th of the other annotator
    keyed = defaultdict(dict)
    for a, d, spans, labels in truth:
        seen = Counter()
        for sp, lab in zip(spans, labels, strict=True):
            key = (d, merged(sp))
            keyed[(key, seen[key])][a] = lab["tag"]
            seen[key] += 1
    names = ["a0", "a1", "a2"]
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i < j:
                m = sum(a in v and b in v for v in keyed.values())
                na, nb = (sum(x in v for v in keyed.values()) for x in (a, b))
                assert f1.f1[i, j] == pytest.approx(2 * m / (na + nb), abs=1e-12)
    cols = [[v.get(a) for a in names] for v in keyed.values()]
    assert alpha.value == pytest.approx(nominal_alpha(cols), abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_random_overlap_is_one_to_one_and_maximal_for_two(seed):
    """Two annotators: the summed Dice of the matched pairs equals the optimum found by
    brute force over the documents' overlap blocks."""
    rng = np.random.default_rng(100 + seed)
    anns, _ = random_corpus(rng, n_docs=3, annotators=2, per_doc=4)
    table = mk.collect(anns)
    cluster = mk.align(table, "overlap")
    tokens = defaultdict(set)
    for m, t in zip(*table.tokens(), strict=True):
        tokens[int(m)].add(int(t))
    for d in range(3):
        a = [m for m in range(len(cluster)) if table.document[m] == d and table.annotator[m] == 0]
        b = [m for m in range(len(cluster)) if table.document[m] == d and table.annotator[m] == 1]
        assert len({cluster[m] for m in b}) == len(b)  # one-to-one

        def dice(x, y):
            return 2 * len(tokens[x] & tokens[y]) / (len(tokens[x]) + len(tokens[y]))
        got = sum(dice(x, y) for x in a for y in b if cluster[x] == cluster[y])
        small, big = (a, b) if len(a) <= len(b) else (b, a)
        best = max(sum(dice(x, y) for x, y in zip(small, p, strict=False))
                   for p in permutations(big, len(small)))
        assert got == pytest.approx(best, abs=1e-12)
