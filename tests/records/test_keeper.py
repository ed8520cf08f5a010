"""The keeper: every change saved at once, the record at the end, problems said once."""

from __future__ import annotations

from pathlib import Path

import pytest

from reversi_tui.engine import Color, Game, parse_square
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match import Match, MatchSettings, PlayerSpec, play_out
from reversi_tui.records.autosave import AutosaveStore, SavedGame
from reversi_tui.records.database import RecordsDatabase
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.online_facts import OnlineFacts
from reversi_tui.records.paths import Places

from ..fakes import fake_sources
from .test_database import finished_record

HUMANS = MatchSettings(PlayerSpec.human(), PlayerSpec.human())
COMPUTERS = MatchSettings(PlayerSpec.computer("easy"), PlayerSpec.computer("hard"))


def humans_match(moves: str = "") -> Match:
    game = Game.from_moves(None, parse_move_list(moves)) if moves else None
    return Match(HUMANS, fake_sources(), game=game)


def saved_games(places: Places) -> list[str]:
    """The move lists of the unfinished games a new run would find."""
    return [
        item.saved.record.move_list() for item in AutosaveStore(places.autosave_dir).resumable()
    ]


def test_every_change_is_saved_at_once(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path)
    keeper = GameKeeper(places)
    match = humans_match("f5d6")
    keeper.attach(match)
    match._play(parse_square("c3"), None)
    # Another process sees the game as it is now, but cannot take it: it is open here.
    assert saved_games(places) == []
    keeper.close()
    assert saved_games(places) == ["f5d6c3"]


def test_undo_and_redo_are_saved_with_the_redo_stack(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path)
    keeper = GameKeeper(places)
    match = humans_match("f5d6c3")
    keeper.attach(match)
    match.undo()
    keeper.close()
    [item] = AutosaveStore(places.autosave_dir).resumable()
    game = item.saved.game()
    assert game.move_list() == "f5d6" and game.can_redo
    game.redo()
    assert game.move_list() == "f5d6c3"


def test_a_game_with_no_move_is_not_offered(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path)
    keeper = GameKeeper(places)
    keeper.attach(humans_match())
    keeper.close()
    assert GameKeeper(places).resumable() == []


def test_a_game_only_the_computer_moved_in_is_not_kept(tmp_path: Path) -> None:
    """The computer plays Black and opens; quitting before the person answers leaves
    nothing to resume. Once the person has moved, the game is kept."""
    places = Places.resolve(tmp_path)
    computer_first = MatchSettings(PlayerSpec.computer("easy"), PlayerSpec.human())
    keeper = GameKeeper(places)
    match = Match(computer_first, fake_sources())
    keeper.attach(match)
    match._play(parse_square("f5"), None)  # the computer's opening
    keeper.close()
    assert saved_games(places) == []
    assert list(places.autosave_dir.glob("*.json")) == []
    keeper = GameKeeper(places)
    match = Match(computer_first, fake_sources())
    keeper.attach(match)
    for move in ("f5", "d6"):  # the computer's opening, the person's answer
        match._play(parse_square(move), None)
    keeper.close()
    assert saved_games(places) == ["f5d6"]


def test_computers_alone_leave_nothing_to_resume(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path)
    keeper = GameKeeper(places)
    match = Match(COMPUTERS, fake_sources())
    keeper.attach(match)
    for move in ("f5", "d6", "c3"):
        match._play(parse_square(move), None)
    keeper.close()
    assert saved_games(places) == []


def test_an_autosave_no_person_moved_in_is_not_offered(tmp_path: Path) -> None:
    """Left by an earlier run (killed after the computer's opening): dropped, not offered."""
    places = Places.resolve(tmp_path)
    store = GameKeeper(places).store()  # makes the directory
    assert store is not None
    players = {Color.BLACK: PlayerSpec.computer("hard"), Color.WHITE: PlayerSpec.human()}
    for moves in ("f5", "f5d6"):
        save = store.create()
        save.write(SavedGame.of(Game.from_moves(None, parse_move_list(moves)), players, None))
        save.close()
    offered = GameKeeper(places).resumable()
    assert [item.saved.record.move_list() for item in offered] == ["f5d6"]
    assert len(list(places.autosave_dir.glob("*.json"))) == 1


