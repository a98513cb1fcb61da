"""The pictures of the HTML report, drawn by matplotlib and written as inline SVG.

Each function takes plain data (what a report's tables and plots hold) and returns one
``<svg>`` element as text: vector shapes with text kept as text (searchable, small, read by a
screen reader), a ``<title>`` and ``role="img"`` naming the picture, no timestamps, the same
bytes for the same data. Every picture is cut to the extent of what it draws (names, labels,
colour bar), so no text is clipped by its figure. matplotlib is the ``report`` extra
(``pip install ".[report]"`` in a checkout, as the documentation's Installation page
says); without it :func:`require` says how to get it.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np

from ..model.errors import InputError
from ..stats.interpret import KRIPPENDORFF, LANDIS_KOCH
from .tables import THRESHOLDS

__all__ = ["ALERT", "BANDS", "BAND_GAP", "BAR", "BAR_LENGTH", "CELL", "CELLS", "FONT", "LANE",
           "LEAST_SPAN", "LINE", "MARGIN", "MARK", "MAX_TICKS", "PAD", "ROW", "SCALE_AXES",
           "SMALL", "STYLE", "VALUE_CELLS", "VECTOR_CELLS", "VECTOR_DOTS", "WIDTH", "bars",
           "bland_altman", "scatter",
           "bootstrap", "continuum", "heatmap", "lanes", "prefixed", "require", "scale", "strips"]

if TYPE_CHECKING:
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

#: inches per row of a strip or heatmap, and the page width of a plot
ROW = 0.32
WIDTH = 7.0
#: inches the axes of the conventional scales take at least (their labels are added to it)
SCALE_AXES = 4.6
#: heatmaps up to this many rows are drawn as vector cells, larger ones as one image;
#: values are written in the cells up to VALUE_CELLS rows; at most MAX_TICKS names per axis
VECTOR_CELLS = 24
VALUE_CELLS = 16
MAX_TICKS = 40
#: a heatmap's cell side (inches) and the most its cells take across; the inches between the
#: names and the cells (a tick and its gap, and some room), a colour bar's width and its least
#: length, and the room around the figure
CELL = 0.4
CELLS = 6.0
PAD = 0.15
BAR = 0.15
BAR_LENGTH = 1.4
#: the least span of a heatmap's colours when they follow the values
LEAST_SPAN = 0.1
MARGIN = 0.06
#: font sizes (points) of the figures, of small text (values in cells, thresholds, names of
#: documents) and a line's height in font sizes
FONT = 9
SMALL = 7
LINE = 1.25
#: per-document strips draw their dots as one image above this many documents
VECTOR_DOTS = 150
#: a continuum's inches per lane (a row of units that do not overlap) and between annotators
LANE = 0.2
BAND_GAP = 0.12
#: colours of Krippendorff's bands (discounted, tentative, good) and of the marks
BANDS = ("#f6d5d0", "#fbecc4", "#d6ecd2")
MARK = "#1f4e79"
ALERT = "#b03a2e"
#: matplotlib settings of every plot, applied only while it is drawn: text as text, in the
#: font whose metrics lay it out (DejaVu Sans, which matplotlib ships), else the browser's
#: sans-serif (commonly narrower: Arial, Helvetica)
STYLE = {"svg.fonttype": "none", "svg.hashsalt": "corpusagree", "font.size": FONT,
         "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"],
         "axes.spines.top": False, "axes.spines.right": False}
#: the ids matplotlib numbers each artist's group with (figure_1, axes_1 …): the same in every
#: figure, so left out of a page holding many
_GROUP_IDS = re.compile(r' id="[A-Za-z][\w.]*_\d+"')


def require() -> None:
    """Nothing when matplotlib can be imported, else a one-line error saying how to get it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError('the HTML report draws its plots with matplotlib: pip install '
                         '".[report]" (in corpusagree\'s folder)') from None


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


