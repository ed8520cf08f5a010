"""The game screen's rules: dialogs hold the game, one quit rule, a read-only review
with "play from here", footers per screen, numbering, hints, the result dialog."""

from __future__ import annotations

from reversi_tui.engine import Color, parse_square
from reversi_tui.match import MatchSettings, PlayerSpec
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game import GameScreen, hint_words
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.screens.help import HelpScreen
from reversi_tui.tui.screens.new_game import NewGameScreen
from reversi_tui.tui.widgets.board import Board
from reversi_tui.tui.widgets.footer import KeyFooter
from reversi_tui.tui.widgets.sidebar import move_text

from ..fakes import FakeComputer
from .helpers import LAST_MOVE, make_app, settle, ui, wait_until

OPENING = "f5d6c3d3c4f4f6f3e6e7"


def footer_text(app: object) -> str:
    footer = app.screen.query_one(KeyFooter)  # type: ignore[attr-defined]
    return " ".join(str(key.render()) for key in footer.query("FooterKey"))


async def finish_last_move(app, pilot) -> None:  # type: ignore[no-untyped-def]
    ui(app).board.cursor = parse_square("b8")
    await pilot.press("enter")
    assert isinstance(app.screen, GameOverScreen)


# Dialogs hold computer against computer -------------------------------------------------


async def test_every_dialog_holds_computer_against_computer() -> None:
    black, white = FakeComputer(gated=True), FakeComputer(gated=True)
    app = make_app(black, white)
    async with app.run_test(size=(80, 24)) as pilot:
        for key, dialog in (
            ("n", NewGameScreen),
            ("question_mark", HelpScreen),
            ("ctrl+q", ConfirmScreen),
        ):
            plies = len(ui(app).game.plies)
            mover = black if ui(app).game.turn is Color.BLACK else white
            await wait_until(pilot, lambda m=mover: ui(app).thinking and m.started.is_set())
            await pilot.press(key)
            assert isinstance(app.screen, dialog)
            assert ui(app).match.held
            mover.gate.set()  # the search may finish under the dialog...
            await wait_until(pilot, mover.answered.is_set)
            for _ in range(5):
                await pilot.pause()
            assert len(ui(app).game.plies) == plies  # ... but its move waits
            mover.gate.clear()
            mover.answered.clear()
            mover.started.clear()
            await pilot.press("n" if dialog is ConfirmScreen else "escape")
            assert not ui(app).match.held
            await wait_until(pilot, lambda n=plies: len(ui(app).game.plies) == n + 1)


async def test_the_same_dialog_is_never_pushed_twice() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = ui(app)
        screen.action_new_game()
        screen.action_new_game()
        await pilot.pause()
        assert sum(isinstance(s, NewGameScreen) for s in app.screen_stack) == 1
        screen.action_quit_game()
        screen.action_quit_game()
        await pilot.pause()
        assert sum(isinstance(s, ConfirmScreen) for s in app.screen_stack) == 1


async def test_the_game_over_dialog_waits_for_an_open_dialog() -> None:
    black = FakeComputer(["b8"], gated=True)
    app = make_app(black, start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: ui(app).thinking)
        await pilot.press("n")
        black.gate.set()
        await wait_until(pilot, black.answered.is_set)
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert not any(isinstance(s, GameOverScreen) for s in app.screen_stack)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))


# One quit rule --------------------------------------------------------------------------


async def test_ctrl_q_and_ctrl_c_ask_during_a_game() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        for key in ("ctrl+q", "ctrl+c"):
            await pilot.press(key)
            assert isinstance(app.screen, ConfirmScreen), key
            await pilot.press("n")
            assert app.is_running and not app._notifications
        await pilot.press("ctrl+c", "y")
        await pilot.pause()
        assert app.return_value == 0


async def test_ctrl_q_quits_at_once_before_the_first_move() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_value == 0 and not isinstance(app.screen, ConfirmScreen)


