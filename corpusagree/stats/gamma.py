"""Mathet, Widlöcher & Métivier's γ: agreement on unitizing through the best alignment.

Mathet, Widlöcher & Métivier (2015), "The Unified and Holistic Method Gamma (γ) for
Inter-Annotator Agreement Measure and Alignment", *Computational Linguistics* 41(3): 437–479;
γ-cat and γ-k from Mathet (2017), "The Agreement Measure γcat a Complement to γ Focused on
Categorization of a Continuum", *Computational Linguistics* 43(3): 661–681.

* **Dissimilarity** (Mathet et al. 2015, §4): ``d(u, v) = α·d_pos(u, v) + β·d_cat(u, v)`` with
  ``d_pos = ((|s_u − s_v| + |e_u − e_v|) / (l_u + l_v))²·Δ∅`` and
  ``d_cat = dist_cat(cat_u, cat_v)·Δ∅``, dist_cat in [0, 1]; a unit against the empty unit ∅
  costs Δ∅. The disorder of a unitary alignment (one unit or ∅ per annotator) is the mean of
  its ``C(n, 2)`` pairwise dissimilarities, every pair with an ∅ costing Δ∅ (as in the Gamma
  software and pygamma-agreement), so a unit left unaligned costs exactly Δ∅. The disorder of
  an alignment is the sum of its unitary disorders over x̄, the average number of units per
  annotator (§4.3).
* **Best alignment**: the alignment of least disorder, an exact set-partitioning integer
  program over candidate unitary alignments (§5.1), solved by HiGHS through
  :func:`scipy.optimize.milp` with a zero optimality gap (on the components of the units where
  the program's LP relaxation is not already integral). Candidates are pruned as in §5.1.1:
  a unitary alignment of k units is kept only if its disorder is at most kΔ∅, the cost of
  leaving its units unaligned; and (also exact) it is dropped when splitting one unit off it
  is strictly cheaper. Candidate pairs come from a sort-and-sweep over the units' positions
  (``|s_u − s_v| + |e_u − e_v| = max(2|m_u − m_v|, |l_u − l_v|)``, so a bound on d_pos bounds
  the distance between midpoints by a multiple of the lengths), never from all pairs.
* **Expected disorder**: the mean best-alignment disorder of sampled continua, with either of
  pygamma-agreement's samplers: ``"statistical"`` (each annotator's number of units, the gaps
  between their units, the unit lengths drawn from normal laws fitted on the continuum, the
  categories from their frequencies) or ``"shuffle"`` (Mathet et al. 2015, §5.2.1: each
  sampled annotator is a real annotator's units shifted circularly by a random position, the
  positions at least half the mean unit length apart as in the Gamma software). Unless a
  number of samples is given, 30 samples are drawn and then as many more as the precision
  rule asks: ``N = ⌈(1.96·cv / precision)²⌉`` with cv the coefficient of variation of the
  sampled disorders (§5.3, as pygamma-agreement applies it: one second batch), at most
  :data:`MAX_SAMPLES` in all (with a note when the rule asked for more).
* ``γ = 1 − D_o / D_e`` (1 when D_o = 0).
* **γ-cat, γ-k** (Mathet 2017, §4.2): on the same alignments, the categorical dissimilarity of
  every pair of aligned units (both non-empty), weighted by ``1/(n_v − 1)`` (n_v units in the
  unitary alignment) times the pairing confidence ``max(0, 1 − α·d_pos)``; γ-k keeps the pairs
  where at least one unit has category k. Units aligned with ∅ do not count (pygamma-agreement
  0.5.9 enables an "experimental" term for them, which the paper does not have). The factor α
  in the confidence is the Gamma software's and pygamma's; the paper's ``1 − d_pos`` is the
  same with α = 1, the default here.

A continuum of several documents: units are aligned and sampled inside their own document, and
every result is also given per document. The corpus-wide γ treats the documents as lying side
by side on one continuum (Mathet et al. 2015 define γ on one continuum, §4.3): the unitary
disorders of all documents add up and are divided by the sum of the documents' x̄, i.e. the
corpus disorder is the x̄-weighted mean of the documents' disorders, observed and sampled alike
(a sampled corpus is one sampled continuum per document), and the precision rule applies to the
corpus-wide sampled disorders.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse import csc_array
from scipy.sparse.csgraph import connected_components
from scipy.special import ndtri  # scipy.stats' norm.ppf, without its import

from ..model.continuum import Continuum
from ..model.data import ReliabilityData
from ..model.errors import InputError
from . import distances as dist
from .inference import Interval

SAMPLERS = ("statistical", "shuffle")
#: the first batch of sampled continua before the precision rule (pygamma-agreement's default)
FIRST_BATCH = 30
#: sampled continua are aligned together, by one solver call, up to about this many units
#: (fewer calls for small continua; a larger program costs more than its parts)
SAMPLE_UNITS = 5_000
#: the most samples the precision rule may ask for (a handful of units can ask for thousands;
#: past this the interval of D_e says how precise it is, and ``n_samples`` draws more)
MAX_SAMPLES = 1000
#: the normal quantile of the precision rule's 95% confidence (Mathet et al. 2015, §5.3)
Z_PRECISION = 1.96
#: a sampled unit is at least this long (pyannote's segment precision, as pygamma draws them)
MIN_LENGTH = 1e-6
#: the most candidate unitary alignments of one document (α = 0 ignores positions, so every
#: tuple of units of close categories is a candidate)
MAX_CANDIDATES = 5_000_000

CategoryDistance = str | Mapping | tuple | dist.Distance


# ---- dissimilarities ------------------------------------------------------------------------
def positional_dissimilarity(u: tuple[float, float], v: tuple[float, float],
                             delta_empty: float = 1.0) -> float:
    """Mathet et al.'s (2015, §4) positional-sporadic dissimilarity of two units.

    ``((|s_u − s_v| + |e_u − e_v|) / (l_u + l_v))² · Δ∅``, l the units' lengths: 0 for the
    same position, Δ∅ when the two units are as far apart as their lengths together.

    Parameters
    ----------
    u, v : tuple of (start, end)
        The two units.
    delta_empty : float, default 1
        Δ∅, the cost of a unit aligned with nothing.

    Returns
    -------
    float

    Raises
    ------
    InputError
        When a unit does not end after it starts.

    References
    ----------
    .. [1] Mathet, Y., Widlöcher, A. and Métivier, J.-P. (2015). The unified and holistic
       method gamma (γ) for inter-annotator agreement measure and alignment. Computational
       Linguistics 41(3).

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> round(u.positional_dissimilarity((4, 14), (40, 44)), 2)   # Mathet et al., Fig. 10
    22.22
    """
    (s1, e1), (s2, e2) = u, v
    if not (s1 < e1 and s2 < e2):
        raise InputError(f"a unit must end after it starts: got {u} and {v}")
    r = (abs(s1 - s2) + abs(e1 - e2)) / ((e1 - s1) + (e2 - s2))
    return float(r * r * delta_empty)


def _distance_name(spec) -> str:
    if isinstance(spec, str):
        return spec.lower()
    if isinstance(spec, dist.Distance):
        return spec.name
    return "matrix" if isinstance(spec, (Mapping, tuple)) else "callable"


def _category_matrix(c: Continuum, spec) -> np.ndarray:
    """dist_cat over ``c.categories``: any corpusagree distance bound to the categories (their
    unit counts feed the ordinal metric), divided by its largest value when that exceeds 1 so
    that dist_cat lies in [0, 1] (Mathet et al. 2015, §4; pygamma normalises the same way)."""
    try:
        d = dist.get(spec)
    except (ValueError, TypeError) as e:
        raise InputError(f"category distance: {e}") from None
    if d.for_sets:
        raise InputError(f"the {d.name} distance compares sets; categories are plain labels")
    L = len(c.categories)
    if L == 0:
        return np.zeros((0, 0))
    labels: list = list(c.categories)
    categories: list | None = list(c.categories)
    if isinstance(d, (dist.Interval, dist.Ratio, dist.Ordinal)):
        try:
            labels = [float(x) for x in c.categories]
            categories = sorted(labels)
        except ValueError:
            if not isinstance(d, dist.Ordinal):
                raise InputError(f"the {d.name} distance needs numeric categories; got "
                                 f"{next(x for x in c.categories if not _is_float(x))!r}"
                                 ) from None
    data = ReliabilityData(np.arange(L)[None, :], labels, categories=categories)
    counts = np.bincount(c.category, minlength=L).astype(float)
    try:
        metric = d.bind(data, counts)
    except ValueError as e:
        raise InputError(f"category distance: {e}") from None
    ix = np.arange(L)
    D = np.asarray(metric.pair(ix[:, None], ix[None, :]), float)
    top = D.max(initial=0.0)
    return D / top if top > 1 else D


def _is_float(x: str) -> bool:
    try:
        float(x)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class _Dissimilarity:
    """α·d_pos + β·d_cat with Δ∅, over units given as arrays (start, end, category code)."""

    alpha: float
    beta: float
    delta_empty: float
    D: np.ndarray

    def position(self, s, e, i, j) -> np.ndarray:
        """d_pos of the unit pairs (i[k], j[k])."""
        r = (np.abs(s[i] - s[j]) + np.abs(e[i] - e[j])) / ((e[i] - s[i]) + (e[j] - s[j]))
        return r * r * self.delta_empty

    def __call__(self, s, e, cat, i, j) -> np.ndarray:
        return (self.alpha * self.position(s, e, i, j)
                + self.beta * self.delta_empty * self.D[cat[i], cat[j]])


# ---- candidate unitary alignments ------------------------------------------------------------
def _expand(first: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(owner, position) of every position in the ranges [first[k], last[k])."""
    counts = np.maximum(last - first, 0)
    owner = np.repeat(np.arange(len(first)), counts)
    starts = np.repeat(first - (np.cumsum(counts) - counts), counts)
    return owner, np.arange(int(counts.sum())) + starts


