"""The arithmetic of one Pillz round and of the line-up bonuses, shared by the engine and the AI.

Kept apart from `engine.py` so the AI evaluates a matchup with exactly the rules the engine applies
(a divergence would make the AI misjudge abilities), and so each rule is a small pure function a test
can call. docs/pillz/rules-notes.md and docs/pillz/abilities.md give the decisions in prose.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.pillz.catalog import CHARACTER_ABILITIES
from engine.pillz.state import EffectRecord, Fighter, RoundRecord

# Why the first player was chosen; `first_reason` derives it again from the line-ups.
FirstReason = Literal["stars", "random", "counter_attack"]


def active(me: Fighter, foe: Fighter) -> bool:
    """Whether `me`'s character ability acts against `foe` this round.

    A leader's ability never acts in a round (it acted when the line-ups were drawn); a `cancel_ability`
    opposite blocks any character ability, its own included, so two cancellers cancel each other.
    """
    return me.ability in CHARACTER_ABILITIES and foe.ability != "cancel_ability"


def _bonus(me: Fighter, foe: Fighter, kind: str) -> int:
    return me.value if me.ability == kind and active(me, foe) else 0


@dataclass(frozen=True)
class Matchup:
    """What one side's character brings against a given opposing character, abilities applied."""

    power: int  # multiplied by the pillz to give the attack
    damage_if_win: int  # taken by the opponent when this side wins (the opponent's reduction applied)
    heal_if_win: int  # PV this side regains when it wins (capped by its max life by the caller)
    drain_if_win: int  # pillz the opponent loses when this side wins (not below 0)
    refund_if_loss: int  # pillz this side gets back when it loses


def matchup(me: Fighter, foe: Fighter) -> Matchup:
    damage = me.damage + _bonus(me, foe, "damage_bonus") - _bonus(foe, me, "reduce_damage")
    return Matchup(
        power=me.power + _bonus(me, foe, "power_bonus"),
        damage_if_win=max(0, damage),
        heal_if_win=_bonus(me, foe, "heal_on_win"),
        drain_if_win=_bonus(me, foe, "drain_pillz"),
        refund_if_loss=_bonus(me, foe, "pillz_on_loss"),
    )


def stats(fighters: list[Fighter]) -> list[tuple[int, int]]:
    """(power, damage) with the character's own bonuses, as the rest of the duel is valued."""
    return [
        (
            f.power + (f.value if f.ability == "power_bonus" else 0),
            f.damage + (f.value if f.ability == "damage_bonus" else 0),
        )
        for f in fighters
    ]


# (power, damage if win, heal if win, drain if win, refund if loss) of one side, then of the other
Figures = tuple[int, int, int, int, int, int, int, int, int, int]


_FIGURES: dict[tuple[int, int, str | None, int, int, int, str | None, int], Figures] = {}
_KEPT = 4096  # pairs kept at most; the lab's duels of one deck meet a few hundred


def figures(me: Fighter, foe: Fighter) -> Figures:
    """`matchup` both ways as the AI reads it, kept for the pairs met before: a decision asks for up to
    16 pairs, the next decisions of a duel for the same ones, and a lab's duels draw from one deck.
    Keyed by what `matchup` reads of each side (power, damage, ability and its value), so two pairs
    share an entry only when every figure is the same: a tuple of those is cheaper to hash and compare
    than the fighters (a duel's fighters are new objects, equal ones compared field by field)."""
    key = (me.power, me.damage, me.ability, me.value, foe.power, foe.damage, foe.ability, foe.value)
    found = _FIGURES.get(key)
    if found is None:
        if len(_FIGURES) >= _KEPT:
            _FIGURES.clear()
        m, n = matchup(me, foe), matchup(foe, me)
        found = _FIGURES[key] = (
            m.power, m.damage_if_win, m.heal_if_win, m.drain_if_win, m.refund_if_loss,
            n.power, n.damage_if_win, n.heal_if_win, n.drain_if_win, n.refund_if_loss,
        )  # fmt: skip
    return found


def applied_effects(
    fighters: tuple[Fighter, Fighter], winner: int, healed: int, drained: int
) -> tuple[EffectRecord, ...]:
    """Which character abilities changed the round's numbers and by how much, or were cancelled.

    `healed` and `drained` are what the winner's Second souffle and Larcin really changed after their caps
    (max life, not below 0 pillz); an ability that did not trigger (a Coup précis that lost) is left out.
    """
    loser = 1 - winner
    raw_damage = fighters[winner].damage + _bonus(fighters[winner], fighters[loser], "damage_bonus")
    effects = []
    for seat in (0, 1):
        me, foe = fighters[seat], fighters[1 - seat]
        if me.ability not in CHARACTER_ABILITIES or me.ability == "cancel_ability":
            continue
        if not active(me, foe):
            effects.append(
                EffectRecord(seat=seat, card=me.card_id, kind=me.ability, amount=0, cancelled=True)
            )
            continue
        won = seat == winner
        amount = {
            "power_bonus": me.value,
            "damage_bonus": me.value if won else 0,
            "reduce_damage": 0 if won else raw_damage - max(0, raw_damage - me.value),
            "heal_on_win": healed if won else 0,
            "drain_pillz": drained if won else 0,
            "pillz_on_loss": 0 if won else me.value,
        }[me.ability]
        if amount:
            effects.append(EffectRecord(seat=seat, card=me.card_id, kind=me.ability, amount=amount))
    return tuple(effects)


def leader_total(hand: tuple[Fighter, ...], kind: str) -> int:
    """The summed value of a seat's drawn leaders of one ability kind (0 without one)."""
    return sum(f.value for f in hand if f.ability == kind)


