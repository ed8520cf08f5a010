"""Words the screens share: a count with its noun in the right number, and a score.

Every score is said one way: Black's first, each side named (``Black 2, White 62``),
and the winner in words beside it (``headline`` in ``screens/game_over.py``).
"""

from __future__ import annotations


def noun(count: int, one: str, many: str | None = None) -> str:
    """``disc`` for one (or minus one), ``discs`` for any other count."""
    if abs(count) == 1:
        return one
    return many if many is not None else one + "s"


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 disc``, ``0 discs``, ``3 losses``: the count and its noun."""
    return f"{count} {noun(count, one, many)}"


def score_words(black: int, white: int) -> str:
    """``Black 2, White 62``: Black's score first, each side named."""
    return f"Black {black}, White {white}"
