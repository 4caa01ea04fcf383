"""The Immortal's War AI: legal, reproducible from its generator, and better than a random player.

The issue asks for at least 65 % wins against a uniformly random player over at least 2,000 seeded duels.
Here: 1,000 deals from `sample_setup` on the real catalog (seeds 0-999), each played from both seats
(2,000 duels, so neither the deck nor the seat favours the AI); draws count as not won. Measured: 69.6 %
(1,392 wins); one standard error of a 2,000-duel rate near 0.7 is 1.0 point, so the bound sits 4.6 standard
errors below the measure: a regression of the AI shows, the noise alone does not fail it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.immortals.ai import choose, plan, random_policy, wound
from engine.immortals.catalog import Effect
from engine.immortals.state import Choose, ImmortalsState
from tests.engine.immortals.helpers import ENGINE, catalog, line_up, spell, state, unit

Policy = Callable[[ImmortalsState, int, random.Random], Choose]
DEALS = 1000  # x 2 seats = 2,000 duels
BOUND = 0.65


def duel(seed: int, policies: tuple[Policy, Policy]) -> int | None:
    setup = ENGINE.sample_setup(random.Random(seed), catalog())
    s = ENGINE.new_game(setup.players, seed, setup.options)
    rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    while not s.finished:
        for seat in ENGINE.current_players(s):
            s, _ = ENGINE.apply(s, seat, policies[seat](s, seat, rngs[seat]))
    return s.winner


@pytest.mark.slow
def test_the_ai_wins_at_least_65_percent_against_a_random_player() -> None:
    wins = 0
    for seed in range(DEALS):
        wins += duel(seed, (choose, random_policy)) == 0
        wins += duel(seed, (random_policy, choose)) == 1
    assert wins / (2 * DEALS) >= BOUND, wins


def test_the_bound_tells_a_random_player_from_the_ai() -> None:
    """Negative control: a random player against itself stays far below the bound (200 duels)."""
    wins = sum(duel(seed, (random_policy, random_policy)) == seed % 2 for seed in range(200))
    assert wins / 200 < BOUND - 0.05, wins


def test_the_ai_plays_legal_choices_reproducibly() -> None:
    setup = ENGINE.sample_setup(random.Random(3), catalog())
    s = ENGINE.new_game(setup.players, 3, setup.options)
    for seat in (0, 1):
        action = choose(s, seat, random.Random(1))
        assert ENGINE.is_legal(s, seat, action)
        assert choose(s, seat, random.Random(1)) == action


def test_the_ai_ignores_what_it_may_not_know() -> None:
    """The opponent's spells and pending choice do not change the AI's choice."""
    setup = ENGINE.sample_setup(random.Random(8), catalog())
    s = ENGINE.new_game(setup.players, 8, setup.options)
    before = choose(s, 0, random.Random(2))
    for action in ENGINE.legal_actions(s, 1)[:12]:
        after, _ = ENGINE.apply(s, 1, action)
        assert choose(after, 0, random.Random(2)) == before
    no_spells = s.model_copy(update={"spells": (s.spells[0], ())})
    assert choose(no_spells, 0, random.Random(2)) == before


def test_a_spell_whose_condition_fails_is_never_planned() -> None:
    wrath = spell("s0-0", Effect(stat="attack", value=4), terrain="foret")
    s = state(s0=(wrath,), terrain="desert")
    assert all(planned is None for planned, _ in plan(s, 0).values())
    in_forest = state(s0=(wrath,), terrain="foret")
    assert any(planned == wrath for planned, _ in plan(in_forest, 0).values())


def test_a_healing_spell_waits_until_the_player_is_hurt() -> None:
    heal = spell("s0-0", Effect(stat="vitality", value=5))
    assert choose(state(s0=(heal,)), 0, random.Random(1)).spell is None
    assert choose(state(s0=(heal,), vitality=(20, 30)), 0, random.Random(1)).spell == "s0-0"


def test_the_strongest_boost_goes_where_it_swings_the_fight() -> None:
    """With one +4 Attack spell, a 3-Attack unit facing 3/3 units gains more from it than a 9-Attack unit
    that already wins: the spell is planned for the weak unit."""
    mine = (unit("u0-0", attack=9, defense=3), *line_up(0)[1:])
    rage = spell("s0-0", Effect(stat="attack", value=4))
    planned = plan(state(mine, s0=(rage,)), 0)
    assert planned["u0-0"][0] is None
    assert any(p == rage for p, _ in planned.values())


def test_the_wound_law_is_exact() -> None:
    """1 Attack (1 or 2) against 1 Defense (1 or 2): a wound of 1 with probability 1/4, else nothing."""
    mean, variance = wound(1, 1, 0)
    assert mean == 0.25
    assert abs(variance - (0.25 - 0.0625)) < 1e-12
    assert wound(1, 1, 1) == (0.0, 0.0)
