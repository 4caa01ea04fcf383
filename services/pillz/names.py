"""How Pillz characters are named on the platform: their stars, clans and abilities, and how /card shows
one.

Apart from the game's facade (`services/pillz/__init__.py`) so the duel's rendering imports these names
without importing the facade that builds the services.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import LocalizedText
from engine.pillz import PillzCard
from services.platform.messages import Text

ABILITY_KEYS: Mapping[str, str] = {
    "power_bonus": "pillz.ability.power_bonus",
    "damage_bonus": "pillz.ability.damage_bonus",
    "heal_on_win": "pillz.ability.heal_on_win",
    "pillz_on_loss": "pillz.ability.pillz_on_loss",
    "drain_pillz": "pillz.ability.drain_pillz",
    "reduce_damage": "pillz.ability.reduce_damage",
    "cancel_ability": "pillz.ability.cancel_ability",
    "counter_attack": "pillz.ability.counter_attack",
    "clan_power": "pillz.ability.clan_power",
    "war_chest": "pillz.ability.war_chest",
    "blessing": "pillz.ability.blessing",
}
# Clan names of the loaded catalog (set by `PillzServices.build`): /card receives only the card.
CLAN_NAMES: dict[str, LocalizedText] = {}


def stars_text(stars: int) -> str:
    return "★" * stars


def clan_name(clan_id: str, locale: str | None) -> str:
    name = CLAN_NAMES.get(clan_id)
    return clan_id if name is None else name.get(locale)


def ability_text(card: PillzCard, locale: str | None) -> Text | None:
    """The ability's name (from the catalog) and what it does (a message key with its value)."""
    if card.ability is None:
        return None
    ability = card.ability
    return Text(
        "pillz.card.ability",
        {
            "name": ability.name.get(locale),
            "text": Text(ABILITY_KEYS[ability.kind], {"value": ability.value}),
        },
    )


def card_fields(card: Any, locale: str) -> list[tuple[Text, Text]]:
    assert isinstance(card, PillzCard)
    fields = [
        (Text("pillz.label.stars"), Text.raw(stars_text(card.stars))),
        (Text("pillz.label.clan"), Text.raw(clan_name(card.clan, locale))),
        (Text("pillz.label.power"), Text.raw(str(card.power))),
        (Text("pillz.label.damage"), Text.raw(str(card.damage))),
    ]
    if card.leader:
        fields.append((Text("pillz.label.leader"), Text("pillz.card.leader")))
    ability = ability_text(card, locale)
    if ability is not None:
        fields.append((Text("pillz.label.ability"), ability))
    return fields
