"""A player's finished battles, latest first: what `/hoss revoir` offers when no number is given, so a
player finds a battle to watch again without remembering its number (docs/hoss/ranked.md, "Replays")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from core.clock import from_db
from services.hoss.battle.battles import KIND, PLAYER, RULES
from store.connection import Connection

RECENT = 25  # a select's options at most


@dataclass(frozen=True)
class PastBattle:
    battle_id: int  # the battle's number
    rank: int
    status: str  # 'won', 'lost' or 'draw'
    arena: bool  # an Arena attack (its opponent is a defence, not a rank's AI)
    ended_at: datetime


def past_battles(conn: Connection, player_id: int, limit: int = RECENT) -> list[PastBattle]:
    """The battles `player_id` played and finished (ranked or Arena attacks), the latest first. Each is
    the player's own, so they may replay it wherever they ask (`replay.replayable`)."""
    rows = conn.execute(
        "SELECT m.number, m.data, m.result, m.ended_at, a.id FROM matches m"
        " JOIN match_seats s ON s.match_id = m.id AND s.seat = ? AND s.player_id = ?"
        " LEFT JOIN hoss_arena_attacks a ON a.battle_id = m.number"
        " WHERE m.game = ? AND m.kind = ? AND m.status = 'over' AND m.ended_at IS NOT NULL"
        " ORDER BY m.ended_at DESC, m.number DESC LIMIT ?",
        (PLAYER, player_id, RULES.game, KIND, limit),
    ).fetchall()
    return [
        PastBattle(
            int(number),
            int(json.loads(data)["rank"]),
            str(json.loads(result)["status"]),
            attack is not None,
            from_db(ended_at),
        )
        for number, data, result, ended_at, attack in rows
    ]
