"""What the Python reference documents, found in the package itself (no Sphinx here: the tests
import this module to check that every public name has its entry).

* ``corpusagree``: every name of ``corpusagree.__all__``;
* every public module ``corpusagree.<name>`` (a top-level module with ``__all__``, such as
  ``corpusagree.distances``): every name of its ``__all__``;
* every job module of ``corpusagree.analyses`` (one with an ``analyse`` function): ``read``,
  ``analyse``, ``as_corpus`` and the classes it defines (its report and the parts of it);
* what every job shares: the :class:`~corpusagree.model.corpus.Corpus` that ``read`` gives
  and the report machinery of :mod:`corpusagree.report.document` and
  :mod:`corpusagree.report.tables`.

Names added later to these places get their entries with no edit here.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import re
import types
from dataclasses import dataclass, field
from pathlib import Path

import corpusagree
import corpusagree.analyses

#: the job modules' functions, in this order, before their classes
JOB_FUNCTIONS = ("read", "analyse", "as_corpus")

#: what every job shares (module, names)
SHARED = (
    ("corpusagree.model.corpus", ("Corpus",)),
    ("corpusagree.report.document", ("Report",)),
    ("corpusagree.report.tables", ("Tables", "Table", "Column", "Records", "Record", "Plot")),
    ("corpusagree.analyses.base", ("Estimate",)),
    ("corpusagree.analyses.diagnose", ("Diagnostics",)),
    ("corpusagree.model.records", ("CoderMatrix",)),
)


@dataclass
class Group:
    """Names of one module under one heading of a page."""

    title: str
    module: str
    names: list[str]
    #: names documented here as data: (name, description)
    data: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Page:
    """One page of the reference: ``stem`` is its file name, ``module`` the module whose
    docstring opens it (None: ``intro`` does)."""

    stem: str
    title: str
    module: str | None
    groups: list[Group]
    intro: str = ""

    def names(self) -> list[str]:
        """Every documented name, fully qualified."""
        return [f"{g.module}.{n}" for g in self.groups for n in g.names] + \
            [f"{g.module}.{n}" for g in self.groups for n, _ in g.data]


def _is_exception(obj) -> bool:
    return inspect.isclass(obj) and issubclass(obj, BaseException)


def data_doc(obj, name: str) -> str:
    """The ``#:`` comment above ``name`` where it is defined in the package (the module whose
    global of that name is ``obj``), else the empty string."""
    from importlib.util import find_spec

    for mod in _package_modules():
        if getattr(mod, name, _MISSING) is not obj:
            continue
        spec = find_spec(mod.__name__)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            continue
        lines = Path(spec.origin).read_text(encoding="utf-8").splitlines()
        for k, line in enumerate(lines):
            if line.startswith((f"{name} =", f"{name}: ")):
                doc = []
                j = k - 1
                while j >= 0 and lines[j].startswith("#:"):
                    doc.insert(0, lines[j][2:].strip())
                    j -= 1
                if doc:
                    return " ".join(doc)
    return ""


_MISSING = object()


def _package_modules() -> list[types.ModuleType]:
    out = []
    for m in pkgutil.walk_packages(corpusagree.__path__, "corpusagree."):
        if m.name.endswith("__main__"):
            continue
        out.append(importlib.import_module(m.name))
    return out


def groups_of(module: types.ModuleType, names: list[str]) -> list[Group]:
    """The names of a public module by kind: functions, classes, errors and warnings,
    modules, data."""
    kinds: dict[str, list[str]] = {"functions": [], "classes": [], "errors": [],
                                   "modules": [], "data": []}
    for n in names:
        obj = getattr(module, n)
        if inspect.ismodule(obj):
            kinds["modules"].append(n)
        elif _is_exception(obj):
            kinds["errors"].append(n)
        elif inspect.isclass(obj):
            kinds["classes"].append(n)
        elif callable(obj):
            kinds["functions"].append(n)
        else:
            kinds["data"].append(n)
    titles = {"functions": "Functions", "classes": "Classes",
              "errors": "Errors and warnings", "modules": "Modules", "data": "Data"}
    out = []
    for kind, found in kinds.items():
        if not found:
            continue
        if kind == "data":
            out.append(Group(titles[kind], module.__name__, [],
                             [(n, data_doc(getattr(module, n), n)) for n in found]))
        elif kind == "modules":
            continue  # each public module has its own page
        else:
            out.append(Group(titles[kind], module.__name__, found))
    return out


def public_modules() -> list[types.ModuleType]:
    """``corpusagree.<name>`` modules with ``__all__`` (the public facades), and any module
    that ``corpusagree.__all__`` names."""
    mods = {}
    for m in pkgutil.iter_modules(corpusagree.__path__):
        if m.ispkg or m.name.startswith("_"):
            continue
        mod = importlib.import_module(f"corpusagree.{m.name}")
        if hasattr(mod, "__all__"):
            mods[mod.__name__] = mod
    for n in corpusagree.__all__:
        obj = getattr(corpusagree, n)
        if inspect.ismodule(obj):
            mods[obj.__name__] = obj
    return [mods[k] for k in sorted(mods)]


def job_modules() -> list[types.ModuleType]:
    """The modules of :mod:`corpusagree.analyses` that are jobs (they have ``analyse``)."""
    out = []
    for m in pkgutil.iter_modules(corpusagree.analyses.__path__):
        mod = importlib.import_module(f"corpusagree.analyses.{m.name}")
        if callable(getattr(mod, "analyse", None)):
            out.append(mod)
    return out


def job_names(module: types.ModuleType) -> list[str]:
    """What a job module's page documents: its functions ``read``, ``analyse``,
    ``as_corpus``, then the public classes it defines, in the order of the source."""
    names = [n for n in JOB_FUNCTIONS if callable(getattr(module, n, None))]
    classes = [(inspect.getsourcelines(o)[1], n) for n, o in vars(module).items()
               if inspect.isclass(o) and not n.startswith("_")
               and o.__module__ == module.__name__]
    return names + [n for _, n in sorted(classes)]


def first_line(module: types.ModuleType) -> str:
    doc = inspect.getdoc(module) or module.__name__
    return doc.split("\n\n")[0].replace("\n", " ")


def pages() -> list[Page]:
    """Every page of the Python reference, in the order of its index."""
    out = [Page("corpusagree", "corpusagree", "corpusagree",
                groups_of(corpusagree, list(corpusagree.__all__)))]
    for mod in public_modules():
        out.append(Page(mod.__name__, mod.__name__, mod.__name__,
                        groups_of(mod, list(mod.__all__))))
    out.append(Page("shared", "Corpora, reports and tables", None,
                    [Group("", m, list(ns)) for m, ns in SHARED],
                    intro="What every job shares: ``read`` gives a :class:`Corpus`, "
                          "``analyse`` a :class:`Report` whose tables are :class:`Table` "
                          "objects (``report.tables``, ``report.to_frame(table_id)``)."))
    for mod in job_modules():
        out.append(Page(mod.__name__, mod.__name__, mod.__name__,
                        [Group("", mod.__name__, job_names(mod))]))
    return out


def documented() -> set[str]:
    """Every fully qualified name the reference documents."""
    return {n for p in pages() for n in p.names()} | {p.module for p in pages() if p.module}


# ---- the pages as reStructuredText --------------------------------------------------------------
def _heading(text: str, char: str) -> str:
    return f"{text}\n{char * len(text)}\n"


def rst(page: Page) -> str:
    """The page as reStructuredText: the module's docstring, then autosummary tables whose
    stubs autosummary writes under ``generated/``."""
    lines = [".. This page is generated by docs/_ext/apiref.py; do not edit.\n",
             _heading(page.title, "=")]
    if page.module:
        lines.append(f".. automodule:: {page.module}\n   :no-members:\n")
    if page.intro:
        lines.append(page.intro + "\n")
    for g in page.groups:
        lines.append(f".. currentmodule:: {g.module}\n")
        if g.title:
            lines.append(_heading(g.title, "-"))
        if g.names:
            lines.append(".. autosummary::\n   :toctree: generated\n   :nosignatures:\n")
            lines += [f"   {n}" for n in g.names]
            lines.append("")
        for n, doc in g.data:
            lines.append(f".. data:: {n}\n\n   {doc or 'See the source.'}\n")
    if page.stem == "corpusagree":
        mods = public_modules()
        if mods:
            lines.append(_heading("Modules", "-"))
            lines += [f"* :doc:`{m.__name__}` — {first_line(m)}" for m in mods]
            lines.append("")
    return "\n".join(lines) + "\n"


def index_rst() -> str:
    """The index of the Python reference."""
    ps = pages()
    facade = [p for p in ps if p.stem == "corpusagree" or p.stem in
              {m.__name__ for m in public_modules()}]
    jobs = [p for p in ps if p.stem.startswith("corpusagree.analyses.")]
    shared = [p for p in ps if p.stem == "shared"]
    out = [".. This page is generated by docs/_ext/apiref.py; do not edit.\n",
           _heading("Python API", "="),
           "The coefficients work on :class:`~corpusagree.ReliabilityData` (coders × items "
           "of label codes); each job of the command line is a module of "
           ":mod:`corpusagree.analyses` with ``read`` (files → a :class:`Corpus`) and "
           "``analyse`` (a corpus → a report with tables, ``to_dict()``, ``to_frame()``, "
           "``to_html()``).\n",
           _heading("Coefficients, data and distances", "-"),
           ".. toctree::\n   :hidden:\n"]
    out += [f"   {p.stem}" for p in facade] + [""] + [module_line(p) for p in facade] + [""]
    out += [_heading("Jobs", "-"), ".. toctree::\n   :hidden:\n"]
    out += [f"   {p.stem}" for p in shared + jobs] + [""]
    out += [module_line(p) for p in shared + jobs] + [""]
    return "\n".join(out) + "\n"


def module_line(page: Page) -> str:
    """A page of the index in one line: its link and the first sentence of its module's
    docstring (of its introduction, for a page without a module)."""
    text = first_line(importlib.import_module(page.module)) if page.module else \
        page.intro.split(":")[0] + "."
    sentence = re.match(r"(.+?\.)(?:\s|$)", text)
    line = (sentence.group(1) if sentence else text).removeprefix(f"{page.stem}: ")
    for cut in (" (", " — ", ", "):  # a long first sentence: its first clause
        if len(line) > 90:
            line = line.split(cut, 1)[0]
    return f"* :doc:`{page.stem}` — {line.rstrip('.')}"


def write(folder: Path) -> list[Path]:
    """Write the index and every page into ``folder`` (files whose text is unchanged are not
    rewritten, so Sphinx does not read them again); the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    texts = {"index.rst": index_rst(), **{f"{p.stem}.rst": rst(p) for p in pages()}}
    for name, text in texts.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    for stale in folder.glob("*.rst"):
        if stale.name not in texts:
            stale.unlink()
    return written


# ---- the command line ----------------------------------------------------------------------------
def _escape(text: str | None) -> str | None:
    """Help text as reStructuredText reads it literally: ``*``, ``|`` and backquotes escaped,
    and an underscore that would end a reference (``word_``)."""
    if not text:
        return text
    text = re.sub(r"([*|`\\])", r"\\\1", text)
    return re.sub(r"(?<=\w)_(?=\W|$)", r"\\_", text)


def cli_parser() -> argparse.ArgumentParser:
    """:func:`corpusagree.cli.build_parser`, every job included, with its help texts escaped
    for sphinx-argparse (which reads them as reStructuredText: ``*_conll`` or ``|u|α`` would
    be markup)."""
    from corpusagree.cli import build_parser

    def escape(parser: argparse.ArgumentParser) -> None:
        parser.description = _escape(parser.description)
        parser.epilog = _escape(parser.epilog)
        for action in parser._actions:
            if action.help is not argparse.SUPPRESS:
                action.help = _escape(action.help)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    choice.help = _escape(choice.help)
                for sub in action.choices.values():
                    escape(sub)

    parser = build_parser()
    escape(parser)
    return parser
