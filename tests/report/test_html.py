"""The HTML report: one self-contained page per run, read back as a person and a browser would.

Without a browser: the page of every sample corpus has every section it should, a plot per
figure, no address outside itself, tables whose numbers are the JSON report's, CSV downloads
that hold the tables, the embedded JSON equal to ``--json``. In headless Chromium (Debian's
``chromium``; skipped with the reason when there is none): no console error, no request but
the page itself, every section and plot drawn, a screenshot that is not blank.
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

from corpusagree.analyses import folder
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
        self._cell: dict | None = None
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

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None


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
    assert main(["report", str(SAMPLES), "--html", str(page), "--resamples", "200",
                 "--format", "json", "--output", str(doc)]) == 0
    return page, json.loads(doc.read_text(encoding="utf-8"))


def test_every_job_has_its_sections_and_plots(sample_page):
    page, doc = sample_page
    p = Page(page.read_text(encoding="utf-8"))
    assert [j["job"] for j in p.jobs] == [d["job"] for d in doc]
    for j in p.jobs:
        assert "summary" in j["parts"], j["job"]
        assert all(f["svg"] == 1 for f in j["figures"]), j
        ids = {f["id"] for f in j["figures"]}
        if j["job"] != "spans":
            assert "scale" in ids and "bootstrap" in ids, j["job"]
            assert "bootstrap" in j["parts"]
        if j["job"] in ("table", "coref", "segments", "senses"):
            assert {"pairwise", "disputed"} <= set(j["parts"]), j["job"]
            assert any(i.startswith("pairwise") for i in ids), j["job"]
        if j["job"] in ("coref", "segments", "spans"):
            assert "documents" in j["parts"], j["job"]
        if j["job"] == "coref":
            assert "pairwise_conll" in ids
        if j["job"] == "senses":  # senses confused per lemma, α per lemma and scheme
            assert any(i.startswith("confused_") for i in ids) and "matrices" in j["parts"]
            assert "by_lemma-strips" in ids
        if j["job"] == "spans":
            assert "continuum" in ids and "spans" in j["parts"]
    assert "coincidence" in {f["id"] for j in p.jobs for f in j["figures"]}
    # the table with a document column: α per document
    assert "by_group-strips" in {f["id"] for f in p.jobs[0]["figures"]}


def test_matrices_have_headings_and_their_odd_one_out(sample_page):
    text = sample_page[0].read_text(encoding="utf-8")
    coref = text[text.index('data-job="coref"'):text.index('data-job="markables"')]
    assert re.search(r'<h4>CoNLL F1[^<]*</h4><figure class="plot" data-figure="pairwise_conll"',
                     coref)
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
    assert "cluster = None" not in text


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
        ["table", "table", "senses", "senses"]


def test_an_unwritable_page_is_one_line(cli, tmp_path):
    status, _, err = cli("table", SAMPLES / "table" / "dialogue_acts.csv", "--html",
                         tmp_path / "no" / "such" / "dir" / "t.html")
    assert status == 2
    assert err.count("\n") == 1 and "t.html: cannot write" in err


def test_without_matplotlib_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(InputError, match=r'pip install "corpusagree\[report\]"'):
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
    assert err.count("\n") == 1 and "corpusagree[report]" in err


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
    sizes = tab.eval_on_selector_all(
        "figure.plot svg", "els => els.map(e => [e.getBoundingClientRect().width, "
        "e.getBoundingClientRect().height, e.querySelectorAll('path,use,image,text').length])")
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
    from corpusagree.analyses import spans

    reports = [spans.analyse(spans.read(SAMPLES / "coref" / "brat"), by_document=True,
                             diagnostics=5)]
    path = Path(tmp_path / "spans.html")
    path.write_text(html.dumps(reports), encoding="utf-8")
    tab = browser.new_page()
    tab.goto(path.resolve().as_uri())
    n = tab.eval_on_selector('figure[data-figure="continuum"] svg',
                             "e => e.querySelectorAll('path').length")
    units = sum(1 for _ in reports[0].plots()[0].data["units"])
    assert n > units  # a bar per unit, and the alignment's lines
    tab.close()
