"""Reports as one self-contained HTML page: numbers, intervals, pictures and disputed items.

The page is drawn from what the reports hold (``tables()``, ``plots()``, ``to_dict()``),
never from a second computation: this module arranges it (which table goes in which section,
what each picture is called) and the Jinja2 templates in ``templates/`` write its markup
(``page.html.j2``, a job in ``job.html.j2``, figures and tables in ``macros.html.j2``, the
notebook's fragment in ``fragment.html.j2``), escaping every value. It opens offline: the CSS
(``report.css``), the SVG plots (:mod:`.plots`) and a short script (``report.js``: sorting
tables, choosing a document) are inline, a Content-Security-Policy forbids any request, every
table can be downloaded as CSV from a data URL, and the full JSON report is embedded. Each job
has its sections in this order: summary (coefficients on the conventional scales), scores
(coreference scores), pairwise agreement (coder × coder heatmaps, the odd one out marked),
coincidence and confusion, by document, bootstrap, disputed items (with their text), spans (a
continuum and its alignment), other tables.
"""

from __future__ import annotations

import base64
import json as jsonlib
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from markupsafe import Markup

from .._version import __version__
from ..stats import interpret
from . import csv, plots, text
from .json import clean
from .tables import Column, Document, Plot, Table, bootstrap_caption

__all__ = ["LOW_IS_GOOD", "MAX_ROWS", "PLACES", "PLOT_PLACES", "SECTIONS", "STRIP_MEASURES",
           "Block", "Cell", "Figure", "Job", "Picture", "Row", "TableView", "dumps", "environment",
           "fragment"]

#: (id, heading) of a job's sections, in page order
SECTIONS = (("summary", "Summary"), ("scores", "Scores"), ("pairwise", "Pairwise agreement"),
            ("matrices", "Coincidence and confusion"), ("documents", "By document"),
            ("bootstrap", "Bootstrap"), ("disputed", "Disputed items"), ("spans", "Spans"),
            ("tables", "Other tables"))
#: tables by id: where they go when their shape does not say
PLACES = {"scores": "scores", "scores_macro": "scores",
          "leave_one_out": "pairwise", "coder_rates": "pairwise",
          "per_category": "matrices", "bias_by_category": "matrices", "confused": "matrices",
          "by_document": "documents", "scores_by_document": "documents",
          "by_group": "documents", "by_lemma": "documents", "worst_items": "disputed",
          "disputed": "disputed", "costliest": "disputed", "costliest_boundaries": "disputed",
          "costliest_units": "disputed", "pairs": "spans", "models": "summary",
          "reliability": "summary", "alt_test": "summary", "alt_test_humans": "summary",
          "confusion": "matrices", "parseval": "summary", "boundaries": "tables"}
#: the section of each kind of plot, and of plots placed by their id
PLOT_PLACES = {"bootstrap": "bootstrap", "continuum": "spans", "heatmap": "pairwise",
               "confusion": "matrices", "bars": "summary", "pairwise_conll": "scores",
               "bland_altman": "pairwise", "scatter": "pairwise"}
#: matrices where a low value is good agreement
LOW_IS_GOOD = ("pk", "window_diff")
#: per-document strips show at most this many measures
STRIP_MEASURES = 8
#: rows of a table written into the page (all of them are in its CSV and the JSON)
MAX_ROWS = 200


# ---- what the templates draw --------------------------------------------------------------------
@dataclass
class Picture:
    """One SVG of a figure; a figure of several (the documents of a continuum) lets the reader
    choose one by its ``label``, and writes its ``note`` under it."""

    svg: Markup
    label: str = ""
    note: str = ""


@dataclass
class Figure:
    """A figure: its pictures, caption, links after the caption ((row id, name, value) of the
    lowest documents) and notes, each on a line."""

    id: str
    caption: str
    pictures: list[Picture]
    notes: Sequence[str] = ()
    links: list[tuple[str, str, str]] = field(default_factory=list)
    choose: str = "Document"


@dataclass
class Cell:
    text: str
    num: bool = False
    value: str | None = None  #: data-value: the number a table is sorted by
    high: str | None = None  #: data-high: an interval's upper bound
    context: tuple[str, str, str] | None = None  #: (before, span, after): the span highlighted
    pre: bool = False  #: a line of an outline: its spaces kept, left-aligned wherever shown


