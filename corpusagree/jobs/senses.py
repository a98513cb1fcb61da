"""``corpusagree senses``: word-sense agreement under several grouping schemes (issue 7).

The same tags are scored under every scheme of :mod:`corpusagree.convert.senses` (fine,
coarse, extended, multi; Artstein & Poesio 2005, §4.4) and for every inventory, side by side:
percent agreement, κ (multi-κ for more than two annotators), π, α, β and the bias B for the
nominal schemes; α′, α, β and B under the set distance for the set schemes. Intervals are
bootstrapped over lemmas (default) or documents; ``--by-lemma`` breaks the figures down by
lemma; ``--diagnostics`` lists the most confused sense pairs of each lemma (Krippendorff's
coincidence matrix read as a table).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .. import report, report_diagnostics
from ..cli import add_ci_options
from ..convert.senses import (
    CLUSTERS,
    SCHEMES,
    WITH_INVENTORY,
    SenseData,
    SenseTable,
    label_text,
    lexfile_inventory,
    to_reliability,
)
from ..model.corpus import SenseTag
from ..model.data import ReliabilityData, SetLabels, _ranges
from ..model.errors import InputError
from ..model.senses import SenseInventory
from ..readers import _paths, detect, get, readers
from ..readers import inventory as inventory_reader
from ..readers import read as read_format
from ..stats import coefficients as coef
from ..stats import distances as dist
from ..stats import inference
from ..stats.kernel import PAIRS_PER_CHUNK, item_pairs
from ..stats.spec import COEFFICIENTS

FORMATS = ("auto", *readers("senses"))
SET_DISTANCES = sorted(k for k, d in dist.NAMED.items() if d.for_sets)
#: the automatic WordNet lexicographer-file grouping, usable as ``--inventory lexfile``
LEXFILE = "lexfile"
#: a clustered bootstrap with fewer clusters than this gets a warning note
FEW_CLUSTERS = 10


# ---- reading -----------------------------------------------------------------------------------
def read_tags(paths: Sequence[str | Path], fmt: str = "auto",
              annotators: Sequence[str] | None = None) -> tuple[list[SenseTag], str]:
    """Sense tags of the input files and the format read.

    Raganato and Senseval: the data XML first, then one key/answer file per annotator (or
    folders of them). OntoNotes ``.sense``, long TSV and WSbest: any number of files.
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise InputError("no input files")
    for p in paths:
        if not p.exists():
            raise InputError("no such file or folder", p)
    if fmt == "auto":
        first = _paths.files(paths[0], _paths.visible, recursive=False)
        fmt = detect("senses", first[0] if first else paths[0])
    if fmt in ("raganato", "senseval"):
        return read_format("senses", paths, fmt, annotators)[1], fmt
    reader = get("senses", fmt)
    files = _paths.all_files(paths, _paths.visible, recursive=False)
    tags: list[SenseTag] = []
    bar = report.LazyProgress(f"reading {fmt} files", len(files))
    try:
        for f in files:
            tags += reader.read([f], annotators)
            bar.advance()
    finally:
        bar.close()
    return tags, fmt


def load_inventory(spec: str | Path, senses: Sequence[str]) -> tuple[str, SenseInventory]:
    """(name, inventory) of an ``--inventory`` value: an OntoNotes XML or TSV file, a folder of
    OntoNotes XML files, or ``lexfile`` (WordNet lexicographer files of the tagged senses)."""
    if str(spec) == LEXFILE:
        return LEXFILE, lexfile_inventory(senses)
    path = Path(spec)
    if path.is_dir():
        files = sorted(path.glob("*.xml"))
        if not files:
            raise InputError("no OntoNotes inventory files (*.xml) in this folder", path)
        edges = inventory_reader.read_xml(files)
        name = path.name + "/"
    elif path.is_file():
        edges = inventory_reader.read(path)
        name = path.name
    else:
        raise InputError("no such inventory file or folder (or 'lexfile')", path)
    try:
        return name, SenseInventory.from_edges(edges)
    except ValueError as e:
        raise InputError(str(e), path) from None


