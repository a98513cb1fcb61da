"""UIMA CAS XMI reader: fixtures in tests/data/coref_a/xmi (no TypeSystem.xml next to them,
except zip/, which the tests pack into INCEpTION-style zips)."""

from __future__ import annotations

import re
import zipfile

import pytest

from corpusagree.model.chains import check_chains
from corpusagree.model.errors import InputError
from corpusagree.readers import _zips, xmi

from support import DATA as TEST_DATA

DATA = TEST_DATA / "coref_a" / "xmi"


@pytest.fixture(scope="module")
def export():
    return {a.annotator: a for a in xmi.read([DATA / "export"])}


def chains(ann):
    return [c.members for c in ann.chains]


def test_sniff(tmp_path):
    assert xmi.sniff(DATA / "export")
    assert xmi.sniff(DATA / "dirs" / "ann1" / "doc2.xmi")
    assert not xmi.sniff(DATA / "zip" / "TypeSystem.xml")
    assert not xmi.sniff(DATA.parent / "brat")
    z = tmp_path / "doc.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.write(DATA / "zip" / "carol.xmi", "carol.xmi")
    assert xmi.sniff(z)


def test_inception_layout_users_and_curation_skipped(export):
    assert sorted(export) == ["alice", "bob"]  # CURATION_USER.xmi is not an annotator
    assert {a.document.id for a in export.values()} == {"doc1.txt"}


def test_cas_tokens_sentences_and_utf16_offsets(export):
    doc = export["alice"].document
    assert doc.tokens == ["Bo", "\U0001F600", "met", "Cy", "at", "the", "dock", ".", "She",
                          "waved", "to", "him", "."]
    assert doc.sentence_starts == [0, 8]
    cy = export["alice"].mentions["32"]
    # begin/end 10-12 in UTF-16 units after the emoji are code points 9-11
    assert cy.attrs == {"layer": "Coreference", "referenceType": "PER", "text": "Cy",
                        "char_offsets": ((9, 11),)}
    assert cy.fragments == ((3, 4),)


def test_chains_singletons_and_links(export):
    ann = export["alice"]
    assert [(c.id, c.members) for c in ann.chains] == [
        ("40", ["30", "31"]), ("41", ["32", "33"]), ("42", ["34"])]
    assert [(k.source, k.target, k.type, k.attrs) for k in ann.links] == [
        ("31", "30", "Coreference", {"relation": "anaphoric"}),
        ("33", "32", "Coreference", {"relation": "anaphoric"})]
    assert check_chains(ann).clean


def test_unindexed_orphan_and_custom_chain_layer(export):
    ann = export["bob"]
    # link 31 is reachable from chain 40 but not indexed: its offsets are converted too
    assert ann.mentions["31"].attrs["char_offsets"] == ((25, 28),)
    assert ann.mentions["31"].fragments == ((8, 9),)
    assert ann.mentions["33"].attrs["orphan"] is True
    assert chains(ann) == [["30", "31"], ["32"], ["33"], ["60", "61"]]
    assert ann.mentions["60"].attrs["layer"] == "Bridge"
    assert check_chains(ann).clean


def test_layer_selection():
    ann = xmi.read([DATA / "export" / "annotation" / "doc1.txt" / "bob.xmi"],
                   layers=["CoreferenceChain"])[0]
    assert chains(ann) == [["30", "31"], ["32"], ["33"]]
    with pytest.raises(InputError) as e:
        xmi.read([DATA / "dirs" / "ann1"], layers=["Bridge"])
    assert str(e.value).endswith("doc2.xmi:2: no layer Bridge; layers found: Coreference (chain)")


NER = DATA / "ner"


def test_named_entity_span_layer():
    """INCEpTION's NamedEntity layer alone: the spans job reads it (each entity a mention and a
    singleton chain, its value among the attrs), the coreference job only when named; offsets
    in code points after a character beyond U+FFFF; TagsetDescription is no layer."""
    with pytest.raises(InputError) as e:
        xmi.read([NER / "ann1"])
    assert str(e.value).endswith("span layers found: NamedEntity (read one with layers=[NAME])")
    a1, a2 = xmi.read([NER / "ann1", NER / "ann2"], spans=True)
    assert (a1.annotator, a2.annotator, a1.document.id) == ("ann1", "ann2", "doc1.txt")
    assert [(k, m.fragments, m.attrs["value"], m.attrs["char_offsets"], m.attrs["text"])
            for k, m in a1.mentions.items()] == [
        ("200", ((0, 1),), "PER", ((0, 3),), "Ann"),
        ("201", ((3, 4),), "PER", ((10, 13),), "Tom"),
        ("202", ((5, 6),), "LOC", ((17, 22),), "Paris")]
    assert a1.mentions["200"].attrs["layer"] == "NamedEntity"
    assert [c.members for c in a1.chains] == [["200"], ["201"], ["202"]]
    assert a2.mentions["201"].attrs["text"] == "met Tom"
    named = xmi.read([NER / "ann1"], layers=["NamedEntity"])[0]
    assert named.mentions == a1.mentions