@dataclass
class Row:
    id: str
    cells: list[Cell]
    marked: bool = False


@dataclass
class TableView:
    """A table as the page writes it: ``caption`` (hidden when a heading above says it),
    headers (and their columns' keys, which name an empty header for a screen reader) and
    rows; ``sortable``: each header a button."""

    id: str
    caption: str
    headers: list[tuple[str, str]]
    rows: list[Row]
    caption_hidden: bool = False
    sortable: bool = True


@dataclass
class Block:
    """A part of a section: a heading (an anchor, a CSV download), a figure, a table, a line
    on rows left out, notes."""

    heading: str | None = None
    anchor: str | None = None
    download: tuple[str, str] | None = None  #: (file name, data URL)
    figure: Figure | None = None
    table: TableView | None = None
    more: str = ""
    notes: Sequence[str] = ()


@dataclass
class Job:
    job: str
    anchor: str
    summary: str
    overview: list[tuple[str, list[str]]]  #: (term, lines) of the summary's list
    sections: list[tuple[str, str, list[Block]]]  #: (id, heading, blocks)
    notes: list[str]


@cache
def environment():
    """The templates of ``templates/`` (package data), every value escaped."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(loader=PackageLoader("corpusagree.report", "templates"),
                      autoescape=True, trim_blocks=True, lstrip_blocks=True,
                      undefined=StrictUndefined)
    # CSS and script are written into the page as they are, never read as templates
    env.globals["inline"] = lambda name: Markup(env.loader.get_source(env, name)[0])
    env.filters["short"] = _short
    return env


# ---- the page ---------------------------------------------------------------------------------
def dumps(reports: Sequence[Document], title: str | None = None, defaults: Sequence[str] = ()
          ) -> str:
    """The page of ``reports`` (see the module docstring); ``defaults``: the options that
    ``--html`` turned on (the summary of each job says so)."""
    plots.require()
    title = title or "Agreement report: " + ", ".join(dict.fromkeys(r.job for r in reports))
    dicts = [r.to_dict() for r in reports]
    names = csv.table_names(reports, qualified=True)
    jobs = [_job(r, d, f"job-{n + 1}", defaults, names[n])
            for n, (r, d) in enumerate(zip(reports, dicts, strict=True))]
    # no "<" in the script's text (JSON has none outside its strings): no "</script>" or
    # "<!--" there ends it early
    payload = jsonlib.dumps(clean(dicts), ensure_ascii=False).replace("<", "\\u003c")
    return environment().get_template("page.html.j2").render(
        title=title, version=__version__, jobs=jobs, payload=Markup(payload))


def fragment(report: Document) -> str:
    """The report as an HTML fragment for a notebook (``Report._repr_html_``): the summary,
    every table people read (the first :data:`MAX_ROWS` rows, a caption each) and the notes;
    no plots, so it needs no matplotlib, and no script (notebooks may not run it)."""
    anchor = f"corpusagree-{_slug(report.job)}-{id(report):x}"
    tables = []
    for t in report.tables.values():
        if t.terminal:
            t = t.shown()
            tables.append(Block(table=_table(t, f"{anchor}-{_slug(t.id)}", sortable=False),
                                more=_more(t, f"report.to_frame({t.id!r}) has them all."),
                                notes=t.notes))
    return environment().get_template("fragment.html.j2").render(
        anchor=anchor, job=report.job, summary=report.summary(), blocks=tables,
        notes=report.notes)


def _short(s: str, n: int = 90) -> str:
    return s if len(s) <= n else s[:n - 1] + "…"


def _slug(s: str) -> str:
    return re.sub(r"[^\w-]+", "-", str(s)).strip("-") or "x"


def _job(report: Document, d: dict, anchor: str, defaults: Sequence[str],
         names: Sequence[str]) -> Job:
    """A job's sections; ``names``: the name of each table's CSV (``job/id``, without .csv:
    :func:`.csv.table_names`)."""
    parts: dict[str, list[Block]] = {k: [] for k, _ in SECTIONS}
    full = list(report.tables.values())
    tables = [t.shown() for t in full]
    summary = [t for t in tables if _place(t) == "summary"]
    scale_rows = [(f"{t.id.replace('_', ' ')}: {label}" if len(summary) > 1 else label, *rest)
                  for t in summary for label, *rest in _scale_rows(t)]
    if scale_rows:
        caption = "Coefficients on the conventional scales"
        parts["summary"].append(Block(figure=Figure(
            "scale", caption, [Picture(Markup(plots.scale(scale_rows, title=caption)))],
            [interpret.SHORT_LEGEND, interpret.CAVEAT])))
    for whole, t, name in zip(full, tables, names, strict=True):
        place = _place(t)
        parts[place].append(_table_block(whole, t, f"{anchor}-table-{_slug(t.id)}", place,
                                         csv.file_name(name)))
    for p in report.plots():  # a section's plots first (the summary's after its overview)
        parts[PLOT_PLACES.get(p.id, PLOT_PLACES[p.kind])].insert(0, _plot(p))
    for f in (b.figure for blocks in parts.values() for b in blocks if b.figure):
        for k, picture in enumerate(f.pictures):  # ids unique in the page
            picture.svg = Markup(plots.prefixed(picture.svg, f"{anchor}-{f.id}-{k}"))
    return Job(report.job, anchor, report.summary(), _overview(report, d, defaults),
               [(k, h, parts[k]) for k, h in SECTIONS if parts[k]], list(report.notes))


def _overview(report: Document, d: dict, defaults: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The summary's list: inputs, options and how the reader read them, how the intervals
    were made (what they resample, the seed) and what ``--html`` turned on."""
    rows = [("inputs", [str(p) for p in d["inputs"]] or ["—"]),
            ("options", ["; ".join(_options(d["options"])) or "defaults"])]
    reading = _options(d["options"].get("reader_options") or {})
    if reading:
        rows.append(("read with", ["; ".join(reading)]))
    rows.append(("intervals", [_intervals(report)]))
    if defaults:
        rows.append(("turned on by --html", [", ".join(defaults)]))
    return rows


