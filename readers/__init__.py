"""Readers: one module per annotation format, each registering its reader here.

A module declares its reader where it is defined::

    @register("coref", "conll", sniff=sniff, summary="CoNLL-2012 *_conll files ...")
    def read(paths, annotators=None): ...

with the options its ``read`` takes (:class:`Option`), so a command line can offer them and
:func:`read` can check them. :func:`readers` lists a task's readers in sniffing order,
:func:`detect` picks one by sniffing a path, :func:`read` reads paths of one format.
Format details never leave the reader modules.
"""

from __future__ import annotations

import codecs
import gc
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, TypeVar

from ..model.errors import InputError, quote
from ..model.io import not_utf8
from . import _paths

TASKS = ("coref", "segments", "senses", "trees", "relations", "timeline")

#: the modules holding each task's readers, in sniffing order
_MODULES: dict[str, tuple[str, ...]] = {
    "coref": ("mmax2", "brat", "conll2012", "corefud", "xmi", "webanno_tsv", "ezcoref",
              "labelstudio", "prodigy", "doccano", "inception_diff", "conll_ner"),
    "segments": ("segeval", "positions", "rs3", "disrpt", "plaintext"),
    "senses": ("raganato", "senseval", "ontonotes", "sensetsv"),
    "trees": ("rs3", "dis"),
    "relations": ("brat", "webanno_tsv", "xmi", "disrpt", "labelstudio", "doccano"),
    "timeline": ("textgrid", "elan", "rttm"),
}

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Option:
    """A keyword argument of a reader's ``read`` that a user may set."""

    name: str
    help: str
    type: Callable[[str], Any] = str
    choices: tuple[str, ...] | None = None
    multiple: bool = False
    metavar: str | None = None
    #: other flags of the option (``--level`` for ``--levels``)
    aliases: tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        """The command-line flag: ``--`` and the name with dashes."""
        return flag(self.name)


def flag(name: str) -> str:
    """The command-line flag of a reader option's keyword: ``--`` and the name with dashes."""
    return "--" + name.replace("_", "-")


@dataclass(frozen=True)
class Reader:
    """A registered reader: ``read(paths, annotators=None, **options)`` returns a list of
    :mod:`corpusagree.model.corpus` objects; ``sniff(path)`` tells whether a path holds this
    format. ``span_layers``: ``read`` also takes ``spans=True``, to read a plain span layer
    (named entities …) where the files hold no coreference layer.

    ``layout``: how the paths name the annotators — ``"path"``: one file or folder per
    annotator (CoNLL-2012, CorefUD); ``"folder"``: one folder per annotator, or a folder of
    annotator folders (brat, MMAX2, RST, DISRPT, plain text); ``"each"``: the files name
    their annotators (XMI, WebAnno TSV, ezCoref); ``"file"``: one file holds every annotator
    (segeval, positions, sense tables); ``"paired"``: the data file, then one key file per
    annotator (Raganato, Senseval). ``defaults``: reader options a job sets unless the user
    does, by job (MMAX2's ``levels=["coref"]`` for the ``coref`` job)."""

    task: str
    name: str
    read: Callable[..., list]
    sniff: Callable[[Path], bool]
    options: tuple[Option, ...]
    summary: str
    span_layers: bool = False
    layout: str = "folder"
    defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: a format that takes almost any file (plain text): when a path it takes holds another
    #: task's format, the user meant that one (a brat folder's ``.txt`` files)
    fallback: bool = False
    #: a format of spans without coreference chains (annotation platforms' exports): the
    #: spans job reads it, the jobs of chains refuse it
    spans_only: bool = False

    def options_for(self, job: str, given: Mapping[str, Any]) -> dict[str, Any]:
        """The reader options of ``given`` (None values left out) over the job's defaults."""
        return {**self.defaults.get(job, {}),
                **{k: v for k, v in given.items() if v is not None}}


#: (task, name) -> (reader, registration number)
_REGISTRY: dict[tuple[str, str], tuple[Reader, int]] = {}
_LOADED: set[str] = set()


#: the path layouts of :class:`Reader`
LAYOUTS = ("path", "folder", "each", "file", "paired")


