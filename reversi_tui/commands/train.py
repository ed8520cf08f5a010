"""``reversi train``: self-play data for the pattern evaluation, and the fit of its weights.

Light to import (the parser is built on every run): the training package loads
when a subcommand runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reversi_tui.commands.options import Commands, int_range
from reversi_tui.terminal import warn


def _number(low: float, high: float, *, low_open: bool = False) -> Callable[[str], float]:
    """An option's type: a number from ``low`` (excluded with ``low_open``) to ``high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not (low < value if low_open else low <= value) or not value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:g} to {high:g}")
        return value

    return parse


def _option(
    parser: argparse.ArgumentParser,
    name: str,
    kind: Callable[[str], Any],
    default: Any,
    *,
    metavar: str,
    help: str,
) -> None:
    """An option with a default, which its help ends with."""
    shown = "-".join(map(str, default)) if isinstance(default, tuple) else default
    parser.add_argument(
        name, type=kind, default=default, metavar=metavar, help=f"{help} (default: {shown})"
    )


def _data_option(parser: argparse.ArgumentParser, help: str) -> None:
    """The repeatable ``--data DIR`` option."""
    parser.add_argument(
        "--data", required=True, type=Path, action="append", metavar="DIR", help=help
    )


def _plies(text: str) -> tuple[int, int]:
    low, sep, high = text.partition("-")
    try:
        span = (int(low), int(high)) if sep else (int(low), int(low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not MIN-MAX such as 4-12") from None
    if not 0 <= span[0] <= span[1] <= 40:
        raise argparse.ArgumentTypeError("must be MIN-MAX with 0 <= MIN <= MAX <= 40")
    return span


def add_parser(commands: Commands) -> None:
    train = commands.add_parser(
        "train",
        help="train the pattern evaluation (self-play data, a least-squares fit), build the book",
    )
    kinds = train.add_subparsers(dest="train", metavar="STEP", required=True)
    generate = kinds.add_parser(
        "generate",
        help="play and label self-play games into a data directory (resumes a stopped run)",
    )
    generate.add_argument("--out", required=True, type=Path, metavar="DIR", help="data directory")
    generate.add_argument(
        "--games",
        required=True,
        type=int_range(1, 100_000_000),
        metavar="N",
        help="games the directory should hold when done (a resumed run plays the rest)",
    )
    _option(generate, "--seed", int_range(0, 2**63), 1, metavar="S", help="the run's seed")
    _option(
        generate,
        "--depth",
        int_range(1, 12),
        4,
        metavar="D",
        help="plies the midgame moves are searched",
    )
    _option(
        generate,
        "--epsilon",
        _number(0, 1),
        0.05,
        metavar="P",
        help="chance of a random move after the opening",
    )
    _option(
        generate,
        "--opening",
        _plies,
        (4, 12),
        metavar="MIN-MAX",
        help="random plies that open each game",
    )
    _option(
        generate,
        "--exact-empties",
        int_range(0, 20),
        14,
        metavar="E",
        help="positions with E empty squares or fewer get the solver's exact score",
    )
    _option(
        generate,
        "--chunk-games",
        int_range(1, 100_000),
        100,
        metavar="N",
        help="games per chunk file, the most a stopped run loses",
    )
    _option(
        generate,
        "--jobs",
        int_range(1, 64),
        1,
        metavar="N",
        help="processes playing chunks at once (the data are the same for any N)",
    )
    generate.set_defaults(handler=run_generate)
    fit = kinds.add_parser(
        "fit", help="fit pattern weights per phase (needs numpy: pip install 'reversi-tui[train]')"
    )
    _data_option(fit, "data directory (repeat to fit on several)")
    fit.add_argument("--out", required=True, type=Path, metavar="WEIGHTS", help="weights file")
    _option(
        fit,
        "--bootstrap",
        int_range(0, 12),
        0,
        metavar="DEPTH",
        help="fit from the end backwards, labelling each phase's positions the solver did "
        "not score with a search this deep into the phases already fitted (at least the "
        "phase width; resumable); 0 labels them with their game's result",
    )
    _option(
        fit,
        "--sample",
        int_range(0, 10**9),
        0,
        metavar="N",
        help="with --bootstrap, search at most N positions a phase (0: all)",
    )
    _option(
        fit,
        "--jobs",
        int_range(1, 64),
        1,
        metavar="N",
        help="with --bootstrap, processes searching at once (the weights are the same for any N)",
    )
    fit.add_argument(
        "--no-centre",
        dest="centre",
        action="store_false",
        help="with --bootstrap, do not centre each phase before labelling the next (the "
        "shipped weights were fitted so, then centred whole by 'reversi train centre')",
    )
    _option(
        fit, "--phase-empties", int_range(1, 60), 4, metavar="N", help="empty squares per phase"
    )
    _option(
        fit,
        "--holdout",
        int_range(2, 1000),
        10,
        metavar="K",
        help="every K-th game is held out to measure the error",
    )
    _option(
        fit,
        "--ridge",
        _number(0, 1e9, low_open=True),
        3.0,
        metavar="L",
        help="pull of each weight toward the next phase's",
    )
    _option(
        fit,
        "--iterations",
        int_range(1, 10_000),
        100,
        metavar="N",
        help="conjugate-gradient steps per phase",
    )
    fit.set_defaults(handler=run_fit)
    centre = kinds.add_parser(
        "centre",
        help="centre a weights file: per count of empty squares, remove the bias the games' "
        "results show",
    )
    centre.add_argument(
        "--weights", required=True, type=Path, metavar="WEIGHTS", help="weights file to centre"
    )
    _data_option(centre, "data directory whose games measure the bias (repeat for several)")
    centre.add_argument(
        "--out", required=True, type=Path, metavar="WEIGHTS", help="centred weights file"
    )
    _option(
        centre, "--holdout", int_range(2, 1000), 10, metavar="K", help="every K-th game is held out"
    )
    centre.set_defaults(handler=run_centre)
    book = kinds.add_parser(
        "book", help="search opening positions into an opening book file (resumes a stopped run)"
    )
    book.add_argument("--out", required=True, type=Path, metavar="FILE", help="book file")
    _option(book, "--plies", int_range(1, 30), 10, metavar="N", help="plies the book covers")
    _option(
        book, "--depth", int_range(1, 20), 8, metavar="D", help="plies each position is searched"
    )
    _option(book, "--seed", int_range(0, 2**63), 1, metavar="S", help="the run's seed")
    _option(
        book,
        "--lines",
        int_range(0, 10_000_000),
        1000,
        metavar="L",
        help="random openings of N plies whose positions join the book",
    )
    _option(
        book,
        "--enumerate",
        int_range(0, 8),
        4,
        metavar="K",
        help="every position of the first K plies joins the book",
    )
    book.add_argument(
        "--selective",
        action="store_true",
        help="prune the searches with Multi-ProbCut as hard and expert do (deeper, same time)",
    )
    _option(
        book,
        "--expand",
        int_range(0, 30),
        0,
        metavar="K",
        help="also follow every move within --spread discs of the best, K plies from the start",
    )
    _option(
        book,
        "--spread",
        _number(0, 64),
        2.0,
        metavar="D",
        help="discs from the best move that --expand follows",
    )
    book.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="DIR",
        help="also the first N plies' positions of a 'reversi train generate' data directory",
    )
    book.set_defaults(handler=run_book)
    probcut = kinds.add_parser(
        "probcut",
        help="calibrate the selective search (Multi-ProbCut) on a data directory's positions",
    )
    probcut.add_argument("--data", required=True, type=Path, metavar="DIR", help="data directory")
    _option(
        probcut, "--positions", int_range(10, 100_000), 160, metavar="N", help="positions searched"
    )
    _option(probcut, "--depth", int_range(4, 12), 8, metavar="D", help="plies each is searched to")
    _option(probcut, "--seed", int_range(0, 2**63), 1, metavar="S", help="picks the positions")
    probcut.set_defaults(handler=run_probcut)


def run_generate(args: argparse.Namespace) -> int:
    from reversi_tui.records.paths import StorageError
    from reversi_tui.training.data import DataError
    from reversi_tui.training.generate import Settings, generate

    settings = Settings(
        seed=args.seed,
        depth=args.depth,
        epsilon=args.epsilon,
        opening_min=args.opening[0],
        opening_max=args.opening[1],
        exact_empties=args.exact_empties,
        chunk_games=args.chunk_games,
    )
    try:
        manifest = generate(args.out, settings, args.games, print, args.jobs)
    except (DataError, StorageError, OSError) as err:
        warn(f"reversi train generate: {err}")
        return 2
    rate = manifest["positions"] / max(manifest["seconds"], 1e-9)
    print(
        f"{args.out}: {manifest['games']} games, {manifest['positions']} positions "
        f"({manifest['exact_positions']} exact), {rate:.1f} positions/s a process over all runs"
    )
    return 0


def run_book(args: argparse.Namespace) -> int:
    from reversi_tui.records.paths import StorageError
    from reversi_tui.training.book import BookBuildError, BookSettings, build_book
    from reversi_tui.training.data import DataError

    source = None if args.source is None else str(args.source)
    settings = BookSettings(
        args.seed,
        args.plies,
        args.depth,
        args.lines,
        args.enumerate,
        source,
        args.selective,
        args.expand,
        args.spread,
    )
    try:
        meta = build_book(args.out, settings, print)
    except (BookBuildError, DataError, StorageError, OSError) as err:
        warn(f"reversi train book: {err}")
        return 2
    print(f"{args.out}: {meta['positions']} positions searched to depth {args.depth}")
    return 0


def run_fit(args: argparse.Namespace) -> int:
    from reversi_tui.training.data import DataError
    from reversi_tui.training.fit import FitOptions, NumpyMissing, fit, need_numpy

    try:
        need_numpy()
        if args.bootstrap:
            from reversi_tui.training.bootstrap import BootstrapOptions, fit_bootstrap

            boot = BootstrapOptions(
                args.phase_empties,
                args.bootstrap,
                args.holdout,
                args.ridge,
                args.iterations,
                args.sample,
                args.centre,
            )
            reports = fit_bootstrap(args.data, args.out, boot, print, args.jobs)
        else:
            options = FitOptions(args.phase_empties, args.holdout, args.ridge, args.iterations)
            reports = fit(args.data, args.out, options, print)
    except NumpyMissing as err:
        warn(str(err))
        return 2
    except (DataError, OSError, ValueError) as err:
        warn(f"reversi train fit: {err}")
        return 2
    print("empties  train   held out  MAE (discs)  predicting the mean")
    for r in reports:
        print(
            f"{r.low:2d}-{r.high:2d}  {r.train:7d}  {r.test:8d}  {r.mae:11.2f}  {r.baseline:19.2f}"
        )
    print(f"weights written to {args.out}")
    return 0


def run_centre(args: argparse.Namespace) -> int:
    from reversi_tui.engine.ai.pattern_eval import WeightsError, decode_weights, weights_bytes
    from reversi_tui.records.atomic import atomic_write
    from reversi_tui.records.paths import StorageError
    from reversi_tui.training.centre import centre_report, centred, measure_offsets
    from reversi_tui.training.data import DataError

    try:
        weights = decode_weights(args.weights.read_bytes())
        rows = measure_offsets(weights, args.data, args.holdout)
        if not any(r.positions for r in rows):
            warn("reversi train centre: the data hold no positions")
            return 2
        atomic_write(args.out, weights_bytes(centred(weights, rows)))
    except (WeightsError, DataError, StorageError, OSError) as err:
        warn(f"reversi train centre: {err}")
        return 2
    centre_report(rows, print)
    print(f"centred weights written to {args.out}")
    return 0


def run_probcut(args: argparse.Namespace) -> int:
    from reversi_tui.engine.ai.learned import WEIGHTS_SHA256
    from reversi_tui.training.data import DataError
    from reversi_tui.training.probcut import calibrate, table_source

    try:
        cuts = calibrate(args.data, args.positions, args.depth, args.seed, print)
    except (DataError, OSError, ValueError) as err:
        warn(f"reversi train probcut: {err}")
        return 2
    print("depth  probe  slope  intercept  sigma (evaluation units, a tenth of a disc)")
    for depth, cut in sorted(cuts.items()):
        slope, intercept, sigma = cut.slope, cut.intercept, cut.sigma
        print(f"{depth:5d}  {cut.shallow:5d}  {slope:5.3f}  {intercept:9.1f}  {sigma:5.1f}")
    print(table_source(cuts, WEIGHTS_SHA256))
    return 0
