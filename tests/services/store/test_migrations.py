"""Migrations: every database ever deployed must reach the current schema with its rows intact, and a bad file
must leave the database exactly as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from store.migrate import MIGRATIONS_DIR, apply_sync, current_version
from tests.services.store.migrations import (
    LATEST,
    MIGRATIONS,
    SEEDS,
    plain,
    schema,
    tables,
    upgrade,
)


async def test_an_empty_database_reaches_the_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    assert await upgrade(path) == list(range(1, LATEST + 1))
    with plain(path) as conn:
        generic = [p for p in MIGRATIONS_DIR.glob("*.sql") if not p.name.endswith(".postgresql.sql")]
        assert current_version(conn) == LATEST == len(generic)
        assert {
            "players",
            "wallets",
            "cards",
            "ledger",
            "idempotency",
            "guild_settings",
            "schema_migrations",
        } <= (tables(conn))
        names = conn.execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()
        assert names == [(m.version, m.name) for m in MIGRATIONS]


@pytest.mark.parametrize("start", range(LATEST))
async def test_every_earlier_version_upgrades_and_keeps_its_rows(tmp_path: Path, start: int) -> None:
    path = tmp_path / f"v{start}.sqlite3"
    with plain(path) as conn:
        for version in range(1, start + 1):  # each version's rows are written while its tables exist
            assert apply_sync(conn, MIGRATIONS, target=version) == [version]
            if version in SEEDS:
                SEEDS[version][0](conn)
        assert current_version(conn) == start

    assert await upgrade(path) == list(range(start + 1, LATEST + 1))

    with plain(path) as conn:
        assert current_version(conn) == LATEST
        for version in range(1, start + 1):
            if version in SEEDS:
                SEEDS[version][1](conn)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_upgrading_from_each_version_gives_the_same_schema_as_a_fresh_install(tmp_path: Path) -> None:
    """A migration must not depend on the path taken: stepwise and one-shot installs end identical."""
    fresh = tmp_path / "fresh.sqlite3"
    await upgrade(fresh)
    with plain(fresh) as conn:
        expected = schema(conn)
    stepwise = tmp_path / "stepwise.sqlite3"
    with plain(stepwise) as conn:
        for version in range(1, LATEST + 1):
            apply_sync(conn, MIGRATIONS, target=version)
        assert schema(conn) == expected


async def test_rerunning_migrate_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "again.sqlite3"
    await upgrade(path)
    with plain(path) as conn:
        before = schema(conn), conn.execute("SELECT * FROM schema_migrations").fetchall()
    assert await upgrade(path) == []
    with plain(path) as conn:
        assert (schema(conn), conn.execute("SELECT * FROM schema_migrations").fetchall()) == before
