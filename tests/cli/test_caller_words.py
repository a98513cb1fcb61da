"""Messages in the caller's words (issue 31, item 6): the layers below the command line name
Python's keywords (``input_format=NAME``), and the command line gives the same message with
its flags (``--input-format NAME``), the mapping made once by :func:`corpusagree.cli.in_flags`.

Each case is one message: what a Python caller does to get it and the keyword it must read,
then (when the command line can make the same mistake) the command and the flag it must
read. Messages checked elsewhere with both words: the reader options of another format
(tests/readers/test_reader_registry.py, tests/cli/test_segments_cli.py), ``tier_pattern``
matching nothing (tests/readers/test_timeline.py), ``common_paths`` (test_reader_mmax2.py,
test_markables_cli.py), the span layers (test_reader_xmi.py, test_spans_cli.py), the sense
inventory (test_senses_cli.py), ``gold`` (test_annotators_cli.py).
"""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

import pytest

import corpusagree as ca
from corpusagree import readers
from corpusagree.analyses import coref, segments, spans, study, table
from corpusagree.cli import in_flags
from corpusagree.model.errors import InputError

S = "sample_corpora"
T = "tests/data/timeline"
FLAG = re.compile(r"(?<![\w-])--[a-z]")
CONLL = [f"{S}/coref/conll2012/ann1.v4_gold_conll", f"{S}/coref/conll2012/ann2.v4_gold_conll"]


def _iob1(tmp: Path) -> list[Path]:
    """Two CoNLL NER files, the first with an I- tag after O (IOB1)."""
    (tmp / "a.conll").write_text("Tom B-PER\nsaw O\nAnn I-PER\n")
    (tmp / "b.conll").write_text("Tom B-PER\nsaw O\nAnn B-PER\n")
    return [tmp / "a.conll", tmp / "b.conll"]


#: (case, Python call of the temporary folder, what Python reads, the command line's
#: arguments or None (the command line cannot make this mistake), what the command line reads)
CASES = [
    ("other task's files", lambda tmp: readers.read("segments", [f"{S}/coref/brat"]),
     "not segments: read them as coref (or input_format='text' reads them as such",
     None, None),  # through a job, its corpus layer names the jobs that read them
    ("format unknown", lambda tmp: coref.read(["README.md"]),
     "cannot tell the coref format; pass input_format=NAME",
     ["coref", "README.md"], "cannot tell the coref format; pass --input-format NAME"),
    ("formats mixed", lambda tmp: segments.read([f"{S}/segments/rs3",
                                                 f"{S}/segments/segments.json"]),
     "; pass input_format=NAME",
     ["segments", f"{S}/segments/rs3", f"{S}/segments/segments.json"],
     "; pass --input-format NAME"),
    ("annotators per path", lambda tmp: coref.read(CONLL, annotators=["a"]),
     "annotators=[...] gives 1 names for 2 paths",
     ["coref", *CONLL, "--annotators", "a"], "--annotators ... gives 1 names for 2 paths"),
    ("annotators per folder", lambda tmp: coref.read([f"{S}/coref/brat"], annotators=["a"]),
     "annotators=[...] gives 1 names for the 3 annotators found",
     ["coref", f"{S}/coref/brat", "--annotators", "a"],
     "--annotators ... gives 1 names for the 3 annotators found"),
    ("annotators in segmentations",
     lambda tmp: segments.read([f"{S}/segments/segments.json"], annotators=["z"]),
     "annotators=[...]: z not found",
     ["segments", f"{S}/segments/segments.json", "--annotators", "z"],
     "--annotators ...: z not found"),
    ("annotators of tiers",
     lambda tmp: spans.read([f"{T}/two_tiers_long.TextGrid"], annotators=["a"]),
     "annotators=[...] gives 1 names for 2 annotators",
     ["spans", f"{T}/two_tiers_long.TextGrid", "--annotators", "a"],
     "--annotators ... gives 1 names for 2 annotators"),
    ("lang", lambda tmp: coref.read([f"{S}/coref/brat"], lang="xx_nope"),
     "lang='xx_nope': spaCy has no blank pipeline",
     ["coref", f"{S}/coref/brat", "--lang", "xx_nope"],
     "--lang 'xx_nope': spaCy has no blank pipeline"),
    ("tier pattern", lambda tmp: spans.read([f"{T}/two_tiers_long.TextGrid"], tier_pattern="("),
     "tier_pattern='(' is no regular expression",
     ["spans", f"{T}/two_tiers_long.TextGrid", "--tier-pattern", "("],
     "--tier-pattern '(' is no regular expression"),
    ("chains from a type", lambda tmp: coref.read([f"{S}/coref/brat"], chains_from="type"),
     "chains_from='type': no T type of these files is NAME-<number>",
     ["coref", f"{S}/coref/brat", "--chains-from", "type"],
     "--chains-from 'type': no T type"),
    ("chains from no such thing",
     lambda tmp: coref.read([f"{S}/coref/brat"], chains_from="nope"),
     "chains_from='nope'", None, None),  # argparse's choices refuse it first
    ("IOB2 scheme", lambda tmp: spans.read(_iob1(tmp), input_format="conll_ner",
                                           scheme="iob2"),
     "under scheme='iob2' (read it as IOB1 with scheme='auto')",
     lambda tmp: ["spans", *_iob1(tmp), "--input-format", "conll_ner", "--scheme", "iob2"],
     "under --scheme 'iob2' (read it as IOB1 with --scheme 'auto')"),
    ("run and swap", lambda tmp: table.read(f"{S}/table/sentiment_runs.csv", run="run",
                                            swap="x"),
     "run='run' and swap='x' cannot be combined",
     ["table", f"{S}/table/sentiment_runs.csv", "--run", "run", "--swap", "x"],
     "--run 'run' and --swap 'x' cannot be combined"),
    ("categories", lambda tmp: table.read(f"{S}/ratings/essays.csv", numeric=True,
                                          categories=["1", "x"]),
     "categories=[...] holds 'x', not a finite number",
     ["table", f"{S}/ratings/essays.csv", "--distance", "interval", "--categories", "1,x"],
     "--categories ... holds 'x', not a finite number"),
    ("unit of segmentations", lambda tmp: spans.read([f"{S}/segments/segments.json"],
                                                     unit="char"),
     "unit='char': only for span formats",
     ["spans", f"{S}/segments/segments.json", "--unit", "char"],
     "--unit 'char': only for span formats"),
    ("category of time-aligned files", lambda tmp: spans.read([f"{T}/ann1.rttm",
                                                               f"{T}/ann2.rttm"], category="x"),
     "category='x': only for span formats",
     ["spans", f"{T}/ann1.rttm", f"{T}/ann2.rttm", "--category", "x"],
     "--category 'x': only for span formats"),
    ("token positions", lambda tmp: spans.read(CONLL, unit="char"),
     "use unit='token'", ["spans", *CONLL, "--unit", "char"], "use --unit 'token'"),
    ("set-valued distance",
     lambda tmp: table.analyse(table.read(f"{S}/table/dialogue_acts.csv"), distance="masi"),
     "with set_sep='|'", ["table", f"{S}/table/dialogue_acts.csv", "--distance", "masi"],
     "with --set-sep '|'"),
    ("numeric distance", lambda tmp: ca.alpha([["a", "b", "c"], ["a", "c", "c"]],
                                              distance="interval"),
     "use distance='nominal'", None, None),  # the command line reads such labels as numbers
    ("mvα on single values", lambda tmp: ca.mv_alpha([["a", "b"], ["a", "c"]]),
     "with set_sep='|'", None, None),  # the command line's table reads sets with --set-sep
    ("compare without a bootstrap",
     lambda tmp: study.compare(*[table.analyse(table.read(f"{S}/table/dialogue_acts.csv"))] * 2),
     "(bootstrap=…)", None, None),  # the command line's compare always resamples
]