def _options(options: Mapping) -> list[str]:
    """Options as a person reads them: ``name: value`` (words, lists as comma lists), an
    option turned on as its name, those off or unset left out; the reader's options apart."""
    out = []
    for k, v in options.items():
        if v is None or v is False or v in ([], {}) or k == "reader_options":
            continue
        name = str(k).replace("_", " ")
        out.append(name if v is True else f"{name}: {_option(v)}")
    return out


def _option(v) -> str:
    """An option's value as a person writes it: lists as comma lists."""
    if isinstance(v, (list, tuple)):
        return ", ".join(map(_option, v))
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_option(x)}" for k, x in v.items())
    return str(v)


def _intervals(report: Document) -> str:
    """How the intervals were made: level, method, resamples of what (as the headline's
    interval was made) and the seed."""
    b = report.bootstrap
    if b is None:
        return "none (no bootstrap)"
    e = report.headline()
    if e is not None and e.interval is not None:
        return f"{b.level:.0%} {bootstrap_caption(e.interval)}"
    what = {True: "clusters", False: "items", None: "clusters where the data have them"}
    return (f"{b.level:.0%} {b.interval}, {b.n_resamples} resamples of "
            f"{what[b.cluster]}, seed {b.seed}")


def _place(t: Table) -> str:
    if t.matrix:
        return "pairwise" if _coders(t) else "matrices"
    if t.id in PLACES:
        return PLACES[t.id]
    keys = {c.key for c in t.columns}
    if "value" in keys and keys & {"coefficient", "measure"}:
        return "summary"
    return "tables"


def _coders(t: Table) -> bool:
    """True for a coder × coder matrix (whose diagonal is each coder with itself)."""
    return t.columns[0].key in ("coder", "annotator")


def _number(v) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _scale_rows(t: Table) -> list[tuple[str, float, float | None, float | None]]:
    """(label, value, low, high) of the chance-corrected rows of a coefficient table: rows with
    a reading, or every row of a table of unitizing measures (uα, γ)."""
    keys = [c.key for c in t.columns]
    if "value" not in keys or ("reading" not in keys and "measure" not in keys):
        return []
    value, interval = keys.index("value"), keys.index("interval") if "interval" in keys else None
    lead = [i for i, c in enumerate(t.columns[:value]) if c.kind in ("text", "label")]
    out = []
    for row in t.rows:
        v = _number(row[value])
        if v is None or not math.isfinite(v):
            continue
        if "reading" in keys and row[keys.index("reading")] is None:
            continue
        lo, hi = (row[interval] if interval is not None and row[interval] else (None, None))
        label = " ".join(str(row[i]) for i in lead if row[i] not in (None, ""))
        out.append((label, v, lo, hi))
    return out


