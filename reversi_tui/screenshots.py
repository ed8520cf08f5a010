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

from reversi_tui.engine import Color, Game, parse_position, parse_square
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.players import Human, Player, make_player
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.widgets.board import Board

SIZES: tuple[tuple[int, int], ...] = ((80, 24), (120, 40))

#: Black to move at move 11 of a common opening.
MID_GAME = "f5d6c3d3c4f4f6f3e6e7"
#: White to move; a1 leaves Black with no move, so Black passes.
PASS_FOLLOWS = "-XOOO----OOO-X--OOOXX------XXX-----XXX----XXXXXX--XXXXX--OOO---- O"
#: Black to move with one empty square, b8: playing it ends the game.
LAST_MOVE = "XOOOOOOOXOOXOXXOXOXOXOXOXOXOOXXOXOXXOXXOXOXXXOXOXOOOOXXOX-OOOOXO X"

RunBefore = Callable[[Pilot], Awaitable[None]]


@dataclass(frozen=True)
class Scene:
    name: str
    make_app: Callable[[], ReversiApp]
    run_before: RunBefore | None = None


def _app(game: Game, black: Player, white: Player) -> ReversiApp:
    app = ReversiApp(game, {Color.BLACK: black, Color.WHITE: white})
    app.hold_highlights = True
    return app


def _vs_computer(game: Game | None = None) -> ReversiApp:
    return _app(game or Game(), Human(), make_player("medium"))


def _mid_game() -> ReversiApp:
    game = Game()
    for move in parse_move_list(MID_GAME):
        game.play(move)
    return _vs_computer(game)


async def _hover_legal(pilot: Pilot) -> None:
    board = pilot.app.query_one(Board)
    geo = board.geometry
    x, y = geo.cell_origin(parse_square("g4"))
    await pilot.hover(Board, offset=(x + geo.cell_w // 2, y + geo.cell_h // 2))
    await pilot.pause()


async def _press(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


async def _new_game_dialog(pilot: Pilot) -> None:
    await _press(pilot, "n")


async def _help(pilot: Pilot) -> None:
    await _press(pilot, "question_mark")


async def _pass_notice(pilot: Pilot) -> None:
    pilot.app.query_one(Board).cursor = parse_square("a1")
    await _press(pilot, "enter")


async def _game_over(pilot: Pilot) -> None:
    pilot.app.query_one(Board).cursor = parse_square("b8")
    await _press(pilot, "enter")


SCENES: tuple[Scene, ...] = (
    Scene("opening", _vs_computer),
    Scene("mid-game", _mid_game, _hover_legal),
    Scene("new-game", _mid_game, _new_game_dialog),
    Scene(
        "pass",
        lambda: _app(Game(parse_position(PASS_FOLLOWS)), make_player("medium"), Human()),
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
