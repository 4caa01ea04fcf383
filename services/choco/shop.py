"""Buying Chocogrenouilles and their odds.

A purchase of 1 to 10 frogs is ONE write unit under the interaction's idempotency key: the guarded debit
of the whole price, then one minted card per frog (ledger reason `choco.frog`, ref = the key). A double
click buys once and both clicks get the same cards. The draw (`engine.choco.frogs`) uses the
`random.Random` given to the service, inside the unit, i.e. in the single writer's thread.

The daily allowance is the platform's daily reward (services/community/daily.py), declared on the game's
`GameSpec`. Decisions: docs/choco/economy.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from core.clock import Clock
from engine.choco import (
    FROG_PRICE,
    MAX_FROGS_PER_PURCHASE,
    RARITY_ODDS_PM,
    ChocoCard,
    ChocoCatalog,
    FrogPool,
    Rarity,
    card_odds,
    draw_frogs,
)
from services.choco.economy import CHOCO_GOLD, CURRENCY, GAME_KEY, ensure_wallet
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.shared.shop import Odds, Purchase, TierOdds, check_count, mint_all, minted, purchase_once
from store.connection import Connection
from store.db import Database

REASON_FROG = "choco.frog"


@dataclass(frozen=True)
class RarityOdds(TierOdds[Rarity]):
    per_card: Fraction  # the chance of one given card of this rarity in one frog


class ChocoShop:
    """Frogs; every change of galleons goes through `services.infra.ledger`."""

    def __init__(
        self, db: Database, clock: Clock, catalog: ChocoCatalog, rng: random.Random, *, registry: GameRegistry
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # used only inside write units, i.e. only by the writer's thread
        self.pool = FrogPool.of(catalog)
        self.cards: Mapping[str, ChocoCard] = {c.id: c for c in catalog.cards}

    def odds(self) -> Odds[RarityOdds]:
        """The promised table (engine.choco.frogs), with how many cards each rarity holds and the chance
        of each single card, so a player sees that rarer holds per card too."""
        per_card = card_odds(self.pool)
        return Odds(
            price=FROG_PRICE,
            cards_per_pack=1,
            max_count=MAX_FROGS_PER_PURCHASE,
            tiers=tuple(
                RarityOdds(r, pm, len(self.pool.by_rarity[r]), per_card[r])
                for r, pm in RARITY_ODDS_PM.items()
            ),
            balance=None,
        )

    async def odds_for(self, player_id: int) -> Odds[RarityOdds]:
        """The table and the player's galleons (a read: a new player is shown their starting wallet)."""
        balance = await self.balance(player_id)
        return replace(self.odds(), balance=balance)

    async def balance(self, player_id: int) -> int:
        now = self.clock.now()

        def unit(conn: Connection) -> int:
            ensure_player(conn, player_id, now, self.registry)
            ensure_wallet(conn, now, player_id)
            return ledger.balance(conn, player_id, CHOCO_GOLD)

        return await self.db.write(unit)

    async def buy(self, player_id: int, count: int, *, key: str | int) -> Purchase[ChocoCard]:
        """Buy and open `count` frogs (1..10); `key` makes a repeated click return the same purchase."""
        check_count(count, MAX_FROGS_PER_PURCHASE, "choco.error.frogs.count")
        now = self.clock.now()
        purchase_key = str(key)

        def unit(conn: Connection) -> Purchase[ChocoCard]:
            ensure_player(conn, player_id, now, self.registry)
            ensure_wallet(conn, now, player_id)
            stored, replayed = purchase_once(
                conn,
                now,
                player_id,
                f"choco:frogs:{purchase_key}",
                lambda: self._purchase(conn, now, player_id, count, purchase_key),
            )
            cards = minted(stored["cards"], self.cards)
            return Purchase(
                count=len(cards),
                price=stored["price"],
                total=stored["total"],
                balance=stored["balance"],
                packs=tuple((card,) for card in cards),  # a frog holds one card
                replayed=replayed,
            )

        return await self.db.write(unit)

    def _purchase(
        self, conn: Connection, now: datetime, player_id: int, count: int, key: str
    ) -> dict[str, Any]:
        total = FROG_PRICE * count
        why = ledger.Movement(REASON_FROG, ref=key)
        balance = ledger.debit(conn, now, player_id, CURRENCY, total, why)
        cards = mint_all(conn, now, player_id, GAME_KEY, draw_frogs(self.pool, self.rng, count), why)
        return {"player": player_id, "cards": cards, "price": FROG_PRICE, "total": total, "balance": balance}
