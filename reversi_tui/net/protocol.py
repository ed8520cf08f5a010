"""The online protocol, version 4: every message, its encoding and its validation.

Pure: bytes in, values out (and back). One JSON object per line, UTF-8, ``type``
naming the message. A client's line is at most ``MAX_LINE`` bytes with the newline
(that limit protects the server); a server's line at most ``MAX_SERVER_LINE``, and
the server's own limits (games, challenges) keep its messages well under it. A request may
carry ``id``; the server's reply or error to it carries ``re`` with the same value.
``docs/protocol.md`` is the description for people who write clients and bots.

Why msgspec: its tagged ``Struct`` unions decode and validate a line in one call
(types, required fields, lengths, unknown fields refused) and name the bad field in
the error, at a few microseconds a message; hand-written checks would be longer and
easier to get wrong, and pydantic is a far heavier dependency for the same job.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

import msgspec

from reversi_tui.engine import Color, Game, format_position, square_name

if TYPE_CHECKING:  # only a type here: the match package brings asyncio, which this must not
    from reversi_tui.match.record import Result

VERSION: Final = 4
#: The longest line a client may send, newline included.
MAX_LINE: Final = 4096
#: The longest line a server may send, newline included. The server's limits keep a
#: ``welcome`` (the largest message) to about 150 kB at worst.
MAX_SERVER_LINE: Final = 1024 * 1024
#: The longest chat text, in characters.
MAX_CHAT: Final = 200

# Limits the server applies (documented in docs/protocol.md).
MAX_SESSIONS_PER_USER: Final = 4
RATE_PER_SECOND: Final = 20
RATE_BURST: Final = 40
HELLO_TIMEOUT: Final = 10.0
IDLE_TIMEOUT: Final = 300.0
#: How often a client pings an otherwise quiet connection.
PING_INTERVAL: Final = 60.0
#: Unfinished games one user may have on a server; accepting one more is refused.
MAX_ACTIVE_GAMES: Final = 200
#: Pending challenges: one per challenger and target, and at most these many to one
#: user and from one user.
MAX_CHALLENGES_TO: Final = 20
MAX_CHALLENGES_FROM: Final = 20
#: A pending challenge expires after this many seconds, or when its challenger leaves.
CHALLENGE_TTL: Final = 600.0
#: The standard time controls a client offers: (minutes per player, increment seconds per
#: move). A challenge may name any ``minutes`` 1..180 and ``increment`` 0..180.
TIME_CONTROLS: Final = ((3, 2), (5, 3), (10, 5), (15, 10))
MAX_MINUTES: Final = 180
MAX_INCREMENT: Final = 180
#: Seconds a player must have been gone (no session) before the other may claim the game.
ABANDON_GRACE: Final = 40.0
#: The grace instead when the opponent's last session was dropped for not reading (a
#: suspended client, or a flood it could not keep up with): a stall, not a player who left.
STALLED_GRACE: Final = 300.0
#: Chat lines the server keeps per game (in memory: a restart forgets them).
CHAT_HISTORY: Final = 50
#: Chat lines one user may send in ``CHAT_WINDOW`` seconds, across all their sessions
#: (lobby and games together): a flood costs every reader CPU, so it is bounded per user.
CHAT_PER_USER: Final = 5
CHAT_WINDOW: Final = 10.0
#: Watchers' chat lines one game takes in ``WATCHER_CHAT_WINDOW`` seconds, all watchers
#: together: many users cannot flood a player's game where one cannot.
WATCHER_CHAT_PER_GAME: Final = 20
WATCHER_CHAT_WINDOW: Final = 60.0
#: Bytes of ``chat_history`` lines the server sends after one ``welcome`` or ``watch``
#: at most (the oldest lines are left out first): with the largest ``welcome`` it stays
#: well under the send buffer after which a client that does not read is dropped.
HISTORY_BUDGET: Final = 48 * 1024
#: Seconds of one move's server-measured time at most forgiven as time on the wire.
LAG_ALLOWANCE: Final = 1.0
#: Seconds without input after which a client reports its user ``away``.
AWAY_AFTER: Final = 300.0
#: A rating is provisional while its deviation is at least this.
PROVISIONAL_DEVIATION: Final = 110
#: Until both players have made this many moves a game that ends (resigned, lost on time,
#: claimed) is aborted: no result, no rating change. A player may ``abort`` until they
#: have made this many moves themselves. Zero-move resignations cannot farm ratings.
ABORT_MOVES: Final = 2
#: Rated games one pair of players may start in ``RATED_PAIR_WINDOW`` seconds (aborted
#: games not counted): a second account cannot farm a rating by the hundred.
MAX_RATED_PER_PAIR: Final = 20
RATED_PAIR_WINDOW: Final = 24 * 3600.0

Side = Literal["black", "white"]
#: Where a user is: the lobby, a local game, an online game screen, or away from the keys.
ActivityStatus = Literal["lobby", "local", "online", "away"]
ChallengeColor = Literal["black", "white", "random"]
RequestId = int | Annotated[str, msgspec.Meta(max_length=64)]
UserName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Id = Annotated[int, msgspec.Meta(ge=0)]

# Error codes, stable and documented -----------------------------------------------------


class ErrorCode(StrEnum):
    """Every error code, as ``Error.code`` carries it (a plain string on the wire)."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    HELLO_FIRST = "hello_first"
    VERSION_UNSUPPORTED = "version_unsupported"
    TOO_LARGE = "too_large"
    HELLO_TIMEOUT = "hello_timeout"
    IDLE_TIMEOUT = "idle_timeout"
    IDENTITY_MISMATCH = "identity_mismatch"
    TOO_MANY_SESSIONS = "too_many_sessions"
    USER_OFFLINE = "user_offline"
    CANNOT_CHALLENGE_SELF = "cannot_challenge_self"
    NO_SUCH_CHALLENGE = "no_such_challenge"
    NO_SUCH_GAME = "no_such_game"
    NOT_A_PLAYER = "not_a_player"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_PLY = "stale_ply"
    ILLEGAL_MOVE = "illegal_move"
    GAME_OVER = "game_over"
    RATE_LIMITED = "rate_limited"
    #: The server could not commit a change (its disk): nothing changed; try again.
    SERVER_ERROR = "server_error"
    ALREADY_CHALLENGED = "already_challenged"
    TOO_MANY_CHALLENGES = "too_many_challenges"
    TOO_MANY_GAMES = "too_many_games"
    #: A ``resume`` that cannot be: not a player, moves that do not replay, or two
    #: players' copies that disagree.
    RESUME_REFUSED = "resume_refused"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    #: A ``claim`` while the opponent is online or gone for less than ``ABANDON_GRACE``
    #: (``STALLED_GRACE`` when the server dropped them for not reading).
    CLAIM_TOO_EARLY = "claim_too_early"
    #: A ``rematch`` of a game still in progress.
    GAME_ACTIVE = "game_active"
    #: A ``chat`` beyond ``CHAT_PER_USER`` lines in ``CHAT_WINDOW`` seconds, or a watcher's
    #: beyond ``WATCHER_CHAT_PER_GAME`` in the game: the line was dropped.
    CHAT_LIMITED = "chat_limited"
    #: An ``abort`` after the player's own ``ABORT_MOVES`` moves: resign instead.
    TOO_LATE_TO_ABORT = "too_late_to_abort"
    #: A rated challenge (or its acceptance) beyond ``MAX_RATED_PER_PAIR`` a day.
    TOO_MANY_RATED_GAMES = "too_many_rated_games"


