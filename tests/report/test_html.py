"""The HTML report: one self-contained page per run, read back as a person and a browser would.

Without a browser: the page of every sample corpus has every section it should, a plot per
figure, no address outside itself, tables whose numbers are the JSON report's, CSV downloads
that hold the tables, the embedded JSON equal to ``--json``. Its markup as a screen reader
meets it: every picture a titled ``role="img"``, every table a caption, headers that are
buttons, download names that differ and say what they hold. In headless Chromium (Debian's
``chromium``; skipped with the reason when there is none): no console error, no request but
the page itself, every section and plot drawn, no text clipped by its picture (measured in
the browser), headers sorted from the keyboard, the documents of a continuum chosen in a list,
a screenshot that is not blank.
"""

from __future__ import annotations

import base64
import io
import json
import math
import re
import shutil
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from corpusagree.analyses import folder, spans
from corpusagree.model.errors import InputError
from corpusagree.report import html, plots

from support import SAMPLES

pytest.importorskip("matplotlib", reason="the HTML report needs the report extra (matplotlib)")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


class Page(HTMLParser):
    """The parts of a page the tests read: sections, figures, tables (cells' data-value),
    links, the embedded JSON."""

    def __init__(self, text: str):
        super().__init__()
        self.jobs: list[dict] = []
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.sources: list[str] = []
        self.svgs: list[dict] = []  # each <svg>'s attributes, and its <title> as "title"
        self.downloads: list[str] = []
        self._title = False
        self._script: str | None = None
        self.json_text = ""
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "section" and a.get("class") == "job":
            self.jobs.append({"job": a["data-job"], "id": a["id"], "parts": [], "figures": [],
                              "tables": {}})
        elif tag == "section" and a.get("class") == "part":
            self.jobs[-1]["parts"].append(a["data-part"])
        elif tag == "figure":
            self.jobs[-1]["figures"].append({"id": a["data-figure"], "svg": 0})
        elif tag == "svg" and self.jobs:
            self.jobs[-1]["figures"][-1]["svg"] += 1
            self.svgs.append(a)
        elif tag == "title" and self.svgs:
            self._title = True
        elif tag == "a" and "download" in a:
            self.downloads.append(a["download"])
        elif tag == "table" and "data-table" in a:
            self.jobs[-1]["tables"].setdefault(a["data-table"], []).append([])
        elif tag == "td" and self.jobs and "data-value" in a:
            self.jobs[-1]["tables"][list(self.jobs[-1]["tables"])[-1]][-1].append(
                (a["data-value"], a.get("data-high")))
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])
        elif tag == "script":
            self._script = a.get("id")
        for k in ("src", "href", "xlink:href"):
            if k in a and tag not in ("a",):
                self.sources.append(a[k])

    def handle_data(self, data):
        if self._script == "corpusagree-json":
            self.json_text += data
        if self._title:
            self.svgs[-1]["title"] = self.svgs[-1].get("title", "") + data

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None
        elif tag == "title":
            self._title = False


def numbers(obj) -> set[float]:
    """Every finite number of a JSON value, rounded to 9 significant digits, and the length
    of every list and object (tables count things)."""
    out: set[float] = set()
    if isinstance(obj, dict):
        out.add(float(len(obj)))
        for v in obj.values():
            out |= numbers(v)
    elif isinstance(obj, list):
        out.add(float(len(obj)))
        for v in obj:
            out |= numbers(v)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool) and math.isfinite(obj):
        out.add(float(f"{obj:.9g}"))
    return out


def coefficient_values(obj) -> list[float]:
    """The values of every coefficient result (a dict with id, symbol and value) of a report."""
    out = []
    if isinstance(obj, dict):
        if {"id", "symbol", "value"} <= obj.keys() and isinstance(obj["value"], float):
            out.append(obj["value"])
        for v in obj.values():
            out += coefficient_values(v)
    elif isinstance(obj, list):
        for v in obj:
            out += coefficient_values(v)
    return out


@pytest.fixture(scope="module")
def sample_page(tmp_path_factory):
    """``corpusagree report sample_corpora --html`` (its JSON twin written beside it)."""
    from corpusagree.cli import main

    out = tmp_path_factory.mktemp("html")
    page, doc = out / "report.html", out / "report.json"
    # the options --html would turn on given, so that the JSON is the page's (issue 34,
    # item 9: what --html turns on is the page's alone)
    assert main(["report", str(SAMPLES), "--html", str(page), "--resamples", "200",
                 "--diagnostics", "10", "--format", "json", "--output", str(doc)]) == 0
    return page, json.loads(doc.read_text(encoding="utf-8"))


