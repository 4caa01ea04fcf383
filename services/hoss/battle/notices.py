"""A player's milestone notices of ranked battles: each pays its gold once, when claimed, and is read with
the battle's number players see."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from store.connection import Connection


@dataclass(frozen=True)
class Notice:
    id: int
    kind: str  # 'milestone'
    rank: int
    wins: int
    gold: int
    battle_id: int | None


@dataclass(frozen=True)
class Claim:
    notice: Notice
    credited: bool  # False when it had been claimed already
    balance: int


def notice_of(row: sqlite3.Row) -> Notice:
    return Notice(
        int(row["id"]), row["kind"], int(row["rank"]), int(row["wins"]), int(row["gold"]), row["battle_id"]
    )


# A notice names its battle's match; players see the battle's number.
NOTICES = "SELECT n.*, m.number AS battle_id FROM hoss_notices n LEFT JOIN matches m ON m.id = n.match_id"


def pending(conn: Connection, player_id: int) -> list[Notice]:
    rows = conn.execute(
        f"{NOTICES} WHERE n.player_id = ? AND n.claimed_at IS NULL ORDER BY n.id", (player_id,)
    )
    return [notice_of(row) for row in rows]
