"""Keyword checks, written once for Python callers and the command line.

A :class:`Param` says what one keyword accepts (its types, its choices, its numeric range, and
whether None is allowed). :func:`check` holds values to their ``Param`` and raises
``TypeError`` (a value of the wrong type) or ``ValueError`` (a value of the right type out of
range or not one of the choices), in Python's words: the message names the parameter, the
value and what is accepted. :func:`checked` is the decorator that checks a function's
keywords before it runs (modelled on scikit-learn's ``validate_params``), and
:func:`argparse_options` gives argparse the ``type=`` and ``choices=`` of the same ``Param``,
so the command line refuses what Python refuses, with the same description of what is
accepted (``expected an integer ≥ 1, not '-3'``).

Types are read as a user means them: ``bool`` accepts ``True``, ``False`` and numpy's booleans
but never a string or a number; ``int`` accepts any integer (numpy's too) but never a bool;
``float`` accepts any real number but a bool; ``str`` only text. A numeric range never holds an
infinite or NaN value: an end left open (``None``) is infinity, excluded.

Examples
--------
>>> diagnostics = Param("diagnostics", int, low=1, none=True)
>>> check([diagnostics], {"diagnostics": 5}, "coref.analyse()")
>>> check([diagnostics], {"diagnostics": -3}, "coref.analyse()")
Traceback (most recent call last):
ValueError: coref.analyse(): diagnostics must be an integer ≥ 1 or None, not -3
>>> check([Param("by_document", bool)], {"by_document": "yes"})
Traceback (most recent call last):
TypeError: by_document must be True or False, not 'yes'
"""

from __future__ import annotations

import argparse
import functools
import inspect
import math
import numbers
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from .errors import quote

__all__ = ["CLOSED", "PROGRESS", "SEED", "WORKERS", "ArrayLike", "Function", "Items", "Param",
           "argparse_options", "check", "checked", "kind", "params_of"]

#: the ways a range holds its ends: both, the low one only, the high one only, neither
CLOSED = ("both", "left", "right", "neither")

F = TypeVar("F", bound=Callable[..., Any])


class _Kind(type):
    """The metaclass of :func:`kind`: ``isinstance`` asks the kind's test."""

    def __instancecheck__(cls, value: object) -> bool:
        return bool(cls.test(value))  # type: ignore[attr-defined]


def kind(name: str, words: str, test: Callable[[object], bool]) -> type:
    """A type for :attr:`Param.types` that no class says: the values ``test`` accepts.

    Parameters
    ----------
    name : str
        The kind's name.
    words : str
        What it is, in a message (``"an array-like"``).
    test : callable
        ``test(value)``: whether ``value`` is of the kind.

    Returns
    -------
    type
        A class for ``isinstance`` (never instantiated).

    Examples
    --------
    >>> Even = kind("Even", "an even integer", lambda v: isinstance(v, int) and v % 2 == 0)
    >>> isinstance(4, Even), isinstance(3, Even)
    (True, False)
    >>> Param("n", Even).describe()
    'an even integer'
    """
    return _Kind(name, (), {"test": staticmethod(test), "words": words,
                            "__doc__": f"{words[0].upper()}{words[1:]} (a kind of value)."})


#: a numpy array, a nested list or tuple, or what numpy makes an array of (a DataFrame)
ArrayLike = kind("ArrayLike", "an array-like", lambda v: isinstance(v, (np.ndarray, list, tuple))
                 or hasattr(v, "__array__"))
#: a collection of values (a list, tuple, set, array …) but not a string
Items = kind("Items", "a sequence", lambda v: isinstance(v, (Collection, np.ndarray))
             and not isinstance(v, (str, bytes, Mapping)))
#: anything callable
Function = kind("Function", "a function", callable)


