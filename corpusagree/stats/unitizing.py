"""Krippendorff's unitizing α family on a :class:`~corpusagree.model.continuum.Continuum`.

Each annotator's units of a document, with the gaps between them, are segments of the
document's continuum ``[begin, end)``; agreement is measured on where the units are and which
category they carry, without units fixed in advance.

Variants (``alpha_u(c, variant, category)``):

``"1995"``
    Krippendorff (1995; 2004, ch. 11, example p. 254). For a category c each annotator's
    continuum is cut into units of c and gaps (units of other categories are gaps). The
    observed disagreement uDo_c sums over ordered pairs of segments of two annotators
    δ² = (b_g − b_h)² + (e_g − e_h)² for overlapping units, l_g² for a unit inside the other's
    gap and 0 otherwise, divided by m(m − 1)L². The expected disagreement uDe_c (2004) sums over
    units (N_c − 1)(2l³ − 3l² + l)/3 + l²·Σ_{gaps G ≥ l} (G − l + 1), the gaps being every
    annotator's, times 2/L, divided by mL(mL − 1) − Σ l(l − 1). ``uα_c = 1 − uDo_c / uDe_c``;
    with ``category=None`` the overall ``uα = 1 − Σ_c uDo_c / Σ_c uDe_c`` (2004, p. 254).
    Lengths are counted in the continuum's atoms (characters or tokens), as in the 2004 text;
    Krippendorff (1995) took lengths as continuous, the limit of ever finer atoms (a continuum
    stretched s-fold tends to the 1995 values as s grows).

``"u"``, ``"|u|"``, ``"cu"``, ``"k"``
    Krippendorff, Mathet, Bouvry & Widlöcher (2016). Every annotator's units and gaps
    (value ∅) partition the continuum. Observed coincidences are lengths of intersection,
    ``l_ck = Σ_i Σ_{j≠i} Σ_g Σ_h |g ∩ h| / (m − 1)`` over segments g of value c of annotator i
    and h of value k of annotator j; expected coincidences
    ``e_ck = l..·(l_c.·l_.k − [c = k]·S_c) / (l..² − Σ_c S_c)``, where a unit cannot pair with
    itself (S_c = Σ l² over units of value c) and a gap is a run of atoms of length 1, each of
    which can pair with any other (S_∅ = Σ l over gaps). Then

    * ``uα``: nominal α on this matrix, categories and ∅ (unitizing and coding);
    * ``|u|α``: units of any category against gaps, the binary distinction ``∅`` / not
      ``∅`` (unitizing only);
    * ``cuα``: the matrix restricted to intersections of valued units (coding given
      unitizing). A unit's mass there is ``w_g = Σ_{j≠i} |g ∩ units of j| / (m − 1)`` and it
      cannot pair with itself: ``e*_ck = l*..·(l*_c.·l*_.k − [c = k]·Σ w_g²) /
      (l*..² − Σ w_g²)``, the correction of the uα matrix applied to the cu masses (for two
      annotators ``w_g`` is the length of g that meets the other's units);
    * ``(k)uα``: for one category k on the cu matrix,
      ``1 − (e*_k. / l*_k.)·(l*_k. − l*_kk) / (e*_k. − e*_kk)``, with its *coverage*
      ``l*_k. / l_k.``, the share of k's length that meets valued units of other annotators;
      undefined (nan, with the reason) where k meets only gaps.

Several documents. The papers measure one continuum. Chance places a unit only within its own
document, so each document's observed and expected disagreement is computed as the papers
define it and the corpus sums them, as α sums the coincidences of its units (Krippendorff
2004, ch. 11): for the 2016 family the disagreements are lengths of the coincidence matrices
(their sums over documents), for 1995/2004 the sums Σδ² (and their expectation,
m(m − 1)L²·uDo and m(m − 1)L²·uDe per document). A corpus of one document gives the papers'
values; documents with fewer than two annotators contribute nothing. The bootstrap resamples
documents (:meth:`UnitizingAlpha.confidence_interval`).

Overlapping units of one annotator: the definitions assume there are none (1995/2004: within a
category; 2016: at all, since units and gaps partition the continuum); they are refused with an
:class:`InputError` naming the annotator and the two units.

Computation: units sorted by document (and category) and start; every overlapping pair of units
is enumerated by a sweep (a unit meets the units that start before it ends), so the cost is
linear in units plus overlapping pairs, never all pairs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..model.continuum import Continuum
from ..model.errors import InputError
from ..model.params import Param, checked
from ..model.progress import Progress
from ..model.records import frame
from . import inference
from .inference import METHODS, Bootstrap, Interval, progress_chunk, replicate_weights
from .ratios import chance_corrected, divide

#: variant → the coefficient's symbol (the 1995 uα marked, as the 2016 one shares its name)
VARIANTS = {"1995": "uα (1995)", "u": "uα", "|u|": "|u|α", "cu": "cuα", "k": "(k)uα"}
#: disagreements (shares of a length) below this are rounding error, taken as 0
ROUNDING = 1e-12
#: variant → the coefficient's id in reports
IDS = {"1995": "alpha_u_1995", "u": "alpha_u", "|u|": "alpha_u_binary", "cu": "alpha_cu",
        "k": "alpha_ku"}


@dataclass(repr=False)
class UnitizingAlpha:
    """One coefficient of the unitizing α family: ``value = 1 − observed / expected``.

    Attributes
    ----------
    variant : str
        ``1995``, ``u``, ``|u|``, ``cu`` or ``k`` (:func:`alpha_u`).
    category : str or None
        The category measured (1995 and k), None for all.
    value : float
        The coefficient (nan when undefined; ``reason`` says why).
    observed, expected : float
        The disagreements as the papers normalise them (1995/2004: uDo and uDe, summed over
        categories for the overall value; 2016: shares of the pairable length, for (k)uα of the
        category's pairable length).
    coverage : float or None
        (k)uα only: the share of the category's length that meets valued units of other
        annotators.
    reason : str or None
        Why ``value`` is nan (overlapping units of one annotator, no expected disagreement …).
    documents : int
        The documents with at least two annotators.
    terms : numpy.ndarray
        Their disagreement terms (one row each), which the value pools and the bootstrap
        resamples.

    See Also
    --------
    alpha_u

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
    ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
    ...                            begin=0, end=60)
    >>> u.alpha_u(c, variant="k", category="PER")
    UnitizingAlpha((PER)uα=1, Do=0, De=0.8, coverage=0.889, 1 document)
    """

    variant: str
    category: str | None
    value: float
    observed: float
    expected: float
    coverage: float | None = None
    reason: str | None = None
    documents: int = 0
    terms: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)), repr=False)

    @property
    def symbol(self) -> str:
        """How reports write the coefficient: ``uα``, ``|u|α``, ``cuα``, ``(PER)uα``, ``uα[PER]
        (1995)`` …
        """
        s = VARIANTS[self.variant]
        if self.variant == "k":
            return f"({self.category})uα"
        if self.category is not None:
            return f"uα[{self.category}]" + (" (1995)" if self.variant == "1995" else "")
        return s

    def __repr__(self) -> str:
        cov = "" if self.coverage is None else f", coverage={self.coverage:.3g}"
        why = "" if self.reason is None else f", {self.reason}"
        return (f"UnitizingAlpha({self.symbol}={self.value:.4g}, Do={self.observed:.4g}, "
                f"De={self.expected:.4g}{cov}, {self.documents} document"
                f"{'' if self.documents == 1 else 's'}{why})")

    def to_dict(self) -> dict:
        """The coefficient as plain data (nan stays a float nan)."""
        return {"id": IDS[self.variant], "symbol": self.symbol, "variant": self.variant,
                "category": self.category, "value": self.value, "observed": self.observed,
                "expected": self.expected, "coverage": self.coverage, "reason": self.reason,
                "documents": self.documents}

    def to_frame(self):
        """The coefficient as a one-row pandas DataFrame, the keys of :meth:`to_dict` as its
        columns (pandas is optional).

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> c = Continuum.from_units([("A", 2, 6, "X"), ("B", 3, 6, "X"), ("A", 10, 14, "Y"),
        ...                           ("B", 10, 15, "Y")], 0, 20)
        >>> alpha_u(c).to_frame()[["id", "value", "documents"]].round(4)
                id   value  documents
        0  alpha_u  0.8311          1
        """
        return frame([self.to_dict()])

    def confidence_interval(self, level: float = 0.95, n_resamples: int = 1000,
                            seed: int | None = 0, interval: str = "percentile",
                            progress: Progress | None = None) -> Interval:
        """A bootstrap interval over documents: each replicate draws the documents with
        replacement and pools their disagreements as the estimate does (Hayes & Krippendorff
        2007 resample the units of α; here a document is the unit, since the units within one
        are not independent).

        Parameters
        ----------
        level : float
            The confidence level.
        n_resamples : int
            The number of replicates.
        seed : int, optional
            The random seed (an int gives the same interval on every run).
        interval : {"percentile", "bca"}
            Percentile, or BCa (Efron 1987) with its acceleration from the jackknife over
            documents (each document left out in turn) (:func:`.inference.interval`).
        progress : callable, optional
            ``progress(done, total)`` after each chunk of replicates.

        Returns
        -------
        Interval
            ``q`` holds the share of replicates below 0.667 and 0.8.

        Raises
        ------
        InputError
            With fewer than two documents with two or more annotators.

        Examples
        --------
        >>> c = Continuum.join([Continuum.from_units(
        ...     [("A", 2, 6, "X"), ("B", 2 + shift, 6, "X")], 0, 20, document=name)
        ...     for name, shift in zip("pqrs", (0, 1, 1, 3))])
        >>> iv = alpha_u(c).confidence_interval(n_resamples=200, interval="bca")
        >>> iv.method, iv.units
        ('bootstrap BCa', 4)
        """
        settings = Bootstrap(n_resamples, level, interval, True, seed)
        D = len(self.terms)
        if D < 2:
            raise InputError(f"the bootstrap of {self.symbol} resamples documents and needs at "
                             f"least 2 documents with two or more annotators; this continuum "
                             f"has {D}")
        name = IDS[self.variant]
        if math.isnan(self.value):
            return Interval(name, "nominal", self.value, math.nan, math.nan, level,
                            METHODS[interval], True, D, n_resamples, seed, note=self.reason)
        parts, done = [], 0
        for W in replicate_weights(D, n_resamples, seed, progress_chunk(n_resamples)):
            parts.append(_finish(self.variant, W @ self.terms)[0])
            done += len(W)
            if progress is not None:
                progress(done, n_resamples)
        total = self.terms.sum(0)
        return inference.interval(
            name, "nominal", self.value, np.concatenate(parts), settings,
            lambda: _finish(self.variant, total - self.terms)[0], clustered=True, units=D,
            shifted="the bootstrap distribution over documents is shifted")


@checked(Param("c", Continuum), Param("variant", str, choices=tuple(VARIANTS)),
         Param("category", str, none=True))
def alpha_u(c: Continuum, variant: str = "u", category: str | None = None) -> UnitizingAlpha:
    """Krippendorff's unitizing α of a continuum.

    Agreement on where units are and which category they carry, without units fixed in advance:
    each annotator's units of a document, with the gaps between them, are segments of the
    document's continuum. Over several documents each document's disagreements are computed as the
    papers define them and the corpus sums them (see :mod:`corpusagree.stats.unitizing` for the
    formulas).

    Parameters
    ----------
    c : Continuum
        The units.
    variant : str, default "u"
        ``1995``: Krippendorff (1995, 2004), per ``category`` or overall with None; the 2016
        family: ``u`` (unitizing and coding), ``|u|`` (unitizing only: units against gaps),
        ``cu`` (coding given unitizing), all categories, and ``k`` (one ``category``, with its
        coverage).
    category : str, optional
        The category of ``1995`` (None: overall) and ``k`` (required).

    Returns
    -------
    UnitizingAlpha

    Raises
    ------
    TypeError, ValueError
        For a keyword of the wrong type or an unknown variant, named in the message.
    InputError
        For an unknown category, a category given to ``u``, ``|u|`` or ``cu``, none
        given to ``k``. Overlapping units of one annotator, which the definitions exclude, give
        nan with the reason naming them.

    References
    ----------
    .. [1] Krippendorff, K. (1995). On the reliability of unitizing continuous data.
       Sociological Methodology 25; (2004) Content Analysis, 2nd ed., §11.6.
    .. [2] Krippendorff, K., Mathet, Y., Bouvry, S. and Widlöcher, A. (2016). On the
       reliability of unitizing textual continua: further developments. Quality & Quantity
       50(6).

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
    ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
    ...                            begin=0, end=60)
    >>> u.alpha_u(c, variant="u")
    UnitizingAlpha(uα=0.8681, Do=0.05, De=0.3791, 1 document)
    >>> round(u.alpha_u(c, variant="1995", category="PER").value, 4)
    0.9724
    """
    cat = None
    if category is not None:
        if variant in ("u", "|u|", "cu"):
            raise InputError(f"variant {variant!r} covers all categories; category= is for "
                             "'1995' and 'k'")
        if category not in c.categories:
            known = ", ".join(map(repr, c.categories)) or "none"
            raise InputError(f"no category {category!r}; the categories are {known}")
        cat = c.categories.index(category)
    elif variant == "k":
        raise InputError("variant 'k' measures one category: give category=")
    if variant == "1995":
        terms, reason = _terms_1995(c, cat)
    else:
        terms, reason = _terms_2016(c, variant, cat)
    value, observed, expected, coverage = (float(x) for x in _finish(variant, terms.sum(0)))
    if math.isnan(value) and reason is None:
        reason = "no expected disagreement: chance could not disagree on these data"
    return UnitizingAlpha(variant, category, value, observed, expected,
                          coverage if variant == "k" else None, reason if math.isnan(value)
                          else None, len(terms), terms)


def _finish(variant: str, s: np.ndarray) -> tuple[np.ndarray, ...]:
    """(value, observed, expected, coverage) from column sums of the per-document terms
    (``s[..., t]``; vectorised over bootstrap replicates)."""
    s = np.asarray(s, float)
    if variant == "k":
        observed, expected = divide(s[..., 0], s[..., 1]), divide(s[..., 2], s[..., 3])
        coverage = divide(s[..., 1], s[..., 4])
    else:
        observed, expected = divide(s[..., 0], s[..., 2]), divide(s[..., 1], s[..., 2])
        coverage = np.full_like(observed, np.nan)
    # the terms are differences of sums: rounding leaves ~1e-16 where the exact value is 0
    observed, expected = (np.where(np.abs(x) < ROUNDING, 0.0, x) for x in (observed, expected))
    return chance_corrected(observed, expected), observed, expected, coverage


# ---- shared: the units that count, their disjointness, overlapping pairs ---------------------
@dataclass
class _Units:
    """The units of documents with ≥ 2 annotators (optionally one category), as local arrays;
    ``group`` numbers the continua they are measured on (documents, or document × category)."""

    doc: np.ndarray
    annotator: np.ndarray
    start: np.ndarray
    end: np.ndarray
    category: np.ndarray
    group: np.ndarray
    group_doc: np.ndarray

    @property
    def length(self) -> np.ndarray:
        return self.end - self.start


def _select(c: Continuum, cat: int | None, per_category: bool) -> _Units:
    m = c.annotated.sum(0)
    keep = m[c.doc] >= 2
    if cat is not None:
        keep &= c.category == cat
    doc, cats = c.doc[keep], c.category[keep]
    C = max(len(c.categories), 1)
    groups, group = np.unique(doc * C + cats if per_category else doc, return_inverse=True)
    group_doc = groups // C if per_category else groups
    return _Units(doc, c.annotator[keep], c.start[keep], c.end[keep], cats,
                  group.astype(np.int64), group_doc.astype(np.int64))


def _check_disjoint(c: Continuum, u: _Units, rule: str) -> np.ndarray:
    """The units sorted by (group, annotator, start); an InputError names the first two
    overlapping units of one annotator on one continuum."""
    order = np.lexsort((u.start, u.annotator, u.group))
    g, a = u.group[order], u.annotator[order]
    s, e = u.start[order], u.end[order]
    bad = np.flatnonzero((g[1:] == g[:-1]) & (a[1:] == a[:-1]) & (s[1:] < e[:-1]))
    if len(bad):
        i, j = order[bad[0]], order[bad[0] + 1]

        def unit(x: int) -> str:
            return f"({u.start[x]:g}, {u.end[x]:g}, {c.categories[u.category[x]]!r})"

        raise InputError(f"annotator {c.annotators[u.annotator[i]]!r} has overlapping units "
                         f"{unit(i)} and {unit(j)} in document {c.documents[u.doc[i]]!r}: "
                         + rule)
    return order


def _pairs(c: Continuum, u: _Units) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair (i, j) of overlapping units on one continuum, once, with the length of their
    intersection: sort by start on one line where the continua follow each other, and pair
    each unit with those that start before it ends."""
    n = len(u.start)
    if n == 0:
        empty = np.zeros(0, np.int64)
        return empty, empty, np.zeros(0)
    length = c.length[u.group_doc]
    base = np.concatenate([[0.0], np.cumsum(length + 1)[:-1]])
    shift = base[u.group] - c.bounds[u.doc, 0]
    gs, ge = u.start + shift, u.end + shift
    order = np.argsort(gs, kind="stable")
    gs, ge = gs[order], ge[order]
    count = np.searchsorted(gs, ge, side="left") - np.arange(n) - 1
    first = np.cumsum(count) - count
    i = np.repeat(np.arange(n), count)
    j = i + 1 + (np.arange(int(count.sum())) - np.repeat(first, count))
    i, j = order[i], order[j]
    overlap = np.minimum(u.end[i], u.end[j]) - np.maximum(u.start[i], u.start[j])
    return i, j, overlap


