"""What γ gives back: the best alignment (:class:`Alignment`, its :class:`UnitaryAlignment`
rows) and γ with γ-cat and γ-k (:class:`Gamma`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import ndtri  # scipy.stats' norm.ppf, without its import

from ...model.continuum import Continuum
from ...model.errors import InputError
from ...model.records import frame
from ..inference import Interval

#: γ's one interval method: the sampling error of its expected disorder
SAMPLING = "sampling"


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

    def of(self, document: int) -> Alignment:
        """The alignment of one document.

        Parameters
        ----------
        document : int
            The document's index in the continuum.

        Returns
        -------
        Alignment
            Its unitary alignments and disorder.
        """
        on = self.document == document
        return Alignment(self.continuum, self.tuples[on], self.disorders[on],
                         self.document[on], float(self.document_disorders[document]),
                         self.document_disorders, self.alpha, self.beta, self.delta_empty,
                         self.category_distance)

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

    def confidence_interval(self, level: float = 0.95, method: str = SAMPLING) -> Interval:
        """γ's interval from the sampling of the expected disorder.

        D_e ± z·s/√N (s the standard deviation of the N sampled disorders), mapped through
        γ = 1 − D_o/D_e: how precisely the samples fix γ, not how γ would vary over other texts.

        Parameters
        ----------
        level : float, default 0.95
            The coverage.
        method : str, default "sampling"
            The only interval γ has: D_o is the exact best alignment's, so the randomness in
            γ is the sampling of D_e (Mathet et al. 2015, §5.3). The bootstrap's
            ``"percentile"`` and ``"bca"`` are refused with the reason.

        Returns
        -------
        Interval

        Raises
        ------
        InputError
            For a level outside (0, 1), or a bootstrap method.

        Examples
        --------
        >>> from corpusagree import unitizing as u
        >>> c = u.Continuum.from_units([("ann1", 0, 5, "PER"), ("ann2", 1, 5, "PER"),
        ...                             ("ann1", 10, 20, "LOC"), ("ann2", 10, 18, "LOC")],
        ...                            begin=0, end=60)
        >>> u.gamma(c, n_samples=30, seed=0).confidence_interval()
        Interval(gamma=0.9859, 95% [0.9831, 0.9879], sampled continua (statistical))
        """
        if method != SAMPLING:
            raise InputError(
                f"γ has no {method} interval: its interval is the sampling error of its "
                "expected disorder over the sampled continua (Mathet et al. 2015, §5.3), not a "
                "bootstrap over documents; use method='sampling'")
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

    def to_frame(self):
        """γ as a pandas DataFrame: a row for the continuum, then one per document when it has
        several, with the scalars of :meth:`to_dict` (nested ones as ``gamma_k_<category>``,
        ``interval_low`` …; the sampled disorders and the alignment left out). pandas is
        optional.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> from corpusagree import unitizing as u
        >>> c = u.Continuum.join([u.Continuum.from_units(
        ...     [("A", 2, 6, "X"), ("B", 2 + shift, 6, "X")], 0, 20, document=name)
        ...     for name, shift in [("p", 0), ("q", 1)]])
        >>> g = u.gamma(c, n_samples=30, seed=0)
        >>> g.to_frame()[["document", "value", "observed_disorder"]].round(4)
          document   value  observed_disorder
        0      NaN  0.9537             0.0102
        1        p  1.0000             0.0000
        2        q  0.9318             0.0204
        """
        rows = []
        for g in (self, *self.documents):
            d = g.to_dict(alignment=False)
            for key in ("sample_disorders", "documents", "notes"):
                d.pop(key, None)
            rows.append({"document": g.document, **d})
        return frame(rows)


__all__ = ["SAMPLING", "Alignment", "Gamma", "UnitaryAlignment"]
