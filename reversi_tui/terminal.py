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


#: The values Python's start-up coercion (PEP 538) writes into LC_CTYPE, in its order.
COERCION_TARGETS = ("C.UTF-8", "C.utf8", "UTF-8")


def coerced_by_python(
    environ: Mapping[str, str], original: Mapping[str, str] | None, utf8_mode: bool
) -> bool:
    """True when ``environ``'s LC_CTYPE was written by Python's start-up, not by the user.

    With no LC_ALL and a C or POSIX locale (no variable set, ``LANG=C``, or a locale
    the system lacks) Python sets ``LC_CTYPE=C.UTF-8`` in its own environment, so
    under ``su -`` or ssh the terminal's ASCII locale would read as UTF-8. The
    process's ``original`` environment (``/proc/self/environ``) tells for sure;
    without it, the UTF-8 mode Python turns on in the same case (PEP 540) does.
    """
    ctype = environ.get("LC_CTYPE", "")
    if environ.get("LC_ALL") or ctype not in COERCION_TARGETS:
        return False
    if original is not None:
        return original.get("LC_CTYPE", "") != ctype
    return utf8_mode


def user_locale(
    environ: Mapping[str, str], original: Mapping[str, str] | None, utf8_mode: bool
) -> Mapping[str, str]:
    """``environ`` with the locale the user really had: without a coerced LC_CTYPE."""
    if not coerced_by_python(environ, original, utf8_mode):
        return environ
    return {name: value for name, value in environ.items() if name != "LC_CTYPE"}


def startup_environ() -> dict[str, str] | None:
    """The environment this process was started with, before Python changed it.

    Linux keeps the strings ``execve`` was given in ``/proc/self/environ``; setting
    a variable later does not write there. None where it cannot be read.
    """
    try:
        with open("/proc/self/environ", "rb") as file:
            raw = file.read()
    except OSError:
        return None
    pairs = (item.partition(b"=") for item in raw.split(b"\0") if item)
    return {os.fsdecode(name): os.fsdecode(value) for name, _, value in pairs}


def startup_locale() -> Mapping[str, str]:
    """The locale variables as the user set them, for ``use_ascii``."""
    return user_locale(os.environ, startup_environ(), bool(sys.flags.utf8_mode))


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
    ``environ`` is the user's own locale (``startup_locale``), not Python's coerced one.
    """
    if ascii_flag or unicode_flag:
        return ascii_flag
    if not can_encode_board(encoding):
        return True
    return not windows and not locale_is_utf8(environ)