def test_every_job_has_its_sections_and_plots(sample_page):
    page, doc = sample_page
    p = Page(page.read_text(encoding="utf-8"))
    assert [j["job"] for j in p.jobs] == [d["job"] for d in doc]
    for j, d in zip(p.jobs, doc, strict=True):
        assert "summary" in j["parts"], j["job"]
        # one picture a figure; the continuum one per document drawn
        assert all(f["svg"] == 1 for f in j["figures"] if f["id"] != "continuum"), j
        ids = {f["id"] for f in j["figures"]}
        if j["job"] not in ("spans", "trees", "annotators", "ratings"):
            assert "scale" in ids and "bootstrap" in ids, j["job"]
        if j["job"] == "ratings":  # scores: a Bland–Altman plot per pair, not the α scales
            assert any(i.startswith("bland_altman_") for i in ids), ids
        if j["job"] == "trees":  # its headline: Parseval F1, not coefficients on the scales
            assert "parseval" in ids and "bootstrap" in ids and "scale" not in ids
            assert "bootstrap" in j["parts"]
        if j["job"] in ("table", "coref", "segments", "senses"):
            assert {"pairwise", "disputed"} <= set(j["parts"]), j["job"]
            assert any(i.startswith("pairwise") for i in ids), j["job"]
        if j["job"] in ("coref", "segments", "spans"):
            assert "documents" in j["parts"], j["job"]
        if j["job"] == "coref":  # the CoNLL scores next to the summary, with their heatmap
            assert "pairwise_conll" in ids
            assert j["parts"][:2] == ["summary", "scores"]
        if j["job"] == "senses":  # senses confused per lemma, α per lemma and scheme
            assert any(i.startswith("confused_") for i in ids) and "matrices" in j["parts"]
            assert "by_lemma-strips" in ids
        if j["job"] == "spans":
            assert "continuum" in ids and "spans" in j["parts"]
            drawn = next(f["svg"] for f in j["figures"] if f["id"] == "continuum")
            assert drawn == min(spans.PLOT_DOCUMENTS, len(d["data"]["documents"])) > 1
    assert "coincidence" in {f["id"] for j in p.jobs for f in j["figures"]}
    # the table with a document column: α per document
    assert "by_group-strips" in {f["id"] for j in p.jobs for f in j["figures"]}


def test_matrices_have_headings_and_their_odd_one_out(sample_page):
    text = sample_page[0].read_text(encoding="utf-8")
    coref = text[text.index('data-job="coref"'):text.index('data-job="markables"')]
    assert re.search(r'<h4>CoNLL F1[^<]*</h4>\s*<figure class="plot" '
                     r'data-figure="pairwise_conll"', coref)
    # the scores' section comes before the pairwise one, its table under its heading
    assert coref.index('data-part="scores"') < coref.index('data-part="pairwise"')
    scores = coref[coref.index('data-part="scores"'):coref.index('data-part="pairwise"')]
    assert 'data-table="scores"' in scores
    assert 'data-table="scores_macro"' in scores  # the sample page is by document
    markables = text[text.index('data-job="markables"'):]
    markables = markables[:markables.index('<section class="job"')]
    caption = re.search(r'data-figure="span_f1_coref">.*?<figcaption>(.*?)</figcaption>',
                        markables, re.S).group(1)
    assert "marked: ann3" in caption  # ann3's pairs have the lowest span F1


def test_options_and_intervals_read_as_a_person_writes_them(sample_page):
    text = sample_page[0].read_text(encoding="utf-8")
    coref = text[text.index('data-job="coref"'):]
    rows = dict(re.findall(r"<dt>([^<]+)</dt><dd>(.*?)</dd>", coref[:coref.index("</dl>")]))
    assert "passonneau, jaccard" in rows["options"] and "[" not in rows["options"]
    assert re.fullmatch(r"95% bootstrap percentile, 200 resamples of \d+ clusters, seed 0",
                        rows["intervals"]), rows["intervals"]
    # options in words: no Python names, values or assignments
    assert rows["options"].startswith("distances: passonneau, jaccard, dice, masi; match: exact")
    assert "; by document" in rows["options"]
    summaries = re.findall(r"<dt>(options|read with)</dt><dd>(.*?)</dd>", text)
    for python in (" = ", "True", "None", "{", "["):
        assert not [d for _, d in summaries if python in d], python
    names = [o.split(":")[0] for _, d in summaries for o in d.split("; ")]
    assert "by document" in names and not [n for n in names if "_" in n], names
    acts = text[text.index("dialogue_acts.csv</dd>"):]  # the table job's first sample
    table = dict(re.findall(r"<dt>([^<]+)</dt><dd>(.*?)</dd>", acts[:acts.index("</dl>")]))
    assert table["read with"] == "group: document"


def test_every_in_page_link_has_its_target(monkeypatch):
    # tables cut to their first row: the rows of the lowest documents, linked, are still there
    monkeypatch.setattr(html, "MAX_ROWS", 1)
    p = Page(html.dumps(folder.analyse(SAMPLES)))
    inner = [h[1:] for h in p.links if h.startswith("#")]
    assert any("-row-" in h for h in inner)
    assert not set(inner) - p.ids


def test_typed_boundaries_as_a_coincidence_heatmap():
    from corpusagree.analyses import segments
    from corpusagree.model.corpus import Segmentation

    segs = [Segmentation(d, c, m, boundary_types=t) for d, c, m, t in [
        ("d1", "a", (1, 2, 1), ("topic", "sub")), ("d1", "b", (1, 3), ("sub",)),
        ("d1", "c", (1, 2, 1), ("topic", "topic")), ("d2", "a", (2, 2), ("topic",)),
        ("d2", "b", (2, 2), ("topic",)), ("d2", "c", (1, 3), ("sub",))]]
    report = segments.analyse(segs, diagnostics=3)
    p = Page(html.dumps([report]))
    fig = next(f for f in p.jobs[0]["figures"] if f["id"] == "typed_coincidence")
    assert fig["svg"] == 1
    table = next(t for t in report.tables.values() if t.id == "typed_coincidence")
    assert set(report.typed_coincidence["labels"]) >= {"sub", "topic"}
    # rows sum to the pairable values of each label
    assert sum(sum(r[1:]) for r in table.rows) == pytest.approx(
        sum(sum(r) for r in report.typed_coincidence["matrix"]))
    assert segments.analyse(segs).typed_coincidence is None


