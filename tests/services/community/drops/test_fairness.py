"""« Fair to phones, not to the fastest click »: the winner of a drop is uniform among its entrants
whatever order they clicked in. The draw is `engine.fair_draw` over the drop's list ("<position>:<player
id>", services/community/drops/service.py `entries`), from a seed drawn before the first click."""

from __future__ import annotations

import random
from collections import Counter

from engine import fair_draw

PLAYERS = [1_001, 1_002, 1_003, 1_004, 1_005, 1_006]
TRIALS = 6_000
CHI2_5_DF_0_1_PERCENT = 20.52  # the 0.1 % critical value of chi-square with 5 degrees of freedom


def chi2(counts: Counter[int], keys: list[int]) -> float:
    expected = TRIALS / len(keys)
    return sum((counts[k] - expected) ** 2 / expected for k in keys)


def winner(seed: str, clicks: list[int]) -> tuple[int, int]:
    """(the winning player, their click position) of a drop entered in the order `clicks`."""
    entries = [f"{position}:{player}" for position, player in enumerate(clicks, start=1)]
    drawn = fair_draw.draw(seed, entries, 1)[0]
    return clicks[drawn], drawn


def test_the_fastest_clicker_wins_no_more_often_than_anyone() -> None:
    """Player 1,001 always clicks first (the fastest phone), the others in a random order: each player
    and each click position wins one drop in six."""
    rng = random.Random(36)
    by_player: Counter[int] = Counter()
    by_position: Counter[int] = Counter()
    for _ in range(TRIALS):
        seed = f"{rng.getrandbits(256):064x}"
        others = PLAYERS[1:]
        rng.shuffle(others)
        player, position = winner(seed, [PLAYERS[0], *others])
        by_player[player] += 1
        by_position[position] += 1

    assert chi2(by_player, PLAYERS) < CHI2_5_DF_0_1_PERCENT, by_player
    assert chi2(by_position, list(range(len(PLAYERS)))) < CHI2_5_DF_0_1_PERCENT, by_position


def test_the_check_can_fail_a_draw_that_favours_the_first_click() -> None:
    """The negative control: "the first click wins" puts every win on one position."""
    by_position: Counter[int] = Counter({0: TRIALS})

    assert chi2(by_position, list(range(len(PLAYERS)))) > CHI2_5_DF_0_1_PERCENT
