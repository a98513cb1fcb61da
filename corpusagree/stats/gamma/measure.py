"""γ (Mathet, Widlöcher & Métivier 2015, §4) and γ-cat, γ-k (Mathet 2017, §4.2) of a continuum:
the best alignment of each document, and the expected disorder of sampled continua."""

from __future__ import annotations

import dataclasses
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ...model.continuum import Continuum
from ...model.errors import InputError
from ...model.params import PROGRESS, SEED, WORKERS, Param, checked
from ...model.progress import Progress
from .. import distances as dist
from ..ratios import chance_corrected, divide
from .alignment import align
from .dissimilarity import (
    DELTA_EMPTY,
    CategoryDistance,
    Dissimilarity,
    category_matrix,
    distance_name,
)
from .results import Alignment, Gamma
from .samplers import SAMPLERS, shuffle, statistical

#: the first batch of sampled continua before the precision rule (pygamma-agreement's default)
FIRST_BATCH = 30
#: sampled continua are aligned together, by one solver call, up to about this many units
#: (fewer calls for small continua; a larger program costs more than its parts, and the
#: batches are what the workers share)
SAMPLE_UNITS = 1_000
#: the most samples the precision rule may ask for (a handful of units can ask for thousands;
#: past this the interval of D_e says how precise it is, and ``n_samples`` draws more)
MAX_SAMPLES = 1000
#: the normal quantile of the precision rule's 95% confidence (Mathet et al. 2015, §5.3)
Z_PRECISION = 1.96


# ---- γ-cat / γ-k -----------------------------------------------------------------------------
def _category_sums(T, s, e, cat, dis: Dissimilarity, L: int) -> np.ndarray:
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


#: the continuum and the dissimilarity's weights and costs, as γ and its alignment take them
ALIGNMENT = (Param("c", Continuum), Param("alpha", float, low=0), Param("beta", float, low=0),
             DELTA_EMPTY,
             dataclasses.replace(dist.SPEC, name="category_distance"))
#: how γ samples continua
SAMPLING = (Param("sampler", str, choices=SAMPLERS),
            Param("precision", float, low=0, closed="neither", none=True),
            Param("n_samples", int, low=1, none=True), SEED, PROGRESS, WORKERS)


def _setup(c, alpha, beta, delta_empty, category_distance):
    dis = Dissimilarity(float(alpha), float(beta), float(delta_empty),
                         category_matrix(c, category_distance))
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


@checked(*ALIGNMENT)
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
    TypeError, ValueError
        For a keyword of the wrong type or out of its range (a negative weight, Δ∅ ≤ 0),
        named in the message.
    InputError
        For a distance that cannot measure the categories.

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
    parts = align([(d.annot, d.s, d.e, d.cat, d.n) for d in docs], dis)
    return _alignment(c, docs, parts, dis, distance_name(category_distance))


