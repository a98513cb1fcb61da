"""The pictures of the HTML report, drawn by matplotlib and written as inline SVG.

Each function takes plain data (what a report's tables and plots hold) and returns one
``<svg>`` element as text: vector shapes with text kept as text (searchable, small), no
timestamps, the same bytes for the same data. matplotlib is the ``report`` extra
(``pip install "corpusagree[report]"``); without it :func:`require` says how to get it.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np

from ..model.errors import InputError
from ..stats.interpret import KRIPPENDORFF, LANDIS_KOCH

if TYPE_CHECKING:
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

#: inches per row of a strip or heatmap, and the page width of a plot
ROW = 0.32
WIDTH = 7.0
#: heatmaps up to this many rows are drawn as vector cells, larger ones as one image;
#: values are written in the cells up to VALUE_CELLS rows; at most MAX_TICKS names per axis
VECTOR_CELLS = 24
VALUE_CELLS = 16
MAX_TICKS = 40
#: a heatmap's cell side (inches) and the most its cells take across; the inches between the
#: names and the cells, and right of the colour bar (its numbers and label)
CELL = 0.4
CELLS = 6.0
PAD = 0.15
BAR_ROOM = 0.9
#: per-document strips draw their dots as one image above this many documents
VECTOR_DOTS = 150
#: colours of Krippendorff's bands (discounted, tentative, good) and of the marks
BANDS = ("#f6d5d0", "#fbecc4", "#d6ecd2")
MARK = "#1f4e79"
ALERT = "#b03a2e"
#: Krippendorff's thresholds, drawn on every scale and bootstrap plot
THRESHOLDS = (0.667, 0.8)
#: matplotlib settings of every plot, applied only while it is drawn
STYLE = {"svg.fonttype": "none", "svg.hashsalt": "corpusagree", "font.size": 9,
         "axes.spines.top": False, "axes.spines.right": False}


def require() -> None:
    """Nothing when matplotlib can be imported, else a one-line error saying how to get it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError('the HTML report draws its plots with matplotlib: pip install '
                         '"corpusagree[report]"') from None


@contextmanager
def _figure(width: float, height: float, layout: str | None = "constrained"
            ) -> Iterator[Figure]:
    """A new figure (no pyplot), drawn within the block under :data:`STYLE`: the user's
    backend and rcParams are left as they are."""
    require()
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(width, height), layout=layout)
        FigureCanvasSVG(fig)
        yield fig


