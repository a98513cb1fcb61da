"""``corpusagree spans``: every format's spans, every output format, one-line errors."""

import json

import pytest


def test_conll_sample(cli, cli_json, samples):
    paths = [samples / "coref" / "conll2012" / f"ann{k}.v4_gold_conll" for k in (1, 2)]
    doc = cli_json("spans", *paths, "--samples", "10", "--diagnostics", "2")
    assert doc["job"] == "spans" and doc["format"] == "conll"
    assert doc["gamma"]["n_samples"] == 10 and len(doc["costliest"]) == 2
    status, out, _ = cli("spans", *paths, "--samples", "10")
    assert status == 0 and "γ (Mathet, Widlöcher & Métivier 2015)" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_segments_and_characters(cli_json, samples):
    doc = cli_json("spans", samples / "segments" / "segments.json", "--measure", "alpha_u")
    assert doc["gamma"] is None and doc["data"]["categories"] == ["segment"]
    brat = cli_json("spans", samples / "coref" / "brat", "--unit", "char", "--samples", "5",
                    "--category", "EntityType")
    assert brat["data"]["unit"] == "char" and "organization" in brat["data"]["categories"]


@pytest.mark.parametrize("fmt", ["csv", "md"])
def test_other_formats(cli, samples, fmt):
    status, out, _ = cli("spans", samples / "segments" / "segments.json", "--samples", "5",
                         "--format", fmt)
    assert status == 0 and out.strip()


def test_errors_are_one_line(cli, samples, tmp_path):
    conll = samples / "coref" / "conll2012" / "ann1.v4_gold_conll"
    status, _, err = cli("spans", conll, conll, "--unit", "char")
    assert status == 2 and "token positions only: use --unit token" in err
    assert len(err.strip().splitlines()) == 1
    status, _, err = cli("spans", conll, "--measure", "kappa")
    assert status == 2 and "unknown measure(s) kappa" in err
    status, _, err = cli("spans", tmp_path / "absent")
    assert status == 2 and "no such file" in err
    assert json.dumps  # the module is used by cli_json
