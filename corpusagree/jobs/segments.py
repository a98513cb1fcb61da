"""``corpusagree segments``: how much do segmentation annotators agree, and who is the odd one out?

Segmentations are read by the ``segments`` readers, converted (:mod:`corpusagree.convert.
segments`) into potential boundaries labelled yes/no and into units labelled by their segment's
unit set, and reported as:

* boundary agreement, π, κ (multi-κ), α, nominal (Passonneau & Litman 1993; Carletta 1996,
  seed 001), and bias B;
* unit-set α, β and bias B per set distance (Artstein & Poesio 2005, seed 003 §4.4);
* coder × coder matrices of B and S (Fournier 2013), Pk (Beeferman et al. 1999), WindowDiff
  (Pevzner & Hearst 2002), each segeval 2.0.11 with its defaults and averaged over the documents
  both coders segmented, and of boundary and unit-set α;
* leave-one-coder-out α, naming the coder whose removal raises agreement most;
* each coder's boundary rate against the other coders' on the same potential boundaries;
* optionally per-document figures, bootstrap intervals clustered by document, and the
  boundary positions and units that cost most in observed disagreement.

:func:`analyse` returns exactly what ``--json`` prints.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections import defaultdict
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path

import numpy as np
from rich.columns import Columns

from .. import report
from ..cli import add_ci_options
from ..convert import segments as conv
from ..model.corpus import Segmentation
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..readers import options as reader_options
from ..readers import read as read_format
from ..readers import readers
from ..stats import coefficients as coef
from ..stats import diagnostics, inference, segmetrics
from ..stats import distances as dist
from ..stats.spec import COEFFICIENTS

#: set distances for unit sets when none are asked for
DEFAULT_DISTANCES = ("dice", "jaccard", "passonneau")
SET_DISTANCES = tuple(n for n, d in dist.NAMED.items() if d.for_sets)
#: pairwise segmentation metrics, called as f(row coder, column coder)
PAIR_METRICS: dict[str, Callable] = {
    "B": segmetrics.boundary_similarity, "S": segmetrics.segmentation_similarity,
    "Pk": segmetrics.pk, "WindowDiff": segmetrics.window_diff,
}
#: metrics with f(a, b) = f(b, a) (Fournier 2013's edit distance is symmetric), computed once
SYMMETRIC = {"B", "S"}
#: reader options (their names are the CLI dests)
READER_OPTIONS = tuple(opt.name for opt, _ in reader_options("segments"))


# ---- reading ---------------------------------------------------------------------------------
def read(paths: Sequence[str | Path], fmt: str = "auto", annotators: Sequence[str] | None = None,
         **options) -> tuple[str, list[Segmentation]]:
    """(format name, segmentations) from files or folders of one format; ``options`` are the
    reader's keyword arguments (``unit``, ``marker``, ...), None values left out."""
    return read_format("segments", paths, fmt, annotators, **options)


def local_coders(segs: Sequence[Segmentation]) -> list[Segmentation]:
    """Coders renamed ``document/coder``: for corpora whose coder names are local to each
    document (Moonstone's ``an1 … anK``), so no two documents share a coder."""
    return [replace(s, annotator=f"{s.document}/{s.annotator}") for s in segs]


