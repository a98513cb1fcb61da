"""The registry of jobs: a job is one module of :mod:`corpusagree.analyses` with ``read``,
``analyse`` and its registration.

The registration says what the rest of the package needs to know of a job, so that nothing
else keeps a list of jobs: the command line's sub-commands (its own module in
:mod:`corpusagree.cli` when it has one, else one made from the registration), the parts of
``report FOLDER`` (:mod:`corpusagree.analyses.folder`), the schema's and the tests' job lists.
A job of this package is a module of :mod:`corpusagree.analyses` registered at its end in
two halves: what can be said without its code, its card (``CARD = {"name": ..., "kinds":
..., "tasks": ..., "help": ..., "order": ..., "example": ...}``, literals read from the
module's text, so that ``corpusagree --help`` lists the jobs without importing them: numpy,
scipy, spaCy …), and what is made of its code (its keyword table, the parts of a study
folder, the data of its main α, its part of the JSON Schema):
``JOB = complete(CARD["name"], options=..., folder=..., data=..., schema=...)``.
:func:`listed` gives the cards of the jobs not imported yet; :func:`registered` and
:func:`get` import the jobs' modules and give whole registrations; :func:`register` also
takes a job made elsewhere (a plug-in, a test's toy job).

>>> from corpusagree.analyses import jobs
>>> list(jobs.registered())[:3]
['table', 'annotators', 'coref']
>>> jobs.get("coref").kinds
('mentions',)
"""

from __future__ import annotations

import ast
import importlib
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the registry is imported by ``corpusagree --help``: nothing heavy
    from pathlib import Path

    from ..readers.discover import Found

__all__ = ["CARD", "Job", "Part", "cards", "complete", "get", "listed", "module", "reading",
           "register", "registered", "schema", "unregister"]


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
        This and the next three are made of the job's code: a job found by its card gets
        them from its module (:func:`complete`).
    folder : mapping
        What kind of sub-folder of a study folder it reports on (``table``, ``coref``,
        ``segments``, ``senses``: :data:`corpusagree.readers.discover.KINDS`) → a function
        of the sub-folder giving its :class:`Part` s.
    data : callable, optional
        The reliability data of the job's main α: a corpus of the job (what its ``read``
        returns) → ``(ReliabilityData, distance)``, documents as the data's groups. The study
        design (``compare``, ``plan``; :mod:`corpusagree.analyses.study`) reads a job's
        files through it; None for a job whose main figure is not one α of such data.
    schema : mapping, optional
        The job's part of the JSON Schema of the report document (draft 2020-12): the
        definition ``$defs/job_<name>``, the envelope by ``"$ref": "#/$defs/envelope"``, the
        job's ``options`` and ``body()`` keys, ``unevaluatedProperties: false``; it may refer
        to the shared definitions of ``corpusagree/report/report.schema.json``
        (:func:`corpusagree.report.schema` puts it there).
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
    schema: Mapping | None = None


#: the name a job module gives the first half of its registration: a dict of literals
#: (``name``, ``kinds``, ``tasks``, ``help``, ``order``, ``example``), without a blank line,
#: which :func:`listed` reads from the module's text without importing it
CARD = "CARD"

_JOBS: dict[str, Job] = {}
#: the cards found, as jobs (name → Job without the parts made of its code)
_CARDS: dict[str, Job] = {}
#: the jobs found by their cards whose module has not completed their registration yet
_PENDING: set[str] = set()
#: the package folders the cards were read from (a test may add one to the package's path)
_SCANNED: tuple[str, ...] = ()


def _card(path: str) -> dict | None:
    """The card of the module at ``path``, or None for a module of the package that is not
    a job (the corpus layer, this registry, the folder report)."""
    with open(path, encoding="utf-8") as f:
        text = "\n" + f.read()
    start = text.find(f"\n{CARD} = {{")
    if start < 0:
        return None
    start += len(CARD) + 4
    end = text.find("\n\n", start)
    try:
        card = ast.literal_eval(text[start:end if end >= 0 else None])
    except (ValueError, SyntaxError) as e:
        raise RuntimeError(f"{path}: {CARD} is not a dict of literals ending at a blank line "
                           f"({type(e).__name__}: {e})") from None
    if not isinstance(card, dict) or "name" not in card:
        raise RuntimeError(f"{path}: {CARD} must be a dict with a 'name'")
    return card


def _scan() -> None:
    """Read the cards of the job modules of this package (once per package path)."""
    global _SCANNED
    folders = tuple(sys.modules[__package__].__path__)
    if folders == _SCANNED:
        return
    for folder in folders:
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            stem, dot, ext = entry.name.rpartition(".")
            if ext != "py" or not dot or not stem.isidentifier() or not entry.is_file():
                continue
            card = _card(entry.path)
            if card is None or card["name"] in _JOBS:
                continue
            try:
                job = Job(module=f"{__package__}.{stem}", **card)
            except TypeError as e:  # a key that is no field, or one missing
                raise RuntimeError(f"{entry.path}: {CARD}: {e}") from None
            _CARDS[job.name] = _JOBS[job.name] = job
            _PENDING.add(job.name)
    _SCANNED = folders


