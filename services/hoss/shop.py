"""Buying HOSS boosters and opening them: the purchase, the face-down cards, flipping, selling on the spot.

A purchase of 1 to 10 boosters is ONE write unit under the interaction's idempotency key: the guarded debit
of the whole price, then per booster an opening row; the first booster's six copies are minted there
(ledger reason `hoss.booster`, ref = the opening id), the others are stored sealed with their cards
drawn and minted when opened (services/hoss/sealed.py). A double click buys once and both clicks get the
same openings. The cards come from `engine.hoss.boosters.draw_booster`, fed by the `random.Random` given
to the service (seeded in tests; in production a generator seeded from the operating system's entropy
for each purchase, `purchase_generator`); every booster of the purchase is
drawn inside its unit, in the single writer's thread, because which boosters the player may buy depends on
the rank progress read in the same transaction.

Flipping is idempotent per position: a button carries the position it reveals, and the conditional UPDATE
(`... AND flipped = 0`) makes a second click a no-op. Decisions are in docs/hoss/economy.md.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from core.clock import Clock, to_db
from core.errors import BadInput, NotAllowed, NotFound
from core.message_guard import echo
from engine.hoss import (
    CARDS_PER_BOOSTER,
    MAX_BOOSTERS_PER_PURCHASE,
    RACE_BOOSTER_UNLOCK_WINS,
    RACES,
    RARITIES,
    TIERS,
    BoosterPool,
    CreatureCard,
    HossCatalog,
    OddsTable,
    Race,
    Rarity,
    booster_price,
    draw_booster,
    highest_unlocked_rank,
    odds_table,
    race_booster_unlocked,
    sale_price,
    unlocked_tiers,
)
from services.hoss.collection import HossCard, owned_copies
from services.hoss.gold import CURRENCY, GOLD
from services.hoss.sale import SaleResult, sell_unit
from services.hoss.sealed import REASON_BOOSTER, drawn_cards, mint_opening, seal, unseal
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.ledger import CARDS_TOPIC
from services.infra.players import ensure_player
from services.shared.shop import check_count, purchase_once
from store.connection import Connection
from store.db import Database, announce


@dataclass(frozen=True)
class OpeningCard:
    """One slot of an opening. A face-down slot hides what it holds: only its position is known."""

    position: int
    flipped: bool
    copy_id: int | None = None
    card: HossCard | None = None
    rarity: Rarity | None = None
    holo: bool | None = None
    owned: bool | None = None  # False once sold (or sacrificed) after being flipped
    price: int | None = None


@dataclass(frozen=True)
class Opening:
    id: int
    kind: str  # "normal" or "race"
    race: str | None
    tier: int
    cards: tuple[OpeningCard, ...]
    sealed: bool = False  # bought and not opened yet: its copies are not minted (services/hoss/sealed.py)

    @property
    def next_position(self) -> int | None:
        """The next card to flip (cards are flipped in order), None when all are face up."""
        return next((c.position for c in self.cards if not c.flipped), None)


SEALED = tuple(
    OpeningCard(position, False) for position in range(CARDS_PER_BOOSTER)
)  # a sealed booster's slots


@dataclass(frozen=True)
class Purchase:
    count: int
    race: str | None  # None for normal boosters
    tier: int
    price: int  # per booster
    total: int
    balance: int  # gold after the purchase
    openings: tuple[Opening, ...]
    replayed: bool  # True when this answers a repeated click with the first click's purchase


@dataclass(frozen=True)
class FlipResult:
    opening: Opening
    flipped: tuple[int, ...]  # positions this call turned face up (empty for a repeated click)
    starter_slot: int | None = None  # the slot of the first deck these cards made possible, built now


CONFIRM_FROM: Rarity = "argent"  # from a booster, a card this rare or rarer is sold only once confirmed


def needs_confirmation(rarity: Rarity) -> bool:
    return RARITIES.index(rarity) >= RARITIES.index(CONFIRM_FROM)


@dataclass(frozen=True)
class SaleToConfirm:
    """A sale from a booster waiting for its confirmation: nothing was sold."""

    opening_id: int
    position: int
    card: HossCard
    rarity: Rarity
    price: int


@dataclass(frozen=True)
class ShopOffer:
    """What `/hoss shop` shows before buying."""

    balance: int
    tier: int  # the highest unlocked booster, the default of a purchase
    price: int
    unlocked: tuple[int, ...]  # every booster the player may choose: Rang 1 up to `tier`
    race_unlocked: bool
    race_price: int
    rank1_wins: int
    race_unlock_wins: int
    max_count: int


def rank_wins(conn: Connection, player_id: int) -> dict[int, int]:
    rows = conn.execute("SELECT rank, wins FROM hoss_rank_progress WHERE player_id = ?", (player_id,))
    return {int(rank): int(wins) for rank, wins in rows}


def load_openings(conn: Connection, cards: dict[str, HossCard], opening_ids: list[int]) -> list[Opening]:
    """The openings in the order asked, their slots in position order; face-down slots masked."""
    if not opening_ids:
        return []
    marks = ",".join("?" * len(opening_ids))
    heads = {
        int(row[0]): row
        for row in conn.execute(
            f"SELECT id, kind, race, tier, player_id, sealed IS NOT NULL FROM hoss_openings WHERE id IN ({marks})",
            opening_ids,
        )
    }
    slots: dict[int, list[OpeningCard]] = {i: list(SEALED) if head[5] else [] for i, head in heads.items()}
    for opening_id, position, copy_id, flipped, key, attrs, owner in conn.execute(
        "SELECT oc.opening_id, oc.position, oc.card_id, oc.flipped, c.card_key, c.attrs, c.owner_id"
        " FROM hoss_opening_cards oc JOIN cards c ON c.id = oc.card_id"
        f" WHERE oc.opening_id IN ({marks}) ORDER BY oc.opening_id, oc.position",
        opening_ids,
    ):
        if not flipped:
            slots[opening_id].append(OpeningCard(position, False))
            continue
        a = json.loads(attrs)
        card = cards.get(key)
        rank = card.rank if isinstance(card, CreatureCard) else None
        holo = bool(a.get("holo"))
        rarity = cast(Rarity, a.get("rarity", "basique"))
        slots[opening_id].append(
            OpeningCard(
                position=position,
                flipped=True,
                copy_id=copy_id,
                card=card,
                rarity=rarity,
                holo=holo,
                owned=owner is not None and owner == heads[opening_id][4],
                price=sale_price(rarity, rank, holo),
            )
        )
    return [
        Opening(i, h[1], h[2], int(h[3]), tuple(slots[i]), bool(h[5]))
        for i in opening_ids
        if (h := heads.get(i))
    ]


def _own_opening(conn: Connection, player_id: int, opening_id: int) -> None:
    row = conn.execute("SELECT player_id FROM hoss_openings WHERE id = ?", (opening_id,)).fetchone()
    if row is None or row[0] != player_id:
        raise NotFound("hoss.error.shop.opening_not_found")


def _check_position(position: int) -> None:
    if position not in range(CARDS_PER_BOOSTER):
        raise BadInput("hoss.error.shop.position", maximum=CARDS_PER_BOOSTER)


def waiting_ids(conn: Connection, player_id: int) -> list[int]:
    """The player's boosters still sealed or holding face-down cards, oldest first."""
    rows = conn.execute(
        "SELECT o.id FROM hoss_openings o WHERE o.player_id = ? AND (o.sealed IS NOT NULL OR EXISTS"
        " (SELECT 1 FROM hoss_opening_cards oc WHERE oc.opening_id = o.id AND oc.flipped = 0)) ORDER BY o.id",
        (player_id,),
    )
    return [int(row[0]) for row in rows]