def _overlapping(lo_a, hi_a, lo_b, hi_b) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j) whose intervals [lo_a[i], hi_a[i]] and [lo_b[j], hi_b[j]] meet, by sort and
    sweep: either b's left end lies in a's interval, or a's left end lies inside b's."""
    ob = np.argsort(lo_b, kind="stable")
    sb = lo_b[ob]
    i1, k1 = _expand(np.searchsorted(sb, lo_a, "left"), np.searchsorted(sb, hi_a, "right"))
    oa = np.argsort(lo_a, kind="stable")
    sa = lo_a[oa]
    j2, k2 = _expand(np.searchsorted(sa, lo_b, "right"), np.searchsorted(sa, hi_b, "right"))
    return np.concatenate([i1, oa[k2]]), np.concatenate([ob[k1], j2])


def _bound(k, n: int, de: float):
    """The largest sum of unit-pair dissimilarities a unitary alignment of k units may have:
    its disorder [Σd + (C(n,2) − C(k,2))Δ∅] / C(n,2) must not exceed kΔ∅ (§5.1.1)."""
    pairs = n * (n - 1) / 2
    return ((k - 1) * pairs + k * (k - 1) / 2) * de


def _first_unit(T: np.ndarray) -> np.ndarray:
    """The first unit of each row of candidate tuples (−1 = ∅)."""
    return T[np.arange(len(T)), np.argmax(T >= 0, axis=1)]


def _ranks(lo: np.ndarray, hi: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """lo and hi as integer ranks in the order (document, value): equal values of a document
    share a rank, and every rank of a document lies below those of the next, so intervals of
    different documents never meet."""
    vals, docs = np.concatenate([lo, hi]), np.concatenate([doc, doc])
    order = np.lexsort((vals, docs))
    v, d = vals[order], docs[order]
    rank = np.empty(len(vals), np.int64)
    rank[order] = np.cumsum(np.r_[True, (v[1:] != v[:-1]) | (d[1:] != d[:-1])])
    return rank[:len(lo)], rank[len(lo):]


def _candidates(annot: np.ndarray, s: np.ndarray, e: np.ndarray, cat: np.ndarray, n: int,
                dis: _Dissimilarity, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Candidate unitary alignments (rows of unit indices, -1 = ∅, one column per annotator)
    and their disorders, of documents of n annotators each (``doc``: each unit's document;
    units pair only within their document). Built annotator by annotator from partial tuples,
    each extended only with units paired to its first unit; a partial tuple whose pair sum
    already exceeds what any completion may have is dropped."""
    de = dis.delta_empty
    top = _bound(n, n, de)
    N = len(s)
    mid, length = (s + e) / 2, e - s
    # |s_u − s_v| + |e_u − e_v| ≥ 2|m_u − m_v|, so d_pos ≤ top/α bounds |m_u − m_v|
    half = np.sqrt(top / (dis.alpha * de)) / 2 if dis.alpha > 0 else np.inf
    lo, hi = _ranks(mid - half * length, mid + half * length, doc)
    members = [np.flatnonzero(annot == a) for a in range(n)]
    # partners[b]: CSR from any unit of an annotator before b to its candidate units of b
    partners = []
    for b in range(n):
        src, dst = [], []
        for a in range(b):
            ua, ub = members[a], members[b]
            i, j = _overlapping(lo[ua], hi[ua], lo[ub], hi[ub])
            i, j = ua[i], ub[j]
            keep = dis(s, e, cat, i, j) <= top
            src.append(i[keep])
            dst.append(j[keep])
        src_all = np.concatenate(src) if src else np.zeros(0, np.int64)
        dst_all = np.concatenate(dst) if dst else np.zeros(0, np.int64)
        order = np.argsort(src_all, kind="stable")
        indptr = np.zeros(N + 1, np.int64)
        np.cumsum(np.bincount(src_all, minlength=N), out=indptr[1:])
        partners.append((indptr, dst_all[order]))
    T = np.full((0, n), -1, np.int64)
    S = np.zeros(0)
    for b in range(n):
        if len(T):
            anchor = _first_unit(T)
            indptr, dst = partners[b]
            row, pos = _expand(indptr[anchor], indptr[anchor + 1])
            w = dst[pos]
            add = np.zeros(len(row))
            for a in range(b):
                u = T[row, a]
                on = u >= 0
                add[on] += dis(s, e, cat, u[on], w[on])
            k_new = (T[row] >= 0).sum(1) + 1
            S_new = S[row] + add
            ok = S_new <= _bound(k_new + (n - 1 - b), n, de)
            ext = T[row[ok]]
            ext[:, b] = w[ok]
            T, S = np.concatenate([T, ext]), np.concatenate([S, S_new[ok]])
            if len(T) > MAX_CANDIDATES:
                per_doc = np.bincount(doc[_first_unit(T)])
                if per_doc.max() > MAX_CANDIDATES:
                    units = int((doc == per_doc.argmax()).sum())
                    raise InputError(f"more than {MAX_CANDIDATES:,} candidate unitary "
                                     f"alignments in a document of {units} units (α = "
                                     f"{dis.alpha:g}); a larger α lets positions rule out more")
        single = np.full((len(members[b]), n), -1, np.int64)
        single[:, b] = members[b]
        T, S = np.concatenate([T, single]), np.concatenate([S, np.zeros(len(single))])
        k = (T >= 0).sum(1)
        keep = S <= _bound(k + (n - 1 - b), n, de)
        T, S = T[keep], S[keep]
    k = (T >= 0).sum(1)
    keep = S <= _bound(k, n, de)
    T, S, k = T[keep], S[keep], k[keep]
    # split-dominance: dropping unit u (and leaving it unaligned) is strictly cheaper when
    # Σ_v d(u, v) > (C(n,2) + k − 1)·Δ∅
    rows = np.zeros((len(T), n))
    for a in range(n):
        for b in range(a + 1, n):
            on = (T[:, a] >= 0) & (T[:, b] >= 0)
            d = dis(s, e, cat, T[on, a], T[on, b])
            rows[on, a] += d
            rows[on, b] += d
    pairs = n * (n - 1) / 2
    keep = rows.max(1, initial=0.0) <= (pairs + k - 1) * de
    T, S, k = T[keep], S[keep], k[keep]
    return T, (S + (pairs - k * (k - 1) / 2) * de) / pairs


