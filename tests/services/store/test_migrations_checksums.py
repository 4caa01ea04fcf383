"""A database is refused, unchanged, when its schema is not one these migration files produce: a newer
version, or an applied migration whose file was edited or renumbered since. Databases from before
checksums were kept get them recorded on their first start."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from store.connection import Connection
from store.migrate import MIGRATIONS_DIR, SchemaMismatch, apply_sync, current_version, discover
from tests.platform.bot_process import database_refusal
from tests.services.store.migrations import plain, schema, upgrade

LATEST = len(discover())


def copy_migrations(directory: Path) -> Path:
    directory.mkdir()
    for path in MIGRATIONS_DIR.glob("*.sql"):
        shutil.copy(path, directory / path.name)
    return directory


def recorded(conn: Connection) -> list[tuple[int, str, str | None]]:
    return conn.execute("SELECT version, name, checksum FROM schema_migrations ORDER BY version").fetchall()


def snapshot(conn: Connection) -> tuple[object, ...]:
    return schema(conn), recorded(conn)


def make_newer(conn: Connection) -> None:
    conn.execute(
        "INSERT INTO schema_migrations (version, name, checksum) VALUES (?, 'from_the_future', 'f00')",
        (LATEST + 1,),
    )


def tamper_checksum(conn: Connection) -> None:
    conn.execute("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 2")


async def test_each_applied_migration_records_the_sha256_of_its_file(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    await upgrade(path)
    # SQLite runs and records the generic files; a `.postgresql.sql` beside one is PostgreSQL's (store/pg_schema.py)
    files = sorted(f for f in MIGRATIONS_DIR.glob("*.sql") if not f.name.endswith(".postgresql.sql"))
    with plain(path) as conn:
        assert recorded(conn) == [
            (int(f.name[:4]), f.stem[5:], hashlib.sha256(f.read_text(encoding="utf-8").encode()).hexdigest())
            for f in files
        ]


async def test_a_newer_schema_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    await upgrade(path)
    with plain(path) as conn:
        make_newer(conn)
        before = snapshot(conn)
    with pytest.raises(SchemaMismatch) as caught:
        await upgrade(path)
    message = str(caught.value)
    assert (
        f"{path} has schema version {LATEST + 1}, newer than this version of the bot knows ({LATEST})"
        in message
    )
    assert "\n" not in message
    with plain(path) as conn:
        assert snapshot(conn) == before


def test_an_edited_migration_is_refused_before_anything_changes(tmp_path: Path) -> None:
    directory = copy_migrations(tmp_path / "migrations")
    with plain(tmp_path / "bot.sqlite3") as conn:
        apply_sync(conn, discover(directory), target=3)
        before = snapshot(conn)
        second = directory / "0002_settings.sql"
        second.write_text(
            second.read_text(encoding="utf-8") + "\n-- a comment added later\n", encoding="utf-8"
        )
        with pytest.raises(
            SchemaMismatch, match=r"different 0002_settings\.sql than the one in store/migrations"
        ):
            apply_sync(conn, discover(directory))
        assert snapshot(conn) == before
        assert not conn.in_transaction
        # A file edited after the last applied version is simply a pending migration.
        fifth = directory / "0005_hoss_battles.sql"
        fifth.write_text(fifth.read_text(encoding="utf-8") + "\n-- still pending\n", encoding="utf-8")
        second.write_text((MIGRATIONS_DIR / second.name).read_text(encoding="utf-8"), encoding="utf-8")
        assert apply_sync(conn, discover(directory)) == list(range(4, LATEST + 1))


def test_a_migration_numbered_differently_is_refused(tmp_path: Path) -> None:
    """Two branches that both added a 0010: the database applied one, the code ships the other as 0010."""
    first = tmp_path / "first"
    first.mkdir()
    (first / "0001_base.sql").write_text("CREATE TABLE base (x INTEGER);", encoding="utf-8")
    (first / "0002_theirs.sql").write_text("CREATE TABLE theirs (x INTEGER);", encoding="utf-8")
    second = tmp_path / "second"
    second.mkdir()
    shutil.copy(first / "0001_base.sql", second / "0001_base.sql")
    (second / "0002_ours.sql").write_text("CREATE TABLE ours (x INTEGER);", encoding="utf-8")
    (second / "0003_theirs.sql").write_text("CREATE TABLE theirs (x INTEGER);", encoding="utf-8")
    with plain(tmp_path / "bot.sqlite3") as conn:
        apply_sync(conn, discover(first))
        before = snapshot(conn)
        with pytest.raises(
            SchemaMismatch, match=r"applied 0002_theirs\.sql as migration 2.* is 0002_ours\.sql"
        ):
            apply_sync(conn, discover(second))
        assert snapshot(conn) == before


async def test_a_database_from_before_checksums_gets_them_on_its_first_start(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with plain(path) as conn:
        apply_sync(conn, discover(), target=4)
        # The table as every deployment before checksums has it.
        conn.execute("ALTER TABLE schema_migrations DROP COLUMN checksum")
        assert "checksum" not in {row[1] for row in conn.execute("PRAGMA table_info(schema_migrations)")}
    assert await upgrade(path) == list(range(5, LATEST + 1))
    with plain(path) as conn:
        assert current_version(conn) == LATEST
        assert [(v, c) for v, _, c in recorded(conn)] == [(m.version, m.checksum) for m in discover()]

    # From now on, the recorded checksums guard those four files like the others.
    directory = copy_migrations(tmp_path / "migrations")
    first = directory / "0001_core.sql"
    first.write_text(
        first.read_text(encoding="utf-8").replace("CREATE TABLE", "create table"), encoding="utf-8"
    )
    with plain(path) as conn, pytest.raises(SchemaMismatch, match=r"0001_core\.sql"):
        apply_sync(conn, discover(directory))


def test_a_refused_database_from_before_checksums_is_left_without_them(tmp_path: Path) -> None:
    directory = copy_migrations(tmp_path / "migrations")
    path = tmp_path / "old.sqlite3"
    with plain(path) as conn:
        apply_sync(conn, discover(directory), target=3)
        conn.execute("ALTER TABLE schema_migrations DROP COLUMN checksum")
        before = schema(conn), conn.execute("SELECT * FROM schema_migrations").fetchall()
        (directory / "0003_scheduler_outbox.sql").rename(directory / "0003_renamed.sql")
        with pytest.raises(SchemaMismatch, match=r"applied 0003_scheduler_outbox\.sql as migration 3"):
            apply_sync(conn, discover(directory))
        assert (schema(conn), conn.execute("SELECT * FROM schema_migrations").fetchall()) == before


@pytest.mark.parametrize("spoil", [make_newer, tamper_checksum], ids=["newer", "edited"])
def test_the_bot_refuses_to_start_on_it_with_exit_code_2(
    tmp_path: Path, spoil: Callable[[Connection], None]
) -> None:
    path = tmp_path / "bot.sqlite3"
    with plain(path) as conn:
        apply_sync(conn, discover())
        spoil(conn)
    line = database_refusal(tmp_path, path)
    assert line.startswith(f"Invalid setting DATABASE_PATH: {path} ")
    assert ("newer than this version" if spoil is make_newer else "0002_settings.sql") in line
