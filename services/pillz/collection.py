"""A player's Pillz characters: copies grouped by character, filtered by clan and stars, 10 a page.

Copies carry no properties of their own: two copies of a character are interchangeable, so the
collection shows each character once with how many copies the player owns. `owned_counts` is the one
query decks read ownership from. The page is read in a write unit because a player's first look at
their collection is also when they receive their starter deck. Decisions: docs/pillz/economy.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import BadInput
from core.message_guard import echo
from engine.pillz import STARS, PillzCard, PillzCatalog
from services.infra.catalogs import fold
from services.pillz.economy import GAME_KEY, PillzService
from services.shared import collecting
from services.shared import collection as shared
from store.connection import Connection


def owned_counts(conn: Connection, player_id: int, *, free: bool = False) -> Counter[str]:
    """Copies the player owns per catalog id (with `free`, those no trade holds: what a deck saved now
    may count)."""
    return collecting.owned_counts(conn, player_id, GAME_KEY, free=free)


@dataclass(frozen=True)
class CollectionPage(shared.CollectionPage[PillzCard]):
    starter: tuple[str, ...] = ()  # the starter deck's ids when this call gave it, else empty


def clan_of(catalog: PillzCatalog, value: str | None) -> str | None:
    """A clan id from untrusted input: an id, or a name in either language (case and accents ignored)."""
    if value is None or not value.strip():
        return None
    wanted = fold(value)
    for clan in catalog.clans:
        if value == clan.id or wanted in (fold(clan.id), fold(clan.name.fr), fold(clan.name.en)):
            return clan.id
    raise BadInput("pillz.error.collection.clan", clan=echo(value, 64))


def check_stars(stars: int | None) -> None:
    if stars is not None and stars not in STARS:
        raise BadInput("pillz.error.collection.stars", minimum=STARS[0], maximum=STARS[-1])


def collection_page(
    counts: Mapping[str, int],
    cards: Mapping[str, PillzCard],
    *,
    clan: str | None = None,
    stars: int | None = None,
    page: int = 1,
    locale: str | None = None,
) -> CollectionPage:
    """Most stars first, then by name in the reader's language (then id). A page past the end shows the
    last one, below 1 the first (a stale button still lands somewhere)."""
    shown = shared.owned_page(
        counts,
        cards,
        lambda card: clan in (None, card.clan) and stars in (None, card.stars),
        lambda card: (-card.stars, fold(card.name.get(locale)), card.id),
        page,
    )
    return CollectionPage(shown.items, shown.page, shown.pages, shown.cards, shown.copies)


class PillzCollection(PillzService):
    async def counts(self, player_id: int) -> Counter[str]:
        return await self.db.read(lambda conn: owned_counts(conn, player_id))

    async def page(
        self,
        player_id: int,
        *,
        clan: str | None = None,
        stars: int | None = None,
        page: int = 1,
        locale: str | None = None,
    ) -> CollectionPage:
        chosen = clan_of(self.catalog, clan)
        check_stars(stars)
        now = self.clock.now()

        def unit(conn: Connection) -> tuple[list[str] | None, Counter[str]]:
            return self.welcome(conn, now, player_id), owned_counts(conn, player_id)

        starter, counts = await self.db.write(unit)
        shown = collection_page(counts, self.cards, clan=chosen, stars=stars, page=page, locale=locale)
        return CollectionPage(
            shown.items, shown.page, shown.pages, shown.cards, shown.copies, tuple(starter or ())
        )
