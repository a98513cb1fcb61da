"""The reader registry (readers/__init__.py) and the shared path helpers (readers/_paths.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import corpusagree.readers as readers
from corpusagree.model.errors import InputError
from corpusagree.readers import Option, _paths

from support import ROOT

SEGMENTS = ROOT / "sample_corpora" / "segments"
SENSES = ROOT / "tests" / "data" / "senses"
COREF = ROOT / "tests" / "data"


@pytest.fixture
def registry(monkeypatch):
    """A scratch copy of the registry: readers registered in a test vanish after it."""
    for task in readers.TASKS:
        readers.readers(task)  # the built-in readers register themselves once, on import
    monkeypatch.setattr(readers, "_REGISTRY", dict(readers._REGISTRY))
    return readers


def fake_reader(registry, result=("x",), name="fake", **kwargs):
    """Register a segments reader of ``*.fake`` files that records its calls."""
    calls = []

    @registry.register("segments", name, sniff=lambda p: p.suffix == ".fake",
                       summary="test files", **kwargs)
    def read(paths, annotators=None, **options):
        calls.append((paths, annotators, options))
        return list(result)

    return calls


# ---- the registry ----------------------------------------------------------------------------

def test_every_task_lists_its_readers_in_sniffing_order():
    assert list(readers.readers("coref")) == ["mmax2", "brat", "conll", "corefud", "xmi",
                                              "webanno_tsv", "ezcoref", "labelstudio",
                                              "prodigy", "doccano", "inception_diff",
                                              "conll_ner"]
    assert list(readers.readers("segments")) == ["segeval", "positions", "rs3", "disrpt",
                                                 "text"]
    assert list(readers.readers("senses")) == ["raganato", "senseval", "ontonotes",
                                               "sensetsv", "wsbest"]
    for task in readers.TASKS:
        for name, r in readers.readers(task).items():
            assert (r.task, r.name) == (task, name)
            assert r.summary and "formats.md" not in r.summary
            assert all("formats.md" not in o.help for o in r.options)


def test_get_returns_the_reader_and_names_the_known_formats():
    from corpusagree.readers import conll2012
    r = readers.get("coref", "conll")
    assert r.read is conll2012.read and r.sniff is conll2012.sniff
    with pytest.raises(InputError) as e:
        readers.get("coref", "nope")
    assert str(e.value) == ("unknown coref format 'nope'; known: mmax2, brat, conll, corefud, "
                            "xmi, webanno_tsv, ezcoref, labelstudio, prodigy, doccano, "
                            "inception_diff, conll_ner")
    with pytest.raises(ValueError, match="unknown task"):
        readers.readers("nope")


def test_register_adds_a_reader_after_the_built_in_ones(registry, tmp_path):
    calls = fake_reader(registry, options=[Option("level", "the level")])
    assert list(registry.readers("segments"))[-1] == "fake"
    r = registry.get("segments", "fake")
    assert r.options == (Option("level", "the level"),) and r.summary == "test files"
    f = tmp_path / "a.fake"
    f.write_text("")
    assert registry.detect("segments", f) == "fake"
    assert registry.read("segments", [str(f)], level="top") == ("fake", ["x"])
    assert calls == [([f], None, {"level": "top"})]


def test_register_refuses_unknown_tasks_and_repeated_options(registry):
    with pytest.raises(ValueError, match="unknown task"):
        registry.register("parsing", "x", sniff=bool, summary="")
    with pytest.raises(ValueError, match="declared twice"):
        registry.register("segments", "x", sniff=bool, summary="",
                          options=[Option("a", ""), Option("a", "")])


def test_register_refuses_a_format_name_of_another_module(registry):
    with pytest.raises(ValueError, match="already registered"):
        fake_reader(registry, name="segeval")


def test_detect(tmp_path):
    assert readers.detect("segments", SEGMENTS / "segments.json") == "segeval"
    assert readers.detect("segments", SEGMENTS / "rs3") == "rs3"
    assert readers.detect("senses", SENSES / "wsbest" / "judgments.tsv") == "wsbest"
    assert readers.detect("senses", SENSES / "long.tsv") == "sensetsv"
    (tmp_path / "x.bin").write_bytes(b"\0")
    with pytest.raises(InputError) as e:
        readers.detect("segments", tmp_path / "x.bin")
    assert str(e.value) == f"{tmp_path / 'x.bin'}: cannot tell the segments format; pass " \
        "input_format=NAME"
    (tmp_path / "u16.conll").write_bytes("#begin document (d);\n".encode("utf-16"))
    with pytest.raises(InputError) as e:  # the likelier cause is said: not UTF-8
        readers.detect("coref", tmp_path / "u16.conll")
    assert str(e.value) == f"{tmp_path / 'u16.conll'}:1: cannot tell the coref format: not " \
        "UTF-8 (byte 0xff at column 1); save the file as UTF-8"


@pytest.mark.parametrize("task", readers.TASKS)
def test_detect_refuses_devices_and_pipes_before_sniffing(tmp_path, task):
    """/dev/zero or a pipe nobody writes to would make a sniffer read forever."""
    os.mkfifo(tmp_path / "pipe")
    for path in (Path("/dev/zero"), tmp_path / "pipe"):
        with pytest.raises(InputError, match="not a regular file or folder"):
            readers.detect(task, path)


def test_option_flag_and_merged_options():
    assert Option("on_mismatch", "h").flag == "--on-mismatch"
    merged = {o.name: (o, formats) for o, formats in readers.options("segments")}
    unit, formats = merged["unit"]
    assert formats == ("segeval", "positions", "rs3", "text")
    assert unit == readers.get("segments", "segeval").options[0]  # the first declaration
    assert merged["encoding"][1] == ("positions", "text")
    assert merged["on_mismatch"][0].choices == ("error", "skip")
    coref = {o.name: formats for o, formats in readers.options("coref")}
    assert coref == {"levels": ("mmax2",), "common_paths": ("mmax2",),
                     "coref_types": ("brat",), "chains_from": ("brat",),
                     "lang": ("brat", "xmi", "labelstudio", "prodigy", "doccano",
                              "inception_diff"), "layers": ("xmi", "webanno_tsv"),
                     "clusters": ("ezcoref",), "predictions_as": ("labelstudio",),
                     "texts": ("inception_diff",), "scheme": ("conll_ner",)}
    assert all(o.multiple for o, _ in readers.options("coref")
               if o.name in ("levels", "coref_types", "layers"))


# ---- read --------------------------------------------------------------------------------------

def test_read_sniffs_and_passes_options():
    fmt, segs = readers.read("segments", [SEGMENTS / "segments.json"], unit="sentence",
                             marker=None)
    assert fmt == "segeval" and {s.unit for s in segs} == {"sentence"}
    fmt, segs = readers.read("segments", SEGMENTS / "rs3", annotators=["ada", "ben"])
    assert fmt == "rs3" and {s.annotator for s in segs} == {"ada", "ben"}


def test_read_rejects_an_option_of_another_format():
    with pytest.raises(InputError) as e:
        readers.read("segments", [SEGMENTS / "segments.json"], marker="=+")
    assert str(e.value) == \
        "marker='=+' does not apply to segments format 'segeval' (only to text)"
    with pytest.raises(InputError, match="on_mismatch='skip' does not apply to segments format "
                       "'positions' "
                       r"\(only to rs3\)"):
        readers.read("segments", [SEGMENTS / "positions"], "positions", on_mismatch="skip")
    with pytest.raises(InputError, match="^colour='red': colour is not a reader option$"):
        readers.read("segments", [SEGMENTS / "segments.json"], colour="red")
    # an option of another task's formats: named as such (the spans job's options mix both)
    with pytest.raises(InputError, match=r"layers=\['x'\] does not apply to segments format "
                       r"'segeval' \(only to xmi \(coref\), webanno_tsv \(coref\), "
                       r"webanno_tsv \(relations\), xmi \(relations\)\)"):
        readers.read("segments", [SEGMENTS / "segments.json"], layers=["x"])


def test_read_auto_on_mixed_paths_lists_every_format():
    json_file, rs3 = SEGMENTS / "segments.json", SEGMENTS / "rs3"
    with pytest.raises(InputError) as e:
        readers.read("segments", [json_file, rs3])
    assert str(e.value) == (f"the paths hold different formats ({json_file} is segeval, {rs3} "
                            "is rs3); pass input_format=NAME")
    assert "\n" not in str(e.value)
    fmt, _ = readers.read("segments", [rs3 / "ada", rs3 / "ben"])
    assert fmt == "rs3"


def test_read_checks_paths_and_results(registry, tmp_path):
    with pytest.raises(InputError, match="no such file or folder"):
        readers.read("segments", [SEGMENTS / "segments.json", tmp_path / "nowhere"])
    with pytest.raises(InputError, match="unknown segments format 'nope'"):
        readers.read("segments", [SEGMENTS / "segments.json"], "nope")
    fake_reader(registry, result=())
    (tmp_path / "a.fake").write_text("")
    with pytest.raises(InputError) as e:
        registry.read("segments", [tmp_path / "a.fake"])
    assert str(e.value) == f"{tmp_path / 'a.fake'}: no annotations found (fake)"


def test_read_splits_a_text_value_of_a_multiple_option(registry, tmp_path):
    calls = fake_reader(registry, options=[Option("levels", "", multiple=True)])
    (tmp_path / "a.fake").write_text("")
    registry.read("segments", tmp_path / "a.fake", levels="coref, np")
    registry.read("segments", tmp_path / "a.fake", levels=("coref",))
    assert [c[2] for c in calls] == [{"levels": ["coref", "np"]}, {"levels": ("coref",)}]


def test_read_coref_options_reach_the_reader():
    fmt, anns = readers.read("coref", [COREF / "coref_a" / "mmax2" / "corpus"],
                             levels="coref")
    assert fmt == "mmax2" and {m.attrs["level"] for a in anns for m in a.mentions.values()} \
        == {"coref"}
    with pytest.raises(InputError,
                       match="levels=\\['coref'\\] does not apply to [a-z]* ?format 'conll'"):
        readers.read("coref", [COREF / "coref_b" / "conll" / "alice.v4_gold_conll"],
                     levels=["coref"])


def test_read_senses_adapters():
    keys = SENSES / "keys"
    fmt, tags = readers.read("senses", [SENSES / "mini.data.xml", keys / "ann1.key.txt",
                                        keys / "ann2.key.txt"], "raganato")
    assert fmt == "raganato" and {t.annotator for t in tags} == {"ann1", "ann2"}
    with pytest.raises(InputError, match="raganato: give the data XML file, then the "
                       "annotators' key files"):
        readers.read("senses", [SENSES / "mini.data.xml"], "raganato")
    fmt, tags = readers.read("senses", [SENSES / "demo.sense"], annotators=["x", "y"])
    assert fmt == "ontonotes" and {t.annotator for t in tags} == {"x", "y"}
    fmt, tags = readers.read("senses", [SENSES / "wsbest" / "judgments.tsv"])
    assert fmt == "wsbest" and {t.lemma for t in tags} == {"order.v", "range.n"}
    fmt, tags = readers.read("senses", [SENSES / "long.tsv"], sep="|")
    assert fmt == "sensetsv" and tags


# ---- paths -------------------------------------------------------------------------------------

def tree(root: Path, *names: str) -> Path:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x")
    return root


def test_files_accept_suffixes_or_a_predicate(tmp_path):
    tree(tmp_path, "b/2.TXT", "a.txt", "c.md", ".hidden.txt", "d/e.txt")
    assert _paths.files(tmp_path, (".txt",)) == [tmp_path / f for f in
                                                  (".hidden.txt", "a.txt", "b/2.TXT", "d/e.txt")]
    assert _paths.files(tmp_path, _paths.visible, recursive=False) == [tmp_path / "a.txt",
                                                                       tmp_path / "c.md"]
    assert _paths.files(tmp_path / "c.md", (".txt",)) == [tmp_path / "c.md"]
    assert _paths.has_files(tmp_path, (".md",)) and not _paths.has_files(tmp_path, (".csv",))
    with pytest.raises(InputError, match="no such file or directory"):
        _paths.all_files([tmp_path / "a.txt", tmp_path / "nowhere"], (".txt",))


def test_head_reads_the_first_accepted_file(tmp_path):
    tree(tmp_path, "b.json", "a.txt")
    (tmp_path / "b.json").write_text("[1]")
    assert _paths.head(tmp_path, (".json",)) == "[1]"
    assert _paths.head(tmp_path, (".csv",)) is None
    assert _paths.head(tmp_path / "nowhere", (".json",)) is None


def test_path_layout_names_annotators_by_path(tmp_path):
    tree(tmp_path, "alice.v4_gold_conll", "bob/x_conll", "bob/y_conll")
    paths = [tmp_path / "alice.v4_gold_conll", tmp_path / "bob"]
    sources = _paths.annotator_sources(paths, None, ("_conll", ".conll"))
    bob = tmp_path / "bob"
    assert [(s.annotator, s.files) for s in sources] == [
        ("alice", [paths[0]]), ("bob", [bob / "x_conll", bob / "y_conll"])]
    with pytest.raises(InputError, match=r"annotators=\[\.\.\.\] gives 1 names for 2 paths "
                       r"\(.*alice.*\): give one name per path"):
        _paths.annotator_sources(paths, ["a"], ("_conll",))
    with pytest.raises(InputError, match="'a' given twice"):
        _paths.annotator_sources(paths, ["a", "a"], ("_conll",))
    again = _paths.annotator_sources([paths[1], paths[1]], None, ("_conll",))
    assert [s.annotator for s in again] == ["bob", "bob (2)"]
    (tmp_path / "k").mkdir()
    (tmp_path / "r").mkdir()
    tree(tmp_path, "k/bob/z_conll", "r/bob/z_conll")
    named = _paths.annotator_sources([tmp_path / "k" / "bob", tmp_path / "r" / "bob", paths[0]],
                                     None, ("_conll",))
    assert [s.annotator for s in named] == ["k/bob", "r/bob", "alice"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no file ending in _conll here"):
        _paths.annotator_sources([tmp_path / "empty"], None, ("_conll",))


def test_folder_layout_finds_annotator_folders(tmp_path):
    tree(tmp_path, "corpus/ann1/d1.ann", "corpus/ann1/sub/d2.ann", "corpus/ann2/d1.ann",
         "corpus/notes/readme.md", "one/d3.ann")
    sources = _paths.annotator_sources([tmp_path / "corpus", tmp_path / "one"], None, (".ann",),
                                       layout="folder")
    assert [(s.annotator, [f.relative_to(s.root).as_posix() for f in s.files])
            for s in sources] == [("ann1", ["d1.ann", "sub/d2.ann"]), ("ann2", ["d1.ann"]),
                                  ("one", ["d3.ann"])]
    flat = _paths.annotator_sources([tmp_path / "corpus"], None, (".ann",), layout="folder",
                                    recursive=False)
    assert [len(s.files) for s in flat] == [1, 1]
    named = _paths.annotator_sources([tmp_path / "corpus", tmp_path / "one"], ["x", "y", "z"],
                                     (".ann",), layout="folder")
    assert [s.annotator for s in named] == ["x", "y", "z"]  # the annotators found, in order
    with pytest.raises(InputError, match=r"1 names for the 2 projects found \(ann1, ann2\)"):
        _paths.annotator_sources([tmp_path / "corpus"], ["x"], (".ann",), layout="folder",
                                 folder="project")
    with pytest.raises(InputError, match="not an .ann"):
        _paths.annotator_sources([tmp_path / "corpus/notes/readme.md"], None, (".ann",),
                                 layout="folder", reject="not an .ann file")
    with pytest.raises(InputError, match="2 names for the 1 annotators found"):
        _paths.annotator_sources([tmp_path / "one"], ["a", "b"], (".ann",), layout="folder")


def test_parent_layout_and_mapping(tmp_path):
    tree(tmp_path, "ada/x.rs3", "ada/y.rs3", "ben/x.rs3")
    assert _paths.annotator_files([tmp_path], (".rs3",)) == [
        ("ada", tmp_path / "ada" / "x.rs3"), ("ada", tmp_path / "ada" / "y.rs3"),
        ("ben", tmp_path / "ben" / "x.rs3")]
    assert _paths.annotator_files({"B": tmp_path / "ben"}, (".rs3",)) == [
        ("B", tmp_path / "ben" / "x.rs3")]


def test_inception_names(tmp_path):
    tree(tmp_path, "annotation/doc1.txt/alice.tsv", "dirs/bob/doc2.tsv")
    assert _paths.inception_names(tmp_path / "annotation/doc1.txt/alice.tsv") == \
        ("alice", "doc1.txt")
    assert _paths.inception_names(tmp_path / "dirs/bob/doc2.tsv") == ("bob", "doc2")
    assert _paths.inception_names(tmp_path / "dirs/bob/x.zip", "doc3") == ("bob", "doc3")



def test_a_device_is_not_read():
    """/dev/zero never ends: refused before any reader opens it."""
    with pytest.raises(InputError, match="not a regular file or folder"):
        readers.read("segments", ["/dev/zero"])
    with pytest.raises(InputError, match="not a regular file or folder"):
        _paths.all_files(["/dev/zero"], (".txt",))


def test_special_entries_in_annotator_folders_are_named(tmp_path, samples):
    """A pipe, a link to a device, a link to nothing inside an annotator folder, a folder where
    a key file is expected: each is skipped with a warning naming it, the rest is read (they
    were skipped without a word, and a pipe opened by a sniffer would have hung the read)."""
    import os
    import shutil
    import warnings

    brat = tmp_path / "brat"
    shutil.copytree(samples / "coref" / "brat", brat)
    os.mkfifo(brat / "ann1" / "pipe.ann")
    (brat / "ann2" / "zero.ann").symlink_to("/dev/zero")
    (brat / "ann3" / "gone.ann").symlink_to(tmp_path / "nowhere")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fmt, anns = readers.read("coref", [brat])
    assert fmt == "brat" and len(anns) == 15
    assert sorted(str(w.message) for w in caught) == [
        f"{brat / 'ann1' / 'pipe.ann'}: skipped: a pipe (FIFO)",
        f"{brat / 'ann2' / 'zero.ann'}: skipped: a link to /dev/zero (a character device)",
        f"{brat / 'ann3' / 'gone.ann'}: skipped: a link to nothing"]
    senses = tmp_path / "senses"
    shutil.copytree(samples / "senses", senses)
    (senses / "keys" / "D.key.txt").mkdir()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        readers.read("senses", [senses / "sample.data.xml", senses / "keys"], "raganato")
    assert [str(w.message) for w in caught] == [
        f"{senses / 'keys' / 'D.key.txt'}: skipped: a folder where a file is expected"]


def test_read_hands_what_it_made_to_the_oldest_generation():
    """The collector is paused during a read and the corpus read goes to the oldest
    generation after it (not scanned again by the young collections); a caller's paused
    collector and frozen objects are left as they were."""
    import gc

    path = ROOT / "sample_corpora" / "coref"

    def generation(obj) -> int:
        return next(g for g in (0, 1, 2) if any(o is obj for o in gc.get_objects(g)))

    assert gc.isenabled()
    _, anns = readers.read("coref", [path])
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert generation(anns[0]) == generation(next(iter(anns[0].mentions.values()))) == 2
    gc.disable()
    try:
        _, anns = readers.read("coref", [path])
        assert not gc.isenabled()
        assert generation(anns[0]) == 0  # left where it is: the caller runs the collector
    finally:
        gc.enable()
    kept = [[]]  # a caller's object, frozen
    gc.freeze()
    try:
        readers.read("coref", [path])
        assert gc.get_freeze_count() and not any(o is kept for g in (0, 1, 2)
                                                  for o in gc.get_objects(g))
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("kind", ["folder", "pipe"])
@pytest.mark.parametrize("task, copy, given, companion", [
    ("coref", "sample_corpora/coref/brat", ".", "ann1/council.txt"),
    ("coref", "tests/data/coref_a/xmi/zip", "carol.xmi", "TypeSystem.xml"),
    ("senses", "tests/data/senses/wsbest", "judgments.tsv", "uses.tsv"),
])
def test_companion_file_that_is_no_regular_file(tmp_path, kind, task, copy, given, companion):
    """Issue 37, 1: a file a reader finds beside the one it reads (brat's .txt, XMI's
    TypeSystem.xml, WSBest's uses.tsv) that is a folder or a pipe is an error naming it, not
    a file taken as absent, and the pipe is not waited on."""
    import shutil
    shutil.copytree(ROOT / copy, tmp_path / "in")
    target = tmp_path / "in" / companion
    target.unlink()
    target.mkdir() if kind == "folder" else os.mkfifo(target)
    fmt = "wsbest" if task == "senses" else "auto"
    with pytest.raises(InputError) as e:
        readers.read(task, [tmp_path / "in" / given], fmt)
    assert str(e.value).startswith(f"{target}: ")
    assert ("folder" if kind == "folder" else "not a regular file") in str(e.value)
