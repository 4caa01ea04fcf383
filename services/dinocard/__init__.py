"""Dinocard on the platform: its coins, its catalog, how /card shows a card, its services.

The rules are in engine/dinocard/ (docs/dinocard/rules-notes.md); above them: the economy base
(`economy.py`: coins, profile, starter collection), the shop (`shop.py`), the collection, packs
(`packs.py`: copies locked to a pack, levels, skills, daily challenges) and battles (`battles.py`:
challenges and the dojo on the shared matches block). Decisions: docs/dinocard/.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dinocard import ENGINE as DINOCARD_ENGINE
from engine.dinocard import DinocardCatalog
from services.dinocard.battles import DinocardBattles
from services.dinocard.card_image import CARD_ART
from services.dinocard.collection import DinocardCollection
from services.dinocard.drops import DROPS
from services.dinocard.economy import CURRENCY, DEFAULT_ZONE
from services.dinocard.guide import GUIDE
from services.dinocard.lab import LAB
from services.dinocard.names import card_fields
from services.dinocard.packs import DinocardPacks, anonymise
from services.dinocard.shop import DinocardShop
from services.dinocard.showoff import show_off
from services.dinocard.standings import STANDINGS
from services.dinocard.timers import timers
from services.dinocard.tournament import DinocardTournament
from services.infra.games import GameContext, GameSpec, SummaryLine, TournamentGame, TournamentPlay
from services.infra.timers import DailyReward, streak_table
from services.shared.collection import counted_entry
from store.connection import Connection

# A booster costs 100 coins and a won challenge pays 20: the daily is a win and a half, +10 % a day
# for a week (docs/daily.md).
DAILY_COINS = 30


@dataclass(frozen=True)
class DinocardServices:
    """Every Dinocard use case, built once by the container (see `GameSpec.build`)."""

    shop: DinocardShop
    collection: DinocardCollection
    packs: DinocardPacks
    battles: DinocardBattles
    tournament: DinocardTournament

    @staticmethod
    def build(ctx: GameContext) -> DinocardServices:
        catalog: DinocardCatalog = ctx.catalog
        zone = getattr(ctx.scheduler, "zone", DEFAULT_ZONE)
        base = (ctx.db, ctx.clock, catalog, ctx.rng, zone)
        battles = DinocardBattles(*base, scheduler=ctx.scheduler, registry=ctx.registry)
        return DinocardServices(
            shop=DinocardShop(*base, registry=ctx.registry),
            collection=DinocardCollection(*base, registry=ctx.registry),
            packs=DinocardPacks(*base, registry=ctx.registry),
            battles=battles,
            tournament=DinocardTournament(battles),
        )


def profile_summary(conn: Connection, player_id: int) -> list[SummaryLine]:
    row = conn.execute(
        "SELECT COUNT(*), COALESCE(MAX(level), 0) FROM dinocard_packs WHERE owner_id = ? AND status = 'active'",
        (player_id,),
    ).fetchone()
    if not row or not row[0]:
        return []
    return [SummaryLine("dinocard.profile.packs", {"count": int(row[0]), "level": int(row[1])})]


def tournament(services: DinocardServices) -> TournamentPlay:
    """Its battles as tournament matches, decided as each round opens (services/dinocard/tournament.py)."""
    return services.tournament


GAME = GameSpec(
    key="dinocard",
    name_key="dinocard.name",
    command_group="dino",
    currencies=(CURRENCY,),
    catalog_model=DinocardCatalog,
    card_fields=card_fields,
    card_art=CARD_ART,
    collection_entry=counted_entry("dinocard"),
    show_off=show_off,
    profile_summary=profile_summary,
    engine=DINOCARD_ENGINE,
    build=DinocardServices.build,
    daily=DailyReward(CURRENCY.code, streak_table(DAILY_COINS)),
    timers=timers,
    anonymise=anonymise,
    guide=GUIDE,
    drops=DROPS,
    standings=STANDINGS,
    tournament=TournamentGame(tournament, at_once=True),
    lab=LAB,
)