def discover(folder: Path) -> tuple[list[tuple[list[Path], str]], list[Path]]:
    """Annotation sets ``(paths, format)`` and inventories in a folder laid out like
    ``sample_corpora/senses/``: Raganato or Senseval XML with key files in ``keys/``, long TSV,
    WSbest or ``.sense`` files beside; inventories are the entries named ``inventor*``
    (a folder of OntoNotes XML, or TSV/XML files)."""
    sets: list[tuple[list[Path], str]] = []
    inventories = sorted(p for p in folder.iterdir() if p.name.lower().startswith("inventor"))
    keys = folder / "keys"
    for f in sorted(p for p in folder.iterdir() if p.is_file() and p not in inventories):
        try:
            fmt = detect("senses", f)
        except InputError:
            continue
        if fmt in ("raganato", "senseval"):
            if keys.is_dir():
                sets.append(([f, keys], fmt))
        else:
            sets.append(([f], fmt))
    return sets, inventories


# ---- computing ---------------------------------------------------------------------------------
def schemes(table: SenseTable, inventories: Sequence[tuple[str, SenseInventory]],
            wanted: Sequence[str] | None = None, *, depth: int | None = None,
            level: int | None = None, set_distance: str = "passonneau",
            cluster: str = "lemma") -> list[SenseData]:
    """The tags under every wanted scheme (default: fine, multi when some tag has several
    senses, and coarse and extended for each inventory)."""
    if wanted is None:
        wanted = ["fine"] + (["multi"] if table.multi_sense else []) + \
            (list(WITH_INVENTORY) if inventories else [])
    unknown = [s for s in wanted if s not in SCHEMES]
    if unknown:
        raise InputError(f"unknown scheme(s) {', '.join(unknown)}; known: {', '.join(SCHEMES)}")
    if not inventories and any(s in WITH_INVENTORY for s in wanted):
        raise InputError("the coarse and extended schemes need --inventory")
    out = []
    for s in wanted:
        d = set_distance if s in ("extended", "multi") else None
        if s in WITH_INVENTORY:
            out += [to_reliability(table, s, inv, depth=depth, level=level, distance=d,
                                   cluster=cluster, inventory_name=name)
                    for name, inv in inventories]
        else:
            out.append(to_reliability(table, s, distance=d, cluster=cluster))
    return out


def coefficient_keys(sd: SenseData) -> list[str]:
    """Coefficients reported for a scheme (keys of :data:`coefficients.COEFFICIENTS`)."""
    if sd.distance.weighted:
        return ["alpha_prime", "alpha", "beta", "bias"]
    two = coef.kernel(sd.data).n_coders == 2
    return ["percent_agreement", "kappa" if two else "multi_kappa", "pi", "alpha", "beta",
            "bias"]


def _results(sd: SenseData, keys: Sequence[str]) -> list[coef.Result]:
    out = []
    for k in keys:
        out.append(coef.compute(k, sd.data, sd.distance if COEFFICIENTS[k].weighted else None))
    return out


def _clustered(data: ReliabilityData) -> bool:
    """Bootstrap over data.groups (there are two or more), else over items."""
    return data.groups is not None and len(np.unique(data.groups)) >= 2


def score(sd: SenseData, ci: dict | None = None) -> dict:
    """Results (and bootstrap intervals with the options ``ci``) of one scheme."""
    keys = coefficient_keys(sd)
    try:
        results = _results(sd, keys)
    except ValueError as e:
        raise InputError(f"{sd.name}: {e}") from None
    intervals = []
    if ci is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            intervals = inference.bootstrap(sd.data, [(k, sd.distance) for k in keys],
                                            inference.Bootstrap(
                                                ci["n_resamples"], ci["level"], ci["interval"],
                                                _clustered(sd.data), ci["seed"]))
    return {"results": results, "intervals": intervals}


def _compact(data: ReliabilityData, idx: np.ndarray) -> ReliabilityData:
    """The items ``idx`` of ``data`` with a label table cut down to the labels they use, so
    that per-lemma coefficients cost what the lemma's labels cost, not the whole table's."""
    codes = data.codes[:, idx]
    valid = codes >= 0
    used, inv = np.unique(codes[valid], return_inverse=True)
    new = np.full(codes.shape, -1, np.int32)
    new[valid] = inv.ravel()
    if data.is_set:
        lab = data.labels
        sizes = lab.sizes[used]
        labels = SetLabels(np.concatenate([[0], np.cumsum(sizes)]),
                           lab.elements[_ranges(lab.indptr[used], sizes)], lab.element_names)
    else:
        labels = [data.labels[u] for u in used.tolist()]
    return ReliabilityData(new, labels, list(data.coders), [data.items[i] for i in idx],
                           None if data.groups is None else data.groups[idx], data.group_names)


