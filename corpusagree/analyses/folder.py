"""Every job on a folder laid out like ``sample_corpora/``: one subfolder per task.

``table/`` holds reliability-data files, ``coref/`` coreference annotations in one or more
formats (also read by the markables job, through its MMAX2 version), ``segments/``
segmentations and ``senses/`` sense tags with inventories. Each job module's ``from_folder``
says what it reads there.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ..stats.inference import Bootstrap
from .base import Report

#: (subfolder, job module of corpusagree.analyses), in the order the reports come
JOBS = (("table", "table"), ("coref", "coref"), ("coref", "markables"),
        ("segments", "segments"), ("senses", "senses"))


def analyse(root: Path, bootstrap: Bootstrap | None = None) -> list[Report]:
    """The reports of every job whose subfolder ``root`` has."""
    out: list[Report] = []
    for sub, job in JOBS:
        folder = Path(root) / sub
        module = importlib.import_module(f"{__package__}.{job}")
        if folder.is_dir() and hasattr(module, "from_folder"):
            out += module.from_folder(folder, bootstrap)
    return out
