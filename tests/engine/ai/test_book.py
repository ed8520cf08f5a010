"""The opening book: canonical keys under the 8 symmetries, moves mapped back, a checked
file, variety within the spread, and the levels that use it (none without a book)."""

from __future__ import annotations

import hashlib
import random
import zlib
from collections.abc import Iterator

import pytest

from reversi_tui.engine.ai import learned, play
from reversi_tui.engine.ai.book import (
    INVERSE_MAP,
    SQUARE_MAP,
    Book,
    BookError,
    canonical,
    decode_book,
    encode_book,
    image,
)
from reversi_tui.engine.ai.patterns import SYMMETRIES, transform_mask
from reversi_tui.engine.bitboard import legal_moves, squares
from reversi_tui.engine.board import Color, Position
from tests.engine.ai.helpers import random_positions

POSITIONS = random_positions(40, seed=2020, min_plies=0, max_plies=30)


def _asymmetric(positions: list[Position]) -> list[Position]:
    """One position per canonical key, none its own image (made-up values per square
    only agree between frames for those)."""
    out: dict[int, Position] = {}
    for pos in positions:
        images = {image(pos.player, s) << 64 | image(pos.opponent, s) for s in range(8)}
        if len(images) == 8:
            out.setdefault(min(images), pos)
    return list(out.values())


DISTINCT = _asymmetric(POSITIONS)


def _values(position: Position) -> dict[int, float]:
    """Made-up values that differ per move: a move's value is its square's number."""
    return {sq: float(sq) - 30.0 for sq in position.legal_moves}


def _book_of(positions: list[Position]) -> Book:
    """A book whose entries are ``_values`` of each position, stored canonically."""
    entries: dict[int, list[tuple[int, float]]] = {}
    for pos in positions:
        key, sym = canonical(pos.player, pos.opponent)
        entries[key] = [(SQUARE_MAP[sym][sq], v) for sq, v in _values(pos).items()]
    return decode_book(encode_book(entries, {"test": True}, learned.WEIGHTS_SHA256))


def _images(pos: Position) -> Iterator[tuple[int, Position]]:
    for s in range(8):
        yield s, Position(image(pos.player, s), image(pos.opponent, s), Color.BLACK)


@pytest.mark.parametrize("sym", range(8))
def test_image_is_the_symmetry_of_the_patterns_module(sym: int) -> None:
    for pos in POSITIONS:
        for mask in (pos.player, pos.opponent, pos.legal_mask):
            assert image(mask, sym) == transform_mask(mask, SYMMETRIES[sym])
    assert all(INVERSE_MAP[sym][SQUARE_MAP[sym][sq]] == sq for sq in range(64))


def test_canonical_keys_agree_for_all_8_images() -> None:
    for pos in POSITIONS:
        key, sym = canonical(pos.player, pos.opponent)
        assert key == image(pos.player, sym) << 64 | image(pos.opponent, sym)
        assert key == min(image(pos.player, s) << 64 | image(pos.opponent, s) for s in range(8))
        for _, img in _images(pos):
            assert canonical(img.player, img.opponent)[0] == key


@pytest.mark.parametrize("sym", range(8))
def test_lookup_maps_the_moves_back_under_each_symmetry(sym: int) -> None:
    book = _book_of(DISTINCT)
    assert len(DISTINCT) > 20
    for pos in DISTINCT:
        img = Position(image(pos.player, sym), image(pos.opponent, sym), Color.BLACK)
        found = book.lookup(img)
        assert sorted(sq for sq, _ in found) == img.legal_moves
        # A move keeps the value of the square it is the image of.
        values = _values(pos)
        assert all(v == values[INVERSE_MAP[sym][sq]] for sq, v in found)
        assert [v for _, v in found] == sorted((v for _, v in found), reverse=True)


def test_an_unknown_position_is_not_in_the_book() -> None:
    book = _book_of(POSITIONS[:1])
    assert book.lookup(POSITIONS[5]) == []
    assert book.choose(POSITIONS[5], random.Random(0), 10.0) is None