def test_two_span_layers_need_a_name(tmp_path):
    text = (NER / "ann1" / "doc1.xmi").read_text().replace(
        'xmi:version="2.0">', 'xmlns:custom="http:///webanno/custom.ecore" xmi:version="2.0">'
    ).replace("<cas:View", '<custom:Claim xmi:id="300" sofa="1" begin="7" end="10" '
              'label="x"/>\n<cas:View')
    p = tmp_path / "doc1.xmi"
    p.write_text(text)
    with pytest.raises(InputError) as e:
        xmi.read([p], spans=True)
    assert str(e.value) == f"{p}:2: no coreference layer and 2 span layers (NamedEntity, " \
        "Claim): name one with layers=[NAME]"
    [ann] = xmi.read([p], spans=True, layers=["Claim"])
    assert [(m.id, m.attrs["label"], m.attrs["text"]) for m in ann.mentions.values()] == [
        ("300", "x", "met")]


def test_annotator_who_marked_nothing_and_differing_span_layers(tmp_path):
    """An annotator who marked nothing leaves no NamedEntity in their XMI: beside files whose
    one span layer is NamedEntity, the spans job reads it as marking nothing there (with a
    warning), not as an error; alone it is the error it was. Files whose only span layers
    differ are an error, not two layers compared."""
    import re

    text = (NER / "ann2" / "doc1.xmi").read_text()
    empty = tmp_path / "ann3" / "doc1.xmi"
    empty.parent.mkdir()
    empty.write_text(re.sub(r"<type2:NamedEntity [^>]*/>\n", "", text).replace(
        'username="ann2"', 'username="ann3"').replace(" 200 201 202", ""))
    with pytest.warns(UserWarning, match=r"1 file\(s\) without any annotation \(first: "
                      f"{re.escape(str(empty))}\\) read as marking nothing in NamedEntity"):
        a1, a3 = xmi.read([NER / "ann1", empty.parent], spans=True)
    assert (a3.annotator, a3.mentions, len(a1.mentions)) == ("ann3", {}, 3)
    with pytest.raises(InputError, match="no coreference layer"):
        xmi.read([empty.parent], spans=True)
    claim = tmp_path / "ann4" / "doc1.xmi"
    claim.parent.mkdir()
    claim.write_text(text.replace("type2:NamedEntity", "type2:Claim").replace(
        'username="ann2"', 'username="ann4"'))
    with pytest.raises(InputError) as e:
        xmi.read([NER / "ann1", claim.parent], spans=True)
    assert str(e.value) == (f"{claim}: its only span layer is Claim, where "
                            f"{NER / 'ann1' / 'doc1.xmi'}'s is NamedEntity: name the one to "
                            "compare with layers=[NAME]")


def test_directory_per_annotator_without_cas_tokens():
    anns = xmi.read([DATA / "dirs"])
    assert [(a.annotator, a.document.id) for a in anns] == [("ann1", "doc2"), ("ann2", "doc2")]
    assert anns[0].document.tokens == ["Ann", "saw", "Tom", ".", "He", "smiled", "."]
    assert anns[0].document.sentence_starts == [0, 4]
    assert chains(anns[0]) == [["30"], ["31", "32"]]
    assert chains(anns[1]) == [["30", "31"]]


def test_inception_export_zip_with_declared_but_empty_layer(tmp_path):
    z = tmp_path / "annotation" / "doc3.txt" / "webanno1export.zip"
    z.parent.mkdir(parents=True)
    with zipfile.ZipFile(z, "w") as f:
        f.write(DATA / "zip" / "carol.xmi", "carol.xmi")
        f.write(DATA / "zip" / "TypeSystem.xml", "TypeSystem.xml")
    [ann] = xmi.read([tmp_path])
    assert (ann.annotator, ann.document.id, ann.mentions) == ("carol", "doc3.txt", {})
    assert ann.source == f"{z}!/carol.xmi"


