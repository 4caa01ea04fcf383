"""Immortal's War on the platform: its two currencies, the player's profile, the sign-up gift, and what
every service of the game reads about a player's copies (their experience and level) and spells.

Copies of one unit are not interchangeable here: each copy has its own experience (`immortals_card_xp`),
so a deck stores copy ids (`cards.id`), and the level of a copy follows from its experience through the
catalog's table (`level_of`). Every service calls `ensure_starter` in its write unit, so the player's
first Immortal's War action of any kind gives the sign-up gift exactly once: the profile row's
`starter_given` marker is claimed by a conditional UPDATE in the same unit as the minting. Decisions:
docs/immortals/economy.md.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from core.clock import Clock, to_db
from engine.immortals import ImmortalsCard, ImmortalsCatalog, level_of, starter_deck, starter_spells
from services.infra import ledger
from services.infra.games import Currency, GameRegistry
from services.infra.players import ensure_player, summary_changed
from store.connection import Connection
from store.db import Database

GAME_KEY = "immortals"
GOLD = "immortals_gold"
FRAGMENTS = "immortals_fragments"
STARTING_GOLD = 100
GOLD_CURRENCY = Currency(GOLD, "immortals.gold", starting=STARTING_GOLD, earn_key="immortals.guide.earn_gold")
FRAGMENTS_CURRENCY = Currency(FRAGMENTS, "immortals.fragments", earn_key="immortals.guide.earn_fragments")
CURRENCIES = (GOLD_CURRENCY, FRAGMENTS_CURRENCY)
STARTING_GRANT = "starting_grant"  # the platform's reason for starting wallets (services.infra.players)
REASON_STARTER = "immortals.reason.starter"


@dataclass(frozen=True)
class Copy:
    """One owned copy of a unit: its row in `cards`, its catalog card, its experience and level."""

    copy_id: int
    card: ImmortalsCard
    xp: int
    level: int


def ensure_wallet(conn: Connection, now: datetime, player_id: int) -> None:
    """Grant the starting gold to a player created before the game declared its currency (once)."""
    row = conn.execute(
        "SELECT 1 FROM ledger WHERE player_id = ? AND currency = ? AND reason = ? LIMIT 1",
        (player_id, GOLD, STARTING_GRANT),
    ).fetchone()
    if row is None:
        ledger.credit(conn, now, player_id, GOLD, STARTING_GOLD, ledger.Movement(STARTING_GRANT))


def ensure_profile(conn: Connection, now: datetime, registry: GameRegistry, player_id: int) -> None:
    ensure_player(conn, player_id, now, registry)
    ensure_wallet(conn, now, player_id)
    created = conn.execute(
        "INSERT INTO immortals_profiles (player_id, created_at) VALUES (?, ?) ON CONFLICT (player_id) DO NOTHING",
        (player_id, to_db(now)),
    )
    if created.rowcount == 1:  # the profile's Immortal's War line appears
        summary_changed(conn, player_id)


def store_deck(conn: Connection, player_id: int, copies: Sequence[int]) -> None:
    conn.execute(
        "UPDATE immortals_profiles SET deck = ? WHERE player_id = ?", (json.dumps(list(copies)), player_id)
    )


def learn(conn: Connection, now: datetime, player_id: int, spell_id: str) -> bool:
    """The player knows `spell_id` from now on; False when they already did."""
    cursor = conn.execute(
        "INSERT INTO immortals_spells (player_id, spell, learned_at) VALUES (?, ?, ?)"
        " ON CONFLICT (player_id, spell) DO NOTHING",
        (player_id, spell_id, to_db(now)),
    )
    return cursor.rowcount == 1


def ensure_starter(
    conn: Connection,
    now: datetime,
    registry: GameRegistry,
    player_id: int,
    catalog: ImmortalsCatalog,
    rng: random.Random,
) -> list[str] | None:
    """The sign-up gift, once: 8 units of 8 families (the engine's draw) minted through the ledger (reason
    `immortals.starter`) and saved as the deck, and the starter spells. Returns the unit ids when given by
    this call, None when the player already had them."""
    ensure_profile(conn, now, registry, player_id)
    claimed = conn.execute(
        "UPDATE immortals_profiles SET starter_given = 1 WHERE player_id = ? AND starter_given = 0",
        (player_id,),
    )
    if claimed.rowcount != 1:
        return None
    cards = starter_deck(catalog, rng)
    why = ledger.Movement(REASON_STARTER, ref=str(player_id))
    copies = [ledger.mint_card(conn, now, player_id, GAME_KEY, card, why) for card in cards]
    store_deck(conn, player_id, copies)
    for spell in starter_spells(catalog):
        learn(conn, now, player_id, spell)
    return cards


def owned_copies(
    conn: Connection,
    player_id: int,
    catalog: ImmortalsCatalog,
    only: Sequence[int] | None = None,
) -> dict[int, Copy]:
    """The player's copies (all, or those of `only` they still own) by copy id, with XP and level."""
    rows = conn.execute(
        "SELECT c.id, c.card_key, COALESCE(x.xp, 0) FROM cards c LEFT JOIN immortals_card_xp x ON x.card_id = c.id"
        " WHERE c.owner_id = ? AND c.game = ? ORDER BY c.id",
        (player_id, GAME_KEY),
    ).fetchall()
    wanted = None if only is None else set(only)
    cards = catalog.cards_by_id()
    found: dict[int, Copy] = {}
    for copy_id, key, xp in rows:
        card = cards.get(str(key))
        if card is None or (wanted is not None and int(copy_id) not in wanted):
            continue
        found[int(copy_id)] = Copy(int(copy_id), card, int(xp), level_of(int(xp), catalog.level_xp))
    return found


def saved_deck(conn: Connection, player_id: int) -> list[int]:
    row = conn.execute("SELECT deck FROM immortals_profiles WHERE player_id = ?", (player_id,)).fetchone()
    if row is None or row[0] is None:
        return []
    return [int(c) for c in json.loads(row[0])]


def known_spells(conn: Connection, player_id: int, catalog: ImmortalsCatalog) -> list[str]:
    """The ids of the spells the player knows, in catalog order (a spell the catalog lost is skipped)."""
    rows = conn.execute("SELECT spell FROM immortals_spells WHERE player_id = ?", (player_id,)).fetchall()
    known = {str(r[0]) for r in rows}
    return [s.id for s in catalog.spells if s.id in known]


class ImmortalsService:
    """What every Immortal's War economy service holds; `welcome` is the first step of its write units."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        catalog: ImmortalsCatalog,
        rng: random.Random,
        *,
        registry: GameRegistry,
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # used only inside write units, i.e. only by the writer's thread
        self.cards: Mapping[str, ImmortalsCard] = catalog.cards_by_id()

    def welcome(self, conn: Connection, now: datetime, player_id: int) -> list[str] | None:
        return ensure_starter(conn, now, self.registry, player_id, self.catalog, self.rng)
