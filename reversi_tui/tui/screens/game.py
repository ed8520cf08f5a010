"""The game screen: the board and sidebar of one match, and the keys that steer it.

The screen owns a ``Match`` and runs its turn loop in a Textual worker; it never
decides who moves or how. A key or click becomes ``match.offer``; undo, redo,
pause and new game are calls on the match; the match's events repaint the views
from values (a ``BoardView``, counts, the move list). While any dialog covers the
screen the match is held: a computer may finish its search, but its move waits.
After the game ends, a ``Review`` (match/review.py) walks the finished game
(read-only; playing on from a shown move is an explicit, confirmed choice).
Saving, opening, the statistics and copying the moves are ``GameFiles``'s
(tui/game_files.py); the screen's actions call it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import TypeVar

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import var
from textual.screen import Screen
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
from reversi_tui.match.review import Review
from reversi_tui.match.sources import SourceFactory
from reversi_tui.players import playable
from reversi_tui.records.autosave import Autosave, Resumable
from reversi_tui.records.formats import opening_settings
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.memory import SettingsMemory
from reversi_tui.tui.game_files import GameFiles, copy_moves
from reversi_tui.tui.keys import GAME_KEYS, bindings
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import Choice, GameOverScreen, headline
from reversi_tui.tui.screens.new_game import NewGame, NewGameScreen, think_time_of
from reversi_tui.tui.thinking import Advisor, SearchFinished, search_hint
from reversi_tui.tui.widgets.board import Board, BoardView
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs
from reversi_tui.tui.widgets.footer import KeyFooter
from reversi_tui.tui.widgets.sidebar import SIDEBAR_MIN_WIDTH, Sidebar
from reversi_tui.tui.widgets.too_small import TooSmall
from reversi_tui.tui.words import noun, plural

#: Actions that only make sense while reviewing a finished game, and those that don't.
_REVIEW_ACTIONS = frozenset({"review_step", "review_edge", "play_from_here"})
_LIVE_ACTIONS = frozenset({"hint", "undo", "redo"})
#: Only when the computer plays both sides.
_COMPUTERS_ACTIONS = frozenset({"toggle_pause"})
_R = TypeVar("_R")


def hint_words(score: float, exact: bool, side: Color) -> str:
    """What a hint's number means: ``about +2 discs for Black``, ``exact: Black wins by 12``."""
    if exact:
        margin = round(score)
        if margin == 0:
            return "exact: a draw with best play"
        verb = "wins" if margin > 0 else "loses"
        return f"exact: {side.title} {verb} by {abs(margin)} with best play"
    about = round(score)
    return f"about {about:+d} {noun(about, 'disc')} for {side.title} at the end (estimated)"


