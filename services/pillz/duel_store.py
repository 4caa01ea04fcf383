"""Pillz duels in the database: the row, its version-guarded saves, the move log and the public notes.

Every change is a conditional UPDATE on `version`, so two clicks, or a click and the timeout, never both
apply to the same state: the later one finds a newer version and changes nothing (`StaleDuel`).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from core.clock import from_db, to_db
from core.errors import NotAllowed, NotFound
from engine.errors import DomainError
from engine.pillz import ENGINE, PillzState

AI = 0  # the AI's player id in the engine (seat 1 of a practice duel)


class StaleDuel(DomainError):
    """The duel moved on since this was shown (a double click, or the AI played on a timeout)."""

    key = "pillz.error.stale"


@dataclass(frozen=True)
class DuelRow:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    seats: tuple[int, int | None]  # seat 1 is None for the AI
    status: str
    seed: int | None
    state: PillzState | None
    version: int
    message_item: int | None
    notes: tuple[dict[str, Any], ...]
    deadline_at: datetime | None
    timeout_job: int | None
    result: dict[str, Any] | None
    expires_at: datetime | None

    def seat_of(self, player: int) -> int:
        if player == self.seats[0]:
            return 0
        if self.seats[1] is not None and player == self.seats[1]:
            return 1
        raise NotAllowed("pillz.error.not_player")

    def is_ai(self, seat: int) -> bool:
        return self.seats[seat] is None

    def to_act(self) -> list[int]:
        if self.status != "live" or self.state is None:
            return []
        return list(ENGINE.current_players(self.state))


@dataclass(frozen=True)
class Choice:
    """What the private controls show a seat: its unused characters and pillz left, the opposing character
    already revealed this round (when answering), and the duel's version the controls are built on."""

    duel_id: int
    version: int
    seat: int
    state: PillzState
    leading: bool


def _row(row: sqlite3.Row) -> DuelRow:
    def when(value: str | None) -> datetime | None:
        return None if value is None else from_db(value)

    return DuelRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        kind=str(row["kind"]),
        seats=(int(row["seat0_id"]), None if row["seat1_id"] is None else int(row["seat1_id"])),
        status=str(row["status"]),
        seed=None if row["seed"] is None else int(row["seed"]),
        state=None if row["state"] is None else ENGINE.from_json(row["state"]),
        version=int(row["version"]),
        message_item=None if row["message_item"] is None else int(row["message_item"]),
        notes=tuple(json.loads(row["notes"])),
        deadline_at=when(row["deadline_at"]),
        timeout_job=None if row["timeout_job"] is None else int(row["timeout_job"]),
        result=None if row["result"] is None else json.loads(row["result"]),
        expires_at=when(row["expires_at"]),
    )


def load(conn: sqlite3.Connection, duel_id: int) -> DuelRow:
    row = conn.execute("SELECT * FROM pillz_duels WHERE id = ?", (duel_id,)).fetchone()
    if row is None:
        raise NotFound("pillz.error.no_duel", id=duel_id)
    return _row(row)


def load_in(conn: sqlite3.Connection, duel_id: int, guild: int) -> DuelRow:
    """A duel reached from the server where it is played. Buttons carry only the duel id, so a forged
    one could name another server's duel: it reads exactly like an unknown id."""
    duel = load(conn, duel_id)
    if duel.guild_id != guild:
        raise NotFound("pillz.error.no_duel", id=duel_id)
    return duel


def live_of(conn: sqlite3.Connection, player: int) -> list[DuelRow]:
    rows = conn.execute(
        "SELECT * FROM pillz_duels WHERE status = 'live' AND (seat0_id = ? OR seat1_id = ?) ORDER BY id",
        (player, player),
    )
    return [_row(r) for r in rows]


def insert(conn: sqlite3.Connection, now: datetime, **values: Any) -> int:
    values = {**values, "created_at": to_db(now), "updated_at": to_db(now)}
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cursor = conn.execute(f"INSERT INTO pillz_duels ({columns}) VALUES ({marks})", tuple(values.values()))
    return int(cursor.lastrowid or 0)


def save(conn: sqlite3.Connection, duel: DuelRow, now: datetime, **changes: Any) -> DuelRow:
    """Write `changes` (DuelRow fields) if the row is still at `duel.version`; the new row is returned."""
    updated = replace(duel, **changes, version=duel.version + 1)
    values = {
        "status": updated.status,
        "seed": updated.seed,
        "state": None if updated.state is None else ENGINE.to_json(updated.state),
        "message_item": updated.message_item,
        "notes": json.dumps(list(updated.notes)),
        "deadline_at": None if updated.deadline_at is None else to_db(updated.deadline_at),
        "timeout_job": updated.timeout_job,
        "result": None if updated.result is None else json.dumps(updated.result, sort_keys=True),
    }
    columns = ", ".join(f"{name} = ?" for name in values)
    ended = to_db(now) if updated.status == "over" and duel.status != "over" else None
    cursor = conn.execute(
        f"UPDATE pillz_duels SET {columns}, version = version + 1, updated_at = ?,"
        " ended_at = COALESCE(?, ended_at) WHERE id = ? AND version = ?",
        (*values.values(), to_db(now), ended, duel.id, duel.version),
    )
    if cursor.rowcount != 1:
        raise StaleDuel()
    return updated


def record_move(conn: sqlite3.Connection, duel_id: int, seat: int, action: Any, by: str) -> None:
    seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM pillz_duel_moves WHERE duel_id = ?", (duel_id,))
    conn.execute(
        "INSERT INTO pillz_duel_moves (duel_id, seq, seat, action, by) VALUES (?, ?, ?, ?, ?)",
        (duel_id, int(seq.fetchone()[0]), seat, json.dumps(ENGINE.action_to_json(action)), by),
    )


def played_by(conn: sqlite3.Connection, duel_id: int, seat: int, card: str) -> tuple[int, str] | None:
    """The pillz and the author (`player`, `timeout`, `ai`) of the move in which `seat` played `card`, if
    it did: a character fights once per duel, so the card names the move."""
    rows = conn.execute(
        "SELECT action, by FROM pillz_duel_moves WHERE duel_id = ? AND seat = ?", (duel_id, seat)
    )
    for action, by in rows:
        move = json.loads(action)
        if move.get("card") == card:
            return int(move["pillz"]), str(by)
    return None


def acting_seats(conn: sqlite3.Connection, duel_id: int) -> set[int]:
    """The seats whose player made at least one move themselves (not the AI on a timeout)."""
    rows = conn.execute(
        "SELECT DISTINCT seat FROM pillz_duel_moves WHERE duel_id = ? AND by = 'player'", (duel_id,)
    )
    return {int(r[0]) for r in rows}