def _svg(fig: Figure, title: str, tight: bool = True) -> str:
    """The figure as one ``<svg>`` element named by ``title`` (a ``<title>`` and ``role="img"``
    with ``aria-label``); ``tight``: cut to the extent of what is drawn (all text included),
    for figures whose margins are not measured beforehand."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight" if tight else None, pad_inches=MARGIN,
                metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    text = buf.getvalue()
    text = _GROUP_IDS.sub("", text[text.index("<svg"):])
    name = html.escape(title, quote=True)
    end = text.index(">")
    return (f'{text[:end]} role="img" aria-label="{name}">\n <title>{name}</title>'
            f"{text[end + 1:]}")


def prefixed(svg: str, prefix: str) -> str:
    """``svg`` with ``prefix`` before each of its ids and the references to them (clip paths,
    markers, images): matplotlib names them by a hash of their content, the same in two
    figures of a page that draw the same thing.

    Examples
    --------
    >>> prefixed('<svg><path id="m1"/><use xlink:href="#m1" clip-path="url(#m1)"/></svg>', "f")
    '<svg><path id="f-m1"/><use xlink:href="#f-m1" clip-path="url(#f-m1)"/></svg>'
    """
    ids = re.findall(r' id="([^"]+)"', svg)
    if not ids:
        return svg
    return re.sub(r'(id="|#)(' + "|".join(map(re.escape, ids)) + r')(?=[")])',
                  lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", svg)


def _cmap(name: str, **extremes):
    import matplotlib

    cmap = matplotlib.colormaps[name]
    return cmap.with_extremes(**extremes) if extremes else cmap


def _finite(values) -> np.ndarray:
    a = np.asarray([np.nan if v is None else v for v in values], dtype=float)
    return a[np.isfinite(a)]


def _padded(values: np.ndarray, share: float = 0.03, least: float = 0.01
            ) -> tuple[float, float]:
    """The range of ``values`` widened on each side by ``share`` of it (at least ``least``), so
    that the marks at its ends (a dot, a whisker's cap) are drawn whole."""
    if not values.size:
        return 0.0, 1.0
    lo, hi = float(values.min()), float(values.max())
    pad = max(least, share * (hi - lo))
    return lo - pad, hi + pad


def scale(rows: Sequence[tuple[str, float, float | None, float | None]], *,
          title: str = "Coefficients on the conventional scales") -> str:
    """Coefficients on the conventional scales: each row ``(label, value, low, high)`` a point
    with its interval, over Krippendorff's bands (shaded) with Landis & Koch's labels on top.
    The axes are :data:`SCALE_AXES` inches wide whatever the labels' length, and reach a little
    beyond the values, so that an interval ending at 1 is drawn whole."""
    values = _finite([x for _, v, lo, hi in rows for x in (v, lo, hi)])
    low, high = _padded(np.append(values, [0.0, 1.0]))
    labels_w, _ = _extent([label for label, *_ in rows], FONT)
    with _figure(max(WIDTH, labels_w + 0.5 + SCALE_AXES), 0.6 + ROW * len(rows)) as fig:
        ax = fig.add_subplot()
        for band, colour in zip(KRIPPENDORFF.bands, BANDS, strict=True):
            ax.axvspan(max(band.low, low), min(band.high, 1.0), color=colour, zorder=0)
        for x in THRESHOLDS:
            ax.axvline(x, color="#777", lw=0.6, ls="--", zorder=1)
        y = np.arange(len(rows))[::-1]
        for yi, (_, v, lo, hi) in zip(y, rows, strict=True):
            if lo is not None and hi is not None and math.isfinite(lo) and math.isfinite(hi):
                ax.plot([lo, hi], [yi, yi], color=MARK, lw=2, zorder=2)
            if v is not None and math.isfinite(v):
                ax.plot([v], [yi], "o", color=MARK, ms=5, zorder=3)
        ax.set_yticks(y, [label for label, *_ in rows])
        ax.set_xlim(low, high)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        top = ax.secondary_xaxis("top")
        lk = [b for b in LANDIS_KOCH.bands if b.high > low]
        top.set_xticks([(max(b.low, low) + min(b.high, 1.0)) / 2 for b in lk],
                       [b.label for b in lk], fontsize=SMALL, color="#555")
        top.tick_params(length=0)
        ax.set_xlabel("value (shading: Krippendorff's bands .667 / .800; top: Landis & Koch)")
        return _svg(fig, title)


def heatmap(rows: Sequence[str], columns: Sequence[str], values, *, marked: Sequence[str] = (),
            label: str = "", vmin: float | None = None, vmax: float | None = None,
            reverse: bool = False, thresholds: Sequence[float] = (), diagonal: bool = True,
            title: str = "") -> str:
    """A matrix as square coloured cells (values written in up to :data:`VALUE_CELLS` rows);
    row and column names in ``marked`` (the odd one out) are drawn in red. ``reverse``: low
    values are good (Pk).

    The colours span the values (from ``vmin`` to ``vmax`` where given), so that .88 and .97
    differ; ``thresholds`` within them (Krippendorff's .667 and .800 for a chance-corrected
    coefficient) are lines across the colour bar, labelled on its left. ``diagonal=False``: the
    diagonal is each row with itself (a coder × coder matrix), drawn as missing. The margins
    are measured from the names, the colour bar's numbers and its label (wrapped to its
    length), not by a layout pass (three times faster on a 100 × 100 matrix).
    """
    m = np.array([[np.nan if v is None else v for v in r] for r in values], dtype=float)
    n_r, n_c = m.shape
    if not diagonal and n_r == n_c:
        np.fill_diagonal(m, np.nan)
    lo, hi = _colour_range(m, vmin, vmax)
    found = m[np.isfinite(m)]
    whole = bool(found.size) and bool(np.all(found == np.round(found)))  # counts
    ticks, numbers = _bar_ticks(lo, hi, whole)
    marks = [t for t in thresholds if lo <= t <= hi]
    cell = min(CELL, CELLS / max(n_r, n_c))
    ys, y_font = _thinned(rows, marked)
    xs, x_font = _thinned(columns, marked)
    y_w, _ = _extent([rows[i] for i in ys], y_font, bold=marked)
    x_w, x_h = _extent([columns[i] for i in xs], x_font, bold=marked)
    # names at 60°, right-aligned under their cell: x_w·sin 60° + x_h·cos 60° high
    left = max(y_w, x_w / 2 + x_h * 0.87 - cell / 2) + PAD
    bottom = x_w * 0.87 + x_h / 2 + PAD
    w, h = cell * n_c, cell * n_r
    bar = max(0.8 * h, BAR_LENGTH)
    lines = _wrap(label, bar, FONT)
    # left of the bar its thresholds' labels, right of it its numbers and label
    gap = PAD + (_extent([_threshold(t) for t in marks], SMALL)[0] + 0.05 if marks else 0.0)
    right = BAR + PAD + _extent(numbers, FONT)[0] + len(lines) * LINE * FONT / 72 + MARGIN
    width, height = left + w + gap + right, max(h + bottom, bar + 0.2) + 0.1
    top = height - 0.1  # the cells' top, and the bar's when it is longer than they are high
    with _figure(width, height, layout=None) as fig:
        ax = fig.add_axes((left / width, (top - h) / height, w / width, h / height))
        cax = fig.add_axes(((left + w + gap) / width,
                            (top - (h + bar) / 2 if bar < h else top - bar) / height,
                            BAR / width, bar / height))
        cmap = _cmap("viridis_r" if reverse else "viridis", bad="#eeeeee")
        if max(n_r, n_c) <= VECTOR_CELLS:  # vector cells with white edges
            mesh = ax.pcolormesh(np.ma.masked_invalid(m), cmap=cmap, vmin=lo, vmax=hi,
                                 edgecolors="white", linewidth=0.5)
        else:  # one embedded raster image: an SVG of n² paths would weigh megabytes
            mesh = ax.imshow(np.ma.masked_invalid(m), cmap=cmap, vmin=lo, vmax=hi,
                             extent=(0, n_c, n_r, 0), interpolation="nearest", aspect="auto")
        ax.set_xlim(0, n_c)
        ax.set_ylim(n_r, 0)
        _names(ax.xaxis, columns, xs, marked, fontsize=x_font, rotation=60, ha="right")
        _names(ax.yaxis, rows, ys, marked, fontsize=y_font)
        if max(n_r, n_c) <= VALUE_CELLS:
            mid = (lo + hi) / 2
            for i, j in zip(*np.nonzero(np.isfinite(m)), strict=True):
                dark = (m[i, j] < mid) != reverse
                ax.text(j + 0.5, i + 0.5, _cell_value(m[i, j], whole), ha="center",
                        va="center", fontsize=SMALL, color="white" if dark else "black")
        ax.spines[["left", "bottom"]].set_visible(False)
        colour_bar = fig.colorbar(mesh, cax=cax)
        colour_bar.set_ticks(ticks, labels=numbers)
        colour_bar.set_label("\n".join(lines))
        for t in marks:
            cax.axhline(t, color="white", lw=2.2)
            cax.axhline(t, color="black", lw=0.8, ls=(0, (2, 1)))
            cax.annotate(_threshold(t), (0, t), xytext=(-3, 0), textcoords="offset points",
                         xycoords=("axes fraction", "data"), ha="right", va="center",
                         fontsize=SMALL)
        return _svg(fig, title, tight=False)


def _colour_range(m: np.ndarray, vmin: float | None, vmax: float | None
                  ) -> tuple[float, float]:
    """The values a heatmap's colours span: ``vmin`` and ``vmax`` where given, else the least
    and greatest value of ``m``, the least lowered to make the span at least
    :data:`LEAST_SPAN` (.955 and .975 do not look as far apart as 0 and 1)."""
    found = m[np.isfinite(m)]
    lo = vmin if vmin is not None else float(found.min()) if found.size else 0.0
    hi = vmax if vmax is not None else float(found.max()) if found.size else 1.0
    if hi - lo < 1e-9 and vmax is None:
        hi = lo + 1.0 if vmin is not None else hi
    if vmin is None:
        lo = min(lo, hi - LEAST_SPAN)
    return lo, hi


def _bar_ticks(lo: float, hi: float, whole: bool = False) -> tuple[list[float], list[str]]:
    """A colour bar's ticks from ``lo`` to ``hi`` (about five round numbers, whole ones for
    counts) and their labels, with as many decimals as they need (the labels are measured
    before drawing)."""
    from matplotlib.ticker import MaxNLocator

    ticks = [float(t) for t in MaxNLocator(nbins=5, integer=whole).tick_values(lo, hi)
             if lo - 1e-9 <= t <= hi + 1e-9]
    places = next((d for d in range(6) if all(abs(round(t, d) - t) < 1e-9 for t in ticks)), 6)
    return ticks, [f"{t:.{places}f}".replace("-", "−") for t in ticks]


def _threshold(t: float) -> str:
    """A threshold as the literature writes it: .667, .800."""
    return f"{t:.3f}".removeprefix("0")


def _cell_value(v: float, whole: bool = False) -> str:
    """A value written in a heatmap's cell: two decimals, none for counts (``whole``) and
    beyond 100."""
    return f"{v:.0f}" if whole or abs(v) >= 100 else f"{v:.2f}"


def _wrap(text: str, length: float, size: float) -> list[str]:
    """``text`` in lines of at most ``length`` inches at ``size`` points (a word longer than
    that on a line of its own)."""
    if not text:
        return []
    words = text.split()
    lines = [words[0]]
    for word in words[1:]:
        if _extent([f"{lines[-1]} {word}"], size)[0] <= length:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _thinned(names: Sequence[str], marked: Sequence[str]) -> tuple[list[int], float]:
    """The names a heatmap's axis shows, at most about :data:`MAX_TICKS` evenly thinned, and
    every one in ``marked`` (its neighbours within a step left out), and their font size."""
    n = len(names)
    step = max(1, math.ceil(n / MAX_TICKS))
    red = [i for i, x in enumerate(names) if x in marked]
    shown = {*red, *(i for i in range(0, n, step) if all(abs(i - k) >= step for k in red))}
    return sorted(shown), SMALL if step > 1 or n > 20 else FONT


def _extent(names: Sequence[str], size: float, bold: Sequence[str] = ()) -> tuple[float, float]:
    """Width and height in inches of the widest and tallest of ``names`` (those in ``bold``
    in bold), measured as the SVG backend measures text, without drawing."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    props = {w: FontProperties(family=STYLE["font.sans-serif"], size=size, weight=w)
             for w in ("normal", "bold")}
    sizes = [text_to_path.get_text_width_height_descent(
        str(x), props["bold" if x in bold else "normal"], ismath=False) for x in names]
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
           worst: int = 3, *, title: str = "Values per document") -> str:
    """Per-document values, one horizontal strip per measure (a box of the quartiles and one
    dot per document); the ``worst`` lowest documents of the first measure are red and named,
    each name a line above the next one to its right, so that no two overlap. The axis reaches
    a little beyond the values: the whiskers' caps are drawn whole."""
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
                        textcoords="offset points", fontsize=SMALL, color=ALERT, ha="left",
                        arrowprops={"arrowstyle": "-", "color": ALERT, "lw": 0.5,
                                    "relpos": (0, 0), "shrinkA": 0, "shrinkB": 2})
        ax.set_yticks(y, [c for c, _ in columns])
        ax.set_xlim(*_padded(_finite([v for _, vals in columns for v in vals])))
        ax.set_ylim(-0.7, len(columns) - 0.2 + extra)
        ax.set_xlabel("value per document")
        return _svg(fig, title)


