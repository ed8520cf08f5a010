"""Command line: picks a front end or a command. Imports Textual only for the TUI."""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Callable, Sequence

from reversi_tui import __version__
from reversi_tui.commands import arena, bench, convert, history, move, play, serve, solve
from reversi_tui.commands.options import (
    MOST_GAMES,
    MOST_SECONDS,
    POSITION_HELP,
    Commands,
    Parser,
    int_range,
    seconds,
    think_seconds,
)
from reversi_tui.match.settings import LEVEL_NAMES, PlayerSpec
from reversi_tui.records.paths import DATA_DIR_ENV
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

#: Options that only the full-screen game reads; line mode says it ignores them.
TUI_ONLY = (
    "--ascii",
    "--unicode",
    "--no-mouse",
    "--theme",
    "--delay",
    "--reply-delay",
    "--new",
    "--resume",
)
#: What ``reversi >&-`` prints (and exits 1): there is nowhere to write.
STDOUT_CLOSED = "reversi: standard output is closed"
#: A failed write on standard output with these is one line on stderr, not a traceback.
WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
#: The TUI's pause between computer moves when --delay is not given.
DEFAULT_DELAY = 0.5
#: The least seconds the computer takes to answer a person when --reply-delay is not given.
DEFAULT_REPLY_DELAY = 0.4


#: The commands, in the order ``reversi --help`` lists them: each adds its parser.
COMMANDS: tuple[Callable[[Commands], None], ...] = (
    move.add_parser,
    solve.add_parser,
    arena.add_parser,
    play.add_online_parser,
    serve.add_parser,
    convert.add_parser,
    history.add_parser,
    bench.add_parser,
)


def _non_negative_float(text: str) -> float:
    return seconds(text, zero_ok=True, most=MOST_SECONDS)


def _player(text: str) -> str:
    """A ``--black``/``--white`` value: a player's text form (``human``, ``hard``,
    ``hard/2.5s``...: see ``PlayerSpec``) that this version can play, in its one spelling."""
    try:
        spec = PlayerSpec.from_text(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    from reversi_tui.players import can_play  # only when a player is given

    if spec.think_time is not None and spec.think_time > MOST_SECONDS:
        raise argparse.ArgumentTypeError(f"a player thinks at most {MOST_SECONDS:g} seconds")
    if not can_play(spec):
        raise argparse.ArgumentTypeError(
            f"{spec.label} cannot play yet: this version plays human and the levels "
            f"({', '.join(LEVEL_NAMES)})"
        )
    return spec.text


class _TuiOnly(argparse.Action):
    """Stores an option of the full-screen game and notes that it was given.

    ``nargs=0`` makes a flag (stores True); otherwise the value is stored. The
    canonical names given collect in ``tui_only`` so ``--plain`` can warn about them.
    """

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[object] | None,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, True if self.nargs == 0 else values)
        given: tuple[str, ...] = getattr(namespace, "tui_only", ())
        name = self.option_strings[0]
        if name not in given:
            namespace.tui_only = (*given, name)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="reversi",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"reversi {__version__}")
    parser.add_argument(
        "--plain", action="store_true", help="line mode (RowCol moves on standard input)"
    )
    parser.add_argument(
        "--black",
        type=_player,
        metavar="PLAYER",
        help="who plays black: human, easy, medium, hard or expert, or a level with its own "
        "seconds or depth per move, like hard/2.5s, hard/6ply or hard/0.5s/6ply "
        "(default: human)",
    )
    parser.add_argument(
        "--white",
        type=_player,
        metavar="PLAYER",
        help="who plays white: as --black (default: medium; human in --plain)",
    )
    parser.add_argument(
        "--handicap",
        type=int_range(0, 4),
        metavar="N",
        help="pre-place N corner discs (0-4, corners a1, h8, h1, a8) for --handicap-colour",
    )
    parser.add_argument(
        "--handicap-colour",
        "--handicap-color",
        choices=("black", "white"),
        help="the colour that gets the handicap corners (default: black)",
    )
    parser.add_argument(
        "--think-time",
        type=think_seconds,
        metavar="S",
        help="seconds the computer may think per move, at most 3600 "
        "(default: the level's own budget; a player's own, as in hard/2.5s, comes first)",
    )
    parser.add_argument(
        "--seed", type=int, help="seed the computer's choice among equal moves (reproducible games)"
    )
    parser.set_defaults(tui_only=())
    parser.add_argument(
        "--delay",
        action=_TuiOnly,
        type=_non_negative_float,
        default=DEFAULT_DELAY,
        metavar="S",
        help=f"pause between moves when the computer plays both sides (default: {DEFAULT_DELAY})",
    )
    parser.add_argument(
        "--reply-delay",
        action=_TuiOnly,
        type=_non_negative_float,
        default=DEFAULT_REPLY_DELAY,
        metavar="S",
        help="the least time the computer takes to answer you, so you see your move land "
        f"first (default: {DEFAULT_REPLY_DELAY})",
    )
    glyphs = parser.add_mutually_exclusive_group()
    glyphs.add_argument(
        "--ascii",
        action=_TuiOnly,
        nargs=0,
        default=False,
        help="draw with ASCII only (discs X and O, empty .); chosen automatically when the "
        "locale is not UTF-8 (LC_ALL, LC_CTYPE, LANG)",
    )
    glyphs.add_argument(
        "--unicode",
        action=_TuiOnly,
        nargs=0,
        default=False,
        help="draw the Unicode board even when the locale is not UTF-8",
    )
    parser.add_argument(
        "--no-mouse", action=_TuiOnly, nargs=0, default=False, help="do not capture the mouse"
    )
    parser.add_argument(
        "--theme", action=_TuiOnly, metavar="NAME", help="start with this theme (see the palette)"
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help=f"keep autosaves, saved games, records and settings in DIR (default: the "
        f"user's data directory; also ${DATA_DIR_ENV})",
    )
    start = parser.add_mutually_exclusive_group()
    start.add_argument(
        "--new",
        action=_TuiOnly,
        nargs=0,
        default=False,
        help="start a new game without offering the unfinished ones",
    )
    start.add_argument(
        "--resume",
        action=_TuiOnly,
        nargs=0,
        default=False,
        help="resume the most recent unfinished game without asking",
    )
    start.add_argument(
        "--load",
        metavar="FILE",
        help="play on from a game file: PGN, GGF, a move list or a position",
    )
    start.add_argument(
        "--moves",
        metavar="MOVES",
        help="play on after these moves from the start (f5d6c3...), or from the POSITION "
        "they follow (what m copies for a handicap game)",
    )
    start.add_argument(
        "--position",
        metavar="POSITION",
        help=f"play on from here: {POSITION_HELP}; moves may follow (f5d6...)",
    )
    parser.add_argument(
        "--game",
        type=int_range(1, MOST_GAMES),
        metavar="N",
        help="with --load: which game of a file with several (default: the first)",
    )

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


def _run(argv: Sequence[str] | None) -> int:
    """Parse the arguments and run the front end or command they name."""
    args = build_parser().parse_args(protect_positions(sys.argv[1:] if argv is None else argv))
    if args.command is None:
        if args.plain:
            from reversi_tui.commands.play import run_plain

            warn_ignored_in_line_mode(args)
            return run_plain(args)
        from reversi_tui.commands.play import run_tui

        return run_tui(args)
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)
