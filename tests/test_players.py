"""The move sources: specs make the right kind, a computer answers and can be cancelled."""

import asyncio

import pytest

from reversi_tui.engine import Position
from reversi_tui.engine.ai import LEVELS
from reversi_tui.match import LEVEL_NAMES, PLAYER_CHOICES, PlayerKind, PlayerSpec
from reversi_tui.match.engine_config import can_play
from reversi_tui.match.sources import LocalInput, MoveRequest, local_input
from reversi_tui.players import (
    SOURCES,
    Computer,
    LocalHuman,
    UnplayableError,
    make_source,
)

from .fakes import FakeComputer


def test_level_names_are_the_ais() -> None:
    assert tuple(LEVELS) == LEVEL_NAMES
    assert ("human", *LEVELS) == PLAYER_CHOICES


def test_make_source_from_specs() -> None:
    assert isinstance(make_source(PlayerSpec.parse("human")), LocalHuman)
    computer = make_source(PlayerSpec.parse("easy", think_time=0.05), seed=1)
    assert isinstance(computer, Computer)
    assert computer.label == "Computer (easy)"
    assert computer.seed == 1 and computer.think_time == 0.05
    with pytest.raises(ValueError, match="unknown level"):
        PlayerSpec.parse("grandmaster")
    with pytest.raises(ValueError, match="think time"):
        PlayerSpec.parse("easy", think_time=-1.0)


def test_only_a_local_human_takes_input_from_this_terminal() -> None:
    human = make_source(PlayerSpec.human())
    assert isinstance(human, LocalInput) and human.takes_local_input
    assert local_input(human) is human
    computer = make_source(PlayerSpec.computer("easy"))
    assert not isinstance(computer, LocalInput) and local_input(computer) is None
    assert not isinstance(FakeComputer(), LocalInput)


async def test_the_built_in_sources_close_without_fuss() -> None:
    for source in (LocalHuman(), Computer("easy")):
        await source.close()
        await source.close()


def test_computer_plays_a_legal_move() -> None:
    pos = Position.initial()
    result = asyncio.run(Computer("easy", 0.05, seed=2).play(MoveRequest(pos, 0)))
    assert result.move in pos.legal_moves
    assert result.search is not None and result.search.move == result.move


async def test_local_human_answers_only_a_pending_request() -> None:
    human = LocalHuman()
    assert not human.offer(19)  # nobody asked yet: the key is not kept for later
    waiting = asyncio.ensure_future(human.play(MoveRequest(Position.initial(), 0)))
    assert human.offer(19)
    assert (await waiting).move == 19
    assert not human.offer(26)  # answered already


async def test_cancelling_a_request_stops_the_search_thread() -> None:
    gated = FakeComputer(gated=True)
    task = asyncio.ensure_future(gated.play(MoveRequest(Position.initial(), 0)))
    await asyncio.to_thread(gated.started.wait, 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The thread saw the stop flag: nothing is left running in the default executor.
    await asyncio.wait_for(asyncio.get_running_loop().shutdown_default_executor(), 5)


@pytest.mark.parametrize("text", ["gtp:edax -gtp", "nboard:edax --nboard"])
def test_an_engine_by_its_command_line_is_a_source_that_starts_when_asked(text: str) -> None:
    from reversi_tui.players.engine import EngineSource

    spec = PlayerSpec.from_text(text)
    assert can_play(spec)
    source = make_source(spec)
    assert isinstance(source, EngineSource) and source.label == spec.label


def test_an_engine_name_is_refused_unless_configured() -> None:
    spec = PlayerSpec.from_text("engine:Edax")
    assert can_play(spec) and not can_play(spec, {})
    with pytest.raises(UnplayableError, match="no engine is configured as 'Edax'") as refused:
        make_source(spec)
    assert spec.label in str(refused.value)


def test_every_kind_plays() -> None:
    assert set(SOURCES) == set(PlayerKind)
    assert can_play(PlayerSpec.human()) and can_play(PlayerSpec.computer("hard", 2.0, 6))


def test_an_engine_name_nobody_configured_becomes_a_person_here_and_is_said() -> None:
    from reversi_tui.match import MatchSettings
    from reversi_tui.players import playable

    engine = PlayerSpec.from_text("engine:Rhino")
    settings, note = playable(MatchSettings(engine, PlayerSpec.from_text("hard")), {})
    rhino = PlayerSpec.person("Engine (Rhino)")  # a person here, named as the engine was
    assert settings.black == rhino and settings.white == PlayerSpec.from_text("hard")
    assert note is not None and "Engine (Rhino) (Black): no engine is configured" in note
    same, none = playable(MatchSettings(PlayerSpec.human(), PlayerSpec.from_text("easy")), {})
    assert none is None and same == MatchSettings(PlayerSpec.human(), PlayerSpec.from_text("easy"))


async def test_the_app_opens_a_game_whose_engine_is_not_configured_without_failing() -> None:
    from reversi_tui.match import MatchSettings
    from reversi_tui.tui.app import ReversiApp

    engine = PlayerSpec.from_text("engine:Edax")
    app = ReversiApp(MatchSettings(PlayerSpec.human(), engine), delay=0.0, reply_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        assert "no engine is configured by that name" in screen.status
        assert screen.match.settings.white == PlayerSpec.person("Engine (Edax)")
