"""Personal data: what the bot stores about a player, sent to them (`/privacy export`), and its erasure
(`/privacy delete`). Decisions and what is kept: docs/privacy.md.

The tables are read from the schema, not listed: a column holds a player's id when it references
`players(id)`, is named `player_id`, or is declared (the platform's `PLAYER_COLUMNS`, a game's
`GameSpec.player_columns`). `tests/services/test_privacy.py` fails when a table gains an id column
that is none of these and not declared `NOT_A_PLAYER` either, so a new table cannot be forgotten.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.clock import Clock, to_db
from core.errors import NotAllowed
from services.platform import games, ledger, outbox
from services.platform.messages import Attachment, MessageSpec, Target, Text
from services.platform.players import forget_everywhere
from store import schema
from store.db import Database

# Columns of the platform's tables holding a player's id without a foreign key to players.
PLAYER_COLUMNS = ("admin_audit.actor_id", "admin_audit.target_id", "guild_bans.banned_by")
# Id columns that never hold a player's id: by name, in any table...
NOT_A_PLAYER = frozenset(
    {
        "id",
        "guild_id",
        "channel_id",
        "thread_id",
        "announce_channel_id",
        "games_channel_id",
        "referee_role_id",
        "fallback_channel_id",
        "sent_message_id",
    }
)
# ... and as (table, column).
NOT_A_PLAYER_COLUMNS = frozenset(
    {
        ("outbox", "target_id"),  # a channel, or the player of a DM: DMs are handled on their own
        ("hoss_arena_attacks", "battle_id"),
        ("pillz_friend_results", "duel_id"),
        ("choco_legacy_challenges", "challenge_id"),
    }
)
# Kept at erasure, with the Discord id: a server's ban must still stop the person it names.
KEPT = frozenset({"guild_bans.player_id"})
# Text columns are rewritten where they name the erased id; below this, a number in a text is a date,
# a count or a small test id rather than a Discord id (every Discord user id has 17 digits or more).
SCRUBBED_FROM = 10**15
EXPORT_FILE = "personal-data.json"
_LIVE = ("pending", "live")


@dataclass(frozen=True)
class IdColumn:
    table: str
    column: str
    personal: bool | None  # None: not classified (the test fails on it)


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [name for name in schema.tables(conn) if name != "schema_migrations"]


def _declared() -> set[str]:
    return {*PLAYER_COLUMNS, *(c for g in games.all_games() for c in g.player_columns)}


def id_columns(conn: sqlite3.Connection) -> Iterator[IdColumn]:
    """Every integer column that is an id (`id`, `*_id`, or declared), classified."""
    declared = _declared()
    for table in _tables(conn):
        refs = schema.foreign_keys(conn, table)
        for found in schema.columns(conn, table):
            column, name = found.name, f"{table}.{found.name}"
            if not (column == "id" or column.endswith("_id") or name in declared):
                continue
            if refs.get(column) == "players" or column == "player_id" or name in declared:
                personal: bool | None = True
            elif column in refs or column in NOT_A_PLAYER or (table, column) in NOT_A_PLAYER_COLUMNS:
                personal = False
            else:
                personal = None
            yield IdColumn(table, column, personal)


def personal_columns(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Table -> its columns holding a player's id (the players table itself excepted)."""
    found: dict[str, list[str]] = {}
    for col in id_columns(conn):
        if col.personal and col.table != "players":
            found.setdefault(col.table, []).append(col.column)
    return found


def _live_matches(conn: sqlite3.Connection) -> set[int]:
    sql = "SELECT id FROM matches WHERE status IN (?, ?)"
    return {int(r[0]) for r in conn.execute(sql, _LIVE)}


def _rows(conn: sqlite3.Connection, table: str, columns: list[str], player: int) -> list[dict[str, Any]]:
    where = " OR ".join(f"{c} = ?" for c in columns)
    cursor = conn.execute(f"SELECT * FROM {table} WHERE {where} ORDER BY 1", [player] * len(columns))
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def collect(conn: sqlite3.Connection, player: int) -> dict[str, Any]:
    """Everything stored about the player. A row tied to a match still pending or live is left out
    until the match ends: a game's log may hold what its players may not see yet (docs/privacy.md)."""
    profile = _rows(conn, "players", ["id"], player)
    live = _live_matches(conn)
    tables: dict[str, list[dict[str, Any]]] = {}
    for table, columns in sorted(personal_columns(conn).items()):
        rows = [r for r in _rows(conn, table, columns, player) if r.get("match_id") not in live]
        if rows:
            tables[table] = rows
    seated = {int(r["match_id"]) for r in tables.get("match_seats", [])}
    matches = conn.execute(
        "SELECT id, game, kind, guild_id, status, number, result, created_at, ended_at FROM matches"
        " ORDER BY id"
    ).fetchall()
    names = ("id", "game", "kind", "guild_id", "status", "number", "result", "created_at", "ended_at")
    tables["matches"] = [dict(zip(names, m, strict=True)) for m in matches if m[0] in seated]
    dms = conn.execute(
        "SELECT id, created_at, state, payload FROM outbox WHERE target_kind = 'dm' AND target_id = ? ORDER BY id",
        (player,),
    ).fetchall()
    tables["direct_messages"] = [
        {"id": d[0], "created_at": d[1], "state": d[2], "message": json.loads(d[3])} for d in dms
    ]
    return {"player": profile[0] if profile else None, "tables": tables}


