"""The Pillz duel on the platform: its coins, its catalog, how /card shows a character, its services.

The rules are in engine/pillz/; the economy (packs, collection, decks, ladder) in services/pillz/economy.py
and its neighbours. Decisions: docs/pillz/economy.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.cards import LocalizedText
from engine.pillz import ENGINE as PILLZ_ENGINE
from engine.pillz.catalog import PillzCard, PillzCatalog
from services.pillz.economy import CURRENCY, PillzEconomy
from services.pillz.ladder import profile_summary
from services.platform.games import GameContext, GameSpec
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


@dataclass(frozen=True)
class PillzServices:
    """Every Pillz use case, built once by the container (see `GameSpec.build`)."""

    economy: PillzEconomy
    duels: PillzDuels

    @staticmethod
    def build(ctx: GameContext) -> PillzServices:
        from services.pillz.duels import PillzDuels

        catalog: PillzCatalog = ctx.catalog
        CLAN_NAMES.update({clan.id: clan.name for clan in catalog.clans})
        return PillzServices(
            economy=PillzEconomy.build(ctx),
            duels=PillzDuels(ctx.db, ctx.clock, catalog, ctx.rng, ctx.scheduler),
        )


if TYPE_CHECKING:
    from services.pillz.duels import PillzDuels

GAME = GameSpec(
    key="pillz",
    name_key="pillz.name",
    command_group="pillz",
    currencies=(CURRENCY,),
    catalog_model=PillzCatalog,
    card_fields=card_fields,
    profile_summary=profile_summary,
    engine=PILLZ_ENGINE,
    build=PillzServices.build,
)
