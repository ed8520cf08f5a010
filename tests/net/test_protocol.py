"""The protocol module: every message both ways, bad lines classified, states built
from the engine, and docs/protocol.md kept true to it."""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest

from reversi_tui.engine import Color, Game
from reversi_tui.match import Result, Termination
from reversi_tui.net import protocol as p

state_of = functools.partial(p.state_of, origin="s1:1", started="2026-11-26T08:00:00+00:00")

CHALLENGE = b'{"type": "challenge", "to": "b", "color": "black", '
DOC = Path(__file__).parents[2] / "docs" / "protocol.md"

CLIENT = [
    p.Hello(version=4, id=1),
    p.Hello(version=4, user="ann", id="x"),
    p.Ping(),
    p.LobbyRequest(id=3),
    p.Wait(on=True),
    p.Challenge(to="bob", color="random"),
    p.Accept(challenge=1),
    p.Decline(challenge=1),
    p.Cancel(challenge=1),
    p.MoveMessage(game=1, ply=0, square="d3"),
    p.Resign(game=1),
    p.Watch(game=1),
    p.Unwatch(game=1),
    p.ChatRequest(text="hi", game=None),
    p.Challenge(to="bob", color="black", clock=p.TimeControl(minutes=3, increment=2), rated=True),
    p.MoveMessage(game=1, ply=0, square="d3", think_ms=1250),
    p.ClaimRequest(game=1, outcome="draw"),
    p.Rematch(game=1, id=4),
    p.Activity(status="away"),
]
SERVER = [
    p.Welcome(version=4, user="ann", server="s1", games=[], challenges=[], re=1),
    p.Pong(re="x"),
    p.LobbyReply(
        players=[
            p.PlayerInfo(user="a", waiting=True, playing=False, status="lobby", rating=p.NEW_RATING)
        ],
        games=[],
    ),
    p.Presence(user="a", online=False, waiting=False),
    p.ChallengeSent(challenge=1, to="b", color="white"),
    p.Challenged(challenge=1, from_="a", color="black"),
    p.ChallengeClosed(challenge=1, reason="declined"),
    state_of(1, "a", "b", Game()),
    p.ChatMessage(from_="a", game=None, text="hi"),
    p.Bye(reason="stop", retry_ms=500),
    p.Error(code="stale_ply", message="m", expected=3, re=2),
    p.Presence(user="a", online=True, waiting=False, status="online"),
    p.Challenged(
        challenge=2,
        from_="a",
        color="white",
        clock=p.TimeControl(minutes=5, increment=3),
        rated=True,
        rematch=1,
    ),
    p.LobbyReply(
        players=[
            p.PlayerInfo(
                user="a",
                waiting=False,
                playing=True,
                status="away",
                rating=p.Rating(rating=1612, deviation=80, provisional=False),
            )
        ],
        games=[
            p.GameInfo(
                game=1,
                black="a",
                white="b",
                ply=3,
                spectators=0,
                clock=p.TimeControl(minutes=3, increment=2),
                rated=True,
                turn="white",
            )
        ],
    ),
    p.ChatMessage(from_="c", game=1, text="hi", watcher=True),
    p.ChatHistory(game=1, origin="s1:1", lines=[p.ChatLine(from_="c", text="hi", watcher=True)]),
    state_of(
        1,
        "a",
        "b",
        Game(),
        clock=p.Clock(black_ms=1000, white_ms=2000, running="black", minutes=3, increment=2),
        rated=True,
        ratings={"a": p.NEW_RATING, "b": p.NEW_RATING},
        away_ms={"b": 41000},
    ),
]


@pytest.mark.parametrize("message", CLIENT, ids=lambda m: type(m).__name__)
def test_client_messages_round_trip(message: p.ClientMessage) -> None:
    line = p.encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert p.decode_client(line) == message


@pytest.mark.parametrize("message", SERVER, ids=lambda m: type(m).__name__)
def test_server_messages_round_trip(message: p.ServerMessage) -> None:
    assert p.decode_server(p.encode(message)) == message


def test_defaults_are_not_written_and_from_is_spelt_from() -> None:
    assert p.encode(p.Ping()) == b'{"type":"ping"}\n'
    assert b'"from":"a"' in p.encode(p.Challenged(challenge=1, from_="a", color="black"))


def test_an_error_code_is_a_plain_string_on_the_wire() -> None:
    line = p.encode(p.Error(code=p.ErrorCode.STALE_PLY, message="m", expected=3))
    assert line == b'{"type":"error","code":"stale_ply","message":"m","expected":3}\n'
    error = p.decode_server(line)
    assert isinstance(error, p.Error) and type(error.code) is str
    assert error.code == p.ErrorCode.STALE_PLY
    # Plain strings from the wire are looked up in the enum's sets as they are.
    assert error.code not in p.CLOSING_CODES and "idle_timeout" in p.CLOSING_CODES