def test_a_corrupted_file_is_refused() -> None:
    data = bytearray(
        encode_book({canonical(*_masks())[0]: [(19, 1.5)]}, {}, learned.WEIGHTS_SHA256)
    )
    decode_book(bytes(data))
    with pytest.raises(BookError, match="magic"):
        decode_book(b"XXXX" + bytes(data[4:]))
    with pytest.raises(BookError):
        decode_book(bytes(data[:-3]))
    head = int.from_bytes(data[4:8], "little")
    # Same length, other payload: only the checksum tells.
    payload = bytearray(zlib.decompress(bytes(data[8 + head :])))
    payload[-1] ^= 1
    forged = bytes(data[: 8 + head]) + zlib.compress(bytes(payload))
    with pytest.raises(BookError, match="checksum"):
        decode_book(forged)


def _masks() -> tuple[int, int]:
    start = Position.initial()
    return start.player, start.opponent


def test_choose_stays_within_the_spread_and_varies_with_the_rng() -> None:
    book = _book_of(DISTINCT)
    pos = max(DISTINCT, key=lambda p: len(p.legal_moves))
    found = book.lookup(pos)
    best = found[0][1]
    for spread in (0.0, 5.0, 20.0):
        picks = {book.choose(pos, random.Random(seed), spread) for seed in range(60)}
        assert all(p is not None and p[1] >= best - spread for p in picks)
        assert {p for p in picks if p is not None} == {f for f in found if f[1] >= best - spread}
    assert len({book.choose(pos, random.Random(seed), 100.0) for seed in range(60)}) > 1
    assert book.choose(pos, random.Random(1), 0.0) == found[0]


#: The sha256 of the shipped book: rebuilding it changes this line.
BOOK_SHA256 = "6a4627f8fcb96e4df6061ef2d790ac53e463d9bb94fdc7aeba6c46c11b7486f2"
#: The sha256 of its entries: unchanged when format 2 named the weights in its header.
ENTRIES_SHA256 = "5a317a20cdc322a75e9f0b9f05bcf8a16601560974a2fdf8943a4ebd9ebcd423"


def test_the_shipped_book_is_intact_and_covers_the_opening() -> None:
    from importlib import resources

    data = resources.files(play.__package__).joinpath("opening_book.bin").read_bytes()
    assert hashlib.sha256(data).hexdigest() == BOOK_SHA256
    head = int.from_bytes(data[4:8], "little")
    assert hashlib.sha256(zlib.decompress(data[8 + head :])).hexdigest() == ENTRIES_SHA256
    book = learned.book()
    assert book is not None and len(book) >= 100
    assert book.meta["settings"]["selective"] and book.meta["settings"]["depth"] >= 12
    assert "no other program" in book.meta["origin"]
    # Every entry values every legal move of its position.
    for key, moves in book.entries.items():
        p, o = key >> 64, key & (1 << 64) - 1
        assert {sq for sq, _ in moves} == set(squares(legal_moves(p, o)))
    # The start and each of its first two plies are in it.
    start = Position.initial()
    assert book.lookup(start)
    assert all(book.lookup(start.play(sq)) for sq in start.legal_moves)


def test_hard_opens_from_the_shipped_book_and_medium_searches() -> None:
    start = Position.initial()
    book = learned.book()
    assert book is not None
    found = dict(book.lookup(start))
    for seed in range(4):
        hard = play.choose_move(start, "hard", rng=random.Random(seed))
        assert hard.nodes == 0 and found[hard.move] >= max(found.values()) - 1.0
    assert play.choose_move(start, "medium", rng=random.Random(0)).nodes > 0


def _install(monkeypatch: pytest.MonkeyPatch, book: Book | None) -> None:
    monkeypatch.setattr(learned, "book", lambda: book)


def test_hard_and_expert_play_from_a_book_easy_and_medium_never(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pos = Position.initial().play(19)
    fake = Book({canonical(pos.player, pos.opponent)[0]: [(0, 2)]})  # an impossible move
    _install(monkeypatch, _book_of([pos]))
    for level in ("hard", "expert"):
        result = play.choose_move(pos, level, rng=random.Random(3))
        assert result.nodes == 0 and (result.move, result.score) in _book_of([pos]).lookup(pos)
        # A fixed-depth search (training, analysis) never reads the book.
        assert play.choose_move(pos, level, depth=2).nodes > 0
    _install(monkeypatch, fake)
    for level in ("easy", "medium"):
        assert play.choose_move(pos, level, max_depth=2).move in pos.legal_moves
