"""Why agreement is low: every diagnostic of one reliability-data set as one typed report part.

Computed once by :func:`diagnose` (with :mod:`corpusagree.stats.diagnostics`), written as JSON
by ``to_dict`` and as tables by ``tables``, so the terminal, CSV, Markdown and JSON outputs of
every job carry the same numbers. Values are read against conventional scales
(:mod:`corpusagree.stats.interpret`), labelled as conventions.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from ..model.data import ReliabilityData
from ..model.records import CoderMatrix, plain
from ..report.tables import THRESHOLDS, Column, Table, WithTables
from ..stats import diagnostics as dg
from ..stats import distances as dist
from ..stats import interpret
from ..stats import spec as coefficient_table
from ..stats.coefficients import DegenerateWarning, compute

__all__ = ["CONVENTIONS", "MAX_CODER_COLUMNS", "MAX_TABLE_LABELS", "TOP_CATEGORIES", "Diagnostics",
           "diagnose"]

#: label tables (coincidence matrix, distributions, bias) are given up to this many labels
MAX_TABLE_LABELS = 20
#: per-category rows given when there are more categories than MAX_TABLE_LABELS
TOP_CATEGORIES = 20
#: above this many coders the costliest-items table puts every label in one column
MAX_CODER_COLUMNS = 8
CONVENTIONS = interpret.SHORT_LEGEND


def _show(label):
    """A label as JSON: sets as sorted lists of strings, missing as None."""
    if isinstance(label, frozenset):
        return sorted(map(str, label))
    if isinstance(label, np.generic):
        return label.item()
    return label


def _conventions(value: float, coefficient: str = "alpha") -> dict | None:
    if not coefficient_table.get(coefficient).chance_corrected:
        return None
    return {k: (r.as_dict() if r else None) for k, r in interpret.readings(value).items()}


def _short(value: float, coefficient: str = "alpha") -> str | None:
    if not coefficient_table.get(coefficient).chance_corrected or value != value:
        return None
    return interpret.short(value)


@dataclass(repr=False)
class Diagnostics(WithTables):
    """Why agreement is low: every diagnostic of one coefficient under one distance.

    Attributes
    ----------
    coefficient, symbol, distance : str
        The coefficient diagnosed (α unless a job says otherwise).
    value : float
        Its value with every coder.
    coders : list
    pairwise : CoderMatrix
        The coefficient for every pair of coders.
    leave_one_out : list of dict or None
        The coefficient without each coder (three coders or more; Carletta 1996, §4).
    worst_items : list of dict
        The items that cost most in observed disagreement, with every coder's label.
    per_category : dict
        Category-specific α (each category against the rest).
    coincidence : dict or None
        The coincidence matrix (plain labels).
    coder_distributions : dict or None
        Each coder's label distribution.
    bias_by_category : dict or None
        Where the coders' distributions differ.
    two_coders : dict or None
        Di Eugenio & Glass's (2004) reporting set for two coders: κ Cohen, κ Siegel & Castellan,
        PABAK, prevalence and bias indices.
    expert : dict or None
        Each coder against a reference coder (Carletta's expert variant).
    group_label : str
        What the groups are (``document``, ``lemma``).
    grouped : bool
        Whether the data have groups.
    notes : list of str
    value_disagreement : dict or None
        Set labels: the values behind mvα's observed disagreement, the largest parts first.

    Examples
    --------
    >>> from corpusagree.analyses import table
    >>> d = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"),
    ...                   diagnostics=3).diagnostics
    >>> d.raises_most, d.pairwise.shape, list(d.tables)[:3]
    ('dan', (4, 4), ['pairwise', 'leave_one_out', 'worst_items'])
    """

    coefficient: str
    symbol: str
    distance: str
    value: float
    coders: list
    pairwise: CoderMatrix
    leave_one_out: list[dict] | None
    worst_items: list[dict]
    per_category: dict
    coincidence: dict | None
    coder_distributions: dict | None
    bias_by_category: dict | None
    two_coders: dict | None
    expert: dict | None
    group_label: str = "document"
    grouped: bool = False
    notes: list[str] = field(default_factory=list)
    #: set labels: the values behind mvα's observed disagreement (the largest parts first)
    value_disagreement: dict | None = None

    def __repr__(self) -> str:
        return (f"Diagnostics({self.symbol} ({self.distance}) = {self.value:.4g}, "
                f"{len(self.coders)} coders, raises most: {self.raises_most})")

    @property
    def raises_most(self):
        """The coder whose removal raises the coefficient most (Krippendorff's odd one out),
        or None."""
        rows = [r for r in self.leave_one_out or [] if not math.isnan(r["change"])
                and r["change"] > 0]
        return max(rows, key=lambda r: r["change"])["coder"] if rows else None

    def to_dict(self) -> dict:
        """The diagnostics as plain data (the ``diagnostics`` part of a report's JSON)."""
        loo = None if self.leave_one_out is None else {
            "rows": [{**r, "conventions": _conventions(r["value"], self.coefficient)}
                     for r in self.leave_one_out], "raises_most": self.raises_most}
        return plain({
            "coefficient": self.coefficient, "symbol": self.symbol, "distance": self.distance,
            "value": self.value, "conventions": _conventions(self.value, self.coefficient),
            "pairwise": self.pairwise,
            "leave_one_out": loo, "worst_items": self.worst_items,
            "per_category": {**self.per_category, "rows": [
                {**r, "conventions": _conventions(r["alpha"])}
                for r in self.per_category["rows"]]},
            "coincidence": self.coincidence, "coder_distributions": self.coder_distributions,
            "bias_by_category": self.bias_by_category, "two_coders": self.two_coders,
            "expert": self.expert, "value_disagreement": self.value_disagreement,
            "notes": self.notes})

    def _tables(self) -> list[Table]:
        sym, dn = self.symbol, self.distance
        coders = [str(c) for c in self.coders]
        out = [Table("pairwise", f"Pairwise {sym} ({dn}), coder × coder",
                     [Column("coder", "")] + [Column(c, c, "float", 3) for c in coders],
                     [[c, *row] for c, row in zip(coders, self.pairwise.tolist(), strict=True)],
                     matrix=True, marked=(str(self.raises_most),) if self.raises_most else (),
                     thresholds=THRESHOLDS if coefficient_table.get(
                         self.coefficient).chance_corrected else ())]
        if self.leave_one_out is not None:
            top = self.raises_most
            out.append(Table(
                "leave_one_out", f"Leave one coder out: {sym} ({dn}) = {self.value:.4f} with all "
                "coders", [Column("coder", "coder"), Column("value", f"{sym} without", "float"),
                           Column("change", "change", "float"), Column("items", "items", "int"),
                           Column("reading", "K · L&K", optional=True)],
                [[r["coder"], r["value"], r["change"], r["items"],
                  _short(r["value"], self.coefficient)] for r in self.leave_one_out],
                [(f"Without {top}, {sym} rises most." if top is not None else
                  f"No coder's removal raises {sym}.") + " " + CONVENTIONS]))
        out.append(self._worst_table(coders))
        pc = self.per_category
        what = "element e (set contains e)" if pc["by"] == "element" else "category k vs the rest"
        shown = (f"{pc['total']} categories" if pc["order"] == "label" else
                 f"most disagreeing values first, {pc['shown']} of {pc['total']}")
        out.append(Table("per_category", f"Category-specific α (nominal), per {what}: {shown}",
                         [Column("category", "category", "label"),
                          Column("alpha", "α", "float"), Column("values", "values", "int"),
                          Column("disagreeing", "disagreeing", "float"),
                          Column("reading", "K · L&K", optional=True)],
                         [[r["category"], r["alpha"], int(r["values"]), r["disagreeing"],
                           _short(r["alpha"])] for r in pc["rows"]], [CONVENTIONS]))
        if self.value_disagreement:
            out.append(self._values_table())
        if self.coincidence:
            names = [str(x) for x in self.coincidence["labels"]]
            out.append(Table("coincidence", "Coincidence matrix o_ck (Krippendorff 2011; rows "
                             "sum to pairable values)",
                             [Column("label", "")] + [Column(n, n, "float", 3) for n in names],
                             [[n, *row] for n, row in zip(names, self.coincidence["matrix"],
                                                          strict=True)], matrix=True))
        if self.bias_by_category:
            b = self.bias_by_category
            note = "" if math.isclose(b["B"], b["B_engine"], abs_tol=1e-12) else \
                (f"; with missing judgements the coefficient's B = De^β − De^α′ is "
                 f"{b['B_engine']:.4f}")
            bc = [str(c) for c in b["coders"]]
            out.append(Table(
                "bias_by_category", "Label distribution by coder P̂(k|c) and bias by category: "
                f"B = Σ σ²_k/(c − 1) = {b['B']:.4f}",
                [Column("category", "category", "label"), Column("P", "P̂(k)", "float")]
                + [Column(c, c, "float") for c in bc]
                + [Column("B", "B_k", "float"), Column("share", "share", "float")],
                [[r["category"], r["P"], *r["by_coder"].values(), r["B"], r["share"]]
                 for r in b["rows"]],
                ["Artstein & Poesio 2005, appendix A: B_k = variance of P̂(k|c) over coders / "
                 "(c − 1)" + note]))
        if self.two_coders:
            out.append(self._two_table())
        if self.expert:
            e = self.expert
            rows = [[r["coder"], r["items"], r["observed"], r["expected"], r["value"]]
                    for r in e["coders"]]
            q = e["pooled"]
            rows.append(["pooled", q["items"], q["observed"], q["expected"], q["value"]])
            out.append(Table("expert", f"Each coder against reference {e['reference']} "
                             f"({e['distance']}; Carletta 1996, §4)",
                             [Column("coder", "coder"), Column("items", "items", "int"),
                              Column("observed", "Do", "float"),
                              Column("expected", "De", "float"),
                              Column("value", "value", "float")], rows))
        return out

    def _worst_table(self, coders: list[str]) -> Table:
        wide = len(coders) <= MAX_CODER_COLUMNS
        cols = [Column("item", "item")]
        if self.grouped:
            cols.append(Column("group", self.group_label))
        cols += [Column("disagreement", "disagreement", "float"),
                 Column("share", "share of Do", "share")]
        cols += [Column(c, c, "label") for c in coders] if wide else [Column("labels", "labels")]
        rows = []
        for r in self.worst_items:
            labels = [r["labels"][c] for c in coders]
            rows.append([str(r["item"]), *([r["group"]] if self.grouped else []),
                         r["disagreement"], r["share"],
                         *(labels if wide else ["; ".join(
                             f"{c}={_label_text(x)}" for c, x in zip(coders, labels,
                                                                     strict=True))])])
        return Table("worst_items", f"Items that cost most ({self.distance}): disagreement = "
                     "mean pairwise distance, share = part of α's Do", cols, rows)

    def _values_table(self) -> Table:
        v = self.value_disagreement
        return Table("value_disagreement", "Values behind mvα's observed disagreement "
                     f"(Do = {v['observed']:.4f}), largest parts first: {v['shown']} of "
                     f"{v['total']} values",
                     [Column("value", "value", "label"),
                      Column("judgements", "judgements", "int"),
                      Column("contribution", "part of Do", "float"),
                      Column("share", "share of Do", "share"),
                      Column("alpha", "α (holds it)", "float")],
                     [[r["value"], r["judgements"], r["contribution"], r["share"], r["alpha"]]
                      for r in v["rows"]],
                     ["Each value in the symmetric difference of two sets carries "
                      "1/(|C| + |K|) of their δ = 1 − 2|C∩K|/(|C| + |K|) (Krippendorff & Craggs "
                      "2016), so the parts sum to Do; α (holds it): Krippendorff's "
                      "category-specific α of \"the set holds the value\""])

    def _two_table(self) -> Table:
        t = self.two_coders
        a, b = t["coders"]
        rows = [["κ (Cohen)", t["kappa_cohen"]], ["κ (Siegel & Castellan) = π", t["kappa_sc"]],
                ["2A_o − 1 (PABAK)", t["pabak"]], ["A_o", t["A_o"]]]
        if t["prevalence"] is not None:
            rows += [["prevalence index (Byrt et al. 1993)", t["prevalence"]],
                     ["bias index (Byrt et al. 1993)", t["bias_index"]]]
        else:
            rows += [[f"prevalence index, {_label_text(r['category'])} vs rest", r["prevalence"]]
                     for r in t["per_category"]]
            rows += [[f"bias index, {_label_text(r['category'])} vs rest", r["bias_index"]]
                     for r in t["per_category"]]
        return Table("two_coders", f"Two-coder reporting set (Di Eugenio & Glass 2004): {a} × "
                     f"{b}, {t['items']} items coded by both",
                     [Column("measure", "measure"), Column("value", "value", "float")], rows)


def _label_text(x) -> str:
    if x is None:
        return "·"
    if isinstance(x, list):
        return "{" + ", ".join(map(str, x)) + "}"
    return str(x)


def diagnose(data: ReliabilityData, distance="nominal", *, coefficient: str = "alpha",
             n_items: int = 10, reference=None, group_label: str = "document") -> Diagnostics:
    """Every diagnostic of ``data`` (see :class:`Diagnostics`): pairwise matrix and
    leave-one-coder-out of ``coefficient`` under ``distance``, the ``n_items`` costliest items,
    per-category α, and for plain labels with at most :data:`MAX_TABLE_LABELS` labels the
    coincidence matrix, coder distributions and bias by category."""
    c = coefficient_table.get(coefficient)
    d = dist.get(distance) if c.weighted else dist.get(None)
    notes: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        value = compute(coefficient, data, d).value
        coders, M, loo = dg.pairwise_and_leave_one_out(data, coefficient, d)
    symbol = c.label(data.n_coders)
    if loo is None:
        notes.append("leave-one-coder-out needs at least three coders (for κ and κw, exactly "
                     "three)")
    worst = [{**r, "labels": {str(k): _show(v) for k, v in r["labels"].items()}}
             for r in dg.worst_items(data, d, n_items)]
    coincidence = distributions = bias = None
    if not data.is_set and data.n_labels <= MAX_TABLE_LABELS:
        labels, o = dg.coincidence(data)
        coincidence = {"labels": [_show(x) for x in labels], "matrix": o.tolist()}
        cd = dg.coder_distributions(data)
        distributions = {"coders": cd["coders"], "labels": [_show(x) for x in labels],
                         "counts": cd["counts"].tolist()}
        b = dg.bias_by_category(data)
        bias = {**b, "rows": [{**r, "category": _show(r["category"])} for r in b["rows"]]}
    else:
        notes.append(f"coincidence matrix, coder distributions and bias by category are given "
                     f"for plain labels with at most {MAX_TABLE_LABELS} labels "
                     f"(here {data.n_labels}{' sets' if data.is_set else ''})")
    return Diagnostics(coefficient, symbol, d.name, value, list(coders), M, loo, worst,
                       _per_category(data), coincidence, distributions, bias,
                       _two(data) if data.n_coders == 2 and not data.is_set else None,
                       dg.expert(data, reference, d) if reference is not None else None,
                       group_label, data.groups is not None, notes,
                       _values(data) if data.is_set else None)


def _per_category(data: ReliabilityData) -> dict:
    by = "element" if data.is_set else "label"
    many = data.is_set or data.n_labels > MAX_TABLE_LABELS
    st = dg.category_stats(data, by)
    rows = dg.category_rows(st, TOP_CATEGORIES if many else None)
    return {"by": by, "shown": len(rows), "total": int((st["values"] > 0).sum()),
            "order": "most disagreeing values" if many else "label",
            "rows": [{**r, "category": _show(r["category"])} for r in rows]}


def _values(data: ReliabilityData) -> dict:
    """The values behind mvα's observed disagreement (:func:`~corpusagree.stats.diagnostics.
    value_disagreement`), the :data:`TOP_CATEGORIES` largest parts."""
    whole = dg.value_disagreement(data)
    return {"observed": whole.observed, "pairable_values": whole.pairable_values,
            "shown": min(TOP_CATEGORIES, len(whole.rows)), "total": len(whole.rows),
            "rows": [{**r, "value": _show(r["value"])} for r in whole.rows[:TOP_CATEGORIES]]}


def _two(data: ReliabilityData) -> dict | None:
    try:
        r = dg.two_coder_report(data)
    except ValueError:
        return None
    return {**r, "labels": [_show(x) for x in r["labels"]], "table": r["table"].tolist(),
            "per_category": [{**p, "category": _show(p["category"])}
                             for p in r["per_category"]]}
