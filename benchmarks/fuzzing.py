"""Mutation fuzzing of every reader and job: the machinery shared by the robustness suite
(``tests/fuzz/test_fuzz.py``, a few hundred cases) and ``benchmarks/fuzz.py`` (≥ 20,000).

A *source* is an unmutated input of one reader (files of ``sample_corpora/``, of
``tests/data/`` for the formats without a sample, and, when present, a few small files of the
real corpora in ``../shared/corpora``) with the command line of the job that reads it. A *case*
copies a source into a fresh folder ``<case>/in/``, mutates one of its files with one
*mutation*, runs the command from ``<case>/`` in a child process with a time limit and an
address-space limit, and classifies how it ended:

============  ===========================================================================
``ok``        exit status 0 (``warning: ...`` lines on stderr allowed)
``error``     exit status 2 and one line ``file:line: message`` or ``file: message`` on
              stderr, the file being one of the inputs
``message``   exit status 0 or 2 but stderr holds something else (no file named, a file
              that is not an input, several lines)
``traceback`` a Python traceback on stderr
``status``    another exit status
``signal``    killed by a signal (a crash in C code)
``memory``    a MemoryError or an allocation failure at the address-space limit
``timeout``   still running at the time limit: a hang
``slow``      finished, but its CPU time is over ``factor`` (10) times the CPU time per byte
              of its unmutated source times its own size (and over a floor of a few seconds)
``leak``      the content of a file outside the inputs (a secret token planted in
              ``<case>/secret/`` and targeted by the XML attacks) appears in the output
``silent``    a special entry put inside an input folder (mutation ``special_entry``) is
              named by no warning and no error: it was skipped without a word
============  ===========================================================================

An error is one line ``file:line: message`` per problem of the read (a reader lists every
problem it finds, up to 50, then ``and N more problems``), each naming an input, none
quoting more than a few hundred characters (:data:`LINE_LIMIT`: a message quotes at most
about 80 characters of the input).

Everything but ``ok`` and ``error`` is a failure. The mutations (:data:`MUTATIONS`) are the
byte- and line-level damage of real files (truncation, byte flips, duplicated and deleted
lines, NUL bytes, numbers made huge), other encodings (UTF-16, UTF-8 with BOM, cp1252, invalid
UTF-8), other line ends (CRLF, CR), empty and missing files, a directory, /dev/zero or a pipe
where a file was, a special entry beside it in its folder (a pipe, a link to /dev/zero or to
nothing, a folder named like a file), a 20 MB line, a 10 MB token in a line, and the classic XML
attacks: 100,000-deep nesting, entity
expansion ("billion laughs", Sullivan 2009, and its quadratic variant), external entities and
DTDs (OWASP XXE), XInclude (W3C 2006); JSON sources get 100,000-deep arrays.

Cases are planned from a seed: the ``(source, mutation)`` pairs are shuffled once per cycle, so
the first ``len(pairs)`` cases try every pair once, and each case draws its file, its
mutation's details and its output format (text, JSON, CSV, Markdown) from generators seeded by
``(seed, case number)``.

Running: by default (``mode="fork"``) a few worker processes (``python benchmarks/fuzzing.py
--serve``) import corpusagree once and fork a child per case that runs
``corpusagree.cli.main(argv)`` exactly as ``python -m corpusagree`` does (exit status, a
traceback for an uncaught exception), without paying the interpreter's start-up per case;
``mode="exec"`` runs ``python -m corpusagree`` itself for every case.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_corpora"
DATA = ROOT / "tests" / "data"
FUZZ = DATA / "fuzz"  #: sources no sample has, written by make_fuzz_sources.py there
CORPORA = Path(os.environ.get("CORPUSAGREE_CORPORA", ROOT.parent / "shared" / "corpora"))

FAILURES = ("leak", "timeout", "memory", "traceback", "signal", "status", "message", "slow",
            "silent")
OUTCOMES = ("ok", "error", *FAILURES)

MB = 1 << 20
FORMATS = ("text", "json", "csv", "md")  #: output formats, one drawn per case
LONG_LINE = 20 * MB  #: the size of the long line mutation's line
LONG_TOKEN = 10 * MB  #: the size of the long token mutation's token
LINE_LIMIT = 500  #: characters an error line may have (its path, ~80 of the input, the words)
DEEP = 100_000  #: nesting depth of the deep XML and JSON mutations
#: address-space limit of a case: virtual memory, so it counts the libraries a forked worker
#: inherits (pyarrow and pandas among them since the columnar reader); a 20 MB line of brat
#: text tokenised by spaCy peaks at 1.3 GB resident
MEMORY = 3 << 30
KEEP_LIMIT = 5 * MB  #: reproducers larger than this keep only the command that rebuilds them


# ---- sources -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Source:
    """An unmutated input: the files of ``root`` matching ``copy`` (globs) are copied to
    ``in/`` keeping their relative paths, ``argv`` (paths under ``in/``) is the command after
    ``corpusagree``; the mutated file is one of those matching ``mutate`` (default: any)."""

    name: str
    root: Path
    argv: tuple[str, ...]
    copy: tuple[str, ...] = ("**/*",)
    mutate: tuple[str, ...] = ()
    shared: bool = False  #: from the real corpora, which may be absent
    #: the files its reader finds by listing the folders given (globs): a special entry named
    #: like them beside them must be named by a warning or an error
    listed: tuple[str, ...] = ()
    #: the other files the reader opens, found through a file or beside one (globs): MMAX2's
    #: levels, schemes and common_paths.xml, brat's .txt, XMI's TypeSystem.xml …
    opened: tuple[str, ...] = ()

    def files(self) -> list[str]:
        """The copied files, relative to ``root``, sorted."""
        return list(_glob(self.root, self.copy))

    def targets(self) -> list[str]:
        """The files a mutation may change."""
        files = self.files()
        if not self.mutate:
            return files
        chosen = set(_glob(self.root, self.mutate))
        return [f for f in files if f in chosen]

    def available(self) -> bool:
        """Its files are here and its job is a command of this corpusagree."""
        return self.argv[0] in jobs() and self.root.is_dir() and bool(self.targets())


def jobs() -> set[str]:
    """The jobs of the command line (``corpusagree.cli.JOBS``) that read input (``schema``
    prints the JSON Schema of the reports and reads nothing; ``compare`` and ``plan`` read
    the jobs' inputs through the jobs' own ``read``, fuzzed there)."""
    from corpusagree.cli import JOBS

    return {job.__name__.rpartition(".")[2] for job in JOBS} - {"schema", "compare", "plan"}


@functools.cache
def _glob(root: Path, patterns: tuple[str, ...]) -> tuple[str, ...]:
    """The files of ``root`` matching ``patterns`` (not hidden ones), relative, sorted."""
    found = {p.relative_to(root) for pattern in patterns for p in root.glob(pattern)
             if p.is_file()}
    return tuple(sorted(p.as_posix() for p in found
                        if not any(part.startswith(".") for part in p.parts)))


#: the files an MMAX2 reader opens through a project's common_paths.xml
MMAX2_OPENED = ("**/common_paths.xml", "**/Markables/*.xml", "Basedata/*.xml", "Schemes/*.xml")


def _three(suffix: str) -> tuple[str, ...]:
    return tuple(f"in/ann{i}.{suffix}" for i in (1, 2, 3))


def sources() -> list[Source]:
    """Every source: one per reader of ``sample_corpora/`` (and of ``tests/data/`` for the
    formats the samples lack), every job, and a few small files of the real corpora."""
    co, se, sn, tb = (SAMPLES / x for x in ("coref", "segments", "senses", "table"))
    diag = ("--diagnostics",)
    out = [
        Source("ratings/long", SAMPLES / "ratings", ("ratings", "in/essays.csv", *diag),
               ("essays.csv",)),
        Source("ratings/runs", SAMPLES / "ratings", ("ratings", "in/essays_runs.csv", "--run",
                                                     "run"), ("essays_runs.csv",)),
        Source("table/long", tb, ("table", "in/dialogue_acts.csv", "--group", "document",
                                  *diag), ("dialogue_acts.csv",)),
        Source("table/weights", tb, ("table", "in/dialogue_acts.csv", "--weights",
                                     "in/dialogue_acts.weights.csv"),
               ("dialogue_acts.csv", "dialogue_acts.weights.csv"),
               ("dialogue_acts.weights.csv",)),
        Source("table/wide", tb, ("table", "in/essay_marks_wide.csv", "--wide", "--distance",
                                  "interval", *diag), ("essay_marks_wide.csv",)),
        Source("annotators/long", tb, ("annotators", "in/dialogue_acts.csv", "--group",
                                       "document", "--candidate", "dan", "--gold", "ann",
                                       *diag), ("dialogue_acts.csv",)),
        Source("coref/brat", co / "brat", ("coref", "in", *diag), listed=("**/*.ann",),
               opened=("**/*.txt",)),
        Source("coref/conll", co / "conll2012", ("coref", *_three("v4_gold_conll"), *diag)),
        Source("coref/corefud", co / "corefud", ("coref", *_three("conllu"), *diag)),
        Source("coref/mmax2", co / "mmax2", ("coref", "in", *diag), listed=("**/*.mmax",),
               opened=MMAX2_OPENED),
        Source("coref/xmi", co / "xmi", ("coref", "in", *diag), listed=("**/*.xmi",),
               opened=("**/TypeSystem.xml",)),
        Source("coref/webanno_tsv", DATA / "coref_a" / "webanno_tsv",
               ("coref", "in/ann1", "in/ann2", *diag), ("ann1/*", "ann2/*"),
               listed=("**/*.tsv",)),
        Source("coref/ezcoref", DATA / "coref_b" / "ezcoref", ("coref", "in", *diag),
               listed=("**/*.json",)),
        Source("markables/mmax2", co / "mmax2", ("markables", "in"), listed=("**/*.mmax",),
               opened=MMAX2_OPENED),
        Source("segments/segeval_json", se, ("segments", "in/segments.json", *diag),
               ("segments.json",)),
        Source("segments/segeval_tsv", se / "segeval_tsv", ("segments", "in", *diag),
               listed=("*.tsv",)),
        Source("segments/positions", se / "positions", ("segments", "in", *diag),
               listed=("*.csv",)),
        Source("segments/rs3", se / "rs3", ("segments", "in", *diag), listed=("**/*.rs3",)),
        Source("segments/disrpt", se / "disrpt", ("segments", "in", *diag),
               listed=("**/*.tok",)),
        Source("segments/text", se / "text", ("segments", "in", *diag), listed=("**/*.txt",)),
        Source("senses/raganato", sn, ("senses", "in/sample.data.xml", "in/keys", *diag),
               ("sample.data.xml", "keys/*"), listed=("keys/*",)),
        Source("senses/sensetsv", sn, ("senses", "in/sample.tsv", *diag), ("sample.tsv",)),
        Source("senses/inventory_xml", sn, ("senses", "in/sample.tsv", "--inventory",
                                            "in/inventory"),
               ("sample.tsv", "inventory/*.xml"), ("inventory/*.xml",)),
        Source("senses/inventory_tsv", sn, ("senses", "in/sample.tsv", "--inventory",
                                            "in/inventory.tsv"),
               ("sample.tsv", "inventory.tsv"), ("inventory.tsv",)),
        Source("senses/senseval", DATA / "senses", ("senses", "in/lexsample.xml", "in/t1.ans",
                                                    "in/t2.ans", *diag),
               ("lexsample.xml", "t1.ans", "t2.ans")),
        Source("senses/ontonotes", DATA / "senses", ("senses", "in/demo.sense", *diag),
               ("demo.sense",)),
        Source("senses/wsbest", DATA / "senses" / "wsbest",
               ("senses", "in/judgments.tsv", "--input-format", "wsbest", *diag),
               ("judgments.tsv", "uses.tsv")),
        Source("spans/brat", co / "brat", ("spans", "in", "--samples", "10", *diag),
               listed=("**/*.ann",)),
        Source("spans/rs3", se / "rs3", ("spans", "in", "--samples", "10", *diag),
               listed=("**/*.rs3",)),
        Source("spans/mmax2", co / "mmax2", ("spans", "in", "--level", "coref", "--samples",
                                             "10", *diag), listed=("**/*.mmax",)),
        Source("spans/corefud", co / "corefud", ("spans", *_three("conllu"), "--samples", "10",
                                                 *diag)),
        Source("spans/xmi_ner", DATA / "coref_a" / "xmi" / "ner",
               ("spans", "in/ann1", "in/ann2", "--samples", "10", *diag),
               ("ann1/*", "ann2/*"), listed=("**/*.xmi",)),
        Source("spans/webanno_ner", DATA / "coref_a" / "webanno_tsv" / "ner",
               ("spans", "in/ann1", "in/ann2", "--unit", "char", "--samples", "10", *diag),
               ("ann1/*", "ann2/*"), listed=("**/*.tsv",)),
        Source("trees/rs3", SAMPLES / "trees" / "rs3", ("trees", "in/ann1", "in/ann2",
                                                        "--by-document", *diag)),
        Source("relations/brat", DATA / "relations" / "brat",
               ("relations", "in/a", "in/b", "--match", "overlap", *diag)),
        Source("relations/webanno_tsv", DATA / "relations" / "webanno",
               ("relations", "in/a", "in/b", *diag)),
        Source("relations/xmi", DATA / "relations" / "xmi", ("relations", "in/a", "in/b")),
        Source("spans/labelstudio", ROOT / "docs" / "formats" / "coref" / "labelstudio",
               ("spans", "in/export.json", "--samples", "10", *diag), ("export.json",)),
        Source("spans/labelstudio_min",
               ROOT / "docs" / "formats" / "coref" / "labelstudio" / "variants" / "json-min",
               ("spans", "in/export-min.json", "--samples", "10"), ("export-min.json",)),
        Source("spans/conll_ner", ROOT / "docs" / "formats" / "coref" / "conll_ner",
               ("spans", "in/ann1.conll", "in/ann2.conll", "--measure", "ner"),
               ("ann1.conll", "ann2.conll")),
        Source("spans/textgrid", ROOT / "docs" / "formats" / "timeline" / "textgrid",
               ("spans", "in/interview.TextGrid", "--samples", "10"), ("interview.TextGrid",)),
        Source("spans/elan", ROOT / "docs" / "formats" / "timeline" / "elan",
               ("spans", "in/gestures.eaf", "--tier-pattern", "@(?P<annotator>ann[0-9])$",
                "--samples", "10"), ("gestures.eaf",)),
        Source("spans/rttm", ROOT / "docs" / "formats" / "timeline" / "rttm",
               ("spans", "in/ann1.rttm", "in/ann2.rttm", "--samples", "10"),
               ("ann1.rttm", "ann2.rttm")),
        Source("spans/prodigy", ROOT / "docs" / "formats" / "coref" / "prodigy",
               ("spans", "in/ner.jsonl", "--samples", "10", *diag), ("ner.jsonl",)),
        Source("spans/doccano", ROOT / "docs" / "formats" / "coref" / "doccano",
               ("spans", "in/alice.jsonl", "in/bob.jsonl", "in/carol.jsonl", "--samples",
                "10", *diag), ("*.jsonl",)),
        Source("spans/inception_diff", ROOT / "docs" / "formats" / "coref" / "inception_diff",
               ("spans", "in/diff.json", "--samples", "10", *diag), ("diff.json",)),
        Source("relations/labelstudio", ROOT / "docs" / "formats" / "relations" / "labelstudio",
               ("relations", "in/export.json"), ("export.json",)),
        Source("relations/doccano", ROOT / "docs" / "formats" / "relations" / "doccano",
               ("relations", "in/a.jsonl", "in/b.jsonl"), ("*.jsonl",)),
        Source("table/labelstudio", ROOT / "docs" / "formats" / "table" / "labelstudio",
               ("table", "in/export.json", "--label", "sentiment", *diag), ("export.json",)),
        Source("table/prodigy", ROOT / "docs" / "formats" / "table" / "prodigy",
               ("table", "in/textcat.jsonl", *diag), ("textcat.jsonl",)),
        Source("table/argilla", ROOT / "docs" / "formats" / "table" / "argilla",
               ("table", "in/records.json", *diag), ("records.json",)),
        Source("table/hf", ROOT / "docs" / "formats" / "table" / "hf",
               ("table", "in/labels.parquet", "--coder", "annotator", "--item", "id", *diag),
               ("labels.parquet",)),
        Source("relations/disrpt", FUZZ / "rels", ("relations", "in/a", "in/b", *diag),
               listed=("**/*.rels",)),
        Source("table/mvalpha", FUZZ, ("table", "in/sets.csv", "--set-sep", "|", *diag),
               ("sets.csv",)),
        Source("annotators/wide", tb, ("annotators", "in/dialogue_acts.csv", "--group",
                                       "document", "--models", "majority_vote,wawa,dawid_skene",
                                       *diag), ("dialogue_acts.csv",)),
        *[Source(f"coref/xmi_export_{layout}", FUZZ / "export",
                 ("coref", f"in/{layout}.zip", *diag), (f"{layout}.zip",))
          for layout in ("annotation", "user", "nested")],
        Source("report/samples", SAMPLES, ("report", "in", "--resamples", "20"),
               tuple(_report_files())),
    ]
    c = CORPORA
    out += [
        Source("segments/moonstone", c / "moonstone_kazantseva2012" / "segmentations",
               ("segments", "in/ch1.csv", "--local-coders", *diag), ("ch1.csv",), shared=True),
        Source("segments/stargazers", c / "fournier_segmentation_corpora",
               ("segments", "in/stargazer_hearst_1997.json", *diag),
               ("stargazer_hearst_1997.json",), shared=True),
        Source("segments/hearst_tsv", c / "segeval_samples",
               ("segments", "in/hearst1997.tsv", *diag), ("hearst1997.tsv",), shared=True),
        Source("segments/hearst_positions", c / "segeval_samples",
               ("segments", "in/hearst1997_positions.csv", *diag),
               ("hearst1997_positions.csv",), shared=True),
        Source("segments/rstmulti", c / "rstmulti_hewett2025" / "data",
               ("segments", "in/1", "in/2", *diag), ("1/maz-6539.rs3", "2/maz-6539.rs3"),
               shared=True, listed=("**/*.rs3",)),
        Source("trees/rstmulti", c / "rstmulti_hewett2025" / "data", ("trees", "in/1", "in/2"),
               ("1/maz-6539.rs3", "2/maz-6539.rs3"), shared=True),
        Source("markables/potts", c / "potts_mmax2_subset" / "corpus", ("markables", "in"),
               shared=True, listed=("**/*.mmax",)),
        Source("coref/ezcoref_real", c / "ezcoref_gupta2023" / "annotations" /
               "on_mz_ectb_1001_4", ("coref", "in", *diag), shared=True,
               listed=("**/*.json",)),
        Source("senses/snow2008", c / "snow2008_mturk", ("senses", "in/wsd.standardized.tsv",
                                                         *diag),
               ("wsd.standardized.tsv",), shared=True),
    ]
    return out


def _report_files() -> list[str]:
    """The data files of ``sample_corpora/`` (not its scripts and READMEs)."""
    return sorted(p.relative_to(SAMPLES).as_posix() for p in SAMPLES.rglob("*")
                  if p.is_file() and p.suffix not in (".py", ".md", ".pyc")
                  and "__pycache__" not in p.parts)


def available_sources(shared: bool = True) -> list[Source]:
    """The sources whose files are here (the real corpora only when ``shared``)."""
    return [s for s in sources() if (shared or not s.shared) and s.available()]


# ---- mutations ---------------------------------------------------------------------------------
DIRECTORY = object()  #: a mutation's result: a directory replaces the file
MISSING = object()  #: a mutation's result: the file is deleted
DEVICE = object()  #: a mutation's result: /dev/zero (a symbolic link) or a pipe with no writer


@dataclass
class Context:
    """What a mutation may use besides the file's bytes."""

    rng: random.Random
    path: Path  #: the file being mutated
    secret_dir: Path  #: outside the inputs; holds secret.txt with the token
    token: str
    long_line: int = LONG_LINE
    notes: list[str] = field(default_factory=list)

    def secret(self, name: str) -> str:
        """The path of ``secret_dir/name`` relative to the mutated file's folder."""
        return Path(os.path.relpath(self.secret_dir / name, self.path.parent)).as_posix()

    def note(self, text: str) -> None:
        self.notes.append(text)


