"""The table job in Python: reliability data read or made in Python, α as the coefficient
functions give it (per group too), its keywords checked first, and files of another job
named with the job that reads them."""

from __future__ import annotations

import numpy as np
import pytest

import corpusagree as ca
from corpusagree.analyses import table
from corpusagree.model.errors import InputError

from support import SAMPLES

CSV = SAMPLES / "table" / "dialogue_acts.csv"


@pytest.fixture(scope="module")
def corpus():
    return table.read(CSV, group="document")


def test_alpha_is_the_coefficients_alpha(corpus):
    report = table.analyse(corpus, by_document=True)
    alpha = next(e for e in report.coefficients if e.id == "alpha")
    assert alpha.value == pytest.approx(float(ca.alpha(corpus.data)))
    assert round(alpha.value, 4) == 0.4193
    data = corpus.data
    for g, row in enumerate(report.by_group):
        part = data.subset(items=data.groups == g, compact=True)
        try:
            expected = float(ca.alpha(part))
        except ValueError:
            expected = float("nan")
        assert row["alpha"] == pytest.approx(expected, nan_ok=True), row["group"]


def test_data_made_in_python_are_a_corpus_of_judgements():
    data = ca.ReliabilityData.from_matrix(np.array([[1, 2, 3, np.nan], [1, 2, 2, 3]]))
    corpus = table.as_corpus(data)
    assert corpus.kind == "judgements" and corpus.format == "python"
    assert table.analyse(data).items == 4


def test_keywords_are_checked_first(corpus):
    with pytest.raises(ValueError, match=r"table.analyse\(\): diagnostics must be an integer "
                       r"≥ 1 or None, not -2"):
        table.analyse(corpus, diagnostics=-2)
    with pytest.raises(TypeError, match=r"by_document must be True or False, not 'yes'"):
        table.analyse(corpus, by_document="yes")


def test_another_jobs_files_name_the_job():
    with pytest.raises(InputError, match="these are brat files .*: the coref, markables, spans "
                       "or relations job reads them"):
        table.read(SAMPLES / "coref" / "brat")
    with pytest.raises(InputError, match="the table job reads one reliability-data file, not 2"):
        table.read([CSV, CSV])
