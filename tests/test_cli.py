"""The command line: help, argument errors, positions, bounds and the perft benchmark."""

import argparse
import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from reversi_tui.cli import build_parser, main, protect_positions
from reversi_tui.commands.play import settings_from_args
from reversi_tui.match import PLAYER_CHOICES, PlayerSpec

from .timing import patience

BOARD = "---------------------------OX------XO---------------------------"
START = BOARD + " X"


def reversi(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reversi_tui", *args],
        input=stdin.decode(),
        capture_output=True,
        text=True,
        timeout=patience(120),
    )


def test_help_lists_every_option_and_command() -> None:
    text = build_parser().format_help()
    for flag in (
        "--plain",
        "--black",
        "--white",
        "--handicap",
        "--handicap-colour",
        "--think-time",
        "--seed",
        "--delay",
        "--ascii",
        "--no-mouse",
        "--theme",
    ):
        assert flag in text
    for command in ("move", "solve", "arena", "bench"):
        assert command in text
    for level in ("easy", "medium", "hard", "expert"):
        assert level in text


@pytest.mark.parametrize(
    "args",
    [
        ["--black", "grandmaster"],
        ["--black", "hard/2.5"],
        ["--white", "gtp:edax 'unbalanced"],
        ["--white", "hard/3601s"],
        ["--handicap", "5"],
        ["--handicap", "x"],
        ["--think-time", "-1"],
        ["--think-time", "nan"],
        ["--delay", "soon"],
        ["bench", "perft", "x"],
        ["bench"],
        ["arena", "--black", "hard"],
        ["no-such-command"],
    ],
)
def test_bad_arguments_give_usage_error_not_traceback(args: list[str]) -> None:
    done = reversi(*args)
    assert done.returncode == 2
    assert "error:" in done.stderr
    assert "Traceback" not in done.stderr


def test_bench_perft_prints_count_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "perft", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "8200"
    assert "nodes/s" in lines[1]


