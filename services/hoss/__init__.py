"""HOSS TCG on the platform: its gold, its catalog, and how /card shows its cards.

The battle rules are in `engine/hoss/`; boosters, decks and battles against players come with the
Discord issue of HOSS.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.i18n import format_decimal, format_int, format_percent
from core.settings import SUPPORTED_LOCALES
from engine.hoss import ENGINE, BuffCard, CreatureCard, HossCatalog, sale_price
from services.hoss.arena.seasons import ArenaService
from services.hoss.battle.ranked import RankedService
from services.hoss.card_image import CARD_ART
from services.hoss.collection import HossCollection
from services.hoss.deck_holds import decks_holding
from services.hoss.decks import DeckService
from services.hoss.drops import DROPS
from services.hoss.fusion import FusionService
from services.hoss.gold import CURRENCY
from services.hoss.guide import GUIDE
from services.hoss.keys import BUFF_KEYS as BUFF_KEYS
from services.hoss.keys import CLASS_KEYS as CLASS_KEYS
from services.hoss.keys import ELEMENT_KEYS as ELEMENT_KEYS
from services.hoss.keys import RACE_KEYS as RACE_KEYS
from services.hoss.keys import RANK_KEYS as RANK_KEYS
from services.hoss.keys import STATUS_KEYS as STATUS_KEYS
from services.hoss.lab import LAB
from services.hoss.raffle import RaffleService
from services.hoss.recap import RECAP_SECTIONS
from services.hoss.reset import reset
from services.hoss.sale import HossSale
from services.hoss.sealed import anonymise
from services.hoss.shop import HossShop
from services.hoss.showoff import show_off
from services.hoss.standings import STANDINGS, HossStandings, profile_summary
from services.hoss.timers import timers
from services.infra.games import GameContext, GameSpec, Trading
from services.infra.messages import Text
from services.infra.timers import DailyReward, streak_table

# A Rang 1 booster costs 100 and a Rang 1 win pays 45: the daily is half a booster, +10 % a day for a week.
DAILY_GOLD = 50


def _decimal(value: float) -> Text:
    return Text.per_locale({lang: format_decimal(value, lang) for lang in SUPPORTED_LOCALES})


def _percent(value: float) -> Text:
    return Text.per_locale({lang: format_percent(value, lang, 0) for lang in SUPPORTED_LOCALES})


def card_fields(card: Any, _catalog: Any, locale: str) -> list[tuple[Text, Text]]:
    """The catalog values of a card (a Basique 0★ copy); /hoss collection shows a copy's effective stats."""
    if isinstance(card, BuffCard):
        return [(Text("hoss.label.buff"), Text(BUFF_KEYS[card.effect], {"power": round(card.power * 100)}))]
    assert isinstance(card, CreatureCard)
    fields = [
        (Text("hoss.label.race"), Text(RACE_KEYS[card.race])),
        (Text("hoss.label.class"), Text(CLASS_KEYS[card.cls])),
        (Text("hoss.label.rank"), Text(RANK_KEYS[card.rank])),
        (Text("hoss.label.pv"), Text.raw(format_int(card.pv, locale))),
    ]
    if card.cls == "defenseur":
        fields += [
            (Text("hoss.label.block"), _percent(card.block)),
            (Text("hoss.label.reduction"), _percent(card.damage_reduction)),
        ]
    else:
        fields += [
            (Text("hoss.label.atk"), Text.raw(str(card.atk))),
            (Text("hoss.label.interval"), Text("hoss.seconds", {"value": _decimal(card.interval)})),
            (
                Text("hoss.label.crit"),
                Text(
                    "hoss.crit_value",
                    {
                        "chance": round(card.crit_chance * 100),
                        "damage": round((1.5 + card.crit_damage) * 100),
                    },
                ),
            ),
        ]
    if card.dodge_bonus:
        fields.append((Text("hoss.label.dodge"), _percent(card.dodge_bonus)))
    if card.elements:
        fields.append(
            (Text("hoss.label.elements"), Text.lines([Text(ELEMENT_KEYS[e]) for e in card.elements]))
        )
    if card.statuses:
        lines = [
            Text("hoss.status_chance", {"status": Text(STATUS_KEYS[s]), "chance": round(c * 100)})
            for s, c in sorted(card.statuses.items())
        ]
        fields.append((Text("hoss.label.statuses"), Text.lines(lines)))
    return fields


@dataclass(frozen=True)
class HossServices:
    """Every HOSS use case, built once by the container (see `GameSpec.build`)."""

    shop: HossShop
    sale: HossSale
    collection: HossCollection
    fusion: FusionService
    decks: DeckService
    ranked: RankedService
    raffle: RaffleService
    arena: ArenaService
    standings: HossStandings

    @staticmethod
    def build(ctx: GameContext) -> HossServices:
        catalog: HossCatalog = ctx.catalog
        decks = DeckService(ctx.db, ctx.clock, catalog, registry=ctx.registry)
        return HossServices(
            shop=HossShop(ctx.db, ctx.clock, catalog, ctx.rng, decks.starter_in, registry=ctx.registry),
            sale=HossSale(ctx.db, ctx.clock, catalog),
            collection=HossCollection(ctx.db, catalog),
            fusion=FusionService(ctx.db, ctx.clock, catalog, ctx.rng),
            decks=decks,
            ranked=RankedService(
                ctx.db, ctx.clock, catalog, ctx.rng, ctx.scheduler, decks, registry=ctx.registry
            ),
            raffle=RaffleService(ctx.db, ctx.clock, ctx.rng, ctx.scheduler, registry=ctx.registry),
            arena=ArenaService(ctx.db, ctx.clock, ctx.rng, ctx.scheduler, decks, registry=ctx.registry),
            standings=HossStandings(ctx.db),
        )


def trade_value(catalog: HossCatalog | None, card_key: str, attrs: dict[str, Any]) -> int:
    """A copy's worth in trades is its sale price (rarity, rank, holo), so trading a copy away is measured
    like selling it; a card that left the catalog is priced as a Rang 1."""
    card = next((c for c in catalog.cards if c.id == card_key), None) if catalog is not None else None
    rank = card.rank if isinstance(card, CreatureCard) else None
    return sale_price(attrs.get("rarity", "basique"), rank, bool(attrs.get("holo", False)))


# One holo copy (50,000 gold and more) a day: a day's worth of play moves, an alt farm's harvest does not.
HOSS_TRADE_CAP = 100_000

GAME = GameSpec(
    key="hoss",
    name_key="hoss.name",
    command_group="hoss",
    currencies=(CURRENCY,),
    catalog_model=HossCatalog,
    card_fields=card_fields,
    profile_summary=profile_summary,
    engine=ENGINE,
    build=HossServices.build,
    card_art=CARD_ART,
    show_off=show_off,
    daily=DailyReward(CURRENCY.code, streak_table(DAILY_GOLD)),
    timers=timers,
    reset=reset,
    decks_holding=decks_holding,
    trading=Trading(card_value=trade_value, daily_cap=HOSS_TRADE_CAP),
    guide=GUIDE,
    drops=DROPS,
    standings=STANDINGS,
    recap_sections=RECAP_SECTIONS,
    lab=LAB,
    anonymise=anonymise,
)
