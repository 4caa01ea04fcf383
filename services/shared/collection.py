"""A player's collection, the same way in every game: the cards matching a filter, sorted, one page.

A page past the end shows the last one and a page below 1 the first, so a stale page button (after a
sale, a fusion, a purchase elsewhere) still lands somewhere sensible. Games whose copies are
interchangeable show each card once with how many copies the player owns (`owned_page`); the sort is done
here in Python because it depends on the reader's language (names).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Generic, TypeVar

from core.errors import NotFound
from engine.cards import CardBase
from services.community.card_images.service import CardImage, CardImages
from services.infra.games import CollectionEntry, EntryReader, GameRegistry
from services.shared.collecting import owned_counts
from store.connection import Connection

PAGE_SIZE = 10
COUNT = itemgetter(2)  # an owned card's copies, in `owned_page`'s (key, card, copies)

T = TypeVar("T")
C = TypeVar("C", bound=CardBase)


def paginate(items: Sequence[T], page: int, size: int = PAGE_SIZE) -> tuple[list[T], int, int]:
    """(items of the page, page, pages); at least one page, even for nothing; `page` clamped to them."""
    pages = max(1, math.ceil(len(items) / size))
    shown = min(max(page, 1), pages)
    return list(items[(shown - 1) * size : shown * size]), shown, pages


@dataclass(frozen=True)
class OwnedCard(Generic[C]):
    """A catalog card and how many copies the player owns (copies without properties of their own)."""

    card: C
    count: int


@dataclass(frozen=True)
class CollectionPage(Generic[C]):
    items: tuple[OwnedCard[C], ...]
    page: int  # 1-based, clamped to the pages that exist
    pages: int  # at least 1, even for an empty collection
    cards: int  # different cards matching the filter
    copies: int  # copies matching the filter


def owned_page(
    counts: Mapping[str, int],
    cards: Mapping[str, C],
    keep: Callable[[C], bool] | None,
    order: Callable[[C], Any],
    page: int,
) -> CollectionPage[C]:
    """The owned cards `keep` accepts (None: all; ids the catalog lost are skipped), sorted by `order`,
    page `page`.

    Each card is sorted by its key computed once, beside it, and only the page's cards become `OwnedCard`s:
    a Dinocard preparation page offers some 60 free cards and shows 10 (issue 39: an `OwnedCard`, a sort
    lambda and a filter per card were an eighth of a Dinocard launch's event loop under cProfile)."""
    owned = [
        (order(card), card, n)
        for key, n in counts.items()
        if n > 0 and (card := cards.get(key)) is not None and (keep is None or keep(card))
    ]
    owned.sort(key=itemgetter(0))  # by the key alone, stable as before: never a card compared
    items, shown, pages = paginate(owned, page)
    return CollectionPage(
        tuple(OwnedCard(card, n) for _, card, n in items),
        shown,
        pages,
        len(owned),
        sum(map(COUNT, owned)),
    )


# --- one entry, opened from a page ---------------------------------------------------------------------


def counted_entry(game: str) -> EntryReader:
    """The entry reader of a game whose copies are interchangeable: the select's value is a card id, the
    entry the card as the catalog has it and how many copies the player owns (none: not found)."""

    def read(conn: Connection, _catalog: Any, player_id: int, value: str) -> CollectionEntry:
        count = owned_counts(conn, player_id, game).get(value, 0)
        if count <= 0:
            raise NotFound("collection.entry.not_owned")
        return CollectionEntry(value, None, count)

    return read


@dataclass(frozen=True)
class OpenedEntry:
    game: str
    entry: CollectionEntry
    image: CardImage


class CollectionEntries:
    """« Voir une carte » under a collection page, the same way in every game: the entry is read with the
    game's `collection_entry` for the player asking (so only what they own opens), then drawn."""

    def __init__(
        self, db: Any, registry: GameRegistry, images: CardImages, catalogs: Mapping[str, Any]
    ) -> None:
        self.db = db
        self.registry = registry
        self.images = images
        self._catalogs = dict(catalogs)

    async def open(self, game: str, player_id: int, value: str, locale: str | None) -> OpenedEntry:
        spec = self.registry.get(game)
        reader = spec.collection_entry if spec is not None else None
        if reader is None or len(value) > 64:
            raise NotFound("collection.entry.not_owned")
        catalog = self._catalogs.get(game)
        entry = await self.db.read(lambda conn: reader(conn, catalog, player_id, value))
        return OpenedEntry(game, entry, await self.images.image(game, entry.card_id, entry.copy, locale))
