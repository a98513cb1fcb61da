"""``corpusagree markables``: agreement on MMAX2 markables, per level (issue 5).

Two questions, per markable level:

* **Where are the markables?** (span agreement)
  - *token agreement*: items are the tokens of every document, a token's label is 1 when the
    annotator put it inside a markable of the level, else 0 (a document an annotator did not
    annotate is missing); nominal α, κ (multi-κ for more than two annotators) and A_o
    (Artstein & Poesio 2008, §2.3–2.4; Krippendorff 2011);
  - *span F1*: for each pair of annotators, 2·matched / (markables of one + of the other), over
    the documents both annotated; ``matched`` counts markables paired one-to-one by the
    alignment below (exact spans by default).
* **What did they say about the same markable?** (attribute agreement): markables are aligned
  across annotators; each aligned markable is an item and an annotator's value of a nominal
  attribute (e.g. PotTS ``polarity``) is the label; an annotator without a markable there (or
  without the attribute) is missing. Nominal α, κ / multi-κ and A_o, with counts.

Alignment (:func:`align`), as ``corpusagree coref`` aligns mentions: annotators are taken in
turn and each one's markables are matched one-to-one to the aligned markables (clusters) so far,
represented by their first markable, within a level and document; unmatched markables start new
clusters. ``exact``: identical token sets (discontinuous spans included; the k-th of several
identical markables pairs with the k-th); ``overlap``: Kuhn–Munkres maximising the summed Dice
overlap of tokens, any overlap counts. After reading, the work is vectorised over markables and
tokens (the assignment runs only on groups of markables that overlap ambiguously).
"""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

import networkx as nx
import numpy as np
import scipy.sparse as sp
from scipy.optimize import linear_sum_assignment
from scipy.sparse.csgraph import connected_components

from .. import report
from ..cli import add_ci_options
from ..model.chains import check_documents
from ..model.corpus import CorefAnnotation
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..readers import mmax2
from ..stats import coefficients as coef
from ..stats import inference

MATCHES = ("exact", "overlap")
#: attributes that are MMAX2 bookkeeping, not annotation
RESERVED = {"level", "id", "span", "mmax_level"}
_LINKISH = re.compile(r"(([^:;\s]+:)?markable_\w+(;([^:;\s]+:)?markable_\w+)*|set_\w+|empty|)",
                      re.IGNORECASE)


# ---- reading -----------------------------------------------------------------------------------
def read(paths: Sequence[str | PathLike], levels: Sequence[str] | None = None
         ) -> list[CorefAnnotation]:
    """Every markable of ``levels`` (default all declared) of MMAX2 projects, one
    :class:`CorefAnnotation` per (annotator, document), read document by document with a
    progress bar (see :mod:`readers.mmax2` for the layouts)."""
    by_doc: dict[str, list[tuple[str, Path]]] = {}
    for annotator, f in mmax2.projects(paths):
        by_doc.setdefault(f.stem, []).append((annotator, f))
    out: list[CorefAnnotation] = []
    bar = report.LazyProgress("reading MMAX2 documents", len(by_doc))
    try:
        for pairs in by_doc.values():
            out += mmax2.read([f for _, f in pairs], [a for a, _ in pairs], levels=levels)
            bar.advance()
    finally:
        bar.close()
    check_documents(out)
    return out


# ---- markables as arrays -----------------------------------------------------------------------
@dataclass
class Markables:
    """Every markable of a corpus as flat arrays (one entry per markable, fragments in CSR).

    ``annotated[a, d]``: annotator ``a`` has a file for document ``d``. ``attrs[m]`` is the
    markable's attribute dict (MMAX2 attribute names).
    """

    annotators: list[str]
    documents: list[str]
    n_tokens: np.ndarray
    annotated: np.ndarray
    levels: list[str]
    annotator: np.ndarray
    document: np.ndarray
    level: np.ndarray
    frag_ptr: np.ndarray
    frag_start: np.ndarray
    frag_end: np.ndarray
    attrs: list[dict] = field(repr=False)

    @property
    def token_offsets(self) -> np.ndarray:
        """Start of each document in the concatenation of all documents' tokens."""
        return np.concatenate([[0], np.cumsum(self.n_tokens)]).astype(np.int64)

    def tokens(self) -> tuple[np.ndarray, np.ndarray]:
        """(markable, corpus-global token index) for every token of every markable."""
        lengths = self.frag_end - self.frag_start
        frag_of = np.repeat(np.arange(len(self.frag_start)), lengths)
        first = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        tok = np.arange(int(lengths.sum())) - np.repeat(first, lengths) + \
            np.repeat(self.frag_start, lengths)
        markable = np.repeat(np.arange(len(self.annotator)), np.diff(self.frag_ptr))[frag_of]
        return markable, tok + self.token_offsets[self.document[markable]]

    def per_annotator(self, select: np.ndarray) -> np.ndarray:
        """Markables per annotator among ``select`` (a mask over markables)."""
        return np.bincount(self.annotator[select], minlength=len(self.annotators))


