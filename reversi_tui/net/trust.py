"""Who runs the server: the kernel says, and the player decides whom to trust.

A server's owner can read and change every game on it, so a client decides by the
uid the kernel gives for the listening end of its socket (``SO_PEERCRED`` on the
client's connected socket), never by anything the server says. Trusted at once:
root; the user themself; and, on the system socket (whose directory only root
can write), the account that owns the socket file (the README's dedicated
account). A server run by any other user is named, and the player is asked; the
answer is remembered per owner in ``known_servers.json`` in the data directory,
like SSH's known hosts, and a server run by someone else than last time asks
again, saying so.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import msgspec

from reversi_tui.net.discovery import SYSTEM_SOCKET, describe, trusted_system_socket
from reversi_tui.net.identity import peer_uid, user_name
from reversi_tui.records.atomic import atomic_write, set_aside
from reversi_tui.records.paths import StorageError, ensure_private_dir

#: The file of decisions, in the data directory.
KNOWN_SERVERS: Final = "known_servers.json"


@dataclass(frozen=True)
class Owner:
    """The user whose process listens on the server's socket, as the kernel says."""

    uid: int
    name: str

    @classmethod
    def of(cls, sock: socket.socket) -> Owner:
        uid = peer_uid(sock)
        return cls(uid, user_name(uid))

    def __str__(self) -> str:
        return self.name if self.name == f"uid{self.uid}" else f"{self.name} (uid {self.uid})"


def trusted_by_rule(owner: Owner, address: str, system: Path = SYSTEM_SOCKET) -> str | None:
    """Why ``owner`` is trusted without asking, or None when the player must decide."""
    if owner.uid == 0:
        return "root"
    if owner.uid == os.getuid():
        return "you"
    if address == str(system) and trusted_system_socket(system):
        try:
            if system.lstat().st_uid == owner.uid:
                return "the system service"
        except OSError:
            return None
    return None


def warning(owner: Owner, address: str, previous: str | None) -> str:
    """What the player is told before trusting another user's server."""
    text = (
        f"The server at {describe(address)} is run by {owner}, an ordinary user. "
        f"{owner.name} can read and change every game on it, and see your chat. "
        "Your own copies of your games will show any change to them."
    )
    if previous is not None and previous != owner.name:
        text = f"THE SERVER'S OWNER HAS CHANGED: it was {previous}, it is now {owner.name}. " + text
    return text


class _Decision(msgspec.Struct, frozen=True, kw_only=True):
    uid: int
    trusted: bool
    decided: str


class _Known(msgspec.Struct, kw_only=True):
    format: str = "reversi-known-servers"
    version: int = 1
    servers: dict[str, _Decision] = {}
    #: The last ordinary user whose server this player used.
    last: str | None = None


class KnownServers:
    """The player's decisions about other users' servers (no file: kept in memory only)."""

    def __init__(self, directory: Path | None) -> None:
        self.path = None if directory is None else directory / KNOWN_SERVERS
        #: Problems met reading or writing the file (shown once by the caller).
        self.problems: list[str] = []
        self._known = self._load()

    def _load(self) -> _Known:
        if self.path is None:
            return _Known()
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return _Known()
        except OSError as error:
            self.problems.append(f"cannot read {self.path} ({error.strerror})")
            return _Known()
        try:
            return msgspec.json.decode(data, type=_Known)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as error:
            try:
                aside = set_aside(self.path)
                self.problems.append(f"{self.path} was damaged ({error}); kept as {aside.name}")
            except OSError:
                self.problems.append(f"{self.path} is damaged ({error})")
            return _Known()

    @property
    def last(self) -> str | None:
        """The ordinary user whose server was used last, if any."""
        return self._known.last

    def decision(self, owner: Owner) -> bool | None:
        """The remembered answer for ``owner`` (same name and uid), or None."""
        found = self._known.servers.get(owner.name)
        if found is None or found.uid != owner.uid:
            return None
        return found.trusted

    def remember(self, owner: Owner, trusted: bool) -> None:
        decided = datetime.now(UTC).isoformat(timespec="seconds")
        self._known.servers[owner.name] = _Decision(uid=owner.uid, trusted=trusted, decided=decided)
        self._save()

    def used(self, owner: Owner) -> None:
        """``owner``'s server is in use now (the next different owner is a change)."""
        if self._known.last != owner.name:
            self._known.last = owner.name
            self._save()

    def forget(self, owner: Owner) -> None:
        if self._known.servers.pop(owner.name, None) is not None:
            self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        try:
            ensure_private_dir(self.path.parent)
            atomic_write(self.path, msgspec.json.format(msgspec.json.encode(self._known)))
        except (OSError, StorageError) as error:
            self.problems.append(f"cannot save your decision in {self.path} ({error})")
