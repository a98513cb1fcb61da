"""What a folder holds, for the ``report`` job: which job's data, in which format, laid out how.

A study folder's sub-folders each hold one job's data, whatever their names (``sample_corpora/``
is one: ``table/``, ``coref/``, ``segments/``, ``senses/``). :func:`units` finds them;
for each, :func:`inputs` says what to read — a :class:`Found` with the format, the paths as the
job's ``read`` takes them (one per annotator, the data XML then the key folder …), the reader
options and analysis options that the files themselves imply (a wide table, a numeric label
column, a weight matrix beside the data, sense inventories), and a note when the choice needs
one. The layouts are the formats' own (:mod:`corpusagree.readers._paths`): nothing here reads
annotations.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..model import io
from ..model.corpus import natural_key
from ..model.errors import InputError
from . import _paths, detect, get, judged, resolve

#: the kinds of data a folder may hold, in the order the report gives them
KINDS = ("table", "judgements", "coref", "segments", "senses", "relations", "timeline")
#: kinds whose readers take one folder per annotator (tried in this order: a relations format
#: that also holds mentions, as brat, is a coreference folder)
ANNOTATOR_FOLDERS = ("coref", "segments", "relations")
#: name endings of reliability-data files
TABLE_SUFFIXES = (".csv", ".tsv")
#: the name ending (before the suffix) of the weight matrix of a reliability-data file
WEIGHTS = ".weights"
#: (sub-folder, format) of a corpus kept in several formats, as ``sample_corpora/coref/``,
#: tried in order (CorefUD keeps discontinuous mentions and heads; the formats agree)
SAMPLE_FORMATS = (("corefud", "corefud"), ("conll2012", "conll"), ("mmax2", "mmax2"),
                  ("brat", "brat"), ("xmi", "xmi"))
#: segmentation formats whose one file holds several annotators
MULTI_ANNOTATOR = ("segeval", "positions")


@dataclass
class Found:
    """One job's inputs in a folder: ``format``, ``paths`` as the job's ``read`` takes them,
    ``reader_options`` and ``analysis`` options the files imply, and a ``note`` on the
    choice (None when there is nothing to say)."""

    kind: str
    format: str
    paths: list[Path]
    reader_options: dict = field(default_factory=dict)
    analysis: dict = field(default_factory=dict)
    note: str | None = None


def _format(task: str, path: Path) -> str | None:
    """The format of ``task`` that ``path`` is recognised as, or None."""
    try:
        return detect(task, path)
    except InputError:
        return None


#: the files of a folder :func:`folder_format` sniffs, at most, when the folder as a whole is
#: not recognised
SNIFFED_FILES = 10


def folder_format(task: str, folder: Path) -> str | None:
    """The format of ``task`` that ``folder`` is recognised as: as a whole (its readers'
    sniffers look into folders), else as its first file that is (of the first
    :data:`SNIFFED_FILES`, in natural order): an export in one file, such as Label Studio's
    JSON or INCEpTION's agreement diff, is recognised by its file."""
    fmt = _format(task, folder)
    if fmt is not None or not Path(folder).is_dir():
        return fmt
    files = _paths.files(folder, _paths.visible, recursive=False)[:SNIFFED_FILES]
    return next((f for f in (_format(task, p) for p in files) if f is not None), None)


# ---- reliability-data tables -------------------------------------------------------------------
def table_files(folder: Path) -> list[Path]:
    """The reliability-data files directly in ``folder``, in natural order: ``.csv``/``.tsv``
    files whose header has the columns coder, item and label (the long layout), or starts with
    a coder column (the wide layout, ``coder,item1,item2,…``); not ``X.weights.csv``, the
    weight matrix of ``X.csv``, nor segeval's ``Coder,Masses`` and ``Coder,Positions``
    files."""
    out = []
    for f in sorted(Path(folder).iterdir(), key=lambda p: natural_key(p.name)):
        if not f.is_file() or f.name.startswith(".") or \
                f.suffix.lower() not in TABLE_SUFFIXES or f.stem.lower().endswith(WEIGHTS):
            continue
        if table_layout(f) is not None:
            out.append(f)
    return out


def table_layout(path: Path, coder: str = "coder", item: str = "item",
                 label: str = "label") -> str | None:
    """``"long"`` when the header of ``path`` has the coder, item and label columns, ``"wide"``
    when its first cell is a coder column (and the file is not segeval's ``Coder,Masses`` or
    ``Coder,Positions``), else None."""
    header = _header(path)
    if {coder, item, label} <= set(header):
        return "long"
    if len(header) >= 2 and header[0].lower() == coder.lower() and \
            header[1].lower() not in ("masses", "positions"):
        return "wide"
    return None


