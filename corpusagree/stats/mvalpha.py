"""Krippendorff & Craggs's (2016) multi-valued α: the expected disagreement of sets of values.

In multi-valued coding a coder gives a unit a *set* of values: several, one, or none (the empty
set, "none of these", is a value of its own, distinct from a missing judgement; a value given
twice in one cell counts once). Krippendorff & Craggs (2016, "The reliability of multi-valued
coding of data", *Communication Methods and Measures* 10(4), §3) compare two sets C and K with
the nominal difference function

    δ(C, K) = 1 − 2|C ∩ K| / (|C| + |K|) = |C △ K| / (|C| + |K|),

0 for two empty sets and 1 for the empty set against any other: the Dice distance of
:mod:`corpusagree.stats.distances`. The observed disagreement D_o is α's, with the sets as the
values of a unit (coincidences within units that at least two coders judged), so the kernel
computes it. mvα = 1 − D_o/D_e differs from α under the Dice distance in its **expected**
disagreement (§4): α's D_e pairs the sets the coders wrote; mvα's pairs every set that could be
formed from the *values* the coders used, sizes as often as the coders used them:

    D_e = Σ_{s,t} P(s) P(t) · Σ_{|C|=s, |K|=t} w(C, K) δ(C, K) / Σ_{|C|=s, |K|=t} w(C, K),
    w(C, K) = Π_{v ∈ C ∪ K} n_v · Π_{v ∈ C ∩ K} (n_v − 1),

with P(s) the share of pairable judgements that are sets of s values, n_v the number of
pairable judgements containing value v (a value shared by C and K is drawn twice, without
replacement), and C, K running over all subsets of the values used. A pair of sizes for which
no two sets can be drawn (every w = 0) contributes nothing, as in the R package mvalpha. When
every set has one value, D_e is α's nominal D_e and mvα is α nominal.

Computed without enumerating subsets: δ depends only on (s, t, x = |C ∩ K|), and the weights
of all pairs with a given (s, t, x) are binom(s + t − 2x, s − x) · E[s + t − 2x, x], where
E[m, x] is the coefficient of r^m y^x in the generating polynomial Π_v (1 + a_v r + b_v y)
(a value is in neither set, in one of them, or in both), a_v = n_v / N, b_v = n_v(n_v − 1)/N²
with N the pairable judgements (the factor N^(s+t) cancels within each (s, t)). The polynomial
has (2S + 1)(S + 1) coefficients for sets of up to S values and is built one value at a time,
vectorised over the views (bootstrap replicates, coder subsets): O(V·S²) per view for V values,
every term positive (no cancellation), where the subsets number Σ_s binom(V, s)². With many
values (a value per mention of a coreference chain: thousands) it is the exponential of its
logarithm, a series in the power sums of the (a_v, b_v) of the distinct counts: O(S⁴) per
view whatever V; that logarithm alternates in sign, so each coefficient comes with an error
bound (the same exponential with every term positive) and a view whose bound exceeds
:data:`TOLERANCE` is built value by value instead. :func:`cost` tells the work of the cheaper
way; the jobs leave mvα out, saying why, past :data:`POINT_BUDGET` (its value: sets of
hundreds of values among thousands, chains of long novels) and :data:`RESAMPLE_BUDGET` (its
bootstrap interval).

Levels of measurement. Only nominal mvα is offered. Krippendorff & Craggs also define
ordinal, interval and ratio mvα through a difference function on the values; the R package
mvalpha (0.6.0) computes them, but its observed disagreement evaluates the value metric on the
ranks 1 … V of the distinct values (R factor codes) while its expected disagreement evaluates it
on the values themselves (interval, ratio) — the two agree only when the values are exactly
1 … V — and its ordinal metric reads the value counts one position off when the empty set
occurs (a pseudo-count of 1 put first). :func:`check_distance` refuses the other levels.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.special import comb

from ..model.data import SetLabels

#: polynomial coefficients (views × (2S + 1) × (S + 1)) handled at once
CELLS = 4_000_000
#: how the generating polynomial is built: "auto" (the cheaper way for the data),
#: "by value" or "power sums"
PATH = "auto"
#: the most cell updates (see :func:`cost`) a job spends on mvα's point estimate
POINT_BUDGET = 1e9
#: the most cell updates a bootstrap spends on mvα over all its replicates
RESAMPLE_BUDGET = 2e9
#: the largest error bound of the power-sum path, relative to a pair of sizes' total weight
TOLERANCE = 1e-12

NEEDS_SETS = ("mvα needs set-valued labels (cells like a|b|c with set_sep='|', a bare | for "
              "the empty set; or frozensets); on single values it is α nominal")


def check_distance(distance) -> None:
    """Accept the nominal level (``None``, ``"nominal"``, or mvα's own Dice distance between
    sets); refuse ordinal, interval and ratio mvα, saying why (see the module notes), and any
    other distance."""
    name = getattr(distance, "name", distance)
    if name in (None, "nominal", "dice"):
        return
    if name in ("ordinal", "interval", "ratio"):
        raise ValueError(
            f"mvα is offered for nominal values only, not {name}: the {name} mvα of the R "
            "package mvalpha takes the observed disagreement on the ranks 1..V of the values "
            "and the expected disagreement on the values themselves, which agree only when "
            "the values are exactly 1..V; use nominal mvα, or α with a set distance")
    raise ValueError(f"mvα compares sets with its own nominal δ(C, K) (the Dice distance) and "
                     f"takes no other distance ({name!r}); α takes the set distances")


class SetMargins:
    """The margins of a table of sets that mvα's expected disagreement takes: from counts of
    the sets (… × L, e.g. the pairable judgements of each label), the counts n_v of each value
    (element) and n_s of each set size."""

    def __init__(self, labels: SetLabels) -> None:
        if not isinstance(labels, SetLabels):
            raise ValueError(NEEDS_SETS)
        L = len(labels)
        n_elem = int(labels.elements.max(initial=-1)) + 1
        sizes = labels.sizes
        self.incidence = sp.csr_matrix((np.ones(len(labels.elements)), labels.elements,
                                        labels.indptr), shape=(L, n_elem))
        self.by_size = sp.csr_matrix((np.ones(L), (np.arange(L), sizes)),
                                     shape=(L, int(sizes.max(initial=0)) + 1))

    def __call__(self, set_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(value counts n_v, size counts n_s), each with the leading shape of ``set_counts``."""
        F = np.asarray(set_counts, float)
        flat = F.reshape(-1, F.shape[-1])
        values = np.asarray((self.incidence.T @ flat.T).T)
        sizes = np.asarray((self.by_size.T @ flat.T).T)
        lead = F.shape[:-1]
        return values.reshape(lead + values.shape[-1:]), sizes.reshape(lead + sizes.shape[-1:])


