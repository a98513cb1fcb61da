"""Synthetic coreference annotation at corpus scale, and α/β over chains with set distances.

Generator: documents of ~100 mentions with skewed gold chains; each coder misses some mentions,
splits some off into singletons (missed links) and mis-attaches some to another chain of the
same document. Item = mention, label = the coder's chain (a set of mention ids), built as a
CSR set table directly (``ReliabilityData.from_sets``), never one frozenset per mention.

Prints, in one run:
* 2,000 mentions × 3 coders: α (Jaccard) time for corpusagree vs NLTK's AnnotationTask;
* 1,000,000 mentions × 5 coders: α and β with each set distance, wall time and peak memory
  (conversion to ReliabilityData included, data generation excluded);
* the scaling curve at 10⁴, 10⁵, 10⁶ mentions (α + β, Jaccard).

Usage: python benchmarks/coref_synth.py [--max-mentions N] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import time
import tracemalloc

import numpy as np

import corpusagree as ca


def generate(mentions: int, coders: int, seed: int = 0, per_doc: int = 100,
             chains_per_doc: int = 40, p_miss: float = 0.05, p_split: float = 0.05,
             p_attach: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """(doc of each mention, coders × mentions chain ids; -1 = mention not marked)."""
    rng = np.random.default_rng(seed)
    doc = np.arange(mentions) // per_doc
    w = 1.0 / np.arange(1, chains_per_doc + 1)
    gold = doc * chains_per_doc + rng.choice(chains_per_doc, size=mentions, p=w / w.sum())
    chains = np.tile(gold, (coders, 1))
    u = rng.random((coders, mentions))
    split = u < p_split
    attach = (u >= p_split) & (u < p_split + p_attach)
    miss = rng.random((coders, mentions)) < p_miss
    singleton_ids = (doc.max() + 1) * chains_per_doc + np.arange(mentions)
    chains = np.where(split, singleton_ids[None, :], chains)
    other = doc * chains_per_doc + rng.integers(0, chains_per_doc, (coders, mentions))
    chains = np.where(attach, other, chains)
    return doc, np.where(miss, -1, chains)


def to_reliability(doc: np.ndarray, chains: np.ndarray) -> ca.ReliabilityData:
    """Chains → one CSR row per (coder, chain): elements = member mention ids; vectorised."""
    coders, n = chains.shape
    coder_of = np.repeat(np.arange(coders), n)
    mention = np.tile(np.arange(n), coders)
    chain = chains.ravel()
    keep = chain >= 0
    key = coder_of[keep].astype(np.int64) * (chain.max() + 1) + chain[keep]
    uniq, row = np.unique(key, return_inverse=True)
    order = np.argsort(row, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(row, minlength=len(uniq)))])
    codes = np.full(coders * n, -1, np.int64)
    codes[np.flatnonzero(keep)] = row
    return ca.ReliabilityData.from_sets(codes.reshape(coders, n), indptr,
                                        mention[keep][order], groups=doc)


def timed(fn):
    tracemalloc.start()
    t = time.perf_counter()
    value = fn()
    seconds = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return value, seconds, peak / 2**20


def vs_nltk(out: dict) -> None:
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import jaccard_distance

    doc, chains = generate(2000, 3, seed=1)
    data, t_ours, _ = timed(lambda: to_reliability(doc, chains))
    a, t_alpha, _ = timed(lambda: float(ca.alpha(data, "jaccard")))
    triples = [(str(c), str(i), data.labels[data.codes[c, i]]) for c in range(3)
               for i in range(data.n_items) if data.codes[c, i] >= 0]
    t = time.perf_counter()
    b = AnnotationTask(data=triples, distance=jaccard_distance).alpha()
    t_nltk = time.perf_counter() - t
    assert abs(a - b) < 1e-9, (a, b)
    ours = t_ours + t_alpha
    out["nltk"] = {"mentions": 2000, "coders": 3, "alpha_jaccard": a, "ours_s": ours,
                   "nltk_s": t_nltk, "speedup": t_nltk / ours}


def one_size(mentions: int, coders: int, names, out: dict, key: str) -> None:
    doc, chains = generate(mentions, coders, seed=2)
    rows = {}
    for name in names:
        def run(name=name):
            data = to_reliability(doc, chains)
            return float(ca.alpha(data, name)), float(ca.beta(data, name)), data.n_labels
        (a, b, labels), secs, peak = timed(run)
        rows[name] = {"alpha": a, "beta": b, "seconds": secs, "peak_mb": peak,
                      "labels": labels}
    out[key] = {"mentions": mentions, "coders": coders, "distances": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-mentions", type=int, default=1_000_000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out: dict = {}
    vs_nltk(out)
    one_size(args.max_mentions, 5, ["passonneau", "jaccard", "dice", "masi"], out, "large")
    sizes = [s for s in (10_000, 100_000, 1_000_000) if s <= args.max_mentions]
    out["scaling"] = []
    for n in sizes:
        tmp: dict = {}
        one_size(n, 5, ["jaccard"], tmp, "x")
        r = tmp["x"]["distances"]["jaccard"]
        out["scaling"].append({"mentions": n, "seconds": r["seconds"], "peak_mb": r["peak_mb"]})
    out["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if args.json:
        print(json.dumps(out, indent=2))
        return
    r = out["nltk"]
    print(f"2,000 mentions × 3 coders, α Jaccard = {r['alpha_jaccard']:.6f} (equal to NLTK): "
          f"corpusagree {r['ours_s'] * 1000:.1f} ms, NLTK {r['nltk_s']:.2f} s → "
          f"{r['speedup']:.0f}× faster")
    r = out["large"]
    print(f"{r['mentions']:,} mentions × {r['coders']} coders "
          f"({next(iter(r['distances'].values()))['labels']:,} distinct chains); "
          "α + β incl. conversion:")
    for name, d in r["distances"].items():
        print(f"  {name:<11} α = {d['alpha']:.4f}  β = {d['beta']:.4f}  "
              f"{d['seconds']:6.2f} s  peak {d['peak_mb']:7.0f} MB (traced)")
    print("scaling (α + β, Jaccard):")
    base = out["scaling"][0]
    for s in out["scaling"]:
        print(f"  {s['mentions']:>9,} mentions  {s['seconds']:7.3f} s  "
              f"(×{s['seconds'] / base['seconds']:.1f} for ×{s['mentions'] // base['mentions']}"
              f" mentions)  peak {s['peak_mb']:.0f} MB")
    print(f"process peak RSS (generation included): {out['max_rss_mb']:.0f} MB")


if __name__ == "__main__":
    main()
