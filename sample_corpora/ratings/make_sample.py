"""Write essays.csv and essays_runs.csv: three people and a model scoring 80 essays 1–6.

Each essay (in 10 documents, i.e. classes of 8 essays) has a true quality; ann, bob and cat
score it with noise (bob half a point more generous), the model with its own noise, three
runs of it at temperature > 0 (``essays_runs.csv``: the ``run`` column; ``essays.csv`` keeps
the first run). Two scores are missing. Seeded: running it again writes the same files.

    python sample_corpora/ratings/make_sample.py
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent


def main() -> None:
    rng = np.random.default_rng(20261206)
    n = 80
    truth = rng.normal(3.5, 1.1, n)
    people = {"ann": 0.0, "bob": 0.5, "cat": -0.2}
    rows, runs = [], []
    for i in range(n):
        doc, item = f"class{i // 8 + 1:02d}", f"essay{i + 1:03d}"
        for coder, shift in people.items():
            if (coder, i) in {("cat", 17), ("bob", 52)}:
                continue  # two scores missing
            score = int(np.clip(np.rint(truth[i] + shift + rng.normal(0, 0.6)), 1, 6))
            rows.append([doc, coder, item, score])
            runs.append([doc, coder, item, score, 1])
        model_bias = rng.normal(0, 0.4)  # the model's view of this essay, stable across runs
        for run in (1, 2, 3):
            score = int(np.clip(np.rint(truth[i] + model_bias + rng.normal(0, 0.35)), 1, 6))
            if run == 1:
                rows.append([doc, "model", item, score])
            runs.append([doc, "model", item, score, run])
    for name, header, body in (("essays.csv", ["document", "coder", "item", "label"], rows),
                               ("essays_runs.csv", ["document", "coder", "item", "label",
                                                    "run"], runs)):
        with open(HERE / name, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(header)
            w.writerows(body)


if __name__ == "__main__":
    main()
