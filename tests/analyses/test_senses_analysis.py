"""The senses analysis through its Python API: Artstein & Poesio's (2005, §4.4) *call* numbers,
the sample corpus in both formats and both inventory formats against the coefficients on the
converted data, per-lemma figures against data.subset, the confused pairs against the
coincidence matrix, unknown senses, the scheme distance checks, reading with progress, and the
report job's folder discovery."""

from __future__ import annotations

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.analyses import senses
from corpusagree.convert.senses import SenseTable, label_text, to_reliability
from corpusagree.model.corpus import SenseTag
from corpusagree.model.errors import InputError
from corpusagree.model.senses import SenseInventory
from corpusagree.readers import discover, inventory, raganato
from corpusagree.stats import diagnostics
from corpusagree.stats.inference import Bootstrap

from support import SAMPLES, by_scheme, write

SAMPLE = SAMPLES / "senses"


def read_tags(*args, **kwargs):
    """The tags of :func:`senses.read` (its corpus's data)."""
    return senses.read(*args, **kwargs).data
CALL_INVENTORY = "sense\tgroup\nWN1\tLABEL\nWN3\tLABEL\nWN19\tSEE\nWN22\tADDRESS\n"






def sample_tags():
    return raganato.read(SAMPLE / "sample.data.xml", sorted((SAMPLE / "keys").glob("*.key.txt")))


# ---------------------------------------------------------------- the *call* example


def test_call_example_alpha_by_hand(tmp_path):
    """A: WN1, B: WN3 and A: WN1, B: LABEL under Group 1: α = −2/7 by hand (see
    test_convert_senses); the fine scheme disagrees everywhere, the coarse one nowhere."""
    inv = write(tmp_path, "call.tsv", CALL_INVENTORY)
    tags = read_tags([write(tmp_path, "tags.tsv", "item\tannotator\tsense\ni1\tA\tWN1\n"
                              "i1\tB\tWN3\ni2\tA\tWN1\ni2\tB\tLABEL\n")])
    report = senses.analyse(tags, inventories=[inv])
    c = by_scheme(report.to_dict())
    a = c["extended", "call.tsv", "alpha"]
    assert (a["observed"], a["expected"], a["value"]) == pytest.approx((1 / 2, 7 / 18, -2 / 7))
    assert c["fine", None, "percent_agreement"]["value"] == 0
    assert c["coarse", "call.tsv", "percent_agreement"]["value"] == 1
    assert [s.name for s in report.schemes] == ["fine", "coarse [call.tsv]",
                                                "extended [call.tsv]"]


def test_inventory_objects_and_names(tmp_path):
    """An inventory may be given as a (name, SenseInventory) pair; two inventories with the
    same file name are told apart by their paths."""
    tags = [SenseTag("i1", "A", frozenset({"WN1"})), SenseTag("i1", "B", frozenset({"WN3"}))]
    call = SenseInventory.from_edges(inventory.read_tsv(write(tmp_path, "c.tsv",
                                                              CALL_INVENTORY)))
    report = senses.analyse(tags, inventories=[("call", call)], schemes=["extended"])
    assert report.schemes[0].inventory == "call"
    assert report.schemes[0].coefficients[0].result.observed == pytest.approx(2 / 3)
    (tmp_path / "x").mkdir()
    twin = write(tmp_path / "x", "c.tsv", CALL_INVENTORY)
    report = senses.analyse(tags, inventories=[tmp_path / "c.tsv", twin],
                            schemes=["coarse"])
    assert [s.inventory for s in report.schemes] == [str(tmp_path / "c.tsv"), str(twin)]


# ---------------------------------------------------------------- the sample corpus


@pytest.fixture(scope="module")
def sample_reports() -> list:
    """Both annotation sets of sample_corpora/senses/ with both inventories, intervals,
    --by-lemma and --diagnostics, through the API."""
    sets, inventories = discover.sense_sets(SAMPLE)
    return [senses.analyse(senses.read(s.paths, input_format=s.format),
                           inventories=inventories, bootstrap=Bootstrap(200), by_lemma=True,
                           diagnostics=5)
            for s in sets]


@pytest.fixture(scope="module")
def sample_docs(sample_reports) -> list[dict]:
    return [r.to_dict() for r in sample_reports]


