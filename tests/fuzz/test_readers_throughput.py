"""``benchmarks/readers_throughput.py`` on small corpora: every reader of the registry has a
generator, each generated corpus reaches the size asked for and reads back through the
registry as what was generated (one object per document and annotator; one sense tag per tag
given)."""

from __future__ import annotations

import argparse

import pytest

from corpusagree import readers

from support import load_benchmark

bench = load_benchmark("readers_throughput")
ARGS = argparse.Namespace(mentions=20, units=300, seed=0)
MB = 0.03


def test_every_registered_reader_is_benchmarked():
    covered = {(task, fmt) for task, fmt, *_ in bench.READERS.values()}
    for task in readers.TASKS:
        for name in readers.readers(task):
            assert (task, name) in covered


@pytest.mark.parametrize("label", list(bench.READERS))
def test_generated_corpus_reads_back(label, tmp_path):
    task, fmt, corpus, _ = bench.READERS[label]
    paths, size, n, _ = bench.build(label, tmp_path, MB, ARGS)
    assert size >= MB * 1e6
    found, objects = readers.read(task, paths, fmt)
    assert found == fmt
    platform = readers.get(task, fmt).spans_only if task == "coref" else False
    if task == "timeline":  # one continuum per file of 50 documents, every annotator in it
        assert len(objects) == -(-n // 50)
        assert all(len(c.annotators) == len(bench.ANNOTATORS) for c in objects)
    elif platform:  # the platforms name their annotators (e-mails, sessions, files)
        assert len({o.annotator for o in objects}) == len(bench.ANNOTATORS)
        # INCEpTION's diff lists annotations only: a document an annotator left empty is
        # absent
        assert len(objects) <= 3 * n if fmt == "inception_diff" else len(objects) == 3 * n
    elif task in ("coref", "segments"):
        assert len(objects) == 3 * n
        assert {o.annotator for o in objects} == (
            {"1", "2", "3"} if fmt == "ezcoref" else
            set(bench.ANNOTATORS if task == "coref" else bench.CODERS))
    elif task in ("trees", "relations"):
        assert len(objects) == (3 if task == "trees" else 2) * n
    elif fmt != "ontonotes":  # OntoNotes: an agreed sense is both annotators' tag
        tags = [t for *_, tagged in corpus(n, ARGS) for *_, per in tagged for t in per]
        assert len(objects) == sum(1 for t in tags if t)
    else:
        assert objects


@pytest.mark.parametrize("label", list(bench.REAL))
def test_real_documents_repeated_read_back(label, tmp_path, corpora):
    """Every reader has a corpus of real documents repeated (``../shared/corpora``, else
    sample_corpora and tests/data), at least the size asked, which reads back."""
    import warnings

    task, fmt, _, _ = bench.READERS[label]
    try:
        paths, size, source = bench.build_real(label, tmp_path / "r", 0.2)
    except FileNotFoundError:
        pytest.skip(f"{label}: its real documents are not here")
    assert size >= 0.2e6 and source
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found, objects = readers.read(task, paths, fmt)
    assert found == fmt and objects


@pytest.mark.parametrize("label", list(bench.FLOORS))
def test_floors_run_on_the_readers_files(label, tmp_path, corpora):
    """What bounds a reader from below is timed on the files the reader reads: it finds
    them (a floor that reads nothing would be no floor) and takes some CPU time."""
    import warnings

    if label in bench.PLATFORM_READERS:  # written from the platforms' real examples
        defaults = argparse.Namespace(seed=0, mentions=100, units=2000)
        paths, size, _, _ = bench.build(label, tmp_path / "r", 0.2, defaults)
    else:
        try:
            paths, size, _ = bench.build_real(label, tmp_path / "r", 0.2)
        except FileNotFoundError:
            pytest.skip(f"{label}: its real documents are not here")
    files = bench._files(list(map(str, paths)))
    assert sum(f.stat().st_size for f in files) == size
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = bench.floor_once(label, list(map(str, paths)))
    assert got["cpu_seconds"] > 0 and got["seconds"] > 0
