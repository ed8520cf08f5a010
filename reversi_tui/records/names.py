"""The names games are recorded under: the local user's login name, or the player's label.

The login name comes from the password database for the process's real user id,
never from ``$USER`` or ``$LOGNAME`` (which anyone can set to anything); a user
id with no entry (a container started with ``--user 1234``) is ``uid1234``.
"""

from __future__ import annotations

import os
import pwd

from reversi_tui.match.settings import PlayerSpec

__all__ = ["local_user", "player_name", "shared_name"]


def local_user() -> str:
    """The login name of the user running this process (``uid<N>`` when it has none)."""
    uid = os.getuid()
    try:
        name = pwd.getpwuid(uid).pw_name
    except (KeyError, OSError):
        name = ""
    return name or f"uid{uid}"


def player_name(spec: PlayerSpec, user: str) -> str:
    """The name a side is recorded under: ``user`` for the person here, the name a
    file gave a person, else its label (``Computer (hard)``, ``GTP engine (edax)``)."""
    return user if spec.is_human and not spec.name else spec.label


def shared_name(spec: PlayerSpec, name: str) -> str:
    """The name to show or export for a side recorded under ``name``: an engine's
    label (``GTP engine (gtp-rhino)``), since records written before named an engine
    by its command line; ``name`` for anyone else."""
    return spec.label if spec.kind.takes_program else name
