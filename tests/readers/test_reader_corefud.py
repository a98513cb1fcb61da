"""CorefUD reader: Entity= brackets, discontinuous parts, multiword tokens, empty nodes, GUM's
global.Entity, encodings, errors, and time linear in the input."""

import warnings

import pytest

from corpusagree.model.errors import InputError
from corpusagree.readers import corefud

from support import DATA as TEST_DATA

DEMO = TEST_DATA / "coref_b" / "corefud_demo.conllu"
GUM = TEST_DATA / "coref_variants" / "corefud_gum" / "GUM_fiction_boat.conllu"


def spans(ann):
    return {c.id: sorted(ann.mentions[m].fragments for m in c.members) for c in ann.chains}


def read_quiet(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return corefud.read(*args, **kw)


def test_documents_mentions_and_discontinuous_parts():
    walls, shop = read_quiet(DEMO)
    assert (walls.annotator, walls.document.id, shop.document.id) == \
        ("corefud_demo", "walls", "shop")
    assert walls.document.sentence_starts == [0, 8]
    assert spans(walls) == {
        "e1": [((0, 5),), ((10, 11),)],          # The east and west walls ... them
        "e2": [((1, 2), (4, 5))],                # east ... walls, parts [1/2] and [2/2]
        "e3": [((3, 5),)],
        "e4": [((8, 9),)],
        "e5": [((13, 14),)],                     # e6 lies on empty node 6.1 only: dropped
    }
    m = next(m for m in walls.mentions.values() if len(m.fragments) == 2)
    assert m.head == 4 and m.attrs == {"entity": "e2", "etype": "place", "order": (1, 0, 1)}
    assert walls.mentions["m1"].head == 4        # head 5 of "The east and west walls"


def test_multiword_token_lines_are_skipped():
    shop = read_quiet(DEMO)[1]
    assert shop.document.tokens == ["Ana", "closed", "the", "shop", "at", "noon", ".",
                                    "She", "ca", "n't", "stay", "."]
    assert spans(shop)["e1"] == [((0, 1),), ((7, 8),)]


def test_mention_on_empty_node_only_warns():
    with pytest.warns(UserWarning, match="1 mention"):
        corefud.read(DEMO)


LINE = "{i}\tw{i}\t_\t_\t_\t_\t_\t_\t_\t{m}\n"


def conllu(tmp_path, *misc, name="x.conllu", ids=None):
    ids = ids or [str(i + 1) for i in range(len(misc))]
    p = tmp_path / name
    rows = (LINE.format(i=i, m=m) for i, m in zip(ids, misc, strict=True))
    p.write_text("# newdoc id = d\n" + "".join(rows) + "\n")
    return p


def test_empty_nodes_bound_mentions_that_start_or_end_on_them(tmp_path):
    p = conllu(tmp_path, "_", "Entity=(e1-x-1", "_", "Entity=e1)", "_",
               ids=["1", "1.1", "2", "2.1", "3"])
    (ann,) = corefud.read(p)
    assert ann.document.tokens == ["w1", "w2", "w3"]
    assert spans(ann) == {"e1": [((1, 2),)]}


def test_global_entity_field_order(tmp_path):
    p = tmp_path / "o.conllu"
    p.write_text("# global.Entity = etype-eid\n# newdoc id = d\n"
                 "1\tw\t_\t_\t_\t_\t_\t_\t_\tEntity=(person-e7)\n\n")
    (ann,) = corefud.read(p)
    assert spans(ann) == {"e7": [((0, 1),)]} and ann.mentions["m1"].attrs["etype"] == "person"


@pytest.mark.parametrize("misc, line, msg", [
    (["Entity=(e1-x-1", "_"], 2, "never closed"),
    (["_", "Entity=e1)"], 3, "no open mention"),
    (["Entity=(e1-x-1)junk"], 2, "malformed Entity"),
    (["Entity=(e1[2/2]-x-1)"], 2, "out of order"),
    (["Entity=(e1[1/2]-x-1)", "_"], 2, "fewer than 2 parts"),
])
def test_bad_brackets_name_file_and_line(tmp_path, misc, line, msg):
    p = conllu(tmp_path, *misc)
    with pytest.raises(InputError, match=msg) as e:
        corefud.read(p)
    assert str(e.value).startswith(f"{p}:{line}: ")


def test_column_count_and_token_id(tmp_path):
    p = tmp_path / "c.conllu"
    p.write_text("1\tw\t_\t_\t_\t_\t_\t_\t_\t_\n2\tw\t_\t_\n")
    with pytest.raises(InputError, match="4 tab-separated columns") as e:
        corefud.read(p)
    assert str(e.value).startswith(f"{p}:2: ")
    p.write_text("x\tw\t_\t_\t_\t_\t_\t_\t_\t_\n")
    with pytest.raises(InputError, match="bad token id"):
        corefud.read(p)


def test_annotators_and_token_check(tmp_path):
    a = conllu(tmp_path, "Entity=(e1-x-1)", "_", name="a.conllu")
    b = conllu(tmp_path, "_", "Entity=(e5-x-1)", name="b.conllu")
    anns = corefud.read([a, b])
    assert [(x.annotator, x.document.id) for x in anns] == [("a", "d"), ("b", "d")]
    c = tmp_path / "c.conllu"
    c.write_text(a.read_text().replace("w1", "zz"))
    with pytest.raises(InputError, match="other tokens") as e:
        corefud.read([a, c])
    assert str(a) in str(e.value)


def test_sniff(tmp_path):
    assert corefud.sniff(DEMO) and corefud.sniff(DEMO.parent)
    plain = tmp_path / "plain.conllu"
    plain.write_text("1\tw\t_\t_\t_\t_\t_\t_\t_\t_\n")
    assert not corefud.sniff(plain)


def test_gum_global_entity_names_the_id_field_grp():
    """GUM declares ``GRP-etype-infstat-salience-centering-minspan-link-identity``: the id is
    the first field, whatever its name."""
    [ann] = corefud.read(GUM)
    assert (ann.annotator, ann.document.id) == ("GUM_fiction_boat", "GUM_fiction_boat")
    assert ann.document.sentence_starts == [0, 6, 10]
    assert spans(ann) == {"1": [((0, 1),), ((2, 3),), ((6, 7),)],
                          "2": [((2, 5),), ((8, 9),)], "3": [((10, 12),)]}
    assert ann.mentions["m3"].attrs == {
        "entity": "2", "etype": "object", "infstat": "new", "salience": "sssss",
        "centering": "cf2", "minspan": "3,1", "link": "coref", "order": (2, 1, 1)}
    assert ann.mentions["m1"].attrs["identity"] == "Mara" and ann.mentions["m1"].head is None


def test_latin1_is_refused_with_the_byte_and_its_place(tmp_path):
    p = tmp_path / "x.conllu"
    p.write_bytes(conllu(tmp_path, "Entity=(e1-x-1)", "_").read_text()
                  .replace("w2", "caf\u00e9").encode("latin-1"))
    with pytest.raises(InputError) as e:
        corefud.read(p)
    assert str(e.value) == f"{p}:3: not UTF-8 (byte 0xe9 at column 6); save the file as UTF-8"


def test_utf8_bom_is_accepted(tmp_path):
    p = conllu(tmp_path, "Entity=(e1-x-1)", "_")
    p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())
    [ann] = corefud.read(p)
    assert (ann.document.id, spans(ann)) == ("d", {"e1": [((0, 1),)]})




def test_entity_value_without_brackets_fails(tmp_path):
    """``Entity=`` followed by 40,000 characters and no bracket took 7 s (a quadratic regex
    scan); the error quotes only the value's start (its time grows linearly:
    benchmarks/pathological.py)."""
    for n in (40_000, 400_000):
        p = conllu(tmp_path, "Entity=" + "e" * n)
        with pytest.raises(InputError) as e:
            corefud.read(p)
        assert str(e.value) == f"{p}:2: malformed Entity value {'e' * 40!r}…"


def test_long_valid_entity_values(tmp_path):
    """Their time grows linearly: benchmarks/pathological.py."""
    for n in (400, 4000):
        p = conllu(tmp_path, "Entity=" + "".join(f"(e{k}-x-1)" for k in range(n)))
        [ann] = corefud.read(p)
        assert len(ann.mentions) == n
