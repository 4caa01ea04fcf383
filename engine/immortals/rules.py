"""The arithmetic of a duel: a unit's numbers at its level, terrain, spells, and the 20-turn fight of D2 dice.

Every function is pure; chance comes from the `random.Random` passed in. The fight loop is written for
speed (a duel is four of them, each up to 40 strikes and 80 dice rolls): plain integers and one
`getrandbits` per strike (a roll of n D2 is n plus the number of set bits of n random bits).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple

from engine.immortals.catalog import (
    MALUS_TERRAIN,
    STATS,
    ImmortalsCard,
    ImmortalsCatalog,
)
from engine.immortals.state import TURNS, UNIT_HP, SpellCard, Unit


def level_of(xp: int, level_xp: Sequence[int]) -> int:
    """The level a card has with `xp` experience: 1, plus one per threshold of `level_xp` reached (the
    thresholds increase: the catalog checks it)."""
    return 1 + bisect_right(level_xp, xp)


def terrain_mod(favourite: str, terrain: str) -> int:
    """+1 Attack and Defense on the favourite terrain, -1 on its malus terrain (rulebook's list), else 0."""
    if favourite == terrain:
        return 1
    return -1 if MALUS_TERRAIN.get(favourite) == terrain else 0


def on_terrain(unit: Unit, terrain: str) -> tuple[int, int, int]:
    """`unit`'s Attack and Defense on `terrain` before spells, and the terrain's change (+1 on its favourite
    terrain, -1 on its malus terrain, else 0): what a fight there starts from (`numbers`)."""
    mod = terrain_mod(unit.terrain, terrain)
    return max(0, unit.attack + mod), max(0, unit.defense + mod), mod


def active_families(deck: Sequence[str], catalog: ImmortalsCatalog) -> frozenset[str]:
    """Families with at least two cards in the deck (two copies of one card count as two cards)."""
    cards = catalog.cards_by_id()
    seen: set[str] = set()
    active: set[str] = set()
    for card_id in deck:
        card = cards.get(card_id) if isinstance(card_id, str) else None
        if card is not None:
            (active if card.family in seen else seen).add(card.family)
    return frozenset(active)


def unit_fields(
    card: ImmortalsCard, level: int, catalog: ImmortalsCatalog, family_active: bool, uid: str, deck_index: int
) -> dict[str, Any]:
    """A unit's numbers at `level`: the card's Attack and Defense, its own bonuses of that level or below,
    and its family's bonus when the deck activates it (the fields of a `Unit`, in its declared order:
    `new_game` builds it with `state.built`)."""
    fields: dict[str, Any] = {
        "uid": uid,
        "card_id": card.id,
        "deck_index": deck_index,
        "family": card.family,
        "terrain": card.terrain,
        "level": level,
        "attack": card.attack[level - 1],
        "defense": card.defense[level - 1],
        "damage": 0,
        "hp": UNIT_HP,
        "armor": 0,
        "regen": 0,
        "family_bonus": family_active,
    }
    for bonus in card.bonuses:  # each adds to a unit stat: the catalog checks it
        if bonus.level <= level:
            fields[bonus.stat] += bonus.value
    family = catalog.family(card.family) if family_active else None
    if family is not None:
        fields[family.bonus.stat] += family.bonus.value
    return fields


def spell_acts(spell: SpellCard | None, unit: Unit, terrain: str) -> bool:
    """A spell acts unless its terrain or family condition is not met."""
    if spell is None:
        return False
    if spell.terrain is not None and spell.terrain != terrain:
        return False
    return spell.family is None or spell.family == unit.family


class Side(NamedTuple):
    """One seat's part of a round before the dice: its unit and the spell it cast (or None)."""

    unit: Unit
    spell: SpellCard | None


# A `Side` as a plain pair, which `numbers` takes too: the AI builds some 300 a duel, and a plain tuple
# costs a tenth of a NamedTuple's constructor.
Pair = tuple[Unit, SpellCard | None]


class Numbers(NamedTuple):
    """`seat`'s numbers for a fight (a plain tuple: the AI computes some 130 of them per duel)."""

    attack: int
    defense: int
    hp: int
    armor: int
    regen: int
    power: int
    healed: int
    terrain_mod: int
    spell_acted: bool
    initiative_spell: bool


# No spell acting: every stat unchanged (read-only, shared by every such fight).
_NO_EFFECT: Mapping[str, int] = dict.fromkeys(STATS, 0)


def numbers(seat: int, sides: tuple[Pair, Pair], terrain: str, vitality_missing: int) -> Numbers:
    """`seat`'s numbers for the fight: terrain and both spells applied, clamped to sensible ranges.

    The spell effects acting on `seat`'s unit are its own spell's "self" ones and the foe's "foe" ones,
    when that spell acts (`spell_acts`)."""
    unit, spell = sides[seat]
    mod = terrain_mod(unit.terrain, terrain)
    acted = spell is not None and spell_acts(spell, unit, terrain)
    foe_unit, foe_spell = sides[1 - seat]
    foe_acts = foe_spell is not None and spell_acts(foe_spell, foe_unit, terrain)
    plus = _NO_EFFECT
    if acted or foe_acts:
        added = dict(_NO_EFFECT)
        if acted:
            assert spell is not None
            for effect in spell.effects:
                if effect.target == "self":
                    added[effect.stat] += effect.value
        if foe_acts:
            assert foe_spell is not None
            for effect in foe_spell.effects:
                if effect.target == "foe":
                    added[effect.stat] += effect.value
        plus = added
    attack = unit.attack + plus["attack"]  # the terrain adds to the fight's Attack, not to the power
    power = attack + unit.damage + plus["damage"]
    attack += mod
    defense = unit.defense + mod + plus["defense"]
    hp = unit.hp + plus["hp"]
    armor = unit.armor + plus["armor"]
    healed = plus["vitality"]
    # Conditional expressions rather than `max` and `min`, and `_make` rather than the NamedTuple's
    # constructor: the AI calls this some 130 times a duel, and those calls were most of its cost.
    return Numbers._make(
        (
            attack if attack > 0 else 0,
            defense if defense > 0 else 0,
            hp if hp > 1 else 1,
            armor if armor > 0 else 0,
            unit.regen + plus["regen"],
            power if power > 0 else 0,
            healed if healed < vitality_missing else vitality_missing,
            mod,
            acted,
            plus["initiative"] > 0,
        )
    )


def fighter_fields(side: Side, n: Numbers) -> dict[str, Any]:
    """A side of a fight record, as the fields of a `Fighter`, in its declared order (the engine builds it
    with `state.built`)."""
    spell = side.spell
    return {
        "uid": side.unit.uid,
        "card_id": side.unit.card_id,
        "spell": None if spell is None else spell.spell_id,
        "spell_sid": None if spell is None else spell.sid,
        "spell_acted": n.spell_acted,
        "terrain_mod": n.terrain_mod,
        "attack": n.attack,
        "defense": n.defense,
        "hp": n.hp,
        "armor": n.armor,
        "regen": n.regen,
        "power": n.power,
        "healed": n.healed,
    }


def initiative(fighters: tuple[Numbers, Numbers], engager: int) -> int:
    """The seat striking first (`strikes_first`)."""
    return 0 if strikes_first(fighters[0], fighters[1], engager == 0) else 1


def strikes_first(mine: Numbers, theirs: Numbers, engaging: bool) -> bool:
    """Whether `mine` strikes before `theirs`: the higher fight Attack; a lone initiative spell overrides it
    (both: the usual rule); equal Attacks: the engaging player's unit. The AI asks it of some 330 fights a
    duel, one seat's side to the other, without building the pair `initiative` reads."""
    if mine.initiative_spell != theirs.initiative_spell:
        return mine.initiative_spell
    if mine.attack != theirs.attack:
        return mine.attack > theirs.attack
    return engaging


def fight(
    rng: random.Random, fighters: tuple[Numbers, Numbers], first: int
) -> tuple[int | None, tuple[tuple[int, int], ...]]:
    """Up to 20 turns; in each, the unit with the initiative strikes, then the other strikes back.

    A strike: the striker's Attack roll minus the target's Defense roll, less the target's armor; a
    positive result is taken from the target's HP. A unit at 0 HP loses at once. After each turn both
    units' regeneration (or poison) acts. After 20 turns the higher HP wins; equal HP is a drawn fight
    (winner None). Returns the winner and the HP of both after each turn.
    """
    att = (fighters[0].attack, fighters[1].attack)
    dfn = (fighters[0].defense, fighters[1].defense)
    armor = (fighters[0].armor, fighters[1].armor)
    regen = (fighters[0].regen, fighters[1].regen)
    start = (fighters[0].hp, fighters[1].hp)
    # Dice: n two-sided dice (1 or 2 each) roll n plus the set bits of n random bits, from n to 2n with
    # the binomial odds. One draw of a + d bits per strike: the low a bits are the Attack dice, the rest
    # the Defense dice.
    strikes = [
        (
            striker,
            att[striker],
            (1 << att[striker]) - 1,
            att[striker] + dfn[1 - striker],
            att[striker] - dfn[1 - striker] - armor[1 - striker],
        )
        for striker in (first, 1 - first)
    ]
    hp = [start[0], start[1]]
    bits = rng.getrandbits
    trace: list[tuple[int, int]] = []
    for _ in range(TURNS):
        for striker, a, mask, dice, base in strikes:
            if dice <= 0:
                continue
            drawn = bits(dice)
            wound = base + (drawn & mask).bit_count() - (drawn >> a).bit_count()
            if wound > 0:
                target = 1 - striker
                hp[target] -= wound
                if hp[target] <= 0:
                    hp[target] = 0
                    trace.append((hp[0], hp[1]))
                    return striker, tuple(trace)
        if regen[0] or regen[1]:
            for seat in (0, 1):
                if regen[seat] > 0:
                    hp[seat] = min(start[seat], hp[seat] + regen[seat])
                elif regen[seat] < 0:
                    hp[seat] = max(1, hp[seat] + regen[seat])
        trace.append((hp[0], hp[1]))
    if hp[0] == hp[1]:
        return None, tuple(trace)
    return (0 if hp[0] > hp[1] else 1), tuple(trace)


EngageRule = Literal["attack", "defense", "lots"]


def engage_rule(units: tuple[Sequence[Unit], Sequence[Unit]]) -> tuple[EngageRule, tuple[int, int]]:
    """What decides who engages: the drawn units' total Attack, else (equal) their total Defense, else
    (equal too) a draw of lots; and the two total Defenses."""
    attack = (sum(u.attack for u in units[0]), sum(u.attack for u in units[1]))
    defense = (sum(u.defense for u in units[0]), sum(u.defense for u in units[1]))
    if attack[0] != attack[1]:
        return "attack", defense
    return ("defense" if defense[0] != defense[1] else "lots"), defense


def engage_order(
    units: tuple[Sequence[Unit], Sequence[Unit]], rng: random.Random
) -> tuple[int, tuple[int, int]]:
    """Who engages: the higher total drawn Attack; then the higher total Defense; then a draw of lots."""
    totals = (sum(u.attack for u in units[0]), sum(u.attack for u in units[1]))
    rule, defense = engage_rule(units)
    if rule == "attack":
        return (0 if totals[0] > totals[1] else 1), totals
    if rule == "defense":
        return (0 if defense[0] > defense[1] else 1), totals
    return rng.randrange(2), totals
