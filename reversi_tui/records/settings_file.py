"""The remembered settings file: a small TOML file the player may also edit by hand.

It is read with the standard library's ``tomllib`` and written with ``tomli_w``
through an atomic write. Reading never stops the game: a file that is not TOML
is set aside (renamed, never deleted) and the defaults are used; a key with a
wrong value falls back to its default alone; keys we do not know (a newer
version's, a typo) are ignored. Each read gives at most one line to tell the player.

Engines are configured by hand, one table each, and kept when the game writes the file::

    [engines.Rhino]
    protocol = "gtp"                 # or "nboard"
    command = "gtp-rhino -l 5"       # or a list: ["gtp-rhino", "-l", "5"]
    cwd = "/opt/rhino"               # optional: the directory it starts in
    think_time = 5                   # optional: seconds a move (its deadline: 3x + 5 s)

and played as ``engine:Rhino``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import tomli_w

from reversi_tui.match.engine_config import EngineConfig, can_play
from reversi_tui.match.settings import MOST_THINK_SECONDS, PlayerSpec, player_forms
from reversi_tui.records.atomic import atomic_write, set_aside
from reversi_tui.records.paths import StorageError, storage_error

__all__ = ["StoredSettings", "load_settings", "save_settings"]

#: Larger than any settings file we write: a bigger one is not a settings file.
MAX_SETTINGS_BYTES = 1 << 16


@dataclass(frozen=True)
class UnusableEngine:
    """An ``[engines.NAME]`` table that configures no engine."""

    #: The table as the file has it.
    table: Any
    #: What is wrong with it: "command must be a command line or a list of words".
    why: str


HEADER = "# reversi-tui settings: written by the game when a choice changes.\n\n"


@dataclass(frozen=True)
class StoredSettings:
    """The choices remembered between runs; players are in their text form, as
    ``--black``/``--white`` take them (``human``, a level, ``hard/2.5s``: see
    ``PlayerSpec``), so the command line and the file agree."""

    theme: str | None = None
    black: str = "human"
    white: str = "medium"
    #: Corner discs (0-4) given to ``handicap_colour`` (``black`` or ``white``).
    handicap: int = 0
    handicap_colour: str = "black"
    #: Seconds per computer move (None: each level's own budget).
    think_time: float | None = None
    #: Seconds between moves when the computer plays both sides (None: ``--delay``'s default).
    pace: float | None = None
    #: Ring the terminal's bell when it becomes your move online in a game not shown.
    bell: bool = False
    #: The engines configured by name (``[engines.NAME]``), played as ``engine:NAME``.
    engines: dict[str, EngineConfig] = field(default_factory=dict)
    #: The ``[engines.NAME]`` tables that configure no engine: each as written (saving
    #: writes it back, for the player to mend) and what is wrong with it.
    unusable_engines: dict[str, UnusableEngine] = field(default_factory=dict)


def _bell(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _theme(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _player(value: Any) -> str | None:
    """A player's text form: a person, a level, or an engine (by command line or name)."""
    if not isinstance(value, str):
        return None
    try:
        spec = PlayerSpec.from_text(value)
    except ValueError:
        return None
    if spec.think_time is not None and spec.think_time > MOST_THINK_SECONDS:
        return None
    return spec.text if can_play(spec) else None


def _handicap(value: Any) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 4
    return value if ok else None


def _colour(value: Any) -> str | None:
    return value if value in ("black", "white") else None