#: After these the server closes the connection; after the others it stays usable.
CLOSING_CODES: Final = frozenset(
    {
        ErrorCode.TOO_LARGE,
        ErrorCode.IDENTITY_MISMATCH,
        ErrorCode.VERSION_UNSUPPORTED,
        ErrorCode.TOO_MANY_SESSIONS,
        ErrorCode.HELLO_TIMEOUT,
        ErrorCode.IDLE_TIMEOUT,
        ErrorCode.TOO_MANY_CONNECTIONS,
    }
)


class _Message(
    msgspec.Struct,
    tag_field="type",
    forbid_unknown_fields=True,
    frozen=True,
    kw_only=True,
    omit_defaults=True,
):
    """Every message: an object whose ``type`` names it; unknown fields are refused,
    and optional fields left at their default are not written."""


class _Request(_Message, frozen=True):
    """A message from a client; ``id`` comes back as ``re`` on the answer."""

    id: RequestId | None = None


class _Reply(_Message, frozen=True):
    """A message from the server; ``re`` answers a request's ``id``."""

    re: RequestId | None = None


class TimeControl(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """A clock for each player: ``minutes`` to start with, ``increment`` seconds per move."""

    minutes: Annotated[int, msgspec.Meta(ge=1, le=MAX_MINUTES)]
    increment: Annotated[int, msgspec.Meta(ge=0, le=MAX_INCREMENT)]


# Client to server --------------------------------------------------------------------------


class Hello(_Request, tag="hello", kw_only=True, frozen=True):
    version: int
    #: Optional; when given it must be the name the kernel's uid maps to.
    user: UserName | None = None


class Ping(_Request, tag="ping", kw_only=True, frozen=True):
    pass


class LobbyRequest(_Request, tag="lobby", kw_only=True, frozen=True):
    pass


class Wait(_Request, tag="wait", kw_only=True, frozen=True):
    on: bool


class Challenge(_Request, tag="challenge", kw_only=True, frozen=True):
    to: UserName
    #: The challenger's colour.
    color: ChallengeColor
    #: None: untimed.
    clock: TimeControl | None = None
    rated: bool = False


class Accept(_Request, tag="accept", kw_only=True, frozen=True):
    challenge: Id


class Decline(_Request, tag="decline", kw_only=True, frozen=True):
    challenge: Id


class Cancel(_Request, tag="cancel", kw_only=True, frozen=True):
    challenge: Id


class MoveMessage(_Request, tag="move", kw_only=True, frozen=True):
    game: Id
    #: The number of moves played so far (passes not counted): the client's view.
    ply: Id
    square: Annotated[str, msgspec.Meta(max_length=8)]
    #: The client's own measure of its player's thinking: from the state that gave the
    #: turn to sending the move (see the clocks in docs/protocol.md).
    think_ms: Annotated[int, msgspec.Meta(ge=0)] | None = None


class Resign(_Request, tag="resign", kw_only=True, frozen=True):
    game: Id


class Abort(_Request, tag="abort", kw_only=True, frozen=True):
    """End a game without a result before the player's own ``ABORT_MOVES`` moves."""

    game: Id


class ClaimRequest(_Request, tag="claim", kw_only=True, frozen=True):
    """End a game whose opponent has been gone for ``ABANDON_GRACE``: won, or drawn."""

    game: Id
    outcome: Literal["win", "draw"]


class Rematch(_Request, tag="rematch", kw_only=True, frozen=True):
    """A new game against the other player of a finished one, colours swapped (or the
    acceptance of their pending rematch offer)."""

    game: Id


class Activity(_Request, tag="activity", kw_only=True, frozen=True):
    """Where the user is (a session starts in ``lobby``)."""

    status: ActivityStatus


class Watch(_Request, tag="watch", kw_only=True, frozen=True):
    game: Id


class Unwatch(_Request, tag="unwatch", kw_only=True, frozen=True):
    game: Id


class ChatRequest(_Request, tag="chat", kw_only=True, frozen=True):
    text: Annotated[str, msgspec.Meta(max_length=MAX_CHAT)]
    game: Id | None = None


#: A game's identity for as long as it lives: ``SERVER:GAME`` of the server and the game
#: number where it began, kept when the game is resumed on another server.
Origin = Annotated[str, msgspec.Meta(min_length=3, max_length=80)]
#: A time in ISO 8601 with its offset, as the server writes it.
Timestamp = Annotated[str, msgspec.Meta(max_length=40)]
#: Every move of a game, concatenated, passes not written (at most 60 moves).
Moves = Annotated[str, msgspec.Meta(max_length=120)]


class Resume(_Request, tag="resume", kw_only=True, frozen=True):
    """A player's own copy of a game the server does not hold (its server died): the
    game is re-created when both players' clients present the same game."""

    origin: Origin
    black: UserName
    white: UserName
    started: Timestamp
    moves: Moves
    #: The game's clocks in the last ``state`` this copy saw (None: untimed).
    clock: Clock | None = None
    rated: bool = False


ClientMessage = (
    Hello
    | Ping
    | LobbyRequest
    | Wait
    | Challenge
    | Accept
    | Decline
    | Cancel
    | MoveMessage
    | Resign
    | Watch
    | Unwatch
    | ChatRequest
    | Resume
    | ClaimRequest
    | Rematch
    | Activity
    | Abort
)

# Server to client --------------------------------------------------------------------------


class GameResult(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """How a game ended. ``black``/``white`` are the discs on the board; ``score`` is
    the final score [black, white]: empties to the winner (split on a draw), and on a
    resignation every empty square to the winner."""

    winner: Side | None
    black: int
    white: int
    score: tuple[int, int]
    #: ``time``: the loser's flag fell; ``abandoned``: claimed after the other player
    #: left (``winner`` the claimant, or null for a draw); ``aborted``: ended before both
    #: players made ``ABORT_MOVES`` moves, no result (``winner`` null, ``score`` the discs).
    reason: Literal["end", "resign", "time", "abandoned", "aborted"]
    #: Each player's rating difference, for a rated game.
    rating_change: dict[str, int] | None = None


class Clock(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Both clocks when the state was sent; ``running`` is the side whose clock runs
    (None when the game is over)."""

    black_ms: int
    white_ms: int
    running: Side | None
    minutes: int
    increment: int


class Rating(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """A Glicko-2 rating, rounded; provisional while ``deviation`` >= 110."""

    rating: int
    deviation: int
    provisional: bool


#: The rating of a user with no rated game on the server.
NEW_RATING: Final = Rating(rating=1500, deviation=500, provisional=True)


class State(_Reply, tag="state", kw_only=True, frozen=True):
    """A whole game, sent on every change to its players and watchers."""

    game: Id
    #: The game's identity across servers (see ``Origin``); clients key games by it.
    origin: str
    #: When the game began (ISO 8601, UTC), kept when it is resumed elsewhere.
    started: str
    black: str
    white: str
    #: The concatenated move list, passes not written.
    moves: str
    #: Moves played so far, passes not counted: ``len(moves) // 2``.
    ply: int
    #: The engine's 64-character position, a1 b1 ... h8, ``X``/``O``/``-``.
    board: str
    turn: Side | None
    status: Literal["active", "finished"]
    result: GameResult | None
    spectators: int
    online: dict[str, bool]
    #: None: untimed.
    clock: Clock | None = None
    rated: bool = False
    #: Both players' ratings on this server (after the update, once a rated game ended).
    ratings: dict[str, Rating] = {}
    #: For each player without a session: how long they have been gone, in ms.
    away_ms: dict[str, int] = {}


class ChallengeInfo(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """A pending challenge, as ``welcome`` lists them; ``color`` is the challenger's."""

    challenge: Id
    from_: str = msgspec.field(name="from")
    to: str
    color: ChallengeColor
    clock: TimeControl | None = None
    rated: bool = False
    #: The finished game this challenge is a rematch of.
    rematch: Id | None = None


class SetAside(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """A game of the user's the server could not load (its stored moves do not
    replay): kept in the store, not played; the players' copies can resume it."""

    game: Id
    origin: str
    black: str
    white: str
    reason: str


class Welcome(_Reply, tag="welcome", kw_only=True, frozen=True):
    version: int
    user: str
    #: The server's store: a random identity made with it. Who runs the server is
    #: the kernel's word (``SO_PEERCRED`` on the client's socket), never a message's.
    server: str
    games: list[State]
    challenges: list[ChallengeInfo]
    set_aside: list[SetAside] = []


class ResumePending(_Reply, tag="resume_pending", kw_only=True, frozen=True):
    """A ``resume`` was heard: the game is re-created once ``waiting_for`` presents
    the same game."""

    origin: str
    black: str
    white: str
    waiting_for: str


class Pong(_Reply, tag="pong", kw_only=True, frozen=True):
    pass


class PlayerInfo(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    user: str
    waiting: bool
    playing: bool
    status: ActivityStatus
    rating: Rating


class GameInfo(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    game: Id
    black: str
    white: str
    ply: int
    spectators: int
    clock: TimeControl | None = None
    rated: bool = False
    turn: Side | None = None


class LobbyReply(_Reply, tag="lobby", kw_only=True, frozen=True):
    """The answer to ``lobby``; also pushed (no ``re``) to sessions in the lobby when it
    changes."""

    players: list[PlayerInfo]
    games: list[GameInfo]


class Presence(_Reply, tag="presence", kw_only=True, frozen=True):
    user: str
    online: bool
    waiting: bool
    status: ActivityStatus = "lobby"


class ChallengeSent(_Reply, tag="challenge_sent", kw_only=True, frozen=True):
    challenge: Id
    to: str
    color: ChallengeColor
    clock: TimeControl | None = None
    rated: bool = False
    rematch: Id | None = None


class Challenged(_Reply, tag="challenged", kw_only=True, frozen=True):
    challenge: Id
    from_: str = msgspec.field(name="from")
    color: ChallengeColor
    clock: TimeControl | None = None
    rated: bool = False
    rematch: Id | None = None


class ChallengeClosed(_Reply, tag="challenge_closed", kw_only=True, frozen=True):
    challenge: Id
    #: ``declined``, ``cancelled``, ``accepted`` (on another session) or ``expired``.
    reason: str


class ChatMessage(_Reply, tag="chat", kw_only=True, frozen=True):
    from_: str = msgspec.field(name="from")
    game: Id | None
    text: str
    #: The speaker is not a player of that game.
    watcher: bool = False


class ChatLine(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    from_: str = msgspec.field(name="from")
    text: str
    watcher: bool


class ChatHistory(_Reply, tag="chat_history", kw_only=True, frozen=True):
    """The last ``CHAT_HISTORY`` lines of a game's chat, oldest first."""

    game: Id
    origin: str
    lines: list[ChatLine]


class Bye(_Reply, tag="bye", kw_only=True, frozen=True):
    reason: str
    #: When to try again, in milliseconds.
    retry_ms: int


class Error(_Reply, tag="error", kw_only=True, frozen=True):
    code: str
    message: str
    #: With ``stale_ply``: the current ply.
    expected: int | None = None


ServerMessage = (
    Welcome
    | Pong
    | LobbyReply
    | Presence
    | ChallengeSent
    | Challenged
    | ChallengeClosed
    | State
    | ChatMessage
    | Bye
    | Error
    | ResumePending
    | ChatHistory
)

CLIENT_TYPES: Final = frozenset(str(t.__struct_config__.tag) for t in ClientMessage.__args__)
SERVER_TYPES: Final = frozenset(str(t.__struct_config__.tag) for t in ServerMessage.__args__)

_client_decoder: Final = msgspec.json.Decoder(ClientMessage)
_server_decoder: Final = msgspec.json.Decoder(ServerMessage)
_encoder: Final = msgspec.json.Encoder()


class ProtocolError(Exception):
    """A line that is not a valid message: the error code to answer with, a message
    naming what is wrong, and the request's ``id`` when it could be read."""

    def __init__(self, code: ErrorCode, message: str, re: RequestId | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.re = re

    def reply(self) -> Error:
        return Error(code=self.code, message=self.message, re=self.re)


def decode_client(line: bytes) -> ClientMessage:
    """One line from a client (newline optional); ProtocolError when it is not valid."""
    return _decode(line, _client_decoder, CLIENT_TYPES)  # type: ignore[no-any-return]


def decode_server(line: bytes) -> ServerMessage:
    """One line from the server (newline optional); ProtocolError when it is not valid."""
    return _decode(  # type: ignore[no-any-return]
        line, _server_decoder, SERVER_TYPES, MAX_SERVER_LINE
    )


class _RequestOnly(msgspec.Struct):
    id: RequestId | None = None


_request_decoder: Final = msgspec.json.Decoder(_RequestOnly)


def request_id(line: bytes) -> RequestId | None:
    """The ``id`` of a request the server will not handle (over the rate limit), so
    that even that request is answered; None when it has none or the line is bad.
    Cheaper than decoding the message: the other fields are skipped, not validated."""
    try:
        return _request_decoder.decode(line).id
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
        return None


def _decode(
    line: bytes,
    decoder: msgspec.json.Decoder[Any],
    types: frozenset[str],
    limit: int = MAX_LINE,
) -> Any:
    if len(line) > limit:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"a line is at most {limit} bytes")
    try:
        return decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as error:
        raise _diagnose(line, error, types) from None


def _diagnose(line: bytes, error: Exception, types: frozenset[str]) -> ProtocolError:
    """Which code a bad line earns: not JSON, an unknown type, or a bad message."""
    try:
        raw = msgspec.json.decode(line)
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError) as not_json:
        return ProtocolError(ErrorCode.BAD_JSON, f"not valid JSON: {_short(not_json)}")
    if not isinstance(raw, dict):
        return ProtocolError(ErrorCode.BAD_MESSAGE, "a message is a JSON object")
    given = raw.get("id")
    re = given if _is_request_id(given) else None
    kind = raw.get("type")
    if not isinstance(kind, str):
        return ProtocolError(ErrorCode.BAD_MESSAGE, 'a message needs a string field "type"', re)
    if kind not in types:
        return ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}", re)
    return ProtocolError(ErrorCode.BAD_MESSAGE, _short(error), re)


def _is_request_id(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, str) and len(value) <= 64)


def _short(error: Exception) -> str:
    text = str(error)
    return text if len(text) <= 200 else text[:197] + "..."


def encode(message: _Message) -> bytes:
    """One message as a line, newline included."""
    return _encoder.encode(message) + b"\n"


# States from the engine --------------------------------------------------------------------


def side_name(color: Color) -> Side:
    return "black" if color is Color.BLACK else "white"


def side_color(side: str) -> Color:
    """The colour a side's name (``side_name``) stands for."""
    return Color.BLACK if side == "black" else Color.WHITE


#: Bidirectional-text controls (embeddings, overrides, isolates, marks): another user's
#: text could reorder what follows it on the screen.
_BIDI: Final = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C])


def clean_text(text: str) -> str:
    """Chat text with control characters (C0, DEL, C1) replaced by spaces and
    bidirectional-text controls removed, then trimmed."""
    return "".join(
        "" if ord(c) in _BIDI else " " if ord(c) < 32 or 127 <= ord(c) < 160 else c for c in text
    ).strip()


#: How a result's termination is named on the wire.
_REASONS: Final[dict[str, Literal["end", "resign", "time", "abandoned"]]] = {
    "normal": "end",
    "resignation": "resign",
    "time forfeit": "time",
    "disconnection": "abandoned",
}


def result_reason(result: Result) -> Literal["end", "resign", "time", "abandoned"]:
    """How ``result``'s termination is named on the wire."""
    return _REASONS[result.termination.value]


def state_of(
    game_id: int,
    black: str,
    white: str,
    game: Game,
    *,
    origin: str,
    started: str,
    result: Result | None = None,
    spectators: int = 0,
    online: dict[str, bool] | None = None,
    clock: Clock | None = None,
    rated: bool = False,
    ratings: dict[str, Rating] | None = None,
    away_ms: dict[str, int] | None = None,
    rating_change: dict[str, int] | None = None,
    aborted: bool = False,
    re: RequestId | None = None,
) -> State:
    """The ``state`` message of a game played from the usual start. ``result`` is how
    it ended before the board did (resigned, out of time, abandoned: a ``Result`` whose
    ``final_score`` counts it); otherwise the board decides when the game is over.
    ``rating_change`` goes into the result of a finished rated game; ``aborted`` ends it
    with no result."""
    moves = [m for m in game.moves if m >= 0]
    position = game.position
    ended: GameResult | None = None
    if aborted:
        discs = position.outcome()
        ended = GameResult(
            winner=None,
            black=discs.black,
            white=discs.white,
            score=(discs.black, discs.white),
            reason="aborted",
        )
    elif result is not None:
        ended = GameResult(
            winner=None if result.winner is None else side_name(result.winner),
            black=result.discs.black,
            white=result.discs.white,
            score=result.final_score,
            reason=result_reason(result),
            rating_change=rating_change,
        )
    elif (outcome := game.outcome()) is not None:
        ended = GameResult(
            winner=None if outcome.winner is None else side_name(outcome.winner),
            black=outcome.black,
            white=outcome.white,
            score=outcome.final_score,
            reason="end",
            rating_change=rating_change,
        )
    return State(
        game=game_id,
        origin=origin,
        started=started,
        black=black,
        white=white,
        moves="".join(square_name(m) for m in moves),
        ply=len(moves),
        board=format_position(position)[:64],
        turn=None if ended is not None else side_name(position.turn),
        status="finished" if ended is not None else "active",
        result=ended,
        spectators=spectators,
        online=dict(online or {}),
        clock=clock,
        rated=rated,
        ratings=dict(ratings or {}),
        away_ms=dict(away_ms or {}),
        re=re,
    )
