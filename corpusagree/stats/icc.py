"""Intraclass correlations: McGraw & Wong's (1996) ten forms and Shrout & Fleiss's six.

The forms are ratios of the mean squares of a two-way table of items (targets) × coders
(McGraw & Wong 1996, Table 4; Shrout & Fleiss 1979, Table 1), with the F tests and F-based
confidence intervals of McGraw & Wong's Tables 7 and 8. Two references disagree on two
details, and ``convention`` chooses:

* ``"irr"`` (R ``irr::icc``, McGraw & Wong): the F test of absolute agreement has the
  fractional denominator degrees of freedom ν of Table 7 (Satterthwaite's), and the interval of
  ICC(A,k) takes ν from the average-measure ICC;
* ``"psych"`` (R ``psych::ICC``, pingouin): the F test of absolute agreement has
  (n − 1)(k − 1) denominator degrees of freedom, and the bounds of ICC(A,k) are the bounds of
  ICC(A,1) stepped up by the Spearman–Brown formula.

On incomplete data, ``missing="listwise"`` leaves out every item a coder did not score (and
says how many); ``missing="reml"`` fits the two-way random-effects model by REML
(:func:`corpusagree.stats.reml.crossed_reml`) and puts its variance components in place of the
mean squares, as ``psych::ICC(lmer=TRUE)`` does: MSR = kσ²_item + σ²_e,
MSC = nσ²_coder + σ²_e, MSE = σ²_e, MSW = σ²_coder + σ²_e.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy.special import fdtrc, fdtri  # F quantiles without scipy.stats' import

from ..model.params import Param, checked
from ..model.progress import Progress
from ..model.records import frame
from .coefficients import DegenerateWarning
from .inference import Bootstrap, Interval, refit_bootstrap
from .reml import VarianceComponents, crossed_reml
from .scores import CONFIDENCE, SCORES, Scores, as_scores, listwise_note

#: the models, types, units, conventions and ways with missing scores :func:`icc` accepts
MODELS, TYPES, UNITS = ("oneway", "twoway"), ("agreement", "consistency"), ("single",
                                                                             "average")
CONVENTIONS, MISSING = ("irr", "psych"), ("listwise", "reml")

#: Shrout & Fleiss's (1979) names of McGraw & Wong's forms, and psych's row names
SHROUT_FLEISS = {("oneway", "agreement", "single"): ("ICC(1,1)", "ICC1"),
                 ("twoway", "agreement", "single"): ("ICC(2,1)", "ICC2"),
                 ("twoway", "consistency", "single"): ("ICC(3,1)", "ICC3"),
                 ("oneway", "agreement", "average"): ("ICC(1,k)", "ICC1k"),
                 ("twoway", "agreement", "average"): ("ICC(2,k)", "ICC2k"),
                 ("twoway", "consistency", "average"): ("ICC(3,k)", "ICC3k")}

_QUESTIONS = {
    "oneway": "each item scored by its own coders (one-way random effects, McGraw & Wong "
              "1996, Case 1)",
    "twoway": "the same coders score every item (two-way model, McGraw & Wong 1996, Cases "
              "2 and 3)",
    "agreement": "absolute agreement: a coder's offset counts as disagreement",
    "consistency": "consistency: a constant offset between coders does not count",
    "single": "the reliability of one coder's score",
    "average": "the reliability of the mean of the k coders' scores",
}


@dataclass(frozen=True, repr=False)
class ItemSums:
    """What a replicate's mean squares need of complete coders × items scores, computed once:
    the scores centred on their mean, and each item's sum and sum of squares over coders.

    Examples
    --------
    >>> sums = ItemSums.of(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> sums.total.tolist(), sums.k
    ([-1.0, 1.0], 2)
    """

    centred: np.ndarray
    total: np.ndarray
    squares: np.ndarray
    total_squared: np.ndarray
    k: int

    @classmethod
    def of(cls, values: np.ndarray) -> ItemSums:
        """From complete coders × items scores."""
        y = np.asarray(values, float)
        y = y - y.mean()
        total = y.sum(axis=0)
        return cls(y, total, np.einsum("ij,ij->j", y, y), total * total, y.shape[0])


@dataclass(frozen=True)
class MeanSquares:
    """The mean squares of an items × coders table (McGraw & Wong 1996, Table 2).

    Attributes
    ----------
    rows, columns, error, within : float
        MSR (items), MSC (coders), MSE (residual) and MSW (within items).
    n, k : int
        Items and coders.
    """

    rows: float
    columns: float
    error: float
    within: float
    n: int
    k: int

    @classmethod
    def of(cls, values: np.ndarray) -> MeanSquares:
        """The mean squares of complete coders × items scores, in one pass over them."""
        k, n = values.shape
        y = values - values.mean()
        item = y.mean(axis=0)
        coder = y.mean(axis=1)
        ss_total = float(np.einsum("ij,ij->", y, y))
        ss_rows = k * float(item @ item)
        ss_cols = n * float(coder @ coder)
        ss_error = max(ss_total - ss_rows - ss_cols, 0.0)
        ss_within = max(ss_total - ss_rows, 0.0)
        return cls(ss_rows / (n - 1), ss_cols / (k - 1), ss_error / ((n - 1) * (k - 1)),
                   ss_within / (n * (k - 1)), n, k)

    @classmethod
    def of_components(cls, vc: VarianceComponents, n: int, k: int) -> MeanSquares:
        """The expected mean squares of REML variance components (as ``psych::ICC`` with
        ``lmer=TRUE``)."""
        return cls(k * vc.item + vc.error, n * vc.coder + vc.error, vc.error,
                   vc.coder + vc.error, n, k)

    @classmethod
    def weighted(cls, sums: ItemSums, weights: np.ndarray) -> MeanSquares:
        """The mean squares of the scores with item i counted ``weights[i]`` times (a
        bootstrap replicate), from the items' sums: :meth:`of` of the repeated columns,
        without repeating them (O(items × coders) a replicate, no copy)."""
        w = np.asarray(weights, float)
        k, size = sums.k, float(w.sum())
        # einsum, not BLAS: a matrix-vector product of BLAS's threads is slower here
        g = float(np.einsum("j,j->", w, sums.total)) / (k * size)
        base = k * size * g * g
        coder = np.einsum("ij,j->i", sums.centred, w)
        ss_total = float(np.einsum("j,j->", w, sums.squares)) - base
        ss_rows = float(np.einsum("j,j->", w, sums.total_squared)) / k - base
        ss_cols = float(coder @ coder) / size - base
        ss_error = max(ss_total - ss_rows - ss_cols, 0.0)
        ss_within = max(ss_total - ss_rows, 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return cls(ss_rows / (size - 1), ss_cols / (k - 1),
                       ss_error / ((size - 1) * (k - 1)), ss_within / (size * (k - 1)),
                       int(round(size)), k)

    def to_dict(self) -> dict:
        """The mean squares as plain data."""
        return {"rows": self.rows, "columns": self.columns, "error": self.error,
                "within": self.within}


@dataclass(repr=False)
class IccResult:
    """An intraclass correlation with its F test and confidence interval.

    Attributes
    ----------
    form : str
        McGraw & Wong's (1996) name: ``ICC(1)``, ``ICC(k)``, ``ICC(C,1)``, ``ICC(C,k)``,
        ``ICC(A,1)`` or ``ICC(A,k)`` (k the number of coders).
    shrout_fleiss : str
        Shrout & Fleiss's (1979) name, ``ICC(2,1)`` …, or None for the forms they lack.
    model, type, unit : str
        The form's model, type and unit, as :func:`icc` takes them.
    value : float
        The ICC (nan when undefined).
    interval : Interval
        The F-based confidence interval.
    f, df1, df2, p_value : float
        The F test of ICC = 0 (McGraw & Wong 1996, Table 8, ρ₀ = 0).
    convention : str
        ``irr`` or ``psych`` (see the module).
    missing : str
        ``listwise`` or ``reml``.
    items, coders : int
        Items and coders the ICC was computed on.
    left_out : int
        Items left out by listwise deletion.
    mean_squares : MeanSquares
        The mean squares (under ``reml``, those implied by the variance components).
    components : VarianceComponents or None
        The REML variance components, under ``missing="reml"``.
    notes : list of str
        Listwise deletion, an undefined ICC, the REML fit.

    Examples
    --------
    >>> import corpusagree as ca
    >>> r = ca.icc([[1, 2, 3, 4, 5], [1, 3, 3, 5, 5], [2, 2, 4, 4, 6]], unit="average")
    >>> r.form, round(r.value, 3), r.convention
    ('ICC(A,3)', 0.956, 'irr')
    """

    form: str
    shrout_fleiss: str | None
    model: str
    type: str
    unit: str
    value: float
    interval: Interval
    f: float
    df1: float
    df2: float
    p_value: float
    convention: str
    missing: str
    items: int
    coders: int
    left_out: int
    mean_squares: MeanSquares
    components: VarianceComponents | None = None
    notes: list = field(default_factory=list)

    def __float__(self) -> float:
        return self.value

    def __repr__(self) -> str:
        return (f"IccResult({self.form}={self.value:.4g}, {self.interval.level:.0%} "
                f"[{self.interval.low:.4g}, {self.interval.high:.4g}], F({self.df1:.4g}, "
                f"{self.df2:.4g})={self.f:.4g}, p={self.p_value:.3g}, "
                f"convention={self.convention!r})")

    @property
    def definition(self) -> str:
        """What the form measures, in McGraw & Wong's terms."""
        return "; ".join(_QUESTIONS[x] for x in (self.model, self.type, self.unit)
                         if not (self.model == "oneway" and x == self.type))

    def to_dict(self) -> dict:
        """The result as plain data."""
        out = {k: getattr(self, k) for k in ("form", "shrout_fleiss", "model", "type",
                                             "unit", "value", "f", "df1", "df2", "p_value",
                                             "convention", "missing", "items", "coders",
                                             "left_out")}
        out["interval"] = {"low": self.interval.low, "high": self.interval.high,
                           "level": self.interval.level, "method": self.interval.method}
        out["mean_squares"] = self.mean_squares.to_dict()
        if self.components is not None:
            out["components"] = self.components.to_dict()
        out["definition"] = self.definition
        out["notes"] = list(self.notes)
        return out

    def to_frame(self):
        """The result as a one-row pandas DataFrame (pandas is optional)."""
        return frame([self])


def _form_name(model: str, type: str, unit: str, k: int) -> str:
    size = "1" if unit == "single" else str(k)
    if model == "oneway":
        return f"ICC({size})"
    return f"ICC({'A' if type == 'agreement' else 'C'},{size})"


def _nu(ms: MeanSquares, rho: float, m: float) -> float:
    """Satterthwaite's ν of absolute agreement (McGraw & Wong 1996, Table 7, with
    a = mρ/(n(1 − ρ)), b = 1 + mρ(n − 1)/(n(1 − ρ)); m = k as irr computes it for both units).
    """
    n, k, rho = ms.n, ms.k, np.float64(rho)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = m * rho / (n * (1 - rho))
        b = 1 + m * rho * (n - 1) / (n * (1 - rho))
        return (a * ms.columns + b * ms.error) ** 2 / (
            (a * ms.columns) ** 2 / (k - 1) + (b * ms.error) ** 2 / ((n - 1) * (k - 1)))


def _ratio(num: float, den: float) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(num) / np.float64(den))


