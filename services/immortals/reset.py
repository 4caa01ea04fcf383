"""An admin's reset of a player's Immortal's War progress (`GameSpec.reset`): units, gold, fragments,
deck, spells, XP and combat points.

The profile and spell rows go, so the next use gives the sign-up army and the starter spells again, as
to a new player; the duel results stay (their opponents' anti-farm history reads them), and so do the
XP rows of the destroyed copies (a destroyed copy is never played again).
"""

from __future__ import annotations

from datetime import datetime

from services.immortals.economy import CURRENCIES, GAME_KEY
from services.infra.games import ResetReport
from services.shared.reset import reset_progress
from store.connection import Connection

PROGRESS_TABLES = ("immortals_spells", "immortals_profiles")


def reset(conn: Connection, now: datetime, player_id: int) -> ResetReport:
    return reset_progress(conn, now, player_id, game=GAME_KEY, currencies=CURRENCIES, tables=PROGRESS_TABLES)
