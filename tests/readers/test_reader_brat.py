"""brat standoff reader: fixtures in tests/data/coref_a/brat (ann1: ``*`` groups, LF;
ann2: R relations, CRLF; news/doc2: an emoji, ann2 with UTF-16 offsets)."""

from __future__ import annotations

import pytest

from corpusagree.model.chains import check_chains
from corpusagree.model.errors import InputError
from corpusagree.readers import _text, brat

from support import DATA as TEST_DATA

DATA = TEST_DATA / "coref_a" / "brat"


@pytest.fixture(scope="module")
def anns():
    return {(a.annotator, a.document.id): a for a in brat.read([DATA / "ann1", DATA / "ann2"])}


def members(ann):
    return [c.members for c in ann.chains]


def test_sniff():
    assert brat.sniff(DATA / "ann1")
    assert brat.sniff(DATA)
    assert brat.sniff(DATA / "ann1" / "doc1.ann")
    assert not brat.sniff(DATA / "ann1" / "doc1.txt")
    assert not brat.sniff(DATA.parent / "mmax2")


def test_documents_tokens_and_sentences(anns):
    assert sorted(anns) == [("ann1", "doc1"), ("ann1", "news/doc2"),
                            ("ann2", "doc1"), ("ann2", "news/doc2")]
    doc = anns["ann1", "doc1"].document
    assert doc.tokens[:5] == ["Ada", "fixed", "the", "red", "bike"]
    assert len(doc.tokens) == 19
    assert doc.sentence_starts == [0, 6, 11]
    assert doc.text.startswith("Ada fixed")
    # the CRLF copy of the text reads as the same text
    assert anns["ann2", "doc1"].document.text == doc.text


def test_equivalence_groups_discontinuous_and_singletons(anns):
    ann = anns["ann1", "doc1"]
    assert members(ann) == [["T1", "T3"], ["T2", "T4"], ["T5"], ["T6"]]
    t5 = ann.mentions["T5"]
    assert t5.fragments == ((12, 13), (15, 16))  # "east ... doors"
    assert t5.attrs["char_offsets"] == ((50, 54), (64, 69))
    assert t5.attrs["notes"] == [("AnnotatorNotes", "split coordination")]
    assert ann.mentions["T2"].attrs["attributes"] == {"Generic": True}
    assert ann.mentions["T3"].attrs["attributes"] == {"Number": "Sg"}
    assert ann.mentions["T1"].attrs["normalizations"] == [
        ("Reference", "Wikidata:Q7259", "Ada Lovelace")]
    assert ann.links == []
    assert check_chains(ann).clean


def test_relations_crlf_and_other_relation_types(anns):
    ann = anns["ann2", "doc1"]
    # CRLF counts as one character: the offsets equal ann1's
    assert ann.mentions["T5"].attrs["char_offsets"] == ((46, 69),)
    assert ann.mentions["T5"].fragments == ((11, 16),)
    assert members(ann) == [["T1", "T3"], ["T2", "T4"], ["T5"], ["T6"]]
    got = [(k.source, k.target, k.type, k.attrs["roles"]) for k in ann.links]
    assert got == [("T3", "T1", "Anaphora", ("Anaphor", "Antecedent")),
                   ("T4", "T2", "Anaphora", ("Anaphor", "Antecedent")),  # roles given reversed
                   ("T6", "T5", "PartOf", ("Arg1", "Arg2"))]
    assert ann.links[2].attrs["attributes"] == {"Negated": True}


def test_coref_types_are_configurable():
    ann = brat.read([DATA / "ann2" / "doc1.ann"], coref_types=["PartOf"])[0]
    assert members(ann) == [["T1"], ["T2"], ["T3"], ["T4"], ["T5", "T6"]]


def test_astral_characters_and_utf16_offsets(anns):
    a1, a2 = anns["ann1", "news/doc2"], anns["ann2", "news/doc2"]
    assert a1.document.tokens[1] == "\U0001F600"
    for ann in (a1, a2):
        assert ann.mentions["T2"].attrs["char_offsets"] == ((9, 11),)
        assert ann.mentions["T2"].fragments == ((3, 4),)
        assert members(ann) == [["T1"], ["T2", "T3"]]
    assert "offset_units" not in a1.mentions["T2"].attrs
    assert a2.mentions["T2"].attrs["offset_units"] == "utf-16"


def test_annotator_ids():
    anns = brat.read([DATA / "ann1" / "doc1.ann", DATA / "ann2"], annotators=["x", "y"])
    assert [(a.annotator, a.document.id) for a in anns] == [
        ("x", "doc1"), ("y", "doc1"), ("y", "news/doc2")]


