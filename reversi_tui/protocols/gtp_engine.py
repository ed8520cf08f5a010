"""Our engine as a GTP engine (Go Text Protocol 2, as ``gtp-rhino`` and Edax speak it for Othello).

Every command gets ``=`` and its result, or ``?`` and a message, then an empty
line; a command's id (a number before it) is echoed, ``=7 C4``. Vertices are a
column A-H and a row 1-8 in any case, or ``pass``. ``genmove`` plays the move
on the engine's own board, as GTP requires; ``time_settings`` and ``time_left``
set a clock that budgets each ``genmove``, within the level's own time.
``quit`` stops any thinking at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from reversi_tui import __version__
from reversi_tui.engine import Color, IllegalMoveError, Position
from reversi_tui.engine.ai.result import SearchCancelled
from reversi_tui.engine.notation import NotationError
from reversi_tui.protocols.common import (
    PlayedGame,
    disc_score,
    parse_color,
    parse_vertex,
    vertex_name,
)
from reversi_tui.protocols.engine_session import Effort, EngineSession, Send, Thinker

ENGINE_NAME = "reversi-tui"
#: The only board size there is.
BOARD_SIZE = 8
#: Share of the time per move left when budgeting from a clock, for the overheads.
CLOCK_SAFETY = 0.85
#: The least time a move gets, however low the clock.
LEAST_SECONDS = 0.02


class GtpError(Exception):
    """A command that fails: its message follows the ``?``."""


@dataclass
class Clock:
    """One side's time as ``time_settings`` and ``time_left`` tell it (seconds)."""

    main: float
    byo_yomi: float
    stones: int
    left: float
    #: Stones still to play in the current byo-yomi period; 0 in main time.
    stones_left: int = 0

    @property
    def unlimited(self) -> bool:
        """GTP's "no time limits": byo-yomi time with no stones, or no time at all."""
        return (self.byo_yomi > 0 and self.stones == 0) or (self.main <= 0 and self.byo_yomi <= 0)

    def spend(self, seconds: float) -> None:
        """Our own move took ``seconds``: until the front end says otherwise, count them."""
        self.left -= seconds
        if self.stones_left:
            self.stones_left -= 1
            if not self.stones_left:
                self.left, self.stones_left = self.byo_yomi, self.stones
        elif self.left <= 0 and self.stones:
            self.left, self.stones_left = self.byo_yomi, self.stones


