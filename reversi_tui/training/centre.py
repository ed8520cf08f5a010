"""Centring the learned evaluation per count of empty squares: ``reversi train centre``.

``fit --bootstrap`` labels each phase with searches into the phases after it, so a
bias of the side to move that one phase carries is passed on, and grows, phase after
phase: the first shipped weights read a typical midgame position 5 to 8 discs worse
for the side to move than the games' results say, the start -5.8 for Black. Within
one search that constant cancels, but not between lines of different length, nor
across a pass (the other side moves at the same count), nor against a game end
scored exactly; and hints, the analysis and the book show it.

The measure is direct: over the data's positions with ``e`` empty squares, the mean
of the labels (the solver's exact score where it gave one, else the game's final
result, both for the side to move) minus the mean evaluation. A game's result is a
noisy label for one position but an unbiased one for a mean of thousands (both
sides of a self-play game are the same player): where the solver scored the
positions, the two means agree within 0.2 discs. Each count is measured on its own
(a few thousand games give a standard error near a quarter of a disc; smoothing
across counts would blur the real swing between odd and even counts, and the ends:
59 empty squares is one position). Held-out games (every ``holdout``-th) are kept
out of the measure and report the bias left.

Pure Python: no numpy needed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reversi_tui.engine.ai.evaluation import DISC
from reversi_tui.engine.ai.pattern_eval import (
    MAX_EMPTIES,
    PatternWeights,
    make_pattern_evaluator,
)
from reversi_tui.training.data import records


@dataclass(frozen=True, slots=True)
class CentreRow:
    """One count of empty squares: positions measured, the mean bias (evaluation minus
    label, discs, training games) of the weights as given, the offset to store (discs),
    and the held-out mean bias before and after."""

    empties: int
    positions: int
    bias: float
    offset: float
    held_before: float
    held_after: float


def _sums(
    weights: PatternWeights, directories: Sequence[Path], holdout: int
) -> tuple[list[list[float]], list[list[float]]]:
    """Per count of empty squares, [positions, sum of evaluation minus label] for the
    training games and for the held-out ones."""
    evaluate = make_pattern_evaluator(weights)
    train = [[0.0, 0.0] for _ in range(MAX_EMPTIES + 1)]
    held = [[0.0, 0.0] for _ in range(MAX_EMPTIES + 1)]
    for directory in directories:
        for record in records(directory):
            empties = 64 - (record.player | record.opponent).bit_count()
            if not 0 < empties <= MAX_EMPTIES:
                continue
            label = record.final if record.exact is None else record.exact
            error = evaluate(record.player, record.opponent) / DISC - label
            row = (held if record.game % holdout == 0 else train)[empties]
            row[0] += 1
            row[1] += error
    return train, held


def measure_offsets(
    weights: PatternWeights, directories: Sequence[Path], holdout: int = 10
) -> list[CentreRow]:
    """Each count of empty squares' bias (with the offsets ``weights`` has) and the
    offset (discs) that removes it: centring centred weights changes nothing."""
    train, held = _sums(weights, directories, holdout)
    rows = []
    for empties in range(1, MAX_EMPTIES + 1):
        n, err = train[empties]
        had = weights.offsets[empties] / weights.scale
        offset = round((had - err / n) * weights.scale) / weights.scale if n else had
        n_held, err_held = held[empties]
        before = err_held / n_held if n_held else float("nan")
        rows.append(
            CentreRow(
                empties,
                int(n),
                err / n if n else float("nan"),
                offset,
                before,
                before + offset - had,
            )
        )
    return rows


def centred(weights: PatternWeights, rows: Sequence[CentreRow]) -> PatternWeights:
    """``weights`` with the rows' offsets (replacing any they had), its meta saying so."""
    offsets = [0] * (MAX_EMPTIES + 1)
    for row in rows:
        offsets[row.empties] = round(row.offset * weights.scale)
    meta: dict[str, Any] = {
        **weights.meta,
        "centred": {
            "method": "per count of empty squares, the mean label minus the mean "
            "evaluation over the training games",
            "held_out_bias_before": [round(r.held_before, 2) for r in rows],
        },
    }
    return dataclasses.replace(weights, offsets=tuple(offsets), meta=meta)


def centre_report(rows: Sequence[CentreRow], report: Callable[[str], None]) -> None:
    """The rows as a table."""
    report("empties  positions  bias  offset  held-out bias before  after (discs)")
    for r in rows:
        report(
            f"{r.empties:7d}  {r.positions:9d}  {r.bias:+5.2f}  {r.offset:+6.2f}  "
            f"{r.held_before:+20.2f}  {r.held_after:+5.2f}"
        )
