"""The parts of the documentation that are made from the package, so they cannot go stale.

* the Python reference (``reference/api/``), written from :mod:`apiref` before autosummary
  reads the sources, and the command line's, a page per job and one of the shared options
  (``reference/cli/``), written from :mod:`cliref`;
* ``{corpusagree-formats}``: every format of the readers' registry with its options and a
  minimal example from ``docs/formats/<task>/<format>/``, which the build runs through the
  command in its ``command`` file (a format without an example, or an example the command
  cannot read, is a warning, so an error under ``-W``); then the format's variants, each a
  folder ``docs/formats/<task>/<format>/variants/<variant>/`` with its files, its ``command``
  and an ``about`` file (a title line, then what the variant shows), run the same way;
* ``{corpusagree-schema}``: the JSON schema of the reports as ``corpusagree schema`` prints it,
  shown and offered as a file to download;
* ``{corpusagree-which-job}``: the table of ``getting-started/which-job.md``, a row per job
  written in the front matter of its tutorial (``which-job:``, a list of rows with
  ``commands``, ``data``, ``formats`` and ``reports``), in the jobs' order, then the rows of
  other commands (``compare``, ``report``: by their ``order``); a registered job without a row
  is a warning.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import warnings
import zipfile
from pathlib import Path

import apiref
import cliref
from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

logger = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent
EXAMPLES = DOCS / "formats"

#: code-block languages by file suffix
LANGUAGES = {".xml": "xml", ".xmi": "xml", ".mmax": "xml", ".rs3": "xml", ".json": "json",
             ".csv": "text", ".tsv": "text", ".conllu": "text", ".tok": "text"}

LAYOUTS = {
    "path": "one file or folder per annotator",
    "folder": "one folder per annotator, or a folder of annotator folders",
    "each": "files that name their annotators inside (give files or folders)",
    "file": "one file holds every annotator",
    "paired": "the data file, then one key file per annotator (or a folder of them)",
}


def write_api(app: Sphinx, config) -> None:
    apiref.write(Path(app.srcdir) / "reference" / "api")
    cliref.write(Path(app.srcdir) / "reference" / cliref.FOLDER)


def _run(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """Run the command line in this process in ``cwd``: (status, its output, its messages)."""
    from corpusagree.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                warnings.catch_warnings():
            warnings.simplefilter("default")
            status = main(argv)
    finally:
        os.chdir(old)
    return status, out.getvalue(), err.getvalue()


#: what a format's example folder holds beside its files: the command, a variant's title and
#: text, and the folder of its variants
NOT_SHOWN = ("command", "about")
VARIANTS = "variants"


def _files(folder: Path) -> list[Path]:
    """The files of an example (not its command, nor its variants' files)."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name not in NOT_SHOWN
                  and p.relative_to(folder).parts[0] != VARIANTS)


def variants(folder: Path) -> list[Path]:
    """The variants of a format's example: the folders under ``variants/``, by name."""
    return sorted(p for p in (folder / VARIANTS).glob("*") if p.is_dir())


def _shown(path: Path, caption: str, data: bytes | None = None) -> list[str]:
    """An example's file as code blocks: its text, or for a zip each member (a zip inside it
    too), captioned ``archive.zip!/member``."""
    data = path.read_bytes() if data is None else data
    if path.suffix == ".zip":
        lines = []
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for member in z.namelist():
                if not member.endswith("/"):
                    lines += _shown(Path(member), f"{caption}!/{member}", z.read(member))
        return lines
    lang = LANGUAGES.get(path.suffix, "text")
    text = data.decode("utf-8")
    # long lines (an XMI's, a CoNLL-U row's last column) wrap rather than scroll out of sight
    return [".. container:: corpusagree-wrap", "", f"   .. code-block:: {lang}",
            f"      :caption: {caption}", ""] + \
        [f"      {line}" if line else "" for line in text.splitlines()] + [""]


