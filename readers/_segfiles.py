"""Checks shared by the segmentation readers (their files are found by :mod:`._paths`)."""

from __future__ import annotations

from ..model.errors import InputError


def first_difference(a: list[str], b: list[str]) -> int | None:
    """Index of the first unit where two unit sequences differ (None if identical)."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def check_annotators(keep: set | None, found: set) -> None:
    """The annotators asked for must all have been found."""
    if keep is not None and keep - found:
        raise InputError(f"annotators not found: {', '.join(sorted(keep - found))}")
