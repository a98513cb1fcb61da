"""Every format of sample_corpora/coref/ (MMAX2, brat, CoNLL-2012, CorefUD, XMI) gives the same
figures, to 1e-12, through the API and through ``corpusagree coref --json``.

Which equalities hold, and why:

* **exact span** (the default) and **maximal overlap**: all five formats are equal. CoNLL-2012
  and INCEpTION XMI cannot hold discontinuous mentions and store *north … gates* and
  *town … councils* as their covering spans, but the sample is designed so that no other mention
  has those spans (sample README): the covering span stands one-to-one for the discontinuous
  mention, so items, chains and every figure are the same.
* **head token**: only CorefUD stores heads. The other four formats have none, so every mention
  is matched by exact span (counted as ``no_head``) and their figures equal their exact-span
  figures; CorefUD's differ, because mentions sharing a head become one item (ann3's *a photo*
  and the others' *a photo of her*; a split coordination and its conjuncts).

Document ids differ by format (CoNLL ``harbour_000``, XMI ``harbour.txt``, else ``harbour``);
the test strips those suffixes. Items are in the same order in every format (documents sorted by
id, mentions in text order), so bootstrap intervals with one seed are equal too.
"""

import json
import math
import re
from pathlib import Path

import pytest

from corpusagree.cli import main
from corpusagree.convert import coref as cc
from corpusagree.jobs import coref as job
from corpusagree.stats import coefficients as co

SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpora" / "coref"
PATHS = {
    "mmax2": [SAMPLE / "mmax2"],
    "brat": [SAMPLE / "brat"],
    "conll": sorted((SAMPLE / "conll2012").glob("*_conll")),
    "corefud": sorted((SAMPLE / "corefud").glob("*.conllu")),
    "xmi": [SAMPLE / "xmi"],
}
FORMATS = list(PATHS)
TOL = 1e-12


def doc_id(name: str) -> str:
    return re.sub(r"(_\d{3})?(\.txt)?$", "", name)


def numbers(p: dict) -> dict:
    """Every figure of a ``--json`` payload keyed by what it is, document ids normalised."""
    out = {}
    for key in ("coefficients", "antecedent"):
        for r in p[key]:
            k = (key, r["symbol"], r["distance"])
            out[k] = [r[f] for f in ("value", "observed", "expected", "items", "coders",
                                     "pairable_values")]
            if "interval" in r:
                out[k] += [r["interval"][f] for f in ("low", "high", "estimate", "units")]
    for r in p["scores"]["pairs"]:
        out[("scores", r["a"], r["b"])] = [r["documents"], *(r[s] for s in job.SCORES)]
    out["mean scores"] = [p["scores"]["mean"][s] for s in job.SCORES]
    for a, c in p["alignment"]["per_annotator"].items():
        out[("alignment", a)] = [v for k, v in c.items() if k != "no_head"]
    out["alignment"] = [p["alignment"][k] for k in ("documents", "items", "complete", "single")]
    for r in p.get("by_document", []):
        out[("document", doc_id(r["document"]))] = [
            r["annotators"], r["items"], *r["alpha"].values(), *r["beta"].values(),
            r["alpha_antecedent"], *(r[s] for s in job.SCORES)]
    return out


def undefined(x) -> bool:
    """nan in the API, null in JSON."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def assert_same(a: dict, b: dict, what: str) -> None:
    assert a.keys() == b.keys(), what
    for k in a:
        for x, y in zip(a[k], b[k], strict=True):
            same = undefined(y) if undefined(x) else (not undefined(y) and abs(x - y) <= TOL)
            assert same, (what, k, a[k], b[k])


@pytest.fixture(scope="module")
def anns():
    return {f: job.read(PATHS[f], f)[1] for f in FORMATS}


def api(anns, **kw) -> dict:
    return numbers(job.payload(job.analyse(anns, by_document=True, **kw)))


@pytest.mark.parametrize("match", ["exact", "overlap"])
def test_api_identical_across_formats(anns, match):
    ref = api(anns["corefud"], match=match)
    for f in FORMATS:
        assert_same(api(anns[f], match=match), ref, f"{f} vs corefud, {match}")


def test_api_equals_direct_coefficients(anns):
    """The figures above are the coefficients themselves (not only equal to each other)."""
    for f in FORMATS:
        data, _ = cc.coref_data(anns[f])
        assert co.alpha(data, "passonneau").value == pytest.approx(0.92145382236, abs=1e-11)
        assert co.beta(data, "dice").value == pytest.approx(
            api(anns["corefud"])[("coefficients", "β", "dice")][0], abs=TOL)


def test_head_match(anns):
    for f in FORMATS:
        head = job.analyse(anns[f], match="head")
        no_head = head["alignment"].report.total("no_head")
        if f == "corefud":
            # heads collide: 'a photo' = 'a photo of her' (recipe), and each split coordination
            # shares its head with its conjuncts ('The north and south gates of the old town',
            # 'north … gates', 'south gates'), as does 'Ines and her brother' with 'Ines'
            assert no_head == 0
            al = head["alignment"]
            assert al.n_items == 56 - 6
            assert sum(n.startswith("recipe") for n in al.items) == 11
            assert [al.report.per_annotator[a]["merged"] for a in al.annotators] == [5, 4, 5]
            assert api(anns[f], match="head") != api(anns[f])
        else:
            assert no_head == sum(len(a.mentions) for a in anns[f])
            assert_same(api(anns[f], match="head"), api(anns[f]), f"{f} head vs exact")


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_json_identical_and_sniffed(fmt, capsys):
    args = ["coref", *map(str, PATHS[fmt]), "--json", "--by-document", "--ci",
            "--resamples", "100", "--seed", "3"]
    assert main(args) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["format"] == fmt                              # --format auto found it
    assert [doc_id(d) for d in got["documents"]] == ["council", "gates", "harbour", "letters",
                                                     "recipe"]
    assert main(["coref", *map(str, PATHS["corefud"]), "--json", "--by-document", "--ci",
                 "--resamples", "100", "--seed", "3"]) == 0
    ref = json.loads(capsys.readouterr().out)
    assert_same(numbers(got), numbers(ref), f"CLI {fmt} vs corefud")