@checked(*ALIGNMENT, *SAMPLING)
def gamma(c: Continuum, alpha: float = 1, beta: float = 1, delta_empty: float = 1,
          category_distance: CategoryDistance = "nominal", sampler: str = "statistical",
          precision: float | None = 0.02, n_samples: int | None = None,
          seed: int | None = 0, progress: Progress | None = None,
          workers: int | None = None) -> Gamma:
    """γ = 1 − D_o/D_e (Mathet et al. 2015, §4), with γ-cat and γ-k (Mathet 2017, §4.2).

    D_o is the best alignment's disorder; D_e the mean best-alignment disorder of sampled
    continua (see the package docstring), reproducible from ``seed``. Over several documents
    units are aligned and sampled within their own document and the corpus-wide γ treats the
    documents as lying side by side on one continuum.

    Parameters
    ----------
    c : Continuum
        The units.
    alpha, beta : float, default 1
        The weights of the positional and categorial dissimilarities, as in
        :func:`best_alignment`.
    delta_empty : float, default 1
        Δ∅, the cost of a unit aligned with nothing.
    category_distance : str, mapping, tuple or Distance, default "nominal"
        The distance between categories, as in :func:`best_alignment`.
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
    progress : callable, optional
        ``progress(done, total)``: the sampled continua aligned, after each batch (one solver
        call); ``total`` grows when the precision rule asks for more than the first batch.
    workers : int, optional
        How many threads align the sampled continua, a batch each at a time (HiGHS runs
        without the GIL); by default one per core this process may use. The samples are
        drawn in one sequence from ``seed`` whatever the number of workers, so the result is
        the same.

    Returns
    -------
    Gamma

    Raises
    ------
    TypeError, ValueError
        For a keyword of the wrong type or out of its range (an unknown sampler, a precision
        ≤ 0, a number of samples < 1), named in the message.
    InputError
        For a precision ≥ 1 without a number of samples.

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
    _check_sampling(precision, n_samples)
    dis, docs, notes = _setup(c, alpha, beta, delta_empty, category_distance)
    observed = align([(d.annot, d.s, d.e, d.cat, d.n) for d in docs], dis)
    samples = _Samples(docs, dis, sampler, len(c.categories), seed,
                       max(1, SAMPLE_UNITS // max(len(c), 1)))
    first = int(n_samples) if n_samples is not None else FIRST_BATCH
    workers = _workers(workers)
    samples.draw(first, first, progress, workers)
    if n_samples is None and precision is not None:
        total, note = _precision_rule(samples.corpus_disorders(), precision)
        notes += note
        samples.draw(max(0, total - first), max(first, total), progress, workers)
    alignment = _alignment(c, docs, observed, dis, distance_name(category_distance))
    measure = _Measure(c, docs, samples, observed, sampler,
                       None if n_samples is not None else precision, seed)
    single = len(c.documents) == 1
    everything = measure.result(np.arange(len(docs)), c.documents[0] if single else None,
                                alignment, notes)
    if not single:
        everything.documents.extend(
            measure.result(np.array([k]), c.documents[d.index], alignment.of(d.index), [])
            for k, d in enumerate(docs))
    return everything


def _workers(workers: int | None) -> int:
    """The number of threads: as given, else the cores this process may use."""
    if workers is not None:
        return int(workers)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _check_sampling(precision: float | None, n_samples: int | None) -> None:
    """A relative precision of 1 or more asks for nothing; it is read (and refused) only
    without a number of samples (the command line's ``--precision`` is checked as > 0)."""
    if n_samples is None and precision is not None and not precision < 1:
        raise InputError(f"precision must lie in (0, 1), not {precision}")


def _precision_rule(disorders: np.ndarray, precision: float) -> tuple[int, list[str]]:
    """How many sampled continua the precision rule asks for, ``N = ⌈(1.96·cv /
    precision)²⌉`` with cv the coefficient of variation of the first ``disorders`` (Mathet et
    al. 2015, §5.3, as pygamma-agreement applies it), at most :data:`MAX_SAMPLES` (with a
    note when it asked for more)."""
    cv = disorders.std() / disorders.mean() if disorders.mean() > 0 else 0.0
    required = int(np.ceil((cv * Z_PRECISION / precision) ** 2))
    if required <= MAX_SAMPLES:
        return required, []
    return MAX_SAMPLES, [f"the precision rule asked for {required:,} sampled continua (D_e "
                         f"varies much between samples); {MAX_SAMPLES:,} were drawn: give a "
                         "number of samples to draw more"]


class _Samples:
    """The sampled continua of every document and their best-alignment sums: per sample and
    document, Σ unitary disorders, x̄ and the γ-cat/γ-k sums (:func:`_category_sums`)."""

    def __init__(self, docs: list[_Document], dis: Dissimilarity, sampler: str, L: int,
                 seed: int | None, batch: int) -> None:
        self.docs, self.dis, self.sampler, self.L, self.batch = docs, dis, sampler, L, batch
        self.rng = np.random.default_rng(seed)
        self.sums: list[np.ndarray] = []
        self.xbar: list[np.ndarray] = []
        self.cat_sums: list[np.ndarray] = []

    def sample(self) -> list[tuple]:
        """One sampled continuum of every document: (annotator, start, end, category)."""
        rng, L = self.rng, self.L
        if self.sampler == "statistical":
            return [statistical(rng, d.annot, d.s, d.e, d.cat, d.n, d.begin, L)
                    for d in self.docs]
        return [shuffle(rng, d.annot, d.s, d.e, d.cat, d.n, d.begin, d.end, L)
                for d in self.docs]

    def draw(self, count: int, total: int, progress: Progress | None, workers: int = 1
             ) -> None:
        """``count`` more samples, drawn here in sequence and aligned ``batch`` at a time as
        the documents of one program (their units are disjoint), the batches shared by
        ``workers`` threads; ``progress(samples done, total)`` after each batch, in order."""
        batches = [[x for _ in range(min(self.batch, count - start)) for x in self.sample()]
                   for start in range(0, count, self.batch)]
        workers = min(workers, len(batches))
        if workers > 1:
            with ThreadPoolExecutor(workers) as pool:
                self._collect(pool.map(self._aligned, batches), total, progress)
        else:
            self._collect(map(self._aligned, batches), total, progress)

    def _aligned(self, smp: list[tuple]) -> list[tuple]:
        """A batch of sampled documents' (Σ unitary disorders, x̄, γ-cat/γ-k sums)."""
        docs, dis, L = self.docs, self.dis, self.L
        own = docs * (len(smp) // len(docs))
        parts = align([(*x, d.n) for x, d in zip(smp, own, strict=True)], dis, "branch")
        return [(cost.sum(), len(x[0]) / d.n, _category_sums(T, x[1], x[2], x[3], dis, L))
                for (T, cost), x, d in zip(parts, smp, own, strict=True)]

    def _collect(self, batches, total: int, progress: Progress | None) -> None:
        k = len(self.docs)
        for sums in batches:
            for start in range(0, len(sums), k):
                part_sums, xbars, cats = zip(*sums[start:start + k], strict=True)
                self.sums.append(np.array(part_sums))
                self.xbar.append(np.array(xbars))
                self.cat_sums.append(np.array(cats))
            if progress is not None:
                progress(len(self.sums), total)

    def per_document(self) -> np.ndarray:
        """samples × documents: each sampled document's disorder."""
        return np.array(self.sums) / np.array(self.xbar)

    def corpus_disorders(self) -> np.ndarray:
        """Each sample's corpus disorder: its documents weighed by the real documents' x̄, as
        the observed ones are."""
        xbar = np.array([d.xbar for d in self.docs])
        return self.per_document() @ xbar / xbar.sum()


class _Measure:
    """γ, γ-cat and γ-k of some of the documents, from the observed alignments and the
    samples."""

    def __init__(self, c: Continuum, docs: list[_Document], samples: _Samples,
                 observed: list, sampler: str, precision: float | None, seed: int | None
                 ) -> None:
        dis, L = samples.dis, samples.L
        self.categories = list(c.categories)
        self.xbar = np.array([d.xbar for d in docs])
        self.observed_cat = np.array([_category_sums(T, d.s, d.e, d.cat, dis, L)
                                      for d, (T, _) in zip(docs, observed, strict=True)])
        self.per_doc = samples.per_document()            # samples × documents
        self.cats = np.array(samples.cat_sums)           # samples × documents × 2 × (1 + L)
        self.sampler, self.precision, self.seed = sampler, precision, seed

    def result(self, doc_ix: np.ndarray, document: str | None, alignment: Alignment,
               notes: list[str]) -> Gamma:
        """The :class:`Gamma` of the documents ``doc_ix`` (indices into the documents
        measured), their alignment and notes."""
        w = self.xbar[doc_ix] / self.xbar[doc_ix].sum()
        D = self.per_doc[:, doc_ix] @ w
        Do, De = float(alignment.disorder), float(D.mean())
        o = self.observed_cat[doc_ix].sum(0)
        ratio_o = divide(o[0], o[1])
        sm = self.cats[:, doc_ix].sum(1)
        ratio_s = divide(sm[:, 0], sm[:, 1])
        with np.errstate(invalid="ignore"):
            ratio_e = np.array([np.nanmean(col) if (~np.isnan(col)).any() else np.nan
                                for col in ratio_s.T])
        g_cat = chance_corrected(ratio_o, ratio_e).tolist()
        pairs = list(zip(ratio_o.tolist(), ratio_e.tolist(), strict=True))
        cats = self.categories
        return Gamma(float(chance_corrected(Do, De)), Do, De, alignment, len(D), D, g_cat[0],
                     dict(zip(cats, g_cat[1:], strict=True)), pairs[0],
                     dict(zip(cats, pairs[1:], strict=True)), self.sampler, self.precision,
                     self.seed, document, notes=notes)


__all__ = ["ALIGNMENT", "FIRST_BATCH", "MAX_SAMPLES", "SAMPLE_UNITS", "SAMPLING", "Z_PRECISION",
           "best_alignment", "gamma"]