# ---- small helpers ---------------------------------------------------------------------------
def _quiet(fn: Callable, *args) -> float:
    """A coefficient's value, nan where it is undefined (no pairable item, De = 0)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", coef.DegenerateWarning)
            return float(fn(*args))
    except ValueError:
        return float("nan")


# ---- the parts of the analysis ---------------------------------------------------------------
#: coders up to which matrices and per-coder tables are printed in full
MAX_MATRIX = 10
BOUNDARY_COEFFICIENTS = ("percent_agreement", "pi", "kappa", "alpha", "bias")
UNIT_COEFFICIENTS = ("alpha", "beta", "bias")
#: coefficients for which Krippendorff's q = P(coefficient < .667) is shown
Q_KEYS = {"alpha", "alpha_prime", "beta", "pi", "kappa", "multi_kappa"}


def _coefficients(data: ReliabilityData, keys: Sequence[str], distance: str) -> list[dict]:
    out = []
    for key in keys:
        if key == "kappa" and coef.kernel(data, None).n_coders > 2:
            key = "multi_kappa"
        res = coef.compute(key, data, distance if COEFFICIENTS[key].weighted else None)
        out.append({"key": key, **res.as_dict()})
    return out


def _intervals(data: ReliabilityData, rows: list[dict], level: float, n_resamples: int,
               seed, interval: str) -> None:
    """Bootstrap intervals (clustered by document when there are two or more) into ``rows``."""
    rows = [r for r in rows if COEFFICIENTS[r["key"]].resamplable]
    cluster = None if len(np.unique(data.groups)) >= 2 else False
    found = inference.bootstrap(data, [(r["key"], r["distance"]) for r in rows],
                                inference.Bootstrap(n_resamples, level, interval, cluster, seed))
    for r, iv in zip(rows, found, strict=True):
        r["ci"] = iv.as_dict()


def _summary(lay: conv.SegmentLayout, bdata: ReliabilityData) -> dict:
    coded = lay.coded()
    return {"documents": len(lay.documents), "coders": list(lay.coders),
            "units": int(lay.lengths.sum()), "segmentations": lay.n_segmentations,
            "segments": len(lay.masses), "potential_boundaries": bdata.n_items,
            "not_segmented": int((~coded).sum()),
            "documents_with_two_or_more_coders": int((coded.sum(0) >= 2).sum())}


def coder_rates(bdata: ReliabilityData) -> list[dict]:
    """Each coder's boundary rate (boundaries / potential boundaries judged) against the other
    coders' pooled rate on the same potential boundaries: a ratio > 1 segments more finely."""
    J = (bdata.codes >= 0).astype(np.int64)
    M = (bdata.codes > 0).astype(np.int64)
    judged, marked = J.sum(1), M.sum(1)
    others_j = J @ J.sum(0) - judged
    others_m = J @ M.sum(0) - marked
    docs = np.zeros((bdata.n_coders, len(bdata.group_names)), bool)
    rows, cols = np.nonzero(J)
    docs[rows, bdata.groups[cols]] = True
    with np.errstate(invalid="ignore", divide="ignore"):
        rate, others = marked / judged, others_m / others_j
        ratio = rate / others
    return [{"coder": name, "documents": int(docs[c].sum()), "positions": int(judged[c]),
             "boundaries": int(marked[c]), "rate": float(rate[c]),
             "others_rate": float(others[c]), "ratio": float(ratio[c])}
            for c, name in enumerate(bdata.coders)]


