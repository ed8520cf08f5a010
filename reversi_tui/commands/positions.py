"""The POSITION argument of ``move`` and ``solve``: reading it, and a finished game.

Both commands read a position the same way, refuse a bad one with the same one
line (saying what was wrong, such as how long it was), and answer a finished game
with the same lines and status.
"""

from __future__ import annotations

from reversi_tui.engine import NotationError, Position, parse_position

SHAPE = "a position is 64 squares a1..h8 (X, O or -), a space and the side to move (X or O)"


def read_position(text: str) -> Position:
    """The position ``text`` spells; ``NotationError`` saying what is wrong with it."""
    parts = text.split(";", 1)[0].split()
    if not parts:
        raise NotationError(f"{SHAPE}; this one is empty")
    board = parts[0]
    if len(parts) == 1 and len(board) == 64:
        raise NotationError(f"{SHAPE}; this one has the 64 squares but no side to move")
    if len(parts) == 1 and len(board) == 65 and board[-1] in "XOxo":
        raise NotationError(f"{SHAPE}; this one needs a space before the side to move")
    if len(parts) == 1:
        raise NotationError(f"{SHAPE}; this one has {len(board)} characters")
    if len(board) != 64:
        raise NotationError(f"{SHAPE}; this one's board has {len(board)} characters")
    if len(parts) == 2 and parts[1].upper() not in ("X", "O"):
        raise NotationError(f"{SHAPE}; this one has {parts[1]!r} for the side to move")
    return parse_position(text)


def game_over_lines(position: Position) -> list[str]:
    """What ``move`` and ``solve`` both print for a finished game (and then exit 0)."""
    from reversi_tui.engine.ai.endgame import final_score  # when a game is over

    score = final_score(position.player, position.opponent)
    return [
        "the game is over: the score is the final one",
        f"score: {score:+d} for {position.turn.title} "
        "(final disc difference, empties to the winner)",
    ]
