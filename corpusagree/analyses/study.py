"""Study design: is A better than B (:func:`compare`), and how many units or documents a
study needs (:func:`plan`).

Both take a job's corpus through its registration's ``data`` hook
(:attr:`corpusagree.analyses.jobs.Job.data`: the reliability data of the job's main α), so
that guidelines v1 and v2 of a coreference study are compared as two tables are; the
statistics are :mod:`corpusagree.stats.compare` and :mod:`corpusagree.stats.planning`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..model.corpus import Corpus
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.params import PROGRESS, Param, checked
from ..model.progress import Progress
from ..report.document import Report
from ..report.tables import Column, Plot, Table
from ..stats import compare as cmp
from ..stats import planning
from ..stats.inference import Bootstrap, Interval
from ..stats.spec import COEFFICIENTS
from . import corpora, jobs

__all__ = ["CompareReport", "PlanReport", "compare", "hooked_jobs", "plan", "read_study",
           "study_data"]

#: the coefficients with a bootstrap, which :func:`compare` compares
RESAMPLABLE = tuple(c for c, e in COEFFICIENTS.items() if e.resamplable)

#: what :func:`compare` and :func:`plan` check first
#: a study: reliability data, a job's corpus or a report
STUDY = (ReliabilityData, Corpus, Report)

PARAMS = (
    Param("a", STUDY, accepts="ReliabilityData, a job's corpus or a report"),
    Param("b", STUDY, accepts="ReliabilityData, a job's corpus or a report"),
    Param("coefficient", str, choices=RESAMPLABLE),
    Param("paired", bool, none=True),
    Param("bootstrap", Bootstrap, none=True, accepts="a corpusagree.Bootstrap"),
    Param("margin", float, low=0, high=1, closed="neither", none=True),
    Param("job", str, none=True),
    PROGRESS,
)


def hooked_jobs() -> list[str]:
    """The jobs whose studies :func:`compare` and :func:`plan` read (their registration's
    ``data`` hook), in order.

    Returns
    -------
    list of str

    Examples
    --------
    >>> hooked_jobs()[:2]
    ['table', 'coref']
    """
    return [n for n, j in jobs.registered().items() if j.data is not None]


def read_study(path, job: str | None = None, **table_layout) -> Corpus:
    """One study's files read by its job's ``read`` (with the job's default options).

    Parameters
    ----------
    path : str or path-like
        A file or folder of a job of :func:`hooked_jobs`.
    job : str, optional
        The job; default: the first whose readers recognise ``path``.
    **table_layout
        ``coder``, ``item``, ``label``, ``group``: the columns of a reliability-data file.

    Returns
    -------
    Corpus

    Raises
    ------
    InputError
        A path no reader of those jobs recognises.

    Examples
    --------
    >>> read_study("sample_corpora/coref/brat").job
    'coref'
    """
    name = job or corpora.job_reading(path, hooked_jobs())
    if name is None:
        corpora.input_paths(path)  # a missing path: its own error
        raise InputError(f"not recognised as the input of {', '.join(hooked_jobs())} (give "
                         "the job)", path)
    module = jobs.module(name)
    given = {k: v for k, v in table_layout.items() if v is not None} if name == "table" \
        else {}
    return module.read(path, **given)


def study_data(study, job: str | None = None) -> tuple[ReliabilityData, str | None, str | None,
                                                       list[str]]:
    """The reliability data of one study: ``(data, distance, job, inputs)``.

    Parameters
    ----------
    study : ReliabilityData or Corpus
        Reliability data as they are, or a corpus of a job (what its ``read`` returns),
        turned into the data of the job's main α by the job's ``data`` hook.
    job : str, optional
        The job the corpus must be of.

    Returns
    -------
    tuple
        The data, the distance of the job's main α (None for plain data), the job (None for
        plain data) and the paths read.

    Raises
    ------
    ValueError
        A corpus of another job than ``job``, or of a job without the hook.

    Examples
    --------
    >>> from corpusagree.analyses import segments
    >>> data, distance, job, _ = study_data(segments.read("sample_corpora/segments/segments.json"))
    >>> job, distance, data.group_names
    ('segments', 'nominal', ['harbour', 'orchard', 'workshop'])
    """
    if isinstance(study, ReliabilityData):
        return study, None, job, []
    if not isinstance(study, Corpus):
        raise TypeError(f"a study is ReliabilityData or a job's corpus, not "
                        f"{type(study).__name__}")
    if job is not None and study.job != job:
        raise ValueError(f"the study is a corpus of the {study.job} job, not of {job}")
    registration = jobs.get(study.job)
    if registration.data is None:
        able = [n for n, j in jobs.registered().items() if j.data is not None]
        raise ValueError(f"the {study.job} job gives no reliability data to compare or plan "
                         f"with; jobs that do: {', '.join(able)}")
    data, distance = registration.data(study)
    return data, distance, study.job, [str(p) for p in study.inputs]


# ---- compare ---------------------------------------------------------------------------------
@dataclass(repr=False, kw_only=True)
class CompareReport(Report):
    """One coefficient in two studies and their difference A − B (:func:`compare`).

    Attributes
    ----------
    comparison : corpusagree.stats.compare.Comparison
        The values, the difference's interval, p-value and TOST decisions.
    compared : str or None
        The job whose corpora were compared (None for reliability data).
    names : tuple of str
        What A and B are called (their files, or ``A`` and ``B``).
    """

    job = "compare"
    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    comparison: cmp.Comparison
    compared: str | None = None
    names: tuple[str, str] = ("A", "B")
    notes: list[str] = field(default_factory=list)

    # the result's parts, as the issue names them
    @property
    def difference(self) -> float:
        """A − B."""
        return self.comparison.difference

    @property
    def interval(self) -> Interval:
        """The interval of the difference."""
        return self.comparison.interval

    @property
    def p_value(self) -> float:
        """Two-sided p-value of no difference."""
        return self.comparison.p_value

    @property
    def paired(self) -> bool:
        """Whether the documents were resampled jointly."""
        return self.comparison.paired

    @property
    def equivalent(self) -> bool | None:
        """The TOST decision of equivalence within the margin (None without a margin)."""
        return self.comparison.equivalent

    @property
    def noninferior(self) -> bool | None:
        """The TOST decision that A is not worse than B by the margin (None without one)."""
        return self.comparison.noninferior

    def __repr__(self) -> str:
        return f"<CompareReport {self.summary()}>"

    def body(self) -> dict:
        return {"compared_job": self.compared, "names": list(self.names),
                "comparison": self.comparison.to_dict()}

    def summary(self) -> str:
        c = self.comparison
        iv = c.interval
        return (f"{c.coefficient} ({c.distance}): {self.names[0]} {c.a:.4f} − "
                f"{self.names[1]} {c.b:.4f} = {c.difference:+.4f}, {iv.level:.0%} "
                f"[{iv.low:+.4f}, {iv.high:+.4f}], p = {c.p_value:.3g}, "
                f"{'paired' if c.paired else 'independent'}")

    def headline(self) -> None:
        return None

    def _tables(self) -> list[Table]:
        c = self.comparison
        iv = c.interval
        values = Table("comparison", f"{c.coefficient} ({c.distance}) in two studies",
                       [Column("study", "study"), Column("value", "value", "float"),
                        Column("interval", f"{iv.level:.0%} interval", "interval")],
                       [[f"A: {self.names[0]}", c.a, None],
                        [f"B: {self.names[1]}", c.b, None],
                        ["A − B", c.difference, (iv.low, iv.high)]],
                       notes=[f"{iv.method}, "
                              + (f"{iv.n_resamples} resamples of " if iv.n_resamples
                                 else "leaving out each of ")
                              + f"{c.units} {'documents' if iv.clustered else 'items'}"
                              + (f", seed {iv.seed}" if iv.n_resamples else "")])
        rows = [["design", "paired" if c.paired else "independent"],
                ["p-value (no difference)", f"{c.p_value:.4g}"]]
        if c.margin is not None:
            lo, hi = c.tost_interval
            rows += [["margin", f"{c.margin:g}"],
                     [f"TOST {1 - 2 * (1 - iv.level):.0%} interval", f"[{lo:+.4f}, {hi:+.4f}]"],
                     ["equivalent (|A − B| < margin)", "yes" if c.equivalent else "no"],
                     ["non-inferior (A − B > −margin)", "yes" if c.noninferior else "no"]]
        tests = Table("tests", "Tests", [Column("test", "test"), Column("result", "result")],
                      rows)
        return [values, tests]

    def plots(self) -> list[Plot]:
        c = self.comparison
        iv = c.interval
        return [Plot("difference", f"{c.coefficient} in A and B, and A − B with its interval",
                     "bars", {"labels": ["A − B", f"B: {self.names[1]}", f"A: {self.names[0]}"],
                              "values": [c.difference, c.b, c.a],
                              "low": [iv.low, None, None], "high": [iv.high, None, None],
                              "label": c.coefficient},
                     [f"{iv.level:.0%} interval of the difference; {c.notes[0]}"
                      if c.notes else f"{iv.level:.0%} interval of the difference"])]


def _from_reports(a: Report, b: Report, margin: float | None, names) -> CompareReport:
    """Two reports of the same job: their headline bootstrap distributions, replicate by
    replicate (the same documents and seed make the replicates the same resamples)."""
    if a.job != b.job:
        raise ValueError(f"the reports are of different jobs ({a.job}, {b.job})")
    ea, eb = a.headline(), b.headline()
    if ea is None or eb is None:
        raise ValueError(f"a {a.job} report has no headline coefficient to compare")
    ia, ib = ea.interval, eb.interval
    da, db = (None if iv is None else iv.distance for iv in (ia, ib))
    if ea.id != eb.id or da != db:
        raise ValueError(f"the reports' headline coefficients differ ({ea.id} {da}, "
                         f"{eb.id} {db})")
    if ia is None or ib is None or ia.distribution is None or ib.distribution is None:
        raise ValueError("compare needs both reports made with a bootstrap (bootstrap=…): "
                         "their replicates are compared")
    why = [w for w, bad in (
        ("seeds", ia.seed is None or ia.seed != ib.seed),
        ("numbers of resamples", ia.n_resamples != ib.n_resamples),
        ("resampling units", ia.units != ib.units or ia.clustered != ib.clustered),
        ("documents", getattr(a, "documents", None) != getattr(b, "documents", None)))
        if bad]
    if why:
        raise ValueError(f"the reports' bootstraps differ in their {' and '.join(why)}: their "
                         "replicates are not the same resamples; compare their corpora instead")
    settings = a.bootstrap or Bootstrap()
    dist = np.asarray(ia.distribution, float) - np.asarray(ib.distribution, float)
    ok = dist[~np.isnan(dist)]
    diff = ea.value - eb.value
    lo_q = (1 - settings.level) / 2
    low, high = (float(x) for x in np.quantile(ok, [lo_q, 1 - lo_q]))
    iv = Interval(ea.id, da, diff, low, high, settings.level, ia.method, ia.clustered,
                  ia.units, len(ok), ia.seed, dist, {}, float(ok.std(ddof=1)),
                  int(len(dist) - len(ok)), None)
    R = len(ok)
    p = float(min(1.0, 2 * min((np.sum(ok <= 0) + 1) / (R + 1),
                               (np.sum(ok >= 0) + 1) / (R + 1))))
    c = cmp.Comparison(ea.id, da, ea.value, eb.value, diff, iv, p, True, ia.units,
                       margin, notes=["paired: the two reports' bootstrap replicates, "
                                      "resample by resample (same documents and seed)"])
    if margin is not None:
        t = 1 - settings.level
        lo, hi = (float(x) for x in np.quantile(ok, [t, 1 - t]))
        c.tost_interval = (lo, hi)
        c.equivalent = bool(-margin < lo and hi < margin)
        c.noninferior = bool(lo > -margin)
    return CompareReport(inputs=[*a.inputs, *b.inputs],
                         options={"coefficient": ea.id, "distance": da,
                                  "margin": margin, "paired": True, "reader_options": {}},
                         bootstrap=settings, comparison=c, compared=a.job, names=names,
                         notes=list(c.notes))


@checked(*PARAMS, where="compare()")
def compare(a, b, coefficient: str = "alpha", *, paired: bool | None = None,
            bootstrap: Bootstrap | None = None, margin: float | None = None,
            job: str | None = None, progress: Progress | None = None,
            **coefficient_options) -> CompareReport:
    """Is A better than B: one coefficient in two studies, the difference A − B with its
    interval, its p-value and, with a margin, the equivalence and non-inferiority decisions.

    Paired when both studies code the same documents (guidelines v1 and v2 on one sample; a
    model with people against people alone: the documents are resampled jointly),
    independent otherwise; the report says which (:func:`corpusagree.stats.compare.compare`).

    Parameters
    ----------
    a, b : ReliabilityData, Corpus or Report
        Two studies: reliability data, two corpora of the same job (what the job's ``read``
        returns; the data of its main α), or two reports of the same job made with a
        bootstrap of the same documents and seed (their headline replicates are compared).
    coefficient : str, default "alpha"
        A coefficient with a bootstrap.
    paired : bool, optional
        Force the design; None (default) detects it.
    bootstrap : Bootstrap, optional
        Resamples, level, seed and interval method (``percentile``, ``bca``,
        ``jackknife``). Default ``Bootstrap()``.
    margin : float, optional
        The equivalence margin, in (0, 1), of the two one-sided tests (Schuirmann 1987).
    job : str, optional
        The job both corpora must be of.
    progress : callable, optional
        ``progress(done, total)`` as the replicates advance.
    **coefficient_options
        ``distance``: the distance of a weighted coefficient (default: the job's, nominal
        for plain data).

    Returns
    -------
    CompareReport
        With ``difference``, ``interval``, ``p_value``, ``paired``, ``equivalent`` and
        ``noninferior``, its tables, JSON and HTML page.

    Raises
    ------
    ValueError
        Corpora or reports of different jobs, a coefficient without a bootstrap, a margin
        outside (0, 1), fewer than two documents, reports whose bootstraps differ.

    References
    ----------
    Efron, B. and Tibshirani, R. (1993). *An Introduction to the Bootstrap*, §16.
    Schuirmann, D. J. (1987). *J. Pharmacokinetics and Biopharmaceutics* 15(6).

    Examples
    --------
    >>> import corpusagree as ca
    >>> rng = np.random.default_rng(1)
    >>> truth = rng.integers(0, 3, 200)
    >>> def study(noise):
    ...     codes = np.where(rng.random((3, 200)) < noise, rng.integers(0, 3, (3, 200)), truth)
    ...     return ca.ReliabilityData(codes, labels=[0, 1, 2], groups=np.arange(200) // 10)
    >>> c = ca.compare(study(0.1), study(0.4), bootstrap=ca.Bootstrap(500, seed=1), margin=0.05)
    >>> c.paired, c.difference > 0, c.interval.low > 0, c.equivalent
    (True, True, True, False)
    """
    unknown = set(coefficient_options) - {"distance"}
    if unknown:
        raise TypeError(f"compare() got unknown keyword(s) {', '.join(sorted(unknown))}; "
                        "a coefficient option is distance=")
    names = tuple(", ".join(Path(str(i)).name for i in getattr(x, "inputs", None) or [])
                  or n for x, n in ((a, "A"), (b, "B")))
    if isinstance(a, Report) or isinstance(b, Report):
        if not (isinstance(a, Report) and isinstance(b, Report)):
            raise TypeError("compare two reports, or two studies, not one of each")
        return _from_reports(a, b, margin, names)
    if isinstance(a, Corpus) and isinstance(b, Corpus) and a.job != b.job:
        raise ValueError(f"A and B are corpora of different jobs ({a.job}, {b.job})")
    da, distance, compared, ins_a = study_data(a, job)
    db, _, _, ins_b = study_data(b, job)
    distance = coefficient_options.get("distance", distance or "nominal")
    settings = bootstrap or Bootstrap()
    c = cmp.compare(da, db, coefficient, distance=distance, paired=paired, bootstrap=settings,
                    margin=margin, progress=progress)
    options = {"coefficient": c.coefficient, "distance": c.distance, "margin": margin,
               "paired": paired, "reader_options": {}}
    return CompareReport(inputs=ins_a + ins_b, options=options, bootstrap=settings,
                         comparison=c, compared=compared, names=names, notes=list(c.notes))


# ---- plan ------------------------------------------------------------------------------------
@dataclass(repr=False, kw_only=True)
class PlanReport(Report):
    """How many units or documents a study needs (:func:`plan`).

    Attributes
    ----------
    method : str
        ``alpha`` (Krippendorff's minimum units), ``alpha_table`` (his table), ``kappa``
        (irr's N.cohen.kappa), ``simulation`` (a pilot's documents resampled for an
        interval's width) or ``alt_test`` (for the alt-test of a candidate).
    rows : list of dict
        The plan's rows.
    answer : int or None
        The number asked for: units, subjects, or documents for the interval's width or for
        the alt-test.
    """

    job = "plan"
    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    method: str
    rows: list[dict]
    answer: int | None = None
    notes: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<PlanReport {self.summary()}>"

    def body(self) -> dict:
        return {"method": self.method, "answer": self.answer, "rows": self.rows}

    def summary(self) -> str:
        what = {"alpha": "units for α", "alpha_table": "units for α (table)",
                "kappa": "subjects for κ", "simulation": "documents for the width",
                "alt_test": "documents for the alt-test"}[self.method]
        return f"{what}: {self.answer if self.answer is not None else 'see the table'}"

    def headline(self) -> None:
        return None

    def _tables(self) -> list[Table]:
        if not self.rows:
            return []
        keys = list(self.rows[0])
        cols = [Column(k, k.replace("_", " "),
                       "int" if isinstance(self.rows[0][k], (int, np.integer))
                       and not isinstance(self.rows[0][k], bool) else
                       "float" if isinstance(self.rows[0][k], float) else "text")
                for k in keys]
        return [Table("plan", "Plan", cols,
                      [[r[k] for k in keys] for r in self.rows])]

    def plots(self) -> list[Plot]:
        rows = self.rows[::-1]
        if self.method == "alt_test":
            return [Plot("power", "Studies in which the candidate passes, against documents",
                         "bars", {"labels": [f"{r['documents']} documents" for r in rows],
                                  "values": [r["passed"] for r in rows],
                                  "low": [None] * len(rows), "high": [None] * len(rows),
                                  "label": f"share passed at ε = {self.options['epsilon']:g}"})]
        if self.method != "simulation":
            return []
        return [Plot("width", "Interval width against documents", "bars",
                     {"labels": [f"{r['documents']} documents" for r in rows],
                      "values": [r["width"] for r in rows],
                      "low": [None] * len(rows), "high": [None] * len(rows),
                      "label": f"width of the {self.options['level']:.0%} interval"})]


PLAN_PARAMS = (
    Param("pilot", (ReliabilityData, Corpus), none=True,
          accepts="ReliabilityData or a job's corpus"),
    Param("proportions", (list, tuple, np.ndarray), none=True, accepts="a list of numbers"),
    Param("table", bool),
    Param("kappa", dict, none=True, accepts="a dict of irr::N.cohen.kappa's arguments"),
    Param("documents", (list, tuple, range), none=True, accepts="a list of study sizes"),
    Param("coefficient", str, choices=RESAMPLABLE),
    Param("alpha_min", float, low=0, high=1, closed="neither", none=True),
    Param("p", float, low=0, high=0.5, closed="neither"),
    Param("coders", int, low=2),
    Param("width", float, low=0, high=2, closed="neither", none=True),
    Param("level", float, low=0, high=1, closed="neither"),
    Param("n_resamples", int, low=10),
    Param("seed", int, low=0, none=True),
    Param("candidate", (), none=True, accepts="a coder name of the pilot"),
    Param("epsilon", float, low=0),
    Param("power", float, low=0, high=1, closed="neither"),
    PROGRESS,
)


@checked(*PLAN_PARAMS, where="plan()")
def plan(pilot=None, *, alpha_min: float | None = None, p: float = 0.05,
         proportions: Sequence[float] | None = None, coders: int = 2,
         table: bool = False, kappa: dict | None = None, width: float | None = None,
         documents: Sequence[int] | None = None, coefficient: str = "alpha",
         level: float = 0.95, n_resamples: int = 500, seed: int | None = 0,
         candidate=None, epsilon: float = 0.2, power: float = 0.8,
         progress: Progress | None = None) -> PlanReport:
    """How many units or documents a study needs.

    One of three plans:

    * ``alpha_min`` with the categories' ``proportions``: the minimum number of units for α
      to exceed ``alpha_min`` at significance ``p`` (Krippendorff 2019, §12.4, after Bloch &
      Kraemer 1989; :func:`corpusagree.stats.planning.alpha_units`); ``table=True``: his
      table of them for the smallest category's proportion;
    * ``kappa``: the keywords of R's ``irr::N.cohen.kappa`` (``rate1``, ``rate2``, ``k1``,
      ``k0``, ``alpha``, ``power``, ``twosided``;
      :func:`corpusagree.stats.planning.kappa_units`);
    * a ``pilot`` study (ReliabilityData or a job's corpus) and a ``width``: the documents a
      study needs for an interval of that width, simulated by resampling the pilot's
      documents whole (:func:`corpusagree.stats.compare.width_by_documents`);
    * a ``pilot`` study and a ``candidate`` (a model among its coders): the documents a study
      needs for the candidate to pass the alt-test at ``epsilon`` in a share ``power`` of
      such studies, simulated the same way
      (:func:`corpusagree.stats.compare.alt_test_by_documents`).

    Parameters
    ----------
    pilot : ReliabilityData or Corpus, optional
        The pilot study of a simulation.
    alpha_min : float, optional
        The smallest acceptable α.
    p : float, default 0.05
        The significance level.
    proportions : list of float, optional
        The categories' expected proportions.
    coders : int, default 2
        Coders per unit.
    table : bool, default False
        Krippendorff's table instead of one number.
    kappa : dict, optional
        N.cohen.kappa's arguments.
    width : float, optional
        The interval width the study needs (simulation).
    documents : list of int, optional
        The study sizes to simulate (default: from 5 to 8 times the pilot's documents).
    coefficient : str, default "alpha"
        The coefficient of the simulation.
    level : float, default 0.95
        The interval's level (simulation).
    n_resamples : int, default 500
        Simulated studies per size.
    seed : int, optional
        The simulation's seed.
    candidate : hashable, optional
        The coder of the pilot whose alt-test is planned (the other coders are the humans).
    epsilon : float, default 0.2
        The alt-test's cost–benefit margin ε (Calderon, Reichart & Dror 2025, §3).
    power : float, default 0.8
        The share of simulated studies in which the candidate must pass.
    progress : callable, optional
        ``progress(done, total)`` over the sizes simulated.

    Returns
    -------
    PlanReport

    Raises
    ------
    ValueError
        No plan asked for, or several.

    Examples
    --------
    >>> import corpusagree as ca
    >>> ca.plan(alpha_min=0.8, p=0.05, proportions=[0.5, 0.5]).answer
    103
    """
    asked = [k for k, v in (("alpha_min", alpha_min), ("kappa", kappa), ("pilot", pilot))
             if v is not None]
    if len(asked) != 1:
        raise ValueError("plan() needs one of alpha_min= (units for α), kappa= (subjects for "
                         f"κ) or a pilot study; given {', '.join(asked) or 'none'}")
    options = {"alpha_min": alpha_min, "p": p, "coders": coders, "width": width,
               "level": level, "coefficient": coefficient, "reader_options": {}}
    if kappa is not None or alpha_min is not None:
        return _formula_plan(options, kappa, alpha_min, p, proportions, coders, table)
    data, distance, job, inputs = study_data(pilot)
    U = len(data.group_names) if data.group_names is not None else data.n_items
    sizes = sorted(set(documents)) if documents else \
        sorted({max(2, int(round(U * f))) for f in (0.5, 1, 2, 4, 8)})
    what = "documents" if data.group_names is not None else "items"
    if candidate is not None:
        rows = cmp.alt_test_by_documents(data, sizes, candidate, epsilon=epsilon,
                                         n_resamples=n_resamples, seed=seed, progress=progress)
        answer = next((r["documents"] for r in rows if r["passed"] >= power), None)
        return PlanReport(inputs=inputs, options={**options, "job": job,
                                                  "candidate": str(candidate),
                                                  "epsilon": epsilon, "power": power},
                          bootstrap=None, method="alt_test", rows=rows, answer=answer,
                          notes=_alt_test_notes(n_resamples, U, what, candidate, epsilon,
                                                power, answer))
    rows = cmp.width_by_documents(data, sizes, coefficient, distance=distance or "nominal",
                                  level=level, n_resamples=n_resamples, seed=seed,
                                  progress=progress)
    answer = next((r["documents"] for r in rows if width is not None and r["width"] <= width),
                  None)
    notes = [f"{n_resamples} studies simulated per size from the pilot's {U} {what}"]
    if width is not None and answer is None:
        notes.append(f"no simulated size reached a width of {width:g}: simulate larger "
                     "studies (documents=)")
    return PlanReport(inputs=inputs, options={**options, "job": job}, bootstrap=None,
                      method="simulation", rows=rows, answer=answer, notes=notes)


def _formula_plan(options: dict, kappa: dict | None, alpha_min: float | None, p: float,
                  proportions: Sequence[float] | None, coders: int, table: bool
                  ) -> PlanReport:
    """The plan of a formula: irr's N.cohen.kappa (``kappa``), Krippendorff's table
    (``table``) or his minimum units for α (``alpha_min``, which needs ``proportions``)."""
    if kappa is not None:
        size = planning.kappa_units(**kappa)
        return PlanReport(inputs=[], options={**options, "kappa": dict(kappa)}, bootstrap=None,
                          method="kappa", rows=[{**size.assumptions, "subjects": size.n}],
                          answer=size.n, notes=[size.method])
    if table:
        rows = planning.alpha_units_table(
            alpha_min=[alpha_min],
            **({} if proportions is None else
               {"smallest": [float(min(proportions) / sum(proportions))]}))
        return PlanReport(inputs=[], options=options, bootstrap=None, method="alpha_table",
                          rows=rows, answer=None)
    if proportions is None:
        raise ValueError("plan(alpha_min=...) needs proportions= (the categories' "
                         "expected proportions)")
    size = planning.alpha_units(alpha_min, p, proportions=proportions, coders=coders)
    return PlanReport(inputs=[], options={**options, "proportions": list(proportions)},
                      bootstrap=None, method="alpha", rows=[{**size.assumptions, "units": size.n}],
                      answer=size.n, notes=[size.method])


def _alt_test_notes(n_resamples: int, U: int, what: str, candidate, epsilon: float,
                    power: float, answer: int | None) -> list[str]:
    """What a plan for the alt-test simulated, and what its answer means."""
    notes = [f"{n_resamples} studies simulated per size from the pilot's {U} {what}; the "
             f"answer: the fewest {what} with which {candidate} passes the alt-test at "
             f"ε = {epsilon:g} in {power:.0%} of the studies"]
    if answer is None:
        notes.append(f"no simulated size let {candidate} pass in {power:.0%} of the "
                     "studies: simulate larger ones (documents=), or the candidate does "
                     "not replace the humans at this ε")
    return notes
