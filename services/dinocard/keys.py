"""The message keys of Dinocard's vocabulary, one literal each (the i18n test reads literals): elements,
types, rarities, capacities, outcomes and the battle's events. Apart so the renderers and the cogs share
one table."""

from __future__ import annotations

from collections.abc import Mapping

ELEMENT_KEYS: Mapping[str, str] = {
    "feu": "dinocard.element.feu",
    "bois": "dinocard.element.bois",
    "eau": "dinocard.element.eau",
    "foudre": "dinocard.element.foudre",
    "ciel": "dinocard.element.ciel",
}
TYPE_KEYS: Mapping[str, str] = {
    "dinoz": "dinocard.type.dinoz",
    "enchantement": "dinocard.type.enchantement",
    "incantation": "dinocard.type.incantation",
    "objet": "dinocard.type.objet",
}
RARITY_KEYS: Mapping[str, str] = {
    "commune": "dinocard.rarity.commune",
    "inhabituelle": "dinocard.rarity.inhabituelle",
    "rare": "dinocard.rarity.rare",
}
OUTCOME_KEYS: Mapping[str, str] = {
    "ko": "dinocard.outcome.ko",
    "double_ko": "dinocard.outcome.double_ko",
    "life": "dinocard.outcome.life",
    "tie": "dinocard.outcome.tie",
}
ABILITY_LITERALS = (
    "dinocard.ability.first_strike",
    "dinocard.ability.flying",
    "dinocard.ability.ranged",
    "dinocard.ability.trample",
    "dinocard.ability.lifelink",
    "dinocard.ability.poison",
    "dinocard.ability.armor",
    "dinocard.ability.regeneration",
    "dinocard.ability.growth",
    "dinocard.ability.arc",
    "dinocard.ability.hatch_damage",
    "dinocard.ability.hatch_heal",
    "dinocard.ability.damage_dinoz",
    "dinocard.ability.damage_player",
    "dinocard.ability.heal_player",
    "dinocard.ability.heal_dinoz",
    "dinocard.ability.draw",
    "dinocard.ability.energy",
    "dinocard.ability.destroy_object",
    "dinocard.ability.force",
    "dinocard.ability.endurance",
    "dinocard.ability.weaken",
    "dinocard.ability.venom",
    "dinocard.ability.aura_force",
    "dinocard.ability.aura_endurance",
    "dinocard.ability.start_heal",
    "dinocard.ability.start_damage",
    "dinocard.ability.incubator",
)
ABILITY_KEYS: Mapping[str, str] = {key.rsplit(".", 1)[1]: key for key in ABILITY_LITERALS}
EVENT_KEYS: Mapping[str, str] = {
    "turn": "dinocard.event.turn",
    "combat": "dinocard.event.combat",
    "markers": "dinocard.event.markers",
    "poison_wound": "dinocard.event.poison_wound",
    "growth": "dinocard.event.growth",
    "heal_player": "dinocard.event.heal_player",
    "hit_player": "dinocard.event.hit_player",
    "energy_unpaid": "dinocard.event.energy_unpaid",
    "energy_no_target": "dinocard.event.energy_no_target",
    "energy_fed": "dinocard.event.energy_fed",
    "egg": "dinocard.event.egg",
    "graveyard_rail_full": "dinocard.event.graveyard_rail_full",
    "graveyard_resolved": "dinocard.event.graveyard_resolved",
    "cast": "dinocard.event.cast",
    "object": "dinocard.event.object",
    "enchant": "dinocard.event.enchant",
    "enchant_own": "dinocard.event.enchant_own",
    "arc": "dinocard.event.arc",
    "hit_dinoz": "dinocard.event.hit_dinoz",
    "heal_dinoz": "dinocard.event.heal_dinoz",
    "object_destroyed": "dinocard.event.object_destroyed",
    "died": "dinocard.event.died",
    "shift": "dinocard.event.shift",
    "hatch": "dinocard.event.hatch",
    "regenerate": "dinocard.event.regenerate",
    "attack": "dinocard.event.attack",
    "attack_player": "dinocard.event.attack_player",
    "poisoned": "dinocard.event.poisoned",
    "countdown": "dinocard.event.countdown",
    "round": "dinocard.event.round",
    "ended": "dinocard.event.ended",
    "ended_draw": "dinocard.event.ended_draw",
}
BONUS_PROBLEM_KEYS: Mapping[str, str] = {
    "unknown_card": "dinocard.bonus.problem.unknown_card",
    "too_many_bonus": "dinocard.bonus.problem.too_many_bonus",
    "too_many_copies": "dinocard.bonus.problem.too_many_copies",
}
SKILL_KEYS: Mapping[str, str] = {
    "daily": "choice.dinocard_skill.daily",
    "life": "choice.dinocard_skill.life",
    "strategy": "choice.dinocard_skill.strategy",
    "bonus": "choice.dinocard_skill.bonus",
    "perception": "choice.dinocard_skill.perception",
}
COUNT_KEYS: Mapping[str, str] = {
    "elements": "dinocard.prepare.count_element",
    "types": "dinocard.prepare.count_type",
    "rarities": "dinocard.prepare.count_rarity",
}