def _face_down(conn: Connection, opening_id: int) -> list[int]:
    rows = conn.execute(
        "SELECT position FROM hoss_opening_cards WHERE opening_id = ? AND flipped = 0 ORDER BY position",
        (opening_id,),
    )
    return [int(row[0]) for row in rows]


def _bought(opening_ids: list[int], race: str | None, tier: int) -> list[Opening]:
    """A purchase's openings as its unit left them: every slot face down, the first booster minted."""
    kind = "normal" if race is None else "race"
    return [Opening(i, kind, race, tier, SEALED, index > 0) for index, i in enumerate(opening_ids)]


# DeckService.starter_in: a new player's first deck, built inside the unit that turned their cards over.
Starter = Callable[[Connection, datetime, int], int | None]


SEED_BITS = 256  # a purchase's seed, from the operating system's entropy


def purchase_generator(rng: random.Random) -> random.Random:
    """The generator one purchase draws its boosters from: given the OS's generator (`SystemRandom`,
    production), a `random.Random` seeded once with `SEED_BITS` bits of it; a seeded one (tests, the
    sandbox) as it is, so that a seed still gives the cards it gave.

    `SystemRandom` asks the kernel for every draw (322 `getrandom` calls for ten boosters, about 0.2 ms of
    the writer's thread); the seed is one. Every purchase's draws stay unpredictable: the
    seed is 256 bits of the OS's entropy, drawn when the unit runs, never stored nor shown, and a new one
    for each purchase, so what one purchase shows says nothing of the next (docs/hoss/economy.md, "The
    generator of a purchase")."""
    if isinstance(rng, random.SystemRandom):
        return random.Random(rng.getrandbits(SEED_BITS))
    return rng


