"""The corpus layer: what the jobs do before their analysis, written once.

Reading through the readers' registry (the format recognised or checked, the paths checked,
the hint that a folder is one annotator in a format with one path per annotator, notes on
the reader options a job sets by default); one reliability-data file; what a corpus holds
(its :attr:`~corpusagree.model.corpus.Corpus.kind`) and which jobs accept it; and, when a
job is given another job's files or corpus, the job that reads them.

>>> from corpusagree.analyses import corpora
>>> corpora.jobs_reading("mentions")
'the coref, markables or spans job'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from os import PathLike
from pathlib import Path
from typing import Any

from .. import readers
from ..model import io
from ..model.corpus import CorefAnnotation, Corpus, natural_key
from ..model.data import ReliabilityData
from ..model.errors import InputError, quote
from ..readers import _paths, discover
from ..readers import table as table_reader
from ..stats import distances as dist
from . import jobs

__all__ = ["NUMERIC", "TASK_KINDS", "as_corpus", "corpus_of", "default_notes",
           "in_given_order", "input_paths", "job_reading", "jobs_reading", "judgements_of",
           "mentions_in",
           "mentions_of", "naming_other_jobs", "numeric_labels", "one_path",
           "other_jobs_error", "other_jobs_files", "read", "read_judgements", "read_mentions",
           "read_runs", "resolve"]

#: what each reader task's formats hold (``table``: reliability-data files)
TASK_KINDS = {"table": "judgements", "coref": "mentions", "segments": "segmentations",
              "senses": "sense tags", "trees": "trees", "relations": "relations",
              "timeline": "continua"}


def jobs_reading(*kinds: str) -> str:
    """The jobs that accept a corpus of one of ``kinds``, in words (``the coref or spans
    job``)."""
    names = list(dict.fromkeys(n for name, job in jobs.listed().items()
                               for n in [name] if set(kinds) & set(job.kinds)))
    if not names:
        return "no job"
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return f"the {listed} job"


def _sniffed(task: str, path: Path) -> str | None:
    """The format of ``task`` (not a fallback that takes any text) that ``path`` is, or
    None."""
    for name, reader in readers.readers(task).items():
        try:
            if not reader.fallback and reader.sniff(path):
                return name
        except (InputError, OSError, UnicodeError):
            continue
    return None


def job_reading(path: str | PathLike, among: Sequence[str] | None = None) -> str | None:
    """The first job (of ``among``, default every job) whose readers recognise ``path``: a
    reliability-data file is the table job's; None when no reader recognises it.

    >>> from corpusagree.analyses import corpora
    >>> corpora.job_reading("sample_corpora/coref/brat"), corpora.job_reading("README.md")
    ('coref', None)
    """
    p = Path(path)
    if not (p.is_file() or p.is_dir()):
        return None
    names = [n for n in jobs.listed() if among is None or n in among]
    for name in names:
        tasks = jobs.listed()[name].tasks
        if "table" in tasks and p.is_file() and discover.table_layout(p) is not None:
            return name
        if any(t != "table" and t in readers.TASKS and _sniffed(t, p) for t in tasks):
            return name
    return None


def other_jobs_files(paths: Iterable[str | PathLike], tasks: Sequence[str]) -> str | None:
    """What to say when ``paths``, given to a job reading ``tasks``, hold another task's data:
    what they are and which job reads them (None when no path is recognised as such).

    Parameters
    ----------
    paths : paths
    tasks : sequence of str
        The reader tasks of the job given them (``table`` for reliability-data files).

    Returns
    -------
    str or None

    Examples
    --------
    >>> from corpusagree.analyses import corpora
    >>> print(corpora.other_jobs_files(["sample_corpora/trees/rs3"], ["senses"]))
    these are rs3 files (segmentations or trees), not sense tags: the segments, spans or trees
    job reads them
    """
    wanted = " or ".join(TASK_KINDS[t] for t in tasks)
    paths = [Path(p) for p in paths]
    if "table" in tasks and any(table_reader.platform(p) for p in paths
                                if p.is_file() or p.is_dir()):
        return None  # a platform's export, whose judgements the table job reads
    if any(_sniffed(t, p) for p in paths if p.is_file() or p.is_dir()
           for t in tasks if t != "table"):
        return None  # the job's own data (in several formats, or with a mistake)
    for p in paths:
        if not (p.is_file() or p.is_dir()):
            continue  # missing, or a device or pipe, which no sniffer may open
        if "table" not in tasks and p.is_file() and p.suffix.lower() in \
                discover.TABLE_SUFFIXES and discover.table_layout(p) is not None:
            return (f"this is reliability data (judgements), not {wanted}: "
                    f"{jobs_reading('judgements')} reads it")
        found = {other: name for other in readers.TASKS if other not in tasks
                 if (name := _sniffed(other, p)) is not None}
        if found:
            kinds = [TASK_KINDS[t] for t in found]
            return (f"these are {' or '.join(dict.fromkeys(found.values()))} files "
                    f"({' or '.join(kinds)}), not {wanted}: {jobs_reading(*kinds)} reads "
                    "them")
    return None


@contextmanager
def naming_other_jobs(paths: Sequence[Path], tasks: Sequence[str], input_format: str = "auto"
                      ) -> Iterator[None]:
    """An InputError inside (a format not recognised …) becomes one naming the job that
    reads ``paths`` when they are another job's data (:func:`other_jobs_files`)."""
    try:
        yield
    except InputError:
        other = other_jobs_error(paths, tasks) if input_format == "auto" and paths else None
        if other is None:
            raise
        raise other from None


