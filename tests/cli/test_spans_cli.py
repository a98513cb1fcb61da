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
    assert status == 2 and "token positions only: use --unit 'token'" in err
    assert len(err.strip().splitlines()) == 1
    status, _, err = cli("spans", conll, "--measure", "kappa")
    assert status == 2 and "unknown measure(s) kappa" in err
    status, _, err = cli("spans", tmp_path / "absent")
    assert status == 2 and "no such file" in err
    status, _, err = cli("spans", samples / "coref" / "corefud")
    assert status == 2 and "give one file or folder per annotator" in err
    # one annotator's file broken (cp1252, not UTF-8) beside one that reads: its path is named
    ner = samples.parent / "tests" / "data" / "coref_a" / "webanno_tsv" / "ner"
    broken = tmp_path / "ann2" / "doc1.tsv"
    broken.parent.mkdir()
    broken.write_bytes((ner / "ann2" / "doc1.tsv").read_text().replace(
        "\U0001f642", "é").encode("cp1252"))
    status, _, err = cli("spans", ner / "ann1", broken.parent)
    assert status == 2 and err.startswith(str(broken)) and "not UTF-8" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("path", "options", "fmt", "unit"), [
    ("coref/brat", ["--unit", "char"], "brat", "char"),
    ("coref/xmi", ["--unit", "char"], "xmi", "char"),
    ("coref/mmax2", ["--level", "coref"], "mmax2", "token"),
    ("coref/corefud/ann*.conllu", [], "corefud", "token"),
    ("segments/disrpt", [], "disrpt", "token"),
    ("segments/rs3", [], "rs3", "token"),
    ("segments/positions", [], "positions", "word"),
    ("segments/segeval_tsv", [], "segeval", "unit"),
    ("segments/text", [], "text", "word"),
])
def test_every_span_format(cli, cli_json, samples, path, options, fmt, unit):
    """Each sample format as a continuum, with both measures given comma-separated, figures
    per document, and ``--json`` the twin of ``--format json``."""
    paths = sorted(samples.glob(path))
    argv = ["spans", *paths, *options, "--measure", "alpha_u,gamma", "--samples", "5",
            "--by-document"]
    doc = cli_json(*argv)
    assert doc["format"] == fmt and doc["data"]["unit"] == unit
    assert len(doc["data"]["annotators"]) == 3 and doc["gamma"]["value"] > 0
    assert {r["document"] for r in doc["by_document"]} == set(doc["data"]["documents"])
    assert any(r["value"] == r["value"] for r in doc["alpha_u"])  # some uα is defined
    status, out, _ = cli(*argv, "--format", "json")
    assert status == 0 and json.loads(out) == doc


def test_webanno_tsv_in_characters(cli_json, data_dir):
    """WebAnno TSV keeps column 2's offsets and the #Text= lines: units in characters, the
    costliest with their text."""
    root = data_dir / "coref_a" / "webanno_tsv"
    doc = cli_json("spans", root / "ann1", root / "ann2", "--unit", "char", "--samples", "5",
                   "--diagnostics", "20")
    assert doc["format"] == "webanno_tsv" and doc["data"]["unit"] == "char"
    assert doc["data"]["categories"] == ["NOM", "PER", "PRO", "animal"]
    shown = {u["text"] for r in doc["costliest"] for u in r["units"] if u}
    assert {"Tom", "Tom's dog", "He", "it"} <= shown


@pytest.mark.parametrize("fmt", ["xmi", "webanno_tsv"])
def test_named_entity_layers(cli, cli_json, data_dir, fmt):
    """A plain span layer: read by default where it is the only layer, by --layer (an alias of
    --layers) beside chain layers; the coreference job refuses it unless named."""
    ner = data_dir / "coref_a" / fmt / "ner"
    doc = cli_json("spans", ner / "ann1", ner / "ann2", "--unit", "char", "--samples", "5")
    assert doc["format"] == fmt and doc["data"]["categories"] == ["LOC", "ORG", "PER"]
    assert doc["data"]["units_per_annotator"] == {"ann1": 3, "ann2": 3}
    status, _, err = cli("coref", ner / "ann1", ner / "ann2")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "span layers found: NamedEntity (read one with --layers NAME)" in err
    if fmt == "webanno_tsv":
        chains = data_dir / "coref_a" / fmt
        doc = cli_json("spans", chains / "ann1", chains / "ann2", "--layer", "NamedEntity",
                       "--samples", "5")
        assert doc["data"]["categories"] == ["PER"]


def test_level_and_layer_are_options(capsys):
    from corpusagree.cli import main

    assert main(["spans", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--levels LEVEL, --level LEVEL" in out and "--layers LAYER, --layer LAYER" in out
    assert "random seed of the bootstrap and of γ's sampled continua" in " ".join(out.split())


def test_segments_show_their_words(cli_json, samples):
    """rs3, plain text and DISRPT keep the units' words: the costliest units show them."""
    for path in ("segments/rs3", "segments/text", "segments/disrpt"):
        doc = cli_json("spans", samples / path, "--samples", "5", "--diagnostics", "3")
        texts = [u["text"] for r in doc["costliest"] for u in r["units"] if u]
        assert texts and all(t and "\n" not in t for t in texts), path
