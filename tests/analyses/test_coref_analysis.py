"""``analyses.coref`` through its Python API: the figures are the coefficients of the converted
data, the pairwise scores are the reference scorer's corpus (micro) scores and equal scorch's
(and a MUC by hand) on the readers' own chains, macro means leave undefined documents out,
repeated mentions are kept once for the scores and united for α, the first path is the key,
every sample format gives the same figures to 1e-12, per-document figures, diagnostics with
mention texts, intervals, notes and the sample-folder report.

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
import warnings

import numpy as np
import pytest

from corpusagree.analyses import coref, segments
from corpusagree.convert import coref as cc
from corpusagree.model.errors import InputError
from corpusagree.readers import discover
from corpusagree.stats import coefficients as co
from corpusagree.stats.inference import Bootstrap

from support import DATA, SAMPLES, write

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
        out[f] = coref.read(PATHS[f], input_format=f)
        assert out[f].format == f
    return out


@pytest.fixture(scope="module")
def full(anns):
    return coref.analyse(anns["corefud"], by_document=True, diagnostics=10)


# ---- the figures are the coefficients ---------------------------------------------------------
def test_figures_equal_the_coefficients(full, anns):
    data, al = cc.coref_data(anns["corefud"].data)
    assert full.format == "corefud" and full.annotators == ["ann1", "ann2", "ann3"]
    assert full.documents == ["council", "gates", "harbour", "letters", "recipe"]
    assert full.items == al.n_items == 56
    fns = {"alpha": co.alpha, "alpha_prime": co.alpha_prime, "beta": co.beta, "bias": co.bias}
    got = {(e.id, e.result.distance): e.value for e in full.coefficients}
    assert len(got) == 17  # 4 coefficients × 4 distances, and mvα
    for d in coref.DISTANCES:
        for name, f in fns.items():
            assert got[(name, d)] == pytest.approx(f(data, d).value, abs=TOL)
    assert got[("mv_alpha", "dice")] == pytest.approx(co.mv_alpha(data).value, abs=TOL)
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
    only = [a for a in anns["corefud"].data if a.document.id == "harbour"]
    data, al = cc.coref_data(only)
    assert (harbour["annotators"], harbour["items"]) == (3, al.n_items) == (3, 12)
    for d in coref.DISTANCES:
        assert harbour["alpha"][d] == pytest.approx(co.alpha(data, d).value, abs=TOL)
        assert harbour["beta"][d] == pytest.approx(co.beta(data, d).value, abs=TOL)
    assert harbour["alpha_antecedent"] == pytest.approx(
        co.alpha(cc.to_data(al, "antecedent")).value, abs=TOL)
    alone = coref.analyse(only, by_document=True)
    for s in coref.SCORES:
        assert harbour[s] == pytest.approx(alone.scores.macro_all[s]["f1"], abs=TOL)
        # one document: each pair's corpus figure is its document's figure
        for micro, doc in zip(alone.scores.pairs, alone.scores.documents, strict=True):
            assert micro[s] == pytest.approx(doc[s], abs=TOL)


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
    ids = [t.id for t in full.tables.values()]
    assert "disputed" in ids and "worst_items" not in ids and "pairwise" in ids


def test_antecedent_label_and_its_diagnostics(anns):
    r = coref.analyse(anns["brat"], label="antecedent", diagnostics=3)
    assert len(r.coefficients) == 0 and len(r.antecedent) == 3
    assert any("set distances do not apply" in n for n in r.notes)
    assert r.diagnostics.diagnostics.distance == "nominal"
    assert {r.diagnostics.disputed[0]["labels"][c] for c in ("ann1", "ann2", "ann3")} <= \
        {"none", "The town and county councils", "the engineers", "They"}
    assert "coefficients" not in [t.id for t in r.tables.values()]


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
    """The pairwise scores on the mentions as the readers give them (spans as keys): each
    pair's micro figures are those of the whole corpus as one partition (mentions keyed by
    document: summed counts, as the reference scorer scores a corpus), by scorch and by hand;
    the macro figures are the means of the documents' figures."""
    scorch = pytest.importorskip("scorch.scores")
    assert full.scores.to_dict()["averaging"] == "micro"
    by = {(a.annotator, a.document.id): a for a in anns["corefud"].data}
    docs = sorted({d for _, d in by})

    def part(a, d, keyed=False):
        return [{(d, a.mentions[m].span) if keyed else a.mentions[m].span for m in c.members}
                for c in a.chains]

    fns = {"muc": scorch.muc, "b_cubed": scorch.b_cubed, "ceaf_e": scorch.ceaf_e,
           "ceaf_m": scorch.ceaf_m}
    for row, macro in zip(full.scores.pairs, full.scores.macro, strict=True):
        pair = (row["key"], row["response"])
        whole = [[c for d in docs for c in part(by[(x, d)], d, True)] for x in pair]
        for s, fn in fns.items():
            want = fn(*whole)
            assert [row[s][k] for k in ("recall", "precision", "f1")] == pytest.approx(
                want, abs=TOL), (row, s)
        assert row["muc"]["f1"] == pytest.approx(muc_f1(*whole), abs=TOL)
        assert row["conll"] == pytest.approx(
            (row["muc"]["f1"] + row["b_cubed"]["f1"] + row["ceaf_e"]["f1"]) / 3, abs=TOL)
        ref = {"muc": [], "b_cubed": [], "ceaf_e": [], "blanc": [], "byhand": []}
        for d in docs:
            k, r = part(by[(pair[0], d)], d), part(by[(pair[1], d)], d)
            for s in ("muc", "b_cubed", "ceaf_e", "blanc"):
                ref[s].append(getattr(scorch, s)(k, r)[2])
            ref["byhand"].append(muc_f1(k, r))
        for s in ("muc", "b_cubed", "ceaf_e", "blanc"):
            assert macro[s]["f1"] == pytest.approx(np.mean(ref[s]), abs=TOL), (macro, s)
            assert macro[s]["documents"] == 5
        assert macro["muc"]["f1"] == pytest.approx(np.mean(ref["byhand"]), abs=TOL)
    first = full.scores.macro[0]
    assert (first["key"], first["response"], first["documents"]) == ("ann1", "ann2", 5)
    # sample README: MUC F1 of ann1 vs ann2 is 7/8, 10/11, 8/9 and 1, 1 on the other two
    assert first["muc"]["f1"] == pytest.approx((7 / 8 + 10 / 11 + 8 / 9 + 2) / 5)
    assert len(full.scores.table) == len(full.scores.documents) == 15
    assert full.scores.macro_all["lea"]["f1"] == pytest.approx(
        np.mean([r["lea"]["f1"] for r in full.scores.documents]))
    assert full.scores.all_pairs["documents"] == 15 and full.scores.all_pairs["pairs"] == 3


