"""Computer opponents for Immortal's War: `choose` (the AI) and `random_policy`.

Both have the signature `(state, seat, rng) -> Choose` and use only what `seat` may know: both line-ups,
the terrain, vitality, past fights, its own spells; never the opponent's spells or pending choice, nor
the game's random stream. Chance comes from the `rng` given.

The AI values a fight analytically instead of rolling it: a strike's wound (Attack roll − Defense roll −
armor, when positive) has an exact mean and variance from the binomial law of D2 dice; over 20 turns the
HP margin is taken as normal, which gives a chance to win the fight. A round's value is that chance times
the damage the unit would deal, minus the chance of losing times the damage it would take, plus the
vitality a healing spell restores now. The opponent's unit is any of its units that have not fought,
equally likely (its choice is secret), and its spells are ignored (unknown).

Spells are planned for the rest of the duel: each of its units that has not fought gets at most one
spell, greedily by the largest gain over fighting without one, and a spell whose terrain or family
condition fails is worth nothing; the unit played now is the one whose planned round is worth most.
Measured against `random_policy`: see docs/immortals/rules-notes.md, "The AI".
"""

from __future__ import annotations

import math
import random
from functools import cache

from engine.immortals.rules import Numbers, Side, initiative, numbers
from engine.immortals.state import (
    START_VITALITY,
    TURNS,
    Choose,
    ImmortalsState,
    SpellCard,
    Unit,
    spells_left,
    units_left,
)

SPREAD = 1.0  # widens the normal law of the HP margin: KOs make a fight less certain than its mean says


def random_policy(state: ImmortalsState, seat: int, rng: random.Random) -> Choose:
    """A unit that has not fought, and no spell or one not cast yet, uniformly."""
    units = [u.uid for u in units_left(state, seat)]
    spells: list[str | None] = [None, *(s.sid for s in spells_left(state, seat))]
    return Choose(unit=rng.choice(units), spell=rng.choice(spells))


@cache
def _dice(n: int) -> tuple[tuple[int, float], ...]:
    """The law of the sum of n D2 dice: (value, probability) pairs."""
    if n <= 0:
        return ((0, 1.0),)
    return tuple((n + k, math.comb(n, k) / 2**n) for k in range(n + 1))


@cache
def wound(attack: int, defense: int, armor: int) -> tuple[float, float]:
    """Mean and variance of one strike's wound: max(0, Attack roll − Defense roll − armor)."""
    mean = square = 0.0
    for a, pa in _dice(attack):
        for d, pd in _dice(defense):
            w = a - d - armor
            if w > 0:
                mean += pa * pd * w
                square += pa * pd * w * w
    return mean, square - mean * mean


def _net_loss(target: Numbers, striker: Numbers) -> tuple[float, float]:
    mean, var = wound(striker.attack, target.defense, target.armor)
    # Regeneration heals no more than the wounds taken (HP never exceed the start).
    return mean - min(target.regen, mean), var


def win_chance(mine: Numbers, theirs: Numbers, first_is_mine: bool) -> tuple[float, float]:
    """Chances that `mine` wins and loses the fight (the rest is a drawn fight), from a normal law of the
    HP margin after 20 turns; the side striking first gets half a strike more."""
    in_mean, in_var = _net_loss(mine, theirs)
    out_mean, out_var = _net_loss(theirs, mine)
    edge = 0.5 if first_is_mine else -0.5
    margin = (mine.hp - TURNS * in_mean) - (theirs.hp - TURNS * out_mean) + edge * (in_mean + out_mean)
    spread = SPREAD * math.sqrt(2 * (TURNS * (in_var + out_var) + 1.0))
    win = 0.5 * (1 + math.erf((margin - 0.5) / spread))
    lose = 0.5 * (1 + math.erf((-margin - 0.5) / spread))
    return win, lose


def round_value(
    state: ImmortalsState, seat: int, unit: Unit, spell: SpellCard | None, foes: list[Unit]
) -> float:
    """Expected vitality margin of fighting with `unit` and `spell`, the foe's unit drawn among `foes`.

    The foe casts no spell in this model, so my unit's numbers do not depend on which foe it meets."""
    missing = START_VITALITY - state.vitality[seat]
    mine = numbers(seat, _sides(seat, Side(unit, spell), Side(foes[0], None)), state.terrain, missing)
    total = 0.0
    for foe in foes:
        theirs = numbers(1 - seat, _sides(seat, Side(unit, spell), Side(foe, None)), state.terrain, 0)
        first = initiative((mine, theirs) if seat == 0 else (theirs, mine), state.engager)
        win, lose = win_chance(mine, theirs, first == seat)
        total += win * mine.power - lose * theirs.power + mine.healed
    return total / len(foes)


def _sides(seat: int, own: Side, foe: Side) -> tuple[Side, Side]:
    return (own, foe) if seat == 0 else (foe, own)


def plan(state: ImmortalsState, seat: int) -> dict[str, tuple[SpellCard | None, float]]:
    """Each unit still to fight, with the spell planned for it and the value of its round."""
    units = units_left(state, seat)
    spells = spells_left(state, seat)
    foes = units_left(state, 1 - seat)
    base = {u.uid: round_value(state, seat, u, None, foes) for u in units}
    gains = sorted(
        (
            (round_value(state, seat, u, s, foes) - base[u.uid], n, u.uid, s)
            for u in units
            for n, s in enumerate(spells)
        ),
        key=lambda item: (-item[0], item[1], item[2]),
    )
    planned: dict[str, tuple[SpellCard | None, float]] = {u.uid: (None, base[u.uid]) for u in units}
    taken: set[str] = set()
    given: set[str] = set()
    for gain, _, uid, spell in gains:
        if gain <= 0:
            break
        if uid in given or spell.sid in taken:
            continue
        planned[uid] = (spell, base[uid] + gain)
        given.add(uid)
        taken.add(spell.sid)
    return planned


def choose(state: ImmortalsState, seat: int, rng: random.Random) -> Choose:
    """The AI's secret choice for the round (see the module docstring)."""
    planned = plan(state, seat)
    order = sorted(planned, key=lambda uid: (-planned[uid][1], rng.random()))
    uid = order[0]
    spell = planned[uid][0]
    return Choose(unit=uid, spell=None if spell is None else spell.sid)