@pytest.mark.parametrize(
    ("line", "code", "re"),
    [
        (b"{", "bad_json", None),
        (b"\xe9", "bad_json", None),
        (b"[" * 3000 + b"]" * 3000, "too_large", None),
        (b"[" * 2000 + b"]" * 2000, "bad_json", None),
        (b'"ping"', "bad_message", None),
        (b'{"id": 4}', "bad_message", 4),
        (b'{"type": 3, "id": 4}', "bad_message", 4),
        (b'{"type": "fly", "id": "z"}', "unknown_type", "z"),
        (b'{"type": "ping", "id": 1, "x": 1}', "bad_message", 1),
        (b'{"type": "wait", "on": "yes"}', "bad_message", None),
        (b'{"type": "challenge", "to": "b"}', "bad_message", None),
        (b'{"type": "challenge", "to": "b", "color": "green"}', "bad_message", None),
        (b'{"type": "chat", "text": "' + b"x" * 201 + b'"}', "bad_message", None),
        (b'{"type": "ping", "id": true}', "bad_message", None),
        (b'{"type": "hello", "version": 4}' + b" " * 4096, "too_large", None),
        (
            CHALLENGE + b'"clock": {"minutes": 0, "increment": 2}}',
            "bad_message",
            None,
        ),
        (
            CHALLENGE + b'"clock": {"minutes": 3, "increment": 181}}',
            "bad_message",
            None,
        ),
        (
            b'{"type": "move", "game": 1, "ply": 0, "square": "d3", "think_ms": -1}',
            "bad_message",
            None,
        ),
        (b'{"type": "claim", "game": 1, "outcome": "lose"}', "bad_message", None),
        (b'{"type": "activity", "status": "asleep"}', "bad_message", None),
    ],
)
def test_bad_lines_are_classified(line: bytes, code: str, re: object) -> None:
    with pytest.raises(p.ProtocolError) as caught:
        p.decode_client(line)
    assert (caught.value.code, caught.value.re) == (code, re)
    reply = p.decode_server(p.encode(caught.value.reply()))
    assert isinstance(reply, p.Error) and reply.code == code


def test_a_state_counts_moves_not_passes() -> None:
    rng = random.Random(1)
    for _ in range(200):
        game = Game()
        while not game.is_over:
            game.play(rng.choice(game.legal_moves))
        if any(m < 0 for m in game.moves):
            break
    state = state_of(3, "a", "b", game)
    squares = [m for m in game.moves if m >= 0]
    assert state.ply == len(squares) == len(state.moves) // 2
    assert state.status == "finished" and state.turn is None
    outcome = game.outcome()
    assert state.result is not None and outcome is not None
    assert (state.result.black, state.result.white) == (outcome.black, outcome.white)
    assert state.result.score == outcome.final_score and sum(state.result.score) == 64


def test_a_resignation_gives_every_empty_square_to_the_winner() -> None:
    game = Game()
    resigned = Result.forfeit(Color.BLACK, Termination.RESIGNATION, game.position.outcome())
    state = state_of(1, "a", "b", game, result=resigned)
    assert state.status == "finished" and state.turn is None
    assert state.result == p.GameResult(
        winner="white", black=2, white=2, score=(2, 62), reason="resign"
    )


@pytest.mark.parametrize(
    ("termination", "loser", "reason", "winner", "score"),
    [
        (Termination.TIME_FORFEIT, Color.WHITE, "time", "black", (62, 2)),
        (Termination.DISCONNECTION, Color.BLACK, "abandoned", "white", (2, 62)),
        (Termination.DISCONNECTION, None, "abandoned", None, (32, 32)),
    ],
)
def test_time_and_abandoned_results_are_named_and_scored(
    termination: Termination, loser: Color | None, reason: str, winner: str | None, score: object
) -> None:
    discs = Game().position.outcome()
    result = (
        Result.abandoned_draw(discs) if loser is None else Result.forfeit(loser, termination, discs)
    )
    state = state_of(1, "a", "b", Game(), result=result, rating_change={"a": 5, "b": -5})
    assert state.result == p.GameResult(
        winner=winner,  # type: ignore[arg-type]
        black=2,
        white=2,
        score=score,  # type: ignore[arg-type]
        reason=reason,  # type: ignore[arg-type]
        rating_change={"a": 5, "b": -5},
    )


def test_a_draw_on_disconnection_is_a_result_and_says_so() -> None:
    draw = Result.abandoned_draw(Game().position.outcome())
    assert draw.winner is None and draw.final_score == (32, 32)
    assert draw.summary == "Draw: the opponent left"
    with pytest.raises(ValueError, match="has a winner"):
        Result(Termination.TIME_FORFEIT, None, draw.discs)


def test_clean_text_strips_control_characters_only() -> None:
    assert p.clean_text("a\x1b[2Jb\x07c\x7fd\x9be é 🙂\n") == "a [2Jb c d e é 🙂"


def test_the_document_names_every_message_and_every_error_code() -> None:
    if not DOC.exists():
        pytest.skip("docs/protocol.md is not in this tree")
    text = DOC.read_text()
    for kind in sorted(p.CLIENT_TYPES | p.SERVER_TYPES):
        assert f"`{kind}`" in text, kind
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", text, re.MULTILINE))
    assert set(p.ErrorCode) <= documented
    closing = {
        row[0]
        for row in re.findall(r"^\| `([a-z_]+)` \|[^|]*\| (yes|no) \|$", text, re.MULTILINE)
        if row[1] == "yes"
    }
    assert closing == set(p.CLOSING_CODES)


def test_the_documents_bot_compiles() -> None:
    if not DOC.exists():
        pytest.skip("docs/protocol.md is not in this tree")
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert len(blocks) == 1
    compile(blocks[0], "protocol.md", "exec")


def test_the_documents_examples_are_valid_messages() -> None:
    if not DOC.exists():
        pytest.skip("docs/protocol.md is not in this tree")
    lines = [line for line in DOC.read_text().splitlines() if line.startswith('{"type":')]
    assert len(lines) >= 25
    for line in lines:
        raw = line.encode()
        try:
            p.decode_client(raw)
        except p.ProtocolError:
            p.decode_server(raw)
