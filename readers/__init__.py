"""Readers: one module per format, each exposing ``read(...)`` and ``sniff(path) -> bool``.

``get(name)`` imports a reader by format name; ``detect(path)`` picks one by sniffing.
Format details never leave the reader modules.
"""

from __future__ import annotations

import importlib
from os import PathLike
from types import ModuleType

from ..model.errors import InputError

#: format name -> module, grouped by task (the order is the sniffing order).
FORMATS: dict[str, dict[str, str]] = {
    "coref": {
        "mmax2": "corpusagree.readers.mmax2",
        "brat": "corpusagree.readers.brat",
        "conll": "corpusagree.readers.conll2012",
        "corefud": "corpusagree.readers.corefud",
        "xmi": "corpusagree.readers.xmi",
        "webanno_tsv": "corpusagree.readers.webanno_tsv",
        "ezcoref": "corpusagree.readers.ezcoref",
    },
    "segments": {
        "segeval": "corpusagree.readers.segeval",
        "positions": "corpusagree.readers.positions",
        "rs3": "corpusagree.readers.rs3",
        "disrpt": "corpusagree.readers.disrpt",
        "text": "corpusagree.readers.plaintext",
    },
    "senses": {
        "raganato": "corpusagree.readers.raganato",
        "senseval": "corpusagree.readers.senseval",
        "ontonotes": "corpusagree.readers.ontonotes",
        "sensetsv": "corpusagree.readers.sensetsv",
    },
}


def get(task: str, name: str) -> ModuleType:
    """The reader module for a format name of a task ('coref', 'segments', 'senses')."""
    try:
        return importlib.import_module(FORMATS[task][name])
    except KeyError:
        known = ", ".join(FORMATS.get(task, {}))
        raise InputError(f"unknown {task} format {name!r}; known: {known}") from None


def detect(task: str, path: str | PathLike) -> str:
    """Name of the first reader of ``task`` whose ``sniff`` accepts ``path``."""
    for name in FORMATS[task]:
        try:
            mod = importlib.import_module(FORMATS[task][name])
        except ImportError:
            continue
        if mod.sniff(path):
            return name
    raise InputError(f"cannot tell the {task} format; pass --format", path)