def test_zip_without_type_system_has_no_layer(tmp_path):
    z = tmp_path / "doc3.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.write(DATA / "zip" / "carol.xmi", "carol.xmi")
    with pytest.raises(InputError) as e:
        xmi.read([z])
    assert re.match(rf"{re.escape(str(z))}!/carol\.xmi:\d+: no coreference layer", str(e.value))


BAD = [
    ("nocoref", "nocoref.xmi:2: no coreference layer: CoreferenceChain or a custom *Chain layer "
                "is neither annotated nor declared in a TypeSystem.xml beside the file"),
    ("dangling", "dangling.xmi:14: CoreferenceLink xmi:id=30: next=39 is not a CoreferenceLink"),
    ("cycle", "cycle.xmi:14: CoreferenceChain xmi:id=40: the next links form a cycle at "
              "xmi:id=30"),
    ("zerolength", "zerolength.xmi:14: CoreferenceLink xmi:id=30: span 3-3 covers no token"),
    ("duplicate", "duplicate.xmi:15: duplicate xmi:id 30 (first on line 14)"),
    ("malformed", "malformed.xmi:17: malformed XML: Opening and ending tag mismatch"),
]


@pytest.mark.parametrize(("name", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input(name, message):
    with pytest.raises(InputError) as e:
        xmi.read([DATA / "bad" / f"{name}.xmi"])
    assert str(e.value).startswith(f"{DATA / 'bad'}/{message}")


def test_same_annotator_twice_and_different_tokens():
    with pytest.raises(InputError, match="annotator 'x' has document 'doc1.txt' twice"):
        xmi.read([DATA / "export"], annotators=["x"])
    with pytest.raises(InputError) as e:
        xmi.read([DATA / "dirs" / "ann1", DATA / "other_text" / "ann3"])
    assert str(e.value) == (
        f"{DATA / 'other_text' / 'ann3' / 'doc2.xmi'}: document 'doc2': annotator 'ann3' has "
        f"other tokens than 'ann1' in {DATA / 'dirs' / 'ann1' / 'doc2.xmi'} "
        "(token 2: 'Tom' vs 'Tim')")


def with_markup_in_root(markup: str, doctype: str = "") -> str:
    src = (DATA / "dirs" / "ann1" / "doc2.xmi").read_text()
    start = src.index("<xmi:XMI")
    end = src.index(">", start) + 1
    return src[:start] + doctype + src[start:end] + markup + src[end:]


@pytest.mark.parametrize("markup, doctype", [
    ("<!-- exported by hand -->", ""),
    ("<?inception version='33'?>", ""),
    ("&note;", '<!DOCTYPE xmi:XMI [<!ENTITY note "">]>'),
])
def test_comments_instructions_and_entities_in_the_root(tmp_path, markup, doctype):
    (tmp_path / "ann1").mkdir()
    (tmp_path / "ann1" / "doc2.xmi").write_text(with_markup_in_root(markup, doctype))
    [ann] = xmi.read([tmp_path / "ann1"])
    assert chains(ann) == chains(xmi.read([DATA / "dirs" / "ann1"])[0])


def test_zip_member_inflating_beyond_the_bound_is_refused(tmp_path, monkeypatch):
    z = tmp_path / "doc.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as f:
        f.write(DATA / "zip" / "carol.xmi", "carol.xmi")
        f.writestr("bomb.xmi", b"<a/>" + b" " * 2_000_000)
    monkeypatch.setattr(_zips, "INFLATE_SLACK", 0)
    limit = _zips.INFLATE_RATIO * z.stat().st_size
    assert limit < 2_000_000
    with pytest.raises(InputError) as e:
        xmi.read([z])
    assert str(e.value) == (f"{z}: bomb.xmi inflates to more than {limit} bytes, "
                            f"{_zips.INFLATE_RATIO} times the zip file and more: refused as a zip "
                            "bomb")


def test_a_broken_zip_is_one_line(tmp_path):
    z = tmp_path / "doc.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.write(DATA / "zip" / "carol.xmi", "carol.xmi")
    data = bytearray(z.read_bytes())
    data[40:60] = b"\0" * 20  # inside the member's stored bytes
    z.write_bytes(bytes(data))
    with pytest.raises(InputError, match=rf"^{re.escape(str(z))}: cannot inflate carol.xmi: "):
        xmi.read([z])


@pytest.mark.parametrize("data, message", [
    (b"<a>\n<b>\xe9</b></a>", ":2: not UTF-8 (byte 0xe9 at column 4); save the file as UTF-8 or "
                              "declare its encoding in <?xml ... encoding=...?>"),
    (b"<a>\x00</a>", ":1: malformed XML: Invalid character: Char 0x0 out of allowed range, line 1, "
                     "column 4"),
])
def test_xml_errors_are_one_line(tmp_path, data, message):
    """libxml2 ends some messages with a newline and splits others in two."""
    p = tmp_path / "doc.xmi"
    p.write_bytes(data)
    with pytest.raises(InputError) as e:
        xmi.read([p])
    assert str(e.value) == f"{p}{message}"


def test_inception_export_layout():
    """An export written by INCEpTION 3.6.1 (tests/data/inception_export, Apache-2.0): its
    ``annotation/<document>/<user>.<ext>`` member is user ``admin``'s document
    ``example_sentence.txt``; the curation user's TSV is no annotator's."""
    export = TEST_DATA / "inception_export" / "Export+Test+-+Curated+annotation+project_3_6_1.zip"
    found = [(m.annotator, m.document, m.root) for m in _zips.members(export, ".txt")]
    assert found == [("admin", "example_sentence.txt", False)]
    assert list(_zips.members(export, ".tsv")) == []  # curation/…/CURATION_USER.tsv
    assert not xmi.sniff(export)


def _export(tmp_path, layout):
    """The sample corpus's XMI (annotation/<document>/<user>.xmi) zipped in one of the
    layouts INCEpTION's exports use."""
    from support import SAMPLES
    src = SAMPLES / "coref" / "xmi" / "annotation"
    out = tmp_path / "in" / "export.zip"
    out.parent.mkdir()
    with zipfile.ZipFile(out, "w") as z:
        for doc in sorted(src.iterdir()):
            z.write(doc / "TypeSystem.xml", f"annotation/{doc.name}/TypeSystem.xml")
            for f in sorted(doc.glob("*.xmi")):
                user = f.stem
                if layout == "annotation":
                    z.write(f, f"annotation/{doc.name}/{user}.xmi")
                elif layout == "user":
                    z.write(f, f"{user}/{doc.name}.xmi")
                else:  # per-user zips nested in the export
                    import io
                    buf = io.BytesIO()
                    with zipfile.ZipFile(buf, "w") as inner:
                        inner.write(f, f"{doc.name}.xmi")
                        inner.write(doc / "TypeSystem.xml", "TypeSystem.xml")
                    z.writestr(f"annotation/{doc.name}/{user}.zip", buf.getvalue())
    return out


@pytest.mark.parametrize("layout", ["annotation", "user", "nested"])
def test_inception_export_layouts_in_a_zip(tmp_path, layout, cli_json):
    """Issue 37, 2: zipped as INCEpTION exports it, the two-annotator sample reads as it
    does unzipped (it was 'none of the mentions is marked by two or more annotators', 'annotator
    '' has document twice', or 'no WebAnno TSV 3 file in this zip')."""
    from support import SAMPLES
    plain = cli_json("coref", SAMPLES / "coref" / "xmi")
    zipped = cli_json("coref", _export(tmp_path, layout))
    assert zipped["format"] == "xmi"
    assert zipped["annotators"] == plain["annotators"]
    assert zipped["documents"] == plain["documents"]
    assert zipped["coefficients"] == plain["coefficients"]


@pytest.mark.parametrize("begin", ["99999999999999999999999999", "40"])
def test_a_token_outside_the_text_is_one_line(tmp_path, begin):
    """A token whose offset lies past the text (or beyond any int64: the fuzz run's case
    0-10924) names the token and its line, not an OverflowError when the tokens are cut."""
    src = (DATA / "export" / "annotation" / "doc1.txt" / "alice.xmi").read_text()
    first = re.search(r'<type\d*:Token xmi:id="(\d+)" sofa="\d+" begin="\d+"', src)
    damaged = src[:first.start()] + re.sub(r'begin="\d+"', f'begin="{begin}"', first.group(0)) \
        + src[first.end():]
    path = tmp_path / "alice.xmi"
    path.write_text(damaged)
    line = src[:first.start()].count("\n") + 1
    with pytest.raises(InputError) as e:
        xmi.read([path], annotators=["alice"])
    assert re.fullmatch(rf"{re.escape(str(path))}:{line}: Token xmi:id={first.group(1)}: "
                        rf"span {begin}-\d+ is not within the text", str(e.value))
