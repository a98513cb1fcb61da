"""Distance metrics d(a, b) between labels, answering the two questions coefficients ask.

* ``pair(a, b)``: distances for arrays of label codes (observed disagreement);
* ``cross(F, G)``: Σ_ab F[..., a] G[..., b] d(a, b), row by row (expected disagreement).

A :class:`Distance` is a recipe; ``bind(data, value_counts)`` returns a :class:`Metric` for one
label table. Krippendorff's metrics (nominal, ordinal, interval, ratio) follow Krippendorff
(2011, "Computing Krippendorff's alpha-reliability"); ordinal is interval distance over the
mid-rank positions of the pooled pairable values. Set distances (Artstein & Poesio 2005, §4.1)
never build an L × L array: every set distance is 0 on the diagonal and 1 for disjoint sets, so
``cross(f, g) = Σf·Σg − fᵀ S g`` with S the sparse similarity over intersecting label pairs,
found from the label × element incidence matrix (intersection sizes = M·Mᵀ). When nearly every
pair of sets intersects (many sets of few values: multi-label categories), S would be L × L;
then the similarity, a function of (|A|, |B|, |A ∩ B|), is written in the basis
binom(|A ∩ B|, k) and summed through the subsets of the sets (:class:`_ProfileSetMetric`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from scipy.special import comb

from ..model.data import ReliabilityData, SetLabels, is_number
from ..model.io import is_number_text
from ..model.params import ArrayLike, Function, Items, Param, checked
from .ratios import divide

#: the largest label table a dense L × L distance matrix is built for
MAX_DENSE_LABELS = 20_000


class Metric:
    """A distance bound to one label table."""

    def pair(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """d for arrays of codes; must be finite for every code in [-1, L) (callers mask -1)."""
        raise NotImplementedError

    def cross(self, F: np.ndarray, G: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    #: whether :meth:`gram` is free of cancellation (the interval closed form is not)
    exact_gram = True

    def gram(self, A, B) -> np.ndarray:
        """A D Bᵀ for (sparse or dense) count matrices A (m × L), B (n × L): dense m × n."""
        raise NotImplementedError

    def transposed(self) -> Metric:
        """The metric of d(b, a): itself, except for an asymmetric weight matrix
        (:class:`AgreementWeights`), whose other methods take its symmetric part."""
        return self


def _dense(x) -> np.ndarray:
    return x.toarray() if sp.issparse(x) else np.asarray(x)


def _rowsums(A) -> np.ndarray:
    return np.asarray(A.sum(1)).ravel()


class Distance:
    """A distance between labels, as a recipe: ``bind`` it to data to get a metric.

    Every weighted coefficient takes one; :func:`get` makes one from a name, a mapping, an
    array or a function. Subclass it for a distance the other forms cannot express.

    Attributes
    ----------
    name : str
        The name reports print.
    weighted : bool
        False only for the nominal distance (the unweighted coefficients take only that).
    for_sets : bool
        True for distances between set-valued labels.
    bounded : bool
        True when every distance lies in [0, 1], so that w = 1 − d is a weight as Gwet's AC2
        needs.

    See Also
    --------
    get, Matrix, FromCallable, SetDistance

    Examples
    --------
    >>> from corpusagree import distances
    >>> d = distances.get("interval")
    >>> d, d.weighted, d.bounded
    (<distance interval>, True, False)
    """

    name = "distance"
    #: False only for the nominal distance (the unweighted coefficients)
    weighted = True
    #: True for distances over set-valued labels
    for_sets = False
    #: True when every distance lies in [0, 1], so that w = 1 − d is a weight as Gwet's AC2
    #: needs (nominal, the set distances, irrCAC's weights, a matrix within [0, 1])
    bounded = False

    def bind(self, data: ReliabilityData, value_counts: np.ndarray) -> Metric:
        """The metric of this distance on one label table.

        Parameters
        ----------
        data : ReliabilityData
            The data whose labels the metric measures.
        value_counts : numpy.ndarray
            How often each label is used among the pairable values (the ordinal metric's ranks).

        Returns
        -------
        Metric
            Vectorised distances between label codes: ``pair(a, b)`` and ``cross(F, G)``.

        Raises
        ------
        ValueError
            When the distance cannot measure these labels (sets under a plain distance, text
            under interval, a label missing from a weight matrix).
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<distance {self.name}>"


def _rowdot(F: np.ndarray, G: np.ndarray) -> np.ndarray:
    return np.einsum("...k,...k->...", F, G)


# ---- plain labels ---------------------------------------------------------------------------
class _NominalMetric(Metric):
    def pair(self, a, b):
        return a != b

    def cross(self, F, G):
        return F.sum(-1) * G.sum(-1) - _rowdot(F, G)

    def gram(self, A, B):
        return np.outer(_rowsums(A), _rowsums(B)) - _dense(A @ B.T)


class _IntervalMetric(Metric):
    """(v_a − v_b)²; cross in closed form, O(L).

    Σ f_a g_b (v_a − v_b)² = Σg·Σf u² + Σf·Σg u² − 2(Σf u)(Σg u) for any shift u = v − c;
    with c the f-weighted mean of v the last term vanishes, so no large numbers cancel
    (labels far from 0, or a single label, stay exact)."""

    def __init__(self, values: np.ndarray) -> None:
        self.v = np.asarray(values, float)

    def pair(self, a, b):
        return (self.v[a] - self.v[b]) ** 2

    def cross(self, F, G):
        F, G = np.asarray(F, float), np.asarray(G, float)
        sf, sg = F.sum(-1), G.sum(-1)
        c = divide(F @ self.v, sf, 0.0)
        u = self.v - np.asarray(c)[..., None]
        fu, gu = _rowdot(F, u), _rowdot(G, u)
        return sg * _rowdot(F, u * u) + sf * _rowdot(G, u * u) - 2 * fu * gu

    exact_gram = False

    def gram(self, A, B):
        u = self.v - self.v.mean()
        a0, a1, a2 = (np.asarray(A @ x).ravel() for x in (np.ones_like(u), u, u * u))
        b0, b1, b2 = (np.asarray(B @ x).ravel() for x in (np.ones_like(u), u, u * u))
        return np.outer(a2, b0) + np.outer(a0, b2) - 2 * np.outer(a1, b1)


class _DenseMetric(Metric):
    def __init__(self, D: np.ndarray) -> None:
        self.D = D

    def pair(self, a, b):
        return self.D[a, b]

    def cross(self, F, G):
        return _rowdot(F @ self.D, G)

    def gram(self, A, B):
        BD = _dense(B @ self.D.T).T  # D Bᵀ
        return _dense(A @ BD) if sp.issparse(A) else np.asarray(A) @ BD


def _numeric_values(data: ReliabilityData, name: str) -> np.ndarray:
    if data.is_set:
        raise ValueError(f"the {name} distance needs plain numeric labels, not sets")
    bad = [v for v in data.labels if not is_number(v)]
    if bad:
        raise ValueError(f"the {name} distance needs numeric labels; got {bad[0]!r} "
                         "(use distance='nominal', or a weight matrix)")
    return np.asarray(data.labels, float)


class Nominal(Distance):
    """0 for equal labels, 1 otherwise (works for plain and set labels alike)."""

    name = "nominal"
    weighted = False
    bounded = True
    #: the class of the metric it binds (0 for equal labels, 1 otherwise)
    metric_type = _NominalMetric

    def bind(self, data, value_counts):
        return _NominalMetric()


class Interval(Distance):
    """Krippendorff's interval metric, (a − b)²."""

    name = "interval"

    def bind(self, data, value_counts):
        return _IntervalMetric(_numeric_values(data, self.name))


class Ordinal(Distance):
    """Krippendorff's ordinal metric: (Σ_{g=a}^{b} n_g − (n_a + n_b)/2)².

    Equal to the interval metric over positions t_k = Σ_{g<k} n_g + n_k/2 of the pooled
    pairable values, so it costs O(L). Labels are ordered by the declared categories, or sorted.
    """

    name = "ordinal"

    def bind(self, data, value_counts):
        if data.is_set:
            raise ValueError("the ordinal distance needs plain labels, not sets")
        n = np.asarray(value_counts, float)
        if data.categories is not None:
            rank = {v: r for r, v in enumerate(data.categories)}
            order = np.argsort([rank[v] for v in data.labels], kind="stable")
        else:
            order = np.arange(len(n))
        t = np.empty(len(n))
        ns = n[order]
        t[order] = np.cumsum(ns) - ns / 2
        return _IntervalMetric(t)


class Ratio(Distance):
    """Krippendorff's ratio metric, ((a − b) / (a + b))², 0 when a = b = 0."""

    name = "ratio"

    def bind(self, data, value_counts):
        v = _numeric_values(data, self.name)
        if (v < 0).any():
            raise ValueError("the ratio distance needs non-negative labels")
        _check_dense(len(v), self.name)
        D = divide(v[:, None] - v[None, :], v[:, None] + v[None, :], 0.0) ** 2
        return _DenseMetric(D)


def _check_dense(L: int, name: str) -> None:
    if L > MAX_DENSE_LABELS:
        raise ValueError(f"the {name} distance needs an L × L matrix and there are {L} "
                         f"distinct labels (limit {MAX_DENSE_LABELS})")


def _validate_matrix(D: np.ndarray, labels: Sequence, what: str) -> None:
    if not np.allclose(np.diag(D), 0):
        k = int(np.flatnonzero(~np.isclose(np.diag(D), 0))[0])
        raise ValueError(f"{what}: d({labels[k]!r}, {labels[k]!r}) = {D[k, k]} must be 0")
    asym = ~np.isclose(D, D.T)
    if asym.any():
        a, b = np.argwhere(asym)[0]
        raise ValueError(f"{what} is not symmetric: d({labels[a]!r}, {labels[b]!r}) = "
                         f"{D[a, b]} but d({labels[b]!r}, {labels[a]!r}) = {D[b, a]}")
    if (D < 0).any() or not np.isfinite(D).all():
        raise ValueError(f"{what} has a negative or non-finite distance")


class Matrix(Distance):
    """A weight matrix of the user's: a mapping ``{(a, b): d}`` or a square array with its labels.

    Symmetric entries may be given once; the matrix is checked symmetric with a zero diagonal
    and non-negative finite entries.

    Parameters
    ----------
    weights : mapping or array_like
        ``{(a, b): d}`` over every pair of labels, or a square array.
    labels : sequence, optional
        The labels of the array's rows and columns, in order (required with an array).

    Raises
    ------
    ValueError
        For a pair given twice with different distances, a pair without distance, an array
        without labels, an asymmetric matrix, a non-zero diagonal or a negative entry; when
        bound, for a label of the data missing from the matrix.

    Examples
    --------
    >>> import corpusagree as ca
    >>> d = ca.distances.Matrix({("a", "b"): 0.5, ("a", "c"): 1, ("b", "c"): 1})
    >>> data = ca.ReliabilityData.from_triples([("A", 1, "a"), ("B", 1, "b"), ("A", 2, "b"),
    ...                                          ("B", 2, "b"), ("A", 3, "c"), ("B", 3, "c")])
    >>> round(ca.alpha(data, d).value, 4), round(ca.alpha(data).value, 4)   # a, b are close
    (0.7368, 0.5455)
    """

    name = "matrix"

    def __init__(self, weights: Mapping | np.ndarray, labels: Sequence | None = None) -> None:
        if isinstance(weights, Mapping):
            order = sorted({x for pair in weights for x in pair}, key=repr)
            ix = {v: i for i, v in enumerate(order)}
            D = np.full((len(order), len(order)), np.nan)
            np.fill_diagonal(D, 0.0)
            for (a, b), d in weights.items():
                for x, y in ((a, b), (b, a)):
                    if not np.isnan(D[ix[x], ix[y]]) and D[ix[x], ix[y]] != d and x != y:
                        raise ValueError(f"weight matrix gives d({x!r}, {y!r}) twice: "
                                         f"{D[ix[x], ix[y]]} and {d}")
                    if x != y or d != 0:
                        D[ix[x], ix[y]] = d
            if np.isnan(D).any():
                a, b = np.argwhere(np.isnan(D))[0]
                raise ValueError(f"weight matrix has no distance for ({order[a]!r}, "
                                 f"{order[b]!r})")
            self.D, self.order = D, order
        else:
            D = np.asarray(weights, float)
            if labels is None or D.shape != (len(labels), len(labels)):
                raise ValueError("a weight array must be square and come with its label order")
            self.D, self.order = D, list(labels)
        _validate_matrix(self.D, self.order, "weight matrix")
        self.bounded = bool(self.D.max(initial=0.0) <= 1.0)

    def bind(self, data, value_counts):
        if data.is_set:
            raise ValueError("a weight matrix needs plain labels, not sets")
        sel = _positions(self.order, data.labels)
        return _DenseMetric(self.D[np.ix_(sel, sel)])


class _OrientedMetric(_DenseMetric):
    """An asymmetric distance D, taken as its symmetric part (D + Dᵀ)/2 by every quadratic form
    over a unit's judgements (what raw ratings give: each pair of judgements counts in both
    orders), with :meth:`transposed` giving Dᵀ itself (irrCAC's Conger variance)."""

    def __init__(self, D: np.ndarray) -> None:
        super().__init__((D + D.T) / 2)
        self.oriented = D

    def transposed(self) -> Metric:
        return _DenseMetric(self.oriented.T)


class _IdentifiedMetric(_OrientedMetric):
    """An asymmetric distance D between two identified raters (the rows and columns of a
    contingency table): a pair of judgements, the first rater's a and the second's b, is at
    D[a, b] (irrCAC's functions on tables apply w[k][l] so), and so are the two raters'
    distributions in :meth:`between` (Cohen's and Conger's chance agreement); quadratic forms
    of one distribution with itself see the symmetric part, which gives them the same value."""

    exact_gram = False  # the bootstrap's Gram path would take the symmetric part

    def pair(self, a, b):
        return self.oriented[a, b]

    def between(self, F, G):
        """Σ F[a] G[b] D[a, b]: rater 1's counts F against rater 2's G."""
        return _rowdot(F @ self.oriented, G)


class AgreementWeights(Distance):
    """irrCAC's custom weights: a q × q matrix of agreement weights w over ``categories`` (its
    rows' and columns' order), as the distance d = 1 − w (Gwet 2014, ch. 3).

    The weights lie in [0, 1] with w(k, k) = 1 (irrCAC's p_a counts a judgement against
    itself as 1) and need not be symmetric: irrCAC applies ``w[k][l]`` to a pair of judgements
    with k the first's category. On raw ratings every pair is taken in both orders (irrCAC's
    ``raw.CAC``: p_a = Σ_k r_ik(Σ_l w_kl r_il − 1)), so the coefficients and Gwet's variances
    see (w + wᵀ)/2, except Conger's variance, whose λ_ig pairs rater g's category l with the
    others' k as w[k][l] (:meth:`Metric.transposed`). On two identified raters (reliability
    data from a contingency table, ``raters_identified``) the matrix applies as it is, w[k][l]
    to an item rater 1 put in k and rater 2 in l, as irrCAC's functions on tables do.

    Parameters
    ----------
    weights : array_like
        The q × q agreement weights, in [0, 1] with 1 on the diagonal.
    categories : sequence
        The categories of its rows and columns, in their order.

    Raises
    ------
    ValueError
        When the matrix is not q × q over distinct categories, or not valid weights.

    Examples
    --------
    >>> w = AgreementWeights([[1, 0.5], [0, 1]], ["lo", "hi"])
    >>> w.bounded, w.symmetric
    (True, False)
    """

    name = "weights"

    def __init__(self, weights, categories: Sequence) -> None:
        W = np.asarray(weights, float)
        cats = list(categories)
        if W.ndim != 2 or W.shape != (len(cats), len(cats)):
            raise ValueError(f"a weight matrix must be q × q over its {len(cats)} categories; "
                             f"got shape {W.shape}")
        if len(set(cats)) != len(cats):
            raise ValueError("the categories of a weight matrix must differ")
        if not np.isfinite(W).all() or (W < 0).any() or (W > 1).any():
            raise ValueError("agreement weights must lie in [0, 1] (Gwet 2014, ch. 3)")
        off = np.flatnonzero(np.diag(W) != 1)
        if len(off):
            k = int(off[0])
            raise ValueError(f"agreement weights give w({cats[k]!r}, {cats[k]!r}) = {W[k, k]}; "
                             "a category agrees with itself fully (w = 1), as irrCAC's p_a "
                             "assumes")
        self.D, self.order = 1.0 - W, cats
        self.symmetric = bool(np.array_equal(W, W.T))
        self.bounded = True

    def bind(self, data, value_counts):
        if data.is_set:
            raise ValueError("a weight matrix needs plain labels, not sets")
        D = self.D[np.ix_(*(2 * [_positions(self.order, data.labels)]))]
        if self.symmetric:
            return _DenseMetric(D)
        if getattr(data, "raters_identified", False) and data.n_coders == 2:
            return _IdentifiedMetric(D)
        return _OrientedMetric(D)


def _positions(order: Sequence, labels: Sequence) -> np.ndarray:
    """Each label's position in ``order`` (a label may also match an entry's text: "2" is 2);
    a label not in ``order`` is an error."""
    ix = {v: i for i, v in enumerate(order)}
    ix.update({str(v): i for i, v in enumerate(order) if str(v) not in ix})
    missing = [v for v in labels if v not in ix]
    if missing:
        raise ValueError(f"label {missing[0]!r} is not in the weight matrix")
    return np.array([ix[v] for v in labels], np.int64)


class FromCallable(Distance):
    """A distance given as a function ``d(a, b)`` of two label values.

    The function is called once per distinct label pair (an L × L table is built, so this suits
    plain labels with a moderate number of labels L).

    Parameters
    ----------
    fn : callable
        ``fn(a, b) -> float``, symmetric, 0 for equal labels.
    name : str, optional
        The name reports print (default: the function's name).

    Raises
    ------
    ValueError
        When bound, if the table of distances is not symmetric with a zero diagonal.

    Examples
    --------
    >>> import corpusagree as ca
    >>> def first_letter(a, b):
    ...     return 0.0 if a == b else 0.5 if a[0] == b[0] else 1.0
    >>> data = ca.ReliabilityData.from_triples([("A", 1, "NN"), ("B", 1, "NNS"),
    ...                                          ("A", 2, "VB"), ("B", 2, "VB")])
    >>> ca.alpha(data, first_letter).distance
    'first_letter'
    """

    def __init__(self, fn: Callable, name: str | None = None) -> None:
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "callable")

    def bind(self, data, value_counts):
        L = data.n_labels
        _check_dense(L, self.name)
        labels = [data.labels[k] for k in range(L)]
        iu, ju = np.triu_indices(L, 1)
        f = np.frompyfunc(lambda i, j: float(self.fn(labels[i], labels[j])), 2, 1)
        D = np.zeros((L, L))
        D[iu, ju] = f(iu, ju).astype(float) if len(iu) else []
        D[ju, iu] = D[iu, ju]
        _validate_matrix(D, labels, f"distance {self.name}")
        return _DenseMetric(D)