def test_a_new_game_keeps_the_one_left_for_resuming(tmp_path: Path) -> None:
    """As quitting keeps it (issue 17): a new game, a file or a recorded game opened
    over an unfinished one leaves it for ``reversi`` to offer next time."""
    places = Places.resolve(tmp_path)
    keeper = GameKeeper(places)
    first = humans_match("f5")
    keeper.attach(first)
    first._play(parse_square("d6"), None)
    keeper.attach(humans_match())  # the new-game dialog confirmed
    assert saved_games(places) == ["f5d6"]  # released at once, not only on leaving
    keeper.close()  # the new game has no move: nothing more is kept
    assert saved_games(places) == ["f5d6"]


def test_a_finished_game_is_recorded_once_and_leaves_the_autosaves(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path)
    keeper = GameKeeper(places)
    match = Match(COMPUTERS, fake_sources())
    keeper.attach(match)
    result = play_out(match)
    assert result is not None
    keeper.close()
    assert saved_games(places) == []
    database = RecordsDatabase(places.database)
    try:
        [stored] = database.recent(10)
    finally:
        database.close()
    assert stored.record.moves == tuple(match.game.moves)
    assert stored.record.result == result
    # Looking at the finished game again (opened from the records) records nothing.
    keeper.attach(Match(COMPUTERS, fake_sources(), game=match.game))
    keeper.close()
    database = RecordsDatabase(places.database)
    try:
        assert len(database.recent(10)) == 1
    finally:
        database.close()


def test_an_online_games_facts_go_into_the_records_once(tmp_path: Path) -> None:
    """``add_record`` hands the names, the source and the facts on: the game is kept
    once however often it is seen, with its ratings."""
    places = Places.resolve(tmp_path)
    keeper = GameKeeper(places)
    record = finished_record(3, white=PlayerSpec.human())
    names = {Color.BLACK: "ann", Color.WHITE: "bob"}
    online = OnlineFacts(True, (3, 2), {Color.BLACK: (1488, -12), Color.WHITE: (1512, 12)})
    keeper.add_record(record, names, source="srv:7", online=online)
    keeper.add_record(record, names, source="srv:7", online=online)
    database = RecordsDatabase(places.database)
    try:
        [stored] = database.recent(10)
    finally:
        database.close()
    assert (stored.record, stored.black_name, stored.white_name) == (record, "ann", "bob")
    assert stored.online == online
    assert keeper.problems == []


def test_saving_off_is_said_once_and_play_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the data directory should be\n")
    said: list[str] = []
    keeper = GameKeeper(Places.resolve(blocker), on_problem=said.append)
    match = humans_match("f5")
    keeper.attach(match)
    for move in ("d6", "c3", "d3"):
        match._play(parse_square(move), None)
    keeper.close()
    assert len(said) == 1 and said[0].startswith("Saving is off:")
    assert not keeper.saving
    assert match.game.move_list() == "f5d6c3d3"


@pytest.mark.parametrize("moves", ["f5d6c3d3c4f4c5b3c2"])
def test_a_resumed_game_is_saved_to_the_same_file(tmp_path: Path, moves: str) -> None:
    places = Places.resolve(tmp_path)
    keeper = GameKeeper(places)
    match = humans_match(moves)
    keeper.attach(match)
    match.undo()
    keeper.close()
    again = GameKeeper(places)
    [item] = again.resumable()
    save = again.claim(item)
    assert save is not None
    resumed = Match(HUMANS, fake_sources(), game=item.saved.game())
    again.attach(resumed, save)
    resumed.redo()
    again.close()
    assert saved_games(places) == [moves]
    assert len(list(places.autosave_dir.glob("*.json"))) == 1
