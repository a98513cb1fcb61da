"""Every job on a study folder whose sub-folders each hold one job's data, whatever their names.

What a sub-folder holds is recognised by the readers (:func:`corpusagree.readers.discover.
units`): reliability-data files (``table``), a coreference format (``coref``, ``markables`` when
it is MMAX2, and ``spans`` on its mentions), sense annotations (``senses``), or a segmentation
format (``segments``; ``trees`` too for RST trees; not ``spans``: segments tile the text),
or relations that no other kind takes, such as DISRPT ``.rels`` in annotator folders
(``relations``).
The judgements of annotation platforms' exports (Label Studio's choices and ratings,
Prodigy's textcat, doccano's classification, Argilla's responses, a Hugging Face dataset) go
to the ``table`` job, and to ``ratings`` when they are numbers, also beside the spans of the
same export (:func:`corpusagree.readers.discover.judgement_inputs`).
``sample_corpora/`` is such a folder (``table/``, ``coref/``, ``segments/``, ``senses/``,
``trees/``); so is a project folder with ``agreement/x.tsv`` and ``chains/ann1``,
``chains/ann2``. Each job runs through its own ``read`` and ``analyse``, with the figures per
document (lemma) and the job's defaults for a report (which jobs report on which kind of
sub-folder, and with what, their registrations say: :attr:`corpusagree.analyses.jobs.Job.
folder`); a part that cannot be read or analysed
becomes a note naming it and why, and the others still run (``strict=True``: the first such
part is an error).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from ..model.errors import InputError
from ..model.progress import Progress
from ..readers import discover
from ..readers.discover import Found
from ..report.document import Report
from ..stats.inference import Bootstrap
from . import jobs

__all__ = ["Part", "analyse", "parts"]


@dataclass
class Part:
    """One job on one folder's data.

    Attributes
    ----------
    job : str
        The job's name (``coref``, ``segments`` …: :mod:`corpusagree.analyses.jobs`).
    found : Found
        What to read: the paths and the reader's options.
    options : dict
        The options of ``analyse`` for a report (over which the user's ``diagnostics`` go).
    detail : dict
        Options turned on only when the user asks for diagnostics (costly parts).
    """

    job: str
    found: Found
    options: dict = field(default_factory=dict)
    #: options turned on only when the user asks for diagnostics (costly parts)
    detail: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The job's name (``coref``, ``segments`` …)."""
        return self.job

    @property
    def module(self) -> ModuleType:
        """The job's module: its ``read`` and ``analyse``."""
        return jobs.module(self.job)


def _parts_of(folder: Path, kind: str) -> Iterator[Part]:
    """The parts of every job that reports on a sub-folder of ``kind``, in the jobs' order
    (:attr:`corpusagree.analyses.jobs.Job.folder`)."""
    for name, job in jobs.registered().items():
        if kind in job.folder:
            for p in job.folder[kind](folder):
                yield Part(name, p.found, dict(p.options), dict(p.detail))


def parts(root: Path) -> tuple[list[Part], list[str]]:
    """The parts of a study folder (see the module docstring), in the order of the kinds of
    sub-folder (:data:`corpusagree.readers.discover.KINDS`) and of the jobs,
    and notes on the sub-folders that hold nothing readable or cannot be listed."""
    root = Path(root)
    found, unread = discover.units(root)
    out: list[Part] = []
    notes: list[str] = []
    judged = {f: discover.judgement_inputs(f) for f in found}
    for kind in discover.KINDS:
        # the judgements of a folder of another kind too (a Label Studio export of spans
        # and choices)
        for folder in (f for f, k in found.items() if k == kind or
                       kind == "judgements" and judged[f][0]):
            try:
                out += list(_parts_of(folder, kind))
            except (InputError, OSError) as e:
                notes.append(f"not reported: {folder}: {_why(e)}")
    notes += [n for f in found for n in judged[f][1]]
    if unread:
        notes.append(f"not reported: {', '.join(f'{d.name}/' for d in unread)} in {root} "
                     "(no reliability data, coreference, segmentation, sense or relation "
                     "annotations that corpusagree reads)")
    return out, notes


def analyse(root: Path, bootstrap: Bootstrap | None = None, *,
            diagnostics: int | None = None, strict: bool = False,
            progress: Callable[[str, int, int], Progress | None] | None = None
            ) -> list[Report]:
    """The reports of every job on the data of a study folder.

    Parameters
    ----------
    root : path
        The study folder (see the module docstring).
    bootstrap : Bootstrap, optional
        Intervals for every job.
    diagnostics : int, optional
        Each job's diagnostics with its N costliest items.
    strict : bool
        A part that cannot be read or analysed is an error (default: a note on the first
        report naming it and why; the other parts still run).
    progress : callable, optional
        ``progress(what, k, n)`` before part ``k`` of ``n`` (``what`` names the job and the
        folder); it returns the ``progress(done, total)`` callback for that part's analysis,
        or None.

    Returns
    -------
    list of Report

    Raises
    ------
    InputError
        Nothing in the folder could be reported (every reason listed), or with ``strict``
        the first part that failed.

    Examples
    --------
    >>> import pathlib, shutil, tempfile
    >>> from corpusagree.analyses import folder
    >>> study = pathlib.Path(tempfile.mkdtemp())
    >>> _ = shutil.copytree("sample_corpora/table", study / "agreement")
    >>> _ = shutil.copytree("sample_corpora/senses", study / "wsd")
    >>> [(r.job, pathlib.Path(r.inputs[0]).name) for r in folder.analyse(study)]
    [('table', 'dialogue_acts.csv'), ('table', 'essay_marks_wide.csv'),
     ('table', 'sentiment_runs.csv'), ('annotators', 'dialogue_acts.csv'),
     ('ratings', 'essay_marks_wide.csv'),
     ('senses', 'sample.data.xml'),
     ('senses', 'sample.tsv')]
    """
    root = Path(root)
    todo, notes = parts(root)
    if strict and notes:
        raise InputError(notes[0].removeprefix("not reported: "), root)
    out: list[Report] = []
    errors: list[InputError] = []
    for k, part in enumerate(todo):
        where = ", ".join(map(str, part.found.paths))
        step = progress(f"{part.name}: {_short(where)}", k, len(todo)) if progress else None
        try:
            corpus = part.module.read(part.found.paths, input_format=part.found.format,
                                   **part.found.reader_options)
            options = {**part.options} if diagnostics is None else \
                {**part.options, **part.detail, "diagnostics": diagnostics}
            report = part.module.analyse(corpus, bootstrap=bootstrap, progress=step, **options)
        except InputError as e:
            if strict:
                raise
            errors.append(e)
            notes.append(f"not reported: {part.name} on {where}: {_why(e)}")
            continue
        if part.found.note:
            report.notes.insert(0, part.found.note)
        out.append(report)
    if not out:
        if errors and len(notes) == len(errors) and len({str(e) for e in errors}) == 1:
            # the one file there was (read by each of its jobs): its own error, naming it
            raise errors[0]
        why = "; ".join(notes) or ("no sub-folder holds reliability data (.csv/.tsv with "
                                   "coder, item, label), coreference, segmentation or sense "
                                   "annotations that corpusagree reads")
        raise InputError(f"nothing to report: {why}", root)
    out[0].notes.extend(notes)
    return out


def _why(e: Exception) -> str:
    """An error as one short line: its message with the file it names."""
    text = str(e) if isinstance(e, InputError) else f"{type(e).__name__}: {e}"
    line = text.splitlines()[0] if text else type(e).__name__
    return line if len(line) <= 200 else line[:199] + "…"


def _short(text: str, n: int = 40) -> str:
    return text if len(text) <= n else "…" + text[-(n - 1):]