# Review ---------------------------------------------------------------------------------
def shown(screen: GameScreen) -> int | None:
    """How many plies the review shows (None: the game is live)."""
    return None if screen.review is None else screen.review.index


async def test_review_is_read_only_and_shows_the_whole_game() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_last_move(app, pilot)
        await pilot.press("r")
        screen = ui(app)
        assert screen.reviewing
        await pilot.press("left")  # the arrows walk the game in review, not the cursor
        assert shown(screen) == 0
        assert "reviewing 0/1" in str(screen.sidebar.query_one("#moves-title").render())
        assert "Black won: Black 34, White 30" in str(screen.sidebar.query_one("#turn").render())
        await pilot.press("enter")  # read-only: nothing is played
        assert screen.game.is_over and len(screen.game.plies) == 1
        assert "taken back" not in screen.status and "Took back" not in screen.status
        await pilot.press("end")
        assert shown(screen) == 1
        await pilot.press("home")
        assert shown(screen) == 0
        await pilot.press("right")
        assert shown(screen) == 1
        assert "reviewing 1/1" in str(screen.sidebar.query_one("#moves-title").render())


async def test_review_highlights_the_shown_move_in_the_full_list() -> None:
    app = make_app(moves=OPENING)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = ui(app)
        screen._enter_review()  # as after a finished game
        await pilot.press("left", "left", "left")
        text, row = move_text(screen.game.plies, shown(screen))
        assert "e7" in text.plain  # the moves after the shown one stay listed
        marked = [text.plain[s.start : s.end] for s in text.spans if "reverse" in str(s.style)]
        assert [m.split()[-1] for m in marked] == ["f6"]  # move 7 of 10
        assert row == 3
        assert screen.sidebar.query_one("#moves-text").render().plain == text.plain
        assert "reviewing 7/10" in str(screen.sidebar.query_one("#moves-title").render())


async def test_play_from_here_asks_then_plays_on_from_the_shown_move() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_last_move(app, pilot)
        await pilot.press("r")
        screen = ui(app)
        await pilot.press("p")  # at the end of the game there is nothing to play on
        assert not isinstance(app.screen, ConfirmScreen)
        await pilot.press("left", "p")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert screen.reviewing and screen.game.is_over
        await pilot.press("p", "y")
        await pilot.pause()
        assert not screen.reviewing
        assert screen.game.plies == () and not screen.game.is_over
        assert screen.board.view.markers == 1 << parse_square("b8")


async def test_space_in_a_computer_review_explains_itself() -> None:
    app = make_app(FakeComputer(["b8"]), FakeComputer(), start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r", "space")
        status = ui(app).status
        assert "Paused" not in status and "Resumed" not in status
        assert "read-only" in status


# Markers, undo, numbering, hints -------------------------------------------------------


async def test_markers_only_while_a_person_here_is_to_move() -> None:
    white = FakeComputer(gated=True)
    app = make_app(white=white)
    async with app.run_test(size=(80, 24)) as pilot:
        assert ui(app).board.view.markers
        await pilot.press("enter")
        await wait_until(pilot, lambda: ui(app).thinking)
        assert ui(app).board.view.markers == 0
        white.gate.set()
        await settle(app, pilot)
        assert ui(app).board.view.markers == ui(app).game.position.legal_mask


async def test_markers_never_in_computer_against_computer() -> None:
    black, white = FakeComputer(gated=True), FakeComputer(gated=True)
    app = make_app(black, white)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: ui(app).thinking)
        assert ui(app).board.view.markers == 0
        await pilot.press("space")
        assert ui(app).paused and ui(app).board.view.markers == 0


async def test_undo_with_nothing_of_yours_says_so() -> None:
    settings = MatchSettings(PlayerSpec.computer("easy"), PlayerSpec.human())
    black = FakeComputer()
    app = make_app(black)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = ui(app)
        screen._start_new_game(settings)
        await settle(app, pilot)
        opening = screen.game.plies
        assert len(opening) == 1
        await pilot.press("u")
        await settle(app, pilot)
        assert screen.status == "Nothing to undo."
        assert screen.game.plies == opening


