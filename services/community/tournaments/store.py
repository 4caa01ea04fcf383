"""A tournament's rows as read and written inside write units: the tournament (its every change a save
guarded by `version`), its entries, and the tables of its rounds (decided once, by a conditional UPDATE).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any, Literal

from core.clock import from_db, to_db
from core.errors import NotFound
from engine.errors import DomainError
from store.connection import Connection

Format = Literal["elimination", "swiss"]
Seeding = Literal["random", "rating"]
Status = Literal["open", "running", "finished", "cancelled"]
LIVE: tuple[Status, ...] = ("open", "running")


class StaleTournament(DomainError):
    """The tournament moved on since it was read (a deadline and a match's end at once): nothing changed."""

    key = "tournaments.error.stale"


@dataclass(frozen=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    game: str
    format: Format
    seeding: Seeding
    max_players: int
    rounds: int | None
    round_hours: int
    fee: int
    currency: str | None
    pot: int
    status: Status
    round: int
    round_ends_at: datetime | None
    round_job: int | None
    seed: str
    commitment: str
    created_by: int
    post_item: int | None
    version: int
    created_at: datetime
    starts_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    day: date  # its date as its name says it (« Tournoi Pillz du 12 janvier »): the start's, in Paris

    @property
    def live(self) -> bool:
        return self.status in LIVE


@dataclass(frozen=True)
class Entry:
    player_id: int
    name: str
    registered_at: datetime
    fee_paid: int
    seed_rank: int | None
    status: Literal["in", "withdrawn"]
    place: int | None
    prize: int | None

    @property
    def playing(self) -> bool:
        return self.status == "in"


@dataclass(frozen=True)
class TableRow:
    round: int
    table: int
    first: int | None
    second: int | None
    match_id: int | None
    status: Literal["playing", "decided"]
    first_points: int | None
    second_points: int | None
    winner: int | None
    reason: str | None

    @property
    def decided(self) -> bool:
        return self.status == "decided"


_SAVED = (
    "rounds",
    "pot",
    "status",
    "round",
    "round_ends_at",
    "round_job",
    "post_item",
    "started_at",
    "ended_at",
)


def _when(value: str | None) -> datetime | None:
    return None if value is None else from_db(value)


def _tournament(row: sqlite3.Row) -> Tournament:
    return Tournament(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        game=str(row["game"]),
        format=row["format"],
        seeding=row["seeding"],
        max_players=int(row["max_players"]),
        rounds=None if row["rounds"] is None else int(row["rounds"]),
        round_hours=int(row["round_hours"]),
        fee=int(row["fee"]),
        currency=row["currency"],
        pot=int(row["pot"]),
        status=row["status"],
        round=int(row["round"]),
        round_ends_at=_when(row["round_ends_at"]),
        round_job=None if row["round_job"] is None else int(row["round_job"]),
        seed=str(row["seed"]),
        commitment=str(row["commitment"]),
        created_by=int(row["created_by"]),
        post_item=None if row["post_item"] is None else int(row["post_item"]),
        version=int(row["version"]),
        created_at=from_db(row["created_at"]),
        starts_at=from_db(row["starts_at"]),
        started_at=_when(row["started_at"]),
        ended_at=_when(row["ended_at"]),
        day=date.fromisoformat(str(row["day"])),
    )


def load(conn: Connection, tournament_id: int, *, guild: int | None) -> Tournament:
    """A tournament reached from `guild`, where a user typed its number: another server's reads as unknown."""
    row = conn.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if row is None or guild is None or int(row["guild_id"]) != guild:
        raise NotFound("tournaments.error.not_found", id=tournament_id)
    return _tournament(row)


def load_trusted(conn: Connection, tournament_id: int) -> Tournament:
    """A tournament the bot itself named (a job's payload, a table it read): no server to check."""
    row = conn.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if row is None:
        raise NotFound("tournaments.error.not_found", id=tournament_id)
    return _tournament(row)


def by_request(conn: Connection, key: str) -> Tournament | None:
    row = conn.execute("SELECT * FROM tournaments WHERE request_key = ?", (key,)).fetchone()
    return None if row is None else _tournament(row)


def of_guild(conn: Connection, guild_id: int, statuses: tuple[Status, ...]) -> list[Tournament]:
    marks = ", ".join("?" * len(statuses))
    rows = conn.execute(
        f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks}) ORDER BY id",
        (guild_id, *statuses),
    ).fetchall()
    return [_tournament(row) for row in rows]


def insert(conn: Connection, now: datetime, **fields: Any) -> Tournament:
    values = {**fields, "created_at": to_db(now), "starts_at": to_db(fields["starts_at"])}
    columns = ", ".join(values)
    row = conn.execute(
        f"INSERT INTO tournaments ({columns}) VALUES ({', '.join('?' * len(values))}) RETURNING id",
        tuple(values.values()),
    ).fetchone()
    return load_trusted(conn, int(row[0]))