@dataclass(frozen=True)
class Mutation:
    """``fn(data, ctx)`` gives the new content (or :data:`DIRECTORY`, :data:`MISSING`) of a
    file that ``applies(data, name)`` accepts."""

    name: str
    help: str
    fn: Callable[[bytes, Context], object]
    applies: Callable[[bytes, str], bool] = lambda data, name: True


def _is_xml(data: bytes, name: str) -> bool:
    head = data[:200].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and _root(data.decode("utf-8", "surrogateescape")) is not None


def _is_json(data: bytes, name: str) -> bool:
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] not in (b"{", b"["):
        return False
    try:
        json.loads(data)
    except ValueError:
        return False
    return True


def _pos(ctx: Context, data: bytes) -> int:
    return ctx.rng.randrange(len(data) + 1)


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def truncate(data: bytes, ctx: Context) -> bytes:
    cut = ctx.rng.randrange(len(data)) if data else 0
    ctx.note(f"cut at byte {cut} of {len(data)}")
    return data[:cut]


def flip(data: bytes, ctx: Context) -> bytes:
    if not data:
        return b"\xff"
    out = bytearray(data)
    where = []
    for _ in range(ctx.rng.randint(1, 8)):
        i = ctx.rng.randrange(len(out))
        out[i] = ctx.rng.randrange(256) if ctx.rng.random() < 0.5 else out[i] ^ (
            1 << ctx.rng.randrange(8))
        where.append(f"{i}:{out[i]:#04x}")
    ctx.note("bytes " + " ".join(where))
    return bytes(out)