def test_ezcoref_mentions_without_words_are_token_positions():
    from corpusagree.analyses import coref

    from support import DATA

    with pytest.warns(UserWarning):
        anns = coref.read([DATA / "coref_b" / "ezcoref"])
    text = html.dumps([coref.analyse(anns, diagnostics=3)])
    rows = re.search(r'data-table="disputed">(.*?)</table>', text, re.S).group(1)
    cells = re.findall(r"<td>([^<]*)</td>", rows)
    assert not [c for c in cells if re.search(r"(^|\s)_(\s|$)", c)], cells
    assert any(re.fullmatch(r"tokens \d+(–\d+)?", c) for c in cells), cells


def test_download_names_are_unique_and_say_what_they_hold():
    from corpusagree.report import csv

    reports = folder.analyse(SAMPLES)
    p = Page(html.dumps(reports))
    assert len(p.downloads) == len(set(p.downloads)) == sum(len(r.tables) for r in reports) \
        > 20
    # job, its number among the page's reports of that job, table id: the --output file names
    expected = {csv.file_name(n) for names in csv.table_names(reports) for n in names}
    assert set(p.downloads) == expected
    assert "table-2.coefficients.csv" in expected and "coref.scores.csv" in expected
    # one report: still named by its job
    one = Page(html.dumps([reports[0]]))
    assert "table.coefficients.csv" in one.downloads


def test_every_picture_is_named_for_a_screen_reader(sample_page):
    text = sample_page[0].read_text(encoding="utf-8")
    p = Page(text)
    assert len(p.svgs) > 40
    for svg in p.svgs:
        assert svg.get("role") == "img" and svg.get("aria-label"), svg
        assert svg.get("title") == svg["aria-label"]
    # text kept as text, not outlined paths
    assert text.count("<text") > 1000 and "<use xlink:href=\"#DejaVuSans" not in text
    # no two elements of the page share an id (matplotlib numbers its groups in each figure)
    ids = re.findall(r'\sid="([^"]+)"', text)
    assert len(ids) == len(set(ids)), [i for i in set(ids) if ids.count(i) > 1][:5]


def test_tables_have_captions_and_headers_that_are_buttons(sample_page):
    text = sample_page[0].read_text(encoding="utf-8")
    tables = re.findall(r'<table class="data" data-table="[^"]+">\s*<caption[^>]*>([^<]+)'
                        r"</caption>\s*<thead><tr>(.*?)</tr></thead>", text, re.S)
    assert len(tables) == text.count('<table class="data"') > 20
    for caption, head in tables:
        assert caption.strip()
        cells = re.findall(r"<th[^>]*>(.*?)</th>", head)
        assert cells and all(c.startswith('<button type="button">') for c in cells), head
    # the notebook's tables: a visible caption, no buttons (no script runs there)
    from corpusagree.analyses import table

    fragment = table.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv"))._repr_html_()
    assert "<caption>Coefficients</caption>" in fragment and "<button" not in fragment


def test_markup_is_escaped(tmp_path):
    from corpusagree.analyses import table

    csv_file = tmp_path / "<b>.csv"
    csv_file.write_text("coder,item,label\n" + "".join(
        f"{c},{i},{x}\n" for i, pair in enumerate([("x", "x"), ("y", "<script>"), ("x", "y"),
                                                  ("y", "y")])
        for c, x in zip(("a<i>", "b"), pair, strict=True)), encoding="utf-8")
    report = table.analyse(table.read(csv_file), diagnostics=3)
    text = html.dumps([report])
    fragment = report._repr_html_()
    payload = Page(text).json_text
    assert "<" not in payload and json.loads(payload)[0]["inputs"] == [str(csv_file)]
    text = text.replace(payload, "")
    for page in (text, fragment):
        assert "<b>" not in page and "<i>" not in page and "<script>alert" not in page
        assert "&lt;b&gt;" in page or "&lt;i&gt;" in page
    assert "a&lt;i&gt;" in text


def test_heatmap_colours_follow_the_values():
    viridis_low, viridis_high = "#440154", "#fde725"
    names = ["a", "b", "c"]
    near = [[None, 0.85, 0.90], [0.85, None, 0.97], [0.90, 0.97, None]]
    svg = plots.heatmap(names, names, near, thresholds=(0.667, 0.8), diagonal=False,
                        title="t")
    # the lowest and highest values take the ends of the colour scale (on 0–1 they were both
    # yellow-green)
    assert viridis_low in svg and viridis_high in svg
    labels = [t for *_, t in _texts(svg)]
    assert ".800" not in labels  # below the values: not on the colour bar
    numbers = [float(t) for t in labels if re.fullmatch(r"[\d.]+", t)]
    assert len(numbers) > 6 and all(0.85 <= x <= 0.97 for x in numbers), labels
    spread = [[None, 0.6, 0.7], [0.6, None, 0.9], [0.7, 0.9, None]]
    labels = [t for *_, t in _texts(plots.heatmap(names, names, spread,
                                                  thresholds=(0.667, 0.8), title="t"))]
    assert {".667", ".800"} <= set(labels)
    # close values span at least a tenth: .955 and .975 are not drawn as far apart as 0 and 1
    close = [[None, 0.955, 0.975], [0.955, None, 0.96], [0.975, 0.96, None]]
    assert viridis_low not in plots.heatmap(names, names, close, title="t")
    # counts from 0, written as whole numbers
    labels = [t for *_, t in _texts(plots.heatmap(names, names, [[5, 1, 2]] * 3, vmin=0.0,
                                                  title="t"))]
    assert {"0", "5"} <= set(labels) and "5.00" not in labels and "2.5" not in labels