class Formats(SphinxDirective):
    """Every registered reader, task by task, with a minimal example that the build reads."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from corpusagree import readers
        from corpusagree.analyses import jobs

        self.env.note_dependency(__file__)
        lines: list[str] = []
        for task in readers.TASKS:
            found = readers.readers(task)
            by = [f"``corpusagree {n}``" for n, j in jobs.listed().items() if task in j.tasks]
            by = [", ".join(by[:-1]), by[-1]] if len(by) > 1 else by
            lines += [f"{task.capitalize()} formats", "-" * (len(task) + 8), "",
                      f"Read by {' or '.join(by)}; "
                      "``--input-format`` names one of these, or leave it to sniffing "
                      "(tried in this order).", ""]
            for name, reader in found.items():
                lines += self._reader(task, name, reader)
        self.env.note_reread()  # the registry and the examples are read at every build
        return nested_parse_with_titles_list(self, lines)

    def _reader(self, task: str, name: str, reader) -> list[str]:
        title = f"``{name}``"
        lines = [title, "^" * len(title), "", apiref._escape(reader.summary) + ".", "",
                 f"Paths: {LAYOUTS.get(reader.layout, reader.layout)}."]
        if reader.options:
            lines += ["", "Options of this format:", ""]
            for o in reader.options:
                choices = f" ({', '.join(o.choices)})" if o.choices else ""
                lines.append(f"* ``{o.flag}``{choices}: {apiref._escape(o.help)}")
        for job, given in reader.defaults.items():
            shown = ", ".join(f"``{k}={v!r}``" for k, v in given.items())
            lines += ["", f"The ``{job}`` job reads it with {shown} unless told otherwise."]
        lines.append("")
        folder = EXAMPLES / task / name
        if not (folder / "command").is_file():
            logger.warning(f"the {task} format {name!r} has no minimal example: add "
                           f"docs/formats/{task}/{name}/ with its files and a 'command' file",
                           location=(self.env.docname, self.lineno))
            return lines
        lines += ["A minimal example:", ""] + self._example(task, name, folder)
        for variant in variants(folder):
            about = variant / "about"
            if not (about.is_file() and (variant / "command").is_file()):
                logger.warning(f"the variant {variant.relative_to(EXAMPLES)} needs a 'command' "
                               "and an 'about' file", location=(self.env.docname, self.lineno))
                continue
            self.env.note_dependency(str(about))
            title, _, text = about.read_text(encoding="utf-8").strip().partition("\n")
            lines += [f".. rubric:: {title.strip()}", "", text.strip(), ""]
            lines += self._example(task, name, variant)
        return lines

    def _example(self, task: str, name: str, folder: Path) -> list[str]:
        """The files of an example and its command, after running it: a command that fails,
        or reads the files as another format, is a warning."""
        for path in _files(folder):
            self.env.note_dependency(str(path))
        command = folder / "command"
        self.env.note_dependency(str(command))
        argv = shlex.split(command.read_text(encoding="utf-8").strip())
        where = folder.relative_to(EXAMPLES).as_posix()
        status, out, err = _run(argv[1:] + ["--format", "json", "--quiet"], folder)
        if status != 0:
            logger.warning(f"the example {where} of the {task} format {name!r} fails: "
                           f"{' '.join(argv)}: {err.strip()[:500]}",
                           location=(self.env.docname, self.lineno))
        else:
            doc = json.loads(out)
            if doc.get("format", name) != name:
                logger.warning(f"the example {where} is read as {doc.get('format')!r}, not "
                               f"{name!r}", location=(self.env.docname, self.lineno))
        lines = []
        for path in _files(folder):
            lines += _shown(path, path.relative_to(folder).as_posix())
        return lines + [".. code-block:: sh", "", f"   {' '.join(argv)}", ""]


class Schema(SphinxDirective):
    """The JSON schema of the reports, as ``corpusagree schema`` prints it: a link to the file
    (written beside the generated reference, ``reference/api/report.schema.json``) and its
    text."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        status, said, err = _run(["schema"], DOCS)
        if status != 0:
            logger.warning(f"corpusagree schema fails: {err.strip()[:500]}",
                           location=(self.env.docname, self.lineno))
            return []
        target = Path(self.env.srcdir) / "reference" / "api" / "report.schema.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_text(encoding="utf-8") != said:
            target.write_text(said, encoding="utf-8")
        lines = [":download:`report.schema.json <api/report.schema.json>` is the file "
                 "``corpusagree schema --output report.schema.json`` writes; its text:", "",
                 ".. container:: corpusagree-wrap", "", "   .. code-block:: json", ""] + \
            [f"      {line}" if line else "" for line in said.splitlines()] + [""]
        return nested_parse_with_titles_list(self, lines)


