"""The declaration of what every column holds about players (store/personal_data.py) against the live
schema: on SQLite here, on PostgreSQL when the suite runs with `TEST_DATABASE=postgresql` (CI does)."""

from __future__ import annotations

import pytest

from services.community.privacy import collect, undeclared
from store.connection import Connection
from store.db import Database
from store.personal_data import TABLES, Holds, Table, _table


async def test_every_column_of_the_live_schema_is_declared_and_nothing_else(db: Database) -> None:
    """Fails when a migration adds a column (or a table) without saying what it holds about players, or
    drops one the declaration still names."""
    assert await db.read(undeclared) == []


async def test_a_new_column_is_caught_and_stops_the_export(db: Database) -> None:
    def add(conn: Connection) -> None:
        conn.execute("ALTER TABLE trades ADD COLUMN witness_id BIGINT")

    await db.write(add)
    assert await db.read(undeclared) == ["trades.witness_id"]
    with pytest.raises(RuntimeError, match=r"does not declare: trades\.witness_id"):
        await db.read(lambda conn: collect(conn, 1))


def test_the_columns_that_used_to_escape_erasure_are_declared_as_ids() -> None:
    """`trades.ended_by` and `game_pauses.paused_by` hold a player's id without `_id` in their name or a
    foreign key: found by declaration, not by a guess."""
    assert TABLES["trades"].columns["ended_by"] is Holds.PLAYER
    assert TABLES["game_pauses"].columns["paused_by"] is Holds.PLAYER


def test_a_column_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        _table(nothing="id x", player="x")


def test_a_table_lists_its_columns_by_class() -> None:
    table: Table = _table(nothing="id", owner="player_id", typed="name")
    assert table.of(Holds.OWNER) == ["player_id"]
    assert table.of(Holds.TYPED, Holds.NOTHING) == ["id", "name"]
    assert [h for h in Holds if h.is_id] == [Holds.OWNER, Holds.PLAYER, Holds.KEPT]