def other_jobs_error(paths: Sequence[Path], tasks: Sequence[str]) -> InputError | None:
    """The InputError naming the first of ``paths`` that is another job's data and the job
    that reads it (:func:`other_jobs_files`), or None."""
    if other_jobs_files(paths, tasks) is None:
        return None
    for p in paths:
        other = other_jobs_files([p], tasks)
        if other is not None:
            return InputError(other, p)
    return None


def resolve(tasks: Sequence[str], paths: Sequence[Path], input_format: str = "auto"
            ) -> tuple[str, str]:
    """``(task, format)`` to read ``paths`` with: the first of ``tasks`` whose readers know
    ``input_format`` or recognise every path; another job's files are an InputError naming
    the job that reads them.

    Raises
    ------
    InputError
        An unknown format, paths of different formats, or paths no reader of ``tasks``
        recognises (named with the job that reads them, when one does).
    """
    first: InputError | None = None
    for task in tasks:
        if input_format != "auto" and input_format not in readers.readers(task):
            continue
        try:
            return task, readers.resolve(task, paths, input_format)
        except InputError as e:
            first = first or e
    if first is None:  # a format none of the tasks has
        known = [f for t in tasks for f in readers.readers(t)]
        raise InputError(f"unknown {' or '.join(tasks)} format {input_format!r}; known: "
                         f"{', '.join(known)}")
    with naming_other_jobs(paths, tasks, input_format):
        raise first


def read(task: str, paths: Sequence[Path] | Mapping[str, Path], input_format: str = "auto",
         annotators: Sequence[str] | None = None, *, job: str, spans: bool = False,
         **options: Any) -> tuple[str, list]:
    """``(format, objects)`` of ``paths`` read by the readers of ``task`` for ``job`` (with
    ``options`` over the reader's defaults for the job: :func:`corpusagree.readers.read`).

    A folder given alone in a format with one path per annotator fails with the hint to give
    one file or folder per annotator; another job's files name the job that reads them.
    """
    if isinstance(paths, (str, PathLike)):
        paths = [Path(paths)]
    if input_format == "auto" and not isinstance(paths, Mapping) and paths and \
            all(Path(p).exists() for p in paths):
        _, input_format = resolve([task], [Path(p) for p in paths], input_format)
    return _read_one_per_annotator(task, paths, input_format, annotators, job=job,
                                   spans=spans, **options)


