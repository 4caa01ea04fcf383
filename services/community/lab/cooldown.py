"""The lab's per-player cooldown, kept in the database (`lab_cooldowns`, one row per player).

Stored rather than held in memory so that a restart or a second process does not reset it; read and
claimed in one write unit, so two labs asked at once cannot both pass. Decision: one cooldown for every
game's lab (the pool is shared: a player cannot run four labs by asking each game).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from core.clock import from_db, to_db
from core.errors import NotAllowed
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from store.connection import Connection

COOLDOWN = timedelta(seconds=30)


def claim(
    conn: Connection, now: datetime, registry: GameRegistry, player_id: int, cooldown: timedelta = COOLDOWN
) -> None:
    """Start the player's cooldown now, or refuse with the seconds left. Call in a write unit."""
    ensure_player(conn, player_id, now, registry)
    row = conn.execute("SELECT ready_at FROM lab_cooldowns WHERE player_id = ?", (player_id,)).fetchone()
    if row is not None:
        left = (from_db(row[0]) - now).total_seconds()
        if left > 0:
            raise NotAllowed("lab.error.cooldown", seconds=math.ceil(left))
    conn.execute(
        "INSERT INTO lab_cooldowns (player_id, ready_at) VALUES (?, ?) "
        "ON CONFLICT (player_id) DO UPDATE SET ready_at = excluded.ready_at",
        (player_id, to_db(now + cooldown)),
    )