def test_sample_both_formats_and_inventories_agree(sample_docs):
    assert [d["format"] for d in sample_docs] == ["raganato", "sensetsv"]
    rag, tsv = (by_scheme(d) for d in sample_docs)
    assert rag.keys() == tsv.keys()
    for k in rag:
        assert rag[k]["value"] == pytest.approx(tsv[k]["value"], nan_ok=True), k
        assert rag[k]["interval"]["low"] == pytest.approx(tsv[k]["interval"]["low"],
                                                          nan_ok=True), k
    for (scheme, inv, key), c in rag.items():
        if inv == "inventory/":
            assert c["value"] == pytest.approx(rag[scheme, "inventory.tsv", key]["value"])
    schemes = [(s["scheme"], s["inventory"]) for s in sample_docs[0]["schemes"]]
    assert schemes == [("fine", None), ("multi", None), ("coarse", "inventory/"),
                       ("coarse", "inventory.tsv"), ("extended", "inventory/"),
                       ("extended", "inventory.tsv")]


def test_sample_figures_equal_the_coefficients(sample_docs):
    doc = sample_docs[0]
    table = SenseTable.from_tags(sample_tags())
    c = by_scheme(doc)
    fine = to_reliability(table, "fine").data
    assert c["fine", None, "multi_kappa"]["value"] == pytest.approx(ca.multi_kappa(fine).value)
    assert c["fine", None, "pi"]["value"] == pytest.approx(ca.pi(fine).value)
    assert c["fine", None, "bias"]["value"] == pytest.approx(ca.bias(fine).value)
    data = doc["data"]
    assert data["tags"] == 32 and data["items"] == 11 and data["multi_sense_tags"] == 1
    assert data["lemmas"] == 3 and data["cluster"] == "lemma" and data["clusters"] == 3
    assert data["missing"] == 1 and data["unpairable_items"] == 0 and data["senses"] == 16
    assert doc["job"] == "senses" and doc["schema"] == 1
    assert doc["bootstrap"]["n_resamples"] == 200 and doc["options"]["diagnostics"] == 5
    ext = c["extended", "inventory/", "alpha"]
    assert ext["distance"] == "passonneau"
    assert ext["interval"]["clustered"] and ext["interval"]["units"] == 3
    assert ext["interval"]["n_resamples"] == 200
    assert ext["interval"]["low"] <= ext["value"] <= ext["interval"]["high"]
    # extended senses credit partial agreement: extended α > fine α
    assert ext["value"] > c["fine", None, "alpha"]["value"]
    assert any("several senses" in n for n in doc["notes"])
    assert any("only 3 lemmas: intervals clustered by lemma are rough" in n
               for n in doc["notes"])
    # the interval is the bootstrap of the converted data, clustered by lemma
    inv = SenseInventory.from_edges(inventory.read_xml(sorted((SAMPLE / "inventory")
                                                              .glob("*.xml"))))
    sd = to_reliability(table, "extended", inv)
    iv = ca.alpha(sd.data, "passonneau").confidence_interval(n_resamples=200)
    assert (ext["interval"]["low"], ext["interval"]["high"]) == pytest.approx((iv.low, iv.high))


def test_sample_by_lemma(sample_docs, sample_reports):
    rows = {(r["lemma"], r["scheme"], r["inventory"]): r for r in sample_docs[0]["by_lemma"]}
    assert {k[0] for k in rows} == {"call", "board", "draw"}
    call = rows["call", "fine", None]
    assert call["items"] == 5 and call["coders"] == 3
    t = sample_tags()
    data = to_reliability(SenseTable.from_tags([x for x in t if x.lemma == "call"]),
                          "fine").data
    assert call["alpha"] == pytest.approx(ca.alpha(data).value)
    assert call["agreement"] == pytest.approx(ca.percent_agreement(data).value)
    assert call["alpha_interval"]["clustered"] is False
    # set labels: the per-lemma figures equal the coefficients on data.subset
    inv = SenseInventory.from_edges(inventory.read_tsv(SAMPLE / "inventory.tsv"))
    ext = to_reliability(SenseTable.from_tags(t), "extended", inv)
    lemma_of = {x.item: x.lemma for x in t}
    for lemma in ("call", "board", "draw"):
        r = rows[lemma, "extended", "inventory.tsv"]
        sub = ext.data.subset(items=np.array([lemma_of[i] == lemma for i in ext.data.items]))
        assert r["alpha"] == pytest.approx(ca.alpha(sub, "passonneau").value)
        assert r["beta"] == pytest.approx(ca.beta(sub, "passonneau").value)
        assert r["agreement"] == pytest.approx(1 - ca.alpha_prime(sub, "passonneau").observed)
        iv = ca.alpha(sub, "passonneau").confidence_interval(n_resamples=200, cluster=False)
        assert (r["alpha_interval"]["low"], r["alpha_interval"]["high"]) == \
            pytest.approx((iv.low, iv.high))
    frame = sample_reports[0].by_lemma.to_frame()
    assert len(frame) == 18 and "alpha_interval_low" in frame.columns