def _read_one_per_annotator(task: str, paths: Sequence[Path], fmt: str,
                            annotators: Sequence[str] | None, **kw: Any) -> tuple[str, list]:
    try:
        return readers.read(task, paths, fmt, annotators, **kw)
    except InputError as e:
        if fmt == "auto" or isinstance(paths, Mapping) or len(paths) != 1 or \
                not Path(paths[0]).is_dir() or \
                readers.get(task, fmt).layout != "path":
            raise
        raise InputError(f"{e.message} (a folder is one annotator in this format: give "
                         "one file or folder per annotator)", e.path, e.line) from None


def default_notes(task: str, fmt: str, job: str, given: Mapping[str, Any]) -> list[str]:
    """A note on each reader option ``job`` sets by default for ``fmt`` that ``given`` does
    not set (MMAX2's ``levels`` for the coref job)."""
    reader = readers.get(task, fmt)
    return [f"reader option {k}={quote(v)} ({job} job's default for {fmt}; give {k}=… "
            "to change it)"
            for k, v in reader.defaults.get(job, {}).items() if given.get(k) is None]


# ---- mentions ------------------------------------------------------------------------------
def read_mentions(paths: str | PathLike | Sequence[str | PathLike], input_format: str = "auto",
                  annotators: Sequence[str] | None = None, *, job: str, spans: bool = False,
                  **options: Any) -> Corpus[list]:
    """The coreference annotations of ``paths`` for ``job``, in the order of the paths (the
    annotators of one path in natural order), with notes on the job's default reader
    options."""
    plist = input_paths(paths, check=False)
    _, fmt = resolve(["coref"], plist, input_format)
    return mentions_in(plist, fmt, annotators, job=job, spans=spans, **options)


def mentions_in(plist: Sequence[Path], fmt: str, annotators: Sequence[str] | None = None, *,
                job: str, spans: bool = False, **options: Any) -> Corpus[list]:
    """:func:`read_mentions` of existing paths in a known format (one of spans without
    chains for the spans job only)."""
    if job != "spans" and readers.get("coref", fmt).spans_only:
        raise InputError(f"these are {fmt} files: spans without coreference chains, which "
                         "the spans job reads", plist[0] if len(plist) == 1 else None)
    fmt, annotations = _read_one_per_annotator("coref", plist, fmt, annotators, job=job,
                                               spans=spans, **options)
    corpus = mentions_of(in_given_order(annotations, plist), fmt, plist,
                         readers.get("coref", fmt).options_for(job, options), job)
    corpus.notes += default_notes("coref", fmt, job, options)
    return corpus


def in_given_order(annotations: list[CorefAnnotation], paths: Sequence[Path]
                   ) -> list[CorefAnnotation]:
    """The annotations sorted by the path they were read from, then by annotator name."""
    roots: dict[Path, int] = {}
    for i, p in enumerate(paths):
        roots.setdefault(p.resolve(), i)

    def path_index(ann: CorefAnnotation) -> int:
        source = ann.source or ann.document.source
        if source:
            src = Path(source).resolve()
            found = [roots[p] for p in (src, *src.parents) if p in roots]
            if found:
                return min(found)
        return len(paths)

    return sorted(annotations, key=lambda a: (path_index(a), natural_key(a.annotator)))


def mentions_of(annotations: Sequence[CorefAnnotation], fmt: str = "python",
                inputs: Sequence = (), reader_options: Mapping | None = None,
                job: str = "coref", noun: str = "mentions") -> Corpus[list]:
    """A corpus of coreference annotations for ``job``, its mentions counted as ``noun``."""
    annotations = list(annotations)
    mentions = sum(len(a.mentions) for a in annotations)
    return corpus_of(annotations, job=job, fmt=fmt,
                     annotators=dict.fromkeys(a.annotator for a in annotations),
                     documents=dict.fromkeys(a.document.id for a in annotations),
                     inputs=inputs, reader_options=reader_options,
                     size=f"{mentions:,} {noun}", kind="mentions")