def _scrub(value: str, player: int, anonymous: int) -> str:
    return re.sub(rf"(?<!\d){player}(?!\d)", str(anonymous), value)


def _primary_key(conn: sqlite3.Connection, table: str) -> set[str]:
    return {column.name for column in schema.columns(conn, table) if column.primary_key}


def _empty_wallets_and_cards(conn: sqlite3.Connection, now: datetime, player: int) -> None:
    """Through the ledger, as every change of a balance or an owner: what the anonymous row keeps adds up."""
    why = ledger.Movement("privacy_erase")
    copies = conn.execute(
        "SELECT id, locked_by FROM cards WHERE owner_id = ? ORDER BY id", (player,)
    ).fetchall()
    locked = [int(c[0]) for c in copies if c[1] is not None]
    if locked:
        ledger.set_card_lock(conn, locked, player, None)
    for copy in copies:
        ledger.destroy_card(conn, now, int(copy[0]), player, why)
    for code, held in conn.execute(
        "SELECT currency, balance FROM wallets WHERE player_id = ?", (player,)
    ).fetchall():
        if held > 0:
            ledger.debit(conn, now, player, str(code), int(held), why)


def _scrub_texts(conn: sqlite3.Connection, player: int, anonymous: int) -> None:
    """Every text column of every table (payloads, keys, game data) where the Discord id appears."""
    for table in _tables(conn):
        if table == "ledger":
            continue  # rewritten with its owner, the only update its trigger allows
        texts = [column.name for column in schema.columns(conn, table) if "TEXT" in column.type.upper()]
        for column in texts:
            found = conn.execute(
                f"SELECT DISTINCT {column} FROM {table} WHERE {column} LIKE ?", (f"%{player}%",)
            ).fetchall()
            for (value,) in found:
                conn.execute(
                    f"UPDATE {table} SET {column} = ? WHERE {column} = ?",
                    (_scrub(value, player, anonymous), value),
                )


def erase(conn: sqlite3.Connection, now: datetime, player: int) -> int | None:
    """The player's rows deleted or moved to a fresh anonymous player (a negative id); returns that id,
    None when nothing was stored. Rows keyed by the player (wallets, decks, profiles, settings) go; rows
    other players share (matches' seats, results, the ledger, the audit log) keep an anonymous id."""
    if conn.execute("SELECT 1 FROM players WHERE id = ?", (player,)).fetchone() is None:
        return None
    busy = conn.execute(
        "SELECT COUNT(*) FROM matches JOIN match_seats ON match_seats.match_id = matches.id"
        " WHERE match_seats.player_id = ? AND matches.status IN (?, ?)",
        (player, *_LIVE),
    ).fetchone()[0]
    if busy:
        raise NotAllowed("privacy.error.busy")
    _empty_wallets_and_cards(conn, now, player)
    row = conn.execute("SELECT MIN(id) FROM players").fetchone()
    anonymous = min(-1, int(row[0]) - 1)
    conn.execute("INSERT INTO players (id, created_at) VALUES (?, ?)", (anonymous, to_db(now)))
    for spec in games.all_games():
        if spec.anonymise is not None:
            spec.anonymise(conn, player, anonymous)
    for ref_id, ref in conn.execute("SELECT id, ref FROM ledger WHERE player_id = ?", (player,)).fetchall():
        scrubbed = _scrub(ref, player, anonymous) if ref is not None and player >= SCRUBBED_FROM else ref
        conn.execute("UPDATE ledger SET player_id = ?, ref = ? WHERE id = ?", (anonymous, scrubbed, ref_id))
    for table, columns in personal_columns(conn).items():
        if table == "ledger":
            continue
        keyed = _primary_key(conn, table)
        for column in columns:
            if f"{table}.{column}" in KEPT:
                continue
            if column in keyed:
                conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (player,))
            else:
                conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (anonymous, player))
    empty = MessageSpec().to_json()
    conn.execute(
        "UPDATE outbox SET target_id = ?, payload = ?,"
        " state = CASE WHEN state = 'pending' THEN 'failed' ELSE state END"
        " WHERE target_kind = 'dm' AND target_id = ?",
        (anonymous, empty, player),
    )
    if player >= SCRUBBED_FROM:
        _scrub_texts(conn, player, anonymous)
    conn.execute("DELETE FROM players WHERE id = ?", (player,))
    forget_everywhere(conn, player)  # no process may take them for a player it knows any more
    return anonymous


class PrivacyService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def export(self, player: int) -> None:
        """The file is a DM from the outbox, so it reaches the player even with closed DMs (the "show"
        button) and after a restart."""
        now = self.clock.now()

        def unit(conn: sqlite3.Connection) -> None:
            data = collect(conn, player)
            text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False, default=str)
            spec = MessageSpec(
                content=Text("privacy.export.dm"),
                attachments=(Attachment(EXPORT_FILE, text),),
            )
            outbox.enqueue(conn, now, Target("dm", player, guild_id=None), spec)

        await self.db.write(unit)

    async def erase(self, player: int) -> bool:
        """False when the bot stored nothing about them."""
        now = self.clock.now()
        return await self.db.write(lambda conn: erase(conn, now, player)) is not None
