"""The documentation site as a reader meets it, opened in headless Chromium: the command-line
reference a page per job, formulas typeset, the kappa paradox's figure drawn, names in code
linked to their documentation, short titles in the search results, landing pages that
introduce their part, and no request outside the site.

The site is built by ``.ci/run`` (``python -m sphinx -W``), which then runs these tests with
``CORPUSAGREE_SITE`` naming the built folder; without it (or without Chromium) they skip, so
the suite does not build the site twice.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

SITE = Path(os.environ["CORPUSAGREE_SITE"]) if os.environ.get("CORPUSAGREE_SITE") else None
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(
    SITE is None or not (SITE / "index.html").is_file(),
    reason="no built site: CORPUSAGREE_SITE=FOLDER (.ci/run sets it after the build)")


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no Chromium (Debian: apt-get install chromium; .ci/run installs it)")
    sync = pytest.importorskip("playwright.sync_api", reason="playwright (test extra) missing")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Opened:
    """A page of the site in a tab, with the requests it made and the errors it printed."""

    def __init__(self, browser, path: str, wait_for: str | None = None):
        self.tab = browser.new_page(viewport={"width": 1280, "height": 900})
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.tab.on("request", lambda r: self.requests.append(r.url))
        # the theme says so on a first visit, when the browser has no stored theme yet
        self.tab.on("console", lambda m: self.errors.append(m.text)
                    if m.type == "error" and "invalid theme mode" not in m.text else None)
        self.tab.on("pageerror", lambda e: self.errors.append(str(e)))
        path, _, query = path.partition("?")
        self.tab.goto((SITE / path).resolve().as_uri() + (f"?{query}" if query else ""))
        self.tab.wait_for_load_state("load")
        if wait_for:
            self.tab.wait_for_selector(wait_for, timeout=30_000)

    def outside(self) -> list[str]:
        """The requests that left the site's folder."""
        root = SITE.resolve().as_uri()
        return [u for u in self.requests if not u.startswith(root)]

    def close(self):
        self.tab.close()


def _jobs() -> list[str]:
    folder = SITE / "reference" / "cli" if SITE else None
    if folder is None or not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.html") if p.stem != "shared")


def _options_shown(page: Opened) -> list[str]:
    """The option names the page's reference lists (sphinx-argparse's option lists)."""
    return page.tab.evaluate(
        "() => Array.from(document.querySelectorAll('article dl dt'))"
        ".map(e => e.innerText)")


def test_every_job_has_a_page_of_its_own(browser):
    jobs = _jobs()
    assert {"table", "coref", "segments", "senses", "spans", "trees", "report"} <= set(jobs)
    for job in jobs:
        page = Opened(browser, f"reference/cli/{job}.html")
        title = page.tab.title()
        assert title.startswith(f"corpusagree {job}"), title
        height = page.tab.evaluate("() => document.documentElement.scrollHeight")
        assert height < 12_000, (job, height)  # was one page of 37,000 px for every job
        # the usage line wraps rather than scrolls out of sight
        scrolls = page.tab.evaluate("() => Array.from(document.querySelectorAll('article pre'))"
                                    ".filter(p => p.scrollWidth > p.clientWidth + 1).length")
        assert scrolls == 0, job
        # the page's own contents: its groups of options, in the right-hand sidebar
        toc = page.tab.eval_on_selector_all(
            ".bd-sidebar-secondary nav a", "els => els.map(e => e.innerText)")
        assert len(toc) >= 2, (job, toc)
        # a shared option is told once, on the shared page: the job's page names it in its
        # "Shared options" paragraph and does not list it again among its own (plan's
        # --resamples, simulated studies per size, is its own: it is listed)
        shown = set(" ".join(_options_shown(page)).replace(",", " ").split())
        named = set(page.tab.evaluate(
            "() => Array.from(document.querySelectorAll('#shared-options code'))"
            ".map(e => e.innerText)"))
        assert "--help" in named, (job, named)
        assert not shown & (named - {"--help"}), (job, shown & named)
        assert not page.errors and not page.outside(), (job, page.errors, page.outside())
        page.close()


