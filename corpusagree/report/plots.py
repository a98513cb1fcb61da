"""The pictures of the HTML report, drawn by matplotlib and written as inline SVG.

Each function takes plain data (what a report's tables and plots hold) and returns one
``<svg>`` element as text: vector shapes with text kept as text (searchable, small), no
timestamps, the same bytes for the same data. matplotlib is the ``report`` extra
(``pip install "corpusagree[report]"``); without it :func:`require` says how to get it.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import numpy as np

from ..model.errors import InputError
from ..stats.interpret import KRIPPENDORFF, LANDIS_KOCH

#: inches per row of a strip or heatmap, and the page width of a plot
ROW = 0.32
WIDTH = 7.0
#: heatmaps up to this many rows are drawn as vector cells, larger ones as one image;
#: values are written in the cells up to VALUE_CELLS rows; at most MAX_TICKS names per axis
VECTOR_CELLS = 24
VALUE_CELLS = 16
MAX_TICKS = 60
#: per-document strips draw their dots as one image above this many documents
VECTOR_DOTS = 150
#: colours of Krippendorff's bands (discounted, tentative, good) and of the marks
BANDS = ("#f6d5d0", "#fbecc4", "#d6ecd2")
MARK = "#1f4e79"
ALERT = "#b03a2e"


def require():
    """matplotlib's pyplot on the SVG backend, or a one-line error saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise InputError('the HTML report draws its plots with matplotlib: pip install '
                         '"corpusagree[report]"') from None
    matplotlib.use("svg", force=True)
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "corpusagree",
                         "font.size": 9, "axes.spines.top": False, "axes.spines.right": False})
    return plt


def _svg(fig) -> str:
    plt = require()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _finite(values) -> np.ndarray:
    a = np.asarray([np.nan if v is None else v for v in values], dtype=float)
    return a[np.isfinite(a)]


def scale(rows: Sequence[tuple[str, float, float | None, float | None]]) -> str:
    """Coefficients on the conventional scales: each row ``(label, value, low, high)`` a point
    with its interval, over Krippendorff's bands (shaded) with Landis & Koch's labels on top."""
    plt = require()
    values = _finite([x for _, v, lo, hi in rows for x in (v, lo, hi)])
    left = min(0.0, float(values.min()) if values.size else 0.0) - 0.05
    fig, ax = plt.subplots(figsize=(WIDTH, 0.6 + ROW * len(rows)))
    for band, colour in zip(KRIPPENDORFF.bands, BANDS, strict=True):
        ax.axvspan(max(band.low, left), min(band.high, 1.0), color=colour, zorder=0)
    for x in (0.667, 0.8):
        ax.axvline(x, color="#777", lw=0.6, ls="--", zorder=1)
    y = np.arange(len(rows))[::-1]
    for yi, (_, v, lo, hi) in zip(y, rows, strict=True):
        if lo is not None and hi is not None and math.isfinite(lo) and math.isfinite(hi):
            ax.plot([lo, hi], [yi, yi], color=MARK, lw=2, zorder=2)
        if v is not None and math.isfinite(v):
            ax.plot([v], [yi], "o", color=MARK, ms=5, zorder=3)
    ax.set_yticks(y, [label for label, *_ in rows])
    ax.set_xlim(left, 1.0)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    top = ax.secondary_xaxis("top")
    lk = [b for b in LANDIS_KOCH.bands if b.high > left]
    top.set_xticks([(max(b.low, left) + min(b.high, 1.0)) / 2 for b in lk],
                   [b.label for b in lk], fontsize=7, color="#555")
    top.tick_params(length=0)
    ax.set_xlabel("value (shading: Krippendorff's bands .667 / .800; top: Landis & Koch)")
    return _svg(fig)


def heatmap(rows: Sequence[str], columns: Sequence[str], values, *, marked: Sequence[str] = (),
            label: str = "", vmin: float | None = None, vmax: float | None = None,
            reverse: bool = False) -> str:
    """A matrix as coloured cells with their values written in; row and column names in
    ``marked`` (the odd one out) are drawn in red. ``reverse``: low values are good (Pk)."""
    plt = require()
    m = np.array([[np.nan if v is None else v for v in r] for r in values], dtype=float)
    n_r, n_c = m.shape
    size = max(2.2, 0.42 * max(n_r, n_c) + 1.4)
    fig, ax = plt.subplots(figsize=(min(size + 1.2, WIDTH + 2), min(size, WIDTH + 1)))
    cmap = plt.get_cmap("viridis_r" if reverse else "viridis").with_extremes(bad="#eeeeee")
    if max(n_r, n_c) <= VECTOR_CELLS:  # vector cells with white edges
        mesh = ax.pcolormesh(np.ma.masked_invalid(m), cmap=cmap, vmin=vmin, vmax=vmax,
                             edgecolors="white", linewidth=0.5)
    else:  # one embedded raster image: an SVG of n² paths would weigh megabytes
        mesh = ax.imshow(np.ma.masked_invalid(m), cmap=cmap, vmin=vmin, vmax=vmax,
                         extent=(0, n_c, n_r, 0), interpolation="nearest", aspect="auto")
    ax.set_ylim(n_r, 0)
    step = max(1, math.ceil(max(n_r, n_c) / MAX_TICKS))
    ax.set_xticks(np.arange(0, n_c, step) + 0.5, list(columns)[::step], rotation=60, ha="right",
                  fontsize=7 if step > 1 or n_c > 20 else None)
    ax.set_yticks(np.arange(0, n_r, step) + 0.5, list(rows)[::step],
                  fontsize=7 if step > 1 or n_r > 20 else None)
    for tick in [*ax.get_xticklabels(), *ax.get_yticklabels()]:
        if tick.get_text() in marked:
            tick.set_color(ALERT)
            tick.set_fontweight("bold")
    if max(n_r, n_c) <= VALUE_CELLS:
        lo, hi = mesh.get_clim()
        mid = (lo + hi) / 2
        for i in range(n_r):
            for j in range(n_c):
                if math.isfinite(m[i, j]):
                    dark = (m[i, j] < mid) != reverse
                    ax.text(j + 0.5, i + 0.5, f"{m[i, j]:.2f}", ha="center", va="center",
                            fontsize=7, color="white" if dark else "black")
    ax.set_aspect("equal")
    ax.spines[["left", "bottom"]].set_visible(False)
    fig.colorbar(mesh, ax=ax, shrink=0.8, label=label)
    return _svg(fig)