def by_lemma(table: SenseTable, sds: Sequence[SenseData], ci: dict | None = None,
             cluster: str = "lemma") -> list[dict]:
    """Per lemma and scheme: 1 − Do, β, α′ and α under the scheme's distance (for nominal
    schemes these are A_o, κ / multi-κ and π), with a bootstrap interval for α over the lemma's
    items (or documents, when ``cluster`` is ``document``)."""
    lemma_of, names, _ = table.item_groups("lemma")
    if lemma_of is None:
        raise InputError("--by-lemma: the input gives no lemmas")
    order = np.argsort(lemma_of, kind="stable")
    bounds = np.searchsorted(lemma_of[order], np.arange(len(names) + 1))
    ci = None if ci is None else {**ci, "progress": False}
    rows = []
    for li, lemma in enumerate(names):
        idx = order[bounds[li]:bounds[li + 1]]
        for sd in sds:
            sub = _compact(sd.data, idx)
            row = {"lemma": lemma, "scheme": sd.scheme, "inventory": sd.inventory,
                   "distance": sd.distance.name, "items": len(idx),
                   "pairable": int(((sub.codes >= 0).sum(0) >= 2).sum()),
                   "coders": int(((sub.codes >= 0).sum(1) > 0).sum())}
            vals = dict.fromkeys(("agreement", "beta", "alpha_prime", "alpha"), float("nan"))
            interval = None
            if row["pairable"]:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    ap = coef.alpha_prime(sub, sd.distance)
                    vals = {"agreement": 1 - ap.observed, "alpha_prime": ap.value,
                            "beta": coef.beta(sub, sd.distance).value,
                            "alpha": coef.alpha(sub, sd.distance).value}
                    if ci is not None and row["pairable"] >= 2:
                        clustered = cluster == "document" and _clustered(sub)
                        interval = inference.bootstrap(sub, [("alpha", sd.distance)],
                                                       inference.Bootstrap(
                            ci["n_resamples"], ci["level"], ci["interval"], clustered,
                            ci["seed"]))[0]
            rows.append({**row, **vals, "alpha_interval": interval})
    return rows


