"""Rendering of :mod:`corpusagree.diagnostics` for the CLI: one payload, two views.

:func:`diagnostics_json` computes every diagnostic once into a plain dict (the ``--json``
twin); :func:`diagnostics_tables` renders that same dict as rich tables, so the terminal and
JSON outputs of ``corpusagree table --diagnostics`` and of the coref / segments / senses jobs
always carry the same numbers. Values are read against conventional scales
(:mod:`corpusagree.interpret`), labelled as conventions.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
from rich.table import Table

from . import report
from .model.data import ReliabilityData
from .stats import diagnostics as dg
from .stats import distances as dist
from .stats import interpret
from .stats.coefficients import DegenerateWarning, compute

#: label tables (coincidence matrix, distributions, bias) are shown up to this many labels
MAX_TABLE_LABELS = 20
#: per-category rows shown when there are more categories than MAX_TABLE_LABELS
TOP_CATEGORIES = 20
#: above this many coders the worst-items table puts every label in one column
MAX_CODER_COLUMNS = 8
#: set labels in table cells show at most this many elements (JSON has them all)
MAX_SET_ELEMENTS = 8

SYMBOL = {"alpha": "α", "alpha_prime": "α′", "beta": "β", "pi": "π", "kappa": "κ",
          "multi_kappa": "multi-κ", "kappa_w": "κw", "light_kappa": "light κ", "S": "S",
          "percent_agreement": "A_o", "bias": "B"}


def _show(label):
    """A label as JSON: sets as sorted lists of strings, missing as None."""
    if isinstance(label, frozenset):
        return sorted(map(str, label))
    if isinstance(label, np.generic):
        return label.item()
    return label


def _cell(x) -> str:
    if x is None:
        return "·"
    if isinstance(x, list):
        more = len(x) - MAX_SET_ELEMENTS
        return "{" + ", ".join(x[:MAX_SET_ELEMENTS]) + (f", … +{more}" if more > 0 else "") + "}"
    if isinstance(x, float):
        return report.fmt(x)
    return str(x)


#: coefficients read against the conventional scales (chance-corrected ones)
CHANCE_CORRECTED = set(SYMBOL) - {"percent_agreement", "bias"}


def _conventions(value: float, coefficient: str = "alpha") -> dict | None:
    if coefficient not in CHANCE_CORRECTED:
        return None
    return {k: (r.as_dict() if r else None) for k, r in interpret.readings(value).items()}


def diagnostics_json(data: ReliabilityData, distance="nominal", *, coefficient: str = "alpha",
                     n_items: int = 10, reference=None) -> dict:
    """Every diagnostic of ``data`` as a JSON-ready dict (nan kept as float; ``print_json``
    turns it into null): pairwise matrix and leave-one-coder-out of ``coefficient`` under
    ``distance``, the ``n_items`` costliest items, per-category α, and for plain labels with at
    most :data:`MAX_TABLE_LABELS` labels the coincidence matrix, coder distributions and bias
    by category; the two-coder reporting set for two coders; the expert variant when a
    ``reference`` coder is named."""
    weighted = dg.check_coefficient(coefficient)
    d = dist.get(distance) if weighted else dist.get(None)

    notes: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        whole = compute(coefficient, data, d)
        coders, M, loo = dg.pairwise_and_leave_one_out(data, coefficient, d)
    out = {"coefficient": coefficient, "symbol": SYMBOL[coefficient], "distance": d.name,
           "value": whole.value, "conventions": _conventions(whole.value, coefficient),
           "pairwise": {"coders": coders, "matrix": M.tolist()},
           "leave_one_out": _loo(loo, coefficient, notes)}
    out["worst_items"] = [{**r, "labels": {str(c): _show(v) for c, v in r["labels"].items()}}
                          for r in dg.worst_items(data, d, n_items)]
    out["per_category"] = _per_category(data)
    plain = not data.is_set and data.n_labels <= MAX_TABLE_LABELS
    if plain:
        labels, o = dg.coincidence(data)
        out["coincidence"] = {"labels": [_show(x) for x in labels], "matrix": o.tolist()}
        dist_ = dg.coder_distributions(data)
        out["coder_distributions"] = {"coders": dist_["coders"],
                                      "labels": [_show(x) for x in labels],
                                      "counts": dist_["counts"].tolist()}
        b = dg.bias_by_category(data)
        out["bias_by_category"] = {**b, "rows": [{**r, "category": _show(r["category"])}
                                                 for r in b["rows"]]}
    else:
        out["coincidence"] = out["coder_distributions"] = out["bias_by_category"] = None
        notes.append(f"coincidence matrix, coder distributions and bias by category are shown "
                     f"for plain labels with at most {MAX_TABLE_LABELS} labels "
                     f"(here {data.n_labels}{' sets' if data.is_set else ''})")
    out["two_coders"] = _two(data) if data.n_coders == 2 and not data.is_set else None
    out["expert"] = dg.expert(data, reference, d) if reference is not None else None
    out["notes"] = notes
    return out


def _loo(rows: list[dict] | None, coefficient: str, notes: list[str]) -> dict | None:
    if rows is None:
        notes.append("leave-one-coder-out needs at least three coders (for κ and κw, exactly "
                     "three)")
        return None
    for r in rows:
        r["conventions"] = _conventions(r["value"], coefficient)
    gains = [r for r in rows if not math.isnan(r["change"]) and r["change"] > 0]
    best = max(gains, key=lambda r: r["change"]) if gains else None
    return {"rows": rows, "raises_most": None if best is None else best["coder"]}


def _per_category(data) -> dict:
    by = "element" if data.is_set else "label"
    many = data.is_set or data.n_labels > MAX_TABLE_LABELS
    st = dg.category_stats(data, by)
    rows = dg.category_rows(st, TOP_CATEGORIES if many else None)
    total = int((st["values"] > 0).sum())
    return {"by": by, "shown": len(rows), "total": total, "order": "most disagreeing values"
            if many else "label", "rows": [{**r, "category": _show(r["category"]),
                                            "conventions": _conventions(r["alpha"])}
                                           for r in rows]}


def _two(data) -> dict | None:
    try:
        r = dg.two_coder_report(data)
    except ValueError:
        return None
    return {**r, "labels": [_show(x) for x in r["labels"]], "table": r["table"].tolist(),
            "per_category": [{**p, "category": _show(p["category"])}
                             for p in r["per_category"]]}


# ---- tables ---------------------------------------------------------------------------------
def _table(title: str, header: Sequence[str], rows, caption: str | None = None) -> Table:
    t = report.rows_table(title, header, [[_cell(x) for x in row] for row in rows])
    if caption:
        t.caption, t.caption_justify = caption, "left"
    return t


def _short(conv: dict | None) -> str:
    r = (conv or {}).get("krippendorff")
    return "—" if r is None else interpret.short(r["value"])


def diagnostics_tables(data: ReliabilityData, distance="nominal", *,
                       coefficient: str = "alpha", n_items: int = 10, reference=None,
                       payload: dict | None = None, group_label: str = "document"
                       ) -> list[Table]:
    """The tables of :func:`diagnostics_json` (pass its ``payload`` to avoid recomputing)."""
    p = payload or diagnostics_json(data, distance, coefficient=coefficient, n_items=n_items,
                                    reference=reference)
    sym, dn = p["symbol"], p["distance"]
    conv = "K = Krippendorff's .667/.800, L&K = Landis & Koch (1977): conventions, not verdicts"
    out = [report.matrix_table(f"Pairwise {sym} ({dn}), coder × coder", p["pairwise"]["coders"],
                               p["pairwise"]["matrix"])]
    loo = p["leave_one_out"]
    if loo:
        top = loo["raises_most"]
        cap = (f"Without {top}, {sym} rises most. " if top is not None else
               f"No coder's removal raises {sym}. ") + conv
        out.append(_table(f"Leave one coder out: {sym} ({dn}) = {report.fmt(p['value'])} with "
                          "all coders", ["coder", f"{sym} without", "change", "items",
                                         "convention"],
                          [[r["coder"], r["value"], r["change"], r["items"],
                            _short(r["conventions"])] for r in loo["rows"]], cap))
    out.append(_worst_table(data, p, group_label))
    pc = p["per_category"]
    what = "element e (set contains e)" if pc["by"] == "element" else "category k vs the rest"
    shown = (f"{pc['total']} categories" if pc["order"] == "label" else
             f"most disagreeing values first, {pc['shown']} of {pc['total']}")
    out.append(_table(f"Category-specific α (nominal), per {what}: {shown}",
                      ["category", "α", "values", "disagreeing", "convention"],
                      [[r["category"], r["alpha"], int(r["values"]), r["disagreeing"],
                        _short(r["conventions"])] for r in pc["rows"]], conv))
    if p["coincidence"]:
        names = [_cell(x) for x in p["coincidence"]["labels"]]
        out.append(report.matrix_table("Coincidence matrix o_ck (Krippendorff; rows sum to "
                                       "pairable values)", names, p["coincidence"]["matrix"]))
    if p["bias_by_category"]:
        b = p["bias_by_category"]
        note = "" if math.isclose(b["B"], b["B_engine"], abs_tol=1e-12) else \
            (f"; with missing judgements the engine's B = De^β − De^α′ is "
             f"{report.fmt(b['B_engine'])}")
        out.append(_table(f"Label distribution by coder P̂(k|c) and bias by category: "
                          f"B = Σ σ²_k/(c − 1) = {report.fmt(b['B'])}",
                          ["category", "P̂(k)", *map(str, b["coders"]), "B_k", "share"],
                          [[r["category"], r["P"], *r["by_coder"].values(), r["B"], r["share"]]
                           for r in b["rows"]],
                          "A&P appendix A: B_k = variance of P̂(k|c) over coders / (c − 1)"
                          + note))
    if p["two_coders"]:
        out.append(_two_table(p["two_coders"]))
    if p["expert"]:
        e = p["expert"]
        rows = [[r["coder"], r["items"], r["observed"], r["expected"], r["value"]]
                for r in e["coders"]]
        q = e["pooled"]
        rows.append(["pooled", q["items"], q["observed"], q["expected"], q["value"]])
        out.append(_table(f"Each coder against reference {e['reference']} ({e['distance']}; "
                          "Carletta 1996 §4)", ["coder", "items", "Do", "De", "value"], rows))
    if p["notes"]:
        out.append(_table("Notes", ["note"], [[n] for n in p["notes"]]))
    return out


def _worst_table(data: ReliabilityData, p: dict, group_label: str) -> Table:
    items = p["worst_items"]
    coders = [str(c) for c in data.coders]
    wide = len(coders) <= MAX_CODER_COLUMNS
    grouped = data.groups is not None
    header = ["item", *([group_label] if grouped else []), "disagreement", "share of Do",
              *(coders if wide else ["labels"])]
    rows = []
    for r in items:
        labels = [r["labels"][c] for c in coders]
        rows.append([r["item"], *([r["group"]] if grouped else []), r["disagreement"],
                     f"{100 * r['share']:.3g} %", *(labels if wide else
                                   ["; ".join(f"{c}={_cell(x)}" for c, x in
                                              zip(coders, labels, strict=True))])])
    return _table(f"Items that cost most ({p['distance']}): disagreement = mean pairwise "
                  "distance, share = part of α's Do", header, rows)


def _two_table(t: dict) -> Table:
    a, b = t["coders"]
    rows = [["κ (Cohen)", t["kappa_cohen"]], ["κ (Siegel & Castellan) = π", t["kappa_sc"]],
            ["2A_o − 1 (PABAK)", t["pabak"]], ["A_o", t["A_o"]]]
    if t["prevalence"] is not None:
        rows += [["prevalence index (Byrt et al. 1993)", t["prevalence"]],
                 ["bias index (Byrt et al. 1993)", t["bias_index"]]]
    else:
        rows += [[f"prevalence / bias index, {_cell(r['category'])} vs rest",
                  f"{report.fmt(r['prevalence'])} / {report.fmt(r['bias_index'])}"]
                 for r in t["per_category"]]
    return _table(f"Two-coder reporting set (Di Eugenio & Glass 2004): {a} × {b}, "
                  f"{t['items']} items coded by both", ["measure", "value"], rows)