class HossShop:
    """Boosters: odds, prices, purchase, opening, flipping, selling a flipped card on the spot."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        catalog: HossCatalog,
        rng: random.Random,
        starter: Starter | None = None,
        *,
        registry: GameRegistry,
    ) -> None:
        self.registry = registry
        self.db = db
        self.starter = starter  # builds a new player's first deck once their cards make one
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # used only inside write units, i.e. only by the writer's thread
        self.pool = BoosterPool.of(catalog)
        self.cards: dict[str, HossCard] = {card.id: card for card in catalog.cards}

    @staticmethod
    def odds() -> OddsTable:
        """Rarity and holo odds, and each tier's rank odds and prices, for `/hoss odds`."""
        return odds_table()

    async def offer(self, player_id: int) -> ShopOffer:
        def unit(conn: Connection) -> ShopOffer:
            wins = rank_wins(conn, player_id)
            tier = highest_unlocked_rank(wins)
            return ShopOffer(
                balance=ledger.balance(conn, player_id, GOLD),
                tier=tier,
                price=booster_price(tier),
                unlocked=tuple(unlocked_tiers(wins)),
                race_unlocked=race_booster_unlocked(wins),
                race_price=booster_price(tier, race=True),
                rank1_wins=wins.get(1, 0),
                race_unlock_wins=RACE_BOOSTER_UNLOCK_WINS,
                max_count=MAX_BOOSTERS_PER_PURCHASE,
            )

        return await self.db.read(unit)

    async def buy(
        self, player_id: int, count: int, *, key: str | int, race: str | None = None, tier: int | None = None
    ) -> Purchase:
        """Buy `count` boosters (1..10) of `tier`, any booster the player has unlocked (their highest when
        None); `race` makes them race boosters."""
        check_count(count, MAX_BOOSTERS_PER_PURCHASE, "hoss.error.shop.count")
        if race is not None and race not in RACES:
            raise BadInput("hoss.error.shop.unknown_race", race=echo(race))
        if tier is not None and (isinstance(tier, bool) or not isinstance(tier, int) or tier not in TIERS):
            raise BadInput("hoss.error.shop.tier", minimum=min(TIERS), maximum=max(TIERS))
        now = self.clock.now()
        purchase_key = str(key)

        def unit(conn: Connection) -> Purchase:
            ensure_player(conn, player_id, now, self.registry)
            stored, replayed = purchase_once(
                conn,
                now,
                player_id,
                f"hoss:buy:{purchase_key}",
                lambda: self._purchase(conn, now, player_id, count, race, tier, purchase_key),
            )
            ids: list[int] = stored["openings"]
            # a fresh purchase's boosters are all face down, the first minted and the others sealed, so
            # the reply needs no read; a replayed one may have been opened since the first click
            openings = (
                load_openings(conn, self.cards, ids)
                if replayed
                else _bought(ids, stored["race"], stored["tier"])
            )
            return Purchase(
                count=len(openings),
                race=stored["race"],
                tier=stored["tier"],
                price=stored["price"],
                total=stored["total"],
                balance=stored["balance"],
                openings=tuple(openings),
                replayed=replayed,
            )

        return await self.db.write(unit)

    def _purchase(
        self,
        conn: Connection,
        now: datetime,
        player_id: int,
        count: int,
        race: str | None,
        asked: int | None,
        key: str,
    ) -> dict[str, Any]:
        wins = rank_wins(conn, player_id)
        if race is not None and not race_booster_unlocked(wins):
            raise NotAllowed(
                "hoss.error.shop.race_locked", wins=wins.get(1, 0), needed=RACE_BOOSTER_UNLOCK_WINS
            )
        unlocked = unlocked_tiers(wins)
        tier = unlocked[-1] if asked is None else asked
        if tier not in unlocked:
            raise NotAllowed("hoss.error.shop.tier_locked", tier=tier, highest=unlocked[-1])
        price = booster_price(tier, race=race is not None)
        balance = ledger.debit(
            conn, now, player_id, CURRENCY, price * count, ledger.Movement(REASON_BOOSTER, ref=key)
        )
        chosen = cast(Race | None, race)  # checked against RACES before the unit
        rng = purchase_generator(self.rng)
        drawn = [draw_booster(self.pool, rng, tier, chosen) for _ in range(count)]
        kind, created = "normal" if race is None else "race", to_db(now)
        rows = [
            (player_id, key, index, kind, race, tier, created, None if index == 0 else seal(cards))
            for index, cards in enumerate(drawn)
        ]
        inserted = conn.execute(  # one statement for the lot: its ids in booster order
            "INSERT INTO hoss_openings"
            " (player_id, purchase_key, booster_index, kind, race, tier, created_at, sealed)"
            f" VALUES {', '.join(['(?, ?, ?, ?, ?, ?, ?, ?)'] * len(rows))} RETURNING id, booster_index",
            [value for row in rows for value in row],
        ).fetchall()
        opening_ids = [int(i) for i, _ in sorted(inserted, key=lambda row: int(row[1]))]
        # the first booster is shown at once: its cards are the player's now
        mint_opening(conn, now, player_id, opening_ids[0], drawn_cards(drawn[0]))
        return {
            "player": player_id,
            "openings": opening_ids,
            "race": race,
            "tier": tier,
            "price": price,
            "total": price * count,
            "balance": balance,
        }

    async def opening(self, player_id: int, opening_id: int) -> Opening:
        def unit(conn: Connection) -> Opening:
            _own_opening(conn, player_id, opening_id)
            return load_openings(conn, self.cards, [opening_id])[0]

        return await self.db.read(unit)

    async def unopened(self, player_id: int) -> list[Opening]:
        """The player's openings still sealed or holding face-down cards, oldest first."""
        return await self.db.read(lambda conn: load_openings(conn, self.cards, waiting_ids(conn, player_id)))

    async def open_next(self, player_id: int, after: int | None = None) -> Opening | None:
        """The player's oldest booster still to open or flip, other than `after` (the one on screen),
        opened (its copies minted) if it was sealed; None when none waits. Many clicks at once open it
        once and all show it."""
        now = self.clock.now()

        def unit(conn: Connection) -> Opening | None:
            found = next((i for i in waiting_ids(conn, player_id) if i != after), None)
            if found is None:
                return None
            if unseal(conn, now, player_id, found):
                announce(conn, CARDS_TOPIC, str(player_id))
            return load_openings(conn, self.cards, [found])[0]

        return await self.db.write(unit)

    def _starter(
        self, conn: Connection, now: datetime, player_id: int, turned: tuple[int, ...]
    ) -> int | None:
        return self.starter(conn, now, player_id) if turned and self.starter is not None else None

    async def flip(self, player_id: int, opening_id: int, position: int | None = None) -> FlipResult:
        """Turn the next face-down card. With `position` (what a button carries), a repeated click on an
        already flipped card changes nothing; flipping out of order is refused (the rulebook's promise
        that the next card is at least as rare holds only in order)."""
        if position is not None:
            _check_position(position)
        now = self.clock.now()

        def unit(conn: Connection) -> FlipResult:
            _own_opening(conn, player_id, opening_id)
            unseal(conn, now, player_id, opening_id)
            down = _face_down(conn, opening_id)
            target = down[0] if position is None and down else position
            turned: tuple[int, ...] = ()
            if target is not None and target in down:
                if target != down[0]:
                    raise NotAllowed("hoss.error.shop.flip_order", position=down[0] + 1)
                cursor = conn.execute(
                    "UPDATE hoss_opening_cards SET flipped = 1 WHERE opening_id = ? AND position = ? AND flipped = 0",
                    (opening_id, target),
                )
                turned = (target,) if cursor.rowcount == 1 else ()
                announce(conn, CARDS_TOPIC, str(player_id))  # a face-up copy joins the collection's pages
            return FlipResult(
                load_openings(conn, self.cards, [opening_id])[0],
                turned,
                self._starter(conn, now, player_id, turned),
            )

        return await self.db.write(unit)

    async def flip_all(self, player_id: int, opening_id: int) -> FlipResult:
        now = self.clock.now()

        def unit(conn: Connection) -> FlipResult:
            _own_opening(conn, player_id, opening_id)
            unseal(conn, now, player_id, opening_id)
            down = _face_down(conn, opening_id)
            conn.execute(
                "UPDATE hoss_opening_cards SET flipped = 1 WHERE opening_id = ? AND flipped = 0",
                (opening_id,),
            )
            turned = tuple(down)
            announce(conn, CARDS_TOPIC, str(player_id))
            return FlipResult(
                load_openings(conn, self.cards, [opening_id])[0],
                turned,
                self._starter(conn, now, player_id, turned),
            )

        return await self.db.write(unit)

    async def sell_from_opening(
        self, player_id: int, opening_id: int, position: int, *, key: str | int, confirmed: bool = False
    ) -> SaleResult | SaleToConfirm:
        """Sell a flipped card straight from the opening, through the sale service's own unit (same rules:
        unlocked, the six Rang 1 floor, idempotent per key); a face-down card cannot be sold. A card of
        `CONFIRM_FROM` or rarer is sold only `confirmed`: otherwise nothing changes and the answer is
        what the confirmation must show (one pick in a select is easy to make by mistake)."""
        _check_position(position)
        now = self.clock.now()

        def unit(conn: Connection) -> SaleResult | SaleToConfirm:
            _own_opening(conn, player_id, opening_id)
            row = conn.execute(
                "SELECT card_id, flipped FROM hoss_opening_cards WHERE opening_id = ? AND position = ?",
                (opening_id, position),
            ).fetchone()
            if row is None or not row[1]:  # no row: a sealed booster, all six still face down
                raise NotAllowed("hoss.error.card.face_down")
            copy_id = int(row[0])
            if not confirmed:
                copy = next(iter(owned_copies(conn, self.cards, player_id, [copy_id])), None)
                if copy is not None and needs_confirmation(copy.rarity):
                    return SaleToConfirm(opening_id, position, copy.card, copy.rarity, copy.price)
            return sell_unit(conn, now, self.cards, player_id, [copy_id], str(key))

        return await self.db.write(unit)
