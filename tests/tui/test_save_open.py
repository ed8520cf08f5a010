"""Ctrl+S saves the game to a file, Ctrl+O opens one (a file, a record, a typed path),
``m`` copies the move list: at 80x24, with no traceback for any bad name or file."""

from __future__ import annotations

import os
import re
import stat
from datetime import date
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from reversi_tui.engine import (
    Color,
    Game,
    format_position,
    handicap_position,
    parse_position,
    parse_square,
)
from reversi_tui.match import GameRecord, MatchSettings, PlayerSpec
from reversi_tui.records.formats import (
    SAVED_FORMATS,
    parse_moves_text,
    read_game,
    write_game,
)
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.screens.help import KEYS
from reversi_tui.tui.screens.open_game import OpenGameScreen, saved_files, typed_path
from reversi_tui.tui.screens.save_game import (
    SUFFIXES,
    SaveError,
    SaveGameScreen,
    formats_said,
    proposed_name,
    target_path,
)
from reversi_tui.tui.widgets.board_art import ASCII

from ..fakes import FakeComputer
from .helpers import LAST_MOVE, make_app, settle, ui, wait_until
from .test_ascii import non_ascii, screen_text

OPENING = "f5d6c3d3c4"


def keeper_on(tmp_path: Path) -> GameKeeper:
    return GameKeeper(Places.resolve(tmp_path / "data"))


def games_dir(keeper: GameKeeper) -> Path:
    assert keeper.places is not None
    return keeper.places.games_dir


def full_game() -> Game:
    """A game played to its end, each side taking its first legal move."""
    game = Game()
    while not game.is_over:
        game.play(game.legal_moves[0])
    return game


def write_file(path: Path, record: GameRecord, fmt: str = "pgn") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(write_game(record, fmt))
    return path


def players(black: PlayerSpec, white: PlayerSpec) -> dict[Color, PlayerSpec]:
    return {Color.BLACK: black, Color.WHITE: white}


def two_people(game: Game) -> GameRecord:
    return GameRecord.of(game, players(PlayerSpec.human(), PlayerSpec.human()))


def error_line(app: ReversiApp, name: str) -> str:
    error = app.screen.query_one(name, Static)
    return str(error.render()) if error.display else ""


async def open_save(app: ReversiApp, pilot: Pilot[int]) -> SaveGameScreen:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, SaveGameScreen))
    await pilot.pause()
    assert isinstance(app.screen, SaveGameScreen)
    return app.screen


async def type_name(pilot: Pilot[int], screen: SaveGameScreen | OpenGameScreen, text: str) -> None:
    field = screen.query_one("#save-name" if isinstance(screen, SaveGameScreen) else "#path", Input)
    field.value = text
    field.cursor_position = len(text)
    await pilot.pause()


# Saving ---------------------------------------------------------------------------------
def test_proposed_name_says_date_players_and_level(tmp_path: Path) -> None:
    game = Game.from_moves(None, [parse_square(s) for s in ("f5", "d6")])
    day = date(2026, 11, 23)
    you = GameRecord.of(game, players(PlayerSpec.human(), PlayerSpec.computer("hard")))
    assert proposed_name(you, "Alice Smith", day, tmp_path) == "2026-11-23-alice-smith-vs-hard.pgn"
    them = GameRecord.of(game, players(PlayerSpec.computer("easy"), PlayerSpec.human()))
    assert proposed_name(them, "bob", day, tmp_path) == "2026-11-23-easy-vs-bob.pgn"
    two = two_people(game)
    assert proposed_name(two, "alice", day, tmp_path) == "2026-11-23-black-vs-white.pgn"
    (tmp_path / "2026-11-23-black-vs-white.pgn").write_text("x")
    assert proposed_name(two, "alice", day, tmp_path) == "2026-11-23-black-vs-white-2.pgn"


@pytest.mark.parametrize(
    ("typed", "expected", "fmt"),
    [
        ("mine", "G/mine.pgn", "pgn"),
        ("mine.GGF", "G/mine.GGF", "ggf"),
        ("sub/mine.pgn", "G/sub/mine.pgn", "pgn"),
        ("/abs/x.pgn", "/abs/x.pgn", "pgn"),
        ("~/x.ggf", "~/x.ggf", "ggf"),
    ],
)
def test_target_path_rules(typed: str, expected: str, fmt: str) -> None:
    games = Path("/data/games")
    path, got_fmt = target_path(typed, games)
    want = Path(expected.replace("G", str(games), 1) if expected.startswith("G") else expected)
    assert path == want.expanduser() and got_fmt == fmt


