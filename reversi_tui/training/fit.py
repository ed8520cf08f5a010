"""Least squares on pattern features, phase by phase: ``reversi train fit``.

Each position's features are its 46 pattern indices, each folded to the canonical
index its mirror image shares (``Pattern.canonical``), plus a bias; the target is
its exact score when the solver gave one, else its game's final disc difference,
both for the side to move. The phases (``phase_empties`` empty squares each) are
fitted from the end backwards: each is a ridge regression pulled toward the weights
of the phase after it (rather than toward zero), so a configuration the phase's own
positions never show keeps its neighbour's value. The solver is conjugate gradients
on the normal equations, with the sparse products written as numpy gathers and
``bincount``: no scipy.

Every ``holdout``-th game is kept out of the fit, and the mean absolute error in
discs on its positions is reported per phase, next to that of predicting the
phase's mean (how much the patterns explain).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reversi_tui.engine.ai.pattern_eval import decode_weights, encode_weights
from reversi_tui.engine.ai.patterns import (
    INSTANCE_PATTERN,
    N_FEATURES,
    N_INSTANCES,
    OFFSETS,
    PATTERNS,
    indices,
)
from reversi_tui.training.data import NO_EXACT, RECORD, read_chunks, read_manifest

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: Weight units per disc in the file: int16 then spans +-512 discs a weight.
SCALE = 64
INT16 = 32767
#: Rows per block of the transposed product (about 50 MB of temporaries).
BLOCK = 1 << 17


class NumpyMissing(RuntimeError):
    """Fitting needs numpy, which the app does not."""


def need_numpy() -> None:
    """Raise NumpyMissing, saying how to install it, when numpy cannot be imported."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise NumpyMissing(
            "reversi train fit needs numpy: pip install 'reversi-tui[train]' "
            "(or pip install numpy) in this environment"
        ) from None


@dataclass(frozen=True, slots=True)
class FitOptions:
    phase_empties: int = 4
    holdout: int = 10
    ridge: float = 3.0
    iterations: int = 100


@dataclass(frozen=True, slots=True)
class PhaseReport:
    """One phase's fit: its squares, sizes and held-out errors in discs."""

    low: int
    high: int
    train: int
    test: int
    mae: float
    baseline: float


@dataclass(frozen=True, slots=True)
class Dataset:
    features: NDArray[np.int32]
    target: NDArray[np.float64]
    empties: NDArray[np.int64]
    game: NDArray[np.int64]
    #: Whether ``target`` is the solver's exact score (else the game's result).
    exact: NDArray[np.bool_]


def canonical_map() -> NDArray[np.int64]:
    """Every feature's canonical feature (``Pattern.canonical``), all patterns laid end to end."""
    import numpy as np

    parts = []
    for pattern, offset in zip(PATTERNS, OFFSETS, strict=False):
        index = np.arange(pattern.size, dtype=np.int64)
        if pattern.mirror is not None:
            n = len(pattern.mirror)
            powers = 3 ** np.arange(n, dtype=np.int64)
            digits = index[:, None] // powers % 3
            mirrored = (digits[:, list(pattern.mirror)] * powers).sum(axis=1)
            index = np.minimum(index, mirrored)
        parts.append(index + offset)
    return np.concatenate(parts)


def load(directory: Path) -> Dataset:
    """The directory's records as features (canonical feature ids, int32: 184 bytes a
    position) and targets."""
    return load_many([directory])[0]


def load_many(
    directories: Sequence[Path],
) -> tuple[Dataset, list[tuple[int, int]], list[dict[str, Any]]]:
    """Several data directories' records as one data set, with each position's
    (mover, opponent) masks and each directory's manifest. Game numbers stay as
    each directory has them (they only choose the held-out games)."""
    import numpy as np

    raw = b"".join(b"".join(read_chunks(directory)) for directory in directories)
    manifests = [read_manifest(directory) or {} for directory in directories]
    dtype = np.dtype(
        [
            ("p", "<u8"),
            ("o", "<u8"),
            ("white", "u1"),
            ("final", "i1"),
            ("exact", "i1"),
            ("game", "<u4"),
        ]
    )
    if dtype.itemsize != RECORD.size:
        raise RuntimeError("the numpy record layout is not data.RECORD's")
    table = np.frombuffer(raw, dtype=dtype)
    boards = [(int(p), int(o)) for p, o in zip(table["p"], table["o"], strict=True)]
    ids = b"".join(indices(p, o).tobytes() for p, o in boards)
    index = np.frombuffer(ids, dtype=np.uint16).reshape(-1, N_INSTANCES).astype(np.int64)
    offsets = np.array([OFFSETS[k] for k in INSTANCE_PATTERN], dtype=np.int64)
    features = canonical_map()[index + offsets].astype(np.int32)
    exact = table["exact"].astype(np.int64)
    known = exact != NO_EXACT
    target = np.where(known, exact, table["final"].astype(np.int64)).astype(np.float64)
    occupied = np.array([(p | o).bit_count() for p, o in boards], dtype=np.int64)
    dataset = Dataset(features, target, 64 - occupied, table["game"].astype(np.int64), known)
    return dataset, boards, manifests


def quantised(w: NDArray[np.float64]) -> NDArray[np.float64]:
    """Weights in discs (bias last) as the file stores them: whole weight units, int16."""
    import numpy as np

    result: NDArray[np.float64] = np.clip(np.rint(w * SCALE), -INT16, INT16)
    return result


