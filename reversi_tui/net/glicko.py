"""Glicko-2 ratings: Glickman's system ("Example of the Glicko-2 system", glicko2.pdf).

Pure arithmetic, no I/O. ``update`` is one rating period of the paper, step by step;
``rate_game`` is how the server uses it, as lichess does: lichess's parameters (a new
player at 1500, deviation 500, volatility 0.09; tau 0.75; the deviation kept between
45 and 500) and one rating period per game, both players updated from their ratings
before it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: Glicko-2's scale: a rating of 1500 is 0, and 173.7178 points are 1.
SCALE: Final = 173.7178
#: lichess's system constant (how fast the volatility may change).
TAU: Final = 0.75
MIN_DEVIATION: Final = 45.0
MAX_DEVIATION: Final = 500.0
#: The convergence tolerance of the volatility's iteration (the paper's epsilon).
EPSILON: Final = 0.000001


@dataclass(frozen=True, slots=True)
class Glicko:
    """A rating on the Glicko scale: ``rating``, its ``deviation`` and the ``volatility``."""

    rating: float = 1500.0
    deviation: float = 500.0
    volatility: float = 0.09


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Glicko, results: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """``player`` after one rating period of ``results`` (opponent, score: 1 a win,
    0.5 a draw, 0 a loss); with no results only the deviation grows (step 6)."""
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        return Glicko(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    # Steps 3 and 4: the estimated variance and the estimated improvement.
    terms = []
    for opponent, score in results:
        mu_j = (opponent.rating - 1500) / SCALE
        phi_j = opponent.deviation / SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    improvement = sum(g * (s - e) for g, e, s in terms)
    delta = v * improvement
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2)
    # Steps 6 to 8: the new deviation and rating, back on the Glicko scale.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(new_mu * SCALE + 1500, new_phi * SCALE, new_sigma)


def _bounded(rating: Glicko) -> Glicko:
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation))
    return Glicko(rating.rating, deviation, rating.volatility)


def rate_game(black: Glicko, white: Glicko, black_score: float) -> tuple[Glicko, Glicko]:
    """Both players after one rated game (``black_score``: 1, 0.5 or 0), as lichess rates."""
    return (
        _bounded(update(black, [(white, black_score)])),
        _bounded(update(white, [(black, 1 - black_score)])),
    )
