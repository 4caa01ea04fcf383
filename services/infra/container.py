"""Builds every service once, from the settings, a database file and a clock; the Discord layer only holds this."""

from __future__ import annotations

import logging
import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.clock import Clock
from core.message_guard import GUARD
from core.settings import Settings, SettingsError
from services.community.admin import AdminService
from services.community.card_images.service import CardImages
from services.community.daily import DailyService
from services.community.drops.service import DropService
from services.community.lab.service import LabService
from services.community.leaderboard.service import LeaderboardService
from services.community.privacy import PrivacyService
from services.community.recap.providers import PLATFORM_PROVIDERS
from services.community.recap.service import RecapService
from services.community.reminders import Reminders
from services.community.tournaments.flow import Player
from services.community.tournaments.recap import tournaments_section
from services.community.tournaments.service import TournamentService
from services.community.trades.service import TradeService
from services.community.wishlists.service import WishlistService
from services.infra.catalogs import DATA_DIR, CardIndex, load_all
from services.infra.games import GameContext, GameRegistry
from services.infra.guild_settings import GuildSettingsService
from services.infra.heartbeat import Heartbeat
from services.infra.outbox import Outbox
from services.infra.players import PlayerService
from services.infra.scheduler import Scheduler
from services.infra.shards import Shards
from services.shared.collection import CollectionEntries
from services.shared.showoff import ShowOffs
from store.backend import database_for, migrate_database
from store.db import Database, DatabaseUnusable, explain

log = logging.getLogger(__name__)


@dataclass
class Services:
    settings: Settings
    clock: Clock
    db: Database
    players: PlayerService
    guilds: GuildSettingsService
    scheduler: Scheduler
    outbox: Outbox
    cards: CardIndex
    heartbeat: Heartbeat
    card_images: CardImages
    daily: DailyService
    reminders: Reminders
    admin: AdminService
    privacy: PrivacyService
    trades: TradeService
    entries: CollectionEntries  # « Voir une carte » under any game's collection page
    showoffs: ShowOffs  # « Montrer »: a rare pull shown in public, once per copy
    drops: DropService  # drops in the games channel, armed by the servers' activity
    wishlists: WishlistService  # /souhaits: wished cards, mentioned on drops and told when shown off
    leaderboard: LeaderboardService  # /classement serveur: every game's ranking in one board
    recap: RecapService  # each server's week, every Monday morning in its announcements channel
    tournaments: TournamentService
    lab: LabService  # the deck lab: batches of battles in worker processes (docs/lab.md)
    registry: GameRegistry  # the games this container serves: their currencies, commands and hooks
    games: dict[str, Any] = field(default_factory=dict)  # game key -> that game's service

    async def close(self) -> None:
        """After the deliverer stopped: what this process had claimed goes back to the others at once."""
        await self.lab.close()
        await self.scheduler.stop()
        try:
            await self.outbox.release()
        except Exception:  # the claims then run out by themselves (services/infra/outbox.py)
            log.exception("could not release this process's outbox claims")
        await self.db.close()


async def build_services(
    settings: Settings,
    clock: Clock,
    *,
    data_dir: Path = DATA_DIR,
    rng_seed: int | None = None,
    registry: GameRegistry | None = None,
) -> Services:
    """Open and migrate the database, load the catalogs (a bad file stops start-up), wire the services.

    Games draw from `random.SystemRandom()`; `rng_seed` (the sandbox's `--seed`, tests) gives each game a
    seeded `random.Random` of its own instead, so that a run can be replayed. The games are every game
    package's (`GameRegistry.discover()`) unless `registry` names others (tests add a fixture game)."""
    registry = GameRegistry.discover() if registry is None else registry
    specs = registry.all_games()
    catalogs = load_all(data_dir, specs)
    db = database_for(settings.database)
    try:
        await db.open()
        await migrate_database(db)
    except DatabaseUnusable as exc:
        await db.close()
        raise SettingsError(f"Invalid setting {settings.database_setting}: {exc}.") from None
    except (OSError, sqlite3.Error) as exc:
        await db.close()
        raise SettingsError(
            f"Invalid setting {settings.database_setting}: {explain(db.path, exc)}."
        ) from None
    except BaseException:  # a signal during the checks too: an open connection's thread would outlive us
        await db.close()
        raise
    scheduler = Scheduler(db, clock, settings.zone)

    def rng_for(key: str) -> random.Random:
        # one stream per game, so that playing one game does not change another's draws
        return random.SystemRandom() if rng_seed is None else random.Random(f"{rng_seed}:{key}")

    game_services = {
        spec.key: spec.build(
            GameContext(
                db,
                clock,
                catalogs.get(spec.key),
                scheduler,
                rng_for(spec.key),
                registry,
                settings.default_locale,
            )
        )
        for spec in specs
        if spec.build is not None
    }
    cards = CardIndex(catalogs)
    GUARD.forbid(card.id for catalog in catalogs.values() for card in catalog.cards)  # never shown as such
    images = CardImages(settings.card_image_cache, catalogs, registry)
    # The shards the bot connects (discord_app/bot.py reads the same settings): this process's heartbeat
    # says it holds them, and its deliverer sends their servers' posts only.
    held = settings.shards
    shards = None if held is None or settings.shard_count is None else Shards(settings.shard_count, held)
    trades = TradeService(db, clock, registry, scheduler, cards, settings.default_locale)
    # each game's side of the tournaments, from its built services (GameSpec.tournament)
    playing = {
        spec.key: Player(spec.tournament.play(game_services[spec.key]), spec.tournament.at_once)
        for spec in specs
        if spec.tournament is not None and spec.key in game_services
    }
    tournaments = TournamentService(
        db, clock, registry, scheduler, playing, rng_for("tournaments"), settings.zone
    )
    return Services(
        settings=settings,
        clock=clock,
        db=db,
        players=PlayerService(db, clock, registry),
        guilds=GuildSettingsService(db, clock),
        scheduler=scheduler,
        outbox=Outbox(db, clock, registry, shards),
        cards=cards,
        heartbeat=Heartbeat(db, clock, shards=shards),
        card_images=images,
        daily=DailyService(db, clock, registry, settings.zone),
        reminders=Reminders(db, clock, registry, scheduler),
        admin=AdminService(db, clock, registry, cards),
        privacy=PrivacyService(db, clock, registry, trades),
        trades=trades,
        entries=CollectionEntries(db, registry, images, catalogs),
        showoffs=ShowOffs(db, clock, registry, catalogs, scheduler.zone),
        drops=DropService(db, clock, registry, scheduler, catalogs, rng_for("drops")),
        wishlists=WishlistService(db, clock, registry, cards, scheduler.zone),
        leaderboard=LeaderboardService(db, registry),
        # The platform's sections (the tournaments' among them), then each game's own
        # (services/community/recap/sections.py).
        recap=RecapService(
            scheduler,
            registry,
            catalogs,
            (*PLATFORM_PROVIDERS, tournaments_section, *(p for spec in specs for p in spec.recap_sections)),
        ),
        tournaments=tournaments,
        lab=LabService(
            db,
            clock,
            registry,
            {
                spec.key: (game_services[spec.key], spec.lab)
                for spec in specs
                if spec.lab is not None and spec.key in game_services
            },
            rng=rng_for("lab"),
        ),
        registry=registry,
        games=game_services,
    )