def confused_pairs(sd: SenseData, lemma_of: np.ndarray, lemma_names: Sequence[str],
                   top: int = 5) -> list[dict]:
    """The ``top`` most confused label pairs of each lemma: off-diagonal cells o_ck of
    Krippendorff's coincidence matrix (Σ over items of the judgement pairs {c, k} / (m_u − 1)),
    computed sparsely over the pairs that occur, with their share of the lemma's
    disagreement and the number of judgement pairs behind them."""
    data = sd.data
    n_i = (data.codes >= 0).sum(0)
    step = max(1, PAIRS_PER_CHUNK // max(1, data.n_coders * (data.n_coders - 1) // 2))
    keys, weights = [], []
    for start in range(0, data.n_items, step):
        a, b, both = item_pairs(data.codes[:, start:start + step])
        off = both & (a != b)
        item = np.broadcast_to(np.arange(start, start + a.shape[1]), a.shape)[off]
        lo, hi = np.minimum(a, b)[off], np.maximum(a, b)[off]
        keys.append(np.stack([lemma_of[item], lo, hi], 1))
        weights.append(1.0 / (n_i[item] - 1))
    k = np.concatenate(keys) if keys else np.zeros((0, 3), np.int64)
    w = np.concatenate(weights) if weights else np.zeros(0)
    if not len(k):
        return []
    # labels in the order of their names, so that ties and a/b read the same on any input
    used = np.unique(k[:, 1:])
    names = np.array([label_text(data.labels, c) for c in used.tolist()], dtype=object)
    rank = np.empty(data.n_labels, np.int64)
    rank[used] = np.argsort(np.argsort(names, kind="stable"), kind="stable")
    lo, hi = np.minimum(rank[k[:, 1]], rank[k[:, 2]]), np.maximum(rank[k[:, 1]], rank[k[:, 2]])
    cells, inv = np.unique(np.stack([k[:, 0], lo, hi], 1), axis=0, return_inverse=True)
    inv = inv.ravel()
    o = np.bincount(inv, weights=w)
    pairs = np.bincount(inv)
    lemma_total = np.bincount(cells[:, 0], weights=o, minlength=len(lemma_names))
    order = np.lexsort((cells[:, 2], cells[:, 1], -np.round(o, 12), cells[:, 0]))
    nth = np.arange(len(order)) - np.searchsorted(cells[order, 0], cells[order, 0])
    by_rank = names[np.argsort(names, kind="stable")]
    return [{"lemma": lemma_names[lem], "a": by_rank[x], "b": by_rank[y], "pairs": int(pairs[j]),
             "coincidences": float(o[j]), "share": float(o[j] / lemma_total[lem])}
            for j in order[nth < top].tolist() for lem, x, y in [cells[j].tolist()]]


def analyse(tags: Sequence[SenseTag], inventories: Sequence[str | Path] = (), *,
            wanted: Sequence[str] | None = None, depth: int | None = None,
            level: int | None = None, set_distance: str = "passonneau",
            cluster: str = "lemma", ci: dict | None = None, lemmas: bool = False,
            diagnostics: bool = False, top: int = 5) -> dict:
    """Everything ``corpusagree senses`` reports, as plain data (Result/Interval inside)."""
    table = SenseTable.from_tags(tags)
    if len(table.coders) < 2:
        raise InputError(f"agreement needs two or more annotators; found {table.coders}")
    invs = [load_inventory(s, table.sense_names) for s in inventories]
    names = [n for n, _ in invs]
    if len(set(names)) < len(names):
        invs = [(str(s), inv) for s, (_, inv) in zip(inventories, invs, strict=True)]
    sds = schemes(table, invs, wanted, depth=depth, level=level, set_distance=set_distance,
                  cluster=cluster)
    _, group_names, ungrouped = table.item_groups(cluster)
    out = {"tags": table.n_tags, "annotators": table.coders, "items": len(table.items),
           "senses": len(table.sense_names), "multi_sense_tags": table.multi_sense,
           "lemmas": len(table.item_groups("lemma")[1] or []), "cluster": cluster,
           "clusters": len(group_names or []), "schemes": [], "notes": []}
    per_item = np.bincount(table.item_of, minlength=len(table.items))
    out["missing"] = len(table.items) * len(table.coders) - table.n_tags
    out["unpairable_items"] = int((per_item < 2).sum())
    notes = out["notes"]
    if out["unpairable_items"]:
        notes.append(f"{out['unpairable_items']} item(s) have fewer than two tags and do not "
                     "count")
    if table.multi_sense and any(sd.scheme in ("fine", "coarse") for sd in sds):
        notes.append(f"{table.multi_sense} tag(s) have several senses: under the nominal fine "
                     "and coarse schemes each such set is one label (it agrees only with the "
                     "same set)")
    if cluster != "item" and group_names is None:
        notes.append(f"no item has a {cluster}: intervals resample items")
    elif ungrouped:
        notes.append(f"{ungrouped} item(s) have no {cluster}: they form one cluster '(none)'")
    if ci is not None and group_names is not None and len(group_names) < FEW_CLUSTERS:
        notes.append(f"only {len(group_names)} {cluster} cluster(s): the clustered bootstrap "
                     "interval is rough" + (" (one cluster: items are resampled instead)"
                                            if len(group_names) < 2 else ""))
    for sd in sds:
        entry = {"scheme": sd.scheme, "inventory": sd.inventory, "distance": sd.distance.name,
                 **sd.options, "labels": sd.data.n_labels,
                 "unknown": dict(sd.unknown.most_common()),
                 **score(sd, ci)}
        out["schemes"].append(entry)
    for name, _ in invs:
        sd = next((x for x in sds if x.inventory == name), None)
        if sd is not None and sd.unknown:
            n = sum(sd.unknown.values())
            some = ", ".join(f"{s} ×{c}" for s, c in sd.unknown.most_common(3))
            notes.append(f"inventory {name}: {n} of {len(table.senses)} tagged "
                         f"senses ({len(sd.unknown)} distinct) are not in it and stay "
                         f"themselves: {some}" + (", …" if len(sd.unknown) > 3 else ""))
    if lemmas:
        out["by_lemma"] = by_lemma(table, sds, ci, cluster)
    if diagnostics:
        lemma_of, lemma_names, _ = table.item_groups("lemma")
        if lemma_of is None:
            lemma_of, lemma_names = np.zeros(len(table.items), np.int64), ["(all)"]
        fine = next((x for x in sds if x.scheme == "fine"), sds[0])
        out["confused"] = {"scheme": fine.name,
                           "pairs": confused_pairs(fine, lemma_of, lemma_names, top)}
        out["diagnostics"] = {"scheme": fine.name, **report_diagnostics.diagnostics_json(
            fine.data, fine.distance, coefficient="alpha", n_items=max(top, 10))}
    out["scheme_data"] = sds
    return out


# ---- output ------------------------------------------------------------------------------------
def _interval_text(i: inference.Interval | None) -> str:
    if i is None:
        return ""
    return f"[{report.fmt(i.low)}, {report.fmt(i.high)}]"


def payload(res: dict) -> dict:
    """``--json``: the analysis with results and intervals as dicts."""
    out = {k: v for k, v in res.items() if k not in ("schemes", "scheme_data", "by_lemma")}
    out["schemes"] = []
    for s in res["schemes"]:
        coefs = []
        for j, r in enumerate(s["results"]):
            d = {"key": r.id, **r.as_dict()}
            if s["intervals"]:
                d["interval"] = s["intervals"][j].as_dict()
            coefs.append(d)
        out["schemes"].append({**{k: v for k, v in s.items()
                                  if k not in ("results", "intervals")},
                               "unknown_occurrences": sum(s["unknown"].values()),
                               "coefficients": coefs})
    if "by_lemma" in res:
        out["by_lemma"] = [{**{k: v for k, v in r.items() if k != "alpha_interval"},
                            "alpha_interval": r["alpha_interval"].as_dict()
                            if r["alpha_interval"] is not None else None}
                           for r in res["by_lemma"]]
    return out


def render(res: dict, title: str, level: float | None) -> None:
    """The tables on stdout, then the notes."""
    con = report.console()
    ci_head = [f"{level:.0%} CI"] if level is not None else []
    rows = []
    for s in res["schemes"]:
        for j, r in enumerate(s["results"]):
            i = s["intervals"][j] if s["intervals"] else None
            rows.append((s["scheme"], s["inventory"] or "", r.distance, r.symbol,
                         r.value, *([_interval_text(i)] if level is not None else []),
                         r.observed, r.expected, r.items, r.coders))
    head = (f"{title}: {res['tags']} sense tags by {len(res['annotators'])} annotators on "
            f"{res['items']} items ({res['missing']} missing), {res['senses']} senses, "
            f"{res['lemmas']} lemmas")
    if level is not None:
        head += f"; intervals clustered by {res['cluster']} ({res['clusters']} clusters)" \
            if res["clusters"] >= 2 else "; intervals over items"
    con.print(report.rows_table(head, ["scheme", "inventory", "distance", "coefficient",
                                       "value", *ci_head, "Do", "De", "items", "coders"], rows))
    if "by_lemma" in res:
        con.print(report.rows_table(
            f"{title}: by lemma (for set schemes 1 − Do, β, α′, α under the set distance)",
            ["lemma", "scheme", "inventory", "items", "A_o / 1−Do", "κ / β", "π / α′", "α",
             *([f"α {level:.0%} CI"] if level is not None else [])],
            [(r["lemma"], r["scheme"], r["inventory"] or "", r["items"], r["agreement"],
              r["beta"], r["alpha_prime"], r["alpha"],
              *([_interval_text(r["alpha_interval"])] if level is not None else []))
             for r in res["by_lemma"]]))
    if "confused" in res:
        con.print(report.rows_table(
            f"{title}: most confused sense pairs per lemma ({res['confused']['scheme']}; "
            "coincidences o_ck, share of the lemma's disagreement)",
            ["lemma", "sense a", "sense b", "judgement pairs", "o_ck", "share"],
            [(p["lemma"], p["a"], p["b"], p["pairs"], p["coincidences"], p["share"])
             for p in res["confused"]["pairs"]]))
    if "diagnostics" in res:
        d = res["diagnostics"]
        con.print(f"Diagnostics of the {d['scheme']} scheme:")
        data = next(sd.data for sd in res["scheme_data"] if sd.name == d["scheme"])
        for t in report_diagnostics.diagnostics_tables(data, payload=d,
                                                       group_label=res["cluster"]):
            con.print(t)
    for n in res["notes"]:
        con.print(f"note: {n}")


def run(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.annotations]
    inventories = list(args.inventory or [])
    if len(paths) == 1 and paths[0].is_dir() and args.format == "auto":
        sets, found = discover(paths[0])
        if not sets:
            raise InputError("no sense annotations found in this folder", paths[0])
        inventories = inventories or found
    else:
        sets = [(paths, args.format)]
    if args.ci is not None and not 0 < args.ci < 1:
        raise InputError(f"--ci: the level must be between 0 and 1, not {args.ci}")
    if args.resamples < 2 or args.top < 1 or (args.depth is not None and args.depth < 0):
        raise InputError("--resamples must be ≥ 2, --top ≥ 1 and --depth ≥ 0")
    ci = {"n_resamples": args.resamples, "level": args.ci, "seed": args.seed,
          "interval": args.interval, "progress": sys.stderr.isatty()} \
        if args.ci is not None else None
    annotators = [a.strip() for a in args.annotators.split(",")] if args.annotators else None
    level = None if args.level in (None, "top") else _positive(args.level, "--level")
    wanted = [s.strip() for s in args.schemes.split(",")] if args.schemes else None
    for files, fmt in sets:
        tags, fmt = read_tags(files, fmt, annotators)
        res = analyse(tags, inventories, wanted=wanted, depth=args.depth, level=level,
                      set_distance=args.set_distance, cluster=args.cluster, ci=ci,
                      lemmas=args.by_lemma, diagnostics=args.diagnostics, top=args.top)
        title = " ".join(str(f) for f in files)
        if args.json:
            report.print_json({"input": [str(f) for f in files], "format": fmt,
                               "inventories": [str(i) for i in inventories], **payload(res)})
        else:
            render(res, f"{title} ({fmt})", args.ci)
    return 0


def _positive(text: str, option: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise InputError(f"{option}: expected a positive integer or 'top', not {text!r}")
    return n


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "senses", help="word-sense agreement: fine, coarse, extended and multi-sense schemes",
        description="Agreement on word-sense tags under several sense-grouping schemes side "
        "by side (Artstein & Poesio 2005, §4.4): fine senses, coarse groups, extended senses "
        "es(s) with a set distance, and sets of senses; per inventory, with bootstrap "
        "intervals clustered by lemma or document.")
    p.add_argument("annotations", nargs="+", metavar="ANNOTATIONS",
                   help="Raganato/Senseval: the data XML then the annotators' key files (or a "
                   "folder of them); OntoNotes .sense, long TSV or WSbest files; or a folder "
                   "laid out like sample_corpora/senses/")
    p.add_argument("--format", choices=FORMATS, default="auto",
                   help="input format (default: sniffed from the first file)")
    p.add_argument("--annotators", help="annotator names, comma separated: one per key file "
                   "(default: the key file names), or the two of an OntoNotes .sense file")
    p.add_argument("--inventory", action="append", metavar="INV",
                   help="sense inventory (repeatable): OntoNotes XML file or folder, TSV "
                   "(sense, group, ...), or 'lexfile' (WordNet lexicographer files)")
    p.add_argument("--schemes", help="comma-separated subset of fine,coarse,extended,multi "
                   "(default: fine, multi when a tag has several senses, coarse and extended "
                   "per inventory)")
    p.add_argument("--level", default="top",
                   help="coarse scheme: groups N levels up, or 'top' (default) for the top "
                   "groups")
    p.add_argument("--depth", type=int, default=None,
                   help="extended scheme: groups up to N levels up (default: all)")
    p.add_argument("--set-distance", choices=SET_DISTANCES, default="passonneau",
                   help="distance of the extended and multi schemes (default: passonneau)")
    p.add_argument("--cluster", choices=CLUSTERS, default="lemma",
                   help="bootstrap clusters: lemma (default), document, or item (none)")
    add_ci_options(p, seed=0)
    p.add_argument("--by-lemma", action="store_true", help="breakdown by lemma")
    p.add_argument("--diagnostics", action="store_true",
                   help="most confused sense pairs per lemma (coincidence matrix as a table)")
    p.add_argument("--top", type=int, default=5, help="confused pairs per lemma (5)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def report_folder(path: Path, json_out: bool) -> bool:
    """Run the job on every annotation set of a folder like ``sample_corpora/senses/`` with
    its inventories and 95 % intervals; False when there is none."""
    if not discover(path)[0]:
        return False
    run(argparse.Namespace(annotations=[str(path)], format="auto", annotators=None,
                           inventory=None, schemes=None, level="top", depth=None,
                           set_distance="passonneau", cluster="lemma", ci=0.95,
                           resamples=1000, seed=0, interval="percentile", by_lemma=False,
                           diagnostics=False, top=5, json=json_out))
    return True
