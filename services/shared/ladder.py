"""Ladders: the Elo rating a two-player game moves, and the top of a server's board.

Elo: expected score 1 / (1 + 10^((Rb - Ra) / 400)); the change K·(S − E) is rounded half away from zero
for one player and the other gets its opposite, so a ladder stays zero-sum. Each game picks its K and
what a board ranks by (an Elo rating for Pillz, points for Chocobataille's leagues); a board shows its
first `LEADERBOARD_SIZE` rows and counts every row before the cut.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

LEADERBOARD_SIZE = 10
BOARD_ALL = 1_000_000  # a board's every row (`/classement serveur` reads whole boards), as a LIMIT both databases take
SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}

T = TypeVar("T")


def expected_score(rating: int, opponent: int) -> float:
    return float(1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0)))


def round_half_away(value: float) -> int:
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def elo_delta(rating: int, opponent: int, score: float, k_factor: int) -> int:
    """The rating change of a player scoring `score` (1 win, 0.5 draw, 0 loss); the opponent's is its
    opposite."""
    return round_half_away(k_factor * (score - expected_score(rating, opponent)))


def top(rows: Sequence[T], limit: int = LEADERBOARD_SIZE) -> tuple[tuple[T, ...], int]:
    """(the rows shown, how many rows there are before the cut)."""
    return tuple(rows[:limit]), len(rows)