def collect(annotations: Sequence[CorefAnnotation], levels: Sequence[str] | None = None
            ) -> Markables:
    """Flatten annotations into :class:`Markables`; ``levels`` keeps those levels in that order
    (default: every level present, in their declared order). A mention's level is
    ``attrs["level"]`` (``"markable"`` when a reader sets none)."""
    annotators = list(dict.fromkeys(a.annotator for a in annotations))
    documents = list(dict.fromkeys(a.document.id for a in annotations))
    a_ix = {n: i for i, n in enumerate(annotators)}
    d_ix = {n: i for i, n in enumerate(documents)}
    n_tokens = np.zeros(len(documents), np.int64)
    annotated = np.zeros((len(annotators), len(documents)), bool)
    ann, doc, lev, nfrag, starts, ends, attrs = [], [], [], [], [], [], []
    order = nx.DiGraph()  # level a before level b in some annotation: the declared order
    for a in annotations:
        d = d_ix[a.document.id]
        n_tokens[d] = len(a.document.tokens)
        annotated[a_ix[a.annotator], d] = True
        ms = list(a.mentions.values())
        ann.append(np.full(len(ms), a_ix[a.annotator]))
        doc.append(np.full(len(ms), d))
        lev += [m.attrs.get("level", "markable") for m in ms]
        nfrag += [len(m.fragments) for m in ms]
        starts += [s for m in ms for s, _ in m.fragments]
        ends += [e for m in ms for _, e in m.fragments]
        attrs += [m.attrs for m in ms]
        nx.add_path(order, dict.fromkeys(lev[len(lev) - len(ms):]))
    first = {v: i for i, v in enumerate(dict.fromkeys(lev))}
    try:
        present = list(nx.lexicographical_topological_sort(order, key=first.__getitem__))
    except nx.NetworkXUnfeasible:
        present = list(first)
    wanted = present if levels is None else list(levels)
    lev_ix = {n: i for i, n in enumerate(wanted)}
    level = np.array([lev_ix.get(v, -1) for v in lev], np.int64)
    keep = level >= 0
    counts = np.array(nfrag, np.int64)
    frag_keep = np.repeat(keep, counts)
    return Markables(
        annotators, documents, n_tokens, annotated, wanted,
        np.concatenate(ann or [np.zeros(0)]).astype(np.int64)[keep],
        np.concatenate(doc or [np.zeros(0)]).astype(np.int64)[keep], level[keep],
        np.concatenate([[0], np.cumsum(counts[keep])]).astype(np.int64),
        np.array(starts, np.int64)[frag_keep], np.array(ends, np.int64)[frag_keep],
        [x for x, k in zip(attrs, keep, strict=True) if k])


