"""The AI's exact search (engine/pillz/search.py) against a plain expectimax written from its documented
model: the optimized search (bets hoisted out of loops, the last round as a row of pillz) must value every
option of every reachable position the same, abilities and leaders included."""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.pillz.ai import choose, even_split_policy, random_policy
from engine.pillz.catalog import PillzCatalog
from engine.pillz.rules import blessing_left, lead_seat, leader_total, matchup
from engine.pillz.search import DRAW, exact_values, model_bets
from engine.pillz.state import ROUNDS, Fighter, PillzState, Play
from services.infra.catalogs import DATA_DIR, load_catalog
from tests.engine.pillz.helpers import ENGINE

Pair = tuple[int, int]


def my_bets(rnd: int, pillz: int) -> list[int]:
    """Any bet up to what I hold; everything in the last round."""
    return [pillz] if rnd == ROUNDS else list(range(pillz + 1))


def settle(
    state: PillzState,
    me: int,
    chest: Pair,
    fighters: tuple[Fighter, Fighter],
    i_win: bool,
    before: tuple[Pair, Pair, Pair],
    bets: Pair,
) -> tuple[Pair, Pair, Pair]:
    """(life, pillz, shields) after a round I win or lose: damage through the shield, heal to the
    maximum, the loser's refund and war chest less the winner's drain; the winner's shield stays."""
    foe = 1 - me
    m, n = matchup(*fighters), matchup(fighters[1], fighters[0])
    life, pillz, shields = before
    if i_win:
        hit = life[1] - max(0, m.damage_if_win - shields[1])
        after = (min(state.max_life[me], life[0] + m.heal_if_win), hit)
        cash = (
            pillz[0] - bets[0],
            max(0, pillz[1] - bets[1] + n.refund_if_loss + chest[1] - m.drain_if_win),
        )
        return after, cash, (shields[0], 0)
    hit = life[0] - max(0, n.damage_if_win - shields[0])
    after = (hit, min(state.max_life[foe], life[1] + n.heal_if_win))
    cash = (
        max(0, pillz[0] - bets[0] + m.refund_if_loss + chest[0] - n.drain_if_win),
        pillz[1] - bets[1],
    )
    return after, cash, (0, shields[1])


def decided(rnd: int, life: Pair) -> float | None:
    """My value of a duel that ends with these lives, None while it goes on."""
    if life[1] <= 0:
        return 1.0
    if life[0] <= 0:
        return 0.0
    if rnd == ROUNDS:
        return DRAW if life[0] == life[1] else float(life[0] > life[1])
    return None


def still_to_play(state: PillzState, me: int) -> tuple[Fighter | None, tuple[frozenset, frozenset]]:
    """The character the foe has shown this round, if any, and each side's characters still to play."""
    foe = 1 - me
    hands = state.hands
    shown = None
    if state.pending is not None:
        shown = next(f for f in hands[foe] if f.card_id == state.pending[0])
    left = (
        frozenset(f for f in hands[me] if not f.used),
        frozenset(f for f in hands[foe] if not f.used and f is not shown),
    )
    return shown, left


def plain_values(state: PillzState, me: int) -> dict[Play, float]:
    """Each round: my (character, bet), the modelled foe's (character equally likely, `model_bets`), the
    draw at attack ÷ sum; everything bet in the last round; a draw worth `DRAW`."""
    foe = 1 - me
    hands = state.hands
    chest = (leader_total(hands[me], "war_chest"), leader_total(hands[foe], "war_chest"))

    def step(
        rnd: int,
        life: tuple[int, int],
        pillz: tuple[int, int],
        shields: tuple[int, int],
        mine: Fighter,
        theirs: Fighter,
        bets: tuple[int, int],
        left: tuple[frozenset, frozenset],
    ) -> float:
        attacks = (matchup(mine, theirs).power * bets[0], matchup(theirs, mine).power * bets[1])
        p = 0.5 if sum(attacks) == 0 else attacks[0] / sum(attacks)
        value = 0.0
        for chance, i_win in ((p, True), (1 - p, False)):
            if chance == 0:
                continue
            after, cash, kept = settle(state, me, chest, (mine, theirs), i_win, (life, pillz, shields), bets)
            outcome = decided(rnd, after)
            value += chance * (best(rnd + 1, after, cash, kept, left) if outcome is None else outcome)
        return value

    def choices(
        rnd: int,
        life: tuple[int, int],
        pillz: tuple[int, int],
        shields: tuple[int, int],
        left: tuple[frozenset, frozenset],
        shown: Fighter | None,
    ) -> dict[tuple[str, int], float]:
        theirs = [shown] if shown is not None else sorted(left[1], key=lambda f: f.card_id)
        found = {}
        for mine in left[0]:
            for bet in my_bets(rnd, pillz[0]):
                total = 0.0
                for card in theirs:
                    rest = (left[0] - {mine}, left[1] - {card})
                    for their_bet, w in model_bets(pillz[1], ROUNDS - rnd + 1):
                        total += (
                            w
                            * step(rnd, life, pillz, shields, mine, card, (bet, their_bet), rest)
                            / len(theirs)
                        )
                found[(mine.card_id, bet)] = total
        return found

    @cache
    def best(
        rnd: int,
        life: tuple[int, int],
        pillz: tuple[int, int],
        shields: tuple[int, int],
        left: tuple[frozenset, frozenset],
    ) -> float:
        if lead_seat(state.first, rnd) == me:
            return max(choices(rnd, life, pillz, shields, left, None).values())
        total = 0.0
        for card in left[1]:
            rest = left[1] - {card}
            for their_bet, w in model_bets(pillz[1], ROUNDS - rnd + 1):
                answer = max(
                    step(rnd, life, pillz, shields, mine, card, (bet, their_bet), (left[0] - {mine}, rest))
                    for mine in left[0]
                    for bet in my_bets(rnd, pillz[0])
                )
                total += w * answer / len(left[1])
        return total

    shown, left = still_to_play(state, me)
    shields = (blessing_left(hands[me], state.history, me), blessing_left(hands[foe], state.history, foe))
    life, pillz = (state.life[me], state.life[foe]), (state.pillz[me], state.pillz[foe])
    found = choices(state.round, life, pillz, shields, left, shown)
    return {Play(card=card, pillz=bet): v for (card, bet), v in found.items()}


def positions(count: int) -> list[tuple[PillzState, int]]:
    """Positions from round 2 on, from seeded duels of the shipped catalog (its leaders included)."""
    catalog = load_catalog(DATA_DIR / "pillz.json", PillzCatalog)
    found = []
    for seed in range(count):
        setup = ENGINE.sample_setup(random.Random(seed), catalog)
        s = ENGINE.new_game(setup.players, seed, setup.options)
        rng = random.Random(seed)
        policy = (random_policy, even_split_policy, choose)[seed % 3]
        while not s.finished:
            seat = ENGINE.current_players(s)[0]
            if s.round >= 2 and (s.round > 2 or seed % 4 == 0):
                found.append((s, seat))
            s, _ = ENGINE.apply(s, seat, policy(s, seat, rng))
    return found


@pytest.mark.parametrize("seed_block", range(3))
def test_the_search_values_every_option_as_a_plain_expectimax(seed_block: int) -> None:
    for s, seat in positions(9)[seed_block::3]:
        expected = plain_values(s, seat)
        found = dict(exact_values(s, seat))
        assert found.keys() == expected.keys()
        for play, v in expected.items():
            assert found[play] == pytest.approx(v, rel=1e-9, abs=1e-12)
