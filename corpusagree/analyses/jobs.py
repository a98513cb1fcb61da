"""The registry of jobs: a job is one module of :mod:`corpusagree.analyses` with ``read``,
``analyse`` and its registration.

The registration says what the rest of the package needs to know of a job, so that nothing
else keeps a list of jobs: the command line's sub-commands (its own module in
:mod:`corpusagree.cli` when it has one, else one made from the registration), the parts of
``report FOLDER`` (:mod:`corpusagree.analyses.folder`), the schema's and the tests' job lists.
A job of this package is registered in two halves: what can be said without its code
(:data:`BUILTIN`: name, kinds, tasks, help, order, example), here, so that
``corpusagree --help`` lists the jobs without importing them (numpy, scipy, spaCy …), and
what is made of its code (its keyword table, the parts of a study folder, the data of its
main α), by its module: ``JOB = complete("name", options=..., folder=..., data=...)``.
:func:`listed` gives the first halves; :func:`registered` and :func:`get` import the jobs'
modules and give whole registrations; :func:`register` also takes a job made elsewhere (a
plug-in, a test's toy job).

>>> from corpusagree.analyses import jobs
>>> list(jobs.registered())[:3]
['table', 'annotators', 'coref']
>>> jobs.get("coref").kinds
('mentions',)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the registry is imported by ``corpusagree --help``: nothing heavy
    from pathlib import Path

    from ..readers.discover import Found

__all__ = ["BUILTIN", "Job", "Part", "complete", "get", "listed", "module", "reading",
           "register", "registered", "unregister"]


@dataclass(frozen=True)
class Part:
    """A job's inputs found in one sub-folder of a study folder, for ``report FOLDER``.

    Parameters
    ----------
    found : Found
        What to read: the format, the paths and the reader's options.
    options : dict
        Options of ``analyse`` for a report (over which the user's ``diagnostics`` go).
    detail : dict
        Options turned on only when the user asks for diagnostics (costly parts).
    """

    found: Found
    options: Mapping = field(default_factory=dict)
    detail: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class Job:
    """A job's registration.

    Parameters
    ----------
    name : str
        The job's name: its sub-command and the ``job`` of its reports.
    module : str
        The module with its ``read`` and ``analyse``.
    kinds : tuple of str
        The kinds of corpus its ``analyse`` accepts
        (:data:`corpusagree.model.corpus.KINDS`).
    tasks : tuple of str
        The reader tasks its ``read`` reads (``table`` for reliability-data files).
    help : str
        One line for ``corpusagree --help``.
    order : int
        Where it comes in the list of jobs.
    example : tuple of str
        A command line on ``sample_corpora/`` (after the job's name), which the tests run.
    options : tuple
        The keyword table of its ``analyse`` (each keyword's type, range and choices).
        This and the next two are made of the job's code: a job of :data:`BUILTIN` gets them
        from its module (:func:`complete`).
    folder : mapping
        What kind of sub-folder of a study folder it reports on (``table``, ``coref``,
        ``segments``, ``senses``: :data:`corpusagree.readers.discover.KINDS`) → a function
        of the sub-folder giving its :class:`Part` s.
    data : callable, optional
        The reliability data of the job's main α: a corpus of the job (what its ``read``
        returns) → ``(ReliabilityData, distance)``, documents as the data's groups. The study
        design (``compare``, ``plan``; :mod:`corpusagree.analyses.study`) reads a job's
        files through it; None for a job whose main figure is not one α of such data.
    """

    name: str
    module: str
    kinds: tuple[str, ...]
    tasks: tuple[str, ...]
    help: str = ""
    order: int = 100
    example: tuple[str, ...] = ()
    options: tuple = ()
    folder: Mapping[str, Callable[[Path], Iterable[Part]]] = field(default_factory=dict)
    data: Callable[[object], tuple[object, str]] | None = None


def _here(name: str) -> str:
    return f"{__name__.rpartition('.')[0]}.{name}"


#: the jobs of this package, as far as they can be told without importing them; each one's
#: module completes its registration (:func:`complete`)
BUILTIN = (
    Job("table", _here("table"), kinds=("judgements",), tasks=("table",),
        help="every coefficient of a reliability-data file (CSV/TSV)", order=10,
        example=("sample_corpora/table/dialogue_acts.csv", "--group", "document")),
    Job("annotators", _here("annotators"), kinds=("judgements",), tasks=("table",),
        help="who to trust: models of the annotators, the alt-test of a model", order=20,
        example=("sample_corpora/table/dialogue_acts.csv", "--group", "document")),
    Job("coref", _here("coref"), kinds=("mentions",), tasks=("coref",),
        help="coreference agreement: α/β over chains, κ on antecedents, MUC/B³/...",
        order=30, example=("sample_corpora/coref/brat",)),
    Job("markables", _here("markables"), kinds=("mentions",), tasks=("coref",),
        help="MMAX2 markable agreement: spans per level, attribute values", order=40,
        example=("sample_corpora/coref/mmax2",)),
    Job("segments", _here("segments"), kinds=("segmentations",), tasks=("segments",),
        help="agreement between segmentation annotators", order=50,
        example=("sample_corpora/segments/segments.json",)),
    Job("senses", _here("senses"), kinds=("sense tags",), tasks=("senses",),
        help="word-sense agreement: fine, coarse, extended and multi-sense schemes", order=60,
        example=("sample_corpora/senses/sample.tsv",)),
    Job("spans", _here("spans"), kinds=("continua", "mentions", "segmentations"),
        tasks=("coref", "segments", "timeline"),
        help="span agreement without pre-set units: unitizing α and γ", order=70,
        example=("sample_corpora/coref/xmi", "--samples", "5")),
    Job("trees", _here("trees"), kinds=("trees",), tasks=("trees",),
        help="agreement on RST trees (rs3/rs4, .dis)", order=80,
        example=("sample_corpora/trees/rs3",)),
    Job("ratings", _here("ratings"), kinds=("judgements",), tasks=("table",),
        help="ICC, CCC, Bland–Altman and Kendall's W of numeric scores (CSV/TSV)", order=85,
        example=("sample_corpora/ratings/essays.csv", "--group", "document")),
    Job("relations", _here("relations"), kinds=("relations",), tasks=("relations",),
        help="agreement on relations between spans (brat, XMI, WebAnno TSV, DISRPT .rels)",
        order=90, example=("sample_corpora/relations/ann1", "sample_corpora/relations/ann2")),
)

_JOBS: dict[str, Job] = {job.name: job for job in BUILTIN}
#: the jobs of :data:`BUILTIN` whose module has not completed their registration yet
_PENDING = {job.name for job in BUILTIN}


def register(job: Job) -> Job:
    """Add ``job`` to the registry (a job of the same name is replaced) and return it.

    Parameters
    ----------
    job : Job

    Returns
    -------
    Job
    """
    _JOBS[job.name] = job
    _PENDING.discard(job.name)
    return job


def complete(name: str, **parts) -> Job:
    """The registration of the job ``name`` of :data:`BUILTIN` completed with the ``parts``
    made of its module's code (``options``, ``folder``, ``data``); called by that module.

    Parameters
    ----------
    name : str
    **parts
        Fields of :class:`Job`.

    Returns
    -------
    Job
    """
    return register(replace(_JOBS[name], **parts))


def unregister(name: str) -> None:
    """Take the job ``name`` out of the registry (a plug-in's or a test's)."""
    _JOBS.pop(name, None)


def listed() -> dict[str, Job]:
    """Every job, name → :class:`Job`, in their order, without importing their modules: a
    job of :data:`BUILTIN` whose module is not imported yet has no ``options``, ``folder``
    or ``data`` (what ``corpusagree --help`` needs is there: name, help, order).

    Returns
    -------
    dict
    """
    return dict(sorted(_JOBS.items(), key=lambda kv: kv[1].order))


def _load(name: str) -> None:
    if name in _PENDING:
        importlib.import_module(_JOBS[name].module)  # calls complete(name, ...)
        if name in _PENDING:
            raise RuntimeError(f"{_JOBS[name].module} does not complete the registration of "
                               f"the job {name!r} (JOB = complete({name!r}, options=...))")


def registered() -> dict[str, Job]:
    """Every job, name → :class:`Job`, in their order, whole (the modules of the jobs of
    :data:`BUILTIN` are imported once, and complete their registrations).

    Returns
    -------
    dict
    """
    for name in list(_PENDING):
        _load(name)
    return listed()


def get(name: str) -> Job:
    """The job ``name``, whole; an unknown name is a ValueError listing the jobs."""
    if name not in _JOBS:
        raise ValueError(f"no job {name!r}; the jobs are {', '.join(listed())}")
    _load(name)
    return _JOBS[name]


def module(name: str) -> ModuleType:
    """The module of the job ``name`` (its ``read`` and ``analyse``)."""
    return importlib.import_module(get(name).module)


def reading(kind: str) -> list[str]:
    """The jobs that accept a corpus of ``kind``, in order."""
    return [name for name, job in listed().items() if kind in job.kinds]