def save(conn: Connection, tournament: Tournament, **changes: Any) -> Tournament:
    """Write `changes` if the row is still at `tournament.version` (version + 1), else `StaleTournament`."""
    unknown = set(changes) - set(_SAVED)
    if unknown:
        raise ValueError(f"not saved: {sorted(unknown)}")
    updated = replace(tournament, **changes, version=tournament.version + 1)
    values = {
        name: (to_db(value) if isinstance(value, datetime) else value)
        for name in _SAVED
        for value in (getattr(updated, name),)
    }
    cursor = conn.execute(
        f"UPDATE tournaments SET {', '.join(f'{n} = ?' for n in values)}, version = version + 1"
        " WHERE id = ? AND version = ?",
        (*values.values(), tournament.id, tournament.version),
    )
    if cursor.rowcount != 1:
        raise StaleTournament()
    return updated


# --- entries ------------------------------------------------------------------------------------------------


def _entry(row: sqlite3.Row) -> Entry:
    return Entry(
        player_id=int(row["player_id"]),
        name=str(row["name"]),
        registered_at=from_db(row["registered_at"]),
        fee_paid=int(row["fee_paid"]),
        seed_rank=None if row["seed_rank"] is None else int(row["seed_rank"]),
        status=row["status"],
        place=None if row["place"] is None else int(row["place"]),
        prize=None if row["prize"] is None else int(row["prize"]),
    )


def entries(conn: Connection, tournament_id: int) -> list[Entry]:
    """In registration order (the order the seeding draw shuffles)."""
    rows = conn.execute(
        "SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY registered_at, player_id",
        (tournament_id,),
    ).fetchall()
    return [_entry(row) for row in rows]


def entry(conn: Connection, tournament_id: int, player: int) -> Entry | None:
    row = conn.execute(
        "SELECT * FROM tournament_entries WHERE tournament_id = ? AND player_id = ?", (tournament_id, player)
    ).fetchone()
    return None if row is None else _entry(row)


def add_entry(conn: Connection, now: datetime, tournament_id: int, player: int, name: str, fee: int) -> None:
    conn.execute(
        "INSERT INTO tournament_entries (tournament_id, player_id, name, registered_at, fee_paid)"
        " VALUES (?, ?, ?, ?, ?)",
        (tournament_id, player, name, to_db(now), fee),
    )


def remove_entry(conn: Connection, tournament_id: int, player: int) -> None:
    conn.execute(
        "DELETE FROM tournament_entries WHERE tournament_id = ? AND player_id = ?", (tournament_id, player)
    )


def set_entry(conn: Connection, tournament_id: int, player: int, **fields: Any) -> None:
    columns = ", ".join(f"{name} = ?" for name in fields)
    conn.execute(
        f"UPDATE tournament_entries SET {columns} WHERE tournament_id = ? AND player_id = ?",
        (*fields.values(), tournament_id, player),
    )


# --- tables -------------------------------------------------------------------------------------------------


def _table(row: sqlite3.Row) -> TableRow:
    def number(name: str) -> int | None:
        return None if row[name] is None else int(row[name])

    return TableRow(
        round=int(row["round"]),
        table=int(row["table_no"]),
        first=number("first_id"),
        second=number("second_id"),
        match_id=number("match_id"),
        status=row["status"],
        first_points=number("first_points"),
        second_points=number("second_points"),
        winner=number("winner_id"),
        reason=row["reason"],
    )


def tables(conn: Connection, tournament_id: int, round_: int | None = None) -> list[TableRow]:
    rows = conn.execute(
        "SELECT * FROM tournament_tables WHERE tournament_id = ? AND (CAST(? AS BIGINT) IS NULL OR round = ?)"
        " ORDER BY round, table_no",
        (tournament_id, round_, round_),
    ).fetchall()
    return [_table(row) for row in rows]


def table_of_match(conn: Connection, match_id: int) -> tuple[int, TableRow] | None:
    """The tournament and table a game's match decides, if any."""
    row = conn.execute("SELECT * FROM tournament_tables WHERE match_id = ?", (match_id,)).fetchone()
    return None if row is None else (int(row["tournament_id"]), _table(row))


def add_table(
    conn: Connection,
    tournament_id: int,
    round_: int,
    table: int,
    first: int | None,
    second: int | None,
) -> TableRow:
    conn.execute(
        "INSERT INTO tournament_tables (tournament_id, round, table_no, first_id, second_id) VALUES (?, ?, ?, ?, ?)",
        (tournament_id, round_, table, first, second),
    )
    return TableRow(round_, table, first, second, None, "playing", None, None, None, None)


def set_match(conn: Connection, tournament_id: int, row: TableRow, match_id: int) -> TableRow:
    conn.execute(
        "UPDATE tournament_tables SET match_id = ? WHERE tournament_id = ? AND round = ? AND table_no = ?",
        (match_id, tournament_id, row.round, row.table),
    )
    return replace(row, match_id=match_id)


def decide(
    conn: Connection,
    now: datetime,
    tournament_id: int,
    row: TableRow,
    *,
    points: tuple[int, int],
    winner: int | None,
    reason: str,
) -> TableRow | None:
    """The table's result, once: None when it was decided already (a second report changes nothing)."""
    cursor = conn.execute(
        "UPDATE tournament_tables SET status = 'decided', first_points = ?, second_points = ?, winner_id = ?,"
        " reason = ?, decided_at = ? WHERE tournament_id = ? AND round = ? AND table_no = ? AND status = 'playing'",
        (*points, winner, reason, to_db(now), tournament_id, row.round, row.table),
    )
    if cursor.rowcount != 1:
        return None
    return replace(
        row, status="decided", first_points=points[0], second_points=points[1], winner=winner, reason=reason
    )
