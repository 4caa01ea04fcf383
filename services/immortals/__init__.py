"""Immortal's War on the platform: its currencies (gold, soul fragments), its catalog, how /card shows
a unit, and its services (collection and deck, spells and recruits, duels, ranking).

The rules are in engine/immortals/; the profile, sign-up gift and copies in economy.py, below this
facade with the names (names.py), so every module of the game imports them without importing the facade
that builds the services. Decisions: docs/immortals/economy.md and docs/immortals/commands.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.immortals import ENGINE as IMMORTALS_ENGINE
from engine.immortals import ImmortalsCatalog
from services.immortals.card_image import CARD_ART
from services.immortals.decks import ImmortalsDecks, collection_entry, decks_holding, repair_decks
from services.immortals.drops import DROPS
from services.immortals.duels import ImmortalsDuels
from services.immortals.economy import CURRENCIES, GOLD
from services.immortals.guide import GUIDE
from services.immortals.lab import LAB
from services.immortals.ladder import STANDINGS, ImmortalsLadder, profile_summary
from services.immortals.names import card_fields
from services.immortals.reset import reset
from services.immortals.showoff import show_off
from services.immortals.spells import ImmortalsSpells
from services.immortals.timers import timers
from services.infra.games import GameContext, GameSpec
from services.infra.timers import DailyReward, streak_table
from services.shared.duel_tournaments import DUEL_TOURNAMENTS

# A recruit costs 150 gold and a won duel pays 30 (+5 a round won): the daily is a win's base,
# +10 % a day for a week (docs/daily.md).
DAILY_GOLD = 30


@dataclass(frozen=True)
class ImmortalsServices:
    """Every Immortal's War use case, built once by the container (see `GameSpec.build`)."""

    decks: ImmortalsDecks
    spells: ImmortalsSpells
    ladder: ImmortalsLadder
    duels: ImmortalsDuels

    @staticmethod
    def build(ctx: GameContext) -> ImmortalsServices:
        catalog: ImmortalsCatalog = ctx.catalog
        return ImmortalsServices(
            decks=ImmortalsDecks(ctx.db, ctx.clock, catalog, ctx.rng, registry=ctx.registry),
            spells=ImmortalsSpells(ctx.db, ctx.clock, catalog, ctx.rng, registry=ctx.registry),
            ladder=ImmortalsLadder(ctx.db, ctx.clock, catalog, ctx.rng, registry=ctx.registry),
            duels=ImmortalsDuels(
                ctx.db, ctx.clock, catalog, ctx.rng, ctx.scheduler, ctx.default_locale, registry=ctx.registry
            ),
        )


GAME = GameSpec(
    key="immortals",
    name_key="immortals.name_game",
    command_group="immortals",
    currencies=CURRENCIES,
    catalog_model=ImmortalsCatalog,
    card_fields=card_fields,
    card_art=CARD_ART,
    collection_entry=collection_entry,
    show_off=show_off,
    profile_summary=profile_summary,
    engine=IMMORTALS_ENGINE,
    build=ImmortalsServices.build,
    daily=DailyReward(GOLD, streak_table(DAILY_GOLD)),
    timers=timers,
    reset=reset,
    decks_holding=decks_holding,
    repair_decks=repair_decks,
    # the opponent of a finished duel (0 for the AI) names a player without a foreign key
    guide=GUIDE,
    drops=DROPS,
    standings=STANDINGS,
    tournament=DUEL_TOURNAMENTS,
    lab=LAB,
)
