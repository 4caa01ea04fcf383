"""Dinocard's economy base: its coins, the player's Dinocard profile and the starter collection, and what
every Dinocard service holds (database, clock, catalog, the scheduler's zone for "a day").

Every Dinocard write unit starts with `welcome`: the first Dinocard command of a player creates their
profile and gives the starter collection exactly once (the profile's `starter_given` marker is claimed by
a conditional UPDATE in the unit that mints it). Decisions: docs/dinocard/economy.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from datetime import date, datetime
from zoneinfo import ZoneInfo

from core.clock import Clock, to_db
from engine.dinocard import DinocardCard, DinocardCatalog
from services.dinocard.names import collection_order
from services.infra import ledger
from services.infra.games import Currency, GameRegistry
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database

GAME_KEY = "dinocard"
DINO_GOLD = "dinocard_gold"
STARTING_GOLD = 300
CURRENCY = Currency(DINO_GOLD, "dinocard.gold", starting=STARTING_GOLD, earn_key="dinocard.guide.earn")
STARTING_GRANT = "starting_grant"  # the platform's reason for starting wallets (services.infra.players)
REASON_STARTER = "dinocard.starter"
STARTER_COPIES = 2  # of every common card: a mono-element pack of 20 from the start
DEFAULT_ZONE = ZoneInfo("Europe/Paris")


def ensure_wallet(conn: Connection, now: datetime, player_id: int) -> None:
    """Grant the starting coins to a player created before Dinocard declared its currency (once)."""
    row = conn.execute(
        "SELECT 1 FROM ledger WHERE player_id = ? AND currency = ? AND reason = ? LIMIT 1",
        (player_id, DINO_GOLD, STARTING_GRANT),
    ).fetchone()
    if row is None:
        ledger.credit(conn, now, player_id, DINO_GOLD, STARTING_GOLD, ledger.Movement(STARTING_GRANT))


def starter_cards(catalog: DinocardCatalog) -> list[str]:
    """Two copies of every common card, in catalog order."""
    return [c.id for c in catalog.cards if c.rarity == "commune" for _ in range(STARTER_COPIES)]


def ensure_starter(
    conn: Connection, now: datetime, registry: GameRegistry, player_id: int, catalog: DinocardCatalog
) -> int:
    """The player, their coins, their profile and, once, the starter collection; how many copies this call
    gave (0 when they had it already)."""
    ensure_player(conn, player_id, now, registry)
    ensure_wallet(conn, now, player_id)
    conn.execute(
        "INSERT INTO dinocard_profiles (player_id, created_at) VALUES (?, ?) ON CONFLICT (player_id) DO NOTHING",
        (player_id, to_db(now)),
    )
    claimed = conn.execute(
        "UPDATE dinocard_profiles SET starter_given = 1 WHERE player_id = ? AND starter_given = 0",
        (player_id,),
    )
    if claimed.rowcount != 1:
        return 0
    why = ledger.Movement(REASON_STARTER, ref=str(player_id))
    cards = starter_cards(catalog)
    for card in cards:
        ledger.mint_card(conn, now, player_id, GAME_KEY, card, why)
    return len(cards)


def welcomed(conn: Connection, player_id: int) -> bool:
    """Whether `ensure_starter` would write nothing for the player (known, their coins granted, their
    starter given): a page that only welcomes them in its unit may then be a read (no write transaction,
    no commit: the preparation page, issue 39)."""
    row = conn.execute(
        "SELECT p.starter_given FROM dinocard_profiles p JOIN players ON players.id = p.player_id"
        " WHERE p.player_id = ? AND EXISTS (SELECT 1 FROM ledger l WHERE l.player_id = p.player_id"
        " AND l.currency = ? AND l.reason = ?)",
        (player_id, DINO_GOLD, STARTING_GRANT),
    ).fetchone()
    return row is not None and bool(row[0])


class DinocardService:
    """What every Dinocard service holds; `welcome` is the first step of each of its write units."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        catalog: DinocardCatalog,
        rng: random.Random,
        zone: ZoneInfo = DEFAULT_ZONE,
        *,
        registry: GameRegistry,
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # used only inside write units, i.e. only by the writer's thread
        self.zone = zone
        self.cards: Mapping[str, DinocardCard] = {c.id: c for c in catalog.cards}
        # each card's element, type and rarity: what Perception counts on every preparation page
        self.kinds: dict[str, tuple[str, str, str]] = {
            c.id: (c.element, c.type, c.rarity) for c in catalog.cards
        }
        self._ranks: dict[str | None, Mapping[str, int]] = {}

    def collection_rank(self, locale: str | None) -> Callable[[DinocardCard], int]:
        """`collection_order` as each card's place in the whole catalog so sorted, worked out once per
        language: a page of the collection or of the preparation sorts its cards by it instead of folding
        every name again (issue 39). Card ids are unique, so the order is the same."""
        ranks = self._ranks.get(locale)
        if ranks is None:
            ordered = sorted(self.cards.values(), key=collection_order(locale))
            ranks = {card.id: place for place, card in enumerate(ordered)}
            self._ranks[locale] = ranks
        return lambda card: ranks[card.id]

    def welcome(self, conn: Connection, now: datetime, player_id: int) -> int:
        """`ensure_starter`, after one look whether it would write anything: a welcomed player's unit (every
        launch, issue 39) runs that one SELECT instead of its four statements."""
        if welcomed(conn, player_id):
            return 0
        return ensure_starter(conn, now, self.registry, player_id, self.catalog)

    def today(self, now: datetime) -> date:
        """The day of `now` where the game's days turn (the scheduler's zone: Paris by default)."""
        return now.astimezone(self.zone).date()
