"""``analyses.coref`` through its Python API: the figures are the coefficients of the converted
data, the pairwise scores equal scorch's (and a MUC by hand) on the readers' own chains, every
sample format gives the same figures to 1e-12, per-document figures, diagnostics with mention
texts, intervals, notes and the sample-folder report.

Which equalities across the formats of ``sample_corpora/coref/`` hold, and why:

* **exact span** (the default) and **maximal overlap**: all five formats are equal. CoNLL-2012
  and INCEpTION XMI cannot hold discontinuous mentions and store *north … gates* and
  *town … councils* as their covering spans, but the sample is designed so that no other mention
  has those spans (sample README): the covering span stands one-to-one for the discontinuous
  mention, so items, chains and every figure are the same.
* **head token**: only CorefUD stores heads. The other four formats have none, so every mention
  is matched by exact span (counted as ``no_head``) and their figures equal their exact-span
  figures; CorefUD's differ, because mentions sharing a head become one item (ann3's *a photo*
  and the others' *a photo of her*; a split coordination and its conjuncts).

Document ids differ by format (CoNLL ``harbour_000``, XMI ``harbour.txt``, else ``harbour``);
the tests strip those suffixes. Items are in the same order in every format (documents sorted
by id, mentions in text order), so bootstrap intervals with one seed are equal too.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from corpusagree.analyses import coref
from corpusagree.convert import coref as cc
from corpusagree.model.errors import InputError
from corpusagree.stats import coefficients as co
from corpusagree.stats import corefscores
from corpusagree.stats.inference import Bootstrap

from support import SAMPLES

SAMPLE = SAMPLES / "coref"
PATHS = {
    "mmax2": [SAMPLE / "mmax2"],
    "brat": [SAMPLE / "brat"],
    "conll": sorted((SAMPLE / "conll2012").glob("*_conll")),
    "corefud": sorted((SAMPLE / "corefud").glob("*.conllu")),
    "xmi": [SAMPLE / "xmi"],
}
FORMATS = list(PATHS)
TOL = 1e-12


@pytest.fixture(scope="module")
def anns():
    """Every sample format, read through the analysis (format named)."""
    out = {}
    for f in FORMATS:
        fmt, out[f] = coref.read(PATHS[f], f)
        assert fmt == f
    return out


@pytest.fixture(scope="module")
def full(anns):
    return coref.analyse(anns["corefud"], by_document=True, diagnostics=10)


# ---- the figures are the coefficients ---------------------------------------------------------
def test_figures_equal_the_coefficients(full, anns):
    data, al = cc.coref_data(anns["corefud"])
    assert full.format is None and full.annotators == ["ann1", "ann2", "ann3"]
    assert full.documents == ["council", "gates", "harbour", "letters", "recipe"]
    assert full.items == al.n_items == 56
    fns = {"alpha": co.alpha, "alpha_prime": co.alpha_prime, "beta": co.beta, "bias": co.bias}
    got = {(e.id, e.result.distance): e.value for e in full.coefficients}
    assert len(got) == 16
    for d in coref.DISTANCES:
        for name, f in fns.items():
            assert got[(name, d)] == pytest.approx(f(data, d).value, abs=TOL)
    ante = cc.to_data(al, "antecedent")
    got = {e.result.symbol: e.value for e in full.antecedent}
    assert got == pytest.approx({"multi-κ": co.multi_kappa(ante).value,
                                 "α": co.alpha(ante).value, "β": co.beta(ante).value}, abs=TOL)
    # the sample README's counts: ann2 adds 'each other', ann3 misses 'Lisbon' and marks 'a photo'
    per = full.alignment.per_annotator
    assert (per["ann2"]["mentions"], per["ann3"]["mentions"]) == (54, 53)
    assert (per["ann2"]["unmatched"], per["ann3"]["unmatched"]) == (1, 1)
    assert full.alignment.single == 2
    assert full.options == {"distances": list(coref.DISTANCES), "match": "exact",
                            "unmarked": "missing", "label": "chain", "singletons": "keep",
                            "by_document": True, "diagnostics": 10, "reader_options": {}}
    assert full.bootstrap is None and all(e.interval is None for e in full.coefficients)


def test_by_document_by_hand(full, anns):
    """Each document's row: the coefficients of that document's items alone, and the mean of
    its pairs' scores."""
    gates = next(r for r in full.by_document if r["document"] == "gates")
    assert gates["alpha"] == {d: 1.0 for d in coref.DISTANCES} and gates["muc"] == 1.0
    harbour = next(r for r in full.by_document if r["document"] == "harbour")
    only = [a for a in anns["corefud"] if a.document.id == "harbour"]
    data, al = cc.coref_data(only)
    assert (harbour["annotators"], harbour["items"]) == (3, al.n_items) == (3, 12)
    for d in coref.DISTANCES:
        assert harbour["alpha"][d] == pytest.approx(co.alpha(data, d).value, abs=TOL)
        assert harbour["beta"][d] == pytest.approx(co.beta(data, d).value, abs=TOL)
    assert harbour["alpha_antecedent"] == pytest.approx(
        co.alpha(cc.to_data(al, "antecedent")).value, abs=TOL)
    alone = coref.analyse(only)
    for s in coref.SCORES:
        assert harbour[s] == pytest.approx(alone.scores.mean[s], abs=TOL)


