"""The registry of jobs: a job is one module of :mod:`corpusagree.analyses` with ``read``,
``analyse`` and a registration, ``JOB = register(Job(...))``.

The registration says what the rest of the package needs to know of a job, so that nothing
keeps a list of jobs by hand: the command line's sub-commands (its own module in
:mod:`corpusagree.cli` when it has one, else one made from the registration), the parts of
``report FOLDER`` (:mod:`corpusagree.analyses.folder`), the schema's and the tests' job lists.
:func:`registered` imports every module of the package once and gives the jobs in their
order; :func:`register` also takes a job made elsewhere (a plug-in, a test's toy job).

>>> from corpusagree.analyses import jobs
>>> list(jobs.registered())[:3]
['table', 'annotators', 'coref']
>>> jobs.get("coref").kinds
('mentions',)
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from ..readers.discover import Found

__all__ = ["Job", "Part", "get", "module", "reading", "register", "registered",
           "unregister"]

#: the modules of :mod:`corpusagree.analyses` that are not jobs
NOT_JOBS = frozenset({"base", "corpora", "diagnose", "folder", "jobs", "study"})


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


_JOBS: dict[str, Job] = {}
_LOADED = False


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
    return job


def unregister(name: str) -> None:
    """Take the job ``name`` out of the registry (a plug-in's or a test's)."""
    _JOBS.pop(name, None)


def registered() -> dict[str, Job]:
    """Every job, name → :class:`Job`, in their order (the modules of
    :mod:`corpusagree.analyses` are imported once, and register themselves).

    Returns
    -------
    dict
    """
    global _LOADED
    if not _LOADED:
        package = importlib.import_module(__name__.rpartition(".")[0])
        for m in pkgutil.iter_modules(package.__path__):
            if m.name not in NOT_JOBS:
                importlib.import_module(f"{package.__name__}.{m.name}")
        _LOADED = True
    return dict(sorted(_JOBS.items(), key=lambda kv: kv[1].order))


def get(name: str) -> Job:
    """The job ``name``; an unknown name is a ValueError listing the jobs."""
    jobs = registered()
    if name not in jobs:
        raise ValueError(f"no job {name!r}; the jobs are {', '.join(jobs)}")
    return jobs[name]


def module(name: str) -> ModuleType:
    """The module of the job ``name`` (its ``read`` and ``analyse``)."""
    return importlib.import_module(get(name).module)


def reading(kind: str) -> list[str]:
    """The jobs that accept a corpus of ``kind``, in order."""
    return [name for name, job in registered().items() if kind in job.kinds]
