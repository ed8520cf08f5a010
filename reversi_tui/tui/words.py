"""Words the screens share: a count with its noun in the right number."""

from __future__ import annotations


def noun(count: int, one: str, many: str | None = None) -> str:
    """``disc`` for one (or minus one), ``discs`` for any other count."""
    if abs(count) == 1:
        return one
    return many if many is not None else one + "s"


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 disc``, ``0 discs``, ``3 losses``: the count and its noun."""
    return f"{count} {noun(count, one, many)}"