def test_diagnostics_write_mentions(full):
    dg = full.diagnostics
    assert dg.diagnostics.distance == "passonneau" and dg.diagnostics.coefficient == "alpha"
    assert dg.disputed[0]["mention"] == "she"     # harbour: ann2 attached 'she' to Mara
    assert dg.disputed[0]["labels"]["ann2"] == "Mara | her | she"
    assert dg.disputed[0]["document"] == "harbour" and len(dg.disputed) == 10
    assert len(dg.diagnostics.leave_one_out) == 3
    assert [r["items"] for r in dg.diagnostics.leave_one_out] == [51, 52, 53]
    assert dg.mentions["harbour[29:30]"] == "she"
    out = dg.to_dict()
    assert out["disputed"][0]["share"] == pytest.approx(1 / 9)
    assert out["worst_items"][0]["item"] == "harbour[29:30]"
    ids = [t.id for t in full.tables()]
    assert "disputed" in ids and "worst_items" not in ids and "pairwise" in ids


def test_antecedent_label_and_its_diagnostics(anns):
    r = coref.analyse(anns["brat"], label="antecedent", diagnostics=3)
    assert len(r.coefficients) == 0 and len(r.antecedent) == 3
    assert any("set distances do not apply" in n for n in r.notes)
    assert r.diagnostics.diagnostics.distance == "nominal"
    assert {r.diagnostics.disputed[0]["labels"][c] for c in ("ann1", "ann2", "ann3")} <= \
        {"none", "The town and county councils", "the engineers", "They"}
    assert "coefficients" not in [t.id for t in r.tables()]


# ---- coreference scores -------------------------------------------------------------------------
def muc_f1(key, resp):
    """MUC F1 from scratch (Vilain et al. 1995), no shared code."""
    def recall(k_side, r_side):
        num = den = 0
        for k in k_side:
            parts = {next((i for i, r in enumerate(r_side) if m in r), ("alone", m)) for m in k}
            num += len(k) - len(parts)
            den += len(k) - 1
        return num / den if den else 0.0
    r, p = recall(key, resp), recall(resp, key)
    return 2 * r * p / (r + p) if r + p else 0.0


def test_scores_equal_scorch_on_reader_chains(full, anns):
    """The pairwise table: per document, each pair's F1 on the mentions as the readers give
    them (spans as keys), by scorch and by hand; then averaged over the documents."""
    scorch = pytest.importorskip("scorch.scores")
    assert "macro" in full.scores.averaging
    by = {(a.annotator, a.document.id): a for a in anns["corefud"]}

    def part(a):
        return [{a.mentions[m].span for m in c.members} for c in a.chains]

    for row in full.scores.pairs:
        docs = sorted({d for _, d in by})
        ref = {"muc": [], "b_cubed": [], "ceaf_e": [], "blanc": [], "byhand": []}
        for d in docs:
            k, r = part(by[(row["key"], d)]), part(by[(row["response"], d)])
            ref["muc"].append(scorch.muc(k, r)[2])
            ref["b_cubed"].append(scorch.b_cubed(k, r)[2])
            ref["ceaf_e"].append(scorch.ceaf_e(k, r)[2])
            ref["blanc"].append(scorch.blanc(k, r)[2])
            ref["byhand"].append(muc_f1(k, r))
        for s in ("muc", "b_cubed", "ceaf_e", "blanc"):
            assert row[s] == pytest.approx(np.mean(ref[s]), abs=TOL), (row, s)
        assert row["muc"] == pytest.approx(np.mean(ref["byhand"]), abs=TOL)
    first = full.scores.pairs[0]
    assert (first["key"], first["response"], first["documents"]) == ("ann1", "ann2", 5)
    # sample README: MUC F1 of ann1 vs ann2 is 7/8, 10/11, 8/9 and 1, 1 on the other two
    assert first["muc"] == pytest.approx((7 / 8 + 10 / 11 + 8 / 9 + 2) / 5)
    assert len(full.scores.table) == 15
    assert full.scores.mean["lea"] == pytest.approx(full.scores.table.f1[:, 4].mean())