def test_sample_confused_pairs_are_the_coincidence_matrix(sample_docs):
    """Each row's o_ck equals stats.diagnostics.coincidence on the lemma's items."""
    pairs = sample_docs[0]["confused"]["pairs"]
    assert sample_docs[0]["confused"]["scheme"] == "fine"
    t = sample_tags()
    for lemma in ("call", "board", "draw"):
        data = to_reliability(SenseTable.from_tags([x for x in t if x.lemma == lemma]),
                              "fine").data
        labels, coinc = diagnostics.coincidence(data, sparse=False)
        names = [label_text(labels, k) for k in range(len(labels))]
        mine = [p for p in pairs if p["lemma"] == lemma]
        off = np.triu(coinc, 1)
        assert len(mine) == min(5, int((off > 0).sum()))
        for p in mine:
            a, b = names.index(p["a"]), names.index(p["b"])
            assert p["coincidences"] == pytest.approx(coinc[a, b])
        assert sum(p["share"] for p in mine) == pytest.approx(
            sum(p["coincidences"] for p in mine) / off.sum())
    call = {(p["a"], p["b"]) for p in pairs if p["lemma"] == "call"}
    assert ("call.v.WN1", "call.v.WN3") in call and ("call.v.LABEL", "call.v.WN1") in call
    diag = sample_docs[0]["diagnostics"]
    assert diag["scheme"] == "fine" and len(diag["pairwise"]["matrix"]) == 3
    assert len(diag["worst_items"]) == 10  # max(5, 10)
    assert {r["group"] for r in diag["worst_items"]} <= {"call", "board", "draw"}


@pytest.mark.parametrize("seed", range(3))
def test_confused_pairs_against_the_coincidence_matrix(seed):
    """stats.diagnostics.confused_pairs on random data with missing judgements: per group the
    off-diagonal cells of the group's coincidence matrix, largest first, and the shares."""
    rng = np.random.default_rng(seed)
    M = rng.integers(0, 5, (4, 60)).astype(float)
    M[rng.random(M.shape) < 0.3] = np.nan
    data = ca.ReliabilityData.from_matrix(M)
    groups = rng.integers(0, 3, data.n_items)
    rows = diagnostics.confused_pairs(data, groups, ["g0", "g1", "g2"], n=4)
    for g in range(3):
        labels, o = diagnostics.coincidence(data.subset(items=groups == g), sparse=False)
        cells = {(str(labels[i]), str(labels[j])): o[i, j]
                 for i in range(len(labels)) for j in range(i + 1, len(labels)) if o[i, j] > 0}
        mine = [r for r in rows if r["group"] == f"g{g}"]
        top = sorted(cells.values(), reverse=True)[:4]
        assert [r["coincidences"] for r in mine] == pytest.approx(top)
        for r in mine:
            assert r["a"] < r["b"] and r["coincidences"] == pytest.approx(cells[r["a"], r["b"]])
            assert r["share"] == pytest.approx(r["coincidences"] / sum(cells.values()))
    agreeing = ca.ReliabilityData.from_matrix([[0, 1, 2], [0, 1, np.nan]])
    assert diagnostics.confused_pairs(agreeing, np.zeros(3, int), ["x"]) == []


def test_lexfile_inventory_and_unknown_senses(tmp_path):
    tags = read_tags(write(tmp_path, "t.tsv", "item\tannotator\tsense\tlemma\n"
                             "1\tA\torder%2:30:00::\torder\n1\tB\torder%2:30:01::\torder\n"
                             "2\tA\torder%2:30:00::\torder\n2\tB\tU\torder\n"))
    doc = senses.analyse(tags, inventories=["lexfile"]).to_dict()
    ext = next(s for s in doc["schemes"] if s["scheme"] == "extended")
    assert ext["unknown"] == {"U": 1} and ext["unknown_occurrences"] == 1
    assert any("inventory lexfile: 1 of 4 tagged senses (1 distinct)" in n
               for n in doc["notes"])
    assert by_scheme(doc)["extended", "lexfile", "alpha_prime"]["observed"] == \
        pytest.approx((2 / 3 + 1) / 2)


