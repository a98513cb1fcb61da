"""TextGrid, ELAN and RTTM readers: their continua in seconds give pygamma-agreement's
best-alignment disorder (fixtures of tests/data/timeline/make_pygamma_values.py, which reads
the files with pympi-ling and textgrid), and bad input is named with file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpusagree import readers
from corpusagree.analyses import spans
from corpusagree.model.errors import InputError
from corpusagree.stats import gamma as gm

DATA = Path(__file__).parents[1] / "data" / "timeline"
VALUES = json.loads((DATA / "pygamma_values.json").read_text())
#: how each case is read: the paths and the reader options
READ = {
    "two_tiers_long.TextGrid": ({}, "textgrid"),
    "two_tiers_short.TextGrid": ({}, "textgrid"),
    "two_tiers.eaf": ({"tier_pattern": r"@(?P<annotator>ann\d)$"}, "elan"),
    "pympi_sample_3.0.eaf": ({"tier_pattern": "^(text|gestures)$"}, "elan"),
    "ann1.rttm ann2.rttm": ({}, "rttm"),
}


@pytest.mark.parametrize("case", sorted(VALUES))
def test_best_alignment_equals_pygamma(case):
    options, fmt = READ[case]
    corpus = spans.read([DATA / f for f in case.split()], **options)
    assert corpus.format == fmt                      # recognised by --input-format auto
    c = corpus.data
    assert c.unit == "second" and len(c) == VALUES[case]["units"]
    a = gm.best_alignment(c, alpha=1, beta=1, delta_empty=1)
    assert a.disorder == pytest.approx(VALUES[case]["best_disorder"], abs=1e-5)


def test_long_and_short_textgrid_read_alike(tmp_path):
    short = (DATA / "two_tiers_short.TextGrid").read_text()
    c = spans.read(DATA / "two_tiers_short.TextGrid").data
    assert c.annotators == ["coder1", "coder2"] and c.categories == ["laugh", "speech"]
    assert c.bounds.tolist() == [[0.0, 6.5]]
    assert c.units()[2] == ("two_tiers_short", "coder1", 3.05, 4.4, "speech")
    f = tmp_path / "p.TextGrid"
    f.write_text(short.replace("<exists>\n2\n", "<exists>\n3\n") + '"TextTier"\n"events"\n0\n'
                 '6.5\n1\n2.5\n"click"\n')
    with pytest.warns(UserWarning, match="1 point tier"):
        assert len(spans.read(f).data) == len(c)


def test_overlapping_intervals_name_file_and_line(tmp_path):
    text = (DATA / "two_tiers_long.TextGrid").read_text()
    f = tmp_path / "bad.TextGrid"
    f.write_text(text.replace("xmin = 2 \n            xmax = 4 \n            text = \"B\"",
                              "xmin = 1.8 \n            xmax = 4 \n            text = \"B\""))
    with pytest.raises(InputError, match="overlaps") as e:
        readers.read("timeline", [f])
    assert e.value.line == text.splitlines().index("            xmin = 2 ") + 1
    assert "bad.TextGrid" in str(e.value)


def test_elan_tier_pattern_and_safe_xml(tmp_path):
    c = spans.read(DATA / "two_tiers.eaf").data            # every tier, by its id
    assert c.annotators == ["gesture@ann1", "gesture@ann2", "notes"]
    text = (DATA / "two_tiers.eaf").read_text()
    f = tmp_path / "ent.eaf"
    f.write_text(text.replace('<?xml version="1.0" encoding="UTF-8"?>',
                              '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE d [<!ENTITY x '
                              '"EXPANDED">]>').replace(">point<", ">&x;<", 1))
    got = spans.read(f, tier_pattern=r"@(?P<annotator>ann\d)$").data
    assert "EXPANDED" not in got.categories
    g = tmp_path / "noslot.eaf"
    g.write_text(text.replace('TIME_SLOT_ID="ts2" TIME_VALUE="850"', 'TIME_SLOT_ID="ts2"'))
    with pytest.raises(InputError, match="without a time value") as e:
        readers.read("timeline", [g])
    assert e.value.line is not None


def test_rttm_bad_lines(tmp_path):
    f = tmp_path / "a.rttm"
    f.write_text("SPEAKER m 1 0.0 1.0 <NA> <NA> x <NA> <NA>\nSPEAKER m 1 zero 1 <NA> <NA> x\n")
    with pytest.raises(InputError, match="must be numbers") as e:
        readers.read("timeline", [f])
    assert e.value.line == 2
    f.write_text("SPEAKER m 1 0.0 1.0 <NA> <NA> x <NA> <NA>\nSPEAKER m 1 1e26 1.75 <NA> <NA> x\n"
                 "SPEAKER m 1 inf 1 <NA> <NA> x\n")
    with pytest.raises(InputError) as e:  # the fuzz run's case 4111: a unit of no length
        readers.read("timeline", [f])
    said = str(e.value)
    assert "lost in the precision of onset '1e26'" in said and "must be finite" in said


def test_ner_modes_on_seconds():
    """The NER modes on a continuum in seconds (no token κ: the positions are not tokens)."""
    report = spans.analyse(spans.read([DATA / "ann1.rttm", DATA / "ann2.rttm"]),
                           measures=["ner"])
    strict = next(x for x in report.ner if x["over_pairs"] == "pair" and x["mode"] == "strict"
                  and x["over_types"] == "micro")
    assert strict["correct"] == 0 and strict["actual"] == 4 and strict["possible"] == 3
    assert not report.ner_tokens and any("not whole" in n for n in report.notes)


@pytest.mark.parametrize("name, reader", [("two_tiers.eaf", "elan"),
                                          ("two_tiers_long.TextGrid", "textgrid")])
def test_no_tier_matching_the_pattern_in_the_callers_words(tmp_path, cli, name, reader):
    with pytest.raises(InputError, match=r"matching tier_pattern='\^nobody\$'"):
        readers.read("timeline", [DATA / name], reader, tier_pattern="^nobody$")
    status, out, err = cli("spans", DATA / name, "--tier-pattern", "^nobody$")
    assert status == 2 and "matching --tier-pattern '^nobody$'" in err


@pytest.mark.parametrize("name", ["two_tiers.eaf", "two_tiers_long.TextGrid"])
def test_a_document_read_twice_is_named(tmp_path, name):
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / name).write_bytes((DATA / name).read_bytes())
    with pytest.raises(InputError, match="read twice"):
        readers.read("timeline", [tmp_path / "a" / name, tmp_path / "b" / name])


def test_elan_time_subdivision_as_elan_shows_it():
    """``subdivided.eaf`` (written here as ELAN 3.0 writes it): a Time_Subdivision tier whose
    inner slots are unaligned (``words``: 1–4 s cut in three equal words; 5–9 s cut at an
    aligned 6 s, the rest in three equal words), an Included_In tier with slots of its own,
    and a Symbolic_Association tier (``pos``), left out with a warning naming it."""
    with pytest.warns(UserWarning, match=r"symbolic tier\(s\) left out.*pos \(subdivided"):
        c = readers.read("timeline", [DATA / "subdivided.eaf"])[1][0]
    assert c.annotators == ["gesture", "utt", "words"]
    words = [u[2:] for u in c.units() if u[1] == "words"]
    assert words == [(1.0, 2.0, "the"), (2.0, 3.0, "quick"), (3.0, 4.0, "fox"),
                     (5.0, 6.0, "jumps"), (6.0, 7.0, "over"), (7.0, 8.0, "the"),
                     (8.0, 9.0, "dog")]
    assert [u[2:] for u in c.units() if u[1] == "gesture"] == [(1.5, 2.5, "point")]


def test_elan_pympi_subdivided_tier_read():
    """pympi-ling's sample: ``words-timesub`` of parent a3 (8–11 s, slots ts39–ts42
    unaligned) is five words of 0.6 s, though ``TIME_ORDER`` puts those slots between two
    slots of 8 s (ts38 and ts43)."""
    c = readers.read("timeline", [DATA / "pympi_sample_3.0.eaf"],
                     tier_pattern="^words-timesub$")[1][0]
    got = [u[2:] for u in c.units()]
    assert got[10:15] == [(8.0, 8.6, "The"), (8.6, 9.2, "quick"), (9.2, 9.8, "brown"),
                          (9.8, 10.4, "fox"), (10.4, 11.0, "003")]
    assert got[:2] == [(2.0, 2.47, "The"), (2.47, 3.52, "quick")]  # aligned in the file


def test_elan_symbolic_tier_named_is_an_error(tmp_path, cli):
    with pytest.raises(InputError, match=r"tier 'pos' is Symbolic_Association of 'words': "
                       "its annotations have no times of their own; choose time-aligned "
                       "tiers with tier_pattern=REGEX$") as e:
        readers.read("timeline", [DATA / "subdivided.eaf"], tier_pattern="^(pos|utt)$")
    assert e.value.line is not None and "subdivided.eaf" in str(e.value)
    assert len(str(e.value).splitlines()) == 1
    status, _, err = cli("spans", DATA / "subdivided.eaf", "--tier-pattern", "^(pos|utt)$")
    assert status == 2 and err.strip().endswith("tiers with --tier-pattern REGEX"), err


def test_elan_unaligned_slot_without_bound_is_named(tmp_path):
    text = (DATA / "subdivided.eaf").read_text()
    f = tmp_path / "open.eaf"
    f.write_text(text.replace('TIME_SLOT_ID="ts11" TIME_VALUE="9000"', 'TIME_SLOT_ID="ts11"'))
    with pytest.raises(InputError, match=r"tier 'utt', annotation 'a2': time slot 'ts11' "
                       "without a time value, and no aligned slot after it") as e:
        readers.read("timeline", [f])
    assert e.value.line == text.splitlines().index(
        '            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="ts7" '
        'TIME_SLOT_REF2="ts11">') + 1


REAL = DATA / "real"  # real files of the tools' repositories (see real/SOURCE)


def test_real_textgrid_both_formats_and_rounded_boundaries():
    """The Python textgrid package's test files: four interval tiers (phone: 104 intervals,
    word: 45, mute: one empty interval, Errors: 3) on 1358.8925–1422.5525 s. The phone
    tier's interval 12 ends at 1372.6225001 and 13 starts at 1372.6225: rounding, not an
    overlap (it was an error); the short format of older Praat versions ("ooTextFile
    short", no "Object class") reads alike (it was not read)."""
    _, (long,) = readers.read("timeline", [REAL / "textgrid_long_format.TextGrid"])
    assert long.annotators == ["Errors", "mute", "phone", "word"]
    assert long.bounds.tolist() == [[1358.8925, 1422.5525]]
    units = long.units()
    assert [sum(u[1] == a for u in units) for a in long.annotators] == [3, 0, 104, 45]
    phone = [u[2:] for u in units if u[1] == "phone"]
    assert phone[0] == (1358.8925, 1361.8925, "sil") and phone[-1] == (1422.2325, 1422.5525,
                                                                        "sil")
    assert phone[11:13] == [(1364.7225, 1372.6225001, "sil"), (1372.6225001, 1372.6525, "JH")]
    words = [u[4] for u in units if u[1] == "word"]
    assert words[:4] == ["sp", "RIGHT", "sp", "THEN"] and words.count("{OOV}") == 2
    assert [u[2:] for u in units if u[1] == "Errors"][1] == (1362.1625, 1363.3325,
                                                           "loud silence")
    _, (short,) = readers.read("timeline", [REAL / "textgrid_short_format.TextGrid"])
    assert [u[1:] for u in short.units()] == [u[1:] for u in units]


def test_real_textgrid_overlap_past_rounding_is_still_named(tmp_path):
    text = (REAL / "textgrid_long_format.TextGrid").read_text()
    f = tmp_path / "overlap.TextGrid"
    f.write_text(text.replace("xmin = 1372.6225 \n", "xmin = 1372.6 \n", 1))
    with pytest.raises(InputError, match="tier 'phone': the interval .* overlaps") as e:
        readers.read("timeline", [f])
    assert e.value.line == text.splitlines().index("            xmin = 1372.6225 ") + 1


def test_real_rttm_files():
    """pyannote's RTTM fixtures: speaker turns of two AMI excerpts (dev00: 9 turns, dev01:
    8, speakers MEE009 and MEE012), a sample with overlapping speech, and pyannote.database's
    two-file test; each file is an annotator, each file id a document."""
    _, (dev,) = readers.read("timeline", [REAL / "pyannote_debug.development.rttm"])
    assert dev.documents == ["dev00", "dev01"] and dev.categories == ["MEE009", "MEE012"]
    assert dev.bounds.tolist() == [[0.0, 30.0], [0.0, pytest.approx(29.536)]]
    units = dev.units()
    assert [sum(u[0] == d for u in units) for d in dev.documents] == [9, 8]
    assert units[0][2:] == (1.44, pytest.approx(13.312), "MEE009")
    assert units[-1][2:] == (29.072, pytest.approx(29.536), "MEE012")
    _, (sample,) = readers.read("timeline", [REAL / "pyannote_sample.rttm"])
    turns = [u[2:] for u in sample.units()]
    assert len(turns) == 10 and sample.bounds.tolist() == [[0.0, 30.0]]
    # overlapping speech of the two speakers: both turns kept
    assert (18.05, pytest.approx(21.49), "speaker90") in turns
    assert (18.15, pytest.approx(18.59), "speaker91") in turns
    _, (train,) = readers.read("timeline", [REAL / "pyannote_database_train.rttm"])
    assert train.documents == ["filename1", "filename2"]
    assert [u[2:] for u in train.units()] == [(0.2, pytest.approx(0.9), "speaker_A"),
                                              (0.2, pytest.approx(1.1), "speaker_B")]