def _header(path: Path) -> list[str]:
    """The cells of a file's first line, split on its tab, comma or semicolon (none for a
    device or a pipe, which the reader then refuses: opening a pipe nobody writes to waits
    for ever)."""
    if not Path(path).is_file():
        return []
    try:
        with open(path, "rb") as fh:
            first = fh.readline(65536).decode("utf-8-sig", "replace").strip()
    except OSError:
        return []
    sep = next((c for c in "\t,;" if c in first), ",")
    return [c.strip().strip('"') for c in first.split(sep)]


def table_inputs(path: Path) -> Found:
    """How to read one reliability-data file, read off the file itself: the long layout when
    the header has coder/item/label (group column ``document`` if present), else wide; the
    interval distance when every label is a number; ``X.weights.csv`` beside ``X.csv`` is its
    weight matrix; a long table with a ``run`` column holds repeated runs of the coders
    (reader option ``run``)."""
    rows = [r for _, r in io.read_table(path)]
    header = [h.strip() for h in rows[0]] if rows else []
    long = {"coder", "item", "label"} <= set(header)
    at = header.index("label") if long else 0
    # a row too short for its label is left to the reader, which names its line
    cells = [r[at] for r in rows[1:] if len(r) > at] if long else \
        [c for r in rows[1:] for c in r[1:]]
    numeric = all(io.is_number_text(c) for c in cells if c.strip())
    weights = path.with_name(path.stem + WEIGHTS + path.suffix)
    has_weights = io.regular(weights)
    options = {"group": "document" if "document" in header else None,
               "numeric": numeric and not has_weights,
               "run": "run" if long and "run" in header else None}
    return Found("table", "long" if long else "wide", [path],
                 {k: v for k, v in options.items() if v},
                 {"distance": "interval" if numeric else "nominal",
                  "weights": weights if has_weights else None})


# ---- the judgements of annotation platforms' exports --------------------------------------------
#: the platforms whose exports may hold judgements beside spans, and so say what they hold
#: (their reader module's ``contents``); the others' exports hold judgements only
MIXED = ("labelstudio", "prodigy", "doccano", "argilla")


def _contents(fmt: str, path: Path) -> dict[str, list[str]]:
    """What a platform's export holds (``spans``, ``judgements``: each with its controls or
    questions), read off the export once while it is unchanged; an export that cannot be
    read holds judgements (its reader then names the problem)."""
    if fmt not in MIXED:
        return {"judgements": []}
    try:
        stat = Path(path).stat()
        return _contents_of(fmt, Path(path), stat.st_mtime_ns, stat.st_size)
    except (InputError, OSError):
        return {"judgements": []}


@lru_cache(maxsize=256)
def _contents_of(fmt: str, path: Path, mtime: int, size: int) -> dict[str, list[str]]:
    return judged.module(fmt).contents(path)


def _platform_exports(folder: Path) -> list[tuple[Path, str]]:
    """``(path, format)`` of the platforms' exports in ``folder``: the folder itself when it
    is a dataset saved to disk or a folder of Parquet files, else its files each (the files of
    doccano's users as one path, the folder, when they are all its ``.jsonl`` files)."""
    folder = Path(folder)
    if folder.is_dir() and judged.module("hf").sniff(folder):
        return [(folder, "hf")]
    found = [(f, fmt) for f in _paths.files(folder, _paths.visible, recursive=False)
             if (fmt := judged.platform(f)) is not None]
    users = [f for f, fmt in found if fmt == "doccano"]
    jsonl = [f for f in _paths.files(folder, _paths.visible, recursive=False)
             if f.suffix.lower() == ".jsonl"]
    if len(users) >= 2 and users == jsonl:
        found = [(folder, "doccano")] + [(f, fmt) for f, fmt in found if fmt != "doccano"]
    return found