def bars(labels: Sequence[str], values: Sequence[float], low: Sequence[float | None],
         high: Sequence[float | None], label: str, *, title: str = "Bars") -> str:
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
        return _svg(fig, title)


def bland_altman(x: Sequence[float], y: Sequence[float], bias: float, lower: float,
                 upper: float, names: Sequence[str], *, title: str = "Bland–Altman") -> str:
    """Bland & Altman's (1986, Figure 2) plot of two coders' scores: the difference x − y
    against the mean of the pair, with the bias and the limits of agreement."""
    a, b = np.asarray(x, float), np.asarray(y, float)
    with _figure(WIDTH * 0.6, 3.0) as fig:
        ax = fig.add_subplot()
        ax.scatter((a + b) / 2, a - b, s=10, color=MARK, alpha=0.5, lw=0)
        for v, what, style in ((bias, "bias", "-"), (lower, "lower limit", "--"),
                               (upper, "upper limit", "--")):
            if math.isfinite(v):
                ax.axhline(v, color=ALERT, lw=1, ls=style)
                ax.annotate(f"{what} {v:.2f}", (1, v), xycoords=("axes fraction", "data"),
                            fontsize=SMALL, color=ALERT, ha="right", va="bottom")
        ax.set_xlabel(f"mean of {names[0]} and {names[1]}")
        ax.set_ylabel(f"{names[0]} − {names[1]}")
        return _svg(fig, title)


