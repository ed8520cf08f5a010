"""The local game screen: one match at a time on this machine, and the keys that steer it.

The board, the sidebar, the match's events and the review are ``MatchScreen``'s
(screens/match_view.py). This screen adds what only a local game has: undo and
redo, hints, pausing the computer against itself, a new game, playing on from a
reviewed move, resuming a game from an earlier run, the keeper that saves every
match, the lobby (``o``) and quitting. Saving, opening and the statistics are
``GameFiles``'s (tui/game_files.py); the screen's actions call it. Its keys are
``GAME_KEYS`` (tui/keys.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

from textual import on
from textual.worker import WorkerState

from reversi_tui.engine import Color, Game, square_name
from reversi_tui.match import Match, MatchEvent, MatchSettings
from reversi_tui.match.sources import SourceFactory
from reversi_tui.records.autosave import Autosave, Resumable
from reversi_tui.records.formats import opening_settings
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.memory import SettingsMemory
from reversi_tui.tui.game_files import GameFiles
from reversi_tui.tui.keys import GAME_KEYS, bindings
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import Choice
from reversi_tui.tui.screens.match_view import MatchScreen
from reversi_tui.tui.screens.new_game import NewGame, NewGameScreen, think_time_of
from reversi_tui.tui.thinking import Advisor, SearchFinished, search_hint
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs
from reversi_tui.tui.widgets.sidebar import Sidebar
from reversi_tui.tui.words import noun, plural

#: Only in a live game, only in review, only when the computer plays both sides.
_LIVE_ACTIONS = frozenset({"hint", "undo", "redo"})
_REVIEW_ONLY = frozenset({"play_from_here"})
_COMPUTERS_ACTIONS = frozenset({"toggle_pause"})


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


class GameScreen(MatchScreen):
    """One local match at a time: play, undo and redo, hints, review, new game, quit."""

    #: Generated from the key table (tui/keys.py), in the footer's order.
    BINDINGS = bindings(GAME_KEYS)

    REVIEW_WORDS = (
        "Reviewing: Left/Right step through the game, Home/End jump, "
        "p plays on from the shown move, n starts a new game."
    )
    READ_ONLY_WORDS = (
        "Reviewing is read-only: Left/Right step, p plays on from the shown move, "
        "n starts a new game."
    )
    OVER_WORDS = "The game is over: n starts a new game."
    ERROR_WORDS = "u takes back a move, n starts a new game."
    ANALYSE_LIVE = True

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
        self.keeper = keeper  # before the first match is made: it is kept too
        super().__init__(
            settings,
            make_source,
            game=game,
            glyphs=glyphs,
            pace=pace,
            reply_delay=reply_delay,
            engines=memory.stored.engines if memory is not None else {},
        )
        self.open_online = open_online
        #: Saving, opening and the statistics (Ctrl+S, Ctrl+O, s).
        self.files = GameFiles(self, keeper)
        self.memory = memory
        #: An unfinished game to resume as soon as the screen is up (``--resume``).
        self.resume_on_mount: Resumable | None = None
        self.advisor = advisor
        self._hint_stop = threading.Event()
        self._hint_token = 0  # bumped on every change, so a late hint is dropped

    def _keep_match(self, match: Match, save: Autosave | None) -> None:
        """The keeper saves every match (``save``: a resumed game's own file)."""
        if self.keeper is not None:
            self.keeper.attach(match, save)

    def _mounted(self) -> None:
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

    def _start_words(self, greeting: bool) -> str:
        """The first status line names the keys that matter first."""
        if not greeting:
            return super()._start_words(greeting)
        locals_ = self.match.local_players
        if len(locals_) == 1:
            you = locals_[0]
            return (
                f"You play {you.title} against {self._labels()[you.opponent]}. "
                "Press n to change players, ? for help."
            )
        return "Press n to change players, ? for help."

    def _on_match_event(self, event: MatchEvent) -> None:
        """Any change makes a hint being searched stale."""
        self._hint_token += 1
        self._hint_stop.set()
        super()._on_match_event(event)

    def _chosen_after_game(self, choice: Choice) -> None:
        if choice == "new":
            self.action_new_game()
        elif choice == "quit":
            self.action_quit_game()
        elif choice == "analyse":
            self.action_analyse()

    # The analysis (screens/analysis.py) ------------------------------------------------
    def _analysis_dir(self) -> Path | None:
        keeper = self.keeper
        return None if keeper is None or keeper.places is None else keeper.places.data

    def play_from_analysis(self, game: Game) -> None:
        """``p`` in the analysis: play on from its position with this screen's players,
        after asking (a game in progress is kept for resuming, as on Ctrl+O)."""
        if self.files.keeps_left_game():
            fate = " The game in progress is kept: reversi offers it again next time."
        elif self.match.in_progress:
            fate = " The game in progress will be dropped (Ctrl+S saves it first)."
        else:
            fate = ""
        question = f"Play on from move {game.move_number} with the same players?{fate}"

        def answer(yes: bool | None) -> None:
            if yes:
                settings = opening_settings(game.start, None, self.match.settings)
                left = self.files.left_game_words()
                self._replace_match(settings, game)
                self.set_status(f"Playing on from move {game.move_number}.{left}")

        self._push_once(ConfirmScreen("Play from here?", question, "Play on", "Not now"), answer)

    # Keys that depend on the mode --------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Play on only in review; hint, undo and redo only in a live game; pause only
        when the computer plays both sides."""
        if action in _REVIEW_ONLY:
            return self.reviewing
        if action in _LIVE_ACTIONS:
            return not self.reviewing
        if action in _COMPUTERS_ACTIONS:
            match = self.match
            return not match.local_players and not match.is_over and not self.reviewing
        return super().check_action(action, parameters)

    def _nobody_here_plays(self, key: str) -> None:
        if key == "space":
            self.action_toggle_pause()
        else:
            self.set_status("The computer plays both sides: Space pauses, n starts a new game.")

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

    def _ensure_running(self) -> None:
        """Restart the turn loop if an error stopped it (undo or redo may mend things)."""
        running = any(
            w.group == "match" and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
            for w in self.workers
        )
        if not running and not self.match.is_over:
            self._run_match()

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

    # Game files and the records (tui/game_files.py) ---------------------------------
    def action_save_game(self) -> None:
        """Ctrl+S: save the game so far (or the finished game) to a PGN or GGF file."""
        self.files.save()

    def action_open_game(self) -> None:
        """Ctrl+O: open a saved file, a game from the records, or a typed path."""
        self.files.open()

    def action_statistics(self) -> None:
        """``s``: the statistics screen; a recent game chosen there is replayed here."""
        self.files.statistics()

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
            engines=self.engines or {},
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
        super()._stop()
        self.workers.cancel_group(self, "hint")

    def _quit(self) -> None:
        self._stop()
        if self.keeper is not None:
            self.keeper.close()
        self.app.exit(0)
