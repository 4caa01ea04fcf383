"""What drops are worth, from the configured odds (docs/drops.md, "What drops are worth"): per player
active in a server and per day, at most 25 % of the game's /daily, at every rhythm; and each game's stated
expected value is the mean of what its draw gives."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from services.community.drops.rhythm import DAILY_SHARE_BOUND, RHYTHMS, RhythmName, value_per_active_player
from tests.support.registries import every_game

DROP_GAMES = [spec.key for spec in every_game().all_games() if spec.drops is not None]


def test_every_game_has_drops() -> None:
    assert DROP_GAMES == ["choco", "dinocard", "hoss", "immortals", "pillz"]


@pytest.mark.parametrize("game", DROP_GAMES)
@pytest.mark.parametrize("rhythm", list(RHYTHMS))
def test_drops_per_active_player_and_day_stay_under_a_quarter_of_the_daily(
    catalogs: dict[str, Any], game: str, rhythm: RhythmName
) -> None:
    """A server whose drops all come from this one game (the worst case: `/setup drops` may name one)."""
    spec = every_game().get(game)
    assert spec is not None
    assert spec.drops is not None
    assert spec.daily is not None
    assert spec.drops.value_currency == spec.daily.currency
    per_player = value_per_active_player(RHYTHMS[rhythm], spec.drops.expected_value(catalogs[game]))
    first_day = spec.daily.amounts[0]

    assert per_player <= DAILY_SHARE_BOUND * first_day, (game, rhythm, float(per_player), first_day)


@pytest.mark.parametrize("game", DROP_GAMES)
def test_the_stated_expected_value_is_what_the_draws_give(catalogs: dict[str, Any], game: str) -> None:
    """4,000 seeded draws: the mean worth lies within 4 standard errors of the stated expected value."""
    spec = every_game().get(game)
    assert spec is not None
    assert spec.drops is not None
    rng = random.Random(f"drops:{game}")
    worths = [spec.drops.worth(spec.drops.draw(rng, catalogs[game])) for _ in range(4_000)]
    mean = sum(worths, Fraction(0)) / len(worths)
    variance = sum((w - mean) ** 2 for w in worths) / (len(worths) - 1)
    error = (float(variance) / len(worths)) ** 0.5

    assert abs(float(mean - spec.drops.expected_value(catalogs[game]))) <= 4 * error + 1e-9
