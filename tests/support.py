"""Paths and generators shared by the tests (``pythonpath = ["tests"]``: ``from support
import ...``); ``conftest.py`` offers them as fixtures too.

The real corpora live outside the repository, in ``../shared/corpora`` beside the checkout or
wherever ``CORPUSAGREE_CORPORA`` points; tests that need them skip when they are absent.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_corpora"
DATA = ROOT / "tests" / "data"
CORPORA = Path(os.environ.get("CORPUSAGREE_CORPORA", ROOT.parent / "shared" / "corpora"))



@functools.cache
def _report_validator():
    from jsonschema import Draft202012Validator

    from corpusagree import schema

    return Draft202012Validator(schema())


def schema_errors(document) -> list[str]:
    """Where a JSON report document (or a list of them, as ``report --json`` writes) breaks
    the shipped JSON Schema (``corpusagree.schema()``): one ``path: message`` line per
    error, none when it is valid. An error of a choice (``oneOf``: null or an object) is
    given as the error deepest inside the branches, which names the key at fault."""
    out = []
    for e in _report_validator().iter_errors(document):
        while e.context:
            e = max(e.context, key=lambda c: (len(c.absolute_path), c.validator != "type"))
        out.append(f"{'/'.join(map(str, e.absolute_path)) or '(document)'}: {e.message}")
    return sorted(out)


def load_benchmark(name: str):
    """The script ``benchmarks/<name>.py`` as a module (registered in ``sys.modules``, as
    dataclasses need)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}",
                                                  ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def write(folder: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    """A file ``folder/name`` holding ``text``."""
    p = folder / name
    p.write_text(text, encoding=encoding)
    return p


def by_scheme(doc: dict) -> dict:
    """A senses report's coefficients by (scheme, inventory, coefficient id)."""
    return {(s["scheme"], s["inventory"], c["id"]): c
            for s in doc["schemes"] for c in s["coefficients"]}


# ---- random reliability data -------------------------------------------------------------------
def random_labels(seed: int, coders: int = 5, items: int = 60, labels: int = 4,
                  missing: float = 0.25, agreement: float = 0.6):
    """Reliability data of ``labels`` nominal labels: each judgement is the item's true label
    with probability ``agreement``, else a random one; ``missing`` of the judgements absent."""
    import corpusagree as ca

    rng = np.random.default_rng(seed)
    truth = rng.integers(0, labels, items)
    m = np.where(rng.random((coders, items)) < agreement, truth,
                 rng.integers(0, labels, (coders, items))).astype(float)
    m[rng.random(m.shape) < missing] = np.nan
    return ca.ReliabilityData.from_matrix(m)


def random_sets(seed: int, coders: int = 4, items: int = 50, universe: int = 7,
                missing: float = 0.2):
    """Reliability data of random sets (0 to 3 of ``universe`` elements; the empty set too)."""
    import corpusagree as ca

    rng = np.random.default_rng(seed)
    triples = []
    for c in range(coders):
        for i in range(items):
            if rng.random() < missing:
                continue
            k = rng.integers(0, 4)
            triples.append((c, i, frozenset(rng.choice(universe, size=k, replace=False).tolist())))
    return ca.ReliabilityData.from_triples(triples)