def phase_tables(fitted: Sequence[NDArray[np.float64]]) -> tuple[list[bytes], list[int]]:
    """Each phase's weights (bias last, in discs) as the file's int16 tables and biases."""

    tables, biases = [], []
    for w in fitted:
        units = quantised(w).astype("<i2")
        tables.append(units[:N_FEATURES].tobytes())
        biases.append(int(units[N_FEATURES]))
    return tables, biases


def ridge_fit(
    features: NDArray[np.int32],
    target: NDArray[np.float64],
    prior: NDArray[np.float64],
    ridge: float,
    iterations: int,
) -> NDArray[np.float64]:
    """Weights (bias last) minimising |Aw - y|^2 + ridge |w - prior|^2, by conjugate gradients.

    A row of A has a one at each of its features and at the bias. The bias is
    barely regularised, so it takes the phase's mean.
    """
    import numpy as np

    n = N_FEATURES + 1
    reg = np.full(n, ridge)
    reg[-1] = 1e-6

    def a(w: NDArray[np.float64]) -> NDArray[np.float64]:
        result: NDArray[np.float64] = w[features].sum(axis=1) + w[-1]
        return result

    def at(r: NDArray[np.float64]) -> NDArray[np.float64]:
        # A block of rows at a time: no temporary as large as the feature matrix.
        result = np.zeros(n)
        for start in range(0, len(r), BLOCK):
            block = features[start : start + BLOCK]
            weights = np.repeat(r[start : start + BLOCK], block.shape[1])
            result[:N_FEATURES] += np.bincount(block.ravel(), weights, minlength=N_FEATURES)
        result[-1] = r.sum()
        return result

    # Solve for d = w - prior: (A'A + reg) d = A'(y - A prior).
    d = np.zeros(n)
    r = at(target - a(prior))
    s = r.copy()
    rr = float(r @ r)
    for _ in range(iterations):
        if rr < 1e-9:
            break
        q = at(a(s)) + reg * s
        step = rr / float(s @ q)
        d += step * s
        r -= step * q
        rr_new = float(r @ r)
        s = r + (rr_new / rr) * s
        rr = rr_new
    result: NDArray[np.float64] = prior + d
    return result


def fit(
    directories: Sequence[Path],
    out: Path,
    options: FitOptions,
    report: Callable[[str], None],
) -> list[PhaseReport]:
    """Fit every phase, write the weights file, and report each phase's held-out error."""
    need_numpy()
    import numpy as np

    started = time.perf_counter()
    data, _, manifests = load_many(directories)
    seconds = time.perf_counter() - started
    report(f"{len(data.target)} positions read in {seconds:.1f} s")
    phase_of = (np.maximum(data.empties, 1) - 1) // options.phase_empties
    n_phases = (60 - 1) // options.phase_empties + 1
    held = data.game % options.holdout == 0
    expand = canonical_map()
    prior = np.zeros(N_FEATURES + 1)
    fitted: list[NDArray[np.float64]] = []
    reports: list[PhaseReport] = []
    for phase in range(n_phases):
        in_phase = phase_of == phase
        train, test = in_phase & ~held, in_phase & held
        if train.any():
            w = ridge_fit(
                data.features[train], data.target[train], prior, options.ridge, options.iterations
            )
            # Mirrored configurations share their canonical feature's weight.
            w[:N_FEATURES] = w[expand]
        else:
            w = prior
        prior = w
        fitted.append(w)
        reports.append(
            phase_report(phase, options.phase_empties, data.features, data.target, train, test, w)
        )
    meta: dict[str, Any] = {
        "origin": "; ".join(sorted({m.get("origin", "unknown") for m in manifests})),
        "data": [{k: m.get(k) for k in ("settings", "games", "positions")} for m in manifests],
        "fit": {
            "phase_empties": options.phase_empties,
            "holdout": options.holdout,
            "ridge": options.ridge,
            "iterations": options.iterations,
        },
        "held_out_mae": [round(r.mae, 3) for r in reports],
    }
    tables, biases = phase_tables(fitted)
    blob = encode_weights(
        tables, biases, scale=SCALE, phase_empties=options.phase_empties, meta=meta
    )
    decode_weights(blob)  # what is written must read back
    out.write_bytes(blob)
    return reports


def phase_report(
    phase: int,
    width: int,
    features: NDArray[np.int32],
    target: NDArray[np.float64],
    train: NDArray[np.bool_],
    test: NDArray[np.bool_],
    w: NDArray[np.float64],
) -> PhaseReport:
    """Held-out errors of one phase's weights (``w``, discs, bias last) as the file
    stores them (quantised), in discs, next to predicting the training mean."""
    import numpy as np

    low = phase * width + 1
    high = min(low + width - 1, 60)
    n_test = int(test.sum())
    if not n_test:
        return PhaseReport(low, high, int(train.sum()), 0, float("nan"), float("nan"))
    q = quantised(w) / SCALE
    predicted = q[features[test]].sum(axis=1) + q[N_FEATURES]
    truth = target[test]
    mean = float(target[train].mean()) if train.any() else 0.0
    return PhaseReport(
        low,
        high,
        int(train.sum()),
        n_test,
        float(np.abs(predicted - truth).mean()),
        float(np.abs(mean - truth).mean()),
    )
