"""Reading what a /hoss command or click means, through the services' public reads only.

- custom_id codecs: a collection filter in 7 characters, a sort order in one digit, a digest of copy ids
  (so a confirmation button proves the copies it acts on are still exactly the quoted ones);
- (which copies "fuse card X" selects is a rule in engine/hoss/fusion.py, served by `FusionService`);
- deck lines and buffs typed as ids or names.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any, cast

import discord

from core.errors import BadInput
from core.message_guard import echo
from discord_app.context import services_of
from engine.hoss import CLASSES, RACES, RARITIES, BuffCard, CreatureCard
from services.hoss import HossServices
from services.hoss.collection import KINDS, SORT_ORDERS, CollectionFilter
from services.shared.collecting import card_not_found

HossCard = CreatureCard | BuffCard
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
            raise BadInput("hoss.error.collection.filter", name=echo(char))
        return values[int(char)]

    if len(code) != 7:
        raise BadInput("hoss.error.collection.filter", name=echo(code))
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
        raise BadInput("hoss.error.collection.sort", sort=echo(code))
    return SORT_ORDERS[int(code)]


def digest(copy_ids: Iterable[int]) -> str:
    """A short fingerprint of a set of copies: not a secret (the services re-check ownership), a proof that
    a confirmation acts on exactly what was shown."""
    text = ",".join(str(i) for i in sorted(set(copy_ids)))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


# --- reading cards -------------------------------------------------------------------------------------------


def find_card(interaction: discord.Interaction[Any], value: str, locale: str) -> HossCard:
    """A HOSS card from an autocomplete value (its id, or "hoss:<id>") or a name typed in full."""
    cards = hoss_of(interaction).collection.cards
    wanted = value.strip()
    if wanted in cards:
        return cards[wanted]
    ref = services_of(interaction).cards.resolve(wanted, locale)
    if ref is None or ref.game != "hoss" or ref.card_id not in cards:
        raise card_not_found(value, services_of(interaction).cards.suggest(value, locale, game="hoss"))
    return cards[ref.card_id]


def hoss_refs(interaction: discord.Interaction[Any], current: str, locale: str, limit: int) -> list[HossCard]:
    """HOSS cards whose name matches what is typed, best matches first."""
    cards = hoss_of(interaction).collection.cards
    refs = services_of(interaction).cards.search(current, locale, limit=200)
    return [cards[r.card_id] for r in refs if r.game == "hoss" and r.card_id in cards][:limit]
