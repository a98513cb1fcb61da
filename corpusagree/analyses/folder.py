"""Every job on a folder whose sub-folders each hold one job's data, whatever their names.

What a sub-folder holds is recognised by sniffing (:func:`kind`): reliability-data files
(``table``), a coreference format (``coref``, ``markables`` when it is MMAX2, and ``spans`` on
its mentions), sense annotations (``senses``), or a segmentation format (``segments``, and
``spans`` on its segments). ``sample_corpora/`` is such a
folder (``table/``, ``coref/``, ``segments/``, ``senses/``); so is a project folder with
``agreement/x.tsv`` and ``chains/ann1``, ``chains/ann2``. A folder whose own sub-folders are the
annotators of one format (``brat/ann1``, ``brat/ann2``) is one job's data itself. Each job
module's ``from_folder`` says what it reads in its folder; a sub-folder that holds nothing
readable is named in a note.
"""

from __future__ import annotations

from pathlib import Path

from .. import readers
from ..model.errors import InputError
from ..readers._paths import subfolders
from ..stats.inference import Bootstrap
from . import coref, markables, segments, senses, spans, table
from .base import Report

#: what a folder may hold, in the order the reports come, with the jobs run on it
KINDS = {"table": (table,), "coref": (coref, markables, spans), "segments": (segments, spans),
         "senses": (senses,)}
#: kinds whose readers take one folder per annotator
ANNOTATOR_FOLDERS = ("coref", "segments")


def _format(task: str, path: Path) -> str | None:
    """The format of ``task`` that ``path`` is recognised as, or None."""
    try:
        return readers.detect(task, path)
    except InputError:
        return None


def own_kind(folder: Path) -> tuple[str, set[Path]] | None:
    """What the files directly in ``folder`` hold — ``table``
    (:func:`corpusagree.analyses.table.table_files`), ``senses``
    (:func:`corpusagree.analyses.senses.discover`) or ``segments`` (segeval or positions files,
    :func:`corpusagree.analyses.segments.own_files`) — with the sub-folders that data take
    along (the key folder and inventories of sense annotations); None when they hold none."""
    folder = Path(folder)
    if table.table_files(folder):
        return "table", set()
    sets, inventories = senses.discover(folder)
    if sets:
        return "senses", {p for paths, _ in sets for p in paths} | set(inventories)
    if segments.own_files(folder) is not None:
        return "segments", set()
    return None


def kind(folder: Path) -> str | None:
    """What ``folder`` holds: its own files' kind (:func:`own_kind`), else ``coref`` (a
    coreference format, in it or in a sub-folder) or ``segments`` (a segmentation format), or
    None. Coreference comes first: its folders hold text files that the plain-text
    segmentation reader would also take."""
    folder = Path(folder)
    own = own_kind(folder)
    if own is not None:
        return own[0]
    if _format("coref", folder) or any(_format("coref", d) for d in subfolders(folder)):
        return "coref"
    if _format("segments", folder):
        return "segments"
    return None


def _annotators_of(folders: list[Path]) -> str | None:
    """The kind of a folder whose sub-folders ``folders`` (two or more) are the annotators of
    one format: each holds that format's files directly."""
    if len(folders) < 2:
        return None
    for task in ANNOTATOR_FOLDERS:
        fmts = {_format(task, d) for d in folders}
        if len(fmts) == 1 and None not in fmts:
            sniff = readers.get(task, fmts.pop()).sniff
            if all(any(f.is_file() and sniff(f) for f in d.iterdir()) for d in folders):
                return task
    return None


def units(root: Path) -> tuple[dict[Path, str], list[Path]]:
    """The folders to report on, with their kinds, and the sub-folders holding nothing
    readable: ``root`` itself for its own files (:func:`own_kind`), its sub-folders (but those
    its own data take along) each by :func:`kind`; ``root`` alone when its sub-folders are the
    annotators of one format, or when none of them holds data but ``root`` as a whole does."""
    root = Path(root)
    folders = subfolders(root)
    own = own_kind(root)
    if own is None and (k := _annotators_of(folders)) is not None:
        return {root: k}, []
    found = {root: own[0]} if own else {}
    taken = own[1] if own else set()
    kinds = {d: kind(d) for d in folders if d not in taken}
    found.update((d, k) for d, k in kinds.items() if k is not None)
    if not found and (k := kind(root)) is not None:
        return {root: k}, []
    return found, [d for d, k in kinds.items() if k is None]


def analyse(root: Path, bootstrap: Bootstrap | None = None, *,
            diagnostics: int | None = None) -> list[Report]:
    """The reports of every job on the data of ``root`` (see :func:`units`), in the order of
    :data:`KINDS`; a note on the first report names the sub-folders holding nothing
    readable. ``diagnostics`` = N adds each job's diagnostics with its N costliest items
    (and the figures per document or lemma where a job gives them only then)."""
    root = Path(root)
    found, unread = units(root)
    out: list[Report] = []
    for name, jobs in KINDS.items():
        for folder in (f for f, k in found.items() if k == name):
            for job in jobs:
                out += job.from_folder(folder, bootstrap, diagnostics=diagnostics)
    if not out:
        raise InputError("nothing to report: no sub-folder holds reliability data (.csv/.tsv "
                         "with coder, item, label), coreference, segmentation or sense "
                         "annotations that corpusagree reads", root)
    if unread:
        out[0].notes.append(f"not reported: {', '.join(f'{d.name}/' for d in unread)} in {root} "
                            "(no reliability data, coreference, segmentation or sense "
                            "annotations that corpusagree reads)")
    return out
