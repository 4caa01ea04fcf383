"""The Immortal's War AI: legal, reproducible from its generator, and better than a random player in
both roles of a duel.

The issue asks for at least 65 % wins against a uniformly random player in each role, the engaging seat
and the counter, over at least 2,000 seeded duels. Here (`roles.py`): 2,000 deals from `sample_setup` on
the real catalog (seeds 0-1999), each played from both seats, which gives exactly 2,000 duels in each
role (the deal decides who engages); draws count as not won. Measured: 81.4 % as the engaging seat
(1,628), 74.9 % as the counter (1,497); one standard error of a 2,000-duel rate near 0.75 is 1.0 point.

The engaging seat has the stronger line-up by construction (the higher total Attack engages): on the
same deals the random policy itself wins 67.3 % as the engaging seat and 29.4 % as the counter. 65 % alone
would not tell the AI from chance in that role, so the test also asks the AI to beat the random policy's
own rate in each role, on the same deals, by at least 8 points (measured: 14.1 and 45.5; one standard
error of the difference is 1.4 points). The deals are shared between two processes (CI has two cores).
"""

from __future__ import annotations

import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from engine.immortals.ai import choose, counter, plan, wound
from engine.immortals.catalog import Effect
from engine.immortals.state import Choose
from tests.engine.immortals.helpers import ENGINE, catalog, line_up, spell, state, unit
from tests.engine.immortals.roles import Role, by_role

DEALS = 2000  # x 2 seats = 2,000 duels in each role
BOUND = 0.65
MARGIN = 0.08  # over the random policy's own rate in the role


def rates(player: str, deals: int) -> dict[str, Role]:
    halves = (range(0, deals // 2), range(deals // 2, deals))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        parts = list(pool.map(by_role, [player, player], halves))
    return {
        role: Role(sum(p[role].wins for p in parts), sum(p[role].duels for p in parts))
        for role in ("engager", "counter")
    }


# 8,000 whole duels: seconds alone, longer on a loaded shared machine.
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_ai_wins_at_least_65_percent_against_a_random_player_in_each_role() -> None:
    ai, chance = rates("ai", DEALS), rates("random", DEALS)
    for role in ("engager", "counter"):
        assert ai[role].duels >= 2000, ai
        assert ai[role].rate >= BOUND, (role, ai)
        assert ai[role].rate >= chance[role].rate + MARGIN, (role, ai, chance)


def test_the_ai_plays_legal_choices_reproducibly() -> None:
    setup = ENGINE.sample_setup(random.Random(3), catalog())
    s = ENGINE.new_game(setup.players, 3, setup.options)
    while not s.finished:
        (seat,) = ENGINE.current_players(s)
        action = choose(s, seat, random.Random(1))
        assert ENGINE.is_legal(s, seat, action)
        assert choose(s, seat, random.Random(1)) == action
        s, _ = ENGINE.apply(s, seat, action)


def test_the_ai_ignores_what_it_may_not_know() -> None:
    """The opponent's drawn spells and a secret choice of the counter do not change the engaging AI's
    choice."""
    setup = ENGINE.sample_setup(random.Random(8), catalog())
    s = ENGINE.new_game(setup.players, 8, setup.options)
    seat = s.engager
    foe = 1 - seat
    before = choose(s, seat, random.Random(2))
    for action in ENGINE.legal_actions(s.model_copy(update={"engager": foe}), foe)[:12]:
        pending = (None, action) if foe == 1 else (action, None)
        assert choose(s.model_copy(update={"pending": pending}), seat, random.Random(2)) == before
    spells = (s.spells[0], ()) if foe == 1 else ((), s.spells[1])
    assert choose(s.model_copy(update={"spells": spells}), seat, random.Random(2)) == before


def test_the_counter_answers_the_engaged_unit_it_sees() -> None:
    """« Le deuxième joueur choisit ... une carte pour contrer l'attaque »: against an engaged 8-Attack
    unit, the AI counters with its one 9-Defense unit, whatever the random stream, and against an engaged
    weak unit it keeps that unit for later."""
    mine = (
        unit("u1-0", attack=3, defense=3),
        unit("u1-1", attack=2, defense=9),
        unit("u1-2", attack=3, defense=3),
        unit("u1-3", attack=3, defense=3),
    )
    foes = (unit("u0-0", attack=8, defense=3), *line_up(0, attack=1, defense=1)[1:])
    strong = state(foes, mine, engager=0, pending=(Choose(unit="u0-0"), None))
    assert {counter(strong, 1, random.Random(n)).unit for n in range(5)} == {"u1-1"}
    assert choose(strong, 1, random.Random(0)).unit == "u1-1"
    weak = state(foes, mine, engager=0, pending=(Choose(unit="u0-1"), None))
    assert counter(weak, 1, random.Random(0)).unit != "u1-1"


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
