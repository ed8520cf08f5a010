"""Start a game: the match settings from the options, then a front end."""

from __future__ import annotations

import argparse

from reversi_tui.engine import Color
from reversi_tui.match import MatchSettings, PlayerSpec


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
    from reversi_tui.tui.app import run_app

    return run_app(settings_from_args(args, "human", "medium"), args)
