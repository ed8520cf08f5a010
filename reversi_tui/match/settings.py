"""What a match is set up with: who plays each colour, the start, the seed.

One typed value built by every front end (the command line, the new-game
dialog, a game file, an autosave) instead of loose strings, so the same choices
always make the same players.

A player has one text form, ``PlayerSpec.text`` (also ``str(spec)``), read back by
``PlayerSpec.from_text`` (or ``from_record``, below); the command line, the settings
file, the game records, PGN files and the records database all write players this way:

=========================  ==============================================================
``human``                  a person at this terminal
``human:NAME``             a person known by the name a file or a record gave
``hard``                   the computer at a level (``easy``, ``medium``, ``hard``,
                           ``expert``), on the level's own clock
``hard/2.5s``              ... thinking 2.5 seconds a move
``hard/6ply``              ... searching 6 plies deep (1 to 60), whatever the time
``hard/0.5s/6ply``         ... at most 6 plies, within 0.5 seconds
``gtp:COMMAND LINE``       an engine speaking GTP, started with COMMAND LINE
``nboard:COMMAND LINE``    an engine speaking NBoard's protocol, started with COMMAND LINE
``engine:NAME``            an engine configured under NAME
=========================  ==============================================================

Seconds are written as Python writes the float, without a trailing ``.0`` (``2s``,
``0.25s``, ``1e-05s``), so every spec reads back equal. The engine kinds can be
written, stored and read back; which kinds can play is ``players.SOURCES``.

Two readers, by where the text comes from. ``from_text`` reads the user's own
choices (the command line, the settings file, the new-game dialog): only it gives a
player that starts a program. ``from_record`` reads everything else (a game file,
an autosave, the records database, a message): a player it gives is *recorded*
(``PlayerSpec.recorded``), and a recorded engine never runs; it is played on by a
person here under the engine's name (``players.playable``, ``players.make_source``),
and a recorded level searches on a clock, never to a fixed depth for ever. Files
written for others (``shared_text``, ``label``) never carry a command line.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final

from reversi_tui.engine import Color, Position, handicap_position
from reversi_tui.engine.ai.names import LEVEL_NAMES

__all__ = [
    "LEVEL_NAMES",
    "MOST_THINK_SECONDS",
    "PLAYER_CHOICES",
    "PLAYER_FORMS",
    "MatchSettings",
    "PlayerKind",
    "PlayerSpec",
    "engine_forms",
    "person_name",
    "player_forms",
]

#: The most seconds a computer is given to think a move (an hour): the most the command
#: line takes (``--think-time``, ``hard/2s``), and what a save is held to.
MOST_THINK_SECONDS: Final = 3600.0
#: The simple choices (the new-game dialog's): a human, or the computer at a level.
PLAYER_CHOICES = ("human", *LEVEL_NAMES)

#: The longest name a recorded person keeps (a file could give a page).
MOST_NAME_CHARS: Final = 60


class PlayerKind(StrEnum):
    """The kinds of player; each kind's label is in ``_LABELS``.

    A kind that ``takes_program`` is written ``KIND:PROGRAM``. A new kind is an entry
    here and in ``_LABELS``, and its move source in ``players.SOURCES``.
    """

    HUMAN = "human"
    COMPUTER = "computer"
    #: An engine speaking the Go Text Protocol: ``gtp:COMMAND LINE``.
    GTP = "gtp"
    #: An engine speaking NBoard's protocol: ``nboard:COMMAND LINE``.
    NBOARD = "nboard"
    #: An engine configured by name: ``engine:NAME``.
    ENGINE = "engine"

    @property
    def takes_program(self) -> bool:
        """Written ``KIND:PROGRAM``: a command line or an engine's name tells its players apart."""
        return self not in (PlayerKind.HUMAN, PlayerKind.COMPUTER)

    def describe(self, identity: str) -> str:
        """The label of one of this kind's players, given what tells them apart (a
        person's name, a computer's level, an engine's command or name)."""
        return _LABELS[self].format(identity)