@dataclass(frozen=True)
class Param:
    """What one keyword accepts.

    Parameters
    ----------
    name : str
        The keyword's name, as in the function's signature.
    types : type or tuple of type, optional
        The accepted types (any value of one of them); empty: any type (the choices or the
        range decide). ``bool``, ``int``, ``float`` and ``str`` are read as the module
        docstring says.
    choices : tuple, optional
        The accepted values; a value of an accepted type that is not one of them is a
        ``ValueError``.
    low, high : float, optional
        The numeric range's ends; ``None``: unbounded on that side (infinity excluded).
    closed : {"both", "left", "right", "neither"}, default "both"
        Which ends the range holds.
    none : bool, default False
        Whether ``None`` is accepted.
    accepts : str, optional
        What is accepted, in words, when the description made from the types, choices and
        range would not say it well (``"a coders × items array-like"``); without ``or
        None``, which is added when ``none`` is true.
    metavar : str, optional
        The placeholder of the value on the command line (default ``N`` for an integer,
        ``X`` for a number).

    Examples
    --------
    >>> Param("level", float, low=0, high=1, closed="neither").describe()
    'a number between 0 and 1 (exclusive)'
    >>> Param("interval", str, choices=("percentile", "bca")).describe()
    "one of 'percentile' or 'bca'"
    >>> Param("seed", int, low=0, none=True).describe()
    'an integer ≥ 0 or None'
    """

    name: str
    types: type | tuple[type, ...] = ()
    choices: tuple | None = None
    low: float | None = None
    high: float | None = None
    closed: str = "both"
    none: bool = False
    accepts: str = ""
    metavar: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        types = self.types if isinstance(self.types, tuple) else (self.types,)
        object.__setattr__(self, "types", types)
        if self.choices is not None:
            object.__setattr__(self, "choices", tuple(self.choices))
        if self.closed not in CLOSED:
            raise ValueError(f"closed must be one of {', '.join(map(repr, CLOSED))}, "
                             f"not {self.closed!r}")

    @property
    def ranged(self) -> bool:
        """Whether a numeric range applies."""
        return self.low is not None or self.high is not None

    def describe(self, none: bool | None = None) -> str:
        """What is accepted, in words.

        Parameters
        ----------
        none : bool, optional
            Whether to add ``or None`` (default: when ``None`` is accepted); the command
            line, where no value is None, says it without.

        Returns
        -------
        str
            ``"an integer ≥ 0"``, ``"True or False"``, ``"one of 'a' or 'b'"`` …

        Examples
        --------
        >>> Param("n", int, low=2).describe()
        'an integer ≥ 2'
        >>> Param("seed", int, low=0, none=True).describe(none=False)
        'an integer ≥ 0'
        """
        words = [self.accepts] if self.accepts else self._made()
        return _or(words + ["None"] if (self.none if none is None else none) else words)

    def _made(self) -> list[str]:
        if self.choices is not None:
            return [_one_of(self.choices)]
        numeric = [t for t in self.types if t in (int, float)]
        if self.ranged and numeric:
            kind = "an integer" if numeric == [int] else "a number"
            return [f"{kind} {self._range()}"]
        return [_a(t) for t in self.types] if self.types else ["any value"]

    def _range(self) -> str:
        low, high = self.low, self.high
        has_low = self.closed in ("both", "left")
        has_high = self.closed in ("both", "right")
        if high is None:
            return f"{'≥' if has_low else '>'} {_num(low)}"
        if low is None:
            return f"{'≤' if has_high else '<'} {_num(high)}"
        if has_low == has_high:
            ends = "inclusive" if has_low else "exclusive"
            return f"between {_num(low)} and {_num(high)} ({ends})"
        return (f"{'≥' if has_low else '>'} {_num(low)} and "
                f"{'≤' if has_high else '<'} {_num(high)}")

    def within(self, value: float) -> bool:
        """Whether the number ``value`` is in the range (always, without one; never NaN).

        Parameters
        ----------
        value : float
            The number.

        Returns
        -------
        bool
            Whether it is inside.

        Examples
        --------
        >>> p = Param("level", float, low=0, high=1, closed="neither")
        >>> p.within(0.95), p.within(1), p.within(float("nan"))
        (True, False, False)
        """
        if math.isnan(value):
            return False
        if not self.ranged:
            return True
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        above = value >= low if self.closed in ("both", "left") and self.low is not None \
            else value > low
        below = value <= high if self.closed in ("both", "right") and self.high is not None \
            else value < high
        return bool(above and below)

    def is_type(self, value: object) -> bool:
        """Whether ``value`` is of one of the accepted types (any, without types).

        Parameters
        ----------
        value : object
            The value.

        Returns
        -------
        bool
            Whether its type is accepted.

        Examples
        --------
        >>> Param("n", int).is_type(True), Param("n", int).is_type(3)
        (False, True)
        >>> Param("flag", bool).is_type("yes"), Param("x", float).is_type(2)
        (False, True)
        """
        return not self.types or any(_is(value, t) for t in self.types)

    def check(self, value: object, where: str = "") -> None:
        """Raise ``TypeError`` or ``ValueError`` unless ``value`` is accepted.

        Parameters
        ----------
        value : object
            The value given.
        where : str, optional
            The function the value was given to (``"coref.analyse()"``), said first.

        Raises
        ------
        TypeError
            ``value`` is not of an accepted type (nor None where None is accepted).
        ValueError
            ``value`` is of an accepted type but not one of the choices or out of range.

        Examples
        --------
        >>> Param("n_iter", int, low=1).check(0, "dawid_skene()")
        Traceback (most recent call last):
        ValueError: dawid_skene(): n_iter must be an integer ≥ 1, not 0
        """
        if value is None and self.none:
            return
        if value is None or not self.is_type(value):
            raise TypeError(self._message(value, where))
        if self.choices is not None and not _among(value, self.choices):
            raise ValueError(self._message(value, where))
        if _number(value) and not self.within(float(value)):  # NaN never, ranged or not
            raise ValueError(self._message(value, where))

    def _message(self, value: object, where: str) -> str:
        return f"{where + ': ' if where else ''}{self.name} must be {self.describe()}, " \
               f"not {quote(value)}"


