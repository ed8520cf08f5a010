"""PGN-style Othello records: the project's own save format, and what archives publish.

Reading takes tag pairs (``[Black "..."]``), then the moves in either case,
numbered per move or per pair or not at all, with passes implied or written
(``pass``, ``PA``, ``--``), ``{comments}``, ``;`` comments, CRLF, and an optional
result (``34-30``, ``*``). Several games in one file: ``index`` picks one.

Writing gives a small, readable file::

    [Event "reversi-tui game"]
    [Date "2026.11.23"]
    [Black "alice"]
    [White "Computer (hard)"]
    [Result "34-30"]
    [BlackPlayer "human"]
    [WhitePlayer "hard/2s"]

    1. f5 d6 2. c3 d3 ... 21. b8 -- 22. f1 ... 34-30

Each numbered pair is Black's move, then White's; a forced pass is written ``--`` in
its place (as PlayOK's archives write it), so no move is ever shown as the other
side's. A start with White to move begins ``1... d3``.

``Result`` is Black's discs, then White's (``*`` while unfinished). A start other
than the usual one is ``[Position "<64 squares a1..h8: X, O, -> <X or O>"]``.
``BlackPlayer``/``WhitePlayer`` are ours, each player's text form for others
(``human``, ``hard/2s``, ``engine:gtp-rhino``: ``PlayerSpec.shared_text``, never an
engine's command line), so our files give back who played; other programs ignore
them. The first releases' ``computer LEVEL [SECONDS]`` is still read. Whatever a file
says, its players are read as recorded ones (``PlayerSpec.from_record``): an engine
named in a file never runs, and its ``Black``/``White`` names are kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from reversi_tui.engine import (
    PASS,
    Color,
    Move,
    Ply,
    Position,
    format_position,
    parse_position,
    parse_square,
    square_name,
)
from reversi_tui.engine.notation import NotationError
from reversi_tui.match.record import GameRecord
from reversi_tui.records.game_text import (
    PASS_WORDS,
    FormatError,
    ImportedGame,
    check_result,
    forfeit_of,
    no_such_game,
    parse_date,
    parse_player_tag,
    pgn_date,
    player_tag,
    record_of,
    replay,
)

_TOKENS = re.compile(
    r"""\[\s*(?P<tag>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]   # a tag pair
    | (?P<broken>\[[^\]\n]*\]?)                                            # a tag that is not one
    | \{[^}]*\}                                                          # a comment
    | ;[^\n]*                                                            # a line comment
    | (?P<word>[^\s\[\]{};]+)                                            # anything else
    """,
    re.VERBOSE,
)
_NUMBER = re.compile(r"^\d+\.+$|^\d+\.+(?=\S)")
_RESULT = re.compile(r"^(\d{1,2})-(\d{1,2})$|^\*$|^1-0$|^0-1$|^1/2-1/2$")
#: Tags written first, in this order.
_FIRST = ("Event", "Site", "Date", "Round", "Black", "White", "Result")


def read_pgn(text: str, index: int = 0) -> ImportedGame:
    """Game ``index`` (from 0) of a PGN-style file."""
    games = _split(text)
    if not games:
        raise FormatError('no game found: expected tags like [Black "..."] and moves like 1. f5')
    if not 0 <= index < len(games):
        raise no_such_game(len(games), index)
    return _read(*games[index])


def read_pgn_all(text: str) -> list[ImportedGame]:
    return [_read(tags, words) for tags, words in _split(text)]


def _split(text: str) -> list[tuple[dict[str, str], list[str]]]:
    """The games of a file: each its tags and its move words (numbers dropped)."""
    games: list[tuple[dict[str, str], list[str]]] = []
    tags: dict[str, str] = {}
    words: list[str] = []
    # Escaped lines (``%``) are blanked, not dropped, so that line numbers stay true.
    lines = ["" if line.lstrip().startswith("%") else line for line in text.splitlines()]
    body = "\n".join(lines)
    for token in _TOKENS.finditer(body):
        if token["broken"] is not None:
            raise _broken_tag(token["broken"], body.count("\n", 0, token.start()) + 1)
        if token["tag"] is not None:
            if words:  # tags after moves start the next game
                games.append((tags, words))
                tags, words = {}, []
            tags[token["tag"]] = token["value"].replace('\\"', '"').replace("\\\\", "\\")
        elif token["word"] is not None:
            word = _NUMBER.sub("", token["word"])
            if not word:
                continue
            words.append(word)
            if _RESULT.match(word):
                games.append((tags, words))
                tags, words = {}, []
    if tags or words:
        games.append((tags, words))
    return [(t, w) for t, w in games if w or t]


def _broken_tag(written: str, line: int) -> FormatError:
    """A ``[`` that starts no tag pair: cut short (``[Event "x``), or not ``[Name "value"]``."""
    shown = written if len(written) <= 40 else written[:39] + "…"
    problem = f"{shown} is not a tag" if written.endswith("]") else f"unterminated tag {shown}"
    return FormatError(f'line {line}: {problem} (a tag is written [Name "value"])')


def _read(tags: dict[str, str], words: list[str]) -> ImportedGame:
    moves: list[tuple[str, Move]] = []
    ending: str | None = None
    for word in words:
        if _RESULT.match(word):
            ending = word
            break
        if word.lower() in PASS_WORDS:
            moves.append((word, PASS))
            continue
        try:
            moves.extend(
                (word[i : i + 2], parse_square(word[i : i + 2])) for i in range(0, len(word), 2)
            )
        except NotationError:
            raise FormatError(f"{word!r} is not a move: write squares like f5, or pass") from None
    start = Position.initial()
    if "Position" in tags:
        try:
            start = parse_position(tags["Position"])
        except NotationError as error:
            raise FormatError(f"the Position tag is not a position: {error}") from None
    game = replay(start, moves)
    written = tags.get("Result") or ending
    if written and (scores := re.match(r"^(\d{1,2})-(\d{1,2})$", written)):
        check_result(game, int(scores[1]), int(scores[2]), written)
    record = record_of(
        game,
        parse_player_tag(tags.get("BlackPlayer"), tags.get("Black")),
        parse_player_tag(tags.get("WhitePlayer"), tags.get("White")),
        parse_date(" ".join(tags[key] for key in ("Date", "Time") if key in tags)),
        forfeit_of(game, tags.get("Termination"), written),
    )
    return ImportedGame(record, tags)


#: GGF properties that PGN tags already say (``Black``, ``Site``, ``Date``, ``Result``,
#: ``Position``): not written twice.
_GGF_SAID = frozenset({"GM", "PB", "PW", "PC", "DT", "RE", "BO"})


def write_pgn(
    record: GameRecord,
    tags: Mapping[str, str] | None = None,
    *,
    players: bool = True,
    comments: Sequence[str | None] | None = None,
) -> str:
    """The record as a PGN-style game; ``tags`` add to (or replace) the usual ones.

    ``players=False`` leaves out ``BlackPlayer``/``WhitePlayer``: for a game read from
    another program's file, whose players' kinds are not known. ``comments``, one per
    ply of the record (passes included; None or empty: no comment), are written
    ``{...}`` after their ply's move, a White move after one numbered ``N...`` as PGN
    has it; a comment is never split across lines, and a ``}`` in one becomes ``)``.
    """
    game = record.game()
    outcome = game.outcome()
    result = "*" if outcome is None else f"{outcome.black}-{outcome.white}"
    ended = record.result
    forfeited = ended is not None and outcome is None
    if forfeited:
        assert ended is not None
        result = "{}-{}".format(*ended.final_score)
    pairs: dict[str, str] = {
        "Event": "reversi-tui game" if players else "?",
        "Date": pgn_date(record.started),
        "Black": record.black.label,
        "White": record.white.label,
        "Result": result,
    }
    pairs.update((k, v) for k, v in (tags or {}).items() if k not in _GGF_SAID)
    pairs["Result"] = result
    for key in ("BlackPlayer", "WhitePlayer", "Position", "Termination"):
        pairs.pop(key, None)
    if forfeited:
        assert ended is not None
        pairs["Termination"] = ended.termination.value
    if players:
        pairs["BlackPlayer"] = player_tag(record.black)
        pairs["WhitePlayer"] = player_tag(record.white)
    if record.start != Position.initial():
        pairs["Position"] = format_position(record.start)
    ordered = [k for k in _FIRST if k in pairs] + [k for k in pairs if k not in _FIRST]
    head = "\n".join(f'[{k} "{_quote(pairs[k])}"]' for k in ordered)
    return f"{head}\n\n{_movetext(game.plies, result, comments)}\n"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _movetext(
    plies: tuple[Ply, ...], result: str, comments: Sequence[str | None] | None = None
) -> str:
    """Numbered per pair, Black's move then White's, every forced pass written ``--``;
    each ply's comment, if any, after its move; wrapped at 80 columns."""
    if comments is not None and len(comments) != len(plies):
        raise ValueError(f"{len(comments)} comments for {len(plies)} plies")
    words: list[str] = []
    number = 0
    commented = False
    for i, ply in enumerate(plies):
        name = "--" if ply.move == PASS else square_name(ply.move)
        if ply.color is Color.BLACK:
            number += 1
            words.append(f"{number}. {name}")
        elif not words:  # the start has White to move
            number += 1
            words.append(f"{number}... {name}")
        elif commented:  # a comment came between Black's move and White's
            words.append(f"{number}... {name}")
        else:
            words.append(name)
        comment = None if comments is None else comments[i]
        commented = bool(comment)
        if comment:
            words.append("{" + comment.replace("}", ")").replace("\n", " ") + "}")
    words.append(result)
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > 80:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)