def register(task: str, name: str, *, sniff: Callable[[Path], bool],
             options: Iterable[Option] = (), summary: str,
             span_layers: bool = False, layout: str = "folder",
             defaults: Mapping[str, Mapping[str, Any]] | None = None,
             fallback: bool = False, spans_only: bool = False) -> Callable[[F], F]:
    """Decorator registering ``read`` as the reader of format ``name`` for ``task`` (see
    :class:`Reader` for ``layout`` and ``defaults``)."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}")
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; known: {', '.join(TASKS)}")
    opts = tuple(options)
    names = [o.name for o in opts]
    if len(set(names)) < len(names):
        raise ValueError(f"{task} format {name!r}: an option is declared twice")

    def decorate(read: F) -> F:
        old = _REGISTRY.get((task, name))
        if old is not None and old[0].read.__module__ != read.__module__:
            raise ValueError(f"{task} format {name!r} is already registered by "
                             f"{old[0].read.__module__}")
        number = old[1] if old is not None else len(_REGISTRY)
        _REGISTRY[task, name] = (Reader(task, name, read, sniff, opts, summary,
                                        span_layers, layout, dict(defaults or {}), fallback,
                                        spans_only),
                                 number)
        return read

    return decorate


def _order(task: str, reader: Reader, number: int) -> tuple[int, int]:
    """Sniffing order: by module as listed in ``_MODULES``, then by registration."""
    module = reader.read.__module__.rpartition(".")[2]
    modules = _MODULES[task]
    return (modules.index(module) if module in modules else len(modules), number)


def readers(task: str) -> dict[str, Reader]:
    """Format name -> reader of ``task``, in sniffing order (imports the readers first)."""
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; known: {', '.join(TASKS)}")
    if task not in _LOADED:
        for module in _MODULES[task]:
            importlib.import_module(f"{__name__}.{module}")
        _LOADED.add(task)
    found = [(_order(task, r, n), r) for (t, _), (r, n) in _REGISTRY.items() if t == task]
    return {r.name: r for _, r in sorted(found, key=lambda x: x[0])}


def get(task: str, name: str) -> Reader:
    """The reader of format ``name``; an unknown name is an InputError listing the known."""
    known = readers(task)
    if name not in known:
        raise InputError(f"unknown {task} format {quote(name)}; known: {', '.join(known)}")
    return known[name]


def detect(task: str, path: str | PathLike) -> str:
    """Name of the first reader of ``task`` (in sniffing order) whose sniff accepts ``path``
    (a file or folder: a device or pipe is refused before any sniffer reads from it)."""
    path = _paths.check(Path(path))
    for name, reader in readers(task).items():
        if reader.sniff(path):
            if reader.fallback and (other := _other_task(task, path, name)) is not None:
                raise InputError(other, path)
            return name
    raise _unknown_format(task, path)


def _other_task(task: str, path: Path, fallback: str) -> str | None:
    """What to say when ``path``, taken by the ``fallback`` format of ``task``, holds another
    task's format (None when it does not)."""
    for other in TASKS:
        if other == task:
            continue
        for name, reader in readers(other).items():
            if not reader.fallback and reader.sniff(path):
                # the task, not the jobs reading it: a job's corpus layer names them
                # (corpusagree.analyses.corpora.other_jobs_files)
                return (f"these are {name} files ({other} annotations), not {task}: read "
                        f"them as {other} (or input_format={fallback!r} reads them as "
                        "such all the same)")
    return None


def _unknown_format(task: str, path: Path) -> InputError:
    """Nothing sniffed ``path``: say so, and say where its first file is not UTF-8 text (the
    sniffers read UTF-8), which is the likelier cause then."""
    first = path if path.is_file() else next(
        (f for f in sorted(path.iterdir())[:100] if f.is_file()), None)
    if first is not None:
        with open(first, "rb") as fh:
            head = fh.read(65536)
        try:
            codecs.getincrementaldecoder("utf-8-sig")().decode(head, final=False)
        except UnicodeDecodeError as e:
            err = not_utf8(e, first)
            return InputError(f"cannot tell the {task} format: {err.message}", err.path,
                              err.line)
    return InputError(f"cannot tell the {task} format; pass input_format=NAME", path)


