"""Playing through the app: keyboard, mouse, passes, undo/redo and the computer's turn."""

from __future__ import annotations

from reversi_tui.engine import PASS, Color, Position, parse_position, parse_square
from reversi_tui.match import MatchSettings, MatchState, PlayerSpec
from reversi_tui.match.sources import MoveSource
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.widgets.board import Board

from ..fakes import FakeComputer, fake_sources
from .helpers import LAST_MOVE, PASS_FOLLOWS, cell_offset, make_app, settle, ui, wait_until


async def test_whole_game_keyboard_only_against_the_computer() -> None:
    """Tab and Enter alone play a full game; the result dialog opens on Review board."""
    app = make_app(white=FakeComputer())
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(70):
            if ui(app).game.is_over:
                break
            await pilot.press("tab", "enter")
            await settle(app, pilot)
        assert ui(app).game.is_over
        assert isinstance(app.screen, GameOverScreen)
        assert app.screen.focused is not None and app.screen.focused.id == "review"
        await pilot.press("enter")
        screen = ui(app)
        assert screen.reviewing
        plies = screen.game.plies
        final = screen.board.view.position
        await pilot.press("u")  # review walks an index back; the finished game stays as it was
        assert screen.review is not None and screen.review.index < len(plies)
        assert screen.game.plies == plies and screen.game.is_over
        assert screen.board.view.position == plies[screen.review.index - 1].after
        assert screen.board.view.markers == 0  # review is read-only
        await pilot.press("enter")  # ... so Enter plays nothing
        assert screen.game.plies == plies
        await pilot.press("U")
        assert screen.review is not None and screen.review.index == len(plies)
        assert screen.board.view.position == final
        assert not isinstance(app.screen, GameOverScreen)


async def test_enter_plays_at_cursor_and_updates_sidebar() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert ui(app).board.cursor == parse_square("d3")
        await pilot.press("enter")
        assert ui(app).game.moves == [parse_square("d3")]
        assert "d3" in ui(app).sidebar.query_one("#moves-text").render().plain
        assert ui(app).status == "Black played d3."


async def test_cursor_keys_and_typed_coordinates() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = ui(app).board
        await pilot.press("down", "l", "right", "k", "up", "left")
        assert board.cursor == parse_square("e2")
        await pilot.press("f", "6")
        assert board.cursor == parse_square("f6")
        await pilot.press("h")  # moves left at once ...
        assert board.cursor == parse_square("e6")
        await pilot.press("5")  # ... and a digit right after makes it column h
        assert board.cursor == parse_square("h5")
        await pilot.press("c", "escape")  # Escape forgets the column: the digit no longer counts
        await pilot.press("2")
        assert board.cursor == parse_square("h5")


async def test_tab_cycles_legal_moves() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        seen = []
        for _ in range(4):
            await pilot.press("tab")
            seen.append(ui(app).board.cursor)
        assert sorted(seen) == sorted(Position.initial().legal_moves)
        await pilot.press("shift+tab")
        assert ui(app).board.cursor == seen[-2]


async def test_mouse_click_plays_a_legal_square() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click(Board, offset=cell_offset(ui(app).board, "f5"))
        assert ui(app).game.moves == [parse_square("f5")]


async def test_click_on_illegal_square_says_why() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click(Board, offset=cell_offset(ui(app).board, "a1"))
        assert ui(app).game.moves == []
        assert "a1 flips nothing" in ui(app).status
        await pilot.click(Board, offset=cell_offset(ui(app).board, "d4"))
        assert "d4 is taken" in ui(app).status


async def test_hover_moves_cursor_and_previews_flips() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.hover(Board, offset=cell_offset(ui(app).board, "d3"))
        assert ui(app).board.cursor == parse_square("d3")
        assert ui(app).board.preview == 1 << parse_square("d4")
        await pilot.hover(Board, offset=cell_offset(ui(app).board, "a8"))
        assert ui(app).board.preview == 0


async def test_forced_pass_is_announced_and_listed() -> None:
    app = make_app(start=PASS_FOLLOWS)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.click(Board, offset=cell_offset(ui(app).board, "a1"))
        assert ui(app).game.moves == [parse_square("a1"), PASS]
        assert "Black has no legal move and passes." in ui(app).status
        # No toast over the status line or the move list: the turn line lights up instead.
        assert not app._notifications
        turn = ui(app).sidebar.query_one("#turn")
        assert turn.has_class("-alert")
        assert "Black passed: White again" in turn.render().plain
        assert "pass" in ui(app).sidebar.query_one("#moves-text").render().plain
        assert ui(app).game.turn is Color.WHITE
        await pilot.press("tab", "enter")  # White moves: the alert ends
        await pilot.pause()
        assert not turn.has_class("-alert")