@pytest.mark.parametrize("case, call, python, argv, flagged", CASES,
                         ids=[c[0] for c in CASES])
def test_python_reads_keywords_and_the_command_line_flags(case, call, python, argv, flagged,
                                                          tmp_path, cli):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((InputError, ValueError)) as e:
            call(tmp_path)
    message = str(e.value)
    assert python in message and not FLAG.search(message), message
    if argv is None:
        return
    status, _, err = cli(*(argv(tmp_path) if callable(argv) else argv))
    assert status == 2 and flagged in err, err


def test_a_reader_warning_is_given_in_flags_on_the_command_line(cli):
    """brat's note on chains read from T types names chains_from in Python, --chains-from on
    the command line (warnings pass through in_flags too)."""
    with pytest.warns(UserWarning, match=r"\(chains_from='relations' reads every T line"):
        coref.read(["tests/data/coref_c/brat_litbank/ann1"])
    _, _, err = cli("coref", "tests/data/coref_c/brat_litbank/ann1",
                    "tests/data/coref_c/brat_litbank/ann2")
    assert "(--chains-from 'relations' reads every T line" in err


def test_in_flags_keeps_what_the_command_has_no_flag_for():
    names = {"annotators": "--annotators", "ci": "--ci", "bootstrap": "--ci"}
    assert in_flags("annotators=['a', 'b'] and bootstrap=… but lang='fr'", names) == \
        "--annotators a,b and --ci … but lang='fr'"


def test_a_reports_note_is_given_in_flags_on_the_command_line(cli_json):
    """A job's default reader option is noted in Python's words in the corpus, and in flags
    in what the command line writes (its JSON too)."""
    [note] = [n for n in coref.read(f"{S}/coref/mmax2").notes if "reader option" in n]
    assert note.startswith("reader option levels=['coref'] (coref job's default for mmax2")
    assert not FLAG.search(note)
    [note] = [n for n in cli_json("coref", f"{S}/coref/mmax2")["notes"] if "reader option" in n]
    assert note.startswith("reader option --levels coref (coref job's default for mmax2")


def test_the_scheduler_without_dask_distributed(monkeypatch, cli):
    monkeypatch.setitem(sys.modules, "distributed", None)  # not installed
    with pytest.raises(InputError) as e:
        table.analyse_dask([f"{S}/table/dialogue_acts.csv"], scheduler="tcp://x:1")
    assert str(e.value).startswith("scheduler='tcp://x:1' needs dask.distributed")
    status, _, err = cli("table", f"{S}/table/dialogue_acts.csv", "--engine", "dask",
                         "--scheduler", "tcp://x:1")
    assert status == 2 and err.startswith("--scheduler 'tcp://x:1' needs dask.distributed")
