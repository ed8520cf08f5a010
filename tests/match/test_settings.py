"""Match settings: player specs spell and parse the same way, seeds, handicap starts."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


# The player text form ------------------------------------------------------------------
#: Every form of the text, and the spec it is.
TEXTS = {
    "human": PlayerSpec.human(),
    "easy": PlayerSpec.computer("easy"),
    "expert": PlayerSpec.computer("expert"),
    "hard/2.5s": PlayerSpec.computer("hard", think_time=2.5),
    "medium/2s": PlayerSpec.computer("medium", think_time=2.0),
    "hard/6ply": PlayerSpec.computer("hard", depth=6),
    "hard/0.5s/6ply": PlayerSpec.computer("hard", think_time=0.5, depth=6),
    "easy/1e-05s": PlayerSpec.computer("easy", think_time=1e-5),
    "gtp:edax -gtp -l 20": PlayerSpec.engine(PlayerKind.GTP, "edax -gtp -l 20"),
    "nboard:/opt/engines/edax --nboard": PlayerSpec.engine(
        PlayerKind.NBOARD, "/opt/engines/edax --nboard"
    ),
    "engine:Edax 4.4": PlayerSpec.engine(PlayerKind.ENGINE, "Edax 4.4"),
}


@pytest.mark.parametrize(("text", "spec"), TEXTS.items())
def test_every_form_of_the_text_reads_as_its_spec_and_back(text: str, spec: PlayerSpec) -> None:
    assert PlayerSpec.from_text(text) == spec
    assert spec.text == str(spec) == text


@pytest.mark.parametrize(
    ("written", "text"),
    [
        ("hard/6ply/0.5s", "hard/0.5s/6ply"),
        ("hard/2.50s", "hard/2.5s"),
        ("hard/.5s", "hard/0.5s"),
        ("gtp:  edax -gtp  ", "gtp:edax -gtp"),
    ],
)
def test_other_spellings_read_and_are_written_one_way(written: str, text: str) -> None:
    assert PlayerSpec.from_text(written).text == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "grandmaster",
        "Hard",
        " hard",
        "computer",
        "human/2s",
        "hard/2.5",
        "hard/0s",
        "hard/-1s",
        "hard/infs",
        "hard/nans",
        "hard/0ply",
        "hard/61ply",
        "hard/2s/3s",
        "hard/6ply/7ply",
        "hard/",
        "gtp:",
        "gtp:   ",
        "gtp:edax\n-gtp",
        "robot:edax",
        "computer:hard",
    ],
)
def test_a_text_that_is_no_player_is_refused_with_the_forms(text: str) -> None:
    with pytest.raises(ValueError, match="a player is written human"):
        PlayerSpec.from_text(text)


def test_the_unknown_level_is_named() -> None:
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        PlayerSpec.from_text("grandmaster")


def specs() -> st.SearchStrategy[PlayerSpec]:
    """Every spec there is: people, the computer at any clock and depth, any engine."""
    seconds = st.floats(min_value=0, exclude_min=True, allow_infinity=False, allow_nan=False)
    computers = st.builds(
        PlayerSpec.computer,
        st.sampled_from(LEVEL_NAMES),
        st.none() | seconds,
        st.none() | st.integers(1, 60),
    )
    programs = st.text(st.characters(codec="utf-8"), min_size=1).filter(
        lambda text: text.isprintable() and text.strip() == text
    )
    kinds = st.sampled_from([kind for kind in PlayerKind if kind.takes_program])
    engines = st.builds(PlayerSpec.engine, kinds, programs)
    return st.just(PlayerSpec.human()) | computers | engines


@given(specs())
def test_every_spec_round_trips_through_its_text(spec: PlayerSpec) -> None:
    assert PlayerSpec.from_text(spec.text) == spec
    assert PlayerSpec.from_text(str(spec)).text == spec.text


@pytest.mark.parametrize("kind", list(PlayerKind))
def test_every_kind_has_a_text_form(kind: PlayerKind) -> None:
    spec = PlayerSpec.engine(kind, "x y") if kind.takes_program else PlayerSpec(kind, "hard")
    assert PlayerSpec.from_text(spec.text).kind is kind
    assert spec.label


def test_the_command_line_choices_read_as_before() -> None:
    for choice in PLAYER_CHOICES:
        assert PlayerSpec.parse(choice) == PlayerSpec.from_text(choice)
    assert PlayerSpec.parse("hard", 2.5) == PlayerSpec.computer("hard", 2.5)
    assert PlayerSpec.parse("human", 2.5) == PlayerSpec.human()
    # A clock in the text is the player's own: --think-time does not override it.
    assert PlayerSpec.parse("hard/1s", 2.5) == PlayerSpec.computer("hard", 1.0)
    assert PlayerSpec.parse("hard/6ply", 2.5) == PlayerSpec.computer("hard", 2.5, 6)


def test_what_a_kind_does_not_use_is_not_kept() -> None:
    """A person has no level or clock: an old record's leftovers do not make a new player."""
    assert PlayerSpec(PlayerKind.HUMAN, "hard", 2.0, 4) == PlayerSpec.human()
    assert PlayerSpec(PlayerKind.HUMAN, "hard", 2.0, 4).text == "human"
    assert PlayerSpec.computer("hard", 2).think_time == 2.0
    assert isinstance(PlayerSpec.computer("hard", 2).think_time, float)
    with pytest.raises(ValueError, match="command"):
        PlayerSpec(PlayerKind.GTP)
    with pytest.raises(ValueError, match="program"):
        PlayerSpec(PlayerKind.COMPUTER, "hard", program="edax")


def test_players_are_told_apart_by_level_or_program_not_by_clock() -> None:
    assert PlayerSpec.computer("hard", 2.0, 6).identity == "hard"
    assert PlayerSpec.engine(PlayerKind.GTP, "edax -gtp").identity == "edax -gtp"
    # A label never carries an engine's arguments: it is shown and exported.
    assert PlayerSpec.engine(PlayerKind.GTP, "/opt/edax -gtp -l 5").label == "GTP engine (edax)"
    assert PlayerSpec.engine(PlayerKind.GTP, "python3 -u my_engine.py").label == (
        "GTP engine (my_engine.py)"
    )
    assert PlayerKind.COMPUTER.describe("hard") == "Computer (hard)"
    assert PlayerSpec.human().is_human and not PlayerSpec.computer("easy").is_human


def test_every_kind_and_level_is_said_wherever_players_are_explained(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The forms are derived from the enums: a new level (or kind) needs no other edit."""
    from reversi_tui.match import settings

    monkeypatch.setattr(settings, "LEVEL_NAMES", (*settings.LEVEL_NAMES, "grandmaster"))
    forms = settings.player_forms()
    assert "grandmaster" in forms
    for kind in settings.PlayerKind:
        assert settings._FORMS[kind].split(" ")[0].split("(")[0] in forms
    assert settings.engine_forms() == "gtp:COMMAND, nboard:COMMAND or engine:NAME"


def test_the_command_line_help_names_every_level_and_engine_kind() -> None:
    from reversi_tui.cli import build_parser
    from reversi_tui.match.settings import LEVEL_NAMES, engine_forms

    text = " ".join(build_parser().format_help().split())
    assert all(level in text for level in LEVEL_NAMES)
    assert engine_forms() in text
