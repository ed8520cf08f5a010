"""``m``: the move list to the clipboard, for the local game and an online one alike."""

from __future__ import annotations

from collections.abc import Callable

from reversi_tui.engine import Game
from reversi_tui.records.formats import moves_text


def copy_moves(game: Game, copy: Callable[[str], None], ellipsis: str) -> str:
    """``m``: the move list to the clipboard through ``copy`` (the terminal's OSC 52), led
    by the start position when it is not the usual one, so that the copy replays. Returns
    what the status line says."""
    moves = game.move_list()
    if not moves:
        return "No moves to copy yet."
    copied = moves_text(game.start, game.moves)
    copy(copied)
    shown = moves if len(moves) <= 24 else moves[:24] + ellipsis
    what = "the moves" if copied == moves else "the start position and the moves"
    return f"Copied {what} ({shown}) to the clipboard, if your terminal allows it (OSC 52)."
