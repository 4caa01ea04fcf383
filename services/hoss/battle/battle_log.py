"""The reads of a ranked battle's log: its rounds (and which the player viewed) and its decisions.

Kept apart from `battles` (the battle's rows and steps): the view, the board's edits, the controls and the
replay read a battle's log; the steps that play it write it there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import orjson

from engine.hoss import Record
from services.hoss.battle.battles import MATCHES, PLAYER, RULES, BattleRow, Decision
from services.shared.matches import Author
from store.connection import Connection


def _match_id(conn: Connection, battle_id: int) -> int | None:
    found = conn.execute(
        "SELECT id FROM matches WHERE game = ? AND number = ?", (RULES.game, battle_id)
    ).fetchone()
    return None if found is None else int(found[0])


def rounds(conn: Connection, battle_id: int, after: int = 0) -> list[Record]:
    return rounds_of(conn, _match_id(conn, battle_id), after)


def rounds_of(conn: Connection, match_id: int | None, after: int = 0) -> list[Record]:
    """`rounds` of a battle whose match the caller holds (a `BattleRow`): its number is not looked up."""
    rows = conn.execute(
        "SELECT record FROM hoss_battle_rounds WHERE match_id = ? AND round > ? ORDER BY round",
        (match_id, after),
    )
    return [orjson.loads(r[0]) for r in rows]


def viewed_up_to(conn: Connection, row: BattleRow) -> int:
    """The last round the player's view returned (0: none yet)."""
    sql = "SELECT COALESCE(MAX(round), 0) FROM hoss_battle_rounds WHERE match_id = ? AND viewed = 1"
    return int(conn.execute(sql, (row.match_id,)).fetchone()[0])


def newly_viewed(conn: Connection, row: BattleRow) -> list[Record]:
    """The rounds played since the player's previous view, marked viewed now."""
    new = rounds_of(conn, row.match_id, viewed_up_to(conn, row))
    if new:
        mark_viewed(conn, row, int(new[-1]["round"]))
    return new


def mark_viewed(conn: Connection, row: BattleRow, up_to: int) -> None:
    """The player's view returned the rounds up to `up_to` (no save: looking changes no version)."""
    conn.execute(
        "UPDATE hoss_battle_rounds SET viewed = 1 WHERE match_id = ? AND round <= ? AND viewed = 0",
        (row.match_id, up_to),
    )


def decisions(conn: Connection, battle_id: int) -> list[Decision]:
    return decisions_of(conn, _match_id(conn, battle_id))


def decisions_of(conn: Connection, match_id: int | None) -> list[Decision]:
    """`decisions` of a battle whose match the caller holds: its number is not looked up."""
    moves = [] if match_id is None else MATCHES.moves(conn, match_id)
    return [
        Decision(
            int(m.data["pause"]),
            int(m.data["round"]),
            m.seat,
            m.action,
            cast(Author, m.author),
            bool(m.data.get("between", False)),
        )
        for m in moves
    ]


def timeout_pauses(moves: Sequence[Decision]) -> list[int]:
    """The pauses of a battle's `moves` where the deadline passed and the AI decided for the player, in
    order (not the stops between two rounds that ran out: nothing was owed there)."""
    return sorted({d.pause for d in moves if d.by == "timeout" and not d.between})


def last_decided_by(moves: Sequence[Decision]) -> Author | None:
    """Who took the player's last decision of `moves` (no stop between rounds): 'timeout' once the AI played
    the rest after a missed deadline (`RankedService.on_timeout`), 'skip' after « Passer à la fin »."""
    mine = [d for d in moves if d.seat == PLAYER and not d.between]
    return mine[-1].by if mine else None
