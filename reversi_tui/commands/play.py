"""Start a game: the players and start position from the options, then a front end."""

from __future__ import annotations

import argparse

from reversi_tui.engine import Color, Game
from reversi_tui.players import Player, make_player


def game_from_args(args: argparse.Namespace) -> Game:
    colour = Color.WHITE if args.handicap_colour == "white" else Color.BLACK
    return Game.with_handicap(args.handicap, colour)


def players_from_args(args: argparse.Namespace, black: str, white: str) -> dict[Color, Player]:
    """``black``/``white`` are the front end's defaults when the option is absent."""
    seed = args.seed
    return {
        Color.BLACK: make_player(args.black or black, args.think_time, seed),
        Color.WHITE: make_player(
            args.white or white, args.think_time, None if seed is None else seed + 1
        ),
    }


def run_plain(args: argparse.Namespace) -> int:
    from reversi_tui import plain

    return plain.run(game_from_args(args), players_from_args(args, "human", "human"))


def run_tui(args: argparse.Namespace) -> int:
    from reversi_tui.tui.app import run_app

    return run_app(game_from_args(args), players_from_args(args, "human", "medium"), args)
