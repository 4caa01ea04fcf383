"""An admin's reset of a player's Chocobataille progress (`GameSpec.reset`): cards, galleons, decks and
league results. The character names chosen per server stay: they are not progress."""

from __future__ import annotations

from datetime import datetime

from services.choco.economy import CURRENCY, GAME_KEY
from services.infra.games import ResetReport
from services.shared.reset import reset_progress
from store.connection import Connection

PROGRESS_TABLES = ("choco_decks", "choco_results")


def reset(conn: Connection, now: datetime, player_id: int) -> ResetReport:
    return reset_progress(conn, now, player_id, game=GAME_KEY, currencies=(CURRENCY,), tables=PROGRESS_TABLES)