#: a random seed: the same figures every run from an integer, fresh ones from None
SEED = Param("seed", int, low=0, none=True)
#: ``progress(done, total)``, called as work is done
PROGRESS = Param("progress", Function, none=True)
#: how many threads share independent pieces of work (None: one per core this process may use)
WORKERS = Param("workers", int, low=1, none=True)


def check(specs: Iterable[Param] | Mapping[str, Param], values: Mapping[str, object],
          where: str = "") -> None:
    """Check keyword values against their :class:`Param`.

    Parameters
    ----------
    specs : iterable of Param, or mapping of name to Param
        What each keyword accepts.
    values : mapping of str to object
        The keywords given, by name; a name without a ``Param`` is not checked, a ``Param``
        without a value neither (a default needs no check).
    where : str, optional
        The function the values were given to (``"coref.analyse()"``), said first in the
        message.

    Raises
    ------
    TypeError
        A value is of none of its parameter's types.
    ValueError
        A value is of an accepted type but not one of the choices, or out of the range.

    Examples
    --------
    >>> specs = [Param("resamples", int, low=2), Param("interval", str,
    ...                                                choices=("percentile", "bca"))]
    >>> check(specs, {"resamples": 1000, "interval": "bca"})
    >>> check(specs, {"interval": "normal"}, "Bootstrap()")
    Traceback (most recent call last):
    ValueError: Bootstrap(): interval must be one of 'percentile' or 'bca', not 'normal'
    """
    by_name = specs if isinstance(specs, Mapping) else {p.name: p for p in specs}
    for name, value in values.items():
        spec = by_name.get(name)
        if spec is not None:
            spec.check(value, where)