# ---------------------------------------------------------------- options and checks


def test_scheme_distances():
    """The fine and coarse schemes are nominal; extended and multi need a set distance."""
    assert senses.scheme_distance("fine").name == "nominal"
    assert senses.scheme_distance("multi").name == "passonneau"
    assert senses.scheme_distance("extended", "masi").name == "masi"
    with pytest.raises(InputError, match="the fine scheme is nominal"):
        senses.scheme_distance("fine", "masi")
    with pytest.raises(InputError, match="the multi scheme needs a set distance"):
        senses.scheme_distance("multi", "interval")
    with pytest.raises(InputError, match="unknown scheme"):
        senses.scheme_distance("medium")
    tags = [SenseTag("i1", "A", frozenset("a")), SenseTag("i1", "B", frozenset("b"))]
    with pytest.raises(InputError, match="the multi scheme needs a set distance, not interval"):
        senses.analyse(tags, schemes=["multi"], distance="interval")
    with pytest.raises(InputError, match="unknown distance"):
        senses.analyse(tags, schemes=["multi"], distance="nope")


def test_options_of_the_analysis():
    t = sample_tags()
    inv = ("inv", SenseInventory.from_edges(inventory.read_tsv(SAMPLE / "inventory.tsv")))
    report = senses.analyse(t, inventories=[inv], schemes=["coarse", "extended"], level=1, depth=1,
                            distance="jaccard", cluster="document",
                            bootstrap=Bootstrap(50))
    doc = report.to_dict()
    assert [(s["scheme"], s.get("level"), s.get("depth"), s["distance"])
            for s in doc["schemes"]] == [("coarse", 1, None, "nominal"),
                                         ("extended", None, 1, "jaccard")]
    assert doc["data"]["cluster"] == "document" and doc["data"]["clusters"] == 2
    assert doc["options"] == {"inventories": ["inv"], "schemes": ["coarse", "extended"],
                              "level": 1, "depth": 1, "distance": "jaccard",
                              "cluster": "document", "by_lemma": False, "diagnostics": None,
                              "reader_options": {}}
    assert by_scheme(doc)["coarse", "inv", "percent_agreement"]["value"] < 1
    assert by_scheme(doc)["extended", "inv", "alpha"]["interval"]["units"] == 2
    items = senses.analyse(t, cluster="item", bootstrap=Bootstrap(50)).to_dict()
    assert items["data"]["clusters"] == 0
    assert not by_scheme(items)["fine", None, "alpha"]["interval"]["clustered"]


@pytest.mark.parametrize("kwargs,error,message", [
    ({"depth": -1}, ValueError, "depth must be an integer ≥ 0 or None, not -1"),
    ({"level": 0}, ValueError, "level must be an integer ≥ 1 or None, not 0"),
    ({"diagnostics": 0}, ValueError, "diagnostics must be an integer ≥ 1 or None, not 0"),
    ({"schemes": ["coarse"]}, InputError, "need a sense inventory"),
    ({"schemes": ["medium"]}, InputError, "unknown scheme"),
])
def test_bad_options(kwargs, error, message):
    with pytest.raises(error, match=message):
        senses.analyse(sample_tags(), **kwargs)


def test_two_annotators_needed_and_no_lemmas():
    with pytest.raises(InputError, match="two or more annotators"):
        senses.analyse([SenseTag("i1", "A", frozenset("a"))])
    bare = [SenseTag("i1", "A", frozenset("a")), SenseTag("i1", "B", frozenset("a")),
            SenseTag("i2", "A", frozenset("a")), SenseTag("i2", "B", frozenset("b"))]
    with pytest.raises(InputError, match="no lemmas"):
        senses.analyse(bare, by_lemma=True)
    report = senses.analyse(bare, diagnostics=3, bootstrap=Bootstrap(20))
    assert any("no item has a lemma: intervals resample items" in n for n in report.notes)
    assert [p["lemma"] for p in report.confused] == ["(all)"]
    assert report.diagnostics.two_coders is not None