#: Each kind's label for one of its players (``{}``: its identity).
_LABELS: Final = {
    PlayerKind.HUMAN: "{}",
    PlayerKind.COMPUTER: "Computer ({})",
    PlayerKind.GTP: "GTP engine ({})",
    PlayerKind.NBOARD: "NBoard engine ({})",
    PlayerKind.ENGINE: "Engine ({})",
}
assert set(_LABELS) == set(PlayerKind)

#: How each kind's players are written, for messages and help (``{levels}``: the levels).
_FORMS: Final = {
    PlayerKind.HUMAN: "human",
    PlayerKind.COMPUTER: "a level ({levels}), a level with its time or depth "
    "(hard/2.5s, hard/6ply, hard/0.5s/6ply)",
    PlayerKind.GTP: "gtp:COMMAND",
    PlayerKind.NBOARD: "nboard:COMMAND",
    PlayerKind.ENGINE: "engine:NAME",
}
assert set(_FORMS) == set(PlayerKind)


def player_forms() -> str:
    """Every way a player is written, from the kinds and the levels (a new kind or level
    shows up here, in ``--help`` and in the settings file's messages by itself)."""
    forms = [_FORMS[kind].format(levels=", ".join(LEVEL_NAMES)) for kind in PlayerKind]
    return f"{', '.join(forms[:-1])} or {forms[-1]}"


def engine_forms() -> str:
    """The engine kinds' forms: ``gtp:COMMAND, nboard:COMMAND or engine:NAME``."""
    forms = [_FORMS[kind] for kind in PlayerKind if kind.takes_program]
    return f"{', '.join(forms[:-1])} or {forms[-1]}"


#: How a player is written, for messages.
PLAYER_FORMS: Final = f"a player is written {player_forms()}"

