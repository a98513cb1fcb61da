"""The robustness suite: mutation fuzzing of every reader and job at CI size.

A covering part of one seeded cycle of ``benchmarks/fuzzing.py``'s plan
(:func:`fuzzing.sample`: every source at least 5 times, every mutation at least 10 times, about
400 of the cycle's 1,500 pairs; ``benchmarks/fuzz.py`` runs every pair, and more). The sources
are the files of ``sample_corpora/`` and ``tests/data/``, and small files of
``../shared/corpora`` when present; the mutations are truncation, byte flips, duplicated and
deleted lines, NUL bytes, huge numbers, UTF-16, UTF-8 with BOM, cp1252, invalid UTF-8, CRLF,
CR, empty and missing files, a directory for a file, a 20 MB line, 100,000-deep XML and JSON,
billion laughs, external entities and DTDs, XInclude, a special entry beside a file in an input
folder, a folder, pipe or link where a file the reader opens was (named, listed or found
through another), a 10 MB token; the new jobs' sources are trees, relations in every format,
the annotators' models, set labels for mvα, INCEpTION's export zips in their three layouts, the
ratings and the platforms' exports. Every case must end with exit status 0, or 2 and one line
``file:line: message`` per problem naming an input (then ``and N more problems``), none longer
than ``fuzzing.LINE_LIMIT``; never a traceback, a hang, a crash, a memory blow-up, more than
10× the CPU time per byte of its unmutated source, the content of a file outside the inputs, or
a special entry skipped without a word.
``benchmarks/fuzz.py`` runs the same at benchmark size and keeps reproducers.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from lxml import etree

from corpusagree import readers
from corpusagree.analyses import jobs

from support import load_benchmark

#: every registered job, and the report of a study folder
JOBS = (*jobs.registered(), "report")
#: seconds before a case counts as a hang: above the longest legitimate case, a 20 MB line of
#: words in a plain-text segmentation, which spaCy tokenises in about 40 s (0.5 MB/s)
TIMEOUT = 90.0
#: cases of each source and of each mutation at least (the whole cycle, 1,500 cases, took
#: 7 minutes of CI's 12; this part takes about 2)
PER_SOURCE, PER_MUTATION = 5, 10


fuzzing = load_benchmark("fuzzing")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    srcs = fuzzing.available_sources()
    cases = fuzzing.sample(0, srcs, per_source=PER_SOURCE, per_mutation=PER_MUTATION)
    return fuzzing.run(cases, tmp_path_factory.mktemp("fuzz"),
                       fuzzing.Settings(timeout=TIMEOUT))


def test_every_reader_and_job_has_a_source():
    srcs = {s.name: s for s in fuzzing.sources() if s.argv[0] in fuzzing.jobs()}
    missing = [n for n, s in srcs.items() if not s.shared and not s.available()]
    assert not missing, f"sources whose files are gone (update benchmarks/fuzzing.py): {missing}"
    formats = {n.split("/")[1] for n in srcs if not srcs[n].shared}
    for task in readers.TASKS:
        for name in readers.readers(task):
            assert any(f == name or f.startswith(name) for f in formats), (task, name)
    assert {n.split("/")[0] for n in srcs} == fuzzing.jobs()


def test_unmutated_sources_run_clean(report):
    bad = [f"{b.source}: {b.outcome} ({b.why})" for b in report.baselines.values()
           if b.outcome != "ok"]
    if bad:
        pytest.fail("\n".join(bad), pytrace=False)


@pytest.mark.parametrize("job", JOBS)
def test_no_case_fails(report, job):
    if job not in fuzzing.jobs():
        pytest.skip(f"no {job} job in this corpusagree")
    mine = [r for r in report.results if r.source.split("/")[0] == job]
    assert mine
    fails = [r for r in mine if r.failed]
    if fails:
        by_outcome = Counter(r.outcome for r in fails)
        pytest.fail(f"{len(fails)} of {len(mine)} {job} cases failed ({dict(by_outcome)}); "
                    "rebuild one with: python benchmarks/fuzz.py --only N --keep DIR "
                    "(N: the case number after the seed)\n"
                    + "\n".join(r.line() for r in fails), pytrace=False)


def test_attacks_reach_the_secret_through_an_unsafe_parser(tmp_path):
    """The leak check is not vacuous: with entities, DTDs and XInclude on, every XML attack of
    the suite puts the secret token into the parsed document."""
    unsafe = etree.XMLParser(resolve_entities=True, load_dtd=True, attribute_defaults=True,
                             no_network=True)
    tried = 0
    for source in fuzzing.available_sources(shared=False):
        xml = [f for f in source.targets() if fuzzing._is_xml((source.root / f).read_bytes(), f)]
        for rel in xml[:2]:
            for attack in ("xxe", "dtd", "xinclude"):
                for k in range(2):
                    case = tmp_path / f"{tried}"
                    path = case / "in" / rel
                    path.parent.mkdir(parents=True)
                    (case / "secret").mkdir()
                    (case / "secret" / "secret.txt").write_text("sEcReT42\n", encoding="utf-8")
                    ctx = fuzzing.Context(random.Random(k), path, case / "secret", "sEcReT42")
                    path.write_bytes(fuzzing.MUTATIONS[attack].fn(
                        (source.root / rel).read_bytes(), ctx))
                    tree = etree.parse(str(path), unsafe)
                    tree.xinclude()
                    assert b"sEcReT42" in etree.tostring(tree), (source.name, rel, ctx.notes)
                    tried += 1
    assert tried >= 60


def _run(status=0, cpu=0.1, timed_out=False):
    return {"status": status, "timed_out": timed_out, "wall": cpu, "cpu": cpu, "maxrss_mb": 50}


@pytest.mark.parametrize("run, err, expected", [
    (_run(0), b"", "ok"),
    (_run(0), b"warning: 2 mentions skipped\n", "ok"),
    (_run(2), b"in/a.xml:3: malformed XML\n", "error"),
    (_run(2), b"in/x/y.ann: no text\n", "error"),
    (_run(2), b"warning: w\nin/x:e12: bad span\n", "error"),
    (_run(2), b"no input files\n", "message"),
    (_run(2), b"/etc/passwd: nope\n", "message"),
    (_run(2), b"in/a: one\nin/b: two\n", "error"),                 # every problem at once
    (_run(2), b"in/a:3: one\nin/b:4: two\nand 5 more problems\n", "error"),
    (_run(2), b"in/a: one\nno file: two\n", "message"),
    (_run(2), b"in/a: " + b"x" * 600 + b"\n", "message"),          # quotes the input whole
    (_run(2), b"and 3 more problems\n", "message"),
    (_run(0), b"something\n", "message"),
    (_run(1), b"Traceback (most recent call last):\n  ...\nKeyError: 3\n", "traceback"),
    (_run(1), b"Traceback (most recent call last):\nMemoryError\n", "memory"),
    (_run(-11), b"", "signal"),
    (_run(3), b"", "status"),
    (_run(0, timed_out=True), b"", "timeout"),
    (_run(0, cpu=9.0), b"", "slow"),
    (_run(2), b"in/a: sEcReT42 is not a number\n", "leak"),
])
def test_classify(tmp_path, run, err, expected):
    (tmp_path / "in").mkdir()
    outcome, _ = fuzzing.classify(run, b"", err, "sEcReT42", tmp_path, bound=3.0)
    assert outcome == expected


@pytest.mark.parametrize("err, expected", [
    (b"", "silent"),
    (b"warning: in/brat/ann1/zz_extra.ann: skipped: a pipe (FIFO)\n", "ok"),
    (b"warning: in/brat/ann1/other.ann: skipped: a pipe (FIFO)\n", "silent"),
])
def test_a_special_entry_must_be_named(tmp_path, err, expected):
    (tmp_path / "in").mkdir()
    outcome, _ = fuzzing.classify(_run(0), b"", err, "sEcReT42", tmp_path, bound=3.0,
                                  entry="in/brat/ann1/zz_extra.ann")
    assert outcome == expected


def test_special_entries_go_where_a_reader_lists_files(tmp_path):
    """The special-entry mutation applies to the files a reader lists in a folder given on the
    command line, and puts each kind of entry beside the file."""
    srcs = {s.name: s for s in fuzzing.available_sources(shared=False)}
    assert fuzzing._applicable_files(srcs["coref/brat"], "special_entry") == tuple(
        f for f in srcs["coref/brat"].targets() if f.endswith(".ann"))
    assert not fuzzing._applicable_files(srcs["coref/conll"], "special_entry")  # files given
    kinds = set()
    for index in range(40):
        case = fuzzing.Case(0, index, srcs["coref/brat"], "special_entry")
        prep = fuzzing.prepare(case, tmp_path / str(index))
        entry = tmp_path / str(index) / prep.entry
        assert entry.parent == (tmp_path / str(index) / "in" / prep.file).parent
        assert entry.is_symlink() or entry.exists() or entry.is_dir()
        kinds.add(prep.kind)
    assert kinds == {"pipe", "device", "broken", "folder"}


def test_special_files_go_where_a_reader_opens_files():
    """The special-file mutation reaches the files found through others (MMAX2's levels,
    schemes and common_paths.xml, brat's .txt, XMI's TypeSystem.xml), not only those listed."""
    srcs = {s.name: s for s in fuzzing.available_sources(shared=False)}
    mmax2 = fuzzing._applicable_files(srcs["coref/mmax2"], "special_file")
    assert any(f.endswith("_level.xml") for f in mmax2)
    assert any(f.endswith("common_paths.xml") for f in mmax2)
    assert any(f.startswith("Schemes/") for f in mmax2)
    assert any(f.endswith(".txt") for f in fuzzing._applicable_files(srcs["coref/brat"],
                                                                     "special_file"))
    assert "output_target" in {m for _, m in fuzzing.pairs(list(srcs.values()))}


@pytest.mark.parametrize("status, err, expected", [
    (0, b"", "silent"),
    (2, b"in/m/ann1/Markables/x_level.xml: a folder where a file is expected\n", "error"),
])
def test_a_special_file_must_be_named(tmp_path, status, err, expected):
    (tmp_path / "in").mkdir()
    outcome, _ = fuzzing.classify(_run(status), b"", err, "sEcReT42", tmp_path, bound=3.0,
                                  entry="in/m/ann1/Markables/x_level.xml")
    assert outcome == expected


def test_an_output_target_may_be_named(tmp_path):
    (tmp_path / "in").mkdir()
    outcome, _ = fuzzing.classify(_run(2), b"", b"/dev/full: cannot write: No space left on "
                                  b"device\n", "sEcReT42", tmp_path, bound=3.0,
                                  output="/dev/full")
    assert outcome == "error"


def test_a_journal_continues_a_run_without_running_its_cases_again(tmp_path, monkeypatch):
    srcs = [s for s in fuzzing.available_sources(shared=False) if s.name == "table/long"]
    cases = fuzzing.plan(3, 5, srcs, ["truncate"])
    journal = tmp_path / "journal.jsonl"
    first = fuzzing.run(cases[:2], tmp_path / "a", fuzzing.Settings(workers=1, repeats=1),
                        journal=journal)
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 2
    ran = []
    execute = fuzzing._execute
    monkeypatch.setattr(fuzzing, "_execute", lambda w, c, *a: ran.append(c) or execute(w, c, *a))
    again = fuzzing.run(cases, tmp_path / "b", fuzzing.Settings(workers=1, repeats=1),
                        journal=journal)
    assert [c.id for c in ran if isinstance(c, fuzzing.Case)] == [cases[2].id]
    assert [r.id for r in again.results] == [c.id for c in cases]
    assert again.results[:2] == first.results
    other = fuzzing.plan(3, 5, srcs, ["flip"])
    with pytest.raises(SystemExit, match="another plan"):
        fuzzing.run(other, tmp_path / "c", fuzzing.Settings(workers=1), journal=journal)
