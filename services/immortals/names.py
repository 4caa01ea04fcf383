"""How Immortal's War units, families, terrains and spells are named on the platform, and how /card
shows a unit. Below the game's facade, so every module of the game names things the same way.

A name from the catalog is given in both languages (`immortals.name`, the renderer picks the reader's),
never chosen here: services do not know who reads. A unit named where players of two languages meet (a
duel) carries its name in theirs beside it where it differs (`others`, services/community/card_names.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.cards import LocalizedText
from engine.immortals import MAX_LEVEL, Effect, ImmortalsCard, ImmortalsCatalog, ImmortalsSpell
from services.community.card_names import beside
from services.infra.messages import Text
from services.shared.collecting import Problem

TERRAIN_KEYS = {
    "foret": "immortals.terrain.foret",
    "desert": "immortals.terrain.desert",
    "plaine": "immortals.terrain.plaine",
    "marais": "immortals.terrain.marais",
}
# The rulebook's « icone » of each terrain, on a unit (its favourite) and on the duel (where it is fought).
TERRAIN_ICONS = {"foret": "🌲", "desert": "🏜️", "plaine": "🌾", "marais": "🐸"}
TIER_KEYS = {1: "immortals.tier.1", 2: "immortals.tier.2", 3: "immortals.tier.3"}
# (stat, target) -> message key; an effect on the foe says so
EFFECT_KEYS = {
    ("attack", "self"): "immortals.effect.attack",
    ("attack", "foe"): "immortals.effect.attack_foe",
    ("defense", "self"): "immortals.effect.defense",
    ("defense", "foe"): "immortals.effect.defense_foe",
    ("damage", "self"): "immortals.effect.damage",
    ("damage", "foe"): "immortals.effect.damage_foe",
    ("hp", "self"): "immortals.effect.hp",
    ("hp", "foe"): "immortals.effect.hp_foe",
    ("armor", "self"): "immortals.effect.armor",
    ("armor", "foe"): "immortals.effect.armor_foe",
    ("regen", "self"): "immortals.effect.regen",
    ("regen", "foe"): "immortals.effect.regen_foe",
    ("initiative", "self"): "immortals.effect.initiative",
    ("vitality", "self"): "immortals.effect.vitality",
}
LIST_KEYS = ("immortals.list.1", "immortals.list.2", "immortals.list.3")


def localized(name: LocalizedText) -> Text:
    return Text("immortals.name", {"fr": name.fr, "en": name.en})


def unit_name(catalog: ImmortalsCatalog, card_id: str, others: Iterable[str] = ()) -> Text:
    card = catalog.card(card_id)
    return Text.raw(card_id) if card is None else beside(card.name, others) or localized(card.name)


def spell_name(catalog: ImmortalsCatalog, spell_id: str) -> Text:
    spell = catalog.spell(spell_id)
    return Text.raw(spell_id) if spell is None else localized(spell.name)


def family_name(catalog: ImmortalsCatalog, family_id: str) -> Text:
    family = catalog.family(family_id)
    return Text.raw(family_id) if family is None else localized(family.name)


def terrain_name(terrain: str) -> Text:
    return Text(TERRAIN_KEYS.get(terrain, "immortals.terrain.unknown"))


def terrain_icon(terrain: str) -> str:
    return TERRAIN_ICONS.get(terrain, "❔")


def terrain_badge(terrain: str) -> Text:
    """A terrain with its icon: « 🌲 Forêt »."""
    return Text("immortals.terrain.badge", {"icon": terrain_icon(terrain), "terrain": terrain_name(terrain)})


def effect_text(stat: str, value: int, target: str = "self") -> Text:
    """« +3 ATQ », « −3 ATQ adverse »: one effect of a spell or a bonus."""
    signed = f"+{value}" if value > 0 else f"−{-value}"
    return Text(EFFECT_KEYS[(stat, target)], {"value": signed})


def effects_text(effects: tuple[Effect, ...]) -> Text:
    """A spell's one to three effects, separated by commas."""
    parts = [effect_text(e.stat, e.value, e.target) for e in effects]
    return Text(LIST_KEYS[len(parts) - 1], dict(zip("abc", parts, strict=False)))


def spell_text(catalog: ImmortalsCatalog, spell: ImmortalsSpell) -> Text:
    """A spell's name, its effects, and its condition if it has one."""
    params: dict[str, object] = {"name": localized(spell.name), "effects": effects_text(spell.effects)}
    if spell.terrain is not None:
        return Text("immortals.spell.line_terrain", params | {"terrain": terrain_name(spell.terrain)})
    if spell.family is not None:
        return Text("immortals.spell.line_family", params | {"family": family_name(catalog, spell.family)})
    return Text("immortals.spell.line", params)


def unit_line(catalog: ImmortalsCatalog, card: ImmortalsCard, level: int) -> Text:
    """A unit at a level: name, level, family, terrain, Attack and Defense dice."""
    return Text(
        "immortals.unit.line",
        {
            "name": localized(card.name),
            "level": level,
            "family": family_name(catalog, card.family),
            "terrain": terrain_badge(card.terrain),
            "attack": card.attack[level - 1],
            "defense": card.defense[level - 1],
        },
    )


def card_fields(card: Any, catalog: Any, locale: str) -> list[tuple[Text, Text]]:
    """/card: family (and its bonus), terrain, tier, Attack/Defense at each level, its own bonuses."""
    assert isinstance(card, ImmortalsCard)
    assert isinstance(catalog, ImmortalsCatalog)
    family = catalog.family(card.family)
    family_value = family_name(catalog, card.family)
    if family is not None:
        bonus = effect_text(family.bonus.stat, family.bonus.value)
        family_value = Text("immortals.card.family", {"family": family_value, "bonus": bonus})
    levels = Text.lines(
        [
            Text(
                "immortals.card.level",
                {"level": n, "attack": card.attack[n - 1], "defense": card.defense[n - 1]},
            )
            for n in range(1, MAX_LEVEL + 1)
        ]
    )
    bonuses = Text.lines(
        [
            Text("immortals.card.bonus", {"level": b.level, "effect": effect_text(b.stat, b.value)})
            for b in card.bonuses
        ]
    )
    return [
        (Text("immortals.label.family"), family_value),
        (Text("immortals.label.terrain"), terrain_badge(card.terrain)),
        (Text("immortals.label.tier"), Text(TIER_KEYS[card.tier])),
        (Text("immortals.label.levels"), levels),
        (Text("immortals.label.bonuses"), bonuses),
    ]


def problem_text(catalog: ImmortalsCatalog, problem: Problem) -> Text:
    """A deck problem with its unit named in both languages (the reader's is picked when shown)."""
    params = dict(problem.params)
    if "card" in params:
        params["card"] = unit_name(catalog, str(params["card"]))
    return Text(problem.key, params)