def judgement_inputs(folder: Path) -> tuple[list[Found], list[str]]:
    """The judgements of the platforms' exports in ``folder`` (:data:`corpusagree.readers.
    judged.PLATFORMS`: Label Studio's choices, taxonomy, rating and number controls, Prodigy's
    textcat and choice examples, doccano's text classification, Argilla's responses, a
    Hugging Face dataset's coder/item/label columns), one :class:`Found` for each control or
    question, with the interval distance when every label is a number; and a note for each
    export that holds judgements which cannot be read without options (a dataset whose
    columns are not named coder, item and label …), with the reader's reason. An export of
    spans only holds none.

    The exports are read once for as long as the folder's files are unchanged.

    Examples
    --------
    >>> found, notes = judgement_inputs(Path("docs/formats/table/labelstudio"))
    >>> [(f.format, f.reader_options, f.analysis["distance"]) for f in found]
    [('labelstudio', {'label': 'sentiment'}, 'nominal'),
     ('labelstudio', {'label': 'quality'}, 'interval')]
    """
    folder = Path(folder)
    try:
        stamp = tuple((f.name, f.stat().st_mtime_ns, f.stat().st_size)
                      for f in folder.iterdir())
    except OSError:
        return [], []
    found, notes = _judgement_inputs(folder, stamp)
    return list(found), list(notes)


@lru_cache(maxsize=64)
def _judgement_inputs(folder: Path, stamp: tuple) -> tuple[tuple[Found, ...], tuple[str, ...]]:
    found: list[Found] = []
    notes: list[str] = []
    for path, fmt in _platform_exports(folder):
        questions = _contents(fmt, path).get("judgements")
        if questions is None:
            continue
        for q in questions or [None]:
            options = {} if q is None else {"label": q}
            try:
                data = judged.read(path, fmt, **options)
            except InputError as e:
                what = f"{q!r} of " if q else ""
                notes.append(f"not reported: the judgements of {what}{path} ({fmt}): "
                             f"{str(e).splitlines()[0]}")
                continue
            numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool)
                          for v in data.labels)
            found.append(Found("table", fmt, [path], options,
                               {"distance": "interval" if numeric else "nominal"}))
    return tuple(found), tuple(notes)


def holds_spans(folder: Path, fmt: str) -> bool:
    """Whether the files of ``folder`` that a platform's span format ``fmt`` takes hold
    spans (any other format: True): an export of judgements only is no span data.

    >>> holds_spans(Path("docs/formats/table/labelstudio"), "labelstudio")
    False
    """
    if fmt not in MIXED:
        return True
    sniff = get("coref", fmt).sniff
    return any("spans" in _contents(fmt, f)
               for f in _paths.files(folder, sniff, recursive=False))


# ---- coreference -------------------------------------------------------------------------------
def coref_inputs(folder: Path) -> Found | None:
    """The coreference annotations of a folder: its first format sub-folder if it is like
    ``sample_corpora/coref/`` (:data:`SAMPLE_FORMATS`: they hold the same annotations, which
    the note says), else its files (two or more), or else sub-folders, as the annotators of
    one format; None when it holds none."""
    folder = Path(folder)
    for sub, fmt in SAMPLE_FORMATS:
        path = folder / sub
        if not path.is_dir():
            continue
        sniff = get("coref", fmt).sniff
        paths = sorted(f for f in path.iterdir() if f.is_file() and sniff(f)) \
            if get("coref", fmt).layout == "path" else [path]
        if paths:
            return Found("coref", fmt, paths, note=f"sample corpus read from {path} ({fmt}); "
                         "the other format folders hold the same annotations")
    fmt = folder_format("coref", folder)
    if fmt is None or not holds_spans(folder, fmt):
        return None
    sniff = get("coref", fmt).sniff
    files = _paths.files(folder, sniff, recursive=False)
    paths = files if len(files) >= 2 else \
        [d for d in _paths.subfolders(folder) if sniff(d)] or [folder]
    return Found("coref", fmt, paths)


def mmax2_projects(folder: Path) -> Found | None:
    """The MMAX2 projects of ``folder``, or else of its first sub-folder holding some (e.g.
    ``sample_corpora/coref/mmax2``); None when there are none."""
    sniff = get("coref", "mmax2").sniff
    folder = Path(folder)
    for candidate in (folder, *_paths.subfolders(folder)):
        if candidate.is_dir() and sniff(candidate):
            return Found("coref", "mmax2", [candidate])
    return None


# ---- segmentations -----------------------------------------------------------------------------
def own_segment_files(folder: Path) -> Found | None:
    """The segeval or positions files directly in ``folder`` (the first such format), or
    None."""
    found: dict[str, list[Path]] = defaultdict(list)
    for f in sorted(Path(folder).iterdir(), key=lambda p: natural_key(p.name)):
        if f.is_file() and not f.name.startswith("."):
            fmt = next((n for n in MULTI_ANNOTATOR if get("segments", n).sniff(f)), None)
            if fmt is not None:
                found[fmt].append(f)
    return next((Found("segments", fmt, paths) for fmt, paths in found.items()), None)


