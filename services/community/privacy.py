"""Personal data: what the bot stores about a player, sent to them (`/privacy export`), and its erasure
(`/privacy delete`). Decisions and what is kept: docs/privacy.md.

Both follow one declaration, `store.personal_data.TABLES`: every column of the schema says whether it
holds a player's id (the row's owner, or a party of a shared row), words a player typed, text that may
quote an id, or nothing about anyone. Nothing is guessed from a column's name or keys here, and both
refuse to run on a schema with a column the declaration does not know (`undeclared`).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from core.clock import Clock, to_db
from core.errors import NotAllowed
from services.community.tournaments.erasure import end_for_erasure
from services.community.trades.service import TradeService
from services.infra import ledger, outbox
from services.infra.games import GameRegistry
from services.infra.messages import Attachment, MessageSpec, Target, Text
from services.infra.players import forget_everywhere
from store import schema
from store.connection import Connection
from store.db import Database
from store.personal_data import TABLES, Holds

# Text columns are rewritten where they name the erased id; below this, a number in a text is a date,
# a count or a small test id rather than a Discord id (every Discord user id has 17 digits or more).
SCRUBBED_FROM = 10**15
EXPORT_FILE = "personal-data.json"
_LIVE = ("pending", "live")
# Exported in a form of their own: the player's row, and their DMs (the outbox's rows addressed to them).
_OWN_FORM = ("players", "outbox")


def undeclared(conn: Connection) -> list[str]:
    """`table.column` of every column the live schema and the declaration disagree on: in one and not
    in the other."""
    live = {
        f"{table}.{column.name}" for table in schema.tables(conn) for column in schema.columns(conn, table)
    }
    declared = {f"{table}.{column}" for table, spec in TABLES.items() for column in spec.columns}
    return sorted(live ^ declared)


def _check_declared(conn: Connection) -> None:
    """A column nobody declared may hold a player's id: neither the export nor the erasure runs blind."""
    unknown = undeclared(conn)
    if unknown:
        raise RuntimeError(f"store/personal_data.py does not declare: {', '.join(unknown)}")


def _rows(
    conn: Connection, table: str, columns: list[str], player: int, hidden: str | None
) -> list[dict[str, Any]]:
    where = " OR ".join(f"{c} = ?" for c in columns)
    params: list[Any] = [player] * len(columns)
    if hidden is not None:
        where = f"({where}) AND NOT ({hidden})"
        params += [player] * hidden.count("?")
    cursor = conn.execute(f"SELECT * FROM {table} WHERE {where} ORDER BY 1", params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def collect(conn: Connection, player: int) -> dict[str, Any]:
    """Everything stored about the player: every row where a column declared as a player's id is theirs,
    less what the declaration hides from them (a live match's rows, a gift not delivered to them)."""
    _check_declared(conn)
    profile = _rows(conn, "players", ["id"], player, None)
    tables: dict[str, list[dict[str, Any]]] = {}
    for table, spec in sorted(TABLES.items()):
        columns = spec.of(Holds.OWNER, Holds.PLAYER, Holds.KEPT)
        if table in _OWN_FORM or not columns:
            continue
        rows = _rows(conn, table, columns, player, spec.hidden)
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


def _empty_wallets_and_cards(conn: Connection, now: datetime, player: int) -> None:
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
            ledger.debit(conn, now, player, str(code), int(held), why)  # the balance just read: never refused


def _scrub_texts(conn: Connection, player: int, anonymous: int) -> None:
    """Every column declared as text that may quote an id (payloads, keys, game data), or as words a
    player typed, where the Discord id appears."""
    for table, spec in TABLES.items():
        if table == "ledger":
            continue  # its ref is rewritten with its owner, the only update its trigger allows
        for column in spec.of(Holds.TEXT, Holds.TYPED):
            found = conn.execute(
                f"SELECT DISTINCT {column} FROM {table} WHERE {column} LIKE ?", (f"%{player}%",)
            ).fetchall()
            for (value,) in found:
                conn.execute(
                    f"UPDATE {table} SET {column} = ? WHERE {column} = ?",
                    (_scrub(value, player, anonymous), value),
                )


def _refuse_while_playing(conn: Connection, player: int) -> None:
    """A match pending or live is refused (docs/privacy.md): its other seat is waiting on the player."""
    busy = conn.execute(
        "SELECT COUNT(*) FROM matches JOIN match_seats ON match_seats.match_id = matches.id"
        " WHERE match_seats.player_id = ? AND matches.status IN (?, ?)",
        (player, *_LIVE),
    ).fetchone()[0]
    if busy:
        raise NotAllowed("privacy.error.busy")


def _anonymise_columns(conn: Connection, player: int, anonymous: int) -> None:
    """What the declaration says of each column: the player's own rows go, their id in a shared row
    becomes the anonymous one, and the words they typed in such a row are blanked."""
    for table, spec in TABLES.items():
        if table in ("ledger", "players"):
            continue  # the ledger moves row by row (its trigger); the player's row goes last
        for column in spec.of(Holds.OWNER):
            conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (player,))
        shared = spec.of(Holds.PLAYER)
        for column in shared:
            conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (anonymous, player))
        for typed in spec.of(Holds.TYPED):
            for column in shared:
                conn.execute(f"UPDATE {table} SET {typed} = '' WHERE {column} = ?", (anonymous,))


