"""Chocobataille on the platform: its galleons, its catalog, how /card shows its cards, and its services.

The rules are in engine/choco/; the economy (frogs, collection, decks, leagues) in services/choco/economy.py
and its neighbours; the refereed games in services/choco/games.py, panel.py and referee.py. The names of
cards (`names.py`) and the economy's tables (`economy.py`) live in their own modules, below this facade,
so every module of the game imports them without importing the facade that builds the services.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.choco import ENGINE as CHOCO_ENGINE
from engine.choco import ChocoCatalog
from services.choco.card_image import CARD_ART
from services.choco.clock import ChocoClock
from services.choco.collection import ChocoCollection
from services.choco.decks import ChocoDecks, decks_holding
from services.choco.drops import DROPS
from services.choco.economy import CHOCO_GOLD, CURRENCY
from services.choco.games import ChocoGames
from services.choco.guide import GUIDE
from services.choco.leagues import LeagueService, profile_summary
from services.choco.names import card_fields
from services.choco.panel import ChocoPanel
from services.choco.practice import ChocoPractice
from services.choco.referee import ChocoReferee
from services.choco.reset import reset
from services.choco.shop import ChocoShop
from services.choco.showoff import show_off
from services.choco.standings import STANDINGS
from services.choco.timers import timers
from services.infra.games import GameContext, GameSpec
from services.infra.timers import DailyReward
from services.shared.collection import counted_entry

# The allowance it always had: 50 galleons a day, no streak bonus (docs/choco/economy.md, docs/daily.md).
DAILY_ALLOWANCE = 50


@dataclass(frozen=True)
class EconomyServices:
    """Getting cards and leagues: built once by the container through the game's `build`."""

    shop: ChocoShop
    collection: ChocoCollection
    decks: ChocoDecks
    leagues: LeagueService

    @staticmethod
    def build(ctx: GameContext) -> EconomyServices:
        return EconomyServices(
            shop=ChocoShop(ctx.db, ctx.clock, ctx.catalog, ctx.rng, registry=ctx.registry),
            collection=ChocoCollection(ctx.db, ctx.catalog),
            decks=ChocoDecks(ctx.db, ctx.clock, ctx.catalog, registry=ctx.registry),
            leagues=LeagueService(ctx.db, ctx.clock, ctx.catalog, registry=ctx.registry),
        )


@dataclass(frozen=True)
class ChocoServices:
    """Every Chocobataille use case, built once by the container (see `GameSpec.build`)."""

    economy: EconomyServices
    games: ChocoGames
    clock: ChocoClock
    panel: ChocoPanel
    referee: ChocoReferee
    practice: ChocoPractice

    async def on_startup(self, last_seen: datetime | None) -> None:
        """Called by the bot before the scheduler starts (see discord_app/bot.py)."""
        await self.clock.on_startup(last_seen)

    @staticmethod
    def build(ctx: GameContext) -> ChocoServices:
        catalog: ChocoCatalog = ctx.catalog
        games = ChocoGames(ctx.db, ctx.clock, catalog, ctx.rng, ctx.scheduler, registry=ctx.registry)
        return ChocoServices(
            economy=EconomyServices.build(ctx),
            games=games,
            clock=ChocoClock(ctx.db, ctx.clock, catalog, ctx.rng, ctx.scheduler),
            panel=ChocoPanel(ctx.db, ctx.clock, catalog, games),
            referee=ChocoReferee(ctx.db, ctx.clock, catalog, ctx.rng),
            practice=ChocoPractice(ctx.db, ctx.clock, catalog, ctx.rng, registry=ctx.registry),
        )


GAME = GameSpec(
    key="choco",
    name_key="choco.name",
    command_group="choco",
    catalog_model=ChocoCatalog,
    card_fields=card_fields,
    currencies=(CURRENCY,),
    profile_summary=profile_summary,
    engine=CHOCO_ENGINE,
    build=ChocoServices.build,
    card_art=CARD_ART,
    collection_entry=counted_entry("choco"),
    show_off=show_off,
    daily=DailyReward(CHOCO_GOLD, (DAILY_ALLOWANCE,)),
    timers=timers,
    reset=reset,
    decks_holding=decks_holding,
    guide=GUIDE,
    drops=DROPS,
    standings=STANDINGS,
)
