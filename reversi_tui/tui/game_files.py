"""The local game's files and records: Ctrl+S saves, Ctrl+O opens, ``s`` shows the
statistics, ``m`` copies the moves.

``GameFiles`` holds the keeper (with its data directory) and the game screen it
works for: it opens the dialogs through the screen, and shows what was opened
or replayed there with ``play_on``, after asking before it leaves a game in
progress. Without a data directory each action says it is not available. The
screen's actions are one-line calls.

``GameFiles`` knows its screen as a ``MatchScreen`` (what it uses is all there), never
as the ``GameScreen`` that holds it: the import would be a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reversi_tui.match.record import GameRecord, RecordError
from reversi_tui.match.settings import PlayerSpec
from reversi_tui.records.database import StoredGame
from reversi_tui.records.formats import opening_settings
from reversi_tui.records.keeper import GameKeeper, moved_by_a_person
from reversi_tui.records.paths import Places
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.open_game import Opened, OpenGameScreen
from reversi_tui.tui.screens.save_game import Saved, SaveGameScreen, shown_path
from reversi_tui.tui.screens.statistics import StatisticsScreen

if TYPE_CHECKING:
    from reversi_tui.tui.screens.match_view import MatchScreen


class GameFiles:
    """Saving, opening and the statistics for ``screen``, kept by ``keeper`` (None: no
    data directory, so none of them)."""

    def __init__(self, screen: MatchScreen, keeper: GameKeeper | None) -> None:
        self.screen = screen
        self.keeper = keeper

    def _places(self, what: str) -> tuple[GameKeeper, Places] | None:
        """The keeper and its data directory; None (and the status says so) without one."""
        keeper = self.keeper
        if keeper is None or keeper.places is None:
            self.screen.set_status(f"{what} is not available: this run keeps no data directory.")
            return None
        return keeper, keeper.places

    # Ctrl+S ------------------------------------------------------------------------
    def save(self) -> None:
        """Save the game so far (or the finished game) to a PGN or GGF file."""
        kept = self._places("Saving to a file")
        if kept is not None:
            keeper, places = kept
            record = self.screen.match.record()
            self.screen._push_once(
                SaveGameScreen(record, places.games_dir, keeper.user), self._saved
            )

    def _saved(self, saved: Saved | None) -> None:
        if saved is not None:
            where = shown_path(saved.path)
            self.screen.set_status(f"Saved the game ({saved.fmt.upper()}) to {where}.")

    # Ctrl+O ------------------------------------------------------------------------
    def open(self) -> None:
        """A saved file, a game from the records, or a typed path."""
        kept = self._places("Opening games")
        if kept is not None:
            places = kept[1]
            screen = OpenGameScreen(places.games_dir, places.database)
            self.screen._push_once(screen, self._opened)

    def _opened(self, opened: Opened | None) -> None:
        if opened is None:
            return
        settings = self.screen.match.settings
        players = opened.players or (settings.black, settings.white)
        self._show_record(opened.record, players, opened.source)

    # s -----------------------------------------------------------------------------
    def statistics(self) -> None:
        """The statistics screen; a recent game chosen there is replayed on the board."""
        kept = self._places("Statistics")
        if kept is not None:
            keeper, places = kept
            screen = StatisticsScreen(places.database, keeper.user)
            self.screen._push_once(screen, self._replay)

    def _replay(self, stored: StoredGame | None) -> None:
        if stored is not None:
            record = stored.record
            source = f"the recorded game {stored.black_name} v {stored.white_name}"
            self._show_record(record, (record.black, record.white), source)

    # Showing a game from a file or the records ---------------------------------------
    def _show_record(
        self, record: GameRecord, players: tuple[PlayerSpec, PlayerSpec], source: str
    ) -> None:
        """Show a game from a file or the records with ``players`` and play on from it;
        a game in progress is dropped only after a confirmation."""
        screen = self.screen
        try:
            game = record.game()
        except RecordError as error:
            screen.set_status(f"Not opened: {error}")
            return

        def show() -> None:
            # The same rule as reversi --load: these players, the handicap of the start.
            settings = opening_settings(record.start, players, screen.match.settings)
            left = self.left_game_words()
            screen.play_on(game, settings)
            if not game.is_over:  # a finished game's dialog speaks for itself
                screen.set_status(f"Opened {source}: playing on from move {game.move_number}.")
            note = screen.player_note
            screen.set_status(f"{screen.status}{left}" + (f" {note}" if note else ""))

        if not screen.match.in_progress:
            show()
            return
        if self.keeps_left_game():
            fate = "The game in progress is kept: reversi offers it again next time."
        else:
            fate = "The game in progress will be dropped (Ctrl+S saves it first)."

        def answer(yes: bool | None) -> None:
            if yes:
                show()

        screen._push_once(
            ConfirmScreen("Leave this game?", f"Open {source}? {fate}", "Open", "Keep playing"),
            answer,
        )

    # The game another replaces ---------------------------------------------------------
    def keeps_left_game(self) -> bool:
        """Whether the game on the board stays for resuming when another replaces it
        (as on quitting: unfinished, a person has moved in it, and saving is on)."""
        match = self.screen.match
        return (
            self.keeper is not None
            and self.keeper.saving
            and not match.is_over
            and moved_by_a_person(match.game, match.settings.players)
        )

    def left_game_words(self) -> str:
        """What the status adds when another game replaces this one: it is kept."""
        if self.keeps_left_game():
            return " The game you left is kept: reversi offers it again next time."
        return ""
