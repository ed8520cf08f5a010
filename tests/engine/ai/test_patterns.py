"""Pattern indices: the set and its symmetries, the fast paths against the definition,
the incremental update against recomputation, and the weights file."""

from __future__ import annotations

import dataclasses
import json
import random
import zlib
from array import array
from collections import Counter

import pytest

from reversi_tui.engine import PASS, Position
from reversi_tui.engine.ai.evaluation import DISC
from reversi_tui.engine.ai.pattern_eval import (
    MAX_EMPTIES,
    PatternWeights,
    WeightsError,
    decode_weights,
    encode_weights,
    make_pattern_evaluator,
    weights_bytes,
)
from reversi_tui.engine.ai.patterns import (
    INSTANCE_PATTERN,
    INSTANCES,
    N_FEATURES,
    OFFSETS,
    PATTERNS,
    SYMMETRIES,
    index_slowly,
    indices,
    indices_of_sums,
    pattern_sums,
    play_sums,
    transform,
    transform_mask,
)
from reversi_tui.engine.bitboard import flips, legal_moves

from .helpers import random_positions

#: Instances per pattern: Edax's set (46 in all).
FORMS = {
    "edge_x": 4,
    "corner_3x3": 4,
    "corner_2x5": 8,
    "line_2": 4,
    "line_3": 4,
    "line_4": 4,
    "diagonal_8": 2,
    "diagonal_7": 4,
    "diagonal_6": 4,
    "diagonal_5": 4,
    "diagonal_4": 4,
}


def test_the_pattern_set() -> None:
    assert {p.name: len(p.instances) for p in PATTERNS} == FORMS
    assert len(INSTANCES) == 46
    assert sum(3 ** len(p.instances[0]) for p in PATTERNS) == N_FEATURES
    for pattern in PATTERNS:
        assert len({frozenset(i) for i in pattern.instances}) == len(pattern.instances)
        assert all(len(set(i)) == len(i) for i in pattern.instances)


def test_every_form_is_the_first_one_under_a_symmetry_square_for_square() -> None:
    for pattern in PATTERNS:
        base = pattern.instances[0]
        for instance in pattern.instances:
            assert any(transform(base, s) == instance for s in SYMMETRIES), pattern.name


def test_the_symmetries_map_each_pattern_s_forms_onto_each_other() -> None:
    for pattern in PATTERNS:
        sets = {frozenset(i) for i in pattern.instances}
        for symmetry in SYMMETRIES:
            assert {frozenset(transform(i, symmetry)) for i in pattern.instances} == sets


def test_every_square_is_covered() -> None:
    assert set().union(*INSTANCES) == set(range(64))


@pytest.mark.parametrize("seed", range(3))
def test_fast_indices_are_the_definition(seed: int) -> None:
    for pos in random_positions(40, seed=seed, min_plies=0, max_plies=60):
        p, o = pos.player, pos.opponent
        assert list(indices(p, o)) == [index_slowly(p, o, i) for i in INSTANCES]


def _by_pattern(p: int, o: int) -> list[Counter[int]]:
    counts: list[Counter[int]] = [Counter() for _ in PATTERNS]
    for k, index in enumerate(indices(p, o)):
        pattern = INSTANCE_PATTERN[k]
        counts[pattern][PATTERNS[pattern].canonical(index)] += 1
    return counts


