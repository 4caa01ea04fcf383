"""Each character ability in the round its character fights (docs/pillz/abilities.md), one test each.

Bets of 1 against 0 make the round's winner certain, so each test checks exact numbers.
"""

from __future__ import annotations

from typing import Any

from engine.pillz.rules import figures, matchup
from engine.pillz.state import Fighter, PillzState
from tests.engine.pillz.helpers import fighter, plain_hand, round_, state


def duel(mine: Fighter, theirs: Fighter, winner: int, **update: Any) -> PillzState:
    """Seat 0 leads with `mine` against `theirs`; `winner` bets 1 pillz, the other 0."""
    h0 = (mine, *plain_hand("x")[1:])
    h1 = (theirs, *plain_hand("y")[1:])
    bets = (1, 0) if winner == 0 else (0, 1)
    s = round_(state(h0, h1, **update), (mine.card_id, bets[0]), (theirs.card_id, bets[1]))
    assert s.history[0].winner == winner
    return s


def test_power_bonus_adds_to_power_before_the_pillz() -> None:
    s = round_(
        state((fighter("a0", power=3, ability="power_bonus", value=2), *plain_hand("x")[1:])),
        ("a0", 3),
        ("b0", 2),
    )
    assert s.history[0].attacks == (15, 10)  # (3 + 2) x 3 against 5 x 2


def test_damage_bonus_adds_damage_when_it_wins() -> None:
    s = duel(fighter("a0", damage=3, ability="damage_bonus", value=2), fighter("b0"), winner=0)
    assert s.life == (12, 7)
    assert s.history[0].damage == 5
    lost = duel(fighter("a0", damage=3, ability="damage_bonus", value=2), fighter("b0", damage=3), winner=1)
    assert lost.life == (9, 12)


def test_heal_on_win_regains_pv_never_above_the_start() -> None:
    healer = fighter("a0", damage=2, ability="heal_on_win", value=3)
    s = duel(healer, fighter("b0"), winner=0, life=(8, 12))
    assert s.life == (11, 10)
    capped = duel(healer, fighter("b0"), winner=0, life=(11, 12))
    assert capped.life == (12, 10)


def test_pillz_on_loss_gives_pillz_back_when_it_loses() -> None:
    s = duel(fighter("a0", ability="pillz_on_loss", value=2), fighter("b0"), winner=1)
    assert s.pillz == (12 - 0 + 2, 12 - 1)
    won = duel(fighter("a0", ability="pillz_on_loss", value=2), fighter("b0"), winner=0)
    assert won.pillz == (11, 12)


def test_drain_pillz_takes_pillz_from_the_loser_not_below_zero() -> None:
    s = duel(fighter("a0", ability="drain_pillz", value=3), fighter("b0"), winner=0)
    assert s.pillz == (11, 9)
    poor = duel(fighter("a0", ability="drain_pillz", value=3), fighter("b0"), winner=0, pillz=(12, 2))
    assert poor.pillz == (11, 0)


def test_reduce_damage_lowers_the_damage_taken_not_below_zero() -> None:
    s = duel(fighter("a0", ability="reduce_damage", value=2), fighter("b0", damage=5), winner=1)
    assert s.life == (9, 12)
    assert s.history[0].damage == 3
    s = duel(fighter("a0", ability="reduce_damage", value=6), fighter("b0", damage=5), winner=1)
    assert s.life == (12, 12)
    assert s.history[0].damage == 0


def test_cancel_ability_blocks_the_opposing_ability() -> None:
    canceller = fighter("b0", damage=3, ability="cancel_ability", value=1)
    s = duel(fighter("a0", damage=3, ability="damage_bonus", value=2), canceller, winner=0)
    assert s.life == (12, 9)  # no +2
    s = duel(fighter("a0", ability="reduce_damage", value=2), canceller, winner=1)
    assert s.life == (9, 12)  # no reduction
    events_round = s.history[0]
    assert events_round.damage == 3


def test_two_cancel_abilities_cancel_each_other() -> None:
    s = duel(
        fighter("a0", damage=3, ability="cancel_ability", value=1),
        fighter("b0", damage=4, ability="cancel_ability", value=1),
        winner=1,
    )
    assert s.life == (8, 12)


def test_an_ability_acts_only_in_its_own_round() -> None:
    h0 = (
        fighter("a0", damage=3),
        fighter("a1", damage=3, ability="damage_bonus", value=2),
        *plain_hand("x")[2:],
    )
    s = round_(state(h0), ("a0", 1), ("b0", 0))
    assert s.life == (12, 9)


def test_a_leader_ability_is_no_character_ability_in_its_round() -> None:
    leader = fighter("a0", damage=3, ability="clan_power", value=3)
    s = duel(leader, fighter("b0"), winner=0)
    assert s.life == (12, 9)
    assert s.history[0].effects == ()


def test_the_round_event_says_which_abilities_acted() -> None:
    from engine.pillz.state import Play
    from tests.engine.pillz.helpers import ENGINE

    h0 = (fighter("a0", ability="damage_bonus", value=2), *plain_hand("x")[1:])
    h1 = (fighter("b0", ability="cancel_ability", value=1), *plain_hand("y")[1:])
    s, _ = ENGINE.apply(state(h0, h1), 0, Play(card="a0", pillz=1))
    _, events = ENGINE.apply(s, 1, Play(card="b0", pillz=0))
    effects = events[0].data["effects"]
    assert effects == [{"seat": 0, "card": "a0", "kind": "damage_bonus", "amount": 0, "cancelled": True}]


def test_the_ais_kept_figures_are_the_matchup_of_the_very_fighters() -> None:
    """The AI reads each pair's round figures from a table kept across decisions and duels
    (`rules.figures`): a fighter whose power a Chef de clan raised, or whose ability differs, under the
    same card id, must get its own figures, never those of another fighter met before."""

    def both_ways(me: Fighter, foe: Fighter) -> tuple[int, ...]:
        m, n = matchup(me, foe), matchup(foe, me)
        return tuple(
            getattr(side, name)
            for side in (m, n)
            for name in ("power", "damage_if_win", "heal_if_win", "drain_if_win", "refund_if_loss")
        )

    kinds = [None, "power_bonus", "damage_bonus", "reduce_damage", "heal_on_win", "drain_pillz"]
    kinds += ["pillz_on_loss", "cancel_ability"]
    fighters = [
        fighter("a0", power=power, damage=damage, ability=kind, value=value)
        for power in (3, 5)
        for damage in (2, 4)
        for kind in kinds
        for value in (1, 2)
    ]
    foes = [fighter("b0", ability=kind, value=2) for kind in kinds]
    for mine in fighters:
        for foe in foes:
            assert figures(mine, foe) == both_ways(mine, foe)