def test_the_save_dialog_takes_its_formats_from_the_registry(tmp_path: Path) -> None:
    assert SUFFIXES == (".pgn", ".ggf")
    assert formats_said() == "PGN, or GGF with a .ggf name"
    record = GameRecord.of(Game(), {c: PlayerSpec.human() for c in Color})
    for fmt in SAVED_FORMATS:
        for suffix in fmt.suffixes:
            path, name = target_path(f"mine{suffix.upper()}", tmp_path)
            assert (path.name, name) == (f"mine{suffix.upper()}", fmt.name)
            write_file(tmp_path / f"listed{suffix}", record, fmt.name)
    (tmp_path / "other.txt").write_text("f5d6")
    listed = sorted(entry.path.suffix for entry in saved_files(tmp_path))
    assert listed == sorted(SUFFIXES)
    with pytest.raises(SaveError, match=r"Name the file \.pgn or \.ggf: \.txt"):
        target_path("mine.txt", tmp_path)


@pytest.mark.parametrize("typed", ["", "   ", "x.txt", "dir/", ".."])
def test_target_path_refuses_bad_names_in_one_line(typed: str) -> None:
    with pytest.raises(SaveError) as raised:
        target_path(typed, Path("/data/games"))
    assert "\n" not in str(raised.value) and str(raised.value)


async def test_ctrl_s_saves_a_pgn_in_a_private_games_directory(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    app = make_app(moves=OPENING, keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_save(app, pilot)
        name = screen.query_one(Input).value
        assert re.fullmatch(r"\d{4}-\d\d-\d\d-black-vs-white\.pgn", name)
        assert screen.query_one(Input).has_focus
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is ui(app))
        saved = games_dir(keeper) / name
        assert saved.is_file()
        assert stat.S_IMODE(games_dir(keeper).stat().st_mode) == 0o700
        imported = read_game(saved.read_text())
        assert imported.record.move_list() == OPENING
        assert "Saved the game (PGN)" in ui(app).status and name in ui(app).status
        assert len(ui(app).game.plies) == 5  # the game goes on untouched


async def test_a_typed_ggf_name_and_an_absolute_path(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    app = make_app(moves=OPENING, keeper=keeper)
    elsewhere = tmp_path / "elsewhere" / "game.pgn"
    elsewhere.parent.mkdir()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_save(app, pilot)
        await type_name(pilot, screen, "mine.ggf")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is ui(app))
        ggf = games_dir(keeper) / "mine.ggf"
        assert ggf.read_text().startswith("(;")
        assert read_game(ggf.read_text()).record.move_list() == OPENING

        screen = await open_save(app, pilot)
        await type_name(pilot, screen, str(elsewhere))
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is ui(app))
        assert read_game(elsewhere.read_text()).record.move_list() == OPENING