def test_only_the_2x5_corner_has_no_mirror() -> None:
    assert [p.name for p in PATTERNS if p.mirror is None] == ["corner_2x5"]
    for pattern in PATTERNS:
        for index in (0, 1, 5, pattern.size - 1, pattern.size // 3 + 7):
            assert pattern.mirrored(pattern.mirrored(index)) == index


@pytest.mark.parametrize("sym", range(1, 8))
def test_a_position_and_its_images_have_the_same_indices(sym: int) -> None:
    """The same canonical indices per pattern: an instance read on the mirror image of
    its own squares gives the mirrored index, which shares the weight."""
    symmetry = SYMMETRIES[sym]
    for pos in random_positions(30, seed=20 + sym):
        p, o = pos.player, pos.opponent
        image = transform_mask(p, symmetry), transform_mask(o, symmetry)
        assert _by_pattern(*image) == _by_pattern(p, o)


def test_the_opponent_s_view_swaps_ones_and_twos() -> None:
    pos = Position.initial().play(19)
    mine, theirs = indices(pos.player, pos.opponent), indices(pos.opponent, pos.player)
    for k, instance in enumerate(INSTANCES):
        digits = [mine[k] // 3**d % 3 for d in range(len(instance))]
        assert theirs[k] == sum((0, 2, 1)[v] * 3**d for d, v in enumerate(digits))


@pytest.mark.parametrize("seed", range(4))
def test_the_incremental_update_equals_recomputation_over_random_games(seed: int) -> None:
    rng = random.Random(seed)
    pos = Position.initial()
    sp, so = pattern_sums(pos.player, pos.opponent)
    while not pos.is_game_over:
        p, o = pos.player, pos.opponent
        moves = legal_moves(p, o)
        if moves:
            sq = rng.choice([s for s in range(64) if moves >> s & 1])
            sp, so = play_sums(sp, so, sq, flips(p, o, sq))
            pos = pos.play(sq)
        else:
            sp, so = so, sp
            pos = pos.play(PASS)
        assert (sp, so) == pattern_sums(pos.player, pos.opponent)
        assert list(indices_of_sums(sp, so)) == list(indices(pos.player, pos.opponent))


def _weights(seed: int, phases: int = 3) -> tuple[list[bytes], list[int]]:
    rng = random.Random(seed)
    tables = [
        array("h", (rng.randrange(-300, 300) for _ in range(N_FEATURES))) for _ in range(phases)
    ]
    return [t.tobytes() for t in tables], [rng.randrange(-50, 50) for _ in range(phases)]


def _decoded(seed: int = 1) -> tuple[bytes, PatternWeights]:
    phases, biases = _weights(seed)
    data = encode_weights(phases, biases, scale=32, phase_empties=20, meta={"seed": seed})
    return data, decode_weights(data)


def test_weights_round_trip_through_their_file() -> None:
    phases, biases = _weights(1)
    _, weights = _decoded(1)
    assert weights.meta == {"seed": 1}
    assert weights.biases == tuple(biases)
    assert (weights.scale, weights.phase_empties) == (32, 20)
    for phase, raw in enumerate(phases):
        flat = array("h", raw)
        for k, table in enumerate(weights.tables[phase]):
            assert table == flat[OFFSETS[k] : OFFSETS[k + 1]]
    assert [weights.phase(e) for e in (1, 20, 21, 40, 41, 60)] == [0, 0, 1, 1, 2, 2]


def test_a_damaged_weights_file_is_refused() -> None:
    data, _ = _decoded()
    head = 8 + int.from_bytes(data[4:8], "little")
    payload = bytearray(zlib.decompress(data[head:]))
    payload[1000] ^= 1
    with pytest.raises(WeightsError, match="checksum"):
        decode_weights(data[:head] + zlib.compress(bytes(payload)))
    with pytest.raises(WeightsError, match="magic"):
        decode_weights(b"XXXX" + data[4:])
    with pytest.raises(WeightsError):
        decode_weights(data[: head + 10])


def test_the_evaluator_sums_the_instance_weights_of_the_phase() -> None:
    _, weights = _decoded(2)
    evaluate = make_pattern_evaluator(weights)
    for pos in random_positions(20, seed=5):
        p, o = pos.player, pos.opponent
        phase = weights.phase(pos.empties)
        total = weights.biases[phase] + sum(
            weights.tables[phase][INSTANCE_PATTERN[k]][index_slowly(p, o, instance)]
            for k, instance in enumerate(INSTANCES)
        )
        assert evaluate(p, o) == total * DISC // weights.scale


def test_offsets_per_count_of_empty_squares_round_trip_and_add_to_the_phase_bias() -> None:
    phases, biases = _weights(3)
    offsets = [(e * 7) % 23 - 11 for e in range(MAX_EMPTIES + 1)]
    data = encode_weights(phases, biases, scale=32, phase_empties=20, meta={}, offsets=offsets)
    weights = decode_weights(data)
    assert weights.offsets == tuple(offsets)
    assert weights_bytes(weights) == data
    plain = make_pattern_evaluator(dataclasses.replace(weights, offsets=(0,) * 61))
    evaluate = make_pattern_evaluator(weights)
    for pos in random_positions(20, seed=6):
        p, o = pos.player, pos.opponent
        shift = offsets[pos.empties] * DISC // weights.scale
        # Floor division: the two differ by the offset, give or take a unit.
        assert abs(evaluate(p, o) - plain(p, o) - shift) <= 1
    # A file without offsets reads as all zero, and writes back byte for byte.
    old = encode_weights(phases, biases, scale=32, phase_empties=20, meta={})
    assert decode_weights(old).offsets == (0,) * 61
    assert weights_bytes(decode_weights(old)) == old


@pytest.mark.parametrize("offsets", [[0] * 60, [0.5] * 61, [True] * 61, [1 << 15] * 61, "x"])
def test_a_file_with_bad_offsets_is_refused(offsets: object) -> None:
    phases, biases = _weights(4)
    data = encode_weights(phases, biases, scale=32, phase_empties=20, meta={})
    head = 8 + int.from_bytes(data[4:8], "little")
    header = json.loads(data[8:head])
    header["offsets"] = offsets
    text = json.dumps(header).encode()
    with pytest.raises(WeightsError, match="offsets"):
        decode_weights(data[:4] + len(text).to_bytes(4, "little") + text + data[head:])