def _partition(T: np.ndarray, cost: np.ndarray, n_units: int) -> np.ndarray:
    """The rows of T (candidate unitary alignments over units 0…n_units−1) that cover every unit
    exactly once at the least total cost: a set-partitioning integer program, solved exactly.

    Units that no multi-unit candidate touches stay alone, outside the program. The program's
    LP relaxation is solved first (HiGHS dual simplex); it separates over the connected
    components of the units (linked by shared candidates), so where it is integral on a
    component it is that component's optimum, and only the components where it is fractional
    go to the integer solver (HiGHS through :func:`scipy.optimize.milp`, zero gap)."""
    multi = (T >= 0).sum(1) > 1
    touched = np.zeros(n_units, bool)
    touched[T[multi][T[multi] >= 0]] = True
    inside = multi | touched[T.max(1)]
    rows = np.flatnonzero(inside)
    lone = np.flatnonzero(~inside)
    if not len(rows):
        return lone
    col, slot = np.nonzero(T[rows] >= 0)
    ids = (np.cumsum(touched) - 1)[T[rows][col, slot]]
    A = csc_array((np.ones(len(ids)), (ids, col)), shape=(int(touched.sum()), len(rows)))
    c = cost[rows]
    ones = np.ones(A.shape[0])
    lp = linprog(c, A_eq=A, b_eq=ones, bounds=(0, 1), method="highs-ds")
    if lp.x is None:  # the singletons always make the program feasible
        raise RuntimeError(f"HiGHS found no alignment: {lp.message}")
    x = lp.x
    fractional = np.abs(x - np.round(x)) > 1e-6
    if fractional.any():
        _, comp = connected_components((A @ A.T).tocsr(), directed=False)
        unit_of = ids[np.r_[0, np.cumsum(np.bincount(col, minlength=len(rows)))[:-1]]]
        hard = np.isin(comp[unit_of], comp[unit_of[fractional]])
        sub = A[:, hard]
        keep = np.asarray(sub.sum(1)).ravel() > 0
        res = milp(c[hard], integrality=np.ones(int(hard.sum())), bounds=Bounds(0, 1),
                   constraints=LinearConstraint(sub[keep], 1, 1),
                   options={"mip_rel_gap": 0.0, "presolve": True})
        if res.x is None:
            raise RuntimeError(f"HiGHS found no alignment: {res.message}")
        x = x.copy()
        x[hard] = res.x
    return np.sort(np.concatenate([lone, rows[x > 0.5]]))


