"""Selling HOSS copies for gold: one card (from the collection or straight from an opening) or a bulk sale
quoted first and then confirmed.

A sale is one write unit: every copy destroyed with its ledger row, then one credit, all under the
interaction's idempotency key, so a double click sells once and answers the same. What may be sold is
decided in one place (`plan`): the copy must be yours, unlocked (the arena's deck lock), face up, and the
sale must keep six different Rang 1 creatures (`engine.hoss.economy.floor_refusals`). A quote is a read;
its confirmation carries the quoted ids and total and sells exactly those or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.clock import Clock
from core.errors import BadInput, CardUnavailable, DomainError, NotAllowed
from engine.hoss import MIN_DISTINCT_RANK1, CreatureCard, HossCatalog, Selling, floor_refusals
from services.hoss.collection import (
    CollectionFilter,
    HossCard,
    OwnedCopy,
    face_down_ids,
    matches,
    owned_copies,
)
from services.hoss.gold import GOLD
from services.infra import ledger
from store.connection import Connection
from store.db import Database
from store.idempotency import once

REASON_SALE = "hoss.sale"
REFUSED_NOT_YOURS = "hoss.sale.refused.not_yours"
REFUSED_LOCKED = "hoss.sale.refused.locked"
REFUSED_FACE_DOWN = "hoss.sale.refused.face_down"
REFUSED_FLOOR = "hoss.sale.refused.floor"


@dataclass(frozen=True)
class Refusal:
    copy_id: int
    reason: str  # a message key (hoss.sale.refused.*)


@dataclass(frozen=True)
class SaleQuote:
    copy_ids: tuple[int, ...]  # what the confirmation must carry back, with `total`
    total: int
    refused: tuple[Refusal, ...]
    copies: tuple[OwnedCopy, ...] = ()  # the quoted copies themselves, in `copy_ids` order, for display

    @property
    def count(self) -> int:
        return len(self.copy_ids)


@dataclass(frozen=True)
class SaleResult:
    copy_ids: tuple[int, ...]
    total: int
    balance: int  # gold after the sale
    replayed: bool  # True when this answers a repeated click with the first click's result
    # the sold copies' cards, in `copy_ids` order: what the reply names, with no read after the sale (empty
    # when a repeated click answers with a result stored before the sales kept them)
    card_keys: tuple[str, ...] = ()


def _error(refusal: Refusal) -> DomainError:
    """The error a single-card sale raises for the reason its only card was refused."""
    if refusal.reason == REFUSED_LOCKED:
        return CardUnavailable("hoss.error.card.locked")
    if refusal.reason == REFUSED_FACE_DOWN:
        return NotAllowed("hoss.error.card.face_down")
    if refusal.reason == REFUSED_FLOOR:
        return BadInput("hoss.error.sale.floor", minimum=MIN_DISTINCT_RANK1)
    return CardUnavailable("hoss.error.card.not_yours")


def plan(conn: Connection, cards: dict[str, HossCard], player_id: int, copy_ids: list[int]) -> SaleQuote:
    """Which of `copy_ids` this player may sell now, their total, and why the others may not.

    It runs in the single writer for every sale, so it reads only the requested copies, a count per card
    (for the floor) and the player's face-down copies: never the whole collection's attributes.
    """
    requested = list(dict.fromkeys(copy_ids))  # a repeated id sells once
    owned = {c.copy_id: c for c in owned_copies(conn, cards, player_id, requested)}
    hidden = face_down_ids(conn, player_id)
    refused: dict[int, str] = {}
    for copy_id in requested:
        copy = owned.get(copy_id)
        if copy is None:
            refused[copy_id] = REFUSED_NOT_YOURS
        elif copy.locked:
            refused[copy_id] = REFUSED_LOCKED
        elif copy_id in hidden:
            refused[copy_id] = REFUSED_FACE_DOWN
    candidates = [_selling(owned[i]) for i in requested if i not in refused]
    refused.update(
        dict.fromkeys(floor_refusals(_rank1_held(conn, cards, player_id), candidates), REFUSED_FLOOR)
    )
    selling = tuple(i for i in requested if i not in refused)
    return SaleQuote(
        selling,
        sum(owned[i].price for i in selling),
        tuple(Refusal(i, refused[i]) for i in requested if i in refused),
        tuple(owned[i] for i in selling),
    )


def _rank1_held(conn: Connection, cards: dict[str, HossCard], player_id: int) -> dict[str, int]:
    rows = conn.execute(
        "SELECT card_key, COUNT(*) FROM cards WHERE owner_id = ? AND game = 'hoss' GROUP BY card_key",
        (player_id,),
    )
    return {key: int(n) for key, n in rows if _is_rank1(cards.get(key))}


def _is_rank1(card: HossCard | None) -> bool:
    return isinstance(card, CreatureCard) and card.rank == 1


def _selling(copy: OwnedCopy) -> Selling:
    return Selling(copy.copy_id, copy.card.id, _is_rank1(copy.card), copy.price)


def sell_unit(
    conn: Connection,
    now: datetime,
    cards: dict[str, HossCard],
    player_id: int,
    copy_ids: list[int],
    key: str,
    *,
    expected_total: int | None = None,
) -> SaleResult:
    """Sell exactly `copy_ids` or nothing; call inside a write unit. A direct sale (no `expected_total`)
    raises the first refusal's own error; a confirmed quote refuses the whole sale as stale when anything
    changed since the quote (a card sold, locked or sacrificed meanwhile)."""
    if not copy_ids:
        raise BadInput("hoss.error.sale.empty")

    def work() -> dict[str, object]:
        quote = plan(conn, cards, player_id, copy_ids)
        if expected_total is None and quote.refused:
            raise _error(quote.refused[0])
        if quote.refused or (expected_total is not None and quote.total != expected_total):
            raise NotAllowed("hoss.error.sale.stale")
        why = ledger.Movement(REASON_SALE, ref=key)
        for copy_id in quote.copy_ids:  # refuses a copy that is locked or not the player's, again
            ledger.destroy_card(conn, now, copy_id, player_id, why)
        balance = ledger.credit(conn, now, player_id, GOLD, quote.total, why)
        return {
            "player": player_id,
            "cards": list(quote.copy_ids),
            "card_keys": [c.card.id for c in quote.copies],
            "total": quote.total,
            "balance": balance,
        }

    stored, fresh = once(conn, f"hoss:sale:{key}", now, work)
    if stored["player"] != player_id:
        raise NotAllowed()
    return SaleResult(
        tuple(stored["cards"]),
        stored["total"],
        stored["balance"],
        not fresh,
        tuple(stored.get("card_keys", ())),
    )


class HossSale:
    def __init__(self, db: Database, clock: Clock, catalog: HossCatalog) -> None:
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.cards: dict[str, HossCard] = {card.id: card for card in catalog.cards}

    async def sell(self, player_id: int, copy_id: int, *, key: str | int) -> SaleResult:
        """Sell one face-up copy of your collection; a double click (same key) sells it once."""
        now = self.clock.now()
        return await self.db.write(
            lambda conn: sell_unit(conn, now, self.cards, player_id, [copy_id], str(key))
        )

    async def quote(self, player_id: int, copy_ids: list[int]) -> SaleQuote:
        """What selling these copies would pay, and which of them cannot be sold and why."""
        return await self.db.read(lambda conn: plan(conn, self.cards, player_id, copy_ids))

    async def quote_matching(
        self, player_id: int, criteria: CollectionFilter, *, keep_per_card: int = 0
    ) -> SaleQuote:
        """Quote every visible copy matching `criteria`, except the `keep_per_card` best copies of each card
        (best = highest bonus, then dearest, then oldest; over all your visible copies of that card), so
        `keep_per_card=1` sells duplicates only."""
        criteria.validate()
        if keep_per_card < 0:
            raise BadInput("hoss.error.collection.filter", name="keep")

        def unit(conn: Connection) -> SaleQuote:
            hidden = face_down_ids(conn, player_id)
            visible = [c for c in owned_copies(conn, self.cards, player_id) if c.copy_id not in hidden]
            kept: set[int] = set()
            by_card: dict[str, list[OwnedCopy]] = {}
            for copy in visible:
                by_card.setdefault(copy.card.id, []).append(copy)
            for copies in by_card.values():
                copies.sort(key=lambda c: (-c.bonus_pm, -c.price, c.copy_id))
                kept.update(c.copy_id for c in copies[:keep_per_card])
            wanted = [c.copy_id for c in visible if matches(c, criteria) and c.copy_id not in kept]
            return plan(conn, self.cards, player_id, wanted)

        return await self.db.read(unit)

    async def sell_quoted(
        self, player_id: int, copy_ids: list[int], total: int, *, key: str | int
    ) -> SaleResult:
        """Confirm a quote: sells exactly the quoted copies for the quoted total, or nothing
        (`hoss.error.sale.stale` when anything changed since the quote)."""
        now = self.clock.now()
        ids = list(copy_ids)
        return await self.db.write(
            lambda conn: sell_unit(conn, now, self.cards, player_id, ids, str(key), expected_total=total)
        )
