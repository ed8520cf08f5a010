"""Static evaluation: how good a position looks to the side to move, before the game ends.

Scores are integers in *units*: ``DISC`` units are one disc of final disc
difference, so an evaluation reads like "the side to move should win by about
N discs". Integers keep the null-window searches exact (``alpha, alpha + 1``).

The terms are the ones strong Othello programs have used since Iago and
Logistello, chosen because each is cheap on bitboards:

* **Mobility** (legal moves of each side): the main midgame factor. A side with
  few moves gets forced into giving away corners.
* **Frontier discs** (discs next to an empty square, the inverse of potential
  mobility): every frontier disc is a future move for the opponent, so fewer is
  better; this is why good players flip few, inner discs.
* **Edges** from a precomputed table of all 3^8 edge configurations: corners,
  edge discs that can never be flipped (edge discs can only flip along their
  edge, so one-dimensional stability is real stability), and C squares next
  to an empty corner (they hand the corner over).
* **X squares** (diagonally next to an empty corner): the classic blunder.
* **Disc difference**: worthless (slightly negative) early, decisive at the end.
* **Parity**: near the end, the side that gets the last move in the board
  gains a disc or two; with an odd number of empties that is the side to move.

Weights change linearly with the number of empty squares (the game phase). They
were set from published programs' relative weights and adjusted with the arena.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from reversi_tui.engine.bitboard import CORNERS, FULL, legal_moves

#: Units per disc of final disc difference.
DISC = 10

Evaluator = Callable[[int, int], int]

_COL_A = 0x0101010101010101
_NOT_A = 0xFEFEFEFEFEFEFEFE
_NOT_H = 0x7F7F7F7F7F7F7F7F
#: Multiplying a column-a mask by this gathers its eight bits into the top byte.
_GATHER = 0x0102040810204080
_A1, _H1, _A8, _H8 = 1, 1 << 7, 1 << 56, 1 << 63


@dataclass(frozen=True, slots=True)
class Weights:
    """Term weights in discs, at the opening (60 empties) and at the end (0 empties).

    Tuned by self-play at depth 4 (100 games per change, colour-swapped pairs of
    balanced openings, exact play from 10 empties): a heavier frontier term won
    clearly (1.0 over 0.5: 56%, 1.6 over 1.0: 59%, 2.4 lost to 1.6: 39%); heavier
    or lighter mobility, corners, stable edges, X/C squares, parity or disc
    weights did not beat these values.
    """

    mobility: tuple[float, float] = (1.2, 0.6)
    frontier: tuple[float, float] = (1.6, 0.6)
    edge: tuple[float, float] = (1.0, 0.8)
    x_square: tuple[float, float] = (4.0, 1.5)
    discs: tuple[float, float] = (-0.05, 0.5)
    parity: tuple[float, float] = (0.0, 1.5)


#: Edge-table weights, in discs: a corner, a stable edge disc, a C square beside an empty corner.
CORNER_VALUE = 4.0
STABLE_EDGE_VALUE = 1.0
C_SQUARE_PENALTY = 1.5


def _line_moves(cells: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """Every placement on one line of 8 cells (0 empty, 1/2 colours): (flipped mask, result).

    Any colour may fill any empty cell, because a move on an edge square can be
    legal through a direction off the edge; it then flips along the edge as usual.
    """
    out: list[tuple[int, tuple[int, ...]]] = []
    for i, cell in enumerate(cells):
        if cell:
            continue
        for colour in (1, 2):
            flipped = 0
            for step in (-1, 1):
                j, run = i + step, 0
                while 0 <= j < 8 and cells[j] == 3 - colour:
                    run |= 1 << j
                    j += step
                if run and 0 <= j < 8 and cells[j] == colour:
                    flipped |= run
            after = list(cells)
            after[i] = colour
            for j in range(8):
                if flipped >> j & 1:
                    after[j] = colour
            out.append((flipped, tuple(after)))
    return out


@cache
def _unstable(cells: tuple[int, ...]) -> int:
    """Mask of the cells whose disc some sequence of placements on the line can flip."""
    mask = 0
    for flipped, after in _line_moves(cells):
        mask |= flipped | _unstable(after)
    return mask


def _edge_value(cells: tuple[int, ...]) -> float:
    """Value in discs of one edge for colour 1 minus colour 2."""
    unstable = _unstable(cells)
    value = 0.0
    for i, cell in enumerate(cells):
        if not cell:
            continue
        sign = 1.0 if cell == 1 else -1.0
        if i in (0, 7):
            value += sign * CORNER_VALUE
        if not unstable >> i & 1:
            value += sign * STABLE_EDGE_VALUE
        if (i == 1 and not cells[0]) or (i == 6 and not cells[7]):
            value -= sign * C_SQUARE_PENALTY
    return value


def _build_edge_table() -> list[int]:
    """Edge value in units, indexed by ``player_byte << 8 | opponent_byte``."""
    table = [0] * 65536
    for code in range(3**8):
        cells = []
        pb = ob = 0
        for i in range(8):
            code, cell = divmod(code, 3)
            cells.append(cell)
            if cell == 1:
                pb |= 1 << i
            elif cell == 2:
                ob |= 1 << i
        table[pb << 8 | ob] = round(_edge_value(tuple(cells)) * DISC)
    _unstable.cache_clear()
    return table


EDGE_TABLE = _build_edge_table()


def _phase_table(weights: Weights) -> list[tuple[int, ...]]:
    """Per number of empties, each weight scaled to units (x DISC), linearly by phase."""
    rows = []
    for empties in range(65):
        t = min(empties, 60) / 60  # 1 at the opening, 0 at the end
        rows.append(
            tuple(
                round((start * t + end * (1 - t)) * DISC * 16)
                for start, end in (
                    weights.mobility,
                    weights.frontier,
                    weights.edge,
                    weights.x_square,
                    weights.discs,
                    weights.parity,
                )
            )
        )
    return rows


def final_score_units(p: int, o: int) -> int:
    """Exact score of a finished game in evaluation units (``DISC`` per disc).

    The disc difference with the empties to the winner: ``endgame.final_score``
    times ``DISC``, computed here so the evaluation does not load the solver's tables.
    """
    mine, theirs = p.bit_count(), o.bit_count()
    diff = mine - theirs
    if diff > 0:
        diff = 64 - 2 * theirs
    elif diff < 0:
        diff = 2 * mine - 64
    return diff * DISC


def make_evaluator(weights: Weights | None = None) -> Evaluator:
    """The full evaluation with ``weights`` (the defaults are the tuned ones).

    The weights are scaled by 16 in the phase table so the sum keeps fractions
    of a unit; the total is divided back at the end.
    """
    phase = _phase_table(weights or Weights())
    edge = EDGE_TABLE

    def evaluate(p: int, o: int) -> int:
        mp = legal_moves(p, o).bit_count()
        mo = legal_moves(o, p).bit_count()
        if not mp and not mo:
            return final_score_units(p, o)
        occupied = p | o
        empty = ~occupied & FULL
        n_empty = empty.bit_count()
        w_mob, w_front, w_edge, w_x, w_disc, w_par = phase[n_empty]
        # Squares next to an empty square: the frontier of either side. Shifts with a
        # column step drop the sources on the edge column they would wrap from.
        east = empty & _NOT_H
        west = empty & _NOT_A
        near = (
            (empty << 8)
            | (empty >> 8)
            | (east << 1)
            | (east << 9)
            | (east >> 7)
            | (west >> 1)
            | (west >> 9)
            | (west << 7)
        )
        front = (p & near).bit_count() - (o & near).bit_count()
        edges = (
            edge[(p & 0xFF) << 8 | (o & 0xFF)]
            + edge[(p >> 48 & 0xFF00) | (o >> 56)]
            + edge[((p & _COL_A) * _GATHER >> 48 & 0xFF00) | ((o & _COL_A) * _GATHER >> 56 & 0xFF)]
            + edge[
                ((p >> 7 & _COL_A) * _GATHER >> 48 & 0xFF00)
                | ((o >> 7 & _COL_A) * _GATHER >> 56 & 0xFF)
            ]
        )
        ec = empty & CORNERS
        xd = ((ec & _A1) << 9) | ((ec & _H1) << 7) | ((ec & _A8) >> 7) | ((ec & _H8) >> 9)
        xs = (p & xd).bit_count() - (o & xd).bit_count()
        score = (
            w_mob * (mp - mo)
            - w_front * front
            + w_edge * edges // DISC
            - w_x * xs
            + w_disc * (p.bit_count() - o.bit_count())
        )
        if n_empty & 1:
            score += w_par
        else:
            score -= w_par
        return score // 16

    return evaluate


def make_greedy_evaluator(corner_sense: float = 3.0) -> Evaluator:
    """A beginner's view: count discs, and know only that corners are good.

    The easy level uses this (plus noise) so its mistakes look human: it grabs
    discs, gives away mobility and walks into X squares.
    """
    corner = round(corner_sense * DISC)

    def evaluate(p: int, o: int) -> int:
        if not legal_moves(p, o) and not legal_moves(o, p):
            return final_score_units(p, o)
        return (p.bit_count() - o.bit_count()) * DISC + corner * (
            (p & CORNERS).bit_count() - (o & CORNERS).bit_count()
        )

    return evaluate


evaluate = make_evaluator()
