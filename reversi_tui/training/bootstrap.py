"""Fitting from the end backwards, each phase labelled by search: ``reversi train fit --bootstrap``.

The game's final result is a poor label for a midgame position: a few dozen
imperfect moves lie between the two, so the label is mostly the noise of the play
that followed (the plain fit's held-out error from 25 empties on is within a few
discs of predicting the mean, and weights fitted to it lose to the hand-weighted
evaluation). Here the phases are fitted in order from the end, and only the last
ones see game data directly:

* positions the solver scored (``exact_empties`` and fewer, see ``generate``) are
  labelled with their exact score;
* every other position is labelled with a fixed-depth search (``depth`` plies, full
  width) whose leaves are evaluated by the phases already fitted: a depth of at
  least the phase's width always reaches them. A finished game in the tree scores
  exactly.

So each phase learns what a search into the better-known later phases says, not
what the rest of one game happened to say: the error of a label is that of the
phases behind it, shrunk by the search, instead of a whole game's noise.

A search's value carries a small bias of the side to move, and a phase fitted to
such values passes it on to the phases labelled from it: left alone it adds up
(the first shipped weights read the start -5.8 for Black; see ``centre``). So each
phase, once fitted, is centred per count of empty squares against the games' own
labels (exact scores, else results: unbiased on average over thousands of
positions) before the next phase's searches use it; the offsets go in the file.

Resumable: after each phase the labels and weights so far are saved beside the
output (``WEIGHTS.progress.npz``, with the settings); a run started again with the
same data and options goes on from the next phase. Labelling runs in ``jobs``
processes; the result does not depend on their number.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reversi_tui.engine.ai.evaluation import DISC
from reversi_tui.engine.ai.pattern_eval import (
    MAX_EMPTIES,
    PatternWeights,
    decode_weights,
    encode_weights,
    make_pattern_evaluator,
    weights_from_tables,
)
from reversi_tui.engine.ai.patterns import N_FEATURES
from reversi_tui.engine.ai.search import INF, Searcher
from reversi_tui.training.fit import (
    SCALE,
    PhaseReport,
    canonical_map,
    load_many,
    phase_report,
    phase_tables,
    quantised,
    ridge_fit,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

ORIGIN_NOTE = (
    "fitted phase by phase from the end: exact scores where the solver gave them, "
    "elsewhere a fixed-depth search into the phases already fitted"
)


@dataclass(frozen=True, slots=True)
class BootstrapOptions:
    phase_empties: int = 4
    depth: int = 4
    holdout: int = 10
    ridge: float = 3.0
    iterations: int = 100
    #: Label at most this many positions per phase (evenly spread; 0: all).
    sample: int = 0
    #: Centre each phase per count of empty squares before the next is labelled.
    centre: bool = True


# The weights the labelling processes search with, set before they are forked.
_LABEL_WEIGHTS: PatternWeights | None = None


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _label_span(args: tuple[Sequence[tuple[int, int]], int]) -> list[float]:
    """Search values in discs, for the side to move, of a span of positions."""
    boards, depth = args
    if _LABEL_WEIGHTS is None:
        raise RuntimeError("no weights to label with")
    evaluate = make_pattern_evaluator(_LABEL_WEIGHTS)
    values = []
    for p, o in boards:
        searcher = Searcher(evaluate)
        values.append(searcher.negamax(p, o, depth, -INF, INF) / DISC)
    return values


def search_labels(
    weights: PatternWeights, boards: list[tuple[int, int]], depth: int, jobs: int
) -> list[float]:
    """Each board's ``depth``-ply search value under ``weights``, in discs."""
    global _LABEL_WEIGHTS
    _LABEL_WEIGHTS = weights
    step = 200
    spans = [(boards[i : i + step], depth) for i in range(0, len(boards), step)]
    if jobs <= 1:
        return [v for span in spans for v in _label_span(span)]
    with multiprocessing.get_context("fork").Pool(jobs, _ignore_interrupts) as pool:
        return [v for values in pool.imap(_label_span, spans) for v in values]


def _weights_so_far(
    fitted: list[NDArray[np.float64]], n_phases: int, phase_empties: int, offsets: list[int]
) -> PatternWeights:
    """The fitted phases, the last of them standing in for those not fitted yet."""
    tables, biases = phase_tables([*fitted, *[fitted[-1]] * (n_phases - len(fitted))])
    return weights_from_tables(
        b"".join(tables),
        biases,
        scale=SCALE,
        phase_empties=phase_empties,
        meta={},
        offsets=offsets,
    )