def erase(
    conn: Connection, now: datetime, registry: GameRegistry, player: int, trades: TradeService | None = None
) -> int | None:
    """The player's rows deleted or moved to a fresh anonymous player (a negative id); returns that id,
    None when nothing was stored. First, in the same unit, what was pending for them ends: their open
    trades and gifts are cancelled (`trades`), the other parties told once the ids are anonymous."""
    if conn.execute("SELECT 1 FROM players WHERE id = ?", (player,)).fetchone() is None:
        return None
    _check_declared(conn)
    _refuse_while_playing(conn, player)
    cancelled = trades.end_for_erasure(conn, now, player) if trades is not None else []
    end_for_erasure(conn, now, player)
    _empty_wallets_and_cards(conn, now, player)
    row = conn.execute("SELECT MIN(id) FROM players").fetchone()
    anonymous = min(-1, int(row[0]) - 1)
    conn.execute("INSERT INTO players (id, created_at) VALUES (?, ?)", (anonymous, to_db(now)))
    for spec in registry.all_games():
        if spec.anonymise is not None:
            spec.anonymise(conn, player, anonymous)
    for ref_id, ref in conn.execute("SELECT id, ref FROM ledger WHERE player_id = ?", (player,)).fetchall():
        scrubbed = _scrub(ref, player, anonymous) if ref is not None and player >= SCRUBBED_FROM else ref
        conn.execute("UPDATE ledger SET player_id = ?, ref = ? WHERE id = ?", (anonymous, scrubbed, ref_id))
    empty = MessageSpec().to_json()
    conn.execute(
        "UPDATE outbox SET payload = ?, state = CASE WHEN state = 'pending' THEN 'failed' ELSE state END"
        " WHERE target_kind = 'dm' AND target_id = ?",
        (empty, player),
    )
    _anonymise_columns(conn, player, anonymous)
    if player >= SCRUBBED_FROM:
        _scrub_texts(conn, player, anonymous)
    conn.execute("DELETE FROM players WHERE id = ?", (player,))
    forget_everywhere(conn, player)  # no process may take them for a player it knows any more
    if trades is not None:
        trades.tell_erased(conn, now, cancelled)
    return anonymous


class PrivacyService:
    def __init__(
        self, db: Database, clock: Clock, registry: GameRegistry, trades: TradeService | None = None
    ) -> None:
        self.db = db
        self.registry = registry
        self.clock = clock
        self.trades = trades

    async def export(self, player: int) -> None:
        """The file is a DM from the outbox, so it reaches the player even with closed DMs (the "show"
        button) and after a restart."""
        now = self.clock.now()

        def unit(conn: Connection) -> None:
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
        return (
            await self.db.write(lambda conn: erase(conn, now, self.registry, player, self.trades)) is not None
        )
