"""The renderers as a user meets them: 80 columns in a pipe, ASCII on a console that cannot
encode Unicode, a closed pipe, CSV and Markdown twins of the tables, valid JSON."""

import io
import json
import os
import shutil
import subprocess
import sys

import pytest

from corpusagree.analyses import table
from corpusagree.report import render


def script() -> list[str]:
    found = shutil.which("corpusagree")
    return [found] if found else [sys.executable, "-m", "corpusagree"]


def run(args, root, env=None, **kw):
    full = {**os.environ, **(env or {})}
    full.pop("COLUMNS", None) if env is None or "COLUMNS" not in env else None
    return subprocess.run([*script(), *map(str, args)], cwd=root, capture_output=True,
                          env=full, **kw)


@pytest.fixture(scope="module")
def report(samples):
    data = table.read(samples / "table" / "dialogue_acts.csv", group="document")
    data.inputs = ["dialogue_acts.csv"]
    return table.analyse(data, weights=samples / "table" / "dialogue_acts.weights.csv",
                         bootstrap=table.Bootstrap(200), diagnostics=5, reference="ann")


def lines_of(fmt: str, report, ascii=False) -> str:
    out = io.StringIO()
    render([report], fmt, out)
    return out.getvalue()


def test_terminal_fits_80_columns_and_loses_nothing(report):
    from corpusagree.report.terminal import write

    out = io.StringIO()
    write([report], out, width=80)
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text  # no header or cell is cut
    for t in report.tables.values():
        assert t.title.split(":")[0][:30] in text.replace("\n", " ")
    # every coder column of the costliest items is there (the table is split, not cut)
    worst = next(t for t in report.tables.values() if t.id == "worst_items")
    for c in worst.columns:
        assert c.header in text
    assert "left out for the width of the terminal: K · L&K" not in text  # issue 34, item 10


def test_ascii_when_the_console_cannot_encode(report):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="cp1252")
    render([report], "text", stream)
    stream.flush()
    text = raw.getvalue().decode("cp1252")
    assert text.isascii() and "alpha" in text and "---" in text


def test_csv_is_one_tidy_table_pandas_reads(report):
    """``--format csv``: one table ``table,row,column,value`` with ASCII table ids and
    coefficient ids, every value at full precision."""
    pd = pytest.importorskip("pandas")
    text = lines_of("csv", report)
    tidy = pd.read_csv(io.StringIO(text), keep_default_na=False, dtype=str)
    assert list(tidy.columns) == ["table", "row", "column", "value"]
    assert list(dict.fromkeys(tidy["table"])) == [*report.tables, "notes"]
    assert all(t.isascii() for t in tidy["table"])
    coef = tidy[tidy.table == "coefficients"].pivot(index="row", columns="column",
                                                    values="value")
    coef.index = coef.index.astype(int)
    coef = coef.sort_index()
    assert list(coef["id"]) == [e.id for e in report.coefficients]
    assert all(i.isascii() for i in coef["id"])
    assert [float(v) for v in coef["value"]] == [e.value for e in report.coefficients]
    assert {"interval_low", "interval_high"} <= set(coef.columns)


def test_csv_files_one_per_table(report, tmp_path):
    pd = pytest.importorskip("pandas")
    written = report.to_csv(tmp_path / "out")
    assert [p.name for p in written] == [f"{t}.csv" for t in [*report.tables, "notes"]]
    first = pd.read_csv(written[0])
    assert list(first.columns[:3]) == ["id", "coefficient", "distance"]
    assert list(first["value"]) == [e.value for e in report.coefficients]


def test_markdown_twin(report):
    text = lines_of("md", report)
    assert text.startswith("## dialogue_acts.csv: 4 coders × 72 items in 6 groups")
    assert "| coefficient | distance | value | 95% CI |" in text  # no hidden id column
    assert "|---|---|---:|---:|" in text


