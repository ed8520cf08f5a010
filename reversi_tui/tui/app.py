"""The Reversi app: wires the Game to the views and runs the turn loop.

Data flows one way: a key, click or the computer's search becomes a move, the
Game applies it, and the board and sidebar re-render from the Game. The
computer searches in a thread worker with a ``threading.Event`` as its stop
check, so the interface never freezes and undo, new game or quit stop a search
at once; every result carries a token, and a result for a position that is no
longer on the board is dropped.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Button, Footer

from reversi_tui.engine import Color, Game, Ply, Position, square_name
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import Choice, GameOverScreen
from reversi_tui.tui.screens.help import HelpScreen
from reversi_tui.tui.screens.new_game import NewGameScreen, NewGameSettings
from reversi_tui.tui.themes import BOARD_VARIABLES, DEFAULT_THEME, THEMES
from reversi_tui.tui.thinking import (
    Advisor,
    ComputerMoved,
    HintFound,
    default_advisor,
    search_hint,
    search_move,
)
from reversi_tui.tui.widgets.board import Board
from reversi_tui.tui.widgets.board_art import ASCII, UNICODE, Glyphs
from reversi_tui.tui.widgets.sidebar import SIDEBAR_MIN_WIDTH, Sidebar
from reversi_tui.tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmall

if TYPE_CHECKING:
    from reversi_tui.players import Player

PlayerFactory = Callable[[str], "Player"]


def choice_of(player: Player) -> str:
    """The ``--black``/``--white`` spelling of a player, for the new-game dialog."""
    return "human" if player.is_human else str(getattr(player, "level", "medium"))


class ReversiApp(App[int]):
    """Reversi against the computer, a friend, or computer against computer."""

    CSS_PATH = "app.tcss"
    TITLE = "Reversi"
    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-wide-enough")]
    VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-tall-enough")]
    BINDINGS = [
        Binding("i", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("U,shift+u,ctrl+r", "redo", "Redo", key_display="U"),
        Binding("n", "new_game", "New"),
        Binding("q", "quit_game", "Quit"),
        Binding("question_mark", "help", "Help", key_display="?"),
    ]

    #: True while the computer searches (shown in the sidebar).
    thinking: var[bool] = var(False)
    #: Computer versus computer: Space stops and restarts the clock.
    paused: var[bool] = var(False)
    #: After a finished game: undo/redo walk the moves and the computer never plays.
    reviewing: var[bool] = var(False)

    def __init__(
        self,
        game: Game,
        players: dict[Color, Player],
        *,
        glyphs: Glyphs = UNICODE,
        delay: float = 0.5,
        advisor: Advisor | None = None,
        player_factory: PlayerFactory | None = None,
        theme: str = DEFAULT_THEME,
    ) -> None:
        super().__init__()
        for t in THEMES:
            self.register_theme(t)
        self.theme = theme
        self.game = game
        self.players = dict(players)
        self.glyphs = glyphs
        self.delay = delay
        self._advisor = advisor or default_advisor
        self._make_player = player_factory or _default_factory(None, None)
        self._stop = threading.Event()
        self._hint_stop = threading.Event()
        self._token = 0  # bumped whenever the position changes or a search is cancelled
        self.status = ""
        #: Keep move highlights on instead of fading them (screenshots).
        self.hold_highlights = False

    # Composition -------------------------------------------------------------------
    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(BOARD_VARIABLES)

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield Board(self.game, self.glyphs, reserve_width=SIDEBAR_MIN_WIDTH, id="board")
            yield Sidebar(self.glyphs, id="sidebar")
        yield TooSmall(id="too-small")
        yield _Footer()

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    @property
    def sidebar(self) -> Sidebar:
        return self.query_one(Sidebar)

    def on_mount(self) -> None:
        legal = self.game.position.legal_moves
        if legal:
            self.board.cursor = legal[0]
        self._refresh_views()
        humans = self._humans()
        if len(humans) == 1:
            you = humans[0]
            self.set_status(
                f"You play {you.title} against {self.players[you.opponent].label}. "
                "Press n to change players, ? for help."
            )
        else:
            self.set_status("Press n to change players, ? for help.")
        self._advance()

    # Views -------------------------------------------------------------------------
    def set_status(self, text: str) -> None:
        self.status = text
        self.sidebar.set_status(text)

    def _turn_text(self) -> str:
        game = self.game
        if game.is_over:
            return "Game over" + (" - reviewing" if self.reviewing else "")
        color = game.turn
        player = self.players[color]
        if self.thinking:
            return f"Move {game.move_number} · {color.title} thinking…"
        if self.paused:
            return f"Move {game.move_number} · paused"
        you = " (you)" if player.is_human and len(self._humans()) == 1 else ""
        return f"Move {game.move_number} · {color.title} to play{you}"

    def _refresh_views(self, *, flash: int = 0, moves_changed: bool = True) -> None:
        self.board.sync(flash=flash, hold=self.hold_highlights)
        self.sidebar.show(self.game, self.players, self._turn_text(), moves_changed=moves_changed)

    def watch_thinking(self) -> None:
        if self.is_mounted:
            self.sidebar.show(self.game, self.players, self._turn_text(), moves_changed=False)

    watch_paused = watch_thinking

    # The turn loop -----------------------------------------------------------------
    def _humans(self) -> list[Color]:
        return [c for c in Color if self.players[c].is_human]

    def _advance(self) -> None:
        """Start the computer if it is its turn; nothing to do for a human."""
        if self.game.is_over or self.reviewing or self.paused:
            return
        player = self.players[self.game.turn]
        if player.is_human:
            return
        self._stop = threading.Event()
        self._token += 1
        delay = self.delay if not self._humans() else 0.0
        self.thinking = True
        job = partial(
            search_move,
            self.post_message,
            self.game.position,
            player,
            self._stop,
            self._token,
            delay,
        )
        self.run_worker(job, thread=True, exclusive=True, group="ai")

    def on_computer_moved(self, message: ComputerMoved) -> None:
        if not self._current(message.token, message.position):
            return  # a search for a position since undone or replaced, or the app is closing
        self.thinking = False
        color = self.game.turn
        self._play(message.result.move, f"{color.title} played {square_name(message.result.move)}.")

    def _current(self, token: int, position: Position) -> bool:
        """Whether a worker's result still belongs on the board."""
        return self.is_running and token == self._token and position == self.game.position

    def _cancel_search(self) -> None:
        self._stop.set()
        self._hint_stop.set()
        self._token += 1
        self.workers.cancel_group(self, "ai")
        self.workers.cancel_group(self, "hint")
        self.thinking = False

    def _play(self, move: int, status: str) -> None:
        self._hint_stop.set()
        self._token += 1
        plies = self.game.play(move)
        self.reviewing = False
        self._announce(plies, status)
        self._refresh_views(flash=_flash_mask(plies))
        if self.game.is_over:
            self._game_over()
        else:
            self._advance()

    def _announce(self, plies: list[Ply], status: str) -> None:
        for ply in plies:
            if ply.is_pass:
                notice = f"{ply.color.title} has no legal move and passes."
                self.notify(notice, title="Pass", timeout=4)
                status = f"{status} {notice}".strip()
        self.set_status(status)

    def _game_over(self) -> None:
        outcome = self.game.outcome()
        winner = "Draw" if outcome.winner is None else f"{outcome.winner.title} wins"
        self.set_status(f"Game over: {winner}, {outcome.black}-{outcome.white}.")
        self.clear_notifications()  # a pass toast must not cover the result
        self.push_screen(GameOverScreen(outcome), self._after_game_over)

    def _after_game_over(self, choice: Choice | None) -> None:
        self.reviewing = True  # also where "New game" or "Quit" land if cancelled
        self.set_status("Reviewing: u and U walk through the game, n starts a new game.")
        self._refresh_views(moves_changed=False)
        if choice == "new":
            self.action_new_game()
        elif choice == "quit":
            self._confirm_quit()

    # Board input -------------------------------------------------------------------
    def on_board_chosen(self, message: Board.Chosen) -> None:
        game = self.game
        if not self._humans():
            if message.key == "space":
                self.action_toggle_pause()
            else:
                self.set_status("The computer plays both sides: Space pauses, n starts a new game.")
            return
        if game.is_over:
            self.set_status("The game is over: u and U walk through it, n starts a new game.")
            return
        color = game.turn
        if not self.players[color].is_human:
            if self.reviewing:
                self.set_status(
                    f"Reviewing: {color.title} ({self.players[color].label}) moves here; "
                    "u and U walk through the game, n starts a new game."
                )
            else:
                self.set_status(f"Wait: {color.title} ({self.players[color].label}) is to move.")
            return
        sq = message.square
        reason = _why_illegal(game.position, sq)
        if reason:
            self.set_status(reason)
            return
        self._play(sq, f"{color.title} played {square_name(sq)}.")

    def action_toggle_pause(self) -> None:
        if self._humans() or self.game.is_over:
            return
        self.paused = not self.paused
        if self.paused:
            self._cancel_search()
            self.set_status("Paused: Space resumes.")
        else:
            self.set_status("Resumed: Space pauses.")
            self._advance()

    # Actions -----------------------------------------------------------------------
    def action_undo(self) -> None:
        self._cancel_search()
        game = self.game
        if not game.can_undo:
            self.set_status("Nothing to undo.")
            self._advance()
            return
        taken = game.undo()
        if not self._humans() and not self.reviewing:
            self.paused = True
        elif not self.reviewing:
            while not self.players[game.turn].is_human and game.can_undo:
                taken = game.undo() + taken
        moves = " ".join(square_name(p.move) for p in taken if not p.is_pass)
        self.set_status(f"Took back {moves}." + (" Space resumes." if self.paused else ""))
        self._refresh_views()
        self._advance()

    def action_redo(self) -> None:
        self._cancel_search()
        game = self.game
        if not game.can_redo:
            self.set_status("Nothing to redo.")
            self._advance()
            return
        plies = game.redo()
        if self._humans() and not self.reviewing:
            while game.can_redo and not self.players[game.turn].is_human:
                plies += game.redo()
        moves = " ".join(square_name(p.move) for p in plies)
        self.set_status(f"Played again: {moves}.")
        self._refresh_views(flash=_flash_mask(plies))
        self._advance()

    def action_hint(self) -> None:
        game = self.game
        if game.is_over:
            self.set_status("The game is over: no hint needed.")
            return
        if not self.players[game.turn].is_human:
            self.set_status("Hints are for a human's move; wait for your turn.")
            return
        self._hint_stop.set()
        self._hint_stop = threading.Event()
        self.set_status("Looking for a hint…")
        job = partial(
            search_hint,
            self.post_message,
            self._advisor,
            game.position,
            self._hint_stop,
            self._token,
        )
        self.run_worker(job, thread=True, exclusive=True, group="hint")

    def on_hint_found(self, message: HintFound) -> None:
        if not self._current(message.token, message.position):
            return
        result = message.result
        color = message.position.turn
        kind = "exact" if result.exact else "estimated"
        self.board.cursor = result.move
        self.set_status(
            f"Hint: {square_name(result.move)}, evaluation {result.score:+.1f} "
            f"for {color.title} ({kind}). Enter plays it."
        )

    def action_new_game(self) -> None:
        current = NewGameSettings(
            black=choice_of(self.players[Color.BLACK]),
            white=choice_of(self.players[Color.WHITE]),
        )
        in_progress = self.game.can_undo and not self.game.is_over
        self.push_screen(NewGameScreen(current, in_progress=in_progress), self._start_new_game)

    def _start_new_game(self, settings: NewGameSettings | None) -> None:
        if settings is None:
            return
        self._cancel_search()
        self.players = {
            Color.BLACK: self._make_player(settings.black),
            Color.WHITE: self._make_player(settings.white),
        }
        self.game = Game.with_handicap(settings.handicap, settings.handicap_colour)
        self.reviewing = False
        self.paused = False
        self.board.show_game(self.game)
        legal = self.game.position.legal_moves
        if legal:
            self.board.cursor = legal[0]
        black, white = (self.players[c].label for c in Color)
        self.set_status(f"New game: {black} (Black) against {white} (White).")
        self._refresh_views()
        self._advance()

    def action_quit_game(self) -> None:
        if self.game.can_undo and not self.game.is_over:
            self._confirm_quit()
        else:
            self._quit()

    def _confirm_quit(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self._quit()

        self.push_screen(
            ConfirmScreen(
                "Quit?", "Leave Reversi? This game will be lost.", "Quit", "Keep playing"
            ),
            answer,
        )

    def _quit(self) -> None:
        self._cancel_search()
        self.exit(0)

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "new-game":
            self.action_new_game()


def _flash_mask(plies: list[Ply]) -> int:
    mask = 0
    for ply in plies:
        if not ply.is_pass:
            mask |= ply.flipped | 1 << ply.move
    return mask


def _why_illegal(position: Position, sq: int) -> str:
    """Why a square cannot be played, or "" when it can."""
    name = square_name(sq)
    if position.color_at(sq) is not None:
        return f"{name} is taken: choose an empty square (Tab jumps to a legal move)."
    if not position.flips(sq):
        them = position.turn.opponent.title
        return f"{name} flips nothing: a move must trap {them} discs in a line. Tab finds one."
    return ""


class _Footer(Footer):
    """Textual's Footer, composed as soon as the bindings are known, not a frame later.

    The stock footer waits for a refresh before it recomposes, which left the bottom
    line blank for about 0.1 s after the board appeared at start-up.
    """

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if self.app.app_focus and self.is_attached and screen is self.screen:
            self.call_later(self.recompose)


def _default_factory(think_time: float | None, seed: int | None) -> PlayerFactory:
    def make(choice: str) -> Player:
        from reversi_tui.players import make_player

        return make_player(choice, think_time, seed)

    return make


def run_app(game: Game, players: dict[Color, Player], args: argparse.Namespace) -> int:
    """Run the app on the terminal; the exit code for the command line."""
    theme = args.theme or DEFAULT_THEME
    app = ReversiApp(
        game,
        players,
        glyphs=ASCII if args.ascii else UNICODE,
        delay=args.delay,
        player_factory=_default_factory(args.think_time, args.seed),
        theme=DEFAULT_THEME,
    )
    if theme not in app.available_themes:
        names = ", ".join(sorted(app.available_themes))
        print(f"reversi: unknown theme {theme!r}; choose one of: {names}", file=sys.stderr)
        return 2
    app.theme = theme
    # The computer searches in a thread; handing the GIL over every millisecond instead of
    # every 5 keeps keys answered while it thinks, for a negligible cost to the search.
    sys.setswitchinterval(0.001)
    result = app.run(mouse=not args.no_mouse)
    return result if isinstance(result, int) else (app.return_code or 0)
