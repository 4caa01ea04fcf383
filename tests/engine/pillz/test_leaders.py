"""The two leader abilities that act on lost rounds, Trésor de guerre and Bénédiction (issue 11: every duel
starts at 12 PV and 12 pillz, so these leaders act inside the rules instead of raising the start).

Bets of 1 against 0 make each round's winner certain, so each test checks exact numbers.
"""

from __future__ import annotations

from engine.pillz.state import EffectRecord, Fighter, PillzState
from tests.engine.pillz.helpers import ENGINE, fighter, plain_hand, round_, state


def hand(*front: Fighter) -> tuple[Fighter, ...]:
    return (*front, *plain_hand("x")[len(front) :])


def play(s: PillzState, card0: str, card1: str, winner: int) -> PillzState:
    """One round, seat 0's `card0` against seat 1's `card1`; `winner` bets 1 pillz, the other 0."""
    bets = (1, 0) if winner == 0 else (0, 1)
    mine, theirs = (card0, bets[0]), (card1, bets[1])
    s = round_(s, mine, theirs) if ENGINE.lead(s) == 0 else round_(s, theirs, mine)
    assert s.history[-1].winner == winner
    return s


CHEST = fighter("boss", damage=3, ability="war_chest", value=2)
BLESSED = fighter("boss", damage=3, ability="blessing", value=3)


def test_war_chest_gives_pillz_back_after_each_lost_round_whoever_fought() -> None:
    s = state(hand(CHEST))
    s = play(s, "x1", "b0", winner=1)  # the leader does not fight: it acts all the same
    assert s.pillz == (12 + 2, 11)
    assert s.history[-1].effects == (EffectRecord(seat=0, card="boss", kind="war_chest", amount=2),)
    s = play(s, "boss", "b1", winner=1)
    assert s.pillz == (16, 10)
    s = play(s, "x2", "b2", winner=0)  # a won round: nothing
    assert s.pillz == (15, 10)
    assert s.history[-1].effects == ()


def test_war_chest_adds_to_a_stash_and_comes_before_a_pilfer() -> None:
    stash = fighter("a0", ability="pillz_on_loss", value=2)
    s = play(state(hand(stash, CHEST)), "a0", "b0", winner=1)
    assert s.pillz == (12 + 2 + 2, 11)
    thief = fighter("b0", ability="drain_pillz", value=3)
    s = play(state(hand(CHEST), (thief, *plain_hand("y")[1:]), pillz=(1, 12)), "x1", "b0", winner=1)
    assert s.pillz == (0, 11)  # 1 + 2 back, then 3 drained
    assert EffectRecord(seat=0, card="boss", kind="war_chest", amount=2) in s.history[-1].effects
    assert EffectRecord(seat=1, card="b0", kind="drain_pillz", amount=3) in s.history[-1].effects


def test_an_entrave_does_not_cancel_a_leader_ability() -> None:
    shackle = fighter("b0", ability="cancel_ability", value=1)
    s = play(state(hand(CHEST), (shackle, *plain_hand("y")[1:])), "boss", "b0", winner=1)
    assert s.pillz == (14, 11)
    s = play(state(hand(BLESSED), (shackle, *plain_hand("y")[1:])), "boss", "b0", winner=1)
    assert s.life == (12, 12)  # 3 damage, 3 taken off


def test_blessing_takes_damage_off_the_first_lost_round_only() -> None:
    s = state(hand(BLESSED), (fighter("b0", damage=5), *plain_hand("y")[1:]))
    s = play(s, "x1", "y1", winner=0)  # a won round spends nothing
    assert s.life == (12, 9)
    s = play(s, "x2", "b0", winner=1)
    assert s.life == (10, 9)
    assert s.history[-1].damage == 2
    assert s.history[-1].effects == (EffectRecord(seat=0, card="boss", kind="blessing", amount=3),)
    s = play(s, "x3", "y2", winner=1)
    assert s.life == (7, 9)
    assert s.history[-1].effects == ()


def test_blessing_never_takes_off_more_than_the_damage_and_comes_after_an_armour() -> None:
    armour = fighter("a1", ability="reduce_damage", value=2)
    s = play(state(hand(BLESSED, armour), (fighter("b0", damage=4), *plain_hand("y")[1:])), "a1", "b0", 1)
    assert s.life == (12, 12)
    assert s.history[-1].damage == 0
    assert s.history[-1].effects == (
        EffectRecord(seat=0, card="a1", kind="reduce_damage", amount=2),
        EffectRecord(seat=0, card="boss", kind="blessing", amount=2),
    )
    s = play(s, "x2", "y1", winner=1)  # spent on that first loss even though 2 of its 3 were enough
    assert s.life == (9, 12)


def test_blessing_can_save_from_a_ko() -> None:
    s = play(state(hand(BLESSED), life=(3, 12)), "x1", "b0", winner=1)
    assert s.life == (3, 12)
    assert not s.finished
    s = play(state(plain_hand("a"), life=(3, 12)), "a1", "b0", winner=1)
    assert s.finished
    assert s.reason == "ko"


def test_healing_never_raises_pv_above_12() -> None:
    healer = fighter("a0", damage=2, ability="heal_on_win", value=3)
    s = play(state(hand(healer, BLESSED), life=(11, 12)), "a0", "b0", winner=0)
    assert s.life == (12, 10)
