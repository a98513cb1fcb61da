"""NER-style span agreement as the jobs report it: the part of a report that the ``spans``
and ``markables`` jobs share.

From the matching of :mod:`corpusagree.stats.nerscores` (SemEval-2013 Task 9.1's four modes
as ``nervaluate`` counts them; Segura-Bedmar, Martínez & Herrero-Zazo 2013, §4), a
:class:`NerPart` of a continuum holds

* ``ner``: per annotator pair (the first the reference), micro (the pairs' counts summed)
  and macro (the mean of the pairs' scores) over the pairs, per type, over the types (micro)
  and their mean (macro), every mode's counts and precision, recall and F1, the all-types
  F1 with a bootstrap interval over documents (:func:`_ner_rows`);
* ``ner_tokens``: token κ and α per pair on all tokens and on the tokens either annotator
  marked (Brandsen, Verberne, Wansleeben & Lambers 2020, §4.2);
* ``disagreements``: the first strict disagreements by document and offset;

and :func:`ner_tables` renders one or several of them (a job's levels) as the report's
tables ``ner``, ``ner_labels``, ``ner_tokens`` and ``disagreements``.

>>> from corpusagree.model.continuum import Continuum
>>> c = Continuum.from_units([("a", 0, 2, "PER"), ("b", 0, 2, "PER"), ("a", 4, 6, "LOC"),
...                           ("b", 4, 5, "LOC")], end=8, unit="token")
>>> part = ner_part(c, min_overlap=1.0, bootstrap=None, disagreements=5, texts={},
...                 notes=[])
>>> row = part.rows[0]
>>> row["mode"], row["correct"], row["incorrect"], row["f1"]
('strict', 1, 1, 0.5)
>>> [t.id for t in ner_tables([((), part)])]
['ner', 'ner_labels', 'ner_tokens', 'disagreements']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..model.continuum import Continuum
from ..model.io import excerpt
from ..model.params import Param
from ..report.tables import Column, Record, Records, Table
from ..stats import nerscores as ns
from ..stats.inference import FEW_CLUSTERS, Bootstrap, refit_bootstrap
from .base import interval_dict

__all__ = ["PARAMS", "TEXT", "NerDisagreement", "NerPart", "NerScores", "TokenAgreement",
           "ner_part", "ner_tables", "unit_text"]

#: the keywords of the NER part that a job's ``analyse`` takes and checks (with its own)
PARAMS = (
    Param("min_overlap", float, low=1, high=100),
    Param("disagreements", int, low=0),
)
#: the most characters of a unit's text shown
TEXT = 40


@dataclass
class NerScores(Record):
    """One mode's counts and scores over one pair (or all) and one type (or all): a row of
    :attr:`NerPart.rows` (:func:`_ner_rows`).

    Attributes
    ----------
    over_pairs : str
        ``pair`` (one annotator pair), ``micro`` (the pairs' counts summed) or ``macro`` (the
        mean of the pairs' scores).
    a, b : str or None
        The pair (a read as the reference, b as the response), None over the pairs.
    label : str or None
        The type (``over_types`` ``one``), None over the types.
    over_types : str
        ``one`` (one type), ``micro`` (every type's counts) or ``macro`` (the mean of the
        types' scores).
    mode : str
        ``strict``, ``exact``, ``partial`` or ``ent_type`` (SemEval-2013 Task 9.1).
    correct, incorrect, partial, missed, spurious, possible, actual : int or None
        The mode's counts as nervaluate counts them, None in an average.
    precision, recall, f1 : float
        Its scores (partial matches count ½ in ``partial`` and ``ent_type``).
    interval : dict or None
        The bootstrap interval of ``f1`` over documents (the all-types rows of a pair, micro
        and macro), None without one.
    """

    over_pairs: str
    a: str | None
    b: str | None
    label: str | None
    over_types: str
    mode: str
    correct: int | None
    incorrect: int | None
    partial: int | None
    missed: int | None
    spurious: int | None
    possible: int | None
    actual: int | None
    precision: float
    recall: float
    f1: float
    interval: dict | None


@dataclass
class TokenAgreement(Record):
    """Token κ and α of two annotators, each token labelled with its span's type or O
    (Brandsen et al. 2020, §4.2): a row of :attr:`NerPart.tokens`.

    Attributes
    ----------
    a, b : str
        The annotators.
    tokens : int
        The tokens of the documents both annotated.
    marked : int
        Those either annotator marked.
    kappa_all, alpha_all : float
        Cohen's κ and Krippendorff's α (nominal) on all tokens, nan where undefined.
    kappa_marked, alpha_marked : float
        The same on the marked tokens.
    """

    a: str
    b: str
    tokens: int
    marked: int
    kappa_all: float
    alpha_all: float
    kappa_marked: float
    alpha_marked: float


@dataclass
class NerDisagreement(Record):
    """A strict disagreement between two annotators' spans: a row of
    :attr:`NerPart.disagreements` (the spans and markables jobs).

    Attributes
    ----------
    document : str
        Its document.
    a, b : str
        The annotators: a read as the reference, b as the response.
    outcome : str
        ``incorrect`` or ``partial`` (other boundaries or type), ``spurious`` (b's span
        alone) or ``missed`` (a's span alone), as the NER scorers name them.
    span_a, span_b : dict or None
        Each one's span (``start``, ``end``, ``category``, ``text``), None where it has none.
    """

    document: str
    a: str
    b: str
    outcome: str
    span_a: dict | None
    span_b: dict | None


@dataclass(repr=False)
class NerPart:
    """NER-style agreement of one continuum (see the module docstring).

    Attributes
    ----------
    rows : Records of NerScores
        The four modes' counts and scores (:func:`_ner_rows`).
    tokens : Records of TokenAgreement
        Token κ and α per pair, on all tokens and on the tokens either marked.
    disagreements : Records of NerDisagreement
        The first strict disagreements by document and offset.
    """

    rows: Records[NerScores] = field(default_factory=Records)
    tokens: Records[TokenAgreement] = field(default_factory=Records)
    disagreements: Records[NerDisagreement] = field(default_factory=Records)

    def __repr__(self) -> str:
        return (f"NerPart({len(self.rows)} rows, {len(self.tokens)} pairs' tokens, "
                f"{len(self.disagreements)} disagreements)")

    def to_dict(self) -> dict:
        """The part as the JSON has it: ``ner``, ``ner_tokens``, ``disagreements``."""
        return {"ner": self.rows, "ner_tokens": self.tokens,
                "disagreements": self.disagreements}


def ner_part(c: Continuum, *, min_overlap: float, bootstrap: Bootstrap | None,
             disagreements: int, texts: Mapping, notes: list[str]) -> NerPart:
    """The NER part of a continuum: every pair matched once per mode
    (:func:`corpusagree.stats.nerscores.ner_agreement`), then its rows; what a reader must
    know is added to ``notes``.

    Parameters
    ----------
    c : Continuum
        The spans (positions in whole tokens or characters for token κ).
    min_overlap : float
        The share (per cent) of a span the other annotator's span must cover to overlap it.
    bootstrap : Bootstrap, optional
        F1 intervals over documents (two or more).
    disagreements : int
        How many strict disagreements are listed.
    texts : mapping
        Each document's tokens or text, to show the spans' text.
    notes : list of str
        Where notes are added.

    Returns
    -------
    NerPart
    """
    agreement = ns.ner_agreement(c, min_overlap)
    if len(c.categories) == 1 and agreement.pairs:
        notes.append(f"one type ({c.categories[0]}): the NER modes' strict = exact and "
                     "ent_type counts every overlap correct; token κ on the marked tokens is "
                     "≤ 0 by construction (no marked token is O for both): read κ on all "
                     "tokens")
    return NerPart(Records(_ner_rows(c, agreement, bootstrap, notes)),
                   Records(_token_rows(c, agreement, notes)),
                   Records(_disagreements(c, agreement, disagreements, texts)))


def _score_row(counts: np.ndarray | None, mode: str, values: dict | None = None) -> dict:
    """A mode's counts (None: an average) and its scores."""
    if counts is None:
        return {**dict.fromkeys(ns.COUNTS), "possible": None, "actual": None,
                **{k: float(values[k]) for k in ("precision", "recall", "f1")}}
    sc = ns.scores(counts, mode)
    return {**dict(zip(ns.COUNTS, counts.tolist(), strict=True)),
            "possible": int(sc["possible"]), "actual": int(sc["actual"]),
            "precision": float(sc["precision"]), "recall": float(sc["recall"]),
            "f1": float(sc["f1"])}


def _f1s(counts: np.ndarray) -> np.ndarray:
    """F1 of pairs × modes × counts: each pair's, the micro average over the pairs and the
    macro average, every mode (one flat vector, the bootstrap's statistics)."""
    f1 = ns.f1_by_mode(counts)
    return np.concatenate([f1.ravel(), ns.f1_by_mode(counts.sum(axis=0)), f1.mean(axis=0)])


def _ner_rows(c: Continuum, r: ns.NerAgreement, bootstrap: Bootstrap | None,
              notes: list[str]) -> list[NerScores]:
    """One row per (pairs: each pair, micro, macro) × (types: all, each, macro) × mode, in
    that order; F1 of the all-types rows with bootstrap intervals over documents."""
    names = c.annotators
    P, D = r.counts.shape[:2]
    if not P:
        return []
    intervals: list = [None] * (P + 2) * len(ns.MODES)
    if bootstrap is not None and D >= 2:
        labels = [(f"f1_{m}", "") for _ in range(P + 2) for m in ns.MODES]
        intervals = refit_bootstrap(lambda w: _f1s(np.einsum("pdmc,d->pmc", r.counts, w)),
                                    np.arange(D), bootstrap, labels, clustered=True)
        if D < FEW_CLUSTERS:
            notes.append(f"only {D} documents: the NER F1 intervals, over documents, are "
                         "rough")
    elif bootstrap is not None:
        notes.append("one document: the NER F1 has no interval (the bootstrap resamples "
                     "documents)")
    total = r.counts.sum(axis=1)                      # pairs × modes × counts
    by_label = r.label_counts.sum(axis=1)             # pairs × types × modes × counts
    rows = []

    def add(over_pairs, a, b, label, over_types, k, counts, values=None, iv=None):
        rows.append(NerScores(over_pairs, a, b, label, over_types, ns.MODES[k],
                              **_score_row(counts, ns.MODES[k], values),
                              interval=interval_dict(iv)))

    def per_type_macro(label_counts, seen, k):
        sc = ns.scores(label_counts[seen, k], ns.MODES[k])
        return {x: sc[x].mean() if seen.any() else float("nan")
                for x in ("precision", "recall", "f1")}

    for p, (a, b) in enumerate(r.pairs):
        for k in range(len(ns.MODES)):
            add("pair", names[a], names[b], None, "micro", k, total[p, k],
                iv=intervals[p * len(ns.MODES) + k])
            for t, label in enumerate(c.categories):
                if r.labels_seen[p, t]:
                    add("pair", names[a], names[b], label, "one", k, by_label[p, t, k])
            add("pair", names[a], names[b], None, "macro", k, None,
                per_type_macro(by_label[p], r.labels_seen[p], k))
    seen = r.labels_seen.any(axis=0)
    for k in range(len(ns.MODES)):
        add("micro", None, None, None, "micro", k, total[:, k].sum(axis=0),
            iv=intervals[P * len(ns.MODES) + k])
        for t, label in enumerate(c.categories):
            if seen[t]:
                add("micro", None, None, label, "one", k, by_label[:, t, k].sum(axis=0))
        add("micro", None, None, None, "macro", k, None,
            per_type_macro(by_label.sum(axis=0), seen, k))
    pair_rows = [x for x in rows if x.over_pairs == "pair"]
    for k, mode in enumerate(ns.MODES):
        for label, over in [(None, "micro"), *((t, "one") for t in c.categories),
                            (None, "macro")]:
            same = [x for x in pair_rows if x.mode == mode and x.label == label
                    and x.over_types == over]
            if not same:
                continue
            add("macro", None, None, label, over, k, None,
                {x: np.mean([y[x] for y in same]) for x in ("precision", "recall", "f1")},
                iv=intervals[(P + 1) * len(ns.MODES) + k] if over == "micro" else None)
    return rows


def _token_rows(c: Continuum, r: ns.NerAgreement, notes: list[str]
                ) -> list[TokenAgreement]:
    if r.tokens is None:
        if r.pairs:
            notes.append(f"token κ: the positions are not whole {c.unit}s")
        return []
    return [TokenAgreement(c.annotators[a], c.annotators[b], **t)
            for (a, b), t in zip(r.pairs, r.tokens, strict=True)]


def _span_of(c: Continuum, u: int, texts: Mapping) -> dict:
    s, e = float(c.start[u]), float(c.end[u])
    text = texts.get(c.documents[c.doc[u]])
    shown = None
    if text is not None and s == int(s) and e == int(e):
        piece = text[int(s):int(e)] if isinstance(text, str) else " ".join(text[int(s):int(e)])
        shown = excerpt(piece, TEXT).strip("'\"")
    return {"start": s, "end": e, "category": c.categories[c.category[u]], "text": shown}


def _disagreements(c: Continuum, r: ns.NerAgreement, n: int, texts: Mapping
                   ) -> list[NerDisagreement]:
    """The first n strict disagreements by document, offset and pair: a span of b that
    matched a span of a with other boundaries or type (incorrect), a span of b alone
    (spurious), a span of a alone (missed)."""
    kinds = np.array(["correct", "incorrect", "partial", "spurious"])
    rows = []
    for p, m in enumerate(r.outcomes):
        ut, up = r.units[p]
        off = m.outcome != ns.CORRECT
        ref = np.where(m.taken[off] >= 0, ut[np.maximum(m.taken[off], 0)], -1)
        rows += [(p, i, int(x), kinds[o]) for i, x, o in
                 zip(up[off].tolist(), ref.tolist(), m.outcome[off].tolist(), strict=True)]
        rows += [(p, -1, int(x), "missed") for x in ut[m.missed].tolist()]
    if not rows or not n:
        return []
    first = [u if u >= 0 else v for _, u, v, _ in rows]
    key = np.lexsort((np.array([x[0] for x in rows]), c.start[first], c.doc[first]))[:n]
    out = []
    for k in key.tolist():
        p, resp, ref, kind = rows[k]
        a, b = r.pairs[p]
        u = resp if resp >= 0 else ref
        out.append(NerDisagreement(c.documents[c.doc[u]], c.annotators[a], c.annotators[b],
                                   str(kind), _span_of(c, ref, texts) if ref >= 0 else None,
                                   _span_of(c, resp, texts) if resp >= 0 else None))
    return out


def unit_text(u: dict | None) -> str:
    """A span as a table shows it: ``start–end category text`` (∅: none).

    Examples
    --------
    >>> unit_text({"start": 4, "end": 6, "category": "LOC", "text": "New York"})
    '4–6 LOC New York'
    """
    if u is None:
        return "∅"
    text = f" {u['text']}" if u.get("text") else ""
    return f"{u['start']:g}–{u['end']:g} {u['category']}{text}"


_NOTE = ("SemEval-2013 Task 9.1 modes as nervaluate counts them (Segura-Bedmar et al. 2013): a "
         "pair's first annotator is the reference; precision and recall count partial matches "
         "as ½ in partial and ent_type; all (micro): the pairs' counts summed, all (macro): "
         "the mean of the pairs' scores")
_SCORES = (*ns.COUNTS, "possible", "actual", "precision", "recall", "f1")


def _count_columns() -> list[Column]:
    return [Column(k, k, "int") for k in ns.COUNTS] + [
        Column("possible", "possible", "int", optional=True),
        Column("actual", "actual", "int", optional=True),
        Column("precision", "P", "float"), Column("recall", "R", "float"),
        Column("f1", "F1", "float")]


def _pair(x: NerScores) -> str:
    return f"{x.a}–{x.b}" if x.over_pairs == "pair" else f"all ({x.over_pairs})"


def ner_tables(parts: Sequence[tuple[Sequence, NerPart]], lead: Sequence[Column] = ()
               ) -> list[Table]:
    """The tables of one or several NER parts: ``ner`` (by annotator pair, every type),
    ``ner_labels`` (by type, the pairs' counts summed), ``ner_tokens`` and
    ``disagreements``, each there when a part has its rows.

    Parameters
    ----------
    parts : list of (values, NerPart)
        Each part with the values of its ``lead`` columns (e.g. its markable level).
    lead : list of Column
        Columns that say which part a row is of, first in every table.

    Returns
    -------
    list of Table
    """
    lead = list(lead)
    rows = [(v, x) for v, p in parts for x in p.rows]
    iv = [x.interval for _, x in rows if x.interval]
    out = []
    if rows:
        cols = [*lead, Column("pair", "pair"), Column("mode", "mode"), *_count_columns()] + (
            [Column("interval", f"{iv[0]['level']:.0%} CI", "interval")] if iv else [])
        out.append(Table(
            "ner", "NER-style agreement by annotator pair", cols,
            [[*v, _pair(x), x.mode, *(x[k] for k in _SCORES)]
             + ([None if x.interval is None else (x.interval["low"], x.interval["high"])]
                if iv else [])
             for v, x in rows if x.over_types == "micro"], [_NOTE]))
        out.append(Table(
            "ner_labels", "NER-style agreement by type, every pair's counts summed",
            [*lead, Column("label", "type"), Column("mode", "mode"), *_count_columns()],
            [[*v, x.label or "(macro)", x.mode, *(x[k] for k in _SCORES)]
             for v, x in rows if x.over_types != "micro" and x.over_pairs == "micro"],
            ["(macro): the mean of the types' scores, over the types either annotator "
             "marked; each pair's figures by type are in the JSON and CSV outputs (ner)"]))
    tokens = [(v, x) for v, p in parts for x in p.tokens]
    if tokens:
        out.append(Table(
            "ner_tokens", "Token-level agreement (each token's type or O)",
            [*lead, Column("pair", "pair"), Column("tokens", "tokens", "int"),
             Column("kappa_all", "κ all", "float"), Column("alpha_all", "α all", "float"),
             Column("marked", "marked", "int"),
             Column("kappa_marked", "κ marked", "float"),
             Column("alpha_marked", "α marked", "float")],
            [[*v, f"{x.a}–{x.b}", x.tokens, x.kappa_all, x.alpha_all, x.marked,
              x.kappa_marked, x.alpha_marked] for v, x in tokens],
            ["Brandsen et al. 2020, §4.2: κ on all tokens counts the many tokens both left "
             "out; on the tokens either annotator marked it does not"]))
    listed = [(v, x) for v, p in parts for x in p.disagreements]
    if listed:
        out.append(Table(
            "disagreements", "The first disagreements (strict), by document and offset",
            [*lead, Column("document", "document"), Column("pair", "pair"),
             Column("outcome", "outcome"), Column("span_a", "a's span"),
             Column("span_b", "b's span")],
            [[*v, x["document"], f"{x['a']}–{x['b']}", x["outcome"], unit_text(x["span_a"]),
              unit_text(x["span_b"])] for v, x in listed]))
    return out