def _generating_polynomial(a: np.ndarray, b: np.ndarray, S: int) -> np.ndarray:
    """E[view, m, x]: the coefficients of r^m y^x (m ≤ 2S, x ≤ S) of Π_v (1 + a_v r + b_v y),
    for every row (view) of a and b (views × values)."""
    B, V = a.shape
    padded = np.zeros((B, 2 * S + 2, S + 2))  # a zero row and column before the coefficients
    padded[:, 1, 1] = 1.0
    E = padded[:, 1:, 1:]
    for v in range(V):  # one factor per value, vectorised over views and coefficients
        E += a[:, v, None, None] * padded[:, :-1, 1:] + b[:, v, None, None] * padded[:, 1:, :-1]
    return E


def _overlap_grid(sizes: np.ndarray, S: int):
    """For every pair (s, t) of the given sizes and overlap x ≤ min(s, t): the index m =
    s + t − 2x into the polynomial, binom(m, s − x) and δ = 1 − 2x/(s + t) (0 when s = t = 0);
    arrays of shape (sizes, sizes, S + 1), zero where x > min(s, t)."""
    s = sizes[:, None, None]
    t = sizes[None, :, None]
    x = np.arange(S + 1)[None, None, :]
    ok = x <= np.minimum(s, t)
    m = np.where(ok, s + t - 2 * x, 0)
    ways = np.where(ok, comb(m, np.where(ok, s - x, 0)), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = np.where(s + t > 0, 1.0 - 2.0 * x / np.maximum(s + t, 1), 0.0)
    return m, np.where(ok, x, 0), ways, delta


def _power_sum_polynomial(counts: np.ndarray, N: np.ndarray, S: int
                          ) -> tuple[np.ndarray, np.ndarray]:
    """E[view, m, x] as :func:`_generating_polynomial` computes it, for many values: the
    logarithm of Π_v (1 + a_v r + b_v y) is Σ_{i,j} (−1)^(i+j+1) binom(i+j, i)/(i+j) ·
    p_ij r^i y^j with the power sums p_ij = Σ_v a_v^i b_v^j (values of equal count summed once),
    and E is its exponential. Also an error bound per coefficient: the exponential of the same
    series with every term positive, times a few units of round-off (the terms of the
    logarithm alternate in sign; where they cancel badly the bound says so)."""
    B = len(counts)
    M, X = 2 * S + 1, S + 1
    rows, cols = np.nonzero(counts)
    vals = counts[rows, cols]
    order = np.lexsort((vals, rows))
    rows, vals = rows[order], vals[order]
    new = np.ones(len(vals), bool)
    new[1:] = (rows[1:] != rows[:-1]) | (vals[1:] != vals[:-1])
    starts = np.flatnonzero(new)
    g_view, g_count = rows[starts], vals[starts]
    g_mult = np.diff(np.append(starts, len(vals))).astype(float)
    a = g_count / N[g_view]
    b = a * (g_count - 1) / N[g_view]
    # p_ij of each view: Aᵀ diag(k) B over its groups, the groups of a view side by side
    slot = np.arange(len(g_view)) - np.searchsorted(g_view, g_view)
    width = int(slot.max(initial=-1)) + 1
    P = np.zeros((B, M, X))
    step = max(1, CELLS // max(width * (M + X), 1))
    for lo in range(0, B, step):
        g = slice(*np.searchsorted(g_view, [lo, lo + step]))
        n = min(step, B - lo)
        A = np.zeros((n, M, width))
        A[g_view[g] - lo, :, slot[g]] = (a[g, None] ** np.arange(M)) * g_mult[g, None]
        Bp = np.zeros((n, width, X))
        Bp[g_view[g] - lo, slot[g]] = b[g, None] ** np.arange(X)
        P[lo:lo + n] = A @ Bp
    i, j = np.arange(M)[:, None], np.arange(X)[None, :]
    k = i + j
    weight = np.where(k > 0, comb(k, i) / np.maximum(k, 1), 0.0)
    E = _series_exp(P * (weight * np.where(k % 2 == 1, 1.0, -1.0)))
    bound = _series_exp(P * weight)
    return E, 8 * np.finfo(float).eps * (i + j + 2) * bound


def _series_exp(L: np.ndarray) -> np.ndarray:
    """exp of truncated power series in r and y (views × M × X, M = 2X − 1, no constant
    term), by m E_m = Σ_i i L_i E_(m−i) over the powers of r (each a series in y) and the
    same recurrence in y for E_0; only the coefficients of r^m y^x with m + 2x ≤ M − 1 (the
    ones mvα reads; the others are left 0)."""
    B, M, X = L.shape
    E = np.zeros_like(L)
    E[:, 0, 0] = 1.0
    for x in range(1, X):
        E[:, 0, x] = np.einsum("bj,bj->b", np.arange(1, x + 1) * L[:, 0, 1:x + 1],
                               E[:, 0, x - 1::-1]) / x
    # T[b, i, j, x] = i · L[b, i, x − j]: the convolution in y as a matrix per power of r
    lag = np.arange(X)[None, :] - np.arange(X)[:, None]
    T = np.where(lag >= 0, L[:, :, np.maximum(lag, 0)], 0.0) * np.arange(M)[None, :, None, None]
    for m in range(1, M):
        xm = (M - 1 - m) // 2 + 1  # only r^m y^x with m + 2x ≤ 2S is ever read
        earlier = E[:, m - 1::-1][:, :m, :xm]  # E_(m−i), i = 1 … m
        E[:, m, :xm] = np.einsum("bij,bijx->bx", earlier, T[:, 1:m + 1, :xm, :xm]) / m
    return E


def _work(values: int, distinct: int, S: int) -> tuple[float, float]:
    """Cell updates per view of the polynomial built value by value, and from power sums
    (``distinct`` counts; the two exponentials of the triangle m + 2x ≤ 2S)."""
    M, X = 2 * S + 1, S + 1
    m = np.arange(1, M)
    triangle = float((m * ((M - 1 - m) // 2 + 1) ** 2).sum())
    return float(values) * M * X, float(distinct) * M * X + 2 * (triangle + M * X * X)


def cost(value_counts: np.ndarray, size_counts: np.ndarray) -> float:
    """Cell updates per view that :func:`expected_disagreement` spends on these counts (the
    cheaper of its two ways): about V·S² for V values and sets of up to S values, or S⁴."""
    n_v = np.atleast_2d(np.asarray(value_counts, float))
    sizes = np.flatnonzero(np.atleast_2d(np.asarray(size_counts, float)).any(0))
    if not len(sizes):
        return 0.0
    used = n_v[:, n_v.any(0)]
    return min(_work(used.shape[1], len(np.unique(used[used > 0])), int(sizes[-1])))


def over_budget(value_counts: np.ndarray, size_counts: np.ndarray, views: int, budget: float
                ) -> str | None:
    """None when ``views`` evaluations of D_e on these counts fit in ``budget`` cell updates
    (:func:`cost`), else why not (for a note)."""
    work = cost(value_counts, size_counts) * views
    if work <= budget:
        return None
    n_v = np.atleast_2d(np.asarray(value_counts))
    S = int(np.flatnonzero(np.atleast_2d(np.asarray(size_counts)).any(0))[-1])
    return (f"its expected disagreement over {int(n_v.any(0).sum()):,} values in sets of up "
            f"to {S} would take about {work:.1e} cell updates (the limit is {budget:.0e})")


def expected_disagreement(value_counts: np.ndarray, size_counts: np.ndarray) -> np.ndarray:
    """mvα's D_e (Krippendorff & Craggs 2016, §4) for every row (view) of the counts n_v of
    each value (views × values) and n_s of each set size (views × sizes) among the pairable
    judgements; nan for a view without pairable judgements.

    Pairs of sets are grouped by their sizes and overlap through a generating polynomial over
    the values (see the module notes), so the cost is O(V·S²) per view, not the number of
    pairs of subsets. Where it is cheaper (many values, few distinct counts, small S: a value
    per mention of short chains) the polynomial comes from power sums over the distinct
    counts (O(distinct counts · S²) and an S⁴ exponential); a view whose error bound exceeds
    :data:`TOLERANCE` of a term is then recomputed value by value (:func:`cost` tells the
    work)."""
    n_v = np.atleast_2d(np.asarray(value_counts, float))
    n_s = np.atleast_2d(np.asarray(size_counts, float))
    N = n_s.sum(1)
    out = np.full(len(n_s), np.nan)
    sizes = np.flatnonzero(n_s.any(0))
    if not len(sizes):
        return out
    S = int(sizes[-1])
    n_v = n_v[:, n_v.any(0)]  # values no view uses are factors of 1
    m, x, ways, delta = _overlap_grid(sizes, S)
    if PATH == "auto":
        by_value, by_sums = _work(n_v.shape[1], len(np.unique(n_v[n_v > 0])), S)
        sequential = by_value <= by_sums
    else:
        sequential = PATH == "by value"
    cells = (2 * S + 2) * (S + 2)
    per_view = cells * (1 if sequential else 3 + S) + len(sizes) ** 2 * (S + 1) \
        + n_v.shape[1]
    step = max(1, CELLS // per_view)
    for lo in range(0, len(n_s), step):
        rows = slice(lo, lo + step)
        scale = np.where(N[rows] > 0, N[rows], 1.0)
        a = n_v[rows] / scale[:, None]
        b = a * (n_v[rows] - 1) / scale[:, None]
        if sequential:
            E = _generating_polynomial(a, b, S)
        else:
            E, bound = _power_sum_polynomial(n_v[rows], scale, S)
        W = ways * E[:, m, x]  # views × s × t × x: the weight of all pairs with that overlap
        Z = W.sum(-1)
        if not sequential:
            used = (n_s[rows][:, sizes, None] * n_s[rows][:, None, sizes]) > 0
            slack = (ways * bound[:, m, x]).sum(-1)
            redo = np.flatnonzero((used & (slack > TOLERANCE * Z)).any((1, 2)))
            if len(redo):
                E[redo] = _generating_polynomial(a[redo], b[redo], S)
                W[redo] = ways * E[redo][:, m, x]
                Z[redo] = W[redo].sum(-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_delta = np.where(Z > 0, (W * delta).sum(-1) / np.where(Z > 0, Z, 1.0), 0.0)
        P = n_s[rows][:, sizes] / scale[:, None]
        out[rows] = np.where(N[rows] > 0, np.einsum("bs,bt,bst->b", P, P, mean_delta), np.nan)
    return out


__all__ = ["CELLS", "NEEDS_SETS", "PATH", "POINT_BUDGET", "RESAMPLE_BUDGET", "TOLERANCE",
           "SetMargins", "check_distance", "cost", "expected_disagreement", "over_budget"]
