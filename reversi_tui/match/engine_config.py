"""The configured external engines: how to run each one (``[engines.NAME]`` in the
settings file), and whether a player can play here.

Values only, read by the settings file (``records/settings_file.py``) and used by
the engine players (``players/engine.py``): below both, so that the records never
import the players.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from reversi_tui.match.settings import PlayerKind, PlayerSpec

#: The protocols an engine may speak, as the settings file names them.
PROTOCOLS: Final = {"gtp": PlayerKind.GTP, "nboard": PlayerKind.NBOARD}
#: Seconds an engine is expected to think a move when nothing says: its deadline is
#: three times this and five seconds more (185 s). Generous on purpose: it only catches an
#: engine that hangs, and GRhino's level 5 takes over 35 s for some moves here while it
#: solves an endgame.
DEFAULT_THINK_TIME: Final = 60.0
#: The keys of an ``[engines.NAME]`` table.
TABLE_KEYS: Final = ("protocol", "command", "cwd", "think_time")


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """How to run an engine: its protocol, argument vector, directory and pace."""

    protocol: PlayerKind
    argv: tuple[str, ...]
    cwd: str | None = None
    #: The seconds it is expected to think a move, of which the deadline is made.
    think_time: float = DEFAULT_THINK_TIME
    #: Seconds it may take a move, if not made of ``think_time``.
    deadline: float | None = None

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS.values():
            raise ValueError(f"an engine speaks {' or '.join(PROTOCOLS)}")
        if not self.argv or not self.argv[0]:
            raise ValueError("an engine needs a command")
        if not 0 < self.think_time <= 3600:
            raise ValueError("an engine's think time is above 0 and at most 3600 seconds")

    @property
    def move_seconds(self) -> float:
        """The deadline for each move: a hung engine fails after this."""
        return self.deadline if self.deadline is not None else self.think_time * 3 + 5

    @classmethod
    def of_command(cls, protocol: PlayerKind, command: str) -> EngineConfig:
        """``gtp:COMMAND``'s engine: the command line split as a shell would (quotes)."""
        try:
            argv = tuple(shlex.split(command))
        except ValueError as error:
            raise ValueError(f"{command!r} is not a command line ({error})") from None
        return cls(protocol, argv)

    @classmethod
    def of_table(cls, table: Any) -> EngineConfig:
        """An ``[engines.NAME]`` table; ValueError saying what is wrong with it."""
        if not isinstance(table, dict):
            raise ValueError("expected a table with protocol and command")
        try:
            return cls._of_checked_table(table)
        except ValueError as error:
            unknown = sorted(set(table) - set(TABLE_KEYS))
            if not unknown:
                raise
            keys = ", ".join(TABLE_KEYS)
            raise ValueError(f"{error}; {unknown[0]!r} is not a key (they are {keys})") from None

    @classmethod
    def _of_checked_table(cls, table: dict[str, Any]) -> EngineConfig:
        protocol = PROTOCOLS.get(table.get("protocol"))  # type: ignore[arg-type]
        if protocol is None:
            found = _found(table, "protocol")
            raise ValueError(f"protocol {found} (expected {' or '.join(map(repr, PROTOCOLS))})")
        command = table.get("command")
        if isinstance(command, list) and all(isinstance(word, str) for word in command):
            config = cls(protocol, tuple(command))
        elif isinstance(command, str):
            config = cls.of_command(protocol, command)
        else:
            found = _found(table, "command")
            raise ValueError(f"command {found} (expected a command line or a list of words)")
        cwd, think = table.get("cwd"), table.get("think_time", DEFAULT_THINK_TIME)
        if cwd is not None and not (isinstance(cwd, str) and cwd):
            raise ValueError("cwd must be a directory")
        if isinstance(think, bool) or not isinstance(think, int | float):
            raise ValueError("think_time must be a number of seconds")
        return cls(protocol, config.argv, cwd, float(think))

    def table(self) -> dict[str, Any]:
        """The ``[engines.NAME]`` table that reads back as this engine."""
        protocol = next(name for name, kind in PROTOCOLS.items() if kind is self.protocol)
        table: dict[str, Any] = {"protocol": protocol, "command": list(self.argv)}
        if self.cwd is not None:
            table["cwd"] = self.cwd
        if self.think_time != DEFAULT_THINK_TIME:
            table["think_time"] = self.think_time
        return table


def _found(table: dict[str, Any], key: str) -> str:
    """What ``table`` has for ``key``, for a message: "is missing", "= 42"."""
    if key not in table:
        return "is missing"
    shown = repr(table[key])
    return f"= {shown if len(shown) <= 30 else shown[:27] + '...'}"


#: The configured engines by name (the settings file's ``[engines]``).
Engines = Mapping[str, EngineConfig]


def can_play(spec: PlayerSpec, engines: Engines | None = None) -> bool:
    """Whether ``spec`` can play here: a person or a level always; an engine only when
    the user chose it (not ``recorded`` from a file), and an ``engine:NAME`` only when
    ``engines`` (the configured ones; None: not known yet, so any name) has NAME."""
    if not spec.kind.takes_program:
        return True
    if not spec.runs_program:
        return False
    return spec.kind is not PlayerKind.ENGINE or engines is None or spec.program in engines