def _candidates_by_document(documents: list[tuple], dis: _Dissimilarity
                            ) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`_candidates` of each document ``(annotator, start, end, category, n)``, in its
    local unit indices: documents with the same number of annotators are searched together
    (their units concatenated), which gives each document the rows, in the same order, that
    a search of it alone gives."""
    out: list = [None] * len(documents)
    groups: dict[int, list[int]] = {}
    for k, doc in enumerate(documents):
        groups.setdefault(doc[4], []).append(k)
    for n, ks in groups.items():
        sizes = np.array([len(documents[k][1]) for k in ks], np.int64)
        offset = np.r_[0, np.cumsum(sizes)]
        a, s, e, cat = (np.concatenate([documents[k][f] for k in ks]) for f in range(4))
        doc = np.repeat(np.arange(len(ks)), sizes)
        T, cost = _candidates(a, s, e, cat, n, dis, doc)
        owner = doc[_first_unit(T)]
        order = np.argsort(owner, kind="stable")
        bounds = np.searchsorted(owner[order], np.arange(len(ks) + 1))
        for g, k in enumerate(ks):
            rows = order[bounds[g]:bounds[g + 1]]
            out[k] = (np.where(T[rows] >= 0, T[rows] - offset[g], -1), cost[rows])
    return out


def _align(documents: list[tuple], dis: _Dissimilarity) -> list[tuple[np.ndarray, np.ndarray]]:
    """The best alignment of each document ``(annotator, start, end, category, n)`` in local
    arrays: (unitary alignments as rows of local unit indices, -1 = ∅; their disorders). One
    integer program for all documents (their units are disjoint), so that a corpus of many
    small documents costs one solver call."""
    cands = _candidates_by_document(documents, dis)
    sizes = np.array([len(doc[1]) for doc in documents], np.int64)
    offset = np.r_[0, np.cumsum(sizes)]
    width = max(T.shape[1] for T, _ in cands)
    T = np.full((sum(len(x) for x, _ in cands), width), -1, np.int64)
    row = 0
    for (Td, _), off in zip(cands, offset[:-1], strict=True):
        T[row:row + len(Td), :Td.shape[1]] = np.where(Td >= 0, Td + off, -1)
        row += len(Td)
    chosen = _partition(T, np.concatenate([c for _, c in cands]), int(offset[-1]))
    bounds = np.r_[0, np.cumsum([len(x) for x, _ in cands])]
    out = []
    for (Td, cost), lo, hi in zip(cands, bounds[:-1], bounds[1:], strict=True):
        mine = chosen[(chosen >= lo) & (chosen < hi)] - lo
        out.append((Td[mine], cost[mine]))
    return out


# ---- γ-cat / γ-k -----------------------------------------------------------------------------
def _category_sums(T, s, e, cat, dis: _Dissimilarity, L: int) -> np.ndarray:
    """Mathet (2017, §4.2) sums of one alignment: rows (numerator, weight) × columns (γ-cat,
    then γ-k of every category): Σ w·d_cat and Σ w over pairs of aligned units."""
    n = T.shape[1]
    nv = (T >= 0).sum(1)
    base = np.where(nv > 1, 1 / np.maximum(nv - 1, 1), 0.0)
    out = np.zeros((2, 1 + L))
    for a in range(n):
        for b in range(a + 1, n):
            on = (T[:, a] >= 0) & (T[:, b] >= 0)
            i, j = T[on, a], T[on, b]
            w = base[on] * np.maximum(0.0, 1 - dis.alpha * dis.position(s, e, i, j))
            dc = dis.delta_empty * dis.D[cat[i], cat[j]]
            for r, x in enumerate((w * dc, w)):
                out[r, 0] += x.sum()
                out[r, 1:] += np.bincount(cat[i], x, L)
                out[r, 1:] += np.bincount(cat[j], x * (cat[j] != cat[i]), L)
    return out


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def _chance_corrected(observed, expected):
    """1 − D_o/D_e; nan where either is undefined or D_e = 0 (one category: categories cannot
    disagree by chance, so γ-cat says nothing; pygamma returns 1 there)."""
    observed, expected = np.asarray(observed, float), np.asarray(expected, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        g = 1 - observed / expected
    return np.where(expected > 0, g, np.nan)


# ---- sampled continua -------------------------------------------------------------------------
def _statistical(rng, annot, s, e, cat, n: int, begin: float, L: int):
    """pygamma-agreement's statistical sampler: for each annotator, a number of units drawn
    from the normal law of the annotators' unit counts (|int(·)|, at least one for the first),
    gaps between consecutive units (and before an annotator's first unit) and unit lengths from
    the normal laws of the continuum's, categories from their frequencies."""
    order = np.lexsort((cat, e, s, annot))
    a, s_, e_ = annot[order], s[order], e[order]
    same = a[1:] == a[:-1]
    first = np.r_[True, ~same]
    lead = s_[first] - begin
    gaps = np.concatenate([[0.0], (s_[1:] - e_[:-1])[same], lead[lead > 0]])
    lengths = e - s
    counts = np.bincount(annot, minlength=n)
    freq = np.bincount(cat, minlength=L) / len(cat)
    m = np.abs(rng.normal(counts.mean(), counts.std(), n).astype(np.int64))
    m[0] = max(m[0], 1)
    total = int(m.sum())
    gap = rng.normal(gaps.mean(), gaps.std(), total)
    dur = np.abs(rng.normal(lengths.mean(), lengths.std(), total))
    short = dur < MIN_LENGTH
    while short.any():
        dur[short] = np.abs(rng.normal(lengths.mean(), lengths.std(), int(short.sum())))
        short = dur < MIN_LENGTH
    who = np.repeat(np.arange(n), m)
    step = gap + dur
    per = np.bincount(who, step, n)  # each annotator's units follow on from `begin`
    ends = np.cumsum(step) - np.repeat(np.cumsum(per) - per, m) + begin
    return who, ends - dur, ends, rng.choice(L, total, p=freq)


def _shuffle(rng, annot, s, e, cat, n: int, begin: float, end: float, L: int):
    """Mathet et al.'s (2015, §5.2.1) shuffling: n sampled annotators, each a randomly chosen
    annotator's units shifted by a random integer position and wrapped around the continuum;
    the positions keep at least half the mean unit length apart (the Gamma software's
    distance), drawn uniformly from what is left, or anywhere once nothing is left."""
    gap = (e - s).mean() / 2
    while True:
        free = np.array([[begin, end]])
        who_all, s_all, e_all, c_all = [], [], [], []
        for slot in range(n):
            width = free[:, 1] - free[:, 0]
            if len(free) and width.sum() > 0:
                lo, hi = free[rng.choice(len(free), p=width / width.sum())]
                pivot = float(int(rng.uniform(lo, hi)))
                cut_lo, cut_hi = pivot - gap, pivot + gap
                left = np.c_[free[:, 0], np.minimum(free[:, 1], cut_lo)]
                right = np.c_[np.maximum(free[:, 0], cut_hi), free[:, 1]]
                free = np.concatenate([left, right])
                free = free[free[:, 1] > free[:, 0]]
            else:
                pivot = rng.uniform(begin, end)
            mine = annot == rng.integers(n)
            shift = np.where(s[mine] + pivot - begin > end, pivot - end, pivot - begin)
            who_all.append(np.full(int(mine.sum()), slot))
            s_all.append(s[mine] + shift)
            e_all.append(e[mine] + shift)
            c_all.append(cat[mine])
        if sum(len(x) for x in who_all):
            return (np.concatenate(who_all), np.concatenate(s_all), np.concatenate(e_all),
                    np.concatenate(c_all))


# ---- results ----------------------------------------------------------------------------------
@dataclass(repr=False)
class UnitaryAlignment:
    """One unitary alignment: a unit (or ∅) per annotator, and its disorder.

    Attributes
    ----------
    units : tuple of int or None
        Per annotator, the unit's index into the continuum's arrays, None for ∅.
    disorder : float
        The mean pairwise dissimilarity of its units (Mathet et al. 2015, §4.3), a pair with ∅
        costing Δ∅.
    document : str
        The document.

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER")], end=60)
    >>> u.best_alignment(c).unitary_alignments
    [UnitaryAlignment((0, 1), disorder=0.01235)]
    """

    units: tuple[int | None, ...]
    disorder: float
    document: str

    def __repr__(self) -> str:
        return f"UnitaryAlignment({self.units}, disorder={self.disorder:.4g})"


@dataclass(repr=False)
class Alignment:
    """A best alignment of a continuum's units (Mathet et al. 2015, §4.3).

    Attributes
    ----------
    continuum : Continuum
        The units aligned.
    tuples : numpy.ndarray
        ``tuples[i, a]``: the index of annotator a's unit in unitary alignment i, -1 for ∅ (or
        for an annotator who did not annotate that document).
    disorders : numpy.ndarray
        Each unitary alignment's disorder.
    document : numpy.ndarray
        Each unitary alignment's document (index).
    disorder : float
        The alignment's disorder: Σ unitary disorders / x̄, x̄ the mean number of units per
        annotator; over a corpus, the x̄-weighted mean of ``document_disorders``.
    document_disorders : numpy.ndarray
        Each document's disorder.
    alpha, beta, delta_empty : float
        The weights of the positional and categorial dissimilarities, and Δ∅.
    category_distance : str
        The name of the distance between categories.

    See Also
    --------
    best_alignment

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
    ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
    ...                            begin=0, end=60)
    >>> a = u.best_alignment(c)
    >>> a, a.tuples.tolist()
    (Alignment(disorder=0.01235, 2 unitary alignments of 4 units), [[0, 1], [2, 3]])
    """

    continuum: Continuum
    tuples: np.ndarray
    disorders: np.ndarray
    document: np.ndarray
    disorder: float
    document_disorders: np.ndarray
    alpha: float
    beta: float
    delta_empty: float
    category_distance: str

    @property
    def unitary_alignments(self) -> list[UnitaryAlignment]:
        """Who was matched with whom: one :class:`UnitaryAlignment` per row of ``tuples``."""
        docs = self.continuum.documents
        return [UnitaryAlignment(tuple(None if u < 0 else u for u in row), d, docs[g])
                for row, d, g in zip(self.tuples.tolist(), self.disorders.tolist(),
                                     self.document.tolist(), strict=True)]

    def __len__(self) -> int:
        return len(self.tuples)

    def __repr__(self) -> str:
        return (f"Alignment(disorder={self.disorder:.4g}, {len(self)} unitary alignments of "
                f"{len(self.continuum)} units)")

    def to_dict(self) -> dict:
        """The alignment as plain data: every unitary alignment with its units' positions and
        categories.
        """
        c = self.continuum

        def unit(u: int):
            if u < 0:
                return None
            return {"index": u, "start": float(c.start[u]), "end": float(c.end[u]),
                    "category": c.categories[c.category[u]]}

        return {
            "disorder": self.disorder, "alpha": self.alpha, "beta": self.beta,
            "delta_empty": self.delta_empty, "category_distance": self.category_distance,
            "annotators": list(c.annotators),
            "documents": [{"document": c.documents[d],
                           "disorder": float(self.document_disorders[d])}
                          for d in np.unique(self.document).tolist()],
            "unitary_alignments": [
                {"document": c.documents[g], "disorder": d, "units": [unit(u) for u in row]}
                for row, d, g in zip(self.tuples.tolist(), self.disorders.tolist(),
                                     self.document.tolist(), strict=True)],
        }


@dataclass(repr=False)
class Gamma:
    """γ of a continuum (Mathet et al. 2015) with what it was computed from.

    Attributes
    ----------
    value : float
        γ = 1 − D_o/D_e (1 when D_o = 0).
    observed_disorder, expected_disorder : float
        D_o, the best alignment's disorder, and D_e, the mean disorder of the sampled continua.
    alignment : Alignment
        The best alignment.
    n_samples : int
        The sampled continua.
    sample_disorders : numpy.ndarray
        Their best-alignment disorders (their mean is D_e).
    gamma_cat : float
        γ-cat (Mathet 2017): agreement on the categories of the aligned units.
    gamma_ks : dict
        γ-k of each category (:meth:`gamma_k`).
    cat_disorders, k_disorders
        The (observed, expected) disorders of γ-cat and of each γ-k (nan when no pair of
        aligned units weighs anything).
    sampler : str
        ``statistical`` or ``shuffle``.
    precision : float or None
        The precision rule's target, when the number of samples was not fixed.
    seed : int or None
        The random seed.
    document : str or None
        The document, for a per-document γ.
    documents : list of Gamma
        One γ per document when the continuum has several (this one is then the corpus-wide γ).
    notes : list of str
        What needs saying (the precision rule asked for more samples than allowed …).

    See Also
    --------
    gamma

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
    ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
    ...                            begin=0, end=60)
    >>> g = u.gamma(c, n_samples=30, seed=0)
    >>> g
    Gamma of 'document'(0.9859: observed 0.01235, expected 0.874 from 30 statistical samples)
    >>> g.gamma_cat, g.gamma_k("PER")
    (1.0, 1.0)
    """

    value: float
    observed_disorder: float
    expected_disorder: float
    alignment: Alignment
    n_samples: int
    sample_disorders: np.ndarray
    gamma_cat: float
    gamma_ks: dict[str, float]
    cat_disorders: tuple[float, float]
    k_disorders: dict[str, tuple[float, float]]
    sampler: str
    precision: float | None
    seed: int | None
    document: str | None = None
    documents: list[Gamma] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def gamma_k(self, category: str) -> float:
        """γ-k of one category (Mathet 2017): γ-cat over the pairs with a unit of that category.

        Parameters
        ----------
        category : str
            The category.

        Returns
        -------
        float

        Raises
        ------
        InputError
            For an unknown category.
        """
        try:
            return self.gamma_ks[category]
        except KeyError:
            raise InputError(f"no category {category!r}; the categories are "
                             f"{', '.join(self.gamma_ks)}") from None

    def confidence_interval(self, level: float = 0.95) -> Interval:
        """γ's interval from the sampling of the expected disorder.

        D_e ± z·s/√N (s the standard deviation of the N sampled disorders), mapped through
        γ = 1 − D_o/D_e: how precisely the samples fix γ, not how γ would vary over other texts.

        Parameters
        ----------
        level : float, default 0.95
            The coverage.

        Returns
        -------
        Interval

        Raises
        ------
        InputError
            For a level outside (0, 1).

        Examples
        --------
        >>> from corpusagree import unitizing as u
        >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
        ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
        ...                            begin=0, end=60)
        >>> u.gamma(c, n_samples=30, seed=0).confidence_interval()
        Interval(gamma=0.9859, 95% [0.9831, 0.9879], sampled continua (statistical))
        """
        if not 0 < level < 1:
            raise InputError(f"the confidence level must lie in (0, 1), not {level}")
        N = len(self.sample_disorders)
        se = float(np.std(self.sample_disorders, ddof=1) / np.sqrt(N)) if N > 1 else np.nan
        z = float(ndtri((1 + level) / 2))
        lo_e, hi_e = self.expected_disorder - z * se, self.expected_disorder + z * se
        if self.observed_disorder == 0:
            low = high = 1.0
        else:
            low = 1 - self.observed_disorder / lo_e if lo_e > 0 else -np.inf
            high = 1 - self.observed_disorder / hi_e
        return Interval("gamma", self.alignment.category_distance, self.value, float(low),
                        float(high), level, f"sampled continua ({self.sampler})",
                        n_resamples=N, seed=self.seed, se=se)

    def __repr__(self) -> str:
        where = f" of {self.document!r}" if self.document else ""
        return (f"Gamma{where}({self.value:.4g}: observed {self.observed_disorder:.4g}, "
                f"expected {self.expected_disorder:.4g} from {self.n_samples} {self.sampler} "
                f"samples)")

    def to_dict(self, alignment: bool = True) -> dict:
        """γ as plain data, with its interval and the sampled disorders.

        Parameters
        ----------
        alignment : bool, default True
            Include the best alignment (the documents of a corpus come without theirs: the corpus
            alignment holds them, each unitary alignment naming its document).

        Returns
        -------
        dict
        """
        ci = self.confidence_interval()
        out = {
            "value": self.value, "observed_disorder": self.observed_disorder,
            "expected_disorder": self.expected_disorder, "n_samples": self.n_samples,
            "sampler": self.sampler, "precision": self.precision, "seed": self.seed,
            "alpha": self.alignment.alpha, "beta": self.alignment.beta,
            "delta_empty": self.alignment.delta_empty,
            "category_distance": self.alignment.category_distance,
            "gamma_cat": self.gamma_cat, "gamma_k": dict(self.gamma_ks),
            "cat_disorders": {"observed": self.cat_disorders[0],
                              "expected": self.cat_disorders[1]},
            "k_disorders": {k: {"observed": o, "expected": e}
                            for k, (o, e) in self.k_disorders.items()},
            "interval": {"low": ci.low, "high": ci.high, "level": ci.level, "se": ci.se,
                         "method": ci.method},
            "sample_disorders": self.sample_disorders.tolist(),
            "notes": list(self.notes),
        }
        if alignment:
            out["alignment"] = self.alignment.to_dict()
        if self.document is not None:
            out = {"document": self.document, **out}
        if self.documents:
            out["documents"] = [g.to_dict(alignment=False) for g in self.documents]
        return out


# ---- the measures -----------------------------------------------------------------------------
@dataclass
class _Document:
    """One document's units in local arrays, its annotators (column → continuum annotator)."""

    index: int
    units: np.ndarray
    columns: np.ndarray
    annot: np.ndarray
    s: np.ndarray
    e: np.ndarray
    cat: np.ndarray
    begin: float
    end: float

    @property
    def n(self) -> int:
        return len(self.columns)

    @property
    def xbar(self) -> float:
        return len(self.s) / self.n


def _documents(c: Continuum, notes: list[str]) -> list[_Document]:
    out = []
    left: dict[str, list[str]] = {}
    for d, name in enumerate(c.documents):
        cols = np.flatnonzero(c.annotated[:, d])
        units = np.flatnonzero(c.doc == d)
        if len(cols) < 2 or not len(units):
            left.setdefault("fewer than two annotators" if len(cols) < 2 else "no unit",
                            []).append(repr(name))
            continue
        local = np.full(len(c.annotators), -1, np.int64)
        local[cols] = np.arange(len(cols))
        out.append(_Document(d, units, cols, local[c.annotator[units]], c.start[units],
                             c.end[units], c.category[units], *c.bounds[d]))
    for why, names in left.items():
        if len(names) == 1:
            notes.append(f"document {names[0]} has {why}: left out of γ")
        else:
            shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
            notes.append(f"{len(names)} documents have {why} ({shown}): left out of γ")
    if not out:
        raise InputError("γ needs a document with units and at least two annotators"
                         + (f" ({notes[0]})" if len(notes) == 1 else ""))
    return out


def _check(alpha: float, beta: float, delta_empty: float) -> None:
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not (np.isfinite(v) and v >= 0):
            raise InputError(f"{name} must be a non-negative number, not {v}")
    if not (np.isfinite(delta_empty) and delta_empty > 0):
        raise InputError(f"delta_empty must be a positive number, not {delta_empty}")


def _setup(c, alpha, beta, delta_empty, category_distance):
    _check(alpha, beta, delta_empty)
    dis = _Dissimilarity(float(alpha), float(beta), float(delta_empty),
                         _category_matrix(c, category_distance))
    notes: list[str] = []
    return dis, _documents(c, notes), notes


def _alignment(c, docs, parts, dis, name) -> Alignment:
    """The corpus alignment from each document's (tuples in local indices, disorders)."""
    rows, costs, where = [], [], []
    per_doc = np.full(len(c.documents), np.nan)
    for doc, (T, cost) in zip(docs, parts, strict=True):
        glob = np.full((len(T), len(c.annotators)), -1, np.int64)
        glob[:, doc.columns] = np.where(T >= 0, doc.units[np.maximum(T, 0)], -1)
        rows.append(glob)
        costs.append(cost)
        where.append(np.full(len(T), doc.index))
        per_doc[doc.index] = cost.sum() / doc.xbar
    xbar = np.array([d.xbar for d in docs])
    total = float(sum(cst.sum() for cst in costs) / xbar.sum())
    return Alignment(c, np.concatenate(rows), np.concatenate(costs), np.concatenate(where),
                     total, per_doc, dis.alpha, dis.beta, dis.delta_empty, name)


def best_alignment(c: Continuum, alpha: float = 1, beta: float = 1, delta_empty: float = 1,
                   category_distance: CategoryDistance = "nominal") -> Alignment:
    """The alignment of least disorder (Mathet et al. 2015, §4.3 and §5.1), exact.

    An integer program over candidate unitary alignments, solved by HiGHS with a zero optimality
    gap; candidates are pruned as in §5.1.1 without losing the optimum (see the module
    :mod:`corpusagree.stats.gamma`).

    Parameters
    ----------
    c : Continuum
        The units, of one or more documents (each aligned within itself).
    alpha, beta : float, default 1
        The weights of the positional and categorial dissimilarities.
    delta_empty : float, default 1
        Δ∅, the cost of a unit aligned with nothing.
    category_distance : str, mapping, tuple or Distance, default "nominal"
        Any corpusagree distance between categories (a name, a ``{(a, b): d}`` mapping,
        ``(array, labels)``, a :class:`~corpusagree.distances.Distance`), scaled into [0, 1];
        d_cat = dist_cat·Δ∅.

    Returns
    -------
    Alignment

    Raises
    ------
    InputError
        For negative weights or a distance that cannot measure the categories.

    References
    ----------
    .. [1] Mathet, Y., Widlöcher, A. and Métivier, J.-P. (2015). The unified and holistic
       method gamma (γ) for inter-annotator agreement measure and alignment. Computational
       Linguistics 41(3).

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
    ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
    ...                            begin=0, end=60)
    >>> round(u.best_alignment(c).disorder, 4)
    0.0123
    """
    dis, docs, _ = _setup(c, alpha, beta, delta_empty, category_distance)
    parts = _align([(d.annot, d.s, d.e, d.cat, d.n) for d in docs], dis)
    return _alignment(c, docs, parts, dis, _distance_name(category_distance))


def gamma(c: Continuum, alpha: float = 1, beta: float = 1, delta_empty: float = 1,
          category_distance: CategoryDistance = "nominal", sampler: str = "statistical",
          precision: float | None = 0.02, n_samples: int | None = None,
          seed: int | None = 0) -> Gamma:
    """γ = 1 − D_o/D_e (Mathet et al. 2015, §4), with γ-cat and γ-k (Mathet 2017, §4.2).

    D_o is the best alignment's disorder; D_e the mean best-alignment disorder of sampled
    continua, reproducible from ``seed``. Over several documents units are aligned and sampled
    within their own document and the corpus-wide γ treats the documents as lying side by side on
    one continuum.

    Parameters
    ----------
    c : Continuum
        The units.
    alpha, beta, delta_empty, category_distance
        As in :func:`best_alignment`.
    sampler : {"statistical", "shuffle"}
        pygamma-agreement's samplers: ``statistical`` draws each annotator's number of units,
        gaps and lengths from normal laws fitted on the continuum and the categories from their
        frequencies; ``shuffle`` shifts real annotators' units circularly (§5.2.1).
    precision : float, optional, default 0.02
        Unless ``n_samples`` is given, 30 samples and then as many more as the relative
        half-width of D_e's 95% interval asks (§5.3), at most 1,000 (a note says when the rule
        asked for more).
    n_samples : int, optional
        A fixed number of sampled continua.
    seed : int, optional, default 0
        The random seed.

    Returns
    -------
    Gamma

    Raises
    ------
    InputError
        For an unknown sampler, a precision outside (0, 1), a non-positive number of samples.

    References
    ----------
    .. [1] Mathet, Y., Widlöcher, A. and Métivier, J.-P. (2015). The unified and holistic
       method gamma (γ) for inter-annotator agreement measure and alignment. Computational
       Linguistics 41(3).
    .. [2] Mathet, Y. (2017). The agreement measure γcat, a complement to γ focused on
       categorization of a continuum. Computational Linguistics 43(3).
    .. [3] Titeux, H. and Riad, R. (2021). pygamma-agreement: Gamma γ measure for
       inter/intra-annotator agreement in Python. JOSS 6(62).

    Examples
    --------
    >>> from corpusagree import unitizing as u
    >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
    ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
    ...                            begin=0, end=60)
    >>> g = u.gamma(c, n_samples=30, seed=0)
    >>> round(g.value, 4), round(g.observed_disorder, 4), g.n_samples
    (0.9859, 0.0123, 30)
    """
    if sampler not in SAMPLERS:
        raise InputError(f"unknown sampler {sampler!r}; known: {', '.join(SAMPLERS)}")
    if n_samples is not None and (int(n_samples) != n_samples or n_samples < 1):
        raise InputError(f"n_samples must be a positive integer, not {n_samples}")
    if n_samples is None and precision is not None and not 0 < precision < 1:
        raise InputError(f"precision must lie in (0, 1), not {precision}")
    dis, docs, notes = _setup(c, alpha, beta, delta_empty, category_distance)
    name = _distance_name(category_distance)
    L = len(c.categories)
    rng = np.random.default_rng(seed)
    observed = _align([(d.annot, d.s, d.e, d.cat, d.n) for d in docs], dis)
    obs_cat = np.array([_category_sums(T, d.s, d.e, d.cat, dis, L)
                        for d, (T, _) in zip(docs, observed, strict=True)])
    xbar = np.array([d.xbar for d in docs])
    # per sample and document: Σ unitary disorders, x̄, γ-cat/γ-k sums
    sums: list[np.ndarray] = []
    sample_xbar: list[np.ndarray] = []
    cat_sums: list[np.ndarray] = []

    def sample() -> list[tuple]:
        if sampler == "statistical":
            return [_statistical(rng, d.annot, d.s, d.e, d.cat, d.n, d.begin, L) for d in docs]
        return [_shuffle(rng, d.annot, d.s, d.e, d.cat, d.n, d.begin, d.end, L) for d in docs]

    batch = max(1, SAMPLE_UNITS // max(len(c), 1))

    def draw(count: int) -> None:
        # sampled continua aligned ``batch`` at a time, as the documents of one program (their
        # units are disjoint), so the solver is called once per batch
        for start in range(0, count, batch):
            smp = [x for _ in range(min(batch, count - start)) for x in sample()]
            parts = _align([(*x, d.n) for x, d in zip(smp, docs * (len(smp) // len(docs)),
                                                         strict=True)], dis)
            for k in range(0, len(smp), len(docs)):
                mine = zip(parts[k:k + len(docs)], smp[k:k + len(docs)], docs, strict=True)
                part_sums, xbars, cats = zip(*[
                    (cost.sum(), len(x[0]) / d.n, _category_sums(T, x[1], x[2], x[3], dis, L))
                    for (T, cost), x, d in mine], strict=True)
                sums.append(np.array(part_sums))
                sample_xbar.append(np.array(xbars))
                cat_sums.append(np.array(cats))

    def corpus_disorders() -> np.ndarray:
        # each sampled document weighs by the real document's x̄, as the observed ones do
        per_doc = np.array(sums) / np.array(sample_xbar)
        return per_doc @ xbar / xbar.sum()

    first = int(n_samples) if n_samples is not None else FIRST_BATCH
    draw(first)
    if n_samples is None and precision is not None:
        D = corpus_disorders()
        cv = D.std() / D.mean() if D.mean() > 0 else 0.0
        required = int(np.ceil((cv * Z_PRECISION / precision) ** 2))
        if required > MAX_SAMPLES:
            notes = [*notes, f"the precision rule asked for {required:,} sampled continua "
                     f"(D_e varies much between samples); {MAX_SAMPLES:,} were drawn: give a "
                     "number of samples to draw more"]
        draw(max(0, min(required, MAX_SAMPLES) - first))
    per_doc = np.array(sums) / np.array(sample_xbar)       # samples × documents
    cats = np.array(cat_sums)                               # samples × documents × 2 × (1 + L)
    alignment = _alignment(c, docs, observed, dis, name)

    def result(doc_ix: np.ndarray, document: str | None, align: Alignment,
               extra: list[str]) -> Gamma:
        w = xbar[doc_ix] / xbar[doc_ix].sum()
        D = per_doc[:, doc_ix] @ w
        Do = float(align.disorder)
        De = float(D.mean())
        o = obs_cat[doc_ix].sum(0)
        ratio_o = _ratio(o[0], o[1])
        sm = cats[:, doc_ix].sum(1)
        ratio_s = _ratio(sm[:, 0], sm[:, 1])
        with np.errstate(invalid="ignore"):
            ratio_e = np.array([np.nanmean(col) if (~np.isnan(col)).any() else np.nan
                                for col in ratio_s.T])
        g_cat = _chance_corrected(ratio_o, ratio_e).tolist()
        pairs = list(zip(ratio_o.tolist(), ratio_e.tolist(), strict=True))
        return Gamma(float(_chance_corrected(Do, De)), Do, De, align, len(D), D, g_cat[0],
                     dict(zip(c.categories, g_cat[1:], strict=True)), pairs[0],
                     dict(zip(c.categories, pairs[1:], strict=True)), sampler,
                     None if n_samples is not None else precision, seed, document,
                     notes=extra)

    single = len(c.documents) == 1
    everything = result(np.arange(len(docs)), c.documents[0] if single else None, alignment,
                        notes)
    if single:
        return everything
    for k, d in enumerate(docs):
        on = alignment.document == d.index
        sub = Alignment(c, alignment.tuples[on], alignment.disorders[on],
                        alignment.document[on], float(alignment.document_disorders[d.index]),
                        alignment.document_disorders, dis.alpha, dis.beta, dis.delta_empty,
                        name)
        everything.documents.append(result(np.array([k]), c.documents[d.index], sub, []))
    return everything
