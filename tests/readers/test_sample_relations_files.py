"""The sample relations corpus (``sample_corpora/relations``): the designed disagreements of
its README are what the relations job finds, the rows are the trees sample's relations, and
make_sample.py still writes exactly the committed files."""

import importlib.util
import re

import pytest

from corpusagree.analyses import relations

from support import SAMPLES

SAMPLE = SAMPLES / "relations"


@pytest.fixture(scope="module")
def report():
    corpus = relations.read([SAMPLE / "ann1", SAMPLE / "ann2"])
    return relations.analyse(corpus, by_document=True)


def test_the_designed_disagreements(report):
    d = report.to_dict()
    assert d["format"] == "disrpt" and d["data"]["documents"] == 3
    (pair,) = d["detection"]
    # ann1 and ann2 share 3 of their 6 relations in bridge and market (harbour is ann1's
    # alone): P = R = 3/6
    assert (pair["precision"], pair["recall"], pair["f1"], pair["shared"],
            pair["documents"]) == (0.5, 0.5, 0.5, 3, 2)
    by_doc = {r["document"]: r["f1"] for r in d["by_document"]}
    assert by_doc == {"bridge": 0.0, "market": 1.0}
    labels = {c["id"]: c for c in d["labels"]}
    # market's three shared relations: joint/joint, joint/joint, concession/elaboration.
    # α: 6 pairable values (joint 4, concession 1, elaboration 1): Do = 2/6,
    # De = (36 − 16 − 1 − 1) / 30 = .6, α = 1 − (1/3)/.6 = 4/9. κ: P̂(k|c) over each
    # annotator's 6 relations of the shared documents (cause 1, joint 3, elaboration 1,
    # concession 1 / cause 1, joint 3, elaboration 2): A_e = 12/36, κ = 1 − (1/3)/(2/3) = .5
    assert labels["alpha"]["value"] == pytest.approx(4 / 9)
    assert labels["kappa"]["value"] == pytest.approx(0.5)
    assert d["confused"] == [{"label_a": "concession", "label_b": "elaboration", "count": 1}]


def _rs3_relations(path):
    """(node id, relation name) of each node of an rs3 file with a parent."""
    return sorted(re.findall(r'id="(\d+)" (?:type="\w+" )?parent="\d+" relname="(\w+)"',
                             path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("annotator", ["ann1", "ann2"])
def test_the_rows_are_the_trees_samples_relations(annotator):
    """Each rs3 relation of the trees sample (but ``span``) is one row, its name the row's
    ``orig_label``; a multinuclear relation of n nuclei gives n − 1 rows."""
    spec = importlib.util.spec_from_file_location("make_sample", SAMPLE / "make_sample.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for doc in mod.EDUS:
        tree = SAMPLES / "trees" / "rs3" / annotator / f"{doc}.rs3"
        names = [n for _, n in _rs3_relations(tree) if n != "span"]
        multinuc = {n for n in names if names.count(n) > 1 or n in ("list", "sequence")}
        expected = sorted([n for n in names if n not in multinuc] +
                          [n for n in multinuc for _ in range(names.count(n) - 1)])
        rows = mod.RELATIONS[annotator].get(doc, [])
        assert sorted(r[3] for r in rows) == expected, (annotator, doc)
        # the same text, tokenised (ann2's harbour is one EDU of ann1's two)
        text = " ".join(re.findall(r"<segment [^>]*>([^<]*)</segment>",
                                   tree.read_text(encoding="utf-8")))
        assert " ".join(mod.EDUS[doc]).replace(" .", ".").replace(" ,", ",") == text


def test_make_sample_writes_the_committed_files(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("make_sample", SAMPLE / "make_sample.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setattr(mod, "HERE", tmp_path)
    mod.main()
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(SAMPLE) for a in ("ann1", "ann2")
                       for p in (SAMPLE / a).rglob("*") if p.is_file())
    assert written == committed
    for rel in written:
        assert (tmp_path / rel).read_bytes() == (SAMPLE / rel).read_bytes(), rel