# ---- Krippendorff 1995, 2004 -----------------------------------------------------------------
_RULE_1995 = ("Krippendorff's uα (1995, 2004) needs an annotator's units of one category to be "
              "disjoint")


def _terms_1995(c: Continuum, cat: int | None) -> tuple[np.ndarray, str | None]:
    """Per document with ≥ 2 annotators: [Σδ², m(m − 1)L²·Σ_c uDe_c, m(m − 1)L²]
    (Krippendorff 2004, ch. 11), over the categories asked for."""
    m_doc = c.annotated.sum(0).astype(float)
    L_doc = c.length
    docs = np.flatnonzero(m_doc >= 2)
    u = _select(c, cat, per_category=True)
    order = _check_disjoint(c, u, _RULE_1995)
    G = len(u.group_doc)
    m, L = m_doc[u.group_doc], L_doc[u.group_doc]
    mu = m_doc[u.doc]
    lu = u.length

    # observed: overlapping units of two annotators, and units inside another's gap
    i, j, _ = _pairs(c, u)
    mismatch = np.bincount(u.group[i], (u.start[i] - u.start[j]) ** 2
                           + (u.end[i] - u.end[j]) ** 2, G)
    # annotators met: an annotator's units are disjoint and sorted, so the pair (x, y) meets a
    # new annotator when y's predecessor (same annotator, same continuum) ends before x starts
    before = np.full(len(lu), -np.inf)
    run = (u.group[order][1:] == u.group[order][:-1]) \
        & (u.annotator[order][1:] == u.annotator[order][:-1])
    before[order[1:][run]] = u.end[order[:-1][run]]
    partners = np.bincount(i, before[j] <= u.start[i], len(lu)) \
        + np.bincount(j, before[i] <= u.start[j], len(lu))
    inside = np.bincount(u.group, lu ** 2 * (mu - 1 - partners), G)
    observed = 2 * (mismatch + inside)

    # expected: every unit placed anywhere, against the other units and every annotator's gaps
    N = np.bincount(u.group, minlength=G).astype(float)
    spread = (N - 1) / 3 * np.bincount(u.group, 2 * lu ** 3 - 3 * lu ** 2 + lu, G)
    gap_group, gap_len, gap_mult = _gaps(c, u, order, m)
    fits = _gap_sums(u.group, lu, gap_group, gap_len, gap_mult)
    placed = np.bincount(u.group, lu ** 2 * fits, G)
    with np.errstate(invalid="ignore", divide="ignore"):
        de = 2 / L * (spread + placed) / (m * L * (m * L - 1)
                                          - np.bincount(u.group, lu * (lu - 1), G))
    de = np.where(N > 0, de, 0.0)
    w = m * (m - 1) * L ** 2
    D = len(c.documents)
    terms = np.stack([np.bincount(u.group_doc, observed, D), np.bincount(u.group_doc, w * de, D),
                      m_doc * (m_doc - 1) * L_doc ** 2], axis=1)[docs]
    reason = None
    if not len(docs):
        reason = "no document has two or more annotators"
    elif not len(lu):
        reason = ("no annotator marked a unit" if cat is None else
                  f"no annotator marked a unit of category {c.categories[cat]!r}")
    return terms, reason