def input_paths(paths: str | PathLike | Sequence[str | PathLike], *, check: bool = True
                ) -> list[Path]:
    """``paths`` as a list of paths that exist (``check``: and that a reader may open: no
    device or pipe); none, or one that does not exist, is an InputError."""
    plist = _paths.as_list(paths)
    for p in plist:
        if not p.exists():
            raise InputError("no such file or folder", p)
        if check:
            _paths.check(p)
    return plist


def one_path(paths: str | PathLike | Sequence[str | PathLike], job: str
             ) -> str | PathLike:
    """The one path of ``paths`` (a reliability-data file; ``-`` is standard input); a
    folder holding another job's files names the job that reads them."""
    if isinstance(paths, (str, PathLike)):
        path = paths
    else:
        given = list(paths)
        if len(given) != 1:
            raise InputError(f"the {job} job reads one reliability-data file, not "
                             f"{len(given)}")
        path = given[0]
    if str(path) != "-" and Path(path).is_dir() and table_reader.platform(Path(path)) is None:
        other = other_jobs_files([path], ["table"])
        if other is not None:
            raise InputError(other, path)
    return path


#: distances whose labels are numbers
NUMERIC = frozenset({"interval", "ordinal", "ratio"})


def numeric_labels(distance: str | dist.Distance) -> bool:
    """Whether a distance needs numeric labels (interval, ordinal, ratio).

    >>> numeric_labels("interval"), numeric_labels("nominal")
    (True, False)
    """
    return isinstance(distance, str) and distance in NUMERIC or \
        isinstance(distance, dist.Distance) and distance.name in NUMERIC


def read_judgements(paths: str | PathLike | Sequence[str | PathLike], *, job: str,
                    input_format: str = "auto", annotators: Sequence[str] | None = None,
                    coder: str = "coder", item: str = "item", label: str = "label",
                    group: str | None = None, delimiter: str | None = None,
                    set_sep: str | None = None, numeric: bool = False,
                    categories: Sequence | None = None, swap: str | None = None
                    ) -> Corpus[ReliabilityData]:
    """Reliability data from one file, for ``job`` (the parameters are those of
    :func:`corpusagree.analyses.table.read`)."""
    path = one_path(paths, job)
    given = [] if str(path) == "-" else [Path(path)]
    if given and given[0].is_file() and \
            discover.table_layout(given[0], coder, item, label) is not None:
        given = []  # reliability data with a mistake: the reader's own error says which
    with naming_other_jobs(given, ["table"], "auto" if input_format == "auto" else "given"):
        fmt, data = table_reader.read(path, input_format, coder=coder, item=item,
                                      label=label, group=group, delimiter=delimiter,
                                      set_sep=set_sep, numeric=numeric,
                                      categories=categories,
                                      **({} if swap is None else {"swap": swap}))
    if annotators is not None:
        lost = [a for a in annotators if a not in data.coders]
        if lost:
            raise InputError(f"annotators not found: {', '.join(lost)}; the coders are "
                             f"{', '.join(map(str, data.coders))}", io.display(path))
        data = data.subset(coders=[data.coders.index(a) for a in annotators])
    options = {k: v for k, v in (("coder", coder), ("item", item), ("label", label))
               if v != k}
    options.update({k: v for k, v in (("group", group), ("delimiter", delimiter),
                                      ("set_sep", set_sep), ("swap", swap)) if v is not None})
    if numeric:
        options["numeric"] = True
    return judgements_of(data, fmt, [io.display(path)], options, job)