def _plot(p: Plot) -> Block:
    """A report's plot; a matrix under a heading, as a table's."""
    if p.kind == "continuum":
        data = p.data
        pictures = [Picture(Markup(plots.continuum(
            data["annotators"], d["units"], d["links"], d["begin"], d["end"], data["unit"],
            title=f"Document {d['document']}: each annotator's units and the best alignment")),
            f"{d['document']}: {d['note']}", f"Document {d['document']}: {d['note']}")
            for d in data["documents"]]
        return Block(figure=Figure(p.id, p.title, pictures, p.notes))
    if p.kind in ("bootstrap", "bars", "bland_altman", "scatter"):
        draw = getattr(plots, p.kind)
        svg = draw(**p.data, title=p.title)
        return Block(figure=Figure(p.id, p.title, [Picture(Markup(svg))], p.notes))
    marked = p.data.get("marked", ())
    svg = plots.heatmap(**{"diagonal": p.kind != "heatmap", **p.data}, title=p.title)
    return Block(heading=p.title, figure=Figure(
        p.id, p.title + _marked(marked) + _colours(p.data.get("thresholds", ()),
                                                   p.data.get("vmin"), p.data.get("vmax")),
        [Picture(Markup(svg))], p.notes))


def _table_block(full: Table, t: Table, tid: str, place: str, download: str) -> Block:
    """A table under its heading (with its CSV: every column, the hidden ids too), after its
    picture: a heatmap of a matrix, strips of values per document."""
    data = base64.b64encode(csv.table_csv(full).encode("utf-8")).decode("ascii")
    figure, linked = None, []
    if t.matrix:
        figure = _heatmap(t)
    elif place == "documents":
        figure, linked = _documents(t, tid)
    also = " and the lowest documents linked above" if any(k >= MAX_ROWS for k in linked) \
        else ""
    return Block(heading=t.title, anchor=tid,
                 download=(download, f"data:text/csv;charset=utf-8;base64,{data}"),
                 figure=figure,
                 # the others (matrices of many coders) are the heatmap and the CSV
                 table=_table(t, tid, linked, hidden=True) if t.terminal else None,
                 more=_more(t, f"all of them{also} are in the CSV and the JSON.")
                 if t.terminal else "", notes=t.notes)


def _more(t: Table, where: str) -> str:
    """The line under a table cut to its first :data:`MAX_ROWS` rows."""
    return f"The first {MAX_ROWS} of {len(t.rows):,} rows; {where}" if len(t.rows) > MAX_ROWS \
        else ""


def _heatmap(t: Table) -> Figure:
    names = [str(r[0]) for r in t.rows]
    cols = [c.header for c in t.columns[1:]]
    values = [[_number(v) for v in r[1:]] for r in t.rows]
    coders = _coders(t)
    title = t.title + _marked(t.marked)
    svg = plots.heatmap(names, cols, values, marked=t.marked, label=_label(t.title),
                        vmin=None if coders else 0.0, diagonal=not coders,
                        reverse=any(t.id.endswith(k) for k in LOW_IS_GOOD),
                        thresholds=t.thresholds, title=t.title)
    return Figure(t.id, title + _colours(t.thresholds, None if coders else 0.0),
                  [Picture(Markup(svg))])


def _label(title: str) -> str:
    """A matrix's title cut to what its cells hold, for its colour bar: before the first comma,
    and before a long parenthesis ("Coincidence matrix o_ck (Krippendorff 2011; …)")."""
    label = title.split(",")[0]
    return label.split(" (")[0] if len(label) > 40 else label


def _marked(names: Sequence[str]) -> str:
    """The caption's word on the names marked in a matrix (the odd one out)."""
    return (f"; marked: {', '.join(names)}, whose removal raises agreement most (leave one "
            "coder out)") if names else ""


