"""Every number a round shows can be traced to its cause: the round's record names each ability that
changed the attack, the damage, the PV or the pillz, with what it really changed after the caps, and the
attack a leader is shown while choosing is the one its character fights with."""

from __future__ import annotations

from typing import Any

from engine.pillz.rules import attack_power, matchup
from engine.pillz.state import EffectRecord, Play
from tests.engine.pillz.helpers import ENGINE, fighter, plain_hand, state


def resolve(h0: tuple, h1: tuple, bets: tuple[int, int], **update: Any):
    s, _ = ENGINE.apply(state(h0, h1, **update), 0, Play(card=h0[0].card_id, pillz=bets[0]))
    s, _ = ENGINE.apply(s, 1, Play(card=h1[0].card_id, pillz=bets[1]))
    return s.history[-1]


def test_a_furie_leader_is_shown_the_attack_it_fights_with() -> None:
    fury = fighter("a0", power=2, ability="power_bonus", value=2)
    assert attack_power(fury, None) * 3 == 12
    assert attack_power(fury, fighter("b0")) == matchup(fury, fighter("b0")).power == 4
    assert attack_power(fury, fighter("b0", ability="cancel_ability", value=1)) == 2
    record = resolve((fury, *plain_hand("x")[1:]), plain_hand("b"), (3, 3))
    assert record.attacks[0] == 12
    assert EffectRecord(seat=0, card="a0", kind="power_bonus", amount=2) in record.effects


def test_damage_changes_name_their_ability() -> None:
    strike = fighter("a0", power=5, damage=3, ability="damage_bonus", value=2)
    armour = fighter("b0", power=5, damage=3, ability="reduce_damage", value=4)
    record = resolve((strike, *plain_hand("x")[1:]), (armour, *plain_hand("y")[1:]), (5, 0))
    assert record.winner == 0
    assert record.damage == 1
    assert record.effects == (
        EffectRecord(seat=0, card="a0", kind="damage_bonus", amount=2),
        EffectRecord(seat=1, card="b0", kind="reduce_damage", amount=4),
    )


def test_heal_and_drain_record_what_they_really_changed() -> None:
    healer = fighter("a0", ability="heal_on_win", value=3)
    record = resolve((healer, *plain_hand("x")[1:]), plain_hand("b"), (5, 0), life=(11, 12))
    assert record.life == (12, 9)
    assert record.effects == (EffectRecord(seat=0, card="a0", kind="heal_on_win", amount=1),)
    thief = fighter("a0", ability="drain_pillz", value=2)
    record = resolve((thief, *plain_hand("x")[1:]), plain_hand("b"), (5, 0), pillz=(12, 1))
    assert record.pillz_left == (7, 0)
    assert record.effects == (EffectRecord(seat=0, card="a0", kind="drain_pillz", amount=1),)


def test_a_refund_and_a_cancelled_ability_are_recorded_and_an_idle_one_is_not() -> None:
    stash = fighter("b0", ability="pillz_on_loss", value=2)
    record = resolve(plain_hand("a"), (stash, *plain_hand("y")[1:]), (5, 0))
    assert record.effects == (EffectRecord(seat=1, card="b0", kind="pillz_on_loss", amount=2),)
    strike = fighter("b0", ability="damage_bonus", value=2)
    assert resolve(plain_hand("a"), (strike, *plain_hand("y")[1:]), (5, 0)).effects == ()
    shackle = fighter("a0", ability="cancel_ability", value=1)
    record = resolve((shackle, *plain_hand("x")[1:]), (strike, *plain_hand("y")[1:]), (5, 0))
    assert record.effects == (EffectRecord(seat=1, card="b0", kind="damage_bonus", amount=0, cancelled=True),)
