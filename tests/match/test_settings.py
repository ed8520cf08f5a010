"""Match settings: player specs spell and parse the same way, seeds, handicap starts."""

import math

import pytest

from reversi_tui.engine import Color, Position, parse_square
from reversi_tui.match import (
    LEVEL_NAMES,
    PLAYER_CHOICES,
    MatchSettings,
    PlayerKind,
    PlayerSpec,
)


@pytest.mark.parametrize("choice", PLAYER_CHOICES)
def test_player_spec_round_trips_every_choice(choice: str) -> None:
    spec = PlayerSpec.parse(choice)
    assert spec.choice == choice
    assert PlayerSpec.parse(spec.choice) == spec
    if choice == "human":
        assert spec.kind is PlayerKind.HUMAN
        assert spec.label == "Human"
    else:
        assert spec.kind is PlayerKind.COMPUTER
        assert spec.level == choice
        assert spec.label == f"Computer ({choice})"
        timed = PlayerSpec.parse(choice, think_time=0.25)
        assert timed.think_time == 0.25
        assert PlayerSpec.parse(timed.choice, timed.think_time) == timed


def test_choices_are_human_then_the_levels() -> None:
    assert ("human", *LEVEL_NAMES) == PLAYER_CHOICES
    assert len(set(PLAYER_CHOICES)) == len(PLAYER_CHOICES)


@pytest.mark.parametrize("level", ["grandmaster", "", "Easy", "human"])
def test_unknown_level_raises(level: str) -> None:
    with pytest.raises(ValueError, match="level"):
        PlayerSpec.computer(level)
    with pytest.raises(ValueError):
        PlayerSpec(PlayerKind.COMPUTER, level)


@pytest.mark.parametrize("think_time", [0.0, -1.0, math.inf, math.nan])
def test_bad_think_time_raises(think_time: float) -> None:
    with pytest.raises(ValueError, match="think time"):
        PlayerSpec.computer("easy", think_time=think_time)
    with pytest.raises(ValueError, match="think time"):
        PlayerSpec.parse("hard", think_time=think_time)


@pytest.mark.parametrize("depth", [0, -3, 61])
def test_bad_depth_raises(depth: int) -> None:
    with pytest.raises(ValueError, match="depth"):
        PlayerSpec.computer("medium", depth=depth)


def test_edge_values_are_accepted() -> None:
    assert PlayerSpec.computer("easy", think_time=1e-3, depth=1).depth == 1
    assert PlayerSpec.computer("expert", depth=60).depth == 60


def test_seed_for_gives_each_colour_its_own_seed() -> None:
    settings = MatchSettings(seed=7)
    assert settings.seed_for(Color.BLACK) == 7
    assert settings.seed_for(Color.WHITE) == 8
    assert MatchSettings(seed=0).seed_for(Color.WHITE) != MatchSettings(seed=0).seed_for(
        Color.BLACK
    )
    unseeded = MatchSettings()
    assert unseeded.seed_for(Color.BLACK) is None
    assert unseeded.seed_for(Color.WHITE) is None


def test_start_position_without_handicap() -> None:
    assert MatchSettings().start_position() == Position.initial()


@pytest.mark.parametrize("colour", [Color.BLACK, Color.WHITE])
def test_start_position_with_a_handicap(colour: Color) -> None:
    settings = MatchSettings(handicap=2, handicap_colour=colour)
    start = settings.start_position()
    initial = Position.initial()
    corners = (1 << parse_square("a1")) | (1 << parse_square("h8"))
    assert start.discs(colour) == initial.discs(colour) | corners
    assert start.discs(colour.opponent) == initial.discs(colour.opponent)
    assert start.turn is Color.BLACK


@pytest.mark.parametrize("handicap", [-1, 5])
def test_handicap_out_of_range_raises(handicap: int) -> None:
    with pytest.raises(ValueError, match="handicap"):
        MatchSettings(handicap=handicap)


def test_players_and_with_players() -> None:
    black, white = PlayerSpec.computer("easy"), PlayerSpec.human()
    settings = MatchSettings(seed=3, handicap=1).with_players(black, white)
    assert settings.players == {Color.BLACK: black, Color.WHITE: white}
    assert settings.player(Color.BLACK) is black and settings.player(Color.WHITE) is white
    assert (settings.seed, settings.handicap) == (3, 1)
