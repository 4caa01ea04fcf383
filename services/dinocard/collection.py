"""A player's Dinocard cards: copies grouped by card (copies are interchangeable), with how many are free
(in no pack), filtered by element, 10 a page. Read in a write unit: a player's first look gives the starter
collection. Decisions: docs/dinocard/economy.md."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from core.errors import BadInput
from engine.dinocard import ELEMENTS, DinocardCard
from services.dinocard.economy import GAME_KEY, DinocardService
from services.dinocard.packs import free_counts
from services.shared import collecting
from services.shared import collection as shared
from store.connection import Connection


@dataclass(frozen=True)
class CollectionPage(shared.CollectionPage[DinocardCard]):
    free: dict[str, int]
    starter: int = 0  # copies the starter collection gave in this call


class DinocardCollection(DinocardService):
    async def page(
        self, player: int, *, element: str | None = None, page: int = 1, locale: str | None = None
    ) -> CollectionPage:
        if element is not None and element not in ELEMENTS:
            raise BadInput("dinocard.error.collection.element")
        now = self.clock.now()

        def unit(conn: Connection) -> tuple[int, Counter[str], Counter[str]]:
            given = self.welcome(conn, now, player)
            return given, collecting.owned_counts(conn, player, GAME_KEY), free_counts(conn, player)

        given, counts, free = await self.db.write(unit)
        shown = shared.owned_page(
            counts,
            self.cards,
            lambda card: element in (None, card.element),
            self.collection_rank(locale),
            page,
        )
        return CollectionPage(
            shown.items, shown.page, shown.pages, shown.cards, shown.copies, dict(free), given
        )
