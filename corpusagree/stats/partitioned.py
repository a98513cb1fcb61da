"""Coefficients from parts of the data: additive sufficient statistics, summed.

Every coefficient of the α/β and Gwet families is 1 − Do/De over a few sums over items
(:mod:`corpusagree.stats.kernel`): Do from per-item sums (Σ disagr_i, Σ n_i disagr_i and the
counts of items and values), De from label counts — Krippendorff's n_k over pairable values,
the item-weighted m_k = Σ_i n_ik/n_i, each coder's counts n_ck — which are themselves sums over
items. So the data can be cut into parts that hold whole items (a partition of a Dask frame
shuffled by item or by document), each part reduced to these sums (:func:`part_sums`), the
parts' sums added (a tree reduction), and the coefficients formed once from the total
(:func:`coefficients`), with the values the whole data in memory give. Light's κ, a mean of
Cohen's κ over pairs of coders, takes per-pair sums over the items both judged
(:func:`pair_sums`). Kept per document, the sums give the bootstrap clustered by document: a
replicate's sums are the documents' sums weighted by how often it draws them
(:func:`reweighted_values`).

References
----------
.. [1] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta). NLE Technical Note 05-1,
   §5.1 (the per-item formulas).
.. [2] Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability (Do and De as sums
   over the coincidences of values).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..model.data import ReliabilityData
from . import distances as dist
from . import mvalpha as mv
from . import spec as sp
from .coefficients import Result
from .kernel import (
    PAIRS_PER_CHUNK,
    SufficientStats,
    _coder_terms,
    _conger_terms,
    item_pairs,
    label_counts,
)
from .ratios import chance_corrected

#: the per-item sums of Do, in the order :class:`Sums` keeps them
DO_SUMS = ("sum_dis", "n_pairable", "sum_ndis", "n_values")


@dataclass
class Sums:
    """The additive sums of a set of whole items (``+`` adds two sets'), for one or more
    distances: ``do[j]`` the sums of Do under metric j (:data:`DO_SUMS`), ``n_judged`` items
    with a judgement, ``n_k`` pooled pairable label counts, ``m_k`` the item-weighted counts,
    ``F`` coders × labels counts. With ``units`` > 0, every array has a leading axis of that
    many units (documents), each unit's own sums."""

    do: np.ndarray
    n_judged: np.ndarray
    n_k: np.ndarray
    m_k: np.ndarray
    F: np.ndarray
    #: the items (those without a judgement too)
    n_items: np.ndarray | float = 0.0
    #: Light's κ, per pair of coders (r < s) on the items both judged: Σ d under each metric
    #: (metrics × pairs), the items (pairs), each coder's label counts there (pairs × labels,
    #: twice); None per unit or past :data:`PAIR_CELLS`
    pairs: tuple | None = None

    def __add__(self, other: Sums) -> Sums:
        pairs = None if self.pairs is None or other.pairs is None else \
            tuple(a + b for a, b in zip(self.pairs, other.pairs, strict=True))
        return Sums(self.do + other.do, self.n_judged + other.n_judged, self.n_k + other.n_k,
                    self.m_k + other.m_k, self.F + other.F, self.n_items + other.n_items,
                    pairs)


#: coder pairs × labels up to which Light's κ's per-pair counts are kept
PAIR_CELLS = 10_000_000


def pair_sums(codes: np.ndarray, n_labels: int, metrics: Sequence) -> tuple | None:
    """Light's κ's sums of each pair of coders on the items both judged (see
    :attr:`Sums.pairs`), or None when pairs × labels exceed :data:`PAIR_CELLS`."""
    C = codes.shape[0]
    r, s = np.triu_indices(C, 1)
    P, L = len(r), n_labels
    if P * L > PAIR_CELLS:
        return None
    a, b = codes[r], codes[s]
    both = (a >= 0) & (b >= 0)
    pair_of = np.broadcast_to(np.arange(P)[:, None], a.shape)[both]
    ab, bb = a[both], b[both]
    do = np.stack([np.bincount(pair_of, np.asarray(m.pair(ab, bb), float), minlength=P)
                   for m in metrics])
    FA = np.bincount(pair_of * L + ab, minlength=P * L).reshape(P, L).astype(float)
    FB = np.bincount(pair_of * L + bb, minlength=P * L).reshape(P, L).astype(float)
    return do, both.sum(1).astype(float), FA, FB


def part_sums(codes: np.ndarray, n_labels: int, metrics: Sequence,
              unit_of: np.ndarray | None = None, n_units: int = 0) -> Sums:
    """The sums of the items of ``codes`` (coders × items of label codes into the whole data's
    label table, −1 missing), under each metric of ``metrics`` (bound to the whole data).

    With ``unit_of`` (the unit, e.g. document, of each item, in ``range(n_units)``), the sums
    of each unit: arrays with a leading axis of ``n_units``.

    Examples
    --------
    >>> import numpy as np
    >>> from corpusagree.stats import distances as dist
    >>> s = part_sums(np.array([[0, 1, 0], [0, 0, -1]]), 2, [dist.get(None).bind(None, None)])
    >>> s.do.tolist(), s.n_k.tolist()
    ([[1.0, 2.0, 2.0, 4.0]], [3.0, 1.0])
    """
    C, N = codes.shape
    L = n_labels
    units = unit_of is not None
    u = np.asarray(unit_of, np.intp) if units else np.zeros(N, np.intp)
    U = n_units if units else 1
    valid = codes >= 0
    n_i = valid.sum(0)
    pairable = n_i >= 2
    n = n_i.astype(float)
    do = np.zeros((len(metrics), U, len(DO_SUMS)))
    c = max(int(n_i.max(initial=0)), 2)
    step = max(1, PAIRS_PER_CHUNK // (c * (c - 1) // 2))
    for j, metric in enumerate(metrics):
        item_sum = np.empty(N)
        for start in range(0, N, step):
            a, b, both = item_pairs(codes[:, start:start + step])
            d = metric.pair(a, b)
            item_sum[start:start + step] = ((d & both).sum(0) if d.dtype == bool
                                            else (d * both).sum(0))
        dis = np.zeros(N)
        dis[pairable] = 2 * item_sum[pairable] / (n[pairable] * (n[pairable] - 1))
        for k, col in enumerate((dis, pairable.astype(float), dis * n,
                                 np.where(pairable, n, 0.0))):
            do[j, :, k] = np.bincount(u, weights=col, minlength=U)
    judged = np.bincount(u, weights=(n_i > 0).astype(float), minlength=U)
    keys = u[None, :] * (L + 1) + codes + 1  # a missing judgement: column 0 of its unit
    n_k = np.bincount(np.where(pairable, keys, u[None, :] * (L + 1)).ravel(),
                      minlength=U * (L + 1)).reshape(U, L + 1)[:, 1:].astype(float)
    w = np.broadcast_to(1.0 / np.maximum(n, 1), codes.shape)
    m_k = np.bincount(keys.ravel(), weights=w.ravel(),
                      minlength=U * (L + 1)).reshape(U, L + 1)[:, 1:]
    if units:
        fk = (u[None, :] * C + np.arange(C)[:, None]) * (L + 1) + codes + 1
        F = np.bincount(fk.ravel(), minlength=U * C * (L + 1)).reshape(U, C, L + 1)[:, :, 1:]
    else:
        F = label_counts(codes, L)[None]
    items = np.bincount(u, minlength=U).astype(float)
    s = Sums(do, judged, n_k, m_k, F.astype(float), items)
    return s if units else Sums(s.do[:, 0], judged[0], n_k[0], m_k[0], s.F[0], items[0],
                                pair_sums(codes, L, metrics))


def total(s: Sums) -> Sums:
    """The sums of all units of per-unit sums."""
    return Sums(s.do.sum(1), s.n_judged.sum(0), s.n_k.sum(0), s.m_k.sum(0), s.F.sum(0),
                np.sum(s.n_items))


def concat_units(a: Sums, b: Sums) -> Sums:
    """The per-unit sums of two sets of units, side by side."""
    return Sums(np.concatenate([a.do, b.do], 1), np.concatenate([a.n_judged, b.n_judged]),
                np.concatenate([a.n_k, b.n_k]), np.concatenate([a.m_k, b.m_k]),
                np.concatenate([a.F, b.F]), np.concatenate([a.n_items, b.n_items]))


def weighted(s: Sums, W: np.ndarray) -> Sums:
    """The sums of each row w of W (replicates × units) over per-unit sums: unit u counted
    w_u times (a bootstrap replicate)."""
    W = np.asarray(W, float)
    return Sums(np.einsum("ru,juk->jrk", W, s.do), W @ s.n_judged, W @ s.n_k, W @ s.m_k,
                np.einsum("ru,ucl->crl", W, s.F), W @ s.n_items)


def stats(s: Sums, j: int, metric, labels, weighted_distance: bool,
          categories: int | None = None) -> SufficientStats:
    """The :class:`~corpusagree.stats.kernel.SufficientStats` of total sums ``s`` (one view, or
    replicates when ``s`` came from :func:`weighted`) under metric ``j``, as the kernel forms
    them from the whole data: every expected disagreement from the label counts."""
    do = np.atleast_2d(s.do[j])
    n_k, m_k = np.atleast_2d(s.n_k), np.atleast_2d(s.m_k)
    F = s.F if s.F.ndim == 3 else s.F[:, None, :]  # coders × views × labels
    active = F.sum(axis=(1, 2)) > 0
    F = F[active]
    used = (m_k > 0).astype(float)
    q = used.sum(1) if categories is None else np.full(len(m_k), float(categories))
    st = SufficientStats(do[:, 0], do[:, 1], do[:, 2], do[:, 3], np.atleast_1d(s.n_judged),
                         q, metric.cross(n_k, n_k), n_k.sum(1), metric.cross(m_k, m_k))
    st.category_cross = metric.cross(used, used) if weighted_distance else q * (q - 1)
    st.single_sq = (m_k * m_k).sum(1)
    st.conger_cross, st.conger_r = _conger_terms(metric, F)
    st.coder_cross, st.coder_norm = _coder_terms(metric, F)
    if getattr(labels, "indptr", None) is not None:  # set labels: mvα's margins
        st.value_counts, st.size_counts = mv.SetMargins(labels)(n_k)
    return st


def specs(n_coders: int, distance: dist.Distance, is_set: bool, pairs: bool = True
          ) -> list[tuple[sp.Coefficient, dist.Distance]]:
    """(coefficient, distance) of the rows of
    :func:`corpusagree.stats.coefficients.table_specs`, from sums; without ``pairs`` (the
    pairs' sums were too many: :data:`PAIR_CELLS`) but Light's κ."""
    light = pairs
    out = [(c, dist.get(None)) for c in sp.COEFFICIENTS.values()
           if c.listed("nominal", n_coders) and (light or c.value != "pairs_mean")]
    if distance.weighted:
        out += [(c, distance) for c in sp.COEFFICIENTS.values()
                if c.listed("weighted", n_coders) and (light or c.value != "pairs_mean")
                and (distance.bounded or not c.bounded)]
    if is_set:
        out += [(c, dist.get(c.distance)) for c in sp.COEFFICIENTS.values()
                if c.listed("sets", n_coders)]
    return out


def metrics_of(template: ReliabilityData, distances: Sequence[dist.Distance], n_k: np.ndarray
               ) -> list:
    """Each distance bound to the whole data's label table (``template``: the labels, no
    items) and pooled label counts ``n_k`` (the ordinal metric's ranks)."""
    return [d.bind(template, n_k) for d in distances]


def coefficients(total: Sums, template: ReliabilityData, distances: Sequence[dist.Distance],
                 metrics: Sequence, rows: Sequence[tuple[sp.Coefficient, dist.Distance]],
                 categories: Sequence | None = None) -> list[Result]:
    """The :class:`~corpusagree.stats.coefficients.Result` of each row of ``rows`` from the
    total sums (``distances[j]`` bound as ``metrics[j]``, the Do sums ``total.do[j]``)."""
    names = [d.name for d in distances]
    n_coders = int((total.F.sum(1) > 0).sum())
    pairable = int(total.do[0][1])
    values = int(total.do[0][3])
    out = []
    for c, d in rows:
        j = names.index(d.name)
        if c.value == "pairs_mean":
            out.append(_light(total, j, metrics[j], c, d, pairable, values))
            continue
        if c.expected in ("uniform", "gwet") and d.weighted and categories is not None:
            raise ValueError("declared categories with a weighted distance: compute the "
                             "data in memory")
        q = len(categories) if categories is not None else \
            (len(template.categories) if template.categories is not None else None)
        st = stats(total, j, metrics[j], template.labels, d.weighted, q)
        value = float(sp.evaluate(c, st)[0])
        do = float(st.observed(c.observed)[0]) if c.observed else float("nan")
        de = float(st.expected(c.expected)[0]) if c.expected else float("nan")
        details: dict = {}
        if c.expected in ("uniform", "gwet"):
            details = {"categories": int(st.categories[0]),
                       "categories_declared": q is not None}
        if c.value == "bias":
            details = {"De_alpha_prime": float(st.expected("single")[0]),
                       "De_beta": float(st.expected("individual")[0])}
        out.append(Result(c.id, c.label(n_coders), value, do, de, d.name, pairable, n_coders,
                          values, c.definition, details, None))
    return out


def _light(total: Sums, j: int, metric, c: sp.Coefficient, d: dist.Distance, pairable: int,
           values: int) -> Result:
    """Light's κ from the pairs' sums: the mean over pairs of coders of Cohen's κ (κw), each
    pair on the items both judged (Light 1971), as
    :func:`corpusagree.stats.coefficients.light_kappa` computes it in memory."""
    pd_, shared, FA, FB = total.pairs
    keep = shared > 0
    if not keep.any():
        raise ValueError("no two coders judged a common item")
    n = np.maximum(shared, 1)[:, None]
    do = pd_[j][keep] / shared[keep]
    de = metric.cross(FA[keep] / n[keep], FB[keep] / n[keep])
    with np.errstate(invalid="ignore", divide="ignore"):
        kappas = chance_corrected(do, de)
    value = float(np.nanmean(kappas)) if (~np.isnan(kappas)).any() else float("nan")
    n_coders = int((total.F.sum(1) > 0).sum())
    return Result(c.id, c.symbol, value, float(do.mean()), float(de.mean()), d.name, pairable,
                  n_coders, values, c.definition, {"pairs": int(keep.sum())}, None)


def draws(n_units: int, n_resamples: int, seed: int | None = None) -> np.ndarray:
    """Replicates × units: how often each replicate draws each unit (units drawn with
    replacement, as many as there are)."""
    rng = np.random.default_rng(seed)
    return np.stack([np.bincount(rng.integers(0, n_units, n_units), minlength=n_units)
                     for _ in range(n_resamples)]) if n_resamples else np.zeros((0, n_units))


def reweighted_values(per_unit: Sums, W: np.ndarray, template: ReliabilityData,
                      distances: Sequence[dist.Distance], metrics: Sequence,
                      rows: Sequence[tuple[sp.Coefficient, dist.Distance]],
                      categories: Sequence | None = None) -> np.ndarray:
    """rows × replicates: each coefficient on each reweighting of the units (a row of ``W``,
    replicates × units: a bootstrap replicate's draws, or a jackknife's ones but one), each
    replicate's sums the per-unit sums weighted (the clustered bootstrap of
    :mod:`corpusagree.stats.inference`)."""
    reps = weighted(per_unit, W)
    names = [d.name for d in distances]
    q = len(categories) if categories is not None else \
        (len(template.categories) if template.categories is not None else None)
    out = np.empty((len(rows), len(W)))
    for r, (c, d) in enumerate(rows):
        j = names.index(d.name)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[r] = sp.evaluate(c, stats(reps, j, metrics[j], template.labels, d.weighted, q))
    return out


__all__ = ["PAIR_CELLS", "Sums", "coefficients", "concat_units", "draws", "metrics_of",
           "pair_sums", "part_sums", "reweighted_values", "specs", "stats", "total", "weighted"]
