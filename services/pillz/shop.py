"""Buying Pillz packs and their odds.

A purchase of 1 to 5 packs (3 characters each, 100 coins a pack) is ONE write unit under the
interaction's idempotency key: the guarded debit of the whole price, then one minted card per character
(ledger reason `pillz.pack`, ref = the key). A double click buys once and both clicks get the same
characters. The draw (`engine.pillz.packs`) uses the service's `random.Random` inside the unit, i.e. in
the single writer's thread. Decisions: docs/pillz/economy.md.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from engine.pillz import (
    CARDS_PER_PACK,
    MAX_PACKS_PER_PURCHASE,
    PACK_PRICE,
    STAR_ODDS_PM,
    PillzCard,
    open_packs,
)
from services.infra import ledger
from services.pillz.economy import CURRENCY, GAME_KEY, PILLZ_GOLD, PillzService
from services.shared.shop import Odds, Purchase, TierOdds, check_count, mint_all, minted, purchase_once
from store.connection import Connection

REASON_PACK = "pillz.pack"


class PillzShop(PillzService):
    """Packs; every change of coins goes through `services.infra.ledger`."""

    def odds(self) -> Odds[TierOdds[int]]:
        return Odds(
            price=PACK_PRICE,
            cards_per_pack=CARDS_PER_PACK,
            max_count=MAX_PACKS_PER_PURCHASE,
            tiers=tuple(TierOdds(s, pm, len(self.pool.by_stars[s])) for s, pm in STAR_ODDS_PM.items()),
            balance=None,
        )

    async def odds_for(self, player_id: int) -> Odds[TierOdds[int]]:
        return replace(self.odds(), balance=await self.balance(player_id))

    async def balance(self, player_id: int) -> int:
        now = self.clock.now()

        def unit(conn: Connection) -> int:
            self.welcome(conn, now, player_id)
            return ledger.balance(conn, player_id, PILLZ_GOLD)

        return await self.db.write(unit)

    async def buy(self, player_id: int, count: int, *, key: str | int) -> Purchase[PillzCard]:
        """Buy and open `count` packs (1..5); `key` makes a repeated click return the same purchase."""
        check_count(count, MAX_PACKS_PER_PURCHASE, "pillz.error.packs.count")
        now = self.clock.now()
        purchase_key = str(key)

        def unit(conn: Connection) -> Purchase[PillzCard]:
            self.welcome(conn, now, player_id)
            stored, replayed = purchase_once(
                conn,
                now,
                player_id,
                f"pillz:packs:{purchase_key}",
                lambda: self._purchase(conn, now, player_id, count, purchase_key),
            )
            packs = tuple(minted(pack, self.cards) for pack in stored["packs"])
            return Purchase(
                count=len(packs),
                price=stored["price"],
                total=stored["total"],
                balance=stored["balance"],
                packs=packs,
                replayed=replayed,
            )

        return await self.db.write(unit)

    def _purchase(
        self, conn: Connection, now: datetime, player_id: int, count: int, key: str
    ) -> dict[str, Any]:
        total = PACK_PRICE * count
        why = ledger.Movement(REASON_PACK, ref=key)
        balance = ledger.debit(conn, now, player_id, CURRENCY, total, why)
        packs = [
            mint_all(conn, now, player_id, GAME_KEY, pack, why)
            for pack in open_packs(self.pool, self.rng, count)
        ]
        return {"player": player_id, "packs": packs, "price": PACK_PRICE, "total": total, "balance": balance}