def clock_budget(clock: Clock, empties: int) -> float | None:
    """Seconds for one move from a clock: the period's share, or main time's per move left."""
    if clock.unlimited:
        return None
    if clock.stones_left:
        share = clock.left / clock.stones_left
    else:
        moves_left = max(1, (empties + 1) // 2)
        share = clock.left / moves_left
        if clock.stones:  # byo-yomi follows: a move may also use part of its first period
            share += clock.byo_yomi / clock.stones / 2
    return max(LEAST_SECONDS, share * CLOCK_SAFETY)


class GtpSession(EngineSession):
    """One GTP controller: the board it plays on, the clocks, the answers."""

    def __init__(self, send: Send, effort: Effort, thinker: Thinker | None = None) -> None:
        super().__init__(send, effort, thinker)
        self.game = PlayedGame()
        self.clocks: dict[Color, Clock] = {}
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: "2",
            "name": lambda args: ENGINE_NAME,
            "version": lambda args: __version__,
            "known_command": self._known_command,
            "list_commands": lambda args: "\n".join(self._commands),
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": lambda args: "",
            "play": self._play,
            "genmove": self._genmove,
            "reg_genmove": self._reg_genmove,
            "undo": self._undo,
            "showboard": self._showboard,
            "time_settings": self._time_settings,
            "time_left": self._time_left,
            "final_score": self._final_score,
            "quit": lambda args: "",
        }

    def command_of(self, line: str) -> str:
        """The command after any id: ``quit`` in ``6 quit``."""
        words = _clean(line).split()
        if words and words[0].isdigit():
            words = words[1:]
        return words[0] if words else ""

    def handle(self, line: str) -> bool:
        words = _clean(line).split()
        if not words:
            return True
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                self._reply(False, ident, "no command after the id")
                return True
        name, args = words[0], words[1:]
        command = self._commands.get(name)
        if command is None:
            self._reply(False, ident, "unknown command")
            return True
        try:
            self._reply(True, ident, command(args))
        except GtpError as error:
            self._reply(False, ident, str(error))
        except SearchCancelled:
            self._reply(False, ident, "interrupted")
        return name != "quit"

    def failed(self, line: str, error: Exception) -> None:
        words = _clean(line).split()
        ident = words[0] if words and words[0].isdigit() else ""
        self._reply(False, ident, f"internal error: {error}")

    def _reply(self, success: bool, ident: str, text: str) -> None:
        lines = text.split("\n")
        head = f"{'=' if success else '?'}{ident}"
        self.send(f"{head} {lines[0]}" if lines[0] else head)
        for rest in lines[1:]:
            self.send(rest)
        self.send("")

    # Administrative -----------------------------------------------------------------
    def _known_command(self, args: list[str]) -> str:
        return "true" if args and args[0] in self._commands else "false"

    def _boardsize(self, args: list[str]) -> str:
        size = _number(args, 0, "boardsize takes a size")
        if size != BOARD_SIZE:
            raise GtpError("unacceptable size")
        return ""

    def _clear_board(self, args: list[str]) -> str:
        self.game = PlayedGame()
        for clock in self.clocks.values():
            clock.left, clock.stones_left = clock.main, 0
        return ""

    # The game -----------------------------------------------------------------------
    def _play(self, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpError("syntax error: play <color> <vertex>")
        color, move = _color(args[0]), _vertex(args[1])
        try:
            self.game.play(move, color)
        except IllegalMoveError:
            raise GtpError("illegal move") from None
        return ""

    def _genmove(self, args: list[str]) -> str:
        color, position = self._mover(args)
        if position.is_game_over:
            return "pass"
        started = time.perf_counter()
        result = self.thinker.best(position, self._effort_for(color, position), self.stopping)
        clock = self.clocks.get(color)
        if clock is not None:
            clock.spend(time.perf_counter() - started)
        self.game.play(result.move, color)
        return vertex_name(result.move)

    def _reg_genmove(self, args: list[str]) -> str:
        """The move genmove would play, not played."""
        _, position = self._mover(args)
        if position.is_game_over:
            return "pass"
        return vertex_name(self.thinker.best(position, self.effort, self.stopping).move)

    def _mover(self, args: list[str]) -> tuple[Color, Position]:
        """The colour asked for and the position it moves in (after a pass it implies)."""
        if not args:
            raise GtpError("syntax error: genmove <color>")
        color = _color(args[0])
        position = self.game.position
        if color is not position.turn and not position.is_game_over:
            if not position.must_pass:
                raise GtpError(f"it is {position.turn.title}'s turn")
            position = position.pass_turn()
        return color, position

    def _effort_for(self, color: Color, position: Position) -> Effort:
        clock = self.clocks.get(color)
        budget = None if clock is None else clock_budget(clock, position.empties)
        if budget is None:
            return self.effort
        from reversi_tui.engine.ai import get_level

        own = self.effort.think_time or get_level(self.effort.level).budget
        return self.effort.with_time(min(own, budget))

    def _undo(self, args: list[str]) -> str:
        if not self.game.undo():
            raise GtpError("cannot undo")
        return ""

    def _showboard(self, args: list[str]) -> str:
        return "\n" + board_text(self.game.position)

    def _final_score(self, args: list[str]) -> str:
        position = self.game.position
        if position.is_game_over:
            return disc_score(*position.outcome().final_score)
        # Before the end, the discs as they stand.
        return disc_score(position.count(Color.BLACK), position.count(Color.WHITE))

    # Time ---------------------------------------------------------------------------
    def _time_settings(self, args: list[str]) -> str:
        main = _number(args, 0, "time_settings <main> <byo-yomi> <stones>")
        byo_yomi = _number(args, 1, "time_settings <main> <byo-yomi> <stones>")
        stones = _number(args, 2, "time_settings <main> <byo-yomi> <stones>")
        self.clocks = {color: Clock(main, byo_yomi, stones, main) for color in Color}
        return ""

    def _time_left(self, args: list[str]) -> str:
        color = _color(args[0]) if args else Color.BLACK
        seconds = _number(args, 1, "time_left <color> <time> <stones>")
        stones = _number(args, 2, "time_left <color> <time> <stones>")
        clock = self.clocks.setdefault(color, Clock(seconds, 0, 0, seconds))
        clock.left, clock.stones_left = seconds, stones
        return ""


def board_text(position: Position) -> str:
    """The board as ``showboard`` draws it: X black, O white, with the side to move."""
    letters = " ".join("ABCDEFGH")
    rows = [f"   {letters}"]
    for row in range(BOARD_SIZE):
        cells = []
        for column in range(BOARD_SIZE):
            color = position.color_at(row * BOARD_SIZE + column)
            cells.append("X" if color is Color.BLACK else "O" if color is Color.WHITE else ".")
        rows.append(f"{row + 1:2} {' '.join(cells)} {row + 1}")
    rows.append(f"   {letters}")
    black, white = position.count(Color.BLACK), position.count(Color.WHITE)
    state = "game over" if position.is_game_over else f"{position.turn.title} to move"
    rows.append(f"Black (X) {black}, White (O) {white}; {state}")
    return "\n".join(rows)


def _clean(line: str) -> str:
    """GTP's preprocessing: no comment, no control characters, tabs as spaces."""
    line = line.split("#", 1)[0].replace("\t", " ")
    return "".join(ch for ch in line if ch >= " " and ch != "\x7f")


def _color(text: str) -> Color:
    try:
        return parse_color(text)
    except NotationError:
        raise GtpError("syntax error: the colour is black or white") from None


def _vertex(text: str) -> int:
    try:
        return parse_vertex(text)
    except NotationError:
        raise GtpError("syntax error: a vertex is A1 to H8, or pass") from None


def _number(args: list[str], index: int, usage: str) -> int:
    try:
        return int(args[index])
    except (IndexError, ValueError):
        raise GtpError(f"syntax error: {usage}") from None