def strips(columns: Sequence[tuple[str, Sequence[float | None]]], names: Sequence[str],
           worst: int = 3) -> str:
    """Per-document values, one horizontal strip per measure (a box of the quartiles and one
    dot per document); the ``worst`` lowest documents of the first measure are named."""
    plt = require()
    fig, ax = plt.subplots(figsize=(WIDTH, 0.7 + 0.45 * len(columns)))
    y = np.arange(len(columns))[::-1]
    jitter = np.random.default_rng(0)
    for yi, (_, vals) in zip(y, columns, strict=True):
        a = np.array([np.nan if v is None else v for v in vals], dtype=float)
        ok = np.isfinite(a)
        if ok.sum() >= 2:
            ax.boxplot(a[ok], positions=[yi], orientation="horizontal", widths=0.5,
                       showfliers=False, medianprops={"color": MARK}, manage_ticks=False)
        ax.scatter(a[ok], yi + jitter.uniform(-0.15, 0.15, ok.sum()), s=9, color=MARK,
                   alpha=0.6, zorder=3, linewidths=0, rasterized=len(a) > VECTOR_DOTS)
    first = np.array([np.nan if v is None else v for v in columns[0][1]], dtype=float)
    order = [i for i in np.argsort(first, kind="stable") if math.isfinite(first[i])][:worst]
    for i in order:
        ax.annotate(str(names[i]), (first[i], y[0]), xytext=(0, 9), textcoords="offset points",
                    fontsize=7, color=ALERT, ha="center")
    ax.set_yticks(y, [c for c, _ in columns])
    ax.set_ylim(-0.7, len(columns) - 0.2)
    ax.set_xlabel("value per document")
    return _svg(fig)


def bootstrap(distribution: Sequence[float], estimate: float, low: float, high: float,
              label: str) -> str:
    """The bootstrap distribution of a coefficient: a histogram with the estimate, the
    interval (shaded) and Krippendorff's thresholds .667 and .800 where they fall near it."""
    plt = require()
    d = _finite(distribution)
    fig, ax = plt.subplots(figsize=(WIDTH, 2.4))
    ax.axvspan(low, high, color="#d9e6f2", zorder=0, label="interval")
    ax.hist(d, bins=min(60, max(10, int(math.sqrt(d.size)))), color=MARK, alpha=0.8, zorder=1)
    ax.axvline(estimate, color=ALERT, lw=1.5, label=f"{label} = {estimate:.4f}", zorder=2)
    lo, hi = min(float(d.min()), low), max(float(d.max()), high)
    pad = max(0.02, 0.1 * (hi - lo))
    ax.set_xlim(lo - pad, hi + pad)
    for x in (0.667, 0.8):
        if lo - pad < x < hi + pad:
            ax.axvline(x, color="#777", lw=0.8, ls="--", zorder=2)
            ax.annotate(f"{x:g}", (x, 1), xycoords=("data", "axes fraction"), fontsize=7,
                        color="#555", ha="center", va="bottom")
    ax.set_xlabel(f"{label} in {d.size} bootstrap replicates")
    ax.set_ylabel("replicates")
    ax.legend(loc="upper left", fontsize=7, frameon=False)
    return _svg(fig)


def continuum(annotators: Sequence[str], units: Sequence[tuple[int, float, float, str]],
              links: Sequence[tuple[tuple[int, float], ...]], begin: float, end: float,
              unit: str) -> str:
    """One document's continuum: a row of bars per annotator (``units``: annotator row, start,
    end, category), coloured by category, and the best alignment as lines joining the units
    of each unitary alignment (``links``: the (row, middle) of each of its units)."""
    plt = require()
    cats = sorted({c for *_, c in units})
    colours = {c: plt.get_cmap("tab10")(i % 10) for i, c in enumerate(cats)}
    fig, ax = plt.subplots(figsize=(WIDTH + 2, 0.8 + 0.55 * len(annotators)))
    for link in links:
        if len(link) > 1:
            xs, ys = zip(*sorted(((x, r) for r, x in link), key=lambda p: p[1]), strict=True)
            ax.plot(xs, ys, color="#999", lw=0.7, zorder=1)
    for row, start, stop, cat in units:
        ax.barh(row, max(stop - start, (end - begin) * 0.002), left=start, height=0.5,
                color=colours[cat], edgecolor="black", linewidth=0.3, zorder=2)
    ax.set_yticks(range(len(annotators)), annotators)
    ax.invert_yaxis()
    ax.set_xlim(begin, end)
    ax.set_xlabel(f"position ({unit}s); grey lines: the best alignment")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[c]) for c in cats[:10]]
    if handles:
        ax.legend(handles, cats[:10], ncol=min(5, len(handles)), fontsize=7, frameon=False,
                  loc="upper center", bbox_to_anchor=(0.5, -0.35))
    return _svg(fig)
