"""The names games are recorded under: the local user's login name, or the player's label.

The login name comes from the password database for the process's real user id,
never from ``$USER`` or ``$LOGNAME`` (which anyone can set to anything); a user
id with no entry (a container started with ``--user 1234``) is ``uid1234``.
"""

from __future__ import annotations

import os
import pwd

from reversi_tui.match.settings import PlayerSpec

__all__ = ["local_user", "player_name"]


def local_user() -> str:
    """The login name of the user running this process (``uid<N>`` when it has none)."""
    uid = os.getuid()
    try:
        name = pwd.getpwuid(uid).pw_name
    except (KeyError, OSError):
        name = ""
    return name or f"uid{uid}"


def player_name(spec: PlayerSpec, user: str) -> str:
    """The name a side is recorded under: ``user`` for a human, else its label
    (``Computer (hard)``, ``GTP engine (edax -gtp)``)."""
    return user if spec.is_human else spec.label
