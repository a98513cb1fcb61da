"""Write ``crowd.csv``: a small crowd-labelling sample for the ``annotators`` job (who to trust).

60 items, each with a true label among ``pos``, ``neg`` and ``neutral`` (prevalence .45, .35,
.20), labelled by five of eight workers: six careful ones (accuracy .75–.92), one who clicks at
random (``w7``) and one who answers ``pos`` whatever the item (``w8``). Long format
``coder,item,label``, as the table job reads it. Seeded: running it again writes the same file.

    python sample_corpora/annotators/make_samples.py
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

LABELS = ("pos", "neg", "neutral")
ACCURACY = {"w1": 0.92, "w2": 0.9, "w3": 0.85, "w4": 0.82, "w5": 0.78, "w6": 0.75}
ITEMS, PER_ITEM, SEED = 60, 5, 34


def rows(seed: int = SEED) -> list[tuple[str, str, str]]:
    rng = np.random.default_rng(seed)
    workers = [*ACCURACY, "w7", "w8"]
    truth = rng.choice(len(LABELS), size=ITEMS, p=[0.45, 0.35, 0.2])
    out = []
    for i, t in enumerate(truth):
        for w in sorted(rng.choice(workers, size=PER_ITEM, replace=False)):
            if w == "w7":
                label = int(rng.integers(len(LABELS)))
            elif w == "w8":
                label = 0
            elif rng.random() < ACCURACY[w]:
                label = int(t)
            else:
                label = int(rng.choice([k for k in range(len(LABELS)) if k != t]))
            out.append((w, f"item{i + 1:02d}", LABELS[label]))
    return out


def main() -> None:
    path = Path(__file__).with_name("crowd.csv")
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["coder", "item", "label"])
        w.writerows(rows())


if __name__ == "__main__":
    main()
