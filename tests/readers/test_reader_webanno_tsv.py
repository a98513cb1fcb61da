"""WebAnno TSV 3 reader: fixtures in tests/data/coref_a/webanno_tsv (ann1: two chain layers,
one with swapped feature columns, stacked cells, a sub-token; ann2: a minimal header) and GUM's
export, where coreference is a relation layer over a span layer
(tests/data/coref_variants/webanno_tsv_gum)."""

from __future__ import annotations

import pytest

from corpusagree.model.chains import check_chains
from corpusagree.model.errors import InputError
from corpusagree.readers import webanno_tsv

from support import DATA as TEST_DATA

DATA = TEST_DATA / "coref_a" / "webanno_tsv"


@pytest.fixture(scope="module")
def anns():
    return {a.annotator: a for a in webanno_tsv.read([DATA / "ann1", DATA / "ann2"])}


def test_sniff():
    assert webanno_tsv.sniff(DATA / "ann1")
    assert webanno_tsv.sniff(DATA / "ann1" / "doc1.tsv")
    assert not webanno_tsv.sniff(DATA / "bad" / "header.tsv")


def test_tokens_and_sentences(anns):
    doc = anns["ann1"].document
    assert doc.id == "doc1"
    # the sub-token row 1-3.1 (Tom) is a mention: its token is cut at its boundary
    assert doc.tokens == ["Ann", "saw", "Tom", "'s", "dog", ".", "He", "fed", "it", "."]
    assert doc.sentence_starts == [0, 6]
    assert anns["ann2"].document.tokens == doc.tokens
    assert doc.text == "Ann saw Tom's dog. He fed it."  # the #Text= lines at their offsets


def test_chains_stacks_subtokens_and_layers(anns):
    ann = anns["ann1"]
    assert [(c.id, c.members) for c in ann.chains] == [
        ("Animacy:1", ["Animacy:1-1", "Animacy:1-2"]),
        ("Coreference:1", ["Coreference:1-1", "Coreference:1-2"]),
        ("Coreference:2", ["Coreference:2-1", "Coreference:2-2"]),
        ("Coreference:3", ["Coreference:3-1"]),
        ("Coreference:4", ["Coreference:4-1"])]  # stacked on "it"
    m = ann.mentions
    assert m["Coreference:2-1"].fragments == ((2, 5),)  # "Tom's dog"
    assert m["Coreference:1-1"].fragments == ((2, 3),)  # the sub-token "Tom", not "Tom's"
    assert m["Coreference:1-2"].attrs == {"layer": "Coreference", "referenceType": "PRO",
                                          "text": "He", "char_offsets": ((19, 21),)}
    assert m["Coreference:1-1"].attrs["char_offsets"] == ((8, 11),)  # the sub-token's own
    assert m["Coreference:2-1"].attrs["char_offsets"] == ((8, 17),)
    # feature columns in header order: AnimacyLink declares referenceRelation first
    assert m["Animacy:1-1"].attrs["referenceType"] == "animal"
    assert [(k.source, k.target, k.type, k.attrs["relation"]) for k in ann.links] == [
        ("Animacy:1-2", "Animacy:1-1", "Animacy", "coref"),
        ("Coreference:1-2", "Coreference:1-1", "Coreference", "coref"),
        ("Coreference:2-2", "Coreference:2-1", "Coreference", "coref")]
    assert check_chains(ann).clean


BAD = [
    ("nochain", "nochain.tsv: no coreference layer: no chain layer (#T_CH=) and no coreference "
                "relation layer (#T_RL= named Coref or Coreference) declared; span layers "
                "found: NamedEntity (read one with layers=[NAME])"),
    ("columns", "columns.tsv:7: expected a token row of 5 tab-separated columns"),
    ("cell", "cell.tsv:6: Coreference: expected TYPE[chain] and REL->chain-link, got 'PER[1]' "
             "and 'coref->2-1'"),
    ("header", "header.tsv:1: not a WebAnno TSV 3 file (no #FORMAT=WebAnno TSV 3 header)"),
]


