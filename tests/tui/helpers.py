"""Shared helpers for the TUI tests: instant, deterministic computer players.

The real engine is CPU-bound pure Python; with it running, every Pilot press
waits for the app to go idle. These stand-ins answer at once (or when a test
releases them), so the tests exercise the app's orchestration, not the search.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from reversi_tui.engine import Color, Game, Position, parse_position
from reversi_tui.engine.ai.result import SearchCancelled, SearchResult
from reversi_tui.players import Human
from reversi_tui.tui.app import ReversiApp

#: White to move; a1 flips so much that Black must pass afterwards.
PASS_FOLLOWS = "-XOOO----OOO-X--OOOXX------XXX-----XXX----XXXXXX--XXXXX--OOO---- O"
#: Black to move with one empty square (b8): the move ends the game 34-30 for Black.
LAST_MOVE = "XOOOOOOOXOOXOXXOXOXOXOXOXOXOOXXOXOXXOXXOXOXXXOXOXOOOOXXOX-OOOOXO X"


@dataclass
class FirstMove:
    """A computer that plays its first legal move instantly."""

    level: str = "medium"
    searches: int = 0

    @property
    def is_human(self) -> bool:
        return False

    @property
    def label(self) -> str:
        return f"Computer ({self.level})"

    def search(
        self, position: Position, should_stop: Callable[[], bool] | None = None
    ) -> SearchResult:
        self.searches += 1
        return SearchResult(position.legal_moves[0], 0.0, 1, 1, 0.0)


@dataclass
class Gated(FirstMove):
    """A computer that thinks until the test opens the gate (or the app cancels it)."""

    gate: threading.Event = field(default_factory=threading.Event)
    started: threading.Event = field(default_factory=threading.Event)

    def search(
        self, position: Position, should_stop: Callable[[], bool] | None = None
    ) -> SearchResult:
        self.started.set()
        while not self.gate.wait(0.005):
            if should_stop is not None and should_stop():
                raise SearchCancelled
        return super().search(position, should_stop)


def quick_advisor(position: Position, should_stop: Callable[[], bool]) -> SearchResult:
    return SearchResult(position.legal_moves[-1], 4.0, 3, 100, 0.01)


def factory(choice: str) -> Human | FirstMove:
    return Human() if choice == "human" else FirstMove(choice)


def make_app(
    black: object | None = None,
    white: object | None = None,
    *,
    start: str | None = None,
    **kwargs: object,
) -> ReversiApp:
    game = Game(parse_position(start)) if start else Game()
    players = {Color.BLACK: black or Human(), Color.WHITE: white or Human()}
    kwargs.setdefault("advisor", quick_advisor)
    kwargs.setdefault("player_factory", factory)
    kwargs.setdefault("delay", 0.0)
    return ReversiApp(game, players, **kwargs)  # type: ignore[arg-type]