def phase_offsets(
    w: NDArray[np.float64],
    features: NDArray[np.int32],
    target: NDArray[np.float64],
    empties: NDArray[np.int64],
    rows: NDArray[np.bool_],
) -> dict[int, int]:
    """Per count of empty squares among ``rows``, the offset (weight units) that makes
    the mean of ``w``'s values (as stored: quantised) the mean of ``target``."""
    import numpy as np

    q = quantised(w)
    predicted = q[features[rows]].sum(axis=1) + q[N_FEATURES]
    error = target[rows] * SCALE - predicted
    counts = empties[rows]
    return {int(e): int(np.rint(error[counts == e].mean())) for e in np.unique(counts)}


def _settings_key(directories: Sequence[Path], options: BootstrapOptions, rows: int) -> str:
    text = json.dumps(
        {"data": [str(d) for d in directories], "options": asdict(options), "rows": rows},
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def fit_bootstrap(
    directories: Sequence[Path],
    out: Path,
    options: BootstrapOptions,
    report: Callable[[str], None],
    jobs: int = 1,
) -> list[PhaseReport]:
    """Fit every phase from the end, write the weights file, report held-out errors."""
    import numpy as np

    started = time.perf_counter()
    data, boards, manifests = load_many(directories)
    report(f"{len(data.target)} positions read in {time.perf_counter() - started:.1f} s")
    width = options.phase_empties
    if options.depth < width:
        raise ValueError(f"the labelling depth must be at least the phase width ({width})")
    n_phases = (60 - 1) // width + 1
    phase_of = (np.maximum(data.empties, 1) - 1) // width
    held = data.game % options.holdout == 0
    labels = np.where(data.exact, data.target, np.nan)
    expand = canonical_map()
    key = _settings_key(directories, options, len(data.target))
    progress = out.with_name(out.name + ".progress.npz")
    fitted: list[NDArray[np.float64]] = []
    offsets = [0] * (MAX_EMPTIES + 1)
    if progress.exists():
        saved = np.load(progress)
        if str(saved["key"]) == key:
            fitted = list(saved["weights"])
            labels = saved["labels"]
            offsets = [int(x) for x in saved["offsets"]]
            report(f"resuming after phase {len(fitted)} of {n_phases}")
    reports: list[PhaseReport] = []
    for phase in range(n_phases):
        in_phase = phase_of == phase
        if phase >= len(fitted):
            todo = np.nonzero(in_phase & np.isnan(labels))[0]
            if options.sample and len(todo) > options.sample:
                keep = np.nonzero(in_phase & ~np.isnan(labels))[0]
                todo = todo[np.linspace(0, len(todo) - 1, options.sample).astype(np.int64)]
                drop = np.setdiff1d(np.nonzero(in_phase)[0], np.concatenate([keep, todo]))
                labels[drop] = np.inf  # not labelled, not fitted
            if len(todo):
                tick = time.perf_counter()
                weights = _weights_so_far(fitted, n_phases, width, offsets)
                values = search_labels(weights, [boards[i] for i in todo], options.depth, jobs)
                labels[todo] = values
                report(
                    f"phase {phase + 1}: {len(todo)} positions searched to depth "
                    f"{options.depth} in {time.perf_counter() - tick:.0f} s"
                )
            usable = in_phase & np.isfinite(labels)
            train = usable & ~held
            prior = fitted[-1] if fitted else np.zeros(N_FEATURES + 1)
            if train.any():
                w = ridge_fit(
                    data.features[train], labels[train], prior, options.ridge, options.iterations
                )
                w[:N_FEATURES] = w[expand]
            else:
                w = prior
            fitted.append(w)
            if options.centre and train.any():
                # Against the games' labels (data.target), not the search labels.
                games = in_phase & ~held
                for e, units in phase_offsets(
                    w, data.features, data.target, data.empties, games
                ).items():
                    offsets[e] = units
            np.savez(
                progress,
                key=np.array(key),
                weights=np.array(fitted),
                labels=labels,
                offsets=np.array(offsets),
            )
        w = fitted[phase]
        usable = in_phase & np.isfinite(labels)
        r = phase_report(phase, width, data.features, labels, usable & ~held, usable & held, w)
        reports.append(r)
        report(f"{r.low:2d}-{r.high:2d}  train {r.train:7d}  held out {r.test:6d}  MAE {r.mae:.2f}")
    tables, biases = phase_tables(fitted)
    meta: dict[str, Any] = {
        "origin": "; ".join(sorted({m.get("origin", "unknown") for m in manifests})),
        "method": ORIGIN_NOTE,
        "data": [{k: m.get(k) for k in ("settings", "games", "positions")} for m in manifests],
        "fit": asdict(options),
        "held_out_mae": [round(r.mae, 3) for r in reports],
    }
    if options.centre:
        meta["centred"] = {
            "method": "each phase, once fitted, per count of empty squares: the mean label "
            "of the games minus the mean evaluation, over the training games"
        }
    blob = encode_weights(
        tables, biases, scale=SCALE, phase_empties=width, meta=meta, offsets=offsets
    )
    decode_weights(blob)
    out.write_bytes(blob)
    progress.unlink(missing_ok=True)
    return reports
