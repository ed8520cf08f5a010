"""The README's training recipe is what built the shipped weights and book: each
command, parsed as ``reversi`` parses it, gives the settings their headers record."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from reversi_tui.cli import build_parser
from reversi_tui.engine.ai import learned

README = Path(__file__).resolve().parents[1] / "README.md"


def recipe() -> list[argparse.Namespace]:
    """The ``reversi train`` commands of the README's training section, parsed."""
    section = README.read_text(encoding="utf-8").split("### Training the evaluation", 1)[1]
    section = section.split("\n### ", 1)[0]
    blocks = section.split("```")[1::2]  # the fenced blocks' insides
    parser = build_parser()
    commands = []
    for line in "\n".join(blocks).splitlines():
        words = shlex.split(line, comments=True)
        if words[:2] == ["reversi", "train"]:
            commands.append(parser.parse_args(words[1:]))
    return commands


def test_the_readme_recipe_built_the_shipped_weights() -> None:
    weights = learned.weights()
    assert weights is not None
    commands = {args.train: args for args in recipe() if args.train != "generate"}
    generated = {args.out: args for args in recipe() if args.train == "generate"}
    fit, centre = commands["fit"], commands["centre"]
    # The data, in the order the fit reads them.
    assert len(weights.meta["data"]) == len(fit.data)
    for directory, data in zip(fit.data, weights.meta["data"], strict=True):
        made = generated[directory]
        assert data["games"] == made.games
        assert data["settings"] == {
            "seed": made.seed,
            "depth": made.depth,
            "epsilon": made.epsilon,
            "opening_min": made.opening[0],
            "opening_max": made.opening[1],
            "exact_empties": made.exact_empties,
            "chunk_games": made.chunk_games,
        }
    assert weights.meta["fit"] == {
        "depth": fit.bootstrap,
        "holdout": fit.holdout,
        "iterations": fit.iterations,
        "phase_empties": fit.phase_empties,
        "ridge": fit.ridge,
        "sample": fit.sample,
    }
    # Fitted without centring each phase, then centred whole: the file the package ships.
    assert not fit.centre and "centred" in weights.meta
    assert centre.weights == fit.out and centre.data == fit.data
    assert centre.out.name == "pattern_weights.bin"


def test_the_readme_recipe_built_the_shipped_book() -> None:
    book = learned.book()
    assert book is not None
    [args] = [args for args in recipe() if args.train == "book"]
    assert book.meta["settings"] == {
        "seed": args.seed,
        "plies": args.plies,
        "depth": args.depth,
        "lines": args.lines,
        "enumerate_plies": args.enumerate,
        "source": args.source,
        "selective": args.selective,
        "expand": args.expand,
        "spread": args.spread,
    }
    assert book.weights_sha256 == learned.WEIGHTS_SHA256