async def test_undo_takes_back_the_computers_reply_and_redo_replays_it() -> None:
    computer = FakeComputer()
    app = make_app(white=computer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await settle(app, pilot)
        assert len(ui(app).game.plies) == 2
        await pilot.press("u")
        assert ui(app).game.plies == ()
        assert ui(app).game.turn is Color.BLACK
        await pilot.press("U")
        assert len(ui(app).game.plies) == 2
        await pilot.press("u", "ctrl+r")
        assert len(ui(app).game.plies) == 2
        assert computer.searches == 1


async def test_undo_cancels_a_search_in_progress() -> None:
    computer = FakeComputer(gated=True)
    app = make_app(white=computer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        assert ui(app).thinking
        await pilot.press("u")
        assert not ui(app).thinking
        assert ui(app).game.plies == ()
        computer.gate.set()
        await settle(app, pilot)
        assert ui(app).game.plies == ()


async def test_computer_move_arrives_while_the_user_moves_the_cursor() -> None:
    computer = FakeComputer(gated=True)
    app = make_app(white=computer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        assert ui(app).thinking
        await pilot.press("down", "down", "right", "right", "enter")  # f5: still legal after c3
        assert "Wait" in ui(app).status
        cursor = ui(app).board.cursor
        computer.gate.set()
        await settle(app, pilot)
        await pilot.press("left")
        assert not ui(app).thinking
        assert len(ui(app).game.plies) == 2
        assert ui(app).board.cursor == cursor - 1
        assert ui(app).status.startswith("White played")


async def test_hint_moves_the_cursor_without_playing() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i")
        await settle(app, pilot)
        assert ui(app).game.plies == ()
        assert ui(app).board.cursor == Position.initial().legal_moves[-1]
        assert ui(app).status.startswith("Hint: e6")


async def test_computer_versus_computer_pauses_with_space() -> None:
    white = FakeComputer(gated=True)
    app = make_app(FakeComputer(), white)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, white.started.is_set)
        assert len(ui(app).game.plies) == 1  # black moved, white is thinking
        await pilot.press("space")
        assert ui(app).match.state is MatchState.PAUSED and not ui(app).thinking
        assert ui(app).status == "Paused: Space resumes."
        await pilot.press("space")
        await wait_until(pilot, lambda: ui(app).thinking)
        assert not ui(app).paused
        white.gate.set()
        await wait_until(pilot, lambda: len(ui(app).game.plies) >= 3)


async def test_last_move_ends_the_game_with_the_result() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        ui(app).board.cursor = parse_square("b8")
        await pilot.press("enter")
        assert ui(app).game.is_over
        assert isinstance(app.screen, GameOverScreen)
        text = app.screen.query_one("#headline").render().plain
        assert text == "Black won: Black 34, White 30."
        details = app.screen.query_one("#details").render().plain
        assert "Black 34, White 30" in details
        assert parse_position(LAST_MOVE).turn is Color.BLACK


async def test_a_search_that_crashes_is_reported_and_the_app_lives_on() -> None:
    broken = FakeComputer(error=RuntimeError("evaluation table missing"))
    app = make_app(white=broken)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app._notifications))
        notice = next(iter(app._notifications))
        assert notice.severity == "error" and "evaluation table missing" in notice.message
        assert app.is_running and "Stopped by an error" in ui(app).status
        broken.error = None  # undo restarts the turn loop, and the game goes on
        await pilot.press("u")
        assert ui(app).game.plies == ()
        await pilot.press("enter")
        await settle(app, pilot)
        assert len(ui(app).game.plies) == 2


async def test_new_game_gives_each_colour_its_own_seed_as_at_start() -> None:
    seeds: list[tuple[str, int | None]] = []
    inner = fake_sources()

    def recording(spec: PlayerSpec, seed: int | None) -> MoveSource:
        seeds.append((spec.choice, seed))
        return inner(spec, seed)

    settings = MatchSettings(PlayerSpec.human(), PlayerSpec.computer("easy"), seed=5)
    app = ReversiApp(settings, make_source=recording, delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "y")
        await settle(app, pilot)
    assert seeds == [("human", 5), ("easy", 6)] * 2
