"""Readers: one module per format, each exposing ``read(...)`` and ``sniff(path) -> bool``.

``get(name)`` imports a reader by format name; ``detect(path)`` picks one by sniffing.
Format details never leave the reader modules.
"""

from __future__ import annotations

import importlib
from os import PathLike
from types import ModuleType

from corpusagree.errors import InputError

#: format name -> module, grouped by task (the order is the sniffing order).
FORMATS: dict[str, dict[str, str]] = {
    "coref": {
        "mmax2": "readers.mmax2",
        "brat": "readers.brat",
        "conll": "readers.conll2012",
        "corefud": "readers.corefud",
        "xmi": "readers.xmi",
        "webanno_tsv": "readers.webanno_tsv",
        "ezcoref": "readers.ezcoref",
    },
    "segments": {
        "segeval": "readers.segeval",
        "positions": "readers.positions",
        "rs3": "readers.rs3",
        "disrpt": "readers.disrpt",
        "text": "readers.plaintext",
    },
    "senses": {
        "raganato": "readers.raganato",
        "senseval": "readers.senseval",
        "ontonotes": "readers.ontonotes",
        "sensetsv": "readers.sensetsv",
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
