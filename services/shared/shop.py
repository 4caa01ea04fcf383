"""One idempotent pack purchase, the same way in every game's shop.

A purchase is ONE write unit under the interaction's idempotency key: the guarded debit of the whole
price, then the minted copies (`services.infra.ledger`), stored with the key. A double click buys once
and both clicks get the first click's cards (`replayed`); the same key from another player is refused.
The count is checked before the unit, with the game's own message.

What a purchase gives (`Purchase`: packs of minted cards, a Chocobataille frog being a pack of one card)
and what the odds page shows (`Odds`: the price, each tier's chance per card drawn, the reader's balance)
are one type for every game that sells packs: a tier is what the game's odds are told by (a Pillz
character's stars, a Dinocard or Chocobataille rarity). HOSS's boosters are opened card by card
(`services/hoss/shop.py`), and keep their own types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from core.errors import BadInput, NotAllowed
from engine.cards import CardBase
from services.infra import ledger
from store.connection import Connection
from store.idempotency import once

C = TypeVar("C", bound=CardBase)
K = TypeVar("K")  # what a game's odds are told by: a rarity, a number of stars
R = TypeVar("R", bound="TierOdds[Any]")  # a tier's row: `TierOdds`, or a game's with a figure of its own


@dataclass(frozen=True)
class MintedCard(Generic[C]):
    """One copy a purchase gave: its row in `cards` and the catalog card."""

    copy_id: int  # cards.id
    card: C


@dataclass(frozen=True)
class Purchase(Generic[C]):
    count: int  # packs
    price: int  # per pack
    total: int
    balance: int  # the currency after the purchase
    packs: tuple[tuple[MintedCard[C], ...], ...]  # in opening order
    replayed: bool  # True when this answers a repeated click with the first click's purchase

    @property
    def cards(self) -> tuple[MintedCard[C], ...]:
        """Every card the packs gave, in opening order."""
        return tuple(card for pack in self.packs for card in pack)


@dataclass(frozen=True)
class TierOdds(Generic[K]):
    tier: K
    per_mille: int  # the chance that a card drawn is of this tier
    cards: int  # how many catalog cards share these odds


@dataclass(frozen=True)
class Odds(Generic[R]):
    price: int  # per pack
    cards_per_pack: int
    max_count: int  # packs in one purchase
    tiers: tuple[R, ...]
    balance: int | None  # the reader's currency, when asked for a player


def check_count(count: int, maximum: int, error_key: str) -> int:
    """How many packs: an int from 1 to `maximum` (a bool is not a count), else `error_key`."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= maximum:
        raise BadInput(error_key, minimum=1, maximum=maximum)
    return count


def purchase_once(
    conn: Connection,
    now: datetime,
    player_id: int,
    idempotency_key: str,
    purchase: Callable[[], dict[str, Any]],
) -> tuple[dict[str, Any], bool]:
    """(what the purchase stored, replayed): `purchase` runs once per key and stores `player`; a second
    call with the key returns the stored result, refused when it is another player's."""
    stored, fresh = once(conn, idempotency_key, now, purchase)
    if stored["player"] != player_id:
        raise NotAllowed()
    return stored, not fresh


def mint_all(
    conn: Connection,
    now: datetime,
    player_id: int,
    game: str,
    card_ids: Iterable[str],
    why: ledger.Movement,
) -> list[list[Any]]:
    """Mint one copy per drawn card; `[copy id, card id]` pairs, in draw order, as a purchase stores them."""
    return [[ledger.mint_card(conn, now, player_id, game, card, why), card] for card in card_ids]


def minted(pairs: Iterable[list[Any]], cards: Mapping[str, C]) -> tuple[MintedCard[C], ...]:
    """The stored `[copy id, card id]` pairs of a purchase, with their catalog cards."""
    return tuple(MintedCard(int(copy), cards[card]) for copy, card in pairs)
