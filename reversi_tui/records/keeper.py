"""The keeper of a front end's games: autosave after every change, a record at the end.

A front end hands the keeper each match it starts (``attach``). From the first
move on, every change (a move with its forced passes, undo, redo) is written to
the game's own autosave at once, atomically, so a process killed at any instant
(``kill -9``, a dropped SSH link) leaves the game as it was after its last change.
When the game ends it goes into the records database and stops being an autosave.
A game left unfinished, by quitting or for another game (a new one, a file, a
recorded game), stays for ``reversi`` to offer next time, once a person has moved
in it: a game in which only the computer moved (its opening, before anyone
answered) is not worth offering, and its autosave is not even written.

Saving never stops play: the first failure (a full disk, a directory that is not
writable) is reported once through ``on_problem`` and saving is off for the rest
of the session.

Recording never stops play either, nor loses the game: the records database is
waited for a moment only (``RECORD_WAIT_SECONDS``: another ``reversi`` may be
writing to it, and the app waits with the keeper); a game it cannot take then stays
in its autosave, finished, and goes into the records at the next chance
(``record_kept``: the next game recorded, or the next start).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from reversi_tui.engine import Color, Game
from reversi_tui.match import Changed, GameOver, Match, MatchEvent
from reversi_tui.match.record import GameRecord, RecordError
from reversi_tui.match.settings import PlayerKind, PlayerSpec
from reversi_tui.records.autosave import Autosave, AutosaveStore, Resumable, SavedGame
from reversi_tui.records.database import DatabaseError, RecordsDatabase
from reversi_tui.records.names import local_user, player_name
from reversi_tui.records.online_facts import OnlineFacts
from reversi_tui.records.paths import Places, StorageError, ensure_private_dir
from reversi_tui.records.sqlite_file import WAIT_SECONDS

#: What a problem report is handed to (a status line, a toast, standard error).
ProblemSink = Callable[[str], None]
#: Seconds a game's end waits for another ``reversi`` writing the records (for the
#: lock, then for SQLite's): a game it cannot record by then is kept for later.
RECORD_WAIT_SECONDS: Final = 0.25


def moved_by_a_person(game: Game, players: Mapping[Color, PlayerSpec]) -> bool:
    """A person (not the computer) has placed a disc in ``game``: only such a game is
    kept for resuming."""
    return any(
        not ply.is_pass and players[ply.color].kind is PlayerKind.HUMAN for ply in game.plies
    )


def _worth_offering(saved: SavedGame) -> bool:
    record = saved.record
    try:
        game = record.game()
    except RecordError:
        return True  # the store's own checks speak for it; nothing is dropped unread
    return moved_by_a_person(game, {Color.BLACK: record.black, Color.WHITE: record.white})


class GameKeeper:
    """Saves the attached match as it changes and records it when it is over."""

    def __init__(self, places: Places | None, *, on_problem: ProblemSink | None = None) -> None:
        """``places`` None keeps nothing (tests, or a data directory that cannot be used)."""
        self.places = places
        self.on_problem = on_problem
        #: Every problem met, in order (the first also went to ``on_problem``).
        self.problems: list[str] = []
        self.user = local_user()
        self._store: AutosaveStore | None = None
        self._match: Match | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._save: Autosave | None = None
        self._saving = places is not None
        self._recorded = False

    # Where games are kept ----------------------------------------------------------
    def store(self) -> AutosaveStore | None:
        """The autosave directory's store, created on first use; None when saving is off."""
        if self._store is None and self._saving and self.places is not None:
            try:
                ensure_private_dir(self.places.data)
                directory = ensure_private_dir(self.places.autosave_dir)
            except StorageError as error:
                self._saving_off(str(error))
                return None
            self._store = AutosaveStore(directory)
        return self._store

    def resumable(self) -> list[Resumable]:
        """Unfinished games nobody has open, newest first; games no person has moved in
        (no move at all, or only the computer's) are dropped."""
        store = self.store()
        if store is None:
            return []
        self.record_kept()
        try:
            games = store.resumable()
        except StorageError as error:
            self._problem(str(error))
            return []
        for problem in store.problems:
            self._problem(problem)
        store.problems.clear()
        offered = []
        for item in games:
            if _worth_offering(item.saved):
                offered.append(item)
            else:  # nothing to lose: saved before a person's first move, or undone to it
                store.discard(item)
        return offered

    def claim(self, item: Resumable) -> Autosave | None:
        """Take ``item``'s lock to resume it; None if another ``reversi`` took it first."""
        store = self.store()
        return None if store is None else store.claim(item)

    def discard(self, item: Resumable) -> None:
        store = self.store()
        if store is not None:
            store.discard(item)

    # The match being kept ----------------------------------------------------------
    def attach(self, match: Match, save: Autosave | None = None) -> None:
        """Keep ``match`` from now on; ``save`` is the autosave of a resumed game.

        The match kept so far is released as on leaving (``close``): unfinished, and
        moved in by a person, it stays for resuming; finished, it was recorded when it
        ended. A game already over when it is attached (opened from a file or the
        records to look at) is not recorded again.
        """
        self.close()
        self._match = match
        self._save = save
        self._recorded = match.is_over
        self._unsubscribe = match.subscribe(self._on_event)

    def abandon(self) -> None:
        """Stop keeping the current match and delete its autosave: nothing of it stays."""
        self._detach(keep=False)

    def close(self) -> None:
        """Leaving: save the current match one last time and release it for resuming.

        A game no person has moved in yet is not worth offering again and is dropped.
        """
        match = self._match
        keep = (
            match is not None
            and not match.is_over
            and moved_by_a_person(match.game, match.settings.players)
        )
        if keep:
            self.save_now()
        self._detach(keep=keep)

    def _detach(self, *, keep: bool) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._unsubscribe = None
        self._match = None
        save, self._save = self._save, None
        if save is None:
            return
        try:
            if keep:
                save.close()
            else:
                save.finish()
        except StorageError as error:
            self._problem(str(error))

    def _on_event(self, event: MatchEvent) -> None:
        if isinstance(event, Changed):
            self.save_now()
        elif isinstance(event, GameOver):
            self._record()

    def save_now(self) -> None:
        """Write the current match to its autosave (created once a person has moved)."""
        match = self._match
        if match is None or match.is_over or not self._saving:
            return
        if self._save is None:
            if not moved_by_a_person(match.game, match.settings.players):
                return  # the computer's opening alone: nothing a person would miss
            store = self.store()
            if store is None:
                return
            try:
                self._save = store.create()
            except StorageError as error:
                self._saving_off(str(error))
                return
        saved = SavedGame.of(match.game, match.settings.players, match.started)
        try:
            self._save.write(saved)
        except StorageError as error:
            self._saving_off(str(error))

    def _record(self) -> None:
        """The game is over: into the records database, and out of the autosaves."""
        match = self._match
        if match is None or self._recorded:
            return
        self._recorded = True
        record = match.record()
        save, self._save = self._save, None
        if self._saving and self.places is not None:
            error = self._add(record, wait=RECORD_WAIT_SECONDS)
            if error is not None:
                self._keep_unrecorded(record, save, error)
                return
            self.record_kept()
        if save is not None:
            try:
                save.finish()
            except StorageError as error:
                self._problem(str(error))

    def add_record(
        self,
        record: GameRecord,
        names: dict[Color, str] | None = None,
        *,
        source: str | None = None,
        online: OnlineFacts | None = None,
    ) -> None:
        """Write a finished game to the records database; ``names`` are the players'
        (an online game's user names), else a person here is this user. A game with a
        ``source`` (an online game's origin) is recorded once, however often it is seen;
        ``online`` is an online game's terms and ratings (rated, time control, each
        player's rating after it)."""
        error = self._add(record, names, source=source, online=online)
        if error is not None:
            self._problem(f"the game was not recorded: {error}")

    def _add(
        self,
        record: GameRecord,
        names: dict[Color, str] | None = None,
        *,
        source: str | None = None,
        online: OnlineFacts | None = None,
        wait: float = WAIT_SECONDS,
    ) -> str | None:
        """``add_record``'s work, waiting ``wait`` seconds at most for another writer;
        what went wrong, or None."""
        if self.places is None:
            return None
        if names is None:
            names = {c: player_name(record.player(c), self.user) for c in Color}
        try:
            ensure_private_dir(self.places.data)
            database = RecordsDatabase(self.places.database, wait=wait)
        except (StorageError, DatabaseError) as error:
            return str(error)
        try:
            for problem in database.problems:
                self._problem(problem)
            database.add(
                record, names[Color.BLACK], names[Color.WHITE], source=source, online=online
            )
        except (StorageError, DatabaseError) as error:
            return str(error)
        finally:
            database.close()
        return None

    def _keep_unrecorded(self, record: GameRecord, save: Autosave | None, error: str) -> None:
        """The finished game into its autosave (made now if it had none), for
        ``record_kept`` to record later; said once either way."""
        store = self.store()
        try:
            if save is None and store is not None:
                save = store.create()
            if save is None:
                raise StorageError("saving is off")
            save.write(SavedGame(record))
        except StorageError as failed:
            self._problem(f"the game was not recorded: {error} (nor kept: {failed})")
            return
        finally:
            if save is not None:
                save.close()
        self._problem(
            f"The game is not recorded yet: {error}. It is kept, and goes into the records "
            "after the next game or when reversi next starts."
        )

    def record_kept(self) -> None:
        """Record the finished games kept in the autosaves because the records database
        could not take them when they ended; those it still cannot take stay."""
        store = self.store()
        if store is None:
            return
        try:
            kept = store.finished()
        except StorageError:
            return  # the autosaves cannot be read: ``resumable`` says so
        for item in kept:
            save = store.claim(item)
            if save is None:
                continue  # another reversi is recording it
            error = self._add(item.saved.record, wait=RECORD_WAIT_SECONDS)
            if error is not None:
                save.close()
                return  # still busy: the next chance tries again
            try:
                save.finish()
            except StorageError as failed:
                self._problem(str(failed))

    # Problems ----------------------------------------------------------------------
    def _saving_off(self, reason: str) -> None:
        if self._saving:
            self._saving = False
            self._problem(f"Saving is off: {reason}")

    def _problem(self, message: str) -> None:
        self.problems.append(message)
        if self.on_problem is not None:
            self.on_problem(message)

    @property
    def saving(self) -> bool:
        return self._saving
