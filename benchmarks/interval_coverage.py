"""Coverage of bootstrap intervals when items are clustered in documents.

Generating model: each document has its own difficulty (the chance that a coder copies the
true label, Beta-distributed) and its own label mix (Dirichlet); items inherit both, so items
of one document are correlated. Coders copy the truth with the document's probability, else
guess from their own slightly biased distribution. The population α (and β) is computed on a
huge draw. Each simulated study draws a few dozen documents; 95 % intervals are computed by
resampling documents (clustered, the default with groups: percentile and BCa), by the cluster
jackknife (leave one document out, a t interval; Hughes 2022) and by resampling items (ignoring
the documents). Prints the coverage of each method at each number of documents: the clustered
methods should cover 92–98 % of the time, the item bootstrap visibly less.

``--pool C``: the coders too are a sample, C per study from a pool whose coders differ in
skill (each copies the truth with the document's probability times a skill drawn from
Beta(5, 2)); the population α is that of the pool on a huge draw (many coders, many
documents). Compared: the cluster jackknife over documents (the coders taken as fixed), over
coders, and over both (``Bootstrap(over=...)``; Gwet 2008). The first should cover too
rarely once the coders' skills differ; the last should cover 92–98 %. ``--naive R`` adds
what corpusagree refuses to offer: a percentile bootstrap drawing the coders with
replacement (R replicates, a coder's copies kept as distinct coders), with its coverage and
the mean shift of its replicates from the estimate (a coder's copies agree perfectly).

``--compare``: the difference of α between two paired conditions (the same documents coded
under a better and a worse condition, e.g. guidelines v2 and v1), 95 % intervals of the
difference from ``corpusagree.stats.compare.compare``; its coverage of the population
difference should lie in 93–97 %.

Usage: python benchmarks/interval_coverage.py [--studies 200] [--docs 10 20 40] [--items 15]
       [--compare | --pool 6] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import corpusagree as ca
from corpusagree.stats import inference

K, CODERS = 4, 3


def draw(docs: int, items: int, rng: np.random.Generator, harder: float = 0.0
         ) -> ca.ReliabilityData:
    """One study: docs × items items, CODERS coders, K categories (``harder``: a share of
    the copies turned into guesses, for a worse condition)."""
    return _code(*_documents(docs, items, rng), rng, harder)


def _documents(docs: int, items: int, rng: np.random.Generator):
    p_copy = rng.beta(4, 2, size=docs)                       # document difficulty
    mix = rng.dirichlet(np.full(K, 1.5), size=docs)          # document label mix
    doc = np.repeat(np.arange(docs), items)
    u = rng.random((docs * items, 1))
    truth = (u > np.cumsum(mix, 1)[doc]).sum(1)
    return doc, truth, p_copy


def _code(doc, truth, p_copy, rng, harder: float = 0.0) -> ca.ReliabilityData:
    """The coders' labels of the documents' items."""
    bias = rng.dirichlet(np.full(K, 20.0), size=CODERS)      # each coder's guessing habit
    n = len(doc)
    guess = np.stack([rng.choice(K, size=n, p=bias[c]) for c in range(CODERS)])
    copy = rng.random((CODERS, n)) < p_copy[doc] * (1 - harder)
    labels = np.where(copy, truth, guess).astype(float)
    return ca.ReliabilityData.from_matrix(labels, groups=doc)


def paired(docs: int, items: int, rng: np.random.Generator, harder: float):
    """The same documents coded under two conditions (B: ``harder``)."""
    d = _documents(docs, items, rng)
    return _code(*d, rng), _code(*d, rng, harder)


#: the interval methods compared: (name, cluster, interval)
KINDS = (("clustered", True, "percentile"), ("clustered_bca", True, "bca"),
         ("jackknife", True, "jackknife"), ("items", False, "percentile"))
LABELS = {"clustered": "documents, percentile", "clustered_bca": "documents, BCa",
          "jackknife": "cluster jackknife", "items": "items, percentile"}


def coverage(args, docs: int, rng, population: float) -> dict:
    hits = {k: 0 for k, _, _ in KINDS}
    widths: dict = {k: [] for k, _, _ in KINDS}
    for s in range(args.studies):
        data = draw(docs, args.items, rng)
        for name, cluster, kind in KINDS:
            iv = inference.bootstrap(data, [(args.coefficient, "nominal")], inference.Bootstrap(
                args.resamples, interval=kind, cluster=cluster, seed=s))[0]
            hits[name] += iv.low <= population <= iv.high
            widths[name].append(iv.high - iv.low)
    return {"documents": docs, **{f"coverage_{k}": hits[k] / args.studies for k in hits},
            **{f"mean_width_{k}": float(np.mean(widths[k])) for k in widths}}


def compare_coverage(args, rng) -> dict:
    from corpusagree.stats.compare import compare
    harder = 0.25
    f = getattr(ca, args.coefficient)
    # the population difference: the same model, many large paired draws
    diffs = []
    for _ in range(10):
        a, b = paired(2000, args.items, rng, harder)
        diffs.append(float(f(a)) - float(f(b)))
    truth = float(np.mean(diffs))
    out = {"population_difference": truth, "documents": args.docs[-1]}
    for method in ("percentile", "jackknife"):
        hits, widths = 0, []
        for s in range(args.studies):
            a, b = paired(args.docs[-1], args.items, rng, harder)
            c = compare(a, b, args.coefficient, bootstrap=inference.Bootstrap(
                args.resamples, interval=method, seed=s))
            hits += c.interval.low <= truth <= c.interval.high
            widths.append(c.interval.high - c.interval.low)
        out[f"coverage_{method}"] = hits / args.studies
        out[f"mean_width_{method}"] = float(np.mean(widths))
    return out


#: the intervals of ``--pool``: (name, Bootstrap.over)
POOL_KINDS = (("units", "units"), ("coders", "coders"), ("both", "both"))
POOL_LABELS = {"units": "jackknife, documents", "coders": "jackknife, coders",
               "both": "jackknife, both", "naive": "bootstrap of coders"}


def pool_study(docs: int, items: int, coders: int, rng: np.random.Generator
               ) -> ca.ReliabilityData:
    """One study whose ``coders`` are drawn from a pool of coders of unequal skill."""
    doc, truth, p_copy = _documents(docs, items, rng)
    skill = rng.beta(5, 2, size=(coders, 1))
    bias = rng.dirichlet(np.full(K, 20.0), size=coders)
    n = len(doc)
    guess = (rng.random((coders, n, 1)) > np.cumsum(bias, 1)[:, None, :]).sum(2)
    copy = rng.random((coders, n)) < p_copy[doc] * skill
    return ca.ReliabilityData.from_matrix(np.where(copy, truth, guess).astype(float),
                                          groups=doc)


def naive_coder_bootstrap(data: ca.ReliabilityData, f, replicates: int, seed: int
                          ) -> tuple[float, float, float]:
    """(low, high, mean replicate) of a percentile bootstrap that draws coders with
    replacement, a coder's copies kept as coders of their own (not in corpusagree)."""
    r = np.random.default_rng(seed)
    C = data.n_coders
    vals = [float(f(data.subset(coders=list(r.integers(0, C, C))))) for _ in range(replicates)]
    lo, hi = np.nanquantile(vals, [0.025, 0.975])
    return float(lo), float(hi), float(np.nanmean(vals))