def dup_lines(data: bytes, ctx: Context) -> bytes:
    lines = _lines(data) or [b""]
    picked = []
    for _ in range(ctx.rng.randint(1, 3)):
        i = ctx.rng.randrange(len(lines))
        line = lines[i] if lines[i].endswith((b"\n", b"\r")) else lines[i] + b"\n"
        lines.insert(i + 1, line)
        picked.append(i + 1)
    ctx.note("duplicated lines " + ", ".join(map(str, picked)))
    return b"".join(lines)


def del_lines(data: bytes, ctx: Context) -> bytes:
    lines = _lines(data)
    picked = []
    for _ in range(min(len(lines), ctx.rng.randint(1, 3))):
        i = ctx.rng.randrange(len(lines))
        del lines[i]
        picked.append(i + 1)
    ctx.note("deleted lines " + ", ".join(map(str, picked)))
    return b"".join(lines)


def _text(data: bytes) -> str:
    return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")


def utf16(data: bytes, ctx: Context) -> bytes:
    codec = ctx.rng.choice(["utf-16", "utf-16-le", "utf-16-be"])
    ctx.note(codec + (" with BOM" if codec == "utf-16" else " without BOM"))
    return _text(data).encode(codec)


def utf8_bom(data: bytes, ctx: Context) -> bytes:
    return b"\xef\xbb\xbf" + data.removeprefix(b"\xef\xbb\xbf")


def cp1252(data: bytes, ctx: Context) -> bytes:
    out = _text(data).encode("cp1252", "replace")
    letters = [m.start() for m in re.finditer(rb"[A-Za-z]", out)]
    if out.isascii() and letters:  # make it a real cp1252 file: é is 0xe9, not UTF-8
        i = ctx.rng.choice(letters)
        out = out[:i] + b"\xe9" + out[i + 1:]
        ctx.note(f"é (0xe9) at byte {i}")
    return out


def bad_utf8(data: bytes, ctx: Context) -> bytes:
    seq = ctx.rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xe2\x82", b"\x80",
                          b"\xf8\x88\x80\x80\x80"])
    i = _pos(ctx, data)
    ctx.note(f"{seq.hex()} at byte {i}")
    return data[:i] + seq + data[i:]


def crlf(data: bytes, ctx: Context) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def cr(data: bytes, ctx: Context) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")


def nul(data: bytes, ctx: Context) -> bytes:
    i = _pos(ctx, data)
    n = ctx.rng.randint(1, 4)
    ctx.note(f"{n} NUL at byte {i}")
    return data[:i] + b"\0" * n + data[i:]


def empty(data: bytes, ctx: Context) -> bytes:
    return b""


def directory(data: bytes, ctx: Context) -> object:
    return DIRECTORY