@pytest.mark.parametrize(("name", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input(name, message):
    with pytest.raises(InputError) as e:
        webanno_tsv.read([DATA / "bad" / f"{name}.tsv"])
    assert str(e.value) == f"{DATA / 'bad'}/{message}"


GUM = TEST_DATA / "coref_variants" / "webanno_tsv_gum"


def test_gum_coreference_relation_layer():
    """GUM: ``#T_RL=webanno.custom.Coref|type|BT_webanno.custom.Referent``; a relation is written
    on its target's first row, with the source's row and ``[source_target]`` span numbers (0 for
    a one-token span written without a number)."""
    [ann] = webanno_tsv.read([GUM])
    assert (ann.annotator, ann.document.id) == ("webanno_tsv_gum", "GUM_fiction_boat")
    assert ann.document.sentence_starts == [0, 6, 10]
    assert {m.id: m.fragments for m in ann.mentions.values()} == {
        "Referent:1-1": ((0, 1),), "Referent:2": ((2, 3),), "Referent:3": ((2, 5),),
        "Referent:2-1": ((6, 7),), "Referent:2-3": ((8, 9),), "Referent:4": ((10, 12),)}
    assert ann.mentions["Referent:3"].attrs == {"layer": "Referent", "entity": "object",
                                                "infstat": "new", "text": "her old boat",
                                                "char_offsets": ((10, 22),)}
    assert [c.members for c in ann.chains] == [
        ["Referent:1-1", "Referent:2", "Referent:2-1"], ["Referent:3", "Referent:2-3"],
        ["Referent:4"]]  # the bridging relation joins no chain
    assert [(k.source, k.target, k.type, k.attrs["relation"]) for k in ann.links] == [
        ("Referent:2", "Referent:1-1", "Coref", "coref"),
        ("Referent:2-1", "Referent:2", "Coref", "ana"),
        ("Referent:2-3", "Referent:3", "Coref", "coref"),
        ("Referent:4", "Referent:3", "Coref", "bridge")]
    assert check_chains(ann).clean


def test_gum_relation_to_a_missing_span(tmp_path):
    text = (GUM / "GUM_fiction_boat.tsv").read_text().replace("1-3[2_0]", "1-3[9_0]")
    p = tmp_path / "x.tsv"
    p.write_text(text)
    with pytest.raises(InputError) as e:
        webanno_tsv.read([p])
    assert str(e.value) == f"{p}:7: Coref relation from '1-3[9_0]': no span 9 of Referent"


def test_gum_tsv_and_corefud_give_the_same_chains():
    from corpusagree.readers import corefud

    [tsv] = webanno_tsv.read([GUM])
    [ud] = corefud.read(TEST_DATA / "coref_variants" / "corefud_gum")
    assert tsv.document.tokens == ud.document.tokens

    def partition(ann):
        return {frozenset(ann.mentions[m].fragments for m in c.members) for c in ann.chains}

    assert partition(tsv) == partition(ud)


def test_encodings(tmp_path):
    text = (DATA / "ann2" / "doc1.tsv").read_text()
    p = tmp_path / "doc1.tsv"
    p.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert webanno_tsv.read([p])[0].document.tokens[0] == "Ann"
    p.write_bytes(text.replace("Ann", "Ren\u00e9").encode("latin-1"))
    with pytest.raises(InputError, match=r"doc1.tsv:\d+: not UTF-8 \(byte 0xe9 at column "
                       r"\d+\); save the file as UTF-8$"):
        webanno_tsv.read([p])


NER = DATA / "ner"


def test_named_entity_span_layer():
    """INCEpTION's NamedEntity span layer alone (TSV 3.3): the spans job reads it, each span a
    mention (its value among the attrs) and a singleton chain; UTF-16 offsets after a
    character beyond U+FFFF become code points; the text is the #Text= lines."""
    a1, a2 = webanno_tsv.read([NER / "ann1", NER / "ann2"], spans=True)
    assert a1.document.text == "Ann \U0001f642 met Tom in Paris. She left."
    assert [(k, m.fragments, m.attrs["value"], m.attrs["identifier"], m.attrs["char_offsets"],
             m.attrs["text"]) for k, m in a2.mentions.items()] == [
        ("NamedEntity:1-1", ((0, 1),), "PER", None, ((0, 3),), "Ann"),
        ("NamedEntity:1", ((2, 4),), "ORG", None, ((6, 13),), "met Tom"),
        ("NamedEntity:1-6", ((5, 6),), "LOC", None, ((17, 22),), "Paris")]
    assert [c.members for c in a2.chains] == [[k] for k in a2.mentions]
    assert webanno_tsv.read([NER / "ann2"], layers=["NamedEntity"])[0].mentions == a2.mentions
    with pytest.raises(InputError, match="doc1.tsv: no coreference layer: .* span layers found"):
        webanno_tsv.read([NER / "ann1"])
    with pytest.raises(InputError) as e:
        webanno_tsv.read([DATA / "ann1"], layers=["Entity"])
    assert str(e.value).endswith("doc1.tsv: no layer Entity; layers found: NamedEntity (span), "
                                 "Coreference (chain), Animacy (chain), Rel (relation)")


def test_rows_repeating_the_cells_of_the_row_before(tmp_path):
    """A row with the same cells as the row before carries the same numbered spans (they grow
    by its token), but its values without a number are its own one-token spans; a sub-token
    row adds its characters to the spans its cells name."""
    rows = ["1-1\t0-3\tAnn\tPER\t", "1-2\t4-7\tBob\tPER\t", "1-3\t8-11\tmet\tORG[1]\t",
            "1-4\t12-15\tTom\tORG[1]|LOC[2]\t", "1-4.1\t12-14\tTo\tORG[1]|LOC[2]\t",
            "1-5\t16-21\tParis\tORG[1]|LOC[2]\t", "1-6\t22-24\tin\tORG[1]\t",
            "1-7\t25-26\tX\tLOC[3]\t", "1-8\t27-28\tY\tLOC[3]\t"]
    (tmp_path / "doc.tsv").write_text(
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type."
        "NamedEntity|value\n\n\n#Text=Ann Bob met Tom Paris in X Y\n" + "\n".join(rows)
        + "\n")
    [ann] = webanno_tsv.read([tmp_path / "doc.tsv"], spans=True)
    assert {k: (m.fragments, m.attrs["value"], m.attrs["char_offsets"])
            for k, m in ann.mentions.items()} == {
        "NamedEntity:1-1": (((0, 1),), "PER", ((0, 3),)),
        "NamedEntity:1-2": (((1, 2),), "PER", ((4, 7),)),
        "NamedEntity:1": (((2, 6),), "ORG", ((8, 24),)),
        "NamedEntity:2": (((3, 5),), "LOC", ((12, 21),)),
        "NamedEntity:3": (((6, 8),), "LOC", ((25, 28),))}


def test_named_entities_beside_chains(anns):
    """A span layer named beside the chain layers adds its spans, as singletons."""
    [ann] = webanno_tsv.read([DATA / "ann1"], layers=["Coreference", "NamedEntity"])
    assert {m.attrs["layer"] for m in ann.mentions.values()} == {"Coreference", "NamedEntity"}
    ne = {m.id: m.attrs["text"] for m in ann.mentions.values() if m.attrs["layer"] ==
          "NamedEntity"}
    assert ne == {"NamedEntity:1-1": "Ann", "NamedEntity:1-3.1": "Tom"}


def test_two_span_layers_need_a_name(tmp_path):
    text = (NER / "ann1" / "doc1.tsv").read_text().replace(
        "|value\n", "|value\n#T_SP=webanno.custom.Claim|label\n").replace("\t\n", "\t_\t\n")
    p = tmp_path / "doc1.tsv"
    p.write_text(text)
    with pytest.raises(InputError) as e:
        webanno_tsv.read([p], spans=True)
    assert str(e.value) == f"{p}: no coreference layer and 2 span layers (NamedEntity, " \
        "Claim): name one with layers=[NAME]"


def test_annotator_who_marked_nothing(tmp_path):
    """A file that declares no layer (its annotator marked nothing) beside files whose one span
    layer is NamedEntity: the spans job reads it as marking nothing there, with a warning."""
    import re

    text = (NER / "ann1" / "doc1.tsv").read_text()
    empty = tmp_path / "ann3" / "doc1.tsv"
    empty.parent.mkdir()
    empty.write_text(re.sub(r"\t[^\t\n]*\t[^\t\n]*\t\n", "\t\n",
                            text.replace("#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type."
                                         "NamedEntity|identifier|value\n", "")))
    with pytest.warns(UserWarning, match="read as marking nothing in NamedEntity"):
        a1, a3 = webanno_tsv.read([NER / "ann1", empty.parent], spans=True)
    assert (a3.annotator, a3.mentions, a3.document.tokens) == ("ann3", {}, a1.document.tokens)
    with pytest.raises(InputError, match="no coreference layer"):
        webanno_tsv.read([empty.parent], spans=True)


def test_offsets_are_checked(tmp_path):
    text = (NER / "ann1" / "doc1.tsv").read_text()
    p = tmp_path / "doc1.tsv"
    p.write_text(text.replace("11-14", "11_14"))
    with pytest.raises(InputError) as e:
        webanno_tsv.read([p], spans=True)
    assert str(e.value) == f"{p}:9: expected character offsets BEGIN-END, got '11_14'"
    p.write_text(text.replace("4-6\t", "4-5\t").replace("7-10", "5-10"))
    with pytest.raises(InputError) as e:
        webanno_tsv.read([p], spans=True)
    assert str(e.value) == (f"{p}:7: offsets 4-5 split a character of the text\n"
                            f"{p}:8: offsets 5-10 split a character of the text")


def test_a_sub_token_ending_past_the_text(tmp_path):
    """A sub-token row's offsets are checked against the text, with or without characters
    beyond U+FFFF in it."""
    text = (NER / "ann1" / "doc1.tsv").read_text().replace(
        "1-4\t11-14\tTom\t*\tPER\t\n",
        "1-4\t11-14\tTom\t*\tPER\t\n1-4.1\t11-40\tTom\t_\t_\t\n")
    for wide in (True, False):
        p = tmp_path / f"{wide}" / "doc1.tsv"
        p.parent.mkdir()
        p.write_text(text if wide else text.replace("\U0001f642", "xx"))
        with pytest.raises(InputError) as e:
            webanno_tsv.read([p], spans=True)
        assert str(e.value) == f"{p}:10: offsets 11-40 end past the last token (34)"


def test_offsets_past_any_text_the_file_holds_are_refused(tmp_path):
    """The text is rebuilt at the character offsets: a huge offset (a damaged file) would ask
    for gigabytes, so it is an error naming the line (15 GB and a hang before)."""
    src = (DATA / "ann2" / "doc1.tsv").read_text(encoding="utf-8")
    lines = src.split("\n")
    n = next(i for i, x in enumerate(lines) if x.startswith("1-2\t"))
    cells = lines[n].split("\t")
    cells[1] = cells[1].split("-")[0] + "-7000000000"
    lines[n] = "\t".join(cells)
    p = tmp_path / "doc1.tsv"
    p.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError) as e:
        webanno_tsv.read([p])
    assert str(e.value) == (f"{p}:{n + 1}: offset 7,000,000,000 lies past any text this file "
                            f"of {len(p.read_text(encoding='utf-8')):,} characters can hold")


# ---- real files, round two: GUM's stacked spans and surplus columns, export zips -------------
GUM2 = TEST_DATA / "coref_c" / "webanno_gum"


def test_stacked_spans_with_values_for_some_of_them():
    """GUM writes ``abstract[1]|abstract[2]`` beside ``Old_English[2]``: span 1 has no identity,
    span 2 has; OntoGUM keeps span 2 in its centering column only (no entity); rows with more
    columns than the header declares, all '_', are read with a warning."""
    with pytest.warns(UserWarning, match=r"GUM_poetry_old.tsv: 2 row\(s\) have up to 2 "
                      r"column\(s\) more than the header declares \(10\), holding nothing but "
                      r"'_': ignored"):
        gum, onto = webanno_tsv.read([GUM2 / "gum", GUM2 / "ontogum"])
    m = gum.mentions
    assert {k: x.fragments for k, x in m.items()} == {
        "Referent:2": ((0, 2),), "Referent:1": ((0, 3),), "Referent:2-1": ((5, 6),)}
    assert (m["Referent:1"].attrs["identity"], m["Referent:2"].attrs["identity"]) == \
        (None, "Old_English")
    assert m["Referent:1"].attrs["centering"] == "cf1" and m["Referent:2"].attrs[
        "centering"] == "cf2"
    assert [c.members for c in gum.chains] == [["Referent:2"], ["Referent:1", "Referent:2-1"]]
    assert onto.mentions["Referent:2"].attrs["entity"] is None
    assert onto.mentions["Referent:2"].attrs["centering"] == "cf2"
    assert onto.mentions.keys() == gum.mentions.keys()


def test_values_without_a_number_that_cannot_be_matched(tmp_path):
    text = (GUM2 / "gum" / "GUM_poetry_old.tsv").read_text().replace(
        "2-1\t30-32\tIt\tabstract\tgiv:act", "2-1\t30-32\tIt\tabstract|person\tgiv:act")
    (tmp_path / "x.tsv").write_text(text)
    with pytest.raises(InputError) as e:
        webanno_tsv.read([tmp_path / "x.tsv"])
    assert str(e.value) == (f"{tmp_path / 'x.tsv'}:14: Referent: values without a span number "
                            "in different numbers (entity 2, infstat 1, salience 1, centering "
                            "1): cannot tell which belongs to which span")


def test_a_surplus_column_with_a_value_is_an_error(tmp_path):
    text = (GUM2 / "gum" / "GUM_poetry_old.tsv").read_text().replace(
        "2-2\t33-35\tis\t_\t_\t_\t_\t_\t_\t_\t_\t_\t",
        "2-2\t33-35\tis\t_\t_\t_\t_\t_\t_\t_\t_\tX\t")
    (tmp_path / "x.tsv").write_text(text)
    with pytest.raises(InputError) as e:
        webanno_tsv.read([tmp_path / "x.tsv"])
    assert str(e.value) == (f"{tmp_path / 'x.tsv'}:15: 12 columns where the header declares 10: "
                            "column 12 holds 'X'")


def test_an_export_zip(tmp_path):
    """An INCEpTION project export: annotation/<document>/<user>.tsv, or the user's zip holding
    it; curation and the initial CAS are no annotator."""
    import zipfile

    gum = (GUM2 / "gum" / "GUM_poetry_old.tsv").read_bytes()
    onto = (GUM2 / "ontogum" / "GUM_poetry_old.tsv").read_bytes()
    inner = tmp_path / "inner.zip"
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("GUM_poetry_old.tsv", onto)
    export = tmp_path / "project.zip"
    with zipfile.ZipFile(export, "w") as z:
        z.writestr("annotation/GUM_poetry_old.txt/gum.tsv", gum)
        z.write(inner, "annotation/GUM_poetry_old.txt/ontogum.zip")
        z.writestr("annotation/GUM_poetry_old.txt/INITIAL_CAS.tsv", gum)
        z.writestr("curation/GUM_poetry_old.txt/CURATION_USER.tsv", gum)
        z.writestr("source/GUM_poetry_old.txt", "Old English poetry survives . It is old .")
    assert webanno_tsv.sniff(export) and webanno_tsv.sniff(tmp_path)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        anns = webanno_tsv.read([export])
    assert [(a.annotator, a.document.id) for a in anns] == [
        ("gum", "GUM_poetry_old.txt"), ("ontogum", "GUM_poetry_old.txt")]
    assert anns[1].source == f"{export}!/annotation/GUM_poetry_old.txt/ontogum.zip!/" \
        "GUM_poetry_old.tsv"
    assert anns[0].mentions.keys() == anns[1].mentions.keys()
    # one folder per annotator
    with zipfile.ZipFile(tmp_path / "by_user.zip", "w") as z:
        z.writestr("gum/GUM_poetry_old.tsv", gum)
        z.writestr("ontogum/GUM_poetry_old.tsv", onto)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert [a.annotator for a in webanno_tsv.read([tmp_path / "by_user.zip"])] == \
            ["gum", "ontogum"]
