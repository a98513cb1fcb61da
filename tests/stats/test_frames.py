"""The dask engine: coefficients from per-partition sums equal the data in memory (≤ 1e-12) on
random data with missing values, set labels, several documents and items split over
partitions before the shuffle; the bootstrap clustered by document from per-document sums."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import corpusagree as ca
from corpusagree.stats import frames
from corpusagree.stats import partitioned as pt
from corpusagree.stats.coefficients import compute, table

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def judgements(seed: int, *, sets: bool, numeric: bool = False, n: int = 150) -> pd.DataFrame:
    """Random long judgements: 4 coders, some judgements absent, some labels missing (None),
    items in 6 documents; rows shuffled so an item's rows are far apart."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        for c in ("ann", "bob", "cy", "dee"):
            if rng.random() < 0.2:
                continue
            if rng.random() < 0.1:
                label = None
            elif sets:
                label = "|".join(f"e{v}" for v in rng.choice(6, rng.integers(0, 3),
                                                               replace=False)) or "|"
            elif numeric:
                label = float(rng.choice([1, 2, 3, 5]))
            else:
                label = str(rng.choice(["x", "y", "z"]))
            rows.append((c, f"u{i}", label, f"d{i % 6}"))
    df = pd.DataFrame(rows, columns=["coder", "item", "label", "doc"])
    return df.iloc[rng.permutation(len(df))].reset_index(drop=True)


def in_memory(df: pd.DataFrame, **kw) -> ca.ReliabilityData:
    return ca.ReliabilityData.from_dataframe(df, document="doc", **kw)


def assert_equal_to_memory(found, data, distance):
    ref = {(r.id, r.distance): r for r in table(data, distance)}
    assert [(r.id, r.distance) for r, _ in found] == list(ref)  # the table's rows, in order
    for r, _ in found:
        want = ref[(r.id, r.distance)]
        assert r.value == pytest.approx(want.value, abs=1e-12, nan_ok=True), r.id
        assert r.observed == pytest.approx(want.observed, rel=1e-12, abs=1e-12, nan_ok=True)
        assert r.expected == pytest.approx(want.expected, rel=1e-12, abs=1e-12, nan_ok=True)
        assert (r.items, r.coders, r.pairable_values) == \
            (want.items, want.coders, want.pairable_values)


@pytest.mark.parametrize("seed", [0, 1])
def test_set_labels_as_in_memory(client, seed):
    df = judgements(seed, sets=True)
    data = in_memory(df, set_sep="|")
    ddf = dd.from_pandas(df, npartitions=5)  # an item's rows in several partitions
    assert ddf.map_partitions(lambda p: p["item"].drop_duplicates()).compute().duplicated().any()
    found = ca.from_dask(ddf, document="doc", set_sep="|").results("jaccard")
    assert {r.id for r, _ in found} >= {"alpha", "beta", "gwet_ac2", "mv_alpha"}
    assert_equal_to_memory(found, data, "jaccard")


@pytest.mark.parametrize("distance", ["nominal", "interval", "ordinal"])
def test_plain_and_numeric_labels_as_in_memory(client, distance):
    df = judgements(3, sets=False, numeric=distance != "nominal")
    data = in_memory(df)
    found = ca.from_dask(dd.from_pandas(df, npartitions=4), item="item").results(distance)
    assert_equal_to_memory(found, data, distance)


def test_bootstrap_clustered_by_document_from_document_sums(client):
    df = judgements(5, sets=True)
    data = in_memory(df, set_sep="|")
    prepared = ca.from_dask(dd.from_pandas(df, npartitions=3), document="doc", set_sep="|")
    found = prepared.results("jaccard", bootstrap=ca.Bootstrap(n_resamples=50, seed=4))
    assert all((iv is None) == (r.id == "light_kappa") for r, iv in found)
    assert all(iv.low <= iv.high for _, iv in found if iv is not None)
    # each replicate is the data with each document counted as often as it was drawn
    template = prepared.template
    rows = pt.specs(4, ca.distances.get("jaccard"), True, False)
    distances = [ca.distances.get(d) for d in ("nominal", "jaccard", "dice")]
    total, docs, names = prepared._reduce(distances, None, True)
    metrics = [d.bind(template, total.n_k) for d in distances]
    W = pt.draws(len(names), 3, seed=9)
    values = pt.reweighted_values(docs, W, template, distances, metrics, rows, None)
    alpha = next(k for k, (c, d) in enumerate(rows) if c.id == "alpha" and d.name == "jaccard")
    for w, v in zip(W, values[alpha], strict=True):
        idx = np.concatenate([np.repeat(np.flatnonzero(data.groups == data.group_names.index(n)),
                                        int(k)) for n, k in zip(names, w, strict=True)])
        resampled = data.subset(items=idx)
        assert v == pytest.approx(compute("alpha", resampled, "jaccard").value, abs=1e-12)


def test_bad_frames(client):
    df = pd.DataFrame({"coder": ["a", "a"], "item": [1, 1], "label": ["x", "y"]})
    with pytest.raises(ca.InputError, match="duplicate judgement by coder 'a' on item 1"):
        ca.from_dask(dd.from_pandas(df, npartitions=1)).results()
    with pytest.raises(ca.InputError, match="no column"):
        ca.from_dask(dd.from_pandas(df, npartitions=1), label="tag")


def test_cli_engine_dask_on_parquet_files(client, tmp_path, cli):
    df = judgements(7, sets=True)
    df["label"] = df["label"].fillna("NA")  # a file's spelling of a missing label
    for k in range(3):  # items split over the files
        df.iloc[k::3].to_parquet(tmp_path / f"log{k}.parquet")
    df.to_csv(tmp_path / "all.csv", index=False)
    code, out, _ = cli("table", str(tmp_path / "log*.parquet"), "--engine", "dask",
                           "--scheduler", client.scheduler.address, "--set-sep", "|",
                           "--distance", "jaccard", "--json")
    assert code == 0
    got = {(r["id"], r["distance"]): r["value"] for r in json.loads(out)["coefficients"]}
    code, out, _ = cli("table", str(tmp_path / "all.csv"), "--set-sep", "|", "--distance",
                           "jaccard", "--json")
    want = {(r["id"], r["distance"]): r["value"] for r in json.loads(out)["coefficients"]}
    assert got.keys() == want.keys()
    for k, v in got.items():
        assert v == pytest.approx(want[k], abs=1e-12), k
    assert frames.read(str(tmp_path / "log*.parquet"), set_sep="|").coders == \
        ["ann", "bob", "cy", "dee"]


def test_jackknife_interval_as_in_memory(client):
    df = judgements(11, sets=False)
    data = in_memory(df)
    settings = ca.Bootstrap(interval="jackknife")
    found = ca.from_dask(dd.from_pandas(df, npartitions=3), document="doc").results(
        bootstrap=settings)
    got = {r.id: iv for r, iv in found if iv is not None}
    want = ca.alpha(data).confidence_interval(interval="jackknife", cluster=True)
    assert got["alpha"].low == pytest.approx(want.low, abs=1e-12)
    assert got["alpha"].high == pytest.approx(want.high, abs=1e-12)