class WhichJob(SphinxDirective):
    """The table from each situation to its job: the rows of the tutorials' front matter."""

    has_content = False
    header = ("| my data | job | formats it reads | what it reports | tutorial |\n"
              "|---|---|---|---|---|")

    def run(self) -> list[nodes.Node]:
        import yaml

        from corpusagree.analyses import jobs

        order = {name: job.order for name, job in jobs.listed().items()}
        rows = []
        for path in sorted((Path(self.env.srcdir) / "tutorials").glob("*.md")):
            self.env.note_dependency(str(path))
            text = path.read_text(encoding="utf-8")
            front = text.split("\n---\n", 1)[0] if text.startswith("---\n") else ""
            for row in (yaml.safe_load(front[4:]) or {}).get("which-job", []):
                first = row.get("order", min((order[c] for c in row["commands"] if c in order),
                                             default=1000))
                rows.append((first, len(rows), path.stem, row))
        missing = set(order) - {c for *_, row in rows for c in row["commands"]}
        if missing:
            logger.warning(f"jobs without a row (which-job: in their tutorial's front "
                           f"matter): {', '.join(sorted(missing))}",
                           location=(self.env.docname, self.lineno))
        lines = [self.header] + [
            f"| {row['data']} | {', '.join(f'`{c}`' for c in row['commands'])} | "
            f"{row['formats']} | {row['reports']} | {{doc}}`../tutorials/{stem}` |"
            for *_, stem, row in sorted(rows)]
        node = nodes.container()
        self.state.nested_parse(StringList(lines, source="which-job"), self.content_offset,
                                node)
        return node.children


def nested_parse_with_titles_list(directive: SphinxDirective, lines: list[str]):
    node = nodes.section()
    node.document = directive.state.document
    nested_parse_with_titles(directive.state, StringList(lines, source="corpusagree_docs"),
                             node)
    return node.children


#: a name in a page's prose that links to its documentation: ``ca.alpha``,
#: ``corpusagree.table()``, ``np.bincount``, ``pd.DataFrame`` (the usual aliases spelled out)
PROSE_NAME = re.compile(r"^(ca|corpusagree|np|numpy|pd|pandas)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)"
                        r"(\(\))?$")
ALIASES = {"ca": "corpusagree", "np": "numpy", "pd": "pandas"}


class ProseNames(SphinxTransform):
    """Inline code in prose that names a Python object (``ca.COEFFICIENTS``) becomes a link
    to its entry, ours or numpy's, scipy's, pandas's (intersphinx); a name with no entry
    stays as it was, silently. Code blocks are sphinx-codeautolink's."""

    default_priority = 100

    def apply(self) -> None:
        for node in list(self.document.findall(nodes.literal)):
            if isinstance(node.parent, (addnodes.pending_xref, nodes.reference, nodes.title)):
                continue
            found = PROSE_NAME.match(node.astext())
            if not found:
                continue
            target = ALIASES.get(found.group(1), found.group(1)) + found.group(2)
            ref = addnodes.pending_xref("", refdomain="py", reftype="obj", reftarget=target,
                                        refexplicit=True, refwarn=False,
                                        refdoc=self.env.docname)
            node.replace_self(ref)
            ref += node


def short_command_titles(app: Sphinx, env) -> None:
    """sphinx-argparse indexes each command under its whole description, which the search
    results then show as its title: the command's name instead (``corpusagree table``)."""
    domain = env.get_domain("commands")
    domain.data["commands"] = [(command, command, *rest)
                               for command, _, *rest in domain.data["commands"]]


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", write_api)  # before Sphinx looks for the sources
    app.connect("env-updated", short_command_titles)
    app.add_transform(ProseNames)
    app.add_directive("corpusagree-formats", Formats)
    app.add_directive("corpusagree-schema", Schema)
    app.add_directive("corpusagree-which-job", WhichJob)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