def scatter(x: Sequence[float], y: Sequence[float], names: Sequence[str], *,
            title: str = "Scatter") -> str:
    """Two coders' scores against each other, with the line of identity (on which Lin's
    concordance correlation measures the points' spread)."""
    a, b = np.asarray(x, float), np.asarray(y, float)
    with _figure(WIDTH * 0.5, 3.0) as fig:
        ax = fig.add_subplot()
        ax.scatter(a, b, s=10, color=MARK, alpha=0.5, lw=0)
        both = np.concatenate([a, b]) if a.size else np.array([0.0, 1.0])
        lo, hi = float(both.min()), float(both.max())
        ax.plot([lo, hi], [lo, hi], color="#777", lw=0.8, ls="--")
        ax.set_xlabel(str(names[0]))
        ax.set_ylabel(str(names[1]))
        ax.set_aspect("equal", adjustable="datalim")
        return _svg(fig, title)


def bootstrap(distribution: Sequence[float], estimate: float, low: float, high: float,
              label: str, *, title: str = "Bootstrap distribution") -> str:
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
            ax.annotate(f"{x:g}", (x, 1), xycoords=("data", "axes fraction"), fontsize=SMALL,
                        color="#555", ha="center", va="bottom")
        ax.set_xlabel(f"{label} in {d.size} bootstrap replicates")
        ax.set_ylabel("replicates")
        ax.legend(loc="upper left", fontsize=SMALL, frameon=False)
        return _svg(fig, title)


