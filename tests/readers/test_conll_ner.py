"""The CoNLL NER reader: BIO/IOB2, IOB1 and BIOES columns, and the spans job's NER modes on
two annotators' files equal to nervaluate reading the same files."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from corpusagree import readers
from corpusagree.analyses import spans
from corpusagree.model.errors import InputError
from corpusagree.readers import conll_ner

DATA = Path(__file__).parents[1] / "data" / "conll_ner"
TAGS = ["O", "O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]


def _write(path: Path, sentences) -> Path:
    path.write_text("\n\n".join("\n".join(f"w{i}\t{t}" for i, t in enumerate(s))
                                for s in sentences) + "\n")
    return path


def _random(rng, like=None):
    if like is None:
        return [rng.choice(TAGS, int(rng.integers(1, 25))).tolist()
                for _ in range(int(rng.integers(1, 10)))]
    return [[t if rng.random() < 0.7 else str(rng.choice(TAGS)) for t in s] for s in like]


def _ner_counts(report, a="a", b="b"):
    return {(x["label"], x["mode"]): [x[k] for k in ("correct", "incorrect", "partial",
                                                     "missed", "spurious")]
            for x in report.ner if x["over_pairs"] == "pair" and x["a"] == a
            and x["b"] == b and x["over_types"] in ("micro", "one")}


@pytest.mark.parametrize("seed", range(8))
def test_modes_equal_nervaluate_on_two_annotators_files(tmp_path, seed):
    nervaluate = pytest.importorskip("nervaluate")
    rng = np.random.default_rng(seed)
    one = _random(rng)
    fa = _write(tmp_path / "a.conll", one)
    fb = _write(tmp_path / "b.conll", _random(rng, one))
    assert readers.detect("coref", fa) == "conll_ner"
    report = spans.analyse(spans.read([fa, fb]), measures=["ner"])
    ours = _ner_counts(report)
    res = nervaluate.Evaluator(fa.read_text(), fb.read_text(), tags=["PER", "LOC", "ORG"],
                               loader="conll").evaluate()
    for mode, r in res["overall"].items():
        assert ours[None, mode] == [r.correct, r.incorrect, r.partial, r.missed, r.spurious]
        row = next(x for x in report.ner if x["over_pairs"] == "pair" and x["label"] is None
                   and x["over_types"] == "micro" and x["mode"] == mode)
        assert (row["precision"], row["recall"], row["f1"]) == pytest.approx(
            (r.precision, r.recall, r.f1))
    for label, modes in res["entities"].items():
        for mode, r in modes.items():
            assert ours[label, mode] == [r.correct, r.incorrect, r.partial, r.missed,
                                         r.spurious], (label, mode)


def test_written_files_equal_nervaluate_and_sklearn():
    """The written CoNLL-2003-style files (four columns, -DOCSTART-): modes as nervaluate
    counts them on the tag column, token κ as scikit-learn's on the token types."""
    nervaluate = pytest.importorskip("nervaluate")
    metrics = pytest.importorskip("sklearn.metrics")
    files = [DATA / "ann1.conll", DATA / "ann2.conll"]
    report = spans.analyse(spans.read(files), measures=["ner"])
    tags = []
    for f in files:
        rows = [line.split() for line in f.read_text().splitlines()]
        tags.append([r[-1] for r in rows if r and r[0] != "-DOCSTART-"])
    ev = nervaluate.Evaluator([tags[0]], [tags[1]], tags=["PER", "LOC", "ORG", "MISC"],
                              loader="list").evaluate()
    ours = _ner_counts(report, "ann1", "ann2")
    for mode, r in ev["overall"].items():
        assert ours[None, mode] == [r.correct, r.incorrect, r.partial, r.missed, r.spurious]
    assert ours[None, "strict"] == [4, 3, 0, 0, 1]
    types = [[t[2:] if t != "O" else "O" for t in x] for x in tags]
    tok = report.ner_tokens[0]
    assert tok["kappa_all"] == pytest.approx(metrics.cohen_kappa_score(*types))
    marked = [i for i in range(len(types[0])) if "O" not in (types[0][i],) or
              types[1][i] != "O"]
    assert tok["kappa_marked"] == pytest.approx(metrics.cohen_kappa_score(
        [types[0][i] for i in marked], [types[1][i] for i in marked]))
    assert report.disagreements[0]["outcome"] == "incorrect"


def test_schemes_give_the_same_spans(tmp_path):
    bio = ["B-PER I-PER O B-LOC B-LOC I-LOC O B-ORG".split()]
    iob1 = ["I-PER I-PER O I-LOC B-LOC I-LOC O I-ORG".split()]
    bioes = ["B-PER E-PER O S-LOC B-LOC E-LOC O S-ORG".split()]
    bilou = ["B-PER L-PER O U-LOC B-LOC L-LOC O U-ORG".split()]
    got = []
    for k, s in enumerate((bio, iob1, bioes, bilou)):
        (doc, mentions), = conll_ner.parse(_write(tmp_path / f"{k}.conll", s))
        got.append([(m[1], m[3]["type"]) for m in mentions])
    assert got[0] == [(((0, 2),), "PER"), (((3, 4),), "LOC"), (((4, 6),), "LOC"),
                      (((7, 8),), "ORG")]
    assert got[1] == got[2] == got[3] == got[0]


