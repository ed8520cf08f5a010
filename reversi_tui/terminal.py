"""What the terminal can do, decided before Textual is imported.

The full-screen game needs a terminal on standard input and output, and draws the
Unicode board only where the locale (and the output stream) can show it. Each
decision here is a small pure function of what it is given, so tests need no
terminal; nothing here imports Textual.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Mapping
from typing import TextIO

#: The one line ``reversi`` prints (and exits 2) when it has no terminal to draw on.
NO_TERMINAL = (
    "reversi: the full-screen game needs a terminal on standard input and output; "
    "use 'reversi --plain' for line mode, or a command such as 'reversi move'"
)

#: Characters of the Unicode board; an output encoding that cannot write them gets ASCII.
UNICODE_SAMPLE = "┌─┼●○•▀▄"


def is_terminal(stream: TextIO | None) -> bool:
    """True when ``stream`` is open and its file descriptor is a terminal.

    A closed stream (``reversi <&-`` leaves ``sys.stdin`` as None) or one without a
    file descriptor (a test's capture) is not a terminal.
    """
    if stream is None:
        return False
    try:
        return os.isatty(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def warn(line: str) -> None:
    """Print ``line`` on standard error, or nowhere when it is closed (``2>&-``).

    ``print(file=None)`` would write to standard output, into a transcript.
    """
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            print(line, file=sys.stderr, flush=True)


def reserve_standard_fds() -> None:
    """Open ``/dev/null`` on any of file descriptors 0, 1 and 2 that is closed.

    With ``2>&-`` the next file or pipe opened would get descriptor 2 and catch
    whatever is written to "standard error" (by a child process, or by Python on a
    fatal error). ``sys.stdin``/``sys.stdout``/``sys.stderr`` stay None, so the
    closed stream is still known as closed.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def silence_stdout() -> None:
    """Send what is left of standard output to ``/dev/null``.

    After a broken pipe or a full disk, Python's own flush at exit would fail again
    and print "Exception ignored ... BrokenPipeError" (and exit 120); the Python
    documentation's remedy (the "Note on SIGPIPE" in the signal module).
    """
    if sys.stdout is None:
        return
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def terminal_problem(stdin: TextIO | None, stdout: TextIO | None) -> str | None:
    """The message to print when the full-screen game cannot run here, else None."""
    if is_terminal(stdin) and is_terminal(stdout):
        return None
    return NO_TERMINAL


def locale_codeset(environ: Mapping[str, str]) -> str | None:
    """The character set of the C library's LC_CTYPE locale, from the environment.

    As the C library resolves it: the first non-empty of LC_ALL, LC_CTYPE and LANG
    names the locale. None for the C/POSIX locale (no variable set, or "C"/"POSIX"),
    "" for a locale without an explicit ``.codeset``, else the codeset as written
    (``en_US.UTF-8@euro`` -> ``UTF-8``). Python's own encoding is no guide: since
    Python 3.7 it coerces the C locale to UTF-8 (PEP 538, PEP 540), the terminal not.
    """
    name = next((environ[k] for k in ("LC_ALL", "LC_CTYPE", "LANG") if environ.get(k)), "")
    if name in ("", "C", "POSIX"):
        return None
    _, dot, rest = name.partition(".")
    return rest.partition("@")[0] if dot else ""


def locale_is_utf8(environ: Mapping[str, str]) -> bool:
    """True when the environment's locale uses UTF-8 (``UTF-8``, ``utf8``, any case).

    A locale without a codeset (``en_US``) uses its language's traditional one, which
    for most is not UTF-8; the C/POSIX locale is ASCII.
    """
    codeset = locale_codeset(environ)
    return codeset is not None and codeset.replace("-", "").replace("_", "").lower() == "utf8"


def can_encode_board(encoding: str | None) -> bool:
    """True when text in ``encoding`` can carry the Unicode board's characters."""
    if not encoding:
        return True
    try:
        UNICODE_SAMPLE.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def use_ascii(
    *,
    ascii_flag: bool,
    unicode_flag: bool,
    environ: Mapping[str, str],
    encoding: str | None = None,
    windows: bool = False,
) -> bool:
    """Whether the app draws with ASCII only.

    ``--ascii`` and ``--unicode`` decide when given. Otherwise ASCII is chosen when
    the locale is not UTF-8 (``LC_ALL=C``, a Latin-1 locale) or when the stream the
    app draws on cannot encode the board (``PYTHONIOENCODING=ascii``). Windows
    consoles do not use the locale variables, so there only the encoding counts.
    """
    if ascii_flag or unicode_flag:
        return ascii_flag
    if not can_encode_board(encoding):
        return True
    return not windows and not locale_is_utf8(environ)
