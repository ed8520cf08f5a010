"""Command line: picks a front end or a command. Imports Textual only for the TUI."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from reversi_tui import __version__
from reversi_tui.commands import (
    analyse,
    arena,
    bench,
    convert,
    engine,
    history,
    move,
    play,
    serve,
    solve,
    train,
)
from reversi_tui.commands.options import MOST_SECONDS as MOST_SECONDS  # kept for callers
from reversi_tui.commands.options import Commands, Parser
from reversi_tui.commands.play import DEFAULT_DELAY as DEFAULT_DELAY
from reversi_tui.commands.play import DEFAULT_REPLY_DELAY as DEFAULT_REPLY_DELAY
from reversi_tui.terminal import is_terminal, reserve_standard_fds, silence_stdout, warn

DESCRIPTION = """\
Reversi (Othello rules) in the terminal.

With no command, opens the full-screen game (default: you play black against the
computer at medium). --plain plays in line mode on standard input and output
instead (both colours human unless --black/--white say otherwise)."""

EPILOG = """\
A POSITION is 64 characters a1 b1 ... h8 (X black, O white, - empty), a space and
the side to move, quoted as one argument; the start position is
"---------------------------OX------XO--------------------------- X".
Run 'reversi COMMAND --help' for a command's options."""

#: The characters of a position's board (as the notation reads them).
BOARD_CHARACTERS = frozenset("-.XxOo*0")
#: Commands whose one positional argument is a POSITION.
POSITION_COMMANDS = ("move", "solve")

#: What ``reversi >&-`` prints (and exits 1): there is nowhere to write.
STDOUT_CLOSED = "reversi: standard output is closed"
#: A failed write on standard output with these is one line on stderr, not a traceback.
WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


#: A folder holding the learned files (pattern weights, opening book) to use instead of
#: the package's: for tests of damaged or other files.
LEARNED_FILES_ENV = "REVERSI_LEARNED_FILES"


#: The commands, in the order ``reversi --help`` lists them: each adds its parser.
COMMANDS: tuple[Callable[[Commands], None], ...] = (
    move.add_parser,
    solve.add_parser,
    arena.add_parser,
    engine.add_parser,
    play.add_online_parser,
    serve.add_parser,
    convert.add_parser,
    history.add_parser,
    analyse.add_parser,
    bench.add_parser,
    train.add_parser,
)


def version_text() -> str:
    """``reversi --version``: the version, and which endgame solver runs (and why not C)."""
    from reversi_tui.engine.ai.native_endgame import describe

    return f"reversi {__version__}\nendgame solver: {describe()}"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="reversi",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=version_text())
    play.add_game_options(parser)
    # Each command declares its options and names its handler (``set_defaults(handler=)``)
    # in its own module, kept light to import: what it runs on it imports when it runs.
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for add_parser in COMMANDS:
        add_parser(commands)
    return parser


def looks_like_position(arg: str) -> bool:
    """A ``-``-led argument made of board characters, which argparse would take for an option.

    The start position begins with ``-``; so may a position of the wrong length,
    which then deserves the position's own error rather than "unrecognized arguments".
    """
    board = arg.split(";", 1)[0].strip().split(" ", 1)[0]
    return (
        arg.startswith("-")
        and arg not in ("-", "--")
        and len(board) > 2
        and set(board) <= BOARD_CHARACTERS
    )


def protect_positions(argv: Sequence[str]) -> list[str]:
    """``move``/``solve``: a position led by ``-`` goes last, after ``--``.

    So ``reversi move ---...--- --json`` needs no ``--`` of the user's. Arguments
    that already follow a ``--`` are left alone. ``--position`` followed by a
    position led by ``-`` becomes ``--position=<position>``.
    """
    args = list(argv)
    for i in range(len(args) - 1):
        if args[i] == "--":
            break
        if args[i] == "--position" and looks_like_position(args[i + 1]):
            args[i : i + 2] = [f"--position={args[i + 1]}"]
            break
    start = next((i for i, arg in enumerate(args) if arg in POSITION_COMMANDS), None)
    if start is None or "--" in args:
        return args
    for i in range(start + 1, len(args)):
        if looks_like_position(args[i]):
            position = args.pop(i)
            return [*args, "--", position]
    return args


def warn_ignored_in_line_mode(args: argparse.Namespace) -> None:
    """``--plain`` with options of the full-screen game: one line on stderr names them."""
    given: tuple[str, ...] = args.tui_only
    if given:
        names = ", ".join(given)
        verb = "is" if len(given) == 1 else "are"
        warn(f"reversi: {names} {verb} ignored in line mode (--plain)")


def main(argv: Sequence[str] | None = None) -> int:
    """The ``reversi`` command: its exit status, whatever happens to the streams.

    Handled here once for every command: a closed standard output is refused in one
    line; a broken pipe (``reversi --help | head -1``) exits 141 quietly, as death by
    SIGPIPE would; a failed write (``> /dev/full``) says so in one line and exits 1;
    Ctrl-C exits 130. Messages go to standard error, or nowhere when it is closed.
    """
    try:
        reserve_standard_fds()
        if sys.stdout is None:
            warn(STDOUT_CLOSED)
            return 1
        try:
            return _run(argv)
        finally:
            sys.stdout.flush()  # here, so that a failure is caught below
    except BrokenPipeError:
        silence_stdout()
        return 141
    except OSError as error:
        if error.errno not in WRITE_ERRORS:
            raise
        silence_stdout()
        warn(f"reversi: write error: {error.strerror}")
        return 1
    except KeyboardInterrupt:
        # A newline first, past the ^C the terminal echoed; one line when not a terminal.
        warn(("\n" if is_terminal(sys.stderr) else "") + "reversi: interrupted")
        return 130


def report_learned_files() -> None:
    """A refused learned file is one line on stderr (the app shows it instead), and
    ``LEARNED_FILES_ENV`` names where they are read from."""
    from reversi_tui.engine.ai import learned

    folder = os.environ.get(LEARNED_FILES_ENV)
    if folder:
        learned.read_from(Path(folder))
    learned.report_to(lambda problem: warn(f"reversi: {problem}"))


def _run(argv: Sequence[str] | None) -> int:
    """Parse the arguments and run the front end or command they name."""
    args = build_parser().parse_args(protect_positions(sys.argv[1:] if argv is None else argv))
    report_learned_files()
    if args.command is None:
        if args.plain:
            from reversi_tui.commands.play import run_plain

            warn_ignored_in_line_mode(args)
            return run_plain(args)
        from reversi_tui.commands.play import run_tui

        return run_tui(args)
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)