def test_progress_callbacks(tmp_path):
    seen = []
    files = [write(tmp_path, f"{n}.tsv", "item\tannotator\tsense\tlemma\n"
                   f"i{n}\tA\ta\tx{n}\ni{n}\tB\ta\tx{n}\ni{n}x\tA\tb\tx{n}\ni{n}x\tB\tc\tx{n}\n")
             for n in range(3)]
    tags = read_tags([tmp_path], progress=lambda d, t: seen.append((d, t)))
    assert len(tags) == 12 and seen == [(1, 3), (2, 3), (3, 3)]
    assert read_tags(files) == tags
    seen.clear()
    senses.analyse(tags, bootstrap=Bootstrap(40), by_lemma=True,
                   progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (160, 160) and all(b == 160 for _, b in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_tables_hold_the_report(sample_reports):
    r = sample_reports[1]
    ids = [t.id for t in r.tables.values()]
    assert ids[:3] == ["coefficients", "by_lemma", "confused"] and "worst_items" in ids
    coef = list(r.tables.values())[0]
    assert len(coef.rows) == sum(len(s.coefficients) for s in r.schemes)
    assert coef.rows[0][:3] == ["fine", "percent_agreement", "A_o"]
    assert "sample.tsv (sensetsv): 32 sense tags by 3 annotators" in r.summary()
    assert repr(r).startswith("SensesReport(") and "fine" in repr(r.schemes[0])


# ---------------------------------------------------------------- folders and formats


def test_folder_is_every_annotation_set():
    sets, inventories = discover.sense_sets(SAMPLE)
    reports = [senses.analyse(senses.read(s.paths, input_format=s.format),
                              inventories=inventories, bootstrap=Bootstrap(100)) for s in sets]
    assert [r.format for r in reports] == ["raganato", "sensetsv"]
    assert [r.inputs for r in reports] == [[str(SAMPLE / "sample.data.xml"),
                                            str(SAMPLE / "keys")], [str(SAMPLE / "sample.tsv")]]
    assert all(e.interval is not None for r in reports for s in r.schemes
               for e in s.coefficients if e.id != "kappa")
    assert [s.inventory for s in reports[0].schemes][2:4] == ["inventory/", "inventory.tsv"]


def test_folder_without_senses(tmp_path):
    assert discover.sense_sets(tmp_path) == ([], [])


def test_read_formats(data_dir):
    d = data_dir / "senses"
    assert discover.sense_format([d / "lexsample.xml", d / "t1.ans"]) == "senseval"
    tags = read_tags([d / "lexsample.xml", d / "t1.ans", d / "t2.ans"], annotators=["k", "l"])
    assert {t.annotator for t in tags} == {"k", "l"}
    assert discover.sense_format([d / "wsbest" / "judgments.tsv"]) == "wsbest"
    assert {t.annotator for t in read_tags(d / "demo.sense", annotators=["x", "y"])} == \
        {"x", "y"}
    with pytest.raises(InputError, match="no such file"):
        read_tags(d / "absent.tsv")
    with pytest.raises(InputError, match="sep=';' does not apply to [a-z]* ?format 'raganato'"):
        read_tags([SAMPLE / "sample.data.xml", SAMPLE / "keys"], sep=";")


# ---------------------------------------------------------------- errors name their input


def test_errors_name_the_input():
    with pytest.raises(InputError) as err:
        senses.analyse(senses.corpus_of([], "sensetsv", ["in/empty.tsv"]))
    assert str(err.value) == "in/empty.tsv: no sense tags in the input"
    with pytest.raises(InputError) as err:
        senses.analyse(senses.corpus_of([SenseTag("i1", "A", frozenset({"s"}))], "sensetsv",
                                        ["in/a.tsv"]))
    assert str(err.value) == ("in/a.tsv: agreement needs two or more annotators; found 1 (A)")


def test_discover_takes_a_key_folder_of_any_name(tmp_path):
    import shutil

    shutil.copy(SAMPLE / "sample.data.xml", tmp_path)
    shutil.copytree(SAMPLE / "keys", tmp_path / "answers")
    sets, inventories = discover.sense_sets(tmp_path)
    assert [(s.paths, s.format) for s in sets] == [
        ([tmp_path / "sample.data.xml", tmp_path / "answers"], "raganato")]
    assert inventories == []