def test_micro_by_default_macro_leaves_undefined_documents_out(tmp_path):
    """Two identical brat annotations (Equiv groups, as the BioNLP shared tasks write them)
    of four documents, two without any coreference link: every score is 1 over the corpus;
    per document, MUC and BLANC are undefined on the documents without links and the macro
    means leave them out (a mean with MUC = 0 there, the former figure, was 0.5)."""
    docs = {"d1": ("Ras binds p53 . It acts .",
                   "T1\tProtein 0 3\tRas\nT2\tProtein 16 18\tIt\n*\tEquiv T1 T2\n"),
            "d2": ("No link here .", "T1\tProtein 0 2\tNo\n"),
            "d3": ("BRCA1 and its partner BRCA1 .",
                   "T1\tProtein 0 5\tBRCA1\nT2\tProtein 10 13\tits\nT3\tProtein 22 27\tBRCA1\n"
                   "*\tEquiv T1 T2 T3\n"),
            "d4": ("Nothing marked .", "")}
    for a in ("ann1", "ann2"):
        (tmp_path / a).mkdir()
        for name, (text, ann) in docs.items():
            write(tmp_path / a, f"{name}.txt", text)
            write(tmp_path / a, f"{name}.ann", ann)
    anns = coref.read([tmp_path])
    fmt = anns.format
    assert fmt == "brat"
    micro = coref.analyse(anns)
    assert micro.scores.macro is None and micro.scores.documents is None
    pair = micro.scores.pairs[0]
    assert pair["documents"] == 4
    for s in coref.SCORES:
        assert [pair[s][k] for k in ("recall", "precision", "f1")] == [1, 1, 1], s
    assert pair["conll"] == 1
    full = coref.analyse(anns, by_document=True)
    macro = full.scores.macro[0]
    assert {s: (macro[s]["f1"], macro[s]["documents"]) for s in coref.SCORES} == {
        "muc": (1, 2), "b_cubed": (1, 3), "ceaf_e": (1, 3), "ceaf_m": (1, 3), "blanc": (1, 2),
        "lea": (1, 3)}
    rows = {r["document"]: r for r in full.scores.documents}
    assert math.isnan(rows["d2"]["muc"]["f1"]) and math.isnan(rows["d2"]["blanc"]["recall"])
    assert rows["d2"]["b_cubed"]["f1"] == 1 and math.isnan(rows["d4"]["lea"]["f1"])
    assert math.isnan(rows["d2"]["conll"]) and rows["d1"]["conll"] == 1
    by_doc = {r["document"]: r for r in full.by_document}
    assert math.isnan(by_doc["d2"]["muc"]) and by_doc["d1"]["muc"] == 1
    ids = [t.id for t in full.tables.values()]
    assert ids.index("scores") < ids.index("scores_macro") < ids.index("scores_by_document")
    assert "scores_macro" not in [t.id for t in micro.tables.values()]