def test_bench_perft_does_not_import_textual() -> None:
    code = (
        "import sys; from reversi_tui.cli import main; rc = main(['bench', 'perft', '4']); "
        "assert 'textual' not in sys.modules; sys.exit(rc)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "244"


def test_every_command_handler_exists() -> None:
    """Each command (each ``bench`` kind and ``train`` step) names its handler where it
    declares its options."""
    for parser in _parsers(build_parser()):
        if parser.prog in ("reversi", "reversi bench", "reversi train"):
            continue
        assert callable(parser._defaults.get("handler")), parser.prog


# Help ---------------------------------------------------------------------------------


def test_help_lists_the_commands_once() -> None:
    text = build_parser().format_help()
    assert text.count("commands:") == 1
    for command in ("move", "solve", "arena", "bench"):
        assert f"\n    {command} " in text


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_argument_of_every_command_has_help() -> None:
    for parser in _parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help, f"{parser.prog}: {action.dest} has no help"
    perft = build_parser().parse_args(["bench", "perft"])
    assert perft.depth == 9


# Line mode and the options of the full-screen game ----------------------------------


def test_plain_says_it_ignores_tui_options_and_keeps_the_transcript() -> None:
    moves = b"cd\n"
    clean = reversi("--plain", stdin=moves)
    flagged = reversi(
        "--plain", "--ascii", "--no-mouse", "--theme", "nord", "--delay", "1", stdin=moves
    )
    assert flagged.stdout == clean.stdout  # the transcript, byte for byte
    assert flagged.returncode == clean.returncode
    warning = "reversi: --ascii, --no-mouse, --theme, --delay are ignored in line mode (--plain)"
    assert flagged.stderr.splitlines()[0] == warning
    assert "ignored" not in clean.stderr


def test_plain_without_tui_options_has_nothing_to_say() -> None:
    args = build_parser().parse_args(["--plain", "--black", "easy"])
    assert args.tui_only == ()
    args = build_parser().parse_args(["--plain", "--unicode", "--unicode", "--no-m"])
    assert args.tui_only == ("--unicode", "--no-mouse")
    assert args.unicode and args.no_mouse


@pytest.mark.parametrize(
    "args",
    [
        ["--think-time", "1e308"],
        ["--delay", "3601"],
        ["move", "--think-time", "1e308", START],
        ["arena", "--black", "easy", "--white", "easy", "--think-time", "1e9"],
        ["bench", "perft", "20"],
    ],
)
def test_unbounded_work_is_refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "at most 3600 seconds" in err or "from 0 to 14" in err


def test_deep_perft_warns_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from reversi_tui.commands import bench

    monkeypatch.setattr(bench, "perft", lambda player, opponent, depth: 1)
    assert main(["bench", "perft", "12"]) == 0
    assert "depth 12 may take a very long time" in capsys.readouterr().err
    assert main(["bench", "perft", "10"]) == 0
    assert capsys.readouterr().err == ""


def test_deep_move_search_warns_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from reversi_tui.engine import ai
    from reversi_tui.engine.ai import SearchResult

    def fake_choose_move(position: object, level: str, **kwargs: object) -> SearchResult:
        return SearchResult(19, 0.0, int(str(kwargs["depth"])), 1, 0.0, exact=False)

    monkeypatch.setattr(ai, "choose_move", fake_choose_move)  # move imports it when it runs
    assert main(["move", START, "--depth", "60"]) == 0
    out, err = capsys.readouterr()
    assert "depth 60 with 60 empty squares may take a very long time" in err
    assert out.startswith("d3")
    assert main(["move", START, "--depth", "12"]) == 0
    assert capsys.readouterr().err == ""


# Positions ----------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["move", "solve"])
@pytest.mark.parametrize(
    ("position", "says"),
    [
        (BOARD, "has the 64 squares but no side to move"),
        ("-" * 30, "this one has 30 characters"),
        ("-" * 30 + " X", "this one's board has 30 characters"),
        (BOARD + "X", "needs a space before the side to move"),
        (BOARD + " Z", "'Z' for the side to move"),
    ],
)
def test_a_position_led_by_a_dash_is_a_position_and_a_bad_one_says_why(
    command: str, position: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert position.startswith("-")
    assert main([command, position, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"reversi {command}: a position is 64 squares")
    assert says in err


def test_a_dash_led_position_needs_no_double_dash(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", "--depth", "1", START, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["depth"] == 1
    assert protect_positions(["move", BOARD, "--json"]) == ["move", "--json", "--", BOARD]
    assert protect_positions(["solve", "--all", "--", BOARD]) == ["solve", "--all", "--", BOARD]
    assert protect_positions(["move", "--json", "--depth", "2"]) == [
        "move",
        "--json",
        "--depth",
        "2",
    ]


def test_move_and_solve_agree_on_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    finished = "X" * 7 + "-" + "X" * 56 + " O"  # white has no disc: black won 64-0
    assert main(["move", finished]) == 0
    moved = capsys.readouterr()
    assert main(["solve", finished]) == 0
    solved = capsys.readouterr()
    assert moved.out == solved.out
    assert moved.out.splitlines() == [
        "the game is over: the score is the final one",
        "score: -64 for White (final disc difference, empties to the winner)",
    ]
    assert moved.err == solved.err == ""
    assert main(["move", finished, "--json"]) == 0
    move_json = json.loads(capsys.readouterr().out)
    assert main(["solve", finished, "--json"]) == 0
    solve_json = json.loads(capsys.readouterr().out)
    assert move_json["move"] is None and solve_json["moves"] == []
    assert move_json["score"] == solve_json["score"] == -64


def test_an_empty_board_is_finished_not_a_long_solve(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "-" * 64 + " X"]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # no "64 empty squares: this may take a very long time"
    assert out.startswith("the game is over")


# Solving: a time limit and Ctrl+C -----------------------------------------------------


def test_solve_gives_up_at_the_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    assert main(["solve", START, "--time-limit", "0.2"]) == 1
    assert time.perf_counter() - started < 10
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "reversi solve: no answer within the time limit of 0.2 s (60 empty squares); "
        "raise --time-limit or leave it out\n"
    )


def test_solve_without_a_limit_warns_about_many_empties() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "reversi_tui", "solve", START],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        warning = process.stderr.readline()  # printed before the search starts
        assert warning.startswith("60 empty squares: this may take a very long time")
        assert "--time-limit" in warning
        process.send_signal(signal.SIGINT)  # Ctrl+C during the search
        out, err = process.communicate(timeout=patience(30))
    finally:
        process.kill()
    assert process.returncode == 130
    assert out == ""
    assert err == "reversi: interrupted\n"  # one line, no traceback


# Arena --------------------------------------------------------------------------------


def test_arena_names_the_sides_by_level() -> None:
    from reversi_tui.commands.arena import ArenaResult, labels, progress_line

    assert labels("hard", "medium") == ("hard", "medium")
    assert labels("hard", "hard") == ("hard (--black)", "hard (--white)")
    record = ArenaResult(1, a_is_black=False, diff_a=12)
    line = progress_line(record, 10, *labels("hard", "hard"))
    assert line == "game 2/10: hard (--black) as white +12 against hard (--white)"
    assert " A " not in line


def test_reply_delay_is_an_option_with_a_default() -> None:
    from reversi_tui.cli import DEFAULT_REPLY_DELAY, build_parser

    assert build_parser().parse_args([]).reply_delay == DEFAULT_REPLY_DELAY
    assert build_parser().parse_args(["--reply-delay", "0"]).reply_delay == 0.0


# The data directory, before or after the command ---------------------------------------


@pytest.mark.parametrize("command", ["history", "online"])
@pytest.mark.parametrize(
    ("before", "after", "meant"),
    [
        (None, None, None),
        ("/top", None, "/top"),
        (None, "/sub", "/sub"),
        ("/top", "/sub", "/sub"),
    ],
    ids=["neither", "before", "after", "both: the command's wins"],
)
def test_data_dir_means_the_same_before_or_after_the_command(
    command: str, before: str | None, after: str | None, meant: str | None
) -> None:
    args = [*(["--data-dir", before] if before else []), command]
    args += ["--data-dir", after] if after else []
    assert build_parser().parse_args(args).data_dir == meant


@pytest.mark.parametrize("command", ["history", "online"])
def test_data_dir_is_in_the_help_of_the_commands_that_use_it(command: str) -> None:
    [sub] = [sub for sub in _parsers(build_parser()) if sub.prog == f"reversi {command}"]
    [option] = [action for action in sub._actions if "--data-dir" in action.option_strings]
    assert option.metavar == "DIR" and option.help


# Players --------------------------------------------------------------------------------


@pytest.mark.parametrize("choice", PLAYER_CHOICES)
def test_the_simple_choices_give_the_same_players_as_before(choice: str) -> None:
    args = build_parser().parse_args(["--black", choice, "--white", choice, "--think-time", "2"])
    assert (args.black, args.white) == (choice, choice)
    settings = settings_from_args(args, "human", "medium")
    expected = PlayerSpec.human() if choice == "human" else PlayerSpec.computer(choice, 2.0)
    assert settings.black == settings.white == expected


def test_a_player_is_given_in_its_text_form() -> None:
    args = build_parser().parse_args(["--black", "hard/2.50s", "--white", "easy/6ply"])
    assert (args.black, args.white) == ("hard/2.5s", "easy/6ply")
    settings = settings_from_args(args, "human", "medium")
    assert settings.black == PlayerSpec.computer("hard", 2.5)
    assert settings.white == PlayerSpec.computer("easy", depth=6)
    timed = build_parser().parse_args(
        ["--black", "hard/1s", "--white", "easy", "--think-time", "3"]
    )
    settings = settings_from_args(timed, "human", "medium")
    assert settings.black.think_time == 1.0 and settings.white.think_time == 3.0


def test_an_engine_that_cannot_play_is_one_line_on_the_command_line() -> None:
    done = reversi("--plain", "--black", "gtp:no-such-engine -gtp")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "reversi: GTP engine (no-such-engine) cannot start: no-such-engine is not a program on PATH"
    )
    done = reversi("--plain", "--black", "gtp:edax 'unbalanced")
    assert done.returncode == 2
    assert 'argument --black: "edax \'unbalanced" is not a command line' in done.stderr
    done = reversi("--plain", "--black", "engine:Nobody")
    assert done.returncode == 2 and "no engine is configured as 'Nobody'" in done.stderr
    done = reversi("--plain", "--white", "grandmaster")
    assert "argument --white: unknown level 'grandmaster': a player is written" in done.stderr


def test_line_mode_plays_two_computers_given_by_depth() -> None:
    done = reversi("--plain", "--black", "easy/1ply", "--white", "medium/1ply", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "wins" in done.stdout or "Draw" in done.stdout
