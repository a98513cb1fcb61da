"""``analyses.segments`` through its Python API: the figures are the coefficients of the converted
data, the pairwise means are segeval's, leave-one-out names the odd one out, boundary rates and
per-document figures by hand; Moonstone's coders missing from chapters are missing data."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import segeval

import corpusagree as ca
from corpusagree.analyses import segments
from corpusagree.convert import segments as conv
from corpusagree.model.corpus import Segmentation
from corpusagree.model.errors import InputError
from corpusagree.readers import discover, positions
from corpusagree.readers import segeval as segeval_reader
from corpusagree.report import json as json_renderer
from corpusagree.stats import segmetrics
from corpusagree.stats.inference import Bootstrap

from support import DATA


@pytest.fixture(scope="module")
def sample_file(samples):
    return samples / "segments" / "segments.json"


@pytest.fixture(scope="module")
def sample_segs(sample_file):
    return segeval_reader.read(sample_file)


@pytest.fixture(scope="module")
def sample_report(sample_segs):
    return segments.analyse(sample_segs)


def values(rows) -> dict:
    return {(e.id, e.result.distance): e.value for e in rows}


def test_figures_are_the_coefficients(sample_segs) -> None:
    report = segments.analyse(sample_segs, distance=["jaccard", "dice"])
    b, u = conv.boundaries(sample_segs), conv.unit_sets(sample_segs)
    by_id = values(report.boundaries)
    assert by_id["alpha", "nominal"] == float(ca.alpha(b))
    assert by_id["pi", "nominal"] == float(ca.pi(b))
    assert by_id["multi_kappa", "nominal"] == float(ca.multi_kappa(b))
    assert [(e.id, e.result.distance) for e in report.unit_sets] == [
        ("alpha", "jaccard"), ("beta", "jaccard"), ("bias", "jaccard"),
        ("alpha", "dice"), ("beta", "dice"), ("bias", "dice")]
    assert report.unit_sets[4].value == float(ca.beta(u, "dice"))
    assert report.data["documents"] == 3 and report.data["coders"] == ["ada", "ben", "chloe"]
    assert report.data["not_segmented"] == 1 and report.data["units"] == b.n_items + 3
    assert report.typed_boundaries is None and report.bootstrap is None
    assert report.options == {"distances": ["jaccard", "dice"], "by_document": False,
                              "reader_options": {},
                              "diagnostics": None}
    assert report.leave_one_out.distance == report.pairwise.distance == "jaccard"


def test_two_coders_take_cohens_kappa() -> None:
    segs = [Segmentation("t", "a", (2, 2, 2)), Segmentation("t", "b", (2, 4))]
    report = segments.analyse(segs)
    by_id = values(report.boundaries)
    # A_o = 4/5; Cohen: A_e = (2/5)(1/5) + (3/5)(4/5) = 14/25
    assert by_id["kappa", "nominal"] == pytest.approx((0.8 - 14 / 25) / (1 - 14 / 25))
    assert not report.leave_one_out.rows and report.leave_one_out.odd_one_out is None


def test_pairwise_matrices_are_means_over_shared_documents(sample_segs, sample_report) -> None:
    pw = sample_report.pairwise
    m = pw.matrices
    masses = {(s.document, s.annotator): s.masses for s in sample_segs}
    i, j = pw.means.coders.index("chloe"), pw.means.coders.index("ben")
    shared = [d for d in ("harbour", "orchard", "workshop")
              if (d, "chloe") in masses and (d, "ben") in masses]
    assert shared == ["harbour", "orchard"] and pw.means.shared_documents[i][j] == 2
    for key, fn in (("boundary_similarity", segmetrics.boundary_similarity),
                    ("pk", segmetrics.pk), ("window_diff", segmetrics.window_diff)):
        expected = np.mean([fn(masses[d, "chloe"], masses[d, "ben"]) for d in shared])
        assert m[key][i][j] == pytest.approx(expected, abs=1e-15)
    assert m["pk"][i][j] != m["pk"][j][i]  # row = hypothesis, column = reference
    b = conv.boundaries(sample_segs)
    pair = ca.alpha(b.subset(coders=[i, j]))
    assert m["alpha_boundaries"][i][j] == m["alpha_boundaries"][j][i] == float(pair)
    u = conv.unit_sets(sample_segs)
    assert m["alpha_units"][i][j] == pytest.approx(float(ca.alpha(u.subset(coders=[i, j]),
                                                                  "dice")))
    # each coder's mean α against the others, over the pairs
    per = pw.per_coder
    assert per["alpha_boundaries"][i] == pytest.approx(
        np.mean([m["alpha_boundaries"][i][k] for k in range(3) if k != i]))


def test_pairwise_means_equal_segeval_on_sample(sample_file, sample_report) -> None:
    with open(sample_file, encoding="utf-8") as f:
        dataset = segeval.Dataset(json.load(f)["items"])
    mean = sample_report.pairwise.means.mean
    for key, fn, permuted in (("boundary_similarity", segeval.boundary_similarity, False),
                              ("segmentation_similarity", segeval.segmentation_similarity,
                               False),
                              ("pk", segeval.pk, True), ("window_diff", segeval.window_diff,
                                                         True)):
        theirs = [float(v) for v in fn(dataset, permuted=permuted).values()]
        assert mean[key] == pytest.approx(np.mean(theirs), abs=1e-9), key
    assert sample_report.pairwise.means.pairs == 14


def test_leave_one_out_names_the_odd_one_out(sample_segs, sample_report) -> None:
    loo = sample_report.leave_one_out
    u = conv.unit_sets(sample_segs)
    without = {c: float(ca.alpha(u.subset(coders=[k for k in range(3) if k != i]), "dice"))
               for i, c in enumerate(u.coders)}
    assert [r["unit_alpha"] for r in loo.rows] == pytest.approx(list(without.values()))
    best = max(without, key=without.get)
    assert loo.odd_one_out["coder"] == best == "ben"
    assert loo.odd_one_out["change"] == pytest.approx(without[best] - float(ca.alpha(u, "dice")))
    b = conv.boundaries(sample_segs)
    assert loo.all_boundary_alpha == float(ca.alpha(b))
    assert loo.rows.to_frame().shape == (3, 5)


def test_coder_rates(sample_segs, sample_report) -> None:
    rates = {r["coder"]: r for r in sample_report.coder_rates}
    masses = {(s.document, s.annotator): s.masses for s in sample_segs}
    chloe = rates["chloe"]
    assert chloe["documents"] == 2
    assert chloe["boundaries"] == sum(len(masses[d, "chloe"]) - 1 for d in ("harbour", "orchard"))
    # the others on chloe's documents: ada and ben on harbour and orchard
    others = [masses[d, c] for d in ("harbour", "orchard") for c in ("ada", "ben")]
    positions_ = sum(sum(m) - 1 for m in others)
    assert chloe["others_rate"] == pytest.approx(sum(len(m) - 1 for m in others) / positions_)
    assert chloe["ratio"] == pytest.approx(chloe["rate"] / chloe["others_rate"])


def test_by_document_and_local_coders(sample_file, sample_segs, sample_report) -> None:
    report = segments.analyse(sample_segs, by_document=True)
    rows = {r["document"]: r for r in report.by_document}
    harbour = [s for s in sample_segs if s.document == "harbour"]
    assert rows["harbour"]["boundary_alpha"] == float(ca.alpha(conv.boundaries(harbour)))
    assert rows["harbour"]["unit_alpha"]["jaccard"] == float(
        ca.alpha(conv.unit_sets(harbour), "jaccard"))
    assert rows["harbour"]["segments_per_coder"] == round(
        sum(len(s.masses) for s in harbour) / 3, 2)
    assert rows["workshop"]["coders"] == 2
    b_pairs = [segmetrics.boundary_similarity(a.masses, b.masses)
               for a in harbour for b in harbour if a is not b]
    assert rows["harbour"]["boundary_similarity"] == pytest.approx(np.mean(b_pairs))
    assert "unit_alpha_dice" in report.by_document.to_frame().columns
    local = segments.read([sample_file], local_coders=True)
    fmt = local.format
    assert fmt == "segeval"
    assert {s.annotator for s in local.data} >= {"harbour/ada", "workshop/ben"}
    out = segments.analyse(local)
    assert len(out.data["coders"]) == 8 and out.boundaries[0].value == pytest.approx(
        sample_report.boundaries[0].value)


def test_read_keeps_annotators_and_takes_reader_options(sample_file, samples) -> None:
    segs = segments.read([sample_file], annotators=["ada", "ben"])
    assert {s.annotator for s in segs.data} == {"ada", "ben"} == set(segs.annotators)
    segs = segments.read([samples / "segments" / "positions"], unit="word")
    fmt = segs.format
    assert fmt == "positions" and segs.data[0].unit == "word"
    with pytest.raises(InputError,
                       match="marker='=\\+' does not apply to [a-z]* ?format 'segeval'"):
        segments.read([sample_file], marker="=+")


def test_costliest_items(sample_segs) -> None:
    diag = segments.analyse(sample_segs, diagnostics=4).diagnostics
    assert diag.distance == "dice" and len(diag.boundaries) == len(diag.units) == 4
    b = conv.boundaries(sample_segs)
    first = diag.boundaries[0]
    item = list(b.items).index((first["document"], first["position"]))
    assert first["labels"] == {c: b.label(int(k)) for c, k in zip(b.coders, b.codes[:, item],
                                                                   strict=True)}
    assert segments.analyse(sample_segs).diagnostics is None


def test_typed_boundaries_with_intervals() -> None:
    segs = [Segmentation(d, c, m, boundary_types=t) for d, c, m, t in [
        ("d1", "a", (1, 2, 1), ("topic", "sub")), ("d1", "b", (1, 3), ("sub",)),
        ("d1", "c", (1, 2, 1), ("topic", "topic")),
        ("d2", "a", (2, 2), ("topic",)), ("d2", "b", (2, 2), ("topic",)),
        ("d2", "c", (1, 3), ("sub",))]]
    report = segments.analyse(segs, bootstrap=Bootstrap(50))
    typed = conv.boundaries(segs, types=True)
    assert values(report.typed_boundaries)["alpha", "nominal"] == float(ca.alpha(typed))
    assert all(e.interval is not None and e.interval.clustered for e in report.typed_boundaries)
    assert "typed_boundaries" in [t.id for t in report.tables.values()]


def test_one_document_resamples_items_with_a_note(sample_segs) -> None:
    harbour = [s for s in sample_segs if s.document == "harbour"]
    report = segments.analyse(harbour, bootstrap=Bootstrap(50, seed=2))
    iv = report.unit_sets[0].interval
    assert not iv.clustered and iv.units == 71
    assert any("one document" in n for n in report.notes)


def test_intervals_clustered_by_document(sample_segs) -> None:
    report = segments.analyse(sample_segs, bootstrap=Bootstrap(200, 0.9, seed=3))
    again = segments.analyse(sample_segs, bootstrap=Bootstrap(200, 0.9, seed=3))
    assert json_renderer.dumps(report) == json_renderer.dumps(again)  # nan != nan in dicts
    e = report.unit_sets[0]
    assert e.id == "alpha" and e.interval.clustered and e.interval.units == 3
    assert e.interval.level == 0.9 and e.interval.n_resamples == 200
    assert e.interval.low <= e.value <= e.interval.high
    items = segments.analyse(sample_segs, bootstrap=Bootstrap(50, cluster=False))
    assert items.unit_sets[0].interval.units == 203


def test_progress_reaches_the_total(sample_segs) -> None:
    calls = []
    segments.analyse(sample_segs, by_document=True, bootstrap=Bootstrap(40),
                     progress=lambda done, total: calls.append((done, total)))
    totals = {t for _, t in calls}
    assert totals == {40 + 40 + 3 + 3}
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == 86


@pytest.mark.parametrize("kwargs, message", [
    ({"distance": ["nominal"]}, "unknown set distance 'nominal'"),
    ({"distance": []}, "at least one set distance"),
])
def test_bad_options(sample_segs, kwargs, message) -> None:
    with pytest.raises(InputError, match=message):
        segments.analyse(sample_segs, **kwargs)


def test_a_single_coder_per_document_is_an_error() -> None:
    with pytest.raises(InputError, match="no document was segmented by two or more coders"):
        segments.analyse([Segmentation("d", "a", (2, 3)), Segmentation("e", "b", (4,))])


def test_folder_discovery(samples, tmp_path) -> None:
    found = discover.segment_inputs(samples / "segments")
    report = segments.analyse(segments.read(found.paths, input_format=found.format))
    assert report.format == "segeval" and report.inputs == [str(samples / "segments" /
                                                                "segments.json")]
    assert discover.segment_inputs(tmp_path) is None
    assert repr(report).startswith("SegmentsReport(") and "3 documents" in repr(report)


# ---- Moonstone (Kazantseva & Szpakowicz 2012) -------------------------------------------------
def test_moonstone_coders_missing_from_chapters_are_missing_data(corpora) -> None:
    csv_dir = corpora / "moonstone_kazantseva2012" / "segmentations"
    if not csv_dir.is_dir():
        pytest.skip(f"{csv_dir} is absent")
    segs = positions.read(csv_dir)
    per_chapter: dict[str, int] = {}
    for s in segs:
        per_chapter[s.document] = per_chapter.get(s.document, 0) + 1
    assert sorted(set(per_chapter.values())) == [4, 5, 6]
    data = conv.unit_sets(segs)
    assert data.coders == ["an1", "an2", "an3", "an4", "an5", "an6"]
    coded = data.codes >= 0
    # an5 and an6 judged every unit of 6-coder chapters and none of 4-coder chapters
    for d, name in enumerate(data.group_names):
        in_doc = data.groups == d
        for c in range(6):
            assert coded[c, in_doc].all() == (c < per_chapter[name])
            assert coded[c, in_doc].any() == (c < per_chapter[name])
    assert int((~conv.layout(segs).coded()).sum()) == 20 * 6 - len(segs) == 12
    assert data.n_items == 1076
    local = segments.rename_local(segs)
    assert conv.unit_sets(local).n_items == 1076 and len({s.annotator for s in local}) == 108


# ---- coder names local to each document (Moonstone-like chapters) ----------------------------
MOON = DATA / "segments_moonstone"


def test_local_coder_names_warn_and_suggest_the_options() -> None:
    """an1 … anK restart in every chapter (K = 4–6) and a coder-mapping file lies beside:
    pooling an1 of every chapter as one person gets a warning naming both remedies."""
    with pytest.warns(UserWarning, match=r"coder names look local to each document: each of "
                      r"the 4 documents numbers its coders an1 … anK \(K = 4–6\).*"
                      r"annot_to_group\.csv, coder_map\.csv, group_to_chapter\.csv may say who "
                      r"is who.*local_coders=True.*coder_map=FILE") as caught:
        segs = segments.read([MOON / "segmentations"])
        fmt = segs.format
    assert len(caught) == 1 and fmt == "positions" and len(segs.data) == 19
    assert segs.notes[0].startswith("coder names look local")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        segments.read([MOON / "segmentations"], local_coders=True)
        segments.read([MOON / "segmentations"], coder_map=MOON / "coder_map.csv")
        segments.read([samples_file := DATA.parent.parent / "sample_corpora" / "segments" /
                       "segments.json"])
    assert samples_file.is_file()


def test_local_coder_hint_needs_restarting_numbers(tmp_path) -> None:
    def seg(doc, coder):
        return Segmentation(doc, coder, (1, 1))

    same = [seg(d, f"an{k}") for d in ("ch1", "ch2") for k in (1, 2, 3)]
    assert segments.local_coder_hint(same) is None  # the same three names everywhere
    (tmp_path / "annotators.csv").write_text("annotator,group\n1,1\n")
    (tmp_path / "ch1.csv").write_text("p,an1\n1,1\n")
    assert "annotators.csv may say who is who" in segments.local_coder_hint(
        same, [tmp_path / "ch1.csv"])
    varying = same + [seg("ch3", "an1"), seg("ch3", "an2")]
    assert "K = 2–3" in segments.local_coder_hint(varying)
    assert segments.local_coder_hint(varying + [seg("ch4", "an2")]) is None  # no an1 in ch4
    assert segments.local_coder_hint([seg("ch1", "a1"), seg("ch2", "b1"), seg("ch2", "b2")]) \
        is None  # two prefixes
    assert segments.local_coder_hint([seg("ch1", "an1"), seg("ch1", "an2")]) is None


def test_coder_map_pools_each_person_across_chapters() -> None:
    segs = segments.read([MOON / "segmentations"], coder_map=MOON / "coder_map.csv").data
    raw = positions.read(MOON / "segmentations")
    people = {(r.document, r.annotator): s.annotator for r, s in zip(raw, segs, strict=True)}
    assert people["ch1", "an4"] == people["ch4", "an4"] == "annotator5"
    assert people["ch2", "an1"] == "annotator7" and people["ch3", "an1"] == "annotator13"
    assert [s.masses for s in segs] == [s.masses for s in raw]
    report = segments.analyse(segs)
    assert report.data["coders"] == [f"annotator{k}" for k in (1, 2, 3, 5, *range(7, 18))]
    assert report.data["not_segmented"] == 4 * 15 - 19
    pooled = segments.analyse(raw)
    assert pooled.data["coders"] == ["an1", "an2", "an3", "an4", "an5", "an6"]
    kappa = {r.data["coders"][0]: values(r.boundaries)["multi_kappa", "nominal"]
             for r in (report, pooled)}
    assert kappa["annotator1"] != pytest.approx(kappa["an1"])  # κ's coders are other people
    assert len(report.leave_one_out.rows) == 15 and len(pooled.leave_one_out.rows) == 6


def test_coder_map_errors(tmp_path) -> None:
    bad = tmp_path / "map.csv"
    bad.write_text("document,coder,person\nch1,an1,p1\n")
    with pytest.raises(InputError, match=r"no person for document 'ch1', coder 'an2'") as err:
        segments.read([MOON / "segmentations"], coder_map=bad)
    assert err.value.path == str(bad)
    lines = (MOON / "coder_map.csv").read_text().replace("ch1,an2,annotator2",
                                                         "ch1,an2,annotator1")
    bad.write_text(lines)
    with pytest.raises(InputError, match=r"document 'ch1': coders 'an1' and 'an2' are both "
                       r"mapped to 'annotator1'"):
        segments.read([MOON / "segmentations"], coder_map=bad)
    with pytest.raises(InputError, match="not both"):
        segments.read([MOON / "segmentations"], local_coders=True, coder_map=bad)


def test_moonstone_itself_warns(corpora) -> None:
    folder = corpora / "moonstone_kazantseva2012" / "segmentations"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    with pytest.warns(UserWarning, match=r"each of the 20 documents numbers its coders an1 … "
                      r"anK \(K = 4–6\).*annot_to_group\.csv, group_to_chapter\.csv"):
        segments.read([folder])


# ---- errors name what they are about -----------------------------------------------------------
def test_errors_name_the_inputs() -> None:
    def corpus(segs, inputs):
        return segments.corpus_of(segs, "segeval", inputs)

    with pytest.raises(InputError) as err:
        segments.analyse(corpus([], ["in/x.json"]))
    assert str(err.value) == "in/x.json: no segmentations to compare"
    with pytest.raises(InputError) as err:
        segments.analyse(corpus([Segmentation("d", "a", (2, 3)), Segmentation("e", "b", (4,))],
                                ["in/a", "in/b"]))
    assert str(err.value).startswith("in/a, in/b: no document was segmented by two or more "
                                     "coders (2 documents, 2 coders)")
    with pytest.raises(InputError) as err:
        segments.analyse(corpus([Segmentation("d", "a", (1,)), Segmentation("d", "b", (1,))],
                                ["in/one.json"]))
    assert str(err.value) == ("in/one.json: no potential boundaries: every document is a "
                              "single unit")


# ---- a folder, whatever its name ----------------------------------------------------------------
def test_from_folder_reads_annotator_folders(samples, tmp_path) -> None:
    import shutil

    def from_folder(folder):
        found = discover.segment_inputs(folder)
        return segments.analyse(segments.read(found.paths, input_format=found.format))

    shutil.copytree(samples / "segments" / "rs3", tmp_path / "edus")
    report = from_folder(tmp_path / "edus")
    assert report.format == "rs3" and report.data["coders"] == ["ada", "ben", "chloe"]
    with pytest.warns(UserWarning, match="coder names look local"):
        moon = from_folder(MOON / "segmentations")
    assert moon.format == "positions" and len(moon.inputs) == 4


def _local_caveat_holds(report) -> None:
    assert report.local_coders and report.summary().startswith("CAUTION: coder names look "
                                                               "local to each document")
    assert report.notes[0].startswith("coder names look local to each document")
    ids = set(report.tables)
    assert "pairwise_means" in ids and "boundaries" in ids
    assert not ids & {"leave_one_out", "coder_rates"}
    assert not any(t.matrix for t in report.tables.values())
    terminal = report.to_text() if hasattr(report, "to_text") else None
    assert terminal is None or "Leave one coder out" not in terminal


def test_local_coder_names_put_the_caveat_first_and_drop_coder_tables() -> None:
    """Issue 34, item 5: when coder names look local to each chapter, the summary says so
    first and the coder-level tables (coder × coder, leave one coder out, coder rates) are left
    out; with --local-coders or a coder map (coders are people) they are back."""
    with pytest.warns(UserWarning):
        corpus = segments.read([MOON / "segmentations"])
    _local_caveat_holds(segments.analyse(corpus))
    mapped = segments.analyse(segments.read([MOON / "segmentations"],
                                            coder_map=MOON / "coder_map.csv"))
    assert mapped.local_coders is None and not mapped.summary().startswith("CAUTION")
    assert {"leave_one_out", "coder_rates"} <= set(mapped.tables)


def test_moonstone_caveat_in_the_summary(corpora) -> None:
    csv_dir = corpora / "moonstone_kazantseva2012" / "segmentations"
    if not csv_dir.is_dir():
        pytest.skip(f"{csv_dir} is absent")
    with pytest.warns(UserWarning):
        corpus = segments.read(sorted(csv_dir.glob("*.csv")))
    report = segments.analyse(corpus)
    _local_caveat_holds(report)
    assert "an3" not in " ".join(report.notes[1:])  # no coder named as the odd one out