def repeated_span_case(name: str):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        anns = coref.read([DATA / "scorer" / "TC-A.key", DATA / "scorer" / name])
        report = coref.analyse(anns)
    return report, [str(w.message) for w in caught]


def test_repeated_mentions_are_kept_once_for_the_scores():
    """The reference scorer's TC-A-7, 8 and 9: the response marks b's span again, in b's own
    entity, in another entity, ten times in another entity. The scores keep the first (as the
    reference scorer: its figures for the de-duplicated response); a warning names the file and
    the counts; α's chain labels unite the chains the span is in."""
    for name, n, other in (("TC-A-7.response", 1, 0), ("TC-A-8.response", 1, 1),
                           ("TC-A-9.response", 10, 1)):
        report, caught = repeated_span_case(name)
        assert len(caught) == 1 and caught[0].startswith(str(DATA / "scorer" / name))
        assert f": {n} mention(s) repeat the span" in caught[0]
        assert f"{other} span(s) in more than one chain" in caught[0]
        assert "keep each span in its first chain" in caught[0]
        per = report.alignment.per_annotator
        assert (per["TC-A"]["repeated"], per[name.split(".")[0]]["repeated"]) == (0, n)
        pair = report.scores.pairs[0]
        assert (pair["key"], pair["response"]) == ("TC-A", name.split(".")[0])
        # the figures of {a} {bcx} {dy} {z} (CorefMetricTestConfig.pm, A7 to A9)
        assert pair["ceaf_m"]["precision"] == pytest.approx(4 / 7)
        assert pair["b_cubed"]["precision"] == pytest.approx((1 + 4 / 3 + 1 / 2) / 7)
        assert pair["muc"]["f1"] == pytest.approx(1 / 3)
    # α: the span's label is the union of its chains {b c x} and {b z} (TC-A-8)
    anns = coref.read([DATA / "scorer" / "TC-A.key", DATA / "scorer" / "TC-A-8.response"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data, al = cc.coref_data(anns.data)
    resp = data.coders.index("TC-A-8")
    b = next(i for i, name in enumerate(data.items) if name.endswith("[3:7]"))
    assert len(data.label(data.codes[resp, b])) == 4                # b, c, x and z
    assert al.report.per_annotator["TC-A-8"]["several_chains"] == 1
    assert any("first of them" in n for n in al.report.notes())


def test_key_is_the_first_path():
    """``coref KEY RESPONSE``: the first path is the key whatever the names' order, as in the
    reference scorer's ``scorer.pl METRIC KEY RESPONSE``."""
    key, resp = DATA / "scorer" / "TC-A.key", DATA / "scorer" / "TC-A-2.response"
    for paths in ([key, resp], [resp, key]):
        anns = coref.read(paths)
        r = coref.analyse(anns)
        pair = r.scores.pairs[0]
        assert r.annotators == [path.stem for path in paths]
        assert (pair["key"], pair["response"]) == tuple(r.annotators)
    # TC-A-2 with the key first: R = 1/3, P = 1; the other way round they swap
    anns = coref.read([resp, key])
    assert coref.analyse(anns).scores.pairs[0]["muc"]["recall"] == 1


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
    sc = p["scores"]
    for part, rows in (("micro", sc["pairs"]), ("macro", (sc["macro"] or {}).get("pairs", []))):
        for r in rows:
            out[(part, r["key"], r["response"])] = [r["documents"], r["conll"], *(
                r[s][k] for s in coref.SCORES for k in ("recall", "precision", "f1"))]
    out["all pairs"] = [sc["all_pairs"][s]["f1"] for s in coref.SCORES]
    for r in sc["documents"] or []:
        out[("scores", doc_id(r["document"]), r["key"], r["response"])] = [
            r[s][k] for s in coref.SCORES for k in ("recall", "precision", "f1")]
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
        data, _ = cc.coref_data(anns[f].data)
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
            al = cc.align(anns[f].data, match="head")
            assert sum(n.startswith("recipe") for n in al.items) == 11
            assert [head.alignment.per_annotator[a]["merged"] for a in head.annotators] == \
                [5, 4, 5]
            assert api(anns[f], match="head") != api(anns[f])
            assert "no_head" in [c.key for c in list(head.tables.values())[0].columns]
        else:
            assert no_head == sum(len(a.mentions) for a in anns[f].data)
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
    r = coref.analyse(anns["corefud"], distance=["jaccard", "dice"], unmarked="singleton",
                      label="prefix", singletons="drop", match="overlap")
    assert {k: r.options[k] for k in ("match", "label", "unmarked", "singletons",
                                      "distances")} == {
        "match": "overlap", "label": "prefix", "unmarked": "singleton", "singletons": "drop",
        "distances": ["jaccard", "dice"]}
    assert [e.result.distance for e in r.coefficients] == ["jaccard"] * 4 + ["dice"] * 5
    assert r.coefficients[-1].id == "mv_alpha"
    assert r.alignment.per_annotator["ann1"]["dropped_singletons"] > 0
    assert all(e.result.coders == 3 for e in r.coefficients)
    assert any("unmarked mentions are singletons" in n for n in r.notes)
    assert "dropped_singletons" in [c.key for c in list(r.tables.values())[0].columns]
    with pytest.raises(InputError, match="not a set distance"):
        coref.analyse(anns["corefud"], distance=["nominal"])
    with pytest.raises(ValueError, match="match must be one of"):
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
    one = [a for a in anns["corefud"].data if a.document.id == "gates"]
    r = coref.analyse(one, bootstrap=Bootstrap(50))
    assert r.bootstrap.cluster is False and not r.coefficients[0].interval.clustered
    assert any("one document only" in n for n in r.notes)


def test_two_annotators_get_cohen_kappa(data_dir):
    two = coref.read([data_dir / "coref_a" / "webanno_tsv" / a for a in ("ann1", "ann2")])
    fmt = two.format
    assert fmt == "webanno_tsv"
    # 'it' is in three chains of ann1 (two layers, one stacked): warned, kept once for scores
    with pytest.warns(UserWarning, match=r"doc1.tsv: 2 mention\(s\) repeat the span .* 1 "
                      r"span\(s\) in more than one chain"):
        r = coref.analyse(two)
    assert [e.id for e in r.antecedent] == ["kappa", "alpha", "beta"]
    assert r.format == "webanno_tsv" and len(r.scores.pairs) == 1


def test_report_records_and_json(full):
    frame = full.coefficients.to_frame()
    assert len(frame) == 17 and frame["value"].tolist() == [e.value for e in full.coefficients]
    assert set(frame["id"]) == set(coref.CHAIN_COEFFICIENTS) | {"mv_alpha"}
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
    for t in full.tables.values():
        assert all(len(row) == len(t.columns) for row in t.rows), t.id


# ---- reading and the sample folder --------------------------------------------------------------
def test_read_defaults_and_errors(tmp_path):
    mm = coref.read(PATHS["mmax2"])                   # levels=["coref"] by default
    fmt = mm.format
    assert fmt == "mmax2" and len(mm.data) == 15
    with pytest.raises(InputError, match="one file or folder per annotator"):
        coref.read([SAMPLE / "conll2012"])
    with pytest.raises(InputError, match="no such file"):
        coref.read([tmp_path / "nothing"])
    with pytest.raises(InputError, match="different formats"):
        coref.read([PATHS["corefud"][0], SAMPLE / "brat"])
    with pytest.raises(InputError, match="does not apply"):
        coref.read(PATHS["corefud"], levels=["coref"])
    named = coref.read(PATHS["corefud"], annotators=["x", "y", "z"])
    assert sorted({a.annotator for a in named.data}) == ["x", "y", "z"] == named.annotators
    assert repr(named) == "<Corpus coref (corefud): 3 annotators, 5 documents, 161 mentions>"
    with pytest.raises(TypeError, match="coref.analyse takes the Corpus"):
        coref.analyse(segments.read(SAMPLES / "segments" / "segments.json"))


def test_folder_discovery(tmp_path):
    """The report job's view of a coreference folder (readers.discover): the sample layout
    (one sub-folder per format) reads its CorefUD files, with a note."""
    found = discover.coref_inputs(SAMPLE)
    assert found.format == "corefud" and len(found.paths) == 3
    assert found.note.startswith("sample corpus read from")
    r = coref.analyse(coref.read(found.paths, input_format=found.format),
                      bootstrap=Bootstrap(50), by_document=True)
    assert r.coefficients[0].interval is not None and len(r.by_document) == 5
    # a folder whose files are the annotators (here ann1..3.conllu), not the sample layout
    own = discover.coref_inputs(SAMPLE / "corefud")
    assert [p.stem for p in own.paths] == ["ann1", "ann2", "ann3"] and own.format == "corefud"
    assert discover.coref_inputs(tmp_path) is None


def test_nothing_to_score_is_said(full):
    """The reference scorer's N1: the key and the response have no link, so MUC measures
    nothing; the figure is the scorer's 0, and a note says it is no measurement."""
    anns = coref.read([DATA / "scorer" / "TC-N.key", DATA / "scorer" / "TC-N-1.response"])
    r = coref.analyse(anns)
    assert [r.scores.pairs[0]["muc"][k] for k in ("recall", "precision", "f1")] == [0, 0, 0]
    assert r.scores.pairs[0]["blanc"]["f1"] == 1
    assert [n for n in r.notes if "nothing to score" in n] == [
        "MUC: nothing to score for 1 of 1 pair(s) (no link on either side in any document): "
        "shown as 0, as the reference scorer prints it"]
    assert not any("nothing to score" in n for n in full.notes)
