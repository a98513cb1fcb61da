"""Keyword checks (corpusagree/model/params.py): types read as a user means them, ranges with
their ends, choices, None, the messages, the decorator, and argparse refusing what Python
refuses with the command line's wording."""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping

import numpy as np
import pytest

from corpusagree.cli import options
from corpusagree.model.params import Param, argparse_options, check, checked, params_of


# ---- types ------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind, good, bad", [
    (bool, [True, False, np.bool_(True)], ["yes", 1, 0, 1.0, None, np.int64(1)]),
    (int, [0, -5, 10**20, np.int64(3), np.uint8(2)], [True, np.bool_(False), 2.0, "2", None]),
    (float, [0.5, 2, np.float32(1.5), np.int32(4), float("inf")], [True, "1.5", None, 1j]),
    (str, ["", "nominal", np.str_("x")], [b"x", 1, None, ["a"]]),
])
def test_types(kind, good, bad):
    p = Param("x", kind)
    for v in good:
        p.check(v)
    for v in bad:
        with pytest.raises(TypeError, match=r"^x must be "):
            p.check(v)


def test_several_types_and_any_type():
    p = Param("weights", (str, Mapping), none=True)
    for v in ("identity", {"a": 1}, None):
        p.check(v)
    with pytest.raises(TypeError, match=r"weights must be a string, a Mapping or None, not 3$"):
        p.check(3)
    Param("anything").check(object())


def test_a_message_names_the_parameter_the_value_and_what_is_accepted():
    with pytest.raises(ValueError) as e:
        check([Param("diagnostics", int, low=1, none=True)], {"diagnostics": -3},
              "coref.analyse()")
    assert str(e.value) == \
        "coref.analyse(): diagnostics must be an integer ≥ 1 or None, not -3"
    with pytest.raises(TypeError) as e:
        check([Param("by_document", bool)], {"by_document": "yes"}, "table.analyse()")
    assert str(e.value) == "table.analyse(): by_document must be True or False, not 'yes'"
    with pytest.raises(TypeError) as e:  # a long value is cut, not echoed whole
        Param("distance", str).check(["x" * 500])
    assert len(str(e.value)) < 150 and str(e.value).endswith("…")


# ---- ranges -----------------------------------------------------------------------------------
@pytest.mark.parametrize("closed, inside, outside, words", [
    ("both", [0, 0.5, 1], [-0.1, 1.1], "a number between 0 and 1 (inclusive)"),
    ("neither", [0.01, 0.99], [0, 1], "a number between 0 and 1 (exclusive)"),
    ("left", [0, 0.99], [1, -1], "a number ≥ 0 and < 1"),
    ("right", [0.01, 1], [0, 2], "a number > 0 and ≤ 1"),
])
def test_a_range_and_its_ends(closed, inside, outside, words):
    p = Param("level", float, low=0, high=1, closed=closed)
    assert p.describe() == words
    for v in inside:
        p.check(v)
    for v in outside + [float("nan")]:
        with pytest.raises(ValueError, match="^level must be " + re.escape(words) + ", not "):
            p.check(v)


@pytest.mark.parametrize("param, words, inside, outside", [
    (Param("n", int, low=0), "an integer ≥ 0", [0, 7], [-1]),
    (Param("n", int, low=0, closed="neither"), "an integer > 0", [1], [0]),
    (Param("x", float, high=2.5), "a number ≤ 2.5", [-1e9, 2.5], [2.6, float("-inf")]),
    (Param("x", float, high=0, closed="neither"), "a number < 0", [-1], [0]),
    (Param("x", float, low=0, closed="neither"), "a number > 0", [1e-300],
     [0, float("inf")]),
])
def test_one_sided_ranges_exclude_infinity(param, words, inside, outside):
    assert param.describe() == words
    for v in inside:
        param.check(v)
    for v in outside:
        with pytest.raises(ValueError):
            param.check(v)


def test_nan_is_refused_without_a_range_too():
    with pytest.raises(ValueError, match="alpha must be a number, not nan"):
        Param("alpha", float).check(float("nan"))


def test_a_bad_closed_is_refused():
    with pytest.raises(ValueError, match="closed must be one of"):
        Param("x", float, low=0, closed="open")


# ---- choices and None -------------------------------------------------------------------------
def test_choices():
    p = Param("interval", str, choices=["percentile", "bca"])
    assert p.choices == ("percentile", "bca")
    p.check("bca")
    with pytest.raises(ValueError, match=r"^interval must be one of 'percentile' or 'bca', "
                                         r"not 'normal'$"):
        p.check("normal")
    with pytest.raises(TypeError, match="interval must be one of"):
        p.check(1)
    with pytest.raises(ValueError):  # an array is never a choice (no ambiguous truth value)
        Param("x", choices=(1, 2)).check(np.array([1, 2]))


def test_none():
    Param("seed", int, none=True).check(None)
    with pytest.raises(TypeError, match="^seed must be an integer, not None$"):
        Param("seed", int).check(None)
    assert Param("x", str, accepts="a file name", none=True).describe() == \
        "a file name or None"