def _gaps(c: Continuum, u: _Units, order: np.ndarray, m: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(group, length, multiplicity) of every annotator's gaps on each continuum: before,
    between and after their units, and the whole continuum for an annotator without units."""
    g, a = u.group[order], u.annotator[order]
    s, e = u.start[order], u.end[order]
    begin, end = c.bounds[u.group_doc[g], 0], c.bounds[u.group_doc[g], 1]
    new = np.ones(len(g), bool)
    new[1:] = (g[1:] != g[:-1]) | (a[1:] != a[:-1])
    last = np.ones(len(g), bool)
    last[:-1] = new[1:]
    lead = np.where(new, s - begin, s - np.concatenate([[0.0], e[:-1]]))
    trail = end - e
    runs = np.bincount(g[new], minlength=len(m))
    empty = m - runs
    groups = np.concatenate([g, g[last], np.arange(len(m))])
    lengths = np.concatenate([lead, trail[last], c.length[u.group_doc]])
    mult = np.concatenate([np.ones(len(g) + int(last.sum())), empty])
    keep = (lengths > 0) & (mult > 0)
    return groups[keep], lengths[keep], mult[keep]


def _gap_sums(unit_group: np.ndarray, unit_len: np.ndarray, gap_group: np.ndarray,
              gap_len: np.ndarray, gap_mult: np.ndarray) -> np.ndarray:
    """For each unit, Σ mult·(G − l + 1) over the gaps G ≥ l of its continuum: units and gaps
    sorted by (continuum, length descending, gaps first), then running sums."""
    n = len(unit_len)
    group = np.concatenate([unit_group, gap_group])
    length = np.concatenate([unit_len, gap_len])
    is_unit = np.concatenate([np.ones(n, np.int8), np.zeros(len(gap_len), np.int8)])
    mult = np.concatenate([np.zeros(n), gap_mult])
    order = np.lexsort((is_unit, -length, group))
    count = np.concatenate([[0.0], np.cumsum(mult[order])])
    total = np.concatenate([[0.0], np.cumsum((mult * length)[order])])
    g = group[order]
    first = np.searchsorted(g, g, side="left")
    k = np.arange(1, len(order) + 1)
    fit_count = count[k] - count[first]
    fit_total = total[k] - total[first]
    out = np.zeros(n)
    at = is_unit[order] == 1
    ls = length[order][at]
    out[order[at]] = fit_total[at] - (ls - 1) * fit_count[at]
    return out


# ---- Krippendorff, Mathet, Bouvry & Widlöcher 2016 --------------------------------------------
_RULE_2016 = ("the uα family of Krippendorff et al. (2016) needs an annotator's units to be "
              "disjoint (with the gaps they partition the continuum); variant '1995' measures "
              "each category on its own")


def _terms_2016(c: Continuum, variant: str, cat: int | None) -> tuple[np.ndarray, str | None]:
    """Per document with ≥ 2 annotators: [observed, expected, pairable length] of the
    coincidence matrices (Krippendorff et al. 2016), for (k)uα [l*_k. − l*_kk, l*_k.,
    e*_k. − e*_kk, e*_k., l_k.]."""
    x = _Coincidences.of(c)
    if not len(x.docs):
        return np.zeros((0, 5 if variant == "k" else 3)), "no document has two or more annotators"
    if variant in ("u", "|u|"):
        return _terms_u(x, variant)
    if variant == "cu":
        return _terms_cu(x)
    return _terms_k(x, cat, c.categories[cat])


@dataclass
class _Coincidences:
    """The sums per document (and category) that the 2016 family's coincidence matrices are
    made of: ``R[d, c]`` Σ over ordered pairs of overlapping valued units from a unit of c,
    ``V[d, c]`` its c–c diagonal, ``valued[d, c]`` the length of c's units, ``ll`` the
    pairable length m·L, ``gaps`` its part no unit covers; ``n`` = m − 1 per document."""

    u: _Units
    docs: np.ndarray
    n: np.ndarray
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray]
    key: np.ndarray
    R: np.ndarray
    V: np.ndarray
    valued: np.ndarray
    ll: np.ndarray
    gaps: np.ndarray

    @classmethod
    def of(cls, c: Continuum) -> _Coincidences:
        D, C = len(c.documents), len(c.categories)
        m = c.annotated.sum(0).astype(float)
        u = _select(c, None, per_category=False)
        _check_disjoint(c, u, _RULE_2016)
        i, j, ov = _pairs(c, u)
        key = u.doc * C + u.category

        def by_cat(idx: np.ndarray, weights: np.ndarray) -> np.ndarray:
            return np.bincount(idx, weights, D * C).reshape(D, C)

        same = u.category[i] == u.category[j]
        valued = by_cat(key, u.length)
        ll = m * c.length
        return cls(u, np.flatnonzero(m >= 2), np.maximum(m - 1, 1), (i, j, ov), key,
                   by_cat(key[i], ov) + by_cat(key[j], ov), by_cat(key[i][same], 2 * ov[same]),
                   valued, ll, ll - valued.sum(1))

    def by_cat(self, weights: np.ndarray) -> np.ndarray:
        """Σ of ``weights`` over each document's units of each category."""
        return np.bincount(self.key, weights, self.valued.size).reshape(self.valued.shape)

    def terms_of(self, terms: np.ndarray) -> np.ndarray:
        """The rows of the documents with two or more annotators."""
        return terms[self.docs]


def _terms_u(x: _Coincidences, variant: str) -> tuple[np.ndarray, str | None]:
    """uα (units and gaps, with their categories) and |u|α (units against gaps)."""
    squares = x.by_cat(x.u.length ** 2).sum(1) + x.gaps
    with np.errstate(invalid="ignore", divide="ignore"):  # documents of < 2 annotators
        scale = x.ll / (x.ll ** 2 - squares)
    valued = x.valued.sum(1)
    unit_gap = valued - x.R.sum(1) / x.n          # Σ_c l_c∅
    if variant == "u":
        agree = x.V.sum(1) / x.n + x.gaps - unit_gap
        chance = scale * ((x.valued ** 2).sum(1) - (squares - x.gaps) + x.gaps ** 2 - x.gaps)
        terms = np.stack([x.ll - agree, x.ll - chance, x.ll], axis=1)
    else:
        terms = np.stack([2 * unit_gap, 2 * scale * x.gaps * valued, x.ll], axis=1)
    reason = None
    if not len(x.u.length):
        reason = "no annotator marked a unit: the continua are all gap"
    elif variant == "|u|" and not x.gaps[x.docs].any():
        reason = "no gaps: every annotator covered every continuum with units"
    return x.terms_of(terms), reason


def _cu_masses(x: _Coincidences) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(l*_c. per document and category, l*.. per document, the chance scale
    l*../(l*..² − Σ w_g²), Σ w_g² per document and category): each unit's mass w_g in the cu
    matrix, the length of it that meets other annotators' units over m − 1."""
    i, j, ov = x.pairs
    units = len(x.u.length)
    mass = (np.bincount(i, ov, units) + np.bincount(j, ov, units)) / x.n[x.u.doc]
    self_pairs = x.by_cat(mass ** 2)
    lc = x.R / x.n[:, None]
    total = lc.sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(total > 0, total / (total ** 2 - self_pairs.sum(1)), 0.0)
    return lc, total, scale, self_pairs


def _terms_cu(x: _Coincidences) -> tuple[np.ndarray, str | None]:
    """cuα: coding given unitizing, on the intersections of valued units."""
    lc, total, scale, self_pairs = _cu_masses(x)
    chance = scale * ((lc ** 2).sum(1) - self_pairs.sum(1))
    terms = np.stack([total - x.V.sum(1) / x.n, total - chance, total], axis=1)
    reason = None
    if not total[x.docs].any():
        reason = "no two annotators' units overlap: there is no coding to compare"
    elif np.count_nonzero(lc[x.docs].sum(0)) < 2:
        reason = "the overlapping units all have one category: coding cannot disagree"
    return x.terms_of(terms), reason


def _terms_k(x: _Coincidences, cat: int, name: str) -> tuple[np.ndarray, str | None]:
    """(k)uα of category ``cat`` on the cu matrix, with its coverage's terms."""
    lc, total, scale, self_pairs = _cu_masses(x)
    lk, lkk, sk = lc[:, cat], x.V[:, cat] / x.n, self_pairs[:, cat]
    ek = scale * (lk * total - sk)
    ekk = scale * (lk ** 2 - sk)
    terms = x.terms_of(np.stack([lk - lkk, lk, ek - ekk, ek, x.valued[:, cat]], axis=1))
    reason = None
    if not terms[:, 4].any():
        reason = f"no annotator marked a unit of category {name!r}"
    elif not terms[:, 1].any():
        reason = (f"category {name!r} meets only gaps: no other annotator's unit overlaps "
                  "it")
    elif not terms[:, 2].any():
        reason = (f"every unit that meets category {name!r} is {name!r}: coding cannot "
                  "disagree by chance")
    return terms, reason


__all__ = ["IDS", "ROUNDING", "VARIANTS", "UnitizingAlpha", "alpha_u"]