def cards() -> tuple[Job, ...]:
    """The jobs of this package as their cards tell them, without importing their modules
    (no ``options``, ``folder`` or ``data`` yet), in their order.

    Returns
    -------
    tuple of Job
    """
    _scan()
    return tuple(sorted(_CARDS.values(), key=lambda job: job.order))


def register(job: Job) -> Job:
    """Add ``job`` to the registry (a job of the same name is replaced) and return it.

    Parameters
    ----------
    job : Job

    Returns
    -------
    Job
    """
    _scan()
    _JOBS[job.name] = job
    _PENDING.discard(job.name)
    return job


def complete(name: str, **parts) -> Job:
    """The registration of the job ``name``, found by its card, completed with the ``parts``
    made of its module's code (``options``, ``folder``, ``data``, ``schema``); called by
    that module: ``JOB = complete(CARD["name"], options=PARAMS, ...)``.

    Parameters
    ----------
    name : str
    **parts
        Fields of :class:`Job`.

    Returns
    -------
    Job
    """
    _scan()
    return register(replace(_JOBS[name], **parts))


def unregister(name: str) -> None:
    """Take the job ``name`` out of the registry (a plug-in's or a test's)."""
    _JOBS.pop(name, None)
    _CARDS.pop(name, None)
    _PENDING.discard(name)


def listed() -> dict[str, Job]:
    """Every job, name → :class:`Job`, in their order, without importing their modules: a
    job whose module is not imported yet is its card (:data:`CARD`), without ``options``,
    ``folder``, ``data`` or ``schema`` (what ``corpusagree --help`` needs is there: name,
    help, order).

    Returns
    -------
    dict
    """
    _scan()
    return dict(sorted(_JOBS.items(), key=lambda kv: kv[1].order))


def _load(name: str) -> None:
    if name in _PENDING:
        importlib.import_module(_JOBS[name].module)  # calls complete(name, ...)
        if name in _PENDING:
            raise RuntimeError(f"{_JOBS[name].module} does not complete the registration of "
                               f"the job {name!r} (JOB = complete({name!r}, options=...))")


def registered() -> dict[str, Job]:
    """Every job, name → :class:`Job`, in their order, whole (the modules of the jobs found
    by their cards are imported once, and complete their registrations).

    Returns
    -------
    dict
    """
    _scan()
    for name in list(_PENDING):
        _load(name)
    return listed()


def get(name: str) -> Job:
    """The job ``name``, whole; an unknown name is a ValueError listing the jobs."""
    _scan()
    if name not in _JOBS:
        raise ValueError(f"no job {name!r}; the jobs are {', '.join(listed())}")
    _load(name)
    return _JOBS[name]


def module(name: str) -> ModuleType:
    """The module of the job ``name`` (its ``read`` and ``analyse``)."""
    return importlib.import_module(get(name).module)


def schema() -> dict:
    """The JSON Schema (draft 2020-12) of the report document that ``to_json()`` and
    ``--json`` write: one report, or the list ``corpusagree report --json`` writes.

    Every document has the envelope ``corpusagree`` (the version), ``schema`` (1), ``job``,
    ``inputs``, ``options``, ``bootstrap`` and ``notes``; the parts of each job are the
    definition ``$defs/job_<job>``, selected by ``job``: the registered jobs' parts (their
    ``schema``, each module's ``SCHEMA``) beside the study commands' of the shared file
    (:func:`corpusagree.report.json.shared_schema`); the ``job`` enum and the ``allOf`` that
    selects each entry are made of them here. Shared definitions: a coefficient
    (``$defs/coefficient``, its ``id`` one of :data:`corpusagree.COEFFICIENTS`), an interval,
    a coder × coder matrix, the diagnostics, rows per document. Undefined numbers are null.

    Returns
    -------
    dict
        A fresh copy (changing it changes nothing here); give it to any draft 2020-12
        validator, e.g. ``jsonschema.Draft202012Validator(schema()).validate(document)``.

    Examples
    --------
    >>> import corpusagree as ca
    >>> s = ca.schema()
    >>> s["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    >>> s["$defs"]["report"]["properties"]["job"]["enum"][:3]
    ['table', 'annotators', 'coref']
    >>> s["$defs"]["job_coref"]["$ref"]
    '#/$defs/envelope'
    """
    from copy import deepcopy

    from ..report.json import shared_schema

    out = shared_schema()
    parts = {f"job_{name}": deepcopy(dict(job.schema))
             for name, job in registered().items() if job.schema is not None}
    defs: dict = {}
    for key, value in out["$defs"].items():  # the jobs' parts before the study commands'
        if key.startswith("job_") and parts:
            defs.update(parts)
            parts = {}
        defs[key] = value
    out["$defs"] = {**defs, **parts}
    report = out["$defs"]["report"]
    names = [k.removeprefix("job_") for k in out["$defs"] if k.startswith("job_")]
    report["properties"]["job"]["enum"] = names
    report["allOf"] = [{"if": {"properties": {"job": {"const": name}}},
                        "then": {"$ref": f"#/$defs/job_{name}"}} for name in names]
    return out


def reading(kind: str) -> list[str]:
    """The jobs that accept a corpus of ``kind``, in order."""
    return [name for name, job in listed().items() if kind in job.kinds]
