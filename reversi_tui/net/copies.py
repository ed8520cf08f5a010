"""The player's own copies of their unfinished online games: a second source of truth.

The server holds the game, but a server dies, and one run by another user can be
changed by its owner. So each player's client keeps a copy of every unfinished
game it plays (players, colours, start, moves, and the server and number it is
known by now) in ``online/`` in the data directory, one file per game, written
atomically on every change. With the copies, a game can be resumed on a new server
when both players present the same game (``protocol.Resume``), and a server's copy
that disagrees with the player's own is noticed (``compare``). A finished game's
copy goes once the game is in the records. A damaged file is set aside, never
deleted, and so is a copy beyond the protocol's limits (a server could have sent
it): presented, it would be a line the server closes the connection for, and every
copy after it would never be asked for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Final

import msgspec

from reversi_tui.net.protocol import (
    MAX_LINE,
    Clock,
    Id,
    Moves,
    Origin,
    Resume,
    State,
    Timestamp,
    UserName,
    encode,
)
from reversi_tui.records.atomic import atomic_write, set_aside
from reversi_tui.records.paths import StorageError, ensure_private_dir

#: The directory of copies, in the data directory.
COPIES_DIR: Final = "online"
FORMAT: Final = "reversi-online-game"


class GameCopy(msgspec.Struct, frozen=True, kw_only=True):
    """One unfinished online game as this player last saw it."""

    format: str = FORMAT
    version: int = 1
    #: The game's identity across servers (``SERVER:GAME`` where it began).
    origin: Origin
    #: The identity of the server that holds it now, and its number there.
    server: Annotated[str, msgspec.Meta(max_length=64)]
    game: Id
    black: UserName
    white: UserName
    started: Timestamp
    #: Every move, concatenated, passes not written.
    moves: Moves
    #: The clocks in the last state seen (None: untimed), and whether the game is rated:
    #: a game resumed elsewhere keeps both.
    clock: Clock | None = None
    rated: bool = False

    @classmethod
    def of(cls, state: State, server: str) -> GameCopy:
        return cls(
            origin=state.origin,
            server=server,
            game=state.game,
            black=state.black,
            white=state.white,
            started=state.started,
            moves=state.moves,
            clock=state.clock,
            rated=state.rated,
        )

    def resume(self, request_id: int | None = None) -> Resume:
        """The ``resume`` request that presents this copy."""
        return Resume(
            origin=self.origin,
            black=self.black,
            white=self.white,
            started=self.started,
            moves=self.moves,
            clock=self.clock,
            rated=self.rated,
            id=request_id,
        )


@dataclass(frozen=True)
class Comparison:
    """How the server's state of a game stands against the player's copy."""

    #: None when they agree; else what differs, for the player.
    conflict: str | None = None
    #: Moves of the copy the server does not have (agreed to be dropped on resume).
    dropped: int = 0


def compare(copy: GameCopy, state: State, server: str) -> Comparison:
    """The server's ``state`` against the player's ``copy`` of the same game.

    On the server that holds the game, the server's moves must extend the copy (moves
    are never taken back). A game resumed elsewhere may lack the copy's last move (the
    other player never saw it), never more: a server offering less rewrote the game.
    """
    if (state.black, state.white) != (copy.black, copy.white):
        return Comparison(
            f"the server says {state.black} (Black) against {state.white} (White); "
            f"your copy says {copy.black} against {copy.white}"
        )
    if state.started != copy.started:
        return Comparison(
            f"the server says the game began at {state.started}; your copy says {copy.started}"
        )
    ours, theirs = copy.moves, state.moves
    common = 0
    while (
        common < min(len(ours), len(theirs))
        and ours[common : common + 2] == theirs[common : common + 2]
    ):
        common += 2
    if common < min(len(ours), len(theirs)):
        number = common // 2 + 1
        return Comparison(
            f"move {number} is {theirs[common : common + 2]} on the server, "
            f"{ours[common : common + 2]} in your copy"
        )
    if len(theirs) < len(ours):
        same_place = (copy.server, copy.game) == (server, state.game)
        if same_place:
            return Comparison(
                f"the server has {len(theirs) // 2} moves; your copy has {len(ours) // 2}"
            )
        dropped = (len(ours) - len(theirs)) // 2
        if dropped > 1:
            return Comparison(
                f"the server resumed it at move {len(theirs) // 2 + 1}; your copy has "
                f"{len(ours) // 2} moves, and no more than the last can be missing"
            )
        return Comparison(dropped=dropped)
    return Comparison()


class Copies:
    """The copies in one directory (None: kept in memory only, as in tests)."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        #: Problems met reading or writing (shown once by the caller).
        self.problems: list[str] = []
        self._memory: dict[str, GameCopy] = {}

    def _path(self, origin: str) -> Path:
        assert self.directory is not None
        return self.directory / (re.sub(r"[^A-Za-z0-9]", "_", origin)[:100] + ".json")

    def all(self) -> list[GameCopy]:
        """Every copy that reads; a damaged file is set aside and said."""
        if self.directory is None:
            return list(self._memory.values())
        try:
            paths = sorted(self.directory.glob("*.json"))
        except OSError as error:
            self.problems.append(f"cannot read {self.directory} ({error.strerror})")
            return []
        found = []
        for path in paths:
            copy = self._read(path)
            if copy is not None:
                found.append(copy)
        return found

    def get(self, origin: str) -> GameCopy | None:
        if self.directory is None:
            return self._memory.get(origin)
        path = self._path(origin)
        copy = self._read(path) if path.exists() else None
        return copy if copy is not None and copy.origin == origin else None

    def _read(self, path: Path) -> GameCopy | None:
        try:
            copy = msgspec.json.decode(path.read_bytes(), type=GameCopy)
        except OSError as error:
            self.problems.append(f"cannot read {path} ({error.strerror})")
            return None
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as error:
            self._set_aside(path, str(error))
            return None
        fault = _beyond_limits(copy)
        if fault is not None:
            self._set_aside(path, fault)
            return None
        return copy

    def _set_aside(self, path: Path, fault: str) -> None:
        """A copy that cannot be presented: kept under another name, never deleted."""
        try:
            aside = set_aside(path)
            self.problems.append(
                f"{path} is damaged or beyond the protocol's limits ({fault}); kept as {aside.name}"
            )
        except OSError:
            self.problems.append(f"{path} is damaged ({fault})")

    def save(self, copy: GameCopy) -> None:
        """Keep ``copy``; one beyond the protocol's limits is refused and said."""
        fault = _beyond_limits(copy)
        if fault is not None:
            self.problems.append(f"the server sent a game this client cannot keep ({fault})")
            return
        if self.directory is None:
            self._memory[copy.origin] = copy
            return
        try:
            ensure_private_dir(self.directory)
            atomic_write(self._path(copy.origin), msgspec.json.encode(copy))
        except (OSError, StorageError) as error:
            self.problems.append(f"cannot keep your copy of the game ({error})")

    def drop(self, origin: str) -> None:
        """A finished game, now in the records: its copy is no longer needed."""
        if self.directory is None:
            self._memory.pop(origin, None)
            return
        try:
            self._path(origin).unlink(missing_ok=True)
        except OSError as error:
            self.problems.append(f"cannot remove the copy of a finished game ({error.strerror})")


def _beyond_limits(copy: GameCopy) -> str | None:
    """What in ``copy`` breaks the protocol's limits, or None: its fields (a struct built
    in code is not validated, so it is checked as if read back), and the length of the
    ``resume`` that presents it (a number in its clock has no bound of its own)."""
    try:
        msgspec.convert(msgspec.structs.asdict(copy), GameCopy)
    except msgspec.ValidationError as error:
        return str(error)
    size = len(encode(copy.resume(_LONGEST_ID)))
    if size > MAX_LINE:
        return f"presenting it takes {size} bytes; a line is at most {MAX_LINE}"
    return None


#: The longest request id there is, for the longest ``resume`` a copy can make.
_LONGEST_ID: Final = 2**64 - 1
