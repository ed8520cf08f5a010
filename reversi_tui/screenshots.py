"""Regenerate the SVG screenshots in ``screenshots/``: ``python -m reversi_tui.screenshots``.

Each scene is a fixed game state plus a short Pilot script, so the pictures come
out the same on every run (the computer is never asked to think, and the brief
highlight after a move is held on). The snapshot tests reuse the same scenes.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import random
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from textual.pilot import Pilot

from reversi_tui.engine import Color, Game, parse_position, parse_square
from reversi_tui.engine.ai.analysis import AnalysisOptions, analyse_game
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match import GameRecord, MatchSettings, PlayerSpec
from reversi_tui.net import protocol
from reversi_tui.net.client import Client
from reversi_tui.net.online import OnlineSession
from reversi_tui.net.protocol import (
    NEW_RATING,
    ChallengeInfo,
    GameInfo,
    PlayerInfo,
    Rating,
    TimeControl,
)
from reversi_tui.net.remote import GameLink
from reversi_tui.net.trust import Owner
from reversi_tui.records.autosave import Resumable, SavedGame
from reversi_tui.records.database import RecordsDatabase
from reversi_tui.records.names import player_name
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.analysis import AnalysisScreen
from reversi_tui.tui.screens.challenge import ChallengeChoice, ChallengedScreen, ChallengeScreen
from reversi_tui.tui.screens.lobby import LobbyScreen
from reversi_tui.tui.screens.online_game import OnlineGameScreen
from reversi_tui.tui.screens.resume import ResumeScreen
from reversi_tui.tui.screens.statistics import StatisticsScreen
from reversi_tui.tui.widgets.board import Board

SIZES: tuple[tuple[int, int], ...] = ((80, 24), (120, 40))

#: Black to move at move 11 of a common opening.
MID_GAME = "f5d6c3d3c4f4f6f3e6e7"
#: White to move; a1 leaves Black with no move, so Black passes.
PASS_FOLLOWS = "-XOOO----OOO-X--OOOXX------XXX-----XXX----XXXXXX--XXXXX--OOO---- O"
#: Black to move with one empty square, b8: playing it ends the game.
LAST_MOVE = "XOOOOOOOXOOXOXXOXOXOXOXOXOXOOXXOXOXXOXXOXOXXXOXOXOOOOXXOX-OOOOXO X"

#: A whole game for the analysis: Black (medium) against White (easy), 44-20.
ANALYSED_GAME = (
    "f5d6c5f4e3d2d3b6b5b4c4e2e6e7f6g5a4b3c6a6c3b2f3c7a5g2a3a2g4h4h5h6g3h2h1g6h3g1h7f2c1c2"
    "d1e1f1a1b1a7b7b8d7f8f7g8e8a8h8c8d8g7"
)
#: An analysis that comes out the same on every run: the medium level's whole depth
#: (3 plies) takes milliseconds, far inside its time, and the end is solved exactly.
STEADY_ANALYSIS = AnalysisOptions(time_per_move=5.0, level="medium", exact_empties=10)

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


def _unfinished(moves: str, black: PlayerSpec, white: PlayerSpec, minutes: int) -> Resumable:
    """An unfinished game as the Resume dialog lists it, last played ``minutes`` ago."""
    game = Game.from_moves(None, parse_move_list(moves))
    now = datetime.now(UTC)
    saved = SavedGame.of(game, {Color.BLACK: black, Color.WHITE: white}, now)
    return Resumable(Path(f"{minutes}.json"), saved, now - timedelta(minutes=minutes))


async def _resume_dialog(pilot: AppPilot) -> None:
    await pilot.pause()
    offer = [
        _unfinished(MID_GAME, HUMAN, MEDIUM, 12),
        _unfinished("f5f6e6f4e3c5c4e7", HUMAN, HUMAN, 60 * 27),
    ]
    await pilot.app.push_screen(ResumeScreen(offer, lambda _: None))
    await pilot.pause()


#: The player whose statistics the statistics scene shows.
VIEWER = "ann"


def _records() -> Path:
    """A records database of a fixed week of games (removed at exit)."""
    directory = Path(tempfile.mkdtemp(prefix="reversi-screenshots-"))
    atexit.register(shutil.rmtree, directory, True)
    path = directory / "records.sqlite3"
    rng = random.Random(7)
    opponents = [PlayerSpec.computer(level) for level in ("easy", "medium", "hard")]
    database = RecordsDatabase(path)
    try:
        for day in range(14):
            opponent = opponents[day % 3] if day % 4 else HUMAN
            game = Game()
            while not game.is_over:
                game.play(rng.choice(game.legal_moves))
            ann_black = day % 2 == 0
            players = {
                Color.BLACK: HUMAN if ann_black else opponent,
                Color.WHITE: opponent if ann_black else HUMAN,
            }
            started = datetime(2026, 11, 9, 20, 5, tzinfo=UTC) + timedelta(days=day, minutes=day)
            record = replace(
                GameRecord.of(game, players, started=started),
                ended=started + timedelta(minutes=6 + day % 5),
            )
            ann = Color.BLACK if ann_black else Color.WHITE
            names = {
                colour: VIEWER if colour is ann else player_name(spec, "bob")
                for colour, spec in players.items()
            }
            database.add(record, names[Color.BLACK], names[Color.WHITE])
    finally:
        database.close()
    return path


async def _statistics(pilot: AppPilot) -> None:
    await pilot.pause()
    await pilot.app.push_screen(StatisticsScreen(_records(), VIEWER))
    await pilot.pause()


def _online_session() -> OnlineSession:
    """A session as the lobby shows it, filled in by hand: no server is needed."""
    client = Client(lambda _: None, lambda _: None, socket="/run/reversi/reversi.sock")
    client.user, client.server = "ann", "5e1f0c2a9d3b7e64"
    client.owner = Owner(990, "reversi")
    session = OnlineSession(client)
    session.status = "Connected as ann to the server of reversi at /run/reversi/reversi.sock."

    def rating(value: int, deviation: int) -> Rating:
        return Rating(rating=value, deviation=deviation, provisional=deviation >= 110)

    session.picture.players = [
        PlayerInfo(
            user="ann", waiting=False, playing=True, status="lobby", rating=rating(1587, 74)
        ),
        PlayerInfo(
            user="bob", waiting=True, playing=False, status="lobby", rating=rating(1502, 91)
        ),
        PlayerInfo(
            user="carol", waiting=False, playing=True, status="online", rating=rating(1711, 65)
        ),
        PlayerInfo(user="dave", waiting=False, playing=True, status="online", rating=NEW_RATING),
        PlayerInfo(
            user="erin", waiting=False, playing=False, status="local", rating=rating(1449, 130)
        ),
    ]
    five = TimeControl(minutes=5, increment=3)
    session.picture.games = [
        GameInfo(
            game=3,
            black="carol",
            white="dave",
            ply=23,
            spectators=2,
            clock=five,
            rated=True,
            turn="white",
        ),
        GameInfo(game=5, black="ann", white="frank", ply=10, spectators=0, turn="black"),
    ]
    session.picture.challenges = {
        7: ChallengeInfo(
            challenge=7, from_="erin", to="ann", color="random", clock=five, rated=True
        ),
        8: ChallengeInfo(
            challenge=8,
            from_="ann",
            to="bob",
            color="black",
            clock=TimeControl(minutes=10, increment=5),
        ),
    }
    return session


async def _lobby(pilot: AppPilot) -> None:
    await pilot.pause()
    app = pilot.app
    assert isinstance(app, ReversiApp)
    screen = app.game_screen
    session = _online_session()
    lobby = LobbyScreen(session, screen.advisor, screen.glyphs)
    lobby.mark_asked(session.picture.challenges)  # the shot shows the lobby, not a dialog
    await pilot.app.push_screen(lobby)
    await pilot.pause()


async def _challenged(pilot: AppPilot) -> None:
    await _lobby(pilot)
    await pilot.app.push_screen(ChallengedScreen("bob", "white", control=(5, 3), rated=True))
    await pilot.pause()


async def _challenging(pilot: AppPilot) -> None:
    await _lobby(pilot)
    choice = ChallengeChoice("black", (10, 5), rated=True)
    await pilot.app.push_screen(ChallengeScreen("bob", choice))
    await pilot.pause()


async def _online_game(pilot: AppPilot) -> None:
    await pilot.pause()
    session = _online_session()
    game = Game.from_moves(None, parse_move_list(MID_GAME))
    state = protocol.state_of(
        5,
        "ann",
        "frank",
        game,
        origin="5e1f0c2a9d3b7e64:5",
        started="2026-11-26T09:12:00+00:00",
        spectators=1,
        online={"ann": True, "frank": True},
        clock=protocol.Clock(
            black_ms=141_300, white_ms=17_400, running=None, minutes=5, increment=3
        ),
        rated=True,
    )
    session.picture.chat[state.origin] = [
        protocol.ChatLine(from_="frank", text="good luck!", watcher=False),
        protocol.ChatLine(from_="ann", text="you too", watcher=False),
        protocol.ChatLine(from_="carol", text="sharp opening", watcher=True),
    ]
    # the clocks stand still in the picture (running=None): a screenshot does not tick
    link = GameLink(state, "ann", lambda _: False, "5e1f0c2a9d3b7e64")
    app = pilot.app
    assert isinstance(app, ReversiApp)
    screen = app.game_screen
    online = OnlineGameScreen(session, link, screen.advisor, glyphs=screen.glyphs)
    online.hold_highlights = True
    await pilot.app.push_screen(online)
    await pilot.pause()
    await pilot.pause()


async def _analysis(pilot: AppPilot, *keys: str) -> None:
    """The analysis of ``ANALYSED_GAME`` at its turning point, then ``keys``."""
    await pilot.pause()
    app = pilot.app
    assert isinstance(app, ReversiApp)
    game = Game.from_moves(None, parse_move_list(ANALYSED_GAME))
    analysis = analyse_game(game.start, game.moves, STEADY_ANALYSIS)
    names = {Color.BLACK: "You", Color.WHITE: "Computer (easy)"}
    screen = AnalysisScreen(
        game.start,
        game.plies,
        names,
        None,
        STEADY_ANALYSIS,
        glyphs=app.game_screen.glyphs,
        analysis=analysis,
        initial=analysis.turning_point,
    )
    await app.push_screen(screen)
    await _press(pilot, *keys)


async def _analysis_values(pilot: AppPilot) -> None:
    await _analysis(pilot, "n", "v")


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
    Scene("resume", _vs_computer, _resume_dialog),
    Scene("statistics", _vs_computer, _statistics),
    Scene("lobby", _vs_computer, _lobby),
    Scene("challenge", _vs_computer, _challenged),
    Scene("challenging", _vs_computer, _challenging),
    Scene("online-game", _vs_computer, _online_game),
)

#: The analysis screen (issue 21): its own snapshot tests (tests/tui/test_analysis_snapshots.py).
ANALYSIS_SCENES: tuple[Scene, ...] = (
    Scene("analysis", _vs_computer, _analysis),
    Scene("analysis-values", _vs_computer, _analysis_values),
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


async def capture_all(directory: Path, names: Sequence[str] = ()) -> list[Path]:
    """Every scene at every size; only those ``names`` names when given."""
    directory.mkdir(parents=True, exist_ok=True)
    scenes = [s for s in (*SCENES, *ANALYSIS_SCENES) if not names or s.name in names]
    return [await capture(scene, size, directory) for scene in scenes for size in SIZES]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m reversi_tui.screenshots",
        description="Regenerate the app's SVG screenshots, the same on every run.",
    )
    parser.add_argument("--out", default="screenshots", help="directory (default: screenshots)")
    parser.add_argument(
        "--scene",
        action="append",
        default=[],
        metavar="NAME",
        help="only this scene (again for more); every scene by default",
    )
    args = parser.parse_args(argv)
    known = {scene.name for scene in (*SCENES, *ANALYSIS_SCENES)}
    unknown = sorted(set(args.scene) - known)
    if unknown:
        parser.error(f"no scene {', '.join(unknown)}: choose from {', '.join(sorted(known))}")
    for path in asyncio.run(capture_all(Path(args.out), args.scene)):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
