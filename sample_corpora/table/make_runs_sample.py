"""Write sentiment_runs.csv: three people and a model judge labelling 60 product reviews
negative / neutral / positive, the model run three times (the ``run`` column; the people
labelled once, in run 1).

Each review (in 6 documents, i.e. products of 10 reviews) has a true sentiment; a person
gives it with probability .8 (else a neighbouring label), the model with .85 in its first
run, and each later run re-labels a review with probability .25 (sampling at temperature >
0). One label is missing. Seeded: running it again writes the same file.

    python sample_corpora/table/make_runs_sample.py
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
LABELS = ("negative", "neutral", "positive")


def main() -> None:
    rng = np.random.default_rng(20261207)
    n = 60
    truth = rng.choice(3, n, p=[0.3, 0.3, 0.4])

    def noisy(k: int, p: float) -> int:
        if rng.random() < p:
            return int(k)
        return int(np.clip(k + rng.choice([-1, 1]), 0, 2))

    rows = []
    for i in range(n):
        doc, item = f"product{i // 10 + 1}", f"review{i + 1:02d}"
        for coder in ("ann", "bob", "cat"):
            if (coder, i) == ("bob", 41):
                continue  # one label missing
            rows.append([doc, coder, item, LABELS[noisy(truth[i], 0.8)], 1])
        first = noisy(truth[i], 0.85)
        for run in (1, 2, 3):
            label = first if run == 1 or rng.random() >= 0.25 else noisy(first, 0.0)
            rows.append([doc, "model", item, LABELS[label], run])
    with open(HERE / "sentiment_runs.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["document", "coder", "item", "label", "run"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