def _think_time(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 < value <= MOST_THINK_SECONDS else None


def _pace(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 <= value <= 3600 else None


_PLAYER = f"a player: {player_forms()}"
#: Each key's check: the value to use, or None when it cannot be used.
_CHECKS: dict[str, Callable[[Any], Any]] = {
    "theme": _theme,
    "black": _player,
    "white": _player,
    "handicap": _handicap,
    "handicap_colour": _colour,
    "think_time": _think_time,
    "pace": _pace,
    "bell": _bell,
}
_EXPECTED = {
    "theme": "a theme name",
    "black": _PLAYER,
    "white": _PLAYER,
    "handicap": "a whole number from 0 to 4",
    "handicap_colour": "black or white",
    "think_time": "a number of seconds above 0, at most 3600",
    "pace": "a number of seconds from 0 to 3600",
    "bell": "true or false",
}
#: The fields that are tables of their own, not values checked by ``_CHECKS``.
_TABLES = frozenset({"engines", "unusable_engines"})
assert set(_CHECKS) == {field.name for field in fields(StoredSettings)} - _TABLES


def _engines(value: Any) -> tuple[dict[str, EngineConfig], dict[str, UnusableEngine], list[str]]:
    """The ``[engines]`` tables that configure an engine, the others, and what is wrong
    with them."""
    if value is None:
        return {}, {}, []
    if not isinstance(value, dict):
        return {}, {}, ["engines (expected [engines.NAME] tables)"]
    engines: dict[str, EngineConfig] = {}
    unusable: dict[str, UnusableEngine] = {}
    wrong: list[str] = []
    for name, table in value.items():
        try:
            if not name.strip() or not name.isprintable():
                raise ValueError("a name is one line of text")
            engines[name] = EngineConfig.of_table(table)
        except ValueError as error:
            unusable[name] = UnusableEngine(table, str(error))
            wrong.append(f"engine {_show(name)} left out ({error})")
    return engines, unusable, wrong


def load_settings(path: Path) -> tuple[StoredSettings, str | None]:
    """The settings in ``path`` and at most one line about what was wrong with it.

    A missing file gives the defaults and no message.
    """
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return StoredSettings(), None
    except OSError as error:
        reason = storage_error(error, path, "read")
        return StoredSettings(), f"Settings were not read: {reason}; the defaults are used."
    try:
        if len(raw) > MAX_SETTINGS_BYTES:
            raise ValueError("it is far too large")
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError) as error:
        return StoredSettings(), _broken(path, error)
    values: dict[str, Any] = {}
    wrong: list[str] = []
    for key, check in _CHECKS.items():
        if key not in data:
            continue
        value = check(data[key])
        if value is None:
            wrong.append(f"{key} = {_show(data[key])} (expected {_EXPECTED[key]})")
        else:
            values[key] = value
    values["engines"], values["unusable_engines"], bad_engines = _engines(data.get("engines"))
    wrong += bad_engines
    if not wrong:
        return StoredSettings(**values), None
    return StoredSettings(**values), f"Settings file {path}: default used for {'; '.join(wrong)}."


def _broken(path: Path, error: Exception) -> str:
    """Set a file that is not TOML aside; the line that tells the player."""
    if isinstance(error, UnicodeDecodeError):
        why = "it is not text"
    else:
        why = str(error).splitlines()[0] if str(error) else "it is not TOML"
    try:
        moved = set_aside(path)
    except StorageError as failure:
        return f"The settings file {path} is broken ({why}) and cannot be set aside: {failure}."
    return (
        f"The settings file {path} is broken ({why}); it was kept as {moved.name} "
        "and the defaults are used."
    )


def _show(value: Any) -> str:
    """A value as the player wrote it (near enough), kept short for a one-line message."""
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 30 else text[:27] + "..."


def save_settings(path: Path, settings: StoredSettings) -> None:
    """Write ``settings`` to ``path`` atomically (its directory must exist).

    TOML has no null: a setting that is None is left out, which reads back as None.
    Raises StorageError when the disk refuses.
    """
    data = {
        field.name: getattr(settings, field.name)
        for field in fields(settings)
        if getattr(settings, field.name) is not None and field.name not in _TABLES
    }
    engines = {name: entry.table for name, entry in settings.unusable_engines.items()}
    engines.update((name, config.table()) for name, config in settings.engines.items())
    if engines:
        data["engines"] = engines
    atomic_write(path, HEADER + tomli_w.dumps(data))