def test_heatmaps_of_the_page_follow_the_values(sample_page):
    text = sample_page[0].read_text(encoding="utf-8")
    # the table job's pairwise α runs from .33 to .69: its ends take the ends of the scale,
    # and .667 is marked on the colour bar
    svg = re.search(r'data-figure="pairwise">(.*?)</svg>', text, re.S).group(1)
    assert "#440154" in svg and "#fde725" in svg and ">.667</text>" in svg


def test_lanes_never_overlap_and_are_as_few_as_the_deepest_overlap():
    rng = np.random.default_rng(1)
    for shortest in (0, 1) * 50:  # with units of no length, and without
        start = rng.integers(0, 30, 25).astype(float)
        end = start + rng.integers(shortest, 8, 25)
        lane = plots.lanes(start, end)
        for k in set(lane.tolist()):
            mine = sorted(zip(start[lane == k], end[lane == k], strict=True))
            assert all(b[0] >= a[1] for a, b in zip(mine, mine[1:], strict=False))
        if shortest:  # the most units over one position: [start, end) on whole numbers
            depth = max(int(((start <= x) & (x < end)).sum()) for x in np.arange(0.5, 40))
            assert lane.max() + 1 == depth


def test_the_examples_of_the_plots_run():
    import doctest

    assert doctest.testmod(plots).failed == 0


def test_continuum_stacks_an_annotators_overlapping_units():
    units = [(0, 0, 10, "x"), (0, 2, 5, "x"), (0, 4, 8, "y"), (1, 0, 10, "x")]
    svg = plots.continuum(["ann1", "ann2"], units, [(0, 3)], 0, 10, "token", title="t")
    bars = re.findall(r'<path d="M ([\d.]+) ([\d.]+) \nL ([\d.]+) [\d.]+ \nL [\d.]+ ([\d.]+)',
                      svg)
    tops = {round(float(y), 1) for _, y, _, _ in bars}
    assert len(tops) >= 4  # ann1's three units in three lanes, ann2's in its own


# ---- the plots ---------------------------------------------------------------------------------
def _texts(svg: str) -> list[tuple[float, float, str]]:
    """(x, y, text) of the SVG's text elements (matplotlib keeps text as text, placed by x
    and y, or by a translation when rotated)."""
    out = []
    for attrs, t in re.findall(r"<text([^>]*)>([^<]*)</text>", svg):
        at = re.search(r' x="([-\d.]+)" y="([-\d.]+)"', attrs) or \
            re.search(r"translate\(([-\d.]+) ([-\d.]+)\)", attrs)
        out.append((float(at.group(1)), float(at.group(2)), t))
    return out


def test_a_large_heatmap_names_at_most_forty_per_axis_and_its_odd_one_out():
    names = [f"ch{d}/an{k}" for d in range(1, 22) for k in range(1, 7)][:108]
    values = np.random.default_rng(0).random((108, 108))
    svg = plots.heatmap(names, names, values, marked=["ch12/an2"])
    shown = [t for *_, t in _texts(svg) if t in names]
    assert 0 < len(shown) <= 2 * (plots.MAX_TICKS + 1)
    assert shown.count("ch12/an2") == 2  # on both axes, even off the thinned grid
    assert not re.search(r">0\.\d\d</text>", svg)  # no value written in 108² cells


def test_strip_names_do_not_overlap():
    names = ["ch1", "ch19", "ch21", "ch2", "ch3"]
    svg = plots.strips([("α", [0.063, 0.051, 0.091, 0.5, 0.6])], names)
    ys = sorted(y for _, y, t in _texts(svg) if t in names)
    assert len(ys) == 3 and all(b - a >= 7 for a, b in zip(ys, ys[1:], strict=False))


def test_bootstrap_shows_both_thresholds_far_from_the_distribution():
    d = np.random.default_rng(0).normal(0.3, 0.02, 500)
    svg = plots.bootstrap(d, 0.3, 0.26, 0.34, "α")
    labels = {t for *_, t in _texts(svg)}
    assert {"0.667", "0.8"} <= labels


def test_per_document_measures_may_fall_below_minus_one():
    assert html._agreement_scale([-1.0057, 0.3, None, 1.0])  # γ
    assert not html._agreement_scale([0, 3, 12])  # counts


def test_plots_leave_the_users_matplotlib_alone():
    import matplotlib

    with matplotlib.rc_context({"font.size": 13.0, "svg.fonttype": "path"}):
        before = matplotlib.rcParams.copy()
        svg = plots.scale([("α", 0.7, 0.6, 0.8)])
        assert matplotlib.rcParams == before
    assert "<text" in svg  # the report's style within: text kept as text


