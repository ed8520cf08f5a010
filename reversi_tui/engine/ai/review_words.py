"""How a reviewed move is said: one number per move, written one way everywhere.

A move's number is its value: the played move's, for the mover, in discs (what the
analysis's ``played_value`` holds and the GGF annotation writes). The table of
``reversi analyse``, the analysis screen, the annotated PGN and the turning point
all write it with ``discs`` (whole when exact, one decimal when estimated), so the
same move never reads -14 in one place, -14.0 in another and -12 in a third; its
loss and the best move's value are said beside it, each labelled, never in its place.
"""

from __future__ import annotations

from reversi_tui.engine.ai.analysis import MoveReview
from reversi_tui.engine.board import PASS, Move
from reversi_tui.engine.notation import square_name


def discs(value: float, exact: bool, *, sign: bool = True) -> str:
    """A value in discs: whole when exact, one decimal when estimated; never ``-0``."""
    places = 0 if exact else 1
    value = round(value, places) + 0.0  # -0.0 + 0.0 is 0.0
    return f"{value:{'+' if sign else ''}.{places}f}"


def move_name(move: Move) -> str:
    """``d3``, or ``pass``."""
    return "pass" if move == PASS else square_name(move)


def value_of(review: MoveReview) -> str:
    """The move's number: its value for the mover (``-14``, ``+0.8``)."""
    return discs(review.played_value, review.exact)


def best_value_of(review: MoveReview) -> str:
    """The best move's value for the mover, written as the move's own."""
    return discs(review.best_value, review.exact)


def loss_of(review: MoveReview) -> str:
    """The discs lost against the best move (``12``, ``3.7``), without a sign."""
    return discs(review.loss, review.exact, sign=False)


def note(review: MoveReview) -> str:
    """The move in one phrase, as the PGN comment and the turning point say it:
    ``-14 blunder (win->loss), loss 12, best f1``; a move that lost nothing is
    ``+2 best``."""
    turned = f" ({review.turned})" if review.turned else ""
    said = f"{value_of(review)} {review.klass.value}{turned}"
    if review.loss > 0:
        return f"{said}, loss {loss_of(review)}, best {move_name(review.best)}"
    return said