def test_document_pairs_on_arrays():
    """Scores from cluster ids: who annotated what decides the pairs; a document with one
    annotator has no pair (nan by document); the key is the first annotator."""
    clusters = np.array([[0, 0, 1, 5, 5, -1],
                         [0, 1, 1, 7, -1, 7],
                         [-1, -1, -1, -1, -1, -1]])
    doc_items = np.array([0, 3, 6, 6])
    annotated = np.array([[1, 1, 0], [1, 1, 1], [0, 0, 1]], bool)
    seen = []
    t = corefscores.document_pairs(clusters, doc_items, annotated, ("muc", "b_cubed", "blanc"),
                                   progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert (t.doc.tolist(), t.key.tolist(), t.response.tolist()) == ([0, 1, 2], [0, 0, 1],
                                                                       [1, 1, 2])
    assert corefscores.partition(clusters[0, 0:3]) == [[0, 1], [2]]
    assert t.f1[0, 0] == corefscores.muc([{0, 1}, {2}], [{0}, {1, 2}]).f1
    assert t.f1[1, 1] == corefscores.b_cubed([{0, 1}], [{0, 2}]).f1
    assert t.f1[2].tolist() == [0.0, 0.0, 1.0]            # both empty: BLANC's edge case
    key, resp, n, f1 = t.by_pair(3)
    assert (key.tolist(), resp.tolist(), n.tolist()) == ([0, 1], [1, 2], [2, 1])
    assert f1[0] == pytest.approx(t.f1[:2].mean(0))
    by_doc = t.by_document(4)
    assert np.isnan(by_doc[3]).all() and by_doc[2].tolist() == t.f1[2].tolist()
    with pytest.raises(ValueError, match="unknown"):
        corefscores.document_pairs(clusters, doc_items, annotated, ("ceaf_m",))


# ---- every sample format gives the same figures -------------------------------------------------
def doc_id(name: str) -> str:
    return re.sub(r"(_\d{3})?(\.txt)?$", "", name)


def numbers(p: dict) -> dict:
    """Every figure of a report's JSON (``to_dict()`` or ``--json``) keyed by what it is,
    document ids normalised."""
    out = {}
    for key in ("coefficients", "antecedent"):
        for r in p[key]:
            k = (key, r["id"], r["distance"])
            out[k] = [r[f] for f in ("value", "observed", "expected", "items", "coders",
                                     "pairable_values")]
            if r["interval"] is not None:
                out[k] += [r["interval"][f] for f in ("low", "high", "estimate", "units")]
    for r in p["scores"]["pairs"]:
        out[("scores", r["key"], r["response"])] = [r["documents"],
                                                     *(r[s] for s in coref.SCORES)]
    out["mean scores"] = [p["scores"]["mean"][s] for s in coref.SCORES]
    for a, c in p["alignment"]["per_annotator"].items():
        out[("alignment", a)] = [v for k, v in c.items() if k != "no_head"]
    out["alignment"] = [p["alignment"][k] for k in ("documents", "items", "complete", "single")]
    for r in p["by_document"] or []:
        out[("document", doc_id(r["document"]))] = [
            r["annotators"], r["items"], *r["alpha"].values(), *r["beta"].values(),
            r["alpha_antecedent"], *(r[s] for s in coref.SCORES)]
    return out


def undefined(x) -> bool:
    """nan in the API, null in JSON."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def assert_same(a: dict, b: dict, what: str) -> None:
    assert a.keys() == b.keys(), what
    for k in a:
        for x, y in zip(a[k], b[k], strict=True):
            same = undefined(y) if undefined(x) else (not undefined(y) and abs(x - y) <= TOL)
            assert same, (what, k, a[k], b[k])


def api(anns, **kw) -> dict:
    return numbers(coref.analyse(anns, by_document=True, **kw).to_dict())


@pytest.mark.parametrize("match", ["exact", "overlap"])
def test_api_identical_across_formats(anns, match):
    ref = api(anns["corefud"], match=match)
    for f in FORMATS:
        assert_same(api(anns[f], match=match), ref, f"{f} vs corefud, {match}")


def test_intervals_identical_across_formats(anns):
    settings = Bootstrap(100, seed=3)
    ref = api(anns["corefud"], bootstrap=settings)
    assert ref[("coefficients", "alpha", "passonneau")][-1] == 5        # units: documents
    for f in FORMATS:
        assert_same(api(anns[f], bootstrap=settings), ref, f"{f} vs corefud, intervals")


def test_api_equals_direct_coefficients(anns):
    """The figures above are the coefficients themselves (not only equal to each other)."""
    ref = api(anns["corefud"])
    for f in FORMATS:
        data, _ = cc.coref_data(anns[f])
        assert co.alpha(data, "passonneau").value == pytest.approx(0.92145382236, abs=1e-11)
        assert co.beta(data, "dice").value == pytest.approx(
            ref[("coefficients", "beta", "dice")][0], abs=TOL)


def test_head_match(anns):
    for f in FORMATS:
        head = coref.analyse(anns[f], match="head")
        no_head = head.alignment.total("no_head")
        if f == "corefud":
            # heads collide: 'a photo' = 'a photo of her' (recipe), and each split coordination
            # shares its head with its conjuncts ('The north and south gates of the old town',
            # 'north … gates', 'south gates'), as does 'Ines and her brother' with 'Ines'
            assert no_head == 0
            assert head.items == 56 - 6
            al = cc.align(anns[f], match="head")
            assert sum(n.startswith("recipe") for n in al.items) == 11
            assert [head.alignment.per_annotator[a]["merged"] for a in head.annotators] == \
                [5, 4, 5]
            assert api(anns[f], match="head") != api(anns[f])
            assert "no_head" in [c.key for c in head.tables()[0].columns]
        else:
            assert no_head == sum(len(a.mentions) for a in anns[f])
            assert_same(api(anns[f], match="head"), api(anns[f]), f"{f} head vs exact")


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_json_identical_and_sniffed(fmt, cli_json):
    args = ["--by-document", "--ci", "--resamples", "100", "--seed", "3"]
    got = cli_json("coref", *PATHS[fmt], *args)
    assert got["format"] == fmt                              # --input-format auto found it
    assert [doc_id(d) for d in got["documents"]] == ["council", "gates", "harbour", "letters",
                                                     "recipe"]
    ref = cli_json("coref", *PATHS["corefud"], *args)
    assert_same(numbers(got), numbers(ref), f"CLI {fmt} vs corefud")


# ---- options, intervals, notes ------------------------------------------------------------------
def test_options(anns):
    r = coref.analyse(anns["corefud"], distances=["jaccard", "dice"], unmarked="singleton",
                      label="prefix", singletons="drop", match="overlap")
    assert {k: r.options[k] for k in ("match", "label", "unmarked", "singletons",
                                      "distances")} == {
        "match": "overlap", "label": "prefix", "unmarked": "singleton", "singletons": "drop",
        "distances": ["jaccard", "dice"]}
    assert [e.result.distance for e in r.coefficients] == ["jaccard"] * 4 + ["dice"] * 4
    assert r.alignment.per_annotator["ann1"]["dropped_singletons"] > 0
    assert all(e.result.coders == 3 for e in r.coefficients)
    assert any("unmarked mentions are singletons" in n for n in r.notes)
    assert "dropped_singletons" in [c.key for c in r.tables()[0].columns]
    with pytest.raises(InputError, match="not a set distance"):
        coref.analyse(anns["corefud"], distances=["nominal"])
    with pytest.raises(InputError, match="must be one of"):
        coref.analyse(anns["corefud"], match="fuzzy")


def test_intervals_notes_and_progress(anns):
    seen = []
    r = coref.analyse(anns["corefud"], bootstrap=Bootstrap(50, 0.9, seed=7),
                      progress=lambda done, total: seen.append((done, total)))
    for e in [*r.coefficients, *r.antecedent]:
        i = e.interval
        assert i.clustered and i.units == 5 and i.level == 0.9
        assert i.n_resamples == 50 and i.low <= i.high
    assert any("only 5 documents" in n for n in r.notes)
    assert seen[-1] == (50 + 50 + 5, 50 + 50 + 5)
    assert all(a <= b for (a, _), (b, _) in zip(seen, seen[1:], strict=False))
    assert "intervals clustered by document" in r.summary()
    items = coref.analyse(anns["corefud"], bootstrap=Bootstrap(50, cluster=False))
    assert not items.coefficients[0].interval.clustered
    assert items.coefficients[0].interval.units == 56                   # every mention


def test_one_document_resamples_mentions(anns):
    one = [a for a in anns["corefud"] if a.document.id == "gates"]
    r = coref.analyse(one, bootstrap=Bootstrap(50))
    assert r.bootstrap.cluster is False and not r.coefficients[0].interval.clustered
    assert any("one document only" in n for n in r.notes)


def test_two_annotators_get_cohen_kappa(data_dir):
    fmt, two = coref.read([data_dir / "coref_a" / "webanno_tsv" / a for a in ("ann1", "ann2")])
    assert fmt == "webanno_tsv"
    r = coref.analyse(two, input_format=fmt)
    assert [e.id for e in r.antecedent] == ["kappa", "alpha", "beta"]
    assert r.format == "webanno_tsv" and len(r.scores.pairs) == 1


def test_report_records_and_json(full):
    frame = full.coefficients.to_frame()
    assert len(frame) == 16 and frame["value"].tolist() == [e.value for e in full.coefficients]
    assert set(frame["id"]) == set(coref.CHAIN_COEFFICIENTS)
    assert len(full.by_document.to_frame()) == 5
    assert "alpha_passonneau" in full.by_document.to_frame().columns
    assert full.scores.pairs.to_frame()["key"].tolist() == ["ann1", "ann1", "ann2"]
    d = full.to_dict()
    assert d["job"] == "coref" and d["schema"] == 1 and d["bootstrap"] is None
    assert list(d)[-1] == "notes"
    for k in ("format", "documents", "annotators", "items", "alignment", "coefficients",
              "antecedent", "scores", "by_document", "diagnostics"):
        assert k in d, k
    json.dumps(d)                               # JSON-ready (nan stays a float)
    assert repr(full).startswith("CorefReport(") and "56 mentions" in full.summary()
    for t in full.tables():
        assert all(len(row) == len(t.columns) for row in t.rows), t.id


# ---- reading and the sample folder --------------------------------------------------------------
def test_read_defaults_and_errors(tmp_path):
    fmt, mm = coref.read(PATHS["mmax2"])                   # levels=["coref"] by default
    assert fmt == "mmax2" and len(mm) == 15
    with pytest.raises(InputError, match="one file or folder per annotator"):
        coref.read([SAMPLE / "conll2012"])
    with pytest.raises(InputError, match="no such file"):
        coref.read([tmp_path / "nothing"])
    with pytest.raises(InputError, match="different formats"):
        coref.read([PATHS["corefud"][0], SAMPLE / "brat"])
    with pytest.raises(InputError, match="does not apply"):
        coref.read(PATHS["corefud"], levels=["coref"])
    _, named = coref.read(PATHS["corefud"], annotators=["x", "y", "z"])
    assert sorted({a.annotator for a in named}) == ["x", "y", "z"]


def test_from_folder():
    reports = coref.from_folder(SAMPLE, Bootstrap(50))
    assert len(reports) == 1
    r = reports[0]
    assert r.format == "corefud" and len(r.inputs) == 3
    assert r.coefficients[0].interval is not None and len(r.by_document) == 5
    assert r.notes[0].startswith("sample corpus read from")
    assert coref.from_folder(SAMPLE / "corefud", None) == []
