"""Shared fixtures for service tests: a real SQLite file per test, because the guarantees we test
(WAL, savepoints, CHECK constraints, triggers) only exist in a real database."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from core.clock import ManualClock, to_db
from store.backend import migrate_database
from store.connection import Connection
from store.db import Database
from store.migrate import migrate
from store.postgres import PostgresDatabase
from tests.fixtures import postgres


async def open_database(path: Path, **kwargs: int) -> Database:
    """Open and migrate a database the way the bot does at start-up."""
    database = Database(path, **kwargs)
    await database.open()
    try:
        await migrate(await database.raw_writer())
    except BaseException:
        await database.close()
        raise
    return database


async def open_postgres(url: str) -> PostgresDatabase:
    """Open and migrate a PostgreSQL database the way the bot does at start-up."""
    database = PostgresDatabase(url)
    await database.open()
    try:
        await migrate_database(database)
    except BaseException:
        await database.close()
        raise
    return database


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated database of its own: a copy of a migrated SQLite file, or with `TEST_DATABASE=postgresql`
    a PostgreSQL database in the migrated template's state (tests/fixtures/postgres.py: a copy, or the
    previous test's emptied back)."""
    if postgres.enabled():
        cluster: postgres.Cluster = request.getfixturevalue("pg_cluster")
        url = cluster.lease()
        database: Database = await open_postgres(url)
        try:
            yield database
        finally:
            await database.close()
            cluster.give_back(url)
        return
    migrated_copy: Callable[[Path], Path] = request.getfixturevalue("migrated_copy")
    database = await open_database(migrated_copy(tmp_path / "bot.sqlite3"))
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def add_player(clock: ManualClock) -> Callable[[Connection, int], None]:
    """A bare player row, no starting grants: ledger tests must not depend on the registered games."""

    def add(conn: Connection, player_id: int) -> None:
        conn.execute("INSERT INTO players (id, created_at) VALUES (?, ?)", (player_id, to_db(clock.now())))

    return add


def check_conservation(conn: Connection) -> None:
    """Every balance and every card owner must be explained by the ledger, row by row.

    - for every (player, currency): balance == sum of ledger deltas, and each row's balance_after is the
      running sum at that point (so no row was written out of order or with a wrong figure);
    - no balance and no balance_after is negative;
    - for every card: the sum of its deltas is 1 for its owner and 0 for everybody else (0 for all once
      destroyed).
    """
    running: dict[tuple[int, str], int] = defaultdict(int)
    for player_id, currency, delta, after in conn.execute(
        "SELECT player_id, currency, delta, balance_after FROM ledger WHERE currency IS NOT NULL ORDER BY id"
    ):
        running[player_id, currency] += delta
        assert after == running[player_id, currency], (
            player_id,
            currency,
            after,
            running[player_id, currency],
        )
        assert after >= 0
    wallets = {(p, c): b for p, c, b in conn.execute("SELECT player_id, currency, balance FROM wallets")}
    assert all(b >= 0 for b in wallets.values()), wallets
    for key in set(wallets) | set(running):
        assert wallets.get(key, 0) == running.get(key, 0), (key, wallets.get(key), running.get(key))

    held: dict[tuple[int, int], int] = defaultdict(int)
    for card_id, player_id, delta in conn.execute(
        "SELECT card_id, player_id, delta FROM ledger WHERE card_id IS NOT NULL ORDER BY id"
    ):
        held[card_id, player_id] += delta
        # Cards only move by whole copies: nobody ever holds a copy twice or less than zero times.
        assert held[card_id, player_id] in (0, 1), (card_id, player_id)
    owners = dict(conn.execute("SELECT id, owner_id FROM cards").fetchall())
    for (card_id, player_id), count in held.items():
        assert count == (1 if owners[card_id] == player_id else 0), (
            card_id,
            player_id,
            count,
            owners[card_id],
        )
    for card_id, owner_id in owners.items():
        if owner_id is not None:
            assert held.get((card_id, owner_id)) == 1, (card_id, owner_id)


@pytest.fixture
def conservation() -> Callable[[Connection], None]:
    return check_conservation