def segment_inputs(folder: Path) -> Found | None:
    """The segmentations a folder holds, whatever its name: its own segeval or positions files
    (:func:`own_segment_files`), else the folder as annotator folders of one format; None when
    it holds none."""
    folder = Path(folder)
    own = own_segment_files(folder)
    if own is not None:
        return own
    fmt = _format("segments", folder)
    return None if fmt is None else Found("segments", fmt, [folder])


def tree_inputs(folder: Path) -> Found | None:
    """The RST trees a folder of annotator folders holds (rs3/rs4, ``.dis``), or None (also
    when the folder's own files are segmentations of every annotator)."""
    if own_segment_files(Path(folder)) is not None:
        return None
    fmt = _format("trees", Path(folder))
    return None if fmt is None else Found("trees", fmt, [Path(folder)])


def span_inputs(folder: Path) -> Found | None:
    """The spans of a folder: its coreference annotations (:func:`coref_inputs`), else its
    segmentations (:func:`segment_inputs`); None when it holds neither."""
    return coref_inputs(folder) or segment_inputs(folder)


# ---- relations -------------------------------------------------------------------------------
def relation_inputs(folder: Path) -> Found | None:
    """The relations of a folder (DISRPT ``.rels`` files, or another relations format): its
    sub-folders that hold that format as its annotators when there are two or more, else the
    folder itself (one folder per annotator, or files that name their annotators); None when
    it holds none.

    Examples
    --------
    >>> found = relation_inputs(Path("tests/data/fuzz/rels"))
    >>> found.format, [p.name for p in found.paths]
    ('disrpt', ['a', 'b'])
    """
    folder = Path(folder)
    fmt = _format("relations", folder)
    if fmt is None:
        return None
    sniff = get("relations", fmt).sniff
    annotators = [d for d in _paths.subfolders(folder) if sniff(d)]
    return Found("relations", fmt, annotators if len(annotators) >= 2 else [folder])


# ---- time-aligned annotations -----------------------------------------------------------------
def timeline_inputs(folder: Path) -> Found | None:
    """The time-aligned annotations of a folder (ELAN, TextGrid, RTTM): its files of the
    format it is recognised as (each as its reader takes a file: the tiers of an ELAN or
    TextGrid file are its annotators, an RTTM file is one); None when it holds none.

    Examples
    --------
    >>> found = timeline_inputs(Path("docs/formats/timeline/rttm"))
    >>> found.format, [p.name for p in found.paths]
    ('rttm', ['ann1.rttm', 'ann2.rttm'])
    """
    folder = Path(folder)
    fmt = folder_format("timeline", folder)
    if fmt is None:
        return None
    files = _paths.files(folder, get("timeline", fmt).sniff, recursive=False)
    return Found("timeline", fmt, files or [folder])


# ---- word senses -------------------------------------------------------------------------------
def sense_sets(folder: Path) -> tuple[list[Found], list[Path]]:
    """Annotation sets and inventories in a folder laid out like ``sample_corpora/senses/``:
    Raganato or Senseval XML with the key files in ``keys/`` (or in the folder's only other
    sub-folder, whatever its name), long TSV, WSbest or ``.sense`` files beside; inventories
    are the entries named ``inventor*`` (a folder of OntoNotes XML, or TSV/XML files)."""
    folder = Path(folder)
    sets: list[Found] = []
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    inventories = [p for p in entries if p.name.lower().startswith("inventor")]
    others = [p for p in entries if p.is_dir() and p not in inventories]
    keys = folder / "keys" if (folder / "keys").is_dir() else \
        others[0] if len(others) == 1 else None
    for f in (p for p in entries if p.is_file() and p not in inventories):
        fmt = _format("senses", f)
        if fmt is None:
            continue
        if get("senses", fmt).layout == "paired":
            if keys is not None:
                sets.append(Found("senses", fmt, [f, keys]))
        else:
            sets.append(Found("senses", fmt, [f]))
    return sets, inventories


