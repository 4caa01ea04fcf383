"""The Pillz duel economy on the platform: its coins, the player's Pillz profile, the starter deck, and
the services built from them (shop, collection, decks, ladder).

Every Pillz service calls `ensure_starter` in its write unit, so a player's first /pillz command (or the
first Pillz service call of any kind, the duel service's included) creates their profile and gives the
starter deck exactly once: the profile row's `starter_given` marker is claimed by a conditional UPDATE
in the same unit as the minting. The game's facade (`services/pillz/__init__.py`, `PillzEconomy`) builds
the services that share this base. Decisions: docs/pillz/economy.md.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import datetime

from core.clock import Clock, to_db
from engine.pillz import PackPool, PillzCard, PillzCatalog, draw_starter
from services.infra import ledger
from services.infra.games import Currency, GameRegistry
from services.infra.players import ensure_player, ensure_starting_grant, summary_changed
from store.connection import Connection
from store.db import Database

GAME_KEY = "pillz"
PILLZ_GOLD = "pillz_gold"
STARTING_GOLD = 300
CURRENCY = Currency(PILLZ_GOLD, "pillz.gold", starting=STARTING_GOLD, earn_key="pillz.guide.earn")
REASON_STARTER = "pillz.starter"
STARTER_SLOT = 1
START_RATING = 1000


def ensure_wallet(conn: Connection, now: datetime, player_id: int) -> None:
    """The starting coins of a player created before Pillz declared its currency."""
    ensure_starting_grant(conn, now, player_id, CURRENCY)


def ensure_profile(conn: Connection, now: datetime, registry: GameRegistry, player_id: int) -> None:
    """The player, their coins and their Pillz profile row (rating 1000, no starter yet)."""
    ensure_player(conn, player_id, now, registry)
    ensure_wallet(conn, now, player_id)
    created = conn.execute(
        "INSERT INTO pillz_profiles (player_id, rating, created_at) VALUES (?, ?, ?)"
        " ON CONFLICT (player_id) DO NOTHING",
        (player_id, START_RATING, to_db(now)),
    )
    if created.rowcount == 1:  # the profile's Pillz line appears
        summary_changed(conn, player_id)


def store_deck(conn: Connection, now: datetime, player_id: int, slot: int, cards: list[str]) -> None:
    conn.execute(
        "INSERT INTO pillz_decks (player_id, slot, cards, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (player_id, slot) DO UPDATE SET cards = excluded.cards, updated_at = excluded.updated_at",
        (player_id, slot, json.dumps(cards), to_db(now)),
    )


def ensure_starter(
    conn: Connection,
    now: datetime,
    registry: GameRegistry,
    player_id: int,
    pool: PackPool,
    rng: random.Random,
) -> list[str] | None:
    """Give the starter deck once: 8 characters minted (reason `pillz.starter`), saved as slot 1 and made
    active. Returns the ids when given by this call, None when the player already had it. Call in a
    write unit; the conditional UPDATE on the marker makes a second call (or a concurrent one) a no-op."""
    ensure_profile(conn, now, registry, player_id)
    claimed = conn.execute(
        "UPDATE pillz_profiles SET starter_given = 1, active_slot = ? WHERE player_id = ? AND starter_given = 0",
        (STARTER_SLOT, player_id),
    )
    if claimed.rowcount != 1:
        return None
    cards = draw_starter(pool, rng)
    why = ledger.Movement(REASON_STARTER, ref=str(player_id))
    for card in cards:
        ledger.mint_card(conn, now, player_id, GAME_KEY, card, why)
    store_deck(conn, now, player_id, STARTER_SLOT, cards)
    return cards


class PillzService:
    """What every Pillz economy service holds; `welcome` is the first step of each of its write units."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        catalog: PillzCatalog,
        rng: random.Random,
        pool: PackPool | None = None,
        *,
        registry: GameRegistry,
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # used only inside write units, i.e. only by the writer's thread
        self.pool = pool or PackPool.of(catalog)
        self.cards: Mapping[str, PillzCard] = {c.id: c for c in catalog.cards}

    def welcome(self, conn: Connection, now: datetime, player_id: int) -> list[str] | None:
        return ensure_starter(conn, now, self.registry, player_id, self.pool, self.rng)