def test_the_shared_options_are_described_once(browser):
    page = Opened(browser, "reference/cli/shared.html")
    shown = _options_shown(page)
    for flag in ("--ci", "--resamples", "--seed", "--interval", "--format", "--html"):
        assert sum(flag in s.split(",")[0].split() or s.startswith(flag) for s in shown) == 1, \
            (flag, shown)
    page.close()


def test_formulas_are_typeset_by_the_local_mathjax(browser):
    page = Opened(browser, "concepts/coefficients.html", wait_for="mjx-container")
    page.tab.wait_for_function(
        "() => document.querySelectorAll('mjx-container').length >= 10", timeout=30_000)
    text = page.tab.inner_text("article")
    assert "$D_o$" not in text and "\\frac" not in text and "\\hat" not in text
    # the display formula is drawn, wider than a word
    width = page.tab.evaluate("() => Math.max(...Array.from(document.querySelectorAll("
                              "'mjx-container[display=\"true\"]')).map(e => "
                              "e.getBoundingClientRect().width))")
    assert width > 100
    assert not page.outside(), page.outside()
    assert not page.errors, page.errors
    page.close()


def test_the_kappa_paradox_has_its_figure(browser):
    page = Opened(browser, "concepts/coefficients.html")
    sizes = page.tab.evaluate(
        "() => Array.from(document.querySelectorAll('#the-kappa-paradox img'))"
        ".map(i => [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width])")
    assert any(w > 300 and h > 150 and shown > 300 for w, h, shown in sizes), sizes
    page.close()


def test_names_in_code_link_to_their_documentation(browser):
    page = Opened(browser, "concepts/coefficients.html")
    links = page.tab.eval_on_selector_all("a.sphinx-codeautolink-a",
                                          "els => els.map(e => e.href)")
    assert any("/reference/api/" in u for u in links), links[:10]
    page.close()
    found = []
    for path in ("getting-started/jobs.html", "concepts/distances.html",
                 "tutorials/table.html"):
        page = Opened(browser, path)
        found += page.tab.eval_on_selector_all("a.sphinx-codeautolink-a",
                                                "els => els.map(e => e.href)")
        page.close()
    hosts = {re.sub(r"^https://([^/]+)/.*", r"\1", u) for u in found if u.startswith("https")}
    assert {"numpy.org"} <= hosts, hosts


def test_names_in_prose_link_to_their_documentation(browser):
    page = Opened(browser, "concepts/coefficients.html")
    linked = page.tab.eval_on_selector_all(
        "article p a code", "els => els.map(e => [e.innerText, e.closest('a').href])")
    assert any(text == "ca.COEFFICIENTS" and "/reference/api/" in href
               for text, href in linked), linked
    page.close()


def test_search_results_have_short_titles(browser):
    page = Opened(browser, "search.html?q=bootstrap", wait_for="#search-results li")
    page.tab.wait_for_timeout(500)
    titles = page.tab.eval_on_selector_all("#search-results li > a",
                                           "els => els.map(e => e.innerText)")
    assert len(titles) >= 3
    hand_written = [t for t in titles if not t.startswith("corpusagree.")]
    assert hand_written and all(len(t) <= 40 for t in hand_written), titles
    page.close()


@pytest.mark.parametrize("landing", ["getting-started/index.html", "reference/index.html"])
def test_landing_pages_introduce_their_part(browser, landing):
    page = Opened(browser, landing)
    paragraphs = page.tab.eval_on_selector_all("article p", "els => els.map(e => e.innerText)")
    assert sum(len(p.split()) for p in paragraphs) >= 20, paragraphs
    links = page.tab.eval_on_selector_all("article table a", "els => els.length")
    assert links >= 4
    page.close()


def test_the_api_index_has_a_line_per_module(browser):
    page = Opened(browser, "reference/api/index.html")
    lines = page.tab.eval_on_selector_all("article li", "els => els.map(e => e.innerText)")
    modules = [line for line in lines if " — " in line]
    assert len(modules) >= 10
    assert all(len(line.split(" — ", 1)[1]) >= 10 for line in modules), modules
    page.close()
