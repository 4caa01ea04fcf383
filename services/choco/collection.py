"""A player's Chocobataille cards: copies grouped by catalog card, filtered, sorted and paginated.

Copies carry no properties of their own (attrs '{}'): two copies of a card are interchangeable, so the
collection shows each card once with how many copies the player owns. `owned_counts` is the one query
every economy rule (decks, leagues) reads ownership from. Filtering and sorting happen in Python on that
query's rows because the sort by name depends on the reader's language. Decisions: docs/choco/economy.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from core.errors import BadInput
from core.message_guard import echo
from engine.choco import CARD_TYPES, RARITIES, ChocoCard, ChocoCatalog
from services.choco.economy import GAME_KEY
from services.infra.catalogs import fold
from services.shared import collecting
from services.shared import collection as shared
from store.connection import Connection
from store.db import Database


def owned_counts(conn: Connection, player_id: int, *, free: bool = False) -> Counter[str]:
    """Copies the player owns per catalog id (with `free`, those no trade holds: what a deck saved now
    may count)."""
    return collecting.owned_counts(conn, player_id, GAME_KEY, free=free)


CollectionPage = shared.CollectionPage[ChocoCard]


def check_filter(rarity: str | None, card_type: str | None) -> None:
    """Filter values come from options or custom ids: untrusted, so checked with a message saying which."""
    if rarity is not None and rarity not in RARITIES:
        raise BadInput("choco.error.collection.rarity", rarity=echo(rarity))
    if card_type is not None and card_type not in CARD_TYPES:
        raise BadInput("choco.error.collection.type", type=echo(card_type))


def collection_page(
    counts: Mapping[str, int],
    cards: Mapping[str, ChocoCard],
    *,
    rarity: str | None = None,
    card_type: str | None = None,
    page: int = 1,
    locale: str | None = None,
) -> CollectionPage:
    """Rarest first, then by name in the reader's language (then id, so equal names never swap pages).
    A page past the end shows the last one, below 1 the first (a stale button still lands somewhere)."""
    return shared.owned_page(
        counts,
        cards,
        lambda card: rarity in (None, card.rarity) and card_type in (None, card.type),
        lambda card: (-RARITIES.index(card.rarity), fold(card.name.get(locale)), card.id),
        page,
    )


class ChocoCollection:
    """Read-only queries over a player's copies; no clock, no randomness, no writes."""

    def __init__(self, db: Database, catalog: ChocoCatalog) -> None:
        self.db = db
        self.catalog = catalog
        self.cards: Mapping[str, ChocoCard] = {c.id: c for c in catalog.cards}

    async def counts(self, player_id: int) -> Counter[str]:
        return await self.db.read(lambda conn: owned_counts(conn, player_id))

    async def page(
        self,
        player_id: int,
        *,
        rarity: str | None = None,
        card_type: str | None = None,
        page: int = 1,
        locale: str | None = None,
    ) -> CollectionPage:
        check_filter(rarity, card_type)
        counts = await self.counts(player_id)
        return collection_page(
            counts, self.cards, rarity=rarity, card_type=card_type, page=page, locale=locale
        )