# ---- irrCAC's weights (Gwet 2014) -------------------------------------------------------------
def _numeric(cats: Sequence) -> bool:
    """Whether every category is a number or reads as one (labels of a text file: "10")."""
    return all(is_number(c) or (isinstance(c, str) and is_number_text(c)) for c in cats)


def _irr_positions(cats: Sequence) -> np.ndarray:
    """The numbers irrCAC puts on categories: their values when all are numbers (irrCAC sorts
    them), else 1 … q in the given order."""
    if _numeric(cats):
        return np.asarray([float(c) for c in cats])
    return np.arange(1.0, len(cats) + 1)


def irr_distance_matrix(kind: str, cats: Sequence) -> np.ndarray:
    """d = 1 − w over ``cats`` (in their order) for one of irrCAC's weight schemes, as the
    irrCAC packages define w on the sorted numeric category values x (Gwet 2014, ch. 3):
    quadratic ((x_k − x_l)/(x_max − x_min))², linear |x_k − x_l|/(x_max − x_min), radical
    √|x_k − x_l| / √(x_max − x_min), ratio ((x_k − x_l)/(x_k + x_l))² /
    ((x_max − x_min)/(x_max + x_min))², circular sin²(π(x_k − x_l)/(x_max − x_min + 1)) over its
    maximum, bipolar (x_k − x_l)² / ((x_k + x_l − 2x_min)(2x_max − x_k − x_l)) over its maximum,
    ordinal m(m + 1)/2 over its maximum with m = |rank_k − rank_l|; identity 0/1."""
    x = _irr_positions(cats)
    q = len(x)
    if kind == "identity":
        return 1.0 - np.eye(q)
    if q < 2:
        return np.zeros((q, q))
    lo, hi = x.min(), x.max()
    diff = x[:, None] - x[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        if kind == "quadratic":
            return (diff / (hi - lo)) ** 2
        if kind == "linear":
            return np.abs(diff) / (hi - lo)
        if kind == "radical":
            return np.sqrt(np.abs(diff)) / np.sqrt(hi - lo)
        if kind == "ratio":
            if (x == 0).any():
                raise ValueError("irrCAC's ratio weights divide by x_k + x_l: 0 cannot be a "
                                 "category")
            s = x[:, None] + x[None, :]
            return (diff / s) ** 2 / ((hi - lo) / (hi + lo)) ** 2
        if kind == "circular":
            D = np.sin(np.pi * diff / (hi - lo + 1)) ** 2
        elif kind == "bipolar":
            s = x[:, None] + x[None, :]
            D = np.where(diff != 0, diff ** 2 / np.where(diff != 0, (s - 2 * lo) * (2 * hi - s),
                                                            1.0), 0.0)
        elif kind == "ordinal":
            rank = np.empty(q)
            rank[np.argsort(x, kind="stable")] = np.arange(q)
            m = np.abs(rank[:, None] - rank[None, :])
            D = m * (m + 1) / 2
        else:
            raise ValueError(f"unknown irrCAC weights {kind!r}; known: {', '.join(IRR_WEIGHTS)}")
    return D / D.max()


#: irrCAC's weight names (Gwet 2014; the R and Python irrCAC packages)
IRR_WEIGHTS = ("identity", "quadratic", "linear", "ordinal", "radical", "ratio", "circular",
               "bipolar")


class IrrWeights(Distance):
    """One of irrCAC's weight schemes as a distance d = 1 − w (w in [0, 1]), over the declared
    categories (``data.categories``) or else the label table, numbered as irrCAC numbers them
    (:func:`irr_distance_matrix`). Registered as ``irr-<name>`` (``irr-quadratic`` …): the
    plain names ``ordinal`` and ``ratio`` are Krippendorff's metrics."""

    def __init__(self, kind: str) -> None:
        if kind not in IRR_WEIGHTS:
            raise ValueError(f"unknown irrCAC weights {kind!r}; known: {', '.join(IRR_WEIGHTS)}")
        self.kind = kind
        self.name = f"irr-{kind}"
        self.bounded = True

    def bind(self, data, value_counts):
        if data.is_set:
            raise ValueError(f"irrCAC's {self.kind} weights need plain labels, not sets")
        cats = list(data.categories) if data.categories is not None else list(data.labels)
        if _numeric(cats):  # numbers in order; other labels as declared
            cats = sorted(cats, key=float)
        _check_dense(len(cats), self.name)
        D = irr_distance_matrix(self.kind, cats)
        ix = {v: i for i, v in enumerate(cats)}
        sel = np.array([ix[v] for v in data.labels], np.int64)
        return _DenseMetric(D[np.ix_(sel, sel)])


# ---- set labels -----------------------------------------------------------------------------
#: sets over at most this many distinct values intersect pair by pair through bit masks
MASK_MAX_VALUES = 256

_BYTE_BITS = np.array([bin(v).count("1") for v in range(256)], np.uint8)


def _bit_count(x: np.ndarray) -> np.ndarray:
    """The set bits of each uint64 (numpy's bit count where it has one, else by bytes)."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(x)
    return _BYTE_BITS[x.view(np.uint8)].reshape(x.shape + (8,)).sum(-1, dtype=np.uint8)


class _SetMasks:
    """|A ∩ B| of many pairs of sets at once: each set a row of 64-bit words, bit v set when
    the set holds value v, so that |A ∩ B| is the bit count of the words' AND (for sets over
    at most :data:`MASK_MAX_VALUES` values: a few words per set, the L sets × words table
    small), and the similarity s(``|A|``, ``|B|``, ``|A ∩ B|``) of every pair is computed
    elementwise, as the sparse table's entries are."""

    def __init__(self, labels: SetLabels, similarity: Callable) -> None:
        n_elem = int(labels.elements.max(initial=-1)) + 1
        words = max(1, -(-n_elem // 64))
        row_of = np.repeat(np.arange(len(labels)), labels.sizes)
        e = labels.elements.astype(np.int64)
        masks = np.zeros((len(labels), words), np.uint64)
        np.add.at(masks, (row_of, e // 64), np.left_shift(np.uint64(1), (e % 64).astype(np.uint64)))
        self.masks = masks
        self.sizes = labels.sizes.astype(float)
        self.similarity_fn = similarity

    @staticmethod
    def fits(labels: SetLabels) -> bool:
        """Whether the sets' values are few enough for bit masks."""
        return int(labels.elements.max(initial=-1)) < MASK_MAX_VALUES

    def similarity(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        a, b = np.asarray(a, np.intp), np.asarray(b, np.intp)
        M = self.masks
        x = _bit_count(M[a, 0] & M[b, 0]).astype(float)
        for w in range(1, M.shape[1]):
            x += _bit_count(M[a, w] & M[b, w])
        with np.errstate(invalid="ignore", divide="ignore"):
            s = np.asarray(self.similarity_fn(self.sizes[a], self.sizes[b], x), float)
        return np.where(a == b, 1.0, np.where(x > 0, s, 0.0))


class _SetMetric(Metric):
    """1 − similarity, with the similarity S stored only for intersecting label pairs (pairs
    of labels' similarities from bit masks of the sets when their values are few)."""

    def __init__(self, S: sp.csr_matrix, masks: _SetMasks | None = None) -> None:
        self.S = S
        self._masks = masks
        coo = S.tocoo()
        L = S.shape[0]
        self._L = L
        keys = coo.row.astype(np.int64) * L + coo.col
        order = np.argsort(keys, kind="stable")
        self._keys, self._vals = keys[order], coo.data[order]

    def similarity(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if self._masks is not None:
            return self._masks.similarity(a, b)
        q = np.asarray(a, np.int64) * self._L + np.asarray(b, np.int64)
        pos = np.searchsorted(self._keys, q)
        pos = np.minimum(pos, len(self._keys) - 1)
        hit = self._keys[pos] == q
        return np.where(hit, self._vals[pos], 0.0)

    def pair(self, a, b):
        return 1.0 - self.similarity(a, b)

    def cross(self, F, G):
        G = np.asarray(G, float)
        SG = (self.S @ G.reshape(-1, G.shape[-1]).T).T.reshape(G.shape)
        return F.sum(-1) * G.sum(-1) - _rowdot(F, SG)

    def gram(self, A, B):
        return np.outer(_rowsums(A), _rowsums(B)) - _dense(A @ self.S @ B.T)


def _profile_pays(labels: SetLabels) -> bool:
    """Whether the sets are small and their intersecting pairs many (Σ over values of the
    squared number of sets holding it), so that the profile path beats the sparse table."""
    if len(labels) == 0 or labels.sizes.max() > PROFILE_MAX_SIZE:
        return False
    holders = np.bincount(labels.elements).astype(float)
    return float((holders ** 2).sum()) > PROFILE_PAIRS


def intersections(labels: SetLabels) -> sp.coo_matrix:
    """Intersection sizes |A ∩ B| of every intersecting pair of labels (M·Mᵀ, sparse)."""
    L = len(labels)
    n_elem = int(labels.elements.max(initial=-1)) + 1
    M = sp.csr_matrix((np.ones(len(labels.elements), np.int32), labels.elements, labels.indptr),
                      shape=(L, n_elem))
    return (M @ M.T).tocoo()


#: intersecting label pairs (Σ over values of the squared number of sets holding it) above
#: which a set distance goes by the sizes and overlaps of sets (sets of few values)
PROFILE_PAIRS = 5_000_000
#: the largest set whose subsets the profile path enumerates (2^size subsets per set)
PROFILE_MAX_SIZE = 6
#: (rows × subsets) cells of the profile path handled at once
PROFILE_CELLS = 4_000_000


def _padded(labels: SetLabels) -> np.ndarray:
    """The sets as an L × (largest size) array of values, sorted, padded with −1."""
    sizes = labels.sizes
    out = np.full((len(labels), int(sizes.max(initial=0))), -1, np.int64)
    row_of = np.repeat(np.arange(len(labels)), sizes)
    out[row_of, np.arange(len(labels.elements)) - labels.indptr[row_of]] = labels.elements
    return out


def subset_incidence(labels: SetLabels) -> tuple[sp.csr_matrix, np.ndarray]:
    """(H, k): H[a, T] = 1 when T ⊆ A, over every subset T of every set (the empty subset
    included), and k[T] = |T|. Then Σ_T [|T| = k] H[a, T] H[b, T] = binom(|A ∩ B|, k)."""
    sizes = labels.sizes
    padded = _padded(labels)
    S = padded.shape[1]
    big = np.iinfo(np.int64).max
    rows, subsets = [], []
    for s in np.unique(sizes).tolist():  # one block per set size (at most PROFILE_MAX_SIZE)
        who = np.flatnonzero(sizes == s)
        pick = ((np.arange(2 ** s)[:, None] >> np.arange(s)) & 1).astype(bool)  # 2^s × s
        sub = np.where(pick[None], padded[who][:, None, :s], big)
        sub = np.sort(sub, axis=2).reshape(len(who) * 2 ** s, s)
        rows.append(np.repeat(who, 2 ** s))
        subsets.append(np.pad(sub, ((0, 0), (0, S - s)), constant_values=big))
    flat = np.concatenate(subsets) if subsets else np.zeros((0, S), np.int64)
    size = (flat != big).sum(1)
    base = int(labels.elements.max(initial=-1)) + 2
    if base ** S < 2 ** 62:  # one integer per subset: its values + 1 as digits
        digits = np.where(flat == big, 0, flat + 1)
        key = digits @ (base ** np.arange(S, dtype=np.int64))
        _, first, ids = np.unique(key, return_index=True, return_inverse=True)
    else:
        _, first, ids = np.unique(flat, axis=0, return_index=True, return_inverse=True)
    H = sp.csr_matrix((np.ones(len(flat)), (np.concatenate(rows), ids.ravel())),
                      shape=(len(labels), len(first)))
    return H, size[first]


class _ProfileSetMetric(Metric):
    """A set distance without an L × L table, for many sets of few values: s(|A|, |B|, x)
    with x = |A ∩ B| is written in the basis binom(x, k), s = Σ_k c_k(|A|, |B|) binom(x, k)
    (c_k the forward differences of s in x), and Σ_T [|T| = k][T ⊆ A][T ⊆ B] = binom(x, k)
    (:func:`subset_incidence`), so Σ_ab F_a G_b s_ab = Σ_{s,t,k} c_k(s, t) Σ_{|T|=k}
    (F_s H)_T (G_t H)_T with F_s the counts of the sets of size s."""

    def __init__(self, labels: SetLabels, similarity: Callable) -> None:
        self.sizes = labels.sizes
        self.padded = _padded(labels)
        n_elem = int(labels.elements.max(initial=-1)) + 1
        row_of = np.repeat(np.arange(len(labels)), self.sizes)
        self._keys = row_of * n_elem + labels.elements  # sorted: (set, value)
        self._n_elem = n_elem
        self.similarity_fn = similarity
        self.labels = labels
        self._masks = _SetMasks(labels, similarity) if _SetMasks.fits(labels) else None

    @cached_property
    def blocks(self) -> dict:
        """{(set size s, subset size k): (the sets of size s, H of those sets and subsets of
        size k)}; built when an expected disagreement first needs it (D_o does not)."""
        H, k = subset_incidence(self.labels)
        S = self.padded.shape[1]
        out = {}
        H = H.tocsc()
        for kk in range(S + 1):
            cols = np.flatnonzero(k == kk)
            Hk = H[:, cols].tocsr()
            for s in range(kk, S + 1):
                who = np.flatnonzero(self.sizes == s)
                if len(who) and len(cols):
                    out[s, kk] = (who, Hk[who])
        return out

    @cached_property
    def c(self) -> np.ndarray:
        """c[s, t, k]: the similarity of sets of sizes s and t in the basis binom(x, k)."""
        similarity = self.similarity_fn
        S = self.padded.shape[1]
        x = np.arange(S + 1)
        st, tt, xx = np.meshgrid(x, x, x, indexing="ij")
        with np.errstate(invalid="ignore", divide="ignore"):
            sim = np.asarray(similarity(st.astype(float), tt.astype(float), xx.astype(float)),
                             float)
        # disjoint sets: 0, two empty sets: 1; no overlap beyond the smaller set
        sim = np.where(xx == 0, (st + tt == 0).astype(float), sim)
        sim = np.where(xx <= np.minimum(st, tt), sim, 0.0)
        # c_k(s, t) = Σ_j (−1)^(k−j) binom(k, j) sim(s, t, j)
        j = x[None, :]
        diff = np.where(j <= x[:, None], (-1.0) ** (x[:, None] - j) * comb(x[:, None], j), 0.0)
        return np.einsum("kj,stj->stk", diff, sim)

    def similarity(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if self._masks is not None:
            return self._masks.similarity(a, b)
        a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
        x = np.zeros(np.broadcast(a, b).shape)
        for j in range(self.padded.shape[1]):  # at most PROFILE_MAX_SIZE columns
            v = self.padded[a, j]
            q = b * self._n_elem + v
            pos = np.minimum(np.searchsorted(self._keys, q), max(len(self._keys) - 1, 0))
            x += (v >= 0) & (self._keys[pos] == q) if len(self._keys) else 0
        sa, sb = self.sizes[a].astype(float), self.sizes[b].astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            s = np.asarray(self.similarity_fn(sa, sb, x), float)
        return np.where(a == b, 1.0, np.where(x > 0, s, 0.0))

    def pair(self, a, b):
        return 1.0 - self.similarity(a, b)

    def _projections(self, F, k: int) -> dict:
        """{s: F_s H_k}: the counts of the subsets of size k within the sets of size s."""
        out = {}
        for (s, kk), (who, Hk) in self.blocks.items():
            if kk == k:
                Fs = F[:, who]
                out[s] = Fs @ Hk if sp.issparse(Fs) else np.asarray((Hk.T @ Fs.T).T)
        return out

    def cross(self, F, G):
        F, G = np.broadcast_arrays(np.asarray(F, float), np.asarray(G, float))
        shape = F.shape[:-1]
        F2, G2 = F.reshape(-1, F.shape[-1]), G.reshape(-1, G.shape[-1])
        out = np.empty(len(F2))
        width = max((Hk.shape[1] for _, Hk in self.blocks.values()), default=1)
        step = max(1, PROFILE_CELLS // (max(width, 1) * max(len(self.c), 1)))
        for lo in range(0, len(F2), step):
            f, g = F2[lo:lo + step], G2[lo:lo + step]
            shared = np.zeros(len(f))
            for k in range(len(self.c)):
                pf, pg = self._projections(f, k), self._projections(g, k)
                for s, a in pf.items():
                    for t, b in pg.items():
                        if self.c[s, t, k]:
                            shared += self.c[s, t, k] * _rowdot(a, b)
            out[lo:lo + step] = f.sum(1) * g.sum(1) - shared
        return out.reshape(shape)

    def gram(self, A, B):
        shared = 0.0
        for k in range(len(self.c)):
            pa, pb = self._projections(A, k), self._projections(B, k)
            for s, a in pa.items():
                mix = None
                for t, b in pb.items():
                    if self.c[s, t, k]:
                        term = self.c[s, t, k] * b
                        mix = term if mix is None else mix + term
                if mix is not None:
                    shared = shared + _dense(a @ mix.T)
        return np.outer(_rowsums(A), _rowsums(B)) - shared


class SetDistance(Distance):
    """A distance between sets given by its similarity s(``|A|``, ``|B|``, ``|A ∩ B|``).

    The similarity is a vectorised function of the two sizes and the intersection size, 1 for
    equal sets and 0 for disjoint ones (so d = 1 − s is 1 for disjoint sets); only intersecting
    pairs of labels are ever compared, so no L × L array is built. Two empty sets are at distance
    0, an empty and a non-empty set at distance 1. :data:`PASSONNEAU`, :data:`JACCARD`,
    :data:`DICE` and :data:`MASI` are such distances.

    Parameters
    ----------
    name : str
        The name reports print.
    similarity : callable
        ``similarity(size_a, size_b, size_intersection) -> similarity``, on numpy arrays.

    References
    ----------
    .. [1] Passonneau, R. (2004). Computing reliability for coreference annotation. LREC.
    .. [2] Artstein, R. and Poesio, M. (2005). Kappa³ = Alpha (or Beta), §4.1.

    Examples
    --------
    >>> import corpusagree as ca
    >>> import numpy as np
    >>> overlap = ca.distances.SetDistance("overlap", lambda a, b, x: x / np.minimum(a, b))
    >>> data = ca.ReliabilityData.from_triples([("A", 1, {"m1", "m2"}), ("B", 1, {"m1", "m2"}),
    ...                                          ("A", 2, {"m3"}), ("B", 2, {"m3", "m4"}),
    ...                                          ("A", 3, {"m5"}), ("B", 3, {"m5"})])
    >>> round(ca.alpha(data, "jaccard").value, 4), round(ca.alpha(data, overlap).value, 4)
    (0.8, 1.0)
    """

    for_sets = True
    bounded = True

    def __init__(self, name: str, similarity: Callable[[np.ndarray, np.ndarray, np.ndarray],
                                                       np.ndarray]) -> None:
        self.name = name
        self.similarity = similarity

    def bind(self, data, value_counts):
        """The metric over the data's set labels.

        Parameters
        ----------
        data : ReliabilityData
            Set-valued data.
        value_counts : numpy.ndarray
            Unused (the set distances do not depend on the value counts).

        Returns
        -------
        Metric

        Raises
        ------
        ValueError
            When the labels are not sets.
        """
        if not data.is_set:
            raise ValueError(f"the {self.name} distance needs set-valued labels "
                             "(cells as a|b|c with set_sep='|', or sets)")
        labels = data.labels
        if _profile_pays(labels):
            return _ProfileSetMetric(labels, self.similarity)
        masks = _SetMasks(labels, self.similarity) if _SetMasks.fits(labels) else None
        return _SetMetric(self.similarity_matrix(labels), masks)

    def similarity_matrix(self, labels: SetLabels) -> sp.csr_matrix:
        """The similarity S over intersecting pairs of sets plus the diagonal (S_aa = 1, the empty
        set included), as a sparse matrix.

        Parameters
        ----------
        labels : SetLabels
            The sets.

        Returns
        -------
        scipy.sparse.csr_matrix
            L × L, with entries only where two sets intersect.
        """
        L = len(labels)
        inter = intersections(labels)
        sizes = labels.sizes.astype(float)
        off = inter.row != inter.col
        r, c, x = inter.row[off], inter.col[off], inter.data[off].astype(float)
        s = np.asarray(self.similarity(sizes[r], sizes[c], x), float)
        rows = np.concatenate([r, np.arange(L)])
        cols = np.concatenate([c, np.arange(L)])
        vals = np.concatenate([s, np.ones(L)])
        return sp.csr_matrix((vals, (rows, cols)), shape=(L, L))


def _jaccard(a, b, x):
    return x / (a + b - x)


def _dice(a, b, x):
    return 2 * x / (a + b)


def _monotonicity(a, b, x):
    """Passonneau's M: 1 identical, 2/3 subset, 1/3 overlap, 0 disjoint."""
    return np.select([(x == a) & (x == b), (x == a) | (x == b), x > 0], [1.0, 2 / 3, 1 / 3], 0.0)


def _masi(a, b, x):
    return _jaccard(a, b, x) * _monotonicity(a, b, x)


#: Passonneau (2004; Artstein & Poesio 2005, §4.1): d = 0 equal, 1/3 subset, 2/3 overlap,
#: 1 disjoint.
PASSONNEAU = SetDistance("passonneau", _monotonicity)
#: Jaccard distance 1 − ``|A∩B| / |A∪B|``.
JACCARD = SetDistance("jaccard", _jaccard)
#: Dice distance 1 − ``2|A∩B| / (|A| + |B|)``.
DICE = SetDistance("dice", _dice)
#: MASI (Passonneau 2006): 1 − J·M with M = 1, 2/3, 1/3, 0. NLTK before 3.10 used .67/.33
#: for M; DKPro's "MASI" is a different function (its set-size normalisation differs).
MASI = SetDistance("masi", _masi)

#: every distance by its name: Krippendorff's metrics, the set distances and irrCAC's weights
#: (``irr-quadratic`` …)
NAMED: dict[str, Distance] = {
    "nominal": Nominal(), "ordinal": Ordinal(), "interval": Interval(), "ratio": Ratio(),
    "passonneau": PASSONNEAU, "jaccard": JACCARD, "dice": DICE, "masi": MASI,
    **{f"irr-{k}": IrrWeights(k) for k in IRR_WEIGHTS if k != "identity"},
}
#: the names of the distances between sets
SET_NAMES: tuple[str, ...] = tuple(n for n, d in NAMED.items() if d.for_sets)


#: what :func:`get` takes (the ``distance=`` of the coefficients)
SPEC = Param("spec", (str, Distance, Mapping, tuple, Function), none=True,
             accepts="a distance (a name, a Distance, a {(a, b): d} mapping, (array, labels) "
             "or a function of two labels)")
#: what :func:`weights` takes (the ``weights=`` of Gwet's family)
WEIGHTS = Param("spec", (str, Distance, Mapping, ArrayLike, Function), none=True,
                accepts="weights (a name of irrCAC's, a q × q array of agreement weights or a "
                "distance)")
#: categories declared, or the order of a weight matrix's rows and columns
CATEGORIES = Param("categories", Items, none=True, accepts="a sequence of categories")


@checked(WEIGHTS, CATEGORIES)
def weights(spec, categories: Sequence | None = None) -> Distance:
    """A distance from irrCAC's ``weights=``.

    Parameters
    ----------
    spec : str, array_like or distance
        One of :data:`IRR_WEIGHTS` (``"identity"`` is the nominal distance; ``"ordinal"`` and
        ``"ratio"`` are irrCAC's, not Krippendorff's), an ``irr-`` name, a q × q matrix of
        agreement weights (a nested list or 2-D array, as irrCAC takes it; asymmetric allowed,
        see :class:`AgreementWeights`), or anything :func:`get` takes.
    categories : list, optional
        The order of a weight matrix's rows and columns (irrCAC's ``categories=``).

    Returns
    -------
    Distance
        d = 1 − w.

    Raises
    ------
    ValueError
        For an unknown name, a weight matrix without its categories, or not a valid one.

    References
    ----------
    .. [1] Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., ch. 3.

    Examples
    --------
    >>> from corpusagree import distances
    >>> distances.weights("quadratic"), distances.weights("identity")
    (<distance irr-quadratic>, <distance nominal>)
    >>> distances.weights([[1, 0.5], [0, 1]], ["lo", "hi"]).D.tolist()
    [[0.0, 0.5], [1.0, 0.0]]
    """
    if spec is None or (isinstance(spec, str) and spec.lower() == "identity"):
        return NAMED["nominal"]
    if isinstance(spec, str) and spec.lower() in IRR_WEIGHTS:
        return NAMED[f"irr-{spec.lower()}"]
    if isinstance(spec, (list, np.ndarray)) and np.ndim(spec) == 2:
        if categories is None:
            raise ValueError("a weight matrix needs categories= giving the order of its rows "
                             "and columns")
        return AgreementWeights(spec, categories)
    return get(spec)


@checked(SPEC)
def get(spec: str | Distance | Mapping | Callable | tuple | None) -> Distance:
    """A :class:`Distance` from any of the forms the coefficients accept.

    Parameters
    ----------
    spec : str, Distance, mapping, tuple, callable or None
        A name of :data:`NAMED` (case-insensitive), a Distance (returned as it is), a weight
        mapping ``{(a, b): d}`` (:class:`Matrix`), ``(array, labels)`` or ``(labels, array)``,
        a function of two labels (:class:`FromCallable`), or None for nominal.

    Returns
    -------
    Distance

    Raises
    ------
    ValueError
        For an unknown name.
    TypeError
        For anything else.

    Examples
    --------
    >>> from corpusagree import distances
    >>> distances.get("Jaccard"), distances.get(None)
    (<distance jaccard>, <distance nominal>)
    >>> distances.get(([[0, 1], [1, 0]], ["x", "y"])).name
    'matrix'
    """
    if spec is None:
        return NAMED["nominal"]
    if isinstance(spec, Distance):
        return spec
    if isinstance(spec, str):
        try:
            return NAMED[spec.lower()]
        except KeyError:
            raise ValueError(f"unknown distance {spec!r}; known: {', '.join(NAMED)}") from None
    if isinstance(spec, Mapping):
        return Matrix(spec)
    if isinstance(spec, tuple) and len(spec) == 2:
        weights, labels = spec
        if np.ndim(labels) == 2 and np.ndim(weights) == 1:  # (labels, array) reads as well
            weights, labels = labels, weights
        return Matrix(weights, labels)
    if callable(spec):
        return FromCallable(spec)
    raise TypeError(f"cannot make a distance from {spec!r}")


__all__ = ["CATEGORIES", "DICE", "IRR_WEIGHTS", "JACCARD", "MASI", "MAX_DENSE_LABELS", "NAMED",
           "PASSONNEAU", "PROFILE_CELLS", "PROFILE_MAX_SIZE", "PROFILE_PAIRS", "SET_NAMES", "SPEC",
           "WEIGHTS", "AgreementWeights", "Distance", "FromCallable", "Interval", "IrrWeights",
           "Matrix", "Metric", "Nominal", "Ordinal", "Ratio", "SetDistance", "get",
           "intersections", "irr_distance_matrix", "subset_incidence", "weights"]
