"""Writes the Hugging Face dataset fixtures of this folder with pyarrow, in the layouts
``datasets`` writes (``Dataset.save_to_disk``: Arrow stream files listed in ``state.json``;
``Dataset.to_parquet``): four raters' toxicity labels and 1–5 quality scores of six
comments, two judgements missing. Run from this folder: ``python make_hf.py``."""

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

LABELS = {"r1": "ok ok toxic ok toxic ok", "r2": "ok toxic toxic ok toxic -",
          "r3": "ok ok toxic ok ok ok", "r4": "- ok toxic toxic toxic ok"}
SCORES = {"r1": [4, 3, 1, 5, 2, 4], "r2": [5, 3, 2, 4, 1, None],
          "r3": [4, 2, 1, 5, 2, 3], "r4": [None, 3, 1, 4, 2, 4]}


def rows(values):
    return [(r, f"c{i + 1}", v) for r, vs in values.items() for i, v in enumerate(vs)
            if v is not None]


labels = rows({r: [None if v == "-" else v for v in s.split()] for r, s in LABELS.items()})
table = pa.table({"coder": [r[0] for r in labels], "item": [r[1] for r in labels],
                  "label": [r[2] for r in labels]})
saved = Path("saved")
saved.mkdir(exist_ok=True)
with pa.ipc.new_stream(saved / "data-00000-of-00001.arrow", table.schema) as w:
    w.write_table(table)
(saved / "state.json").write_text(json.dumps({
    "_data_files": [{"filename": "data-00000-of-00001.arrow"}], "_fingerprint": "0",
    "_format_columns": None, "_format_kwargs": {}, "_format_type": None,
    "_output_all_columns": False, "_split": "train"}, indent=2) + "\n")
(saved / "dataset_info.json").write_text(json.dumps({"citation": "", "description": "",
                                                     "features": {}, "homepage": "",
                                                     "license": ""}, indent=2) + "\n")
scores = rows(SCORES)
pq.write_table(pa.table({"coder": [r[0] for r in scores], "item": [r[1] for r in scores],
                         "label": pa.array([r[2] for r in scores], pa.int64())}),
               "scores.parquet")
pq.write_table(pa.table({"rater": [r[0] for r in scores], "comment": [r[1] for r in scores],
                         "score": pa.array([r[2] for r in scores], pa.int64())}),
               "scores_named.parquet")
