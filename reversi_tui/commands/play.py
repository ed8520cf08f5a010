"""Start a game: the match settings from the options, then a front end."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from reversi_tui.engine import Color
from reversi_tui.match import MatchSettings, PlayerSpec
from reversi_tui.terminal import is_terminal, terminal_problem, use_ascii, warn


def settings_from_args(args: argparse.Namespace, black: str, white: str) -> MatchSettings:
    """``black``/``white`` are the front end's defaults when the option is absent."""
    return MatchSettings(
        black=PlayerSpec.parse(args.black or black, args.think_time),
        white=PlayerSpec.parse(args.white or white, args.think_time),
        handicap=args.handicap,
        handicap_colour=Color.WHITE if args.handicap_colour == "white" else Color.BLACK,
        seed=args.seed,
    )


def run_plain(args: argparse.Namespace) -> int:
    from reversi_tui import plain

    return plain.run(settings_from_args(args, "human", "human"))


def run_tui(args: argparse.Namespace) -> int:
    """The full-screen game; without a terminal, one line that points to --plain, and 2.

    Checked before Textual is imported: with standard input or output redirected it
    would write escape codes into a file and wait for keys that never come.
    """
    problem = terminal_problem(sys.__stdin__, sys.__stdout__)
    if problem is not None:
        warn(problem)
        return 2
    with _screen_on_a_terminal() as screen:
        args.ascii = use_ascii(
            ascii_flag=args.ascii,
            unicode_flag=args.unicode,
            environ=os.environ,
            encoding=getattr(screen, "encoding", None),
            windows=sys.platform == "win32",
        )
        from reversi_tui.tui.app import run_app

        return run_app(settings_from_args(args, "human", "medium"), args)


@contextmanager
def _screen_on_a_terminal() -> Iterator[object]:
    """Yield the stream the app will draw on, made a terminal for the app's run.

    Textual 8.2.8's ``LinuxDriver`` draws on ``sys.__stderr__`` (read when the app
    starts): with standard error redirected (``2>/dev/null``, ``2>log``) or closed
    (``2>&-``) the screen stays blank while the app waits for keys. Then, and only
    for the app's run, ``sys.__stderr__`` is a stream on standard output, which is a
    terminal (``run_tui`` checked), with stderr's ``backslashreplace`` errors.
    ``sys.stderr``, where messages go, is left as the user redirected it.
    """
    err, out = sys.__stderr__, sys.__stdout__
    if is_terminal(err) or out is None:
        yield err
        return
    screen = open(  # noqa: SIM115 -- closed below, after the app has finished with it
        os.dup(out.fileno()), "w", encoding=out.encoding, errors="backslashreplace"
    )
    setattr(sys, "__stderr__", screen)  # noqa: B010 -- typeshed declares it Final
    try:
        yield screen
    finally:
        setattr(sys, "__stderr__", err)  # noqa: B010
        screen.close()
