"""Chocobataille's economy on the platform: its currency, its leagues, and the services built from them.

The galleon wallet and the league tables (which rarities each league allows, which colour its win pays)
live here, below the four economy services (shop, collection, decks, leagues) that share them; the game's
facade (`services/choco/__init__.py`, `EconomyServices`) builds those. Decisions: docs/choco/economy.md.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import datetime
from typing import Literal

from core.errors import BadInput
from engine.choco import Rarity
from services.platform import ledger
from services.platform.games import Currency

GAME_KEY = "choco"
CHOCO_GOLD = "choco_gold"
STARTING_GOLD = 1500
CURRENCY = Currency(CHOCO_GOLD, "choco.gold", starting=STARTING_GOLD, earn_key="choco.guide.earn")
STARTING_GRANT = "starting_grant"  # the platform's reason for starting wallets (services.platform.players)

League = Literal["bronze", "argent", "or"]
LEAGUES: tuple[League, ...] = ("bronze", "argent", "or")
# Rulebook VI: the cards a league allows, and the colour of the card its win gives.
ALLOWED_RARITIES: Mapping[League, frozenset[Rarity]] = {
    "bronze": frozenset({"bronze_1", "bronze_2"}),
    "argent": frozenset({"bronze_1", "bronze_2", "argent_1", "argent_2"}),
    "or": frozenset({"bronze_1", "bronze_2", "argent_1", "argent_2", "or_1", "or_2"}),
}
REWARD_RARITIES: Mapping[League, tuple[Rarity, ...]] = {
    "bronze": ("bronze_1", "bronze_2"),
    "argent": ("argent_1", "argent_2"),
    "or": ("or_1", "or_2"),
}
LEAGUE_KEYS: Mapping[str, str] = {
    "bronze": "choco.league.bronze",
    "argent": "choco.league.argent",
    "or": "choco.league.or",
}


def league_of(value: str) -> League:
    """A league name from untrusted input (an option, a custom id)."""
    for league in LEAGUES:
        if league == value:
            return league
    raise BadInput("choco.error.league", league=value)


def ensure_wallet(conn: sqlite3.Connection, now: datetime, player_id: int) -> None:
    """Grant the starting galleons to a player created before Chocobataille declared its currency.

    New players get them from `ensure_player` (the registered currency); an older player has no
    starting-grant row for galleons yet, so the first Chocobataille use grants it, once (the check and
    the credit are in the caller's write unit)."""
    row = conn.execute(
        "SELECT 1 FROM ledger WHERE player_id = ? AND currency = ? AND reason = ? LIMIT 1",
        (player_id, CHOCO_GOLD, STARTING_GRANT),
    ).fetchone()
    if row is None:
        ledger.credit(conn, now, player_id, CHOCO_GOLD, STARTING_GOLD, ledger.Movement(STARTING_GRANT))
