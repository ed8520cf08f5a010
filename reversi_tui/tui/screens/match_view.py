"""The view of one match, shared by the local and the online game screens.

``MatchScreen`` owns a ``Match`` and runs its turn loop in a Textual worker; it
never decides who moves or how. It composes the board, the sidebar, the too-small
notice and the footer; a key or click on the board becomes ``match.offer``; the
match's events repaint the views from values (a ``BoardView``, counts, the move
list). While any dialog covers the screen the match is held: a computer may finish
its search, but its move waits. After the game ends, a ``Review``
(match/review.py) walks the finished game, read-only.

It binds no keys: ``GameScreen`` (screens/game.py) and ``OnlineGameScreen``
(screens/online_game.py) each declare the keys they have, from the key table
(tui/keys.py), and the words their status line says. A key that only the other kind
of game has (``u`` online) says so through ``KEYS_ELSEWHERE``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypeVar

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
    PlayerFailed,
    PlayerSpec,
    Result,
    StateChanged,
)
from reversi_tui.match.engine_config import Engines
from reversi_tui.match.review import Review
from reversi_tui.match.sources import SourceFactory
from reversi_tui.players import playable
from reversi_tui.records.autosave import Autosave
from reversi_tui.tui.move_copy import copy_moves
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import Choice, GameOverScreen, headline
from reversi_tui.tui.widgets.board import Board, BoardView
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs
from reversi_tui.tui.widgets.footer import KeyFooter
from reversi_tui.tui.widgets.sidebar import SIDEBAR_MIN_WIDTH, Sidebar
from reversi_tui.tui.widgets.too_small import TooSmall

if TYPE_CHECKING:  # the AI package loads with the analysis, off the path to the first frame
    from reversi_tui.engine.ai.analysis import AnalysisOptions

#: Actions of the review keys: only while a finished game is reviewed.
REVIEW_ACTIONS = frozenset({"review_step", "review_edge"})
#: Who is offered in the place of a player that failed (an engine that exited, hung...).
STAND_IN = PlayerSpec.computer("medium")
#: Seconds between looks at a thinking engine's search line.
SEARCH_LINE_POLL = 0.5
_R = TypeVar("_R")


class MatchScreen(Screen[None]):
    """One match on the board and in the sidebar: its events, the board's input,
    passes, the end of the game and its review. Subclasses bind the keys."""

    #: After a finished game: the plies shown; None when live.
    review: var[Review | None] = var(None)

    #: Keys the other kind of game screen has and this one does not (as Textual names
    #: them, ``tui/keys.py``'s ``refusals``), with what the status line says instead.
    KEYS_ELSEWHERE: ClassVar[Mapping[str, str]] = {}
    #: The status line's words that name a screen's own keys: entering review, Enter
    #: in review, Enter after the game, and after an internal error.
    REVIEW_WORDS: ClassVar[str]
    READ_ONLY_WORDS: ClassVar[str]
    OVER_WORDS: ClassVar[str]
    ERROR_WORDS: ClassVar[str]

    def __init__(
        self,
        settings: MatchSettings,
        make_source: SourceFactory,
        *,
        game: Game | None = None,
        glyphs: Glyphs = UNICODE,
        pace: float = 0.5,
        reply_delay: float = 0.0,
        engines: Engines | None = None,
    ) -> None:
        """The first match is made here: a subclass sets what ``_keep_match`` needs first.
        ``engines``: the configured engines (None: not known, every name is played)."""
        super().__init__()
        self.make_source = make_source
        self.engines = engines
        self.glyphs = glyphs
        self.pace = pace
        self.reply_delay = reply_delay
        self._covered = False  # a dialog is open over this screen
        self.match = self._new_match(settings, game)
        self.status = ""
        #: Keep move highlights on instead of fading them (screenshots).
        self.hold_highlights = False
        self._passes: list[Color] = []  # who passed since the last move (the alert)

    def _new_match(
        self,
        settings: MatchSettings,
        game: Game | None = None,
        *,
        started: datetime | None = None,
        save: Autosave | None = None,
    ) -> Match:
        """A match for this screen (``save``: a resumed game's, for ``_keep_match``). An
        engine named in a file or a save that is not configured is a person here."""
        settings, self._unplayable = playable(settings, self.engines)
        match = Match(
            settings,
            self.make_source,
            game=game,
            pace=self.pace,
            reply_delay=self.reply_delay,
            started=started,
        )
        match.subscribe(self._on_match_event)
        self._keep_match(match, save)
        if self._covered:
            match.hold()
        return match

    @property
    def player_note(self) -> str | None:
        """What ``playable`` said of the players of the match on the board (an engine a
        file named, played by a person here), or None."""
        return self._unplayable

    def _keep_match(self, match: Match, save: Autosave | None) -> None:
        """A new match is made (the local screen's keeper saves it): nothing here."""

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
        self._mounted()
        self._search_line = ""
        self.set_interval(SEARCH_LINE_POLL, self._poll_search_line)

    def _poll_search_line(self) -> None:
        """An engine's latest search line (depth, evaluation, PV) into the turn line."""
        line = self._thinking_line()
        if line != self._search_line:
            self._search_line = line
            self._refresh_views(moves_changed=False)

    def _thinking_line(self) -> str:
        """What the side thinking says of its search ("" for none: not an engine, or quiet)."""
        status = getattr(self.match.to_move, "status", "") if self.match.thinking else ""
        return status if isinstance(status, str) else ""

    def _mounted(self) -> None:
        """After the first match started: a subclass's own first steps."""

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

    def play_on(self, game: Game, settings: MatchSettings | None = None) -> None:
        """Show ``game`` (from a file, the records or the server) and play on from it.

        The players are this screen's unless ``settings`` says otherwise. A finished
        game ends at once: the game-over dialog offers to review it.
        """
        self._replace_match(settings or self.match.settings, game)
        if not game.is_over:
            self.set_status(f"Playing on from move {game.move_number}.")

    def _start(self, *, greeting: bool = False) -> None:
        """Show the match and run its turn loop (a new worker replaces the old one)."""
        match = self.match
        self._passes = []
        text = self._start_words(greeting)
        self.set_status(text if self._unplayable is None else self._unplayable)
        settings = match.settings
        self.sidebar.set_handicap(settings.handicap, settings.handicap_colour)
        self._refresh_views()
        self.refresh_bindings()
        self._run_match()

    def _start_words(self, greeting: bool) -> str:
        """The status line as a match starts (``greeting``: the screen's first)."""
        labels = self._labels()
        return f"New game: {labels[Color.BLACK]} (Black) against {labels[Color.WHITE]} (White)."

    def _run_match(self) -> None:
        self.run_worker(
            self.match.run(), name="match", group="match", exclusive=True, exit_on_error=False
        )

    def _stop(self) -> None:
        """Stop the turn loop (a new match, or leaving)."""
        self.match.close()
        self.workers.cancel_group(self, "match")

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

    def _labels(self) -> dict[Color, str]:
        return {c: self.match.sources[c].label for c in Color}

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
            line = self._thinking_line()
            said = f": {line}" if line else self.glyphs.ellipsis
            return f"{move}{color.title} thinking{said}"
        if match.failure is not None:
            return f"{move}{color.title} failed"
        if match.paused:
            return f"{move}paused"
        you = " (you)" if match.local_to_move and len(match.local_players) == 1 else ""
        return f"{move}{color.title} to play{you}"

    @property
    def _you(self) -> Color | None:
        """The colour of the one person here playing the other side (None otherwise)."""
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
        self.sidebar.show(
            position,
            self.game.plies,
            self._labels(),
            self._turn_text(),
            over=self.match.is_over or self.reviewing,
            moves_changed=moves_changed,
            current=None if self.review is None else self.review.index,
            alert=bool(self._passes) and not self.match.is_over,
            clocks=self._clocks(),
        )

    def _clocks(self) -> dict[Color, tuple[str, bool]] | None:
        """Each side's clock as shown and whether it is low; None: an untimed game."""
        return None

    # Match events ------------------------------------------------------------------
    def _on_match_event(self, event: MatchEvent) -> None:
        if isinstance(event, Changed):
            self._on_changed(event)
        elif isinstance(event, Passed):
            self._on_passed(event.ply)
        elif isinstance(event, StateChanged):
            self._refresh_views(moves_changed=False)
        elif isinstance(event, GameOver):
            self._game_over(event.result)
        elif isinstance(event, PlayerFailed):
            self._player_failed(event)

    def _player_failed(self, failed: PlayerFailed) -> None:
        """A player failed: the game is kept; offer the computer in its place."""
        self.set_status(f"{failed.reason}. The game is kept.")
        self._refresh_views(moves_changed=False)
        question = (
            f"{failed.reason}.\n\nThe game is kept. Go on with {STAND_IN.label} "
            f"playing {failed.color.title}?"
        )
        dialog = ConfirmScreen("A player failed", question, yes="Go on", no="Not now")
        self._push_once(dialog, lambda yes: self._stand_in(failed, bool(yes)))

    def _stand_in(self, failed: PlayerFailed, yes: bool) -> None:
        """The failure dialog's answer: the stand-in plays on, or the game waits."""
        match = self.match
        if match.failure is not failed:
            return  # another game, or the match moved on meanwhile
        if not yes:
            self.set_status(f"{failed.reason}. {self.ERROR_WORDS}")
            return
        match.replace_player(failed.color, STAND_IN)
        self.set_status(f"{STAND_IN.label} plays {failed.color.title} now.")
        self._refresh_views(moves_changed=False)
        self._run_match()

    def _on_changed(self, event: Changed) -> None:
        self._passes = []
        moves = [p for p in event.plies if not p.is_pass]
        names = " ".join(square_name(p.move) for p in moves)
        flash = 0
        if event.change is Change.PLAYED:
            self.set_status(f"{event.plies[0].color.title} played {names}.")
            flash = flash_mask(event.plies)
        elif event.change is Change.UNDONE:
            resume = " Space resumes." if self.match.paused else ""
            self.set_status(f"Took back {names}.{resume}")
        else:
            self.set_status(f"Played again: {names}.")
            flash = flash_mask(event.plies)
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
        self._push_once(self._game_over_screen(result), self._after_game_over)

    def _game_over_screen(self, result: Result) -> GameOverScreen:
        """The dialog that says how the game ended and offers what comes next."""
        return GameOverScreen(result, self._you)

    def _after_game_over(self, choice: Choice | None) -> None:
        """The game-over dialog's answer: review the game, then what was chosen."""
        self._enter_review()
        if choice is not None and choice != "review":
            self._chosen_after_game(choice)

    def _chosen_after_game(self, choice: Choice) -> None:
        """A new game or quitting, chosen in the game-over dialog: the screen's to do."""
        raise NotImplementedError

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """A search that raised is reported, not fatal: the game can go on or restart."""
        if event.state is not WorkerState.ERROR:
            return
        error = event.worker.error
        what = "The hint" if event.worker.group == "hint" else "The game"
        self.notify(
            f"{what} stopped on an internal error: {error!r}. {self.ERROR_WORDS}",
            title="Error",
            severity="error",
            timeout=10,
        )
        if event.worker.group == "match":
            self.set_status(f"Stopped by an error: {self.ERROR_WORDS}")

    # Review ------------------------------------------------------------------------
    def _enter_review(self) -> None:
        self.review = Review.of(self.game)
        self.set_status(self.REVIEW_WORDS)
        self._refresh_views()
        self.refresh_bindings()

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
        self._refresh_views(flash=flash_mask(review.changed(shown)) if flash else 0)

    # Keys that depend on the mode --------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The review keys only in review."""
        if action in REVIEW_ACTIONS:
            return self.reviewing
        return True

    def on_key(self, event: events.Key) -> None:
        """A key only the other kind of game has (``u`` online): say why not here."""
        words = self.KEYS_ELSEWHERE.get(event.key)
        if words is not None and event.key not in self.active_bindings:
            self.set_status(words)

    def action_copy_moves(self) -> None:
        """``m``: the moves to the clipboard (OSC 52), replayable from their start."""
        self.set_status(copy_moves(self.game, self.app.copy_to_clipboard, self.glyphs.ellipsis))

    # The analysis (screens/analysis.py) ------------------------------------------------
    #: A game still being played may be analysed (a local one; online only once over).
    ANALYSE_LIVE: ClassVar[bool] = False
    #: The analysis's budget (None: ``AnalysisOptions()``'s; tests make it quick).
    analysis_options: AnalysisOptions | None = None

    def action_analyse(self) -> None:
        """``A`` (or Analyse after the game): the analysis of the game so far, opened at
        the move shown in review."""
        game = self.game
        if not any(not ply.is_pass for ply in game.plies):
            self.set_status("Nothing to analyse yet: no move has been played.")
            return
        if not self.ANALYSE_LIVE and not self.match.is_over:
            self.set_status("An online game is analysed once it is over.")
            return
        from reversi_tui.tui.screens.analysis import AnalysisScreen

        review = self.review
        initial = None if review is None or review.at_end else review.index
        screen = AnalysisScreen(
            game.start,
            game.plies,
            self._labels(),
            self._analysis_dir(),
            self.analysis_options,
            glyphs=self.glyphs,
            initial=initial,
            can_play_on=self.ANALYSE_LIVE,
            result=self.match.result,
        )
        self._push_once(screen, self._analysed)

    def _analysis_dir(self) -> Path | None:
        """Where analyses are kept: the app's data directory (None: not kept)."""
        places = getattr(getattr(self.app, "keeper", None), "places", None)
        data = getattr(places, "data", None)
        return data if isinstance(data, Path) else None

    def _analysed(self, game: Game | None) -> None:
        """The analysis closed, with a position to play on from (``p``) or None."""
        if game is not None:
            self.play_from_analysis(game)

    def play_from_analysis(self, game: Game) -> None:
        """Play on from a position of the analysis: the local game screen's to do."""
        self.set_status("Playing on from the analysis is for local games.")

    # Board input -------------------------------------------------------------------
    def on_board_chosen(self, message: Board.Chosen) -> None:
        self._choose(message.square, message.key)

    def action_not_now(self) -> None:
        """Enter or Space while the board takes no move: say why."""
        self._choose(None, "enter")

    def _choose(self, square: int | None, key: str) -> None:
        match = self.match
        if self.reviewing:
            self.set_status(self.READ_ONLY_WORDS)
            return
        if not match.local_players:
            self._nobody_here_plays(key)
            return
        if match.is_over:
            self.set_status(self.OVER_WORDS)
            return
        if square is None:
            source = match.to_move
            self.set_status(f"Wait: {match.turn.title} ({source.label}) is to move.")
            return
        reason = match.offer(square)
        if reason:
            self.set_status(reason)

    def _nobody_here_plays(self, key: str) -> None:
        """Enter or Space on the board when no side is played here: the screen's words."""
        raise NotImplementedError


def flash_mask(plies: tuple[Ply, ...]) -> int:
    """The squares that changed in ``plies``: each disc played and the discs it flipped."""
    mask = 0
    for ply in plies:
        if not ply.is_pass:
            mask |= ply.flipped | 1 << ply.move
    return mask