def options(task: str) -> list[tuple[Option, tuple[str, ...]]]:
    """Every option of the task's readers, merged by name (the first declaration wins), with
    the formats that take it."""
    merged: dict[str, tuple[Option, list[str]]] = {}
    for name, reader in readers(task).items():
        for opt in reader.options:
            merged.setdefault(opt.name, (opt, []))[1].append(name)
    return [(opt, tuple(formats)) for opt, formats in merged.values()]


_task_options = options  # for read(), whose keyword arguments are called options


def resolve(task: str, paths: Iterable[str | PathLike], fmt: str = "auto") -> str:
    """The format to read ``paths`` with: ``fmt`` when given (it must be known), else the one
    every path is sniffed as."""
    if fmt != "auto":
        return get(task, fmt).name
    found = {str(p): detect(task, p) for p in paths}
    if len(set(found.values())) > 1:
        listing = ", ".join(f"{p} is {f}" for p, f in found.items())
        raise InputError(f"the paths hold different formats ({listing}); pass "
                         "input_format=NAME")
    if not found:
        raise InputError("no input files")
    return next(iter(found.values()))


@contextmanager
def paused_gc() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a reader builds its objects: a read
    makes millions of small acyclic objects (mentions, tuples, dicts), each of which counts
    towards a collection that scans every object alive, which cost a brat read of 18 MB 40 %
    of its time; reference counting frees them as always, and the collector resumes after.

    What the read made is the corpus, kept while it is analysed: it is handed to the oldest
    generation at once (``gc.freeze`` then ``gc.unfreeze``, two list splices), as two
    collections would hand it on; left in the youngest, the first allocation after the read
    scans all of it (a fifth of an ezCoref read of 20 MB), and the next middle collection
    again. Not when the caller keeps objects frozen: ``gc.unfreeze`` would release them."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def read(task: str, paths: str | PathLike | Iterable[str | PathLike], fmt: str = "auto",
         annotators: Iterable[str] | None = None, *, job: str | None = None,
         spans: bool = False, **options: Any) -> tuple[str, list]:
    """``(format, objects)`` read from ``paths`` (files or folders, all of one format).

    ``fmt="auto"`` sniffs every path. ``annotators`` means what it means to the format's
    reader. ``options`` are reader options over the reader's defaults for ``job``
    (:attr:`Reader.defaults`); None values are left out, one the format does not take is an
    InputError naming its flag, and a text value of a ``multiple`` option is split on commas.
    ``spans``: the spans job, which readers with ``span_layers`` are told.
    """
    plist = [Path(paths)] if isinstance(paths, (str, PathLike)) else [Path(p) for p in paths]
    if not plist:
        raise InputError("no input files")
    for p in plist:
        if not p.exists():
            raise InputError("no such file or folder", p)
        _paths.check(p)
    fmt = resolve(task, plist, fmt)
    reader = get(task, fmt)
    taken = {o.name: o for o in reader.options}
    given: dict[str, Any] = {}
    for key, value in reader.options_for(job or "", options).items():
        opt = taken.get(key)
        if opt is None:
            raise InputError(_not_taken(key, value, task, fmt))
        if opt.multiple and isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        given[key] = value
    if spans and reader.span_layers:
        given["spans"] = True
    names = None if annotators is None else list(annotators)
    with paused_gc():
        out = reader.read(plist, names, **given)
    if not out:
        raise InputError(f"no annotations found ({fmt})", plist[0])
    return fmt, out


def _not_taken(key: str, value: Any, task: str, fmt: str) -> str:
    """Why the reader option ``key`` (given ``value``) cannot be given to format ``fmt`` of
    ``task``, in Python's words (the command line writes its flag)."""
    where = [(t, f) for t in TASKS for o, fs in _task_options(t) if o.name == key for f in fs]
    given = f"{key}={quote(value)}"
    if not where:
        return f"{given}: {key} is not a reader option"
    return f"{given} does not apply to {task} format {fmt!r} (only to " + \
        ", ".join(f"{f}" if t == task else f"{f} ({t})" for t, f in where) + ")"


__all__ = ["LAYOUTS", "TASKS", "Option", "Reader", "detect", "flag", "get", "not_utf8",
           "options", "paused_gc", "read", "readers", "register", "resolve"]
