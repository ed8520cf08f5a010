"""What the records keep of an online game beyond the game itself: rated or casual, its
time control, and each player's rating after it.

``OnlineFacts`` is handed to ``RecordsDatabase.add`` (through ``GameKeeper.add_record``)
and read back on ``StoredGame.online``; a local game, or an online game recorded
before these were kept, has none. Pure values: nothing here touches the disk.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from reversi_tui.engine import Color

__all__ = [
    "OnlineFacts",
    "format_control",
    "format_rating",
    "online_pgn_tags",
    "pgn_time_control",
]


@dataclass(frozen=True, slots=True)
class OnlineFacts:
    """An online game's terms and what it did to the players' ratings.

    ``control`` is (minutes per player, seconds added per move), None for an untimed
    game. ``ratings`` maps each colour to (its player's rating after the game, the
    change the game made), both colours or None: a casual game has none, and a rated
    one may lack them (the server did not say). ``provisional`` are the colours whose
    rating after the game is still provisional (a deviation of 110 or more), shown
    with a ``?``.
    """

    rated: bool
    control: tuple[int, int] | None = None
    ratings: Mapping[Color, tuple[int, int]] | None = None
    provisional: frozenset[Color] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.control is not None:
            minutes, increment = self.control
            if minutes < 0 or increment < 0 or minutes == increment == 0:
                raise ValueError(f"not a time control: {minutes}+{increment}")
        if self.ratings is not None:
            if not self.rated:
                raise ValueError("a casual game changes no rating")
            if set(self.ratings) != set(Color):
                raise ValueError("a rated game's ratings are both players'")
        if self.provisional and (self.ratings is None or not self.provisional <= set(Color)):
            raise ValueError("only a rating given can be provisional")

    def __hash__(self) -> int:  # the mapping is not hashable; what it holds is
        ratings = None if self.ratings is None else tuple(self.ratings.get(c) for c in Color)
        return hash((self.rated, self.control, ratings, self.provisional))

    def rating(self, colour: Color) -> tuple[int, int] | None:
        """(rating after the game, change) of ``colour``'s player; None without ratings."""
        return None if self.ratings is None else self.ratings[colour]


def format_control(control: tuple[int, int]) -> str:
    """``5+3``: minutes per player, seconds added per move (as players say it)."""
    return f"{control[0]}+{control[1]}"


def pgn_time_control(control: tuple[int, int] | None) -> str:
    """PGN's ``TimeControl`` value: ``300+3`` in seconds, ``-`` for an untimed game."""
    return "-" if control is None else f"{control[0] * 60}+{control[1]}"


def online_event(online: OnlineFacts, number: int) -> str:
    """PGN's ``Event`` of an online game: ``reversi-tui online game 17, rated 5+3``.

    ``number`` tells games apart (the records' own number for the game); the terms
    say what was played: rated or casual, the time control or ``untimed``.
    """
    terms = "untimed" if online.control is None else format_control(online.control)
    return f"reversi-tui online game {number}, {'rated' if online.rated else 'casual'} {terms}"


def online_pgn_tags(online: OnlineFacts, number: int, site: str) -> dict[str, str]:
    """An online game's own PGN tags: ``Event`` (``online_event``), ``Site`` (the host
    the game was played on), ``TimeControl`` and, when rated, ``BlackElo``/``WhiteElo``
    (the ratings before the game, as PGN means them) and ``BlackRatingDiff``/
    ``WhiteRatingDiff``."""
    tags = {
        "Event": online_event(online, number),
        "Site": site,
        "TimeControl": pgn_time_control(online.control),
    }
    for colour in Color:
        rating = online.rating(colour)
        if rating is not None:
            after, change = rating
            tags[f"{colour.title}Elo"] = str(after - change)
            tags[f"{colour.title}RatingDiff"] = f"{change:+d}"
    return tags


def format_rating(after: int, change: int, *, provisional: bool = False) -> str:
    """``1523 (+23)``, ``1500? (-12)``, ``1500 (+0)``: the rating after a game and its change."""
    return f"{after}{'?' if provisional else ''} ({change:+d})"