def test_an_I_after_O_is_an_error_under_iob2(tmp_path):
    f = _write(tmp_path / "x.conll", [["O", "I-PER"], ["B-LOC", "I-LOC"], ["I-ORG"]])
    with pytest.raises(InputError) as e:
        readers.read("coref", [f], "conll_ner", scheme="iob2")
    assert e.value.line == 2 and "x.conll" in str(e.value) and "I-PER" in str(e.value)
    assert "x.conll:7" in str(e.value)        # the rest of the file is checked too
    (doc, mentions), = conll_ner.parse(f)      # read as IOB1 by default
    assert [m[1] for m in mentions] == [((1, 2),), ((2, 4),), ((4, 5),)]


def test_bad_lines_name_file_and_line(tmp_path):
    f = tmp_path / "y.conll"
    f.write_text("a B-PER\nb\n")
    with pytest.raises(InputError, match="one column") as e:
        conll_ner.parse(f)
    assert e.value.line == 2
    f.write_text("a B-PER\nb X-PER\n")
    assert not conll_ner.sniff(f)
    with pytest.raises(InputError, match="no NER tag"):
        conll_ner.parse(f)


def test_sniff_leaves_other_formats():
    for path in Path("sample_corpora").rglob("*"):
        if path.is_file() and path.suffix in (".conll", ".conllu", ".tsv", ".txt"):
            assert not conll_ner.sniff(path), path


def _reference(text: str) -> list[tuple[list[str], list[int], list[tuple[int, int, str]]]]:
    """The documents of a CoNLL NER file read line by line with ``str.split()``, as the
    module docstring says: (tokens, sentence starts, entities) of each document."""
    docs: list[tuple[list, list, list]] = []
    cur = None
    new_sentence = True
    prev = ("O", None)
    for line in text.split("\n"):
        f = line.split()
        if not f:
            new_sentence = True
            continue
        if f[0] == "-DOCSTART-":
            cur, new_sentence = None, True
            docs.append(([], [], []))
            continue
        tag_ok = bool(re.fullmatch(r"O|[BIESLU]-\S+", f[-1]))
        if f[0].startswith("#") and (len(f) < 2 or not tag_ok):
            new_sentence = True
            continue
        if not docs or cur is False:
            docs.append(([], [], []))
        cur = True
        tokens, sents, ents = docs[-1]
        tag = f[-1]
        pre, typ = ("O", None) if tag == "O" else ({"L": "E", "U": "S"}.get(tag[0], tag[0]),
                                                   tag[2:])
        if new_sentence:
            sents.append(len(tokens))
        if pre != "O":
            starts = pre in "BS" or new_sentence or prev[0] in "OES" or prev[1] != typ
            if starts:
                ents.append([len(tokens), len(tokens) + 1, typ])
            else:
                ents[-1][1] = len(tokens) + 1
        tokens.append(f[0])
        prev, new_sentence = (pre, typ), False
    return [(t, s, [tuple(e) for e in x]) for t, s, x in docs if t]


@pytest.mark.parametrize("chunk", [1, 5, 1 << 20])
def test_equal_to_a_line_by_line_reading_with_any_whitespace(tmp_path, monkeypatch, chunk):
    """Random files in Latin-1, the BMP and beyond, columns split at Python's whitespace of
    every kind (no-break and ideographic spaces, U+001C, U+0085), comments, documents, a tag
    type with NUL: the documents, sentences and entities of a reading line by line with
    ``str.split()``, whatever the chunk of code points the fields are found in."""
    monkeypatch.setattr(conll_ner, "_CHUNK", chunk)
    rng = np.random.default_rng(chunk)
    spaces = [" ", "\t", " \t ", "\xa0", "\u3000", "\x1c", "\x85", "\u2028"]
    words = ["Ada", "naïve", "Łódź", "東京", "😀", "#", "-DOCSTART-x", "a\x00b"]
    tags = TAGS + ["E-PER", "S-LOC", "L-ORG", "U-ORG", "B-é", "I-é", "B-X\x00"]
    for k in range(40):
        lines = []
        for _ in range(int(rng.integers(0, 80))):
            r = rng.random()
            if r < 0.1:
                lines.append(str(rng.choice(["", " ", "\xa0"])))
            elif r < 0.13:
                lines.append("-DOCSTART- -X- O O")
            elif r < 0.16:
                lines.append("# id = " + str(rng.choice(["1", "B-PER"])))
            else:
                cols = [str(rng.choice(words))] + ["NN"] * int(rng.integers(0, 3)) + \
                    [str(rng.choice(tags))]
                lines.append(str(rng.choice(spaces)).join(cols))
        text = "\n".join(lines) + "\n"
        f = tmp_path / f"{k}.conll"
        f.write_text(text, encoding="utf-8")
        got = [(d.tokens, d.sentence_starts, [(s, e, a["type"]) for _, ((s, e),), _, a in m])
               for d, m in conll_ner.parse(f)]
        assert got == _reference(text), text
