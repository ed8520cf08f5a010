"""What the engine protocols share: vertices, colours and a game with explicit passes.

Pure helpers, for the engine side (``*_engine.py``) and the client side alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reversi_tui.engine import PASS, Color, IllegalMoveError, Move, Position, parse_square
from reversi_tui.engine.notation import COLUMNS, NotationError

#: How each protocol writes a pass: GTP ``pass``, NBoard and GGF ``PA``; both read either.
PASS_WORDS = frozenset({"pass", "pa"})
#: GTP's colour words, any case.
COLOR_WORDS = {"b": Color.BLACK, "black": Color.BLACK, "w": Color.WHITE, "white": Color.WHITE}


def parse_vertex(text: str) -> Move:
    """``F5``, ``f5``, ``pass`` or ``PA`` (any case) to a square or ``PASS``."""
    if text.lower() in PASS_WORDS:
        return PASS
    return parse_square(text)


def vertex_name(move: Move, pass_word: str = "pass") -> str:
    """``F5`` (upper case, as GTP and NBoard write moves) or the protocol's pass word."""
    if move == PASS:
        return pass_word
    if not 0 <= move < 64:
        raise NotationError(f"no square has index {move}")
    return f"{COLUMNS[move % 8].upper()}{move // 8 + 1}"


def parse_color(text: str) -> Color:
    """``b``, ``black``, ``w`` or ``white`` in any case."""
    try:
        return COLOR_WORDS[text.lower()]
    except KeyError:
        raise NotationError(f"{text!r} is not a colour: black or white") from None


def disc_score(black: int, white: int) -> str:
    """GTP's form of a score: ``B+12``, ``W+4`` or ``0``."""
    if black > white:
        return f"B+{black - white}"
    if white > black:
        return f"W+{white - black}"
    return "0"


@dataclass
class PlayedGame:
    """A game as a protocol tells it: a start and every ply, passes explicit.

    Unlike ``engine.Game``, a pass is played only when the front end says so or
    a move of the other colour implies it, so the side to move is always the
    one the front end believes. ``undo`` takes back one command's plies.
    """

    start: Position = field(default_factory=Position.initial)
    #: Each command's plies: a move, or an implied pass then a move.
    turns: list[list[Move]] = field(default_factory=list)

    @property
    def moves(self) -> list[Move]:
        return [move for turn in self.turns for move in turn]

    @property
    def positions(self) -> list[Position]:
        """The start and the position after each ply."""
        out = [self.start]
        for move in self.moves:
            out.append(out[-1].play(move))
        return out

    @property
    def position(self) -> Position:
        return self.positions[-1]

    def play(self, move: Move, color: Color | None = None) -> None:
        """Play ``move`` for ``color`` (default: the side to move).

        A move of the side not to move is accepted when the side to move must pass:
        the pass is implied. Raises IllegalMoveError otherwise.
        """
        position = self.position
        plies: list[Move] = []
        if color is not None and color is not position.turn:
            if not position.must_pass:
                raise IllegalMoveError(f"it is {position.turn.title}'s turn")
            plies.append(PASS)
            position = position.pass_turn()
        position.play(move)  # raises when illegal
        plies.append(move)
        self.turns.append(plies)

    def undo(self) -> bool:
        """Take back the last command's plies; False when there is nothing to take back."""
        if not self.turns:
            return False
        self.turns.pop()
        return True