class GameScreen(Screen[None]):
    """One local match at a time: play, undo and redo, hints, review, new game, quit."""

    #: Generated from the key table (tui/keys.py), in the footer's order.
    BINDINGS = bindings(GAME_KEYS)

    #: After a finished game: the plies shown; None when live.
    review: var[Review | None] = var(None)

    def __init__(
        self,
        settings: MatchSettings,
        make_source: SourceFactory,
        advisor: Advisor,
        *,
        game: Game | None = None,
        glyphs: Glyphs = UNICODE,
        pace: float = 0.5,
        reply_delay: float = 0.0,
        keeper: GameKeeper | None = None,
        memory: SettingsMemory | None = None,
        open_online: Callable[[], None] | None = None,
    ) -> None:
        """``keeper`` saves every match this screen runs; ``memory`` remembers the
        new-game dialog's choices; ``open_online`` opens the lobby (None: no online play)."""
        super().__init__()
        self.open_online = open_online
        self.keeper = keeper
        #: Saving, opening and the statistics (Ctrl+S, Ctrl+O, s).
        self.files = GameFiles(self, keeper)
        self.memory = memory
        #: An unfinished game to resume as soon as the screen is up (``--resume``).
        self.resume_on_mount: Resumable | None = None
        self.make_source = make_source
        self.advisor = advisor
        self.glyphs = glyphs
        self.pace = pace
        self.reply_delay = reply_delay
        self._covered = False  # a dialog is open over this screen
        self.match = self._new_match(settings, game)
        self.status = ""
        #: Keep move highlights on instead of fading them (screenshots).
        self.hold_highlights = False
        self._hint_stop = threading.Event()
        self._hint_token = 0  # bumped on every change, so a late hint is dropped
        self._passes: list[Color] = []  # who passed since the last move (the alert)

    def _new_match(
        self,
        settings: MatchSettings,
        game: Game | None = None,
        *,
        started: datetime | None = None,
        save: Autosave | None = None,
    ) -> Match:
        """A match for this screen, kept by the keeper (``save``: a resumed game's). A
        player this version cannot play (an engine named in a file) is a person here."""
        settings, self._unplayable = playable(settings)
        match = Match(
            settings,
            self.make_source,
            game=game,
            pace=self.pace,
            reply_delay=self.reply_delay,
            started=started,
        )
        match.subscribe(self._on_match_event)
        if self.keeper is not None:
            self.keeper.attach(match, save)
        if self._covered:
            match.hold()
        return match

    # Composition -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield Board(self.glyphs, reserve_width=SIDEBAR_MIN_WIDTH, id="board")
            yield Sidebar(self.glyphs, id="sidebar")
        yield TooSmall(id="too-small")
        yield KeyFooter()

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
        if self.resume_on_mount is not None:
            self.resume(self.resume_on_mount)
            self.resume_on_mount = None

    def resume(self, item: Resumable) -> None:
        """Play on an unfinished game from an earlier run, as it was left."""
        save = self.keeper.claim(item) if self.keeper is not None else None
        if save is None:
            self.set_status("That game was just opened in another terminal: not resumed.")
            return
        saved = item.saved
        record = saved.record
        settings = opening_settings(record.start, (record.black, record.white), self.match.settings)
        self._replace_match(settings, saved.game(), started=record.started, save=save)
        black, white = record.black.label, record.white.label
        self.set_status(f"Resumed at move {self.game.move_number}: {black} against {white}.")

    def _replace_match(
        self,
        settings: MatchSettings,
        game: Game | None = None,
        *,
        started: datetime | None = None,
        save: Autosave | None = None,
    ) -> None:
        """Stop the match shown, leave review, and start a new one in its place (a new
        game, a game opened or resumed, playing on from a move)."""
        self._stop()
        self.match = self._new_match(settings, game, started=started, save=save)
        self.review = None
        self._start()

    def _start(self, *, greeting: bool = False) -> None:
        """Show the match and run its turn loop (a new worker replaces the old one)."""
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
        self._passes = []
        self.set_status(text if self._unplayable is None else self._unplayable)
        settings = match.settings
        self.sidebar.set_handicap(settings.handicap, settings.handicap_colour)
        self._refresh_views()
        self.refresh_bindings()
        self.run_worker(
            match.run(), name="match", group="match", exclusive=True, exit_on_error=False
        )

    # Dialogs hold the match --------------------------------------------------------
    def on_screen_suspend(self, event: events.ScreenSuspend) -> None:
        """A dialog (or the palette) opened over the game: no move lands under it."""
        self._covered = True
        self.match.hold()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self._covered = False
        self.match.release()

    def _push_once(
        self, screen: Screen[_R], callback: Callable[[_R | None], None] | None = None
    ) -> bool:
        """Open a dialog unless the same one is already open; True when opened."""
        title = getattr(screen, "title_text", None)
        if any(
            type(s) is type(screen) and getattr(s, "title_text", None) == title
            for s in self.app.screen_stack
        ):
            return False
        self.app.push_screen(screen, callback)
        return True

    # Views -------------------------------------------------------------------------
    def set_status(self, text: str) -> None:
        self.status = text
        self.sidebar.set_status(text)

    def _turn_text(self) -> str:
        match = self.match
        game = self.game
        dot = self.glyphs.dot
        result = match.result
        if result is not None:
            return headline(result, self._you)
        color = game.turn
        move = f"Move {game.move_number} {dot} "
        if self._passes:
            passer = self._passes[-1]
            return f"{move}{passer.title} passed: {color.title} again"
        if match.thinking:
            return f"{move}{color.title} thinking{self.glyphs.ellipsis}"
        if match.paused:
            return f"{move}paused"
        you = " (you)" if match.local_to_move and len(match.local_players) == 1 else ""
        return f"{move}{color.title} to play{you}"

    @property
    def _you(self) -> Color | None:
        """The colour of the one person here playing the computer (None otherwise)."""
        locals_ = self.match.local_players
        return locals_[0] if len(locals_) == 1 else None

    def _view(self, flash: int) -> BoardView:
        review = self.review if self.review is not None else Review.of(self.game)
        position, last = review.position, review.last_move
        match = self.match
        playable = not self.reviewing and match.local_to_move and not match.paused
        markers = position.legal_mask if playable else 0
        return BoardView(position, last, flash, markers, self.hold_highlights)

    def _refresh_views(self, *, flash: int = 0, moves_changed: bool = True) -> None:
        view = self._view(flash)
        self.board.view = view
        self._show_sidebar(view.position, moves_changed=moves_changed)

    def _show_sidebar(self, position: Position, *, moves_changed: bool) -> None:
        labels = {c: self.match.sources[c].label for c in Color}
        self.sidebar.show(
            position,
            self.game.plies,
            labels,
            self._turn_text(),
            over=self.match.is_over or self.reviewing,
            moves_changed=moves_changed,
            current=None if self.review is None else self.review.index,
            alert=bool(self._passes) and not self.match.is_over,
        )

    # Match events ------------------------------------------------------------------
    def _on_match_event(self, event: MatchEvent) -> None:
        self._hint_token += 1
        self._hint_stop.set()
        if isinstance(event, Changed):
            self._on_changed(event)
        elif isinstance(event, Passed):
            self._on_passed(event.ply)
        elif isinstance(event, StateChanged):
            self._refresh_views(moves_changed=False)
        elif isinstance(event, GameOver):
            self._game_over(event.result)

    def _on_changed(self, event: Changed) -> None:
        self._passes = []
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

    def _on_passed(self, ply: Ply) -> None:
        """A forced pass: the turn line lights up and the status says it, once per pass.

        No toast: at 80x24 one would cover the status line and the move list.
        """
        self._passes.append(ply.color)
        passer = ply.color
        if len(self._passes) > 1:
            notice = f"{passer.title} has no legal move again and passes."
        else:
            notice = f"{passer.title} has no legal move and passes."
        self.set_status(f"{self.status} {notice}".strip())
        self._refresh_views(moves_changed=False)

    def _game_over(self, result: Result) -> None:
        self.set_status(f"Game over. {headline(result, self._you)}.")
        self._refresh_views(moves_changed=False)
        self._push_once(GameOverScreen(result, self._you), self._after_game_over)

    def _after_game_over(self, choice: Choice | None) -> None:
        self._enter_review()
        if choice == "new":
            self.action_new_game()
        elif choice == "quit":
            self.action_quit_game()

    def _enter_review(self) -> None:
        self.review = Review.of(self.game)
        self.set_status(
            "Reviewing: Left/Right step through the game, Home/End jump, "
            "p plays on from the shown move, n starts a new game."
        )
        self._refresh_views()
        self.refresh_bindings()

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

    # Keys that depend on the mode --------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Review keys only in review; hint, undo and redo only in a live game."""
        if action in _REVIEW_ACTIONS:
            return self.reviewing
        if action in _LIVE_ACTIONS:
            return not self.reviewing
        if action in _COMPUTERS_ACTIONS:
            match = self.match
            return not match.local_players and not match.is_over and not self.reviewing
        return True

    # Board input -------------------------------------------------------------------
    def on_board_chosen(self, message: Board.Chosen) -> None:
        self._choose(message.square, message.key)

    def action_not_now(self) -> None:
        """Enter or Space while the board takes no move: say why."""
        self._choose(None, "enter")

    def _choose(self, square: int | None, key: str) -> None:
        match = self.match
        if self.reviewing:
            self.set_status(
                "Reviewing is read-only: Left/Right step, p plays on from the shown move, "
                "n starts a new game."
            )
            return
        if not match.local_players:
            if key == "space":
                self.action_toggle_pause()
            else:
                self.set_status("The computer plays both sides: Space pauses, n starts a new game.")
            return
        if match.is_over:
            self.set_status("The game is over: n starts a new game.")
            return
        if square is None:
            source = match.to_move
            self.set_status(f"Wait: {match.turn.title} ({source.label}) is to move.")
            return
        reason = match.offer(square)
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
        if not self.match.undo():
            self.set_status("Nothing to undo.")
        self._ensure_running()

    def action_redo(self) -> None:
        if not self.match.redo():
            self.set_status("Nothing to redo.")
        self._ensure_running()

    def action_review_step(self, step: int) -> None:
        """Walk the finished game one move (and any pass after it) back or forward."""
        if self.review is not None:
            self._show_review(self.review.step(step), flash=step > 0)

    def action_review_edge(self, end: int) -> None:
        """Home: the start position; End: the final position."""
        if self.review is not None:
            self._show_review(self.review.edge(end), flash=False)

    def _show_review(self, review: Review, *, flash: bool) -> None:
        shown = self.review
        assert shown is not None
        if review.index == shown.index:
            self.set_status(shown.edge_status)
            return
        self.review = review
        self.set_status(review.status)
        self._refresh_views(flash=_flash_mask(review.changed(shown)) if flash else 0)

    def action_play_from_here(self) -> None:
        """Leave review and play on from the shown position, after a confirmation."""
        review = self.review
        if review is None:
            return
        branch = review.cut()
        if branch is None:
            self.set_status("This is the end of the game: step back (Left) to play on from there.")
            return
        dropped = review.dropped
        question = (
            f"Play on from move {review.moves_shown + 1} with the same players? The finished "
            f"game's last {plural(dropped, 'move')} will be dropped from the board."
        )

        def answer(yes: bool | None) -> None:
            if yes:
                self._replace_match(self.match.settings, branch)
                self.set_status(f"Playing on from move {branch.move_number}.")

        self._push_once(
            ConfirmScreen("Play from here?", question, "Play on", "Keep reviewing"), answer
        )

    def play_on(self, game: Game, settings: MatchSettings | None = None) -> None:
        """Show ``game`` (from a file or the records) and play on from it.

        The players are this screen's unless ``settings`` says otherwise. A finished
        game ends at once: the game-over dialog offers to review it, and in review
        ``p`` plays on from any move.
        """
        self._replace_match(settings or self.match.settings, game)
        if not game.is_over:
            self.set_status(f"Playing on from move {game.move_number}.")

    # Game files, the clipboard and the records (tui/game_files.py) -------------------
    def action_save_game(self) -> None:
        """Ctrl+S: save the game so far (or the finished game) to a PGN or GGF file."""
        self.files.save()

    def action_open_game(self) -> None:
        """Ctrl+O: open a saved file, a game from the records, or a typed path."""
        self.files.open()

    def action_statistics(self) -> None:
        """``s``: the statistics screen; a recent game chosen there is replayed here."""
        self.files.statistics()

    def action_copy_moves(self) -> None:
        """``m``: the moves to the clipboard (OSC 52), replayable from their start."""
        self.set_status(copy_moves(self.game, self.app.copy_to_clipboard, self.glyphs.ellipsis))

    def action_hint(self) -> None:
        match = self.match
        if match.is_over:
            self.set_status("The game is over: no hint needed.")
            return
        if match.local_players and not match.local_to_move:
            self.set_status("Hints are for your move: wait until it is your turn.")
            return
        self._hint_stop.set()
        self._hint_stop = threading.Event()
        who = "" if match.local_to_move else f" for {self.game.turn.title}"
        self.set_status(f"Looking for a hint{who}{self.glyphs.ellipsis}")
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
        side = message.position.turn
        words = hint_words(result.score, result.exact, side)
        if self.match.local_to_move:
            self.board.cursor = result.move
            self.set_status(f"Hint: {square_name(result.move)}, {words}. Enter plays it.")
        else:
            self.set_status(f"Hint for {side.title}: {square_name(result.move)}, {words}.")

    def action_play_online(self) -> None:
        """The online lobby (the app connects, or starts a server, the first time)."""
        if self.open_online is not None:
            self.open_online()

    def action_new_game(self) -> None:
        in_progress = self.match.in_progress
        screen = NewGameScreen(
            self.match.settings,
            in_progress=in_progress,
            kept=self.files.keeps_left_game(),
            pace=self.pace,
        )
        self._push_once(screen, self._new_game_chosen)

    @on(Sidebar.NewGameRequested)
    def _new_game_button(self) -> None:
        self.action_new_game()

    def _new_game_chosen(self, chosen: NewGame | None) -> None:
        """The new-game dialog's answer: its pace from now on, then the game."""
        if chosen is None:
            return
        self.pace = chosen.pace
        if self.memory is not None:
            self.memory.remember(pace=chosen.pace)
        self._start_new_game(chosen.settings)

    def _start_new_game(self, settings: MatchSettings | None) -> None:
        if settings is None:
            return
        if self.memory is not None:
            self.memory.remember(
                black=settings.black.choice,
                white=settings.white.choice,
                handicap=settings.handicap,
                handicap_colour=settings.handicap_colour.name.lower(),
                think_time=think_time_of(settings),
            )
        left = self.files.left_game_words()
        self._replace_match(settings)
        self.set_status(f"{self.status}{left}")

    def action_quit_game(self) -> None:
        """The one quit rule: ask only while a game is in progress."""
        if self.match.in_progress:
            self._confirm_quit()
        else:
            self._quit()

    def _confirm_quit(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self._quit()

        saved = self.keeper is not None and self.keeper.saving
        fate = "It is saved: reversi offers it again next time." if saved else "It will be lost."
        self._push_once(
            ConfirmScreen("Quit?", f"Leave this game? {fate}", "Quit", "Keep playing"),
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
        if self.keeper is not None:
            self.keeper.close()
        self.app.exit(0)


def _flash_mask(plies: tuple[Ply, ...]) -> int:
    mask = 0
    for ply in plies:
        if not ply.is_pass:
            mask |= ply.flipped | 1 << ply.move
    return mask