def missing(data: bytes, ctx: Context) -> object:
    return MISSING


def device(data: bytes, ctx: Context) -> object:
    return DEVICE


SPECIAL = object()  #: a mutation's result: the file stays, a special entry goes beside it


def special_entry(data: bytes, ctx: Context) -> object:
    return SPECIAL


SPECIAL_FILE = object()  #: a mutation's result: a folder, pipe or link where the file was


def special_file(data: bytes, ctx: Context) -> object:
    return SPECIAL_FILE


OUTPUT = object()  #: a mutation's result: the file stays, ``--output`` names a bad target
#: output targets: no space left, an input/output error, a name too long, a folder, a folder
#: that does not exist
OUTPUT_TARGETS = ("/dev/full", "/proc/version", "long", "folder", "missing")


def output_target(data: bytes, ctx: Context) -> object:
    return OUTPUT


def long_token(data: bytes, ctx: Context) -> bytes:
    """One word of a line (a token, a cell, an attribute value …) becomes a 10 MB token."""
    spots = list(re.finditer(rb"[^\s<>\"'=,;|()\[\]{}]+", data))
    size = ctx.long_line // 2 if ctx.long_line < LONG_LINE else LONG_TOKEN
    token = (b"Zq" * (size // 2 + 1))[:size]
    if not spots:
        ctx.note(f"a {len(token):,}-byte token as the content")
        return token
    m = ctx.rng.choice(spots)
    ctx.note(f"{m.group()[:30]!r} at byte {m.start()} -> a {len(token):,}-byte token")
    return data[:m.start()] + token + data[m.end():]


def long_line(data: bytes, ctx: Context) -> bytes:
    size = ctx.long_line
    lines = _lines(data)
    kind = ctx.rng.choice(["x", "repeat", "field"])
    nonempty = [x.rstrip(b"\r\n") for x in lines if x.strip()]
    if kind == "repeat" and nonempty:
        unit = ctx.rng.choice(nonempty) + ctx.rng.choice([b" ", b"\t", b""])
        line = (unit * (size // len(unit) + 1))[:size]
    else:
        line = (b"x" if kind == "x" else b"a ") * (size // (1 if kind == "x" else 2))
    i = ctx.rng.randrange(len(lines) + 1)
    ctx.note(f"{kind} line of {len(line):,} bytes at line {i + 1}")
    if kind == "field" and lines:  # appended to an existing line: one huge field
        i = min(i, len(lines) - 1)
        end = lines[i][len(lines[i].rstrip(b"\r\n")):]
        lines[i] = lines[i].rstrip(b"\r\n") + line + end
        return b"".join(lines)
    lines.insert(i, line + b"\n")
    return b"".join(lines)


_NUMBERS = [b"99999999999999999999999999", b"9223372036854775808", b"2147483648",
            b"4294967296", b"1000000000000", b"-1", b"0", b"-99999999999", b"1e308", b"NaN"]


def big_number(data: bytes, ctx: Context) -> bytes:
    spots = list(re.finditer(rb"\d+", data))
    m = ctx.rng.choice(spots)
    new = ctx.rng.choice(_NUMBERS)
    ctx.note(f"{m.group().decode()} at byte {m.start()} -> {new.decode()}")
    return data[:m.start()] + new + data[m.end():]


# -- XML ----------------------------------------------------------------------------------------
_DOCTYPE = re.compile(r"<!DOCTYPE[^\[>]*(\[[\s\S]*?\])?\s*>")
_START = re.compile(r"<([A-Za-z_][\w:.\-]*)([^<>]*?)(/?)>")
_TEXT = re.compile(r">([^<>&\s][^<>&]*)<")
_HIDDEN = re.compile(r"<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>")


def _masked(text: str) -> str:
    """``text`` with comments, CDATA sections and processing instructions blanked out."""
    return _HIDDEN.sub(lambda m: " " * len(m.group()), text)


def _root(text: str) -> re.Match | None:
    """The root element's start tag (after the prolog)."""
    text = _DOCTYPE.sub(lambda m: " " * len(m.group()), text, count=1)
    pos = 0
    while True:
        i = text.find("<", pos)
        if i < 0:
            return None
        if text.startswith("<?", i) or text.startswith("<!", i):
            j = text.find("-->", i) + 3 if text.startswith("<!--", i) else text.find(">", i) + 1
            if j <= 0:
                return None
            pos = j
            continue
        return _START.match(text, i)


class _Xml:
    """An XML file as text, with its DOCTYPE removed, to rewrite for an attack."""

    def __init__(self, data: bytes):
        self.text = _DOCTYPE.sub("", data.removeprefix(b"\xef\xbb\xbf").decode(
            "utf-8", "surrogateescape"), count=1)
        self.root = _root(self.text)
        assert self.root is not None

    def elements(self) -> list[tuple[str, list[str]]]:
        """(tag, attribute names) of every element below the root."""
        return [(m.group(1), re.findall(r"([\w:.\-]+)\s*=", m.group(2)))
                for m in _START.finditer(_masked(self.text), self.root.end())]

    def close_root(self) -> None:
        """Turn a self-closing root ``<r/>`` into ``<r></r>``."""
        if self.root.group(3):
            r = self.root
            self.text = (self.text[:r.start()] + r.group()[:-2] + "></" + r.group(1) + ">"
                         + self.text[r.end():])
            self.root = _root(self.text)

    def doctype(self, decl: str) -> None:
        """Put ``decl`` (a ``<!DOCTYPE ...>``) before the root element."""
        i = self.root.start()
        self.text = self.text[:i] + decl + "\n" + self.text[i:]
        self.root = _root(self.text)

    def into_text(self, ctx: Context, markup: str) -> None:
        """Replace a random text node with ``markup`` (or put it first in the root)."""
        self.close_root()
        spots = list(_TEXT.finditer(_masked(self.text), self.root.end()))
        if spots:
            m = ctx.rng.choice(spots)
            self.text = self.text[:m.start(1)] + markup + self.text[m.end(1):]
            ctx.note(f"text {m.group(1)[:30]!r} replaced")
        else:
            self.into_root(markup)

    def into_root(self, markup: str) -> None:
        """``markup`` as the root's first content."""
        self.close_root()
        i = self.root.end()
        self.text = self.text[:i] + markup + self.text[i:]

    def bytes(self) -> bytes:
        return self.text.encode("utf-8", "surrogateescape")


def deep_xml(data: bytes, ctx: Context) -> bytes:
    x = _Xml(data)
    tags = [t for t, _ in x.elements()] or ["d"]
    tag = ctx.rng.choice(tags)
    ctx.note(f"{DEEP:,} nested <{tag}>")
    x.into_root(f"<{tag}>" * DEEP + f"</{tag}>" * DEEP)
    return x.bytes()


def laughs(data: bytes, ctx: Context) -> bytes:
    x = _Xml(data)
    name = x.root.group(1)
    if ctx.rng.random() < 0.5:  # billion laughs: 10^9 "lol"s
        ents = ['<!ENTITY lol "lol">'] + [
            f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10 if i > 1 else "&lol;" * 10}">'
            for i in range(1, 10)]
        x.doctype(f"<!DOCTYPE {name} [\n" + "\n".join(ents) + "\n]>")
        x.into_text(ctx, "&lol9;")
        ctx.note("billion laughs")
    else:  # quadratic blow-up: a 50 kB entity referenced 20,000 times (1 GB)
        x.doctype(f'<!DOCTYPE {name} [<!ENTITY a "{"a" * 50_000}">]>')
        x.into_text(ctx, "&a;" * 20_000)
        ctx.note("quadratic blow-up")
    return x.bytes()


def _secret_dtd(ctx: Context, x: _Xml) -> None:
    """``secret.dtd``: an entity ``leak`` and a default value for every attribute."""
    decls = [f'<!ENTITY leak "{ctx.token}">']
    seen = set()
    for tag, attrs in [(x.root.group(1), re.findall(r"([\w:.\-]+)\s*=", x.root.group(2))),
                       *x.elements()]:
        for a in attrs:
            if (tag, a) not in seen and not a.startswith("xmlns"):
                seen.add((tag, a))
                decls.append(f'<!ATTLIST {tag} {a} CDATA "{ctx.token}">')
    (ctx.secret_dir / "secret.dtd").write_text("\n".join(decls) + "\n", encoding="utf-8")


def xxe(data: bytes, ctx: Context) -> bytes:
    x = _Xml(data)
    name = x.root.group(1)
    if ctx.rng.random() < 0.5:
        x.doctype(f'<!DOCTYPE {name} [<!ENTITY xxe SYSTEM "{ctx.secret("secret.txt")}">]>')
        x.into_text(ctx, "&xxe;")
        ctx.note("external general entity")
    else:
        _secret_dtd(ctx, x)
        x.doctype(f'<!DOCTYPE {name} [<!ENTITY % ext SYSTEM "{ctx.secret("secret.dtd")}">'
                  "\n%ext;\n]>")
        x.into_text(ctx, "&leak;")
        ctx.note("external parameter entity")
    return x.bytes()


def dtd(data: bytes, ctx: Context) -> bytes:
    x = _Xml(data)
    _secret_dtd(ctx, x)
    if ctx.rng.random() < 0.5:  # drop one attribute, so the DTD's default would fill it in
        spots = [m for m in re.finditer(r'\s([\w:.\-]+)\s*=\s*("[^"]*"|\'[^\']*\')',
                                        _masked(x.text))
                 if m.start() > x.root.end() and not m.group(1).startswith("xmlns")]
        if spots:
            m = ctx.rng.choice(spots)
            x.text = x.text[:m.start()] + x.text[m.end():]
            ctx.note(f"attribute {m.group(1)} dropped at byte {m.start()}")
    x.root = _root(x.text)
    x.doctype(f'<!DOCTYPE {x.root.group(1)} SYSTEM "{ctx.secret("secret.dtd")}">')
    x.into_text(ctx, "&leak;")
    return x.bytes()


def xinclude(data: bytes, ctx: Context) -> bytes:
    x = _Xml(data)
    ns = 'xmlns:xi="http://www.w3.org/2001/XInclude"'
    if ctx.rng.random() < 0.5:
        x.into_text(ctx, f'<xi:include {ns} href="{ctx.secret("secret.txt")}" parse="text"/>')
        ctx.note("XInclude of text")
    else:  # an element shaped like the document's own, every value the token
        tag, attrs = ctx.rng.choice(x.elements() or [(x.root.group(1), [])])
        attrs = [a for a in attrs if not a.startswith("xmlns")]
        el = (f"<{tag} " + " ".join(f'{a}="{ctx.token}"' for a in attrs)
              + f">{ctx.token}</{tag}>")
        if ":" in tag:
            el = el.replace(f"<{tag} ", f"<{tag} xmlns:{tag.split(':')[0]}=\"urn:x\" ", 1)
        (ctx.secret_dir / "secret.xml").write_text(el + "\n", encoding="utf-8")
        x.into_root(f'<xi:include {ns} href="{ctx.secret("secret.xml")}"/>')
        ctx.note(f"XInclude of a <{tag}>")
    return x.bytes()


def deep_json(data: bytes, ctx: Context) -> bytes:
    deep = b"[" * DEEP + b"]" * DEEP
    text = data.removeprefix(b"\xef\xbb\xbf")
    numbers = list(re.finditer(rb"(?<=[\s:\[,])\d+(?=[\s,\]}])", text))
    if numbers and ctx.rng.random() < 0.5:
        m = ctx.rng.choice(numbers)
        ctx.note(f"number at byte {m.start()} -> {DEEP:,}-deep array")
        return text[:m.start()] + deep + text[m.end():]
    i = text.find(b"{")
    if i < 0:
        ctx.note(f"{DEEP:,}-deep array as first element")
        j = text.find(b"[") + 1
        return text[:j] + deep + (b"," if text[j:].strip()[:1] != b"]" else b"") + text[j:]
    ctx.note(f'"deep": {DEEP:,}-deep array in the first object')
    rest = text[i + 1:]
    sep = b"," if rest.strip()[:1] != b"}" else b""
    return text[:i + 1] + b'"deep": ' + deep + sep + rest


def _has_digit(data: bytes, name: str) -> bool:
    return re.search(rb"\d", data) is not None


def _has_newline(data: bytes, name: str) -> bool:
    return b"\n" in data


MUTATIONS: dict[str, Mutation] = {m.name: m for m in [
    Mutation("truncate", "cut at a random byte (mid-character, mid-element)", truncate),
    Mutation("flip", "1-8 random bytes changed", flip),
    Mutation("dup_lines", "1-3 random lines duplicated", dup_lines),
    Mutation("del_lines", "1-3 random lines deleted", del_lines),
    Mutation("nul", "1-4 NUL bytes inserted", nul),
    Mutation("big_number", "a number made huge, negative, 0, 1e308 or NaN", big_number,
             _has_digit),
    Mutation("utf16", "re-encoded as UTF-16 (LE with BOM, LE or BE without)", utf16),
    Mutation("utf8_bom", "a UTF-8 byte-order mark in front", utf8_bom),
    Mutation("cp1252", "re-encoded as cp1252 (with at least one non-ASCII byte)", cp1252),
    Mutation("bad_utf8", "an invalid UTF-8 sequence inserted", bad_utf8),
    Mutation("crlf", "CRLF line ends", crlf, _has_newline),
    Mutation("cr", "CR line ends (classic Mac OS)", cr, _has_newline),
    Mutation("empty", "an empty file", empty),
    Mutation("directory", "an empty directory where the file was", directory),
    Mutation("missing", "the file deleted", missing),
    Mutation("device", "/dev/zero or a pipe nobody writes to where the file was", device),
    Mutation("special_entry", "a pipe, a link to /dev/zero or to nothing, or a folder beside "
             "the file in an input folder, named like it", special_entry),
    Mutation("special_file", "a folder, a pipe, a link to /dev/zero or to nothing where a file "
             "the reader opens was (one it lists, one named, one found through another)",
             special_file),
    Mutation("output_target", "--output on /dev/full, /proc/version, a 300-character name, a "
             "folder or a missing folder", output_target),
    Mutation("long_line", "a 20 MB line inserted, or appended to a line", long_line),
    Mutation("long_token", "one word of a line made a 10 MB token", long_token),
    Mutation("deep_json", "a 100,000-deep JSON array", deep_json, _is_json),
    Mutation("deep_xml", "100,000-deep nested elements", deep_xml, _is_xml),
    Mutation("laughs", "entity expansion: billion laughs or a quadratic blow-up", laughs,
             _is_xml),
    Mutation("xxe", "an external (general or parameter) entity reading the secret", xxe,
             _is_xml),
    Mutation("dtd", "an external DTD with the secret as entity and attribute defaults", dtd,
             _is_xml),
    Mutation("xinclude", "an XInclude of the secret (as text or as an element)", xinclude,
             _is_xml),
]}


#: mutations left out of a plan unless asked for by name (none: the command line writes
#: ``--output`` and ``--html`` through ``corpusagree.report.write`` since issue 37, 7)
PENDING: tuple[str, ...] = ()


# ---- cases -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """Case number ``index`` of the plan for ``seed``: ``mutation`` on one file of ``source``."""

    seed: int
    index: int
    source: Source
    mutation: str

    @property
    def id(self) -> str:
        return f"{self.seed}-{self.index:05d}"

    def rng(self) -> random.Random:
        return random.Random(f"corpusagree fuzz {self.seed} {self.index}")


@functools.cache
def _applicable_files(source: Source, mutation: str) -> tuple[str, ...]:
    """The source's files that ``mutation`` applies to (a special entry: the files in a folder
    the command line gives, where the reader looks for files)."""
    test = MUTATIONS[mutation].applies
    found = tuple(f for f in source.targets() if test((source.root / f).read_bytes(), f))
    if mutation == "special_entry":
        found = tuple(f for f in found if _in_given_folder(source, f))
    elif mutation == "special_file":
        found = tuple(f for f in found if _opened(source, f))
    elif mutation == "output_target":
        found = found[:1] if "--output" not in source.argv else ()
    return found


def _opened(source: Source, rel: str) -> bool:
    """Whether the reader opens ``in/<rel>``: a file of the command line, one it lists in a
    folder of the command line, or one it finds through another (``Source.opened``)."""
    return (f"in/{rel}" in source.argv or _in_given_folder(source, rel)
            or rel in _glob(source.root, source.opened))


def _in_given_folder(source: Source, rel: str) -> bool:
    """Whether ``in/<rel>`` is one of the files the reader lists in a folder of the command
    line (``Source.listed``)."""
    if rel not in _glob(source.root, source.listed):
        return False
    target = Path("in") / rel
    for a in source.argv:
        if a == "in" or a.startswith("in/"):
            local = source.root / Path(a).relative_to("in")
            if local.is_dir() and Path(a) in target.parents:
                return True
    return False


def _applicable(source: Source, mutation: Mutation) -> tuple[str, ...]:
    return _applicable_files(source, mutation.name)


def pairs(srcs: Sequence[Source], mutations: Sequence[str] | None = None
          ) -> list[tuple[Source, str]]:
    """Every (source, mutation) pair where the mutation applies to a file of the source (every
    mutation but the :data:`PENDING` ones when none are named)."""
    names = [m for m in MUTATIONS if m not in PENDING] if mutations is None else list(mutations)
    return [(s, m) for s in srcs for m in names if _applicable(s, MUTATIONS[m])]


def plan(n: int, seed: int, srcs: Sequence[Source], mutations: Sequence[str] | None = None
         ) -> list[Case]:
    """``n`` cases: the pairs shuffled once per cycle (the first cycle tries every pair)."""
    every = pairs(srcs, mutations)
    out: list[Case] = []
    cycle = 0
    while len(out) < n and every:
        order = list(every)
        random.Random(f"corpusagree fuzz plan {seed} {cycle}").shuffle(order)
        for s, m in order[:n - len(out)]:
            out.append(Case(seed, len(out), s, m))
        cycle += 1
    return out


def sample(seed: int, srcs: Sequence[Source], per_source: int, per_mutation: int,
           mutations: Sequence[str] | None = None) -> list[Case]:
    """A covering part of the first cycle of :func:`plan`: its cases in plan order, each kept
    while its source has fewer than ``per_source`` cases or its mutation fewer than
    ``per_mutation``. Every source and every mutation is tried, in a fraction of the cycle's
    time, and each case keeps its number in the plan (``--only N`` rebuilds it)."""
    by_source: Counter = Counter()
    by_mutation: Counter = Counter()
    out = []
    for case in plan(len(pairs(srcs, mutations)), seed, srcs, mutations):
        if by_source[case.source.name] < per_source or \
                by_mutation[case.mutation] < per_mutation:
            out.append(case)
            by_source[case.source.name] += 1
            by_mutation[case.mutation] += 1
    return out


def _copy(source: Source, dest: Path) -> None:
    """Copy the source's files (writable, whatever the originals' permissions)."""
    for rel in source.files():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source.root / rel, target)


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


@dataclass
class Prepared:
    file: str | None  #: relative to in/; None for an unmutated source
    detail: str
    bytes: int
    token: str
    entry: str | None = None  #: a special entry put beside the file (relative to the case)
    kind: str | None = None  #: which: pipe, device, broken, folder
    argv: tuple[str, ...] = ()  #: added to the command line (an output target)
    #: the special entry must be named whatever the exit status (False: only when the run
    #: ends with status 0; a refusal naming the folder drops nothing in silence)
    name_always: bool = True
    output: str | None = None  #: the output target, which an error line may name


def prepare(case: Case | Source, folder: Path, *, long_line_size: int = LONG_LINE) -> Prepared:
    """Write the case (or an unmutated source) into ``folder``: ``in/`` and ``secret/``."""
    source = case if isinstance(case, Source) else case.source
    rng = random.Random(0) if isinstance(case, Source) else case.rng()
    token = f"sEcReT{rng.getrandbits(64):016x}"
    inputs, secret_dir = folder / "in", folder / "secret"
    _copy(source, inputs)
    secret_dir.mkdir(parents=True, exist_ok=True)
    (secret_dir / "secret.txt").write_text(token + "\n", encoding="utf-8")
    if isinstance(case, Source):
        return Prepared(None, "unmutated", _size(inputs), token)
    mutation = MUTATIONS[case.mutation]
    rel = rng.choice(_applicable(source, mutation))
    path = inputs / rel
    ctx = Context(rng, path, secret_dir, token, long_line_size)
    result = mutation.fn(path.read_bytes(), ctx)
    if result is DIRECTORY:
        path.unlink()
        path.mkdir()
    elif result is MISSING:
        path.unlink()
    elif result is DEVICE:
        path.unlink()
        if rng.random() < 0.5:
            ctx.note("/dev/zero")
            path.symlink_to("/dev/zero")
        else:
            ctx.note("a pipe")
            os.mkfifo(path)
    elif result is SPECIAL_FILE:
        kind = rng.choice(["pipe", "device", "broken", "folder"])
        path.unlink()
        if kind == "pipe":
            os.mkfifo(path)
        elif kind == "device":
            path.symlink_to("/dev/zero")
        elif kind == "broken":
            path.symlink_to(secret_dir / "nowhere")
        else:
            path.mkdir()
            (path / "note").write_text("not an annotation file\n", encoding="utf-8")
        ctx.note(f"{kind} at {rel}")
        return Prepared(rel, "; ".join(ctx.notes), _size(inputs), token,
                        (Path("in") / rel).as_posix(), kind, name_always=False)
    elif result is OUTPUT:
        target = rng.choice(OUTPUT_TARGETS)
        if target == "long":
            out = (Path("in") / ("o" * 300)).as_posix()
        elif target == "folder":
            out = "in"
        elif target == "missing":
            out = "in/nowhere/out.txt"
        else:
            out = target
        ctx.note(f"--output {out[:40]}")
        fmt = rng.choice(["text", "json"])
        return Prepared(rel, "; ".join(ctx.notes), _size(inputs), token,
                        argv=("--output", out, *(["--json"] if fmt == "json" else [])),
                        output=str(Path(os.path.abspath(folder / out))))
    elif result is SPECIAL:
        entry = path.with_name(f"zz_extra{''.join(path.suffixes) or path.name}")
        kind = rng.choice(["pipe", "device", "broken", "folder"])
        if kind == "pipe":
            os.mkfifo(entry)
        elif kind == "device":
            entry.symlink_to("/dev/zero")
        elif kind == "broken":
            entry.symlink_to(secret_dir / "nowhere")
        else:
            entry.mkdir()
            (entry / "note").write_text("not an annotation file\n", encoding="utf-8")
        ctx.note(f"{kind} {entry.relative_to(inputs).as_posix()}")
        return Prepared(rel, "; ".join(ctx.notes), _size(inputs), token,
                        entry.relative_to(folder).as_posix(), kind)
    else:
        path.write_bytes(result)
    return Prepared(rel, "; ".join(ctx.notes), _size(inputs), token)


# ---- running -----------------------------------------------------------------------------------
def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1", NO_COLOR="1", TERM="dumb")
    env.pop("COLUMNS", None)
    return env


def _wait(pid: int, start: float, timeout: float) -> dict:
    """Wait for ``pid`` (killing it at ``timeout`` seconds): status, times, peak memory."""
    deadline = start + timeout
    delay = 0.001
    timed_out = False
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            timed_out = True
            break
        time.sleep(delay)
        delay = min(2 * delay, 0.02)
    return {"status": os.waitstatus_to_exitcode(status), "timed_out": timed_out,
            "wall": time.perf_counter() - start, "cpu": usage.ru_utime + usage.ru_stime,
            "maxrss_mb": usage.ru_maxrss / 1024}


_EXEC = ("import resource, runpy, sys; m = int(sys.argv[1]); "
         "resource.setrlimit(resource.RLIMIT_AS, (m, m)); "
         "sys.argv = ['corpusagree', *sys.argv[2:]]; "
         "runpy.run_module('corpusagree', run_name='__main__', alter_sys=True)")


class Worker:
    """Runs cases one at a time: through a fork server (``fork``) or ``python -m`` (``exec``)."""

    def __init__(self, mode: str = "fork", memory: int = MEMORY):
        if mode not in ("fork", "exec"):
            raise ValueError(f"unknown mode {mode!r}")
        self.mode, self.memory, self.env = mode, memory, _env()
        self.proc: subprocess.Popen | None = None

    def _server(self) -> subprocess.Popen:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen([sys.executable, __file__, "--serve"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         env=self.env, cwd=ROOT, text=True)
        return self.proc

    def run(self, argv: Sequence[str], cwd: Path, timeout: float) -> dict:
        """Run ``corpusagree argv`` in ``cwd``; stdout and stderr go to ``cwd/stdout``, ``cwd/
        stderr``."""
        out, err = cwd / "stdout", cwd / "stderr"
        req = {"argv": list(argv), "cwd": str(cwd), "stdout": str(out), "stderr": str(err),
               "timeout": timeout, "memory": self.memory}
        if self.mode == "exec":
            with open(out, "wb") as o, open(err, "wb") as e:
                start = time.perf_counter()
                p = subprocess.Popen([sys.executable, "-c", _EXEC, str(self.memory), *argv],
                                     cwd=cwd, stdin=subprocess.DEVNULL, stdout=o, stderr=e,
                                     env=self.env)
                res = _wait(p.pid, start, timeout)
                p.returncode = res["status"]
                return res
        proc = self._server()
        proc.stdin.write(json.dumps(req) + "\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if not line:  # the server died: say so, and start another next time
            self.close()
            raise RuntimeError("the fuzzing worker process died")
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.stdin.close()
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            self.proc = None


def _child(req: dict, out_fd: int, err_fd: int) -> None:
    """In the forked child: run the command line as ``python -m corpusagree`` would."""
    code = 1
    try:
        import resource
        import traceback

        from corpusagree.cli import main

        os.chdir(req["cwd"])
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        sys.stdin = open(0, encoding="utf-8", closefd=False)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace",
                          closefd=False, buffering=1)
        resource.setrlimit(resource.RLIMIT_AS, (req["memory"], req["memory"]))
        sys.argv = ["corpusagree", *req["argv"]]
        try:
            code = main(req["argv"])
        except SystemExit as e:
            code = e.code
        except BaseException:  # what the interpreter does with an uncaught exception
            traceback.print_exc()
            code = 1
        if code is None:
            code = 0
        elif not isinstance(code, int):
            print(code, file=sys.stderr)
            code = 1
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            code = 120
    finally:
        os._exit(code & 0xFF)


def serve() -> None:
    """A fork server: read one JSON request per line on stdin, answer one JSON line."""
    proto = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # anything printed by mistake goes to stderr, not into the protocol
    import corpusagree.cli  # noqa: F401  (imported once, before the forks)
    from corpusagree import readers

    for task in readers.TASKS:
        readers.readers(task)
    try:
        import spacy  # noqa: F401  (the brat and plain-text readers import it on first use)
        import spacy.lang.en  # noqa: F401
    except ImportError:
        pass
    for line in sys.stdin:
        req = json.loads(line)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        out_fd, err_fd = os.open(req["stdout"], flags, 0o644), os.open(req["stderr"], flags,
                                                                        0o644)
        sys.stdout.flush()
        sys.stderr.flush()
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            _child(req, out_fd, err_fd)
        os.close(out_fd)
        os.close(err_fd)
        proto.write(json.dumps(_wait(pid, start, req["timeout"])) + "\n")
        proto.flush()


# ---- outcomes ----------------------------------------------------------------------------------
_MESSAGE = re.compile(r"(?P<path>[^:\n]+?)(?::(?P<line>[^:\s]+))?: (?P<msg>\S.*)")
_MEMORY = (b"MemoryError", b"bad_alloc", b"Cannot allocate memory", b"out of memory")


def _names_input(line: str, cwd: Path, output: str | None = None) -> bool:
    """True when ``line`` is ``file[:line]: message`` with the file under ``cwd/in`` (or the
    output target ``output``)."""
    m = _MESSAGE.fullmatch(line)
    if not m:
        return False
    p = Path(m.group("path"))
    if output is not None and os.path.abspath(p if p.is_absolute() else cwd / p) == output:
        return True
    inputs = Path(os.path.abspath(cwd / "in"))
    # not resolved: an input may be a link (to /dev/zero); ".." is still normalised away
    full = Path(os.path.abspath(p if p.is_absolute() else cwd / p))
    return full == inputs or inputs in full.parents


_MORE = re.compile(r"and [\d,]+ more problems?")


def classify(run: dict, out: bytes, err: bytes, token: str, cwd: Path, bound: float,
             entry: str | None = None, output: str | None = None) -> tuple[str, str]:
    """(outcome, why) of a finished case; ``entry``: a special entry put in an input folder,
    which a warning or an error must name."""
    if token.encode() in out or token.encode() in err:
        where = "stdout" if token.encode() in out else "stderr"
        return "leak", f"the secret token is in {where}"
    if run["timed_out"]:
        return "timeout", f"killed after {run['wall']:.1f} s"
    if any(m in err for m in _MEMORY):
        return "memory", f"peak {run['maxrss_mb']:.0f} MB"
    if b"Traceback (most recent call last)" in err:
        return "traceback", _last_line(err)
    status = run["status"]
    if status < 0:
        return "signal", f"signal {-status} ({signal.Signals(-status).name})"
    if status not in (0, 2):
        return "status", f"exit status {status}"
    lines = [x for x in err.decode("utf-8", "replace").splitlines() if x.strip()]
    other = [x for x in lines if not x.startswith("warning: ")]
    if status == 0 and other:
        return "message", f"exit 0 with stderr {other[0][:200]!r}"
    long = [x for x in lines if len(x) > LINE_LIMIT]
    if long:
        return "message", f"a line of {len(long[0]):,} characters: {long[0][:200]!r}"
    if status == 2:
        listed = other[:-1] if len(other) > 1 and _MORE.fullmatch(other[-1]) else other
        if not listed:
            return "message", "exit 2 without an error line"
        bad = [x for x in listed if not _names_input(x, cwd, output)]
        if bad:
            return "message", f"names no input file: {bad[0][:300]!r}"
    if output is not None and status == 0:
        return "silent", f"exit 0 writing to {output}"
    if entry is not None and not any(entry.removeprefix("in/") in x for x in lines):
        return "silent", f"no warning or error names {entry}"
    if run["cpu"] > bound:
        return "slow", f"CPU {run['cpu']:.2f} s > bound {bound:.2f} s"
    return ("ok", "") if status == 0 else ("error", lines[-1][:300] if lines else "")


def _last_line(err: bytes) -> str:
    lines = [x for x in err.decode("utf-8", "replace").splitlines() if x.strip()]
    return lines[-1][:300] if lines else ""


@dataclass
class Result:
    """A case's outcome, with what reproduces it."""

    id: str
    source: str
    mutation: str
    file: str | None
    detail: str
    argv: list[str]
    outcome: str
    why: str
    status: int
    wall: float
    cpu: float
    maxrss_mb: float
    bytes: int
    bound: float
    stderr: str  #: its first 2,000 characters

    @property
    def failed(self) -> bool:
        return self.outcome in FAILURES

    def line(self) -> str:
        """One line: id, source, mutation, file, outcome and why."""
        return (f"{self.id} {self.source} {self.mutation} {self.file}: {self.outcome} "
                f"({self.why}) [{self.detail}]")


@dataclass
class Settings:
    workers: int = max(1, os.cpu_count() or 1)
    mode: str = "fork"
    timeout: float = 60.0  #: seconds of wall time before a case counts as a hang
    memory: int = MEMORY
    factor: float = 10.0  #: allowed CPU time per byte, relative to the unmutated source
    floor: float = 3.0  #: CPU seconds every case may take whatever its size
    repeats: int = 3  #: runs of each unmutated source to time it (the fastest counts)
    long_line: int = LONG_LINE
    keep: Path | None = None  #: reproducers of failing cases go here
    minutes: float | None = None  #: start no case after this many minutes (None: run all)
    #: the command that rebuilds case ``{index}`` of ``{seed}`` (written beside reproducers)
    rebuild: str = "python benchmarks/fuzz.py --seed {seed} --only {index} --keep DIR"


@dataclass
class Baseline:
    source: str
    outcome: str
    why: str
    cpu: float
    bytes: int

    @property
    def per_byte(self) -> float:
        return self.cpu / max(self.bytes, 1)


@dataclass
class Report:
    results: list[Result]
    baselines: dict[str, Baseline]
    seconds: float
    settings: Settings
    planned: int  #: cases planned; more than ``len(results)`` when the time ran out

    def counts(self) -> Counter:
        return Counter(r.outcome for r in self.results)

    def by_pair(self) -> dict[tuple[str, str], Counter]:
        out: dict[tuple[str, str], Counter] = {}
        for r in self.results:
            out.setdefault((r.source, r.mutation), Counter())[r.outcome] += 1
        return out

    def failures(self) -> list[Result]:
        return [r for r in self.results if r.failed]

    def to_dict(self) -> dict:
        return {"cases": len(self.results), "planned": self.planned, "seconds": self.seconds,
                "settings": {k: str(v) if isinstance(v, Path) else v
                             for k, v in asdict(self.settings).items()},
                "counts": {o: self.counts()[o] for o in OUTCOMES},
                "by_source_mutation": {f"{s} {m}": dict(c)
                                       for (s, m), c in sorted(self.by_pair().items())},
                "baselines": {k: asdict(b) | {"per_byte": b.per_byte}
                              for k, b in self.baselines.items()},
                "failures": [asdict(r) for r in self.failures()]}


def _read(path: Path, limit: int = 256 * MB) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(limit)
    except OSError:
        return b""


def _rmtree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _keep(result: Result, folder: Path, keep: Path, rebuild: str) -> None:
    """Move a failing case's folder to ``keep/<outcome>/<id>/`` with ``case.json`` and
    ``command.sh``; inputs over :data:`KEEP_LIMIT` are replaced by how to rebuild them."""
    dest = keep / result.outcome / result.id
    _rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    big = result.bytes > KEEP_LIMIT
    if big:
        _rmtree(folder / "in")
    shutil.move(str(folder), dest)
    seed, index = result.id.split("-")
    rebuild = rebuild.format(seed=seed, index=int(index))
    (dest / "case.json").write_text(json.dumps(asdict(result) | {"rebuild": rebuild},
                                               indent=2, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    cmd = " ".join(_quote(a) for a in result.argv)
    (dest / "command.sh").write_text(
        f"# {result.source}, {result.mutation} of in/{result.file}: {result.detail}\n"
        + (f"# inputs too large to keep; rebuild them with: {rebuild}\n" if big else "")
        + f'cd "$(dirname "$0")" && python -m corpusagree {cmd}\n', encoding="utf-8")


def _quote(arg: str) -> str:
    return arg if re.fullmatch(r"[\w./,=:+-]+", arg) else "'" + arg.replace("'", "'\\''") + "'"


def _execute(worker: Worker, item: Case | Source, folder: Path, settings: Settings,
             per_byte: float | None) -> tuple[Result, Path]:
    """Write and run a case (or an unmutated source, ``per_byte`` None: no time bound)."""
    folder.mkdir(parents=True)
    prep = prepare(item, folder, long_line_size=settings.long_line)
    bound = (float("inf") if per_byte is None else
             max(settings.floor, settings.factor * per_byte * prep.bytes))
    source = item if isinstance(item, Source) else item.source
    argv = list(source.argv)
    if isinstance(item, Case):  # every renderer sees mutated input too
        fmt = random.Random(f"corpusagree fuzz format {item.seed} {item.index}").choice(FORMATS)
        argv += list(prep.argv) if prep.argv else [] if fmt == "text" else ["--format", fmt]
    run = worker.run(argv, folder, settings.timeout)
    out, err = _read(folder / "stdout"), _read(folder / "stderr")
    entry = prep.entry if prep.name_always or run["status"] == 0 else None
    outcome, why = classify(run, out, err, prep.token, folder, bound, entry, prep.output)
    case_id = item.id if isinstance(item, Case) else "unmutated"
    mutation = item.mutation if isinstance(item, Case) else "none"
    return Result(case_id, source.name, mutation, prep.file, prep.detail, argv, outcome, why,
                  run["status"], run["wall"], run["cpu"], run["maxrss_mb"], prep.bytes, bound,
                  err.decode("utf-8", "replace")[:2000]), folder


def _pool(items: Sequence, work: Callable[[Worker, object], object], settings: Settings,
          progress: Callable[[int, int], None] | None = None, deadline: float | None = None
          ) -> list:
    """``work(worker, item)`` for every item on ``settings.workers`` threads, each with its own
    worker; results in the items' order (None for items not started by ``deadline``, a
    ``time.perf_counter()`` value)."""
    results: list = [None] * len(items)
    lock = threading.Lock()
    it: Iterator[int] = iter(range(len(items)))
    done = [0]
    errors: list[BaseException] = []

    def loop() -> None:
        worker = Worker(settings.mode, settings.memory)
        try:
            while not errors:
                with lock:
                    late = deadline is not None and time.perf_counter() > deadline
                    i = None if late else next(it, None)
                if i is None:
                    return
                results[i] = work(worker, items[i])
                with lock:
                    done[0] += 1
                    if progress is not None:
                        progress(done[0], len(items))
        except BaseException as e:  # reported by the caller
            errors.append(e)
        finally:
            worker.close()

    threads = [threading.Thread(target=loop, daemon=True)
               for _ in range(min(settings.workers, len(items)) or 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def baselines(srcs: Sequence[Source], workdir: Path, settings: Settings) -> dict[str, Baseline]:
    """Each unmutated source's outcome and fastest CPU time over ``settings.repeats`` runs."""
    items = [(s, k) for s in srcs for k in range(settings.repeats)]

    def work(worker: Worker, item: tuple[Source, int]) -> Result:
        s, k = item
        res, folder = _execute(worker, s, workdir / f"base-{_slug(s.name)}-{k}", settings,
                               None)
        _rmtree(folder)
        return res

    out: dict[str, Baseline] = {}
    for r in _pool(items, work, settings):
        b = out.get(r.source)
        if b is None or r.cpu < b.cpu:
            out[r.source] = Baseline(r.source, r.outcome, r.why, r.cpu, r.bytes)
    return out


def _slug(name: str) -> str:
    return re.sub(r"[^\w]+", "_", name)


def read_journal(journal: Path, cases: Sequence[Case]) -> dict[str, Result]:
    """The results a journal holds for ``cases``, by case id; an error when one of its lines
    was written for another plan (another seed, sources or mutations)."""
    planned = {c.id: c for c in cases}
    held: dict[str, Result] = {}
    if not journal.exists():
        return held
    for n, line in enumerate(journal.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = Result(**json.loads(line))
        except (ValueError, TypeError) as e:  # a line cut by a kill: run that case again
            print(f"{journal}:{n}: not a result ({e}); the case runs again", file=sys.stderr)
            continue
        case = planned.get(r.id)
        if case is None:
            continue
        if (case.source.name, case.mutation) != (r.source, r.mutation):
            raise SystemExit(f"{journal}:{n}: case {r.id} is {r.source} {r.mutation} there, "
                             f"{case.source.name} {case.mutation} in this plan: another plan")
        held[r.id] = r
    return held


def run(cases: Sequence[Case], workdir: Path, settings: Settings | None = None,
        progress: Callable[[int, int], None] | None = None,
        journal: Path | None = None) -> Report:
    """Run the cases (and time their unmutated sources first) in ``workdir``.

    With a ``journal``, each finished case's result is appended to it as a JSON line, and
    the cases it already holds are not run again: a long run can be stopped and continued.
    """
    settings = settings or Settings()
    start = time.perf_counter()
    held = read_journal(journal, cases) if journal is not None else {}
    todo = [c for c in cases if c.id not in held]
    srcs = list({c.source.name: c.source for c in todo}.values())
    base = baselines(srcs, workdir, settings)
    write = threading.Lock()

    def work(worker: Worker, case: Case) -> Result:
        folder = workdir / case.id
        _rmtree(folder)
        try:
            res, folder = _execute(worker, case, folder, settings,
                                   base[case.source.name].per_byte)
        except Exception:
            _rmtree(folder)
            raise
        if res.failed and settings.keep is not None:
            _keep(res, folder, settings.keep, settings.rebuild)
        else:
            _rmtree(folder)
        if journal is not None:
            with write, open(journal, "a", encoding="utf-8") as f:
                f.write(json.dumps(asdict(res), ensure_ascii=False) + "\n")
        return res

    deadline = None if settings.minutes is None else start + 60 * settings.minutes
    new = {r.id: r for r in _pool(todo, work, settings, progress, deadline) if r is not None}
    results = [held.get(c.id) or new.get(c.id) for c in cases]
    return Report([r for r in results if r is not None], base, time.perf_counter() - start,
                  settings, len(cases))


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    serve()
