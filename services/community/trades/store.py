"""Trades as stored: the row, its items, and the reads the trade use cases and the trade window share.

A trade is read back whole (the row and every item) in the unit that acts on it, so a check and the change
it allows see the same offers. `load` is the only way an id typed or clicked by a user reaches a trade:
it answers a trade of another server, or one the user is no party to, exactly like an unknown id.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, cast

from core.clock import from_db
from core.errors import NotFound
from store.connection import Connection

TradeKind = Literal["trade", "gift"]
TradeStatus = Literal["open", "done", "cancelled", "expired"]
NOT_FOUND = "trades.error.not_found"
ERASED = "erased"  # `end_reason` of a trade cancelled because a party erased their data


@dataclass(frozen=True)
class TradeItem:
    giver_id: int
    card_id: int | None  # a copy, or else `amount` of `currency`
    card_key: str | None
    currency: str | None
    amount: int
    value: int


@dataclass(frozen=True)
class Trade:
    id: int
    kind: TradeKind
    game: str
    guild_id: int
    channel_id: int | None
    proposer_id: int
    partner_id: int
    status: TradeStatus
    version: int
    proposer_confirmed: int | None  # the version the proposer confirmed
    partner_confirmed: int | None
    expiry_job: int | None
    created_at: datetime
    expires_at: datetime
    ended_at: datetime | None
    ended_by: int | None
    end_reason: str | None  # why the bot ended it (`ERASED`), None for every other end
    items: tuple[TradeItem, ...]

    @property
    def lock(self) -> str:
        """The `cards.locked_by` of the copies offered in this trade."""
        return lock_name(self.id)

    def is_party(self, player_id: int) -> bool:
        return player_id in (self.proposer_id, self.partner_id)

    def other(self, player_id: int) -> int:
        return self.partner_id if player_id == self.proposer_id else self.proposer_id

    def offered_by(self, player_id: int) -> tuple[TradeItem, ...]:
        return tuple(i for i in self.items if i.giver_id == player_id)

    def hidden_from(self, player_id: int) -> bool:
        """A gift not delivered is its giver's alone: its recipient learns of it only when it arrives, so
        an open, cancelled or expired gift is unknown to them everywhere (docs/trades.md)."""
        return self.kind == "gift" and self.status != "done" and player_id == self.partner_id

    def has_confirmed(self, player_id: int) -> bool:
        mark = self.proposer_confirmed if player_id == self.proposer_id else self.partner_confirmed
        return mark == self.version

    def value_given(self, player_id: int) -> int:
        return sum(i.value for i in self.offered_by(player_id))


def lock_name(trade_id: int) -> str:
    return f"trade:{trade_id}"


_COLUMNS = (
    "id, kind, game, guild_id, channel_id, proposer_id, partner_id, status, version, proposer_confirmed,"
    " partner_confirmed, expiry_job, created_at, expires_at, ended_at, ended_by, end_reason"
)


def _items(conn: Connection, trade_id: int) -> tuple[TradeItem, ...]:
    rows = conn.execute(
        "SELECT i.giver_id, i.card_id, c.card_key, i.currency, i.amount, i.value FROM trade_items i"
        " LEFT JOIN cards c ON c.id = i.card_id WHERE i.trade_id = ? ORDER BY i.id",
        (trade_id,),
    )
    return tuple(TradeItem(int(g), c, k, cur, int(a), int(v)) for g, c, k, cur, a, v in rows)


def _trade(conn: Connection, row: sqlite3.Row) -> Trade:
    def number(name: str) -> int | None:
        return None if row[name] is None else int(row[name])

    return Trade(
        id=int(row["id"]),
        kind=cast(TradeKind, row["kind"]),
        game=str(row["game"]),
        guild_id=int(row["guild_id"]),
        channel_id=number("channel_id"),
        proposer_id=int(row["proposer_id"]),
        partner_id=int(row["partner_id"]),
        status=cast(TradeStatus, row["status"]),
        version=int(row["version"]),
        proposer_confirmed=number("proposer_confirmed"),
        partner_confirmed=number("partner_confirmed"),
        expiry_job=number("expiry_job"),
        created_at=from_db(row["created_at"]),
        expires_at=from_db(row["expires_at"]),
        ended_at=None if row["ended_at"] is None else from_db(row["ended_at"]),
        ended_by=number("ended_by"),
        end_reason=row["end_reason"],
        items=_items(conn, int(row["id"])),
    )


def load_trusted(conn: Connection, trade_id: int) -> Trade | None:
    """A trade by an id the bot itself wrote (a job's payload); never for an id from Discord."""
    row = conn.execute(f"SELECT {_COLUMNS} FROM trades WHERE id = ?", (trade_id,)).fetchone()
    return None if row is None else _trade(conn, row)


def load(
    conn: Connection, trade_id: int, guild_id: int | None, player_id: int, *, admin: bool = False
) -> Trade:
    """The trade `player_id` acts on from `guild_id` (None: in DMs). In a server only that server's trades
    are known, and only to their parties and, with `admin`, to that server's admins; in DMs only to their
    parties. A gift not delivered is unknown to its recipient. Anything else is `NotFound`, worded as for an
    id that does not exist."""
    trade = load_trusted(conn, trade_id)
    if trade is None or (guild_id is not None and trade.guild_id != guild_id):
        raise NotFound(NOT_FOUND, trade=trade_id)
    admin_here = admin and guild_id is not None
    if not admin_here and (not trade.is_party(player_id) or trade.hidden_from(player_id)):
        raise NotFound(NOT_FOUND, trade=trade_id)
    return trade


def of_player(conn: Connection, guild_id: int, player_id: int | None, limit: int) -> list[Trade]:
    """The latest trades of a server, or of one player in it (without the gifts not delivered to them,
    which they may not know of); newest first."""
    if player_id is None:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM trades WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit)
        )
    else:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM trades WHERE guild_id = ? AND (proposer_id = ? OR (partner_id = ?"
            " AND NOT (kind = 'gift' AND status <> 'done'))) ORDER BY id DESC LIMIT ?",
            (guild_id, player_id, player_id, limit),
        )
    return [_trade(conn, row) for row in rows.fetchall()]


def open_of(conn: Connection, player_id: int) -> list[Trade]:
    """Every open trade and gift `player_id` is party to, oldest first."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM trades WHERE status = 'open' AND (proposer_id = ? OR partner_id = ?)"
        " ORDER BY id",
        (player_id, player_id),
    )
    return [_trade(conn, row) for row in rows.fetchall()]


def open_count(conn: Connection, player_id: int) -> int:
    row = conn.execute(
        "SELECT COUNT(*) FROM trades WHERE status = 'open' AND (proposer_id = ? OR partner_id = ?)",
        (player_id, player_id),
    ).fetchone()
    return int(row[0])


def moved_since(conn: Connection, player_id: int, game: str, since: str) -> tuple[int, int]:
    """(value given, value received) by `player_id` in `game`'s trades completed since `since` (a stored
    time): what the daily cap counts."""
    row = conn.execute(
        "SELECT COALESCE(SUM(CASE WHEN i.giver_id = ? THEN i.value ELSE 0 END), 0),"
        " COALESCE(SUM(CASE WHEN i.giver_id <> ? THEN i.value ELSE 0 END), 0)"
        " FROM trade_items i JOIN trades t ON t.id = i.trade_id"
        " WHERE t.status = 'done' AND t.game = ? AND t.ended_at >= ? AND (t.proposer_id = ? OR t.partner_id = ?)",
        (player_id, player_id, game, since, player_id, player_id),
    ).fetchone()
    return int(row[0]), int(row[1])