def lanes(starts: Sequence[float], ends: Sequence[float]) -> np.ndarray:
    """The lane of each unit (``starts``, ``ends``) of one annotator: units in the same lane do
    not overlap. First fit in order of start, which needs no more lanes than the most units
    over one position (interval partitioning).

    Examples
    --------
    >>> lanes([0, 2, 5, 6], [4, 3, 7, 9]).tolist()
    [0, 1, 0, 1]
    """
    s, e = np.asarray(starts, dtype=float), np.asarray(ends, dtype=float)
    out = np.zeros(len(s), dtype=int)
    free: list[float] = []  # where each lane's last unit ends
    for i in np.lexsort((e, s)).tolist():
        k = next((k for k, stop in enumerate(free) if stop <= s[i]), len(free))
        if k == len(free):
            free.append(e[i])
        free[k] = max(e[i], s[i])
        out[i] = k
    return out


def continuum(annotators: Sequence[str], units: Sequence[tuple[int, float, float, str]],
              links: Sequence[Sequence[int]], begin: float, end: float, unit: str, *,
              title: str = "Continuum") -> str:
    """One document's continuum: a band of bars per annotator (``units``: annotator, start,
    end, category), coloured by category, an annotator's overlapping units stacked in lanes
    (:func:`lanes`), and the best alignment as lines joining the units of each unitary
    alignment (``links``: the indices in ``units`` of its units)."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Patch

    who = np.array([u[0] for u in units], dtype=int)
    start = np.array([u[1] for u in units], dtype=float)
    stop = np.array([u[2] for u in units], dtype=float)
    cat = [u[3] for u in units]
    lane = np.zeros(len(units), dtype=int)
    for a in range(len(annotators)):
        mine = np.flatnonzero(who == a)
        lane[mine] = lanes(start[mine], stop[mine])
    count = np.ones(len(annotators), dtype=int)  # an annotator without units: one empty lane
    np.maximum.at(count, who, lane + 1)
    first = np.concatenate([[0], np.cumsum(count + BAND_GAP / LANE)[:-1]])  # band tops, lanes
    y = first[who] + lane + 0.5
    cats = sorted(set(cat))
    tab10 = _cmap("tab10")
    colours = {c: tab10(i % 10) for i, c in enumerate(cats)}
    rows = (min(10, len(cats)) + 4) // 5
    total = float(first[-1] + count[-1]) if len(annotators) else 1.0
    with _figure(WIDTH + 2, 0.9 + 0.22 * rows + LANE * total) as fig:
        ax = fig.add_subplot()
        for a in range(1, len(annotators), 2):  # every other band shaded: whose lanes these are
            ax.axhspan(first[a] - BAND_GAP / LANE / 2, first[a] + count[a] + BAND_GAP / LANE / 2,
                       color="#f3f3f3", zorder=0, lw=0)
        mid = (start + stop) / 2
        ax.add_collection(LineCollection(
            [sorted(zip(mid[list(k)], y[list(k)], strict=True), key=lambda p: p[1])
             for k in links if len(k) > 1], colors="#999", linewidths=0.7, zorder=1))
        least = (end - begin) * 0.002
        for c in cats:
            k = np.array([x == c for x in cat])
            ax.barh(y[k], np.maximum(stop[k] - start[k], least), left=start[k], height=0.7,
                    color=colours[c], edgecolor="black", linewidth=0.3, zorder=2)
        ax.set_yticks(first + count / 2, annotators)
        ax.tick_params(axis="y", length=0)
        ax.set_ylim(total, -BAND_GAP / LANE / 2)
        ax.set_xlim(begin, end)
        ax.set_xlabel(f"position ({unit}s); an annotator's overlapping units in lanes; "
                      "grey lines: the best alignment")
        if cats:
            fig.legend([Patch(color=colours[c]) for c in cats[:10]], cats[:10],
                       ncol=min(5, len(cats)), fontsize=SMALL, frameon=False,
                       loc="outside lower center")
        return _svg(fig, title)