def checked(*params: Param, where: str | None = None) -> Callable[[F], F]:
    """Decorate a function so that it checks its keywords before it runs.

    Parameters
    ----------
    *params : Param
        What each checked keyword accepts; each must name a parameter of the function.
    where : str, optional
        How messages name the function (default: its qualified name and ``()``).

    Returns
    -------
    callable
        The decorator; the function it returns carries its ``Param`` by name in
        ``__params__`` (read by :func:`params_of`).

    Raises
    ------
    TypeError
        When decorating, a ``Param`` that names no parameter of the function.

    Notes
    -----
    A value left at its default is not checked; a positional argument is checked as its
    keyword is. A call that does not bind to the signature raises Python's own ``TypeError``.

    Examples
    --------
    >>> @checked(Param("diagnostics", int, low=1, none=True))
    ... def analyse(corpus, *, diagnostics=None):
    ...     return diagnostics
    >>> analyse("c", diagnostics=3)
    3
    >>> analyse("c", diagnostics=-3)
    Traceback (most recent call last):
    ValueError: analyse(): diagnostics must be an integer ≥ 1 or None, not -3
    >>> params_of(analyse)["diagnostics"].describe()
    'an integer ≥ 1 or None'
    """
    specs = {p.name: p for p in params}

    def decorate(func: F) -> F:
        signature = inspect.signature(func)
        unknown = set(specs) - set(signature.parameters)
        if unknown:
            raise TypeError(f"{func.__qualname__}() has no parameter "
                            f"{', '.join(sorted(unknown))}")
        name = where or f"{func.__qualname__}()"
        # the positional arguments' names, in order (matched without Signature.bind, which
        # costs ten times the checks; a call that does not bind fails in the function)
        positional = [p.name for p in signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for key, value in zip(positional, args, strict=False):
                spec = specs.get(key)
                if spec is not None:
                    spec.check(value, name)
            for key, value in kwargs.items():
                spec = specs.get(key)
                if spec is not None:
                    spec.check(value, name)
            return func(*args, **kwargs)

        wrapper.__params__ = {**params_of(func), **specs}  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def params_of(func: Callable) -> dict[str, Param]:
    """The checked keywords of a function decorated by :func:`checked`, by name.

    Parameters
    ----------
    func : callable
        The function.

    Returns
    -------
    dict of str to Param
        Empty when the function checks nothing.

    Examples
    --------
    >>> params_of(print)
    {}
    """
    return dict(getattr(func, "__params__", {}))


def argparse_options(param: Param) -> dict[str, Any]:
    """The keywords of ``add_argument`` that make argparse accept what ``param`` accepts.

    Parameters
    ----------
    param : Param
        What the option's keyword accepts in Python.

    Returns
    -------
    dict
        ``choices`` (with the ``type`` its choices are converted to, when not text) for a
        parameter of choices; ``type`` (a parser of the text, whose error is argparse's one
        line ``expected …, not '…'``) and ``metavar`` for a number; ``action="store_true"``
        for a flag (a bool parameter whose default is False); nothing for text.

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser(prog="corpusagree coref")
    >>> _ = p.add_argument("--diagnostics",
    ...                    **argparse_options(Param("diagnostics", int, low=1, none=True)))
    >>> p.parse_args(["--diagnostics", "5"]).diagnostics
    5
    >>> argparse_options(Param("seed", int, low=0))["type"]("-1")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected an integer ≥ 0, not '-1'
    >>> argparse_options(Param("interval", str, choices=("percentile", "bca")))
    {'choices': ['percentile', 'bca']}
    """
    if param.choices is not None:
        kinds = {type(c) for c in param.choices}
        out: dict[str, Any] = {"choices": list(param.choices)}
        if len(kinds) == 1 and kinds != {str}:
            out["type"] = kinds.pop()  # argparse converts the text, then holds it to choices
        return out
    if param.types == (bool,):
        return {"action": "store_true"}
    if int in param.types or float in param.types:
        kind = int if float not in param.types else float
        return {"type": _parser(kind, param),
                "metavar": param.metavar or ("N" if kind is int else "X")}
    return {"metavar": param.metavar} if param.metavar else {}


# ---- helpers ----------------------------------------------------------------------------------
def _parser(kind: type, param: Param) -> Callable[[str], Any]:
    what = param.describe(none=False)

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None
        if not param.within(float(value)):
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}")
        return value

    parse.__name__ = what  # argparse names the type by it in some messages
    return parse


def _is(value: object, kind: type) -> bool:
    if kind is bool:
        return isinstance(value, (bool, np.bool_))
    if kind is int:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
    return isinstance(value, kind)


def _number(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _among(value: object, choices: tuple) -> bool:
    try:
        return bool(value in choices)
    except (TypeError, ValueError):  # an array compared with a choice
        return False


def _num(x: float | None) -> str:
    return str(int(x)) if x is not None and float(x).is_integer() else f"{x:g}"


def _a(cls: type) -> str:
    words = {bool: "True or False", int: "an integer", float: "a number", str: "a string"}
    if cls in words:
        return words[cls]
    if isinstance(cls, _Kind):
        return cls.words  # type: ignore[attr-defined]
    name = cls.__name__
    return f"{'an' if name[0].lower() in 'aeio' else 'a'} {name}"


def _one_of(choices: tuple) -> str:
    return "one of " + _or([repr(c) for c in choices]) if len(choices) > 1 \
        else repr(choices[0]) if choices else "nothing"


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
