"""The test databases a process reuses (tests/fixtures/postgres.py, `lease`/`give_back`): what a test left
behind never reaches the next one, and a database whose schema a test changed is not handed out again."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from core.clock import ManualClock, to_db
from services.infra import ledger
from store.connection import Connection
from tests.fixtures.postgres import Cluster
from tests.services.conftest import open_postgres

GRANT = ledger.Movement("test.grant")


def snapshot(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows, and the id each identity column hands out next (read by inserting nothing)."""
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            str(r[0])
            for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
        ]
        found = {
            table: sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr) for table in tables
        }
        found["sequences"] = conn.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1"
        ).fetchall()
        return found


async def dirty(url: str) -> None:
    """What a test does: players, money and a card (the ledger's rows, which its trigger keeps from any
    DELETE), and a row of the template's own removed."""
    clock = ManualClock()
    database = await open_postgres(url)

    def unit(conn: Connection) -> None:
        for player in (1, 2):
            conn.execute("INSERT INTO players (id, created_at) VALUES (?, ?)", (player, to_db(clock.now())))
            ledger.credit(conn, clock.now(), player, "gold", 50, GRANT)
        ledger.mint_card(conn, clock.now(), 1, "hoss", "card", GRANT)
        conn.execute("DELETE FROM schema_migrations WHERE version = 1")

    try:
        await database.write(unit)
    finally:
        await database.close()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A cluster of this module's own: the session's serves the other tests, whose databases would be in
    its free list."""
    own = Cluster()
    own.start()
    try:
        template = own.create(template=None)

        async def migrate() -> None:
            await (await open_postgres(template)).close()

        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, migrate()).result()
        own.rename(template, "bot_template")
        yield own
    finally:
        own.stop()


def test_the_next_test_gets_the_same_database_as_the_template_made_it(cluster: Cluster) -> None:
    first = cluster.lease()
    pristine = snapshot(first)
    asyncio.run(dirty(first))
    assert snapshot(first) != pristine
    cluster.give_back(first)
    second = cluster.lease()
    assert second == first
    assert snapshot(second) == pristine


@pytest.mark.parametrize(
    "ddl",
    [
        "CREATE TABLE scratch (x BIGINT)",
        "ALTER TABLE players DROP COLUMN created_at",
        "DROP TRIGGER ledger_is_append_only_delete ON ledger",
        "CREATE INDEX scratch_index ON players (created_at)",
    ],
)
def test_a_database_whose_schema_changed_is_dropped(cluster: Cluster, ddl: str) -> None:
    first = cluster.lease()
    with psycopg.connect(first, autocommit=True) as conn:
        conn.execute(ddl)
    cluster.give_back(first)
    second = cluster.lease()
    assert second != first
    with psycopg.connect(cluster.url("postgres"), autocommit=True) as conn:
        names = {str(r[0]) for r in conn.execute("SELECT datname FROM pg_database")}
    assert first.rsplit("/", 1)[1] not in names


def test_a_session_left_open_is_ended_before_the_next_test(cluster: Cluster) -> None:
    first = cluster.lease()
    leftover = psycopg.connect(first, autocommit=True)
    try:
        cluster.give_back(first)
        with pytest.raises(psycopg.OperationalError):
            leftover.execute("INSERT INTO players (id, created_at) VALUES (9, 'x')")
    finally:
        leftover.close()
    assert cluster.lease() == first