_SECONDS = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?s")
_PLIES = re.compile(r"\d{1,2}ply")
#: Programs that run another (an interpreter, ``env``): an engine is named by what they run.
_RUNNER = re.compile(r"(?:python|pypy|perl|ruby|node|java|wine|env|nice|ba|da|z|)(?:sh)?[\d.]*")


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """One side's player: a human, the computer at a level with an optional clock, or
    an engine (``program``: its command line or name). What a kind does not use is
    reset to its default, so two specs are equal exactly when their texts are."""

    kind: PlayerKind = PlayerKind.HUMAN
    level: str = "medium"
    #: Seconds per move for a computer (None: the level's own budget).
    think_time: float | None = None
    #: Plies to search: alone, exactly that deep with no clock (reproducible games; the
    #: arena uses it); with ``think_time``, at most that deep within the time.
    depth: int | None = None
    #: An engine's command line (``gtp``, ``nboard``) or name (``engine``); "" otherwise.
    program: str = ""
    #: A person's name as a file or a record gave it (``human:NAME``); "" for the
    #: person at this terminal (recorded under the login name) and for every other kind.
    name: str = ""
    #: Read from a file, a record or a message (``from_record``), not chosen by the
    #: user: an engine never runs from it. Not part of the value: equal specs may differ.
    recorded: bool = field(default=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind is not PlayerKind.COMPUTER:
            for name, default in (("level", "medium"), ("think_time", None), ("depth", None)):
                object.__setattr__(self, name, default)
        if self.kind is PlayerKind.COMPUTER and self.level not in LEVEL_NAMES:
            raise ValueError(f"unknown level {self.level!r}: choose from {', '.join(LEVEL_NAMES)}")
        if self.think_time is not None:
            if not 0 < self.think_time < float("inf"):
                raise ValueError("think time must be a positive number of seconds")
            object.__setattr__(self, "think_time", float(self.think_time))
        if self.depth is not None and not 1 <= self.depth <= 60:
            raise ValueError("a search depth is 1 to 60 plies")
        if self.kind.takes_program:
            if not self.program or self.program.strip() != self.program:
                raise ValueError(f"a {self.kind} player needs its command line or name")
            if not self.program.isprintable():
                raise ValueError(f"a {self.kind} player's command is one line of text")
        elif self.program:
            raise ValueError(f"a {self.kind} player has no program")
        if self.kind is not PlayerKind.HUMAN:
            object.__setattr__(self, "name", "")
        elif self.name:
            object.__setattr__(self, "name", person_name(self.name))

    @classmethod
    def human(cls) -> PlayerSpec:
        return cls(PlayerKind.HUMAN)

    @classmethod
    def person(cls, name: str) -> PlayerSpec:
        """A person known by ``name`` (cleaned: one line, at most ``MOST_NAME_CHARS``),
        played here by whoever is at this terminal; the person here when it is empty."""
        return cls(PlayerKind.HUMAN, name=name)

    @classmethod
    def computer(
        cls, level: str, think_time: float | None = None, depth: int | None = None
    ) -> PlayerSpec:
        return cls(PlayerKind.COMPUTER, level, think_time, depth)

    @classmethod
    def engine(cls, kind: PlayerKind, program: str) -> PlayerSpec:
        """An engine player: ``program`` is its command line (gtp, nboard) or name (engine)."""
        return cls(kind, program=program)

    # The text form -----------------------------------------------------------------------
    @property
    def text(self) -> str:
        """The one text form (see the module): ``human``, ``hard/2.5s``, ``gtp:edax -gtp``."""
        if self.kind.takes_program:
            return f"{self.kind}:{self.program}"
        if self.kind is PlayerKind.HUMAN:
            return f"human:{self.name}" if self.name else "human"
        parts = [self.level]
        if self.think_time is not None:
            parts.append(f"{repr(self.think_time).removesuffix('.0')}s")
        if self.depth is not None:
            parts.append(f"{self.depth}ply")
        return "/".join(parts)

    @property
    def shared_text(self) -> str:
        """The text form for a file others read (an export, a saved game): an engine
        by its name only (``engine:gtp-rhino``), never its command line."""
        if self.kind in (PlayerKind.GTP, PlayerKind.NBOARD):
            return f"{PlayerKind.ENGINE}:{self.program_name}"
        return self.text

    def __str__(self) -> str:
        return self.text

    @classmethod
    def from_text(cls, text: str) -> PlayerSpec:
        """The player ``text`` writes, as the user chose it (the command line, the
        settings file); ValueError (saying how players are written) if none. What a
        file, a record or a message says is read by ``from_record``."""
        head, colon, program = text.partition(":")
        if colon and head == PlayerKind.HUMAN:
            if not program.strip() or not program.isprintable():
                raise ValueError(f"{text!r} is not a player: {PLAYER_FORMS}")
            return cls.person(program)
        if colon:
            kind = next((k for k in PlayerKind if k.takes_program and k.value == head), None)
            if kind is None or not program.strip() or not program.isprintable():
                raise ValueError(f"{text!r} is not a player: {PLAYER_FORMS}")
            return cls.engine(kind, program.strip())
        if text == PlayerKind.HUMAN:
            return cls.human()
        level, *clock = text.split("/")
        if level not in LEVEL_NAMES:
            raise ValueError(f"unknown level {level!r}: {PLAYER_FORMS}")
        seconds = [part for part in clock if _SECONDS.fullmatch(part)]
        plies = [part for part in clock if _PLIES.fullmatch(part)]
        if len(seconds) > 1 or len(plies) > 1 or len(seconds) + len(plies) != len(clock):
            raise ValueError(f"{text!r} is not a player: {PLAYER_FORMS}")
        try:
            return cls.computer(
                level,
                float(seconds[0].removesuffix("s")) if seconds else None,
                int(plies[0].removesuffix("ply")) if plies else None,
            )
        except ValueError as error:
            raise ValueError(f"{text!r} is not a player ({error}): {PLAYER_FORMS}") from None

    @classmethod
    def from_record(cls, text: str, name: str = "") -> PlayerSpec:
        """The player a file, a record or a message gives (``text``: its text form;
        ``name``: a person's name, when the file says it): a ``recorded``
        spec, which never starts a program and whose level thinks at most
        ``MOST_THINK_SECONDS`` a move, its depth on the level's usual clock when it has
        none (``players.make_source``: ``hard/60ply`` would search for ever).
        ValueError as ``from_text``."""
        spec = cls.from_text(text)
        if name and not spec.name and spec.kind is not PlayerKind.COMPUTER:
            spec = replace(spec, name=name)
        return replace(spec, recorded=True)

    @classmethod
    def parse(cls, choice: str, think_time: float | None = None) -> PlayerSpec:
        """A ``--black``/``--white`` value (the text form) with ``--think-time``, which
        a computer without a time of its own takes."""
        spec = cls.from_text(choice)
        if (
            think_time is None
            or spec.kind is not PlayerKind.COMPUTER
            or spec.think_time is not None
        ):
            return spec
        return replace(spec, think_time=think_time)

    # What the kind means -------------------------------------------------------------------
    @property
    def is_human(self) -> bool:
        """A person: recorded under a login name (or the name a file gave), counted in
        statistics."""
        return self.kind is PlayerKind.HUMAN

    @property
    def runs_program(self) -> bool:
        """An engine this process may start: chosen by the user, not read from a file."""
        return self.kind.takes_program and not self.recorded

    @property
    def identity(self) -> str:
        """What tells two players of a kind apart, clocks aside: a computer's level, an
        engine's command line or name ("" for a person, whose name is recorded apart)."""
        if self.kind is PlayerKind.COMPUTER:
            return self.level
        return self.program

    @property
    def program_name(self) -> str:
        """An engine's name without its arguments or folders: ``gtp-rhino`` for
        ``gtp:/usr/games/gtp-rhino -l 5``, NAME for ``engine:NAME``; "" for others."""
        if self.kind is PlayerKind.ENGINE:
            return self.program
        if not self.kind.takes_program:
            return ""
        try:
            words = shlex.split(self.program)
        except ValueError:
            words = self.program.split()
        names = [word.rstrip("/").rsplit("/", 1)[-1] or word for word in words]
        # ``python3 engine.py``, ``env X=1 edax``: the program is the script or the command.
        run = [n for n in names if not (_RUNNER.fullmatch(n) or n.startswith("-") or "=" in n)]
        return (run or names or [self.program])[0]

    @property
    def choice(self) -> str:
        """The simple choice: ``human`` or the level (an engine's text)."""
        return self.level if self.kind is PlayerKind.COMPUTER else self.text

    @property
    def label(self) -> str:
        """``Human``, ``Computer (hard)``, ``GTP engine (gtp-rhino)``, a person's name:
        never an engine's arguments, so any file or screen may show it."""
        if self.name:
            return self.name
        if self.is_human:
            return "Human"
        if self.kind is PlayerKind.COMPUTER:
            return self.kind.describe(self.level)
        return self.kind.describe(self.program_name)


def person_name(text: str) -> str:
    """A name from a file as it may be shown and recorded: one line of printable text,
    spaces trimmed, at most ``MOST_NAME_CHARS`` characters."""
    cleaned = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(cleaned.split())[:MOST_NAME_CHARS].strip()


def handicap_of(start: Position) -> tuple[int, Color] | None:
    """The handicap (corners, colour) that gives ``start``: (0, Black) for the usual
    start, None for any other position (a loaded one)."""
    if start == handicap_position(0, Color.BLACK):
        return 0, Color.BLACK
    for corners in range(1, 5):
        for colour in Color:
            if start == handicap_position(corners, colour):
                return corners, colour
    return None


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """Everything needed to start a game the same way again."""

    black: PlayerSpec = field(default_factory=PlayerSpec.human)
    white: PlayerSpec = field(default_factory=lambda: PlayerSpec.computer("medium"))
    #: Corner discs pre-placed (0-4, corners a1, h8, h1, a8) for ``handicap_colour``.
    handicap: int = 0
    handicap_colour: Color = Color.BLACK
    #: Makes the computers' choices among equal moves reproducible (None: random).
    seed: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.handicap <= 4:
            raise ValueError("a handicap is 0 to 4 corner discs")

    def player(self, color: Color) -> PlayerSpec:
        return self.black if color is Color.BLACK else self.white

    @property
    def players(self) -> dict[Color, PlayerSpec]:
        return {Color.BLACK: self.black, Color.WHITE: self.white}

    def seed_for(self, color: Color) -> int | None:
        """Each colour's own seed, so two computers never mirror each other's choices."""
        return None if self.seed is None else self.seed + int(color)

    def start_position(self) -> Position:
        return handicap_position(self.handicap, self.handicap_colour)

    def with_players(self, black: PlayerSpec, white: PlayerSpec) -> MatchSettings:
        return replace(self, black=black, white=white)
