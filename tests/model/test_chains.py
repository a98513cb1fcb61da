"""corpusagree.chains: chains from links and groups, chain checks, the token check."""

from __future__ import annotations

import pytest

from corpusagree.model.chains import chains_from_links, check_chains, check_same_tokens
from corpusagree.model.corpus import Chain, CorefAnnotation, Document, Link, Mention
from corpusagree.model.errors import InputError


def test_components_singletons_and_order():
    chains = chains_from_links(["a", "b", "c", "d", "e"],
                               [Link("c", "a"), Link("e", "c")])
    assert [(c.id, c.members) for c in chains] == [
        ("chain_1", ["a", "c", "e"]), ("chain_2", ["b"]), ("chain_3", ["d"])]


def test_groups_and_link_types():
    links = [Link("b", "a", "coref"), Link("c", "b", "bridging")]
    chains = chains_from_links(["a", "b", "c", "d"], links, groups=[["d", "c"]],
                               types={"coref"})
    assert [c.members for c in chains] == [["a", "b"], ["c", "d"]]


def test_unknown_mention_raises():
    with pytest.raises(ValueError, match="unknown mention id 'z'"):
        chains_from_links(["a"], [Link("a", "z")])


def annotation(chains, annotator="x", tokens=("A", "b"), source="f"):
    mentions = {m: Mention(m, ((0, 1),)) for m in ("m1", "m2", "m3")}
    return CorefAnnotation(Document("d", list(tokens)), annotator, mentions, chains,
                           source=source)


def test_check_chains_reports_shared_unknown_unchained():
    report = check_chains(annotation([Chain("c1", ["m1", "m2"]), Chain("c2", ["m2", "m9"])]))
    assert report.shared == {"m2": ["c1", "c2"]}
    assert report.unknown == [("c2", "m9")]
    assert report.unchained == ["m3"]
    assert not report.clean
    assert check_chains(annotation([Chain("c", ["m1", "m2", "m3"])])).clean


def test_check_same_tokens():
    check_same_tokens([annotation([]), annotation([], "y")])
    with pytest.raises(InputError) as e:
        check_same_tokens([annotation([], source="one"),
                           annotation([], "y", ("A", "c"), source="two")])
    assert str(e.value) == ("two: document 'd': annotator 'y' has other tokens than 'x' in one "
                            "(token 1: 'b' vs 'c')")
    with pytest.raises(InputError, match=r"\(2 vs 3 tokens\)"):
        check_same_tokens([annotation([]), annotation([], "y", ("A", "b", "c"))])


def test_messages_quote_at_most_80_characters_of_the_input(tmp_path):
    """A 1 MB cell is quoted cut, not echoed whole (model.errors.quote, used by every
    message); the list of problems of a read holds the first 50."""
    from corpusagree.model import errors, io

    assert len(errors.quote("x" * 1_000_000)) == 83
    p = tmp_path / "t.csv"
    p.write_text("coder,item,label\n" + "".join(f"a,i{k},{'z' * 1_000_000}\n" for k in range(3)))
    with pytest.raises(errors.InputError) as e:
        io.read_long(p, numeric=True)
    assert len(str(e.value)) < 200
    problems = errors.Problems()
    for k in range(1, 61):
        problems.add(errors.InputError("bad", "f", k))
    problems.add(errors.InputError("bad", "f", 1))  # said already: not again
    assert len(problems) == 60 and len(problems.error().errors) == 50
    assert str(problems.error()).endswith("f:50: bad\nand 10 more problems")
