"""The Pillz duel on the platform: its coins, its catalog, how /card shows a character, its services.

The rules are in engine/pillz/; the economy (packs, collection, decks, ladder) in services/pillz/economy.py
and its neighbours. The names of characters (`names.py`) and the economy's base (`economy.py`) live in
their own modules, below this facade, so every module of the game imports them without importing the
facade that builds the services. Decisions: docs/pillz/economy.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.pillz import ENGINE as PILLZ_ENGINE
from engine.pillz import PackPool, PillzCatalog
from services.infra.games import GameContext, GameSpec
from services.infra.timers import DailyReward, streak_table
from services.pillz.card_image import CARD_ART
from services.pillz.collection import PillzCollection
from services.pillz.decks import PillzDecks, decks_holding
from services.pillz.drops import DROPS
from services.pillz.duels import PillzDuels
from services.pillz.economy import CURRENCY, PILLZ_GOLD
from services.pillz.guide import GUIDE
from services.pillz.lab import LAB
from services.pillz.ladder import STANDINGS, PillzLadder, profile_summary
from services.pillz.names import card_fields
from services.pillz.reset import anonymise, reset
from services.pillz.shop import PillzShop
from services.pillz.showoff import show_off
from services.pillz.timers import timers
from services.shared.collection import counted_entry
from services.shared.duel_tournaments import DUEL_TOURNAMENTS

# A friend win pays 40 coins, a pack costs 100: the daily is a win's worth, +10 % a day for a week (docs/daily.md).
DAILY_COINS = 40


@dataclass(frozen=True)
class PillzEconomy:
    """Getting characters, building decks and the ladder: built once by the container via the game."""

    shop: PillzShop
    collection: PillzCollection
    decks: PillzDecks
    ladder: PillzLadder

    @staticmethod
    def build(ctx: GameContext) -> PillzEconomy:
        pool = PackPool.of(ctx.catalog)
        return PillzEconomy(
            shop=PillzShop(ctx.db, ctx.clock, ctx.catalog, ctx.rng, pool, registry=ctx.registry),
            collection=PillzCollection(ctx.db, ctx.clock, ctx.catalog, ctx.rng, pool, registry=ctx.registry),
            decks=PillzDecks(ctx.db, ctx.clock, ctx.catalog, ctx.rng, pool, registry=ctx.registry),
            ladder=PillzLadder(ctx.db, ctx.clock, ctx.catalog, ctx.rng, pool, registry=ctx.registry),
        )


@dataclass(frozen=True)
class PillzServices:
    """Every Pillz use case, built once by the container (see `GameSpec.build`)."""

    economy: PillzEconomy
    duels: PillzDuels

    @staticmethod
    def build(ctx: GameContext) -> PillzServices:
        catalog: PillzCatalog = ctx.catalog
        return PillzServices(
            economy=PillzEconomy.build(ctx),
            duels=PillzDuels(
                ctx.db, ctx.clock, catalog, ctx.rng, ctx.scheduler, ctx.default_locale, registry=ctx.registry
            ),
        )


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
    card_art=CARD_ART,
    collection_entry=counted_entry("pillz"),
    show_off=show_off,
    daily=DailyReward(PILLZ_GOLD, streak_table(DAILY_COINS)),
    timers=timers,
    reset=reset,
    anonymise=anonymise,
    decks_holding=decks_holding,
    guide=GUIDE,
    drops=DROPS,
    standings=STANDINGS,
    tournament=DUEL_TOURNAMENTS,
    lab=LAB,
)
