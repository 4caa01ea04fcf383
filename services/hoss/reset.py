"""An admin's reset of a player's HOSS progress (`GameSpec.reset`): copies, sealed boosters, gold, decks,
ranks, notices.

Refused while the player is registered in an open arena season or has an attack drawn there: the
season holds their two decks (and locks their copies) until it closes.
"""

from __future__ import annotations

from datetime import datetime

from core.errors import NotAllowed
from services.hoss.gold import CURRENCY
from services.hoss.sealed import drop_sealed
from services.infra.games import ResetReport
from services.shared.reset import reset_progress
from store.connection import Connection

# Rows of the player's own progress; the arena's and raffles' rows are the servers' records.
PROGRESS_TABLES = ("hoss_decks", "hoss_profiles", "hoss_rank_progress", "hoss_notices")


def reset(conn: Connection, now: datetime, player_id: int) -> ResetReport:
    in_arena = conn.execute(
        "SELECT COUNT(*) FROM hoss_arena_entries JOIN hoss_arena_seasons"
        " ON hoss_arena_seasons.guild_id = hoss_arena_entries.guild_id"
        " AND hoss_arena_seasons.season = hoss_arena_entries.season"
        " WHERE hoss_arena_entries.player_id = ? AND hoss_arena_seasons.status = 'open'",
        (player_id,),
    ).fetchone()[0]
    if in_arena:
        raise NotAllowed("admin.reset.busy")
    drop_sealed(conn, player_id)
    return reset_progress(conn, now, player_id, game="hoss", currencies=(CURRENCY,), tables=PROGRESS_TABLES)
