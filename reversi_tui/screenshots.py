"""Regenerate the SVG screenshots in ``screenshots/``: ``python -m reversi_tui.screenshots``.

Each scene is a fixed game state plus a short Pilot script, so the pictures come
out the same on every run (the computer is never asked to think, and the brief
highlight after a move is held on). The snapshot tests reuse the same scenes.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from textual.pilot import Pilot

from reversi_tui.engine import Game, parse_position, parse_square
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match import MatchSettings, PlayerSpec
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.widgets.board import Board

SIZES: tuple[tuple[int, int], ...] = ((80, 24), (120, 40))

#: Black to move at move 11 of a common opening.
MID_GAME = "f5d6c3d3c4f4f6f3e6e7"
#: White to move; a1 leaves Black with no move, so Black passes.
PASS_FOLLOWS = "-XOOO----OOO-X--OOOXX------XXX-----XXX----XXXXXX--XXXXX--OOO---- O"
#: Black to move with one empty square, b8: playing it ends the game.
LAST_MOVE = "XOOOOOOOXOOXOXXOXOXOXOXOXOXOOXXOXOXXOXXOXOXXXOXOXOOOOXXOX-OOOOXO X"

#: The pilot of a ReversiApp (its return value is the process exit code).
AppPilot = Pilot[int]
RunBefore = Callable[[AppPilot], Awaitable[None]]


@dataclass(frozen=True)
class Scene:
    name: str
    make_app: Callable[[], ReversiApp]
    run_before: RunBefore | None = None


HUMAN = PlayerSpec.human()
MEDIUM = PlayerSpec.computer("medium")


def _app(game: Game, black: PlayerSpec, white: PlayerSpec) -> ReversiApp:
    app = ReversiApp(MatchSettings(black, white), game=game)
    app.game_screen.hold_highlights = True
    return app


def _vs_computer(game: Game | None = None) -> ReversiApp:
    return _app(game or Game(), HUMAN, MEDIUM)


def _mid_game() -> ReversiApp:
    return _vs_computer(Game.from_moves(None, parse_move_list(MID_GAME)))


async def _hover_legal(pilot: AppPilot) -> None:
    await pilot.pause()  # the snapshot plugin starts a script before the first refresh
    board = pilot.app.query_one(Board)
    geo = board.geometry
    x, y = geo.cell_origin(parse_square("g4"))
    await pilot.hover(Board, offset=(x + geo.cell_w // 2, y + geo.cell_h // 2))
    await pilot.pause()


async def _press(pilot: AppPilot, *keys: str) -> None:
    await pilot.pause()
    await pilot.press(*keys)
    await pilot.pause()


async def _new_game_dialog(pilot: AppPilot) -> None:
    await _press(pilot, "n")


async def _help(pilot: AppPilot) -> None:
    await _press(pilot, "question_mark")


async def _pass_notice(pilot: AppPilot) -> None:
    await pilot.pause()
    pilot.app.query_one(Board).cursor = parse_square("a1")
    await _press(pilot, "enter")


async def _game_over(pilot: AppPilot) -> None:
    await pilot.pause()
    pilot.app.query_one(Board).cursor = parse_square("b8")
    await _press(pilot, "enter")


SCENES: tuple[Scene, ...] = (
    Scene("opening", _vs_computer),
    Scene("mid-game", _mid_game, _hover_legal),
    Scene("new-game", _mid_game, _new_game_dialog),
    Scene(
        "pass",
        lambda: _app(Game(parse_position(PASS_FOLLOWS)), MEDIUM, HUMAN),
        _pass_notice,
    ),
    Scene("game-over", lambda: _vs_computer(Game(parse_position(LAST_MOVE))), _game_over),
    Scene("help", _vs_computer, _help),
)


async def capture(scene: Scene, size: tuple[int, int], directory: Path) -> Path:
    """Run one scene headless at ``size`` and save its SVG."""
    app = scene.make_app()
    name = f"{scene.name}-{size[0]}x{size[1]}.svg"
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.pause()
        if scene.run_before is not None:
            await scene.run_before(pilot)
        await pilot.pause()
        app.save_screenshot(filename=name, path=str(directory))
    return directory / name


async def capture_all(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    return [await capture(scene, size, directory) for scene in SCENES for size in SIZES]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reversi_tui.screenshots",
        description="Regenerate the app's SVG screenshots, the same on every run.",
    )
    parser.add_argument("--out", default="screenshots", help="directory (default: screenshots)")
    args = parser.parse_args(argv)
    for path in asyncio.run(capture_all(Path(args.out))):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