# ---- alignment ---------------------------------------------------------------------------------
def _one_to_one(rows: np.ndarray, cols: np.ndarray, score: np.ndarray, exact: bool
                ) -> tuple[np.ndarray, np.ndarray]:
    """A one-to-one matching of the entries (row, col, score > 0) of a sparse score matrix.

    Entries are split into connected components; a component with one row and one column is
    its own pair. Otherwise, for ``exact`` (every component is complete: identical spans) the
    k-th row is paired with the k-th column; for overlap, Kuhn–Munkres maximises the summed
    score within the component."""
    if not len(rows):
        return rows, cols
    ur, ri = np.unique(rows, return_inverse=True)
    uc, ci = np.unique(cols, return_inverse=True)
    nr = len(ur)
    graph = sp.coo_matrix((np.ones(len(ri)), (ri, nr + ci)), shape=(nr + len(uc),) * 2)
    _, comp = connected_components(graph, directed=False)
    n_r = np.bincount(comp[:nr], minlength=comp.max() + 1)
    n_c = np.bincount(comp[nr:], minlength=comp.max() + 1)
    ce = comp[ri]
    simple = (n_r[ce] == 1) & (n_c[ce] == 1)
    out_r, out_c = [ri[simple]], [ci[simple]]
    if exact:
        rank_r = _rank_within(comp[:nr])
        rank_c = _rank_within(comp[nr:])
        pair = ~simple & (rank_r[ri] == rank_c[ci])
        out_r.append(ri[pair])
        out_c.append(ci[pair])
    else:
        amb = np.flatnonzero(~simple)
        amb = amb[np.argsort(ce[amb], kind="stable")]
        for e in np.split(amb, np.flatnonzero(np.diff(ce[amb])) + 1) if len(amb) else []:
            br, bri = np.unique(ri[e], return_inverse=True)
            bc, bci = np.unique(ci[e], return_inverse=True)
            block = np.zeros((len(br), len(bc)))
            block[bri, bci] = score[e]
            r, c = linear_sum_assignment(block, maximize=True)
            ok = block[r, c] > 0
            out_r.append(br[r[ok]])
            out_c.append(bc[c[ok]])
    return ur[np.concatenate(out_r)], uc[np.concatenate(out_c)]


def _rank_within(group: np.ndarray) -> np.ndarray:
    """0, 1, 2 … by position among the entries of the same group."""
    order = np.argsort(group, kind="stable")
    g = group[order]
    start = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    rank = np.empty(len(group), np.int64)
    rank[order] = np.arange(len(group)) - np.repeat(start, np.diff(np.r_[start, len(g)]))
    return rank


def align(mk: Markables, match: str = "exact") -> np.ndarray:
    """Cluster (aligned markable) id of every markable: a cluster holds at most one markable per
    annotator and never crosses levels or documents (see the module docstring)."""
    if match not in MATCHES:
        raise ValueError(f"match must be one of {', '.join(MATCHES)}")
    n = len(mk.annotator)
    markable, tok = mk.tokens()
    width = max(int(mk.token_offsets[-1]), 1)
    M = sp.csr_matrix((np.ones(len(tok)), (markable, mk.level[markable] * width + tok)),
                      shape=(n, max(len(mk.levels), 1) * width))
    size = np.diff(M.indptr)
    cluster = np.full(n, -1, np.int64)
    reps = np.zeros(0, np.int64)  # first markable of each cluster
    for a in range(len(mk.annotators)):
        mine = np.flatnonzero(mk.annotator == a)
        if len(reps) and len(mine):
            inter = (M[reps] @ M[mine].T).tocoo()
            r, x, shared = inter.row, inter.col, inter.data
            if match == "exact":
                ok = (shared == size[reps][r]) & (shared == size[mine][x])
                r, x, score = r[ok], x[ok], shared[ok]
            else:
                score = 2 * shared / (size[reps][r] + size[mine][x])
            r, x = _one_to_one(r, x, score, match == "exact")
            cluster[mine[x]] = r
        new = mine[cluster[mine] < 0]
        cluster[new] = len(reps) + np.arange(len(new))
        reps = np.concatenate([reps, new])
    return cluster


# ---- agreement ---------------------------------------------------------------------------------
def token_data(mk: Markables, level: int) -> ReliabilityData:
    """Annotators × tokens, 1 inside a markable of ``level`` else 0, missing where the annotator
    has no file for the document; items grouped by document."""
    doc_of_token = np.repeat(np.arange(len(mk.documents)), mk.n_tokens)
    codes = np.where(mk.annotated[:, doc_of_token], 0, -1).astype(np.int32)
    markable, tok = mk.tokens()
    on = mk.level[markable] == level
    codes[mk.annotator[markable[on]], tok[on]] = 1
    return ReliabilityData(codes, [0, 1], list(mk.annotators), [], doc_of_token,
                           list(mk.documents))


@dataclass
class SpanF1:
    """Pairwise unit-level F1: ``f1[a, b] = 2·matched[a, b] / (n[a, b] + n[b, a])`` with
    ``n[a, b]`` the markables of ``a`` in documents ``b`` also annotated."""

    matched: np.ndarray
    n: np.ndarray
    f1: np.ndarray

    @property
    def mean(self) -> float:
        """Mean F1 over annotator pairs with markables (nan if none)."""
        r, s = np.triu_indices(len(self.f1), 1)
        vals = self.f1[r, s]
        return float(np.nanmean(vals)) if (~np.isnan(vals)).any() else float("nan")


