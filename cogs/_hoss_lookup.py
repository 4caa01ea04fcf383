"""Reading what a /hoss command or click means, through the services' public reads only.

- custom_id codecs: a collection filter in 7 characters, a sort order in one digit, a digest of copy ids
  (so a confirmation button proves the copies it acts on are still exactly the quoted ones);
- the player's copies of one card (pages of `HossCollection.list_copies`, narrowed by race, class and rank);
- which copies "fuse card X" selects (the Discord front end's choice, documented in docs/hoss/economy.md):
  the engine still plans the pairs and refuses what the rules refuse;
- deck lines and buffs typed as ids or names.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, cast

import discord

from core.errors import BadInput, NotFound
from discord_app.context import services_of
from engine.hoss.catalog import CLASSES, RACES, RARITIES, BuffCard, CreatureCard
from services.hoss import HossServices
from services.hoss_collection import KINDS, SORT_ORDERS, CollectionFilter, HossCollection, OwnedCopy

HossCard = CreatureCard | BuffCard
MAX_SCAN_PAGES = 50  # 500 copies of one card (or of a whole collection for autocomplete) at most
NO_VALUE = "-"
FILTER_CODE = r"[-0-9]{7}"
MAX_STARS = 5


def hoss_of(interaction: discord.Interaction[Any]) -> HossServices:
    return cast(HossServices, services_of(interaction).games["hoss"])


# --- custom_id codecs -------------------------------------------------------------------------------------


def _index(value: Any, values: Sequence[Any]) -> str:
    return NO_VALUE if value is None else str(values.index(value))


def encode_filter(f: CollectionFilter) -> str:
    """Seven characters, one per criterion (race, class, rank, rarity, stars, holo, kind); '-' for any."""
    f.validate()
    return "".join(
        (
            _index(f.race, RACES),
            _index(f.cls, CLASSES),
            NO_VALUE if f.rank is None else str(f.rank),
            _index(f.rarity, RARITIES),
            NO_VALUE if f.stars is None else str(f.stars),
            NO_VALUE if f.holo is None else str(int(f.holo)),
            _index(f.kind, KINDS),
        )
    )


def decode_filter(code: str) -> CollectionFilter:
    """The filter a custom_id carries; untrusted, so every position is checked."""

    def pick(char: str, values: Sequence[Any]) -> Any:
        if char == NO_VALUE:
            return None
        if not char.isdigit() or int(char) >= len(values):
            raise BadInput("hoss.error.collection.filter", name=char)
        return values[int(char)]

    if len(code) != 7:
        raise BadInput("hoss.error.collection.filter", name=code)
    race, cls, rank, rarity, stars, holo, kind = list(code)
    criteria = CollectionFilter(
        race=pick(race, RACES),
        cls=pick(cls, CLASSES),
        rank=pick(rank, (0, 1, 2, 3)),
        rarity=pick(rarity, RARITIES),
        stars=pick(stars, range(MAX_STARS + 1)),
        holo=pick(holo, (False, True)),
        kind=pick(kind, KINDS),
    )
    criteria.validate()
    return criteria


def encode_sort(sort: str) -> str:
    return str(SORT_ORDERS.index(sort))


def decode_sort(code: str) -> str:
    if not code.isdigit() or int(code) >= len(SORT_ORDERS):
        raise BadInput("hoss.error.collection.sort", sort=code)
    return SORT_ORDERS[int(code)]


def digest(copy_ids: Iterable[int]) -> str:
    """A short fingerprint of a set of copies: not a secret (the services re-check ownership), a proof that
    a confirmation acts on exactly what was shown."""
    text = ",".join(str(i) for i in sorted(set(copy_ids)))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


# --- reading copies -----------------------------------------------------------------------------------------


async def all_copies(
    collection: HossCollection,
    player_id: int,
    criteria: CollectionFilter,
    locale: str,
    *,
    sort: str = "newest",
    max_pages: int = MAX_SCAN_PAGES,
) -> list[OwnedCopy]:
    """Every visible copy matching `criteria` (at most `max_pages` pages), without duplicates."""
    first = await collection.list_copies(player_id, criteria, sort=sort, page=1, locale=locale)
    found = {c.copy_id: c for c in first.items}
    for page in range(2, min(first.pages, max_pages) + 1):
        listed = await collection.list_copies(player_id, criteria, sort=sort, page=page, locale=locale)
        found.update((c.copy_id, c) for c in listed.items)
    return list(found.values())


def card_criteria(card: HossCard) -> CollectionFilter:
    """The narrowest collection filter that still lists every copy of `card`."""
    if isinstance(card, BuffCard):
        return CollectionFilter(kind="buff")
    return CollectionFilter(race=card.race, cls=card.cls, rank=card.rank)


async def copies_of(
    collection: HossCollection, player_id: int, card: HossCard, locale: str
) -> list[OwnedCopy]:
    copies = await all_copies(collection, player_id, card_criteria(card), locale)
    return sorted((c for c in copies if c.card.id == card.id), key=lambda c: c.copy_id)


def find_card(interaction: discord.Interaction[Any], value: str, locale: str) -> HossCard:
    """A HOSS card from an autocomplete value (its id, or "hoss:<id>") or a name typed in full."""
    cards = hoss_of(interaction).collection.cards
    wanted = value.strip()
    if wanted in cards:
        return cards[wanted]
    ref = services_of(interaction).cards.resolve(wanted, locale)
    if ref is None or ref.game != "hoss" or ref.card_id not in cards:
        raise NotFound("error.card_not_found", name=value)
    return cards[ref.card_id]


def hoss_refs(interaction: discord.Interaction[Any], current: str, locale: str, limit: int) -> list[HossCard]:
    """HOSS cards whose name matches what is typed, best matches first."""
    cards = hoss_of(interaction).collection.cards
    refs = services_of(interaction).cards.search(current, locale, limit=200)
    return [cards[r.card_id] for r in refs if r.game == "hoss" and r.card_id in cards][:limit]


# --- fusion selection ---------------------------------------------------------------------------------------


def _survival(copy: OwnedCopy) -> tuple[bool, int, bool, int]:
    """The order the fusion rules keep copies in (holo, rarer, locked, older first)."""
    return (not copy.holo, -RARITIES.index(copy.rarity), not copy.locked, copy.copy_id)


def _level_selection(group: list[OwnedCopy]) -> list[OwnedCopy]:
    """As many pairs as the rules allow in one star level: the best copies survive, and each pair sacrifices
    one of the least valuable copies that may be sacrificed (never a holo nor a locked copy)."""
    ranked = sorted(group, key=_survival)
    for pairs in range(len(ranked) // 2, 0, -1):
        survivors = ranked[:pairs]
        free = [c for c in ranked[pairs:] if not c.holo and not c.locked]
        if len(free) >= pairs:
            return survivors + free[-pairs:]
    return []


def fusion_selection(copies: Sequence[OwnedCopy], level: str) -> list[int]:
    """The copies "fuse this card" sends to the fusion service (empty when there is nothing to fuse).

    `level` is "a" (every star level below 5★, a chain), "0".."4" (one level), or "f" (a 5★ standing in as a
    4★: the rarest 4★ and the least rare 5★ that may be sacrificed).
    """
    if level == "f":
        fours = sorted((c for c in copies if c.stars == MAX_STARS - 1), key=_survival)
        fives = [c for c in copies if c.stars == MAX_STARS and not c.holo and not c.locked]
        if not fours or not fives:
            return []
        five = min(fives, key=lambda c: (RARITIES.index(c.rarity), -c.copy_id))
        return [five.copy_id, fours[0].copy_id]
    levels = range(MAX_STARS) if level == "a" else [int(level)]
    chosen: list[OwnedCopy] = []
    for stars in levels:
        chosen += _level_selection([c for c in copies if c.stars == stars])
    return [c.copy_id for c in chosen]


def required_selection(copies: Sequence[OwnedCopy], level: str) -> list[int]:
    """`fusion_selection`, refused with the reason when it is empty."""
    ids = fusion_selection(copies, level)
    if not ids:
        raise BadInput("hoss.error.fuse.no_five_as_four" if level == "f" else "hoss.error.fuse.nothing")
    return ids


def fusable(copies: Sequence[OwnedCopy]) -> dict[str, Counter[int]]:
    """Per card id, how many copies each star level holds, for cards with at least one possible fusion."""
    by_card: dict[str, Counter[int]] = {}
    for copy in copies:
        by_card.setdefault(copy.card.id, Counter())[copy.stars] += 1
    return {
        card: levels
        for card, levels in by_card.items()
        if any(n >= 2 for s, n in levels.items() if s < MAX_STARS)
        or (levels[MAX_STARS] and levels[MAX_STARS - 1])
    }
