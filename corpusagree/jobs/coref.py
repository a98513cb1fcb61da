"""``corpusagree coref``: agreement on coreference chains, per document and overall.

Coreference annotations of several annotators (MMAX2, brat, CoNLL-2012, CorefUD, INCEpTION
XMI, WebAnno TSV, ezCoref) are aligned and converted by :mod:`corpusagree.convert.coref`, then
reported as (Artstein & Poesio 2005, seed 003 §4.1; Passonneau 2004):

* α, α′, β and bias B over chains (or chain prefixes) per set distance;
* κ (multi-κ for more than two annotators), α and β with the antecedent as a nominal label;
* the alignment report (aligned, unmatched, merged mentions per annotator);
* MUC, B³, CEAF-e, BLANC and LEA F1 for every annotator pair (:mod:`corpusagree.corefscores`),
  computed per document on the aligned mentions each annotator marked, then averaged over the
  documents both annotated (macro average; key = the first annotator of the pair);
* optionally bootstrap intervals clustered by document, per-document figures, and diagnostics
  (pairwise and leave-one-out α, most-disputed mentions with each annotator's chain).

:func:`analyse` computes everything; :func:`payload` is exactly what ``--json`` prints.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import report
from ..cli import add_ci_options
from ..convert import coref as conv
from ..model.corpus import CorefAnnotation
from ..model.data import ReliabilityData, SetLabels
from ..model.errors import InputError
from ..readers import detect, readers
from ..readers import get as get_reader
from ..stats import coefficients as coef
from ..stats import corefscores, diagnostics, inference
from ..stats import distances as dist

SET_DISTANCES = tuple(n for n, d in dist.NAMED.items() if d.for_sets)
DEFAULT_DISTANCES = ("passonneau", "jaccard", "dice", "masi")
FORMAT_NAMES = tuple(readers("coref"))
#: coefficients over chain labels, per distance (function name, as in coefficients.py)
CHAIN_COEFFICIENTS = ("alpha", "alpha_prime", "beta", "bias")
SCORES = tuple(corefscores.SCORES)
SCORE_AVERAGING = ("F1 per document on the aligned mentions both annotators marked, averaged "
                   "over the documents both annotated (macro); key = the first annotator")
#: sample-corpus subfolders ``report_folder`` tries, in order (CorefUD keeps discontinuous
#: mentions and heads; every format gives the same figures, see tests/test_sample_coref_formats)
SAMPLE_FORMATS = (("corefud", "corefud"), ("conll2012", "conll"), ("mmax2", "mmax2"),
                  ("brat", "brat"), ("xmi", "xmi"))


# ---- reading ---------------------------------------------------------------------------------
def _reader(fmt: str):
    return get_reader("coref", fmt)


def _detect(path: Path) -> str:
    return detect("coref", path)


def read(paths: Sequence[str | Path], fmt: str = "auto", *, levels: Sequence[str] | None = None,
         coref_types: Sequence[str] | None = None, layers: Sequence[str] | None = None,
         ezcoref_clusters: str = "last") -> tuple[str, list[CorefAnnotation]]:
    """(format name, annotations) from the annotators' files or folders; the reader options
    apply to their format only (MMAX2 ``levels``, default ``["coref"]``; brat ``coref_types``;
    XMI ``layers``; ezCoref ``ezcoref_clusters``)."""
    paths = [Path(p) for p in paths]
    for p in paths:
        if not p.exists():
            raise InputError("no such file or folder", p)
    if fmt == "auto":
        found = {str(p): _detect(p) for p in paths}
        if len(set(found.values())) > 1:
            listing = ", ".join(f"{p} is {f}" for p, f in found.items())
            raise InputError(f"the paths hold different formats ({listing}); pass --format")
        fmt = next(iter(found.values()))
    kw: dict = {}
    if fmt == "mmax2":
        kw["levels"] = list(levels or ["coref"])
    elif fmt == "brat" and coref_types:
        kw["coref_types"] = list(coref_types)
    elif fmt == "xmi" and layers:
        kw["layers"] = list(layers)
    elif fmt == "ezcoref":
        kw["clusters"] = ezcoref_clusters
    with _spinner(f"reading {fmt}"):
        try:
            anns = _reader(fmt).read(paths, **kw)
        except InputError as e:
            if fmt in ("conll", "corefud") and len(paths) == 1 and paths[0].is_dir():
                raise InputError(f"{e.message} (a folder is one annotator in this format: give "
                                 "one file or folder per annotator)", e.path, e.line) from None
            raise
    if not anns:
        raise InputError(f"no coreference annotations found ({fmt})", paths[0])
    return fmt, anns


@contextmanager
def _spinner(what: str) -> Iterator[None]:
    """A spinner with the elapsed time on stderr while a reader works (terminal only): the
    readers read all files in one call and report no progress of their own."""
    if not sys.stderr.isatty():
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TimeElapsedColumn
    with Progress(SpinnerColumn(), what, TimeElapsedColumn(),
                  console=report.console(stderr=True), transient=True) as bar:
        bar.add_task("", total=None)
        yield


# ---- pairwise coreference scores ---------------------------------------------------------------
@dataclass
class PairwiseScores:
    """F1 of every (document, annotator pair) both annotated: ``f1[k, s]`` for pair ``k`` =
    (``doc[k]``, ``first[k]``, ``second[k]``) and score ``scores[s]``."""

    annotators: list[str]
    scores: tuple[str, ...]
    doc: np.ndarray
    first: np.ndarray
    second: np.ndarray
    f1: np.ndarray

    def mean(self) -> dict[str, float]:
        """Each score's mean over all (document, pair) rows."""
        return {s: float(self.f1[:, j].mean()) if len(self.f1) else float("nan")
                for j, s in enumerate(self.scores)}

    def pairs(self) -> list[dict]:
        """Per annotator pair: documents shared and each score averaged over them."""
        A = len(self.annotators)
        key = self.first * A + self.second
        uk, inv, n = np.unique(key, return_inverse=True, return_counts=True)
        sums = np.zeros((len(uk), len(self.scores)))
        np.add.at(sums, inv, self.f1)
        return [{"a": self.annotators[k // A], "b": self.annotators[k % A],
                 "documents": int(c), **dict(zip(self.scores, map(float, row), strict=True))}
                for k, c, row in zip(uk, n, sums / n[:, None], strict=True)]


def _partition(labels: np.ndarray) -> list[list[int]]:
    """Clusters (lists of item indices) of one annotator's cluster ids (-1 = unmarked)."""
    idx = np.flatnonzero(labels >= 0)
    order = idx[np.argsort(labels[idx], kind="stable")]
    if not len(order):
        return []
    return [c.tolist() for c in np.split(order, np.flatnonzero(np.diff(labels[order])) + 1)]


def pairwise_scores(al: conv.Alignment, scores: Sequence[str] = SCORES) -> PairwiseScores:
    """MUC, B³, CEAF-e, BLANC, LEA F1 for every pair of annotators of every document, on the
    aligned mentions each marked (chains sharing a mention joined, see
    :meth:`~corpusagree.convert.coref.Alignment.clusters`)."""
    clusters = al.clusters()
    fns = [corefscores.SCORES[s] for s in scores]
    rows: list[tuple[int, int, int, list[float]]] = []
    with report.LazyProgress("coreference scores", len(al.documents)) as bar:
        for d in range(len(al.documents)):
            lo, hi = al.doc_items[d], al.doc_items[d + 1]
            who = np.flatnonzero(al.annotated[:, d])
            parts = {a: _partition(clusters[a, lo:hi]) for a in who}
            for i, a in enumerate(who):
                for b in who[i + 1:]:
                    rows.append((d, a, b, [f(parts[a], parts[b]).f1 for f in fns]))
            bar.advance()
    arr = np.array([r[:3] for r in rows], np.int64).reshape(-1, 3)
    f1 = np.array([r[3] for r in rows], float).reshape(-1, len(fns))
    return PairwiseScores(list(al.annotators), tuple(scores), arr[:, 0], arr[:, 1], arr[:, 2], f1)


# ---- analysis --------------------------------------------------------------------------------
def _quiet(fn, *args):
    """A coefficient, nan when undefined for these data (too few judgements or coders, or no
    expected disagreement)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", coef.DegenerateWarning)
        try:
            return fn(*args).value
        except ValueError:
            return float("nan")


def _antecedent_specs(data: ReliabilityData) -> list[str]:
    two = int(((data.codes >= 0).sum(1) > 0).sum()) == 2
    return ["kappa" if two else "multi_kappa", "alpha", "beta"]


def _items_of(data: ReliabilityData, mask: np.ndarray) -> ReliabilityData:
    """``data`` restricted to some items, keeping only the labels they use (so a set distance
    is bound to a small label table)."""
    codes = data.codes[:, mask]
    used, inv = np.unique(codes[codes >= 0], return_inverse=True)
    out = np.full(codes.shape, -1, np.int32)
    out[codes >= 0] = inv
    items = [data.items[i] for i in np.flatnonzero(mask)]
    groups = None if data.groups is None else data.groups[mask]
    if not data.is_set:
        return ReliabilityData(out, [data.labels[u] for u in used], list(data.coders), items,
                               groups, data.group_names)
    lab: SetLabels = data.labels
    sizes = lab.indptr[used + 1] - lab.indptr[used]
    elements = lab.elements[conv._ranges(lab.indptr[used], sizes)]
    return ReliabilityData(out, SetLabels(np.concatenate([[0], np.cumsum(sizes)]), elements,
                                          lab.element_names),
                           list(data.coders), items, groups, data.group_names)


def _by_document(al: conv.Alignment, chains: ReliabilityData | None,
                 ante: ReliabilityData, distances: Sequence[str],
                 scores: PairwiseScores) -> list[dict]:
    out = []
    for d, name in enumerate(al.documents):
        mask = al.item_doc == d
        row = {"document": name, "annotators": int(al.annotated[:, d].sum()),
               "items": int(mask.sum())}
        if chains is not None:
            sub = _items_of(chains, mask)
            row["alpha"] = {x: _quiet(coef.alpha, sub, x) for x in distances}
            row["beta"] = {x: _quiet(coef.beta, sub, x) for x in distances}
        row["alpha_antecedent"] = _quiet(coef.alpha, _items_of(ante, mask), "nominal")
        here = scores.doc == d
        row.update({s: float(scores.f1[here, j].mean()) if here.any() else float("nan")
                    for j, s in enumerate(scores.scores)})
        out.append(row)
    return out


def _chain_texts(al: conv.Alignment, index: dict[str, int], label) -> str | None:
    if label is None:
        return None
    if isinstance(label, frozenset):
        return " | ".join(al.text(i) for i in sorted(index[x] for x in label))
    return label if label == conv.NO_ANTECEDENT else al.text(index[label])


def _diagnostics(al: conv.Alignment, data: ReliabilityData, distance: str, top: int) -> dict:
    """Pairwise and leave-one-out α, and the most-disputed mentions with every annotator's
    label written out as mention texts."""
    out: dict = {"distance": distance}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", coef.DegenerateWarning)
        coders, M = diagnostics.pairwise(data, "alpha", distance)
        out["pairwise_alpha"] = {"annotators": list(coders), "matrix": M.tolist()}
        out["leave_one_out"] = (diagnostics.leave_one_out(data, "alpha", distance)
                                if data.n_coders >= 3 else [])
        worst = diagnostics.worst_items(data, distance, top)
    index = {name: i for i, name in enumerate(al.items)}
    out["disputed"] = [{"item": w["item"], "document": w["group"],
                        "mention": al.text(index[w["item"]]),
                        "disagreement": w["disagreement"], "share": w["share"],
                        "labels": {c: _chain_texts(al, index, lab)
                                   for c, lab in w["labels"].items() if lab is not None}}
                       for w in worst]
    return out


def analyse(anns: Sequence[CorefAnnotation], *, distances: Sequence[str] = DEFAULT_DISTANCES,
            match: str = "exact", unmarked: str = "missing", label: str = "chain",
            singletons: str = "keep", ci: dict | None = None, by_document: bool = False,
            diagnostics_top: int | None = None) -> dict:
    """Everything the job reports. ``label`` "chain"/"prefix" gives the set-label table per
    distance; "antecedent" only the nominal antecedent table (always computed). ``ci``: keyword
    arguments of :func:`corpusagree.inference.bootstrap_many` (clustered by document)."""
    for d in distances:
        if d not in SET_DISTANCES:
            raise InputError(f"distance {d!r} is not a set distance; choose from "
                             f"{', '.join(SET_DISTANCES)}")
    al = conv.align(anns, match=match, singletons=singletons)
    chains = None if label == "antecedent" else conv.to_data(al, label, unmarked)
    ante = conv.to_data(al, "antecedent", unmarked)
    notes = al.report.notes()
    out: dict = {"alignment": al, "options": {"match": match, "label": label,
                                              "unmarked": unmarked, "singletons": singletons,
                                              "distances": list(distances)},
                 "chains": chains, "antecedent_data": ante}
    if chains is not None:
        specs = [(c, d) for d in distances for c in CHAIN_COEFFICIENTS]
        out["results"] = [coef.compute(c, chains, d) for c, d in specs]
        out["intervals"] = _intervals(chains, specs, ci, notes)
    ante_specs = [(c, "nominal") for c in _antecedent_specs(ante)]
    out["antecedent"] = [coef.compute(c, ante, d) for c, d in ante_specs]
    out["antecedent_intervals"] = _intervals(ante, ante_specs, ci, notes)
    out["scores"] = pairwise_scores(al)
    if by_document:
        out["by_document"] = _by_document(al, chains, ante, distances, out["scores"])
    if diagnostics_top is not None:
        data, d = (chains, distances[0]) if chains is not None else (ante, "nominal")
        out["diagnostics"] = _diagnostics(al, data, d, diagnostics_top)
    if label == "antecedent":
        notes.append("label antecedent: the set distances do not apply; only the nominal "
                     "antecedent table is reported")
    if unmarked == "singleton":
        notes.append("unmarked mentions are singletons for the coefficients; the coreference "
                     "scores compare the mentions each annotator marked")
    out["notes"] = list(dict.fromkeys(notes))
    return out


def _intervals(data: ReliabilityData, specs: list[tuple[str, str]], ci: dict | None,
               notes: list[str]) -> list[inference.Interval] | None:
    if ci is None:
        return None
    D = len(np.unique(data.groups))
    if D < 2:
        notes.append("one document only: the bootstrap resamples mentions (items)")
    elif D < 10:
        notes.append(f"only {D} documents: intervals clustered by document are rough")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = inference.bootstrap(data, specs, inference.Bootstrap(
            ci["n_resamples"], ci["level"], ci["interval"], D >= 2, ci["seed"]))
    for i in out:
        if i.dropped:
            notes.append(f"{i.coefficient} ({i.distance}): {i.dropped} of {i.n_resamples} "
                         "resamples gave no value and were left out of its interval")
    return out


# ---- output ----------------------------------------------------------------------------------
def _result_dicts(results, intervals) -> list[dict]:
    out = []
    for j, r in enumerate(results):
        d = r.as_dict()
        if intervals is not None:
            d["interval"] = intervals[j].as_dict()
        out.append(d)
    return out


def payload(res: dict) -> dict:
    """``--json``: the analysis as plain data."""
    al: conv.Alignment = res["alignment"]
    sc: PairwiseScores = res["scores"]
    out = {"documents": al.documents, "annotators": al.annotators, "items": al.n_items,
           "options": res["options"], "alignment": al.report.as_dict()}
    if "results" in res:
        out["coefficients"] = _result_dicts(res["results"], res["intervals"])
    out["antecedent"] = _result_dicts(res["antecedent"], res["antecedent_intervals"])
    out["scores"] = {"averaging": SCORE_AVERAGING, "scores": list(sc.scores),
                     "mean": sc.mean(), "pairs": sc.pairs()}
    for k in ("by_document", "diagnostics"):
        if k in res:
            out[k] = res[k]
    out["notes"] = res["notes"]
    return out


def _ci_text(i: inference.Interval | None) -> str:
    return "" if i is None else f"[{report.fmt(i.low)}, {report.fmt(i.high)}]"


def _coef_rows(results, intervals, level) -> list[tuple]:
    return [(r.symbol, r.distance, r.value,
             *([_ci_text(intervals[j] if intervals else None)] if level is not None else []),
             r.observed, r.expected, r.items, r.coders) for j, r in enumerate(results)]


def render(res: dict, title: str, level: float | None) -> None:
    """The tables on stdout, then the notes."""
    con = report.console()
    al: conv.Alignment = res["alignment"]
    opts = res["options"]
    head = ["coefficient", "distance", "value", *([f"{level:.0%} CI"] if level else []),
            "Do", "De", "items", "coders"]
    where = (f"{title}: {len(al.documents)} documents, {len(al.annotators)} annotators, "
             f"{al.n_items} mentions ({opts['match']} match, unmarked = {opts['unmarked']}, "
             f"singletons {opts['singletons']})")
    if level is not None:
        where += "; intervals clustered by document"
    counts = al.report.per_annotator
    con.print(report.rows_table(
        f"{title}: alignment of mentions ({opts['match']} match)",
        ["annotator", "documents", "mentions", "items", "aligned", "unmatched", "merged",
         "in several chains", "singletons dropped"],
        [(a, c["documents"], c["mentions"], c["items"], c["aligned"], c["unmatched"],
          c["merged"], c["several_chains"], c["dropped_singletons"]) for a, c in counts.items()]))
    if "results" in res:
        con.print(report.rows_table(f"{where}; label = {opts['label']}", head,
                                    _coef_rows(res["results"], res["intervals"], level)))
    con.print(report.rows_table(f"{title}: antecedent as a nominal label (seed 003 §4.1)", head,
                                _coef_rows(res["antecedent"], res["antecedent_intervals"],
                                           level)))
    sc: PairwiseScores = res["scores"]
    names = {"muc": "MUC", "b_cubed": "B³", "ceaf_e": "CEAF-e", "blanc": "BLANC", "lea": "LEA"}
    rows = [(p["a"], p["b"], p["documents"], *(p[s] for s in sc.scores)) for p in sc.pairs()]
    mean = sc.mean()
    rows.append(("all pairs", "", len(sc.f1), *(mean[s] for s in sc.scores)))
    con.print(report.rows_table(f"{title}: coreference scores, {SCORE_AVERAGING}",
                                ["key", "response", "documents",
                                 *(names[s] + " F1" for s in sc.scores)], rows))
    if "by_document" in res:
        dists = opts["distances"] if "results" in res else []
        con.print(report.rows_table(
            f"{title}: by document (α per distance; mean pairwise F1)",
            ["document", "annotators", "items", *(f"α {d}" for d in dists), "α antecedent",
             "MUC", "B³"],
            [(r["document"], r["annotators"], r["items"], *(r["alpha"][d] for d in dists),
              r["alpha_antecedent"], r["muc"], r["b_cubed"]) for r in res["by_document"]]))
    if "diagnostics" in res:
        _render_diagnostics(con, res["diagnostics"])
    for n in res["notes"]:
        con.print(f"note: {n}")


def _render_diagnostics(con, dg: dict) -> None:
    pw = dg["pairwise_alpha"]
    con.print(report.matrix_table(f"α ({dg['distance']}) per annotator pair",
                                  pw["annotators"], np.array(pw["matrix"])))
    if dg["leave_one_out"]:
        con.print(report.rows_table(f"α ({dg['distance']}) without each annotator",
                                    ["left out", "α", "change", "items"],
                                    [(r["coder"], r["value"], r["change"], r["items"])
                                     for r in dg["leave_one_out"]]))
    con.print(report.rows_table(
        f"most-disputed mentions ({dg['distance']}), each annotator's label",
        ["document", "mention", "disagreement", "share of Do", "labels"],
        [(w["document"], w["mention"], w["disagreement"], w["share"],
          "\n".join(f"{c}: {t}" for c, t in w["labels"].items())) for w in dg["disputed"]]))


# ---- command line ----------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    if args.ci is not None and not 0 < args.ci < 1:
        raise InputError(f"--ci: the level must be between 0 and 1, not {args.ci}")
    if args.resamples < 2:
        raise InputError("--resamples must be at least 2")
    fmt, anns = read(args.paths, args.format, levels=args.level, coref_types=args.coref_type,
                     layers=args.layer, ezcoref_clusters=args.ezcoref_clusters)
    ci = None if args.ci is None else {"n_resamples": args.resamples, "level": args.ci,
                                       "seed": args.seed, "interval": args.interval,
                                       "progress": sys.stderr.isatty()}
    res = analyse(anns, distances=args.distance or DEFAULT_DISTANCES, match=args.match,
                  unmarked=args.unmarked, label=args.label, singletons=args.singletons, ci=ci,
                  by_document=args.by_document,
                  diagnostics_top=args.top if args.diagnostics else None)
    if fmt == "ezcoref":
        res["notes"].append(f"ezCoref cluster lists: {args.ezcoref_clusters} "
                            "(--ezcoref-clusters; 'last' keeps the final click of each mention)")
    title = _title([Path(p) for p in args.paths])
    if args.json:
        report.print_json({"input": [str(p) for p in args.paths], "format": fmt,
                           **payload(res)})
    else:
        render(res, f"{title} ({fmt})", args.ci)
    return 0


def _title(paths: list[Path]) -> str:
    """The one path, or the folder the paths share and how many they are."""
    if len(paths) == 1:
        return str(paths[0])
    common = Path(os.path.commonpath([p.absolute() for p in paths]))
    try:
        common = common.relative_to(Path.cwd())
    except ValueError:
        pass
    return f"{common}/ ({len(paths)} paths)"


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "coref", help="coreference agreement: α/β over chains, κ on antecedents, MUC/B³/...",
        description="Agreement on coreference chains (Artstein & Poesio 2005 §4.1; Passonneau "
        "2004): mentions aligned across annotators, chains as set labels under set distances, "
        "antecedents as nominal labels, and the pairwise coreference scores.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="one file or folder per annotator, or a folder of annotator folders "
                   "(MMAX2, brat, XMI), or ezCoref passage files/folders")
    p.add_argument("--format", choices=("auto", *FORMAT_NAMES), default="auto",
                   help="input format (default: sniffed)")
    p.add_argument("--distance", action="append", choices=SET_DISTANCES,
                   help="set distance (repeatable; default: passonneau, jaccard, dice, masi)")
    p.add_argument("--match", choices=conv.MATCHES, default="exact",
                   help="align mentions by exact span (default), head token or maximal overlap")
    p.add_argument("--unmarked", choices=conv.UNMARKED, default="missing",
                   help="a mention an annotator did not mark is missing (default) or a "
                   "singleton for them")
    p.add_argument("--label", choices=conv.LABELS, default="chain",
                   help="label of a mention: its full chain (default), the chain up to it "
                   "(prefix), or its antecedent (nominal only)")
    p.add_argument("--singletons", choices=conv.SINGLETONS, default="keep",
                   help="keep (default) or drop mentions of one-member chains")
    add_ci_options(p, seed=0)
    p.add_argument("--by-document", action="store_true", help="figures per document")
    p.add_argument("--diagnostics", action="store_true",
                   help="pairwise and leave-one-out α, most-disputed mentions with their chains")
    p.add_argument("--top", type=int, default=10, help="most-disputed mentions shown (10)")
    p.add_argument("--level", action="append", metavar="LEVEL",
                   help="MMAX2: markable level(s) holding the chains (default: coref)")
    p.add_argument("--coref-type", action="append", metavar="TYPE",
                   help="brat: relation/equivalence type(s) that make chains (default: "
                   "Coreference, Coref, Anaphora, Equiv)")
    p.add_argument("--layer", action="append", help="XMI: chain layer(s) to read (default: all)")
    p.add_argument("--ezcoref-clusters", choices=("all", "last"), default="last",
                   help="ezCoref: keep every cluster id of a mention or the last one (default: "
                   "last, the final choice)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _sample_paths(folder: Path, fmt: str) -> list[Path]:
    """The annotator paths of one format folder of a sample corpus: one file per annotator for
    the CoNLL formats, the folder itself otherwise."""
    if fmt in ("conll", "corefud"):
        return sorted(f for f in folder.iterdir() if f.is_file() and _reader(fmt).sniff(f))
    return [folder]


def report_folder(path: Path, json_out: bool) -> bool:
    """Run the job on one format subfolder of a folder like ``sample_corpora/coref/`` (the
    first of corefud, conll2012, mmax2, brat, xmi present) with 95 % intervals and
    per-document figures; False when there is none."""
    for sub, fmt in SAMPLE_FORMATS:
        folder = Path(path) / sub
        if folder.is_dir() and (files := _sample_paths(folder, fmt)):
            if not json_out:
                report.console().print(f"coreference: sample corpus read from {folder} ({fmt}); "
                                       "the other format folders hold the same annotations")
            run(argparse.Namespace(paths=[str(f) for f in files], format=fmt, distance=None,
                                   match="exact", unmarked="missing", label="chain",
                                   singletons="keep", ci=0.95, resamples=1000, seed=0,
                                   interval="percentile", by_document=True, diagnostics=False,
                                   top=10, level=None, coref_type=None, layer=None,
                                   ezcoref_clusters="last", json=json_out))
            return True
    return False