def _form(ms: MeanSquares, model: str, type: str, unit: str, confidence: float,
          convention: str) -> tuple[float, float, float, float, float, float, float]:
    """(ICC, F, df1, df2, p, lower, upper) of one form (McGraw & Wong 1996, Tables 4, 7, 8)."""
    n, k = ms.n, ms.k
    MSR, MSC, MSE, MSW = ms.rows, ms.columns, ms.error, ms.within
    q = 1 - (1 - confidence) / 2
    df1 = n - 1
    if model == "oneway" or type == "consistency":
        inner, df2 = (MSW, n * (k - 1)) if model == "oneway" else (MSE, (n - 1) * (k - 1))
        F = _ratio(MSR, inner)
        value = _ratio(MSR - inner, MSR + (k - 1) * inner) if unit == "single" \
            else _ratio(MSR - inner, MSR)
        with np.errstate(divide="ignore", invalid="ignore"):
            FL = F / fdtri(df1, df2, q)
            FU = F * fdtri(df2, df1, q)
            if unit == "single":
                low, high = (FL - 1) / (FL + k - 1), (FU - 1) / (FU + k - 1)
            else:
                low, high = 1 - 1 / FL, 1 - 1 / FU
        return value, F, df1, df2, float(fdtrc(df1, df2, F)), float(low), float(high)
    # two-way, absolute agreement
    F = _ratio(MSR, MSE)
    single = _ratio(MSR - MSE, MSR + (k - 1) * MSE + k * (MSC - MSE) / n)
    average = _ratio(MSR - MSE, MSR + (MSC - MSE) / n)
    nu1 = _nu(ms, single, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        FL, FU = fdtri(n - 1, nu1, q), fdtri(nu1, n - 1, q)
        low = n * (MSR - FL * MSE) / (FL * (k * MSC + (k * n - k - n) * MSE) + n * MSR)
        high = n * (FU * MSR - MSE) / (k * MSC + (k * n - k - n) * MSE + n * FU * MSR)
    if unit == "single":
        value, nu = single, nu1
    else:
        value = average
        if convention == "psych":  # Spearman–Brown step-up of ICC(A,1)'s bounds
            with np.errstate(divide="ignore", invalid="ignore"):
                low, high = k * low / (1 + (k - 1) * low), k * high / (1 + (k - 1) * high)
            nu = nu1
        else:  # irr: ν from the average-measure ICC, and Table 7's bounds of ICC(A,k)
            nu = _nu(ms, average, k)
            with np.errstate(divide="ignore", invalid="ignore"):
                FL, FU = fdtri(n - 1, nu, q), fdtri(nu, n - 1, q)
                low = n * (MSR - FL * MSE) / (FL * (MSC - MSE) + n * MSR)
                high = n * (FU * MSR - MSE) / (MSC - MSE + n * FU * MSR)
    df2 = float((n - 1) * (k - 1)) if convention == "psych" else float(nu)
    p = float(fdtrc(df1, df2, F)) if np.isfinite(df2) else float("nan")
    return value, F, df1, df2, p, float(low), float(high)


def _prepare(data, missing: str, name: str
             ) -> tuple[MeanSquares, VarianceComponents | None, Scores, int, list]:
    scores = as_scores(data, name)
    notes: list[str] = []
    components = None
    if missing == "reml":
        k, n = scores.values.shape
        components = crossed_reml(scores.values)
        ms = MeanSquares.of_components(components, n, k)
        left_out = 0
        if not components.converged:
            notes.append("the REML fit did not report convergence")
        if scores.rated.all():
            notes.append("REML on complete data: the ANOVA estimates, unless a variance "
                         "component is truncated at 0")
        else:
            notes.append(f"REML on {int(np.count_nonzero(~scores.rated))} missing scores: "
                         "mean squares implied by the variance components (as psych::ICC "
                         "with lmer=TRUE); the F tests and intervals are approximate")
    else:
        complete, left_out = scores.complete(name)
        ms = MeanSquares.of(complete.values)
        note = listwise_note(left_out, scores.values.shape[1])
        if note:
            notes.append(note)
        scores = complete
    return ms, components, scores, left_out, notes


def _undefined(value: float, name: str, notes: list) -> None:
    if np.isnan(value):
        why = (f"{name} is undefined: its denominator is 0 (the scores do not vary, or do "
               "not vary between items); returning nan")
        notes.append(why)
        warnings.warn(why, DegenerateWarning, stacklevel=3)


@checked(SCORES, Param("model", str, choices=MODELS), Param("type", str, choices=TYPES),
         Param("unit", str, choices=UNITS), CONFIDENCE, Param("missing", str, choices=MISSING),
         Param("convention", str, choices=CONVENTIONS))
def icc(data, model: str = "twoway", type: str = "agreement", unit: str = "single",
        confidence: float = 0.95, missing: str = "listwise",
        convention: str = "irr") -> IccResult:
    """An intraclass correlation of numeric scores (McGraw & Wong 1996).

    Parameters
    ----------
    data : ReliabilityData or array_like
        Numeric scores: reliability data with numeric labels, or coders × items numbers (a
        nested list, a numpy array, a dict of coder → scores, a pandas DataFrame with the
        coders as its index), NaN or None missing.
    model : {"twoway", "oneway"}
        ``twoway``: the same coders score every item (McGraw & Wong's Cases 2 and 3; random or
        fixed coders give the same estimate); ``oneway``: each item has its own coders
        (Case 1), which measures absolute agreement only.
    type : {"agreement", "consistency"}
        Absolute agreement, or consistency (a coder's constant offset does not count).
    unit : {"single", "average"}
        The reliability of one coder's score, or of the mean of the k coders' scores.
    confidence : float, default 0.95
        The coverage of the interval.
    missing : {"listwise", "reml"}
        ``listwise`` leaves out the items a coder did not score (``left_out`` and a note say
        how many); ``reml`` keeps every score and uses REML variance components, as
        ``psych::ICC(lmer=TRUE)``.
    convention : {"irr", "psych"}
        Where R ``irr::icc`` and ``psych::ICC`` differ: the denominator degrees of freedom of
        absolute agreement's F test (irr: McGraw & Wong's fractional ν; psych and pingouin:
        (n − 1)(k − 1)) and the interval of ICC(A,k) (irr: ν of the average-measure ICC;
        psych: the Spearman–Brown step-up of ICC(A,1)'s bounds).

    Returns
    -------
    IccResult
        ``value``, ``interval``, ``f``, ``df1``, ``df2``, ``p_value``, ``convention`` …

    Raises
    ------
    InputError
        When a score is not a number, there is one coder, an item has fewer than two scores,
        or listwise deletion leaves fewer than two items.
    ValueError, TypeError
        For a keyword's value that is not accepted.

    Warns
    -----
    DegenerateWarning
        When the ICC is undefined (constant scores): the value is nan, with a note.

    See Also
    --------
    icc_table : Shrout & Fleiss's six forms, as ``psych::ICC`` prints them.

    Notes
    -----
    With n items, k coders and the mean squares MSR (items), MSC (coders), MSE (residual) and
    MSW (within items) (McGraw & Wong 1996, Table 4):
    ICC(1) = (MSR − MSW)/(MSR + (k − 1)MSW), ICC(k) = (MSR − MSW)/MSR,
    ICC(C,1) = (MSR − MSE)/(MSR + (k − 1)MSE), ICC(C,k) = (MSR − MSE)/MSR,
    ICC(A,1) = (MSR − MSE)/(MSR + (k − 1)MSE + k(MSC − MSE)/n),
    ICC(A,k) = (MSR − MSE)/(MSR + (MSC − MSE)/n); intervals from Table 7, F tests from
    Table 8 (ρ₀ = 0).

    References
    ----------
    .. [1] McGraw, K. O. and Wong, S. P. (1996). Forming inferences about some intraclass
       correlation coefficients. Psychological Methods 1(1), 30–46; Tables 4, 7 and 8.
    .. [2] Shrout, P. E. and Fleiss, J. L. (1979). Intraclass correlations: uses in assessing
       rater reliability. Psychological Bulletin 86(2), 420–428.

    Examples
    --------
    >>> import corpusagree as ca
    >>> judges = [[9, 6, 8, 7, 10, 6], [2, 1, 4, 1, 5, 2], [5, 3, 6, 2, 6, 4],
    ...           [8, 2, 8, 6, 9, 7]]                 # Shrout & Fleiss (1979), Table 2
    >>> r = ca.icc(judges)
    >>> r.form, r.shrout_fleiss, round(r.value, 2)
    ('ICC(A,1)', 'ICC(2,1)', 0.29)
    >>> round(r.interval.low, 3), round(r.interval.high, 3), round(r.df2, 2)
    (0.019, 0.761, 4.79)
    >>> round(ca.icc(judges, type="consistency", unit="average").value, 2)
    0.91
    """
    if model == "oneway" and type == "consistency":
        raise ValueError("type='consistency' is not accepted with model='oneway', which "
                         "measures absolute agreement only (McGraw & Wong 1996, Table 4); "
                         "use model='twoway'")
    ms, components, _, left_out, notes = _prepare(data, missing, "icc")
    return _result(ms, components, left_out, notes, model, type, unit, confidence,
                   convention, missing)


def _result(ms, components, left_out, notes, model, type, unit, confidence, convention,
            missing, warn=True) -> IccResult:
    value, F, df1, df2, p, low, high = _form(ms, model, type, unit, confidence, convention)
    form = _form_name(model, type, unit, ms.k)
    notes = list(notes)
    if warn:
        _undefined(value, form, notes)
    if np.isnan(value):
        low = high = float("nan")
    sf = SHROUT_FLEISS.get((model, type, unit))
    sf_name = None if sf is None else sf[0].replace("k)", f"{ms.k})")
    how = f"F (McGraw & Wong 1996, Table 7; {convention} convention)"
    if model == "twoway" and type == "agreement" and unit == "average":
        how = (f"F (McGraw & Wong 1996, Table 7; {convention} convention: " +
               ("Spearman–Brown step-up of ICC(A,1)'s bounds)" if convention == "psych"
                else "ν of the average-measure ICC)"))
    interval = Interval(form, "interval", value, low, high, confidence, how, units=ms.n)
    return IccResult(form, sf_name, model, type, unit, value, interval, F, float(df1),
                     float(df2), p, convention, missing, ms.n, ms.k, left_out, ms,
                     components, notes)


@dataclass(repr=False)
class IccTable:
    """Shrout & Fleiss's (1979) six ICCs as ``psych::ICC`` prints them.

    Attributes
    ----------
    rows : list of IccResult
        ICC1, ICC2, ICC3, ICC1k, ICC2k, ICC3k (psych's order).
    notes : list of str
        Listwise deletion, an undefined ICC, the REML fit.

    Examples
    --------
    >>> import corpusagree as ca
    >>> t = ca.icc_table([[1, 2, 3, 4, 5], [1, 3, 3, 5, 5], [2, 2, 4, 4, 6]])
    >>> t.types[:3], round(t["ICC2"].value, 3), t["ICC(3,1)"] is t[2]
    (['ICC1', 'ICC2', 'ICC3'], 0.878, True)
    """

    rows: list
    notes: list = field(default_factory=list)

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, key):
        if isinstance(key, str):
            for r, name in zip(self.rows, self.types, strict=True):
                if key in (name, r.shrout_fleiss, r.form):
                    return r
            raise KeyError(f"no {key}; listed: {', '.join(self.types)}")
        return self.rows[key]

    @property
    def types(self) -> list[str]:
        """psych's names of the rows (ICC1 … ICC3k)."""
        return [SHROUT_FLEISS[(r.model, r.type, r.unit)][1] for r in self.rows]

    def to_dict(self) -> list[dict]:
        """One dict per row: psych's columns (type, ICC, F, df1, df2, p, lower, upper)."""
        return [{"type": t, "ICC": r.value, "F": r.f, "df1": r.df1, "df2": r.df2,
                 "p": r.p_value, "lower": r.interval.low, "upper": r.interval.high}
                for t, r in zip(self.types, self.rows, strict=True)]

    def to_frame(self):
        """psych's table as a pandas DataFrame (pandas is optional)."""
        return frame(self.to_dict())

    def __repr__(self) -> str:
        lines = ["type      ICC      F  df1    df2        p  lower  upper"]
        for d in self.to_dict():
            lines.append(f"{d['type']:<6}{d['ICC']:>7.2f}{d['F']:>7.1f}{d['df1']:>5.0f}"
                         f"{d['df2']:>7.0f}{d['p']:>9.2g}{d['lower']:>7.2f}{d['upper']:>7.2f}")
        return "\n".join(lines)