async def test_a_name_typed_fast_then_enter_is_saved_whole(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    app = make_app(moves=OPENING, keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_save(app, pilot)
        await type_name(pilot, screen, "")
        # As a terminal sends them: all at once, not one key per frame as Pilot.press does.
        for key, char in [*((c, c) for c in "quick"), ("enter", "\r")]:
            app.post_message(events.Key(key, char))
        await wait_until(pilot, lambda: app.screen is ui(app))
        assert [p.name for p in games_dir(keeper).iterdir()] == ["quick.pgn"]


async def test_the_save_footer_shows_enter_and_esc(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    app = make_app(moves=OPENING, keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_save(app, pilot)
        footer = screen_text(app).splitlines()[-1]
        assert "Save" in footer and "Cancel" in footer
        await pilot.press("tab", "tab")  # Cancel has the focus: Enter presses it
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is ui(app))
        assert not games_dir(keeper).exists()


async def test_saving_over_a_file_asks_first(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    target = games_dir(keeper) / "kept.pgn"
    target.parent.mkdir(parents=True)
    target.write_text("precious")
    app = make_app(moves=OPENING, keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_save(app, pilot)
        await type_name(pilot, screen, "kept")
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is screen)
        assert target.read_text() == "precious"
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is ui(app))
        assert read_game(target.read_text()).record.move_list() == OPENING


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("notes.txt", ".pgn or .ggf"),
        ("/no/such/dir/x.pgn", "no directory"),
        ("", "Type a file name"),
    ],
)
async def test_a_bad_name_is_one_line_in_the_dialog(tmp_path: Path, typed: str, words: str) -> None:
    keeper = keeper_on(tmp_path)
    app = make_app(moves=OPENING, keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_save(app, pilot)
        await type_name(pilot, screen, typed)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # still open, for another try
        message = error_line(app, "#save-error")
        assert words in message and "\n" not in message.strip()
        assert "Traceback" not in message
        await type_name(pilot, screen, "fine.pgn")  # typing clears the message
        assert error_line(app, "#save-error") == ""


async def test_an_unwritable_games_directory_is_one_line(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    (data / "games").write_text("a file where the directory should be")
    app = make_app(moves=OPENING, keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_save(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        message = error_line(app, "#save-error")
        assert message.startswith("Not saved:") and "games" in message


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
async def test_a_read_only_games_directory_is_one_line(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    games = games_dir(keeper)
    games.mkdir(parents=True)
    games.chmod(0o500)
    app = make_app(moves=OPENING, keeper=keeper)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await open_save(app, pilot)
            await pilot.press("enter")
            await pilot.pause()
            assert "not writable" in error_line(app, "#save-error")
    finally:
        games.chmod(0o700)


async def test_escape_cancels_saving(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    app = make_app(moves=OPENING, keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_save(app, pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is ui(app))
        assert not games_dir(keeper).exists() or not list(games_dir(keeper).iterdir())


async def test_without_a_data_directory_the_keys_say_so() -> None:
    app = make_app(moves=OPENING)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for key in ("ctrl+s", "ctrl+o", "s"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is ui(app)
            assert "not available" in ui(app).status


# Opening --------------------------------------------------------------------------------
async def open_dialog(app: ReversiApp, pilot: Pilot[int]) -> OpenGameScreen:
    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: isinstance(app.screen, OpenGameScreen))
    await pilot.pause()
    assert isinstance(app.screen, OpenGameScreen)
    return app.screen


def listed(screen: OpenGameScreen) -> list[str]:
    options = screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_list_shows_files_newest_first_and_unreadable_ones(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    games = games_dir(keeper)
    old = write_file(games / "old.pgn", two_people(Game.from_moves(None, [parse_square("f5")])))
    write_file(games / "new.ggf", two_people(full_game()), "ggf")
    broken = games / "broken.pgn"
    broken.write_bytes(b"\x00\xff\xfe binary")
    os.utime(old, (1_000_000_000, 1_000_000_000))
    os.utime(broken, (1_100_000_000, 1_100_000_000))
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_dialog(app, pilot)
        lines = listed(screen)
        names = [line.split("\n")[0] for line in lines]
        assert names.index("new.ggf") < names.index("broken.pgn") < names.index("old.pgn")
        assert (
            " won: Black " in lines[names.index("new.ggf")]
            or "A draw" in lines[names.index("new.ggf")]
        )
        assert "unfinished, move 2" in lines[names.index("old.pgn")]
        assert "unreadable" in lines[names.index("broken.pgn")]
        # Enter on the unreadable file: one line, the dialog stays
        options = screen.query_one(OptionList)
        options.highlighted = names.index("broken.pgn")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and "not a text file" in error_line(app, "#open-error")


async def test_up_and_down_choose_while_the_path_field_has_the_focus(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    games = games_dir(keeper)
    first = write_file(games / "first.pgn", two_people(Game.from_moves(None, [parse_square("f5")])))
    second = write_file(games / "second.pgn", two_people(full_game()))
    os.utime(first, (2_000_000_000, 2_000_000_000))
    os.utime(second, (1_000_000_000, 1_000_000_000))
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_dialog(app, pilot)
        options = screen.query_one(OptionList)
        assert screen.query_one("#path", Input).has_focus
        assert options.highlighted == 1  # the first file (0 is the heading)
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert ui(app).game.move_list() == full_game().move_list()


async def test_opening_an_unfinished_file_plays_on_from_it(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    game = Game.from_moves(None, [parse_square(s) for s in ("f5", "d6", "c3")])
    write_file(games_dir(keeper) / "three.pgn", two_people(game))
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_dialog(app, pilot)
        await pilot.press("enter")  # the first file is chosen when the dialog opens
        await wait_until(pilot, lambda: app.screen is ui(app))
        await settle(app, pilot)
        assert ui(app).game.move_list() == "f5d6c3"
        assert "Opened three.pgn" in ui(app).status and "move 4" in ui(app).status


async def test_a_finished_file_shows_game_over_and_review(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    game = full_game()
    write_file(games_dir(keeper) / "done.pgn", two_people(game))
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_dialog(app, pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r")
        await wait_until(pilot, lambda: ui(app).reviewing)
        assert ui(app).game.move_list() == game.move_list()
        await pilot.press("left")
        review = ui(app).review
        assert review is not None and review.index < len(game.plies)


async def test_an_illegal_move_names_move_and_square_and_keeps_the_game(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n[Black "a"]\n[White "b"]\n\n1. f5 d6 2. c3 c3\n')
    app = make_app(moves=OPENING, keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_dialog(app, pilot)
        await type_name(pilot, screen, str(bad))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        message = error_line(app, "#open-error")
        assert "bad.pgn" in message and "4" in message and "c3" in message.lower()
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is ui(app))
        assert ui(app).game.move_list() == OPENING


@pytest.mark.parametrize(
    ("content", "words"),
    [(None, "There is no file"), ("", "is empty"), ("hello, world", "hello")],
)
async def test_a_typed_path_that_is_no_game_is_one_line(
    tmp_path: Path, content: str | None, words: str
) -> None:
    keeper = keeper_on(tmp_path)
    path = tmp_path / "typed.pgn"
    if content is not None:
        path.write_text(content)
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_dialog(app, pilot)
        await type_name(pilot, screen, str(path))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        message = error_line(app, "#open-error")
        assert message and "\n" not in message.strip() and "Traceback" not in message
        if words != "hello":
            assert words in message


def test_a_relative_typed_path_looks_in_games_first(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "here.pgn").write_text("x")
    assert typed_path("here.pgn", games, tmp_path / "cwd") == games / "here.pgn"
    assert typed_path("there.pgn", games, tmp_path / "cwd") == tmp_path / "cwd" / "there.pgn"
    assert typed_path("~/x.pgn", games) == Path.home() / "x.pgn"


async def test_opening_over_a_game_in_progress_asks_first(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    write_file(
        games_dir(keeper) / "one.pgn", two_people(Game.from_moves(None, [parse_square("f5")]))
    )
    app = make_app(moves=OPENING, keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_dialog(app, pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is ui(app))
        assert ui(app).game.move_list() == OPENING
        await open_dialog(app, pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is ui(app))
        assert ui(app).game.move_list() == "f5"


async def test_a_recorded_game_opens_with_its_players(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    game = Game(parse_position(LAST_MOVE))
    game.play(parse_square("b8"))
    keeper.add_record(GameRecord.of(game, players(PlayerSpec.human(), PlayerSpec.computer("hard"))))
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_dialog(app, pilot)
        lines = listed(screen)
        assert any("Recent games" in line for line in lines)
        assert any("Computer (hard)" in line and "Black won" in line for line in lines)
        assert any("No saved games" in line for line in lines)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert ui(app).match.settings.white == PlayerSpec.computer("hard")
        assert ui(app).game.position == game.position


async def test_a_file_brings_its_players_a_foreign_one_its_names(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    game = Game.from_moves(None, [parse_square("f5")])
    ours = GameRecord.of(game, players(PlayerSpec.computer("easy"), PlayerSpec.human()))
    write_file(games_dir(keeper) / "ours.pgn", ours)
    foreign = tmp_path / "foreign.pgn"
    foreign.write_text('[Event "club"]\n[Black "Ann"]\n[White "Bob"]\n\n1. f5 d6\n')
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_dialog(app, pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is ui(app))
        await settle(app, pilot)
        assert ui(app).match.settings.black == PlayerSpec.computer("easy")
        # the computer (a stand-in here) plays on as Black: White, a person, is to move
        assert ui(app).match.local_to_move

    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_dialog(app, pilot)
        await type_name(pilot, screen, str(foreign))
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is ui(app))
        settings = ui(app).match.settings
        # The file's own names, never the previous game's players, nor "you".
        assert (settings.black, settings.white) == (
            PlayerSpec.person("Ann"),
            PlayerSpec.person("Bob"),
        )
        assert ui(app).game.move_list() == "f5d6"


async def test_opening_a_file_never_runs_the_engine_it_names(tmp_path: Path) -> None:
    """The critical fault: a file whose player is ``gtp:sh -c ...`` ran that command
    when opened with Ctrl+O. It opens with a person here under the engine's name."""
    from reversi_tui.players import source_factory

    keeper = keeper_on(tmp_path)
    proof = tmp_path / "PWNED"
    path = tmp_path / "evil.pgn"
    path.write_text(
        '[Event "x"]\n[Black "ann"]\n[White "bob"]\n[BlackPlayer "human"]\n'
        f'[WhitePlayer "gtp:sh -c touch${{IFS}}{proof}"]\n\n1. f5 *\n'
    )
    app = ReversiApp(
        MatchSettings(PlayerSpec.human(), PlayerSpec.human()),
        make_source=source_factory({}),
        keeper=keeper,
        delay=0.0,
        reply_delay=0.0,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_dialog(app, pilot)
        await type_name(pilot, screen, str(path))
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is ui(app))
        await settle(app, pilot)
        white = ui(app).match.settings.white
        assert white.is_human and not white.kind.takes_program
        assert ui(app).match.local_to_move  # White, a person here, is to move
        assert "White GTP engine (PWNED)" in screen_text(app)  # its name, not its command
        assert "an engine named in a file never runs" in ui(app).status
        await pilot.press("d", "6")
        await pilot.press("enter")
        await wait_until(pilot, lambda: ui(app).game.move_list() == "f5d6")
        assert not proof.exists()


# Copying --------------------------------------------------------------------------------
async def test_m_copies_the_move_list_and_says_so() -> None:
    app = make_app(moves=OPENING)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("m")
        await pilot.pause()
        assert app.clipboard == OPENING
        assert f"Copied the moves ({OPENING})" in ui(app).status
        assert "OSC 52" in ui(app).status


async def test_m_with_no_moves_says_there_is_nothing_and_c_still_picks_a_column() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("m")
        await pilot.pause()
        assert app.clipboard == "" and "No moves" in ui(app).status
        await pilot.press("c", "4")  # the board's column keys are not taken
        await pilot.pause()
        assert ui(app).board.cursor == parse_square("c4")


async def test_m_copies_a_reviewed_game_too() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        ui(app).board.cursor = parse_square("b8")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r")
        await wait_until(pilot, lambda: ui(app).reviewing)
        await pilot.press("m")
        await pilot.pause()
        assert app.clipboard == f"{LAST_MOVE} b8"  # not the usual start: it leads
        assert read_game(app.clipboard).record.game().position == ui(app).game.position


async def test_m_copies_a_handicap_game_with_its_start_so_the_copy_replays() -> None:
    start = format_position(handicap_position(2, Color.BLACK))
    app = make_app(start=start)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for square in ("f5", "d6", "c3"):
            ui(app).board.cursor = parse_square(square)
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        assert app.clipboard == f"{start} f5d6c3"
        assert "Copied the start position and the moves (f5d6c3)" in ui(app).status
        for copied in (read_game(app.clipboard).record.game(), parse_moves_text(app.clipboard)):
            assert copied.position == ui(app).game.position


# Keys, help, ASCII ----------------------------------------------------------------------
def test_the_help_lists_every_new_key() -> None:
    keys = " ".join(key for key, _ in KEYS)
    for key in ("Ctrl+S", "Ctrl+O", "m", "s"):
        assert key in keys.split(), key


async def test_save_and_open_fit_80x24_and_are_ascii_in_ascii_mode(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    write_file(games_dir(keeper) / "a.pgn", two_people(full_game()))
    game = Game(parse_position(LAST_MOVE))
    game.play(parse_square("b8"))
    keeper.add_record(two_people(game))
    app = make_app(moves=OPENING, keeper=keeper, glyphs=ASCII)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        scenes = {}
        screen = await open_save(app, pilot)
        await type_name(pilot, screen, "x.txt")
        await pilot.press("enter")
        await pilot.pause()
        scenes["save"] = screen_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is ui(app))
        screen2 = await open_dialog(app, pilot)
        await type_name(pilot, screen2, str(tmp_path / "missing.pgn"))
        await pilot.press("enter")
        await pilot.pause()
        scenes["open"] = screen_text(app)
        for widget in screen2.query("*"):
            if widget.display and widget.region.area:
                assert app.screen.region.contains_region(widget.region), widget
        assert {name: non_ascii(text) for name, text in scenes.items()} == {"save": "", "open": ""}
        assert app.ascii_filter is not None and not app.ascii_filter.replaced
        assert "Save game" in scenes["save"] and ".pgn or .ggf" in scenes["save"]
        assert "Open game" in scenes["open"] and "a.pgn" in scenes["open"]


async def test_a_game_against_the_computer_is_named_after_you_and_the_level(
    tmp_path: Path,
) -> None:
    keeper = keeper_on(tmp_path)
    keeper.user = "Ann"
    app = make_app(None, FakeComputer(level="hard"), keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = await open_save(app, pilot)
        assert screen.query_one(Input).value.endswith("-ann-vs-hard.pgn")
