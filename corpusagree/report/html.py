"""Reports as one self-contained HTML page: numbers, intervals, pictures and disputed items.

The page is drawn from what the reports hold (``tables()``, ``plots()``, ``to_dict()``),
never from a second computation. It opens offline: CSS, the SVG plots (:mod:`.plots`) and a
short script that sorts tables are inline, a Content-Security-Policy forbids any request, every
table can be downloaded as CSV from a data URL, and the full JSON report is embedded. Each job
has its sections in this order: summary (coefficients on the conventional scales), pairwise
agreement (coder × coder heatmaps, the odd one out marked), coincidence and confusion, by
document, bootstrap, disputed items (with their text), spans (a continuum and its alignment),
other tables.
"""

from __future__ import annotations

import base64
import html
import json as jsonlib
import math
import re
from collections.abc import Sequence

from .._version import __version__
from ..analyses.base import Column, Plot, Report, Table, bootstrap_caption
from ..stats import interpret
from . import csv, plots, text
from .json import clean

#: (id, heading) of a job's sections, in page order
SECTIONS = (("summary", "Summary"), ("pairwise", "Pairwise agreement"),
            ("matrices", "Coincidence and confusion"), ("documents", "By document"),
            ("bootstrap", "Bootstrap"), ("disputed", "Disputed items"), ("spans", "Spans"),
            ("tables", "Other tables"))
#: tables by id: where they go when their shape does not say
PLACES = {"leave_one_out": "pairwise", "coder_rates": "pairwise",
          "per_category": "matrices", "bias_by_category": "matrices", "confused": "matrices",
          "by_document": "documents", "scores_by_document": "documents",
          "by_group": "documents", "by_lemma": "documents", "worst_items": "disputed",
          "disputed": "disputed", "costliest": "disputed", "costliest_boundaries": "disputed",
          "costliest_units": "disputed", "pairs": "spans", "models": "summary",
          "reliability": "summary", "alt_test": "summary", "alt_test_humans": "summary",
          "confusion": "matrices"}
#: the section of each kind of plot
PLOT_PLACES = {"bootstrap": "bootstrap", "continuum": "spans", "heatmap": "pairwise",
               "confusion": "matrices", "bars": "summary"}
#: matrices where a low value is good agreement
LOW_IS_GOOD = ("pk", "window_diff")
#: per-document strips show at most this many measures
STRIP_MEASURES = 8
#: rows of a table written into the page (all of them are in its CSV and the JSON)
MAX_ROWS = 200

CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1d}
header,main{max-width:1100px;margin:0 auto;padding:0 24px}
header{padding-top:18px}h1{font-size:1.5em;margin:.2em 0}
nav ol{columns:2;font-size:.9em}section.job{border-top:3px solid #1f4e79;margin-top:2em}
h2{font-size:1.25em;margin:.6em 0 .2em}h3{font-size:1.05em;margin:1.2em 0 .3em;color:#1f4e79}
h4{font-size:.95em;margin:1em 0 .2em}dl{display:grid;grid-template-columns:max-content 1fr;
gap:2px 12px;font-size:.9em}dt{color:#555}dd{margin:0;overflow-wrap:anywhere}
.table-wrap{overflow-x:auto}table.data{border-collapse:collapse;font-size:.85em;margin:.3em 0}
table.data th,table.data td{border-bottom:1px solid #ddd;padding:2px 8px;text-align:left;
vertical-align:top;white-space:pre-line}table.data th{background:#f2f5f8;cursor:pointer}
table.data td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.data tr.marked td{background:#fbe3e0}tr:target td{background:#fff3b0}
figure.plot{margin:.6em 0}figure.plot svg{max-width:100%;height:auto}
figcaption,.note,.caption{font-size:.82em;color:#555}a.csv{font-size:.8em;margin-left:.6em}
mark{background:#ffe28a;padding:0 2px}.summary{font-weight:600}
@media print{nav,a.csv{display:none}section.job{break-before:page}
table.data th{cursor:auto}}
"""

#: sorts a table by the clicked header (numbers by data-value, text otherwise)
SCRIPT = """
document.querySelectorAll("table.data th").forEach(function(th){
th.addEventListener("click",function(){var t=th.closest("table"),b=t.tBodies[0],
i=Array.prototype.indexOf.call(th.parentNode.children,th),up=th.dataset.sort!=="asc";
t.querySelectorAll("th").forEach(function(h){delete h.dataset.sort});
th.dataset.sort=up?"asc":"desc";var rows=Array.prototype.slice.call(b.rows);
function key(r){var c=r.cells[i],v=c.dataset.value;var n=parseFloat(v);
return v!==undefined&&v!==""&&!isNaN(n)?n:c.textContent}
rows.sort(function(a,c){var x=key(a),y=key(c);if(typeof x!==typeof y){x=String(x);y=String(y)}
return (x<y?-1:x>y?1:0)*(up?1:-1)});rows.forEach(function(r){b.appendChild(r)})})});
"""


def _e(s) -> str:
    return html.escape(str(s), quote=True)


def _slug(s: str) -> str:
    return re.sub(r"[^\w-]+", "-", str(s)).strip("-") or "x"


def dumps(reports: Sequence[Report], title: str | None = None, defaults: Sequence[str] = ()
          ) -> str:
    """The page of ``reports`` (see the module docstring); ``defaults``: the options that
    ``--html`` turned on (the summary of each job says so)."""
    plots.require()
    title = title or "Agreement report: " + ", ".join(dict.fromkeys(r.job for r in reports))
    dicts = [r.to_dict() for r in reports]
    jobs = [_job(r, d, f"job-{n + 1}", defaults)
            for n, (r, d) in enumerate(zip(reports, dicts, strict=True))]
    toc = "".join(f'<li><a href="#job-{n + 1}">{_e(r.job)}: {_e(_short(r.summary()))}</a></li>'
                  for n, r in enumerate(reports))
    payload = jsonlib.dumps(clean(dicts), ensure_ascii=False)
    payload = payload.replace("</", "<\\/")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>"
        f"<header><h1>{_e(title)}</h1><p class=\"caption\">corpusagree {_e(__version__)}; "
        "readings on conventional scales are conventions, not verdicts. The full JSON report "
        "is embedded in this page (script #corpusagree-json).</p>"
        f"<nav><ol>{toc}</ol></nav></header><main>{''.join(jobs)}</main>"
        f"<script type=\"application/json\" id=\"corpusagree-json\">{payload}</script>"
        f"<script>{SCRIPT}</script></body></html>\n")


def fragment(report: Report) -> str:
    """The report as an HTML fragment for a notebook (``Report._repr_html_``): the summary,
    every table people read (the first :data:`MAX_ROWS` rows, a caption each) and the notes;
    no plots, so it needs no matplotlib."""
    anchor = f"corpusagree-{_slug(report.job)}-{id(report):x}"
    out = [f'<div class="corpusagree-report" id="{anchor}">',
           f"<p><strong>{_e(report.job)}</strong>: {_e(report.summary())}</p>"]
    for t in report.tables.values():
        if not t.terminal:
            continue
        t = t.shown()
        out.append(_table(t, f"{anchor}-{_slug(t.id)}", caption=t.title))
        if len(t.rows) > MAX_ROWS:
            out.append(f"<p><em>The first {MAX_ROWS} of {len(t.rows):,} rows; "
                       f"report.to_frame({t.id!r}) has them all.</em></p>")
        out += [f"<p><small>{_e(n)}</small></p>" for n in t.notes]
    if report.notes:
        out.append("<ul>" + "".join(f"<li>{_e(n)}</li>" for n in report.notes) + "</ul>")
    out.append("</div>")
    return "".join(out)


def _short(s: str, n: int = 90) -> str:
    return s if len(s) <= n else s[:n - 1] + "…"


def _job(report: Report, d: dict, anchor: str, defaults: Sequence[str]) -> str:
    parts: dict[str, list[str]] = {k: [] for k, _ in SECTIONS}
    parts["summary"].append(_overview(report, d, defaults))
    tables = [t.shown() for t in report.tables.values()]
    summary = [t for t in tables if _place(t) == "summary"]
    scale_rows = [(f"{t.id.replace('_', ' ')}: {label}" if len(summary) > 1 else label, *rest)
                  for t in summary for label, *rest in _scale_rows(t)]
    if scale_rows:
        parts["summary"].append(_figure(
            "scale", "Coefficients on the conventional scales", plots.scale(scale_rows),
            [interpret.SHORT_LEGEND, interpret.CAVEAT]))
    for t in tables:
        place = _place(t)
        parts[place].append(_table_block(report, t, anchor, place))
    for p in report.plots():  # a section's plots first (the summary's after its overview)
        place = PLOT_PLACES[p.kind]
        parts[place].insert(1 if place == "summary" else 0, _plot(p))
    body = "".join(
        f'<section class="part" data-part="{k}" id="{anchor}-{k}"><h3>{_e(h)}</h3>'
        + "".join(parts[k]) + "</section>" for k, h in SECTIONS if parts[k])
    notes = "".join(f"<li>{_e(n)}</li>" for n in report.notes)
    notes = f'<h3>Notes</h3><ul class="note">{notes}</ul>' if notes else ""
    return (f'<section class="job" id="{anchor}" data-job="{_e(report.job)}">'
            f"<h2>{_e(report.job)}</h2>{body}{notes}</section>")


def _overview(report: Report, d: dict, defaults: Sequence[str]) -> str:
    """The summary line, inputs, options, how the intervals were made (what they resample,
    the seed) and what ``--html`` turned on."""
    rows = [("inputs", "<br>".join(_e(p) for p in d["inputs"]) or "—")]
    opts = "; ".join(f"{k} = {_option(v)}" for k, v in d["options"].items()
                     if v not in (None, False))
    rows.append(("options", _e(opts) or "defaults"))
    rows.append(("intervals", _e(_intervals(report))))
    if defaults:
        rows.append(("turned on by --html", _e(", ".join(defaults))))
    dl = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return f'<p class="summary">{_e(report.summary())}</p><dl>{dl}</dl>'


def _option(v) -> str:
    """An option's value as a person writes it: lists as comma lists."""
    if isinstance(v, (list, tuple)):
        return ", ".join(map(_option, v))
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_option(x)}" for k, x in v.items())
    return str(v)


def _intervals(report: Report) -> str:
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
        return "pairwise" if t.columns[0].key in ("coder", "annotator") else "matrices"
    if t.id in PLACES:
        return PLACES[t.id]
    keys = {c.key for c in t.columns}
    if "value" in keys and keys & {"coefficient", "measure"}:
        return "summary"
    return "tables"


def _number(v) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _scale_rows(t: Table) -> list[tuple[str, float, float | None, float | None]]:
    """(label, value, low, high) of the chance-corrected rows of a coefficient table: rows with
    a reading, or every row of a table of unitizing measures (uα, γ)."""
    keys = [c.key for c in t.columns]
    if "reading" not in keys and "measure" not in keys:
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


def _figure(fid: str, caption: str, svg: str, notes: Sequence[str] = (), extra: str = ""
            ) -> str:
    """A plot with its caption (escaped), notes and ``extra`` caption HTML."""
    notes_html = "".join(f"<br>{_e(n)}" for n in notes)
    return (f'<figure class="plot" data-figure="{_e(fid)}">{svg}'
            f"<figcaption>{_e(caption)}{extra}{notes_html}</figcaption></figure>")


def _plot(p: Plot) -> str:
    """A report's plot; a matrix under a heading, as a table's."""
    draw = {"bootstrap": plots.bootstrap, "continuum": plots.continuum,
            "heatmap": plots.heatmap, "confusion": plots.heatmap, "bars": plots.bars}[p.kind]
    matrix = p.kind in ("heatmap", "confusion")
    return ((f"<h4>{_e(p.title)}</h4>" if matrix else "")
            + _figure(p.id, p.title + _marked(p.data.get("marked", ())), draw(**p.data),
                      p.notes))


def _table_block(report: Report, t: Table, anchor: str, place: str) -> str:
    tid = f"{anchor}-{_slug(t.id)}"
    out = [f"<h4 id=\"{tid}\">{_e(t.title)}{_csv_link(report, t, tid)}</h4>"]
    linked: list[int] = []
    if t.matrix:
        out.append(_heatmap(t))
    elif place == "documents":
        figure, linked = _documents(t, tid)
        out.append(figure)
    if t.terminal:  # the others (matrices of many coders) are the heatmap and the CSV
        out.append(_table(t, tid, linked))
    if len(t.rows) > MAX_ROWS and t.terminal:
        also = " and the lowest documents linked above" if any(
            k >= MAX_ROWS for k in linked) else ""
        out.append(f'<p class="note">The first {MAX_ROWS} of {len(t.rows):,} rows{also}; all '
                   "of them are in the CSV and the JSON.</p>")
    out += [f'<p class="note">{_e(n)}</p>' for n in t.notes]
    return "".join(out)


def _csv_link(report: Report, t: Table, tid: str) -> str:
    """The table's CSV as a download, with every column (the hidden ids too)."""
    data = base64.b64encode(csv.table_csv(report.tables[t.id]).encode("utf-8")).decode("ascii")
    return (f' <a class="csv" download="{_e(report.job)}-{_slug(t.id)}.csv" '
            f'href="data:text/csv;charset=utf-8;base64,{data}">CSV</a>')


def _heatmap(t: Table) -> str:
    names = [str(r[0]) for r in t.rows]
    cols = [c.header for c in t.columns[1:]]
    values = [[_number(v) for v in r[1:]] for r in t.rows]
    reverse = any(t.id.endswith(k) for k in LOW_IS_GOOD)
    bounded = t.columns[0].key in ("coder", "annotator")
    svg = plots.heatmap(names, cols, values, marked=t.marked, label=t.title.split(",")[0],
                        vmin=None if not bounded else _low(values), vmax=None if not bounded
                        else 1.0, reverse=reverse)
    return _figure(t.id, t.title + _marked(t.marked), svg)


def _marked(names: Sequence[str]) -> str:
    """The caption's word on the names marked in a matrix (the odd one out)."""
    return (f"; marked: {', '.join(names)}, whose removal raises agreement most (leave one "
            "coder out)") if names else ""


def _low(values: list[list[float | None]]) -> float:
    found = [v for r in values for v in r if v is not None and math.isfinite(v)]
    return min(0.0, min(found)) if found else 0.0


def _documents(t: Table, tid: str) -> tuple[str, list[int]]:
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
        return "", []
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
        return "", []
    svg = plots.strips([(h, v) for h, v, _ in strips], order)
    header, first, rows = strips[0]
    low = sorted((v, n, k) for n, v, k in zip(order, first, rows, strict=True)
                 if v is not None and math.isfinite(v))[:5]
    links = ", ".join(f'<a href="#{tid}-row-{k}">{_e(n)}</a> ({v:.3f})' for v, n, k in low)
    return _figure(f"{t.id}-strips", f"{t.title}: one dot per document, box = quartiles; "
                   f"lowest {header}: ", svg, extra=links), [k for *_, k in low]


def _agreement_scale(values) -> bool:
    """True when every value is None, nan or at most 1 and one is a number: a measure that
    can share an axis with α (γ may fall below −1), not a count such as segments per coder."""
    found = [v for v in map(_number, values) if v is not None and math.isfinite(v)]
    return bool(found) and all(v <= 1 for v in found)


def _table(t: Table, tid: str, linked: Sequence[int] = (), caption: str | None = None
           ) -> str:
    """The first :data:`MAX_ROWS` rows of a table and the ``linked`` ones (each row with an
    id the page links to), under ``caption`` when given."""
    head = "".join(f"<th>{_e(c.header)}</th>" for c in t.columns)
    rows = []
    for k in sorted({*range(min(MAX_ROWS, len(t.rows))), *linked}):
        row = t.rows[k]
        cls = ' class="marked"' if t.marked and str(row[0]) in t.marked else ""
        cells = "".join(_cell(v, c) for v, c in zip(row, t.columns, strict=True))
        rows.append(f'<tr id="{tid}-row-{k}"{cls}>{cells}</tr>')
    cap = "" if caption is None else f"<caption>{_e(caption)}</caption>"
    return (f'<div class="table-wrap"><table class="data" data-table="{_e(t.id)}">{cap}'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")


def _cell(v, c: Column) -> str:
    num = text.right_aligned(c)
    value = ""
    if c.kind == "interval" and v is not None:
        value = f' data-value="{_raw(v[0])}" data-high="{_raw(v[1])}"'
    elif _number(v) is not None:
        value = f' data-value="{_raw(v)}"'
    if c.kind == "context" and v is not None:
        shown = " ".join(x for x in (_e(v[0]), f"<mark>{_e(v[1])}</mark>", _e(v[2])) if x)
    else:
        shown = _e(text.cell(v, c))
    return f'<td{" class=num" if num else ""}{value}>{shown}</td>'


def _raw(v) -> str:
    """A number as JSON writes it (nan as empty)."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return ""
    return repr(float(v)) if isinstance(v, float) else str(v)