def test_offline_and_self_contained(sample_page):
    text = sample_page[0].read_text(encoding="utf-8")
    p = Page(text)
    assert "default-src 'none'" in text
    assert not [s for s in p.sources if not s.startswith(("data:", "#"))]
    assert all(h.startswith(("#", "data:")) for h in p.links)
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", text)
    assert "@import" not in text and "url(http" not in text


def test_tables_hold_the_json_numbers(sample_page):
    page, doc = sample_page
    p = Page(page.read_text(encoding="utf-8"))
    assert json.loads(p.json_text) == doc
    for j, d in zip(p.jobs, doc, strict=True):
        known = numbers(d)
        shown = {float(f"{float(v):.9g}") for rows in j["tables"].values() for t in rows
                 for v, high in t for v in (v, high) if v not in (None, "")}
        # every coefficient of the JSON is in a table of its job, and the tables show no
        # number the report does not hold
        missing = [v for v in coefficient_values(d) if float(f"{v:.9g}") not in shown]
        assert not missing, (j["job"], missing[:5])
        extra = shown - known
        assert not extra, (j["job"], sorted(extra)[:5])


def test_csv_downloads_are_the_tables(sample_page):
    from corpusagree.report import csv

    reports = folder.analyse(SAMPLES)
    text = html.dumps(reports)
    links = re.findall(r'download="([^"]+)" href="data:text/csv;charset=utf-8;base64,([^"]+)"',
                       text)
    expected = [csv.table_csv(t) for r in reports for t in r.tables.values()]
    # the page groups tables by section: the same tables, in another order
    assert sorted(base64.b64decode(x).decode("utf-8") for _, x in links) == sorted(expected)


def test_context_of_a_disputed_mention_is_highlighted():
    from corpusagree.analyses import coref

    anns = coref.read([SAMPLES / "coref" / "brat"])
    text = html.dumps([coref.analyse(anns, diagnostics=3)])
    rows = re.search(r'data-table="disputed">(.*?)</table>', text, re.S).group(1)
    marks = re.findall(r"<td>([^<]*)<mark>([^<]+)</mark>([^<]*)</td>", rows)
    assert len(marks) == 3
    assert all(before.strip() or after.strip() for before, _, after in marks)


def test_context_of_a_disputed_sense_instance_is_highlighted(sample_page):
    page, doc = sample_page
    text = page.read_text(encoding="utf-8")
    senses = text[text.index('data-job="senses"'):]
    rows = re.search(r'data-table="worst_items">(.*?)</table>', senses, re.S).group(1)
    marks = re.findall(r"<mark>([^<]+)</mark>", rows)
    contexts = next(d for d in doc if d["job"] == "senses")["diagnostics"]["contexts"]
    assert marks and set(marks) <= {c["instance"] for c in contexts.values()}


def test_html_on_a_job_turns_on_its_diagnostics_and_intervals(cli, tmp_path):
    page = tmp_path / "t.html"
    status, out, err = cli("table", SAMPLES / "table" / "dialogue_acts.csv", "--html", page,
                           "--resamples", "50")
    assert status == 0 and "Coefficients" in out, err
    text = page.read_text(encoding="utf-8")
    p = Page(text)
    assert {"summary", "pairwise", "matrices", "disputed", "bootstrap"} <= set(p.jobs[0]["parts"])
    assert "<dt>turned on by --html</dt><dd>--ci 0.95, --diagnostics 10, --by-document</dd>" \
        in text
    # what the user gives stays as given
    status, _, err = cli("table", SAMPLES / "table" / "dialogue_acts.csv", "--html", page,
                         "--ci", "0.9", "--resamples", "50")
    assert status == 0, err
    text = page.read_text(encoding="utf-8")
    assert "<dd>90% bootstrap" in text and "--ci 0.95" not in text


def test_report_on_several_folders(cli, tmp_path):
    page = tmp_path / "r.html"
    status, _, err = cli("report", SAMPLES / "table", SAMPLES / "senses", "--html", page,
                         "--resamples", "20", "--format", "json", "-o", tmp_path / "r.json")
    assert status == 0, err
    assert [j["job"] for j in Page(page.read_text(encoding="utf-8")).jobs] == \
        ["table", "table", "table", "annotators", "ratings", "senses", "senses"]


def test_an_unwritable_page_is_one_line(cli, tmp_path):
    status, _, err = cli("table", SAMPLES / "table" / "dialogue_acts.csv", "--html",
                         tmp_path / "no" / "such" / "dir" / "t.html")
    assert status == 2
    assert err.count("\n") == 1 and "t.html: cannot write" in err


def test_without_matplotlib_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(InputError, match=r'pip install "\.\[report\]"'):
        html.dumps([])


def test_without_matplotlib_html_stops_before_the_analysis(cli, monkeypatch, tmp_path):
    from corpusagree.analyses import table

    def analyse(*args, **kwargs):
        raise AssertionError("the analysis ran")

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(table, "analyse", analyse)
    status, out, err = cli("table", SAMPLES / "table" / "dialogue_acts.csv", "--html",
                           tmp_path / "t.html")
    assert status == 2 and not out
    assert err.count("\n") == 1 and 'pip install ".[report]"' in err