def sense_format(paths: list[Path], input_format: str = "auto") -> str:
    """The format to read sense ``paths`` with: ``input_format`` when given, else the one the
    first file of the first path is recognised as (Raganato and Senseval key files are not)."""
    if not paths:
        raise InputError("no input files")
    if not paths[0].exists():
        raise InputError("no such file or folder", paths[0])
    first = _paths.files(paths[0], _paths.visible, recursive=False)
    return resolve("senses", first[:1] or paths[:1], input_format)


# ---- a study folder ----------------------------------------------------------------------------
def own_kind(folder: Path) -> tuple[str, set[Path]] | None:
    """What the files directly in ``folder`` hold — ``table`` (:func:`table_files`), ``senses``
    (:func:`sense_sets`) or ``segments`` (:func:`own_segment_files`) — with the sub-folders
    those data take along (the key folder and inventories of sense annotations); None when
    they hold none."""
    folder = Path(folder)
    if table_files(folder):
        return "table", set()
    sets, inventories = sense_sets(folder)
    if sets:
        return "senses", {p for s in sets for p in s.paths} | set(inventories)
    if own_segment_files(folder) is not None:
        return "segments", set()
    return None


def kind(folder: Path) -> str | None:
    """What ``folder`` holds: its own files' kind (:func:`own_kind`), else ``coref`` (a
    coreference or span format, in it or in a sub-folder), ``timeline`` (ELAN, TextGrid,
    RTTM), ``judgements`` (platforms' exports of judgements only:
    :func:`judgement_inputs`; an export of spans and judgements is ``coref``, and
    :func:`corpusagree.analyses.folder.parts` adds its judgements), ``segments`` (a
    segmentation format) or ``relations`` (a relations format that
    neither takes, such as DISRPT ``.rels``), or None.
    Coreference comes first: its folders hold text files that the plain-text segmentation
    reader would also take."""
    folder = Path(folder)
    own = own_kind(folder)
    if own is not None:
        return own[0]
    fmt = folder_format("coref", folder)
    if fmt and holds_spans(folder, fmt) or \
            any(_format("coref", d) for d in _paths.subfolders(folder)):
        return "coref"
    if folder_format("timeline", folder):
        return "timeline"
    if any(judgement_inputs(folder)):
        return "judgements"
    if _format("segments", folder):
        return "segments"
    if _format("relations", folder):
        return "relations"
    return None


def _annotators_of(folders: list[Path]) -> str | None:
    """The kind of a folder whose sub-folders ``folders`` (two or more) are the annotators of
    one format: each holds that format's files directly."""
    if len(folders) < 2:
        return None
    for task in ANNOTATOR_FOLDERS:
        fmts = {_format(task, d) for d in folders}
        if len(fmts) == 1 and None not in fmts:
            sniff = get(task, fmts.pop()).sniff
            if all(any(f.is_file() and sniff(f) for f in d.iterdir()) for d in folders):
                return task
    return None


def units(root: Path) -> tuple[dict[Path, str], list[Path]]:
    """The folders of a study to report on, with their kinds, and the sub-folders holding
    nothing readable: ``root`` itself for its own files (:func:`own_kind`), its sub-folders
    (but those its own data take along) each by :func:`kind`; ``root`` alone when its
    sub-folders are the annotators of one format, or when none of them holds data but ``root``
    as a whole does. A sub-folder that cannot be listed is named as holding nothing
    readable."""
    root = Path(root)
    folders = _paths.subfolders(root)
    own = own_kind(root)
    if own is None and (k := _annotators_of(folders)) is not None:
        return {root: k}, []
    found = {root: own[0]} if own else {}
    taken = own[1] if own else set()
    kinds: dict[Path, str | None] = {}
    for d in folders:
        if d in taken:
            continue
        try:
            kinds[d] = kind(d)
        except (OSError, InputError):
            kinds[d] = None
    found.update((d, k) for d, k in kinds.items() if k is not None)
    if not found and (k := kind(root)) is not None:
        return {root: k}, []
    return found, [d for d, k in kinds.items() if k is None]


__all__ = ["ANNOTATOR_FOLDERS", "KINDS", "MIXED", "MULTI_ANNOTATOR", "SAMPLE_FORMATS",
           "SNIFFED_FILES", "TABLE_SUFFIXES", "WEIGHTS", "Found", "coref_inputs",
           "folder_format", "holds_spans", "judgement_inputs", "kind",
           "mmax2_projects", "own_kind", "own_segment_files", "relation_inputs",
           "segment_inputs", "sense_format", "sense_sets", "span_inputs", "table_files",
           "table_inputs", "table_layout", "timeline_inputs", "tree_inputs", "units"]