async def test_the_turn_line_and_the_move_list_count_alike() -> None:
    app = make_app(moves=OPENING)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        turn = str(ui(app).sidebar.query_one("#turn").render())
        moves = ui(app).sidebar.query_one("#moves-text").render().plain
        assert turn.startswith("Move 11 ")
        assert "10. e7" in moves and " 9. e6" in moves and "11." not in moves


def test_hint_words_say_what_the_number_means() -> None:
    assert hint_words(2.4, False, Color.BLACK) == "about +2 discs for Black at the end (estimated)"
    assert hint_words(12.0, True, Color.WHITE) == "exact: White wins by 12 with best play"
    assert hint_words(-6.0, True, Color.BLACK) == "exact: Black loses by 6 with best play"
    assert hint_words(0.0, True, Color.BLACK) == "exact: a draw with best play"


async def test_hint_in_computer_against_computer_is_for_the_side_to_move() -> None:
    app = make_app(FakeComputer(gated=True), FakeComputer(gated=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: ui(app).thinking)
        await pilot.press("i")
        await wait_until(pilot, lambda: ui(app).status.startswith("Hint for Black"))
        assert "your" not in ui(app).status and "Enter plays" not in ui(app).status


# Footers and the result dialog -----------------------------------------------------------


async def test_each_screen_shows_its_own_keys() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        assert "Hint" in footer_text(app)
        await pilot.press("q")
        keys = footer_text(app)
        assert "Yes" in keys and "Hint" not in keys


async def test_game_over_dialog_speaks_to_the_player_and_leaves_the_board_visible() -> None:
    app = make_app(white=FakeComputer(), start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_last_move(app, pilot)
        assert app.screen.query_one("#headline").render().plain == "You won: Black 34, White 30!"
        dialog = app.screen.query_one(".dialog").region
        board = ui(app).query_one(Board).region
        assert not dialog.overlaps(board)
        for button in app.screen.query("Button"):
            assert "(" in str(button.label)  # every button shows its key


async def test_footer_offers_play_only_when_the_board_takes_a_move() -> None:
    white = FakeComputer(gated=True)
    app = make_app(white=white)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        assert "Play" in footer_text(app) and "Pause" not in footer_text(app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: ui(app).thinking)
        await pilot.pause()
        assert "Play" not in footer_text(app)
        await pilot.press("enter")  # the board takes no move now: the status says why
        assert ui(app).status == "Wait: White (Computer (medium)) is to move."
        white.gate.set()
        await settle(app, pilot)
        assert "Play" in footer_text(app)


async def test_footer_offers_pause_in_computer_against_computer() -> None:
    app = make_app(FakeComputer(gated=True), FakeComputer(gated=True))
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, lambda: ui(app).thinking)
        await pilot.pause()
        keys = footer_text(app)
        assert "Pause" in keys and "Play" not in keys and "Next" not in keys
        await pilot.press("space")
        assert ui(app).paused
        await pilot.press("space")
        assert not ui(app).paused


async def test_the_sidebar_shows_a_handicap_only_when_there_is_one() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        handicap = ui(app).sidebar.query_one("#handicap")
        assert not handicap.display
        settings = MatchSettings(PlayerSpec.human(), PlayerSpec.human(), 2, Color.WHITE)
        ui(app)._start_new_game(settings)
        await pilot.pause()
        assert handicap.display
        assert str(handicap.render()) == "Handicap: 2 corners for White"


async def test_a_dialog_answered_twice_in_one_burst_closes_once() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "q")
        assert isinstance(app.screen, ConfirmScreen)
        for key in ("n", "enter", "escape"):  # as a terminal delivers a burst: no pause between
            app.simulate_key(key)
        await pilot.pause()
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, ConfirmScreen)
        assert ui(app).match.in_progress
