"""The game screen: the board and sidebar of one match, and the keys that steer it.

The screen owns a ``Match`` and runs its turn loop in a Textual worker; it never
decides who moves or how. A key or click becomes ``match.offer``; undo, redo,
pause and new game are calls on the match; the match's events repaint the views
from values (a ``BoardView``, counts, the move list). After the game ends,
review walks an index over the finished record; the live game is never rewound.
"""

from __future__ import annotations

import threading
from functools import partial

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import Worker, WorkerState

from reversi_tui.engine import Color, Game, Ply, Position, square_name
from reversi_tui.match import (
    Change,
    Changed,
    GameOver,
    Match,
    MatchEvent,
    MatchSettings,
    Passed,
    Result,
    StateChanged,
)
from reversi_tui.match.sources import SourceFactory
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import Choice, GameOverScreen
from reversi_tui.tui.screens.new_game import NewGameScreen
from reversi_tui.tui.thinking import Advisor, SearchFinished, search_hint
from reversi_tui.tui.widgets.board import Board, BoardView
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs
from reversi_tui.tui.widgets.sidebar import SIDEBAR_MIN_WIDTH, Sidebar
from reversi_tui.tui.widgets.too_small import TooSmall


class GameScreen(Screen[None]):
    """One local match at a time: play, undo and redo, hints, review, new game, quit."""

    BINDINGS = [
        Binding("i", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("U,shift+u,ctrl+r", "redo", "Redo", key_display="U"),
        Binding("n", "new_game", "New"),
        Binding("q", "quit_game", "Quit"),
    ]

    #: After a finished game: the number of plies shown (u and U walk it); None when live.
    review: var[int | None] = var(None)

    def __init__(
        self,
        settings: MatchSettings,
        make_source: SourceFactory,
        advisor: Advisor,
        *,
        game: Game | None = None,
        glyphs: Glyphs = UNICODE,
        pace: float = 0.5,
    ) -> None:
        super().__init__()
        self.make_source = make_source
        self.advisor = advisor
        self.glyphs = glyphs
        self.pace = pace
        self.match = self._new_match(settings, game)
        self.status = ""
        #: Keep move highlights on instead of fading them (screenshots).
        self.hold_highlights = False
        self._hint_stop = threading.Event()
        self._hint_token = 0  # bumped on every change, so a late hint is dropped

    def _new_match(self, settings: MatchSettings, game: Game | None = None) -> Match:
        match = Match(settings, self.make_source, game=game, pace=self.pace)
        match.subscribe(self._on_match_event)
        return match

    # Composition -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield Board(self.glyphs, reserve_width=SIDEBAR_MIN_WIDTH, id="board")
            yield Sidebar(self.glyphs, id="sidebar")
        yield TooSmall(id="too-small")
        yield _Footer()

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    @property
    def sidebar(self) -> Sidebar:
        return self.query_one(Sidebar)

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def reviewing(self) -> bool:
        return self.review is not None

    @property
    def thinking(self) -> bool:
        return self.match.thinking

    @property
    def paused(self) -> bool:
        return self.match.paused

    def on_mount(self) -> None:
        self._start(greeting=True)

    def _start(self, *, greeting: bool = False) -> None:
        """Show the match and run its turn loop (a new worker replaces the old one)."""
        legal = self.game.position.legal_moves
        if legal:
            self.board.cursor = legal[0]
        match = self.match
        labels = {c: match.sources[c].label for c in Color}
        locals_ = match.local_players
        if not greeting:
            text = f"New game: {labels[Color.BLACK]} (Black) against {labels[Color.WHITE]} (White)."
        elif len(locals_) == 1:
            you = locals_[0]
            text = (
                f"You play {you.title} against {labels[you.opponent]}. "
                "Press n to change players, ? for help."
            )
        else:
            text = "Press n to change players, ? for help."
        self.set_status(text)
        self._refresh_views()
        self.run_worker(
            match.run(), name="match", group="match", exclusive=True, exit_on_error=False
        )

    # Views -------------------------------------------------------------------------
    def set_status(self, text: str) -> None:
        self.status = text
        self.sidebar.set_status(text)

    def _turn_text(self) -> str:
        match = self.match
        game = self.game
        if match.is_over:
            return "Game over" + (" - reviewing" if self.reviewing else "")
        color = game.turn
        if match.thinking:
            return f"Move {game.move_number} · {color.title} thinking…"
        if match.paused:
            return f"Move {game.move_number} · paused"
        you = " (you)" if match.local_to_move and len(match.local_players) == 1 else ""
        return f"Move {game.move_number} · {color.title} to play{you}"

    def _shown_plies(self) -> tuple[Ply, ...]:
        plies = self.game.plies
        return plies if self.review is None else plies[: self.review]

    def _view(self, flash: int) -> BoardView:
        plies = self._shown_plies()
        position = plies[-1].after if plies else self.game.start
        last = next((p.move for p in reversed(plies) if not p.is_pass), None)
        markers = 0 if self.reviewing or self.match.is_over else position.legal_mask
        return BoardView(position, last, flash, markers, self.hold_highlights)

    def _refresh_views(self, *, flash: int = 0, moves_changed: bool = True) -> None:
        view = self._view(flash)
        self.board.view = view
        self._show_sidebar(view.position, moves_changed=moves_changed)

    def _show_sidebar(self, position: Position, *, moves_changed: bool) -> None:
        labels = {c: self.match.sources[c].label for c in Color}
        self.sidebar.show(
            position,
            self._shown_plies(),
            labels,
            self._turn_text(),
            over=self.match.is_over,
            moves_changed=moves_changed,
        )

    # Match events ------------------------------------------------------------------
    def _on_match_event(self, event: MatchEvent) -> None:
        self._hint_token += 1
        self._hint_stop.set()
        if isinstance(event, Changed):
            self._on_changed(event)
        elif isinstance(event, Passed):
            notice = f"{event.ply.color.title} has no legal move and passes."
            self.notify(notice, title="Pass", timeout=4)
            self.set_status(f"{self.status} {notice}".strip())
        elif isinstance(event, StateChanged):
            self._show_sidebar(self.board.view.position, moves_changed=False)
        elif isinstance(event, GameOver):
            self._game_over(event.result)

    def _on_changed(self, event: Changed) -> None:
        moves = [p for p in event.plies if not p.is_pass]
        names = " ".join(square_name(p.move) for p in moves)
        flash = 0
        if event.change is Change.PLAYED:
            self.set_status(f"{event.plies[0].color.title} played {names}.")
            flash = _flash_mask(event.plies)
        elif event.change is Change.UNDONE:
            resume = " Space resumes." if self.match.paused else ""
            self.set_status(f"Took back {names}.{resume}")
        else:
            self.set_status(f"Played again: {names}.")
            flash = _flash_mask(event.plies)
        self._refresh_views(flash=flash)

    def _game_over(self, result: Result) -> None:
        self.set_status(f"Game over: {result.summary}.")
        self.app.clear_notifications()  # a pass toast must not cover the result
        self.app.push_screen(GameOverScreen(result.discs), self._after_game_over)

    def _after_game_over(self, choice: Choice | None) -> None:
        self.review = len(self.game.plies)  # also where "New game" or "Quit" land if cancelled
        self.set_status("Reviewing: u and U walk through the game, n starts a new game.")
        self._refresh_views(moves_changed=False)
        if choice == "new":
            self.action_new_game()
        elif choice == "quit":
            self._confirm_quit()

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """A search that raised is reported, not fatal: the game can go on or restart."""
        if event.state is not WorkerState.ERROR:
            return
        error = event.worker.error
        what = "The hint" if event.worker.group == "hint" else "The game"
        self.notify(
            f"{what} stopped on an internal error: {error!r}. "
            "u takes back a move, n starts a new game.",
            title="Error",
            severity="error",
            timeout=10,
        )
        if event.worker.group == "match":
            self.set_status("Stopped by an error: u takes back a move, n starts a new game.")

    def _ensure_running(self) -> None:
        """Restart the turn loop if an error stopped it (undo or redo may mend things)."""
        running = any(
            w.group == "match" and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
            for w in self.workers
        )
        if not running and not self.match.is_over:
            self.run_worker(
                self.match.run(), name="match", group="match", exclusive=True, exit_on_error=False
            )

    # Board input -------------------------------------------------------------------
    def on_board_chosen(self, message: Board.Chosen) -> None:
        match = self.match
        if self.reviewing:
            self.set_status("Reviewing: u and U walk through the game, n starts a new game.")
            return
        if not match.local_players:
            if message.key == "space":
                self.action_toggle_pause()
            else:
                self.set_status("The computer plays both sides: Space pauses, n starts a new game.")
            return
        reason = match.offer(message.square)
        if reason:
            self.set_status(reason)

    def action_toggle_pause(self) -> None:
        match = self.match
        if match.local_players or match.is_over:
            return
        if match.paused:
            self.set_status("Resumed: Space pauses.")
            match.resume()
        else:
            match.pause()
            self.set_status("Paused: Space resumes.")

    # Actions -----------------------------------------------------------------------
    def action_undo(self) -> None:
        if self.review is not None:
            self._step_review(-1)
            return
        if not self.match.undo():
            self.set_status("Nothing to undo.")
        self._ensure_running()

    def action_redo(self) -> None:
        if self.review is not None:
            self._step_review(1)
            return
        if not self.match.redo():
            self.set_status("Nothing to redo.")
        self._ensure_running()

    def _step_review(self, step: int) -> None:
        """Walk the finished game one move (and any pass after it) back or forward."""
        assert self.review is not None
        plies = self.game.plies
        index = self.review
        if step < 0:
            while index and plies[index - 1].is_pass:
                index -= 1
            index = max(index - 1, 0)
        else:
            index = min(index + 1, len(plies))
            while index < len(plies) and plies[index].is_pass:
                index += 1
        if index == self.review:
            self.set_status("At the start of the game." if step < 0 else "At the end of the game.")
            return
        changed = plies[min(index, self.review) : max(index, self.review)]
        self.review = index
        moves = " ".join(square_name(p.move) for p in changed if not p.is_pass)
        word = "Back before" if step < 0 else "Forward to"
        self.set_status(f"Reviewing: {word} {moves} (move {index} of {len(plies)}).")
        self._refresh_views(flash=_flash_mask(changed) if step > 0 else 0)

    def action_hint(self) -> None:
        match = self.match
        if match.is_over:
            self.set_status("The game is over: no hint needed.")
            return
        if not match.local_to_move:
            self.set_status("Hints are for a human's move; wait for your turn.")
            return
        self._hint_stop.set()
        self._hint_stop = threading.Event()
        self.set_status("Looking for a hint…")
        job = partial(
            search_hint,
            self.post_message,
            self.advisor,
            self.game.position,
            self._hint_stop,
            self._hint_token,
        )
        self.run_worker(job, thread=True, exclusive=True, group="hint", exit_on_error=False)

    def on_search_finished(self, message: SearchFinished) -> None:
        if message.token != self._hint_token or message.position != self.game.position:
            return  # the game moved on while the hint was searched
        result = message.result
        kind = "exact" if result.exact else "estimated"
        self.board.cursor = result.move
        self.set_status(
            f"Hint: {square_name(result.move)}, evaluation {result.score:+.1f} "
            f"for {message.position.turn.title} ({kind}). Enter plays it."
        )

    def action_new_game(self) -> None:
        in_progress = self.match.in_progress
        self.app.push_screen(
            NewGameScreen(self.match.settings, in_progress=in_progress), self._start_new_game
        )

    @on(Sidebar.NewGameRequested)
    def _new_game_button(self) -> None:
        self.action_new_game()

    def _start_new_game(self, settings: MatchSettings | None) -> None:
        if settings is None:
            return
        self._stop()
        self.match = self._new_match(settings)
        self.review = None
        self._start()

    def action_quit_game(self) -> None:
        if self.match.in_progress:
            self._confirm_quit()
        else:
            self._quit()

    def _confirm_quit(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self._quit()

        self.app.push_screen(
            ConfirmScreen(
                "Quit?", "Leave Reversi? This game will be lost.", "Quit", "Keep playing"
            ),
            answer,
        )

    def _stop(self) -> None:
        """Stop the turn loop and any search (a new game, or leaving)."""
        self._hint_stop.set()
        self.match.close()
        self.workers.cancel_group(self, "match")
        self.workers.cancel_group(self, "hint")

    def _quit(self) -> None:
        self._stop()
        self.app.exit(0)


def _flash_mask(plies: tuple[Ply, ...]) -> int:
    mask = 0
    for ply in plies:
        if not ply.is_pass:
            mask |= ply.flipped | 1 << ply.move
    return mask


class _Footer(Footer):
    """Textual's Footer, composed as soon as the bindings are known, not a frame later.

    The stock footer waits for a refresh before it recomposes, which left the bottom
    line blank for about 0.1 s after the board appeared at start-up.
    """

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if self.app.app_focus and self.is_attached and screen is self.screen:
            self.call_later(self.recompose)