def test_same_reports_same_page():
    reports = folder.analyse(SAMPLES / "table", diagnostics=5)
    assert html.dumps(reports) == html.dumps(reports)


# ---- in a browser ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no Chromium (Debian: apt-get install chromium; .ci/run installs it)")
    sync = pytest.importorskip("playwright.sync_api", reason="playwright (test extra) missing")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def test_opens_in_chromium(browser, sample_page, tmp_path):
    page_file, doc = sample_page
    tab = browser.new_page(viewport={"width": 1280, "height": 800})
    errors, requests = [], []
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("request", lambda r: requests.append(r.url))
    url = page_file.resolve().as_uri()
    tab.goto(url)
    tab.wait_for_load_state("load")
    assert not errors
    assert requests == [url]
    dangling = tab.evaluate("() => Array.from(document.querySelectorAll('a[href^=\"#\"]'))"
                            ".map(a => a.getAttribute('href').slice(1))"
                            ".filter(id => !document.getElementById(id))")
    assert not dangling
    jobs = tab.eval_on_selector_all("section.job", "els => els.map(e => e.dataset.job)")
    assert jobs == [d["job"] for d in doc]
    # every picture drawn but the documents of a continuum not chosen
    sizes = tab.eval_on_selector_all(
        "figure.plot svg", "els => els.filter(e => !e.closest('[hidden]')).map(e => ["
        "e.getBoundingClientRect().width, e.getBoundingClientRect().height, "
        "e.querySelectorAll('path,use,image,text').length])")
    assert len(sizes) == tab.locator("figure.plot").count()
    assert sizes and all(w > 50 and h > 50 and n > 5 for w, h, n in sizes), sizes
    # the coefficient values the browser shows are the JSON's
    shown = tab.eval_on_selector_all(
        "section.job", "els => els.map(e => Array.from(e.querySelectorAll('td[data-value]'))"
        ".map(td => td.dataset.value))")
    for values, d in zip(shown, doc, strict=True):
        got = {float(f"{float(v):.9g}") for v in values if v}
        assert {float(f"{v:.9g}") for v in coefficient_values(d)} <= got
    # a click on a header sorts the table by that column
    first = tab.locator("table.data").first
    first.locator("th").nth(2).click()
    col = first.evaluate("t => Array.from(t.tBodies[0].rows).map(r => r.cells[2].dataset.value)")
    vals = [float(v) for v in col if v]
    assert vals == sorted(vals)
    shot = tab.screenshot()
    from PIL import Image

    img = Image.open(io.BytesIO(shot)).convert("RGB")
    assert img.size == (1280, 800)
    assert len(img.getcolors(1 << 20) or []) > 20  # not a blank page
    tab.close()


def test_prints(browser, sample_page, tmp_path):
    tab = browser.new_page()
    tab.goto(sample_page[0].resolve().as_uri())
    pdf = tab.pdf()
    assert pdf.startswith(b"%PDF") and len(pdf) > 50_000
    tab.close()


def test_spans_continuum_in_the_browser(browser, tmp_path):
    report = spans.analyse(spans.read(SAMPLES / "coref" / "brat"), by_document=True,
                           diagnostics=5)
    path = Path(tmp_path / "spans.html")
    path.write_text(html.dumps([report]), encoding="utf-8")
    tab = browser.new_page()
    requests: list[str] = []
    tab.on("request", lambda r: requests.append(r.url))
    tab.goto(path.resolve().as_uri())
    documents = next(p for p in report.plots() if p.kind == "continuum").data["documents"]
    assert len(documents) == len(report.continuum.documents) > 1
    figure = tab.locator('figure[data-figure="continuum"]')
    # one document shows, the least agreed; the list chooses another, without a request
    assert figure.locator("svg:visible").count() == 1
    assert [o.split(":")[0] for o in figure.locator("option").all_inner_texts()] == \
        [d["document"] for d in documents]
    for k, d in enumerate(documents):
        figure.locator("select").select_option(str(k))
        shown = figure.locator("svg:visible")
        assert shown.count() == 1 and shown.get_attribute("aria-label").startswith(
            f"Document {d['document']}:")
        n = shown.evaluate("e => e.querySelectorAll('path').length")
        assert n > len(d["units"])  # a bar per unit, and the axes
    assert requests == [path.resolve().as_uri()]
    tab.close()


#: every text of every picture: how far it lies inside its picture (left, right, top, bottom
#: in CSS pixels; negative: clipped), measured by the browser as it draws it
CLIPPED = """() => {
  document.querySelectorAll("[data-picture]").forEach(p => { p.hidden = false; });
  const out = [];
  document.querySelectorAll("figure.plot svg").forEach(svg => {
    const box = svg.getBoundingClientRect();
    svg.querySelectorAll("text").forEach(t => {
      const r = t.getBoundingClientRect();
      if (!t.textContent.trim() || r.width === 0) return;
      const inside = [r.left - box.left, box.right - r.right, r.top - box.top,
                      box.bottom - r.bottom];
      if (Math.min(...inside) < -0.5)
        out.push([svg.closest("figure").dataset.figure, t.textContent, inside]);
    });
  });
  return out;
}"""


