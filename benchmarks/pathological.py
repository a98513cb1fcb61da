"""Pathological and large inputs, timed: the figures the tests once asserted as wall-clock
limits (the tests now hold only what these inputs give).

Two kinds of case:

* a refusal or a large input, with its time in seconds: a segeval mass of 10¹² units, sparse
  MMAX2 word ids, 100,000 attributes on one MMAX2 markable, an ezCoref sentence index of 10⁹
  (each refused before allocating), the coreference scores of 20,000 mentions, the diagnostics
  of 200,000 items × 5 coders, a terminal table with a 5 MB cell;
* growth: the time on 10× the input over the time on the input (best of 3 each, the cyclic
  garbage collector off), about 10 for linear growth and 100 for quadratic: segeval JSON with
  many documents, a CSV cell over csv's field limit, a long plain-text segment, MMAX2 range
  checks, CorefUD ``Entity`` values (malformed and valid).

The figures of the other benchmarks are not repeated here: mvα's expected disagreement
(``mvalpha_scale.py``), unitizing α's variants (``unitizing_scale.py``), the ezCoref release
(``ezcoref.py``) and RSTmulti (``trees_rstmulti.py``).

Usage: python benchmarks/pathological.py [--only NAME[,NAME]] [--json]
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import random
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

import corpusagree as ca
from corpusagree.model.errors import InputError
from corpusagree.readers import corefud, ezcoref, mmax2, plaintext, positions, segeval

ROOT = Path(__file__).resolve().parents[1]


def best(run: Callable[[], object], repeat: int = 3) -> float:
    """The least time of ``repeat`` runs, the cyclic garbage collector off."""
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            run()
            times.append(time.perf_counter() - t0)
        finally:
            gc.enable()
    return min(times)


def refused(run: Callable[[], object]) -> Callable[[], None]:
    """``run`` expected to raise InputError (the case times the refusal)."""
    def go() -> None:
        try:
            run()
        except InputError:
            return
        raise AssertionError("not refused")

    return go


# ---- inputs ------------------------------------------------------------------------------------
def segeval_mass(tmp: Path, total: int) -> Path:
    path = tmp / f"m{total}.json"
    path.write_text(json.dumps({"segmentation_type": "linear", "items": {
        "d": {"a": [total], "b": [total // 2, total - total // 2]}}}))
    return path


def segeval_documents(tmp: Path, n: int) -> Path:
    items = {f"d{i}": {"a": [300, 300], "b": [600]} for i in range(n)}
    path = tmp / f"n{n}.json"
    path.write_text(json.dumps({"segmentation_type": "linear", "items": items}))
    return path


def long_cell(tmp: Path, n: int) -> Path:
    path = tmp / f"cell{n}.csv"
    path.write_text(f'unit,a,b\n"{"x" * n}",1,1\n2,1,2\n')
    return path


def long_segment(tmp: Path, n: int) -> Path:
    (tmp / f"seg{n}").mkdir()
    path = tmp / f"seg{n}" / "doc.txt"
    path.write_text("a " * (n // 2) + "\n\nEnd.\n")
    return path


def mmax2_project(folder: Path, ids: list[str], spans: list[str], extra: str = "") -> Path:
    (folder / "Markables").mkdir(parents=True)
    (folder / "common_paths.xml").write_text(
        "<common_paths><markable_path>Markables</markable_path><annotations>"
        '<level name="coref">$_coref_level.xml</level></annotations></common_paths>')
    (folder / "d.mmax").write_text("<mmax_project><words>d_words.xml</words></mmax_project>")
    (folder / "d_words.xml").write_text(
        "<words>" + "".join(f'<word id="{w}">w</word>' for w in ids) + "</words>")
    (folder / "Markables" / "d_coref_level.xml").write_text(
        "<markables>" + "".join(f'<markable id="markable_{i}" span="{s}" {extra}/>'
                                for i, s in enumerate(spans)) + "</markables>")
    return folder


def mmax2_ranges(tmp: Path, n: int) -> Path:
    ids = [f"word_{k * 10**9}" for k in range(1, n + 1)]
    ids[0], ids[1] = ids[1], ids[0]
    return mmax2_project(tmp / f"ranges{n}", ids,
                         [f"word_{10**9 * (k % 7 + 3)}..word_{10**9 * (n - k % 5)}"
                          for k in range(n)])


def conllu(tmp: Path, name: str, misc: str) -> Path:
    path = tmp / f"{name}.conllu"
    path.write_text(f"# newdoc id = d\n1\tw1\t_\t_\t_\t_\t_\t_\t_\t{misc}\n\n")
    return path


def quiet(run: Callable[[], object]) -> Callable[[], object]:
    def go():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return run()

    return go


def partition(labels: list[int]) -> list[list[int]]:
    chains: dict[int, list[int]] = {}
    for i, c in enumerate(labels):
        chains.setdefault(c, []).append(i)
    return list(chains.values())


# ---- the cases ---------------------------------------------------------------------------------
def single_cases(tmp: Path) -> dict[str, Callable[[], object]]:
    """One timed run each (name → what to run)."""
    from corpusagree.report.tables import Column, Table
    from corpusagree.report.terminal import Terminal
    from corpusagree.stats import corefscores as cs
    from corpusagree.stats import diagnostics as dg

    sparse = mmax2_project(tmp / "sparse", ["word_17", "word_20", "word_11000000000"],
                           ["word_17..word_11000000000", "word_20"])
    crowded = mmax2_project(tmp / "crowded", ["word_1"], ["word_1"],
                            " ".join(f'a{i}="x"' for i in range(100_000)))
    big_index = tmp / "big.json"
    big_index.write_text('[{"annotator_id": 1, "annotations": {"1000000000": {"0,0,1": [1]}}}]')
    rng = random.Random(0)
    n = 20_000
    gold = np.arange(n) // 4
    noisy = gold.copy()
    flip = rng.sample(range(n), n // 10)
    noisy[flip] = rng.choices(range(n // 4), k=len(flip))
    key, response = partition(gold.tolist()), partition(noisy.tolist())
    m = np.random.default_rng(0).integers(0, 6, (5, 200_000)).astype(float)
    m[np.random.default_rng(1).random(m.shape) < .05] = np.nan
    data = ca.ReliabilityData.from_matrix(m)

    def diagnostics():
        dg.pairwise(data)
        dg.leave_one_out(data, "beta", "interval")
        dg.per_category(data)
        dg.worst_items(data)

    table = Table("t", "title", [Column("lemma", "lemma"), Column("v", "v", "float")],
                  [["a " * 2_500_000, 0.5], ["b", 0.25]])
    return {
        "segeval mass of 10^12 units refused": refused(
            lambda: segeval.read(segeval_mass(tmp, 10**12))),
        "MMAX2 sparse word ids in a range": lambda: mmax2.read([sparse]),
        "MMAX2 100,000 attributes refused": refused(lambda: mmax2.read([crowded])),
        "ezCoref sentence index 10^9 refused": refused(lambda: ezcoref.read(big_index)),
        "coreference counts, 20,000 mentions": lambda: cs.counts(key, response),
        "diagnostics, 200,000 items x 5 coders": diagnostics,
        "terminal table, a 5 MB cell": lambda: Terminal(io.StringIO(), width=80).table(table),
    }


def growth_cases(tmp: Path) -> dict[str, tuple[int, Callable[[int], object],
                                                Callable[[object], object]]]:
    """name → (the small size, size → the input, input → what is timed)."""
    return {
        "segeval JSON, documents": (400, lambda n: segeval_documents(tmp, n), segeval.read),
        "CSV cell over csv's limit, characters": (150_000, lambda n: long_cell(tmp, n),
                                                  positions.read),
        "plain-text segment, characters": (60_000, lambda n: long_segment(tmp, n),
                                           plaintext.read),
        "MMAX2 range checks, markables": (150, lambda n: mmax2_ranges(tmp, n),
                                          lambda p: quiet(lambda: mmax2.read([p]))()),
        "CorefUD malformed Entity value, characters": (
            40_000, lambda n: conllu(tmp, f"bad{n}", "Entity=" + "e" * n),
            lambda p: refused(lambda: corefud.read(p))()),
        "CorefUD valid Entity value, mentions": (
            400, lambda n: conllu(tmp, f"good{n}", "Entity=" + "".join(
                f"(e{k}-x-1)" for k in range(n))), corefud.read),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated words: the cases whose names hold one")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    words = [w.strip().lower() for w in (args.only or "").split(",") if w.strip()]

    def chosen(name: str) -> bool:
        return not words or any(w in name.lower() for w in words)

    out: dict = {"seconds": {}, "growth": {}}
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        plaintext.read(long_segment(tmp, 10))  # the tokeniser loaded once, outside the times
        for name, run in single_cases(tmp).items():
            if chosen(name):
                out["seconds"][name] = best(run, repeat=1)
        for name, (small, prepare, read) in growth_cases(tmp).items():
            if chosen(name):
                inputs = prepare(small), prepare(10 * small)
                t_small, t_large = (best(lambda x=x, read=read: read(x)) for x in inputs)
                out["growth"][name] = {"size": small, "seconds": t_small,
                                       "seconds_10x": t_large, "ratio": t_large / t_small}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for name, s in out["seconds"].items():
        print(f"{name:<48} {s:8.3f} s")
    if out["growth"]:
        print(f"\n{'growth (10x the input)':<42} {'size':>9} {'s':>8} {'s 10x':>8} {'ratio':>6}")
    for name, g in out["growth"].items():
        print(f"{name:<42} {g['size']:>9,} {g['seconds']:8.3f} {g['seconds_10x']:8.3f} "
              f"{g['ratio']:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
