"""Issue 37, 7: writing an output is one line naming the path whatever the file system says
(no space left, a name too long, an input/output error, a folder), never a traceback."""

from __future__ import annotations

import os

import pytest

from corpusagree.model.errors import InputError
from corpusagree.report.csv import write_files
from corpusagree.report.write import opened, write_text

TEXT = "coefficient,value\nalpha,0.8\n" * 1000


@pytest.mark.parametrize("target, message", [
    ("/dev/full", "cannot write: No space left on device"),
    ("/proc/version", "cannot write: "),
    ("long", "cannot write: File name too long"),
    ("folder", "is a folder: give a file name"),
    ("missing/x.csv", "cannot write: No such file or directory"),
])
def test_write_errors_name_the_path(tmp_path, target, message):
    if target.startswith("/") and not os.path.exists(target):
        pytest.skip(f"{target} is not on this system")
    path = {"long": tmp_path / ("x" * 300), "folder": tmp_path}.get(target) or \
        (tmp_path / target if not target.startswith("/") else target)
    with pytest.raises(InputError) as e:
        write_text(path, TEXT)
    assert str(e.value).startswith(f"{path}: {message}")
    assert "\n" not in str(e.value)


def test_error_while_writing_on_the_stream(tmp_path):
    """/dev/full accepts the opening and refuses the bytes at the flush: the stream's errors
    are the same one line."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with pytest.raises(InputError, match="^/dev/full: cannot write: No space left on device$"):
        with opened("/dev/full") as fh:
            for _ in range(100):
                fh.write(TEXT)


def test_written_whole(tmp_path):
    assert write_text(tmp_path / "t.csv", TEXT).read_text(encoding="utf-8") == TEXT


def test_csv_files_into_a_folder_that_cannot_hold_them(tmp_path):
    from corpusagree.analyses import table

    from support import SAMPLES
    report = table.analyse(table.read(SAMPLES / "table" / "dialogue_acts.csv"))
    names = [f"{t}.csv" for t in report.tables]
    (tmp_path / names[0]).mkdir()
    with pytest.raises(InputError, match=f"{names[0]}: is a folder"):
        write_files([report], tmp_path)