def test_json_is_one_document_and_nan_is_null(report):
    doc = json.loads(lines_of("json", report))
    assert doc["job"] == "table"
    light = next(r for r in doc["coefficients"] if r["id"] == "light_kappa")
    assert light["interval"] is None
    bias = next(r for r in doc["coefficients"] if r["id"] == "bias")
    assert bias["observed"] is None and bias["conventions"] is None


def test_frames(report):
    pytest.importorskip("pandas")
    frame = report.coefficients.to_frame()
    assert list(frame["id"])[:3] == ["percent_agreement", "S", "pi"]
    assert "interval_low" in frame.columns
    pairwise = next(t for t in report.tables.values() if t.id == "pairwise").to_frame()
    assert list(pairwise["coder"]) == ["ann", "bob", "cat", "dan"]


def test_piped_command_line_fits_80_columns(root):
    proc = run(["table", "sample_corpora/table/dialogue_acts.csv", "--group", "document",
                "--ci", "--diagnostics"], root, text=True)
    assert proc.returncode == 0, proc.stderr
    assert max(len(line) for line in proc.stdout.splitlines()) <= 80


def test_cp1252_console_gets_ascii(root):
    proc = run(["table", "sample_corpora/table/dialogue_acts.csv"], root,
               env={"PYTHONIOENCODING": "cp1252"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.isascii() and b"alpha" in proc.stdout


def test_closed_pipe_ends_quietly(root):
    proc = subprocess.Popen([*script(), "table", "sample_corpora/table/dialogue_acts.csv",
                             "--diagnostics"], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait() == 0
    assert b"Traceback" not in proc.stderr.read()


@pytest.mark.parametrize("fmt", ["csv", "md"])
def test_formats_from_the_command_line(root, fmt, tmp_path):
    out = tmp_path / f"t.{fmt}"
    proc = run(["table", "sample_corpora/table/dialogue_acts.csv", "--format", fmt,
                "--output", out], root, text=True)
    assert proc.returncode == 0 and proc.stdout == ""
    assert out.read_text(encoding="utf-8") == run(
        ["table", "sample_corpora/table/dialogue_acts.csv", "--format", fmt], root,
        text=True).stdout


def test_a_huge_cell_is_clipped_in_the_terminal():
    """A 5 MB label (a 20 MB line in a WSbest uses file made a lemma of it) is shown clipped:
    laying it out whole took rich minutes; the data formats keep it whole."""
    from corpusagree.report.tables import Column, Table
    from corpusagree.report.terminal import MAX_TEXT, Terminal

    huge = "a " * 2_500_000
    t = Table("t", "title", [Column("lemma", "lemma"), Column("v", "v", "float")],
              [[huge, 0.5], ["b", 0.25]])
    out = io.StringIO()
    Terminal(out, width=80).table(t)  # the time: benchmarks/pathological.py
    text = " ".join(out.getvalue().split())
    assert "characters in all" in text and len(out.getvalue()) < 3 * MAX_TEXT
    assert huge in t.records()[0]["lemma"]


def test_csv_keeps_the_notes(cli, tmp_path):
    """Issue 37, 3: ``trees`` leaves a file with two roots out and says so in text, Markdown
    and JSON; CSV (one tidy table, and one file per table) has it in its ``notes`` table."""
    pd = pytest.importorskip("pandas")
    header = ('<rst><header><relations><rel name="elaboration" type="rst"/></relations>'
              '</header><body>\n')
    good = ('<segment id="1" parent="3" relname="span">A b</segment>\n<segment id="2" '
            'parent="1" relname="elaboration">C d</segment>\n<group id="3" type="span"/>\n')
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        (tmp_path / who / "good.rs3").write_text(header + good + "</body></rst>")
        (tmp_path / who / "roots.rs3").write_text(header + good + "</body></rst>")
    (tmp_path / "b" / "roots.rs3").write_text(header + '<segment id="1">A b</segment>'
                                              '<segment id="2">C d</segment></body></rst>')
    code, out, err = cli("trees", tmp_path / "a", tmp_path / "b", "--format", "csv")
    assert code == 0, err
    tidy = pd.read_csv(io.StringIO(out), keep_default_na=False, dtype=str)
    notes = tidy[tidy.table == "notes"]
    assert notes[notes.column == "note"]["value"].str.contains("roots.rs3").any()
    code, _, err = cli("trees", tmp_path / "a", tmp_path / "b", "--format", "csv",
                       "--output", f"{tmp_path / 'out'}/")
    assert code == 0, err
    frame = pd.read_csv(tmp_path / "out" / "notes.csv", keep_default_na=False)
    assert list(frame.columns) == ["table", "note"]
    assert frame["note"].str.contains("roots.rs3").any()
# ---- the reading at 80 columns, and labels that never wrap into rows of their own (issue 34,
# item 10) --------------------------------------------------------------------------------------
def _drawn(t, width: int = 80) -> str:
    from corpusagree.report.terminal import Terminal

    out = io.StringIO()
    Terminal(out, width).table(t)
    return out.getvalue()


def test_reading_kept_abbreviated_before_do_and_de(report):
    """The coefficients at 80 columns: the conventional reading stays, abbreviated, and Do and
    De are left out first; every row is one line, its label whole."""
    from corpusagree.report.text import abbreviated_reading

    t = report.tables["coefficients"].shown()
    text = _drawn(t)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80
    head = next(line for line in lines if line.startswith("coefficient"))
    assert "K · L&K" in head and " Do " not in head and not head.rstrip().endswith("De")
    assert "(left out for the width of the terminal: De, Do;" in text
    reading = [c.key for c in t.columns].index("reading")
    coefficient = [c.key for c in t.columns].index("coefficient")
    for row in t.rows:
        short = abbreviated_reading(str(row[reading] or "—"))
        assert len(short) <= 14
        drawn = [line for line in lines if line.startswith(row[coefficient] + " ")]
        assert drawn and all(line.rstrip().endswith(short) for line in drawn)
    assert "multi-π (Fleiss κ)" in text  # a long label whole, on its row's line
    rows = lines[lines.index(head) + 2:lines.index(head) + 2 + len(t.rows)]
    assert all(line[:1].strip() for line in rows)  # no line of a row starts blank
    # wide enough, the reading is written in full
    wide = _drawn(t, 140)
    assert "≥ .800 · almost perfect" in wide or "below .667 · moderate" in wide


def test_a_label_wraps_only_with_its_row_set_apart():
    """A row's label wraps only when no optional column is left to leave out, and then the
    rows are set apart by a blank line, so that its second line is no row of its own."""
    from corpusagree.analyses.base import Column, Table

    cols = [Column("name", "name"), Column("value", "value", "float"),
            Column("extra", "extra", "float", optional=True)]
    rows = [["a rather long label of one row", 0.5, 0.25], ["short", 0.75, 0.5]]
    roomy = _drawn(Table("t", "T", cols, rows), 44)
    assert "extra; widen it" in roomy
    assert "\na rather long label of one row  0.5000\n" in roomy
    squeezed = _drawn(Table("t", "T", cols[:2], [r[:2] for r in rows]), 30)
    body = squeezed.splitlines()[3:]
    first, second = body.index(next(x for x in body if x.startswith("a rather"))), \
        body.index(next(x for x in body if x.startswith("short")))
    assert second - first > 1 and not body[second - 1].strip()  # a blank line between rows
    assert max(map(len, squeezed.splitlines())) <= 30


def test_report_at_80_columns_in_a_pipe(root):
    """``corpusagree report sample_corpora/ | head -100`` at 80 columns: every line fits, the
    reading is there, and no line of a coefficient table begins with a stray word."""
    proc = run(["report", "sample_corpora/"], root, env={"COLUMNS": "80"}, text=True)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert max(map(len, lines)) <= 80
    head = lines[:100]
    assert sum("K · L&K" in line for line in head) >= 2
    assert not any("K · L&K" in line and "left out" in line for line in head)
