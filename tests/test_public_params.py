"""The common test of the public functions (after scikit-learn's test of its public functions'
``validate_params``): every function of ``corpusagree.__all__`` and of the public modules
checks every keyword before it runs, and each bad value of a keyword (of the wrong type, out
of range, not one of the choices) raises ``TypeError`` or ``ValueError`` naming the keyword,
the value and what is accepted."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

import corpusagree
from corpusagree import Bootstrap
from corpusagree.model.params import Param, params_of
from corpusagree.unitizing import Continuum


def _public_functions():
    """(qualified name, function) of every function a public module exports, once each."""
    import importlib
    import pkgutil

    modules = [corpusagree]
    for m in pkgutil.iter_modules(corpusagree.__path__):
        if not m.ispkg and not m.name.startswith("_"):
            mod = importlib.import_module(f"corpusagree.{m.name}")
            if hasattr(mod, "__all__"):
                modules.append(mod)
    seen, out = set(), []
    for mod in modules:
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj) and id(obj) not in seen:
                seen.add(id(obj))
                out.append((f"{mod.__name__}.{name}", obj))
    return out


PUBLIC = _public_functions()
IDS = [n for n, _ in PUBLIC]


def test_the_public_modules_are_all_there():
    names = {n.rpartition(".")[0] for n in IDS}
    assert {"corpusagree", "corpusagree.distances", "corpusagree.unitizing",
            "corpusagree.annotators"} <= names
    assert len(PUBLIC) >= 35


@pytest.mark.parametrize("name, func", PUBLIC, ids=IDS)
def test_every_keyword_is_checked(name, func):
    params = params_of(func)
    signature = [p.name for p in inspect.signature(func).parameters.values()
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    missing = [p for p in signature if p not in params]
    assert not missing, f"{name} does not check {', '.join(missing)}"


# ---- a valid value of each required parameter, by name ----------------------------------------
def _valid() -> dict:
    data = corpusagree.ReliabilityData.from_matrix([[1, 2, 2, 1], [1, 2, 1, 1]])
    return {
        "data": data, "coefficient": "alpha", "spec": "nominal",
        "c": Continuum.from_units([("a", 0, 5, "X"), ("b", 1, 5, "X")], begin=0, end=10),
        "annotations": [], "segmentations": [], "u": (0, 4), "v": (1, 4),
        "p": np.array([0.01, 0.5]), "q": 0.05, "a": data, "b": data, "frame": _frame(),
    }


def _frame():
    """A small Dask frame of judgements (dask is in the test extra)."""
    dd = pytest.importorskip("dask.dataframe")
    import pandas as pd

    return dd.from_pandas(pd.DataFrame({"coder": ["a", "b", "a", "b"],
                                        "item": [1, 1, 2, 2], "label": ["x", "x", "y", "x"]}),
                          npartitions=1)


VALID = _valid()


def _required(func) -> dict:
    return {p.name: VALID[p.name] for p in inspect.signature(func).parameters.values()
            if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}


# ---- bad values of a Param ---------------------------------------------------------------------
#: values of many types: the first one a parameter does not accept is its bad type
CANDIDATES = [object(), "not a value", -7, 2.5, True, b"bytes", {"k": 1}, None]


def bad_values(p: Param) -> list[tuple[object, type]]:
    """(value, the error it must raise) for ``p``: one of a wrong type, the ends of its range
    just outside (and nan), one that is not a choice."""
    out: list[tuple[object, type]] = []
    if p.types:
        wrong = next((v for v in CANDIDATES if not (v is None and p.none) and
                      (v is None or not p.is_type(v))), None)
        if wrong is not None:
            out.append((wrong, TypeError))
    if p.ranged:
        step = 1 if p.types == (int,) else 0.5
        if p.low is not None:
            out.append((p.low if p.closed in ("right", "neither") else p.low - step, ValueError))
        if p.high is not None:
            out.append((p.high if p.closed in ("left", "neither") else p.high + step,
                        ValueError))
        if float in p.types:
            out += [(math.nan, ValueError), (math.inf, ValueError)]
    if p.choices is not None:
        choice = p.choices[0]
        out.append(("no such choice" if isinstance(choice, str) else -12345, ValueError))
    return out


CASES = [(f"{name}:{p.name}={value!r}", func, p.name, value, error)
         for name, func in PUBLIC for p in params_of(func).values()
         for value, error in bad_values(p)]


def test_there_are_cases():
    assert len(CASES) > 150


@pytest.mark.parametrize("case, func, keyword, value, error", CASES, ids=[c[0] for c in CASES])
def test_a_bad_value_raises_naming_the_keyword(case, func, keyword, value, error):
    arguments = {**_required(func), keyword: value}
    with pytest.raises(error) as e:
        func(**arguments)
    message = str(e.value)
    assert f"{keyword} must be " in message, message
    assert message.startswith(f"{func.__name__}(): ")
    assert "\n" not in message


def test_bootstrap_checks_its_settings_as_the_functions_do():
    for p in Bootstrap.PARAMS:
        for value, error in bad_values(p):
            with pytest.raises(error, match=f"^Bootstrap\\(\\): {p.name} must be "):
                Bootstrap(**{p.name: value})


def test_the_examples_of_issue_31():
    """The values the issue found accepted, or failing deep inside."""
    arr = np.array([[1, 2, 3, np.nan], [1, 2, 2, 3]])
    assert 0 < corpusagree.alpha(arr).value < 1
    with pytest.raises(TypeError, match=r"^alpha\(\): distance must be a distance"):
        corpusagree.alpha(arr, distance=3)
    with pytest.raises(ValueError, match=r"^compute\(\): coefficient must be one of 'percent_"):
        corpusagree.compute("alfa", arr)
    with pytest.raises(ValueError, match=r"^mace\(\): restarts must be an integer ≥ 1, not 0$"):
        corpusagree.annotators.mace(arr, restarts=0)
    with pytest.raises(TypeError, match=r"^Bootstrap\(\): n_resamples must be an integer ≥ 2, "
                                        r"not '100'$"):
        Bootstrap(n_resamples="100")