def _svg(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _cmap(name: str, **extremes):
    import matplotlib

    cmap = matplotlib.colormaps[name]
    return cmap.with_extremes(**extremes) if extremes else cmap


def _finite(values) -> np.ndarray:
    a = np.asarray([np.nan if v is None else v for v in values], dtype=float)
    return a[np.isfinite(a)]


def scale(rows: Sequence[tuple[str, float, float | None, float | None]]) -> str:
    """Coefficients on the conventional scales: each row ``(label, value, low, high)`` a point
    with its interval, over Krippendorff's bands (shaded) with Landis & Koch's labels on top."""
    values = _finite([x for _, v, lo, hi in rows for x in (v, lo, hi)])
    left = min(0.0, float(values.min()) if values.size else 0.0) - 0.05
    with _figure(WIDTH, 0.6 + ROW * len(rows)) as fig:
        ax = fig.add_subplot()
        for band, colour in zip(KRIPPENDORFF.bands, BANDS, strict=True):
            ax.axvspan(max(band.low, left), min(band.high, 1.0), color=colour, zorder=0)
        for x in THRESHOLDS:
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
    """A matrix as square coloured cells (values written in up to :data:`VALUE_CELLS` rows);
    row and column names in ``marked`` (the odd one out) are drawn in red. ``reverse``: low
    values are good (Pk). The margins are measured from the names, not by a layout pass
    (three times faster on a 100 × 100 matrix)."""
    m = np.array([[np.nan if v is None else v for v in r] for r in values], dtype=float)
    n_r, n_c = m.shape
    cell = min(CELL, CELLS / max(n_r, n_c))
    ys, y_font = _thinned(rows, marked)
    xs, x_font = _thinned(columns, marked)
    y_w, _ = _extent([rows[i] for i in ys], y_font)
    x_w, x_h = _extent([columns[i] for i in xs], x_font)
    # names at 60°, right-aligned under their cell: x_w·sin 60° + x_h·cos 60° high
    left = max(y_w, x_w / 2 + x_h * 0.87 - cell / 2) + PAD
    bottom = x_w * 0.87 + x_h / 2 + PAD
    w, h = cell * n_c, cell * n_r
    bar = max(0.8 * h, 1.2)
    width, height = left + w + 0.3 + BAR_ROOM, max(h + bottom, bar) + 0.1
    with _figure(width, height, layout=None) as fig:
        ax = fig.add_axes((left / width, (height - 0.1 - h) / height, w / width, h / height))
        cax = fig.add_axes(((left + w + 0.15) / width,
                            (height - 0.1 - (h + bar) / 2 if bar < h else height - 0.1 - bar)
                            / height, 0.15 / width, bar / height))
        cmap = _cmap("viridis_r" if reverse else "viridis", bad="#eeeeee")
        if max(n_r, n_c) <= VECTOR_CELLS:  # vector cells with white edges
            mesh = ax.pcolormesh(np.ma.masked_invalid(m), cmap=cmap, vmin=vmin, vmax=vmax,
                                 edgecolors="white", linewidth=0.5)
        else:  # one embedded raster image: an SVG of n² paths would weigh megabytes
            mesh = ax.imshow(np.ma.masked_invalid(m), cmap=cmap, vmin=vmin, vmax=vmax,
                             extent=(0, n_c, n_r, 0), interpolation="nearest", aspect="auto")
        ax.set_xlim(0, n_c)
        ax.set_ylim(n_r, 0)
        _names(ax.xaxis, columns, xs, marked, fontsize=x_font, rotation=60, ha="right")
        _names(ax.yaxis, rows, ys, marked, fontsize=y_font)
        if max(n_r, n_c) <= VALUE_CELLS:
            lo, hi = mesh.get_clim()
            mid = (lo + hi) / 2
            for i in range(n_r):
                for j in range(n_c):
                    if math.isfinite(m[i, j]):
                        dark = (m[i, j] < mid) != reverse
                        ax.text(j + 0.5, i + 0.5, f"{m[i, j]:.2f}", ha="center", va="center",
                                fontsize=7, color="white" if dark else "black")
        ax.spines[["left", "bottom"]].set_visible(False)
        fig.colorbar(mesh, cax=cax, label=label)
        return _svg(fig)


def _thinned(names: Sequence[str], marked: Sequence[str]) -> tuple[list[int], float]:
    """The names a heatmap's axis shows, at most about :data:`MAX_TICKS` evenly thinned, and
    every one in ``marked`` (its neighbours within a step left out), and their font size."""
    n = len(names)
    step = max(1, math.ceil(n / MAX_TICKS))
    red = [i for i, x in enumerate(names) if x in marked]
    shown = {*red, *(i for i in range(0, n, step) if all(abs(i - k) >= step for k in red))}
    return sorted(shown), 7 if step > 1 or n > 20 else 9


def _extent(names: Sequence[str], size: float) -> tuple[float, float]:
    """Width and height in inches of the widest and tallest of ``names`` (measured as the SVG
    backend measures text, without drawing)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    prop = FontProperties(size=size)
    sizes = [text_to_path.get_text_width_height_descent(str(x), prop, ismath=False)
             for x in names]
    return (max((w for w, _, _ in sizes), default=0.0) / 72,
            max((h for _, h, _ in sizes), default=0.0) / 72)


def _names(axis: Axis, names: Sequence[str], shown: Sequence[int], marked: Sequence[str],
           **text) -> None:
    """The ``shown`` names on a heatmap's axis, those in ``marked`` in red."""
    axis.set_ticks(np.array(shown, dtype=float) + 0.5, [str(names[i]) for i in shown], **text)
    for tick, i in zip(axis.get_ticklabels(), shown, strict=True):
        if names[i] in marked:
            tick.set_color(ALERT)
            tick.set_fontweight("bold")


def strips(columns: Sequence[tuple[str, Sequence[float | None]]], names: Sequence[str],
           worst: int = 3) -> str:
    """Per-document values, one horizontal strip per measure (a box of the quartiles and one
    dot per document); the ``worst`` lowest documents of the first measure are red and named,
    each name a line above the next one to its right, so that no two overlap."""
    first = np.array([np.nan if v is None else v for v in columns[0][1]], dtype=float)
    low = [i for i in np.argsort(first, kind="stable") if math.isfinite(first[i])][:worst]
    extra = 0.3 * len(low)  # rows of room for the names above the first strip
    with _figure(WIDTH, 0.7 + 0.45 * (len(columns) + extra)) as fig:
        ax = fig.add_subplot()
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
        ax.scatter(first[low], np.full(len(low), y[0]), s=14, color=ALERT, zorder=4,
                   linewidths=0)
        # from right to left, each name a line higher: a leader never crosses a name
        for level, i in enumerate(sorted(low, key=lambda i: -first[i])):
            ax.annotate(str(names[i]), (first[i], y[0]), xytext=(0, 11 + 9 * level),
                        textcoords="offset points", fontsize=7, color=ALERT, ha="left",
                        arrowprops={"arrowstyle": "-", "color": ALERT, "lw": 0.5,
                                    "relpos": (0, 0), "shrinkA": 0, "shrinkB": 2})
        ax.set_yticks(y, [c for c, _ in columns])
        ax.set_ylim(-0.7, len(columns) - 0.2 + extra)
        ax.set_xlabel("value per document")
        return _svg(fig)


def bars(labels: Sequence[str], values: Sequence[float], low: Sequence[float | None],
         high: Sequence[float | None], label: str) -> str:
    """One horizontal bar per name (in the order given, the first at the bottom) with its
    interval as an error bar where it has one: the reliability of each annotator. Names are
    thinned as a heatmap's when there are more than :data:`MAX_TICKS`."""
    n = len(labels)
    v = np.array(values, dtype=float)
    lo = np.array([np.nan if x is None else x for x in low], dtype=float)
    hi = np.array([np.nan if x is None else x for x in high], dtype=float)
    shown, font = _thinned(labels, ())
    with _figure(WIDTH, 0.8 + min(ROW, 8.0 / max(n, 1)) * n) as fig:
        ax = fig.add_subplot()
        y = np.arange(n)
        ax.barh(y, v, color=MARK, alpha=0.8, height=0.7)
        has = np.isfinite(lo) & np.isfinite(hi)
        if has.any():
            ax.errorbar(v[has], y[has], xerr=[v[has] - lo[has], hi[has] - v[has]], fmt="none",
                        ecolor=ALERT, elinewidth=1, capsize=2)
        ax.set_yticks(y[shown], [labels[i] for i in shown], fontsize=font)
        ax.set_ylim(-0.7, n - 0.3)
        ax.axvline(0, color="#777", lw=0.6)
        ax.set_xlabel(label)
        return _svg(fig)


def bootstrap(distribution: Sequence[float], estimate: float, low: float, high: float,
              label: str) -> str:
    """The bootstrap distribution of a coefficient: a histogram with the estimate, the
    interval (shaded) and Krippendorff's thresholds .667 and .800 (the axis always reaches
    them)."""
    d = _finite(distribution)
    with _figure(WIDTH, 2.4) as fig:
        ax = fig.add_subplot()
        ax.axvspan(low, high, color="#d9e6f2", zorder=0, label="interval")
        ax.hist(d, bins=min(60, max(10, int(math.sqrt(d.size)))), color=MARK, alpha=0.8,
                zorder=1)
        ax.axvline(estimate, color=ALERT, lw=1.5, label=f"{label} = {estimate:.4f}", zorder=2)
        lo = min(float(d.min()), low, *THRESHOLDS)
        hi = max(float(d.max()), high, *THRESHOLDS)
        pad = max(0.02, 0.05 * (hi - lo))
        ax.set_xlim(lo - pad, hi + pad)
        for x in THRESHOLDS:
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
    from matplotlib.patches import Patch

    cats = sorted({c for *_, c in units})
    tab10 = _cmap("tab10")
    colours = {c: tab10(i % 10) for i, c in enumerate(cats)}
    with _figure(WIDTH + 2, 0.8 + 0.55 * len(annotators)) as fig:
        ax = fig.add_subplot()
        for link in links:
            if len(link) > 1:
                xs, ys = zip(*sorted(((x, r) for r, x in link), key=lambda p: p[1]),
                             strict=True)
                ax.plot(xs, ys, color="#999", lw=0.7, zorder=1)
        for row, start, stop, cat in units:
            ax.barh(row, max(stop - start, (end - begin) * 0.002), left=start, height=0.5,
                    color=colours[cat], edgecolor="black", linewidth=0.3, zorder=2)
        ax.set_yticks(range(len(annotators)), annotators)
        ax.invert_yaxis()
        ax.set_xlim(begin, end)
        ax.set_xlabel(f"position ({unit}s); grey lines: the best alignment")
        if cats:
            ax.legend([Patch(color=colours[c]) for c in cats[:10]], cats[:10],
                      ncol=min(5, len(cats)), fontsize=7, frameon=False, loc="upper center",
                      bbox_to_anchor=(0.5, -0.35))
        return _svg(fig)
