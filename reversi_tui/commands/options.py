"""What the commands' options share: value types and the common options.

Light to import: ``cli.py`` imports it, and each command module that declares its own
options (``add_parser``) with it, on every run.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, TypeAlias

from reversi_tui.match.settings import MOST_THINK_SECONDS
from reversi_tui.records.paths import DATA_DIR_ENV
from reversi_tui.terminal import warn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

#: The highest game number --game accepts (with --load, and for convert).
MOST_GAMES = 100000
#: The most seconds --think-time and --delay accept (an hour; a save is held to it too).
MOST_SECONDS = MOST_THINK_SECONDS
POSITION_HELP = "64 squares a1..h8 (X, O or -), a space, X or O to move; may start with -"


def seconds(text: str, *, zero_ok: bool, most: float | None = None) -> float:
    """An option's number of seconds: positive (or zero, ``zero_ok``), at most ``most``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    low_ok = value >= 0 if zero_ok else value > 0
    if not low_ok or value == float("inf"):
        kind = "zero or a positive" if zero_ok else "a positive"
        raise argparse.ArgumentTypeError(f"must be {kind} number of seconds")
    if most is not None and value > most:
        raise argparse.ArgumentTypeError(f"must be at most {most:g} seconds")
    return value


def think_seconds(text: str) -> float:
    """A computer's thinking time: positive, and at most an hour."""
    return seconds(text, zero_ok=False, most=MOST_SECONDS)


def positive_float(text: str) -> float:
    return seconds(text, zero_ok=False)


def int_range(low: int, high: int) -> Callable[[str], int]:
    """An option's type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}")
        return value

    return parse


def data_dir_after(command: argparse.ArgumentParser, what: str) -> None:
    """``--data-dir`` after ``command`` too: the same as before it, and it wins over that.

    SUPPRESS: when not given here, the command's parser leaves the top-level value be.
    """
    command.add_argument(
        "--data-dir",
        default=argparse.SUPPRESS,
        metavar="DIR",
        help=f"{what} (the same as reversi --data-dir DIR {command.prog.split()[-1]}; "
        f"default: the user's data directory, or ${DATA_DIR_ENV})",
    )


class Parser(argparse.ArgumentParser):
    """argparse's parser, except that a failed write on standard output is not hidden.

    ``ArgumentParser._print_message`` ignores OSError: ``reversi --help > /dev/full``
    or into a closed pipe would exit 0 having written nothing. Raised, ``main``
    reports it as it does every failed write. Standard error stays best effort, and
    an error's usage goes there even when it is closed (argparse would then print it
    on standard output, into a transcript).
    """

    def error(self, message: str) -> NoReturn:
        warn(f"{self.format_usage()}{self.prog}: error: {message}")
        sys.exit(2)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if not message:
            return
        if file is None or file is sys.stderr:
            warn(message.removesuffix("\n"))
        else:
            file.write(message)


#: What ``add_parser(commands)`` adds a command's parser to.
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"
