"""Versioned SQL migrations: numbered files applied in order at start-up, each in its own transaction."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from store.db import in_thread

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if not match:
            raise ValueError(f"migration file name must look like 0001_name.sql: {path.name}")
        found.append(Migration(int(match.group(1)), match.group(2), path.read_text(encoding="utf-8")))
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise ValueError(f"migration versions must be 1..N without gaps, got {versions}")
    return found


def current_version(conn: sqlite3.Connection) -> int:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
    )
    row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    return int(row[0])


def apply_sync(conn: sqlite3.Connection, migrations: list[Migration], target: int | None = None) -> list[int]:
    """Apply pending migrations up to `target`; a failing file leaves the database at the previous version."""
    applied: list[int] = []
    start = current_version(conn)
    for migration in migrations:
        if migration.version <= start or (target is not None and migration.version > target):
            continue
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{migration.sql}\n;\n"
            f"INSERT INTO schema_migrations (version, name) VALUES ({migration.version}, '{migration.name}');\n"
            "COMMIT;"
        )
        try:
            conn.executescript(script)
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise RuntimeError(f"migration {migration.version:04d}_{migration.name} failed: {exc}") from exc
        applied.append(migration.version)
    return applied


async def migrate(conn: aiosqlite.Connection, target: int | None = None) -> list[int]:
    migrations = discover()
    applied: list[int] = await in_thread(conn, apply_sync, migrations, target)
    return applied