# ---- check() ----------------------------------------------------------------------------------
def test_check_takes_a_mapping_and_skips_unknown_names():
    specs = {"n": Param("n", int, low=1)}
    check(specs, {"n": 1, "other": "anything"})
    with pytest.raises(ValueError, match="^n must be"):
        check(specs, {"n": 0})


# ---- the decorator ----------------------------------------------------------------------------
@checked(Param("diagnostics", int, low=1, none=True), Param("by_document", bool))
def _analyse(corpus, distance="nominal", *, by_document=False, diagnostics=None):
    """The docstring stays."""
    return corpus, by_document, diagnostics


def test_the_decorator_checks_keywords_before_running():
    assert _analyse("c", by_document=True, diagnostics=2) == ("c", True, 2)
    with pytest.raises(ValueError, match=r"^_analyse\(\): diagnostics must be"):
        _analyse("c", diagnostics=-3)
    with pytest.raises(TypeError, match=r"^_analyse\(\): by_document must be True or False"):
        _analyse("c", by_document="yes")
    with pytest.raises(TypeError, match="unexpected keyword"):  # Python's own binding error
        _analyse("c", by_doc=True)


def test_the_decorator_keeps_the_function_and_tells_its_params():
    assert _analyse.__doc__ == "The docstring stays." and _analyse.__name__ == "_analyse"
    assert set(params_of(_analyse)) == {"diagnostics", "by_document"}
    assert params_of(len) == {}


def test_the_decorator_checks_positional_arguments_and_names_where():
    @checked(Param("n", int, low=1), where="corpusagree.f()")
    def f(n, m=0):
        return n

    assert f(3) == 3
    with pytest.raises(ValueError, match=r"^corpusagree\.f\(\): n must be an integer ≥ 1"):
        f(0)


def test_the_decorator_checks_var_keywords_by_name_not_at_all():
    @checked(Param("x", int))
    def f(x=1, **rest):
        return rest

    assert f(y="anything") == {"y": "anything"}


def test_a_param_naming_no_parameter_is_refused_when_decorating():
    with pytest.raises(TypeError, match="has no parameter nope"):
        checked(Param("nope", int))(lambda x: x)


def test_decorators_stack():
    @checked(Param("a", int))
    @checked(Param("b", int))
    def f(a=0, b=0):
        return a + b

    assert set(params_of(f)) == {"a", "b"}
    with pytest.raises(TypeError, match="b must be"):
        f(b="1")


# ---- argparse ---------------------------------------------------------------------------------
TEXTS = ["-1", "0", "1", "2", "1.5", "0.95", "1e3", "nan", "inf", "-inf", "x", ""]


@pytest.mark.parametrize("cli_type, param", [
    (options.nonnegative_int, Param("seed", int, low=0)),
    (options.positive_int, Param("diagnostics", int, low=1, none=True)),
    (options.resamples, Param("n_resamples", int, low=2)),
    (options.ci_level, Param("level", float, low=0, high=1, closed="neither")),
    (options.positive_float, Param("x", float, low=0, closed="neither")),
    (options.nonnegative_float, Param("x", float, low=0)),
], ids=lambda x: getattr(x, "__name__", ""))
def test_argparse_types_say_what_the_command_line_says(cli_type, param):
    ours = argparse_options(param)["type"]
    assert ours.__name__ == cli_type.__name__
    for text in TEXTS:
        try:
            expected = ("ok", cli_type(text))
        except argparse.ArgumentTypeError as e:
            expected = ("error", str(e))
        try:
            got = ("ok", ours(text))
        except argparse.ArgumentTypeError as e:
            got = ("error", str(e))
        assert got == expected, text


def test_argparse_refuses_what_python_refuses(capsys):
    p = argparse.ArgumentParser(prog="corpusagree coref")
    p.add_argument("--seed", **argparse_options(Param("seed", int, low=0)))
    p.add_argument("--interval", **argparse_options(
        Param("interval", str, choices=("percentile", "bca"))))
    p.add_argument("--by-document", **argparse_options(Param("by_document", bool)))
    p.add_argument("--k", **argparse_options(Param("k", int, choices=(2, 3))))
    args = p.parse_args(["--seed", "4", "--interval", "bca", "--by-document", "--k", "3"])
    assert (args.seed, args.interval, args.by_document, args.k) == (4, "bca", True, 3)
    with pytest.raises(SystemExit) as e:
        p.parse_args(["--seed", "-1"])
    assert e.value.code == 2
    assert "argument --seed: expected an integer ≥ 0, not '-1'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        p.parse_args(["--k", "4"])
    assert "invalid choice: 4" in capsys.readouterr().err


def test_argparse_options_of_text_and_metavar():
    assert argparse_options(Param("name", str)) == {}
    assert argparse_options(Param("name", str, metavar="NAME")) == {"metavar": "NAME"}
    assert argparse_options(Param("x", float, low=0))["metavar"] == "X"
    assert argparse_options(Param("n", int, low=0, metavar="K"))["metavar"] == "K"