def pool_coverage(args, rng) -> dict:
    f = getattr(ca, args.coefficient)
    population = float(np.mean([float(f(pool_study(500, args.items, 100, rng)))
                                for _ in range(4)]))
    rows = []
    for docs in args.docs:
        hits = {k: 0 for k, _ in POOL_KINDS}
        widths: dict = {k: [] for k, _ in POOL_KINDS}
        naive = {"hits": 0, "shift": [], "widths": []}
        for s in range(args.studies):
            data = pool_study(docs, args.items, args.pool, rng)
            if args.naive:
                lo, hi, mean = naive_coder_bootstrap(data, f, args.naive, s)
                naive["hits"] += lo <= population <= hi
                naive["shift"].append(mean - float(f(data)))
                naive["widths"].append(hi - lo)
            for name, over in POOL_KINDS:
                iv = inference.bootstrap(data, [(args.coefficient, "nominal")],
                                         inference.Bootstrap(interval="jackknife",
                                                             over=over))[0]
                hits[name] += iv.low <= population <= iv.high
                widths[name].append(iv.high - iv.low)
        rows.append({"documents": docs,
                     **{f"coverage_{k}": hits[k] / args.studies for k in hits},
                     **{f"mean_width_{k}": float(np.mean(widths[k])) for k in widths}})
        if args.naive:
            rows[-1].update({"coverage_naive": naive["hits"] / args.studies,
                             "mean_width_naive": float(np.mean(naive["widths"])),
                             "naive_shift": float(np.mean(naive["shift"]))})
    return {"population": population, "coders": args.pool, "by_documents": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--studies", type=int, default=200)
    ap.add_argument("--docs", type=int, nargs="+", default=[10, 20, 40])
    ap.add_argument("--items", type=int, default=15)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--coefficient", default="alpha")
    ap.add_argument("--compare", action="store_true",
                    help="the paired difference's coverage (at the last --docs)")
    ap.add_argument("--pool", type=int, metavar="C",
                    help="coders sampled too: C per study from a pool of unequal skill")
    ap.add_argument("--naive", type=int, metavar="R", default=0,
                    help="with --pool: also a bootstrap drawing coders with replacement")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(2026)
    t0 = time.perf_counter()
    if args.pool:
        out = {"coefficient": args.coefficient, "studies": args.studies,
               "items_per_document": args.items, **pool_coverage(args, rng),
               "seconds": time.perf_counter() - t0}
        if args.json:
            print(json.dumps(out, indent=2))
            return
        print(f"{args.studies} studies of {', '.join(map(str, args.docs))} documents × "
              f"{args.items} items × {args.pool} coders drawn from a pool; population "
              f"{args.coefficient} = {out['population']:.4f}; coverage of 95 % intervals "
              "(mean width)")
        print(f"  {'method':24}" + "".join(f"{d:>16} docs" for d in args.docs))
        kinds = [k for k, _ in POOL_KINDS] + (["naive"] if args.naive else [])
        for k in kinds:
            print(f"  {POOL_LABELS[k]:24}" + "".join(
                f"{r['coverage_' + k]:>11.1%} ({r['mean_width_' + k]:.3f})"
                for r in out["by_documents"]))
        if args.naive:
            print("  the coders' bootstrap's replicates lie above the estimate by "
                  + ", ".join(f"{r['naive_shift']:+.3f}" for r in out["by_documents"]))
        print(f"  ({out['seconds']:.0f} s)")
        return
    if args.compare:
        out = {"coefficient": args.coefficient, "studies": args.studies,
               **compare_coverage(args, rng), "seconds": time.perf_counter() - t0}
        if args.json:
            print(json.dumps(out, indent=2))
            return
        print(f"{args.studies} paired studies of {out['documents']} documents: population "
              f"difference of {args.coefficient} = {out['population_difference']:.4f}")
        for m in ("percentile", "jackknife"):
            print(f"  95 % interval of the difference, {m}: coverage "
                  f"{out['coverage_' + m]:.1%}, mean width {out['mean_width_' + m]:.3f}")
        print(f"  ({out['seconds']:.0f} s)")
        return
    f = getattr(ca, args.coefficient)
    # the population value: the same model on a huge draw (each study draws its own coders'
    # habits, so the population averages over them: many independent blocks)
    population = float(np.mean([float(f(draw(2000, args.items, rng))) for _ in range(10)]))
    rows = [coverage(args, d, rng, population) for d in args.docs]
    out = {"coefficient": args.coefficient, "population": population,
           "studies": args.studies, "items_per_document": args.items, "coders": CODERS,
           "resamples": args.resamples, "by_documents": rows,
           "seconds": time.perf_counter() - t0}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.studies} studies of {', '.join(map(str, args.docs))} documents × "
          f"{args.items} items × {CODERS} coders; population {args.coefficient} = "
          f"{population:.4f}; coverage of 95 % intervals (mean width)")
    print(f"  {'method':24}" + "".join(f"{d:>16} docs" for d in args.docs))
    for k, _, _ in KINDS:
        print(f"  {LABELS[k]:24}" + "".join(
            f"{r['coverage_' + k]:>11.1%} ({r['mean_width_' + k]:.3f})" for r in rows))
    print(f"  ({out['seconds']:.0f} s)")


if __name__ == "__main__":
    main()



