"""Writes ``records.json`` and ``records_flat.json`` with Argilla's own exporter (argilla
2.8.0, ``argilla.records._io.JsonIO.to_json``, what ``dataset.records.to_json(path)`` and
``dataset.to_disk(folder)`` call; and ``GenericIO.to_list(records, flatten=True)``, what
``dataset.records.to_list(flatten=True)`` returns). No server is needed: the records are
made here as a dataset's would be, with responses of three users (fixed ids): a label
question (one draft and one discarded response, which are no judgement), a multi-label
question, a 1–5 rating and a span question. Run in a side environment with
``pip install "argilla==2.8.0" requests``: ``python make_argilla.py``."""

import json
import uuid
from pathlib import Path

import argilla as rg
from argilla.records._io import GenericIO, JsonIO

USERS = [uuid.UUID(int=k) for k in (1, 2, 3)]
TEXTS = ["The food was great.", "Terrible service.", "It was fine, I guess.",
         "Great price, slow delivery.", "Would not go again."]
#: per record: the three users' (sentiment, status), topics, quality
ANSWERS = [
    ([("positive", "submitted"), ("positive", "submitted"), ("positive", "submitted")],
     [["food"], ["food"], ["food", "price"]], [5, 4, 5]),
    ([("negative", "submitted"), ("negative", "submitted"), ("neutral", "submitted")],
     [["service"], ["service"], ["service"]], [1, 2, 1]),
    ([("neutral", "submitted"), ("positive", "draft"), ("neutral", "submitted")],
     [["food"], ["food"], ["price"]], [3, 3, 2]),
    ([("positive", "submitted"), ("neutral", "submitted"), ("negative", "discarded")],
     [["price", "delivery"], ["price", "delivery"], ["delivery"]], [4, 3, 3]),
    ([("negative", "submitted"), ("negative", "submitted"), ("negative", "submitted")],
     [["service"], ["food"], ["service"]], [1, 1, 2]),
]

records = []
for n, (text, (sentiment, topics, quality)) in enumerate(zip(TEXTS, ANSWERS), 1):
    responses = []
    for user, (label, status), topic, score in zip(USERS, sentiment, topics, quality):
        responses.append(rg.Response("sentiment", label, user_id=user, status=status))
        responses.append(rg.Response("topics", topic, user_id=user))
        responses.append(rg.Response("quality", score, user_id=user))
    responses.append(rg.Response("entities", [{"start": 0, "end": 3, "label": "DET"}],
                                 user_id=USERS[0]))
    records.append(rg.Record(id=f"rec-{n}", fields={"text": text}, responses=responses,
                             metadata={"source": "reviews"}))

for name in ("records.json",):
    Path(name).unlink(missing_ok=True)
    JsonIO.to_json(records, name)
Path("records_flat.json").write_text(json.dumps(GenericIO.to_list(records, flatten=True)))