def pairwise_metrics(by_doc: dict[str, dict[str, tuple[int, ...]]], coders: Sequence[str]
                     ) -> dict:
    """Coder × coder means over shared documents of B, S, Pk and WindowDiff; each coder's mean
    against all others (both directions); and the all-pairs means segeval reports (Pk,
    WindowDiff over ordered pairs: segeval's ``permuted``; B, S are symmetric). One loop over
    documents; per-document means kept."""
    index = {c: i for i, c in enumerate(coders)}
    C = len(coders)
    sums = {k: np.zeros((C, C)) for k in PAIR_METRICS}
    counts = np.zeros((C, C))
    per_doc: dict[str, dict[str, float]] = {}
    with report.LazyProgress("pairwise metrics", len(by_doc)) as bar:
        for n, (doc, segs) in enumerate(by_doc.items()):
            present = [(index[c], m) for c, m in segs.items()]
            doc_sum = dict.fromkeys(PAIR_METRICS, 0.0)
            for a, (i, mi) in enumerate(present):
                for j, mj in present[a + 1:]:
                    counts[i, j] += 1
                    counts[j, i] += 1
                    for k, fn in PAIR_METRICS.items():
                        v = fn(mi, mj)
                        w = v if k in SYMMETRIC else fn(mj, mi)
                        sums[k][i, j] += v
                        sums[k][j, i] += w
                        doc_sum[k] += v + w
            pairs = len(present) * (len(present) - 1)
            if pairs:
                per_doc[doc] = {k: v / pairs for k, v in doc_sum.items()}
            bar.advance(n + 1)
    out: dict = {"coders": list(coders), "shared_documents": counts.astype(int).tolist()}
    seen = counts.sum(1) > 0
    for k in PAIR_METRICS:
        with np.errstate(invalid="ignore", divide="ignore"):
            m = sums[k] / counts
        np.fill_diagonal(m, np.where(seen, 0.0 if k in ("Pk", "WindowDiff") else 1.0, np.nan))
        out[k] = m.tolist()
    both = counts.sum(0) + counts.sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["per_coder"] = {k: ((sums[k].sum(0) + sums[k].sum(1)) / both).tolist()
                            for k in PAIR_METRICS}
    total = counts.sum()
    out["mean"] = {k: float(sums[k].sum() / total) if total else float("nan")
                   for k in PAIR_METRICS}
    out["pairs"] = int(total)
    out["per_document"] = per_doc
    return out