BAD = [
    ("outside", "outside.ann:2: T2: offsets 70 90 outside the text (83 characters)"),
    ("mismatch", "mismatch.ann:2: T2: text 'the red car' does not match the .txt at 10 22: "
                 "'the red bike'"),
    ("duplicate", "duplicate.ann:3: duplicate id 'T1' (first on line 1)"),
    ("undefined", "undefined.ann:4: reference to undefined annotation 'T9'"),
    ("syntax", "syntax.ann:2: not a brat annotation line: 'T2 Mention 24 27 She'"),
    ("notmention", "notmention.ann:4: coreference over 'E1', which is not a text-bound "
                   "annotation (T)"),
]


@pytest.mark.parametrize(("name", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input(name, message):
    with pytest.raises(InputError) as e:
        brat.read([DATA / "bad" / f"{name}.ann"])
    assert str(e.value) == f"{DATA / 'bad'}/{message}"


def test_missing_txt(tmp_path):
    (tmp_path / "doc.ann").write_text("T1\tMention 0 1\tA\n")
    with pytest.raises(InputError, match=r"doc.txt: no .txt file for this .ann file"):
        brat.read([tmp_path / "doc.ann"])


def test_empty_ann_is_an_empty_annotation(tmp_path):
    (tmp_path / "doc.ann").write_text("")
    (tmp_path / "doc.txt").write_text("Nothing here.")
    (tmp_path / "other.ann").write_text("T1\tMention 0 3\tAda\n")
    (tmp_path / "other.txt").write_text("Ada.")
    ann = brat.read([tmp_path])[0]
    assert ann.document.id == "doc"
    assert ann.mentions == {} and ann.chains == []
    assert ann.document.tokens == ["Nothing", "here", "."]


def test_different_text_across_annotators():
    with pytest.raises(InputError) as e:
        brat.read([DATA / "ann1", DATA / "other_text"])
    assert str(e.value) == (
        f"{DATA / 'other_text' / 'doc1.ann'}: document 'doc1': annotator 'other_text' has other "
        f"tokens than 'ann1' in {DATA / 'ann1' / 'doc1.ann'} (token 4: 'bike' vs 'car')")


def test_token_fragments_helper():
    toks = brat.tokenize("Mara's  boat\nsank.")
    assert toks.words == ["Mara", "'s", "boat", "sank", "."]
    assert brat.token_fragments(toks, [(0, 2)]) == ((0, 1),)  # partial token: whole token
    assert brat.token_fragments(toks, [(7, 8)]) is None  # whitespace only
    assert brat.token_fragments(toks, [(8, 12), (0, 6)]) == ((0, 3),)  # sorted and merged


def test_a_text_over_a_million_characters(tmp_path):
    """spaCy refuses texts over ``nlp.max_length`` (1,000,000) with E088; the blank tokenizer
    keeps no model in memory, so the limit is raised to the text."""
    sentence = "Ada fixed the red bike. "
    text = sentence * (1_000_000 // len(sentence) + 1)
    (tmp_path / "long.txt").write_text(text)
    (tmp_path / "long.ann").write_text(f"T1\tMention {len(text) - 6} {len(text) - 2}\tbike\n")
    [ann] = brat.read([tmp_path])
    assert len(ann.document.text) > 1_000_000
    assert ann.mentions["T1"].fragments == ((len(ann.document.tokens) - 2,
                                             len(ann.document.tokens) - 1),)


def test_folders_of_empty_files_are_one_line_errors(tmp_path, cli):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "doc.ann").write_text("")
        (tmp_path / name / "doc.txt").write_text("")
    with pytest.raises(InputError) as e:
        brat.read([tmp_path / "a", tmp_path / "b"])
    assert str(e.value) == f"{tmp_path / 'a'}: no annotations: all 2 .ann file(s) are empty"
    status, out, err = cli("coref", tmp_path / "a", tmp_path / "b")
    assert (status, out) == (2, "")
    assert err == f"{tmp_path / 'a'}: no annotations: all 2 .ann file(s) are empty\n"


def test_not_utf8_names_the_byte_and_a_bom_is_accepted(tmp_path):
    (tmp_path / "doc.txt").write_bytes("Ren\u00e9 sang.".encode("latin-1"))
    (tmp_path / "doc.ann").write_bytes(b"\xef\xbb\xbfT1\tMention 0 4\tRen\xc3\xa9\n")
    with pytest.raises(InputError) as e:
        brat.read([tmp_path])
    assert str(e.value) == (f"{tmp_path / 'doc.txt'}:1: not UTF-8 (byte 0xe9 at column 4); "
                            "save the file as UTF-8")
    (tmp_path / "doc.txt").write_text("Ren\u00e9 sang.")
    assert brat.read([tmp_path])[0].mentions["T1"].attrs["text"] == "Ren\u00e9"


def test_tokenizing_in_pieces_changes_nothing(monkeypatch):
    """Long texts are tokenised in pieces cut before a word, the sentencizer's rule carried
    across the cuts: tokens, offsets and sentences are those of one pass."""
    text = ((DATA / "ann1" / "doc1.txt").read_text() + ' "Really?!" she asked.  (U.S.) '
            "e.g. 5.5 don't\n\n“Yes.” — \U0001F600 x_y _z ... ok. ") * 3

    def run():
        t = brat.tokenize(text)
        return t.words, list(t.starts), list(t.ends), t.sentence_starts

    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    doc = nlp(text)
    sents = {s[0].i for s in doc.sents}
    kept = [t for t in doc if not t.is_space]
    whole = run()
    assert whole[0] == [t.text for t in kept]
    assert whole[1] == [t.idx for t in kept]
    # spaCy's sentence starts, moved to the first non-space token
    firsts, pending = [], False
    for t in doc:
        pending = pending or t.i in sents
        if pending and not t.is_space:
            firsts.append(kept.index(t))
            pending = False
    assert whole[3] == firsts and len(firsts) > 10
    for piece in (1, 4, 9, 30):
        monkeypatch.setattr(_text, "PIECE", piece)
        assert run() == whole, piece


@pytest.mark.parametrize("offsets", ["0 \u00b2", "0 " + "9" * 5000])
def test_offsets_that_are_no_numbers_are_one_line(tmp_path, offsets):
    (tmp_path / "doc.txt").write_text("Ada.")
    (tmp_path / "doc.ann").write_text(f"T1\tMention {offsets}\tAda\n")
    with pytest.raises(InputError, match=r"doc.ann:1: T1: expected 'TYPE START END\[;START "
                       r"END\]\*', got 'Mention 0 .*$"):
        brat.read([tmp_path])



# ---- real files, round two: character-exact mentions, every problem, LitBank's chains ----------
FR = TEST_DATA / "coref_c" / "brat_fr"
LITBANK = TEST_DATA / "coref_c" / "brat_litbank"


def test_two_mentions_inside_one_token_stay_two():
    """"Il dit qu'ils viennent." with T2 = qu' (7-10) and T3 = ils (10-13): English rules make
    one token of qu'ils; it is cut at the mentions' boundaries, so the 3 mentions written are 3
    items, and no span is said to be repeated."""
    import warnings

    from corpusagree.convert import coref as cc

    anns = brat.read([FR / "ann1", FR / "ann2"])
    assert anns[0].document.tokens == ["Il", "dit", "qu'", "ils", "viennent", "."]
    assert anns[0].document.tokens is anns[1].document.tokens  # one text, one tokenisation
    assert {m: x.fragments for m, x in anns[0].mentions.items()} == {
        "T1": ((0, 1),), "T2": ((2, 3),), "T3": ((3, 4),)}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "repeated span"
        al = cc.align(anns)
    assert al.n_items == 3 and al.items == ["elision[0:1]", "elision[2:3]", "elision[3:4]"]
    assert all(c["repeated"] == 0 and c["merged"] == 0 for c in al.report.per_annotator.values())
    assert [c.members for c in anns[0].chains] == [["T1", "T3"], ["T2"]]


def test_lang_is_spacy_s_blank_pipeline_of_that_language(tmp_path):
    """--lang fr: spaCy's French rules split the elision themselves; an unknown language is
    one line."""
    [ann] = brat.read([FR / "ann1"], lang="fr")
    assert ann.document.tokens == ["Il", "dit", "qu'", "ils", "viennent", "."]
    assert brat.tokenize("qu'ils viennent", "fr").words == ["qu'", "ils", "viennent"]
    with pytest.raises(InputError, match=r"^lang='xx_nope': spaCy has no blank pipeline"):
        brat.read([FR / "ann1"], lang="xx_nope")


def test_a_real_repeated_span_names_its_mentions(tmp_path):
    """Two T lines at the same offsets of one file are one span marked twice: the warning
    names the file, both ids and the offsets."""
    from corpusagree.convert import coref as cc

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "elision.txt").write_text((FR / "ann1" / "elision.txt").read_text())
    (tmp_path / "a" / "elision.ann").write_text(
        (FR / "ann1" / "elision.ann").read_text() + "T4\tMention 10 13\tils\n")
    anns = brat.read([tmp_path / "a", FR / "ann2"])
    with pytest.warns(UserWarning) as caught:
        al = cc.align(anns)
    [message] = [str(w.message) for w in caught]
    assert message.startswith(f"{tmp_path / 'a' / 'elision.ann'}: 1 mention(s) repeat the span")
    assert "T3 = T4 (10-13)" in message
    assert al.n_items == 3


def test_sixty_problems_are_listed_at_once(tmp_path, cli):
    """A file with 60 problems: the first 50, one line each, then how many more; exit 2."""
    text = "Ada met Bo. " * 10
    (tmp_path / "d.txt").write_text(text)
    lines = [f"T{i}\tPerson {4 * i} {4 * i + 3}\tZed" for i in range(1, 61)]
    (tmp_path / "d.ann").write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as e:
        brat.read([tmp_path])
    listed = str(e.value).split("\n")
    assert len(e.value) == 60 and len(listed) == 51
    assert listed[0] == (f"{tmp_path / 'd.ann'}:1: T1: text 'Zed' does not match the .txt at 4 "
                         "7: 'met'")
    assert all(x.startswith(f"{tmp_path / 'd.ann'}:{n}: T{n}: ")
               for n, x in enumerate(listed[:50], 1))
    assert listed[50] == "and 10 more problems"
    status, out, err = cli("coref", tmp_path, tmp_path)
    assert (status, out) == (2, "")
    assert err.rstrip("\n").split("\n") == listed  # the same file twice: said once


def test_every_kind_of_problem_of_a_folder_at_once(tmp_path):
    """French LitBank took a run per problem: text mismatches, then duplicate ids. All of a
    read's problems come at once, in file and line order; a T line in error is not also an
    undefined reference."""
    (tmp_path / "a.txt").write_text("Ada met Bo.")
    (tmp_path / "a.ann").write_text("T1\tP 0 3\tAda\nT1\tP 8 10\tBo\nT2\tP 4 7\tmat\n"
                                    "R1\tCoref Arg1:T2 Arg2:T1\n")
    (tmp_path / "b.txt").write_text("Bo.")
    (tmp_path / "b.ann").write_text("T1\tP 0 9\tBo\n")
    (tmp_path / "c.ann").write_text("T1\tP 0 2\tBo\n")
    with pytest.raises(InputError) as e:
        brat.read([tmp_path])
    assert str(e.value).split("\n") == [
        f"{tmp_path / 'a.ann'}:2: duplicate id 'T1' (first on line 1)",
        f"{tmp_path / 'a.ann'}:3: T2: text 'mat' does not match the .txt at 4 7: 'met'",
        f"{tmp_path / 'b.ann'}:1: T1: offsets 0 9 outside the text (3 characters)",
        f"{tmp_path / 'c.txt'}: no .txt file for this .ann file"]


def test_litbank_chains_in_the_t_type():
    """LitBank writes its chains in the T type (Lord_Chancellor-0) beside an entity layer
    (PROP_PER, NOM_FAC …) and no coreference relation: recognised, with a warning; the entity
    layer's T lines are no mentions; --chains-from relations reads every T line alone."""
    with pytest.warns(UserWarning, match=r"chains read from the T types NAME-<chain> of 10 "
                      r"mention\(s\), as LitBank writes them; 10 T line\(s\) of other types "
                      r"\(NOM_FAC, PRON_PER, PROP_FAC, PROP_PER\) are no mentions"):
        a1, a2 = brat.read([LITBANK / "ann1", LITBANK / "ann2"])
    assert [(c.id, [a1.mentions[m].attrs["text"] for m in c.members]) for c in a1.chains] == [
        ("0", ["Lord Chancellor", "He"]),
        ("1", ["Lincoln 's Inn Hall", "the hall", "the hall"])]
    assert [len(c.members) for c in a2.chains] == [2, 1, 2]
    assert a1.links == []  # the cop relation is between entity-layer T lines
    assert brat.read([LITBANK / "ann1"], chains_from="type")[0].mentions.keys() == \
        a1.mentions.keys()
    alone = brat.read([LITBANK / "ann1"], chains_from="relations")[0]
    assert len(alone.mentions) == 10 and len(alone.chains) == 10
    with pytest.raises(InputError, match="chains_from='type': no T type of these files is "
                       "NAME-<number>"):
        brat.read([DATA / "ann1"], chains_from="type")


def test_litbank_scores_compare_chains(cli_json):
    """The coreference job on LitBank's encoding compares the chains: MUC has links to score
    (it said "nothing to score", 10 singletons each)."""
    out = cli_json("coref", LITBANK / "ann1", LITBANK / "ann2")
    assert out["items"] == 5
    [pair] = out["scores"]["pairs"]
    assert pair["muc"]["recall"] == pytest.approx(2 / 3)   # {LC He} kept, the hall split off
    assert pair["muc"]["precision"] == pytest.approx(1.0)
