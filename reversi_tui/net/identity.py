"""Who is on the other end of a local socket: the kernel says, never a message.

``SO_PEERCRED`` gives the (pid, uid, gid) the kernel recorded when the peer
connected; the uid's login name comes from the passwd database, and a uid
without an entry is named ``uid<N>``. ``$USER`` and ``$LOGNAME`` are never read:
any process can set them.
"""

from __future__ import annotations

import pwd
import socket
import struct

_CREDENTIALS = struct.Struct("3i")


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process that connected ``sock`` (Linux ``SO_PEERCRED``)."""
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CREDENTIALS.size)
    _pid, uid, _gid = _CREDENTIALS.unpack(raw)
    return int(uid)


def user_name(uid: int) -> str:
    """The login name of ``uid``; ``uid<N>`` when it has none."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid{uid}"


def peer_name(sock: socket.socket) -> str:
    """The login name of the user on the other end of ``sock``."""
    return user_name(peer_uid(sock))