def test_no_text_is_clipped_by_its_picture(browser, sample_page, tmp_path):
    # the sample report, and matrices of many and long names (Moonstone's 108 coders)
    names = [f"chapter{d}/annotator{k}" for d in range(1, 22) for k in range(1, 7)][:108]
    values = np.random.default_rng(0).random((108, 108))
    big = tmp_path / "big.html"
    big.write_text("<!DOCTYPE html><html><body>" + "".join(
        f'<figure class="plot" data-figure="{n}">{svg}</figure>' for n, svg in [
            ("big", plots.heatmap(names, names, values, marked=[names[30]], title="t",
                                  label="Pairwise α (passonneau), a label longer than the bar")),
            ("small", plots.heatmap(["a", "b"], ["a", "b"], [[None, 0.5], [0.5, None]],
                                    thresholds=(0.667, 0.8), title="t",
                                    label="Coincidence matrix o_ck (Krippendorff 2011)")),
            ("scale", plots.scale([("a long label " * 6, 0.99, 0.95, 1.0)]))])
        + "</body></html>", encoding="utf-8")
    from corpusagree.analyses import annotators

    models = tmp_path / "annotators.html"
    models.write_text(html.dumps([annotators.analyse(annotators.read(
        SAMPLES / "table" / "dialogue_acts.csv"), diagnostics=3)]), encoding="utf-8")
    for page, width in ((sample_page[0], 1280), (sample_page[0], 600), (big, 1280),
                        (models, 1280)):
        tab = browser.new_page(viewport={"width": width, "height": 800})
        tab.goto(page.resolve().as_uri())
        assert tab.locator("figure.plot svg").count() > 2
        assert tab.evaluate(CLIPPED) == []
        tab.close()


def test_headers_sort_from_the_keyboard(browser, sample_page):
    tab = browser.new_page()
    tab.goto(sample_page[0].resolve().as_uri())
    table = tab.locator('section[data-job="coref"] table[data-table="scores"]')
    button = table.locator("th button").nth(6)  # F1
    button.focus()
    assert tab.evaluate("document.activeElement.tagName") == "BUTTON"
    tab.keyboard.press("Enter")
    th = table.locator("th").nth(6)
    assert th.get_attribute("aria-sort") == "ascending"
    col = table.evaluate("t => Array.from(t.tBodies[0].rows).map(r => r.cells[6].dataset.value)")
    vals = [float(v) for v in col if v]
    assert vals == sorted(vals) and len(vals) > 3
    tab.keyboard.press("Space")
    assert th.get_attribute("aria-sort") == "descending"
    assert table.locator("th[aria-sort]").count() == 1
    # the browser's own reading of the page: every picture an image with a name, every table
    # a caption, the headers buttons (reachable with Tab)
    roles = tab.evaluate("""() => ({
      svgs: Array.from(document.querySelectorAll("svg")).filter(
        s => s.getAttribute("role") !== "img" || !s.querySelector(":scope > title")).length,
      tables: Array.from(document.querySelectorAll("table")).filter(
        t => !t.caption || !t.caption.textContent.trim()).length,
      headers: Array.from(document.querySelectorAll("th")).filter(
        h => !h.querySelector("button") || h.querySelector("button").tabIndex < 0
             || !h.querySelector("button").textContent.trim()).length,
      downloads: (a => a.length - new Set(a).size)(
        Array.from(document.querySelectorAll("a[download]")).map(a => a.download))})""")
    assert roles == {"svgs": 0, "tables": 0, "headers": 0, "downloads": 0}
    tab.close()


#: a notebook's own rules for tables (Jupyter right-aligns cells and lets text wrap), which a
#: report's fragment must withstand
NOTEBOOK_CSS = ("<style>table td, table th { text-align: right; white-space: normal; "
                "vertical-align: middle; }</style>")

#: each outline cell's computed white-space and text-align, its text as the browser lays it out
#: (innerText), and where its first character is drawn (its x, CSS pixels)
OUTLINES = """() => Array.from(document.querySelectorAll('td.outline')).map(td => {
  const s = getComputedStyle(td);
  const range = document.createRange();
  const node = td.firstChild;
  let x = null;
  if (node && node.nodeType === 3) {
    const i = node.textContent.search(/\\S/);
    range.setStart(node, i); range.setEnd(node, i + 1);
    x = range.getBoundingClientRect().left - td.getBoundingClientRect().left;
  }
  return [s.whiteSpace, s.textAlign, td.innerText, x];
})"""


def test_trees_side_by_side_keep_their_indentation(browser, tmp_path):
    """Issue 34, item 4: the trees of the most disputed document keep their indentation and
    are left-aligned on the page and in a notebook's fragment (under a notebook's own CSS, which
    right-aligns cells): each line is drawn as far right as its leading spaces say."""
    from corpusagree.analyses import trees

    report = trees.analyse(trees.read(SAMPLES / "trees"))
    lines = [line for row in report.tables["disputed"].rows for line in row]
    assert any(line.startswith("      ") for line in lines)  # a deep line to show
    page = tmp_path / "trees.html"
    page.write_text(html.dumps([report]), encoding="utf-8")
    notebook = tmp_path / "notebook.html"
    notebook.write_text("<!DOCTYPE html><html><head>" + NOTEBOOK_CSS + "</head><body>"
                        + report._repr_html_() + "</body></html>", encoding="utf-8")
    for path in (page, notebook):
        tab = browser.new_page(viewport={"width": 1280, "height": 800})
        tab.goto(path.resolve().as_uri())
        cells = tab.evaluate(OUTLINES)
        assert len(cells) == len(lines), path.name
        for (space, align, shown, _x), line in zip(cells, lines, strict=True):
            assert (space, align) == ("pre", "left"), (path.name, line)
            assert shown == line  # leading spaces kept
        # the indentation is drawn: the first character of a line lies further right the more
        # spaces it has, by the same step per space
        depth = [len(line) - len(line.lstrip(" ")) for line in lines]
        xs = [c[3] for c in cells]
        step = (max(xs) - min(xs)) / (max(depth) - min(depth))
        assert step > 3
        assert all(abs(x - min(xs) - step * (d - min(depth))) < 1 for x, d in zip(xs, depth,
                                                                                 strict=True))
        tab.locator("td.outline").first.scroll_into_view_if_needed()
        tab.screenshot(path=str(tmp_path / f"{path.stem}.png"))
        tab.close()


