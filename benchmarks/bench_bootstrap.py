"""Bootstrap speed: 1,000 replicates of α nominal on 1,000,000 items × 5 coders and on 2,000
items × 5 coders (where every replicate fits one chunk of weights, so the chunks of at most 5 %
of the replicates that progress is reported after are what the timing measures), and of β
(Jaccard) on 100,000 mentions × 3 coders from the synthetic coreference generator (item-level
and clustered by document).

Usage: python benchmarks/bench_bootstrap.py [--scale 1.0] [--resamples 1000] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import bench_alpha
import coref_synth

import corpusagree as ca
from corpusagree.stats import inference


def timed(fn):
    t = time.perf_counter()
    v = fn()
    return v, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the full sizes")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    R = args.resamples
    out = {}

    n = int(1_000_000 * args.scale)
    data = ca.ReliabilityData.from_matrix(bench_alpha.make(n, 5, 10, 0.05))
    iv, secs = timed(lambda: inference.bootstrap(
        data, [("alpha", "nominal")], inference.Bootstrap(R, seed=0))[0])
    out["alpha_nominal"] = {"items": n, "coders": 5, "resamples": R, "seconds": secs,
                            **iv.as_dict()}

    small = ca.ReliabilityData.from_matrix(bench_alpha.make(2_000, 5, 10, 0.05))
    reports: list[int] = []
    iv, secs = timed(lambda: inference.bootstrap(
        small, [("alpha", "nominal")], inference.Bootstrap(R, seed=0),
        progress=lambda done, total: reports.append(done))[0])
    out["alpha_nominal_small"] = {"items": 2_000, "coders": 5, "resamples": R, "seconds": secs,
                                  "progress_reports": len(reports), **iv.as_dict()}

    m = int(100_000 * args.scale)
    doc, chains = coref_synth.generate(m, 3, seed=4)
    cdata = coref_synth.to_reliability(doc, chains)
    for cluster in (False, True):
        iv, secs = timed(lambda c=cluster: inference.bootstrap(
            cdata, [("beta", "jaccard")], inference.Bootstrap(R, cluster=c, seed=0))[0])
        out["beta_jaccard_" + ("documents" if cluster else "items")] = {
            "mentions": m, "coders": 3, "resamples": R, "seconds": secs, **iv.as_dict()}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for name, r in out.items():
        size = f"{r.get('items', r.get('mentions')):,} × {r['coders']}"
        print(f"{name:<22} {size:>15}  {R} replicates in {r['seconds']:6.2f} s   "
              f"{r['coefficient']} = {r['estimate']:.4f}  95 % [{r['low']:.4f}, {r['high']:.4f}]"
              f"  ({r['units']:,} {'clusters' if r['clustered'] else 'items'})")


if __name__ == "__main__":
    main()