@checked(SCORES, CONFIDENCE, Param("missing", str, choices=MISSING))
def icc_table(data, confidence: float = 0.95, missing: str = "listwise") -> IccTable:
    """Shrout & Fleiss's (1979) six ICCs with F tests and intervals, as ``psych::ICC``.

    Parameters
    ----------
    data : ReliabilityData or array_like
        Numeric scores (see :func:`icc`).
    confidence : float, default 0.95
        The coverage of the intervals.
    missing : {"listwise", "reml"}
        As in :func:`icc`; ``reml`` is ``psych::ICC(lmer=TRUE)`` on incomplete data.

    Returns
    -------
    IccTable
        Rows ICC1, ICC2, ICC3, ICC1k, ICC2k, ICC3k with psych's columns (type, ICC, F, df1,
        df2, p, lower, upper), in psych's convention (``convention="psych"`` of :func:`icc`).

    Raises
    ------
    InputError
        As :func:`icc`.

    References
    ----------
    .. [1] Shrout, P. E. and Fleiss, J. L. (1979). Intraclass correlations: uses in assessing
       rater reliability. Psychological Bulletin 86(2), 420–428; Table 1 (the analysis of
       variance the forms are made of) and
       Table 2 (the example).
    .. [2] McGraw, K. O. and Wong, S. P. (1996). Psychological Methods 1(1), Table 7.

    Examples
    --------
    >>> import corpusagree as ca
    >>> t = ca.icc_table([[9, 6, 8, 7, 10, 6], [2, 1, 4, 1, 5, 2], [5, 3, 6, 2, 6, 4],
    ...                   [8, 2, 8, 6, 9, 7]])
    >>> [round(r.value, 2) for r in t]
    [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    >>> t
    type      ICC      F  df1    df2        p  lower  upper
    ICC1     0.17    1.8    5     18     0.16  -0.13   0.72
    ICC2     0.29   11.0    5     15  0.00013   0.02   0.76
    ICC3     0.71   11.0    5     15  0.00013   0.34   0.95
    ICC1k    0.44    1.8    5     18     0.16  -0.88   0.91
    ICC2k    0.62   11.0    5     15  0.00013   0.07   0.93
    ICC3k    0.91   11.0    5     15  0.00013   0.68   0.99
    """
    ms, components, _, left_out, notes = _prepare(data, missing, "icc_table")
    rows = [_result(ms, components, left_out, [], *form, confidence, "psych", missing,
                    warn=False) for form in SHROUT_FLEISS]
    notes = list(notes)
    undefined = [t for t, r in zip(SHROUT_FLEISS.values(), rows, strict=True)
                 if np.isnan(r.value)]
    if undefined:
        why = (f"{', '.join(t[1] for t in undefined)} undefined: the denominator is 0 (the "
               "scores do not vary, or do not vary between items); returning nan")
        notes.append(why)
        warnings.warn(why, DegenerateWarning, stacklevel=2)
    for r in rows:
        r.notes[:] = notes
    return IccTable(rows, notes)