def span_f1(mk: Markables, cluster: np.ndarray, level: int) -> SpanF1:
    """:class:`SpanF1` of one level from the alignment (no loop over annotator pairs)."""
    on = mk.level == level
    C = len(mk.annotators)
    _, local = np.unique(cluster[on], return_inverse=True)
    present = np.zeros((C, int(local.max(initial=-1)) + 1))
    present[mk.annotator[on], local] = 1
    matched = present @ present.T
    per_doc = np.zeros((C, len(mk.documents)))
    np.add.at(per_doc, (mk.annotator[on], mk.document[on]), 1)
    n = per_doc @ mk.annotated.T.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2 * matched / (n + n.T)
    return SpanF1(matched.astype(np.int64), n.astype(np.int64), f1)


def attribute_data(mk: Markables, cluster: np.ndarray, level: int, attribute: str
                   ) -> ReliabilityData:
    """Annotators × aligned markables of ``level``, label = the value of ``attribute`` (missing
    where the annotator has no markable in the cluster or it lacks the attribute); items are
    grouped by document and named ``document:first markable id``."""
    on = np.flatnonzero(mk.level == level)
    first_of, local = np.unique(cluster[on], return_index=True, return_inverse=True)[1:]
    values = np.array([mk.attrs[m].get(attribute) for m in on], dtype=object)
    has = np.not_equal(values, None)
    labels, inv = np.unique(values[has].astype(str), return_inverse=True)
    codes = np.full((len(mk.annotators), len(first_of)), -1, np.int32)
    codes[mk.annotator[on[has]], local[has]] = inv
    rep = on[first_of]
    items = [f"{mk.documents[d]}:{mk.attrs[m].get('id', m)}"
             for d, m in zip(mk.document[rep].tolist(), rep.tolist(), strict=True)]
    return ReliabilityData(codes, labels.tolist(), list(mk.annotators), items,
                           mk.document[rep], list(mk.documents))


def nominal_attributes(mk: Markables, level: int) -> list[str]:
    """Attributes of a level's markables that hold labels: not MMAX2 bookkeeping, not pointers
    or set ids (every value ``empty``, ``[level:]markable_N`` or ``set_N``)."""
    on = np.flatnonzero(mk.level == level)
    seen: dict[str, bool] = {}
    for m in on.tolist():
        for k, v in mk.attrs[m].items():
            if k not in RESERVED:
                seen[k] = seen.get(k, False) or not _LINKISH.fullmatch(str(v).strip())
    return [k for k, labelled in seen.items() if labelled]


