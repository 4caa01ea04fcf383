"""An admin's reset of a player's Pillz progress (`GameSpec.reset`): characters, coins, decks, rating;
and what erasing a player (`GameSpec.anonymise`) needs beyond the platform's generic rules.

The profile row goes too, so the next use gives the starter deck again, as to a new player; the friendly
results stay (their opponents' daily reward counts read them).
"""

from __future__ import annotations

from datetime import datetime

from services.infra.games import ResetReport
from services.pillz.economy import CURRENCY, GAME_KEY
from services.shared.reset import reset_progress
from store.connection import Connection

PROGRESS_TABLES = ("pillz_decks", "pillz_profiles")


def reset(conn: Connection, now: datetime, player_id: int) -> ResetReport:
    return reset_progress(conn, now, player_id, game=GAME_KEY, currencies=(CURRENCY,), tables=PROGRESS_TABLES)


def anonymise(conn: Connection, player_id: int, anonymous: int) -> None:
    """A friendly result keeps its pair ordered (`pair_low < pair_high`): the anonymous id, negative, is
    below every other, so it becomes the pair's low end."""
    conn.execute(
        "UPDATE pillz_friend_results SET pair_low = ?,"
        " pair_high = CASE WHEN pair_low = ? THEN pair_high ELSE pair_low END"
        " WHERE pair_low = ? OR pair_high = ?",
        (anonymous, player_id, player_id, player_id),
    )
