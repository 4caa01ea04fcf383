"""How Pillz characters are named on the platform: their stars, clans and abilities, and how /card shows
one.

Apart from the game's facade (`services/pillz/__init__.py`) so the duel's rendering imports these names
without importing the facade that builds the services.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.pillz import PillzCard, PillzCatalog
from services.infra.messages import Text

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


def stars_text(stars: int) -> str:
    return "★" * stars


def clan_name(catalog: PillzCatalog, clan_id: str, locale: str | None) -> str:
    """A card names its clan by id; the name is read from the catalog the card comes from, never from
    state shared by the process (two containers may hold two catalogs)."""
    name = next((clan.name for clan in catalog.clans if clan.id == clan_id), None)
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


def card_fields(card: Any, catalog: Any, locale: str) -> list[tuple[Text, Text]]:
    assert isinstance(card, PillzCard)
    assert isinstance(catalog, PillzCatalog)
    fields = [
        (Text("pillz.label.stars"), Text.raw(stars_text(card.stars))),
        (Text("pillz.label.clan"), Text.raw(clan_name(catalog, card.clan, locale))),
        (Text("pillz.label.power"), Text.raw(str(card.power))),
        (Text("pillz.label.damage"), Text.raw(str(card.damage))),
    ]
    if card.leader:
        fields.append((Text("pillz.label.leader"), Text("pillz.card.leader")))
    ability = ability_text(card, locale)
    if ability is not None:
        fields.append((Text("pillz.label.ability"), ability))
    return fields