def icc_bootstrap(values: np.ndarray, unit_of: np.ndarray, settings: Bootstrap, *,
                  clustered: bool = False, progress: Progress | None = None) -> list[Interval]:
    """Bootstrap intervals of Shrout & Fleiss's six ICCs (psych's order): the items, or their
    clusters (documents), drawn with replacement and the ICCs refitted on each replicate.

    Each replicate's mean squares come from the items' sums weighted by their draws
    (:meth:`MeanSquares.weighted`), so a replicate costs one pass over the scores and never a
    copy of them; the intervals are those of
    :func:`corpusagree.stats.inference.refit_bootstrap` (percentile or BCa).

    Parameters
    ----------
    values : numpy.ndarray
        Complete coders × items scores.
    unit_of : numpy.ndarray
        The resampling unit of each item (``np.arange(n_items)``: the items).
    settings : Bootstrap
        Replicates, level, method and seed.
    clustered : bool
        Whether the units are clusters of items.
    progress : callable, optional
        ``progress(done, total)``.

    Returns
    -------
    list of Interval
        ICC1, ICC2, ICC3, ICC1k, ICC2k, ICC3k.

    References
    ----------
    .. [1] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman
       & Hall; Chapter 13 (percentile intervals) and Section 14.3 (BCa).

    Examples
    --------
    >>> y = np.array([[9, 6, 8, 7, 10, 6], [2, 1, 4, 1, 5, 2], [5, 3, 6, 2, 6, 4],
    ...               [8, 2, 8, 6, 9, 7]], float)
    >>> ivs = icc_bootstrap(y, np.arange(6), Bootstrap(200, seed=1))
    >>> round(ivs[2].estimate, 2), ivs[2].low < 0.71 < ivs[2].high
    (0.71, True)
    """
    sums = ItemSums.of(values)
    forms = list(SHROUT_FLEISS)

    def statistic(weights: np.ndarray) -> np.ndarray:
        if weights.sum() < 2:
            return np.full(len(forms), np.nan)
        ms = MeanSquares.weighted(sums, weights)
        return np.array([_form(ms, *f, 0.95, "psych")[0] for f in forms])

    return refit_bootstrap(statistic, unit_of, settings,
                           [(SHROUT_FLEISS[f][1], "") for f in forms], clustered=clustered,
                           progress=progress)


__all__ = ["IccResult", "IccTable", "ItemSums", "MeanSquares", "icc", "icc_bootstrap",
           "icc_table"]