def subset_alpha(data: ReliabilityData, subsets: np.ndarray, distance: str) -> np.ndarray:
    """α on each coder subset (rows of a boolean mask), nan where undefined, from one pass of
    :func:`corpusagree.diagnostics.subset_stats`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return diagnostics.subset_values(data, subsets, "alpha", distance)[0]


def coders_compared(bdata: ReliabilityData, udata: ReliabilityData, distance: str
                    ) -> tuple[dict, dict]:
    """Coder × coder α (boundaries, nominal; unit sets under ``distance``) and α without each
    coder: Krippendorff's odd-man-out analysis (Carletta 1996 §4). Only coder pairs who share
    a document are computed (nan elsewhere), all subsets in one pass. The odd one out is the
    coder whose removal raises unit-set α most (also given for boundary α)."""
    C = udata.n_coders
    valid = (udata.codes >= 0).astype(np.int64)
    r, s = np.nonzero(np.triu(valid @ valid.T, 1))
    pairs = np.zeros((len(r), C), bool)
    pairs[np.arange(len(r)), r] = pairs[np.arange(len(r)), s] = True
    loo = C >= 3
    K = np.vstack([pairs, ~np.eye(C, dtype=bool)] if loo else [pairs])
    out_pairs, out_loo = {}, {}
    for name, data, d in (("boundaries", bdata, "nominal"), ("units", udata, distance)):
        values = subset_alpha(data, K, d)
        m = np.full((C, C), np.nan)
        m[r, s] = m[s, r] = values[:len(r)]
        out_pairs[name] = m.tolist()
        out_loo[name] = values[len(r):]
    full_b, full_u = _quiet(coef.alpha, bdata), _quiet(coef.alpha, udata, distance)
    result: dict = {"distance": distance, "all_boundary_alpha": full_b,
                    "all_unit_alpha": full_u, "rows": [], "odd_one_out": None,
                    "odd_one_out_boundaries": None}
    if loo:
        result["rows"] = [{"coder": c, "boundary_alpha": float(b), "boundary_change": b - full_b,
                           "unit_alpha": float(u), "unit_change": u - full_u}
                          for c, b, u in zip(udata.coders, out_loo["boundaries"],
                                             out_loo["units"], strict=True)]
        for key, name in (("unit_change", "odd_one_out"),
                          ("boundary_change", "odd_one_out_boundaries")):
            changes = np.array([row[key] for row in result["rows"]])
            if np.isfinite(changes).any():
                k = int(np.nanargmax(changes))
                result[name] = {"coder": udata.coders[k], "change": float(changes[k])}
    return {"alpha_boundaries": out_pairs["boundaries"],
            f"alpha_units_{distance}": out_pairs["units"]}, result


def by_document(by_doc: dict[str, list[Segmentation]], distances: Sequence[str],
                pair_means: dict[str, dict[str, float]]) -> list[dict]:
    """α per document (boundaries and unit sets), with its mean pairwise B and Pk."""
    rows = []
    with report.LazyProgress("documents", len(by_doc)) as bar:
        for n, (doc, segs) in enumerate(by_doc.items()):
            lay = conv.layout(segs)
            row = {"document": doc, "coders": len(segs), "units": int(lay.lengths[0]),
                   "segments": round(len(lay.masses) / len(segs), 2)}
            if len(segs) >= 2 and lay.lengths[0] >= 2:
                row["boundary_alpha"] = _quiet(coef.alpha, conv.boundaries(lay))
                udata = conv.unit_sets(lay)
                row.update({f"unit_alpha_{d}": _quiet(coef.alpha, udata, d) for d in distances})
            else:
                row["boundary_alpha"] = float("nan")
                row.update({f"unit_alpha_{d}": float("nan") for d in distances})
            row.update({k: pair_means.get(doc, {}).get(k, float("nan")) for k in ("B", "Pk")})
            rows.append(row)
            bar.advance(n + 1)
    return rows


def analyse(segs: Sequence[Segmentation], distances: Sequence[str] = DEFAULT_DISTANCES, *,
            per_document: bool = False, ci: float | None = None, n_resamples: int = 1000,
            seed=None, interval: str = "percentile", worst: int = 0) -> dict:
    """The whole report as a dict (what ``--json`` prints); see the module docstring.

    ``ci`` is the interval level (None: no intervals); intervals are bootstrapped with
    documents as clusters. ``worst`` > 0 adds that many most disagreed-on boundary positions
    and units."""
    distances = list(distances)
    for d in distances:
        if d not in SET_DISTANCES:
            raise InputError(f"unknown set distance {d!r}; known: {', '.join(SET_DISTANCES)}")
    if not distances:
        raise InputError("give at least one set distance")
    lay = conv.layout(segs)
    if not (lay.coded().sum(0) >= 2).any():
        raise InputError("no document was segmented by two or more coders, so there is no "
                         "agreement to measure")
    bdata = conv.boundaries(lay)
    udata = conv.unit_sets(lay)
    out: dict = {"unit": segs[0].unit, **_summary(lay, bdata)}
    out["boundaries"] = _coefficients(bdata, BOUNDARY_COEFFICIENTS, "nominal")
    if lay.types is not None:
        out["typed_boundaries"] = _coefficients(conv.boundaries(lay, types=True),
                                                BOUNDARY_COEFFICIENTS, "nominal")
    out["unit_sets"] = [r for d in distances for r in _coefficients(udata, UNIT_COEFFICIENTS, d)]
    if ci is not None:
        _intervals(bdata, out["boundaries"], ci, n_resamples, seed, interval)
        _intervals(udata, out["unit_sets"], ci, n_resamples, seed, interval)
    docs: dict[str, list[Segmentation]] = defaultdict(list)
    for s in segs:
        docs[s.document].append(s)
    docs = {d: docs[d] for d in lay.documents}
    masses = {d: {s.annotator: s.masses for s in v} for d, v in docs.items()}
    pairs = pairwise_metrics(masses, lay.coders)
    per_doc_means = pairs.pop("per_document")
    alphas, out["leave_one_out"] = coders_compared(bdata, udata, distances[0])
    out["pairwise"] = {**pairs, **alphas}
    out["coder_rates"] = coder_rates(bdata)
    if per_document:
        out["by_document"] = by_document(docs, distances, per_doc_means)
    if worst > 0:
        out["worst"] = worst_items(bdata, udata, distances[0], worst)
    return out


def worst_items(bdata: ReliabilityData, udata: ReliabilityData, distance: str, n: int) -> dict:
    """The boundary positions and units that cost most in Do (diagnostics.worst_items), each
    coder's label shown as yes/no, or as the first and last unit of the coder's segment."""
    def span(label) -> list[int] | None:
        return None if label is None else [min(u for _, u in label), max(u for _, u in label)]

    rows = {"boundaries": diagnostics.worst_items(bdata, "nominal", n),
            "units": diagnostics.worst_items(udata, distance, n)}
    for r in rows["units"]:
        r["labels"] = {c: span(v) for c, v in r["labels"].items()}
    for r in (*rows["boundaries"], *rows["units"]):
        r["document"], r["position"] = r.pop("item")
        del r["group"]
    return {"distance": distance, **rows}


# ---- rendering -------------------------------------------------------------------------------
def _coef_rows(rows: list[dict]) -> tuple[list[str], list[list]]:
    header = ["coefficient", "distance", "value"]
    ivs = [r["ci"] for r in rows if "ci" in r]
    if ivs:
        by = "documents" if ivs[0]["clustered"] else "items"
        header += [f"{ivs[0]['level']:.0%} CI (resampling {by})", "q(<.667)"]
    header += ["Do", "De", "items", "coders"]
    body = []
    for r in rows:
        line = [r["symbol"], r["distance"], r["value"]]
        if ivs:
            iv = r.get("ci")
            line += ([f"{report.fmt(iv['low'], 3)} – {report.fmt(iv['high'], 3)}",
                      iv["q"].get("0.667") if r["key"] in Q_KEYS else ""] if iv else ["", ""])
        line += [r["observed"], r["expected"], r["items"], r["coders"]]
        body.append(line)
    return header, body


def render(out: dict, title: str) -> None:
    """Print the report of :func:`analyse` as rich tables."""
    con = report.console()
    con.print(f"[bold]{title}[/bold]: {_n(out['documents'], 'document')}, "
              f"{_n(len(out['coders']), 'coder')}, {_n(out['units'], out['unit'])}, "
              f"{_n(out['segmentations'], 'segmentation')} ({_n(out['segments'], 'segment')}); "
              f"{_n(out['not_segmented'], 'document × coder cell')} not segmented "
              "(missing data)")
    con.print(report.rows_table(
        f"Boundaries: {out['potential_boundaries']} potential boundaries labelled yes/no "
        "(Passonneau & Litman 1993; Carletta 1996)", *_coef_rows(out["boundaries"])))
    if "typed_boundaries" in out:
        con.print(report.rows_table("Typed boundaries (no / boundary type)",
                                    *_coef_rows(out["typed_boundaries"])))
    con.print(report.rows_table(
        f"Unit sets: {out['units']} units labelled by the units of their segment "
        "(Artstein & Poesio 2005 §4.4)", *_coef_rows(out["unit_sets"])))
    pw = out["pairwise"]
    means = ", ".join(f"{k} {report.fmt(v, 3)}" for k, v in pw["mean"].items())
    con.print("Coder pairs, mean over the documents both segmented (segeval 2.0.11 defaults): "
              "B, S similarities (Fournier 2013; 1 = identical); Pk (Beeferman et al. 1999), "
              "WindowDiff (Pevzner & Hearst 2002) penalties (0 = identical; row = hypothesis, "
              f"column = reference); over all {pw['pairs']} (document, coder pair) comparisons: "
              f"{means}. "
              "α on the items both coders judged.")
    alphas = [k for k in pw if k.startswith("alpha_")]
    names = {k: "α boundaries" if k == "alpha_boundaries" else
             f"α units {k.removeprefix('alpha_units_')}" for k in alphas}
    if len(pw["coders"]) <= MAX_MATRIX:
        con.print(Columns([report.matrix_table(k, pw["coders"], np.array(pw[k]))
                           for k in [*PAIR_METRICS, *alphas]]))
    else:
        mean_alpha = {k: np.nanmean(np.where(np.eye(len(pw["coders"]), dtype=bool), np.nan,
                                             np.array(pw[k], float)), 1) for k in alphas}
        rows = [[c, *(pw["per_coder"][k][i] for k in PAIR_METRICS),
                 *(float(mean_alpha[k][i]) for k in alphas)]
                for i, c in enumerate(pw["coders"])]
        con.print(report.rows_table(
            f"Each coder against the others (mean over pairs; {len(pw['coders'])} coders: "
            "matrices in --json)", ["coder", *PAIR_METRICS, *(names[k] for k in alphas)],
            _longest(rows, lambda r: r[1])))
    loo = out["leave_one_out"]
    con.print(report.rows_table(
        f"Leave one coder out: α without the coder (all coders: boundaries "
        f"{report.fmt(loo['all_boundary_alpha'], 3)}, unit sets {loo['distance']} "
        f"{report.fmt(loo['all_unit_alpha'], 3)})",
        ["coder", "boundary α", "change", f"unit-set α ({loo['distance']})", "change"],
        _longest([[r["coder"], r["boundary_alpha"], r["boundary_change"], r["unit_alpha"],
                   r["unit_change"]] for r in loo["rows"]], lambda r: -r[4])))
    odd = loo["odd_one_out"]
    if odd is not None:
        verb = "raises" if odd["change"] > 0 else "lowers"
        con.print(f"Removing [bold]{odd['coder']}[/bold] {verb} unit-set α "
                  f"({loo['distance']}) most: {odd['change']:+.3f}"
                  + ("" if odd["change"] > 0 else " (no removal raises it)"))
    con.print(report.rows_table(
        "Boundary rate of each coder against the other coders' on the same positions (bias)",
        ["coder", "documents", "positions", "boundaries", "rate", "others' rate", "ratio"],
        _longest([[r["coder"], r["documents"], r["positions"], r["boundaries"], r["rate"],
                   r["others_rate"], r["ratio"]] for r in out["coder_rates"]],
                 lambda r: -abs(np.log(r[6])))))
    if "worst" in out:
        _render_worst(con, out["worst"])
    if "by_document" in out:
        rows = out["by_document"]
        keys = [k for k in rows[0] if k != "document"]
        header = [k.replace("unit_alpha_", "unit-set α ").replace("boundary_alpha", "boundary α")
                  .replace("segments", "segments/coder") for k in keys]
        con.print(report.rows_table("By document (B, Pk: mean over coder pairs)",
                                    ["document", *header],
                                    [[r["document"], *(r[k] for k in keys)] for r in rows]))


def _render_worst(con, worst: dict) -> None:
    def cell(v) -> str:
        if v is None:
            return "·"
        return v if isinstance(v, str) else f"{v[0]}–{v[1]}"

    for key, title in (("boundaries", "Most disagreed-on potential boundaries (after unit p)"),
                       ("units", f"Most disagreed-on units (each coder's segment, "
                                 f"{worst['distance']})")):
        rows = worst[key]
        if not rows:
            continue
        coders = list(rows[0]["labels"])
        con.print(report.rows_table(
            title, ["document", "p" if key == "boundaries" else "unit", "disagreement",
                    "share of Do", *coders],
            [[r["document"], r["position"], r["disagreement"], r["share"],
              *(cell(r["labels"][c]) for c in coders)] for r in rows]))


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _longest(rows: list[list], key: Callable[[list], float]) -> list[list]:
    """All rows when there are few coders; else the MAX_MATRIX rows with the smallest ``key``
    (nan last), and a row saying how many are left out."""
    if len(rows) <= MAX_MATRIX:
        return rows
    with np.errstate(divide="ignore", invalid="ignore"):
        ranked = sorted(rows, key=lambda r: (np.isnan(key(r)), key(r)))
    return [*ranked[:MAX_MATRIX], [f"… {len(rows) - MAX_MATRIX} more in --json",
                                   *[""] * (len(rows[0]) - 1)]]


# ---- CLI -------------------------------------------------------------------------------------
def register(subparsers) -> None:
    """Add ``corpusagree segments``."""
    p = subparsers.add_parser(
        "segments", help="agreement between segmentation annotators",
        description="Boundary κ/π/α, unit-set α/β per set distance, pairwise B/S/Pk/WindowDiff/α "
        "matrices, leave-one-coder-out α and boundary rates for segmentations in segeval JSON/TSV, "
        "positions CSV, RST rs3, DISRPT or plain text.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (one format)")
    p.add_argument("--format", default="auto", choices=["auto", *readers("segments")],
                   help="input format (default: sniffed)")
    p.add_argument("--unit", help="segeval/positions: name of the unit; rs3: token|char; "
                   "text: word|sentence")
    p.add_argument("--marker", help="text: regular expression of segment separator lines "
                   "(default: blank lines)")
    p.add_argument("--lang", help="text: spaCy language code (default: en)")
    p.add_argument("--encoding", help="positions/text: file encoding")
    p.add_argument("--delimiter", help="positions: field separator (default: sniffed)")
    p.add_argument("--on-mismatch", choices=["error", "skip"],
                   help="rs3: a document whose annotators' texts differ is an error or skipped")
    p.add_argument("--annotators", help="keep only these annotators, comma separated")
    p.add_argument("--local-coders", action="store_true",
                   help="coder names are local to each document (e.g. Moonstone's an1..anK): "
                   "treat every document's coders as different people")
    p.add_argument("--distances", default=",".join(DEFAULT_DISTANCES),
                   help=f"set distances for unit sets, comma separated; the first one is used "
                   f"for the pairwise and leave-one-out α (default: "
                   f"{','.join(DEFAULT_DISTANCES)}; known: {','.join(SET_DISTANCES)})")
    p.add_argument("--by-document", action="store_true", help="also a table per document")
    p.add_argument("--diagnostics", nargs="?", type=int, const=10, default=0, metavar="N",
                   help="also the N (default 10) boundary positions and units that cost most "
                   "in observed disagreement, with every coder's label")
    add_ci_options(p, seed=None)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.ci is not None and not 0 < args.ci < 1:
        raise InputError(f"--ci level must be between 0 and 1, got {args.ci}")
    if args.resamples < 1:
        raise InputError(f"--resamples must be positive, got {args.resamples}")
    annotators = [a.strip() for a in args.annotators.split(",")] if args.annotators else None
    with report.console(stderr=True).status("reading", spinner="dots") if sys.stderr.isatty() \
            else nullcontext():
        fmt, segs = read(args.paths, args.format, annotators,
                         **{k: getattr(args, k) for k in READER_OPTIONS})
    if args.local_coders:
        segs = local_coders(segs)
    distances = [d.strip().lower() for d in args.distances.split(",") if d.strip()]
    out = analyse(segs, distances, per_document=args.by_document, ci=args.ci,
                  n_resamples=args.resamples, seed=args.seed, interval=args.interval,
                  worst=args.diagnostics)
    out = {"source": [str(p) for p in args.paths], "format": fmt, **out}
    if args.json:
        report.print_json(out)
    else:
        render(out, f"{', '.join(map(str, args.paths))} ({fmt})")
    return 0


def report_folder(path: Path, json_out: bool) -> bool:
    """Run on a folder like ``sample_corpora/segments/``: its segeval JSON (the same
    segmentations are stored there in the other formats too)."""
    files = sorted(Path(path).glob("*.json"))
    if not files:
        return False
    args = argparse.Namespace(
        paths=[str(files[0])], format="segeval", annotators=None, local_coders=False,
        distances=",".join(DEFAULT_DISTANCES), by_document=False, diagnostics=0, ci=None,
        resamples=1000,
        seed=None, interval="percentile", json=json_out,
        **dict.fromkeys(READER_OPTIONS))
    return run(args) == 0
