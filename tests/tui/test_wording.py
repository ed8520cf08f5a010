"""What the screens say: counts with the right noun (one disc, two discs) and scores
said one way everywhere (Black's first, the winner in words)."""

from __future__ import annotations

from reversi_tui.engine import Color, Game, Outcome, parse_position, parse_square
from reversi_tui.match import GameRecord, PlayerSpec, Result, Termination
from reversi_tui.tui.screens.game import hint_words
from reversi_tui.tui.screens.game_over import headline, result_text
from reversi_tui.tui.screens.help import help_notes
from reversi_tui.tui.screens.open_game import result_words
from reversi_tui.tui.widgets.sidebar import SIDEBAR_MIN_WIDTH
from reversi_tui.tui.words import plural

from ..fakes import FakeComputer
from .helpers import LAST_MOVE, make_app, ui
from .test_game_screen import finish_last_move


def test_plural_counts_one_and_many() -> None:
    assert plural(1, "disc") == "1 disc"
    assert plural(0, "disc") == "0 discs"
    assert plural(2, "square") == "2 squares"
    assert plural(1, "loss", "losses") == "1 loss"
    assert plural(3, "loss", "losses") == "3 losses"


def test_one_empty_square_goes_to_the_winner() -> None:
    """Issue 17: "1 empty squares go to the winner."."""
    one = result_text(Result.from_board(Outcome(34, 29)))
    assert "1 empty square goes to the winner." in one
    two = result_text(Result.from_board(Outcome(34, 28)))
    assert "2 empty squares go to the winner." in two


def test_a_hint_worth_one_disc_says_disc() -> None:
    assert hint_words(1.2, False, Color.BLACK) == "about +1 disc for Black at the end (estimated)"
    assert hint_words(-1.0, False, Color.WHITE) == "about -1 disc for White at the end (estimated)"
    assert hint_words(0.0, False, Color.WHITE) == "about +0 discs for White at the end (estimated)"


async def test_review_of_a_one_move_game_says_one_move() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_last_move(app, pilot)
        await pilot.press("r", "home")
        assert ui(app).status == "The start position (0 of 1 move)."


# Scores: Black's first, each side named, the winner in words ---------------------------

#: Black 2, White 58 with 4 empty squares: White's final score is 62.
WHITE_WINS = Result.from_board(Outcome(2, 58))


def test_headline_names_the_winner_then_black_and_white() -> None:
    """Issue 17: "You won 64-0!", "Black wins, 60-0." and "White wins, 2-61" read
    both ways; now every score is Black's then White's, each named."""
    assert headline(WHITE_WINS) == "White won: Black 2, White 62"
    assert headline(WHITE_WINS, Color.WHITE) == "You won: Black 2, White 62"
    assert headline(WHITE_WINS, Color.BLACK) == "You lost: Black 2, White 62"
    assert headline(Result.from_board(Outcome(32, 32))) == "A draw: Black 32, White 32"
    resigned = Result.forfeit(Color.BLACK, Termination.RESIGNATION, Outcome(20, 20))
    assert headline(resigned) == "White won by resignation"
    assert result_text(WHITE_WINS).endswith("Final score: Black 2, White 62.")


def test_the_longest_headline_fits_the_narrowest_turn_line() -> None:
    longest = headline(Result.from_board(Outcome(31, 33)))
    assert longest == "White won: Black 31, White 33"
    assert len(longest) <= SIDEBAR_MIN_WIDTH - 3  # the sidebar's padding


def test_a_recorded_result_reads_the_same_way() -> None:
    game = Game(parse_position(LAST_MOVE))
    game.play(parse_square("b8"))
    players = {Color.BLACK: PlayerSpec.human(), Color.WHITE: PlayerSpec.computer("hard")}
    record = GameRecord.of(game, players)
    assert result_words(record) == "Black won: Black 34, White 30"


async def test_dialog_status_and_turn_line_say_the_score_alike() -> None:
    app = make_app(white=FakeComputer(), start=LAST_MOVE)
    async with app.run_test(size=(69, 20)) as pilot:
        await finish_last_move(app, pilot)
        said = "You won: Black 34, White 30"
        assert app.screen.query_one("#headline").render().plain == said + "!"
        details = app.screen.query_one("#details").render().plain
        assert "Final score: Black 34, White 30." in details
        assert ui(app).status == f"Game over. {said}."
        await pilot.press("r")
        turn = ui(app).sidebar.query_one("#turn")
        assert str(turn.render()) == said and turn.content_region.width >= len(said)


async def test_people_at_one_terminal_hear_the_winner_by_colour() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_last_move(app, pilot)
        assert app.screen.query_one("#headline").render().plain == (
            "Black won: Black 34, White 30."
        )


def test_the_help_says_the_score_convention_once() -> None:
    said = [note for note in help_notes(mouse=False) if "Black 31, White 33" in note]
    assert len(said) == 1 and "Black's score and White's" in said[0]