def read_runs(paths: str | PathLike | Sequence[str | PathLike], *, job: str, run: str,
              input_format: str = "auto", annotators: Sequence[str] | None = None,
              coder: str = "coder", item: str = "item", label: str = "label",
              group: str | None = None, delimiter: str | None = None, numeric: bool = False,
              set_sep: str | None = None) -> tuple[str, dict, dict | None, dict]:
    """The judgements of a long table with repeated runs, for ``job``: the path's display
    name, run → its (coder, item, label) triples (those of ``annotators`` only, an unknown one
    an InputError), the item → group map and the reader options as the report records them
    (:func:`corpusagree.readers.table.read_runs`)."""
    path = one_path(paths, job)
    if input_format == "wide":
        raise InputError(f"run={quote(run)} needs the long layout (a run column)",
                         io.display(path))
    runs, groups = table_reader.read_runs(path, run=run, coder=coder, item=item, label=label,
                                          group=group, delimiter=delimiter, numeric=numeric,
                                          set_sep=set_sep)
    if annotators is not None:
        found = list(dict.fromkeys(c for ts in runs.values() for c, _, _ in ts))
        lost = [a for a in annotators if a not in found]
        if lost:
            raise InputError(f"annotators not found: {', '.join(lost)}; the coders are "
                             f"{', '.join(map(str, found))}", io.display(path))
        runs = {r: [t for t in ts if t[0] in annotators] for r, ts in runs.items()}
    options = {k: v for k, v in (("coder", coder), ("item", item), ("label", label))
               if v != k}
    options.update({k: v for k, v in (("group", group), ("delimiter", delimiter),
                                      ("set_sep", set_sep), ("run", run)) if v is not None})
    if numeric:
        options["numeric"] = True
    return io.display(path), runs, groups, options


def judgements_of(data: ReliabilityData, fmt: str = "python", inputs: Sequence[str] = (),
                  options: Mapping | None = None, job: str = "table"
                  ) -> Corpus[ReliabilityData]:
    """A corpus of reliability data (judgements) for ``job``."""
    judged = int((data.codes >= 0).sum())
    return corpus_of(data, job=job, fmt=fmt, annotators=data.coders,
                     documents=data.group_names or (), inputs=inputs, reader_options=options,
                     size=f"{judged:,} judgements", kind="judgements")


def corpus_of(data: Any, *, job: str, fmt: str = "python", annotators: Sequence = (),
              documents: Sequence = (), inputs: Sequence = (), size: str = "",
              reader_options: Mapping | None = None, kind: str = "", **more: Any) -> Corpus:
    """The one way a job makes its :class:`~corpusagree.model.corpus.Corpus`."""
    return Corpus(job, fmt, data, [str(a) for a in annotators], [str(d) for d in documents],
                  [str(p) for p in inputs], reader_options=dict(reader_options or {}),
                  size=size, kind=kind, **more)


def as_corpus(x: Any, job: str, makers: Mapping[type, Callable[[Any], Corpus]],
              kinds: Sequence[str]) -> Corpus:
    """What a job's ``analyse`` takes, as its corpus.

    A :class:`~corpusagree.model.corpus.Corpus` of one of ``kinds`` as it is; an object, or
    a list of objects, of a type of ``makers`` made into a corpus by its maker; anything else
    a TypeError saying what the job takes and, for another kind of corpus, which jobs take
    it.

    Parameters
    ----------
    x : object
        What ``analyse`` was given.
    job : str
        The job.
    makers : mapping
        Type of the data (or of the items of a list) → a function of the data making the
        corpus.
    kinds : sequence of str
        The kinds of corpus the job accepts.

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        For anything else.
    """
    names = " or ".join(t.__name__ for t in makers)
    if isinstance(x, Corpus):
        if x.kind in kinds:
            return x
        what = f"a {x.job} corpus of {x.kind} ({jobs_reading(x.kind)} takes it)"
    else:
        for t, make in makers.items():
            if isinstance(x, t):
                return make(x)
        items = list(x) if isinstance(x, Iterable) and \
            not isinstance(x, (str, bytes, Mapping)) else None
        for t, make in makers.items():
            if items is not None and all(isinstance(a, t) for a in items):
                return make(items)
        what = type(x).__name__
    raise TypeError(f"{job}.analyse takes the Corpus that corpusagree.analyses.{job}.read "
                    f"returns (or {names} made in Python), not {what}")
