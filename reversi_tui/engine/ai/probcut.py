"""Multi-ProbCut: cut a deep null-window node on a shallow search's verdict.

Buro's observation (Logistello, 1997): the value of a position searched to depth
``d`` is well predicted by its value at a shallow depth ``d'``, as ``v_d ~ slope *
v_d' + intercept`` with a residual of standard deviation ``sigma``. So before
searching a null-window node deeply, a cheap search to ``d'`` tells whether the
deep value is beyond the window with high probability: past ``beta`` by
``CONFIDENCE`` sigmas, the node fails high at once; below ``alpha`` likewise,
it fails low. The depth saved goes into searching the rest of the tree deeper.

The table is this project's own: ``reversi train probcut`` searches positions of
its self-play data at every depth up to ``DEEPEST`` with the selective levels'
evaluation and fits each pair by least squares (the command prints the table
below). Deeper nodes use the deepest calibrated pair of the same parity, with
their own shallow depth; the cut is never tried where the search reaches every
game end (its score must stay exact) nor in principal-variation nodes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Cut:
    """How a ``shallow`` search predicts a deeper one: ``slope``, ``intercept`` and
    ``sigma`` in evaluation units."""

    shallow: int
    slope: float
    intercept: float
    sigma: float


#: Sigmas past the window before a cut: 1.5 cuts wrongly about 7% of the time at
#: each bound (a normal residual), and Buro found it the best trade-off.
CONFIDENCE = 1.5
#: The shallowest remaining depth that tries a cut.
MIN_DEPTH = 3


def shallow_depth(depth: int) -> int:
    """The probe's depth for a node of ``depth``: about half, with an even gap, so
    both searches end on the same side to move (the evaluation's odd-even swing
    then cancels)."""
    shallow = depth // 2
    if (depth - shallow) % 2:
        shallow -= 1
    return max(shallow, 1)


#: From ``reversi train probcut --data DIR --positions 160 --depth 8 --seed 1`` on the
#: deterministic self-play data set (positions with 20 to 50 empty squares), with the
#: learned evaluation hard and expert use (centred: before, the intercepts ran from
#: -4 to +10 units, the bias of the side to move showing between depths): depth ->
#: cut. (The hand-weighted evaluation's table had sigmas of 19-38 units; the learned
#: one swings more between depths, so it cuts less readily.)
CUTS: dict[int, Cut] = {
    3: Cut(1, 1.003, 3.9, 43.1),
    4: Cut(2, 1.014, 3.4, 41.3),
    5: Cut(1, 1.013, 3.0, 43.9),
    6: Cut(2, 0.988, 2.9, 41.2),
    7: Cut(3, 0.988, 3.8, 37.5),
    8: Cut(4, 0.983, -2.0, 34.6),
}
#: The sha256 of the pattern weights file the table was calibrated with (the command
#: prints it with the table; ``learned`` refuses the table for other weights).
WEIGHTS_SHA256 = "72641002433eafa6f5807d8931d16a04749b6960da8575cfe96f30ef27d19173"
#: The deepest calibrated depth.
DEEPEST = max(CUTS, default=0)


def cut_for(depth: int) -> Cut | None:
    """The cut for a node of ``depth`` (None: no calibration covers it)."""
    cut = CUTS.get(depth)
    if cut is not None or depth < MIN_DEPTH or not CUTS:
        return cut
    # Beyond the table: the deepest pair of the same parity, with this depth's probe.
    model = CUTS.get(DEEPEST if (DEEPEST - depth) % 2 == 0 else DEEPEST - 1)
    if model is None:
        return None
    return Cut(shallow_depth(depth), model.slope, model.intercept, model.sigma)
