"""Dinocard boosters and their odds.

A booster holds 6 cards, each drawn on its own: first its rarity (commune 70 %, inhabituelle 25 %,
rare 5 %), then one card of that rarity, all equally likely. A purchase of 1 to 5 boosters (100 coins
each) is one idempotent write unit (`services.shared.shop.purchase_once`): the guarded debit, then one
minted copy per card (ledger reason `dinocard.booster`, ref = the key). Decisions: docs/dinocard/economy.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engine.dinocard import RARITIES, DinocardCard, DinocardCatalog
from services.dinocard.economy import CURRENCY, DINO_GOLD, GAME_KEY, DinocardService
from services.infra import ledger
from services.shared.shop import Odds, Purchase, TierOdds, check_count, mint_all, minted, purchase_once
from store.connection import Connection

REASON_BOOSTER = "dinocard.booster"
BOOSTER_PRICE = 100
CARDS_PER_BOOSTER = 6
MAX_BOOSTERS = 5
RARITY_ODDS_PM = {"commune": 700, "inhabituelle": 250, "rare": 50}  # per mille, per card


def by_rarity(catalog: DinocardCatalog) -> dict[str, list[str]]:
    return {r: sorted(c.id for c in catalog.cards if c.rarity == r) for r in RARITIES}


def draw_card(pools: dict[str, list[str]], rng: random.Random) -> str:
    roll = rng.randrange(1000)
    for rarity in RARITIES:
        roll -= RARITY_ODDS_PM[rarity]
        if roll < 0:
            return rng.choice(pools[rarity])
    raise AssertionError("the odds add up to 1000")


def open_boosters(pools: dict[str, list[str]], rng: random.Random, count: int) -> list[list[str]]:
    return [[draw_card(pools, rng) for _ in range(CARDS_PER_BOOSTER)] for _ in range(count)]


class DinocardShop(DinocardService):
    def pools(self) -> dict[str, list[str]]:
        return by_rarity(self.catalog)

    async def odds(self, player_id: int) -> Odds[TierOdds[str]]:
        now = self.clock.now()

        def unit(conn: Connection) -> int:
            self.welcome(conn, now, player_id)
            return ledger.balance(conn, player_id, DINO_GOLD)

        balance = await self.db.write(unit)
        pools = self.pools()
        rarities = tuple(TierOdds(r, RARITY_ODDS_PM[r], len(pools[r])) for r in RARITIES)
        return Odds(BOOSTER_PRICE, CARDS_PER_BOOSTER, MAX_BOOSTERS, rarities, balance)

    async def buy(self, player_id: int, count: int, *, key: str | int) -> Purchase[DinocardCard]:
        """Buy and open `count` boosters; `key` makes a repeated click return the same purchase."""
        check_count(count, MAX_BOOSTERS, "dinocard.error.boosters.count")
        now = self.clock.now()

        def unit(conn: Connection) -> Purchase[DinocardCard]:
            self.welcome(conn, now, player_id)
            stored, replayed = purchase_once(
                conn,
                now,
                player_id,
                f"dinocard:boosters:{key}",
                lambda: self._purchase(conn, now, player_id, count, str(key)),
            )
            boosters = tuple(minted(b, self.cards) for b in stored["boosters"])
            return Purchase(
                len(boosters), BOOSTER_PRICE, stored["total"], stored["balance"], boosters, replayed
            )

        return await self.db.write(unit)

    def _purchase(
        self, conn: Connection, now: datetime, player_id: int, count: int, key: str
    ) -> dict[str, Any]:
        total = BOOSTER_PRICE * count
        why = ledger.Movement(REASON_BOOSTER, ref=key)
        balance = ledger.debit(conn, now, player_id, CURRENCY, total, why)
        boosters: Sequence[list[list[Any]]] = [
            mint_all(conn, now, player_id, GAME_KEY, cards, why)
            for cards in open_boosters(self.pools(), self.rng, count)
        ]
        return {"player": player_id, "boosters": list(boosters), "total": total, "balance": balance}
