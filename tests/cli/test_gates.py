"""Gates: ``--fail-under COEF=VALUE`` on every job, and ``Report.check`` in Python."""

import json

import jsonschema
import pytest

import corpusagree
from corpusagree.analyses import jobs, table

CSV = "sample_corpora/table/dialogue_acts.csv"


@pytest.fixture(scope="module")
def alpha():
    return table.analyse(table.read(CSV)).headline().value


@pytest.mark.parametrize("offset, status", [(-0.01, 0), (0.0, 0), (0.01, 1)])
def test_above_equal_below(cli, alpha, offset, status):
    threshold = repr(alpha + offset) if offset else repr(alpha)
    got, out, err = cli("table", CSV, "--fail-under", f"alpha={threshold}")
    assert got == status, err
    if status:
        line, = err.splitlines()
        assert line.startswith("table: gate not met: alpha = 0.4193 < ")
        assert "fell short by 0.0100" in line
    else:
        assert err == ""
    assert "Coefficients" in out  # the report is written either way


def test_json_records_the_gates_and_validates(cli, alpha):
    status, out, _ = cli("table", CSV, "--group", "document", "--ci", "--json",
                         "--fail-under", "alpha=0.9", "--fail-under", "alpha.low=0.1")
    assert status == 1
    doc = json.loads(out)
    gates = {(g["coefficient"], g["bound"]): g for g in doc["gates"]}
    assert gates["alpha", "value"]["passed"] is False
    assert gates["alpha", "value"]["value"] == pytest.approx(alpha)
    assert gates["alpha", "low"]["passed"] is True
    jsonschema.validate(doc, corpusagree.schema())


@pytest.mark.parametrize("argv, message", [
    (("--fail-under", "nope=0.5"), "does not hold; it holds: alpha, percent_agreement"),
    (("--fail-under", "alpha.low=0.5"), "bounds an interval: add --ci"),
    (("--fail-under", "alpha"), "a gate is COEF=VALUE"),
    (("--fail-under", "alpha=x"), "is not a number"),
    (("--fail-under", "alpha=inf"), "not a finite number"),
])
def test_bad_gates_are_one_line_and_exit_2(cli, argv, message):
    status, _, err = cli("table", CSV, *argv)
    assert status == 2
    assert len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize("name", [n for n, j in jobs.registered().items() if j.example])
def test_every_job_takes_a_gate(cli, name):
    job = jobs.get(name)
    status, _, err = cli(name, *job.example, "--fail-under", "nope=0.5")
    # a coefficient no report holds: exit 2 naming what the report holds
    assert status == 2 and "--fail-under nope=0.5" in err and "holds" in err, err


def test_report_check_in_python(alpha):
    report = table.analyse(table.read(CSV))
    a, b = report.check("alpha=0.4", f"alpha={alpha + 0.05!r}")
    assert a.passed and not b.passed and b.shortfall == pytest.approx(0.05)
    assert a.table == "headline"
    assert [g["passed"] for g in report.to_dict()["gates"]] == [True, False]
    with pytest.raises(ValueError, match="it holds: alpha"):
        report.check("muc_f1=0.5")
    with pytest.raises(ValueError, match="needs an interval"):
        report.check("alpha.low=0.5")
    assert "gates" not in table.analyse(table.read(CSV)).to_dict()