def _colours(thresholds: Sequence[float], low: float | None = None,
             high: float | None = None) -> str:
    """The caption's word on a heatmap's colours: the values they span (``low`` and ``high``
    where the plot fixes them) and the thresholds marked."""
    span = ("over the range of the values" if low is None and high is None else
            f"from {'the least value' if low is None else f'{low:g}'} to "
            f"{'the largest value' if high is None else f'{high:g}'}")
    marks = " and ".join(f"{t:.3f}".removeprefix("0") for t in thresholds)
    return f". Colours {span}" + (f"; Krippendorff's {marks} are marked on the colour bar "
                                  "when they fall in it" if marks else "")


def _documents(t: Table, tid: str) -> tuple[Figure | None, list[int]]:
    """Per-document strips of the table's agreement measures when each row is one document,
    or one document (lemma) of a group named by the second column (a scheme: a strip per
    measure and group); the lowest of the first strip linked to their rows (whose numbers
    are returned)."""
    names = [str(r[0]) for r in t.rows]
    groups: list[str | None] = [None] * len(names)
    if len(set(names)) != len(names) and len(t.columns) > 1 and \
            t.columns[1].kind in ("text", "label"):
        groups = [str(r[1]) for r in t.rows]
    order = list(dict.fromkeys(names))
    if len(set(zip(names, groups, strict=True))) != len(names) or len(order) < 2:
        return None, []
    at = {n: i for i, n in enumerate(order)}
    measures = [(i, c) for i, c in enumerate(t.columns) if c.kind == "float"
                and _agreement_scale(r[i] for r in t.rows)]
    strips = []  # (header, value per name, row per name)
    for i, c in measures:
        for g in dict.fromkeys(groups):
            values: list[float | None] = [None] * len(order)
            rows: list[int | None] = [None] * len(order)
            for k, (n, h) in enumerate(zip(names, groups, strict=True)):
                if h == g:
                    values[at[n]], rows[at[n]] = _number(t.rows[k][i]), k
            strips.append((c.header if g is None else f"{c.header} ({g})", values, rows))
    strips = strips[:STRIP_MEASURES]
    if not strips:
        return None, []
    caption = f"{t.title}: one dot per document, box = quartiles"
    svg = plots.strips([(h, v) for h, v, _ in strips], order, title=caption)
    header, first, rows = strips[0]
    low = sorted((v, n, k) for n, v, k in zip(order, first, rows, strict=True)
                 if v is not None and math.isfinite(v))[:5]
    links = [(f"{tid}-row-{k}", n, f"{v:.3f}") for v, n, k in low]
    return Figure(f"{t.id}-strips", f"{caption}; lowest {header}: ", [Picture(Markup(svg))],
                  links=links), [k for *_, k in low]


def _agreement_scale(values) -> bool:
    """True when every value is None, nan or at most 1 and one is a number: a measure that
    can share an axis with α (γ may fall below −1), not a count such as segments per coder."""
    found = [v for v in map(_number, values) if v is not None and math.isfinite(v)]
    return bool(found) and all(v <= 1 for v in found)


def _table(t: Table, tid: str, linked: Sequence[int] = (), *, hidden: bool = False,
           sortable: bool = True) -> TableView:
    """The first :data:`MAX_ROWS` rows of a table and the ``linked`` ones (each row with an
    id the page links to), captioned by its title (``hidden``: a heading above says it)."""
    rows = []
    for k in sorted({*range(min(MAX_ROWS, len(t.rows))), *linked}):
        row = t.rows[k]
        rows.append(Row(f"{tid}-row-{k}", [_cell(v, c) for v, c in zip(row, t.columns,
                                                                         strict=True)],
                        bool(t.marked) and str(row[0]) in t.marked))
    return TableView(t.id, t.title, [(c.header, c.key) for c in t.columns], rows, hidden,
                     sortable)


def _cell(v, c: Column) -> Cell:
    num = text.right_aligned(c)
    if c.kind == "interval" and v is not None:
        return Cell(text.cell(v, c), num, _raw(v[0]), _raw(v[1]))
    value = _raw(v) if _number(v) is not None else None
    if c.kind == "context" and v is not None:
        return Cell("", num, value, context=(str(v[0] or ""), str(v[1]), str(v[2] or "")))
    return Cell(text.cell(v, c), num, value, pre=c.kind == "outline")


def _raw(v) -> str:
    """A number as JSON writes it (nan as empty)."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return ""
    return repr(float(v)) if isinstance(v, float) else str(v)
