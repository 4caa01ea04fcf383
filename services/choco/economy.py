"""Chocobataille's economy on the platform: its currency, its leagues, and the services built from them.

The galleon wallet and the league tables (which rarities each league allows, which colour its win pays)
live here, below the four economy services (shop, collection, decks, leagues) that share them; the game's
facade (`services/choco/__init__.py`, `EconomyServices`) builds those. Decisions: docs/choco/economy.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Literal

from core.errors import BadInput
from core.message_guard import echo
from engine.choco import Rarity
from services.infra.games import Currency
from services.infra.players import ensure_starting_grant
from store.connection import Connection

GAME_KEY = "choco"
CHOCO_GOLD = "choco_gold"
STARTING_GOLD = 1500
CURRENCY = Currency(CHOCO_GOLD, "choco.gold", starting=STARTING_GOLD, earn_key="choco.guide.earn")

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
    raise BadInput("choco.error.league", league=echo(value))


def ensure_wallet(conn: Connection, now: datetime, player_id: int) -> None:
    """The starting galleons of a player created before Chocobataille declared its currency."""
    ensure_starting_grant(conn, now, player_id, CURRENCY)