HEADLINE = """() => {
  const s = document.querySelector('section.part[data-part="summary"]');
  const first = s.querySelector('figure.plot');
  return {first: first.dataset.figure, text: first.textContent,
          figures: [...s.querySelectorAll('figure.plot')].map(f => f.dataset.figure),
          tables: [...s.querySelectorAll('table caption')].map(c => c.textContent)};
}"""


def test_trees_headline_is_parseval_f1(browser, tmp_path):
    """Issue 34, item 3: the trees page opens with the job's main measure, RST-Parseval and
    Parseval F1 with intervals; the boundary coefficients of the few documents whose EDUs
    differ are a secondary table below, not the summary's conventional scales."""
    from corpusagree.analyses import trees
    from corpusagree.stats.inference import Bootstrap

    report = trees.analyse(trees.read(SAMPLES / "trees"),
                           bootstrap=Bootstrap(n_resamples=50, seed=1))
    assert report.tables["boundaries"].rows  # there is a boundary table to keep out
    page = tmp_path / "trees.html"
    page.write_text(html.dumps([report]), encoding="utf-8")
    tab = browser.new_page(viewport={"width": 1280, "height": 800})
    tab.goto(page.resolve().as_uri())
    got = tab.evaluate(HEADLINE)
    tab.close()
    assert got["first"] == "parseval" and "scale" not in got["figures"]
    assert "Parseval full" in got["text"] and "RST-Parseval full" in got["text"]
    assert any(c.startswith("RST-Parseval") for c in got["tables"])
    assert not any(c.startswith("Boundaries") for c in got["tables"])
    # the bars are the F1 of the table, the full measure of the first pair on top
    plot = next(p for p in report.plots() if p.id == "parseval")
    full = [r["f1"] for r in report.parseval if r["measure"] == "full"]
    assert plot.data["values"][-2:] == full[::-1]
    assert plot.data["labels"][-1] == "RST-Parseval full"


@pytest.mark.parametrize("argv", [("report", SAMPLES, "--resamples", "30"),
                                  ("table", SAMPLES / "table" / "dialogue_acts.csv"),
                                  ("table", "-", "--ci", "0.9", "--resamples", "30")])
def test_html_writes_the_page_and_nothing_more(cli, tmp_path, monkeypatch, argv):
    """Issue 34, item 9: the terminal output is the same with and without ``--html`` (the
    page's diagnostics, intervals and figures per document are computed for the page only),
    standard input included; what the user gave (``--ci 0.9``) holds for both."""
    def stdin():
        text = (SAMPLES / "table" / "dialogue_acts.csv").read_text(encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))

    stdin()
    status, plain, err = cli(*argv)
    assert status == 0, err
    page = tmp_path / "p.html"
    stdin()
    status, out, err = cli(*argv, "--html", page)
    assert status == 0, err
    assert out == plain
    p = Page(page.read_text(encoding="utf-8"))
    assert "disputed" in p.jobs[0]["parts"] and "bootstrap" in p.jobs[0]["parts"]
    if "0.9" in argv:
        assert "<dd>90% bootstrap" in page.read_text(encoding="utf-8")


def test_local_coder_caveat_tops_the_page(browser, tmp_path):
    """Issue 34, item 5: on the page of segmentations whose coder names are local to each
    chapter the caveat is the summary's first words (above the fold), and there is no
    coder × coder heatmap or leave-one-coder-out table."""
    import warnings

    from corpusagree.analyses import segments

    from support import DATA

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        report = segments.analyse(segments.read([DATA / "segments_moonstone" /
                                                 "segmentations"]), diagnostics=5,
                                  by_document=True)
    page = tmp_path / "moon.html"
    page.write_text(html.dumps([report]), encoding="utf-8")
    tab = browser.new_page(viewport={"width": 1280, "height": 800})
    tab.goto(page.resolve().as_uri())
    got = tab.evaluate("""() => {
      const p = document.querySelector('section.part[data-part="summary"] p.summary');
      return {text: p.textContent, top: p.getBoundingClientRect().top,
              parts: [...document.querySelectorAll('section.part')].map(s => s.dataset.part),
              tables: [...document.querySelectorAll('table caption')].map(c => c.textContent)};
    }""")
    tab.close()
    assert got["text"].startswith("CAUTION: coder names look local to each document")
    assert got["top"] < 800
    assert "pairwise" not in got["parts"]
    assert not any("Leave one coder out" in c or "coder × coder" in c for c in got["tables"])