def _nominal_family(data: ReliabilityData) -> list[coef.Result]:
    """α, κ (multi-κ for more than two annotators) and A_o; undefined values are nan."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", coef.DegenerateWarning)
        k = coef.kappa if coef.kernel(data).n_coders == 2 else coef.multi_kappa
        return [coef.alpha(data), k(data), coef.percent_agreement(data)]


def agreement(data: ReliabilityData, ci: dict | None = None) -> dict:
    """The nominal family on the items of ``data`` with two or more judgements (so that κ's
    per-annotator distributions count compared items only, as Cohen's κ does), plus
    document-clustered bootstrap intervals for α and κ when ``ci`` holds bootstrap options;
    or the reason it is undefined."""
    pairable = (data.codes >= 0).sum(0) >= 2
    if not pairable.any():
        return {"results": [], "intervals": [], "note": "no item has two judgements"}
    data = data.subset(items=pairable)
    results = _nominal_family(data)
    intervals = []
    if ci is not None and len(np.unique(data.groups)) >= 2:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            intervals = inference.bootstrap(
                data, [("alpha", "nominal"), (results[1].id, "nominal")], inference.Bootstrap(
                    ci["n_resamples"], ci["level"], ci["interval"], None, ci["seed"]))
    return {"results": results, "intervals": intervals}


# ---- the job -----------------------------------------------------------------------------------
def analyse(annotations: Sequence[CorefAnnotation], levels: Sequence[str] | None = None,
            attributes: Sequence[str] | None = None, match: str = "exact",
            ci: dict | None = None) -> dict:
    """Everything ``corpusagree markables`` reports, as plain data (Result/Interval objects
    inside). ``levels``: default every level present but ``sentence``; ``attributes``: default
    the :func:`nominal_attributes` of each level."""
    if levels is None:
        present = collect(annotations).levels
        levels = [lv for lv in present if lv != "sentence"] or present
    mk = collect(annotations, levels)
    if len(mk.annotators) < 2:
        raise InputError(f"markable agreement needs two or more annotators; found "
                         f"{len(mk.annotators)} ({', '.join(mk.annotators)})")
    cluster = align(mk, match)
    out = {"annotators": mk.annotators, "documents": len(mk.documents), "match": match,
           "levels": []}
    for li, name in enumerate(mk.levels):
        on = mk.level == li
        wanted = nominal_attributes(mk, li) if attributes is None else \
            [a for a in attributes if any(a in mk.attrs[m] for m in np.flatnonzero(on))]
        size = np.bincount(cluster[on], minlength=len(cluster))  # cluster ids < markables
        alone = on & (size[cluster] == 1)
        entry = {"level": name, "markables": _by_annotator(mk, mk.per_annotator(on)),
                 "aligned": int((size >= 2).sum()), "unaligned": int(alone.sum()),
                 "unaligned_by_annotator": _by_annotator(mk, mk.per_annotator(alone)),
                 "tokens": agreement(token_data(mk, li), ci),
                 "span_f1": span_f1(mk, cluster, li), "attributes": []}
        for a in wanted:
            data = attribute_data(mk, cluster, li, a)
            valid = data.codes >= 0
            C, L = data.codes.shape[0], len(data.labels)
            rows = np.broadcast_to(np.arange(C)[:, None], data.codes.shape)[valid]
            n_ck = np.bincount(data.codes[valid] * C + rows, minlength=L * C).reshape(L, C)
            counts = {lab: dict(zip(mk.annotators, n.tolist(), strict=True))
                      for lab, n in zip(data.labels, n_ck, strict=True)}
            entry["attributes"].append({"attribute": a, "values": counts,
                                        "judgements": int(valid.sum()),
                                        "items": int((valid.sum(0) >= 2).sum()),
                                        **agreement(data, ci)})
        out["levels"].append(entry)
    if attributes is not None:
        found = {a["attribute"] for lv in out["levels"] for a in lv["attributes"]}
        lost = [a for a in attributes if a not in found]
        if lost:
            raise InputError(f"attribute(s) {', '.join(lost)} on no markable of level(s) "
                             f"{', '.join(mk.levels)}")
    return out


def _by_annotator(mk: Markables, counts: np.ndarray) -> dict[str, int]:
    return dict(zip(mk.annotators, counts.tolist(), strict=True))


def as_json(res: dict) -> dict:
    """``--json``: the analysis with results and intervals as dicts."""
    def family(f: dict) -> dict:
        return {**{k: v for k, v in f.items() if k not in ("results", "intervals")},
                "coefficients": [r.as_dict() for r in f["results"]],
                "intervals": [i.as_dict() for i in f["intervals"]]}

    levels = []
    for lv in res["levels"]:
        f1: SpanF1 = lv["span_f1"]
        names = res["annotators"]
        r, s = np.triu_indices(len(names), 1)
        levels.append({
            **{k: lv[k] for k in ("level", "markables", "aligned", "unaligned",
                                  "unaligned_by_annotator")},
            "token_agreement": family(lv["tokens"]),
            "span_f1": {"mean": f1.mean, "pairs": [
                {"a": names[i], "b": names[j], "f1": f1.f1[i, j], "matched": f1.matched[i, j],
                 "markables_a": f1.n[i, j], "markables_b": f1.n[j, i]}
                for i, j in zip(r.tolist(), s.tolist(), strict=True)]},
            "attributes": [{**{k: v for k, v in a.items() if k not in ("results", "intervals",
                                                                     "note")},
                            **family(a)} for a in lv["attributes"]]})
    return {"annotators": res["annotators"], "documents": res["documents"],
            "match": res["match"], "levels": levels}


def _cell(f: dict, k: int) -> str:
    """Value of the k-th coefficient of a family, with its interval when there is one."""
    if not f["results"]:
        return "—"
    text = report.fmt(f["results"][k].value, 3)
    if k < len(f["intervals"]):
        i = f["intervals"][k]
        text += f" [{report.fmt(i.low, 3)}, {report.fmt(i.high, 3)}]"
    return text


def render(res: dict, title: str) -> None:
    """Tables on stdout: per-level span agreement, pairwise span F1 (> 2 annotators),
    attribute agreement."""
    con = report.console()
    names = res["annotators"]
    kap = "κ" if len(names) == 2 else "multi-κ"
    rows = [(lv["level"], " / ".join(str(v) for v in lv["markables"].values()),
             str(lv["aligned"]), str(lv["unaligned"]), _cell(lv["tokens"], 0),
             _cell(lv["tokens"], 1), _cell(lv["tokens"], 2), report.fmt(lv["span_f1"].mean, 3))
            for lv in res["levels"]]
    con.print(report.rows_table(
        f"{title}: span agreement ({len(names)} annotators: {', '.join(names)}; "
        f"{res['documents']} documents; {res['match']} match)",
        ["level", "markables", "aligned", "unaligned", "token α", f"token {kap}",
         "token A_o", "span F1"], rows))
    con.print("token α/κ/A_o: nominal agreement on whether each token is inside a markable of "
              "the level (documents an annotator lacks are missing); span F1: markables paired "
              f"one-to-one by {res['match']} span, 2·matched / (n_a + n_b), mean over "
              "annotator pairs; aligned: markables marked by ≥ 2 annotators, unaligned: by one.")
    if len(names) > 2:
        for lv in res["levels"]:
            con.print(report.matrix_table(f"{lv['level']}: pairwise span F1", names,
                                          lv["span_f1"].f1))
    attr_rows = [(lv["level"], a["attribute"], str(len(a["values"])), str(a["items"]),
                  str(a["judgements"]), _cell(a, 0), _cell(a, 1), _cell(a, 2))
                 for lv in res["levels"] for a in lv["attributes"]]
    if attr_rows:
        con.print(report.rows_table(
            f"{title}: attribute agreement over aligned markables (nominal)",
            ["level", "attribute", "values", "items", "judgements", "α", kap, "A_o"],
            attr_rows))
        con.print("items: aligned markables with the attribute from ≥ 2 annotators; "
                  "judgements: attribute values on aligned and unaligned markables.")


def run(args: argparse.Namespace) -> int:
    levels = _split(args.level)
    anns = read(args.paths, levels)
    if not anns:
        raise InputError("no MMAX2 documents found", args.paths[0])
    ci = {"n_resamples": args.resamples, "seed": args.seed, "level": args.ci,
          "interval": args.interval, "progress": sys.stderr.isatty()} if args.ci else None
    res = analyse(anns, levels, _split(args.attribute), args.match, ci)
    if args.json:
        report.print_json(as_json(res))
    else:
        render(res, ", ".join(str(p) for p in args.paths))
    return 0


def _split(values: list[str] | None) -> list[str] | None:
    """Repeated and comma-separated option values, in order."""
    if not values:
        return None
    return [v.strip() for raw in values for v in raw.split(",") if v.strip()]


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "markables", help="MMAX2 markable agreement: spans per level, attribute values",
        description="Per markable level: token-level α/κ on markable presence and pairwise "
        "span F1 between annotators; nominal α/κ/A_o on markable attributes (e.g. polarity) "
        "over markables aligned across annotators.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="MMAX2 project directories (one per annotator), .mmax files, or a "
                   "directory of annotator project directories over shared base data")
    p.add_argument("--level", action="append", metavar="L",
                   help="markable level (repeatable or comma-separated; default: every level "
                   "but 'sentence')")
    p.add_argument("--attribute", action="append", metavar="A",
                   help="markable attribute to compare (repeatable or comma-separated; default: "
                   "every attribute that is not a pointer or set id)")
    p.add_argument("--match", choices=MATCHES, default="exact",
                   help="align markables by exact span (default) or by best mutual overlap")
    add_ci_options(p, seed=0)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def report_folder(path: Path, json_out: bool) -> bool:
    """Run the job with its defaults on the MMAX2 project(s) in ``path`` or ``path/mmax2``
    (e.g. ``sample_corpora/coref/``); False when there are none."""
    for candidate in (path, path / "mmax2"):
        if candidate.is_dir() and mmax2.sniff(candidate):
            run(argparse.Namespace(paths=[str(candidate)], level=None, attribute=None,
                                   match="exact", ci=False, resamples=1000, seed=0,
                                   json=json_out))
            return True
    return False
