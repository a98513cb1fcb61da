"""The HTML report on two real corpora: seconds to draw it on top of the analysis, and its size.

* ezCoref (Gupta et al. 2023): 264 passages × 5 crowd workers, ``corpusagree coref`` with 95 %
  intervals clustered by passage, figures by document and diagnostics (10 costliest mentions);
* Moonstone (Kazantseva & Szpakowicz 2012): 20 chapters, ``corpusagree segments
  --local-coders`` with intervals, figures by document and diagnostics.

Each report is analysed once; then the page is drawn from it (``corpusagree.report.html``) and
timed (best of ``--repeats``). Targets: ≤ 5 s and ≤ 5 MB each. With ``--screenshot PNG`` the
Moonstone page is opened in headless Chromium (``/usr/bin/chromium``, through playwright) and
its first screen at 1280 × 800 saved, the picture in the README; ``--keep DIR`` keeps the pages.

Usage: python benchmarks/html_report.py [--corpora DIR] [--resamples 1000] [--repeats 3]
       [--screenshot PNG] [--keep DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from corpusagree.analyses import coref, segments
from corpusagree.report import html
from corpusagree.stats.inference import Bootstrap

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
#: how the tests and this script start Chromium (no background requests, no sandbox as root)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def analyse(corpora: Path, resamples: int) -> dict:
    """name → (report, seconds of reading and analysis)."""
    settings = Bootstrap(resamples, 0.95, seed=0)
    out = {}
    t = time.perf_counter()
    anns = coref.read([corpora / "ezcoref_gupta2023" / "annotations"])
    anns.inputs = ["ezcoref_gupta2023/annotations"]
    r = coref.analyse(anns, bootstrap=settings, by_document=True, diagnostics=10)
    out["ezcoref"] = (r, time.perf_counter() - t)
    t = time.perf_counter()
    moon = corpora / "moonstone_kazantseva2012" / "segmentations"
    segs = segments.read([moon], local_coders=True)
    segs.inputs = ["moonstone_kazantseva2012/segmentations"]
    r = segments.analyse(segs, bootstrap=settings, by_document=True, diagnostics=10)
    out["moonstone"] = (r, time.perf_counter() - t)
    return out


def screenshot(page: Path, png: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1280, "height": 800})
        tab.goto(page.resolve().as_uri())
        tab.screenshot(path=str(png))
        browser.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", type=Path, default=CORPORA)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--screenshot", type=Path)
    ap.add_argument("--keep", type=Path)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.corpora.is_dir():
        sys.exit(f"{args.corpora}: not found")
    reports = analyse(args.corpora, args.resamples)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="corpusagree-html-"))
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, (report, analysis) in reports.items():
        times = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            page = html.dumps([report])
            times.append(time.perf_counter() - t)
        path = folder / f"{name}.html"
        path.write_text(page, encoding="utf-8")
        out[name] = {"summary": report.summary(), "analysis_s": analysis,
                     "html_s": min(times), "bytes": len(page.encode("utf-8")),
                     "plots": page.count("<svg"), "tables": page.count('<table class="data"'),
                     "path": str(path)}
    if args.screenshot:
        screenshot(folder / "moonstone.html", args.screenshot)
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    for name, r in out.items():
        print(f"{name}: {r['summary']}")
        print(f"  analysis {r['analysis_s']:.2f} s; HTML page {r['html_s']:.2f} s (best of "
              f"{args.repeats}), {r['bytes'] / 1e6:.2f} MB, {r['plots']} plots, "
              f"{r['tables']} tables -> {r['path']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