def lost_before(history: tuple[RoundRecord, ...], seat: int) -> bool:
    return any(r.winner != seat for r in history)


def blessing_left(hand: tuple[Fighter, ...], history: tuple[RoundRecord, ...], seat: int) -> int:
    """The damage a drawn Bénédiction still takes off `seat`'s next loss: its value until the first round
    the seat loses, 0 after it (once per duel) or without one."""
    return 0 if lost_before(history, seat) else leader_total(hand, "blessing")


def leader_effects(
    hand: tuple[Fighter, ...], seat: int, first_loss: bool, damage: int
) -> tuple[EffectRecord, ...]:
    """What the loser's drawn leaders do after a lost round, with what each really changed.

    Bénédiction takes its value off the damage (after Armure, not below 0) on the first round its owner
    loses, and is then spent, recorded even when nothing was left to take off so the player sees it gone;
    Trésor de guerre gives its value in pillz back after every lost round, like a Réserve. Leaders act
    whether or not they fight this round, so an Entrave never cancels them.
    """
    effects = []
    for f in hand:
        if f.ability == "blessing" and first_loss:
            amount = min(f.value, damage)
            damage -= amount
            effects.append(EffectRecord(seat=seat, card=f.card_id, kind="blessing", amount=amount))
        elif f.ability == "war_chest":
            effects.append(EffectRecord(seat=seat, card=f.card_id, kind="war_chest", amount=f.value))
    return tuple(effects)


def effect_total(effects: tuple[EffectRecord, ...], kind: str) -> int:
    return sum(e.amount for e in effects if e.kind == kind)


def attack_power(me: Fighter, foe: Fighter | None) -> int:
    """The power `me` fights with: against a known `foe`, exactly the round's; against an unknown one (the
    leader choosing), as if the answer had no Entrave, since only an Entrave would change it."""
    if foe is None:
        return me.power + (me.value if me.ability == "power_bonus" else 0)
    return matchup(me, foe).power


def round_chance(me: Fighter, foes: Sequence[Fighter], pillz: int, foe_pillz: int) -> float:
    """The chance that `me` with `pillz` wins the round, as far as its player can know it: the rulebook's
    odds (« 10 chances sur 15 »: attack ÷ the sum of both attacks, a coin when both are 0) averaged over
    what is hidden, each case alike — the opponent's bet, any of 0 to `foe_pillz`, and its character, one
    of `foes` (the revealed one when answering; the unused ones when leading)."""
    if not foes:
        raise ValueError("no opposing character")
    total = 0.0
    for foe in foes:
        attack, foe_power = attack_power(me, foe) * pillz, attack_power(foe, me)
        for bet in range(foe_pillz + 1):
            other = foe_power * bet
            total += 0.5 if attack + other == 0 else attack / (attack + other)
    return total / (len(foes) * (foe_pillz + 1))


def round_chances(me: Fighter, foes: Sequence[Fighter], pillz_left: int, foe_pillz: int) -> tuple[float, ...]:
    """`round_chance` of `me` with each amount of pillz from 0 to `pillz_left`, in order: the controls show
    every amount, and each foe's matchup is the same for all of them (worked out once per foe, not once
    per amount)."""
    if not foes:
        raise ValueError("no opposing character")
    powers = [(attack_power(me, foe), attack_power(foe, me)) for foe in foes]
    cases = len(foes) * (foe_pillz + 1)
    chances = []
    for pillz in range(pillz_left + 1):
        total = 0.0
        for mine, foe_power in powers:
            attack = mine * pillz
            for bet in range(foe_pillz + 1):
                other = foe_power * bet
                total += 0.5 if attack + other == 0 else attack / (attack + other)
        chances.append(total / cases)
    return tuple(chances)


def draw_winner(rng: random.Random, attack_0: int, attack_1: int) -> int:
    """Seat 0 wins with probability attack_0 / (attack_0 + attack_1), 50/50 when both are 0.

    Integer arithmetic (`randrange(total) < attack_0`) so the odds are exact, as the rulebook's example
    says ("10 chances sur 15"), and no float ever decides a game.
    """
    total = attack_0 + attack_1
    if total == 0:
        return rng.randrange(2)
    return 0 if rng.randrange(total) < attack_0 else 1


def lead_seat(first: int, round_number: int) -> int:
    """The first player leads rounds 1 and 3, the other rounds 2 and 4."""
    return first if round_number % 2 == 1 else 1 - first


def stars(hand: tuple[Fighter, ...]) -> int:
    return sum(f.stars for f in hand)


def has_counter_attack(hand: tuple[Fighter, ...]) -> bool:
    return any(f.ability == "counter_attack" for f in hand)


def first_reason(hands: tuple[tuple[Fighter, ...], tuple[Fighter, ...]]) -> FirstReason:
    """Why the first player is who it is: one Contre-attaque decides, else stars, else chance."""
    counters = (has_counter_attack(hands[0]), has_counter_attack(hands[1]))
    if counters[0] != counters[1]:
        return "counter_attack"
    if counters[0] or stars(hands[0]) == stars(hands[1]):
        return "random"
    return "stars"


def choose_first(hands: tuple[tuple[Fighter, ...], tuple[Fighter, ...]], rng: random.Random) -> int:
    """The rules' "Qui débute le combat?": the higher total of stars begins (beginning is a handicap);
    a lone Contre-attaque makes its owner play second; two of them, or equal stars, leave it to chance.
    The coin is drawn only when needed, so it shifts no other draw."""
    reason = first_reason(hands)
    if reason == "counter_attack":
        return 1 if has_counter_attack(hands[0]) else 0
    if reason == "random":
        return rng.randrange(2)
    return 0 if stars(hands[0]) > stars(hands[1]) else 1
